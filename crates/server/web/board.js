// The board: tiles where the server says they are, figures on the segments it names, and clickable marks for the
// legal actions it sent. Pan by dragging, zoom with the wheel, a pinch or the buttons.

import { el, defs, drawTile, segAnchor, figure, symbol, PLAYER_COLORS } from "./tiles.js";

const CORNERS = ["NE", "SE", "SW", "NW"];

// "x,y" -> [x, y]
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

export class Board {
  constructor(container, tiles) {
    this.tiles = new Map(tiles.map((t) => [t.id, t]));
    this.svg = el("svg", { class: "board", role: "img", "aria-label": "board" });
    container.appendChild(this.svg);
    defs(this.svg);
    this.layers = {};
    for (const name of ["grid", "tiles", "last", "figures", "marks", "ghost"]) {
      this.layers[name] = el("g", { class: `layer-${name}` }, this.svg);
    }
    this.view = { x: -250, y: -250, w: 600, h: 600 };
    this.fitted = false;
    this.listen();
  }

  tile(id) { return this.tiles.get(id); }

  setViewBox() {
    const { x, y, w, h } = this.view;
    this.svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
    this.scaleFigures();
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
      if (t) b.setAttribute("transform", t); else b.removeAttribute("transform");
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
    const xs = spaces.map((s) => s[0]), ys = spaces.map((s) => -s[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs) - 1.5, Math.max(...xs) + 2.5, Math.min(...ys) - 1.5, Math.max(...ys) + 2.5];
    const rect = this.svg.getBoundingClientRect();
    const aspect = rect.width > 0 && rect.height > 0 ? rect.width / rect.height : 1;
    let w = (x1 - x0) * 100, h = (y1 - y0) * 100;
    if (w / h < aspect) w = h * aspect; else h = w / aspect;
    const cx = ((x0 + x1) / 2) * 100, cy = ((y0 + y1) / 2) * 100;
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
    return [this.view.x + ((clientX - r.left) / r.width) * this.view.w, this.view.y + ((clientY - r.top) / r.height) * this.view.h];
  }

  listen() {
    const pointers = new Map();
    let last = null;
    this.svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.userMoved = true;
      this.zoom(e.deltaY > 0 ? 1.12 : 1 / 1.12, this.toBoard(e.clientX, e.clientY));
    }, { passive: false });
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
        const dx = ((e.clientX - prev[0]) / r.width) * this.view.w, dy = ((e.clientY - prev[1]) / r.height) * this.view.h;
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
    const up = (e) => { pointers.delete(e.pointerId); last = null; };
    this.svg.addEventListener("pointerup", up);
    this.svg.addEventListener("pointercancel", up);
  }

  // A placed tile's group, turned and moved to its space.
  drawPlaced(layer, t, extra = {}) {
    const def = this.tile(t.tile);
    const [ox, oy] = origin(parseSpace(t.space));
    const r = turns(t.rotation || t.corner);
    const g = el("g", { transform: `translate(${ox} ${oy}) rotate(${90 * r} 50 50)`, ...extra }, layer);
    if (def) drawTile(g, def); else el("rect", { width: 100, height: 100, fill: "#ccc" }, g);
    return g;
  }

  // Where a segment named `name` (`road@W`) of the tile at `space` (and `corner`, for a triangle) lies, in board
  // units; null if no such tile or segment.
  segmentPoint(space, name, corner) {
    const t = (this.state?.board || []).find((b) => b.space === space && (!corner || b.corner === corner))
      || (this.state?.board || []).find((b) => b.space === space);
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
    for (const m of state.meeples) {
      const at = this.segmentPoint(m.space, m.segment, m.corner);
      if (!at) continue;
      const color = players[Number(m.player.slice(1)) - 1]?.color || PLAYER_COLORS[0];
      figure(this.layers.figures, m.kind === "normal" ? "meeple" : m.kind, color, at,
        { farmer: m.segment.startsWith("field") });
      if (m.fairy) this.fairyAt([at[0] + 14, at[1] - 8]);
    }
    for (const b of state.barns || []) {
      const [ox, oy] = origin(parseSpace(b.space));
      const corner = { NE: [100, 0], SE: [100, 100], SW: [0, 100], NW: [0, 0] }[b.corner];
      const color = players[Number(b.player.slice(1)) - 1]?.color;
      figure(this.layers.figures, "barn", color, [ox + corner[0], oy + corner[1] - 6]);
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
            el("circle", { cx: at[0], cy: at[1] - 4, r, fill: "none", stroke: c, "stroke-width": 3.5, opacity: 0.85, class: "holder" }, this.layers.last);
          });
        }
      }
    }
    const fig = state.figures || {};
    // The dragon's way so far in this movement.
    if ((fig.dragon_path || []).length > 1) {
      const pts = fig.dragon_path.map((sp) => { const [ox, oy] = origin(parseSpace(sp)); return `${ox + 50},${oy + 50}`; });
      el("polyline", { points: pts.join(" "), class: "dragon-path", fill: "none" }, this.layers.figures);
    }
    if (fig.dragon) {
      const [ox, oy] = origin(parseSpace(fig.dragon));
      const g = el("g", { class: "dragon", transform: `translate(${ox + 50} ${oy + 50})` }, this.layers.figures);
      el("path", { d: "M-22 10 Q-18 -14 4 -16 L10 -26 L12 -14 Q26 -8 22 8 Q12 2 6 10 Q0 0 -8 10 Z", fill: "#9d2416", stroke: "#3b0d07", "stroke-width": 1.5 }, g);
      el("circle", { cx: 8, cy: -10, r: 2, fill: "#f2c84b" }, g);
    }
    if (fig.fairy && !state.meeples.some((m) => m.fairy)) {
      const [ox, oy] = origin(parseSpace(fig.fairy));
      this.fairyAt([ox + 80, oy + 20]);
    }
    // Keep every tile in sight until the player moves the board themselves.
    this.figureScale = null;
    if (!this.userMoved) this.fit(); else this.scaleFigures();
  }

  fairyAt([x, y]) {
    const g = el("g", { class: "fairy", transform: `translate(${x} ${y})` }, this.layers.figures);
    el("path", { d: "M0 -10 C-9 -18 -14 -4 -2 -2 C-14 2 -8 12 0 4 C8 12 14 2 2 -2 C14 -4 9 -18 0 -10 Z", fill: "#b9e3f5", stroke: "#4a8fb0", "stroke-width": 1 }, g);
    el("circle", { r: 3, fill: "#f7d8e8", stroke: "#a0507a", "stroke-width": 0.8 }, g);
  }

  clearMarks() {
    this.layers.marks.replaceChildren();
    this.layers.ghost.replaceChildren();
  }

  // A clickable mark at `at` (board units): a ring that pulses, with an optional label.
  mark(at, label, onClick, kind = "spot") {
    const g = el("g", { class: `mark mark-${kind}`, transform: `translate(${at[0]} ${at[1]})`, tabindex: 0, role: "button", "aria-label": label }, this.layers.marks);
    el("circle", { r: kind === "space" ? 0 : 9, class: "ring" }, g);
    el("title", {}, g).textContent = label;
    const fire = (e) => { e.stopPropagation(); if ((this.dragged || 0) <= 4) onClick(); };
    g.addEventListener("click", fire);
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onClick(); } });
    return g;
  }

  // A space where the tile may go: a dashed square (or a triangle's half) that can be clicked.
  spaceMark(space, label, onClick, selected) {
    const [ox, oy] = origin(parseSpace(space));
    const g = el("g", { class: `space-mark${selected ? " selected" : ""}`, tabindex: 0, role: "button", "aria-label": label, "data-space": space }, this.layers.marks);
    el("rect", { x: ox + 4, y: oy + 4, width: 92, height: 92, rx: 6 }, g);
    el("title", {}, g).textContent = label;
    g.addEventListener("click", (e) => { e.stopPropagation(); if ((this.dragged || 0) <= 4) onClick(); });
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onClick(); } });
    return g;
  }

  // The tile to place, shown where it would go.
  ghost(tileId, space, orientation) {
    this.layers.ghost.replaceChildren();
    if (!space) return;
    const g = this.drawPlaced(this.layers.ghost, { tile: tileId, space, rotation: orientation[0] === "r" ? orientation : null, corner: orientation[0] === "r" ? null : orientation }, { class: "ghost" });
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

// A single tile drawn on its own (the tile in hand, the draft, the tiles left), `size` pixels wide.
export function tileIcon(def, orientation = "r0", size = 64) {
  const svg = el("svg", { viewBox: "-4 -4 108 108", width: size, height: size, class: "tile-icon", "data-tile": def?.id || "" });
  defs(svg);
  const g = el("g", { transform: `rotate(${90 * turns(orientation)} 50 50)` }, svg);
  if (def) drawTile(g, def);
  return svg;
}

export { symbol };
