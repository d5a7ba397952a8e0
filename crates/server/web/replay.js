// @ts-check
// The replay of a finished game: step through its actions, jump, go to the start or the end. Each position is the
// server's view of the game after that many actions (GET /api/games/{id}/view?at=N); the table still knows no rules.

import { Board, seatMark } from "./board.js";
import { uiIcon } from "./icons.js";
import { inkOn, seatColour } from "./tiles.js";

export class Replay {
  constructor(id, ui) {
    this.id = id;
    this.ui = ui;
    this.keys = (e) => {
      if (e.target.closest("input, select")) return;
      if (e.key === "ArrowRight") this.goto(this.at + 1);
      else if (e.key === "ArrowLeft") this.goto(this.at - 1);
      else if (e.key === "Home") this.goto(0);
      else if (e.key === "End") this.goto(this.total);
    };
  }

  async start() {
    const { root, header, h, t, get } = this.ui;
    const rec = await get(`/api/games/${this.id}/record`);
    if (!rec.ok) {
      root.replaceChildren(header(), h("main", { class: "page" }, t("notFound")));
      return;
    }
    this.total = rec.data.actions.length;
    this.actions = rec.data.actions;
    const tiles = await get(`/api/games/${this.id}/tiles`);
    this.scoreEl = h("section", { class: "scores" });
    const wrap = h("div", { class: "board-wrap" });
    this.slider = h("input", {
      type: "range",
      min: 0,
      max: this.total,
      value: this.total,
      "aria-label": t("step"),
      oninput: (e) => this.goto(Number(e.target.value)),
    });
    this.label = h("span", { class: "step-label" });
    const btn = (icon, label, f) => h("button", { "aria-label": label, title: label, onclick: f }, uiIcon(icon));
    const controls = h(
      "div",
      { class: "replay-controls buttons" },
      btn("start", t("start"), () => this.goto(0)),
      btn("back", t("back"), () => this.goto(this.at - 1)),
      this.slider,
      btn("forward", t("forward"), () => this.goto(this.at + 1)),
      btn("end", t("end"), () => this.goto(this.total)),
      this.label,
    );
    root.replaceChildren(
      header([h("span", { class: "game-id" }, `${t("replay")} ${this.id}`)]),
      h("main", { class: "table replay" }, this.scoreEl, wrap, h("aside", { class: "side" }, controls)),
    );
    this.board = new Board(wrap, tiles.data.tiles, { label: t("boardLabel") });
    document.addEventListener("keydown", this.keys);
    await this.goto(this.total);
  }

  stop() {
    document.removeEventListener("keydown", this.keys);
  }

  async goto(n) {
    const { h, get } = this.ui;
    n = Math.max(0, Math.min(this.total, n));
    this.at = n;
    this.slider.value = n;
    const r = await get(`/api/games/${this.id}/view?at=${n}`);
    if (!r.ok || this.at !== n) return;
    const v = r.data;
    const players = v.game.players.map((p, i) => ({ ...p, name: v.seats[i].name, color: seatColour(v.seats[i], i) }));
    this.board.render(v.game, players);
    this.label.textContent = `${n} / ${this.total}${n > 0 ? ` · ${this.actions[n - 1]}` : ""}`;
    this.scoreEl.replaceChildren(
      ...players.map((p) =>
        h(
          "div",
          { class: "player" },
          h(
            "span",
            { class: "swatch numbered", style: `background:${p.color};color:${inkOn(p.color)}`, "aria-hidden": "true" },
            seatMark(p.player),
          ),
          h("span", { class: "pname" }, p.name),
          h("strong", {}, p.score),
        ),
      ),
    );
  }
}
