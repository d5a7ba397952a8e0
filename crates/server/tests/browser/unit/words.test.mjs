// Actions in a player's words: tiles named from their segments, spaces from the start tile, turns, figures by role,
// and the log's sentences.

import assert from "node:assert/strict";
import { test } from "node:test";
import { spaceWords } from "../../../web/actions.js";
import { translate } from "../../../web/i18n.js";
import { actionWords, didWords, tileWords, turnWords } from "../../../web/words.js";

const en = (key, params) => translate("en", key, params);
const ro = (key, params) => translate("ro", key, params);
const names = { P1: "Ana", P2: "Bo" };
const nameOf = (p) => names[p];

// Tiles as the catalogue describes them: the base game's D, A, U, V, W, X, and a few more.
const seg = (kind, ...positions) => ({ kind, positions });
const TILES = {
  "base/A": { id: "base/A", segments: [seg("monastery"), seg("road", "S"), seg("field", "Nw", "Ne")] },
  "base/D": { id: "base/D", segments: [seg("city", "N"), seg("road", "E", "W"), seg("field", "En", "Wn")] },
  "base/U": { id: "base/U", segments: [seg("road", "N", "S"), seg("field", "Nw")] },
  "base/V": { id: "base/V", segments: [seg("road", "S", "W"), seg("field", "Nw")] },
  "base/W": { id: "base/W", segments: [seg("road", "E"), seg("road", "S"), seg("road", "W"), seg("field", "Nw")] },
  "base/X": { id: "base/X", segments: [seg("road", "N"), seg("road", "E"), seg("road", "S"), seg("road", "W")] },
  "base/C": { id: "base/C", segments: [seg("city", "N", "E", "S", "W")] },
  "base/G": { id: "base/G", segments: [seg("city", "E", "W"), seg("field", "Nw")] },
  "base/I": { id: "base/I", segments: [seg("city", "N", "W"), seg("field", "Es")] },
  "base/J": { id: "base/J", segments: [seg("city", "N"), seg("city", "S"), seg("field", "En")] },
  "base/Q": { id: "base/Q", segments: [seg("city", "N", "E", "W"), seg("road", "S"), seg("field", "Sw")] },
  "base/B": { id: "base/B", segments: [seg("monastery"), seg("field", "Nw")] },
  "half/1": { id: "half/1", shape: "triangle", segments: [seg("road", "N", "E"), seg("field", "L")] },
  "am/abbey": { id: "am/abbey", shape: "abbey", segments: [seg("abbey")] },
};
const tileOf = (id) => TILES[id];

test("a tile in words, from its cities, roads and monastery", () => {
  const words = Object.fromEntries(Object.keys(TILES).map((id) => [id, tileWords(TILES[id], en)]));
  assert.deepEqual(words, {
    "base/A": "a monastery with a road",
    "base/D": "a city edge with a straight road",
    "base/U": "a straight road",
    "base/V": "a road bend",
    "base/W": "a three-way junction",
    "base/X": "a crossroads",
    "base/C": "a city filling the tile",
    "base/G": "a city band",
    "base/I": "a city corner",
    "base/J": "2 separate city edges",
    "base/Q": "a three-sided city with a road",
    "base/B": "a monastery",
    "half/1": "a triangle with a road bend",
    "am/abbey": "an abbey",
  });
  assert.equal(tileWords(TILES["base/V"], ro), "o curbă de drum");
  assert.equal(tileWords(undefined, en), "a tile");
});

test("a space from the start tile's, a turn in words", () => {
  assert.equal(spaceWords("0,0", en), "the start tile's space");
  assert.equal(spaceWords("1,0", en), "the space 1 east of the start tile");
  assert.equal(spaceWords("-2,3", en), "the space 2 west and 3 north of the start tile");
  assert.equal(spaceWords("0,-1", ro), "locul aflat la 1 spre sud de piesa de start");
  assert.equal(spaceWords("nowhere", en), "nowhere");
  assert.equal(turnWords("r0", en), "");
  assert.equal(turnWords("r90", en), "turned a quarter clockwise");
  assert.equal(turnWords("r270", en), "turned a quarter anticlockwise");
  assert.equal(turnWords("SW", en), "with its right angle to the south-west");
});

test("every kind of action as an instruction, never in notation", () => {
  const ctx = { nameOf, tileOf, pending: "place_tile" };
  assert.equal(
    actionWords({ type: "place", tile: "base/V", space: "1,0", orient: "r90", text: "place base/V 1,0 r90" }, ctx, en),
    "place a road bend on the space 1 east of the start tile, turned a quarter clockwise",
  );
  assert.equal(
    actionWords({ type: "place", tile: "base/D", space: "0,1", orient: "r0", text: "place base/D 0,1 r0" }, ctx, en),
    "place a city edge with a straight road on the space 1 north of the start tile",
  );
  const deploy = (segment, figure = "meeple") => ({ type: "deploy", figure, segment, text: `${figure} ${segment}` });
  assert.equal(actionWords(deploy("city@N"), ctx, en), "put a knight on the city, north");
  assert.equal(actionWords(deploy("road@W"), ctx, en), "put a highwayman on the road, west");
  assert.equal(actionWords(deploy("field@Es"), ctx, en), "put a farmer on the field, south-east");
  assert.equal(actionWords(deploy("monastery"), ctx, en), "put a monk on the monastery");
  assert.equal(actionWords(deploy("city@E", "mayor"), ctx, en), "put the mayor on the city, east");
  assert.equal(actionWords(deploy("city@N"), ctx, ro), "pune un cavaler pe oraș, nord");
  assert.equal(actionWords({ type: "pass", text: "pass" }, { pending: "phase1" }, en), "draw a tile");
  assert.equal(actionWords({ type: "pass", text: "pass" }, { pending: "phase2" }, en), "place no figure");
  assert.equal(actionWords({ type: "pass", text: "pass" }, { pending: "princess" }, en), "pass");
  assert.equal(actionWords({ type: "dragon", dir: "E", text: "dragon E" }, ctx, en), "Dragon one step east");
  assert.equal(
    actionWords({ type: "pick", tile: "half/1", text: "pick half/1" }, ctx, en),
    "take a triangle with a road bend",
  );
  assert.equal(
    actionWords({ type: "fairy", space: "1,1", text: "fairy 1,1" }, ctx, en),
    "fairy to the space 1 east and 1 north of the start tile",
  );
});

test("the log says who placed what where, and who put which figure where", () => {
  const ctx = { nameOf, tileOf };
  assert.equal(
    didWords(
      "P2",
      { type: "place", tile: "base/U", space: "-1,0", orient: "r90", text: "place base/U -1,0 r90" },
      ctx,
      en,
    ),
    "Bo placed a straight road on the space 1 west of the start tile",
  );
  assert.equal(
    didWords("P1", { type: "deploy", figure: "meeple", segment: "road@E", text: "meeple road@E" }, ctx, en),
    "Ana put a highwayman on the road, east",
  );
  assert.equal(
    didWords("P1", { type: "deploy", figure: "meeple", segment: "road@E", text: "meeple road@E" }, ctx, ro),
    "Ana a pus un tâlhar pe drum, est",
  );
  assert.equal(didWords("P1", { type: "pass", text: "pass" }, ctx, en), null);
  assert.equal(didWords("P1", { type: "draw", tile: "base/U", text: "draw base/U" }, ctx, en), null);
  assert.equal(didWords("P1", { type: "barn", corner: "NE", text: "barn NE" }, ctx, en), "Ana built a barn");
});

test("every rule option the server knows has a name, a line and words for its values, in both languages", async () => {
  const { optionDoc, optionName, valueName } = await import("../../../web/options.js");
  const { readFileSync } = await import("node:fs");
  // The options as the engine lists them (crates/engine/src/rules.rs): each key with its values.
  const src = readFileSync(new URL("../../../../engine/src/rules.rs", import.meta.url), "utf8");
  const keys = [...src.matchAll(/^\s+"VAR-\d+" "([a-z_.]+)"/gm)].map((m) => m[1]);
  assert.ok(keys.length >= 24, `${keys.length} options found`);
  for (const tr of [en, ro])
    for (const key of keys) {
      const o = { key, doc: "the server's line" };
      assert.notEqual(optionName(o, tr), key, `${key} has no name`);
      assert.notEqual(optionDoc(o, tr), o.doc, `${key} has no explanation`);
    }
  assert.equal(
    valueName({ key: "base.tiny_city_points" }, "two", en),
    "2 points (1 per tile and pennant, first edition)",
  );
  assert.equal(valueName({ key: "halflings.tiles_per_player" }, "5", en), "5");
  assert.equal(optionName({ key: "new.option", doc: "x" }, en), "new.option");
});

test("a feature in words: its size, its holders and what it is worth", async () => {
  const { featureWords } = await import("../../../web/words.js");
  const city = { kind: "city", complete: false, tiles: 3, pennants: 1, holders: ["P1"], points: 4 };
  assert.equal(featureWords(city, nameOf, en), "City: 3 tiles, 1 pennant, held by Ana, 4 points if the game ended now");
  const road = { kind: "road", complete: true, tiles: 1, pennants: 0, holders: ["P1", "P2"], points: 1 };
  assert.equal(featureWords(road, nameOf, en), "Road: 1 tile, completed, held by Ana and Bo, 1 point");
  const field = { kind: "field", complete: false, tiles: 20, pennants: 0, holders: [], points: 21 };
  assert.equal(
    featureWords(field, nameOf, ro),
    "Câmp: 20 de piese, al nimănui încă, 21 de puncte dacă jocul s-ar termina acum",
  );
  const monastery = { kind: "monastery", complete: false, tiles: 1, pennants: 0, holders: [], points: 5 };
  assert.equal(featureWords(monastery, nameOf, en), "Monastery: nobody's yet, 5 points if the game ended now");
});
