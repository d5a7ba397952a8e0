// @ts-check
// Tiles drawn from the catalogue's data (GET /api/games/{id}/tiles): every field, road, city, monastery and symbol
// comes from a tile's segments and the positions they touch, so any tile file draws without artwork.
//
// A tile is drawn in a 100 x 100 box, y down, north at the top, in its canonical orientation; the caller turns it.
// A triangle is written with its right angle at the north-east: corners NW (0,0), NE (100,0), SE (100,100).

const SVG = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export const COLORS = {
  field: "#93b95b",
  fieldDark: "#7fa34b",
  fieldLight: "#a9cb72",
  road: "#efe4c4",
  roadEdge: "#9b8664",
  city: "#cf9d5f",
  cityDark: "#b9824a",
  wall: "#7a5433",
  wallTop: "#c7a273",
  roadRut: "#d6c79f",
  roof: "#a4452e",
  stone: "#e6d6b0",
  water: "#6aa6c8",
};

// Where each position lies on the edge of the square.
const T = 100 / 6;
const ANCHOR = {
  Nw: [T, 0],
  N: [50, 0],
  Ne: [100 - T, 0],
  En: [100, T],
  E: [100, 50],
  Es: [100, 100 - T],
  Se: [100 - T, 100],
  S: [50, 100],
  Sw: [T, 100],
  Ws: [0, 100 - T],
  W: [0, 50],
  Wn: [0, T],
  La: [100 - T, 100 - T],
  L: [50, 50],
  Lb: [T, T],
};
const SIDE_CORNERS = {
  N: [
    [0, 0],
    [100, 0],
  ],
  E: [
    [100, 0],
    [100, 100],
  ],
  S: [
    [100, 100],
    [0, 100],
  ],
  W: [
    [0, 100],
    [0, 0],
  ],
  L: [
    [100, 100],
    [0, 0],
  ],
};
const SQUARE_SIDES = ["N", "E", "S", "W"];
const TRIANGLE_SIDES = ["N", "E", "L"];

const lerp = (a, b, t) => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
const fmt = (p) => `${p[0].toFixed(1)} ${p[1].toFixed(1)}`;

function sidesOf(tile) {
  return tile.shape === "triangle" ? TRIANGLE_SIDES : SQUARE_SIDES;
}
export function centreOf(tile) {
  return tile.shape === "triangle" ? [66.7, 33.3] : [50, 50];
}
function outline(tile) {
  return tile.shape === "triangle" ? "M0 0 L100 0 L100 100 Z" : "M0 0 L100 0 L100 100 L0 100 Z";
}

// The sides a segment covers (a city side is covered by its centre position).
function segSides(seg, tile) {
  return sidesOf(tile).filter((s) => seg.positions.includes(s));
}

// A city's outline: along its sides on the tile's edge, and between runs of sides a curve bowed towards the middle.
// Returns the filled path and the inner (wall) curves, each with the direction its outer side faces.
function cityPath(sides, tile) {
  const all = sidesOf(tile);
  const c = centreOf(tile);
  if (sides.length === all.length) return { fill: outline(tile), walls: [] };
  const inCity = all.map((s) => sides.includes(s));
  // Start at a city side whose predecessor is not in the city.
  const runs = [];
  for (let i = 0; i < all.length; i++) {
    if (inCity[i] && !inCity[(i + all.length - 1) % all.length]) {
      const run = [];
      for (let j = i; inCity[j % all.length] && run.length < all.length; j++) run.push(all[j % all.length]);
      runs.push(run);
    }
  }
  let d = "";
  const walls = [];
  runs.forEach((run, i) => {
    const start = SIDE_CORNERS[run[0]][0];
    if (i === 0) d += `M${fmt(start)} `;
    for (const s of run) d += `L${fmt(SIDE_CORNERS[s][1])} `;
    const end = SIDE_CORNERS[run[run.length - 1]][1];
    const next = SIDE_CORNERS[runs[(i + 1) % runs.length][0]][0];
    let ctrl = lerp(lerp(end, next, 0.5), c, 0.72);
    // A city across a corner (two sides meeting there) gets a wall that bows towards that corner.
    if (runs.length === 1 && run.length === 2 && Math.hypot(ctrl[0] - c[0], ctrl[1] - c[1]) < 1) {
      ctrl = lerp(c, SIDE_CORNERS[run[0]][1], 0.3);
    }
    d += `Q${fmt(ctrl)} ${fmt(next)} `;
    // The wall's outer side (where its shadow falls): from the chord's middle towards the curve's control point.
    const mid = lerp(end, next, 0.5);
    const len = Math.hypot(ctrl[0] - mid[0], ctrl[1] - mid[1]) || 1;
    walls.push({
      d: `M${fmt(end)} Q${fmt(ctrl)} ${fmt(next)}`,
      out: [(ctrl[0] - mid[0]) / len, (ctrl[1] - mid[1]) / len],
    });
  });
  return { fill: `${d}Z`, walls };
}

// The point where a meeple stands on a segment (tile frame).
export function segAnchor(seg, tile) {
  const c = centreOf(tile);
  const kind = seg.kind;
  if (kind === "monastery" || kind === "crop") return c;
  if (kind === "city") {
    const sides = segSides(seg, tile);
    if (sides.length === sidesOf(tile).length) return c;
    const pts = sides.map((s) => ANCHOR[s]);
    const avg = pts.reduce((a, p) => [a[0] + p[0] / pts.length, a[1] + p[1] / pts.length], [0, 0]);
    return lerp(avg, c, sides.length === 1 ? 0.28 : 0.45);
  }
  if (kind === "road") {
    const sides = segSides(seg, tile).map((s) => ANCHOR[s]);
    if (sides.length === 2) {
      // The middle of the curve through the centre.
      return [
        0.25 * sides[0][0] + 0.5 * c[0] + 0.25 * sides[1][0],
        0.25 * sides[0][1] + 0.5 * c[1] + 0.25 * sides[1][1],
      ];
    }
    return lerp(sides[0] || c, c, 0.42);
  }
  // A field: the middle of the halves it touches, drawn in from the edge.
  const halves = seg.positions.filter((p) => p.length === 2);
  if (!halves.length) return c;
  const pts = halves.map((p) => ANCHOR[p]);
  const avg = pts.reduce((a, p) => [a[0] + p[0] / pts.length, a[1] + p[1] / pts.length], [0, 0]);
  return lerp(avg, c, halves.length >= 6 ? 0.55 : 0.3);
}

// Each half of an edge a field may touch, from one end to the other (tile frame); a triangle's long side in two.
const HALF_EDGE = {
  Nw: [
    [0, 0],
    [50, 0],
  ],
  Ne: [
    [50, 0],
    [100, 0],
  ],
  En: [
    [100, 0],
    [100, 50],
  ],
  Es: [
    [100, 50],
    [100, 100],
  ],
  Se: [
    [100, 100],
    [50, 100],
  ],
  Sw: [
    [50, 100],
    [0, 100],
  ],
  Ws: [
    [0, 100],
    [0, 50],
  ],
  Wn: [
    [0, 50],
    [0, 0],
  ],
  La: [
    [100, 100],
    [50, 50],
  ],
  Lb: [
    [50, 50],
    [0, 0],
  ],
};

/**
 * A segment's shape on its tile (tile frame), to outline it: `area`s to fill (a city, a monastery, a field as a fan
 * from where its figure stands to each half-edge it touches) or `line`s to stroke (a road).
 * @returns {{ d: string, kind: "area" | "line" }[]}
 */
export function segmentShapes(seg, tile) {
  const c = centreOf(tile);
  const circle = (r) => `M${fmt([c[0] - r, c[1]])} a${r} ${r} 0 1 0 ${2 * r} 0 a${r} ${r} 0 1 0 ${-2 * r} 0 Z`;
  switch (seg.kind) {
    case "city":
      return [{ d: cityPath(segSides(seg, tile), tile).fill, kind: "area" }];
    case "road":
      return roadPaths(seg, tile).map((d) => ({ d, kind: "line" }));
    case "field": {
      const at = segAnchor(seg, tile);
      const halves = seg.positions.filter((p) => HALF_EDGE[p]);
      return halves.map((p) => ({
        d: `M${fmt(at)} L${fmt(HALF_EDGE[p][0])} L${fmt(HALF_EDGE[p][1])} Z`,
        kind: "area",
      }));
    }
    default:
      return [{ d: circle(tile.shape === "abbey" ? 40 : 24), kind: "area" }];
  }
}

function roadPaths(seg, tile) {
  const c = centreOf(tile);
  const ends = segSides(seg, tile).map((s) => ANCHOR[s]);
  if (ends.length === 2) return [`M${fmt(ends[0])} Q${fmt(c)} ${fmt(ends[1])}`];
  // One side: to the centre (its end is drawn there); three or more: spokes meeting in the middle.
  const stop = ends.length === 1 && seg.end && seg.end.startsWith("city") ? lerp(ends[0], c, 0.7) : c;
  return ends.map((e) => `M${fmt(e)} L${fmt(ends.length === 1 ? stop : c)}`);
}

// A group at `at` (tile frame) turned back by the tile's quarter turns, so that what is drawn in it stands upright
// on the board whatever the tile's rotation.
function upright(g, at, turns, cls) {
  const rot = turns ? ` rotate(${-90 * turns})` : "";
  return el("g", { transform: `translate(${fmt(at)})${rot}`, class: cls }, g);
}

function monastery(g, at, abbey, turns = 0) {
  // Its shadow on the ground first, then the building, upright.
  el("ellipse", { cx: at[0] + 2, cy: at[1] + 12, rx: 17, ry: 4.5, fill: "rgba(40,30,10,.22)" }, g);
  const b = upright(g, at, turns, "monastery");
  el(
    "rect",
    { x: -13, y: -9, width: 26, height: 20, rx: 1.5, fill: COLORS.stone, stroke: COLORS.wall, "stroke-width": 1.2 },
    b,
  );
  el("path", { d: "M-15 -8 L0 -19 L15 -8 Z", fill: COLORS.roof, stroke: COLORS.wall, "stroke-width": 1 }, b);
  el("rect", { x: -3.5, y: 2, width: 7, height: 9, rx: 3.5, fill: COLORS.wall }, b);
  el("path", { d: "M0 -19 V-27 M-3.5 -24 H3.5", stroke: COLORS.wall, "stroke-width": 1.6 }, b);
  if (abbey) el("circle", { cx: 0, cy: -3, r: 2.4, fill: "#f3e2a8", stroke: COLORS.wall, "stroke-width": 0.8 }, b);
}

function pennant(g, at, turns = 0) {
  const x = 0,
    y = 0;
  g = upright(g, at, turns, "pennant-mark");
  el(
    "path",
    {
      d: `M${x - 5} ${y - 6} H${x + 5} V${y} Q${x + 5} ${y + 5} ${x} ${y + 7} Q${x - 5} ${y + 5} ${x - 5} ${y} Z`,
      fill: "#2f5fa8",
      stroke: "#f5f0e0",
      "stroke-width": 1.2,
      class: "pennant",
    },
    g,
  );
  el(
    "path",
    { d: `M${x - 2.5} ${y - 2} H${x + 2.5} M${x} ${y - 4} V${y + 3}`, stroke: "#f5f0e0", "stroke-width": 1 },
    g,
  );
}

function crown(g, at, turns = 0) {
  const x = 0,
    y = 0;
  g = upright(g, at, turns, "crown-mark");
  el(
    "path",
    {
      d: `M${x - 6} ${y + 3} L${x - 7} ${y - 5} L${x - 3} ${y - 1} L${x} ${y - 7} L${x + 3} ${y - 1} L${x + 7} ${y - 5} L${x + 6} ${y + 3} Z`,
      fill: "#f2c84b",
      stroke: "#8a6414",
      "stroke-width": 1,
      class: "princess",
    },
    g,
  );
}

// The symbols: volcano, dragon, portal, crop circles by type, hill, vineyard, sheep.
export function symbol(g, name, at, size = 1, turns = 0) {
  const outer = upright(g, at, turns, `symbol symbol-${name.replace(":", "-")}`);
  // The board scales the body when zoomed far out (Board.scaleFigures), from its own size.
  const s = el("g", { transform: `scale(${size})`, class: "symbol-body", "data-size": size }, outer);
  switch (name) {
    case "volcano":
      el("path", { d: "M-20 12 L-6 -10 H6 L20 12 Z", fill: "#6d4a35", stroke: "#3e2a1f", "stroke-width": 1.2 }, s);
      el("path", { d: "M-6 -10 H6 L3 -4 L0 -8 L-3 -3 Z", fill: "#e8552b" }, s);
      el("path", { d: "M-3 -13 Q0 -20 4 -14", stroke: "#888", fill: "none", "stroke-width": 1.5 }, s);
      break;
    case "dragon":
      el("circle", { r: 10, fill: "#f4ead2", stroke: "#8f2a1c", "stroke-width": 1.5 }, s);
      el("path", { d: "M-6 3 Q-2 -7 6 -5 L3 -2 L7 0 Q1 1 -1 6 Z", fill: "#b3311f" }, s);
      break;
    case "portal":
      el("path", { d: "M-8 9 V-2 A8 8 0 0 1 8 -2 V9", fill: "none", stroke: "#5d3c8f", "stroke-width": 3 }, s);
      el("path", { d: "M-5 9 V-1 A5 5 0 0 1 5 -1 V9 Z", fill: "#a98de0", opacity: 0.8 }, s);
      break;
    case "hill":
      el(
        "path",
        { d: "M-16 8 Q-6 -12 4 -2 Q10 -8 16 8 Z", fill: "#6f9443", stroke: "#4b6a2c", "stroke-width": 1.2 },
        s,
      );
      break;
    case "vineyard":
      for (const [cx, cy] of [
        [-4, -4],
        [4, -4],
        [0, 1],
        [-4, 6],
        [4, 6],
        [0, 10],
      ]) {
        el("circle", { cx, cy, r: 3.2, fill: "#6b2f7a", stroke: "#3f1a49", "stroke-width": 0.6 }, s);
      }
      el("path", { d: "M0 -7 Q2 -12 6 -12", stroke: "#4b6a2c", fill: "none", "stroke-width": 1.5 }, s);
      break;
    case "sheep":
      el("ellipse", { cx: 0, cy: 0, rx: 9, ry: 6, fill: "#f7f4ec", stroke: "#777", "stroke-width": 0.8 }, s);
      el("circle", { cx: 9, cy: -3, r: 3.3, fill: "#3c3c3c" }, s);
      el("path", { d: "M-5 5 V10 M4 5 V10", stroke: "#3c3c3c", "stroke-width": 1.6 }, s);
      break;
    default:
      if (name.startsWith("crop")) {
        el("circle", { r: 11, fill: "#d8c36a", stroke: "#9b8a3a", "stroke-width": 1.2 }, s);
        el("circle", { r: 7, fill: "none", stroke: "#9b8a3a", "stroke-width": 1 }, s);
        const type = name.split(":")[1];
        const icon =
          {
            pitchfork: "M0 7 V-5 M-4 -7 V-3 Q0 0 4 -3 V-7", // farmers
            club: "M-2 7 L1 -2 Q4 -8 0 -8 Q-3 -6 -1 -2", // highwaymen
            shield: "M-5 -6 H5 V-1 Q5 4 0 7 Q-5 4 -5 -1 Z", // knights
          }[type] || "M-5 0 H5 M0 -5 V5"; // the Halflings' crop circle: the role is named in play
        el("path", { d: icon, fill: "none", stroke: "#5a4a12", "stroke-width": 1.8, "stroke-linecap": "round" }, s);
      }
  }
  return s;
}

// Draw `tile` (its catalogue entry) into group `g`, in its canonical orientation.
export function drawTile(g, tile, turns = 0) {
  const c = centreOf(tile);
  const clipId = `clip-${tile.shape}`;
  const ground = outline(tile);
  el("path", { d: ground, fill: tile.shape === "abbey" ? "#b9a37a" : COLORS.field, class: "tile-ground" }, g);
  // The fields: tufts of grass and faint furrows, lighter in the middle of the tile than at its edges.
  el("path", { d: ground, fill: "url(#grass)", opacity: 0.55 }, g);
  el("path", { d: ground, fill: "url(#furrows)", opacity: 0.22 }, g);
  el("path", { d: ground, fill: "url(#fieldShade)" }, g);
  const segs = tile.segments;
  // Roads first, under the cities (a road may run under a city: a tunnel, or up to a gate): a soft shadow, a
  // darker verge on each side, the packed earth, and a line of wheel ruts.
  for (const seg of segs) {
    if (seg.kind !== "road") continue;
    for (const d of roadPaths(seg, tile)) {
      const line = (stroke, width, extra = {}) =>
        el("path", { d, stroke, "stroke-width": width, fill: "none", "stroke-linecap": "butt", ...extra }, g);
      line("rgba(40,30,10,.16)", 15);
      line(COLORS.roadEdge, 11);
      line(COLORS.road, 8, { "stroke-dasharray": seg.tunnel ? "4 3" : "none" });
      if (!seg.tunnel) line(COLORS.roadRut, 0.9, { "stroke-dasharray": "5 3", opacity: 0.8 });
    }
  }
  if (segs.some((s) => s.kind === "road" && ["junction", "village", "house"].includes(s.end))) {
    el("ellipse", { cx: c[0] + 1.5, cy: c[1] + 6.5, rx: 9, ry: 2.6, fill: "rgba(40,30,10,.25)" }, g);
    const b = upright(g, c, turns, "house");
    el("rect", { x: -7, y: -5, width: 14, height: 11, fill: COLORS.stone, stroke: COLORS.wall, "stroke-width": 1 }, b);
    el("path", { d: "M-8.5 -4 L0 -11 L8.5 -4 Z", fill: COLORS.roof, stroke: COLORS.wall, "stroke-width": 0.8 }, b);
    el("rect", { x: -1.8, y: 1, width: 3.6, height: 5, fill: COLORS.wall }, b);
  }
  // Cities: roofs, shaded towards their walls; each wall with its shadow on the field, its stones and battlements.
  for (const seg of segs) {
    if (seg.kind !== "city") continue;
    const { fill, walls } = cityPath(segSides(seg, tile), tile);
    el("path", { d: fill, fill: COLORS.city, class: "city" }, g);
    el("path", { d: fill, fill: "url(#roofs)", opacity: 0.5 }, g);
    el("path", { d: fill, fill: "url(#cityShade)" }, g);
    for (const w of walls) {
      const [ox, oy] = [w.out[0] * 2.4, w.out[1] * 2.4];
      el(
        "path",
        {
          d: w.d,
          stroke: "rgba(40,25,10,.3)",
          "stroke-width": 5,
          fill: "none",
          transform: `translate(${ox.toFixed(2)} ${oy.toFixed(2)})`,
          "stroke-linecap": "round",
        },
        g,
      );
      el("path", { d: w.d, stroke: COLORS.wall, "stroke-width": 4, fill: "none", "stroke-linecap": "round" }, g);
      el(
        "path",
        {
          d: w.d,
          stroke: COLORS.wallTop,
          "stroke-width": 1.6,
          fill: "none",
          "stroke-dasharray": "3 2",
          "stroke-linecap": "butt",
        },
        g,
      );
    }
  }
  for (const seg of segs) {
    const at = segAnchor(seg, tile);
    if (seg.kind === "city") {
      const sides = segSides(seg, tile);
      for (let i = 0; i < (seg.pennants || 0); i++) pennant(g, lerp(at, ANCHOR[sides[0]], 0.45 - i * 0.25), turns);
      if (seg.princess) crown(g, lerp(at, c, 0.3), turns);
    }
    if (seg.kind === "monastery")
      monastery(g, seg.inside !== undefined ? lerp(c, at, 1) : c, tile.shape === "abbey", turns);
    if (seg.kind === "crop") {
      el("circle", { cx: c[0], cy: c[1], r: 14, fill: "#d8c36a", opacity: 0.6 }, g);
      el("circle", { cx: c[0], cy: c[1], r: 9, fill: "none", stroke: "#b39a45", "stroke-width": 1, opacity: 0.7 }, g);
    }
  }
  // Symbols in a free corner (the centre when nothing stands there).
  const busy = segs.some((s) => ["monastery", "crop"].includes(s.kind) || (s.kind === "road" && s.end));
  const spots =
    tile.shape === "triangle"
      ? [
          [78, 22],
          [62, 12],
        ]
      : busy
        ? [
            [78, 78],
            [22, 78],
          ]
        : [
            [50, 50],
            [78, 78],
          ];
  for (const [i, name] of (tile.symbols || []).entries())
    symbol(g, name, spots[Math.min(i, spots.length - 1)], tile.shape === "triangle" ? 0.7 : 0.9, turns);
  el(
    "path",
    { d: outline(tile), fill: "none", stroke: "rgba(40,30,15,0.35)", "stroke-width": 0.8, class: "tile-edge" },
    g,
  );
  return clipId;
}

// The patterns the tiles use, once per SVG.
export function defs(svg) {
  const d = el("defs", {}, svg);
  const f = el(
    "pattern",
    { id: "furrows", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(35)" },
    d,
  );
  el("path", { d: "M0 4 H8", stroke: COLORS.fieldDark, "stroke-width": 1.2 }, f);
  const r = el("pattern", { id: "roofs", width: 12, height: 10, patternUnits: "userSpaceOnUse" }, d);
  el("path", { d: "M0 10 L3 6 H9 L12 10 M6 6 V2", stroke: COLORS.cityDark, "stroke-width": 1, fill: "none" }, r);
  // Tufts of grass, two shades, scattered so that the repeat does not show at a glance.
  const grass = el("pattern", { id: "grass", width: 23, height: 19, patternUnits: "userSpaceOnUse" }, d);
  /** @type {[number, number, string][]} */
  const tufts = [
    [3, 4, COLORS.fieldDark],
    [14, 9, COLORS.fieldLight],
    [8, 15, COLORS.fieldDark],
    [19, 2, COLORS.fieldLight],
  ];
  for (const [x, y, shade] of tufts)
    el(
      "path",
      { d: `M${x} ${y} l1 -3 M${x + 2} ${y} l0 -3.5 M${x + 4} ${y} l-1 -3`, stroke: shade, "stroke-width": 0.8 },
      grass,
    );
  // Light in the middle of a tile, a little shadow at its edges (fields), and towards a city's walls.
  const shade = (id, stops) => {
    const gr = el("radialGradient", { id, cx: "50%", cy: "50%", r: "70%" }, d);
    for (const [offset, color] of stops) el("stop", { offset, "stop-color": color }, gr);
  };
  shade("fieldShade", [
    ["0%", "rgba(255,255,220,.10)"],
    ["70%", "rgba(0,0,0,0)"],
    ["100%", "rgba(30,50,10,.16)"],
  ]);
  shade("cityShade", [
    ["0%", "rgba(255,230,190,.18)"],
    ["60%", "rgba(0,0,0,0)"],
    ["100%", "rgba(70,35,10,.22)"],
  ]);
  return d;
}

// The meeple shape, standing on (0,0), about 22 units tall.
export const MEEPLE =
  "M0 -22 C3.4 -22 5 -19.6 5 -17 C5 -15.3 4.3 -14.2 3.4 -13.4 L10 -11.3 C11.7 -10.7 11.7 -7.8 10 -7.4 L5 -6.6 " +
  "L8.3 -0.6 C8.8 0.5 8.1 1 7.2 1 L2.2 1 L0 -3.4 L-2.2 1 L-7.2 1 C-8.1 1 -8.8 0.5 -8.3 -0.6 L-5 -6.6 L-10 -7.4 " +
  "C-11.7 -7.8 -11.7 -10.7 -10 -11.3 L-3.4 -13.4 C-4.3 -14.2 -5 -15.3 -5 -17 C-5 -19.6 -3.4 -22 0 -22 Z";

export const PLAYER_COLORS = ["#d8342b", "#2f62c9", "#2f9a45", "#f0c22c", "#1f1f1f", "#9b4fc9"];
// The server's colour names, as drawn.
export const COLOUR_HEX = {
  red: "#d8342b",
  blue: "#2f62c9",
  green: "#2f9a45",
  yellow: "#f0c22c",
  black: "#1f1f1f",
  purple: "#9b4fc9",
};
export const seatColour = (seat, i) => COLOUR_HEX[seat?.colour] || PLAYER_COLORS[i % PLAYER_COLORS.length];

// A figure of a player: a meeple (lying down for a farmer), the larger mayor, a wagon, or a barn.
export function figure(g, kind, color, at, opts = {}) {
  const [x, y] = at;
  const outer = el("g", { transform: `translate(${x} ${y + 8})`, class: `figure figure-${kind}` }, g);
  // The body is scaled by the board when zoomed out, so that figures stay big enough to see (Board.scaleFigures).
  const f = el("g", { class: "figure-body" }, outer);
  const stroke = { stroke: "rgba(0,0,0,0.55)", "stroke-width": 1.2, "stroke-linejoin": "round" };
  // Where the seat's mark goes on the figure's body (so that colour is never the only way to tell seats apart).
  let markAt = [0, -8];
  if (kind === "wagon") {
    el("rect", { x: -11, y: -14, width: 22, height: 10, rx: 2, fill: color, ...stroke }, f);
    el("circle", { cx: -6, cy: -3, r: 4, fill: color, ...stroke }, f);
    el("circle", { cx: 6, cy: -3, r: 4, fill: color, ...stroke }, f);
    markAt = [0, -9];
  } else if (kind === "barn") {
    el("path", { d: "M-11 0 V-12 L0 -20 L11 -12 V0 Z", fill: color, ...stroke }, f);
    el("path", { d: "M-4 0 V-7 H4 V0", fill: "none", stroke: "rgba(255,255,255,0.7)", "stroke-width": 1.4 }, f);
    markAt = [0, -11.5];
  } else {
    const scale = kind === "mayor" ? 1.3 : 1;
    const rot = opts.farmer ? " rotate(-90)" : "";
    el("path", { d: MEEPLE, fill: color, transform: `scale(${scale})${rot}`, ...stroke }, f);
    if (kind === "mayor") el("circle", { cx: 0, cy: -22, r: 3, fill: "#f2c84b", stroke: "#8a6414" }, f);
    markAt = opts.farmer ? [-8 * scale, 0.5] : [0, -7.5 * scale];
  }
  if (opts.mark) {
    const ink = inkOn(color);
    const text = el(
      "text",
      {
        x: markAt[0],
        y: markAt[1],
        class: "figure-mark",
        "text-anchor": "middle",
        "dominant-baseline": "central",
        "font-size": 8.5,
        fill: ink,
        stroke: ink === "#fff" ? "rgba(0,0,0,.45)" : "rgba(255,255,255,.5)",
        "stroke-width": 0.6,
      },
      f,
    );
    text.textContent = opts.mark;
  }
  return outer;
}

// The colour to write on `color` (a #rrggbb): dark on light colours, white on dark ones.
export function inkOn(color) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color || "");
  if (!m) return "#fff";
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55 ? "#1a1208" : "#fff";
}
