// ProjectExplorer on span data (iaa_widgets/widgets/span_explorer.py): the headline
// (span F1), each pair's span F1, the documents with unmatched or mismatched units (one
// page at a time, from Python) and, for the document clicked, its units by annotator as
// GammaExplorer's lanes (the same chart and zoom: zoomx.js) and its text.
// Names, labels and texts from the data are text nodes (h() in base.js), never HTML.
import { announceRedraw, count, fmt, h, keepingFocus, listen, mountChart, onThemeChange } from "./base.js";
import { select } from "./controls.js";
import { pageButtons, pageSizeSelect } from "./pager.js";
import { ownClipIds, zoomableSpec, zoomControls } from "./zoomx.js";

const MATCHES = { exact: "exact bounds", overlap: "overlap" };

export function renderSpanExplorer({ model, shell }) {
  const { root, body } = shell;
  root.classList.add("iaa-explorer", "iaa-explorer-spans");

  const headline = h("div", { class: "iaa-headline", role: "status" });
  const controls = h("div", { class: "iaa-controls" });
  const pairsBox = h("section", { class: "iaa-panel iaa-pairs-panel", "aria-label": "annotator pairs" });
  const described = h("div", { class: "iaa-selection", "aria-live": "polite" });
  const pager = h("div", { class: "iaa-pager" });
  const size = pageSizeSelect(model, "documents");
  const itemsTable = h("table", { class: "iaa-items iaa-explorer-items iaa-span-documents" });
  const docHead = h("div", { class: "iaa-document-head" });
  const laneBox = h("div", { class: "iaa-chart iaa-chart-continuum" });
  const lanes = h("div", { class: "iaa-lanes" }, laneBox);
  const textBox = h("div", { class: "iaa-document-text" });
  const docBox = h("section", { class: "iaa-document-panel", "aria-label": "document", hidden: true },
    docHead, lanes, textBox);
  body.append(headline, controls, h("div", { class: "iaa-explorer-panels" }, pairsBox),
    h("section", { class: "iaa-items-panel", "aria-label": "documents" },
      described, h("div", { class: "iaa-items-tools" }, size.node, pager), h("div", { class: "iaa-scroll" }, itemsTable)), docBox);

  const match = select(model, "match", model.get("matches").map((m) => [m, MATCHES[m] || m]),
    { label: "matching" });
  controls.append(match.node);

  const drawHeadline = () => {
    const s = model.get("headline");
    headline.replaceChildren(
      h("span", { class: "iaa-headline-value", "data-value": String(s.value) },
        `span F1 = ${fmt(s.value)}`),
      ` (micro over annotator pairs and labels, ${MATCHES[s.match] || s.match}; `
        + `macro over labels ${fmt(s.macro)}; Hripcsak & Rothschild 2005)`,
      h("div", { class: "iaa-caption" },
        `${count(s.n_items)} document${s.n_items === 1 ? "" : "s"} · ${count(s.n_annotators)} annotators · `
        + `${count(s.n_units)} unit${s.n_units === 1 ? "" : "s"} · `
        + `${count(s.n_disagreements)} documents with unmatched or mismatched units`),
      h("div", { class: "iaa-notes" }, "The κ matrix, leave-one-out and label panels compare "
        + "labels of items and are not shown for spans; for γ open one document in "
        + "iaa.GammaExplorer(spans[document])."),
      s.note ? h("div", { class: "iaa-notes" }, s.note) : null);
  };

  const drawPairs = () => {
    const rows = model.get("pairs").rows || [];
    pairsBox.replaceChildren(h("h4", {}, "Span F1 of each pair"),
      h("div", { class: "iaa-scroll" }, h("table", { class: "iaa-grid iaa-span-pairs" },
        h("thead", {}, h("tr", {}, ["annotator", "annotator", "F1", "matched", "units"].map(
          (c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, rows.map(([a, b, f1, m, n]) => h("tr", {},
          h("th", { scope: "row" }, a), h("th", { scope: "row" }, b),
          h("td", {}, fmt(f1)), h("td", {}, count(m)), h("td", {}, count(n))))))));
  };

  const open = (code) => { model.set("document", code); model.save_changes(); };
  const drawItems = () => {
    const t = model.get("items_page");
    const rows = t.rows || [];
    const columns = t.columns || [];
    const shownDoc = model.get("document");
    described.textContent = `${count(t.total)} ${t.total === 1 ? "document" : "documents"} with `
      + "unmatched or mismatched units, lowest span F1 first"
      + (rows.length < t.total ? ` (${count(t.offset + 1)}–${count(t.offset + rows.length)} shown)` : "")
      + "; click one for its units";
    keepingFocus(pager, () => pager.replaceChildren(...pageButtons(model, t, "documents")), ["next", "prev"]);
    size.sync();
    const title = { f1: "span F1 of the document (its pairs and labels)",
      unmatched: "(unit, pair) entries without a partner at any label",
      mismatched: "pairs matching in position only when labels are ignored" };
    itemsTable.replaceChildren(
      h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col", title: title[c] }, c)))),
      h("tbody", {}, rows.map((row, r) => {
        const code = t.codes[r];
        return h("tr", { class: code === shownDoc ? "iaa-selected" : undefined }, row.map((cell, j) => (
          columns[j] === "item"
            ? h("th", { scope: "row" }, h("button", { type: "button", class: "iaa-name iaa-doc",
              "data-code": String(code), "aria-pressed": code === shownDoc ? "true" : "false",
              "aria-label": `document ${cell}: show its units by annotator`,
              onclick: () => open(code) }, cell))
            : h("td", {}, columns[j] === "f1" ? fmt(cell, 2) : cell === null ? "—" : String(cell)))));
      })));
  };

  // the lanes: GammaExplorer's continuum chart, zoomable along x as there
  let signal = null;
  let continuum = null;
  let zoom = null;
  const describe = () => {
    const d = model.get("document_panel");
    const units = model.get("_datasets").span_units || [];
    return `Units of document ${d.item} by annotator, one lane per annotator with units, `
      + `coloured by category: ${units.length} units.`;
  };
  const onRedraw = () => {
    if (!continuum || !continuum.view) return;
    ownClipIds(continuum.view);
    zoom.sync();
  };
  const mountLanes = () => {
    continuum = mountChart(model, "continuum", laneBox, { root, describe, announce: true,
      patch: (spec) => {
        // spans have no γ alignment: its fields are left out of the units' tooltip
        const units = spec.layer[0].encoding;
        units.tooltip = units.tooltip.filter((t) => !["alignment", "aligned_units"].includes(t.field));
        signal = zoomableSpec(spec, "zoom");
        return spec;
      } });
    zoom = zoomControls(continuum, () => signal, { what: "document" });
    lanes.prepend(zoom.node);
    root.addEventListener("iaa:redraw", onRedraw);
  };

  const drawDocument = () => {
    const d = model.get("document_panel");
    docBox.hidden = !d.item;
    if (!d.item) return;
    const counts = d.counts.map(([a, n]) => `${a} ${n === null ? "did not annotate it" : `${n} unit${n === 1 ? "" : "s"}`}`);
    docHead.replaceChildren(h("h4", {}, `Document ${d.item}`),
      h("div", { class: "iaa-caption" }, `span F1 ${fmt(d.f1, 2)} · ${d.unmatched} unmatched · `
        + `${d.mismatched} mismatched · ${counts.join(" · ")}`));
    if (d.text === null || d.text === undefined) {
      textBox.replaceChildren(h("div", { class: "iaa-notes" }, "no text given (text= of ProjectExplorer)"));
    } else {
      textBox.replaceChildren(h("h4", {}, "Text"), h("div", { class: "iaa-text" }, d.text));
    }
    if (!continuum) mountLanes();
    else continuum.redraw(); // a new document: its own x range, zoom reset
    drawItems();
  };

  drawHeadline();
  drawPairs();
  drawItems();
  drawDocument();
  const announce = () => announceRedraw(root);
  announce();
  const offs = [
    listen(model, "change:headline", drawHeadline),
    listen(model, "change:pairs", drawPairs),
    listen(model, "change:items_page", () => { drawItems(); announce(); }),
    listen(model, "change:document_panel", drawDocument),
    onThemeChange(announce),
    () => root.removeEventListener("iaa:redraw", onRedraw),
  ];
  return () => {
    offs.forEach((off) => off());
    match.dispose();
    if (zoom) zoom.dispose();
    if (continuum) continuum.dispose();
  };
}
