// AugmentedKappaSweep: the κ′(p) curve with p(A), p(E) and a rule at the slider's p;
// the four item classes of Rosenberg & Binkowski §6 with their mean κ_x at 0.5, p and
// 1; the selected class's items with case type, κ_x and every annotator's labels (text).
import { fmt, h, keepingFocus, listen, mountChart, rovingFocus } from "./base.js";
import { cellText, csvLink, select, slider } from "./controls.js";

const HEADERS = { "kappa_0.5": "κ (p = 0.5)", "kappa_1.0": "κ (p = 1)" };
// a column's name; κ_x at the slider's p names that p (also in the CSV)
const header = (column, p) => (column === "kappa_p" ? `κ (p = ${fmt(p, 3)})` : HEADERS[column] || column);
const Y_TITLE = "κ′, p(A), p(E) and κ_x";
const ITEM_QUANTITY = "κ_x of an item"; // charts.SWEEP_QUANTITIES[3]
// dash patterns that tell the ticked items' κ_x curves apart (each also labelled)
const DASHES = [[4, 3], [1, 2], [8, 3], [6, 2, 1, 2], [2, 5], [10, 2, 2, 2]];

// Changes to the curve chart's spec (charts.sweep_curve_chart) made on the page:
// point labels turn inwards near p = 1 (never cut off at the edge); each ticked item's
// κ_x curve has its own dash and its name at its end; the legend lists κ_x only when
// a κ_x curve is drawn.
function sweepSpec(spec, itemsDrawn) {
  const layers = spec.layer || [];
  for (const layer of layers) {
    const enc = layer.encoding || {};
    if (enc.y && enc.y.field === "value") enc.y.title = Y_TITLE; // (the y axis says what it shows)
    if (enc.color && enc.color.scale && Array.isArray(enc.color.scale.domain) && !itemsDrawn) {
      enc.color.scale.domain = enc.color.scale.domain.filter((q) => q !== ITEM_QUANTITY);
    }
    if (layer.name === "labels" && layer.mark && layer.mark.type === "text") {
      layer.mark.align = { expr: "datum.p > 0.8 ? 'right' : 'left'" };
      layer.mark.dx = { expr: "datum.p > 0.8 ? -7 : 7" };
    }
  }
  const items = layers.find((l) => l.data && l.data.name === "sweep_items");
  if (items) {
    items.encoding.strokeDash = { field: "item", type: "nominal", legend: null,
      scale: { range: DASHES } };
    delete items.mark.strokeDash;
    // as visible as the other curves: full opacity, their width
    Object.assign(items.mark, { opacity: 1, strokeWidth: 2 });
    layers.push({
      data: { name: "sweep_items" },
      name: "item_labels",
      // at the curve's start (p = 0.5), where items' κ_x differ more than at p = 1 (where
      // many reach 1); curves that start at the same κ_x stack their names
      transform: [
        { joinaggregate: [{ op: "min", field: "p", as: "p_start" }], groupby: ["item"] },
        { filter: "datum.p === datum.p_start" },
        { calculate: "format(datum.value, '.2f')", as: "start" },
        { window: [{ op: "row_number", as: "stack" }], groupby: ["start"], sort: [{ field: "item" }] },
      ],
      mark: { type: "text", align: "left", dx: 4, fontSize: 11,
        dy: { expr: "-6 - (datum.stack - 1) * 12" } },
      // in the theme's text colour: the κ_x hue is too light on white to read as text
      encoding: { x: items.encoding.x, y: items.encoding.y, text: { field: "item", type: "nominal" } },
    });
  }
  return spec;
}

export function renderSweep({ model, shell }) {
  const { root, body } = shell;
  root.classList.add("iaa-sweep");

  const caption = h("div", { class: "iaa-caption" });
  const controls = h("div", { class: "iaa-controls" });
  const chartBox = h("div", { class: "iaa-chart" });
  const summary = h("table", { class: "iaa-coefs iaa-summary" });
  const notes = h("div", { class: "iaa-notes" });
  const classTable = h("table", { class: "iaa-classes" });
  const itemsTitle = h("div", { class: "iaa-subtitle iaa-items-title" });
  const itemsTable = h("table", { class: "iaa-items" });
  const panel = h("div", { class: "iaa-panel" }, summary,
    h("div", { class: "iaa-subtitle" }, "Item classes (§6): click a row to list its items"),
    classTable, notes);
  const pager = h("div", { class: "iaa-pager" });
  body.append(caption, controls, h("div", { class: "iaa-main" }, chartBox, panel),
    itemsTitle, pager, h("div", { class: "iaa-scroll" }, itemsTable));

  // ---------------------------------------------------------- controls
  const parts = [
    slider(model, "p", { label: "p", min: 0.5, max: 1, step: 0.005, digits: 3,
      title: "weight of a primary label (1 − p for the secondary)" }),
    slider(model, "delta", { label: "δ, least change of κ_x", min: 0, max: 1, step: 0.01,
      title: "classes 3 and 4: κ_x changes by more than δ from p = 0.5 to p = 1" }),
    slider(model, "tau", { label: "τ, agreement for class 1", min: -1, max: 1, step: 0.01,
      title: "class 1 when the mean of κ_x at 0.5 and 1 is at least τ, else class 2" }),
  ];
  // the values of τ where an item changes class (1 ↔ 2): ticks on the slider and listed
  const tauSlider = parts[2].input;
  const tauTicks = h("datalist", { id: `iaa-tau-marks-${Math.random().toString(36).slice(2)}` });
  tauSlider.setAttribute("list", tauTicks.id);
  const tauText = h("span", { class: "iaa-tau-marks" });
  const drawTauMarks = () => {
    const marks = model.get("tau_marks") || [];
    tauTicks.replaceChildren(...marks.map((v) => h("option", { value: String(v) })));
    const distinct = [...new Set(marks.map((v) => fmt(v, 2)))]; // as the slider shows τ
    const shown = distinct.slice(0, 8).join(", ");
    tauText.textContent = marks.length
      ? `classes 1 and 2 change at τ = ${shown}${distinct.length > 8 ? ` and ${distinct.length - 8} more` : ""}`
      : "no item changes class 1 ↔ 2 with τ";
    tauSlider.setAttribute("aria-description", tauText.textContent);
  };
  const pairLabels = model.get("pair_labels");
  if (pairLabels.length) {
    parts.push(select(model, "pair", [[-1, "average of pairs"],
      ...pairLabels.map((text, k) => [k, text])], { label: "pair" }));
  }
  controls.append(...parts.map((part) => part.node), tauTicks, tauText);
  drawTauMarks();

  // ---------------------------------------------------------- panel
  const drawSummary = () => {
    const s = model.get("summary");
    const row = (key, label, value) => h("tr", { "data-key": key },
      h("th", {}, label),
      h("td", { class: "iaa-value", "data-value": value === null ? "nan" : String(value) }, fmt(value)));
    summary.replaceChildren(h("tbody", {},
      row("kappa", `κ′ at p = ${fmt(s.p, 3)}`, s.kappa),
      row("p_a", "p(A)", s.p_a), row("p_e", "p(E)", s.p_e),
      row("kappa_05", "κ′ at p = 0.5", s.kappa_05), row("kappa_1", "κ′ at p = 1", s.kappa_1)));
    const excluded = Object.entries(s.excluded || {}).map(([why, n]) => `${n} ${why}`);
    caption.textContent = `${s.n_items} items · ${s.n_annotators} annotators` +
      (excluded.length ? ` · excluded: ${excluded.join(", ")}` : "");
    const why = [];
    if (s.note) why.push(s.note);
    // without secondary labels every item's κ_x, and so κ′, is the same at every p
    if (s.n_secondary === 0) {
      why.push("No secondary labels in these data: p weighs a primary label against a "
        + "secondary one, so with none κ′, p(A) and p(E) do not change with p (flat curves).");
    }
    notes.replaceChildren(...why.map((text) => h("p", {}, text)));
  };

  const drawClasses = () => {
    const rows = model.get("classes");
    const chosen = model.get("selected_class");
    const total = Math.max(1, rows.reduce((t, r) => t + r.count, 0));
    const p = model.get("summary").p;
    const choose = (key) => { model.set("selected_class", key); model.save_changes(); };
    // one tab stop (the chosen row), arrows move between rows, Enter or Space lists a
    // class; the redraw that follows keeps the focus on the same class's row
    const body = h("tbody", {}, rows.map((r) => h("tr", {
        "data-class": r.key, "data-focus-key": `class-${r.key}`,
        class: r.key === chosen ? "iaa-selected" : undefined,
        "aria-selected": r.key === chosen ? "true" : "false",
        "aria-label": `${r.label}: ${r.count} items; Enter or Space lists them`,
        onclick: () => choose(r.key),
        onkeydown: (event) => {
          if (event.key !== "Enter" && event.key !== " ") return;
          event.preventDefault(); // (Space would scroll the page)
          choose(r.key);
        },
      },
      h("th", {}, r.label),
      h("td", { class: "iaa-count" }, h("span", { class: "iaa-bar",
        style: `width:${(60 * r.count / total).toFixed(1)}px` }), String(r.count)),
      h("td", {}, fmt(r.mean_05)), h("td", { class: "iaa-mean-p" }, fmt(r.mean_p)),
      h("td", {}, fmt(r.mean_1)))));
    rovingFocus([...body.rows], Math.max(0, rows.findIndex((r) => r.key === chosen)));
    keepingFocus(classTable, () => classTable.replaceChildren(
      h("thead", {}, h("tr", {}, h("th", {}, "class"), h("th", {}, "items"),
        h("th", {}, "mean κ (0.5)"), h("th", {}, `mean κ (${fmt(p, 3)})`), h("th", {}, "mean κ (1)"))),
      body));
  };

  const drawItems = () => {
    const t = model.get("class_table");
    const label = (model.get("classes").find((r) => r.key === t.class) || {}).label || t.class;
    const rows = t.rows || [];
    const offset = Number.isInteger(t.offset) ? t.offset : 0;
    const span = rows.length < t.total ? ` (${offset + 1}–${offset + rows.length} shown)` : "";
    itemsTitle.textContent = t.class
      ? `${label}: ${t.total} items${span} · tick an item to draw its κ_x(p)`
      : "";
    drawPager(t, offset, rows.length);
    const chosen = new Set(model.get("selected_items"));
    const p = model.get("summary").p;
    const toggle = (code, on) => {
      const next = model.get("selected_items").filter((c) => c !== code);
      if (on) next.push(code);
      model.set("selected_items", next);
      model.save_changes();
    };
    const boxes = [];
    const body = h("tbody", {}, rows.map((row, k) => {
      const code = t.codes[k];
      const box = h("input", { type: "checkbox", "aria-label": `curve of ${row[0]}`,
        "data-focus-key": `item-${code}`, "data-code": String(code) });
      box.checked = chosen.has(code);
      box.addEventListener("change", () => toggle(code, box.checked));
      boxes.push(box);
      return h("tr", { "data-code": String(code) }, h("td", {}, box),
        row.map((cell, j) => h("td", { class: j >= 5 ? "iaa-labels" : undefined },
          j >= 2 && j < 5 ? fmt(cell) : cellText(cell))));
    }));
    // the list is one tab stop (the item last focused), arrows move along it, Space
    // ticks; ticking redraws the list and the focus stays on that item's box
    rovingFocus(boxes, Math.max(0, (t.codes || []).indexOf(lastItem)));
    keepingFocus(itemsTable, () => itemsTable.replaceChildren(
      h("thead", {}, h("tr", {}, h("th", {}, "curve"),
        (t.columns || []).map((c) => h("th", {}, header(c, p))))),
      body));
  };
  let lastItem = null; // the code of the item whose box last had the focus
  itemsTable.addEventListener("focusin", (event) => {
    if (event.target.dataset.code) lastItem = Number(event.target.dataset.code);
  });

  // pages of max_rows items (when the Python side pages: `row_offset`) and the shown
  // rows as a CSV file (text, made on the page)
  const drawPager = (t, offset, shown) => {
    if (!t.class || !shown) {
      pager.replaceChildren();
      return;
    }
    const parts = [];
    const step = model.get("max_rows") || shown;
    if (Number.isInteger(t.offset) && t.total > shown) {
      const go = (to) => { model.set("row_offset", to); model.save_changes(); };
      parts.push(
        h("button", { type: "button", class: "iaa-page-prev", disabled: offset <= 0,
          "data-focus-key": "prev",
          "aria-label": "previous page of items", onclick: () => go(Math.max(0, offset - step)) }, "‹ previous"),
        h("button", { type: "button", class: "iaa-page-next", disabled: offset + shown >= t.total,
          "data-focus-key": "next",
          "aria-label": "next page of items", onclick: () => go(offset + step) }, "next ›"));
    }
    const names = (t.columns || []).map((c) => header(c, model.get("summary").p));
    parts.push(csvLink(`items_${t.class}_${offset + 1}-${offset + shown}.csv`, names, t.rows || [],
      `download these ${shown} rows as CSV`));
    // a page turn redraws the buttons: the focus stays on the one pressed (or the other
    // one, when the last or first page disables it)
    keepingFocus(pager, () => pager.replaceChildren(...parts), ["next", "prev"]);
  };

  // ---------------------------------------------------------- wiring
  // κ_x curves are drawn once their rows arrive (mountChart draws the chart again when
  // a dataset gets its first rows or loses its last: the legend lists κ_x with them)
  const itemsDrawn = () => (model.get("_datasets").sweep_items || []).length > 0;
  const describe = () => {
    const s = model.get("summary");
    const n = model.get("selected_items").length;
    return `Augmented kappa over p from 0.5 to 1: κ′ ${fmt(s.kappa_05)} at p = 0.5, `
      + `${fmt(s.kappa_1)} at p = 1; at p = ${fmt(s.p, 3)} κ′ = ${fmt(s.kappa)}, `
      + `p(A) = ${fmt(s.p_a)}, p(E) = ${fmt(s.p_e)}`
      + (n ? `; κ_x curves of ${n} ticked item${n === 1 ? "" : "s"}.` : ".");
  };
  const chart = mountChart(model, "curve", chartBox, {
    root,
    announce: true,
    patch: (spec) => sweepSpec(spec, itemsDrawn()),
    describe,
  });
  drawSummary();
  drawClasses();
  drawItems();
  const offs = [
    listen(model, "change:summary", () => { drawSummary(); drawClasses(); }),
    listen(model, "change:classes", drawClasses),
    listen(model, "change:selected_class", drawClasses),
    listen(model, "change:class_table", drawItems),
    listen(model, "change:selected_items", drawItems),
    listen(model, "change:tau_marks", drawTauMarks),
  ];
  return () => {
    offs.forEach((off) => off());
    parts.forEach((part) => part.dispose());
    chart.dispose();
  };
}
