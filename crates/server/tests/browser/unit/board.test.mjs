// The board's pure parts: orientations, the spreading of spots that would overlap, seat marks, ink on colours.

import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSpace, placeSpots, seatMark, spread, turns } from "../../../web/board.js";
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

// What placeSpots always guarantees: every spot in one mark, no two marks closer than their radii and the gap, no
// mark farther than `reach` from its point (a crowd's: the middle of its spots).
function assertPlaced(spots, marks, { gap, reach }, what) {
  const seen = marks.flatMap((m) => m.members).sort((a, b) => a - b);
  assert.deepEqual(seen, [...spots.keys()], `${what}: every spot in one mark`);
  for (let i = 0; i < marks.length; i++) {
    const a = marks[i];
    for (let j = i + 1; j < marks.length; j++) {
      const b = marks[j];
      const d = Math.hypot(a.at[0] - b.at[0], a.at[1] - b.at[1]);
      assert.ok(d >= a.r + b.r + gap - 1e-6, `${what}: marks ${i} and ${j} ${d.toFixed(1)} apart`);
    }
    const m = a.members.length;
    const mid = a.members.reduce((c, k) => [c[0] + spots[k].x / m, c[1] + spots[k].y / m], [0, 0]);
    const off = Math.hypot(a.at[0] - mid[0], a.at[1] - mid[1]);
    assert.ok(off <= reach + 1e-6, `${what}: mark ${i} ${off.toFixed(1)} from its point`);
    assert.ok(a.r >= Math.max(...a.members.map((k) => spots[k].r)) - 1e-9, `${what}: mark ${i} as large as its spots`);
  }
}

test("spots with room stay on their points, alone", () => {
  const spots = [
    { x: 0, y: 0, r: 12 },
    { x: 40, y: 0, r: 12 },
    { x: 0, y: 40, r: 21 },
  ];
  const marks = placeSpots(spots, { gap: 5, reach: 29 });
  assert.deepEqual(
    marks.map((m) => [m.members, m.at]),
    spots.map((s, i) => [[i], [s.x, s.y]]),
  );
});

test("a monk and a farmer on one point each get a place of their own, close by", () => {
  const spots = [
    { x: 100, y: 100, r: 12 },
    { x: 100, y: 100, r: 12 },
  ];
  const room = { gap: 5, reach: 29 };
  const marks = placeSpots(spots, room);
  assert.equal(marks.length, 2);
  assertPlaced(spots, marks, room, "monastery");
});

test("a crowd that cannot each have a place near its point becomes one spot that offers the choice", () => {
  // Eight spots on one point: round it, each would go farther than `reach`.
  const spots = Array.from({ length: 8 }, () => ({ x: 0, y: 0, r: 12 }));
  const room = { gap: 5, reach: 29 };
  const marks = placeSpots(spots, room);
  assertPlaced(spots, marks, room, "eight on a point");
  assert.ok(marks.some((m) => m.members.length > 1));
});

test("a portal's hundred spots, zoomed out or in, on any board: marks apart, near their points, each spot once", () => {
  let seed = 11;
  const rnd = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (const tile of [8, 16, 25, 40, 64, 100]) {
    for (let board = 0; board < 4; board++) {
      const spots = [];
      for (let tx = 0; tx < 10; tx++)
        for (let ty = 0; ty < 9; ty++) {
          if (rnd() < 0.25) continue;
          for (let k = Math.floor(rnd() * 4); k > 0; k--) {
            // Some spots share a point (a monastery's monk and farmer), a few are larger (the princess's rings).
            const same = spots.length && rnd() < 0.1;
            const at = same ? spots[spots.length - 1] : { x: (tx + rnd()) * tile, y: (ty + rnd()) * tile };
            spots.push({ x: at.x, y: at.y, r: rnd() < 0.1 ? 21 : 12 });
          }
        }
      const room = { gap: 5, reach: 29 };
      assertPlaced(spots, placeSpots(spots, room), room, `tiles of ${tile} px, board ${board}`);
    }
  }
});
