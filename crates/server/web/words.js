// @ts-check
// Actions in a player's words (pure: the unit tests run them under Node): "place a road bend 1 east of the start
// tile, turned a quarter clockwise", "put a knight on the city, north". The hint, the list of every legal action and
// the log say them this way; the notation stays what is sent back to the server. A tile is named from its catalogue
// data (its cities, roads and monastery), so a tile file of one's own reads as well as the published tiles.

import { capitalise, figureWords, segmentWords, spaceWords, spotWords } from "./actions.js";
import { t as translate } from "./i18n.js";

/** @typedef {import("./actions.js").Action} Action */
/** @typedef {import("./actions.js").Translate} Translate */
/** @typedef {import("./actions.js").NameOf} NameOf */
/**
 * A tile kind as `GET /api/games/{id}/tiles` sends it (the parts named here).
 * @typedef {{ id: string, shape?: string, segments: { kind: string, positions?: string[] }[] }} TileDef
 */

const SIDES = ["N", "E", "S", "W"];
const opposite = (a, b) => Math.abs(SIDES.indexOf(a) - SIDES.indexOf(b)) === 2;

/** @param {string[] | undefined} positions the sides a segment touches (`N`, `E`, …; a triangle's long side `L`) */
const sidesOf = (positions) => (positions || []).filter((p) => p.length === 1);

// A tile's cities in words: one city by how many sides it takes, or the separate caps.
/**
 * @param {{ positions?: string[] }[]} cities
 * @param {Translate} t
 */
function cityWords(cities, t) {
  if (cities.length > 1) return t("tile_cities", { n: cities.length });
  const s = sidesOf(cities[0].positions);
  if (s.length >= 4) return t("tile_city4");
  if (s.length === 3) return t("tile_city3");
  if (s.length === 2) return t(opposite(s[0], s[1]) ? "tile_city_band" : "tile_city_corner");
  return t("tile_city1");
}

// A tile's roads in words: one road through the tile by its shape, or the roads that meet (or end) on it.
/**
 * @param {{ positions?: string[] }[]} roads
 * @param {Translate} t
 */
function roadWords(roads, t) {
  if (roads.length === 1) {
    const s = sidesOf(roads[0].positions);
    if (s.length === 2) return t(opposite(s[0], s[1]) ? "tile_road_straight" : "tile_road_bend");
    return t("tile_road");
  }
  if (roads.length === 3) return t("tile_junction3");
  if (roads.length === 4) return t("tile_junction4");
  return t("tile_roads", { n: roads.length });
}

/**
 * A tile in words, with its article: "a road bend", "a city edge with a straight road", "a monastery with a road".
 * @param {TileDef | undefined} tile
 * @param {Translate} [t]
 * @returns {string}
 */
export function tileWords(tile, t = translate) {
  if (!tile) return t("tile_some");
  if (tile.shape === "abbey") return t("abbey_tile");
  const of = (kind) => tile.segments.filter((s) => s.kind === kind);
  const cities = of("city"),
    roads = of("road");
  const monastery = of("monastery").length > 0;
  let main;
  if (monastery) main = t("tile_monastery");
  else if (cities.length) main = cityWords(cities, t);
  else if (roads.length) main = roadWords(roads, t);
  else main = t("tile_field");
  const rest = [];
  if ((monastery || cities.length) && roads.length) rest.push(roadWords(roads, t));
  if (monastery && cities.length) rest.push(cityWords(cities, t));
  const words = rest.length ? t("tile_with", { a: main, b: rest.join(t("and")) }) : main;
  return tile.shape === "triangle" ? t("tile_triangle", { tile: words }) : words;
}

/**
 * How a placement is turned, in words ("" when it is not): "turned a quarter clockwise"; a triangle by the corner
 * its right angle points to.
 * @param {string | undefined} orient
 * @param {Translate} [t]
 */
export function turnWords(orient, t = translate) {
  if (!orient || orient === "r0") return "";
  if (orient.startsWith("r")) return t(`turn_${orient}`);
  return t("turn_corner", { where: t(`dir_${orient}`) });
}

/**
 * @typedef {object} Context
 * @property {NameOf} [nameOf] names a seat
 * @property {(id: string) => TileDef | undefined} [tileOf] a tile kind by its id
 * @property {string} [pending] the decision's kind (`phase1`, `phase2`, …), to say what passing means
 */

/**
 * An action in words, as an instruction to the player whose decision it is: "place a road bend 1 east of the start
 * tile, turned a quarter clockwise", "put a knight on the city, north", "draw a tile".
 * @param {Action} a
 * @param {Context} [ctx]
 * @param {Translate} [t]
 * @returns {string}
 */
export function actionWords(a, ctx = {}, t = translate) {
  const { nameOf = (p) => p, tileOf = () => undefined, pending = "" } = ctx;
  switch (a.type) {
    case "place": {
      const text = t("do_place", { tile: tileWords(tileOf(a.tile || ""), t), where: spaceWords(a.space, t) });
      const turn = turnWords(a.orient, t);
      return turn ? `${text}, ${turn}` : text;
    }
    case "deploy":
      return t("do_deploy", { figure: figureWords(a.figure, a.segment, t), segment: segmentWords(a.segment, t) });
    case "pick":
      return t("do_pick", { tile: tileWords(tileOf(a.tile || ""), t) });
    case "pass":
      return t(pending === "phase1" ? "do_draw" : pending === "phase2" ? "do_no_figure" : "do_pass");
    case "dragon":
      return t(`dragon_${a.dir}`);
    default: {
      const words = spotWords(a, nameOf, t);
      return words === a.text ? a.text : words;
    }
  }
}

/**
 * What a seat did, for the log: "Ana placed a road bend on the space 1 east of the start tile", "Bo put a knight on
 * the city, north". An action the log has no sentence for (a draw, a pass) is `null`.
 * @param {string} by the seat that took it
 * @param {Action} a the action's parts (a `played` event's `move`)
 * @param {Context} [ctx]
 * @param {Translate} [t]
 * @returns {string | null}
 */
export function didWords(by, a, ctx = {}, t = translate) {
  const { nameOf = (p) => p, tileOf = () => undefined } = ctx;
  const who = nameOf(by);
  switch (a.type) {
    case "place":
      return t("did_place", { who, tile: tileWords(tileOf(a.tile || ""), t), where: spaceWords(a.space, t) });
    case "deploy":
      return t("did_deploy", {
        who,
        figure: figureWords(a.figure, a.segment, t),
        segment: segmentWords(a.segment, t),
      });
    case "barn":
      return t("did_barn", { who });
    case "pick":
      return t("did_pick", { who });
    case "draw":
    case "pass":
    case "dragon":
      return null;
    default: {
      const words = spotWords(a, nameOf, t);
      return words === a.text ? null : t("did_other", { who, what: words });
    }
  }
}

/**
 * A feature in words, for the spot that would join it: "City: 3 tiles, 1 pennant, held by Ana, 8 points when
 * scored now".
 * @param {{ kind: string, complete: boolean, tiles: number, pennants: number, holders: string[],
 *   points: number | null }} f a view's `spot_features` entry
 * @param {NameOf} [nameOf]
 * @param {Translate} [t]
 */
export function featureWords(f, nameOf = (p) => p, t = translate) {
  const parts = [];
  if (f.kind !== "monastery" && f.kind !== "abbey") parts.push(t("n_tiles", { n: f.tiles }));
  if (f.pennants) parts.push(t("n_pennants", { n: f.pennants }));
  if (f.complete) parts.push(t("feat_complete"));
  parts.push(f.holders.length ? t("feat_held", { who: f.holders.map(nameOf).join(t("and")) }) : t("feat_free"));
  if (typeof f.points === "number") parts.push(t(f.complete ? "feat_worth" : "feat_worth_end", { n: f.points }));
  return `${capitalise(t(`feature_${f.kind}`))}: ${parts.join(", ")}`;
}
