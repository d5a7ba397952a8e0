// The table in a real browser: headless Chromium driven by playwright-core, against a running `carc serve`.
//
//   node table.mjs http://127.0.0.1:8080 OUT_DIR
//
// 1. A whole game against a bot, by clicks, from the new-game form to the final scoring screen.
// 2. Games with every module, by clicks, until each kind of decision has been answered through the table.
// 3. Two people in two browser contexts: neither page ever shows the other's triangles.
// 6. A game whose last action is the person's own, its socket slow: the final scores still add up, and stay at hand.
// Every page must log no console error. On every move, every spot of the decision showing must be its own (none on
// another, each reached by a click at its centre), and a finished game's final scores must add up to the scores shown.
// Screenshots go to OUT_DIR. Exits 1 on any failure.

import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";

const [base, out = "target/browser"] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const failures = [];
const report = {};

// The name each page reports its failures under.
const names = new WeakMap();

function watch(page, name) {
  names.set(page, name);
  page.setDefaultTimeout(3000);
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    // A 409 is the server saying another action came first (a bot answered while a click was on its way): the
    // table takes the new view. Chromium logs that answer as an error; it is not one of the page's.
    if (/status of 409/.test(m.text())) { report.conflicts = (report.conflicts || 0) + 1; return; }
    failures.push(`${name}: console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => failures.push(`${name}: page error: ${e.message}`));
}

async function api(path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(`${base}${path}`, { method: body ? "POST" : "GET", headers, body: body ? JSON.stringify(body) : undefined });
  return r.json();
}

// Every spot of the decision showing (the marks on the board: a figure's spots, the barn's corners, the dragon's
// steps…) must be its own, at the current zoom: no two overlap (their centres at least the sum of their radii
// apart), and the element at each one's centre is that spot, so that a click there chooses it. One call is one
// evaluation in the page; the first few failures of each page are kept, with a screenshot of the first.
const spotFailures = new Map();
async function checkSpots(page, when = "") {
  const found = await page.evaluate(() => {
    const out = [];
    const spots = [...document.querySelectorAll("svg.board .mark")].map((g) => {
      const r = (g.querySelector(".ring") || g).getBoundingClientRect();
      return { g, x: r.left + r.width / 2, y: r.top + r.height / 2, r: Math.max(r.width, r.height) / 2, label: g.getAttribute("aria-label") };
    });
    const name = (e) => !e ? "nothing" : `${e.tagName.toLowerCase()}${e.className?.baseVal ?? e.className ? `.${String(e.className?.baseVal ?? e.className).trim().replace(/\s+/g, ".")}` : ""}${e.closest?.(".mark") ? ` of "${e.closest(".mark").getAttribute("aria-label")}"` : ""}`;
    for (let i = 0; i < spots.length; i++) {
      const a = spots[i];
      for (let j = i + 1; j < spots.length; j++) {
        const b = spots[j];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (d + 0.5 < a.r + b.r) out.push(`"${a.label}" and "${b.label}" overlap: centres ${d.toFixed(1)} px apart, radii ${a.r.toFixed(1)} and ${b.r.toFixed(1)} px`);
      }
      const e = document.elementFromPoint(a.x, a.y);
      if (!e || !(e === a.g || a.g.contains(e))) out.push(`"${a.label}" cannot be clicked: at its centre (${a.x.toFixed(0)}, ${a.y.toFixed(0)}) is ${name(e)}`);
    }
    return { spots: spots.length, out };
  });
  report.spots_checked = (report.spots_checked || 0) + found.spots;
  if (!found.out.length) return true;
  const name = names.get(page) || "page";
  const kept = spotFailures.get(name) || [];
  if (!kept.length) {
    const file = `${out}/spots-${name.replace(/\W+/g, "-")}.png`;
    await page.screenshot({ path: file });
    found.out.push(`(screenshot ${file})`);
  }
  if (kept.length < 6) kept.push(...found.out.slice(0, 6 - kept.length).map((f) => `${when}${f}`));
  spotFailures.set(name, kept);
  return false;
}

// The final scores dialog: each player's points by kind add up to the total in the dialog, which is the score shown
// in the score bar; the same points come out of the game's events (GET /events); after closing it, a button brings
// it back, and the replay is a click away.
async function checkFinal(page, name) {
  const id = page.url().split("/").pop();
  try {
    await page.waitForSelector("dialog.final[open] table.final-split tbody tr");
  } catch {
    failures.push(`${name}: no final scores table`);
    return;
  }
  await page.waitForTimeout(300);
  const seen = await page.evaluate(() => {
    const rows = [...document.querySelectorAll("dialog.final[open] table.final-split tbody tr")].map((tr) => {
      const cells = [...tr.querySelectorAll("td")].map((td) => td.textContent.trim());
      return { name: cells[0], parts: cells.slice(1, -1).map(Number), total: Number(cells[cells.length - 1]) };
    });
    const heads = [...document.querySelectorAll("dialog.final[open] table.final-split thead th")].slice(1, -1).map((th) => th.textContent.trim());
    const bar = [...document.querySelectorAll(".scores .player")].map((p) => ({
      name: p.querySelector(".pname")?.childNodes[0]?.textContent.trim(), score: Number(p.querySelector(".pscore")?.textContent),
    }));
    return { rows, heads, bar };
  });
  const view = await api(`/api/games/${id}`);
  const events = (await api(`/api/games/${id}/events`)).events;
  const fromEvents = new Map(view.game.players.map((p) => [p.player, 0]));
  for (const e of events) {
    if (e.type === "scored" && e.points) for (const w of e.winners || []) fromEvents.set(w, fromEvents.get(w) + e.points);
    if (e.type === "fairy_points") fromEvents.set(e.player, fromEvents.get(e.player) + e.points);
  }
  const checked = [];
  for (const [i, p] of view.game.players.entries()) {
    const who = view.seats[i].name;
    const row = seen.rows.find((r) => r.name === who);
    const shown = seen.bar.find((b) => b.name === who);
    if (!row) { failures.push(`${name}: final scores: no row for ${who}`); continue; }
    const sum = row.parts.reduce((a, b) => a + b, 0);
    if (sum !== row.total) failures.push(`${name}: final scores: ${who}'s ${seen.heads.map((k, j) => `${k} ${row.parts[j]}`).join(" + ")} = ${sum}, not the ${row.total} shown`);
    if (!shown || shown.score !== row.total) failures.push(`${name}: final scores: ${who} has ${row.total} in the dialog, ${shown?.score} in the score bar`);
    if (p.score !== row.total) failures.push(`${name}: final scores: ${who} has ${row.total} in the dialog, ${p.score} in the game`);
    if (fromEvents.get(p.player) !== p.score) failures.push(`${name}: the events give ${who} ${fromEvents.get(p.player)} points, the game ${p.score}`);
    checked.push(`${who} ${row.parts.join("+")}=${row.total}`);
  }
  // Closed, the final scores stay a click away, and so does the replay.
  await page.keyboard.press("Escape");
  await page.waitForTimeout(100);
  if (await page.locator("dialog.final[open]").count()) failures.push(`${name}: the final scores dialog does not close`);
  const again = page.getByRole("button", { name: "Final scores" });
  if (!await again.count()) failures.push(`${name}: after closing the final scores, no button brings them back`);
  else {
    await again.first().click();
    if (!await page.locator("dialog.final[open]").count()) failures.push(`${name}: "Final scores" does not open them again`);
    await page.keyboard.press("Escape");
  }
  if (!await page.getByRole("button", { name: "Replay" }).or(page.getByRole("link", { name: "Replay" })).count()) failures.push(`${name}: after closing the final scores, no way to the replay`);
  (report.final_scores ||= {})[name] = checked.join(", ");
}

// The kind of decision an action answers, as the table sent it.
function kindOf(action, triangles) {
  const w = action.split(" ");
  switch (w[0]) {
    case "place": return w[1].endsWith("/abbey") ? "abbey" : triangles.has(w[1]) ? "triangle" : "tile";
    case "wagon": return w.length === 2 ? "wagon" : "wagon move";
    case "pass": return "pass";
    default: return w[0];
  }
}

// Make one move through the table's controls, preferring a kind of control not used yet. Returns false when there
// was nothing to do.
async function move(page, used, prefer = true) {
  const controls = [];
  const add = async (sel, kind) => { const n = await page.locator(sel).count(); for (let i = 0; i < n; i++) controls.push({ sel, i, kind }); };
  if (await page.getByRole("button", { name: /Confirm turn/ }).count()) {
    await page.getByRole("button", { name: /Confirm turn/ }).click();
    return true;
  }
  await checkSpots(page);
  await add(".space-mark", "place");
  for (const k of ["deploy", "barn", "portal", "fairy", "princess", "wagon-move", "crop-add", "crop-remove", "dragon"]) await add(`.mark-${k}`, k);
  await add(".figures button", "figure");
  await add("[data-choice]", "choice");
  await add(".picks .tile-button", "pick");
  await add("button[data-action=pass]", "pass");
  if (!controls.length) return false;
  const fresh = controls.filter((c) => !used.has(c.kind) && c.kind !== "figure");
  const pool = prefer && fresh.length && Math.random() < 0.9 ? fresh : controls.filter((c) => c.kind !== "pass" || controls.length === 1 || Math.random() < 0.3);
  const c = pool[Math.floor(Math.random() * pool.length)] || controls[0];
  await page.locator(c.sel).nth(c.i).click();
  if (c.kind === "place") {
    // Sometimes turn the tile first (only legal orientations are offered), then place it.
    const right = page.getByRole("button", { name: "Rotate right" });
    if (Math.random() < 0.5 && await right.isEnabled()) await right.click();
    await page.getByRole("button", { name: "Place" }).click();
  }
  if (c.kind !== "figure") used.add(c.kind);
  return true;
}

// Create a game through the form: a person against a bot, with the sets given and rule options set by key.
async function createByForm(page, sets, options = {}) {
  await page.goto(`${base}/`, { waitUntil: "networkidle" });
  await page.getByRole("link", { name: "New game" }).click();
  await page.waitForSelector(".seat-row");
  await page.locator(".seat-row").nth(1).getByLabel("Level").selectOption("greedy");
  for (const s of sets) { await page.getByLabel(s).click(); await page.waitForTimeout(50); }
  if (Object.keys(options).length) await page.locator("details.options summary").click();
  for (const [key, value] of Object.entries(options)) await page.locator(".option", { hasText: key }).locator("select").selectOption(value);
  await page.getByRole("button", { name: "Create the game" }).click();
  await page.getByRole("button", { name: /Play here/ }).click();
  await page.waitForSelector("svg.board");
}

async function playToTheEnd(page, name, limitSeconds, onMove) {
  const used = new Set();
  const t0 = Date.now();
  let moves = 0;
  while ((Date.now() - t0) / 1000 < limitSeconds) {
    if (await page.locator("dialog.final[open]").count()) return { moves, seconds: (Date.now() - t0) / 1000, finished: true };
    let moved = false;
    try { moved = await move(page, used); } catch { moved = false; }
    if (!moved) { await page.waitForTimeout(80); continue; }
    moves++;
    if (onMove) await onMove(moves);
    await page.waitForTimeout(40);
  }
  return { moves, seconds: (Date.now() - t0) / 1000, finished: false };
}

// 1. A whole base game against a bot.
{
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  watch(page, "base game");
  await createByForm(page, []);
  await page.screenshot({ path: `${out}/1-start.png` });
  const r = await playToTheEnd(page, "base game", 240, async (n) => { if (n === 40) await page.screenshot({ path: `${out}/1-middle.png` }); });
  await page.screenshot({ path: `${out}/1-final.png` });
  report.base = r;
  if (!r.finished) failures.push(`base game: no final scoring screen after ${r.moves} moves`);
  else await checkFinal(page, "base game");
  await page.close();
}

// 2. Every module, until every kind of decision was answered through the table.
{
  const want = ["tile", "triangle", "abbey", "pick", "meeple", "mayor", "wagon", "barn", "portal", "fairy", "dragon", "crop", "pass"];
  const seen = new Set();
  const games = [];
  for (let game = 0; game < 5 && want.some((k) => !seen.has(k)); game++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    watch(page, `every module ${game + 1}`);
    let triangles = new Set();
    page.on("request", (req) => {
      if (req.method() === "POST" && req.url().endsWith("/actions")) {
        try { seen.add(kindOf(JSON.parse(req.postData()).action, triangles)); } catch { /* not ours */ }
      }
    });
    await createByForm(page, ["Abbey & Mayor", "Princess & Dragon", "Crop Circles", "Halflings"],
      game % 2 === 0 ? { "halflings.setup": "draft" } : {});
    const id = page.url().split("/").pop();
    const tiles = await api(`/api/games/${id}/tiles`);
    triangles = new Set(tiles.tiles.filter((t) => t.shape === "triangle").map((t) => t.id));
    const r = await playToTheEnd(page, "every module", 150, async (n) => {
      if (n % 60 === 0) await page.screenshot({ path: `${out}/2-game${game + 1}-${n}.png` });
      // Now and then, zoomed out (the spots keep a size that can be clicked, and stay apart), then back.
      if (n % 15 === 0 && await page.locator("svg.board .mark").count()) {
        for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "−" }).click();
        await checkSpots(page, "zoomed out: ");
        if (n % 60 === 0) await page.screenshot({ path: `${out}/2-game${game + 1}-${n}-zoomed-out.png` });
        await page.getByRole("button", { name: "fit" }).click();
      }
    });
    await page.screenshot({ path: `${out}/2-game${game + 1}-end.png` });
    games.push(r);
    if (r.finished) await checkFinal(page, `every module ${game + 1}`);
    await page.close();
  }
  report.every_module = { games, answered: [...seen].sort() };
  const missing = want.filter((k) => !seen.has(k));
  if (missing.length) failures.push(`every module: never answered through the table: ${missing.join(", ")}`);
}

// 4. The princess, which random play reaches only now and then: a game imported (`carc import princess.json`) at
// the moment a princess tile was added to a city with knights; the person sends one home by clicking it.
if (process.env.PRINCESS_INVITE) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  watch(page, "princess");
  let sent = null;
  page.on("request", (req) => { if (req.method() === "POST" && req.url().endsWith("/actions")) sent = JSON.parse(req.postData()).action; });
  await page.goto(`${base}${process.env.PRINCESS_INVITE}`, { waitUntil: "networkidle" });
  await page.waitForSelector(".mark-princess");
  await page.screenshot({ path: `${out}/4-princess.png` });
  await page.locator(".mark-princess").first().click();
  await page.waitForTimeout(300);
  report.princess = sent;
  if (!sent || !sent.startsWith("princess ")) failures.push(`princess: the table sent ${sent}`);
  await page.close();
} else {
  failures.push("princess: PRINCESS_INVITE is not set (crates/cli/tests/browser.rs imports the game)");
}

// 5. Hot seat: two people in one browser, from the new-game form to the end. The seat to decide gets its controls
// at once, whichever seat that is and whatever other tokens the browser holds; nobody else ever moves.
{
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  watch(page, "hot seat");
  await page.goto(`${base}/new`, { waitUntil: "networkidle" });
  await page.waitForSelector(".seat-row");
  await page.locator(".seat-row").nth(1).getByLabel("Seat 2").selectOption("person");
  await page.locator(".seat-row").nth(0).getByLabel("Name").fill("Ana");
  await page.locator(".seat-row").nth(1).getByLabel("Name").fill("Bo");
  await page.getByRole("button", { name: "Create the game" }).click();
  await page.getByRole("button", { name: /Play here/ }).click();
  await page.waitForSelector("svg.board");
  // Ana's controls are there without anyone else doing anything (and without a reload).
  let stalled = null;
  try { await page.waitForSelector(".space-mark", { timeout: 3000 }); } catch { stalled = await page.locator(".decision").innerText(); }
  if (stalled !== null) failures.push(`hot seat: the first seat has no controls: "${stalled}"`);
  await page.screenshot({ path: `${out}/5-hot-seat-start.png` });
  // Both seats play by clicks to the end; whenever the page shows no control for a while, that is the defect.
  const used = new Set();
  const t0 = Date.now();
  let moves = 0;
  let idleSince = Date.now();
  let finished = false;
  const seatsSeen = new Set();
  while ((Date.now() - t0) / 1000 < 300) {
    if (await page.locator("dialog.final[open]").count()) { finished = true; break; }
    let moved = false;
    try { moved = await move(page, used); } catch { moved = false; }
    if (moved) {
      moves++;
      idleSince = Date.now();
      const seat = await page.evaluate(() => document.querySelector(".decision")?.getAttribute("data-seat"));
      if (seat) seatsSeen.add(seat);
      if (moves === 30) await page.screenshot({ path: `${out}/5-hot-seat-middle.png` });
      await page.waitForTimeout(40);
      continue;
    }
    if (Date.now() - idleSince > 5000) {
      failures.push(`hot seat: no control for 5 s after ${moves} moves: "${await page.locator(".decision").innerText()}"`);
      await page.screenshot({ path: `${out}/5-hot-seat-stalled.png` });
      break;
    }
    await page.waitForTimeout(80);
  }
  await page.screenshot({ path: `${out}/5-hot-seat-final.png` });
  report.hot_seat = { moves, seconds: (Date.now() - t0) / 1000, finished, seats: [...seatsSeen].sort() };
  if (finished) await checkFinal(page, "hot seat");
  if (!finished && !failures.some((f) => f.startsWith("hot seat"))) failures.push(`hot seat: not finished after ${moves} moves`);
  if (seatsSeen.size && seatsSeen.size < 2) failures.push(`hot seat: only ${[...seatsSeen]} had controls`);
  await page.close();
}

// 3. Two people, two browsers: each page shows its own triangles only.
{
  const created = await api("/api/games", { seats: [{ name: "Ana" }, { name: "Bo" }], sets: ["base", "half"] });
  const seats = created.seats;
  const pages = [];
  for (const s of seats) {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const page = await ctx.newPage();
    watch(page, `seat ${s.seat}`);
    await page.goto(`${base}${s.invite}`, { waitUntil: "networkidle" });
    await page.waitForSelector("svg.board");
    pages.push(page);
  }
  const tiles = await api(`/api/games/${created.id}/tiles`);
  const triangles = new Set(tiles.tiles.filter((t) => t.shape === "triangle").map((t) => t.id));
  const used = [new Set(), new Set()];
  let checks = 0;
  for (let step = 0; step < 120; step++) {
    for (let i = 0; i < 2; i++) {
      const view = await api(`/api/games/${created.id}`, undefined, seats[i].token);
      const mine = new Set(view.game.players[i].hand || []);
      const other = new Set((await api(`/api/games/${created.id}`, undefined, seats[1 - i].token)).game.players[1 - i].hand || []);
      const onBoard = new Set(view.game.board.map((b) => b.tile));
      const shown = await pages[i].locator("aside [data-tile]").evaluateAll((els) => els.map((e) => e.getAttribute("data-tile")));
      for (const id of shown) {
        if (triangles.has(id) && !mine.has(id) && !onBoard.has(id)) failures.push(`seat ${seats[i].seat} shows ${id}, which is not theirs`);
        if (other.has(id) && !mine.has(id)) failures.push(`seat ${seats[i].seat} shows ${seats[1 - i].seat}'s triangle ${id}`);
      }
      checks++;
    }
    // Whoever has something to do does it (the other page finds nothing to click).
    for (let i = 0; i < 2; i++) {
      try { if (await move(pages[i], used[i], false)) await pages[i].waitForTimeout(60); } catch { /* the page was updating */ }
    }
  }
  await pages[0].screenshot({ path: `${out}/3-seat-P1.png` });
  await pages[1].screenshot({ path: `${out}/3-seat-P2.png` });
  report.two_seats = { checks };
}

// 6. The last action is the person's own, and the socket's news comes late (after the action's own answer): the
// final scores are still the game's, by kind and in all. Two people; the server's API plays the game up to its last
// tile, the person whose tile it is plays it at the table.
{
  const created = await api("/api/games", { seats: [{ name: "Ana", auto_confirm: true }, { name: "Bo", auto_confirm: true }], sets: ["base"] });
  const id = created.id;
  let view = null;
  for (let step = 0; step < 400; step++) {
    const views = await Promise.all(created.seats.map((s) => api(`/api/games/${id}`, undefined, s.token)));
    view = views.find((v) => v.game.actions.length);
    if (!view || view.status !== "running") break;
    if (view.game.stack === 0 && view.game.pending.kind === "place_tile") break;
    await api(`/api/games/${id}/actions`, { action: view.game.actions[0].text, version: view.version },
      created.seats.find((s) => s.seat === view.seat).token);
  }
  if (!view || view.game.pending.kind !== "place_tile" || view.game.stack !== 0) {
    failures.push(`last action: the API did not bring the game to its last tile (${view?.status}, ${view?.game.stack} left)`);
  } else {
    const seat = created.seats.find((s) => s.seat === view.seat);
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const page = await ctx.newPage();
    watch(page, "last action");
    // Every message from the server's socket reaches the page 600 ms late.
    let late = 0;
    await page.routeWebSocket(/\/ws$/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((m) => { late++; setTimeout(() => ws.send(m), 600); });
      ws.onMessage((m) => server.send(m));
    });
    await page.goto(`${base}${seat.invite}`, { waitUntil: "networkidle" });
    await page.waitForSelector(".space-mark");
    const r = await playToTheEnd(page, "last action", 30);
    await page.screenshot({ path: `${out}/6-last-action.png` });
    report.last_action = { ...r, late_messages: late };
    if (!r.finished) failures.push(`last action: no final scores after ${r.moves} moves`);
    else {
      await checkFinal(page, "last action");
      await page.screenshot({ path: `${out}/6-last-action-closed.png` });
    }
    await ctx.close();
  }
}

for (const [name, kept] of spotFailures) for (const f of kept) failures.push(`${name}: spots: ${f}`);

await browser.close();
console.log(JSON.stringify({ report, failures }, null, 1));
for (const f of failures) console.error(`FAILED: ${f}`);
process.exit(failures.length ? 1 : 0);
