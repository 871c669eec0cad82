// SparseAgreementExplorer: SPA under every weighting scheme with its spread when
// annotations are dropped at random, the schemes' weight curves (Figures 4–5) and the
// variance of SPA against usable annotations (Figures 6–7) of Nørregaard & Derczynski.
import { fmt, h, listen, mountChart } from "./base.js";
import { numberInput, slider } from "./controls.js";

export function renderSparse({ model, shell }) {
  const { root, body } = shell;
  root.classList.add("iaa-sparse");

  const caption = h("div", { class: "iaa-caption" });
  const controls = h("div", { class: "iaa-controls" });
  const spaBox = h("div", { class: "iaa-chart iaa-chart-spa" });
  const weightBox = h("div", { class: "iaa-chart iaa-chart-weights" });
  const varianceBox = h("div", { class: "iaa-chart iaa-chart-variance" });
  const table = h("table", { class: "iaa-coefs iaa-schemes" });
  body.append(caption, controls,
    h("div", { class: "iaa-main" }, spaBox, h("div", { class: "iaa-panel" }, table)),
    h("div", { class: "iaa-main" }, weightBox, varianceBox));

  const parts = [
    slider(model, "drop", { label: "drop", min: 0, max: 0.95, step: 0.01, digits: 2,
      title: "probability of dropping each annotation (missing at random)" }),
    numberInput(model, "n_rounds", { label: "rounds", min: 2, max: 100000, step: 50 }),
    numberInput(model, "seed", { label: "seed", min: 0, step: 1 }),
  ];
  controls.append(...parts.map((part) => part.node));

  const drawCaption = () => {
    const i = model.get("info");
    const excluded = Object.entries(i.excluded || {}).map(([why, n]) => `${n} ${why}`);
    caption.textContent = `${i.n_items} items · ${i.n_annotations} annotations ` +
      `(${i.n_usable} on ${i.n_usable_items} items with two or more) · ` +
      `${i.n_categories} categories · up to ${i.max_annotations} annotations per item` +
      (excluded.length ? ` · excluded: ${excluded.join(", ")}` : "");
  };

  const drawTable = () => {
    const rows = model.get("summary");
    const drop = model.get("drop");
    table.replaceChildren(
      h("thead", {}, h("tr", {}, h("th", {}, "scheme"), h("th", {}, "SPA"),
        h("th", {}, `mean, drop ${fmt(drop, 2)}`), h("th", {}, "sd"), h("th", {}, "95% of rounds"))),
      h("tbody", {}, rows.map((r) => h("tr", { "data-scheme": r.scheme },
        h("th", {}, r.label),
        h("td", { class: "iaa-value", "data-value": String(r.full) }, fmt(r.full, 4)),
        h("td", { class: "iaa-mean", "data-value": r.mean === null ? "nan" : String(r.mean) },
          fmt(r.mean, 4)),
        h("td", { class: "iaa-sd", "data-value": r.sd === null ? "nan" : String(r.sd) }, fmt(r.sd, 5)),
        h("td", { class: "iaa-interval" }, `[${fmt(r.q025, 4)}, ${fmt(r.q975, 4)}]`)))));
  };

  // one chart counts redraws (the one the drop slider changes); the others just draw
  const charts = [
    mountChart(model, "spa", spaBox, { root, announce: true }),
    mountChart(model, "weights", weightBox, { root }),
    mountChart(model, "variance", varianceBox, { root }),
  ];
  drawCaption();
  drawTable();
  const offs = [
    listen(model, "change:info", drawCaption),
    listen(model, "change:summary", drawTable),
  ];
  return () => {
    offs.forEach((off) => off());
    parts.forEach((part) => part.dispose());
    charts.forEach((chart) => chart.dispose());
  };
}
