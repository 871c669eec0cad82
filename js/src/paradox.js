// ParadoxExplorer: a 2 × 2 table with observed agreement held fixed, sliders for Byrt,
// Bishop & Carlin's prevalence and bias indices, the table as a heatmap and every
// coefficient beside it (issue 41). Every number comes from Python's measures on the
// table; this module only shows them (as text, never HTML).
import { fmt, h, listen, mountChart } from "./base.js";
import { slider } from "./controls.js";

export function renderParadox({ model, shell }) {
  const { root, body } = shell;
  root.classList.add("iaa-paradox");
  const controls = h("div", { class: "iaa-controls" });
  const caption = h("div", { class: "iaa-caption iaa-paradox-indices" });
  const notes = h("div", { class: "iaa-notes iaa-paradox-notes", role: "status" });
  const tableBox = h("div", { class: "iaa-chart iaa-paradox-table" });
  const values = h("table", { class: "iaa-paradox-values" });
  const valuesBox = h("div", { class: "iaa-chart iaa-paradox-bars" });
  const row = h("div", { class: "iaa-main" }, tableBox, h("div", { class: "iaa-panel" }, values, valuesBox));
  body.append(controls, caption, notes, row);

  const parts = [
    slider(model, "prevalence", { label: "prevalence index PI = (a − d)/n", min: -1, max: 1,
      step: 0.01 }),
    slider(model, "bias", { label: "bias index BI = (b − c)/n", min: -1, max: 1, step: 0.01 }),
  ];
  controls.append(...parts.map((part) => part.node));

  const drawCaption = () => {
    const i = model.get("indices") || {};
    caption.textContent = `A_o = ${fmt(i.observed)} held fixed over ${i.n} items; the table `
      + `shown has PI = ${fmt(i.prevalence)} and BI = ${fmt(i.bias)}`;
  };
  const drawNotes = () => {
    notes.replaceChildren(...(model.get("notes") || []).map((n) => h("p", {}, n)));
    notes.hidden = !notes.childElementCount;
  };
  const drawValues = () => {
    const rows = (model.get("coefficients") || []).map((c) => h("tr", { "data-key": c.key },
      h("th", { scope: "row" }, c.label),
      h("td", { class: "iaa-value", "data-value": c.value === null ? "NaN" : String(c.value) },
        fmt(c.value === null ? NaN : c.value)),
      h("td", { class: "iaa-expected" }, c.expected === null ? "" : fmt(c.expected))));
    values.replaceChildren(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "coefficient"),
      h("th", { scope: "col" }, "value"), h("th", { scope: "col" }, "chance agreement"))),
    h("tbody", {}, ...rows));
  };
  drawCaption();
  drawNotes();
  drawValues();
  const charts = [
    mountChart(model, "table", tableBox, { root, announce: true,
      describe: () => "the 2 × 2 table: counts with the raters' marginals" }),
    mountChart(model, "values", valuesBox, { root,
      describe: () => "each coefficient of the table as a bar from −1 to 1" }),
  ];
  const offs = [listen(model, "change:indices", drawCaption),
    listen(model, "change:notes", drawNotes), listen(model, "change:coefficients", drawValues)];
  return () => {
    offs.forEach((off) => off());
    parts.forEach((part) => part.dispose());
    charts.forEach((chart) => chart.dispose());
  };
}
