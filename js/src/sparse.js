// SparseAgreementExplorer: SPA under every weighting scheme with its spread when
// annotations are dropped at random, the schemes' weight curves (Figures 4–5) and the
// variance of SPA against usable annotations (Figures 6–7) of Nørregaard & Derczynski.
import { fmt, h, listen, mountChart } from "./base.js";
import { numberInput, slider } from "./controls.js";
import { ownClipIds } from "./zoomx.js";

// SPA chart (charts.spa_schemes_chart) with its x axis held at `domain`: every layer's
// x scale takes that domain and clips what falls outside it; the value labels stand at
// the axis's right end (the rounds' strips may fill the whole width). Its labels move with the
// rounds (and past a held axis): the view's size follows them on every update, where
// Vega would size it once, at the first run, and cut what later moves past its edge.
function fixedXSpec(spec, domain) {
  spec.autosize = { type: "pad", resize: true };
  if (!domain) return spec;
  for (const layer of spec.layer || []) {
    const x = layer.encoding && layer.encoding.x;
    if (x) x.scale = { ...(x.scale || {}), domain, zero: false, nice: false };
    const mark = typeof layer.mark === "string" ? { type: layer.mark } : layer.mark;
    if (mark.type !== "text") {
      layer.mark = { ...mark, clip: true };
    } else if (x && x.field) { // labels stand right of the held axis, never over the strips
      layer.transform = [...(layer.transform || []),
        { calculate: `${Number(domain[1])}`, as: "x_held" }];
      x.field = "x_held";
    }
  }
  return spec;
}

// Figures 6–7 (charts.spa_variance_chart): every scheme's line labelled at the right
// end of the lines: a swatch in the line's colour and the scheme's name in the text
// colour (a light hue such as yellow is not legible as text on white). The ends lie
// close together (and "edges" and "inverse variance, uniform" coincide under uniform
// labels), so the labels stand one per row, in the order in which the lines end (the
// highest first), as a column centred on the ends' median. The dashed rule says what it
// marks: the mean usable annotations at the slider's drop.
function labelledVarianceSpec(spec) {
  for (const panel of spec.vconcat || []) {
    const line = (panel.layer || []).find((l) => l.mark && (l.mark === "line" || l.mark.type === "line"));
    if (!line) continue;
    const field = line.encoding.y.field;
    const ends = [
      { joinaggregate: [{ op: "max", field: "n_usable", as: "n_end" }], groupby: ["scheme"] },
      { filter: "datum.n_usable === datum.n_end" },
      { joinaggregate: [{ op: "median", field, as: "mid" }, { op: "count", as: "lines" }] },
      { window: [{ op: "row_number", as: "order" }], sort: [{ field, order: "descending" }] },
    ];
    const at = { x: line.encoding.x, y: { ...line.encoding.y, field: "mid" } };
    const dy = { expr: "(datum.order - (datum.lines + 1) / 2) * 12" };
    panel.layer.push({
      data: line.data, name: `${line.name || "line"}_swatches`, transform: ends,
      mark: { type: "text", text: "●", align: "left", baseline: "middle", dx: 6, fontSize: 10, dy },
      encoding: { ...at, color: line.encoding.color },
    }, {
      data: line.data, name: `${line.name || "line"}_labels`, transform: ends,
      mark: { type: "text", align: "left", baseline: "middle", dx: 16, fontSize: 10, dy },
      encoding: { ...at, text: { field: "scheme", type: "nominal" } },
    });
    const rule = panel.layer.find((l) => l.mark && (l.mark === "rule" || l.mark.type === "rule"));
    if (rule) {
      panel.layer.push({
        data: rule.data, name: `${rule.name || "rule"}_label`,
        transform: [{ calculate: "'dashed line: mean usable annotations at ' + datum.label",
          as: "says" }],
        // above the plot's left end, wherever the rule is (the line labels are on the right)
        mark: { type: "text", align: "left", baseline: "bottom", dy: -3, fontSize: 10 },
        encoding: { x: { value: 0 }, y: { value: 0 }, text: { field: "says", type: "nominal" } },
      });
    }
  }
  return spec;
}

// Lines that coincide stay distinguishable (under uniform labels "edges" and "inverse
// variance, uniform" are one curve): a dashed line (charts._scheme_dash) is drawn thin
// over a wide solid one, so that the solid one shows on both sides of the dashes.
function distinctLines(spec) {
  const layers = [spec, ...(spec.layer || []), ...(spec.vconcat || []).flatMap((p) => p.layer || [])];
  for (const layer of layers) {
    const dash = layer.encoding && layer.encoding.strokeDash;
    if (!dash || !dash.scale || !Array.isArray(dash.scale.range)) continue;
    const solid = (pattern) => !pattern || pattern.every((v, k) => (k % 2 ? v === 0 : true));
    const dashed = dash.scale.domain.filter((_, k) => !solid(dash.scale.range[k]));
    layer.encoding.strokeWidth = { value: 3.5, condition: {
      test: `indexof(${JSON.stringify(dashed)}, datum['${dash.field}']) >= 0`, value: 1.5 } };
  }
  return spec;
}

export function renderSparse({ model, shell }) {
  const { root, body } = shell;
  root.classList.add("iaa-sparse");

  const caption = h("div", { class: "iaa-caption" });
  const controls = h("div", { class: "iaa-controls" });
  const statusText = h("span", { class: "iaa-status-text" });
  const busyBar = h("progress", { "aria-label": "recomputing", hidden: true });
  const status = h("div", { class: "iaa-progress", role: "status" }, statusText, busyBar);
  const spaBox = h("div", { class: "iaa-chart iaa-chart-spa" });
  const weightBox = h("div", { class: "iaa-chart iaa-chart-weights" });
  const varianceBox = h("div", { class: "iaa-chart iaa-chart-variance" });
  const table = h("table", { class: "iaa-coefs iaa-schemes" });
  body.append(caption, controls, status,
    h("div", { class: "iaa-main" }, spaBox, h("div", { class: "iaa-panel" }, table)),
    h("div", { class: "iaa-main" }, weightBox, varianceBox));

  const parts = [
    slider(model, "drop", { label: "drop", min: 0, max: 0.95, step: 0.01, digits: 2,
      title: "probability of dropping each annotation (missing at random)" }),
    numberInput(model, "n_rounds", { label: "rounds", min: 2, max: 100000, step: 50 }),
    numberInput(model, "seed", { label: "seed", min: 0, step: 1 }),
  ];
  // hold the SPA chart's x axis where it is while the drop slider moves (spreads then
  // compare by eye); unticked, the axis follows the rounds again
  const hold = h("input", { type: "checkbox", class: "iaa-fix-x" });
  const holdLabel = h("label", { class: "iaa-control" }, hold,
    h("span", { class: "iaa-control-label" }, "fix x axis"));
  let fixedX = null;
  controls.append(...parts.map((part) => part.node), holdLabel);

  // a recompute that takes longer than BUSY_MS shows that it is working (the kernel
  // computes while the page waits): from a control's change until Python answers
  const BUSY_MS = 300;
  let busyTimer = null;
  const idle = () => {
    clearTimeout(busyTimer);
    busyTimer = null;
    root.classList.remove("iaa-busy");
    root.dataset.busy = "";
    if (busyBar.hidden) return;
    busyBar.hidden = true;
    statusText.textContent = "";
  };
  const working = () => {
    if (busyTimer !== null) return;
    busyTimer = setTimeout(() => {
      root.classList.add("iaa-busy");
      root.dataset.busy = "true";
      busyBar.hidden = false;
      statusText.textContent = `recomputing ${model.get("n_rounds")} rounds…`;
    }, BUSY_MS);
  };

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
  const describeSpa = () => {
    const rows = model.get("summary") || [];
    return `SPA by weighting scheme at drop ${fmt(model.get("drop"), 2)}: ` + rows.map((r) =>
      `${r.label} ${fmt(r.full, 4)}, 95% of rounds ${fmt(r.q025, 4)} to ${fmt(r.q975, 4)}`).join("; ")
      + (fixedX ? `. x axis fixed at ${fmt(fixedX[0], 4)} to ${fmt(fixedX[1], 4)}.` : ".");
  };
  const schemes = () => (model.get("summary") || []).map((r) => r.label).join(", ");
  const spa = mountChart(model, "spa", spaBox, { root, announce: true,
    patch: (spec) => fixedXSpec(spec, fixedX), describe: describeSpa });
  const charts = [
    spa,
    mountChart(model, "weights", weightBox, { root, patch: distinctLines,
      describe: () => `Figures 4–5: each scheme's weight of an item against its number of `
        + `annotations, divided by the scheme's largest weight; schemes: ${schemes()}.` }),
    mountChart(model, "variance", varianceBox, { root,
      patch: (spec) => distinctLines(labelledVarianceSpec(spec)),
      describe: () => `Figures 6–7: variance of SPA against the mean number of usable `
        + `annotations (log scale), and its difference from the flat scheme; one labelled `
        + `line per scheme: ${schemes()}.` }),
  ];
  hold.addEventListener("change", () => {
    const view = spa.view;
    fixedX = hold.checked && view ? view.scale("x").domain().slice() : null;
    root.dataset.fixedX = fixedX ? fixedX.join(",") : "";
    spa.redraw();
  });
  // a held axis clips the SPA chart: clip paths with ids of this page's own (zoomx.js)
  const ownClips = () => { if (spa.view) ownClipIds(spa.view); };
  root.addEventListener("iaa:redraw", ownClips);
  drawCaption();
  drawTable();
  const offs = [
    listen(model, "change:info", drawCaption),
    listen(model, "change:summary", drawTable),
    listen(model, "change:drop", working),
    listen(model, "change:n_rounds", working),
    listen(model, "change:seed", working),
    listen(model, "change:answered", idle),
    () => clearTimeout(busyTimer),
    () => root.removeEventListener("iaa:redraw", ownClips),
  ];
  return () => {
    offs.forEach((off) => off());
    parts.forEach((part) => part.dispose());
    charts.forEach((chart) => chart.dispose());
  };
}
