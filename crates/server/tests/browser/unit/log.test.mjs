// What happened in words, and the final scores' split by kind of feature.

import assert from "node:assert/strict";
import { test } from "node:test";
import { translate } from "../../../web/i18n.js";
import { eventText, finalSplit, standings } from "../../../web/log.js";

const en = (key, params) => translate("en", key, params);
const ro = (key, params) => translate("ro", key, params);
const nameOf = (p) => ({ P1: "Ana", P2: "Bo" })[p];

test("a scoring says who, how much, for what, and why", () => {
  const e = {
    type: "scored",
    feature: "city",
    winners: ["P1"],
    points: 10,
    tiles: 4,
    pennants: 1,
    when: "turn",
    reason: "completed",
  };
  assert.equal(eventText(e, nameOf, en), "Ana scored 10 for a city (4 tiles, 1 pennant)");
  assert.equal(eventText({ ...e, tiles: 21, pennants: 0 }, nameOf, ro), "Ana a marcat 10 pentru un oraș (21 de piese)");
  assert.equal(
    eventText({ ...e, winners: [], points: 0 }, nameOf, en),
    "A city was completed (nobody scores) (4 tiles, 1 pennant)",
  );
  assert.equal(
    eventText(
      {
        type: "scored",
        feature: "field",
        winners: ["P1", "P2"],
        points: 9,
        cities: 3,
        when: "final",
        reason: "farmers",
      },
      nameOf,
      en,
    ),
    "Final scoring: Ana, Bo 9 for a field (3 completed cities, farmers)",
  );
});

test("other events, and one not known yet", () => {
  assert.equal(
    eventText({ type: "dragon_moved", player: "P2", space: "1,1" }, nameOf, en),
    "Bo moved the dragon to the space 1 east and 1 north of the start tile",
  );
  assert.equal(
    eventText({ type: "meeple_returned", player: "P1", kind: "normal", cause: "dragon" }, nameOf, en),
    "The dragon ate Ana's meeple",
  );
  assert.equal(eventText({ type: "fairy_points", player: "P1", points: 3 }, nameOf, en), "Ana scored 3 with the fairy");
  assert.equal(eventText({ type: "brand_new" }, nameOf, en), "brand_new");
});

test("the final split adds each player's points by kind and by when, fairy included", () => {
  const players = [{ player: "P1" }, { player: "P2" }];
  const events = [
    { type: "scored", feature: "city", winners: ["P1"], points: 8, when: "turn" },
    { type: "scored", feature: "city", winners: ["P1", "P2"], points: 3, when: "final" },
    { type: "scored", feature: "abbey", winners: ["P2"], points: 9, when: "turn" },
    { type: "scored", feature: "road", winners: [], points: 0, when: "turn" },
    { type: "fairy_points", player: "P2", points: 1 },
    { type: "dragon_moved", player: "P1", space: "0,0" },
  ];
  const { used, split } = finalSplit(events, players);
  assert.deepEqual(used, ["city", "monastery", "fairy"]);
  assert.equal(split.get("P1")["city:turn"], 8);
  assert.equal(split.get("P1")["city:final"], 3);
  assert.equal(split.get("P2")["city:final"], 3);
  assert.equal(split.get("P2")["monastery:turn"], 9);
  assert.equal(split.get("P2")["fairy:turn"], 1);
});

test("the points in view: so far by kind, and what the ending would add, by kind and in all", () => {
  const players = [
    { player: "P1", score: 14 },
    { player: "P2", score: 3 },
  ];
  const events = [
    { type: "scored", feature: "city", winners: ["P1"], points: 10, when: "turn" },
    { type: "scored", feature: "road", winners: ["P1", "P2"], points: 3, when: "turn" },
    { type: "fairy_points", player: "P1", points: 1 },
  ];
  const ifEnded = {
    scores: [14, 9],
    events: [{ type: "scored", feature: "field", winners: ["P2"], points: 6, when: "final" }],
  };
  const s = standings(events, players, ifEnded);
  assert.deepEqual(s.used, ["city", "road", "field", "fairy"]);
  assert.equal(s.max, 14);
  assert.deepEqual(s.rows[0], {
    player: "P1",
    score: 14,
    kinds: { city: 10, road: 3, field: 0, fairy: 1 },
    ending: { city: 0, road: 0, field: 0, fairy: 0 },
    ifEnded: 14,
  });
  assert.deepEqual(s.rows[1].ending, { city: 0, road: 0, field: 6, fairy: 0 });
  assert.equal(s.rows[1].ifEnded, 9);
  // Without the server's ending (it could not be worked out), only the points so far.
  assert.equal(standings(events, players, null).rows[1].ifEnded, null);
});
