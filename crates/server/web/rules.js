// @ts-check
// The rules at hand: a page for every module with its rules as docs/rules.md states them (each rule with its id, so
// a decision on the table links straight to it), the module's worked example drawn by the table itself, and every
// rule option with its explanation and default.

import { Board } from "./board.js";
import { uiIcon } from "./icons.js";
import { optionDoc, optionName, valueName } from "./options.js";
import { seatColour } from "./tiles.js";

// The modules, their section of docs/rules.md and their example game (docs/examples).
export const MODULES = [
  { id: "base", section: "BASE", example: "short-game" },
  { id: "turn", section: "T" },
  { id: "abbey", section: "ABBEY", example: "abbey-and-mayor" },
  { id: "mayor", section: "MAYOR", example: "abbey-and-mayor" },
  { id: "wagon", section: "WAGON", example: "abbey-and-mayor" },
  { id: "barn", section: "BARN", example: "abbey-and-mayor" },
  { id: "dragon", section: "DRAGON", example: "princess-and-dragon" },
  { id: "fairy", section: "FAIRY", example: "princess-and-dragon" },
  { id: "princess", section: "PRINCESS", example: "princess-and-dragon" },
  { id: "portal", section: "PORTAL", example: "princess-and-dragon" },
  { id: "crop", section: "CROP", example: "crop-circles" },
  { id: "halflings", section: "HALF", example: "halflings" },
  { id: "end", section: "END" },
  { id: "variants", section: "V" },
];

// The page a rule id lives on: `DRAGON-07` -> "/rules/dragon#DRAGON-07".
export function ruleLink(id) {
  const prefix = id.split("-")[0];
  const m =
    MODULES.find((x) => x.section === prefix) || (prefix === "VAR" ? MODULES.find((x) => x.id === "variants") : null);
  return m ? `/rules/${m.id}#${id}` : "/rules";
}

let cache = null;
async function rulesText() {
  if (!cache) cache = await fetch("/api/docs/rules.md").then((r) => r.text());
  return cache;
}

// docs/rules.md split into its sections (`## BASE …`), each a list of rules (`- **BASE-04 Legal placement.** …`) or,
// for the variants, table rows.
function sections(md) {
  const out = {};
  let cur = null,
    item = null;
  for (const line of md.split("\n")) {
    const head = line.match(/^## (\S+)\.?\s*(.*)$/);
    if (head) {
      cur = out[head[1].replace(/\.$/, "")] = { title: line.slice(3), items: [] };
      item = null;
      continue;
    }
    if (!cur) continue;
    const rule = line.match(/^- \*\*([A-Z]+-\d+)\b/);
    const row = line.match(/^\| (VAR-\d+) \|/);
    if (rule) {
      item = { id: rule[1], text: line.slice(2) };
      cur.items.push(item);
    } else if (row) {
      const cells = line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim());
      cur.items.push({ id: row[1], text: `**${cells[0]}** \`${cells[1]}\`: ${cells.slice(2).join(" — ")}` });
      item = null;
    } else if (item && line.startsWith("  ")) item.text += ` ${line.trim()}`;
    else if (!line.trim()) item = null;
  }
  return out;
}

// Bold, code and links of one line of markdown, as elements (links inside the repository become plain text).
function inline(h, text) {
  const parts = [];
  const re = /\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\([^)]+\)|\b([A-Z]{2,}-\d+)\b|\*([^*]+)\*/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    parts.push(text.slice(last, m.index));
    if (m[1]) parts.push(h("strong", {}, m[1]));
    else if (m[2]) parts.push(h("code", {}, m[2]));
    else if (m[3]) parts.push(m[3]);
    else if (m[4]) parts.push(h("a", { href: ruleLink(m[4]) }, m[4]));
    else parts.push(h("em", {}, m[5]));
    last = re.lastIndex;
  }
  parts.push(text.slice(last));
  return parts;
}

// A worked example drawn as a small board, with steps through it.
async function exampleBoard(h, t, name) {
  const wrap = h("div", { class: "example-board" });
  const label = h("span", { class: "step-label" });
  const box = h(
    "figure",
    { class: "example" },
    wrap,
    h(
      "figcaption",
      {},
      h(
        "button",
        { class: "small", "aria-label": t("back"), title: t("back"), onclick: () => step(-1) },
        uiIcon("back"),
      ),
      h(
        "button",
        { class: "small", "aria-label": t("forward"), title: t("forward"), onclick: () => step(1) },
        uiIcon("forward"),
      ),
      label,
    ),
  );
  let at = null,
    total = 0,
    board = null;
  async function show(n) {
    const r = await fetch(`/api/examples/${name}${n === null ? "" : `?at=${n}`}`).then((x) => x.json());
    if (!board) board = new Board(wrap, r.tiles, { label: t("example") });
    total = r.total;
    at = r.at;
    const players = r.game.players.map((p, i) => ({ ...p, color: seatColour(null, i) }));
    board.render(r.game, players);
    label.textContent = `${at} / ${total}${r.last ? ` · ${r.last}` : ""} · ${players.map((p) => `${p.player} ${p.score}`).join(", ")}`;
  }
  function step(d) {
    show(Math.max(0, Math.min(total, at + d)));
  }
  await show(null);
  return box;
}

export async function rulesPage({ root, header, h, t }, path) {
  const which = path.split("/")[2];
  const md = await rulesText();
  const secs = sections(md);
  const nav = h(
    "nav",
    { class: "rules-nav" },
    MODULES.map((m) => h("a", { href: `/rules/${m.id}`, class: m.id === which ? "current" : "" }, t(`module_${m.id}`))),
  );
  const mod = MODULES.find((m) => m.id === which);
  const main = h("main", { class: "page rules-page" }, h("h1", {}, t("rules")), nav);
  // How to play, in a player's words, before the rules with their ids.
  const howTo = (id) => [
    h("h2", {}, t("howToPlay")),
    ...t(`howto.${id}`)
      .split("\n")
      .map((p) => h("p", { class: "how-to" }, p)),
  ];
  if (!mod) {
    main.append(...howTo("base"), h("p", {}, t("rulesIntro")));
    const opts = await fetch("/api/rules")
      .then((x) => x.json())
      .catch(() => ({ options: [] }));
    main.append(
      h("h2", {}, t("options")),
      h(
        "table",
        { class: "rules" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, t("optionName")),
            h("th", {}, t("valuesDefaultFirst")),
            h("th", {}, t("ruleAbout")),
            h("th", {}, t("optionKey")),
          ),
        ),
        h(
          "tbody",
          {},
          opts.options.map((o) =>
            h(
              "tr",
              {},
              h("td", {}, h("strong", {}, optionName(o)), h("br"), h("span", { class: "muted" }, optionDoc(o))),
              h("td", {}, o.values.map((v) => valueName(o, v)).join(" | ")),
              h("td", {}, o.rule ? h("a", { href: ruleLink(o.rule) }, o.rule) : ""),
              h("td", {}, h("code", {}, o.key)),
            ),
          ),
        ),
      ),
    );
  } else {
    const sec = secs[mod.section];
    main.append(h("h2", {}, t(`module_${mod.id}`)), h("p", { class: "muted" }, t(`summary_${mod.id}`)));
    main.append(...howTo(mod.id).slice(1));
    if (sec) {
      main.append(
        h("h3", {}, t("rulesOneByOne")),
        h(
          "ul",
          { class: "rule-list" },
          sec.items.map((it) =>
            h("li", { id: it.id, class: location.hash === `#${it.id}` ? "target" : "" }, ...inline(h, it.text)),
          ),
        ),
      );
    }
    if (mod.example) {
      main.append(h("h3", {}, t("example")));
      main.append(await exampleBoard(h, t, mod.example));
    }
  }
  root.replaceChildren(header(), main);
  // Nav links and rule links stay in the page.
  for (const a of root.querySelectorAll("a[href^='/rules']")) {
    a.addEventListener("click", (e) => {
      e.preventDefault();
      history.pushState({}, "", a.getAttribute("href"));
      window.dispatchEvent(new PopStateEvent("popstate"));
    });
  }
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView({ block: "center" });
}
