// The rules at hand: every rule option of the server with its explanation, its values and its default.

export async function rulesPage({ root, header, h, t }) {
  const r = await fetch("/api/rules").then((x) => x.json()).catch(() => ({ options: [] }));
  const rows = r.options.map((o) => h("tr", {}, h("td", {}, h("code", {}, o.key)), h("td", {}, o.rule || ""),
    h("td", {}, o.values.join(" | ")), h("td", {}, o.doc)));
  root.replaceChildren(header(), h("main", { class: "page" }, h("h1", {}, t("rules")),
    h("table", { class: "rules" }, h("thead", {}, h("tr", {}, h("th", {}, "key"), h("th", {}, "rule"), h("th", {}, "values"), h("th", {}, ""))), h("tbody", {}, rows))));
}
