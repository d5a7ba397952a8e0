// The table in a real browser: headless Chromium driven by playwright-core, against a running `carc serve`.
//
//   node table.mjs http://127.0.0.1:8080 OUT_DIR
//
// 1. A whole game against a bot, by clicks, from the new-game form to the final scoring screen.
// 2. Games with every module, by clicks, until each kind of decision has been answered through the table.
// 3. Two people in two browser contexts: neither page ever shows the other's triangles.
// 6. A game whose last action is the person's own, its socket slow: the final scores still add up, and stay at hand.
// 7. The small defects of issue 22 (item 6), each a check of its own.
// 8. A tab in the background says when it is the person's turn (issue 22, item 9).
// 9. The table by keyboard alone, and seats told apart by more than colour (issue 22, item 15).
// 10. The landing page's two ways to start (issue 22, item 13).
// 11. Plain language: rule options, the legal actions, the hint and the log in words (issue 22, item 7); the replay
// viewer's log at each step and its autoplay (item 11, with the small ones).
// 12. Motion: tiles coming into place, scorings floating their points, and none with reduced motion (item 8).
// In 1, the points in view (issue 22, item 10): by kind, with what the game's end now would add.
// Every page must log no console error. On every move, every spot of the decision showing must be its own (none on
// another, each reached by a click at its centre; zoomed out, a crowd that cannot each have a place near its point
// is one spot, whose list offers each of them), and a finished game's final scores must add up to the scores shown.
// Screenshots go to OUT_DIR. Exits 1 on any failure.

import { mkdirSync } from "node:fs";
import { chromium } from "playwright-core";

const [base, out = "target/browser"] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
const browser = await chromium.launch({
  executablePath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const failures = [];
const report = {};
// TABLE_ONLY=small,a11y runs only the parts named (while working on them); by default, every part runs.
const only = process.env.TABLE_ONLY ? new Set(process.env.TABLE_ONLY.split(",")) : null;
const runs = (part) => !only || only.has(part);

// The name each page reports its failures under.
const names = new WeakMap();

function watch(page, name) {
  names.set(page, name);
  page.setDefaultTimeout(3000);
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    // A 409 is the server saying another action came first (a bot answered while a click was on its way): the
    // table takes the new view. Chromium logs that answer as an error; it is not one of the page's.
    if (/status of 409/.test(m.text())) {
      report.conflicts = (report.conflicts || 0) + 1;
      return;
    }
    failures.push(`${name}: console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => failures.push(`${name}: page error: ${e.message}`));
  // What the server refused as illegal (a 422, which Chromium logs as a console error with no more to say).
  page.on("response", async (r) => {
    if (r.status() !== 422) return;
    const body = await r.text().catch(() => "");
    failures.push(`${name}: the server refused ${r.request().postData()} (${new URL(r.url()).pathname}): ${body}`);
  });
}

async function api(path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(`${base}${path}`, {
    method: body ? "POST" : "GET",
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
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
      return {
        g,
        x: r.left + r.width / 2,
        y: r.top + r.height / 2,
        r: Math.max(r.width, r.height) / 2,
        label: g.getAttribute("aria-label"),
      };
    });
    const name = (e) =>
      !e
        ? "nothing"
        : `${e.tagName.toLowerCase()}${
            (e.className?.baseVal ?? e.className)
              ? `.${String(e.className?.baseVal ?? e.className)
                  .trim()
                  .replace(/\s+/g, ".")}`
              : ""
          }${e.closest?.(".mark") ? ` of "${e.closest(".mark").getAttribute("aria-label")}"` : ""}`;
    for (let i = 0; i < spots.length; i++) {
      const a = spots[i];
      for (let j = i + 1; j < spots.length; j++) {
        const b = spots[j];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (d + 0.5 < a.r + b.r)
          out.push(
            `"${a.label}" and "${b.label}" overlap: centres ${d.toFixed(1)} px apart, radii ${a.r.toFixed(1)} and ${b.r.toFixed(1)} px`,
          );
      }
      const e = document.elementFromPoint(a.x, a.y);
      if (!e || !(e === a.g || a.g.contains(e)))
        out.push(`"${a.label}" cannot be clicked: at its centre (${a.x.toFixed(0)}, ${a.y.toFixed(0)}) is ${name(e)}`);
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

// Zoomed out, spots that cannot each have a place near their point are one spot for the crowd: a click on it lists
// them (as many as it says), Esc closes the list and gives the focus back to it. The first crowd of each page is
// photographed with its list open. A crowd gone meanwhile (the view changed: an action was on its way) is no
// failure.
async function checkCrowd(page, when) {
  const crowd = page.locator("svg.board .mark-crowd");
  const n = await crowd.count();
  if (!n) return;
  const name = names.get(page) || "page";
  report.crowds = (report.crowds || 0) + n;
  const first = await crowd
    .first()
    .elementHandle({ timeout: 500 })
    .catch(() => null);
  if (!first) return;
  const gone = () => first.evaluate((g) => !g.isConnected);
  try {
    const says = Number(await first.evaluate((g) => g.querySelector(".spot-tag")?.textContent));
    await first.click({ timeout: 1000 });
    const options = page.locator(".spot-chooser button");
    await options
      .first()
      .waitFor({ timeout: 1000 })
      .catch(() => {});
    const listed = await options.count();
    if (await gone()) return;
    if (!listed) {
      failures.push(`${name}: a click on a crowd of ${says} spots (${when}) opens no list`);
      return;
    }
    if (listed !== says) failures.push(`${name}: a crowd of ${says} spots (${when}) lists ${listed}`);
    report.crowd_lists ||= {};
    if (!report.crowd_lists[name]) {
      report.crowd_lists[name] = await options.allTextContents();
      await page.screenshot({ path: `${out}/2-crowd-${name.replace(/\W+/g, "-")}.png` });
    }
    await page.keyboard.press("Escape");
    if (await gone()) return;
    if (await page.locator(".spot-chooser").count())
      failures.push(`${name}: Esc does not close the list of a crowd of spots (${when})`);
    else if (!(await first.evaluate((g) => g === document.activeElement)))
      failures.push(`${name}: after Esc, the focus is not on the crowd of spots (${when})`);
  } catch (e) {
    if (!(await gone().catch(() => true)))
      failures.push(`${name}: a crowd of spots (${when}): ${String(e.message).split("\n")[0]}`);
  } finally {
    await first.dispose();
  }
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
  // The score bar counts up to a new score (700 ms; longer on a busy machine): read it once it has stopped.
  await page
    .waitForFunction(() => !document.querySelector(".pscore.counting"), null, { timeout: 10000 })
    .catch(() => failures.push(`${name}: the score bar is still counting 10 s after the final scores`));
  await page.waitForTimeout(100);
  const seen = await page.evaluate(() => {
    const rows = [...document.querySelectorAll("dialog.final[open] table.final-split tbody tr")].map((tr) => {
      // A cell's text without the seat's number on its colour.
      const text = (td) => {
        const c = td.cloneNode(true);
        for (const x of c.querySelectorAll(".swatch")) x.remove();
        return c.textContent.trim();
      };
      const cells = [...tr.querySelectorAll("td")].map(text);
      return { name: cells[0], parts: cells.slice(1, -1).map(Number), total: Number(cells[cells.length - 1]) };
    });
    const heads = [...document.querySelectorAll("dialog.final[open] table.final-split thead th")]
      .slice(1, -1)
      .map((th) => th.textContent.trim());
    const bar = [...document.querySelectorAll(".scores .player")].map((p) => ({
      name: p.querySelector(".pname")?.childNodes[0]?.textContent.trim(),
      score: Number(p.querySelector(".pscore")?.textContent),
    }));
    return { rows, heads, bar };
  });
  const view = await api(`/api/games/${id}`);
  const events = (await api(`/api/games/${id}/events`)).events;
  const fromEvents = new Map(view.game.players.map((p) => [p.player, 0]));
  for (const e of events) {
    if (e.type === "scored" && e.points)
      for (const w of e.winners || []) fromEvents.set(w, fromEvents.get(w) + e.points);
    if (e.type === "fairy_points") fromEvents.set(e.player, fromEvents.get(e.player) + e.points);
  }
  const checked = [];
  for (const [i, p] of view.game.players.entries()) {
    const who = view.seats[i].name;
    const row = seen.rows.find((r) => r.name === who);
    const shown = seen.bar.find((b) => b.name === who);
    if (!row) {
      failures.push(`${name}: final scores: no row for ${who}`);
      continue;
    }
    const sum = row.parts.reduce((a, b) => a + b, 0);
    if (sum !== row.total)
      failures.push(
        `${name}: final scores: ${who}'s ${seen.heads.map((k, j) => `${k} ${row.parts[j]}`).join(" + ")} = ${sum}, not the ${row.total} shown`,
      );
    if (!shown || shown.score !== row.total)
      failures.push(`${name}: final scores: ${who} has ${row.total} in the dialog, ${shown?.score} in the score bar`);
    if (p.score !== row.total)
      failures.push(`${name}: final scores: ${who} has ${row.total} in the dialog, ${p.score} in the game`);
    if (fromEvents.get(p.player) !== p.score)
      failures.push(`${name}: the events give ${who} ${fromEvents.get(p.player)} points, the game ${p.score}`);
    checked.push(`${who} ${row.parts.join("+")}=${row.total}`);
  }
  // Closed, the final scores stay a click away, and so does the replay.
  await page.keyboard.press("Escape");
  await page.waitForTimeout(100);
  if (await page.locator("dialog.final[open]").count())
    failures.push(`${name}: the final scores dialog does not close`);
  const again = page.getByRole("button", { name: "Final scores" });
  if (!(await again.count())) failures.push(`${name}: after closing the final scores, no button brings them back`);
  else {
    await again.first().click();
    if (!(await page.locator("dialog.final[open]").count()))
      failures.push(`${name}: "Final scores" does not open them again`);
    await page.keyboard.press("Escape");
  }
  if (
    !(await page
      .getByRole("button", { name: "Replay" })
      .or(page.getByRole("link", { name: "Replay" }))
      .count())
  )
    failures.push(`${name}: after closing the final scores, no way to the replay`);
  report.final_scores ||= {};
  report.final_scores[name] = checked.join(", ");
}

// The points in view during a game (issue 22, item 10): a bar per seat; each seat's points so far by kind add up to
// its score in the score bar; the column "If the game ended now" is the server's (the engine's final scoring of the
// board as it stands) and never below the score. The page and the server may be a move apart (a bot is playing):
// a few tries. Returns whether the ending adds points to someone (it should, some time in a game).
async function checkPoints(page, name) {
  const id = page.url().split("/").pop();
  let last = "";
  for (let i = 0; i < 8; i++) {
    const seen = await page.evaluate(() => {
      const text = (td) => {
        const c = td.cloneNode(true);
        for (const x of c.querySelectorAll(".swatch, .plus")) x.remove();
        return c.textContent.trim();
      };
      const rows = [...document.querySelectorAll(".points-box table.point-split tbody tr")].map((tr) => {
        const cells = [...tr.querySelectorAll("td")];
        const end = tr.querySelector("td.if-ended");
        const parts = cells.slice(1, end ? -2 : -1).map((td) => Number(text(td)));
        return {
          player: tr.dataset.player,
          parts,
          now: Number(text(cells[cells.length - (end ? 2 : 1)])),
          ifEnded: end ? Number(text(end)) : null,
        };
      });
      const bars = [...document.querySelectorAll(".points-box .point-bar")].map((b) => b.getAttribute("aria-label"));
      const bar = [...document.querySelectorAll(".scores .player")].map((p) =>
        Number(p.querySelector(".pscore")?.textContent),
      );
      return { rows, bars, bar };
    });
    const view = await api(`/api/games/${id}`);
    const want = view.if_ended?.scores;
    const problems = [];
    if (seen.rows.length !== view.seats.length)
      problems.push(`${seen.rows.length} rows for ${view.seats.length} seats`);
    if (seen.bars.length !== view.seats.length || seen.bars.some((b) => !/\d/.test(b || "")))
      problems.push(`bars ${JSON.stringify(seen.bars)}`);
    seen.rows.forEach((r, k) => {
      const sum = r.parts.reduce((a, b) => a + b, 0);
      if (sum !== r.now) problems.push(`${r.player}: parts ${r.parts} add up to ${sum}, not ${r.now}`);
      if (r.now !== seen.bar[k]) problems.push(`${r.player}: ${r.now} against ${seen.bar[k]} in the score bar`);
      if (!want) problems.push("the server sent no ending");
      else if (r.ifEnded !== want[k]) problems.push(`${r.player}: if ended ${r.ifEnded}, the server says ${want[k]}`);
      if (r.ifEnded !== null && r.ifEnded < r.now) problems.push(`${r.player}: if ended ${r.ifEnded} < ${r.now}`);
    });
    if (!problems.length) return seen.rows.some((r) => r.ifEnded > r.now);
    last = problems.join("; ");
    await page.waitForTimeout(250);
  }
  failures.push(`${name}: points in view: ${last}`);
  return false;
}

// The kind of decision an action answers, as the table sent it.
function kindOf(action, triangles) {
  const w = action.split(" ");
  switch (w[0]) {
    case "place":
      return w[1].endsWith("/abbey") ? "abbey" : triangles.has(w[1]) ? "triangle" : "tile";
    case "wagon":
      return w.length === 2 ? "wagon" : "wagon move";
    case "pass":
      return "pass";
    default:
      return w[0];
  }
}

// Make one move through the table's controls, preferring a kind of control not used yet. Returns false when there
// was nothing to do.
async function move(page, used, prefer = true) {
  const controls = [];
  const add = async (sel, kind) => {
    const n = await page.locator(sel).count();
    for (let i = 0; i < n; i++) controls.push({ sel, i, kind });
  };
  const confirm = page.getByRole("button", { name: /Confirm turn/ });
  if (await confirm.count()) {
    await confirm.click();
    // As a person would: the next move once the confirmation has been answered (the button gone), not on the
    // button of the position before.
    await confirm.waitFor({ state: "detached", timeout: 5000 }).catch(() => {});
    return true;
  }
  await checkSpots(page);
  await add(".space-mark", "place");
  for (const k of ["deploy", "barn", "portal", "fairy", "princess", "wagon-move", "crop-add", "crop-remove", "dragon"])
    await add(`.mark-${k}`, k);
  await add(".mark-crowd", "crowd");
  await add(".figures button", "figure");
  await add("[data-choice]", "choice");
  await add(".picks .tile-button", "pick");
  await add("button[data-action=pass]", "pass");
  if (!controls.length) return false;
  const fresh = controls.filter((c) => !used.has(c.kind) && c.kind !== "figure");
  const pool =
    prefer && fresh.length && Math.random() < 0.9
      ? fresh
      : controls.filter((c) => c.kind !== "pass" || controls.length === 1 || Math.random() < 0.3);
  const c = pool[Math.floor(Math.random() * pool.length)] || controls[0];
  await page.locator(c.sel).nth(c.i).click();
  if (c.kind === "crowd") {
    // A crowd of spots as one: its list offers each of them.
    const options = page.locator(".spot-chooser button");
    await options.first().waitFor();
    await options.nth(Math.floor(Math.random() * (await options.count()))).click();
  }
  if (c.kind === "place") {
    // Sometimes turn the tile first (only legal orientations are offered), then place it.
    const right = page.getByRole("button", { name: "Rotate right" });
    if (Math.random() < 0.5 && (await right.isEnabled())) await right.click();
    await page.getByRole("button", { name: "Place", exact: true }).click();
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
  for (const s of sets) {
    await page.getByLabel(s).click();
    await page.waitForTimeout(50);
  }
  if (Object.keys(options).length) await page.locator("details.options summary").click();
  for (const [key, value] of Object.entries(options))
    await page.locator(`.option[data-key="${key}"]`).locator("select").selectOption(value);
  await page.getByRole("button", { name: "Create the game" }).click();
  await page.getByRole("button", { name: /Play here/ }).click();
  await page.waitForSelector("svg.board");
}

async function playToTheEnd(page, _name, limitSeconds, onMove) {
  const used = new Set();
  const t0 = Date.now();
  let moves = 0;
  while ((Date.now() - t0) / 1000 < limitSeconds) {
    if (await page.locator("dialog.final[open]").count())
      return { moves, seconds: (Date.now() - t0) / 1000, finished: true };
    let moved = false;
    try {
      moved = await move(page, used);
    } catch {
      moved = false;
    }
    if (!moved) {
      await page.waitForTimeout(80);
      continue;
    }
    moves++;
    if (onMove) await onMove(moves);
    await page.waitForTimeout(40);
  }
  return { moves, seconds: (Date.now() - t0) / 1000, finished: false };
}

// The characters in the page's buttons that its fonts cannot draw (an empty box instead): each is drawn on a canvas
// in its button's font and compared with a character no font has (U+10FFFD).
async function missingGlyphs(page) {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 64;
    canvas.height = 64;
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    const draw = (c, font) => {
      ctx.clearRect(0, 0, 64, 64);
      ctx.font = font;
      ctx.textBaseline = "middle";
      ctx.fillText(c, 8, 32);
      return ctx.getImageData(0, 0, 64, 64).data.join(",");
    };
    const out = new Set();
    for (const b of document.querySelectorAll("button, [role=button]")) {
      const style = getComputedStyle(b);
      const font = `${style.fontSize} ${style.fontFamily}`;
      const none = draw("\u{10FFFD}", font);
      for (const c of new Set([...b.textContent].filter((c) => c.trim() && c.codePointAt(0) > 0x7f))) {
        if (draw(c, font) === none)
          out.add(
            `${c} (U+${c.codePointAt(0).toString(16).toUpperCase()}) in "${(b.getAttribute("aria-label") || b.textContent).trim()}"`,
          );
      }
    }
    return [...out];
  });
}

// Every GET of a game's view (`/api/games/{id}`, not its tiles, events or record) a page makes, counted.
function countViews(page) {
  const seen = { n: 0 };
  page.on("request", (req) => {
    if (req.method() === "GET" && /\/api\/games\/[0-9a-f]{16}$/.test(new URL(req.url()).pathname)) seen.n++;
  });
  return seen;
}

// A part of the test that must not stop the others: what it throws is one failure.
async function guarded(name, f) {
  try {
    await f();
  } catch (e) {
    failures.push(`${name}: ${e.message.split("\n")[0]}`);
  }
}

// 7. The small ones (issue 22, item 6), each a check that failed before its fix. Each part on its own: one that
// throws is a failure and the next still runs.
if (runs("small")) {
  const small = {};
  const nativeDialogs = [];
  const noNativeDialogs = (p) =>
    p.on("dialog", (d) => {
      nativeDialogs.push(`${d.type()}: ${d.message()}`);
      d.dismiss().catch(() => {});
    });

  // The new-game form says no "null" (nor "undefined"), with Halflings off, on and off again; a range of numbers is
  // a number input with its bounds, and the value typed is the game's; two bots of one level get two names.
  await guarded("small ones (form)", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    watch(page, "small ones (form)");
    await page.goto(`${base}/new`, { waitUntil: "networkidle" });
    await page.waitForSelector(".seat-row");
    const halflings = page.getByRole("checkbox", { name: "Halflings", exact: true });
    for (const when of ["at first", "with Halflings", "with Halflings off again"]) {
      if (when !== "at first") {
        await halflings.click();
        await page.waitForTimeout(50);
      }
      const text = await page.locator("form.new-game").innerText();
      const bad = text.match(/\bnull\b|\bundefined\b/);
      if (bad) failures.push(`small ones: the new-game form ${when} says "${bad[0]}"`);
    }
    await halflings.click();
    await page.locator("details.options summary").click();
    const perPlayer = page.locator(`.option[data-key="halflings.tiles_per_player"]`);
    const input = perPlayer.locator("input[type=number]");
    if (!(await input.count()))
      failures.push(
        `small ones: halflings.tiles_per_player is not a number input: "${(await perPlayer.innerText()).replace(/\s+/g, " ")}"`,
      );
    else {
      const bounds = await input.evaluate((e) => [e.min, e.max, e.value]);
      if (bounds.join() !== "1,24,3")
        failures.push(`small ones: halflings.tiles_per_player has min, max, value ${bounds.join(", ")}, not 1, 24, 3`);
      await input.fill("5");
    }
    await page.getByRole("button", { name: "Add a seat" }).click();
    await page.locator(".seat-row").nth(1).getByLabel("Level").selectOption("greedy");
    await page.locator(".seat-row").nth(2).getByLabel("Level").selectOption("greedy");
    await page.getByRole("button", { name: "Create the game" }).click();
    await page.getByRole("button", { name: /Play here/ }).click();
    await page.waitForSelector("svg.board");
    const view = await api(`/api/games/${page.url().split("/").pop()}`);
    small.names = view.seats.map((x) => x.name);
    if (new Set(small.names).size !== small.names.length)
      failures.push(`small ones: the seats are named ${small.names.join(", ")}`);
    small.tiles_per_player = view.setup.rules?.["halflings.tiles_per_player"];
    if (input && String(small.tiles_per_player) !== "5")
      failures.push(`small ones: the game has halflings.tiles_per_player ${small.tiles_per_player}, not the 5 typed`);
    await page.close();
  });

  // Until a turn is confirmed, the ring is still on its player; the table's buttons draw no character its fonts lack.
  await guarded("small ones (turn)", async () => {
    const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    watch(p, "small ones (turn)");
    await createByForm(p, []);
    await p.waitForSelector(".space-mark");
    await p.locator(".space-mark").first().click();
    await p.getByRole("button", { name: "Place", exact: true }).click();
    const confirm = p.getByRole("button", { name: /Confirm turn/ });
    for (let i = 0; i < 50 && !(await confirm.count()); i++) {
      if (await p.locator("button[data-action=pass]").count()) await p.locator("button[data-action=pass]").click();
      await p.waitForTimeout(100);
    }
    if (!(await confirm.count()))
      failures.push("small ones: no Confirm turn after placing a tile and deploying nothing");
    else {
      const ring = await p
        .locator(".scores .player.active")
        .evaluateAll((els) => els.map((e) => e.dataset.player || e.innerText.replace(/\s+/g, " ")));
      small.ring_before_confirm = ring;
      if (ring.join() !== "P1")
        failures.push(`small ones: before the turn is confirmed the ring is on ${ring.join(", ") || "nobody"}, not P1`);
      await p.screenshot({ path: `${out}/7-before-confirm.png` });
    }
    const missing = await missingGlyphs(p);
    if (missing.length) failures.push(`small ones: the table's buttons draw empty boxes for ${missing.join("; ")}`);
    await p.close();
  });

  // The replay's buttons draw no character its fonts lack: a game of two bots, played to its end by the server.
  await guarded("small ones (replay)", async () => {
    const game = await api("/api/games", { seats: [{ bot: "random" }, { bot: "random" }], sets: ["base"] });
    let view = null;
    for (let i = 0; i < 150 && view?.status !== "finished"; i++) {
      await new Promise((r) => setTimeout(r, 200));
      view = await api(`/api/games/${game.id}`);
    }
    const p = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    watch(p, "small ones (replay)");
    await p.goto(`${base}/replay/${game.id}`, { waitUntil: "networkidle" });
    await p.waitForSelector(".replay-controls button");
    const missing = await missingGlyphs(p);
    if (missing.length) failures.push(`small ones: the replay's buttons draw empty boxes for ${missing.join("; ")}`);
    await p.getByRole("button", { name: "Back" }).click();
    await p.waitForTimeout(300);
    await p.screenshot({ path: `${out}/7-replay.png` });
    await p.close();
  });

  // The replay viewer (issue 22, item 11) shows what happened up to each step, the scorings included, and plays on
  // its own at the speed chosen, until paused.
  await guarded("replay", async () => {
    const game = await api("/api/games", { seats: [{ bot: "greedy" }, { bot: "greedy" }], sets: ["base"] });
    let view = null;
    for (let i = 0; i < 150 && view?.status !== "finished"; i++) {
      await new Promise((r) => setTimeout(r, 200));
      view = await api(`/api/games/${game.id}`);
    }
    const events = (await api(`/api/games/${game.id}/events`)).events;
    const p = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    watch(p, "replay");
    await p.goto(`${base}/replay/${game.id}`, { waitUntil: "networkidle" });
    await p.waitForSelector(".replay-log li");
    const replay = {};
    // At the end: every scoring of the game is in the log, the final ones among them.
    const scorings = events.filter((e) => e.type === "scored").length;
    replay.scoredAtEnd = await p.locator(".replay-log li.ev-scored").count();
    if (replay.scoredAtEnd !== scorings)
      failures.push(`replay: the log shows ${replay.scoredAtEnd} scorings at the end, the game had ${scorings}`);
    // At a step, only what happened up to it; the step's own lines said above the log.
    const firstScoring = events.find((e) => e.type === "scored" && e.when !== "final");
    if (firstScoring) {
      await p.locator(".replay-controls input[type=range]").fill(String(firstScoring.action));
      await p.waitForTimeout(400);
      const moves = events.filter((e) => e.type === "played" && e.action <= firstScoring.action).length;
      replay.atFirstScoring = {
        step: firstScoring.action,
        scored: await p.locator(".replay-log li.ev-scored").count(),
        played: await p.locator(".replay-log li.ev-played").count(),
        said: await p.locator(".replay-step").innerText(),
      };
      const atStep = events.filter((e) => e.type === "scored" && e.action <= firstScoring.action).length;
      if (replay.atFirstScoring.scored !== atStep)
        failures.push(
          `replay: at step ${firstScoring.action} the log shows ${replay.atFirstScoring.scored} scorings, not ${atStep}`,
        );
      if (replay.atFirstScoring.played > moves || replay.atFirstScoring.played < moves / 2)
        failures.push(
          `replay: at step ${firstScoring.action} the log has ${replay.atFirstScoring.played} moves of ${moves}`,
        );
      if (!/scored/.test(replay.atFirstScoring.said))
        failures.push(`replay: the step with a scoring says "${replay.atFirstScoring.said}"`);
      await p.screenshot({ path: `${out}/11-replay-log.png` });
    }
    // Autoplay from the start at a quarter of a second a step, then a pause: the step moved on, then stays.
    await p.getByRole("button", { name: "Start" }).click();
    await p.getByLabel("Speed").selectOption("0.25");
    await p.getByRole("button", { name: "Play" }).click();
    const played = Date.now();
    await p.waitForTimeout(1600);
    await p.getByRole("button", { name: "Pause" }).click();
    // Timers run late on a loaded machine: the bound is the time that really passed, not the 1.6 s asked for.
    const most = Math.floor((Date.now() - played) / 250) + 1;
    const at = Number(await p.locator(".replay-controls input[type=range]").inputValue());
    await p.waitForTimeout(700);
    const later = Number(await p.locator(".replay-controls input[type=range]").inputValue());
    replay.autoplay = { at, later };
    if (at < 2 || at > most)
      failures.push(`replay: autoplay at 0.25 s a step reached step ${at}; between 2 and ${most} were due`);
    if (later !== at) failures.push(`replay: paused at step ${at}, it went on to ${later}`);
    report.replay = replay;
    await p.close();
  });

  // In Romanian: the form's words and default names, and the plurals ("20 de piese").
  await guarded("small ones (ro)", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "ro-RO" });
    const p = await ctx.newPage();
    watch(p, "small ones (ro)");
    await p.goto(`${base}/new`, { waitUntil: "networkidle" });
    await p.waitForSelector(".seat-row");
    const halflings = p.getByRole("checkbox", { name: "Jumi-juma", exact: true });
    await halflings.click();
    const text = await p.locator("form.new-game").innerText();
    if (/tile file/i.test(text)) failures.push(`small ones: the Romanian form says "tile file"`);
    const placeholders = await p.locator(".seat-row input").evaluateAll((els) => els.map((e) => e.placeholder));
    small.ro_placeholders = placeholders;
    if (placeholders.some((x) => !x || /Player|\bbot\b|^Nume$/.test(x)))
      failures.push(`small ones: the Romanian form's default names are ${placeholders.join(", ")}`);
    await halflings.click();
    await p.getByRole("button", { name: "Creează partida" }).click();
    await p.getByRole("button", { name: /Joacă aici/ }).click();
    await p.waitForSelector("svg.board");
    const view = await api(`/api/games/${p.url().split("/").pop()}`);
    small.ro_names = view.seats.map((x) => x.name);
    if (small.ro_names.some((x) => /Player|\bbot\b/.test(x)))
      failures.push(`small ones: a Romanian game's default names are ${small.ro_names.join(", ")}`);
    small.ro_stack = await p.locator(".scores .stack").innerText();
    if (!/^\d+ de piese rămase$/.test(small.ro_stack))
      failures.push(`small ones: the Romanian stack says "${small.ro_stack}" with ${view.game.stack} tiles left`);
    const plurals = await p.evaluate(async () => {
      const i18n = await import("/assets/i18n.js");
      return [0, 1, 2, 19, 20, 21, 100, 101, 119, 120].map((n) =>
        i18n.translate ? i18n.translate("ro", "stack", { n }) : "no translate()",
      );
    });
    const expected = [
      "0 piese rămase",
      "1 piesă rămasă",
      "2 piese rămase",
      "19 piese rămase",
      "20 de piese rămase",
      "21 de piese rămase",
      "100 de piese rămase",
      "101 piese rămase",
      "119 piese rămase",
      "120 de piese rămase",
    ];
    if (plurals.join("|") !== expected.join("|")) failures.push(`small ones: Romanian plurals ${plurals.join(", ")}`);
    await p.screenshot({ path: `${out}/7-romanian.png` });
    await ctx.close();
  });

  // An open seat is taken through a form on the page, not the browser's bare prompt().
  const game = await api("/api/games", { seats: [{ name: "Ana" }, { open: true }], sets: ["base"] });
  await guarded("small ones (join)", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const p = await ctx.newPage();
    watch(p, "small ones (join)");
    noNativeDialogs(p);
    await p.goto(`${base}/`, { waitUntil: "networkidle" });
    await p.locator(".games li", { hasText: "Ana" }).first().getByRole("button", { name: "Join" }).click();
    try {
      await p.waitForSelector("dialog.join[open] input", { timeout: 2000 });
    } catch {
      failures.push("small ones: Join shows no form on the page");
      await ctx.close();
      return;
    }
    await p.screenshot({ path: `${out}/7-join.png` });
    await p.locator("dialog.join[open] input").fill("Cleo");
    await p.locator("dialog.join[open]").getByRole("button", { name: "Join" }).click();
    await p.waitForURL(/\/play\//);
    await p.waitForSelector("svg.board");
    const names = (await api(`/api/games/${game.id}`)).seats.map((x) => x.name);
    if (names[1] !== "Cleo") failures.push(`small ones: after joining as Cleo the seats are ${names.join(", ")}`);
    await ctx.close();
  });

  // A page's load asks for the game's view once: Ana's invite link in a fresh browser, then a reload of it.
  await guarded("small ones (loads)", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const q = await ctx.newPage();
    watch(q, "small ones (loads)");
    const views = countViews(q);
    await q.goto(`${base}${game.seats[0].invite}`, { waitUntil: "networkidle" });
    await q.waitForSelector("svg.board");
    await q.waitForTimeout(800);
    small.views_invite = views.n;
    views.n = 0;
    await q.reload({ waitUntil: "networkidle" });
    await q.waitForSelector("svg.board");
    await q.waitForTimeout(800);
    small.views_reload = views.n;
    if (small.views_invite > 1 || small.views_reload > 1)
      failures.push(
        `small ones: a load asks for the view ${small.views_invite} times from an invite link, ${small.views_reload} times on a reload`,
      );
    await ctx.close();
  });

  // Hot seat: a browser holding both seats asks once too, on a reload at either seat's decision.
  await guarded("small ones (hot-seat loads)", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const q = await ctx.newPage();
    watch(q, "small ones (hot-seat loads)");
    await q.goto(`${base}/new`, { waitUntil: "networkidle" });
    await q.waitForSelector(".seat-row");
    await q.locator(".seat-row").nth(1).getByLabel("Seat 2").selectOption("person");
    await q.getByRole("button", { name: "Create the game" }).click();
    await q.getByRole("button", { name: /Play here/ }).click();
    await q.waitForSelector(".space-mark");
    const views = countViews(q);
    const loads = [];
    for (let turn = 0; turn < 2; turn++) {
      views.n = 0;
      await q.reload({ waitUntil: "networkidle" });
      await q.waitForSelector(".space-mark");
      await q.waitForTimeout(500);
      loads.push(`${await q.locator(".decision").getAttribute("data-seat")}: ${views.n}`);
      if (views.n > 1)
        failures.push(`small ones: a hot-seat reload at ${loads.at(-1)} asks for the view more than once`);
      // This seat plays its turn; the other's comes.
      await q.locator(".space-mark").first().click();
      await q.getByRole("button", { name: "Place", exact: true }).click();
      const confirm = q.getByRole("button", { name: /Confirm turn/ });
      for (let i = 0; i < 50 && !(await confirm.count()); i++) {
        if (await q.locator("button[data-action=pass]").count()) await q.locator("button[data-action=pass]").click();
        await q.waitForTimeout(100);
      }
      await confirm.click();
      await q.waitForSelector(".space-mark");
    }
    small.hot_seat_loads = loads;
    await ctx.close();
  });
  if (nativeDialogs.length)
    failures.push(`small ones: the browser's own dialogs were opened: ${nativeDialogs.join("; ")}`);
  report.small = small;
}

// Make the page believe its tab is in the background (`hidden`) or in front, as a browser tells it.
async function setHidden(page, hidden) {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, "visibilityState", {
      configurable: true,
      get: () => (hidden ? "hidden" : "visible"),
    });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

// 8. In the background (issue 22, item 9): when it becomes the person's turn, the tab's title and icon say so; the
// chime is off until switched on, then sounds (WebAudio, nothing fetched); in front again, all is as it was.
if (runs("background"))
  await guarded("background", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    watch(page, "background");
    // Count the tones the page starts and every sound file it asks for.
    await page.addInitScript(() => {
      // Every title the page shows, in order.
      window.__titles = [];
      new MutationObserver(() => {
        if (window.__titles.at(-1) !== document.title) window.__titles.push(document.title);
      }).observe(document, { subtree: true, childList: true, characterData: true });
      window.__tones = 0;
      const Context = window.AudioContext;
      if (Context) {
        const make = Context.prototype.createOscillator;
        Context.prototype.createOscillator = function () {
          window.__tones++;
          return make.call(this);
        };
      }
    });
    const fetchedSounds = [];
    page.on("request", (req) => {
      if (/\.(mp3|ogg|wav|m4a|webm|opus)(\?|$)/.test(req.url()) || req.resourceType() === "media")
        fetchedSounds.push(req.url());
    });
    await createByForm(page, []);
    await page.waitForSelector(".space-mark");
    const state = () =>
      page.evaluate(() => ({
        title: document.title,
        icon: document.querySelector("link[rel~=icon]")?.getAttribute("href") || "",
        tones: window.__tones,
      }));
    const plain = await state();
    const bg = {};
    // The chime is off at first.
    const toggle = page.getByLabel(/A chime when it is my turn/);
    if (!(await toggle.count())) failures.push("background: no switch for the chime");
    else if (await toggle.isChecked()) failures.push("background: the chime is on before anyone switched it on");
    // It is Ana's turn and the tab goes to the background: it says so at once.
    await setHidden(page, true);
    const hidden = await state();
    bg.hidden_on_turn = hidden.title;
    if (!/^Your turn/.test(hidden.title))
      failures.push(`background: hidden on the person's turn, the title is "${hidden.title}"`);
    if (hidden.icon === plain.icon)
      failures.push("background: hidden on the person's turn, the tab's icon is the same");
    if (hidden.tones) failures.push(`background: ${hidden.tones} tones with the chime off`);
    await setHidden(page, false);
    const back = await state();
    if (back.title !== plain.title || back.icon !== plain.icon)
      failures.push(`background: in front again, the title is "${back.title}" and the icon ${back.icon.slice(0, 40)}`);
    // The person plays a turn; the chime is switched on (it sounds once, to be heard); the tab goes to the background
    // and the turn is confirmed there; the bot moves; it is the person's turn again.
    await page.locator(".space-mark").first().click();
    await page.getByRole("button", { name: "Place", exact: true }).click();
    const confirm = page.getByRole("button", { name: /Confirm turn/ });
    for (let i = 0; i < 50 && !(await confirm.count()); i++) {
      if (await page.locator("button[data-action=pass]").count())
        await page.locator("button[data-action=pass]").click();
      await page.waitForTimeout(100);
    }
    if (await toggle.count()) {
      await toggle.check();
      bg.preview_tones = (await state()).tones;
      if (!bg.preview_tones) failures.push("background: switching the chime on sounds nothing");
      bg.stored = await page.evaluate(() => localStorage.getItem("carc.sound"));
      if (bg.stored !== "1") failures.push(`background: the chime's switch is kept as ${bg.stored}`);
    }
    const before = (await state()).tones;
    await setHidden(page, true);
    const from = await page.evaluate(() => window.__titles.length);
    await page.evaluate(() =>
      [...document.querySelectorAll("button")].find((b) => /Confirm turn/.test(b.textContent))?.click(),
    );
    // The bot's turn (the title the page's own), then the person's again (the title says so).
    try {
      await page.waitForFunction(
        (from) => {
          const seen = window.__titles.slice(from);
          const plain = seen.findIndex((x) => !/^Your turn/.test(x));
          return plain >= 0 && seen.slice(plain).some((x) => /^Your turn/.test(x));
        },
        from,
        { timeout: 8000 },
      );
    } catch {
      failures.push(
        `background: after confirming in the background, the titles were ${JSON.stringify(await page.evaluate((from) => window.__titles.slice(from), from))}`,
      );
    }
    const turn = await state();
    bg.title = turn.title;
    bg.tones_on_turn = turn.tones - before;
    if ((await toggle.count()) && !bg.tones_on_turn)
      failures.push("background: the chime is on, and its turn came in the background without a sound");
    // How it looks: the test draws a tab strip (a browser's own is not in a screenshot) with the page's title and icon.
    await page.evaluate(({ title, icon }) => {
      const bar = document.createElement("div");
      bar.id = "test-tab-strip";
      bar.style.cssText =
        "position:fixed;top:0;left:0;right:0;height:36px;background:#dee1e6;display:flex;align-items:flex-end;padding-left:8px;z-index:99;font:13px system-ui,sans-serif";
      bar.innerHTML = `<div style="background:#fff;border-radius:8px 8px 0 0;height:30px;width:260px;display:flex;align-items:center;gap:8px;padding:0 10px"><img src="${icon}" width="16" height="16"><span></span></div><span style="margin:0 0 8px 12px;color:#555">(tab strip drawn by the test: the page is in the background)</span>`;
      bar.querySelector("span").textContent = title;
      document.body.style.paddingTop = "36px";
      document.body.append(bar);
    }, turn);
    await page.screenshot({ path: `${out}/8-background-title.png` });
    await page.evaluate(() => {
      document.getElementById("test-tab-strip")?.remove();
      document.body.style.paddingTop = "";
    });
    await setHidden(page, false);
    const front = await state();
    if (front.title !== plain.title || front.icon !== plain.icon)
      failures.push(`background: in front again after the turn came, the title is "${front.title}"`);
    // The switch is remembered.
    await page.reload({ waitUntil: "networkidle" });
    await page.waitForSelector("svg.board");
    if ((await toggle.count()) && !(await toggle.isChecked()))
      failures.push("background: after a reload the chime is off again");
    if (fetchedSounds.length) failures.push(`background: sound files fetched: ${fetchedSounds.join(", ")}`);
    report.background = bg;
    await page.close();
  });

// 9. By keyboard, and not by colour alone (issue 22, item 15): the board is a group with a name; Tab reaches every
// control, each showing where the focus is; Tab reaches a space and a spot, Enter takes them; zoom buttons say what
// they do; figures carry their seat's number.
if (runs("a11y"))
  await guarded("keyboard", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    watch(page, "keyboard");
    const sent = [];
    page.on("request", (req) => {
      if (req.method() === "POST" && req.url().endsWith("/actions")) sent.push(JSON.parse(req.postData()).action);
    });
    await createByForm(page, []);
    await page.waitForSelector(".space-mark");
    const a11y = {};
    a11y.board = await page
      .locator("svg.board")
      .evaluate((e) => [e.getAttribute("role"), e.getAttribute("aria-label")]);
    if (a11y.board[0] !== "group" || !a11y.board[1])
      failures.push(`keyboard: the board is role=${a11y.board[0]} named "${a11y.board[1]}"`);
    for (const name of ["Zoom in", "Zoom out", "Show the whole board"]) {
      if ((await page.getByRole("button", { name, exact: true }).count()) !== 1)
        failures.push(`keyboard: no zoom button named "${name}"`);
    }
    a11y.board_ro = await page.evaluate(async () => (await import("/assets/i18n.js")).translate("ro", "boardLabel"));
    if (!a11y.board_ro || a11y.board_ro === "The board" || a11y.board_ro === "boardLabel")
      failures.push(`keyboard: the board's Romanian name is "${a11y.board_ro}"`);
    // What has the focus, and whether it shows.
    const focus = () =>
      page.evaluate(() => {
        const e = document.activeElement;
        if (!e || e === document.body) return null;
        const cs = getComputedStyle(e);
        let shown = cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 1;
        if (e.matches(".mark")) shown = getComputedStyle(e.querySelector(".focus-ring") || e).display !== "none";
        if (e.matches(".space-mark")) shown = getComputedStyle(e.querySelector("rect")).strokeDasharray === "none";
        const id = e.dataset.space
          ? `space ${e.dataset.space}`
          : e.getAttribute("aria-label") ||
            e.closest("label")?.textContent.trim() ||
            e.textContent.trim().slice(0, 40) ||
            e.tagName;
        return {
          id,
          kind: e.matches(".mark") ? "spot" : e.matches(".space-mark") ? "space" : e.tagName.toLowerCase(),
          shown,
          label: e.getAttribute("aria-label") || "",
        };
      });
    // Tab from the top of the page to the first space.
    await page.evaluate(() => document.activeElement?.blur());
    let f = null;
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      f = await focus();
      if (f?.kind === "space") break;
    }
    if (f?.kind !== "space")
      failures.push(`keyboard: Tab never reached a space for the tile (last: ${JSON.stringify(f)})`);
    else {
      if (!f.shown) failures.push(`keyboard: the focused space ${f.id} does not show its focus`);
      a11y.space_label = f.label;
      await page.screenshot({ path: `${out}/9-keyboard-space.png` });
      // Enter takes the space (the tile shows there), Enter again places it.
      await page.keyboard.press("Enter");
      await page.waitForTimeout(150);
      if (!(await page.locator(".space-mark.selected").count()))
        failures.push("keyboard: Enter on a space does not choose it");
      if (sent.length) failures.push(`keyboard: Enter on a space sent ${sent.join(", ")} at once`);
      const still = await focus();
      if (still?.kind !== "space")
        failures.push(`keyboard: after Enter on a space the focus is on ${JSON.stringify(still)}`);
      await page.keyboard.press("Enter");
      try {
        await page.waitForSelector(".mark-deploy", { timeout: 3000 });
      } catch {
        failures.push(`keyboard: after Enter again, no spots (sent ${sent.join(", ")})`);
      }
      if (!sent.some((a) => a.startsWith("place ")))
        failures.push(`keyboard: Enter on the chosen space sent ${sent.join(", ") || "nothing"}`);
    }
    if (await page.locator(".mark-deploy").count()) {
      await page.waitForTimeout(150);
      const onSpot = await focus();
      a11y.after_place = onSpot;
      if (onSpot?.kind !== "spot")
        failures.push(
          `keyboard: once the tile is placed the focus is on ${JSON.stringify(onSpot)}, not its first spot`,
        );
      // Every control of the page is reached by Tab, each showing its focus.
      const controls = await page.evaluate(() =>
        [...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")]
          .filter((e) => e.tabIndex >= 0 && !e.disabled && e.checkVisibility())
          .map((e) =>
            e.dataset.space
              ? `space ${e.dataset.space}`
              : e.getAttribute("aria-label") ||
                e.closest("label")?.textContent.trim() ||
                e.textContent.trim().slice(0, 40) ||
                e.tagName,
          ),
      );
      const reached = new Map();
      await page.evaluate(() => document.activeElement?.blur());
      // Round the whole page once: until the first control reached comes again.
      let first = null;
      for (let i = 0; i < 2 * controls.length + 10; i++) {
        await page.keyboard.press("Tab");
        const x = await focus();
        if (!x) continue;
        if (x.id === first) break;
        first ??= x.id;
        reached.set(x.id, x);
      }
      a11y.controls = controls.length;
      a11y.reached = [...reached.keys()];
      const missed = controls.filter((c) => !reached.has(c));
      if (missed.length) failures.push(`keyboard: Tab never reaches ${missed.join(", ")}`);
      const unseen = [...reached.values()].filter((x) => !x.shown).map((x) => x.id);
      if (unseen.length) failures.push(`keyboard: the focus does not show on ${unseen.join(", ")}`);
      const spots = [...reached.values()].filter((x) => x.kind === "spot");
      a11y.spot_labels = spots.map((x) => x.label);
      if (spots.some((x) => /@|^deploy |^meeple /.test(x.label)))
        failures.push(`keyboard: spots named in notation: ${spots.map((x) => x.label).join(", ")}`);
      // To a spot by Tab, and Enter takes it.
      await page.evaluate(() => document.activeElement?.blur());
      let g = null;
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press("Tab");
        g = await focus();
        if (g?.kind === "spot") break;
      }
      await page.screenshot({ path: `${out}/9-keyboard-spot.png` });
      const before = sent.length;
      await page.keyboard.press("Enter");
      await page.waitForTimeout(400);
      a11y.spot_sent = sent.slice(before);
      if (g?.kind !== "spot" || !sent.slice(before).some((a) => !a.startsWith("place ")))
        failures.push(
          `keyboard: Enter on a spot (${JSON.stringify(g)}) sent ${sent.slice(before).join(", ") || "nothing"}`,
        );
    }
    // Figures carry their seat's number, as the score bar does.
    await page.waitForTimeout(300);
    a11y.marks = await page.locator("svg.board .figure-mark").allTextContents();
    a11y.swatches = await page.locator(".scores .swatch").allTextContents();
    if (a11y.swatches.join() !== "1,2")
      failures.push(`keyboard: the score bar's seats are marked ${a11y.swatches.join(", ")}`);
    // Every figure on the board carries its mark. (A meeple just deployed may already be home again: a feature it
    // completed scored at once; then there is nothing to look at, and that is said in the report.)
    const figures = await page.evaluate(() => {
      const all = [...document.querySelectorAll("svg.board .figure")];
      return { on_board: all.length, unmarked: all.filter((f) => !f.querySelector(".figure-mark")).length };
    });
    a11y.figures = figures;
    if (figures.unmarked) failures.push(`keyboard: ${figures.unmarked} of ${figures.on_board} figures carry no mark`);
    // "Who holds what" says the holders' numbers beside their colours.
    await page.getByLabel("Who holds what").check();
    await page.waitForTimeout(100);
    a11y.holder_rings = await page.locator("svg.board .holder").count();
    a11y.holder_tags = await page.locator("svg.board .holder-tag").allTextContents();
    if (a11y.holder_rings && !a11y.holder_tags.length)
      failures.push("keyboard: who holds what rings features in colours only");
    for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Zoom in" }).click();
    await page.screenshot({ path: `${out}/9-figures-marked.png` });
    report.keyboard = a11y;
    await page.close();
  });

// 10. The landing page (issue 22, item 13): it says what this is; "Play against the computer" is a game at the table
// in one click; "Play with friends" is the new-game form with two people.
if (runs("landing"))
  await guarded("landing", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    watch(page, "landing");
    await page.goto(`${base}/`, { waitUntil: "networkidle" });
    const landing = {};
    landing.heading = await page
      .locator("h1")
      .first()
      .textContent()
      .catch(() => null);
    if (!landing.heading || !/Carcassonne/.test(landing.heading))
      failures.push(`landing: the page's heading is ${JSON.stringify(landing.heading)}`);
    await page.screenshot({ path: `${out}/10-landing.png` });
    const computer = page.getByRole("button", { name: "Play against the computer" });
    if (!(await computer.count())) failures.push('landing: no "Play against the computer"');
    else {
      await computer.click();
      try {
        await page.waitForURL(/\/play\/[0-9a-f]{16}$/, { timeout: 3000 });
        await page.waitForSelector(".space-mark");
        const view = await api(`/api/games/${page.url().split("/").pop()}`);
        landing.computer = view.seats.map((s) => `${s.kind}:${s.name}`);
        if (view.seats.length !== 2 || view.seats[0].kind !== "person" || view.seats[1].kind !== "bot")
          failures.push(`landing: one click made the seats ${landing.computer.join(", ")}`);
      } catch (e) {
        failures.push(
          `landing: one click on "Play against the computer" does not reach the table (${e.message.split("\n")[0]})`,
        );
      }
    }
    await page.goto(`${base}/`, { waitUntil: "networkidle" });
    const friends = page.getByRole("button", { name: "Play with friends" });
    if (!(await friends.count())) failures.push('landing: no "Play with friends"');
    else {
      await friends.click();
      await page.waitForSelector(".seat-row");
      landing.friends = await page
        .locator(".seat-row")
        .evaluateAll((rows) => rows.map((r) => r.querySelectorAll("select")[1]?.value));
      if (landing.friends.join() !== "person,person")
        failures.push(`landing: "Play with friends" starts with the seats ${landing.friends.join(", ")}`);
      await page.getByRole("button", { name: "Create the game" }).click();
      await page.waitForSelector(".invite input").catch(() => {});
      const links = await page.locator(".invite input").count();
      if (links !== 2) failures.push(`landing: a game with friends gives ${links} invite links`);
    }
    report.landing = landing;
    await ctx.close();
  });

// 11. Plain language (issue 22, item 7): the rule options by name, with their keys only in the advanced view; the
// list of every legal action, the hint and the log in words, never in the record's notation.
const NOTATION = /@|\bbase\/|\br(90|180|270)\b|-?\d+,-?\d+|\b[a-z]+\.[a-z_]+\b/;
if (runs("words"))
  await guarded("words", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    watch(page, "words");
    const words = {};
    await page.goto(`${base}/new`, { waitUntil: "networkidle" });
    await page.waitForSelector(".seat-row");
    for (const set of ["Abbey & Mayor", "Princess & Dragon", "Crop Circles", "Halflings"])
      await page.getByRole("checkbox", { name: set, exact: true }).click();
    await page.locator("details.options summary").click();
    const options = page.locator("details.options");
    const shown = await options.innerText();
    const key = shown.match(/\b[a-z]+\.[a-z_]+\b|\b[a-z]+_[a-z_]+\b/);
    if (key) failures.push(`words: the rule options show "${key[0]}" outside the advanced view`);
    words.options = await page.locator(".option").count();
    await options.getByRole("checkbox", { name: "Show the rule ids and option keys" }).check();
    if (!/halflings\.tiles_per_player/.test(await options.innerText()))
      failures.push("words: the advanced view does not show the options' keys");
    await page.screenshot({ path: `${out}/11-options.png`, fullPage: true });

    await createByForm(page, []);
    await page.waitForSelector(".space-mark");
    await page.locator("details.all-actions summary").click();
    const listed = await page.locator(".action-list button").allInnerTexts();
    words.actions = listed.length;
    words.firstAction = listed[0];
    const coded = listed.filter((x) => NOTATION.test(x));
    if (!listed.length) failures.push("words: the list of legal actions is empty");
    if (coded.length) failures.push(`words: ${coded.length} legal actions read as notation, as "${coded[0]}"`);
    await page.getByRole("button", { name: "Hint" }).click();
    const toast = page.locator(".toast", { hasText: "The bot suggests" });
    await toast.waitFor({ timeout: 20000 });
    words.hint = await toast.innerText();
    await page.screenshot({ path: `${out}/11-hint.png` });
    if (!/^The bot suggests: place .+ on the space .+ of the start tile/.test(words.hint))
      failures.push(`words: the hint says "${words.hint}"`);
    if (NOTATION.test(words.hint.replace(/^The bot suggests: /, "")))
      failures.push(`words: the hint is in notation: "${words.hint}"`);
    // Item 5: a spot hovered or focused outlines the whole feature it would join, and says what it holds.
    // The hint has chosen the placement already (a click on its space would place it at once): place it.
    const place = page.getByRole("button", { name: "Place", exact: true });
    if (!(await place.isEnabled())) await page.locator(".space-mark").first().click();
    if (await place.count()) await place.click();
    const spots = page.locator(".layer-spots .mark-deploy");
    await spots.first().waitFor();
    const n = await spots.count();
    words.features = [];
    for (let i = 0; i < n; i++) {
      const spot = spots.nth(i);
      if (i % 2) await spot.focus();
      else await spot.hover();
      const info = await page
        .locator(".feature-info")
        .innerText({ timeout: 1000 })
        .catch(() => "");
      const shapes = await page.locator(".layer-outline path").count();
      words.features.push(`${info} (${shapes} shapes)`);
      if (!/^(City|Road|Field|Monastery): .*\d+ points?/.test(info) || !shapes)
        failures.push(
          `words: spot ${i} (${await spot.getAttribute("aria-label")}) outlines ${shapes} shapes and says "${info}"`,
        );
      if (i === 0) await page.screenshot({ path: `${out}/11-feature.png` });
    }
    await page.mouse.move(5, 5);
    await page.locator("h2").first().focus();
    if (await page.locator(".layer-outline path").count())
      failures.push("words: the outline stays when no spot is hovered");

    // Two turns by clicks, then the log: each placement and figure in a sentence, the bot's as well as ours.
    const used = new Set();
    for (let i = 0; i < 12; i++) await move(page, used, false).catch(() => false);
    const log = await page.locator(".log li").allInnerTexts();
    words.log = log.slice(0, 6);
    const placed = log.filter((x) => / placed .+ on the space /.test(x));
    const bot = await api(`/api/games/${page.url().split("/").pop()}`);
    const botName = bot.seats[1].name;
    if (!placed.some((x) => x.startsWith(botName)))
      failures.push(`words: the log has no placement by ${botName}: ${JSON.stringify(words.log)}`);
    if (!placed.some((x) => !x.startsWith(botName)))
      failures.push(`words: the log has no placement of the person's: ${JSON.stringify(words.log)}`);
    const codedLog = log.filter((x) => /@|\bbase\//.test(x));
    if (codedLog.length) failures.push(`words: the log says "${codedLog[0]}"`);
    report.words = words;
    await page.close();
  });

// The symbols drawn on the board's tiles (item 14: they stand upright whatever the tile's rotation).
const MARKS =
  ".layer-tiles .symbol, .layer-tiles .monastery, .layer-tiles .pennant-mark, .layer-tiles .crown-mark, .layer-tiles .house";

// 12. Every move easy to follow (issue 22, item 8): a tile placed (the person's or the bot's) comes into place, a
// scoring floats its points over the feature and the score counts up; with reduced motion asked for, nothing moves.
if (runs("motion"))
  await guarded("motion", async () => {
    const motion = {};
    for (const reduced of [false, true]) {
      const ctx = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        reducedMotion: reduced ? "reduce" : "no-preference",
      });
      const page = await ctx.newPage();
      const name = reduced ? "motion (reduced)" : "motion";
      watch(page, name);
      await createByForm(page, []);
      const seen = { arrivals: 0, floats: 0, counting: 0, animations: 0, moves: 0, marked: 0 };
      const used = new Set();
      // Until a scoring has been seen, and a tile with a symbol (item 14, below) is on the board.
      for (let i = 0; i < 120 && !(seen.floats && seen.arrivals && seen.counting && seen.marked); i++) {
        if (await page.locator("dialog.final[open]").count()) break;
        if (!(await move(page, used, false).catch(() => false))) await page.waitForTimeout(150);
        seen.moves++;
        for (let k = 0; k < 4; k++) {
          const now = await page.evaluate(
            (marks) => ({
              arrivals: document.querySelectorAll(".tile-new").length,
              floats: document.querySelectorAll(".fx-points").length,
              counting: document.querySelectorAll(".pscore.counting").length,
              animations: document.getAnimations().length,
              marked: document.querySelectorAll(marks).length,
            }),
            MARKS,
          );
          for (const k2 of ["arrivals", "floats", "counting", "animations", "marked"])
            seen[k2] = Math.max(seen[k2], now[k2]);
          if (now.floats && !reduced && !motion.shot) {
            await page.screenshot({ path: `${out}/12-scoring.png` });
            motion.shot = true;
          }
          await page.waitForTimeout(60);
        }
      }
      motion[reduced ? "reduced" : "full"] = seen;
      // Item 14: the tiles' symbols stand upright on the board whatever the tile's rotation.
      const tilted = await page.evaluate((sel) => {
        const marks = document.querySelectorAll(sel);
        const bad = [...marks].filter((e) => {
          const m = /** @type {SVGGraphicsElement} */ (e).getCTM();
          return !m || Math.abs(Math.atan2(m.b, m.a)) > 0.01;
        });
        return { marks: marks.length, bad: bad.map((e) => e.getAttribute("class")) };
      }, MARKS);
      seen.symbols = tilted.marks;
      if (!tilted.marks) failures.push("motion: no symbol on the board to check");
      if (tilted.bad.length)
        failures.push(`motion: ${tilted.bad.length} symbols are not upright: ${tilted.bad.slice(0, 3)}`);
      if (!reduced) {
        if (!seen.arrivals) failures.push("motion: no tile came into place");
        if (!seen.floats) failures.push(`motion: no scoring floated its points in ${seen.moves} moves`);
        if (!seen.animations) failures.push("motion: nothing was animated");
      } else if (seen.animations || seen.floats || seen.counting) {
        failures.push(`motion: with reduced motion, ${JSON.stringify(seen)}`);
      }
      await ctx.close();
    }
    report.motion = motion;
  });

// 1. A whole base game against a bot.
if (runs("base")) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  watch(page, "base game");
  await createByForm(page, []);
  await page.screenshot({ path: `${out}/1-start.png` });
  let endingAdds = false;
  const r = await playToTheEnd(page, "base game", 240, async (n) => {
    if (n % 10 === 0 && n <= 40) endingAdds = (await checkPoints(page, `base game, move ${n}`)) || endingAdds;
    if (n === 40) {
      await page.screenshot({ path: `${out}/1-middle.png` });
      await page.locator(".points-box").screenshot({ path: `${out}/1-points.png` });
    }
  });
  if (!endingAdds) failures.push("base game: the ending never added points to anyone by move 40");
  await page.screenshot({ path: `${out}/1-final.png` });
  report.base = r;
  if (!r.finished) failures.push(`base game: no final scoring screen after ${r.moves} moves`);
  else await checkFinal(page, "base game");
  await page.close();
}

// 2. Every module, until every kind of decision was answered through the table.
if (runs("modules")) {
  const want = [
    "tile",
    "triangle",
    "abbey",
    "pick",
    "meeple",
    "mayor",
    "wagon",
    "barn",
    "portal",
    "fairy",
    "dragon",
    "crop",
    "pass",
  ];
  const seen = new Set();
  const decisionsShown = new Set();
  const games = [];
  for (let game = 0; game < 5 && want.some((k) => !seen.has(k)); game++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    watch(page, `every module ${game + 1}`);
    let triangles = new Set();
    page.on("request", (req) => {
      if (req.method() === "POST" && req.url().endsWith("/actions")) {
        try {
          seen.add(kindOf(JSON.parse(req.postData()).action, triangles));
        } catch {
          /* not ours */
        }
      }
    });
    await createByForm(
      page,
      ["Abbey & Mayor", "Princess & Dragon", "Crop Circles", "Halflings"],
      game % 2 === 0 ? { "halflings.setup": "draft" } : {},
    );
    const id = page.url().split("/").pop();
    const tiles = await api(`/api/games/${id}/tiles`);
    triangles = new Set(tiles.tiles.filter((t) => t.shape === "triangle").map((t) => t.id));
    const r = await playToTheEnd(page, "every module", 150, async (n) => {
      if (n % 60 === 0) await page.screenshot({ path: `${out}/2-game${game + 1}-${n}.png` });
      // A picture of each kind of decision, the first time the table asks it.
      const decision = await page
        .locator("[data-decision]")
        .first()
        .getAttribute("data-decision")
        .catch(() => null);
      if (decision && !decisionsShown.has(decision)) {
        decisionsShown.add(decision);
        await page.screenshot({ path: `${out}/2-decision-${decision}.png` });
      }
      // Now and then, zoomed out (the spots keep a size that can be clicked, and stay apart, or a crowd of them is
      // one spot), then back.
      // Every portal's decision too (a spot on any free feature of the board: the most crowded there is).
      const portal = (await page.locator("svg.board .mark-portal, svg.board .mark-crowd").count()) > 0;
      if ((n % 15 === 0 || portal) && (await page.locator("svg.board .mark").count())) {
        for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Zoom out" }).click();
        await checkSpots(page, "zoomed out: ");
        await checkCrowd(page, `${game + 1}-${n}`);
        if (n % 60 === 0) await page.screenshot({ path: `${out}/2-game${game + 1}-${n}-zoomed-out.png` });
        // And as far out as it goes, where the spots of a tile or more are a crowd.
        for (let i = 0; i < 10; i++) await page.getByRole("button", { name: "Zoom out" }).click();
        await checkSpots(page, "zoomed far out: ");
        await checkCrowd(page, `${game + 1}-${n}, far out`);
        await page.getByRole("button", { name: "Show the whole board" }).click();
      }
    });
    await page.screenshot({ path: `${out}/2-game${game + 1}-end.png` });
    games.push(r);
    if (r.finished) await checkFinal(page, `every module ${game + 1}`);
    await page.close();
  }
  report.every_module = { games, answered: [...seen].sort(), pictured: [...decisionsShown].sort() };
  const missing = want.filter((k) => !seen.has(k));
  if (missing.length) failures.push(`every module: never answered through the table: ${missing.join(", ")}`);
}

// 4. The princess, which random play reaches only now and then: a game imported (`carc import princess.json`) at
// the moment a princess tile was added to a city with knights; the person sends one home by clicking it.
if (!runs("princess")) {
  // not asked for
} else if (process.env.PRINCESS_INVITE) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  watch(page, "princess");
  let sent = null;
  page.on("request", (req) => {
    if (req.method() === "POST" && req.url().endsWith("/actions")) sent = JSON.parse(req.postData()).action;
  });
  await page.goto(`${base}${process.env.PRINCESS_INVITE}`, { waitUntil: "networkidle" });
  await page.waitForSelector(".mark-princess");
  await page.screenshot({ path: `${out}/4-princess.png` });
  await page.locator(".mark-princess").first().click();
  await page.waitForTimeout(300);
  report.princess = sent;
  if (!sent?.startsWith("princess ")) failures.push(`princess: the table sent ${sent}`);
  await page.close();
} else {
  failures.push("princess: PRINCESS_INVITE is not set (crates/cli/tests/browser.rs imports the game)");
}

// 5. Hot seat: two people in one browser, from the new-game form to the end. The seat to decide gets its controls
// at once, whichever seat that is and whatever other tokens the browser holds; nobody else ever moves.
if (runs("hotseat")) {
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
  try {
    await page.waitForSelector(".space-mark", { timeout: 3000 });
  } catch {
    stalled = await page.locator(".decision").innerText();
  }
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
    if (await page.locator("dialog.final[open]").count()) {
      finished = true;
      break;
    }
    let moved = false;
    try {
      moved = await move(page, used);
    } catch {
      moved = false;
    }
    if (moved) {
      moves++;
      idleSince = Date.now();
      const seat = await page.evaluate(() => document.querySelector(".decision")?.getAttribute("data-seat"));
      if (seat) seatsSeen.add(seat);
      if (moves === 30) await page.screenshot({ path: `${out}/5-hot-seat-middle.png` });
      await page.waitForTimeout(40);
      continue;
    }
    // The defect this looks for is a page that never offers a control again; 15 s leaves room for a loaded machine.
    if (Date.now() - idleSince > 15000) {
      failures.push(
        `hot seat: no control for 15 s after ${moves} moves: "${await page.locator(".decision").innerText()}"`,
      );
      await page.screenshot({ path: `${out}/5-hot-seat-stalled.png` });
      break;
    }
    await page.waitForTimeout(80);
  }
  await page.screenshot({ path: `${out}/5-hot-seat-final.png` });
  report.hot_seat = { moves, seconds: (Date.now() - t0) / 1000, finished, seats: [...seatsSeen].sort() };
  if (finished) await checkFinal(page, "hot seat");
  if (!finished && !failures.some((f) => f.startsWith("hot seat")))
    failures.push(`hot seat: not finished after ${moves} moves`);
  if (seatsSeen.size && seatsSeen.size < 2) failures.push(`hot seat: only ${[...seatsSeen]} had controls`);
  await page.close();
}

// 3. Two people, two browsers: each page shows its own triangles only.
if (runs("seats")) {
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
      const other = new Set(
        (await api(`/api/games/${created.id}`, undefined, seats[1 - i].token)).game.players[1 - i].hand || [],
      );
      const onBoard = new Set(view.game.board.map((b) => b.tile));
      const shown = await pages[i]
        .locator("aside [data-tile]")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-tile")));
      for (const id of shown) {
        if (triangles.has(id) && !mine.has(id) && !onBoard.has(id))
          failures.push(`seat ${seats[i].seat} shows ${id}, which is not theirs`);
        if (other.has(id) && !mine.has(id))
          failures.push(`seat ${seats[i].seat} shows ${seats[1 - i].seat}'s triangle ${id}`);
      }
      checks++;
    }
    // Whoever has something to do does it (the other page finds nothing to click).
    for (let i = 0; i < 2; i++) {
      try {
        if (await move(pages[i], used[i], false)) await pages[i].waitForTimeout(60);
      } catch {
        /* the page was updating */
      }
    }
  }
  await pages[0].screenshot({ path: `${out}/3-seat-P1.png` });
  await pages[1].screenshot({ path: `${out}/3-seat-P2.png` });
  report.two_seats = { checks };
}

// 8. The chat (issue 22, item 12; decision W-13): Ana writes in her browser's chat line and sends with Enter; Bo's
// browser and a spectator's show it in their logs without a reload, as text (markup stays characters), under her
// name; Bo answers with the button. The spectator has no line to write in. A reload still shows the chat.
if (runs("chat")) {
  await guarded("chat", async () => {
    const created = await api("/api/games", { seats: [{ name: "Ana" }, { name: "Bo" }], sets: ["base"] });
    const open = async (name, path) => {
      const ctx = await browser.newContext({ viewport: { width: 1100, height: 760 } });
      const page = await ctx.newPage();
      watch(page, `chat (${name})`);
      await page.goto(`${base}${path}`, { waitUntil: "networkidle" });
      await page.waitForSelector("svg.board");
      return { ctx, page };
    };
    const ana = await open("Ana", created.seats[0].invite);
    const bo = await open("Bo", created.seats[1].invite);
    const watcher = await open("spectator", `/play/${created.id}`);
    const chat = {};
    const line = ana.page.getByRole("textbox", { name: "A message to the table" });
    chat.maxlength = await line.getAttribute("maxlength");
    if (chat.maxlength !== "280") failures.push(`chat: the chat line's maxlength is ${chat.maxlength}, not 280`);
    const text = "Good luck! <b>bold</b> & co";
    await line.focus();
    await ana.page.keyboard.type(text);
    await ana.page.keyboard.press("Enter");
    const said = (page) => page.locator(".log li.chat-line", { hasText: text });
    for (const [name, who] of [
      ["Ana", ana],
      ["Bo", bo],
      ["the spectator", watcher],
    ]) {
      try {
        await said(who.page).waitFor({ timeout: 5000 });
      } catch {
        failures.push(`chat: ${name}'s log does not show Ana's message without a reload`);
        continue;
      }
      const shown = await said(who.page).first().innerText();
      if (!/^Ana:/.test(shown)) failures.push(`chat: ${name}'s log shows "${shown}", not under Ana's name`);
      if (await said(who.page).locator("b").count()) failures.push(`chat: ${name}'s log made markup of the message`);
    }
    if ((await line.inputValue()) !== "") failures.push("chat: the chat line is not emptied once sent");
    if (await watcher.page.locator("form.chat input").count())
      failures.push("chat: a spectator has a line to write in the chat");
    // Bo answers with the button; Ana hears it. The newest line of the log comes first.
    await bo.page.getByRole("textbox", { name: "A message to the table" }).fill("Thanks, you too");
    await bo.page.getByRole("button", { name: "Send" }).click();
    try {
      await ana.page.locator(".log li.chat-line", { hasText: "Thanks, you too" }).waitFor({ timeout: 5000 });
      chat.first_line = await ana.page.locator(".log li").first().innerText();
      if (!chat.first_line.includes("Thanks, you too"))
        failures.push(`chat: Ana's log does not start with the newest message: "${chat.first_line}"`);
    } catch {
      failures.push("chat: Ana's log does not show Bo's answer without a reload");
    }
    await watcher.page.screenshot({ path: `${out}/8-chat-spectator.png` });
    await watcher.page.reload({ waitUntil: "networkidle" });
    await watcher.page.waitForSelector("svg.board");
    chat.after_reload = await watcher.page.locator(".log li.chat-line").count();
    if (chat.after_reload !== 2)
      failures.push(`chat: after a reload the spectator's log has ${chat.after_reload} messages`);
    report.chat = chat;
    for (const w of [ana, bo, watcher]) await w.ctx.close();
  });
}

// 6. The last action is the person's own, and the socket's news comes late (after the action's own answer): the
// final scores are still the game's, by kind and in all. Two people; the server's API plays the game up to its last
// tile, the person whose tile it is plays it at the table.
if (runs("last")) {
  const created = await api("/api/games", {
    seats: [
      { name: "Ana", auto_confirm: true },
      { name: "Bo", auto_confirm: true },
    ],
    sets: ["base"],
  });
  const id = created.id;
  let view = null;
  for (let step = 0; step < 400; step++) {
    const views = await Promise.all(created.seats.map((s) => api(`/api/games/${id}`, undefined, s.token)));
    view = views.find((v) => v.game.actions.length);
    if (view?.status !== "running") break;
    if (view.game.stack === 0 && view.game.pending.kind === "place_tile") break;
    await api(
      `/api/games/${id}/actions`,
      { action: view.game.actions[0].text, version: view.version },
      created.seats.find((s) => s.seat === view.seat).token,
    );
  }
  if (view?.game.pending.kind !== "place_tile" || view.game.stack !== 0) {
    failures.push(
      `last action: the API did not bring the game to its last tile (${view?.status}, ${view?.game.stack} left)`,
    );
  } else {
    const seat = created.seats.find((s) => s.seat === view.seat);
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const page = await ctx.newPage();
    watch(page, "last action");
    // Every message from the server's socket reaches the page 600 ms late.
    let late = 0;
    await page.routeWebSocket(/\/ws$/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((m) => {
        late++;
        setTimeout(() => ws.send(m), 600);
      });
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
