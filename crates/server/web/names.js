// @ts-check
// Seats' names when none is typed (pure: the unit tests run it under Node).

import { t } from "./i18n.js";

// Every seat's name: the one typed, or a default in the table's language ("Player 2", "greedy bot"), numbered when
// two would otherwise be the same ("greedy bot 2"). An open seat's is its joiner's: none here.
/**
 * @param {{ kind: string, name?: string, level?: string }[]} seats
 * @param {import("./actions.js").Translate} [tr]
 * @returns {(string | undefined)[]}
 */
export function defaultNames(seats, tr = t) {
  const typed = seats.map((s) => (s.kind === "open" ? null : (s.name || "").trim() || null));
  const taken = new Set(typed.filter(Boolean));
  return seats.map((s, i) => {
    if (s.kind === "open") return undefined;
    if (typed[i]) return typed[i];
    const base = s.kind === "bot" ? tr("defaultBot", { level: tr(s.level) }) : tr("defaultPlayer", { n: i + 1 });
    let name = base;
    for (let k = 2; taken.has(name); k++) name = `${base} ${k}`;
    taken.add(name);
    return name;
  });
}
