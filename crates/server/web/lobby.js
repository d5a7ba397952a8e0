// @ts-check
// The first page: what this is, the two ways to start, and the server's games (to join, play on, watch, replay).

import { get, keepToken, post, tokens } from "./api.js";
import { language, t } from "./i18n.js";
import { defaultNames } from "./names.js";
import { seatColour } from "./tiles.js";
import { go, h, header, root, toast } from "./ui.js";

export async function lobby() {
  root.replaceChildren(header(), h("main", { class: "page" }, h("p", {}, "…")));
  const r = await get("/api/games?limit=100");
  const games = r.ok ? r.data.games : [];
  const section = (title, list, action) =>
    h(
      "section",
      { class: "games" },
      h("h2", {}, title),
      list.length
        ? h(
            "ul",
            {},
            list.map((g) =>
              h(
                "li",
                {},
                h(
                  "span",
                  { class: "who" },
                  g.seats.map((s, i) =>
                    h(
                      "span",
                      { class: `seat ${s.kind}${s.open ? " open" : ""}` },
                      h("span", { class: "dot", style: `background:${seatColour(s, i)}` }),
                      s.open ? t("openSeat") : s.name,
                    ),
                  ),
                ),
                h("span", { class: "when" }, new Date(g.created_at * 1000).toLocaleString(language())),
                action(g),
              ),
            ),
          )
        : h("p", { class: "muted" }, t("noGames")),
    );
  const open = games.filter((g) => g.status === "running" && g.open_seats > 0);
  const running = games.filter((g) => g.status === "running" && g.open_seats === 0);
  const finished = games.filter((g) => g.status === "finished");
  root.replaceChildren(
    header(),
    h(
      "main",
      { class: "page" },
      landing(),
      section(t("openGames"), open, (g) => h("button", { onclick: () => joinGame(g) }, t("join"))),
      section(t("runningGames"), running, (g) =>
        h("button", { onclick: () => go(`/play/${g.id}`) }, Object.keys(tokens(g.id)).length ? t("play") : t("watch")),
      ),
      section(t("finishedGames"), finished, (g) => h("button", { onclick: () => go(`/replay/${g.id}`) }, t("replay"))),
    ),
  );
}

// What this is, and the two obvious ways to start: against the computer in one click, or with friends.
function landing() {
  return h(
    "section",
    { class: "landing" },
    h("h1", {}, t("landingTitle")),
    h("p", { class: "lead" }, t("landingWhat")),
    h(
      "div",
      { class: "starts" },
      h(
        "div",
        { class: "start" },
        h(
          "button",
          { class: "primary big", "data-start": "computer", onclick: (e) => playComputer(e.currentTarget) },
          t("playComputer"),
        ),
        h("p", { class: "muted" }, t("playComputerWhat")),
      ),
      h(
        "div",
        { class: "start" },
        h("button", { class: "big", "data-start": "friends", onclick: () => go("/new?friends") }, t("playFriends")),
        h("p", { class: "muted" }, t("playFriendsWhat")),
      ),
    ),
    h(
      "p",
      { class: "more" },
      h(
        "a",
        {
          href: "/new",
          onclick: (e) => {
            e.preventDefault();
            go("/new");
          },
        },
        t("newGameAll"),
      ),
      " · ",
      h(
        "a",
        {
          href: "/rules",
          onclick: (e) => {
            e.preventDefault();
            go("/rules");
          },
        },
        t("howToPlay"),
      ),
    ),
  );
}

// One click: the base game, this browser's person against a medium bot, at once at the table.
async function playComputer(button) {
  button.disabled = true;
  const seats = [
    { kind: "person", name: "" },
    { kind: "bot", level: "medium", name: "" },
  ];
  const names = defaultNames(seats);
  const r = await post("/api/games", {
    seats: [
      { name: names[0], colour: "red" },
      { bot: "medium", name: names[1], colour: "blue" },
    ],
    sets: ["base"],
  });
  button.disabled = false;
  if (!r.ok) return toast(t("error", { msg: r.data?.error || r.status }));
  for (const s of r.data.seats) if (s.token) keepToken(r.data.id, s.seat, s.token);
  go(`/play/${r.data.id}`);
}

// Take an open seat of game `g`: a small form on the page asks for the name to play under.
function joinGame(g) {
  const seat = g.seats.find((s) => s.open);
  for (const d of document.querySelectorAll("dialog.join")) d.remove();
  const input = h("input", {
    name: "name",
    maxlength: 40,
    autocomplete: "nickname",
    placeholder: t("defaultPlayer", { n: g.seats.indexOf(seat) + 1 }),
  });
  const error = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    { method: "dialog" },
    h("h2", {}, t("joinTitle")),
    h(
      "p",
      { class: "muted" },
      t("joinWho", {
        names: g.seats
          .filter((s) => !s.open)
          .map((s) => s.name)
          .join(", "),
      }),
    ),
    h("label", { class: "field" }, h("span", {}, t("name")), input),
    error,
    h(
      "div",
      { class: "buttons" },
      h("button", { type: "button", onclick: () => dlg.close() }, t("cancel")),
      h("button", { class: "primary", type: "submit" }, t("join")),
    ),
  );
  const dlg = h("dialog", { class: "join", "aria-label": t("joinTitle") }, form);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim() || input.placeholder;
    const r = await post(`/api/games/${g.id}/join`, { seat: seat.seat, name });
    if (!r.ok) {
      error.textContent = t("error", { msg: r.data?.error || r.status });
      return;
    }
    keepToken(g.id, r.data.seat, r.data.token);
    dlg.close();
    go(`/play/${g.id}`);
  });
  dlg.addEventListener("close", () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  input.focus();
}
