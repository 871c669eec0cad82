// AugmentedKappaSweep: the κ′(p) curve with p(A), p(E) and a rule at the slider's p;
// the four item classes of Rosenberg & Binkowski §6 with their mean κ_x at 0.5, p and
// 1; the selected class's items with case type, κ_x and every annotator's labels (text).
import { fmt, h, listen, mountChart } from "./base.js";
import { cellText, select, slider } from "./controls.js";

const HEADERS = { "kappa_0.5": "κ (p = 0.5)", kappa_p: "κ (p)", "kappa_1.0": "κ (p = 1)" };

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
  body.append(caption, controls, h("div", { class: "iaa-main" }, chartBox, panel),
    itemsTitle, h("div", { class: "iaa-scroll" }, itemsTable));

  // ---------------------------------------------------------- controls
  const parts = [
    slider(model, "p", { label: "p", min: 0.5, max: 1, step: 0.005, digits: 3,
      title: "weight of a primary label (1 − p for the secondary)" }),
    slider(model, "delta", { label: "δ", min: 0, max: 1, step: 0.01,
      title: "classes 3 and 4: κ_x changes by more than δ from p = 0.5 to p = 1" }),
    slider(model, "tau", { label: "τ", min: -1, max: 1, step: 0.01,
      title: "class 1 when the mean of κ_x at 0.5 and 1 is at least τ, else class 2" }),
  ];
  const pairLabels = model.get("pair_labels");
  if (pairLabels.length) {
    parts.push(select(model, "pair", [[-1, "average of pairs"],
      ...pairLabels.map((text, k) => [k, text])], { label: "pair" }));
  }
  controls.append(...parts.map((part) => part.node));

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
    notes.replaceChildren(...(s.note ? [h("p", {}, s.note)] : []));
  };

  const drawClasses = () => {
    const rows = model.get("classes");
    const chosen = model.get("selected_class");
    const total = Math.max(1, rows.reduce((t, r) => t + r.count, 0));
    const p = model.get("summary").p;
    classTable.replaceChildren(
      h("thead", {}, h("tr", {}, h("th", {}, "class"), h("th", {}, "items"),
        h("th", {}, "mean κ (0.5)"), h("th", {}, `mean κ (${fmt(p, 3)})`), h("th", {}, "mean κ (1)"))),
      h("tbody", {}, rows.map((r) => h("tr", {
        "data-class": r.key, class: r.key === chosen ? "iaa-selected" : undefined,
        tabindex: "0",
        onclick: () => { model.set("selected_class", r.key); model.save_changes(); },
        onkeydown: (event) => {
          if (event.key === "Enter") { model.set("selected_class", r.key); model.save_changes(); }
        },
      },
      h("th", {}, r.label),
      h("td", { class: "iaa-count" }, h("span", { class: "iaa-bar",
        style: `width:${(60 * r.count / total).toFixed(1)}px` }), String(r.count)),
      h("td", {}, fmt(r.mean_05)), h("td", { class: "iaa-mean-p" }, fmt(r.mean_p)),
      h("td", {}, fmt(r.mean_1))))));
  };

  const drawItems = () => {
    const t = model.get("class_table");
    const label = (model.get("classes").find((r) => r.key === t.class) || {}).label || t.class;
    const rows = t.rows || [];
    itemsTitle.textContent = t.class
      ? `${label}: ${t.total} items${rows.length < t.total ? ` (first ${rows.length} shown)` : ""}` +
        " · tick an item to draw its κ_x(p)"
      : "";
    const chosen = new Set(model.get("selected_items"));
    const toggle = (code, on) => {
      const next = model.get("selected_items").filter((c) => c !== code);
      if (on) next.push(code);
      model.set("selected_items", next);
      model.save_changes();
    };
    itemsTable.replaceChildren(
      h("thead", {}, h("tr", {}, h("th", {}, "curve"),
        (t.columns || []).map((c) => h("th", {}, HEADERS[c] || c)))),
      h("tbody", {}, rows.map((row, k) => {
        const code = t.codes[k];
        const box = h("input", { type: "checkbox", "aria-label": `curve of ${row[0]}` });
        box.checked = chosen.has(code);
        box.addEventListener("change", () => toggle(code, box.checked));
        return h("tr", { "data-code": String(code) }, h("td", {}, box),
          row.map((cell, j) => h("td", { class: j >= 5 ? "iaa-labels" : undefined },
            j >= 2 && j < 5 ? fmt(cell) : cellText(cell))));
      })));
  };

  // ---------------------------------------------------------- wiring
  const chart = mountChart(model, "curve", chartBox, {
    root,
    announce: true,
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
  ];
  return () => {
    offs.forEach((off) => off());
    parts.forEach((part) => part.dispose());
    chart.dispose();
  };
}
