// The browser table. It knows no rules: it shows the legal actions the server sends (GET /api/games/{id}) and sends
// back the one chosen, drawing the board from the catalogue's data. Screens: the games (/), a new game (/new), the
// table (/play/{id}, an invite link carries the seat's token after #), a replay (/replay/{id}) and the rules (/rules).

import { t, setLanguage, language, LANGUAGES } from "./i18n.js";
import { Board, tileIcon, parseSpace, seatMark } from "./board.js";
import { PLAYER_COLORS, COLOUR_HEX, seatColour, inkOn } from "./tiles.js";
import { ruleLink } from "./rules.js";
import { uiIcon } from "./icons.js";
import { yourTurn, leave, soundOn, setSound } from "./attention.js";

const root = document.getElementById("app");

// ---------------------------------------------------------------- small helpers

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}

async function call(method, path, body, token) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await resp.json(); } catch { data = null; }
  return { status: resp.status, ok: resp.ok, data };
}
const get = (p, token) => call("GET", p, undefined, token);
const post = (p, body, token) => call("POST", p, body, token);

// Every token this browser holds, by game: { P1: token, ... }.
function tokens(id) {
  try { return JSON.parse(localStorage.getItem(`carc.tokens.${id}`) || "{}"); } catch { return {}; }
}
function keepToken(id, seat, token) {
  const all = tokens(id);
  all[seat] = token;
  localStorage.setItem(`carc.tokens.${id}`, JSON.stringify(all));
}

function toast(msg) {
  const el = h("div", { class: "toast", role: "status" }, msg);
  document.body.append(el);
  setTimeout(() => el.remove(), 4000);
}

function go(path) {
  history.pushState({}, "", path);
  route();
}

function header(extra = []) {
  const langs = h("select", { "aria-label": t("language"), onchange: (e) => { setLanguage(e.target.value); route(); } },
    Object.entries(LANGUAGES).map(([k, v]) => h("option", { value: k, selected: k === language() }, v)));
  return h("header", { class: "top" },
    h("a", { href: "/", class: "brand", onclick: (e) => { e.preventDefault(); go("/"); } }, t("title")),
    h("nav", {}, h("a", { href: "/new", onclick: (e) => { e.preventDefault(); go("/new"); } }, t("newGame")),
      h("a", { href: "/rules", onclick: (e) => { e.preventDefault(); go("/rules"); } }, t("rules"))),
    ...extra, langs);
}

// ---------------------------------------------------------------- the games

async function lobby() {
  root.replaceChildren(header(), h("main", { class: "page" }, h("p", {}, "…")));
  const r = await get("/api/games?limit=100");
  const games = r.ok ? r.data.games : [];
  const section = (title, list, action) => h("section", { class: "games" }, h("h2", {}, title),
    list.length ? h("ul", {}, list.map((g) => h("li", {},
      h("span", { class: "who" }, g.seats.map((s, i) => h("span", { class: `seat ${s.kind}${s.open ? " open" : ""}` },
        h("span", { class: "dot", style: `background:${seatColour(s, i)}` }), s.open ? t("openSeat") : s.name))),
      h("span", { class: "when" }, new Date(g.created_at * 1000).toLocaleString(language())),
      action(g)))) : h("p", { class: "muted" }, t("noGames")));
  const open = games.filter((g) => g.status === "running" && g.open_seats > 0);
  const running = games.filter((g) => g.status === "running" && g.open_seats === 0);
  const finished = games.filter((g) => g.status === "finished");
  root.replaceChildren(header(), h("main", { class: "page" },
    landing(),
    section(t("openGames"), open, (g) => h("button", { onclick: () => joinGame(g) }, t("join"))),
    section(t("runningGames"), running, (g) => h("button", { onclick: () => go(`/play/${g.id}`) }, Object.keys(tokens(g.id)).length ? t("play") : t("watch"))),
    section(t("finishedGames"), finished, (g) => h("button", { onclick: () => go(`/replay/${g.id}`) }, t("replay")))));
}

// What this is, and the two obvious ways to start: against the computer in one click, or with friends.
function landing() {
  return h("section", { class: "landing" },
    h("h1", {}, t("landingTitle")),
    h("p", { class: "lead" }, t("landingWhat")),
    h("div", { class: "starts" },
      h("div", { class: "start" },
        h("button", { class: "primary big", "data-start": "computer", onclick: (e) => playComputer(e.currentTarget) }, t("playComputer")),
        h("p", { class: "muted" }, t("playComputerWhat"))),
      h("div", { class: "start" },
        h("button", { class: "big", "data-start": "friends", onclick: () => go("/new?friends") }, t("playFriends")),
        h("p", { class: "muted" }, t("playFriendsWhat")))),
    h("p", { class: "more" }, h("a", { href: "/new", onclick: (e) => { e.preventDefault(); go("/new"); } }, t("newGameAll")), " · ",
      h("a", { href: "/rules", onclick: (e) => { e.preventDefault(); go("/rules"); } }, t("howToPlay"))));
}

// One click: the base game, this browser's person against a medium bot, at once at the table.
async function playComputer(button) {
  button.disabled = true;
  const seats = [{ kind: "person", name: "" }, { kind: "bot", level: "medium", name: "" }];
  const names = defaultNames(seats);
  const r = await post("/api/games", { seats: [{ name: names[0], colour: "red" }, { bot: "medium", name: names[1], colour: "blue" }], sets: ["base"] });
  button.disabled = false;
  if (!r.ok) return toast(t("error", { msg: r.data?.error || r.status }));
  for (const s of r.data.seats) if (s.token) keepToken(r.data.id, s.seat, s.token);
  go(`/play/${r.data.id}`);
}

// Take an open seat of game `g`: a small form on the page asks for the name to play under.
function joinGame(g) {
  const seat = g.seats.find((s) => s.open);
  document.querySelectorAll("dialog.join").forEach((d) => d.remove());
  const input = h("input", { name: "name", maxlength: 40, autocomplete: "nickname", placeholder: t("defaultPlayer", { n: g.seats.indexOf(seat) + 1 }) });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { method: "dialog" },
    h("h2", {}, t("joinTitle")),
    h("p", { class: "muted" }, t("joinWho", { names: g.seats.filter((s) => !s.open).map((s) => s.name).join(", ") })),
    h("label", { class: "field" }, h("span", {}, t("name")), input),
    error,
    h("div", { class: "buttons" },
      h("button", { type: "button", onclick: () => dlg.close() }, t("cancel")),
      h("button", { class: "primary", type: "submit" }, t("join"))));
  const dlg = h("dialog", { class: "join", "aria-label": t("joinTitle") }, form);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim() || input.placeholder;
    const r = await post(`/api/games/${g.id}/join`, { seat: seat.seat, name });
    if (!r.ok) { error.textContent = t("error", { msg: r.data?.error || r.status }); return; }
    keepToken(g.id, r.data.seat, r.data.token);
    dlg.close();
    go(`/play/${g.id}`);
  });
  dlg.addEventListener("close", () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  input.focus();
}

// ---------------------------------------------------------------- a new game

const SETS = ["am", "pd", "cc", "half"];
const SET_MODULES = { am: ["abbey", "mayor", "wagon", "barn"], pd: ["dragon", "fairy", "princess", "portal"], cc: ["crop_circles"], half: ["halflings"] };

async function newGame() {
  const rules = (await get("/api/rules")).data?.options || [];
  const palette = Object.keys(COLOUR_HEX);
  // "Play with friends" (/new?friends) starts with two people, each to get an invite link.
  const friends = new URLSearchParams(location.search).has("friends");
  const seats = [{ kind: "person", name: "", colour: "red" }, friends ? { kind: "person", name: "", colour: "blue" } : { kind: "bot", level: "medium", name: "", colour: "blue" }];
  const freeColour = () => palette.find((c) => !seats.some((s) => s.colour === c));
  const chosen = new Set();
  const values = {};
  let tileFile = null;
  const form = h("form", { class: "new-game" });
  const draw = () => {
    const seatRows = seats.map((s, i) => h("div", { class: "seat-row" },
      h("span", { class: "swatch numbered", style: `background:${COLOUR_HEX[s.colour]};color:${inkOn(COLOUR_HEX[s.colour])}`, "aria-hidden": "true" }, String(i + 1)),
      h("select", { "aria-label": t("color"), onchange: (e) => { const other = seats.find((o) => o.colour === e.target.value); if (other) other.colour = s.colour; s.colour = e.target.value; draw(); } },
        palette.map((c) => h("option", { value: c, selected: s.colour === c }, t(`colour_${c}`)))),
      h("select", { "aria-label": t("seat", { n: i + 1 }), onchange: (e) => { s.kind = e.target.value; draw(); } },
        ["person", "bot", "open"].map((k) => h("option", { value: k, selected: s.kind === k }, k === "open" ? t("openSeat") : t(k)))),
      s.kind !== "open" ? h("input", { value: s.name, placeholder: defaultNames(seats)[i], maxlength: 40, "aria-label": t("name"), oninput: (e) => { s.name = e.target.value; } }) : null,
      s.kind === "bot" ? h("select", { "aria-label": t("level"), onchange: (e) => { s.level = e.target.value; draw(); } },
        ["easy", "medium", "hard", "greedy", "random"].map((l) => h("option", { value: l, selected: s.level === l }, t(l)))) : null,
      seats.length > 2 ? h("button", { type: "button", class: "small", onclick: () => { seats.splice(i, 1); draw(); } }, t("removeSeat")) : null));
    const setBoxes = SETS.map((id) => h("label", { class: "check" },
      h("input", { type: "checkbox", checked: chosen.has(id), onchange: (e) => { e.target.checked ? chosen.add(id) : chosen.delete(id); draw(); } }),
      t(`set_${id}`)));
    const modulesOn = new Set([...chosen].flatMap((s) => SET_MODULES[s]));
    // The options of the modules in play (and the base game's), each with its explanation and default.
    const relevant = rules.filter((o) => !o.key.startsWith("modules.") && (o.key.startsWith("base.") || o.key.startsWith("end.") || o.key.startsWith("scoring.") ||
      [...modulesOn].some((m) => o.key.startsWith(`${m}.`) || (m === "crop_circles" && o.key.startsWith("crop.")) || (m === "halflings" && o.key.startsWith("halflings.")) || (m === "abbey" && o.key.startsWith("abbey.")))));
    const optionRows = relevant.map((o) => h("label", { class: "option" },
      h("span", { class: "key" }, o.key, o.rule ? h("small", {}, ` ${o.rule}`) : null),
      optionInput(o, values),
      h("span", { class: "doc" }, o.doc)));
    form.replaceChildren(...[
      h("h2", {}, t("seats")), ...seatRows,
      seats.length < 6 ? h("button", { type: "button", onclick: () => { seats.push({ kind: "bot", level: "medium", name: "", colour: freeColour() }); draw(); } }, t("addSeat")) : null,
      h("h2", {}, t("expansions")), h("div", { class: "sets" }, h("label", { class: "check" }, h("input", { type: "checkbox", checked: true, disabled: true }), t("set_base")), ...setBoxes),
      chosen.has("half") ? h("label", { class: "option" }, h("span", { class: "key" }, t("tileFile")),
        h("input", { type: "file", accept: ".toml", onchange: async (e) => { tileFile = e.target.files[0] ? await e.target.files[0].text() : null; } })) : null,
      optionRows.length ? h("details", { class: "options" }, h("summary", {}, t("options")), ...optionRows) : null,
      h("p", {}, h("button", { class: "primary", type: "submit" }, t("create")))].filter((c) => c !== null));
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const names = defaultNames(seats);
    const body = {
      seats: seats.map((s, i) => ({ ...(s.kind === "bot" ? { bot: s.level, name: names[i] } : s.kind === "open" ? { open: true } : { name: names[i] }), colour: s.colour })),
      sets: ["base", ...SETS.filter((s) => chosen.has(s))],
      rules: Object.fromEntries(Object.entries(values)),
    };
    if (tileFile) body.tile_file = tileFile;
    const r = await post("/api/games", body);
    if (!r.ok) return toast(t("error", { msg: r.data?.error || r.status }));
    for (const s of r.data.seats) if (s.token) keepToken(r.data.id, s.seat, s.token);
    invites(r.data);
  });
  draw();
  root.replaceChildren(header(), h("main", { class: "page" }, h("h1", {}, t("newGame")),
    friends ? h("p", { class: "muted" }, t("friendsHowTo")) : null, form));
}

// A rule option's control: a choice among its values, or, for a range of numbers (`1..24`), a number input with
// those bounds (the default first in either).
function optionInput(o, values) {
  const range = o.values.map((v) => /^(-?\d+)\.\.(-?\d+)$/.exec(v)).find(Boolean);
  if (range) {
    return h("input", { type: "number", min: range[1], max: range[2], step: 1, required: true, value: values[o.key] ?? o.default,
      "aria-label": o.key, oninput: (e) => { values[o.key] = e.target.value; } });
  }
  return h("select", { "aria-label": o.key, onchange: (e) => { values[o.key] = e.target.value; } },
    o.values.map((v, i) => h("option", { value: v, selected: (values[o.key] ?? o.default) === v }, i === 0 ? `${v} (${t("defaultValue")})` : v)));
}

// Every seat's name: the one typed, or a default in the table's language ("Player 2", "greedy bot"), numbered when
// two would otherwise be the same ("greedy bot 2"). An open seat's is its joiner's: none here.
export function defaultNames(seats, tr = t) {
  const typed = seats.map((s) => (s.kind === "open" ? null : (s.name || "").trim() || null));
  const taken = new Set(typed.filter(Boolean));
  return seats.map((s, i) => {
    if (s.kind === "open") return undefined;
    if (typed[i]) return typed[i];
    const base = s.kind === "bot" ? tr("defaultBot", { level: tr(s.level) }) : tr("defaultPlayer", { n: i + 1 });
    let name = base;
    for (let k = 2; taken.has(name); k++) name = `${base} ${k}`;
    taken.add(name);
    return name;
  });
}

function invites(created) {
  const people = created.seats.filter((s) => s.token);
  const rows = people.map((s) => {
    const link = `${location.origin}${s.invite}`;
    return h("div", { class: "invite" }, h("strong", {}, `${s.seat} ${s.name}`), h("input", { value: link, readonly: true, "aria-label": s.name }),
      h("button", { onclick: async (e) => { try { await navigator.clipboard.writeText(link); e.target.textContent = t("copied"); } catch { e.target.previousSibling.select(); } } }, t("copy")));
  });
  root.replaceChildren(header(), h("main", { class: "page" }, h("h1", {}, t("invites")), ...rows,
    h("p", {}, h("button", { class: "primary", onclick: () => go(`/play/${created.id}`) }, `${t("playHere")} (${t("hotSeat")})`))));
}

// ---------------------------------------------------------------- the table

// What identifies a control across a redraw: its kind and its name.
function focusKey(e) {
  return `${e.tagName}|${e.getAttribute("aria-label") || e.closest("label")?.textContent.trim() || e.textContent.trim()}`;
}

const dialogOpen = () => !!document.querySelector("dialog[open]");

// A crop-circle choice in words: `crop A`, `crop knight B`, `crop farmer` (the English reading names the role only).
function choiceLabel(text) {
  const w = text.split(" ");
  if (w[0] !== "crop") return text;
  const role = w.length >= 2 && !["A", "B"].includes(w[1]) ? w[1] : null;
  const letter = w.find((x) => x === "A" || x === "B");
  const parts = [];
  if (role) parts.push(t(`role_${role}`));
  if (letter) parts.push(t(`crop_${letter}`));
  return parts.join(": ") || text;
}

// A seat's colour with its number on it, as its figures carry it (colour is never the only way to tell seats apart).
export function seatSwatch(p) {
  return h("span", { class: "swatch numbered", style: `background:${p.color};color:${inkOn(p.color)}`, "aria-hidden": "true" }, seatMark(p.player));
}

// A segment in words: "road, west", "field, north-east", "monastery". A field's half-edge (`Nw`, `Es`) is named by
// the corner it is nearer to; a triangle's long side is `L`.
const HALF_DIR = { Nw: "NW", Ne: "NE", En: "NE", Es: "SE", Se: "SE", Sw: "SW", Ws: "SW", Wn: "NW", La: "L", Lb: "L" };
export function segmentWords(segment, tr = t) {
  if (!segment) return "";
  const [kind, rest = ""] = segment.split("@");
  const feature = tr(`feature_${kind}`);
  const pos = rest.split("#")[0];
  const dir = pos.length === 1 ? pos : HALF_DIR[pos];
  return dir ? tr("featureAt", { feature, where: tr(`dir_${dir}`) }) : feature;
}

const capitalise = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// A player's figures in supply, as small pictures with counts.
function supplyIcons(p) {
  const items = [["meeple", p.meeples], ["mayor", p.mayor], ["wagon", p.wagon], ["barn", p.barns], ["abbey", p.abbeys], ["triangle", p.triangles]];
  return items.filter(([k, n]) => n > 0 || k === "meeple").map(([k, n]) => h("span", { class: "sup", title: `${t(k)}: ${n}` }, icon(k, p.color), String(n)));
}

const SVGNS = "http://www.w3.org/2000/svg";
function icon(kind, color) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", "-13 -25 26 28");
  svg.setAttribute("class", "icon");
  const path = {
    meeple: "M0 -22 C3.4 -22 5 -19.6 5 -17 C5 -15.3 4.3 -14.2 3.4 -13.4 L10 -11.3 C11.7 -10.7 11.7 -7.8 10 -7.4 L5 -6.6 L8.3 -0.6 C8.8 0.5 8.1 1 7.2 1 L2.2 1 L0 -3.4 L-2.2 1 L-7.2 1 C-8.1 1 -8.8 0.5 -8.3 -0.6 L-5 -6.6 L-10 -7.4 C-11.7 -7.8 -11.7 -10.7 -10 -11.3 L-3.4 -13.4 C-4.3 -14.2 -5 -15.3 -5 -17 C-5 -19.6 -3.4 -22 0 -22 Z",
    mayor: "M0 -24 L3 -19 L6 -23 L5 -16 L11 -11 L5 -8 L9 1 L2 1 L0 -3 L-2 1 L-9 1 L-5 -8 L-11 -11 L-5 -16 L-6 -23 L-3 -19 Z",
    wagon: "M-11 -14 H11 V-5 H-11 Z M-6 -1 m-4 0 a4 4 0 1 0 8 0 a4 4 0 1 0 -8 0 M6 -1 m-4 0 a4 4 0 1 0 8 0 a4 4 0 1 0 -8 0",
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

class Table {
  constructor(id) {
    this.id = id;
    this.sel = { tile: null, space: null, orient: null, figure: "meeple" };
    this.events = [];
    this.keys = (e) => this.key(e);
  }

  // The token to act with. One seat held: its own. Several (hot seat, or the creator holding every seat): the token
  // of the seat to decide or to confirm, whichever view (a seat's or a spectator's) says who that is; otherwise the
  // first seat held, so the page shows a seat's own view rather than a spectator's.
  token(view) {
    const mine = tokens(this.id);
    const seats = Object.keys(mine).sort();
    if (seats.length <= 1) return mine[seats[0]];
    const pending = view?.awaiting_confirmation || view?.game?.pending?.actor || view?.game?.pending?.player;
    return mine[pending] || mine[view?.seat] || mine[seats[0]];
  }

  // `fetched`: the view already asked for with the invite's token, so that a load asks for it once.
  async start(fetched = null) {
    root.replaceChildren(header(), h("main", { class: "page" }, "…"));
    const first = fetched && fetched.ok && this.token(fetched.data) === tokens(this.id)[fetched.data.seat] ? fetched : await get(`/api/games/${this.id}`, this.token(null));
    if (first.status === 404) { root.replaceChildren(header(), h("main", { class: "page" }, t("notFound"))); return; }
    const [tiles, events] = await Promise.all([get(`/api/games/${this.id}/tiles`), get(`/api/games/${this.id}/events`)]);
    this.catalogue = tiles.data.tiles;
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
    this.zoomEl = h("div", { class: "zoom" },
      h("button", { "aria-label": t("zoomIn"), title: `${t("zoomIn")} (+)`, onclick: () => { this.board.userMoved = true; this.board.zoom(1 / 1.25); } }, uiIcon("zoomIn")),
      h("button", { "aria-label": t("zoomOut"), title: `${t("zoomOut")} (−)`, onclick: () => { this.board.userMoved = true; this.board.zoom(1.25); } }, uiIcon("zoomOut")),
      h("button", { "aria-label": t("zoomFit"), title: `${t("zoomFit")} (0)`, onclick: () => { this.board.userMoved = false; this.board.fit(); } }, uiIcon("fit")));
    this.boardEl.append(this.zoomEl);
    this.overlayEl = h("label", { class: "overlay-toggle check" }, h("input", { type: "checkbox", onchange: (e) => { this.board.overlay = e.target.checked; this.show(this.view); } }), t("overlay"));
    this.boardEl.append(this.overlayEl);
    this.panelEl = h("section", { class: "decision", "aria-live": "polite" });
    this.logEl = h("ol", { class: "log" });
    this.leftEl = h("div", { class: "tiles-left" });
    root.replaceChildren(header([h("span", { class: "game-id" }, this.id)]),
      h("main", { class: "table" }, this.scoreEl, this.boardEl,
        h("aside", { class: "side" }, this.panelEl,
          h("details", { class: "log-box", open: true }, h("summary", {}, t("log")), this.logEl),
          h("details", { class: "left-box" }, h("summary", {}, t("tilesLeft")), this.leftEl))));
  }

  connect() {
    // One seat held: the socket is that seat's (its token offered as a subprotocol, never in the URL). Several: a
    // spectator's, and each update fetches the deciding seat's own view.
    const token = Object.keys(tokens(this.id)).length === 1 ? Object.values(tokens(this.id))[0] : null;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${this.id}/ws`;
    this.ws = new WebSocket(url, token ? ["carc.v1", `token.${token}`] : ["carc.v1"]);
    this.ws.onmessage = async (m) => {
      const msg = JSON.parse(m.data);
      this.pushes = (this.pushes || 0) + 1;
      if (msg.type === "update") {
        // The update's actions follow the events held: add theirs (those not yet held, the list may have been
        // fetched since). After a take-back, or a gap (updates missed), fetch the list again.
        const from = msg.version - (msg.actions || []).length;
        if (msg.cause === "take_back" || msg.cause === "sync" || from > this.eventsVersion) {
          await this.fetchEvents();
        } else if (msg.version > this.eventsVersion) {
          this.events.push(...msg.events.filter((e) => e.action > this.eventsVersion));
          this.eventsVersion = msg.version;
        }
        // In hot seat the socket is a spectator's: fetch the deciding seat's own view. An action's news older than
        // the view shown (the answer to our own next action came first) is not shown.
        if (!token) await this.refresh();
        else if (!(msg.cause === "action" && this.view && msg.version < this.view.version)) this.show(msg.view);
      }
    };
    this.ws.onclose = () => { if (!this.closed) setTimeout(() => { if (!this.closed) { this.refresh(); this.connect(); } }, 1500); };
  }

  // Show the game as the right seat sees it (`fetched`: an answer already at hand, so a load asks once or twice).
  async refresh(fetched = null) {
    let r = fetched || await get(`/api/games/${this.id}`, this.token(this.view));
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
    return view.game.players.map((p, i) => ({ ...p, name: view.seats[i].name, kind: view.seats[i].kind, color: seatColour(view.seats[i], i) }));
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
    if (changed) this.sel = { tile: null, space: null, orient: null, figure: this.sel.figure || "meeple" };
    const players = this.players(view);
    // The tiles placed in the last round stand out.
    const n = view.game.board.length;
    this.board.recent = [...Array(Math.min(players.length, n - 1)).keys()].map((i) => n - 1 - i);
    this.board.render(view.game, players);
    this.renderScores(players);
    this.renderPanel();
    this.renderLog();
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
    this.scoreEl.replaceChildren(...players.map((p) => h("div", { class: `player${turn === p.player && !g.game_over ? " active" : ""}${this.view.seat === p.player ? " me" : ""}`, "data-player": p.player },
      seatSwatch(p),
      h("span", { class: "pname" }, p.name, p.kind === "bot" ? h("small", { class: "tag" }, t("bot")) : null),
      h("strong", { class: "pscore", "aria-label": t("score") }, p.score),
      h("span", { class: "supply" }, supplyIcons(p)))),
      h("div", { class: "stack" }, t("stack", { n: g.stack })));
  }

  // Send an action (or a take-back, a confirmation). The answer is shown unless the socket has already brought
  // something newer (a bot may have answered before our own answer arrived).
  async send(path, body) {
    const pushes = this.pushes || 0;
    const r = await post(`/api/games/${this.id}/${path}`, { ...body, version: this.view.version }, this.token(this.view));
    if (!r.ok) { toast(t("error", { msg: r.data?.error || r.status })); return this.refresh(); }
    if ((this.pushes || 0) === pushes) this.show(r.data);
    if (Object.keys(tokens(this.id)).length > 1) this.refresh();
  }

  act(text) { return this.send("actions", { action: text }); }

  simple(path) { return this.send(path, {}); }

  renderPanel() {
    const v = this.view, g = v.game;
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
    else headline = pending.player ? t("waitingFor", { name: this.nameOf(pending.player) }) : t(`decision_${pending.kind}`);
    parts.push(h("h2", { class: mine || v.can_confirm ? "yours" : "", tabindex: -1 }, headline));
    // One click to the rule the decision is about (the wagon's under the edition chosen).
    const rules = v.setup.rules || {};
    const about = {
      place_tile: "BASE-04", phase2: "BASE-06", move_dragon: "DRAGON-07", crop_choice: "CROP-04", crop_answer: "CROP-06",
      princess: "PRINCESS-02", move_wagon: rules["wagon.movement"] === "c1" ? "WAGON-07" : "WAGON-06", draft: "HALF-03",
      phase1: legal.some((a) => a.type === "place" && a.tile.endsWith("/abbey")) && !legal.some((a) => a.type === "place" && !a.tile.endsWith("/abbey")) ? "ABBEY-02" : "HALF-04",
    }[pending.kind];
    if (mine && about) {
      const links = [h("a", { href: ruleLink(about), target: "_blank", class: "rule-link" }, `${t("ruleAbout")} ${about}`)];
      if (legal.some((a) => a.type === "place" && this.board.tile(a.tile)?.shape === "triangle")) {
        links.push(h("a", { href: ruleLink("VAR-16"), target: "_blank", class: "rule-link" }, t("triangleScoring", { v: rules["halflings.scoring"] || "jan2021" })));
      }
      parts.push(h("p", { class: "rule-links" }, links));
    }
    if (v.seat === null) parts.push(h("p", { class: "muted" }, t("spectator")));
    const me = v.seat ? g.players[Number(v.seat.slice(1)) - 1] : null;
    if (mine) parts.push(...this.decisionControls(legal, pending, me));
    const buttons = [];
    if (mine && v.seat) buttons.push(h("button", { onclick: () => this.hint(), title: `${t("hint")} (H)` }, t("hint")));
    if (v.can_take_back) buttons.push(h("button", { onclick: () => this.simple("take-back"), title: `${t("takeBack")} (Ctrl+Z)` }, uiIcon("takeBack"), t("takeBack")));
    if (v.can_confirm) buttons.push(h("button", { class: "primary", onclick: () => this.simple("confirm"), title: `${t("confirm")} (C)` }, uiIcon("confirm"), t("confirm")));
    if (buttons.length) parts.push(h("div", { class: "buttons" }, buttons));
    if (me?.hand?.length && !legal.some((a) => a.type === "place" && me.hand.includes(a.tile))) {
      parts.push(h("div", { class: "hand" }, h("h3", {}, t("hand")), me.hand.map((id) => tileIcon(this.board.tile(id), "r0", 48))));
    }
    if (v.seat && v.status !== "finished") {
      parts.push(h("label", { class: "check small" }, h("input", { type: "checkbox", checked: v.auto_confirm, onchange: async (e) => {
        const r = await post(`/api/games/${this.id}/settings`, { auto_confirm: e.target.checked }, this.token(v));
        if (r.ok) this.show(r.data);
      } }), t("autoConfirm")));
      parts.push(h("label", { class: "check small sound-toggle" }, h("input", { type: "checkbox", checked: soundOn(), onchange: (e) => { setSound(e.target.checked); this.renderPanel(); } }),
        uiIcon(soundOn() ? "soundOn" : "soundOff"), t("soundToggle")));
    }
    if (mine) {
      parts.push(h("details", { class: "all-actions" }, h("summary", {}, t("chooseAction")),
        h("div", { class: "action-list" }, legal.map((a) => h("button", { class: "small", onclick: () => this.act(a.text) }, a.text)))));
    }
    if (v.status === "finished") {
      // The final scores and the replay stay a click away once the dialog is closed.
      parts.push(h("div", { class: "buttons final-buttons" },
        h("button", { class: "primary", onclick: () => this.finalScreen() }, t("finalScores")),
        h("button", { onclick: () => go(`/replay/${this.id}`) }, t("replay"))));
    }
    this.panelEl.replaceChildren(...parts);
    this.panelEl.dataset.seat = v.seat || "";
    // Every spot of the decision is on the board now: each gets its own place.
    this.board.layoutSpots();
    if (key) {
      const again = [...this.panelEl.querySelectorAll("button, input, select, a, summary")].find((e) => !e.disabled && focusKey(e) === key);
      if (again) again.focus({ preventScroll: true });
    }
    this.board.refocus = null;
    // The focus was on a control that is gone (the tile was placed): it goes to the decision's first spot, or to
    // its headline, rather than back to the top of the page.
    if (hadFocus && (!document.activeElement || document.activeElement === document.body)) {
      const next = this.boardEl.querySelector(".layer-spots .mark, .layer-marks .space-mark") || this.panelEl.querySelector("h2");
      next?.focus({ preventScroll: true });
    }
  }

  // The controls for the decision asked: the tile to place and its spots, the figures' spots, the dragon's steps…
  decisionControls(legal, pending, me) {
    const out = [];
    const places = legal.filter((a) => a.type === "place");
    const pass = legal.find((a) => a.type === "pass");
    if (places.length) out.push(...this.placing(places, pending));
    // Spots on the board for every action that names a segment or a corner.
    const spot = legal.filter((a) => ["deploy", "barn", "portal", "fairy", "princess", "wagon-move", "crop-add", "crop-remove"].includes(a.type));
    if (spot.length) out.push(...this.spots(spot));
    const dragon = legal.filter((a) => a.type === "dragon");
    if (dragon.length) {
      const at = this.view.game.figures.dragon;
      const [x, y] = parseSpace(at);
      const step = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
      for (const a of dragon) {
        const [dx, dy] = step[a.dir];
        this.board.mark(this.board.centreOf(`${x + dx},${y + dy}`), t(`dragon_${a.dir}`), () => this.act(a.text), "dragon");
      }
      out.push(h("div", { class: "buttons dragon-steps" }, dragon.map((a) => h("button", { onclick: () => this.act(a.text), "aria-label": t(`dragon_${a.dir}`) }, uiIcon("arrow", { N: 0, E: 90, S: 180, W: 270 }[a.dir]), a.dir))));
    }
    const choices = legal.filter((a) => a.type === "crop" || a.type === "other");
    if (choices.length) {
      out.push(h("div", { class: "buttons choices" }, choices.map((a) => h("button", { onclick: () => this.act(a.text), "data-choice": a.text, title: a.text }, choiceLabel(a.text)))));
    }
    const picks = legal.filter((a) => a.type === "pick");
    if (picks.length) {
      out.push(h("div", { class: "picks" }, picks.map((a) => h("button", { class: "tile-button", onclick: () => this.act(a.text), "aria-label": a.text }, tileIcon(this.board.tile(a.tile), "r0", 56)))));
    }
    if (pass) {
      const label = pending.kind === "phase1" ? t("drawTile") : pending.kind === "phase2" ? t("noMeeple") : t("pass");
      out.push(h("div", { class: "buttons" }, h("button", { class: pending.kind === "phase1" ? "primary" : "", onclick: () => this.act("pass"), "data-action": "pass", title: `${label} (P)` }, label)));
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
    if (!this.sel.tile || !byTile.has(this.sel.tile)) this.sel.tile = pending.kind === "place_tile" ? pending.tile : (byTile.size === 1 ? [...byTile.keys()][0] : null);
    if (byTile.size > 1 || pending.kind === "phase1") {
      out.push(h("div", { class: "picks" }, [...byTile.keys()].map((id) => h("button", {
        class: `tile-button${this.sel.tile === id ? " selected" : ""}`, "aria-label": id,
        onclick: () => { this.sel = { ...this.sel, tile: id, space: null, orient: null }; this.renderPanel(); },
      }, tileIcon(this.board.tile(id), "r0", 56)))));
    }
    const tile = this.sel.tile;
    if (!tile) return out;
    const spaces = byTile.get(tile);
    const orients = this.sel.space ? spaces.get(this.sel.space) : null;
    if (this.sel.space && (!orients || !orients.includes(this.sel.orient))) this.sel.orient = orients ? orients[0] : null;
    for (const [space, os] of spaces) {
      this.board.spaceMark(space, t("spot_space", { space }), () => {
        if (this.sel.space === space) return this.placeSelected();
        this.sel.space = space;
        this.sel.orient = os.includes(this.sel.orient) ? this.sel.orient : os[0];
        this.renderPanel();
      }, this.sel.space === space);
    }
    if (this.sel.space) this.board.ghost(tile, this.sel.space, this.sel.orient);
    const preview = tileIcon(this.board.tile(tile), this.sel.orient || "r0", 84);
    const rotating = orients && orients.length > 1;
    out.push(h("div", { class: "in-hand" }, preview,
      h("div", { class: "buttons" },
        h("button", { disabled: !rotating, "aria-label": t("rotateLeft"), title: `${t("rotateLeft")} (Shift+R)`, onclick: () => this.rotate(-1) }, uiIcon("rotateLeft")),
        h("button", { disabled: !rotating, "aria-label": t("rotateRight"), title: `${t("rotateRight")} (R)`, onclick: () => this.rotate(1) }, uiIcon("rotateRight")),
        h("button", { class: "primary", disabled: !this.sel.space, onclick: () => this.placeSelected(), title: "Enter" }, t("place")))));
    return out;
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
    toast(t("hintSays", { action: r.data.action }));
  }

  rotate(d) {
    const places = this.view.game.actions.filter((a) => a.type === "place" && a.tile === this.sel.tile && a.space === this.sel.space);
    if (!places.length) return;
    const os = places.map((a) => a.orient);
    const order = ["r0", "r90", "r180", "r270", "NE", "SE", "SW", "NW"];
    os.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const i = os.indexOf(this.sel.orient);
    this.sel.orient = os[(i + d + os.length) % os.length];
    this.renderPanel();
  }

  placeSelected() {
    if (!this.sel.space) return;
    this.act(`place ${this.sel.tile} ${this.sel.space} ${this.sel.orient}`);
  }

  spots(actions) {
    const out = [];
    const labels = this.spotLabels(actions);
    const last = this.view.game.board[this.view.game.board.length - 1];
    const figures = [...new Set(actions.filter((a) => a.type === "deploy" || a.type === "portal").map((a) => a.figure))];
    if (figures.length > 1) {
      if (!figures.includes(this.sel.figure)) this.sel.figure = figures[0];
      out.push(h("div", { class: "buttons figures" }, figures.map((f) => h("button", { class: this.sel.figure === f ? "selected" : "", onclick: () => { this.sel.figure = f; this.renderPanel(); } }, t(f)))));
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
      if (at) this.board.mark(at, labels.get(a.text), () => this.act(a.text), a.type, this.spotTag(a));
    }
    return out;
  }

  // What a spot does, in words (its accessible name and its tooltip): "Meeple on the road, west". Two spots that
  // would read the same (two like meeples after a crop circle) say their notation too.
  spotLabels(actions) {
    const words = actions.map((a) => [a.text, capitalise(this.spotWords(a))]);
    const count = new Map();
    for (const [, w] of words) count.set(w, (count.get(w) || 0) + 1);
    return new Map(words.map(([text, w]) => [text, count.get(w) > 1 ? `${w} (${text})` : w]));
  }

  spotWords(a) {
    const segment = segmentWords(a.segment);
    const who = a.player ? this.nameOf(a.player) : "";
    const figure = a.figure ? t(a.figure) : "";
    switch (a.type) {
      case "deploy": return t("spot_deploy", { figure, segment });
      case "barn": return t("spot_barn", { where: t(`dir_${a.corner}`) });
      case "portal": return t("spot_portal", { figure, segment, space: a.space });
      case "wagon-move": return t("spot_wagon", { segment, space: a.space });
      case "princess": return t("spot_princess", { who, figure, segment });
      case "fairy": return a.player ? t("spot_fairy_next", { who, figure, segment, space: a.space }) : t("spot_fairy_space", { space: a.space });
      case "crop-add": return t("spot_crop_add", { figure, segment, space: a.space });
      case "crop-remove": return t("spot_crop_remove", { who, figure, segment, space: a.space });
      default: return a.text;
    }
  }

  // What a spot says it is: the barn's figure, or the letter of the feature its segment belongs to. A ring around a
  // figure (the princess's, a removal) says it only when it had to move off the figure.
  spotTag(a) {
    if (a.type === "barn") return { tag: "barn" };
    const feature = (a.segment || "").split("@")[0];
    if (!["city", "road", "field", "monastery"].includes(feature)) return {};
    return { tag: t(`letter_${feature}`), tagWhenMoved: a.type === "princess" || a.type === "crop-remove" };
  }

  key(e) {
    if (e.target.closest("input, select, textarea")) return;
    // A spot or a button answered the key itself (Enter on a spot chooses it, on a button presses it).
    if (e.defaultPrevented || dialogOpen()) return;
    const onControl = e.target.closest("button, a, summary, [role=button]");
    const v = this.view;
    // The turn's buttons from the keyboard: take back, confirm, pass (or draw), hint.
    if ((e.key === "z" && (e.ctrlKey || e.metaKey)) || e.key === "Backspace") {
      if (v?.can_take_back) { e.preventDefault(); this.simple("take-back"); }
      return;
    }
    if (e.key === "c" && v?.can_confirm) { this.simple("confirm"); return; }
    if (e.key === "p" && v?.game.legal.includes("pass")) { this.act("pass"); return; }
    if (e.key === "h" && v?.game.legal.length && v.seat) { this.hint(); return; }
    if (e.key === "r" || e.key === "R") { this.rotate(e.shiftKey ? -1 : 1); e.preventDefault(); }
    else if (e.key === "Enter" && this.sel.space && !onControl) { this.placeSelected(); e.preventDefault(); }
    else if (e.key === "Escape") { this.sel.space = null; this.renderPanel(); }
    else if (e.key === "+" || e.key === "=") { this.board.userMoved = true; this.board.zoom(1 / 1.25); }
    else if (e.key === "-") { this.board.userMoved = true; this.board.zoom(1.25); }
    else if (e.key === "0") { this.board.userMoved = false; this.board.fit(); }
  }

  eventText(e) {
    const who = (list) => (list || []).map((p) => this.nameOf(p)).join(", ");
    const feature = t(`feature_${e.feature}`);
    switch (e.type) {
      case "scored": {
        const why = [];
        if (e.tiles && (e.feature === "city" || e.feature === "road")) why.push(t("n_tiles", { n: e.tiles }));
        if (e.pennants) why.push(t("n_pennants", { n: e.pennants }));
        if (e.cities && e.feature === "field") why.push(t("n_cities", { n: e.cities }));
        if (e.reason && e.reason !== "completed" && e.reason !== "final") why.push(t(`reason_${e.reason}`));
        const detail = why.length ? ` (${why.join(", ")})` : "";
        if (!e.winners?.length || !e.points) return t("ev_scored_none", { feature }) + detail;
        return t(e.when === "final" ? "ev_final" : "ev_scored", { who: who(e.winners), points: e.points, feature }) + detail;
      }
      case "dragon_moved": return t("ev_dragon", { who: this.nameOf(e.player), space: e.space });
      case "meeple_returned": return t(e.cause === "dragon" ? "ev_eaten" : "ev_returned", { who: this.nameOf(e.player), kind: t(e.kind === "normal" ? "meeple" : e.kind) });
      case "volcano": return t("ev_volcano", { space: e.space });
      case "fairy_moved": return t("ev_fairy", { who: this.nameOf(e.player) });
      case "fairy_points": return t("ev_fairy_points", { who: this.nameOf(e.player), points: e.points });
      case "game_ended": return t("ev_game_ended");
      case "discarded": return t("ev_discarded", { tile: e.tile });
      case "under_hill": return t("ev_under_hill");
      default: return e.type;
    }
  }

  renderLog() {
    const shown = this.events.filter((e) => e.type !== "set_aside" && e.type !== "put_back").slice(-60).reverse();
    this.logEl.replaceChildren(...shown.map((e) => h("li", { class: `ev ev-${e.type}` }, this.eventText(e))));
  }

  renderLeft() {
    const left = this.view.game.tiles_left || [];
    this.leftEl.replaceChildren(...left.map((x) => h("span", { class: "left", title: x.tile }, tileIcon(this.board.tile(x.tile), "r0", 36), h("small", {}, `×${x.copies}`))));
  }

  // The final scores: the finished view's scores, and where they came from by the game's complete list of events.
  // The last action's events (its final scorings) may not have come with the socket yet, so the list is fetched
  // again first. Shown once by itself; the panel's button opens it again.
  async finalScreen() {
    if (this.finalDialog) { if (!this.finalDialog.open) this.finalDialog.showModal(); return; }
    if (this.finalShown) return;
    this.finalShown = true;
    await this.fetchEvents();
    this.renderLog();
    if (this.closed) return;
    const players = this.players(this.finishedView);
    const sorted = [...players].sort((a, b) => b.score - a.score);
    const best = sorted[0].score;
    const winners = sorted.filter((p) => p.score === best).map((p) => p.name);
    // Where each player's points came from, by kind of feature and by when (during the game, or at the end).
    const kinds = ["city", "road", "monastery", "field", "fairy"];
    const split = new Map(players.map((p) => [p.player, Object.fromEntries(kinds.flatMap((k) => [[`${k}:turn`, 0], [`${k}:final`, 0]]))]));
    for (const e of this.events) {
      if (e.type === "scored" && e.points) {
        const k = kinds.includes(e.feature) ? e.feature : "monastery";
        for (const w of e.winners || []) split.get(w)[`${k}:${e.when}`] += e.points;
      } else if (e.type === "fairy_points") {
        split.get(e.player)["fairy:turn"] += e.points;
      }
    }
    const used = kinds.filter((k) => players.some((p) => split.get(p.player)[`${k}:turn`] || split.get(p.player)[`${k}:final`]));
    const table = h("table", { class: "final-split" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), used.map((k) => h("th", {}, t(k === "fairy" ? "fairy" : `feature_${k}`))), h("th", {}, t("score")))),
      h("tbody", {}, sorted.map((p) => h("tr", {},
        h("td", {}, seatSwatch(p), ` ${p.name}`),
        used.map((k) => {
          const a = split.get(p.player)[`${k}:turn`], b = split.get(p.player)[`${k}:final`];
          return h("td", { title: `${a} + ${b}` }, String(a + b));
        }),
        h("td", {}, h("strong", {}, p.score))))));
    const dlg = h("dialog", { class: "final" },
      h("h2", {}, t("finalScores")),
      h("p", {}, winners.length > 1 ? t("winners", { names: winners.join(", ") }) : t("winner", { names: winners[0] })),
      table,
      h("div", { class: "buttons" },
        h("button", { onclick: () => { dlg.close(); go(`/replay/${this.id}`); } }, t("replay")),
        h("button", { class: "primary", onclick: () => { dlg.close(); go("/"); } }, t("backToLobby")),
        h("button", { "aria-label": t("close"), title: t("close"), onclick: () => dlg.close() }, uiIcon("close"))));
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

// ---------------------------------------------------------------- routing

let current = null;

async function route() {
  if (current?.stop) current.stop();
  current = null;
  document.querySelectorAll("dialog").forEach((d) => d.remove());
  const path = location.pathname;
  const play = path.match(/^\/play\/([0-9a-f]{16})$/);
  if (play) {
    // An invite link: keep its token, and take it out of the address bar.
    const m = location.hash.match(/token=([0-9a-f]+)/);
    let fetched = null;
    if (m) {
      fetched = await get(`/api/games/${play[1]}`, m[1]);
      if (fetched.ok && fetched.data.seat) keepToken(play[1], fetched.data.seat, m[1]);
      history.replaceState({}, "", path);
    }
    current = new Table(play[1]);
    return current.start(fetched);
  }
  const replay = path.match(/^\/replay\/([0-9a-f]{16})$/);
  if (replay) {
    const { Replay } = await import("./replay.js");
    current = new Replay(replay[1], { root, header, h, t, get });
    return current.start();
  }
  if (path.startsWith("/rules")) {
    const { rulesPage } = await import("./rules.js");
    return rulesPage({ root, header, h, t, language }, path);
  }
  if (path === "/new") return newGame();
  return lobby();
}

window.addEventListener("popstate", route);
setLanguage(language());
route();
