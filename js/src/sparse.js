// SparseAgreementExplorer: SPA under every weighting scheme with its spread when
// annotations are dropped at random, the schemes' weight curves (Figures 4–5) and the
// variance of SPA against usable annotations (Figures 6–7) of Nørregaard & Derczynski.
import { fmt, h, listen, mountChart } from "./base.js";
import { numberInput, slider } from "./controls.js";
import { ownClipIds } from "./zoomx.js";

// SPA chart (charts.spa_schemes_chart) with its x axis held at `domain`: every layer
// drawn on the x scale takes that domain and its marks are clipped to the plot (the
// value labels stand right of the plot, off the strips, held or not). Their texts
// change with the rounds: the view's size follows them on every update, where Vega
// would size it once, at the first run, and cut what later grows past its edge.
function fixedXSpec(spec, domain) {
  spec.autosize = { type: "pad", resize: true };
  if (!domain) return spec;
  for (const layer of spec.layer || []) {
    const x = layer.encoding && layer.encoding.x;
    if (!x || !x.field) continue;
    x.scale = { ...(x.scale || {}), domain, zero: false, nice: false };
    layer.mark = { ...(typeof layer.mark === "string" ? { type: layer.mark } : layer.mark),
      clip: true };
  }
  return spec;
}

// Figures 6–7 (charts.spa_variance_chart): every scheme's line labelled at its own end
// (its last point with a value: a log scale has no place for 0): a swatch in the
// line's colour and the scheme's name in the text colour (a light hue such as yellow
// is not legible as text on white). Ends that lie close (coinciding lines) would put
// labels on each other: each label is moved up or down by its scheme's entry in the
// param `<line>_end_shift` (pixels), which placeEndLabels sets after each drawing.
// The dashed rule says what it marks: the mean usable annotations at the slider's drop.
// Returns the spec and, per panel, what placeEndLabels needs (`panels`).
const END_GAP = 12; // px between the middles of two labels (font size 10)
function labelledVarianceSpec(spec) {
  const panels = [];
  (spec.vconcat || []).forEach((panel, k) => {
    const line = (panel.layer || []).find((l) => l.mark && (l.mark === "line" || l.mark.type === "line"));
    if (!line) return;
    const { x, y } = line.encoding;
    const log = Boolean(y.scale && y.scale.type === "log");
    const shift = `${line.name}_end_shift`;
    spec.params = [...(spec.params || []), { name: shift, value: {} }];
    const ends = [
      { filter: `isFinite(datum['${y.field}'])${log ? ` && datum['${y.field}'] > 0` : ""}` },
      { joinaggregate: [{ op: "max", field: x.field, as: "end" }], groupby: ["scheme"] },
      { filter: `datum['${x.field}'] === datum.end` },
    ];
    const at = { align: "left", baseline: "middle", fontSize: 10,
      dy: { expr: `${shift}[datum.scheme] || 0` } };
    panel.layer.push({
      data: line.data, name: `${line.name}_swatches`, transform: ends,
      mark: { type: "text", text: "●", dx: 6, ...at },
      encoding: { x, y, color: line.encoding.color },
    }, {
      data: line.data, name: `${line.name}_labels`, transform: ends,
      mark: { type: "text", dx: 16, ...at },
      encoding: { x, y, text: { field: "scheme", type: "nominal" } },
    });
    // (Vega-Lite names the y scale of the k-th panel of a vconcat concat_k_y)
    panels.push({ shift, data: line.data.name, x: x.field, y: y.field, scale: `concat_${k}_y` });
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
  });
  return { spec, panels };
}

// `wanted` pixel positions (sorted) moved apart to at least `gap` from each other, each
// as little as it can (least squares: a run of labels too close is centred on the mean
// of their wishes), then those past `high` or `low` pushed back inside (when they fit;
// each push keeps the gaps).
function spreadApart(wanted, gap, low, high) {
  const runs = []; // { count, sum of (wanted − gap · place in the run) }: start = sum / count
  wanted.forEach((y) => {
    runs.push({ count: 1, sum: y });
    for (let last = runs.length - 1; last > 0; last -= 1) {
      const a = runs[last - 1];
      const b = runs[last];
      if (a.sum / a.count + a.count * gap <= b.sum / b.count) break;
      a.sum += b.sum - b.count * a.count * gap; // b's wishes as if from a's first label
      a.count += b.count;
      runs.pop();
    }
  });
  const out = runs.flatMap((r) => Array.from({ length: r.count }, (_, j) => r.sum / r.count + j * gap));
  const n = out.length;
  return out.map((y, i) => Math.max(Math.min(y, high - (n - 1 - i) * gap), low + i * gap));
}

// Each line's label moved off the others (labelledVarianceSpec): the ends in the
// panel's pixels, spread apart, and each label's move set in its panel's shift param.
function placeEndLabels(view, panels) {
  for (const { shift, data, x, y, scale } of panels) {
    const ys = view.scale(scale);
    if (!ys) continue; // (no line drawn: its rows are empty, base.js dropEmptyLayers)
    const ends = new Map(); // scheme → its line's last point with a value
    for (const row of view.data(data)) {
      if (!Number.isFinite(ys(row[y]))) continue;
      const end = ends.get(row.scheme);
      if (!end || row[x] > end[x]) ends.set(row.scheme, row);
    }
    const at = [...ends.values()].map((row) => [row.scheme, ys(row[y])]).sort((a, b) => a[1] - b[1]);
    const [bottom, top] = ys.range();
    const moved = spreadApart(at.map(([, py]) => py), END_GAP, Math.min(top, bottom),
      Math.max(top, bottom));
    view.signal(shift, Object.fromEntries(at.map(([scheme, py], i) => [scheme, moved[i] - py])));
  }
  return view.runAsync();
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
  let endPanels = []; // Figures 6–7 as drawn: what placeEndLabels reads and sets
  const spa = mountChart(model, "spa", spaBox, { root, announce: true,
    patch: (spec) => fixedXSpec(spec, fixedX), describe: describeSpa });
  const charts = [
    spa,
    mountChart(model, "weights", weightBox, { root, patch: distinctLines,
      describe: () => `Figures 4–5: each scheme's weight of an item against its number of `
        + `annotations, divided by the scheme's largest weight; schemes: ${schemes()}.` }),
    mountChart(model, "variance", varianceBox, { root,
      patch: (spec) => {
        const out = labelledVarianceSpec(spec);
        endPanels = out.panels;
        return distinctLines(out.spec);
      },
      after: (view) => placeEndLabels(view, endPanels),
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
