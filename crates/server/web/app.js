// @ts-check
// The browser table. It knows no rules: it shows the legal actions the server sends (GET /api/games/{id}) and sends
// back the one chosen, drawing the board from the catalogue's data. Screens: the games (/, lobby.js), a new game
// (/new, newgame.js), the table (/play/{id}, table.js; an invite link carries the seat's token after #), a replay
// (/replay/{id}, replay.js) and the rules (/rules, rules.js). This file routes between them.

import { get, keepToken } from "./api.js";
import { language, setLanguage, t } from "./i18n.js";
import { lobby } from "./lobby.js";
import { newGame } from "./newgame.js";
import { Table } from "./table.js";
import { h, header, root, setRouter } from "./ui.js";

// The screen shown (a table or a replay, stopped when another is shown).
let current = null;

async function route() {
  if (current?.stop) current.stop();
  current = null;
  for (const d of document.querySelectorAll("dialog")) d.remove();
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
    return rulesPage({ root, header, h, t }, path);
  }
  if (path === "/new") return newGame();
  return lobby();
}

setRouter(route);
window.addEventListener("popstate", route);
setLanguage(language());
route();
