// The legal actions in words, the orientations the rotate buttons go through, the default names.

import assert from "node:assert/strict";
import { test } from "node:test";
import { choiceLabel, segmentWords, spotLabels, spotTag, spotWords, turnOrientation } from "../../../web/actions.js";
import { translate } from "../../../web/i18n.js";
import { defaultNames } from "../../../web/names.js";

const en = (key, params) => translate("en", key, params);
const ro = (key, params) => translate("ro", key, params);
const names = { P1: "Ana", P2: "Bo" };
const nameOf = (p) => names[p];

test("a segment in words: its feature and where it touches the tile", () => {
  assert.equal(segmentWords("road@W", en), "road, west");
  assert.equal(segmentWords("field@Es", en), "field, south-east");
  assert.equal(segmentWords("field@inner#2", en), "field");
  assert.equal(segmentWords("monastery", en), "monastery");
  assert.equal(segmentWords("city@L", en), "city, long side");
  assert.equal(segmentWords("road@W", ro), "drum, vest");
});

test("every kind of spot says what it does, in words", () => {
  assert.equal(
    spotWords({ type: "deploy", figure: "meeple", segment: "road@W", text: "meeple road@W" }, nameOf, en),
    "a highwayman on the road, west",
  );
  assert.equal(spotWords({ type: "barn", corner: "NE", text: "barn NE" }, nameOf, en), "barn at the north-east corner");
  assert.equal(
    spotWords(
      { type: "portal", figure: "mayor", space: "1,0", segment: "city@N", text: "portal mayor 1,0 city@N" },
      nameOf,
      en,
    ),
    "mayor through the portal onto the city, north, on the space 1 east of the start tile",
  );
  assert.equal(
    spotWords(
      {
        type: "princess",
        player: "P2",
        figure: "meeple",
        space: "0,1",
        segment: "city@N",
        text: "princess P2 meeple 0,1 city@N",
      },
      nameOf,
      en,
    ),
    "send Bo's meeple on the city, north home",
  );
  assert.equal(
    spotWords({ type: "fairy", space: "2,2", text: "fairy 2,2" }, nameOf, en),
    "fairy to the space 2 east and 2 north of the start tile",
  );
  assert.equal(
    spotWords(
      {
        type: "crop-remove",
        player: "P1",
        figure: "meeple",
        space: "0,0",
        segment: "field@Nw",
        text: "remove P1 meeple 0,0 field@Nw",
      },
      nameOf,
      ro,
    ),
    "ia înapoi figura (omuleț) lui Ana de pe câmp, nord-vest, pe locul piesei de start",
  );
  assert.equal(spotWords({ type: "something new", text: "new 1" }, nameOf, en), "new 1");
});

test("spot labels are capitalised, and two that read the same say their notation", () => {
  const a = { type: "crop-add", figure: "meeple", space: "0,0", segment: "city@N", text: "add meeple 0,0 city@N" };
  const b = { ...a, text: "add meeple 0,0 city@E" };
  const c = { type: "deploy", figure: "meeple", segment: "road@S", text: "meeple road@S" };
  const labels = spotLabels([a, b, c], nameOf, en);
  assert.equal(labels.get("meeple road@S"), "A highwayman on the road, south");
  assert.equal(
    labels.get("add meeple 0,0 city@N"),
    "Add a meeple on the city, north, on the start tile's space (add meeple 0,0 city@N)",
  );
  assert.equal(
    labels.get("add meeple 0,0 city@E"),
    "Add a meeple on the city, north, on the start tile's space (add meeple 0,0 city@E)",
  );
});

test("a spot's tag: the feature's letter, the barn's figure", () => {
  assert.deepEqual(spotTag({ type: "deploy", segment: "field@Nw" }, en), { tag: "F", tagWhenMoved: false });
  assert.deepEqual(spotTag({ type: "deploy", segment: "road@E" }, ro), { tag: "D", tagWhenMoved: false });
  assert.deepEqual(spotTag({ type: "princess", segment: "city@N" }, en), { tag: "C", tagWhenMoved: true });
  assert.deepEqual(spotTag({ type: "barn", corner: "SW" }, en), { tag: "barn" });
  assert.deepEqual(spotTag({ type: "deploy", segment: "abbey" }, en), {});
});

test("a crop-circle choice in words, from the action's parts", () => {
  assert.equal(
    choiceLabel({ type: "crop", crop: "A", text: "crop A" }, en),
    "A — everyone may add a figure beside one of theirs",
  );
  assert.equal(
    choiceLabel({ type: "crop", role: "knight", crop: "B", text: "crop knight B" }, en),
    "knights: B — everyone takes one of theirs back",
  );
  assert.equal(choiceLabel({ type: "crop", role: "highwayman", text: "crop highwayman" }, ro), "tâlhari");
  assert.equal(choiceLabel({ type: "other", text: "something" }, en), "something");
});

test("rotating goes through the legal orientations only, in order, both ways, round", () => {
  assert.equal(turnOrientation(["r270", "r0", "r90"], "r0", 1), "r90");
  assert.equal(turnOrientation(["r270", "r0", "r90"], "r270", 1), "r0");
  assert.equal(turnOrientation(["r270", "r0", "r90"], "r0", -1), "r270");
  assert.equal(turnOrientation(["SW", "NE"], "NE", 1), "SW");
  assert.equal(turnOrientation(["r180"], "r180", 1), "r180");
});

test("default names: by kind and level, in the language given, numbered when repeated", () => {
  const seats = [
    { kind: "person", name: "" },
    { kind: "bot", level: "greedy", name: "" },
    { kind: "bot", level: "greedy", name: " " },
    { kind: "open" },
    { kind: "bot", level: "hard", name: "Zed" },
  ];
  assert.deepEqual(defaultNames(seats, en), ["Player 1", "greedy bot", "greedy bot 2", undefined, "Zed"]);
  assert.deepEqual(defaultNames(seats, ro), ["Jucătorul 1", "Robot lacom", "Robot lacom 2", undefined, "Zed"]);
  // A typed name that is a default's keeps it; the default moves on.
  assert.deepEqual(
    defaultNames(
      [
        { kind: "person", name: "greedy bot" },
        { kind: "bot", level: "greedy", name: "" },
      ],
      en,
    ),
    ["greedy bot", "greedy bot 2"],
  );
});
