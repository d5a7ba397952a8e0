// @ts-check
// A rule option in the player's words (pure: the unit tests run it under Node): its name, what it changes, each
// value. The server's own line (English) and the key stand in for an option the table has no words for (a newer
// server's).

import { t as translate } from "./i18n.js";

/** @typedef {import("./actions.js").Translate} Translate */
/** @typedef {{ key: string, doc: string }} RuleOption */

/**
 * @param {Translate} t
 * @param {string} key
 * @param {string} fallback
 */
const or = (t, key, fallback) => {
  const s = t(key);
  return s === key ? fallback : s;
};

/**
 * An option's name: "A two-tile city".
 * @param {RuleOption} o
 * @param {Translate} [t]
 */
export const optionName = (o, t = translate) => {
  const m = o.key.startsWith("modules.") ? o.key.slice(8) : null;
  if (m) return or(t, `module_${m === "crop_circles" ? "crop" : m}`, o.key);
  return or(t, `opt.${o.key}`, o.key);
};

/**
 * What an option changes, in a line.
 * @param {RuleOption} o
 * @param {Translate} [t]
 */
export const optionDoc = (o, t = translate) =>
  o.key.startsWith("modules.") ? t("moduleSwitch") : or(t, `optdoc.${o.key}`, o.doc);

/**
 * One of an option's values in words (a number stays a number).
 * @param {{ key: string }} o
 * @param {string} v
 * @param {Translate} [t]
 */
export const valueName = (o, v, t = translate) =>
  o.key.startsWith("modules.") ? t(v === "true" ? "switchOn" : "switchOff") : or(t, `val.${o.key}.${v}`, v);
