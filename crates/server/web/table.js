// @ts-check
// The table of one game (/play/{id}): the score bar, the board with the spots of the decision asked, the panel with
// its controls, what happened, the tiles left, the final scores. Everything shown comes from the server's view of
// the seat this browser acts for (hot seat: the seat to decide); every choice goes back as the action's text.

import { capitalise, choiceLabel, spaceWords, spotLabels, spotTag, turnOrientation } from "./actions.js";
import { get, keepLastSeat, lastSeat, post, tokens } from "./api.js";
import { leave, setSound, soundOn, yourTurn } from "./attention.js";
import { Board, parseSpace, seatMark, tileIcon } from "./board.js";
import { t } from "./i18n.js";
import { uiIcon } from "./icons.js";
import { eventText, finalSplit, logLines, mergeChat, standings } from "./log.js";
import { countUp } from "./motion.js";
import { ruleLink } from "./rules.js";
import { inkOn, seatColour } from "./tiles.js";
import { go, h, header, root, toast } from "./ui.js";
import { actionWords, didWords, featureWords, tileWords } from "./words.js";

// What identifies a control across a redraw: its kind and its name.
function focusKey(e) {
  return `${e.tagName}|${e.getAttribute("aria-label") || e.closest("label")?.textContent.trim() || e.textContent.trim()}`;
}

const dialogOpen = () => !!document.querySelector("dialog[open]");

// A seat's colour with its number on it, as its figures carry it (colour is never the only way to tell seats apart).
export function seatSwatch(p) {
  return h(
    "span",
    { class: "swatch numbered", style: `background:${p.color};color:${inkOn(p.color)}`, "aria-hidden": "true" },
    seatMark(p.player),
  );
}

// A player's figures in supply, as small pictures with counts.
function supplyIcons(p) {
  const items = [
    ["meeple", p.meeples],
    ["mayor", p.mayor],
    ["wagon", p.wagon],
    ["barn", p.barns],
    ["abbey", p.abbeys],
    ["triangle", p.triangles],
  ];
  return items
    .filter(([k, n]) => n > 0 || k === "meeple")
    .map(([k, n]) => h("span", { class: "sup", title: `${t(k)}: ${n}` }, icon(k, p.color), String(n)));
}

const SVGNS = "http://www.w3.org/2000/svg";
function icon(kind, color) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", "-13 -25 26 28");
  svg.setAttribute("class", "icon");
  const path = {
    meeple:
      "M0 -22 C3.4 -22 5 -19.6 5 -17 C5 -15.3 4.3 -14.2 3.4 -13.4 L10 -11.3 C11.7 -10.7 11.7 -7.8 10 -7.4 L5 -6.6 L8.3 -0.6 C8.8 0.5 8.1 1 7.2 1 L2.2 1 L0 -3.4 L-2.2 1 L-7.2 1 C-8.1 1 -8.8 0.5 -8.3 -0.6 L-5 -6.6 L-10 -7.4 C-11.7 -7.8 -11.7 -10.7 -10 -11.3 L-3.4 -13.4 C-4.3 -14.2 -5 -15.3 -5 -17 C-5 -19.6 -3.4 -22 0 -22 Z",
    mayor:
      "M0 -24 L3 -19 L6 -23 L5 -16 L11 -11 L5 -8 L9 1 L2 1 L0 -3 L-2 1 L-9 1 L-5 -8 L-11 -11 L-5 -16 L-6 -23 L-3 -19 Z",
    wagon:
      "M-11 -14 H11 V-5 H-11 Z M-6 -1 m-4 0 a4 4 0 1 0 8 0 a4 4 0 1 0 -8 0 M6 -1 m-4 0 a4 4 0 1 0 8 0 a4 4 0 1 0 -8 0",
    barn: "M-11 1 V-12 L0 -21 L11 -12 V1 Z",
    abbey: "M-10 1 V-12 H10 V1 Z M-12 -12 L0 -22 L12 -12 Z",
    triangle: "M-11 -21 H11 V1 Z",
  }[kind];
  const e = document.createElementNS(SVGNS, "path");
  e.setAttribute("d", path);
  e.setAttribute("fill", kind === "abbey" || kind === "triangle" ? "#c9b48a" : color);
  e.setAttribute("stroke", "rgba(0,0,0,.5)");
  e.setAttribute("stroke-width", "1.2");
  svg.append(e);
  return svg;
}

// The longest chat message, in characters (the server's limit, docs/server-api.md).
const CHAT_MAX = 280;

export class Table {
  constructor(id) {
    this.id = id;
    this.sel = { tile: null, space: null, orient: null, figure: "meeple" };
    this.events = [];
    /** The chat's messages, in the order written. @type {import("./log.js").ChatMessage[]} */
    this.chat = [];
    this.keys = (e) => this.key(e);
    /** The first view that showed the game finished (later views of it are old news). @type {any} */
    this.finishedView = null;
    /** Each seat's score as the score bar last showed it, to count up from. @type {Map<string, number>} */
    this.shownScores = new Map();
    /** The scorings of the last update, to float over the board once it shows them. @type {any[] | null} */
    this.freshScores = null;
  }

  // The token to act with. One seat held: its own. Several (hot seat, or the creator holding every seat): the token
  // of the seat to decide or to confirm, whichever view (a seat's or a spectator's) says who that is; with no view
  // yet (a load), the seat shown last, which is most often still the one to decide; otherwise the first seat held,
  // so the page shows a seat's own view rather than a spectator's.
  token(view) {
    const mine = tokens(this.id);
    const seats = Object.keys(mine).sort();
    if (seats.length <= 1) return mine[seats[0]];
    const pending = view?.awaiting_confirmation || view?.game?.pending?.actor || view?.game?.pending?.player;
    return mine[pending] || mine[view?.seat] || mine[lastSeat(this.id)] || mine[seats[0]];
  }

  // `fetched`: the view already asked for with the invite's token, so that a load asks for it once.
  async start(fetched = null) {
    root.replaceChildren(header(), h("main", { class: "page" }, "…"));
    const first =
      fetched?.ok && this.token(fetched.data) === tokens(this.id)[fetched.data.seat]
        ? fetched
        : await get(`/api/games/${this.id}`, this.token(null));
    if (first.status === 404) {
      root.replaceChildren(header(), h("main", { class: "page" }, t("notFound")));
      return;
    }
    const [tiles, events, chat] = await Promise.all([
      get(`/api/games/${this.id}/tiles`),
      get(`/api/games/${this.id}/events`),
      get(`/api/games/${this.id}/chat`),
    ]);
    this.catalogue = tiles.data.tiles;
    this.chat = chat.ok ? chat.data.messages : [];
    this.events = events.data.events;
    this.eventsVersion = events.data.version;
    this.layout();
    this.board = new Board(this.boardEl, this.catalogue, { label: t("boardLabel") });
    await this.refresh(first);
    this.connect();
    document.addEventListener("keydown", this.keys);
  }

  stop() {
    document.removeEventListener("keydown", this.keys);
    leave();
    this.closed = true;
    if (this.ws) this.ws.close();
  }

  layout() {
    this.scoreEl = h("section", { class: "scores", "aria-label": t("score") });
    this.boardEl = h("div", { class: "board-wrap" });
    this.zoomEl = h(
      "div",
      { class: "zoom" },
      h(
        "button",
        {
          "aria-label": t("zoomIn"),
          title: `${t("zoomIn")} (+)`,
          onclick: () => {
            this.board.userMoved = true;
            this.board.zoom(1 / 1.25);
          },
        },
        uiIcon("zoomIn"),
      ),
      h(
        "button",
        {
          "aria-label": t("zoomOut"),
          title: `${t("zoomOut")} (−)`,
          onclick: () => {
            this.board.userMoved = true;
            this.board.zoom(1.25);
          },
        },
        uiIcon("zoomOut"),
      ),
      h(
        "button",
        {
          "aria-label": t("zoomFit"),
          title: `${t("zoomFit")} (0)`,
          onclick: () => {
            this.board.userMoved = false;
            this.board.fit();
          },
        },
        uiIcon("fit"),
      ),
    );
    this.boardEl.append(this.zoomEl);
    this.overlayEl = h(
      "label",
      { class: "overlay-toggle check" },
      h("input", {
        type: "checkbox",
        onchange: (e) => {
          this.board.overlay = e.target.checked;
          this.show(this.view);
        },
      }),
      t("overlay"),
    );
    this.boardEl.append(this.overlayEl);
    this.panelEl = h("section", { class: "decision", "aria-live": "polite" });
    this.logEl = h("ol", { class: "log" });
    // Others' chat messages are read out from here (outside the log's box, which may be closed).
    this.chatLive = h("div", { class: "visually-hidden", "aria-live": "polite" });
    this.chatEl = this.chatBox();
    this.pointsEl = h("div", { class: "points" });
    this.leftEl = h("div", { class: "tiles-left" });
    root.replaceChildren(
      header([h("span", { class: "game-id" }, this.id)]),
      h(
        "main",
        { class: "table" },
        this.scoreEl,
        this.boardEl,
        h(
          "aside",
          { class: "side" },
          this.panelEl,
          this.chatLive,
          h("details", { class: "points-box", open: true }, h("summary", {}, t("points")), this.pointsEl),
          h("details", { class: "log-box", open: true }, h("summary", {}, t("log")), this.chatEl, this.logEl),
          h("details", { class: "left-box" }, h("summary", {}, t("tilesLeft")), this.leftEl),
        ),
      ),
    );
  }

  connect() {
    // One seat held: the socket is that seat's (its token offered as a subprotocol, never in the URL). Several: a
    // spectator's, and each update fetches the deciding seat's own view.
    const token = Object.keys(tokens(this.id)).length === 1 ? Object.values(tokens(this.id))[0] : null;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${this.id}/ws`;
    this.ws = new WebSocket(url, token ? ["carc.v1", `token.${token}`] : ["carc.v1"]);
    this.ws.onmessage = async (m) => {
      const msg = JSON.parse(m.data);
      if (msg.type === "chat") return this.heard([msg.message]);
      // Too slow to keep up, the socket was sent the view alone: chat messages may have been missed.
      if (msg.type === "view" && this.pushes) await this.fetchChat();
      this.pushes = (this.pushes || 0) + 1;
      if (msg.type === "update") {
        // The update's actions follow the events held: add theirs (those not yet held, the list may have been
        // fetched since). After a take-back, or a gap (updates missed), fetch the list again.
        const from = msg.version - (msg.actions || []).length;
        if (msg.cause === "take_back" || msg.cause === "sync" || from > this.eventsVersion) {
          await this.fetchEvents();
          // Another server instance's change (a move or a message): the chat may have grown there.
          if (msg.cause === "sync") await this.fetchChat();
        } else if (msg.version > this.eventsVersion) {
          const fresh = msg.events.filter((e) => e.action > this.eventsVersion);
          this.events.push(...fresh);
          this.eventsVersion = msg.version;
          // Scorings float their points over their features, once the board shows them.
          this.freshScores = fresh.filter((e) => e.type === "scored" && e.when === "turn");
        }
        // In hot seat the socket is a spectator's: fetch the deciding seat's own view. An action's news older than
        // the view shown (the answer to our own next action came first) is not shown.
        if (!token) await this.refresh();
        else if (!(msg.cause === "action" && this.view && msg.version < this.view.version)) this.show(msg.view);
        if (this.freshScores?.length && this.view) this.board.floatPoints(this.freshScores, this.players(this.view));
        this.freshScores = null;
      }
    };
    this.ws.onclose = (e) => {
      // 4000: a newer socket of this seat (another tab) or a seat's socket from this address took this one's place;
      // reconnecting would only push that one out in turn.
      if (e.code === 4000) return toast(t("replaced"));
      if (!this.closed)
        setTimeout(() => {
          if (!this.closed) {
            this.refresh();
            this.fetchChat();
            this.connect();
          }
        }, 1500);
    };
  }

  // Show the game as the right seat sees it (`fetched`: an answer already at hand, so a load asks once or twice).
  async refresh(fetched = null) {
    let r = fetched || (await get(`/api/games/${this.id}`, this.token(this.view)));
    if (!r.ok) return toast(t("error", { msg: r.data?.error || r.status }));
    // Holding several seats, the seat to decide may be another of them: ask again with its token.
    const mine = tokens(this.id);
    const again = this.token(r.data);
    if (Object.keys(mine).length > 1 && again && again !== mine[r.data.seat]) {
      const r2 = await get(`/api/games/${this.id}`, again);
      if (r2.ok) r = r2;
    }
    this.show(r.data);
  }

  players(view) {
    return view.game.players.map((p, i) => ({
      ...p,
      name: view.seats[i].name,
      kind: view.seats[i].kind,
      color: seatColour(view.seats[i], i),
    }));
  }

  nameOf(seat) {
    const i = Number(String(seat).slice(1)) - 1;
    return this.view?.seats[i]?.name || seat;
  }

  show(view) {
    // A finished game stays finished: a view from before its end is old news (a late message).
    if (this.finishedView && view.status !== "finished") return;
    if (view.status === "finished") this.finishedView ||= view;
    const changed = !this.view || this.view.version !== view.version || this.view.seat !== view.seat;
    this.view = view;
    if (view.seat) keepLastSeat(this.id, view.seat);
    if (changed) this.sel = { tile: null, space: null, orient: null, figure: this.sel.figure || "meeple" };
    const players = this.players(view);
    // The tiles placed in the last round stand out.
    const n = view.game.board.length;
    this.board.recent = [...Array(Math.min(players.length, n - 1)).keys()].map((i) => n - 1 - i);
    this.board.render(view.game, players);
    this.renderScores(players);
    this.renderPanel();
    this.renderLog();
    this.renderPoints(players);
    this.renderLeft();
    // In the background, the tab says when it is this browser's turn (and chimes, if asked, when it has just become so).
    const mine = this.myTurn(view);
    yourTurn(mine, () => t("yourTurnTitle"), mine && this.wasMine === false);
    this.wasMine = mine;
    if (view.status === "finished" && !this.finalShown) this.finalScreen();
  }

  // Whether this browser has something to decide or confirm in the view.
  myTurn(view) {
    return view.status === "running" && !!view.seat && (view.game.actions.length > 0 || view.can_confirm);
  }

  renderScores(players) {
    const g = this.view.game;
    // Whose turn it is: until a turn is confirmed, still its player's (the engine has already moved on).
    const turn = this.view.awaiting_confirmation || g.active;
    this.scoreEl.replaceChildren(
      ...players.map((p) =>
        h(
          "div",
          {
            class: `player${turn === p.player && !g.game_over ? " active" : ""}${this.view.seat === p.player ? " me" : ""}`,
            "data-player": p.player,
          },
          seatSwatch(p),
          h("span", { class: "pname" }, p.name, p.kind === "bot" ? h("small", { class: "tag" }, t("bot")) : null),
          this.scoreCounter(p),
          h("span", { class: "supply" }, supplyIcons(p)),
        ),
      ),
      h("div", { class: "stack" }, t("stack", { n: g.stack })),
    );
  }

  // A seat's score in the score bar, counting up from the one shown before when it changed.
  scoreCounter(p) {
    const el = h("strong", { class: "pscore", "aria-label": t("score") }, p.score);
    const was = this.shownScores.get(p.player);
    this.shownScores.set(p.player, p.score);
    if (typeof was === "number" && was !== p.score) countUp(el, was, p.score);
    return el;
  }

  // Send an action (or a take-back, a confirmation). The answer is shown unless the socket has already brought
  // something newer (a bot may have answered before our own answer arrived).
  async send(path, body) {
    // One request at a time: a second click (or key) while the first is on its way would be answered against a
    // position that is already gone ("there is nothing to confirm").
    if (this.sending) return;
    this.sending = true;
    try {
      const pushes = this.pushes || 0;
      const r = await post(
        `/api/games/${this.id}/${path}`,
        { ...body, version: this.view.version },
        this.token(this.view),
      );
      if (!r.ok) {
        toast(t("error", { msg: r.data?.error || r.status }));
        return this.refresh();
      }
      if ((this.pushes || 0) === pushes) this.show(r.data);
      if (Object.keys(tokens(this.id)).length > 1) await this.refresh();
    } finally {
      this.sending = false;
    }
  }

  act(text) {
    return this.send("actions", { action: text });
  }

  simple(path) {
    return this.send(path, {});
  }

  renderPanel() {
    const v = this.view,
      g = v.game;
    // The control that had the keyboard's focus has it again once the panel is drawn anew.
    const focused = document.activeElement;
    const hadFocus = !!focused && (this.panelEl.contains(focused) || this.boardEl.contains(focused));
    const key = focused && this.panelEl.contains(focused) ? focusKey(focused) : null;
    // Each legal action with its parts named by the server (type, tile, space, orient, figure, segment, …).
    const legal = g.actions;
    const pending = g.pending;
    this.board.clearMarks();
    const parts = [];
    const mine = legal.length > 0;
    // Whose turn, and what is asked.
    let headline;
    if (v.status === "finished") headline = t("gameOver");
    else if (v.can_confirm) headline = t("decision_confirm");
    else if (mine) headline = t(`decision_${pending.kind}`, { step: pending.step });
    else if (v.awaiting_confirmation) headline = t("waitingFor", { name: this.nameOf(v.awaiting_confirmation) });
    else
      headline = pending.player
        ? t("waitingFor", { name: this.nameOf(pending.player) })
        : t(`decision_${pending.kind}`);
    parts.push(h("h2", { class: mine || v.can_confirm ? "yours" : "", tabindex: -1 }, headline));
    // One click to the rule the decision is about (the wagon's under the edition chosen).
    const rules = v.setup.rules || {};
    const about = {
      place_tile: "BASE-04",
      phase2: "BASE-06",
      move_dragon: "DRAGON-07",
      crop_choice: "CROP-04",
      crop_answer: "CROP-06",
      princess: "PRINCESS-02",
      move_wagon: rules["wagon.movement"] === "c1" ? "WAGON-07" : "WAGON-06",
      draft: "HALF-03",
      phase1:
        legal.some((a) => a.type === "place" && a.tile.endsWith("/abbey")) &&
        !legal.some((a) => a.type === "place" && !a.tile.endsWith("/abbey"))
          ? "ABBEY-02"
          : "HALF-04",
    }[pending.kind];
    if (mine && about) {
      const links = [
        h("a", { href: ruleLink(about), target: "_blank", class: "rule-link" }, `${t("ruleAbout")} ${about}`),
      ];
      if (legal.some((a) => a.type === "place" && this.board.tile(a.tile)?.shape === "triangle")) {
        links.push(
          h(
            "a",
            { href: ruleLink("VAR-16"), target: "_blank", class: "rule-link" },
            t("triangleScoring", { v: rules["halflings.scoring"] || "jan2021" }),
          ),
        );
      }
      parts.push(h("p", { class: "rule-links" }, links));
    }
    if (v.seat === null) parts.push(h("p", { class: "muted" }, t("spectator")));
    const me = v.seat ? g.players[Number(v.seat.slice(1)) - 1] : null;
    if (mine) parts.push(...this.decisionControls(legal, pending));
    const buttons = [];
    if (mine && v.seat) buttons.push(h("button", { onclick: () => this.hint(), title: `${t("hint")} (H)` }, t("hint")));
    if (v.can_take_back)
      buttons.push(
        h(
          "button",
          { onclick: () => this.simple("take-back"), title: `${t("takeBack")} (Ctrl+Z)` },
          uiIcon("takeBack"),
          t("takeBack"),
        ),
      );
    if (v.can_confirm)
      buttons.push(
        h(
          "button",
          { class: "primary", onclick: () => this.simple("confirm"), title: `${t("confirm")} (C)` },
          uiIcon("confirm"),
          t("confirm"),
        ),
      );
    if (buttons.length) parts.push(h("div", { class: "buttons" }, buttons));
    if (me?.hand?.length && !legal.some((a) => a.type === "place" && me.hand.includes(a.tile))) {
      parts.push(
        h(
          "div",
          { class: "hand" },
          h("h3", {}, t("hand")),
          me.hand.map((id) => tileIcon(this.board.tile(id), "r0", 48)),
        ),
      );
    }
    if (v.seat && v.status !== "finished") {
      parts.push(
        h(
          "label",
          { class: "check small" },
          h("input", {
            type: "checkbox",
            checked: v.auto_confirm,
            onchange: async (e) => {
              const r = await post(`/api/games/${this.id}/settings`, { auto_confirm: e.target.checked }, this.token(v));
              if (r.ok) this.show(r.data);
            },
          }),
          t("autoConfirm"),
        ),
      );
      parts.push(
        h(
          "label",
          { class: "check small sound-toggle" },
          h("input", {
            type: "checkbox",
            checked: soundOn(),
            onchange: (e) => {
              setSound(e.target.checked);
              this.renderPanel();
            },
          }),
          uiIcon(soundOn() ? "soundOn" : "soundOff"),
          t("soundToggle"),
        ),
      );
    }
    if (mine) {
      parts.push(
        h(
          "details",
          { class: "all-actions" },
          h("summary", {}, t("chooseAction")),
          h(
            "div",
            { class: "action-list" },
            legal.map((a) =>
              h("button", { class: "small", onclick: () => this.act(a.text) }, capitalise(this.words(a, pending))),
            ),
          ),
        ),
      );
    }
    if (v.status === "finished") {
      // The final scores and the replay stay a click away once the dialog is closed.
      parts.push(
        h(
          "div",
          { class: "buttons final-buttons" },
          h("button", { class: "primary", onclick: () => this.finalScreen() }, t("finalScores")),
          h("button", { onclick: () => go(`/replay/${this.id}`) }, t("replay")),
        ),
      );
    }
    this.panelEl.replaceChildren(...parts);
    this.panelEl.dataset.seat = v.seat || "";
    this.panelEl.dataset.decision = mine ? g.pending.kind : "";
    // Every spot of the decision is on the board now: each gets its own place.
    this.board.layoutSpots();
    if (key) {
      const again = [...this.panelEl.querySelectorAll("button, input, select, a, summary")].find(
        (e) => !e.disabled && focusKey(e) === key,
      );
      if (again) again.focus({ preventScroll: true });
    }
    this.board.refocus = null;
    // The focus was on a control that is gone (the tile was placed): it goes to the decision's first spot, or to
    // its headline, rather than back to the top of the page.
    if (hadFocus && (!document.activeElement || document.activeElement === document.body)) {
      const next =
        this.boardEl.querySelector(".layer-spots .mark, .layer-marks .space-mark") || this.panelEl.querySelector("h2");
      next?.focus({ preventScroll: true });
    }
  }

  // The controls for the decision asked: the tile to place and its spots, the figures' spots, the dragon's steps…
  decisionControls(legal, pending) {
    const out = [];
    const places = legal.filter((a) => a.type === "place");
    const pass = legal.find((a) => a.type === "pass");
    if (places.length) out.push(...this.placing(places, pending));
    // Spots on the board for every action that names a segment or a corner.
    const spot = legal.filter((a) =>
      ["deploy", "barn", "portal", "fairy", "princess", "wagon-move", "crop-add", "crop-remove"].includes(a.type),
    );
    if (spot.length) out.push(...this.spots(spot));
    const dragon = legal.filter((a) => a.type === "dragon");
    if (dragon.length) {
      const at = this.view.game.figures.dragon;
      const [x, y] = parseSpace(at);
      const step = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
      for (const a of dragon) {
        const [dx, dy] = step[a.dir];
        this.board.mark(
          this.board.centreOf(`${x + dx},${y + dy}`),
          t(`dragon_${a.dir}`),
          () => this.act(a.text),
          "dragon",
        );
      }
      out.push(
        h(
          "div",
          { class: "buttons dragon-steps" },
          dragon.map((a) =>
            h(
              "button",
              { onclick: () => this.act(a.text), "aria-label": t(`dragon_${a.dir}`) },
              uiIcon("arrow", { N: 0, E: 90, S: 180, W: 270 }[a.dir]),
              a.dir,
            ),
          ),
        ),
      );
    }
    const choices = legal.filter((a) => a.type === "crop" || a.type === "other");
    if (choices.length) {
      out.push(
        h(
          "div",
          { class: "buttons choices" },
          choices.map((a) => h("button", { onclick: () => this.act(a.text), "data-choice": a.text }, choiceLabel(a))),
        ),
      );
    }
    const picks = legal.filter((a) => a.type === "pick");
    if (picks.length) {
      out.push(
        h(
          "div",
          { class: "picks" },
          picks.map((a) =>
            h(
              "button",
              {
                class: "tile-button",
                onclick: () => this.act(a.text),
                "aria-label": capitalise(tileWords(this.board.tile(a.tile))),
              },
              tileIcon(this.board.tile(a.tile), "r0", 56),
            ),
          ),
        ),
      );
    }
    if (pass) {
      const label = pending.kind === "phase1" ? t("drawTile") : pending.kind === "phase2" ? t("noMeeple") : t("pass");
      out.push(
        h(
          "div",
          { class: "buttons" },
          h(
            "button",
            {
              class: pending.kind === "phase1" ? "primary" : "",
              onclick: () => this.act("pass"),
              "data-action": "pass",
              title: `${label} (P)`,
            },
            label,
          ),
        ),
      );
    }
    return out;
  }

  placing(places, pending) {
    const out = [];
    const byTile = new Map();
    for (const a of places) {
      if (!byTile.has(a.tile)) byTile.set(a.tile, new Map());
      const spaces = byTile.get(a.tile);
      if (!spaces.has(a.space)) spaces.set(a.space, []);
      spaces.get(a.space).push(a.orient);
    }
    if (!this.sel.tile || !byTile.has(this.sel.tile))
      this.sel.tile = pending.kind === "place_tile" ? pending.tile : byTile.size === 1 ? [...byTile.keys()][0] : null;
    if (byTile.size > 1 || pending.kind === "phase1") {
      out.push(
        h(
          "div",
          { class: "picks" },
          [...byTile.keys()].map((id) =>
            h(
              "button",
              {
                class: `tile-button${this.sel.tile === id ? " selected" : ""}`,
                "aria-label": capitalise(tileWords(this.board.tile(id))),
                onclick: () => {
                  this.sel = { ...this.sel, tile: id, space: null, orient: null };
                  this.renderPanel();
                },
              },
              tileIcon(this.board.tile(id), "r0", 56),
            ),
          ),
        ),
      );
    }
    const tile = this.sel.tile;
    if (!tile) return out;
    const spaces = byTile.get(tile);
    const orients = this.sel.space ? spaces.get(this.sel.space) : null;
    if (this.sel.space && !orients?.includes(this.sel.orient)) this.sel.orient = orients ? orients[0] : null;
    for (const [space, os] of spaces) {
      this.board.spaceMark(
        space,
        t("spot_space", { space: spaceWords(space) }),
        () => {
          if (this.sel.space === space) return this.placeSelected();
          this.sel.space = space;
          this.sel.orient = os.includes(this.sel.orient) ? this.sel.orient : os[0];
          this.renderPanel();
        },
        this.sel.space === space,
      );
    }
    if (this.sel.space) this.board.ghost(tile, this.sel.space, this.sel.orient);
    const preview = tileIcon(this.board.tile(tile), this.sel.orient || "r0", 84);
    const rotating = orients && orients.length > 1;
    out.push(
      h(
        "div",
        { class: "in-hand" },
        preview,
        h(
          "div",
          { class: "buttons" },
          h(
            "button",
            {
              disabled: !rotating,
              "aria-label": t("rotateLeft"),
              title: `${t("rotateLeft")} (Shift+R)`,
              onclick: () => this.rotate(-1),
            },
            uiIcon("rotateLeft"),
          ),
          h(
            "button",
            {
              disabled: !rotating,
              "aria-label": t("rotateRight"),
              title: `${t("rotateRight")} (R)`,
              onclick: () => this.rotate(1),
            },
            uiIcon("rotateRight"),
          ),
          h(
            "button",
            { class: "primary", disabled: !this.sel.space, onclick: () => this.placeSelected(), title: "Enter" },
            t("place"),
          ),
        ),
      ),
    );
    return out;
  }

  // An action in the player's words (the notation is only what goes back to the server).
  words(a, pending = this.view?.game?.pending) {
    return actionWords(a, {
      nameOf: (p) => this.nameOf(p),
      tileOf: (id) => this.board.tile(id),
      pending: pending?.kind,
    });
  }

  async hint() {
    const r = await get(`/api/games/${this.id}/hint`, this.token(this.view));
    if (!r.ok) return toast(t("error", { msg: r.data?.error || r.status }));
    const a = r.data.fields;
    // Show it where it would happen: a placement as the selected one, anything else in words.
    if (a.type === "place") {
      this.sel = { ...this.sel, tile: a.tile, space: a.space, orient: a.orient };
      this.renderPanel();
    }
    // In words, with what the bot would do next in the same turn (its figure after a placement).
    const first = this.words(a);
    const next = r.data.next;
    const says = next ? t("hintThen", { first, second: this.words(next.fields, { kind: next.decision }) }) : first;
    toast(t("hintSays", { action: says }));
  }

  rotate(d) {
    const places = this.view.game.actions.filter(
      (a) => a.type === "place" && a.tile === this.sel.tile && a.space === this.sel.space,
    );
    if (!places.length) return;
    this.sel.orient = turnOrientation(
      places.map((a) => a.orient),
      this.sel.orient,
      d,
    );
    this.renderPanel();
  }

  placeSelected() {
    if (!this.sel.space) return;
    this.act(`place ${this.sel.tile} ${this.sel.space} ${this.sel.orient}`);
  }

  spots(actions) {
    const out = [];
    const labels = spotLabels(actions, (p) => this.nameOf(p));
    const last = this.view.game.board[this.view.game.board.length - 1];
    const figures = [
      ...new Set(actions.filter((a) => a.type === "deploy" || a.type === "portal").map((a) => a.figure)),
    ];
    if (figures.length > 1) {
      if (!figures.includes(this.sel.figure)) this.sel.figure = figures[0];
      out.push(
        h(
          "div",
          { class: "buttons figures" },
          figures.map((f) =>
            h(
              "button",
              {
                class: this.sel.figure === f ? "selected" : "",
                onclick: () => {
                  this.sel.figure = f;
                  this.renderPanel();
                },
              },
              t(f),
            ),
          ),
        ),
      );
    }
    for (const a of actions) {
      let at = null;
      if (a.type === "deploy") {
        if (a.figure !== (figures.length > 1 ? this.sel.figure : a.figure)) continue;
        at = this.board.segmentPoint(last.space, a.segment, last.corner);
      } else if (a.type === "barn") {
        at = this.board.cornerOf(last.space, a.corner);
      } else if (a.type === "portal") {
        if (figures.length > 1 && a.figure !== this.sel.figure) continue;
        at = this.board.segmentPoint(a.space, a.segment, a.corner);
      } else if (a.type === "fairy" && !a.segment) {
        at = this.board.centreOf(a.space);
      } else if (a.player) {
        // An action on a figure (the princess's, the fairy's, a crop circle's removal): where that figure is drawn.
        at = this.board.figurePoint(a.space, a.segment, a.corner, a.player, a.figure);
        if (at && a.type === "fairy") at = [at[0] + 12, at[1] - 12];
      } else {
        at = this.board.segmentPoint(a.space, a.segment, a.corner);
      }
      const feature = typeof a.feature === "number" ? this.view.game.spot_features?.[a.feature] : null;
      const about = feature ? featureWords(feature, (p) => this.nameOf(p)) : "";
      if (at)
        this.board.mark(at, labels.get(a.text), () => this.act(a.text), a.type, { ...spotTag(a), feature, about });
    }
    return out;
  }

  key(e) {
    if (e.target.closest("input, select, textarea")) return;
    // A spot or a button answered the key itself (Enter on a spot chooses it, on a button presses it).
    if (e.defaultPrevented || dialogOpen()) return;
    const onControl = e.target.closest("button, a, summary, [role=button]");
    const v = this.view;
    // The turn's buttons from the keyboard: take back, confirm, pass (or draw), hint.
    if ((e.key === "z" && (e.ctrlKey || e.metaKey)) || e.key === "Backspace") {
      if (v?.can_take_back) {
        e.preventDefault();
        this.simple("take-back");
      }
      return;
    }
    if (e.key === "c" && v?.can_confirm) {
      this.simple("confirm");
      return;
    }
    if (e.key === "p" && v?.game.actions.some((a) => a.type === "pass")) {
      this.act("pass");
      return;
    }
    if (e.key === "h" && v?.game.legal.length && v.seat) {
      this.hint();
      return;
    }
    if (e.key === "r" || e.key === "R") {
      this.rotate(e.shiftKey ? -1 : 1);
      e.preventDefault();
    } else if (e.key === "Enter" && this.sel.space && !onControl) {
      this.placeSelected();
      e.preventDefault();
    } else if (e.key === "Escape") {
      this.sel.space = null;
      this.renderPanel();
    } else if (e.key === "+" || e.key === "=") {
      this.board.userMoved = true;
      this.board.zoom(1 / 1.25);
    } else if (e.key === "-") {
      this.board.userMoved = true;
      this.board.zoom(1.25);
    } else if (e.key === "0") {
      this.board.userMoved = false;
      this.board.fit();
    }
  }

  // The log, newest first: the game's events and its chat's messages in the order they happened.
  renderLog() {
    const ctx = { nameOf: (p) => this.nameOf(p), tileOf: (id) => this.board.tile(id) };
    const events = this.events.filter((e) => e.type !== "set_aside" && e.type !== "put_back");
    const text = (e) => (e.type === "played" ? didWords(e.by, e.move, ctx) : eventText(e, ctx.nameOf));
    const shown = logLines(events, this.chat)
      .filter((line) => "chat" in line || text(line.event))
      .slice(-150)
      .reverse();
    this.logEl.replaceChildren(
      ...shown.map((line) =>
        "chat" in line
          ? h(
              "li",
              { class: "chat-line", "data-seat": line.chat.seat },
              h("strong", { class: "chat-name" }, t("chatFrom", { name: line.chat.name })),
              " ",
              h("span", { class: "chat-text" }, line.chat.text),
            )
          : h("li", { class: `ev ev-${line.event.type}` }, text(line.event)),
      ),
    );
  }

  // The chat's box: a line to write in and its button for a browser holding a seat (Enter sends); for a spectator,
  // a word that only the players write (decision W-13). The messages themselves are in the log.
  chatBox() {
    if (!Object.keys(tokens(this.id)).length)
      return h("div", { class: "chat" }, h("p", { class: "muted" }, t("chatReadOnly")));
    const input = /** @type {HTMLInputElement} */ (
      h("input", {
        type: "text",
        name: "chat",
        maxlength: CHAT_MAX,
        autocomplete: "off",
        "aria-label": t("chatLabel"),
        placeholder: t("chatPlaceholder"),
      })
    );
    this.chatInput = input;
    const form = h(
      "form",
      {
        class: "chat",
        onsubmit: (e) => {
          e.preventDefault();
          this.say();
        },
      },
      input,
      h("button", { type: "submit" }, t("chatSend")),
    );
    return form;
  }

  // Send what the chat's line holds, as the seat this browser shows (in hot seat: the seat to decide).
  async say() {
    const input = this.chatInput;
    const text = input.value.trim();
    if (!text || this.saying) return;
    this.saying = true;
    try {
      const r = await post(`/api/games/${this.id}/chat`, { text }, this.token(this.view));
      if (!r.ok) return toast(t("error", { msg: r.data?.error || r.status }));
      input.value = "";
      this.heard([r.data.message], false);
    } finally {
      this.saying = false;
    }
  }

  // Chat messages have come (`announce`: said aloud to a screen reader, for others' messages).
  heard(messages, announce = true) {
    const before = new Set(this.chat.map((m) => m.n));
    this.chat = mergeChat(this.chat, messages);
    const fresh = messages.filter((m) => !before.has(m.n));
    if (!fresh.length) return;
    const mine = this.view?.seat;
    const others = fresh.filter((m) => m.seat !== mine);
    if (announce && others.length && this.chatLive)
      this.chatLive.textContent = others.map((m) => t("chatSaid", { name: m.name, text: m.text })).join(" ");
    if (this.view) this.renderLog();
  }

  // The chat's messages written since the last one held (after a gap: a reconnection, a socket that lagged).
  async fetchChat() {
    const since = this.chat.at(-1)?.n || 0;
    const r = await get(`/api/games/${this.id}/chat?since=${since}`);
    if (r.ok) this.heard(r.data.messages, false);
  }

  // The points in view: a bar per seat (its score now, and in a lighter shade what the game's end would add), then
  // its points so far by kind of feature, each with what the end would add, and the totals. The ending is the
  // server's (worked out by the engine), and absent once the game is over (the final scores say it all).
  renderPoints(players) {
    const s = standings(this.events, players, this.view.if_ended);
    const pct = (n) => `${Math.round((100 * n) / s.max)}%`;
    const bars = h(
      "div",
      { class: "point-bars" },
      players.map((p, i) => {
        const r = s.rows[i];
        const label =
          r.ifEnded === null
            ? t("pointsBarNow", { name: p.name, score: r.score })
            : t("pointsBar", { name: p.name, score: r.score, ifEnded: r.ifEnded });
        return h(
          "div",
          { class: "point-bar", "data-player": p.player, role: "img", "aria-label": label, title: label },
          seatSwatch(p),
          h(
            "span",
            { class: "bar-track" },
            h("span", { class: "bar-now", style: `width:${pct(r.score)};background:${p.color}` }),
            r.ifEnded !== null && r.ifEnded > r.score
              ? h("span", { class: "bar-end", style: `width:${pct(r.ifEnded - r.score)};background:${p.color}` })
              : null,
          ),
          h(
            "span",
            { class: "bar-num" },
            r.ifEnded !== null && r.ifEnded !== r.score ? `${r.score} → ${r.ifEnded}` : String(r.score),
          ),
        );
      }),
    );
    const ending = this.view.if_ended;
    const table = h(
      "table",
      { class: "point-split" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, ""),
          s.used.map((k) => h("th", {}, t(k === "fairy" ? "fairy" : `feature_${k}`))),
          h("th", {}, t("pointsNow")),
          ending ? h("th", { class: "if-ended" }, t("pointsIfEnded")) : null,
        ),
      ),
      h(
        "tbody",
        {},
        players.map((p, i) => {
          const r = s.rows[i];
          return h(
            "tr",
            { "data-player": p.player },
            h("td", {}, seatSwatch(p)),
            s.used.map((k) =>
              h("td", {}, String(r.kinds[k]), r.ending[k] ? h("small", { class: "plus" }, ` +${r.ending[k]}`) : null),
            ),
            h("td", {}, h("strong", {}, String(r.score))),
            ending ? h("td", { class: "if-ended" }, r.ifEnded === null ? "" : String(r.ifEnded)) : null,
          );
        }),
      ),
    );
    this.pointsEl.replaceChildren(bars, table);
  }

  renderLeft() {
    const left = this.view.game.tiles_left || [];
    this.leftEl.replaceChildren(
      ...left.map((x) =>
        h(
          "span",
          { class: "left", title: x.tile },
          tileIcon(this.board.tile(x.tile), "r0", 36),
          h("small", {}, `×${x.copies}`),
        ),
      ),
    );
  }

  // The final scores: the finished view's scores, and where they came from by the game's complete list of events.
  // The last action's events (its final scorings) may not have come with the socket yet, so the list is fetched
  // again first. Shown once by itself; the panel's button opens it again.
  async finalScreen() {
    if (this.finalDialog) {
      if (!this.finalDialog.open) this.finalDialog.showModal();
      return;
    }
    if (this.finalShown) return;
    this.finalShown = true;
    await this.fetchEvents();
    this.renderLog();
    if (this.closed) return;
    const players = this.players(this.finishedView);
    const sorted = [...players].sort((a, b) => b.score - a.score);
    const best = sorted[0].score;
    const winners = sorted.filter((p) => p.score === best).map((p) => p.name);
    const { used, split } = finalSplit(this.events, players);
    const table = h(
      "table",
      { class: "final-split" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, ""),
          used.map((k) => h("th", {}, t(k === "fairy" ? "fairy" : `feature_${k}`))),
          h("th", {}, t("score")),
        ),
      ),
      h(
        "tbody",
        {},
        sorted.map((p) =>
          h(
            "tr",
            {},
            h("td", {}, seatSwatch(p), ` ${p.name}`),
            used.map((k) => {
              const a = split.get(p.player)[`${k}:turn`],
                b = split.get(p.player)[`${k}:final`];
              return h("td", { title: `${a} + ${b}` }, String(a + b));
            }),
            h("td", {}, h("strong", {}, p.score)),
          ),
        ),
      ),
    );
    const dlg = h(
      "dialog",
      { class: "final" },
      h("h2", {}, t("finalScores")),
      h("p", {}, winners.length > 1 ? t("winners", { names: winners.join(", ") }) : t("winner", { names: winners[0] })),
      table,
      h(
        "div",
        { class: "buttons" },
        h(
          "button",
          {
            onclick: () => {
              dlg.close();
              go(`/replay/${this.id}`);
            },
          },
          t("replay"),
        ),
        h(
          "button",
          {
            class: "primary",
            onclick: () => {
              dlg.close();
              go("/");
            },
          },
          t("backToLobby"),
        ),
        h("button", { "aria-label": t("close"), title: t("close"), onclick: () => dlg.close() }, uiIcon("close")),
      ),
    );
    this.finalDialog = dlg;
    document.body.append(dlg);
    dlg.showModal();
  }

  // The game's every event, and the version they go up to.
  async fetchEvents() {
    const r = await get(`/api/games/${this.id}/events`);
    if (!r.ok) return;
    this.events = r.data.events;
    this.eventsVersion = r.data.version;
  }
}
