// ContingencyMatrix: a heatmap of two annotators' contingency table (marginals, diagonal
// marked) beside the coefficients computed in Python. In teaching mode a click adds one
// item to a cell, a shift-click removes one, and a count can be typed; Python recomputes.
import { fmt, h, listen, mountChart } from "./base.js";

// A label from the data inside running text: isolated from it (bidi), as text.
const label = (text) => h("bdi", {}, text);

export function renderContingency({ model, shell }) {
  const { root, body } = shell;
  root.classList.add("iaa-contingency");
  let selected = null; // [i, j] of the cell being edited

  const caption = h("div", { class: "iaa-caption" });
  const pairBox = h("div", { class: "iaa-pair" });
  const chartBox = h("div", { class: "iaa-chart" });
  const coefTable = h("table", { class: "iaa-coefs" });
  const perCategory = h("table", { class: "iaa-per-category" });
  const notes = h("div", { class: "iaa-notes" });
  const editor = h("div", { class: "iaa-editor" });
  const panel = h("div", { class: "iaa-panel" }, coefTable,
    h("div", { class: "iaa-subtitle" }, "Specific agreement per category"), perCategory, notes);
  body.append(caption, pairBox, h("div", { class: "iaa-main" }, chartBox, panel), editor);

  // ---------------------------------------------------------- editing
  const setCount = (i, j, count) => {
    const matrix = model.get("matrix").map((row) => row.slice());
    if (!matrix[i] || matrix[i][j] === undefined) return;
    matrix[i][j] = Math.max(0, Math.round(count));
    model.set("matrix", matrix);
    model.save_changes();
  };

  const input = h("input", {
    type: "number", min: "0", step: "1", class: "iaa-count", "aria-label": "count", disabled: true,
  });
  const where = h("span", { class: "iaa-where" }, "no cell selected");
  const commit = () => {
    const value = Number(input.value);
    if (selected && input.value !== "" && Number.isFinite(value) && value >= 0) {
      setCount(...selected, value);
    }
  };
  input.addEventListener("change", commit);
  // keys typed here are the widget's, not JupyterLab's notebook shortcuts
  input.setAttribute("data-lm-suppress-shortcuts", "true");
  input.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Enter") commit();
  });
  editor.append(
    h("span", { class: "iaa-hint" }, "Click a cell: +1 · shift-click: −1 · or type a count: "),
    where, input,
  );

  const showSelected = () => {
    const matrix = model.get("matrix");
    const cats = model.get("categories");
    if (!selected || !matrix[selected[0]]) {
      where.textContent = "no cell selected";
      input.disabled = true;
      return;
    }
    const [i, j] = selected;
    const [a, b] = model.get("pair").map((k) => model.get("annotators")[k]);
    // <bdi>: a label's own direction marks (U+202E …) cannot turn the text around it
    where.replaceChildren(label(a), ": ", label(cats[i]), " × ", label(b), ": ", label(cats[j]), " ");
    input.disabled = false;
    if (document.activeElement !== input) input.value = String(matrix[i][j]);
  };

  const onClick = (event, datum) => {
    if (!model.get("editable") || datum.kind !== "cell") return;
    selected = [datum.i, datum.j];
    const current = model.get("matrix")[datum.i][datum.j];
    setCount(datum.i, datum.j, current + (event.shiftKey ? -1 : 1));
    showSelected();
  };

  // ---------------------------------------------------------- panel
  const drawCaption = () => {
    const names = model.get("annotators");
    const [a, b] = model.get("pair");
    const n = model.get("matrix").reduce((s, row) => s + row.reduce((t, c) => t + c, 0), 0);
    caption.replaceChildren("rows: ", label(names[a]), " · columns: ", label(names[b]),
      ` · ${n} items`);
  };

  const drawPairSelector = () => {
    const names = model.get("annotators");
    if (names.length <= 2) {
      pairBox.replaceChildren();
      return;
    }
    const pair = model.get("pair");
    const select = (slot) => {
      const node = h("select", { class: `iaa-select-${slot}`, "aria-label": `annotator ${slot + 1}` },
        names.map((name, k) => h("option", { value: String(k) }, name)));
      node.value = String(pair[slot]);
      node.addEventListener("change", () => {
        const next = model.get("pair").slice();
        next[slot] = Number(node.value);
        model.set("pair", next);
        model.save_changes();
      });
      return node;
    };
    pairBox.replaceChildren(h("span", {}, "Pair: "), select(0), h("span", {}, " × "), select(1));
  };

  const drawPanel = () => {
    const rows = model.get("coefficients");
    coefTable.replaceChildren(
      h("thead", {}, h("tr", {}, h("th", {}, "coefficient"), h("th", {}, "value"),
        h("th", {}, "95% interval"), h("th", {}, "chance agreement"))),
      h("tbody", {}, rows.map((r) => h("tr", { "data-coef": r.key },
        h("th", { title: r.name }, r.label),
        h("td", { class: "iaa-value", "data-value": r.value === null ? "nan" : String(r.value) }, fmt(r.value)),
        h("td", { class: "iaa-interval", title: r.ci_method || "" },
          r.ci ? `[${fmt(r.ci[0])}, ${fmt(r.ci[1])}] ` : "",
          r.ci ? h("span", { class: "iaa-method" }, r.ci_method.split(" ")[0]) : ""),
        h("td", { class: "iaa-expected" }, fmt(r.expected)))))
    );
    const table = model.get("per_category");
    perCategory.replaceChildren(
      h("thead", {}, h("tr", {}, (table.columns || []).map((c) => h("th", {}, c)))),
      h("tbody", {}, (table.rows || []).map((row) => h("tr", {},
        row.map((cell) => h("td", {}, Number.isInteger(cell) ? String(cell)
          : typeof cell === "number" || cell === null ? fmt(cell) : cell)))))
    );
    notes.replaceChildren(...model.get("notes").map((note) => h("p", {}, note)));
  };

  const drawEditor = () => {
    editor.hidden = !model.get("editable");
    root.classList.toggle("iaa-editable", model.get("editable"));
  };

  // ---------------------------------------------------------- wiring
  const chart = mountChart(model, "heatmap", chartBox, {
    root,
    onClick,
    announce: true,
  });

  drawCaption();
  drawPairSelector();
  drawPanel();
  drawEditor();
  showSelected();
  const offs = [
    listen(model, "change:matrix", () => { drawCaption(); showSelected(); }),
    listen(model, "change:annotators", drawPairSelector),
    listen(model, "change:pair", () => { drawPairSelector(); drawCaption(); selected = null; showSelected(); }),
    listen(model, "change:coefficients", drawPanel),
    listen(model, "change:per_category", drawPanel),
    listen(model, "change:notes", drawPanel),
    listen(model, "change:editable", drawEditor),
    listen(model, "change:categories", showSelected),
  ];
  return () => {
    offs.forEach((off) => off());
    chart.dispose();
  };
}
