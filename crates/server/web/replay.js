// @ts-check
// The replay of a finished game: step through its actions, jump, go to the start or the end, or let it play at a
// chosen speed. Each position is the server's view of the game after that many actions (GET
// /api/games/{id}/view?at=N); beside the board, what happened up to that step (the game's events, the seats' moves
// and the scorings, in words). The table still knows no rules.

import { Board, seatMark } from "./board.js";
import { uiIcon } from "./icons.js";
import { eventText } from "./log.js";
import { inkOn, seatColour } from "./tiles.js";
import { didWords } from "./words.js";

// The speeds of autoplay: seconds a step.
const SPEEDS = [2, 1, 0.5, 0.25];

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
      else if (e.key === " " && !e.target.closest("button")) {
        e.preventDefault();
        this.toggle();
      }
    };
    this.timer = null;
    this.speed = 1;
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
    const [tiles, events] = await Promise.all([
      get(`/api/games/${this.id}/tiles`),
      get(`/api/games/${this.id}/events`),
    ]);
    this.events = (events.ok ? events.data.events : []).filter((e) => e.type !== "set_aside" && e.type !== "put_back");
    this.tiles = new Map(tiles.data.tiles.map((x) => [x.id, x]));
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
    this.playButton = btn("play", t("autoplay"), () => this.toggle());
    const speed = h(
      "select",
      {
        "aria-label": t("speed"),
        onchange: (e) => {
          this.speed = Number(e.target.value);
          if (this.timer) this.play();
        },
      },
      SPEEDS.map((s) => h("option", { value: s, selected: s === this.speed }, t("perStep", { s }))),
    );
    const controls = h(
      "div",
      { class: "replay-controls buttons" },
      btn("start", t("start"), () => this.goto(0)),
      btn("back", t("back"), () => this.goto(this.at - 1)),
      this.slider,
      btn("forward", t("forward"), () => this.goto(this.at + 1)),
      btn("end", t("end"), () => this.goto(this.total)),
    );
    const autoplay = h("div", { class: "replay-controls buttons" }, this.playButton, speed, this.label);
    this.stepEl = h("p", { class: "replay-step", "aria-live": "polite" });
    this.logEl = h("ol", { class: "log replay-log" });
    root.replaceChildren(
      header([h("span", { class: "game-id" }, `${t("replay")} ${this.id}`)]),
      h(
        "main",
        { class: "table replay" },
        this.scoreEl,
        wrap,
        h(
          "aside",
          { class: "side" },
          controls,
          autoplay,
          this.stepEl,
          h("details", { open: true }, h("summary", {}, t("log")), this.logEl),
        ),
      ),
    );
    this.board = new Board(wrap, tiles.data.tiles, { label: t("boardLabel") });
    document.addEventListener("keydown", this.keys);
    await this.goto(this.total);
  }

  stop() {
    document.removeEventListener("keydown", this.keys);
    this.pause();
  }

  // Autoplay: a step every `speed` seconds from where it stands (from the start when at the end), until the end.
  toggle() {
    if (this.timer) this.pause();
    else {
      if (this.at >= this.total) this.goto(0);
      this.play();
    }
  }

  play() {
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (this.at >= this.total) return this.pause();
      this.goto(this.at + 1, true);
    }, this.speed * 1000);
    this.showPlaying();
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.showPlaying();
  }

  showPlaying() {
    if (!this.playButton) return;
    const { t } = this.ui;
    const label = this.timer ? t("pause") : t("autoplay");
    this.playButton.replaceChildren(uiIcon(this.timer ? "pause" : "play"));
    this.playButton.setAttribute("aria-label", label);
    this.playButton.title = label;
    this.playButton.setAttribute("aria-pressed", String(!!this.timer));
  }

  // What happened up to step `n`, newest first: each seat's move and each event, in words; those of step `n` itself
  // marked, and said above the log.
  renderLog(n) {
    const { h, t } = this.ui;
    const nameOf = (p) => this.names.get(p) || p;
    const ctx = { nameOf, tileOf: (id) => this.tiles.get(id) };
    const lines = this.events
      .filter((e) => e.action <= n)
      .map((e) => ({ e, text: e.type === "played" ? didWords(e.by, e.move, ctx) : eventText(e, nameOf) }))
      .filter((x) => x.text);
    const now = lines.filter((x) => x.e.action === n).map((x) => x.text);
    // A step with nothing to say is a draw (chance's), or a seat that passed.
    const mover = this.events.find((e) => e.action === n && e.type === "played")?.by;
    const quiet = mover ? t("did_pass", { who: nameOf(mover) }) : t("replayDraw");
    this.stepEl.textContent = n === 0 ? t("replayStart") : now.join(". ") || quiet;
    this.logEl.replaceChildren(
      ...lines
        .slice(-200)
        .reverse()
        .map(({ e, text }) => h("li", { class: `ev ev-${e.type}${e.action === n ? " now" : ""}` }, text)),
    );
  }

  async goto(n, playing = false) {
    const { h, get, t } = this.ui;
    if (!playing) this.pause();
    n = Math.max(0, Math.min(this.total, n));
    this.at = n;
    this.slider.value = n;
    const r = await get(`/api/games/${this.id}/view?at=${n}`);
    if (!r.ok || this.at !== n) return;
    const v = r.data;
    const players = v.game.players.map((p, i) => ({ ...p, name: v.seats[i].name, color: seatColour(v.seats[i], i) }));
    this.board.render(v.game, players);
    this.names = new Map(players.map((p) => [p.player, p.name]));
    this.label.textContent = t("stepOf", { n, total: this.total });
    this.renderLog(n);
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
