// @ts-check
// What every screen shares: building elements, a passing message, moving between screens, the top bar.

import { LANGUAGES, language, setLanguage, t } from "./i18n.js";

export const root = /** @type {HTMLElement} */ (document.getElementById("app"));

// An element `tag` with its attributes (`onclick` and the like are listeners; null, undefined and false are left
// out, true is an empty attribute) and its children (nodes, or anything else as text; null, undefined and false are
// left out).
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat())
    if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}

// A message that shows for a few seconds.
export function toast(msg) {
  const el = h("div", { class: "toast", role: "status" }, msg);
  document.body.append(el);
  setTimeout(() => el.remove(), 4000);
}

// The screens' router, set by app.js (which imports every screen).
let router = () => {};
export function setRouter(f) {
  router = f;
}

// To another screen, as a link would.
export function go(path) {
  history.pushState({}, "", path);
  router();
}

// The bar at the top of every screen: home, a new game, the rules, `extra`, the language.
export function header(extra = []) {
  const langs = h(
    "select",
    {
      "aria-label": t("language"),
      onchange: (e) => {
        setLanguage(e.target.value);
        router();
      },
    },
    Object.entries(LANGUAGES).map(([k, v]) => h("option", { value: k, selected: k === language() }, v)),
  );
  return h(
    "header",
    { class: "top" },
    h(
      "a",
      {
        href: "/",
        class: "brand",
        onclick: (e) => {
          e.preventDefault();
          go("/");
        },
      },
      t("title"),
    ),
    h(
      "nav",
      {},
      h(
        "a",
        {
          href: "/new",
          onclick: (e) => {
            e.preventDefault();
            go("/new");
          },
        },
        t("newGame"),
      ),
      h(
        "a",
        {
          href: "/rules",
          onclick: (e) => {
            e.preventDefault();
            go("/rules");
          },
        },
        t("rules"),
      ),
    ),
    ...extra,
    langs,
  );
}
