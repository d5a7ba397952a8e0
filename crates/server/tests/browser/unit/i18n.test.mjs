// The table's words: Romanian plurals by Intl.PluralRules, placeholders, and every key in both languages.

import assert from "node:assert/strict";
import { test } from "node:test";
import { pluralCategory, translate } from "../../../web/i18n.js";

test("Romanian counts take their plural form: 1 piesă, 19 piese, 20 de piese, 101 piese", () => {
  const stack = (n) => translate("ro", "stack", { n });
  assert.equal(stack(1), "1 piesă rămasă");
  assert.equal(stack(0), "0 piese rămase");
  assert.equal(stack(2), "2 piese rămase");
  assert.equal(stack(19), "19 piese rămase");
  assert.equal(stack(20), "20 de piese rămase");
  assert.equal(stack(100), "100 de piese rămase");
  assert.equal(stack(101), "101 piese rămase");
  assert.equal(stack(120), "120 de piese rămase");
  assert.equal(translate("ro", "n_pennants", { n: 25 }), "25 de steme");
  assert.equal(pluralCategory("ro", 21), "other");
});

test("English counts: one and other", () => {
  assert.equal(translate("en", "stack", { n: 1 }), "1 tile left");
  assert.equal(translate("en", "stack", { n: 0 }), "0 tiles left");
  assert.equal(translate("en", "n_tiles", { n: 20 }), "20 tiles");
});

test("placeholders are filled, and a missing key falls back to English, then to the key", () => {
  assert.equal(translate("en", "turnOf", { name: "Ana" }), "Ana's turn");
  assert.equal(translate("ro", "turnOf", { name: "Ana" }), "Rândul lui Ana");
  assert.equal(translate("ro", "no such key"), "no such key");
  assert.equal(translate("en", "waitingFor"), "Waiting for {name}");
});
