// ContingencyMatrix: a heatmap of two annotators' contingency table (marginals, diagonal
// marked) beside the coefficients computed in Python. In teaching mode a click adds one
// item to a cell, a shift-click removes one, and a count can be typed; from the keyboard,
// arrow keys move a focus cell and + / Enter add, − / Shift+Enter remove. Python recomputes.
import { fmt, h, keepingFocus, listen, mountChart } from "./base.js";

// A label from the data inside running text: isolated from it (bidi), as text.
const label = (text) => h("bdi", {}, text);

let widgets = 0; // numbers the ids of each widget's elements that others refer to

// The count's text colour, picked per cell from the fill the colour scale gives it:
// white or black, whichever contrasts more with that fill (WCAG ratio, Vega's contrast()).
const COUNT_COLOUR = "contrast('#ffffff', scale('color', datum.count)) >= "
  + "contrast('#000000', scale('color', datum.count)) ? '#ffffff' : '#000000'";

// Column labels horizontal (rotated, "+" read as "×" and "−" as "/", Σ lay sideways) and
// short: a column is as wide as its longest label, up to MAX_STEP px and to MAX_WIDTH px
// for all columns together; longer labels end in "…" (the full label is on the row axis
// and in the cell's tooltip). Whatever the labels, a column is wide enough for the
// widest count it shows (the grand total Σ, bold 11 px digits of about 7 px each): counts
// of 1e5 items never run into their neighbours.
const MIN_STEP = 30;
const MAX_STEP = 72;
const MAX_WIDTH = 720;
const DIGIT_PX = 7;
export const countDigits = (matrix) =>
  String(matrix.reduce((s, row) => s + row.reduce((t, c) => t + c, 0), 0)).length;
function legibleSpec(spec, categories, digits) {
  const longest = Math.max(1, ...categories.map((c) => [...String(c)].length));
  const widest = Math.max(MIN_STEP, Math.min(MAX_STEP, Math.floor(MAX_WIDTH / (categories.length + 1))));
  const step = Math.max(MIN_STEP, DIGIT_PX * digits + 10, Math.min(widest, 7 * longest + 10));
  spec.width = { step };
  for (const layer of spec.layer || []) {
    const enc = layer.encoding || {};
    if (enc.x && enc.x.axis) Object.assign(enc.x.axis, { labelAngle: 0, labelLimit: step - 4 });
    if (layer.mark && layer.mark.type === "text" && enc.color && enc.color.condition) {
      enc.color = { value: { expr: COUNT_COLOUR } };
    }
  }
  return spec;
}

export function renderContingency({ model, shell }) {
  const { root, body } = shell;
  root.classList.add("iaa-contingency");
  let selected = null; // [i, j] of the cell being edited (clicked or under the keyboard focus)

  const caption = h("div", { class: "iaa-caption" });
  const pairBox = h("div", { class: "iaa-pair" });
  const leftOut = h("div", { class: "iaa-left-out" });
  const chartBox = h("div", { class: "iaa-chart" });
  const focusMark = h("div", { class: "iaa-focus-cell", hidden: true });
  const chartWrap = h("div", { class: "iaa-chart-wrap" }, chartBox, focusMark);
  const coefTable = h("table", { class: "iaa-coefs" });
  const perCategory = h("table", { class: "iaa-per-category" });
  const notes = h("div", { class: "iaa-notes" });
  const editor = h("div", { class: "iaa-editor" });
  const panel = h("div", { class: "iaa-panel" }, coefTable,
    h("div", { class: "iaa-subtitle" }, "Specific agreement per category"), perCategory, notes);
  body.append(caption, pairBox, leftOut, h("div", { class: "iaa-main" }, chartWrap, panel), editor);

  // ---------------------------------------------------------- editing
  const setCount = (i, j, count) => {
    const matrix = model.get("matrix").map((row) => row.slice());
    if (!matrix[i] || matrix[i][j] === undefined) return;
    matrix[i][j] = Math.max(0, Math.round(count));
    model.set("matrix", matrix);
    model.save_changes();
  };

  const input = h("input", {
    type: "number", min: "0", step: "1", class: "iaa-count", "aria-label": "count of the selected cell",
    disabled: true,
  });
  widgets += 1;
  const where = h("span", { class: "iaa-where", id: `iaa-contingency-where-${widgets}`,
    "aria-live": "polite" }, "no cell selected");
  const commit = () => {
    const value = Number(input.value);
    if (selected && input.value !== "" && Number.isFinite(value) && value >= 0) {
      setCount(...selected, value);
    }
  };
  input.addEventListener("change", commit);
  input.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Enter") commit();
  });
  editor.append(
    h("span", { class: "iaa-hint" }, "Click a cell: +1 · shift-click: −1 · keys on the table: "
      + "arrows move, + or Enter: +1, − or Shift+Enter: −1 · or type a count: "),
    where, input,
  );

  const showSelected = () => {
    const matrix = model.get("matrix");
    const cats = model.get("categories");
    if (!selected || !matrix[selected[0]]) {
      where.textContent = "no cell selected";
      input.disabled = true;
      input.value = ""; // (the count of a cell of the pair before would read as this one's)
      drawFocus();
      return;
    }
    const [i, j] = selected;
    const [a, b] = model.get("pair").map((k) => model.get("annotators")[k]);
    // <bdi>: a label's own direction marks (U+202E …) cannot turn the text around it
    where.replaceChildren(label(a), ": ", label(cats[i]), " × ", label(b), ": ", label(cats[j]),
      ` (${matrix[i][j]}) `);
    input.disabled = false;
    if (document.activeElement !== input) input.value = String(matrix[i][j]);
    drawFocus();
  };

  // the keyboard's focus cell: a frame over the cell's rect (the chart is not re-embedded)
  const cellRect = (i, j) => {
    const rects = chartBox.querySelectorAll("svg g.layer_0_marks path");
    const k = model.get("matrix").length;
    return rects.length === k * k ? rects[i * k + j] : null;
  };
  function drawFocus() {
    const rect = selected && document.activeElement === chartWrap ? cellRect(...selected) : null;
    const box = rect && rect.getBoundingClientRect();
    focusMark.hidden = !box || box.width < 1; // (not laid out: e.g. while a theme loads)
    if (focusMark.hidden) return;
    const outer = chartWrap.getBoundingClientRect();
    Object.assign(focusMark.style, { left: `${box.left - outer.left}px`, top: `${box.top - outer.top}px`,
      width: `${box.width}px`, height: `${box.height}px` });
  }

  const KEYS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  chartWrap.addEventListener("keydown", (event) => {
    if (!model.get("editable")) return;
    const k = model.get("matrix").length;
    const [i, j] = selected || [0, 0];
    let handled = true;
    if (KEYS[event.key]) {
      const [di, dj] = selected ? KEYS[event.key] : [0, 0];
      selected = [Math.min(k - 1, Math.max(0, i + di)), Math.min(k - 1, Math.max(0, j + dj))];
    } else if (event.key === "+" || event.key === "=" || (event.key === "Enter" && !event.shiftKey)) {
      selected = [i, j];
      setCount(i, j, model.get("matrix")[i][j] + 1);
    } else if (event.key === "-" || event.key === "−" || (event.key === "Enter" && event.shiftKey)) {
      selected = [i, j];
      setCount(i, j, model.get("matrix")[i][j] - 1);
    } else {
      handled = false;
    }
    if (handled) {
      event.preventDefault();
      event.stopPropagation(); // the notebook's own shortcuts must not see these keys
      showSelected();
    }
  });
  chartWrap.addEventListener("focus", () => {
    if (!selected) selected = [0, 0];
    showSelected();
  });
  chartWrap.addEventListener("blur", drawFocus);

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

  // the items of the data this pair's table leaves out (one of them gave no label)
  const drawLeftOut = () => {
    const out = model.get("left_out") || {};
    if (!out.total) {
      leftOut.replaceChildren();
      return;
    }
    const names = model.get("annotators");
    const [a, b] = model.get("pair");
    const parts = [];
    if (out.no_first) parts.push([out.no_first, " without a label from ", label(names[a])]);
    if (out.no_second) parts.push([out.no_second, " without a label from ", label(names[b])]);
    if (out.no_both) parts.push([out.no_both, " labelled by neither"]);
    const items = out.items || [];
    leftOut.replaceChildren(h("details", {},
      h("summary", {}, `${out.total} item${out.total === 1 ? "" : "s"} left out for this pair: `,
        ...parts.flatMap((p, k) => (k ? [", ", ...p] : p))),
      h("table", { class: "iaa-items iaa-left-out-items" },
        h("thead", {}, h("tr", {}, h("th", {}, "item"), h("th", {}, "why"))),
        h("tbody", {}, items.map(([item, why]) => h("tr", {}, h("td", {}, item), h("td", {}, why))))),
      items.length < out.total ? h("div", { class: "iaa-caption" },
        `first ${items.length} of ${out.total} shown`) : null));
  };

  const drawPairSelector = () => {
    const names = model.get("annotators");
    if (names.length <= 2) {
      pairBox.replaceChildren();
      return;
    }
    const pair = model.get("pair");
    // an annotator chosen in one slot is disabled in the other: the pair is always two people
    const select = (slot) => {
      const node = h("select", { class: `iaa-select-${slot}`, "data-focus-key": `pair-${slot}`,
        "aria-label": slot === 0 ? "annotator of the rows" : "annotator of the columns" },
      names.map((name, k) => h("option", { value: String(k), disabled: k === pair[1 - slot] }, name)));
      node.value = String(pair[slot]);
      node.addEventListener("change", () => {
        const next = model.get("pair").slice();
        next[slot] = Number(node.value);
        if (next[0] === next[1]) { node.value = String(pair[slot]); return; }
        model.set("pair", next);
        model.save_changes();
      });
      return node;
    };
    // a pair change redraws the selectors: the focus stays on the one the user changed
    keepingFocus(pairBox, () => pairBox.replaceChildren(h("span", {}, "Pair: "), select(0),
      h("span", {}, " × "), select(1)));
  };

  // the benchmark band retained at 95% cumulative probability (Gwet 2014, ch. 6), read
  // as what it is: the coefficient is in that band or a higher one with that probability
  // (not a verdict that it is "Poor" with certainty); a row without a band says why.
  // The title lists every band's membership probability.
  const bandCell = (r) => {
    const b = r.band;
    if (!b) {
      const why = r.value === null || Number.isNaN(r.value) ? "none: the value is undefined"
        : ["cohen_kappa", "gwet_ac1"].includes(r.key) ? "none: no standard error"
          : "not rated";
      return h("td", { class: "iaa-band iaa-no-band" }, why);
    }
    const all = b.bands.map(([name, p]) => `${name}: ${fmt(p)}`).join("\n");
    return h("td", { class: "iaa-band", "data-band": b.band || "", "data-probability": String(b.probability),
      title: `membership probability of each band\n${all}` },
    b.band === null ? "none reaches 95% probability"
      : ["at least ", label(b.band), " ", h("span", { class: "iaa-band-probability" },
        `(probability ${fmt(b.probability, 2)})`)]);
  };

  const drawPanel = () => {
    const rows = model.get("coefficients");
    coefTable.replaceChildren(
      h("thead", {}, h("tr", {}, h("th", {}, "coefficient"), h("th", {}, "value"),
        h("th", {}, "95% interval"), h("th", {}, "chance agreement"),
        h("th", { class: "iaa-band-head", title: "Gwet (2014, ch. 6): the highest band whose "
          + "cumulative membership probability reaches 95%, and that probability" },
        `band (${model.get("scale")})`))),
      h("tbody", {}, rows.map((r) => h("tr", { "data-coef": r.key },
        h("th", { title: r.name }, r.label),
        h("td", { class: "iaa-value", "data-value": r.value === null ? "nan" : String(r.value) }, fmt(r.value)),
        h("td", { class: "iaa-interval", title: r.ci_method || "" },
          r.ci ? `[${fmt(r.ci[0])}, ${fmt(r.ci[1])}] ` : "",
          r.ci ? h("span", { class: "iaa-method" }, r.ci_method.split(" ")[0]) : ""),
        h("td", { class: "iaa-expected" }, fmt(r.expected)),
        bandCell(r))))
    );
    coefTable.prepend(h("caption", { class: "iaa-band-caption" }, "band (κ and AC1; the others "
      + `are not rated): the highest band of the ${model.get("scale")} scale that the coefficient `
      + "reaches with at least 95% probability, given its standard error, and that probability "
      + "(Gwet 2014, ch. 6). The scale is one convention among several (landis_koch, fleiss, "
      + "altman, krippendorff: the widget's scale= argument), none of them a test."));
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
    const editable = model.get("editable");
    editor.hidden = !editable;
    root.classList.toggle("iaa-editable", editable);
    // the table takes the keyboard's focus only when its counts can be edited
    if (editable) {
      chartWrap.setAttribute("tabindex", "0");
      chartWrap.setAttribute("role", "group");
      chartWrap.setAttribute("aria-label", "contingency table: arrow keys move the focus cell, "
        + "+ or Enter adds an item, − or Shift+Enter removes one");
      chartWrap.setAttribute("aria-describedby", where.id);
    } else {
      for (const name of ["tabindex", "role", "aria-label", "aria-describedby"]) {
        chartWrap.removeAttribute(name);
      }
    }
  };

  // ---------------------------------------------------------- wiring
  // the chart's text summary (it is an image to assistive technology)
  const describe = () => {
    const names = model.get("annotators");
    const [a, b] = model.get("pair");
    const cats = model.get("categories");
    const matrix = model.get("matrix");
    const cells = matrix.flatMap((row, i) => row.map((c, j) => `${cats[i]} × ${cats[j]}: ${c}`));
    const more = cells.length > 36 ? ` and ${cells.length - 36} more cells` : "";
    return `Contingency table, rows ${names[a]}, columns ${names[b]}: `
      + `${cells.slice(0, 36).join("; ")}${more}.`;
  };
  let drawnDigits = 0;
  const chart = mountChart(model, "heatmap", chartBox, {
    root,
    onClick,
    announce: true,
    patch: (spec) => legibleSpec(spec, model.get("categories"),
      (drawnDigits = countDigits(model.get("matrix")))),
    describe,
  });
  root.addEventListener("iaa:redraw", drawFocus);

  drawCaption();
  drawLeftOut();
  drawPairSelector();
  drawPanel();
  drawEditor();
  showSelected();
  const offs = [
    listen(model, "change:matrix", () => {
      drawCaption(); showSelected();
      // columns widen (or narrow) when the counts gain (or lose) a digit
      if (countDigits(model.get("matrix")) !== drawnDigits) chart.redraw();
    }),
    listen(model, "change:annotators", drawPairSelector),
    listen(model, "change:pair", () => {
      drawPairSelector(); drawCaption(); drawLeftOut(); selected = null; showSelected();
    }),
    listen(model, "change:left_out", drawLeftOut),
    listen(model, "change:coefficients", drawPanel),
    listen(model, "change:per_category", drawPanel),
    listen(model, "change:notes", drawPanel),
    listen(model, "change:scale", drawPanel),
    listen(model, "change:editable", drawEditor),
    listen(model, "change:categories", () => { showSelected(); chart.redraw(); }),
  ];
  return () => {
    offs.forEach((off) => off());
    chart.dispose();
  };
}
