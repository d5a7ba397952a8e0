// @ts-check
// A new game: the seats, the expansions and their rule options, then the invite links.

import { get, keepToken, post } from "./api.js";
import { t } from "./i18n.js";
import { defaultNames } from "./names.js";
import { optionDoc, optionName, valueName } from "./options.js";
import { COLOUR_HEX, inkOn } from "./tiles.js";
import { go, h, header, root, toast } from "./ui.js";

const SETS = ["am", "pd", "cc", "half"];
const SET_MODULES = {
  am: ["abbey", "mayor", "wagon", "barn"],
  pd: ["dragon", "fairy", "princess", "portal"],
  cc: ["crop_circles"],
  half: ["halflings"],
};

export async function newGame() {
  const rules = (await get("/api/rules")).data?.options || [];
  const palette = Object.keys(COLOUR_HEX);
  // "Play with friends" (/new?friends) starts with two people, each to get an invite link.
  const friends = new URLSearchParams(location.search).has("friends");
  const seats = [
    { kind: "person", name: "", colour: "red" },
    friends ? { kind: "person", name: "", colour: "blue" } : { kind: "bot", level: "medium", name: "", colour: "blue" },
  ];
  const freeColour = () => palette.find((c) => !seats.some((s) => s.colour === c));
  const chosen = new Set();
  const values = {};
  let tileFile = null;
  let showKeys = false;
  const form = h("form", { class: "new-game" });
  const draw = () => {
    const seatRows = seats.map((s, i) =>
      h(
        "div",
        { class: "seat-row" },
        h(
          "span",
          {
            class: "swatch numbered",
            style: `background:${COLOUR_HEX[s.colour]};color:${inkOn(COLOUR_HEX[s.colour])}`,
            "aria-hidden": "true",
          },
          String(i + 1),
        ),
        h(
          "select",
          {
            "aria-label": t("color"),
            onchange: (e) => {
              const other = seats.find((o) => o.colour === e.target.value);
              if (other) other.colour = s.colour;
              s.colour = e.target.value;
              draw();
            },
          },
          palette.map((c) => h("option", { value: c, selected: s.colour === c }, t(`colour_${c}`))),
        ),
        h(
          "select",
          {
            "aria-label": t("seat", { n: i + 1 }),
            onchange: (e) => {
              s.kind = e.target.value;
              draw();
            },
          },
          ["person", "bot", "open"].map((k) =>
            h("option", { value: k, selected: s.kind === k }, k === "open" ? t("openSeat") : t(k)),
          ),
        ),
        s.kind !== "open"
          ? h("input", {
              value: s.name,
              placeholder: defaultNames(seats)[i],
              maxlength: 40,
              "aria-label": t("name"),
              oninput: (e) => {
                s.name = e.target.value;
              },
            })
          : null,
        s.kind === "bot"
          ? h(
              "select",
              {
                "aria-label": t("level"),
                onchange: (e) => {
                  s.level = e.target.value;
                  draw();
                },
              },
              ["easy", "medium", "hard", "greedy", "random"].map((l) =>
                h("option", { value: l, selected: s.level === l }, t(l)),
              ),
            )
          : null,
        seats.length > 2
          ? h(
              "button",
              {
                type: "button",
                class: "small",
                onclick: () => {
                  seats.splice(i, 1);
                  draw();
                },
              },
              t("removeSeat"),
            )
          : null,
      ),
    );
    const setBoxes = SETS.map((id) =>
      h(
        "label",
        { class: "check" },
        h("input", {
          type: "checkbox",
          checked: chosen.has(id),
          onchange: (e) => {
            e.target.checked ? chosen.add(id) : chosen.delete(id);
            draw();
          },
        }),
        t(`set_${id}`),
      ),
    );
    const modulesOn = new Set([...chosen].flatMap((s) => SET_MODULES[s]));
    // The options of the modules in play (and the base game's), each with its explanation and default.
    const relevant = rules.filter(
      (o) =>
        !o.key.startsWith("modules.") &&
        (o.key.startsWith("base.") ||
          o.key.startsWith("end.") ||
          o.key.startsWith("scoring.") ||
          [...modulesOn].some(
            (m) =>
              o.key.startsWith(`${m}.`) ||
              (m === "crop_circles" && o.key.startsWith("crop.")) ||
              (m === "halflings" && o.key.startsWith("halflings.")) ||
              (m === "abbey" && o.key.startsWith("abbey.")),
          )),
    );
    // Each option by its name and a line on what it changes, in the player's language; its key and rule id only in
    // the advanced view.
    const optionRows = relevant.map((o) =>
      h(
        "label",
        { class: "option", "data-key": o.key },
        h("span", { class: "key" }, optionName(o)),
        optionInput(o, values),
        h(
          "span",
          { class: "doc" },
          optionDoc(o),
          h("code", { class: "advanced" }, ` ${o.key}${o.rule ? ` (${o.rule})` : ""}`),
        ),
      ),
    );
    const advanced = h(
      "label",
      { class: "check advanced-toggle" },
      h("input", {
        type: "checkbox",
        checked: showKeys,
        onchange: (e) => {
          showKeys = e.target.checked;
          form.classList.toggle("show-keys", showKeys);
        },
      }),
      t("advancedOptions"),
    );
    form.classList.toggle("show-keys", showKeys);
    form.replaceChildren(
      ...[
        h("h2", {}, t("seats")),
        ...seatRows,
        seats.length < 6
          ? h(
              "button",
              {
                type: "button",
                onclick: () => {
                  seats.push({ kind: "bot", level: "medium", name: "", colour: freeColour() });
                  draw();
                },
              },
              t("addSeat"),
            )
          : null,
        h("h2", {}, t("expansions")),
        h(
          "div",
          { class: "sets" },
          h(
            "label",
            { class: "check" },
            h("input", { type: "checkbox", checked: true, disabled: true }),
            t("set_base"),
          ),
          ...setBoxes,
        ),
        chosen.has("half")
          ? h(
              "label",
              { class: "option" },
              h("span", { class: "key" }, t("tileFile")),
              h("input", {
                type: "file",
                accept: ".toml",
                onchange: async (e) => {
                  tileFile = e.target.files[0] ? await e.target.files[0].text() : null;
                },
              }),
            )
          : null,
        optionRows.length
          ? h("details", { class: "options" }, h("summary", {}, t("options")), ...optionRows, advanced)
          : null,
        h("p", {}, h("button", { class: "primary", type: "submit" }, t("create"))),
      ].filter((c) => c !== null),
    );
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const names = defaultNames(seats);
    const body = {
      seats: seats.map((s, i) => ({
        ...(s.kind === "bot"
          ? { bot: s.level, name: names[i] }
          : s.kind === "open"
            ? { open: true }
            : { name: names[i] }),
        colour: s.colour,
      })),
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
  root.replaceChildren(
    header(),
    h(
      "main",
      { class: "page" },
      h("h1", {}, t("newGame")),
      friends ? h("p", { class: "muted" }, t("friendsHowTo")) : null,
      form,
    ),
  );
}

// A rule option's control: a choice among its values, or, for a range of numbers (`1..24`), a number input with
// those bounds (the default first in either).
function optionInput(o, values) {
  const range = o.values.map((v) => /^(-?\d+)\.\.(-?\d+)$/.exec(v)).find(Boolean);
  if (range) {
    return h("input", {
      type: "number",
      min: range[1],
      max: range[2],
      step: 1,
      required: true,
      value: values[o.key] ?? o.default,
      "aria-label": optionName(o),
      oninput: (e) => {
        values[o.key] = e.target.value;
      },
    });
  }
  return h(
    "select",
    {
      "aria-label": optionName(o),
      onchange: (e) => {
        values[o.key] = e.target.value;
      },
    },
    o.values.map((v, i) =>
      h(
        "option",
        { value: v, selected: (values[o.key] ?? o.default) === v },
        i === 0 ? `${valueName(o, v)} (${t("defaultValue")})` : valueName(o, v),
      ),
    ),
  );
}

function invites(created) {
  const people = created.seats.filter((s) => s.token);
  const rows = people.map((s) => {
    const link = `${location.origin}${s.invite}`;
    return h(
      "div",
      { class: "invite" },
      h("strong", {}, `${s.seat} ${s.name}`),
      h("input", { value: link, readonly: true, "aria-label": s.name }),
      h(
        "button",
        {
          onclick: async (e) => {
            try {
              await navigator.clipboard.writeText(link);
              e.target.textContent = t("copied");
            } catch {
              e.target.previousSibling.select();
            }
          },
        },
        t("copy"),
      ),
    );
  });
  root.replaceChildren(
    header(),
    h(
      "main",
      { class: "page" },
      h("h1", {}, t("invites")),
      ...rows,
      h(
        "p",
        {},
        h(
          "button",
          { class: "primary", onclick: () => go(`/play/${created.id}`) },
          `${t("playHere")} (${t("hotSeat")})`,
        ),
      ),
    ),
  );
}
