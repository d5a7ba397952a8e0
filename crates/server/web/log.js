// @ts-check
// What happened, in words, and where each player's points came from (pure: the unit tests run them under Node).
// Events are the server's (docs/record-format.md, "Events").

import { spaceWords } from "./actions.js";
import { t as translate } from "./i18n.js";

/**
 * An event as the server sends it (docs/record-format.md, "Events"): its type, and the fields of that type.
 * @typedef {{ type: string, [field: string]: any }} GameEvent
 */
/** @typedef {import("./actions.js").Translate} Translate */
/** @typedef {import("./actions.js").NameOf} NameOf */

// One event in a sentence: "Ana scored 8 for a city (4 tiles, 2 pennants)". `nameOf` names a seat.
/**
 * @param {GameEvent} e
 * @param {NameOf} [nameOf]
 * @param {Translate} [t]
 * @returns {string}
 */
export function eventText(e, nameOf = (p) => p, t = translate) {
  const who = (list) => (list || []).map((p) => nameOf(p)).join(", ");
  const feature = t(`feature_${e.feature}`);
  switch (e.type) {
    case "scored": {
      const why = [];
      if (e.tiles && (e.feature === "city" || e.feature === "road")) why.push(t("n_tiles", { n: e.tiles }));
      if (e.pennants) why.push(t("n_pennants", { n: e.pennants }));
      if (e.cities && e.feature === "field") why.push(t("n_cities", { n: e.cities }));
      if (e.reason && e.reason !== "completed" && e.reason !== "final") why.push(t(`reason_${e.reason}`));
      const detail = why.length ? ` (${why.join(", ")})` : "";
      if (!e.winners?.length || !e.points) return t("ev_scored_none", { feature }) + detail;
      return (
        t(e.when === "final" ? "ev_final" : "ev_scored", { who: who(e.winners), points: e.points, feature }) + detail
      );
    }
    case "dragon_moved":
      return t("ev_dragon", { who: nameOf(e.player), space: spaceWords(e.space, t) });
    case "meeple_returned":
      return t(e.cause === "dragon" ? "ev_eaten" : "ev_returned", {
        who: nameOf(e.player),
        kind: t(e.kind === "normal" ? "meeple" : e.kind),
      });
    case "volcano":
      return t("ev_volcano", { space: spaceWords(e.space, t) });
    case "fairy_moved":
      return t("ev_fairy", { who: nameOf(e.player) });
    case "fairy_points":
      return t("ev_fairy_points", { who: nameOf(e.player), points: e.points });
    case "game_ended":
      return t("ev_game_ended");
    case "discarded":
      return t("ev_discarded", { tile: e.tile });
    case "under_hill":
      return t("ev_under_hill");
    default:
      return e.type;
  }
}

// The kinds of points the final scores are split into.
export const POINT_KINDS = ["city", "road", "monastery", "field", "fairy"];

// Where each player's points came from, by kind of feature and by when (`turn`: during the game, `final`: at its
// end), from the game's events: `split` maps a seat to `{ "city:turn": n, "city:final": n, … }`; `used` lists the
// kinds anyone scored in. A feature of another kind (an abbey, a garden) counts as a monastery.
/**
 * @param {GameEvent[]} events
 * @param {{ player: string }[]} players
 * @returns {{ used: string[], split: Map<string, Record<string, number>> }}
 */
export function finalSplit(events, players) {
  const kinds = POINT_KINDS;
  const split = new Map(
    players.map((p) => [
      p.player,
      Object.fromEntries(
        kinds.flatMap((k) => [
          [`${k}:turn`, 0],
          [`${k}:final`, 0],
        ]),
      ),
    ]),
  );
  for (const e of events) {
    if (e.type === "scored" && e.points) {
      const k = kinds.includes(e.feature) ? e.feature : "monastery";
      for (const w of e.winners || []) split.get(w)[`${k}:${e.when}`] += e.points;
    } else if (e.type === "fairy_points") {
      split.get(e.player)["fairy:turn"] += e.points;
    }
  }
  const used = kinds.filter((k) =>
    players.some((p) => split.get(p.player)[`${k}:turn`] || split.get(p.player)[`${k}:final`]),
  );
  return { used, split };
}

// The points in view during a game: for each seat, its points so far by kind (the events up to now) and, when the
// server could work it out, what it would have if the game ended now (`ifEnded`: the scores and the ending's own
// events, from the server's view), by kind and in all. `max` is the highest score shown, for the bars.
/**
 * @param {GameEvent[]} events
 * @param {{ player: string, score: number }[]} players
 * @param {{ scores: number[], events: GameEvent[] } | null | undefined} ifEnded
 * @returns {{ used: string[], max: number, rows: { player: string, score: number, kinds: Record<string, number>,
 *   ending: Record<string, number>, ifEnded: number | null }[] }}
 */
export function standings(events, players, ifEnded) {
  const now = finalSplit(events, players);
  const end = finalSplit(ifEnded?.events || [], players);
  const used = POINT_KINDS.filter((k) => now.used.includes(k) || end.used.includes(k));
  const rows = players.map((p, i) => {
    const a = now.split.get(p.player),
      b = end.split.get(p.player);
    const kinds = Object.fromEntries(used.map((k) => [k, a[`${k}:turn`] + a[`${k}:final`]]));
    const ending = Object.fromEntries(used.map((k) => [k, b[`${k}:turn`] + b[`${k}:final`]]));
    const total = ifEnded?.scores?.[i];
    return { player: p.player, score: p.score, kinds, ending, ifEnded: typeof total === "number" ? total : null };
  });
  const max = Math.max(1, ...rows.map((r) => Math.max(r.score, r.ifEnded ?? 0)));
  return { used, max, rows };
}

// A message of the game's chat, as the server sends it (docs/server-api.md, "Chat"): written by `seat` (as `name`)
// when the game had `version` actions.
/** @typedef {{ n: number, seat: string, name: string, text: string, version: number, at: number }} ChatMessage */

// The log's lines in the order things happened: the events (each of action `e.action`) and the chat's messages
// (in the order written), a message after the events of the actions made before it was written and before those
// of the actions after.
/**
 * @param {GameEvent[]} events
 * @param {ChatMessage[]} chat
 * @returns {({ event: GameEvent } | { chat: ChatMessage })[]}
 */
export function logLines(events, chat) {
  const out = [];
  let i = 0;
  for (const m of chat) {
    while (i < events.length && events[i].action <= m.version) out.push({ event: events[i++] });
    out.push({ chat: m });
  }
  while (i < events.length) out.push({ event: events[i++] });
  return out;
}

// The chat's messages held and `more` (which may repeat some of them), each once, in the order written.
/**
 * @param {ChatMessage[]} held
 * @param {ChatMessage[]} more
 * @returns {ChatMessage[]}
 */
export function mergeChat(held, more) {
  const byN = new Map(held.map((m) => [m.n, m]));
  for (const m of more) byN.set(m.n, m);
  return [...byN.values()].sort((a, b) => a.n - b.n);
}
