// The board's pure parts: orientations, the spreading of spots that would overlap, seat marks, ink on colours.

import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSpace, seatMark, spread, turns } from "../../../web/board.js";
import { inkOn, PLAYER_COLORS } from "../../../web/tiles.js";

test("orientations as quarter turns", () => {
  assert.deepEqual(["r0", "r90", "r180", "r270", "NE", "SE", "SW", "NW"].map(turns), [0, 1, 2, 3, 0, 1, 2, 3]);
  assert.equal(turns(null), 0);
  assert.deepEqual(parseSpace("-3,12"), [-3, 12]);
});

const apart = (p, need) => {
  for (let i = 0; i < p.length; i++)
    for (let j = i + 1; j < p.length; j++)
      if (Math.hypot(p[i][0] - p[j][0], p[i][1] - p[j][1]) < need(i, j) - 1e-6) return false;
  return true;
};

test("spots already apart stay where they are", () => {
  const points = [
    [0, 0],
    [50, 0],
    [0, 50],
  ];
  assert.deepEqual(
    spread(points, () => 20),
    points,
  );
});

test("two spots on one point move apart, each as little as it can", () => {
  const p = spread(
    [
      [10, 10],
      [10, 10],
    ],
    () => 20,
  );
  assert.ok(apart(p, () => 20));
  const d = Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]);
  assert.ok(d < 21, `moved ${d} apart`);
  // Both moved, about their point.
  assert.ok(Math.abs((p[0][0] + p[1][0]) / 2 - 10) < 1e-6 && Math.abs((p[0][1] + p[1][1]) / 2 - 10) < 1e-6);
});

test("a crowd of spots (a triangle's, a portal's) always ends with every spot its own", () => {
  for (const n of [3, 8, 30, 100]) {
    const points = Array.from({ length: n }, (_, i) => [Math.floor(i / 10) * 3, (i % 10) * 2]);
    const need = (i, j) => (i % 3 === 0 || j % 3 === 0 ? 30 : 22);
    assert.ok(apart(spread(points, need), need), `${n} spots`);
  }
});

test("seats are marked by their number, in a colour that reads on theirs", () => {
  assert.equal(seatMark("P3"), "3");
  assert.equal(inkOn("#f0c22c"), "#1a1208"); // yellow: dark ink
  assert.equal(inkOn("#1f1f1f"), "#fff"); // black: white ink
  for (const c of PLAYER_COLORS) assert.ok(["#fff", "#1a1208"].includes(inkOn(c)));
});
