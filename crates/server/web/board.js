// @ts-check
// The board: tiles where the server says they are, figures on the segments it names, and clickable marks for the
// legal actions it sent. Pan by dragging, zoom with the wheel, a pinch or the buttons.

import { t } from "./i18n.js";
import { animate } from "./motion.js";
import { defs, drawTile, el, figure, PLAYER_COLORS, segAnchor, segmentShapes, symbol } from "./tiles.js";

const CORNERS = ["NE", "SE", "SW", "NW"];

// "x,y" -> [x, y]
/** @param {string} s @returns {[number, number]} */
export function parseSpace(s) {
  const [x, y] = s.split(",").map(Number);
  return [x, y];
}

// The quarter turns of a placement: "r90" -> 1, "SW" -> 2.
export function turns(orientation) {
  if (!orientation) return 0;
  if (orientation[0] === "r") return Number(orientation.slice(1)) / 90;
  return CORNERS.indexOf(orientation);
}

function rotatePoint(p, r) {
  let [x, y] = p;
  for (let i = 0; i < ((r % 4) + 4) % 4; i++) [x, y] = [100 - y, x];
  return [x, y];
}

// Top-left corner of a space in board units (y up on the board, down on the screen).
const origin = ([x, y]) => [x * 100, -y * 100];

const figureKey = (space, segment, corner, player, figure) => `${space}|${corner || ""}|${segment}|${player}|${figure}`;

// Spots (the clickable marks of a decision): a spot's radius in board units by kind, and the room left between two
// spots' rings, in pixels.
const SPOT_RADIUS = { dragon: 16, princess: 15, "crop-remove": 15 };
const SPOT_GAP_PX = 5;
// The board fitted to its tiles keeps this many pixels more on each side.
const FIT_PAD_PX = 40;
const BARN_ICON = "M-5 4 V-1.5 L0 -5.5 L5 -1.5 V4 Z";

// A spot's least radius on the screen, in pixels: 24 pixels across to click, 44 to touch.
const spotMinPx = () => (globalThis.matchMedia?.("(pointer: coarse)").matches ? 22 : 12);

// Points too close to each other move apart, each as little as it can: a pair closer than `need(i, j)` push each
// other apart along the line between them (two at the same point: in a direction of their own), pass after pass.
// `settled`: whether no pair is too close at the end. With a `limit`, it stops as soon as a point has gone farther
// (`strayed`).
/**
 * @param {[number, number][]} points
 * @param {(i: number, j: number) => number} need
 * @param {number} passes
 * @returns {{ p: [number, number][], settled: boolean, strayed?: boolean }}
 */
function nudge(points, need, passes, limit = Infinity) {
  const n = points.length;
  /** @type {[number, number][]} */
  const p = points.map(([x, y]) => [x, y]);
  for (let pass = 0; pass < passes; pass++) {
    let moved = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        let dx = p[j][0] - p[i][0],
          dy = p[j][1] - p[i][1],
          d = Math.hypot(dx, dy);
        const want = need(i, j);
        if (d >= want - 1e-6) continue;
        if (d < 1e-6) {
          // The same point: a direction of their own (the golden angle apart for each further pair).
          const a = (j - i - 1 + i * 3) * 2.399963;
          dx = Math.cos(a);
          dy = Math.sin(a);
          d = 0;
        } else {
          dx /= d;
          dy /= d;
        }
        const push = (want * 1.02 - d) / 2;
        p[i][0] -= dx * push;
        p[i][1] -= dy * push;
        p[j][0] += dx * push;
        p[j][1] += dy * push;
        moved = true;
      }
    }
    if (!moved) return { p, settled: true };
    if (limit < Infinity && p.some(([x, y], i) => Math.hypot(x - points[i][0], y - points[i][1]) > limit))
      return { p, settled: false, strayed: true };
  }
  return { p, settled: !clashes(p, need).length };
}

// The pairs of `p` closer than `need` says.
/**
 * @param {[number, number][]} p
 * @param {(i: number, j: number) => number} need
 */
function clashes(p, need) {
  const out = [];
  for (let i = 0; i < p.length; i++)
    for (let j = i + 1; j < p.length; j++)
      if (Math.hypot(p[j][0] - p[i][0], p[j][1] - p[i][1]) < need(i, j) - 1e-6) out.push([i, j]);
  return out;
}

// Move `points` apart so that no two are closer than `need(i, j)`, each as little as it can (see nudge). Should
// that not settle, each crowd goes round a circle of its own, which always does. (The figures on a crowded point.)
/**
 * @param {[number, number][]} points
 * @param {(i: number, j: number) => number} need
 * @returns {[number, number][]}
 */
export function spread(points, need, passes = 80) {
  const n = points.length;
  const { p, settled } = nudge(points, need, passes);
  if (settled) return p;
  const clash = (q, i, j) => Math.hypot(q[j][0] - q[i][0], q[j][1] - q[i][1]) < need(i, j) - 1e-6;
  // Crowds: points still too close join one group; each group goes round a circle about its middle, its members in
  // the order of their angles, the circle wide enough for the widest pair. Groups that then clash join, until none do.
  const group = [...Array(n).keys()];
  const find = (i) => {
    if (group[i] !== i) group[i] = find(group[i]);
    return group[i];
  };
  /** @type {[number, number][]} */
  const q = p.map(([x, y]) => [x, y]);
  for (let round = 0; round < n; round++) {
    let joined = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (find(i) !== find(j) && clash(q, i, j)) {
          group[find(j)] = find(i);
          joined = true;
        }
      }
    }
    if (!joined) break;
    const groups = new Map();
    for (let i = 0; i < n; i++) {
      if (!groups.has(find(i))) groups.set(find(i), []);
      groups.get(find(i)).push(i);
    }
    for (const members of groups.values()) {
      if (members.length < 2) continue;
      const m = members.length;
      const c = members.reduce((a, i) => [a[0] + p[i][0] / m, a[1] + p[i][1] / m], [0, 0]);
      const angle = (i) => Math.atan2(p[i][1] - c[1], p[i][0] - c[0]);
      members.sort((a, b) => angle(a) - angle(b) || a - b);
      let widest = 0;
      for (const a of members) for (const b of members) if (a < b) widest = Math.max(widest, need(a, b));
      const radius = (widest * 1.02) / (2 * Math.sin(Math.PI / m));
      members.forEach((i, k) => {
        const a = Math.PI + (2 * Math.PI * k) / m;
        q[i] = [c[0] + radius * Math.cos(a), c[1] + radius * Math.sin(a)];
      });
    }
  }
  return q;
}

// Where the spots of a decision go at one zoom, all in screen pixels: `spots` are the points they stand for, each
// with its radius. A spot stays on its point, or moves off it by at most `reach` (a line leads back), so that no two
// are closer than their radii and `gap`. Where that cannot be (zoomed out, a portal's hundred spots on a few
// tiles), the spots of a crowded place become one crowd spot, at their middle, that offers the choice of them. The
// answer: every mark to draw, with the spots it stands for (one, or a crowd), where it goes and its radius. Always
// so: every spot is in one mark; no two marks are closer than their radii and `gap`; no mark is farther than
// `reach` from its point (a crowd's: the middle of its spots).
/**
 * @typedef {{ members: number[], at: [number, number], r: number }} SpotMark
 * @param {{ x: number, y: number, r: number }[]} spots
 * @param {{ gap: number, reach: number }} room
 * @returns {SpotMark[]}
 */
export function placeSpots(spots, { gap, reach }) {
  /** @type {{ members: number[], anchor: [number, number], r: number }[]} */
  let marks = spots.map((s, i) => ({ members: [i], anchor: [s.x, s.y], r: s.r }));
  for (;;) {
    const need = (i, j) => marks[i].r + marks[j].r + gap;
    const { p, settled, strayed } = nudge(
      marks.map((m) => m.anchor),
      need,
      60,
      reach,
    );
    // The marks that would have to go too far, else those that still clash.
    const bad = new Set();
    marks.forEach((m, i) => {
      if (Math.hypot(p[i][0] - m.anchor[0], p[i][1] - m.anchor[1]) > reach) bad.add(i);
    });
    if (!settled && !strayed) for (const [i, j] of clashes(p, need)) bad.add(i).add(j);
    if (!bad.size) return marks.map((m, i) => ({ members: m.members, at: p[i], r: m.r }));
    // Each of them joins its nearest mark (by the points they stand for), the nearest pairs first, each mark in one
    // pair at most each round, so that crowds grow from the most crowded places.
    const pairs = [];
    for (const i of bad) {
      let best = -1,
        bestD = Infinity;
      marks.forEach((m, j) => {
        const d = Math.hypot(m.anchor[0] - marks[i].anchor[0], m.anchor[1] - marks[i].anchor[1]);
        if (j !== i && d < bestD) [best, bestD] = [j, d];
      });
      pairs.push({ i, j: best, d: bestD });
    }
    pairs.sort((a, b) => a.d - b.d || a.i - b.i);
    const taken = new Set();
    const joined = [];
    for (const { i, j } of pairs) {
      if (taken.has(i) || taken.has(j)) continue;
      taken.add(i).add(j);
      const members = [...marks[i].members, ...marks[j].members].sort((a, b) => a - b);
      const m = members.length;
      joined.push({
        members,
        anchor: /** @type {[number, number]} */ (
          members.reduce((a, k) => [a[0] + spots[k].x / m, a[1] + spots[k].y / m], [0, 0])
        ),
        r: Math.max(marks[i].r, marks[j].r),
      });
    }
    marks = [...marks.filter((_, i) => !taken.has(i)), ...joined].sort((a, b) => a.members[0] - b.members[0]);
  }
}

export class Board {
  // `label`: what the board is called for a screen reader, in the table's language. The board is a group, so that
  // its spots (buttons) can be reached inside it.
  constructor(container, tiles, { label = "Board" } = {}) {
    this.tiles = new Map(tiles.map((t) => [t.id, t]));
    this.svg = el("svg", { class: "board", role: "group", "aria-label": label });
    container.appendChild(this.svg);
    defs(this.svg);
    this.layers = {};
    for (const name of ["grid", "tiles", "last", "outline", "figures", "fx", "marks", "ghost", "spots"]) {
      this.layers[name] = el("g", { class: `layer-${name}` }, this.svg);
    }
    this.view = { x: -250, y: -250, w: 600, h: 600 };
    this.fitted = false;
    /** The indexes (in the view's board) of the tiles to outline as placed lately. @type {number[]} */
    this.recent = [];
    /** Whether "Who holds what" rings the features that hold figures. */
    this.overlay = false;
    /** Whether the player has panned or zoomed (then the board no longer fits itself to the tiles). */
    this.userMoved = false;
    this.listen();
  }

  tile(id) {
    return this.tiles.get(id);
  }

  setViewBox() {
    const { x, y, w, h } = this.view;
    this.svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
    this.scaleFigures();
    this.layoutSpots();
  }

  // Screen pixels per board unit (0 while the board is not laid out).
  pixelsPerUnit() {
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !r.height) return 0;
    return Math.min(r.width / this.view.w, r.height / this.view.h);
  }

  // Zoomed far out, a meeple would shrink to a few pixels: its body grows (up to 2.4 times) so that it stays about
  // 18 pixels tall on the screen, and the tiles' symbols grow up to 1.7 times. Zoomed in, both keep their size.
  scaleFigures() {
    const r = this.svg.getBoundingClientRect();
    if (!r.width) return;
    const perPixel = this.view.w / r.width;
    const k = Math.min(2.4, Math.max(1, (18 * perPixel) / 26));
    if (k === this.figureScale) return;
    this.figureScale = k;
    const t = k === 1 ? null : `scale(${k.toFixed(3)})`;
    for (const b of this.svg.querySelectorAll(".figure-body")) {
      if (t) b.setAttribute("transform", t);
      else b.removeAttribute("transform");
    }
    // Symbols on the tiles (volcanoes, pennants, crop circles…) grow less, so that they stay on their tiles.
    const ks = Math.min(k, 1.7);
    for (const b of this.svg.querySelectorAll(".layer-tiles .symbol-body")) {
      b.setAttribute("transform", `scale(${(Number(b.dataset.size || 1) * ks).toFixed(3)})`);
    }
  }

  // Show everything placed, with a margin of one and a half spaces.
  fit() {
    const spaces = (this.state?.board || []).map((t) => parseSpace(t.space));
    if (!spaces.length) spaces.push([0, 0]);
    const xs = spaces.map((s) => s[0]),
      ys = spaces.map((s) => -s[1]);
    const [x0, x1, y0, y1] = [
      Math.min(...xs) - 1.5,
      Math.max(...xs) + 2.5,
      Math.min(...ys) - 1.5,
      Math.max(...ys) + 2.5,
    ];
    const rect = this.svg.getBoundingClientRect();
    const aspect = rect.width > 0 && rect.height > 0 ? rect.width / rect.height : 1;
    // And FIT_PAD_PX more on each side, so that the controls over the board's edges (the zoom buttons, "Who holds
    // what") stay clear of the spots, even of those moved off their tiles.
    const pad = Math.min(rect.width, rect.height) > 6 * FIT_PAD_PX ? FIT_PAD_PX : 0;
    const [iw, ih] = [rect.width - 2 * pad, rect.height - 2 * pad];
    const inner = pad ? iw / ih : aspect;
    let w = (x1 - x0) * 100,
      h = (y1 - y0) * 100;
    if (w / h < inner) w = h * inner;
    else h = w / inner;
    if (pad) [w, h] = [(w * rect.width) / iw, (h * rect.height) / ih];
    const cx = ((x0 + x1) / 2) * 100,
      cy = ((y0 + y1) / 2) * 100;
    this.view = { x: cx - w / 2, y: cy - h / 2, w: Math.max(w, 300), h: Math.max(h, 300 / aspect) };
    this.setViewBox();
  }

  zoom(factor, at) {
    const v = this.view;
    const c = at || [v.x + v.w / 2, v.y + v.h / 2];
    const w = Math.min(Math.max(v.w * factor, 150), 6000);
    const f = w / v.w;
    this.view = { x: c[0] - (c[0] - v.x) * f, y: c[1] - (c[1] - v.y) * f, w, h: v.h * f };
    this.setViewBox();
  }

  // Screen point -> board units.
  toBoard(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    return [
      this.view.x + ((clientX - r.left) / r.width) * this.view.w,
      this.view.y + ((clientY - r.top) / r.height) * this.view.h,
    ];
  }

  listen() {
    const pointers = new Map();
    let last = null;
    this.svg.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        this.userMoved = true;
        this.zoom(e.deltaY > 0 ? 1.12 : 1 / 1.12, this.toBoard(e.clientX, e.clientY));
      },
      { passive: false },
    );
    this.svg.addEventListener("pointerdown", (e) => {
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      last = null;
      this.dragged = 0;
    });
    this.svg.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId)) return;
      const prev = pointers.get(e.pointerId);
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      const r = this.svg.getBoundingClientRect();
      if (pointers.size === 1) {
        const dx = ((e.clientX - prev[0]) / r.width) * this.view.w,
          dy = ((e.clientY - prev[1]) / r.height) * this.view.h;
        this.dragged += Math.abs(e.clientX - prev[0]) + Math.abs(e.clientY - prev[1]);
        if (this.dragged > 4) {
          this.userMoved = true;
          this.view.x -= dx;
          this.view.y -= dy;
          this.setViewBox();
        }
      } else if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (last) this.zoom(last / d, this.toBoard((a[0] + b[0]) / 2, (a[1] + b[1]) / 2));
        last = d;
        this.dragged = 99;
        this.userMoved = true;
      }
    });
    const up = (e) => {
      pointers.delete(e.pointerId);
      last = null;
    };
    this.svg.addEventListener("pointerup", up);
    this.svg.addEventListener("pointercancel", up);
  }

  // A placed tile's group, turned and moved to its space.
  drawPlaced(layer, t, extra = {}) {
    const def = this.tile(t.tile);
    const [ox, oy] = origin(parseSpace(t.space));
    const r = turns(t.rotation || t.corner);
    const g = el("g", { transform: `translate(${ox} ${oy}) rotate(${90 * r} 50 50)`, ...extra }, layer);
    if (def) drawTile(g, def, r);
    else el("rect", { width: 100, height: 100, fill: "#ccc" }, g);
    return g;
  }

  // Where a segment named `name` (`road@W`) of the tile at `space` (and `corner`, for a triangle) lies, in board
  // units; null if no such tile or segment.
  segmentPoint(space, name, corner) {
    const t =
      (this.state?.board || []).find((b) => b.space === space && (!corner || b.corner === corner)) ||
      (this.state?.board || []).find((b) => b.space === space);
    if (!t) return null;
    const def = this.tile(t.tile);
    if (!def) return null;
    const r = turns(t.rotation || t.corner);
    const i = def.names[r].indexOf(name);
    if (i < 0) return null;
    const p = rotatePoint(segAnchor(def.segments[i], def), r);
    const [ox, oy] = origin(parseSpace(space));
    return [ox + p[0], oy + p[1]];
  }

  // The whole feature a spot would join, outlined across its tiles (its cities and fields filled, its roads
  // stroked), and what it is in words in a box on the board; `null` takes it away.
  showFeature(feature, about) {
    const layer = this.layers.outline;
    layer.replaceChildren();
    this.infoEl?.remove();
    this.infoEl = null;
    if (!feature) return;
    for (const m of feature.segments) {
      const t =
        (this.state?.board || []).find((b) => b.space === m.space && (!m.corner || b.corner === m.corner)) || null;
      const def = t && this.tile(t.tile);
      if (!def) continue;
      const r = turns(t.rotation || t.corner);
      const i = def.names[r].indexOf(m.segment);
      if (i < 0) continue;
      const [ox, oy] = origin(parseSpace(m.space));
      const g = el("g", { transform: `translate(${ox} ${oy}) rotate(${90 * r} 50 50)` }, layer);
      for (const s of segmentShapes(def.segments[i], def)) el("path", { d: s.d, class: `outline-${s.kind}` }, g);
    }
    if (about) {
      this.infoEl = document.createElement("div");
      this.infoEl.className = "feature-info";
      this.infoEl.setAttribute("role", "status");
      this.infoEl.textContent = about;
      this.svg.parentElement?.appendChild(this.infoEl);
    }
  }

  // Where the figure of `player` of kind `figure` on that segment is drawn (an action on a figure rings it there);
  // else where the segment lies.
  figurePoint(space, segment, corner, player, figure) {
    return (
      this.figures?.get(figureKey(space, segment, corner, player, figure)) || this.segmentPoint(space, segment, corner)
    );
  }

  // The board as the server sent it: tiles, the last tiles placed, figures.
  render(state, players) {
    // What moved since the last render, to show it moving: the tiles added, the figures gone, the dragon's and the
    // fairy's steps. A first render (or a jump of more than a round) shows the board as it is.
    const before = this.state;
    const added = before ? state.board.length - before.board.length : 0;
    const moving = before && added >= 0 && added <= (players.length || 1) + 1;
    const figuresBefore = this.figures;
    this.state = state;
    for (const l of ["tiles", "last", "figures"]) this.layers[l].replaceChildren();
    state.board.forEach((t, i) => {
      const g = this.drawPlaced(this.layers.tiles, t, { class: "placed" });
      if (moving && i >= state.board.length - added) this.arrive(g);
    });
    // The tiles placed since the viewer's last turn stand out.
    for (const t of this.recent || []) {
      const b = state.board[t];
      if (!b) continue;
      const [ox, oy] = origin(parseSpace(b.space));
      el("rect", { x: ox + 2, y: oy + 2, width: 96, height: 96, class: "recent", fill: "none" }, this.layers.last);
    }
    // Figures on the same point (a monk and a farmer in the middle of a monastery's tile) stand side by side.
    const standing = state.meeples
      .map((m) => ({ m, at: this.segmentPoint(m.space, m.segment, m.corner) }))
      .filter((f) => f.at);
    const places = spread(
      standing.map((f) => f.at),
      () => 20,
    );
    this.figures = new Map();
    standing.forEach(({ m }, i) => {
      const at = places[i];
      this.figures.set(figureKey(m.space, m.segment, m.corner, m.player, m.kind === "normal" ? "meeple" : m.kind), at);
      const color = players[Number(m.player.slice(1)) - 1]?.color || PLAYER_COLORS[0];
      figure(this.layers.figures, m.kind === "normal" ? "meeple" : m.kind, color, at, {
        farmer: m.segment.startsWith("field"),
        mark: seatMark(m.player),
      });
      if (m.fairy) this.fairyAt([at[0] + 14, at[1] - 8]);
    });
    for (const b of state.barns || []) {
      const [ox, oy] = origin(parseSpace(b.space));
      const corner = { NE: [100, 0], SE: [100, 100], SW: [0, 100], NW: [0, 0] }[b.corner];
      const color = players[Number(b.player.slice(1)) - 1]?.color;
      figure(this.layers.figures, "barn", color, [ox + corner[0], oy + corner[1] - 6], { mark: seatMark(b.player) });
    }
    // Who holds what: every segment of a feature with figures, ringed in its holders' colours.
    if (this.overlay) {
      for (const f of state.features || []) {
        const colours = f.holders.map((p) => players[Number(p.slice(1)) - 1]?.color || "#888");
        if (!colours.length) continue;
        for (const s of f.segments) {
          const at = this.segmentPoint(s.space, s.segment, s.corner);
          if (!at) continue;
          colours.forEach((c, i) => {
            const r = 13 - i * 4;
            el(
              "circle",
              {
                cx: at[0],
                cy: at[1] - 4,
                r,
                fill: "none",
                stroke: c,
                "stroke-width": 3.5,
                opacity: 0.85,
                class: "holder",
              },
              this.layers.last,
            );
          });
          // The holders' seat numbers beside the rings, so that colour is not the only way to read them.
          const tag = el(
            "g",
            { class: "holder-tag", transform: `translate(${at[0] + 12} ${at[1] - 16})` },
            this.layers.last,
          );
          const text = f.holders.map(seatMark).join("·");
          el("rect", { x: -3.5 - text.length * 2.6, y: -6, width: 7 + text.length * 5.2, height: 12, rx: 6 }, tag);
          el("text", { "text-anchor": "middle", "dominant-baseline": "central", "font-size": 9 }, tag).textContent =
            text;
        }
      }
    }
    const fig = state.figures || {};
    // The dragon's way so far in this movement.
    if ((fig.dragon_path || []).length > 1) {
      const pts = fig.dragon_path.map((sp) => {
        const [ox, oy] = origin(parseSpace(sp));
        return `${ox + 50},${oy + 50}`;
      });
      el("polyline", { points: pts.join(" "), class: "dragon-path", fill: "none" }, this.layers.figures);
    }
    if (fig.dragon) {
      const [ox, oy] = origin(parseSpace(fig.dragon));
      const g = el("g", { class: "dragon", transform: `translate(${ox + 50} ${oy + 50})` }, this.layers.figures);
      el(
        "path",
        {
          d: "M-22 10 Q-18 -14 4 -16 L10 -26 L12 -14 Q26 -8 22 8 Q12 2 6 10 Q0 0 -8 10 Z",
          fill: "#9d2416",
          stroke: "#3b0d07",
          "stroke-width": 1.5,
        },
        g,
      );
      el("circle", { cx: 8, cy: -10, r: 2, fill: "#f2c84b" }, g);
    }
    if (fig.fairy && !state.meeples.some((m) => m.fairy)) {
      const [ox, oy] = origin(parseSpace(fig.fairy));
      this.fairyAt([ox + 80, oy + 20]);
    }
    if (moving) this.showMoves(before, state, figuresBefore, players);
    // Keep every tile in sight until the player moves the board themselves.
    this.figureScale = null;
    if (!this.userMoved) this.fit();
    else this.scaleFigures();
  }

  // A tile just placed comes down into its place (and keeps its "recent" mark until the next turn).
  arrive(g) {
    const wrap = el("g", { class: "tile-new" });
    g.replaceWith(wrap);
    wrap.appendChild(g);
    animate(
      wrap,
      [
        { transform: "translate(0px, -26px) scale(1.08)", opacity: 0 },
        { transform: "none", opacity: 1 },
      ],
      450,
    );
  }

  // The moves between two positions: each figure that left the board rises and fades where it stood; the dragon
  // and the fairy glide from where they were.
  showMoves(before, now, figuresBefore, players) {
    const key = (m) => figureKey(m.space, m.segment, m.corner, m.player, m.kind === "normal" ? "meeple" : m.kind);
    const still = new Set(now.meeples.map(key));
    for (const m of before.meeples || []) {
      const at = figuresBefore?.get(key(m));
      if (still.has(key(m)) || !at) continue;
      const color = players[Number(m.player.slice(1)) - 1]?.color || PLAYER_COLORS[0];
      const g = el("g", { class: "leaving" }, this.layers.fx);
      figure(g, m.kind === "normal" ? "meeple" : m.kind, color, at, {
        farmer: m.segment.startsWith("field"),
        mark: seatMark(m.player),
      });
      animate(
        g,
        [
          { transform: "translate(0px, 0px)", opacity: 1 },
          { transform: "translate(0px, -34px)", opacity: 0 },
        ],
        900,
        () => g.remove(),
      );
      if (!g.getAnimations?.().length) g.remove();
    }
    const glide = (selector, from, to) => {
      const node = this.layers.figures.querySelector(selector);
      if (!node || !from || !to || from === to) return;
      const [fx, fy] = parseSpace(from),
        [tx, ty] = parseSpace(to);
      const dx = (fx - tx) * 100,
        dy = (ty - fy) * 100;
      const wrap = el("g", { class: "gliding" });
      node.replaceWith(wrap);
      wrap.appendChild(node);
      animate(wrap, [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], 700);
    };
    glide(".dragon", before.figures?.dragon, now.figures?.dragon);
    glide(".fairy", before.figures?.fairy, now.figures?.fairy);
  }

  // Points floating up from each feature scored (`scores`: the server's `scored` events): "+8" in the winners'
  // colour, over where the feature was scored.
  floatPoints(scores, players) {
    for (const e of scores) {
      if (!e.points || !e.winners?.length) continue;
      const at = this.segmentPoint(e.space, e.segment, e.corner);
      if (!at) continue;
      const colour = players[Number(e.winners[0].slice(1)) - 1]?.color || "#333";
      const g = el("g", { class: "fx-points", transform: `translate(${at[0]} ${at[1] - 10})` }, this.layers.fx);
      const text = el("text", { "text-anchor": "middle", "font-size": 22, fill: colour }, g);
      text.textContent = `+${e.points}`;
      animate(
        g,
        [
          { transform: "translate(0px, 0px) scale(.7)", opacity: 0 },
          { transform: "translate(0px, -12px) scale(1.1)", opacity: 1, offset: 0.25 },
          { transform: "translate(0px, -40px) scale(1)", opacity: 0 },
        ],
        1600,
        () => g.remove(),
      );
      if (!g.getAnimations?.().length) g.remove();
    }
  }

  fairyAt([x, y]) {
    const g = el("g", { class: "fairy", transform: `translate(${x} ${y})` }, this.layers.figures);
    el(
      "path",
      {
        d: "M0 -10 C-9 -18 -14 -4 -2 -2 C-14 2 -8 12 0 4 C8 12 14 2 2 -2 C14 -4 9 -18 0 -10 Z",
        fill: "#b9e3f5",
        stroke: "#4a8fb0",
        "stroke-width": 1,
      },
      g,
    );
    el("circle", { r: 3, fill: "#f7d8e8", stroke: "#a0507a", "stroke-width": 0.8 }, g);
  }

  // The marks go and come back with every change of the decision: the one that had the keyboard's focus gets it
  // again (by its label) when it comes back.
  clearMarks() {
    const focused = document.activeElement;
    if (focused && this.svg.contains(focused)) this.refocus = focused.getAttribute("aria-label");
    this.closeChooser();
    this.layers.marks.replaceChildren();
    this.layers.ghost.replaceChildren();
    this.layers.spots.replaceChildren();
    this.showFeature(null);
    this.spotList = [];
    this.spotLayout = null;
  }

  // A clickable spot for `at` (board units): a ring that pulses. `tag` labels it: a letter (the feature's), or
  // "barn" for the barn's figure; `tagWhenMoved`, only when it had to leave its point. Where it is drawn is up to
  // layoutSpots, called once every spot of the decision is there.
  mark(at, label, onClick, kind = "spot", { tag = null, tagWhenMoved = false, feature = null, about = "" } = {}) {
    const g = el(
      "g",
      {
        class: `mark mark-${kind}`,
        transform: `translate(${at[0]} ${at[1]})`,
        tabindex: 0,
        role: "button",
        "aria-label": label,
      },
      this.layers.spots,
    );
    const body = el("g", { class: "spot-body" }, g);
    const radius = SPOT_RADIUS[kind] || 9;
    el("circle", { r: radius + 4.5, class: "focus-ring" }, body);
    el("circle", { r: radius, class: "ring" }, body);
    let tagEl = null;
    if (tag === "barn") {
      tagEl = el("path", { d: BARN_ICON, class: "spot-tag spot-icon" }, body);
    } else if (tag) {
      tagEl = el(
        "text",
        { class: "spot-tag", "text-anchor": "middle", "dominant-baseline": "central", "font-size": 11 },
        body,
      );
      tagEl.textContent = tag;
    }
    el("title", {}, g).textContent = label;
    const fire = (e) => {
      e.stopPropagation();
      if ((this.dragged || 0) <= 4) onClick();
    };
    g.addEventListener("click", fire);
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        onClick();
      }
    });
    // Hovered or focused, a spot outlines the feature it would join and says what that holds.
    if (feature) {
      if (about) g.setAttribute("aria-description", about);
      const show = () => this.showFeature(feature, about);
      const hide = () => this.showFeature(null);
      g.addEventListener("pointerenter", show);
      g.addEventListener("focus", show);
      g.addEventListener("pointerleave", hide);
      g.addEventListener("blur", hide);
    }
    this.spotList ||= [];
    this.spotList.push({ g, body, at, radius, tag, tagEl, tagWhenMoved, label, onClick });
    this.spotLayout = null;
    this.takeFocus(g, label);
    return g;
  }

  // Every spot of the decision its own place at the current zoom (see placeSpots): each at least spotMinPx() in
  // radius on the screen, no two closer than their radii and SPOT_GAP_PX. Spots too close to each other move apart,
  // each with a thin line back to the point it stands for; where they would have to go too far, a crowd of them
  // becomes one spot that offers the choice. Only the marks that change leave the board, so the one with the
  // keyboard's focus keeps it (or the crowd it joins, or the first spot of the crowd it was, takes it). Panning keeps
  // the layout.
  layoutSpots() {
    const list = this.spotList || [];
    const ppu = this.pixelsPerUnit() || 1;
    const min = spotMinPx();
    const key = `${ppu.toFixed(5)}|${min}`;
    if (this.spotLayout?.key === key && this.spotLayout.list === list) return;
    this.closeChooser();
    const layer = this.layers.spots;
    const focused = /** @type {Element | null} */ (document.activeElement);
    const mine = list.findIndex((s) => s.g === focused);
    const focusedAt =
      mine >= 0 ? mine : focused && layer.contains(focused) ? this.spotLayout?.first.get(focused) : undefined;
    const k = Math.max(1, min / (9 * ppu));
    const unit = 9 * k * ppu;
    const marks = placeSpots(
      list.map((s) => ({ x: s.at[0] * ppu, y: s.at[1] * ppu, r: s.radius * k * ppu })),
      { gap: SPOT_GAP_PX, reach: 2 * unit + SPOT_GAP_PX },
    );
    const lines = el("g", { class: "leaders" });
    const shown = [lines];
    const crowds = [];
    /** The first spot (its index) each mark on the board stands for. @type {Map<Element, number>} */
    const first = new Map();
    for (const m of marks) {
      const [x, y] = [m.at[0] / ppu, m.at[1] / ppu];
      if (m.members.length === 1) {
        const s = list[m.members[0]];
        s.g.setAttribute("transform", `translate(${x.toFixed(2)} ${y.toFixed(2)})`);
        if (k === 1) s.body.removeAttribute("transform");
        else s.body.setAttribute("transform", `scale(${k.toFixed(3)})`);
        const moved = Math.hypot(x - s.at[0], y - s.at[1]);
        if (s.tagEl) s.tagEl.style.display = s.tagWhenMoved && moved < 1 ? "none" : "";
        if (moved > s.radius * k) {
          el("line", { x1: s.at[0], y1: s.at[1], x2: x, y2: y, class: "leader", "stroke-width": 1.5 * k }, lines);
          el("circle", { cx: s.at[0], cy: s.at[1], r: 2.5 * k, class: "leader-end" }, lines);
        }
        shown.push(s.g);
        first.set(s.g, m.members[0]);
      } else {
        const members = m.members.map((i) => list[i]);
        const g = this.crowdMark(members, [x, y], k, m.r / ppu / k);
        // Where each of its spots stands for, a dot.
        for (const s of members) el("circle", { cx: s.at[0], cy: s.at[1], r: 2.5 * k, class: "leader-end" }, lines);
        shown.push(g);
        crowds.push(g);
        first.set(g, m.members[0]);
      }
    }
    const keep = new Set(shown);
    for (const c of [...layer.children]) if (!keep.has(c)) c.remove();
    // What stays is in the order of `shown` already: the rest goes in between.
    let next = layer.firstChild;
    for (const node of shown) {
      if (node === next) next = next.nextSibling;
      else layer.insertBefore(node, next);
    }
    this.spotLayout = { key, list, first };
    for (const g of crowds) this.takeFocus(g, g.getAttribute("aria-label"));
    if (focusedAt !== undefined && document.activeElement !== focused) {
      const m = marks.find((m) => m.members.includes(focusedAt));
      const g = m && [...first].find(([, i]) => i === m.members[0])?.[0];
      /** @type {SVGElement | undefined} */ (g)?.focus({ preventScroll: true });
    }
  }

  // One spot for a crowd of spots, at `at` (board units): a double ring with their number; a click (or Enter) opens
  // the list of them to choose from.
  crowdMark(members, at, k, radius) {
    const label = t("crowdSpot", { n: members.length });
    const g = el("g", {
      class: "mark mark-crowd",
      transform: `translate(${at[0].toFixed(2)} ${at[1].toFixed(2)})`,
      tabindex: 0,
      role: "button",
      "aria-label": label,
      "aria-haspopup": "true",
    });
    const body = el("g", { class: "spot-body" }, g);
    if (k !== 1) body.setAttribute("transform", `scale(${k.toFixed(3)})`);
    el("circle", { r: radius + 4.5, class: "focus-ring" }, body);
    el("circle", { r: radius, class: "ring" }, body);
    el("circle", { r: radius - 3, class: "crowd-inner" }, body);
    el(
      "text",
      { class: "spot-tag", "text-anchor": "middle", "dominant-baseline": "central", "font-size": 10 },
      body,
    ).textContent = String(members.length);
    el("title", {}, g).textContent = label;
    g.addEventListener("click", (e) => {
      e.stopPropagation();
      if ((this.dragged || 0) <= 4) this.openChooser(g, members);
    });
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        this.openChooser(g, members);
      }
    });
    return g;
  }

  // The list of a crowd's spots, beside it: each a button that says what it does and, hovered or focused, rings the
  // point it stands for. Esc (or a click elsewhere) closes it.
  openChooser(crowd, members) {
    this.closeChooser();
    const wrap = /** @type {HTMLElement} */ (this.svg.parentElement);
    const box = document.createElement("div");
    box.className = "spot-chooser";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", t("chooseSpot"));
    const head = document.createElement("p");
    head.textContent = t("chooseSpot");
    box.append(head);
    const buttons = members.map((s) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "small";
      if (s.tag) {
        // The spot's own letter or icon.
        const tag = el(
          "svg",
          { class: "chooser-tag", viewBox: "-9 -9 18 18", width: 18, height: 18, "aria-hidden": "true" },
          b,
        );
        el("circle", { r: 8, class: "ring" }, tag);
        if (s.tag === "barn") el("path", { d: BARN_ICON, class: "spot-tag spot-icon" }, tag);
        else {
          const letter = el(
            "text",
            { class: "spot-tag", "text-anchor": "middle", "dominant-baseline": "central", "font-size": 10 },
            tag,
          );
          letter.textContent = s.tag;
        }
      }
      b.append(s.label);
      b.addEventListener("click", () => {
        this.closeChooser();
        s.onClick();
      });
      for (const on of ["pointerenter", "focus"]) b.addEventListener(on, () => this.previewSpot(s));
      for (const off of ["pointerleave", "blur"]) b.addEventListener(off, () => this.previewSpot(null));
      box.append(b);
      return b;
    });
    box.addEventListener("keydown", (e) => {
      const i = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        this.closeChooser();
        crowd.focus({ preventScroll: true });
      } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const d = e.key === "ArrowDown" ? 1 : -1;
        buttons[(i + d + buttons.length) % buttons.length].focus();
      }
    });
    wrap.append(box);
    // Beside the crowd's spot, inside the board.
    const c = crowd.getBoundingClientRect(),
      w = wrap.getBoundingClientRect(),
      b = box.getBoundingClientRect();
    let left = c.right - w.left + 6;
    if (left + b.width > w.width - 4) left = c.left - w.left - 6 - b.width;
    const top = Math.min(Math.max(4, c.top - w.top - 8), Math.max(4, w.height - b.height - 4));
    box.style.left = `${Math.max(4, left)}px`;
    box.style.top = `${top}px`;
    this.chooser = box;
    this.closeOutside = (e) => {
      if (!box.contains(/** @type {Node} */ (e.target))) this.closeChooser();
    };
    document.addEventListener("pointerdown", this.closeOutside, true);
    buttons[0]?.focus({ preventScroll: true });
  }

  closeChooser() {
    if (this.closeOutside) document.removeEventListener("pointerdown", this.closeOutside, true);
    this.closeOutside = null;
    this.chooser?.remove();
    this.chooser = null;
    this.previewSpot(null);
  }

  // A ring on the point a spot of a crowd stands for (null: none).
  previewSpot(s) {
    this.previewEl?.remove();
    this.previewEl = null;
    if (!s) return;
    const k = Math.max(1, spotMinPx() / (9 * (this.pixelsPerUnit() || 1)));
    this.previewEl = el(
      "circle",
      { cx: s.at[0], cy: s.at[1], r: s.radius * k, class: "spot-preview", "stroke-width": 2.5 * k },
      this.layers.spots,
    );
  }

  // A space where the tile may go: a dashed square (or a triangle's half) that can be clicked.
  spaceMark(space, label, onClick, selected) {
    const [ox, oy] = origin(parseSpace(space));
    const g = el(
      "g",
      {
        class: `space-mark${selected ? " selected" : ""}`,
        tabindex: 0,
        role: "button",
        "aria-label": label,
        "data-space": space,
      },
      this.layers.marks,
    );
    el("rect", { x: ox + 4, y: oy + 4, width: 92, height: 92, rx: 6 }, g);
    el("title", {}, g).textContent = label;
    g.addEventListener("click", (e) => {
      e.stopPropagation();
      if ((this.dragged || 0) <= 4) onClick();
    });
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        onClick();
      }
    });
    this.takeFocus(g, label);
    return g;
  }

  // A mark that comes back with the label of the one that had the focus takes it.
  takeFocus(g, label) {
    if (
      this.refocus &&
      this.refocus === label &&
      (!document.activeElement || document.activeElement === document.body)
    ) {
      this.refocus = null;
      g.focus({ preventScroll: true });
    }
  }

  // The tile to place, shown where it would go.
  ghost(tileId, space, orientation) {
    this.layers.ghost.replaceChildren();
    if (!space) return;
    const g = this.drawPlaced(
      this.layers.ghost,
      {
        tile: tileId,
        space,
        rotation: orientation[0] === "r" ? orientation : null,
        corner: orientation[0] === "r" ? null : orientation,
      },
      { class: "ghost" },
    );
    return g;
  }

  centreOf(space) {
    const [ox, oy] = origin(parseSpace(space));
    return [ox + 50, oy + 50];
  }

  cornerOf(space, corner) {
    const [ox, oy] = origin(parseSpace(space));
    const c = { NE: [100, 0], SE: [100, 100], SW: [0, 100], NW: [0, 0] }[corner];
    return [ox + c[0], oy + c[1]];
  }
}

// The mark a seat's figures carry beside their colour: the seat's number ("P2" -> "2").
export const seatMark = (player) => String(player || "").replace(/^P/, "");

// A single tile drawn on its own (the tile in hand, the draft, the tiles left), `size` pixels wide.
export function tileIcon(def, orientation = "r0", size = 64) {
  const svg = el("svg", {
    viewBox: "-4 -4 108 108",
    width: size,
    height: size,
    class: "tile-icon",
    "data-tile": def?.id || "",
  });
  defs(svg);
  const g = el("g", { transform: `rotate(${90 * turns(orientation)} 50 50)` }, svg);
  if (def) drawTile(g, def, turns(orientation));
  return svg;
}

export { symbol };
