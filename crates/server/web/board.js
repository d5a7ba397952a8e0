// @ts-check
// The board: tiles where the server says they are, figures on the segments it names, and clickable marks for the
// legal actions it sent. Pan by dragging, zoom with the wheel, a pinch or the buttons.

import { defs, drawTile, el, figure, PLAYER_COLORS, segAnchor, symbol } from "./tiles.js";

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

// Spots (the clickable marks of a decision): a spot's radius in board units by kind, the least radius it has on the
// screen however far the board is zoomed out, and the room left between two spots' rings, in pixels.
const SPOT_RADIUS = { dragon: 16, princess: 15, "crop-remove": 15 };
const SPOT_MIN_PX = 11;
const SPOT_GAP_PX = 5;

// Move `points` apart so that no two are closer than `need(i, j)`, each as little as it can: a pair too close push
// each other apart along the line between them (two at the same point: the first to the left, the second to the
// right), pass after pass. Should that not settle, each crowd goes round a circle of its own, which always does.
export function spread(points, need, passes = 80) {
  const n = points.length;
  const p = points.map(([x, y]) => [x, y]);
  const clash = (q, i, j) => Math.hypot(q[j][0] - q[i][0], q[j][1] - q[i][1]) < need(i, j) - 1e-6;
  for (let pass = 0; pass < passes; pass++) {
    let moved = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (!clash(p, i, j)) continue;
        let dx = p[j][0] - p[i][0],
          dy = p[j][1] - p[i][1],
          d = Math.hypot(dx, dy);
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
        const push = (need(i, j) * 1.02 - d) / 2;
        p[i][0] -= dx * push;
        p[i][1] -= dy * push;
        p[j][0] += dx * push;
        p[j][1] += dy * push;
        moved = true;
      }
    }
    if (!moved) return p;
  }
  // Crowds: points still too close join one group; each group goes round a circle about its middle, its members in
  // the order of their angles, the circle wide enough for the widest pair. Groups that then clash join, until none do.
  const group = [...Array(n).keys()];
  const find = (i) => {
    if (group[i] !== i) group[i] = find(group[i]);
    return group[i];
  };
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

export class Board {
  // `label`: what the board is called for a screen reader, in the table's language. The board is a group, so that
  // its spots (buttons) can be reached inside it.
  constructor(container, tiles, { label = "Board" } = {}) {
    this.tiles = new Map(tiles.map((t) => [t.id, t]));
    this.svg = el("svg", { class: "board", role: "group", "aria-label": label });
    container.appendChild(this.svg);
    defs(this.svg);
    this.layers = {};
    for (const name of ["grid", "tiles", "last", "figures", "marks", "ghost", "spots"]) {
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

  // Show everything placed, with a margin of one space.
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
    let w = (x1 - x0) * 100,
      h = (y1 - y0) * 100;
    if (w / h < aspect) w = h * aspect;
    else h = w / aspect;
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
    if (def) drawTile(g, def);
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

  // Where the figure of `player` of kind `figure` on that segment is drawn (an action on a figure rings it there);
  // else where the segment lies.
  figurePoint(space, segment, corner, player, figure) {
    return (
      this.figures?.get(figureKey(space, segment, corner, player, figure)) || this.segmentPoint(space, segment, corner)
    );
  }

  // The board as the server sent it: tiles, the last tiles placed, figures.
  render(state, players) {
    this.state = state;
    for (const l of ["tiles", "last", "figures"]) this.layers[l].replaceChildren();
    for (const t of state.board) this.drawPlaced(this.layers.tiles, t, { class: "placed" });
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
    // Keep every tile in sight until the player moves the board themselves.
    this.figureScale = null;
    if (!this.userMoved) this.fit();
    else this.scaleFigures();
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
    this.layers.marks.replaceChildren();
    this.layers.ghost.replaceChildren();
    this.layers.spots.replaceChildren();
    this.spotList = [];
  }

  // A clickable spot for `at` (board units): a ring that pulses. `tag` labels it: a letter (the feature's), or
  // "barn" for the barn's figure; `tagWhenMoved`, only when it had to leave its point. Where it is drawn is up to
  // layoutSpots, called once every spot of the decision is there.
  mark(at, label, onClick, kind = "spot", { tag = null, tagWhenMoved = false } = {}) {
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
      tagEl = el("path", { d: "M-5 4 V-1.5 L0 -5.5 L5 -1.5 V4 Z", class: "spot-tag spot-icon" }, body);
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
    this.spotList ||= [];
    this.spotList.push({ g, body, at, radius, tagEl, tagWhenMoved });
    this.takeFocus(g, label);
    return g;
  }

  // Every spot of the decision its own place at the current zoom: each at least SPOT_MIN_PX in radius on the
  // screen, and no two closer than their radii and SPOT_GAP_PX. Spots too close to each other move apart (see
  // spread), each with a thin line back to the point it stands for.
  layoutSpots() {
    const list = this.spotList || [];
    const leaders = this.layers.spots.querySelector(".leaders");
    if (leaders) leaders.remove();
    if (!list.length) return;
    const ppu = this.pixelsPerUnit() || 1;
    const k = Math.max(1, SPOT_MIN_PX / (9 * ppu));
    const gap = SPOT_GAP_PX / ppu;
    const places = spread(
      list.map((s) => s.at),
      (i, j) => (list[i].radius + list[j].radius) * k + gap,
    );
    const lines = el("g", { class: "leaders" });
    this.layers.spots.prepend(lines);
    list.forEach((s, i) => {
      const [x, y] = places[i];
      s.g.setAttribute("transform", `translate(${x.toFixed(2)} ${y.toFixed(2)})`);
      if (k === 1) s.body.removeAttribute("transform");
      else s.body.setAttribute("transform", `scale(${k.toFixed(3)})`);
      const moved = Math.hypot(x - s.at[0], y - s.at[1]);
      if (s.tagEl) s.tagEl.style.display = s.tagWhenMoved && moved < 1 ? "none" : "";
      if (moved > s.radius * k) {
        el("line", { x1: s.at[0], y1: s.at[1], x2: x, y2: y, class: "leader", "stroke-width": 1.5 * k }, lines);
        el("circle", { cx: s.at[0], cy: s.at[1], r: 2.5 * k, class: "leader-end" }, lines);
      }
    });
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
  if (def) drawTile(g, def);
  return svg;
}

export { symbol };
