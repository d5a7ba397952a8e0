// @ts-check
// The legal actions in words (pure: the unit tests run them under Node). The server names each action's parts
// (type, tile, space, orient, figure, segment, player, dir, crop, role, docs/server-api.md); nothing here parses
// notation.

import { t as translate } from "./i18n.js";

/**
 * A legal action as the server sends it: its notation (to send back) and its parts, those that apply to its kind.
 * @typedef {object} Action
 * @property {string} text the action in record notation
 * @property {string} type `place`, `pick`, `deploy`, `barn`, `wagon-move`, `portal`, `princess`, `fairy`, `dragon`,
 *   `crop`, `crop-add`, `crop-remove`, `pass`, …
 * @property {string} [tile] the tile's id
 * @property {string} [space] the space (`1,0`): where the tile goes, or where the segment acted on lies
 * @property {string} [orient] `r0`..`r270`, or a triangle's right-angle corner
 * @property {string} [corner] the barn's corner, or the triangle on `space` whose segment is meant
 * @property {string} [figure] `meeple`, `mayor` or `wagon`
 * @property {string} [segment] the segment by its name on its tile (`road@E`, `monastery`)
 * @property {string} [player] the owner of the follower acted on
 * @property {boolean} [with_fairy] that follower is the one the fairy stands next to
 * @property {string} [dir] the dragon's step
 * @property {string} [crop] a crop-circle choice's action, `A` or `B`
 * @property {string} [role] a crop-circle choice's role (`knight`, `highwayman`, `farmer`)
 */

/** @typedef {(key: string, params?: Record<string, any>) => string} Translate */
/** @typedef {(seat: string) => string} NameOf */

/**
 * A crop-circle choice in words, from its action (`A`, `B`) and its role: "knights: B — everyone takes one of
 * theirs back". Any other choice is its notation.
 * @param {Action} a
 * @param {Translate} [t]
 */
export function choiceLabel(a, t = translate) {
  if (a.type !== "crop") return a.text;
  const parts = [];
  if (a.role) parts.push(t(`role_${a.role}`));
  if (a.crop) parts.push(t(`crop_${a.crop}`));
  return parts.join(": ") || a.text;
}

// A segment in words: "road, west", "field, north-east", "monastery". A field's half-edge (`Nw`, `Es`) is named by
// the corner it is nearer to; a triangle's long side is `L`.
const HALF_DIR = { Nw: "NW", Ne: "NE", En: "NE", Es: "SE", Se: "SE", Sw: "SW", Ws: "SW", Wn: "NW", La: "L", Lb: "L" };
/**
 * @param {string | undefined} segment
 * @param {Translate} [tr]
 */
export function segmentWords(segment, tr = translate) {
  if (!segment) return "";
  const [kind, rest = ""] = segment.split("@");
  const feature = tr(`feature_${kind}`);
  const pos = rest.split("#")[0];
  const dir = pos.length === 1 ? pos : HALF_DIR[pos];
  return dir ? tr("featureAt", { feature, where: tr(`dir_${dir}`) }) : feature;
}

/**
 * A space in words, from the start tile's: "the space 1 east and 2 north of the start tile".
 * @param {string | undefined} space `x,y`, north up
 * @param {Translate} [t]
 */
export function spaceWords(space, t = translate) {
  const [x, y] = (space || "").split(",").map(Number);
  if (!space || !Number.isFinite(x) || !Number.isFinite(y)) return space || "";
  const parts = [];
  if (x) parts.push(t(x > 0 ? "sp_east" : "sp_west", { n: Math.abs(x) }));
  if (y) parts.push(t(y > 0 ? "sp_north" : "sp_south", { n: Math.abs(y) }));
  if (!parts.length) return t("sp_start");
  return t("sp_of", { where: parts.join(t("and")) });
}

/**
 * The name of the figure a deployment puts down: a meeple by its role (knight, highwayman, monk, farmer), the
 * others by what they are.
 * @param {string | undefined} figure
 * @param {string | undefined} segment
 * @param {Translate} [t]
 */
export function figureWords(figure, segment, t = translate) {
  if (figure && figure !== "meeple") return t(`one_${figure}`);
  const feature = (segment || "").split("@")[0];
  const role = { city: "knight", road: "highwayman", field: "farmer" }[feature] || "monk";
  return t(`one_${role}`);
}

/** @param {string} s */
export const capitalise = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * What a spot does, in words: "meeple on the road, west". `nameOf` names a seat.
 * @param {Action} a
 * @param {NameOf} [nameOf]
 * @param {Translate} [t]
 * @returns {string}
 */
export function spotWords(a, nameOf = (p) => p, t = translate) {
  const segment = segmentWords(a.segment, t);
  const who = a.player ? nameOf(a.player) : "";
  const figure = a.figure ? t(a.figure) : "";
  const space = spaceWords(a.space, t);
  switch (a.type) {
    case "deploy":
      return t("spot_deploy", { figure: figureWords(a.figure, a.segment, t), segment });
    case "barn":
      return t("spot_barn", { where: t(`dir_${a.corner}`) });
    case "portal":
      return t("spot_portal", { figure, segment, space });
    case "wagon-move":
      return t("spot_wagon", { segment, space });
    case "princess":
      return t("spot_princess", { who, figure, segment });
    case "fairy":
      return a.player ? t("spot_fairy_next", { who, figure, segment, space }) : t("spot_fairy_space", { space });
    case "crop-add":
      return t("spot_crop_add", { figure, segment, space });
    case "crop-remove":
      return t("spot_crop_remove", { who, figure, segment, space });
    default:
      return a.text;
  }
}

// Each spot's accessible name and tooltip, by its action's text: its words, capitalised. Two spots that would read
// the same (two like meeples after a crop circle) say their notation too.
/**
 * @param {Action[]} actions
 * @param {NameOf} [nameOf]
 * @param {Translate} [t]
 * @returns {Map<string, string>}
 */
export function spotLabels(actions, nameOf = (p) => p, t = translate) {
  const words = actions.map((a) => [a.text, capitalise(spotWords(a, nameOf, t))]);
  const count = new Map();
  for (const [, w] of words) count.set(w, (count.get(w) || 0) + 1);
  return new Map(words.map(([text, w]) => [text, count.get(w) > 1 ? `${w} (${text})` : w]));
}

// What a spot says it is: the barn's figure, or the letter of the feature its segment belongs to. A ring around a
// figure (the princess's, a removal) says it only when it had to move off the figure.
/**
 * @param {Action} a
 * @param {Translate} [t]
 * @returns {{ tag?: string, tagWhenMoved?: boolean }}
 */
export function spotTag(a, t = translate) {
  if (a.type === "barn") return { tag: "barn" };
  const feature = (a.segment || "").split("@")[0];
  if (!["city", "road", "field", "monastery"].includes(feature)) return {};
  return { tag: t(`letter_${feature}`), tagWhenMoved: a.type === "princess" || a.type === "crop-remove" };
}

// The orientations of a placement in the order the rotate buttons go through them.
const ORIENT_ORDER = ["r0", "r90", "r180", "r270", "NE", "SE", "SW", "NW"];

// The orientation `d` steps (1: clockwise, -1: back) from `current` among the legal ones `orients`.
/**
 * @param {string[]} orients
 * @param {string} current
 * @param {number} d
 */
export function turnOrientation(orients, current, d) {
  const os = [...orients].sort((a, b) => ORIENT_ORDER.indexOf(a) - ORIENT_ORDER.indexOf(b));
  const i = os.indexOf(current);
  return os[(i + d + os.length) % os.length];
}
