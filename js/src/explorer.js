// ProjectExplorer: a headline, the annotator × annotator matrix, the annotators and labels
// panels and the items table, sharing one selection (the `query` traitlet). Every panel is
// an HTML table of buttons, so it is its own text alternative and takes the keyboard (Tab,
// Enter, Space); a click narrows the items, which Python sends one page at a time.
// Labels and names from the data are text nodes (h() in base.js), never HTML.
import { announceRedraw, fmt, h, listen, onThemeChange } from "./base.js";
import { select } from "./controls.js";
import { renderSpanExplorer } from "./explorer_spans.js";
import "./explorer.css";

const MEASURE_NAMES = {
  fleiss_kappa: "Fleiss' κ", krippendorff_alpha: "Krippendorff's α",
  davies_fleiss_kappa: "Conger's κ", gwet_ac1: "Gwet's AC1", percent_agreement: "A_o",
  bennett_s: "Bennett's S", cohen_kappa: "Cohen's κ", scott_pi: "Scott's π",
};
const nameOf = (m) => MEASURE_NAMES[m] || m;
const CONSENSUS_NAMES = {
  majority: "majority vote", dawid_skene: "Dawid–Skene", mace: "MACE", given: "the model given",
};
// what each annotator is compared with, in words
const comparedWith = (c) => (c === "majority" || !c ? "the majority of the others"
  : `the consensus of ${CONSENSUS_NAMES[c] || c}`);
const pct = (v) => (v === null || v === undefined ? "—" : `${(100 * v).toFixed(0)} %`);
const signed = (v, d = 3) => (v === null || v === undefined ? "—"
  : `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v).toFixed(d)}`);

// A cell's background for a value in [-1, 1]: blue above 0, orange below, by strength.
function heat(value) {
  if (value === null || value === undefined) return "";
  const a = Math.min(1, Math.abs(value));
  return value >= 0 ? `background: rgba(49, 130, 189, ${(0.08 + 0.5 * a).toFixed(2)})`
    : `background: rgba(230, 120, 20, ${(0.08 + 0.5 * a).toFixed(2)})`;
}

// The pager of a table that Python sends one page at a time (`t`: its items_page):
// previous and next buttons setting the `page` traitlet, none for a single page.
export function pageButtons(model, t, what) {
  const go = (page) => { model.set("page", page); model.save_changes(); };
  return t.pages > 1 ? [
    h("button", { type: "button", class: "iaa-page-prev", disabled: t.page <= 0,
      "aria-label": `previous page of ${what}`, onclick: () => go(t.page - 1) }, "‹ previous"),
    h("span", {}, `page ${t.page + 1} of ${t.pages}`),
    h("button", { type: "button", class: "iaa-page-next", disabled: t.page >= t.pages - 1,
      "aria-label": `next page of ${what}`, onclick: () => go(t.page + 1) }, "next ›"),
  ] : [];
}

export function renderExplorer({ model, shell }) {
  if (model.get("mode") === "spans") return renderSpanExplorer({ model, shell }); // span data
  const { root, body } = shell;
  root.classList.add("iaa-explorer");
  const names = () => model.get("annotator_names");
  const labels = () => model.get("label_names");

  const headline = h("div", { class: "iaa-headline", role: "status" });
  const controls = h("div", { class: "iaa-controls" });
  const matrixBox = h("section", { class: "iaa-panel iaa-matrix-panel", "aria-label": "annotator by annotator agreement" });
  const annotatorsBox = h("section", { class: "iaa-panel iaa-annotators-panel", "aria-label": "annotators" });
  const labelsBox = h("section", { class: "iaa-panel iaa-labels-panel", "aria-label": "labels" });
  const filters = h("div", { class: "iaa-filters" });
  const described = h("div", { class: "iaa-selection", "aria-live": "polite" });
  const pager = h("div", { class: "iaa-pager" });
  const itemsTable = h("table", { class: "iaa-items iaa-explorer-items" });
  const downloads = h("div", { class: "iaa-downloads" });
  body.append(headline, controls,
    h("div", { class: "iaa-explorer-panels" }, matrixBox, annotatorsBox, labelsBox),
    h("section", { class: "iaa-items-panel", "aria-label": "items" },
      filters, described, pager, h("div", { class: "iaa-scroll" }, itemsTable), downloads));

  const setQuery = (annotators = [], labelCodes = []) => {
    model.set("query", { annotators, labels: labelCodes });
    model.save_changes();
  };
  const query = () => {
    const q = model.get("query") || {};
    return { annotators: q.annotators || [], labels: q.labels || [] };
  };

  // ---------------------------------------------------------------- controls
  const parts = [
    select(model, "measure", model.get("measures").map((m) => [m, nameOf(m)]),
      { label: "measure" }),
    select(model, "pair_measure", model.get("pair_measures").map((m) => [m, nameOf(m)]),
      { label: "pairs" }),
    select(model, "consensus", model.get("consensus_options").map((c) => [c, CONSENSUS_NAMES[c] || c]),
      { label: "consensus" }),
  ];
  controls.append(...parts.map((p) => p.node));

  // ---------------------------------------------------------------- headline
  const drawHeadline = () => {
    const s = model.get("headline");
    const interval = s.ci_low === null || s.ci_low === undefined ? ""
      : ` (95 % ${s.ci_method}: ${fmt(s.ci_low)} to ${fmt(s.ci_high)})`;
    const band = s.band ? ` · ${s.scale}: at least ${s.band} (95 % cumulative probability, Gwet 2014)` : "";
    headline.replaceChildren(...[
      h("span", { class: "iaa-headline-value", "data-value": String(s.value) },
        `${nameOf(s.measure)} = ${fmt(s.value)}`), interval, band,
      h("div", { class: "iaa-caption" },
        `${s.n_items} items · ${s.n_annotators} annotators · ${s.n_ratings} ratings · `
        + `coverage ${pct(s.coverage)} · ${s.n_disagreements} items where ratings differ`),
      model.get("intervals") === "computing"
        ? h("div", { class: "iaa-notes iaa-computing" }, "bootstrap intervals: computing…") : null,
      s.note ? h("div", { class: "iaa-notes" }, s.note) : null].filter(Boolean)); // (replaceChildren writes null as text)
  };

  // ---------------------------------------------------------------- matrix
  const drawMatrix = () => {
    const m = model.get("matrix");
    const all = names();
    const q = query();
    const chosen = q.annotators.length === 2 ? q.annotators : [];
    const head = h("tr", {}, h("th", {}, ""), m.order.map((a) => h("th", { scope: "col", title: all[a] }, all[a])));
    const rows = m.order.map((a, r) => h("tr", {}, h("th", { scope: "row", title: all[a] }, all[a]),
      m.order.map((b, c) => {
        if (a === b) return h("td", { class: "iaa-diagonal" }, "");
        const v = m.values[r][c];
        const n = m.n_items[r][c];
        const text = `${all[a]} × ${all[b]}: ${nameOf(m.measure)} ${fmt(v)}, 95 % interval `
          + `${fmt(m.ci_low[r][c])} to ${fmt(m.ci_high[r][c])}, ${n} shared items`;
        const on = chosen.includes(a) && chosen.includes(b);
        return h("td", { style: heat(v) }, h("button", {
          type: "button", class: `iaa-cell${on ? " iaa-on" : ""}`, title: text,
          "aria-label": `${text}; list the items they disagree on`, "aria-pressed": on ? "true" : "false",
          "data-a": String(a), "data-b": String(b),
          onclick: () => setQuery([a, b], []),
        }, h("span", { class: "iaa-cell-value" }, fmt(v, 2)), h("span", { class: "iaa-cell-n" }, String(n))));
      })));
    matrixBox.replaceChildren(
      h("h4", {}, `${nameOf(m.measure)} of each pair`),
      h("div", { class: "iaa-caption" }, "value and shared items; hover for the interval; "
        + "similar annotators sit together"),
      h("div", { class: "iaa-scroll" }, h("table", { class: "iaa-grid iaa-pair-matrix" },
        h("thead", {}, head), h("tbody", {}, rows))));
  };

  // ---------------------------------------------------------------- annotators
  const drawAnnotators = () => {
    const p = model.get("annotators_panel");
    const all = names();
    const labs = labels();
    const q = query();
    const focus = q.annotators.length === 1 ? q.annotators[0] : -1;
    const rows = [...p.rows];
    if (p.has_loo) rows.sort((x, y) => (y.delta ?? -Infinity) - (x.delta ?? -Infinity));
    const reference = p.reference;
    const head = h("tr", {}, h("th", {}, "annotator"), h("th", {}, "ratings"),
      p.has_loo ? h("th", { title: "the measure without this annotator minus the measure with all; "
        + "above 0: they drag agreement down" }, `Δ ${nameOf(p.measure)} without`) : null,
      h("th", { title: `share of their labels equal to ${comparedWith(p.consensus)}` }, "= consensus"),
      reference ? [h("th", {}, `accuracy (${reference})`), h("th", {}, "κ"), h("th", {}, "F1")] : null,
      labs.map((l, k) => h("th", { class: "iaa-usage-head", title: `share of ${l}; pooled ${pct(p.pooled[k])}` }, l)));
    const body_ = rows.map((r) => {
      const name = all[r.code];
      const drags = p.has_loo && r.delta_low !== null && r.delta_low > 0;
      const lifts = p.has_loo && r.delta_high !== null && r.delta_high < 0;
      const verdict = drags ? "drags agreement down" : lifts ? "lifts agreement" : "";
      return h("tr", { class: r.code === focus ? "iaa-selected" : undefined, "data-code": String(r.code) },
        h("th", { scope: "row" }, h("button", {
          type: "button", class: "iaa-name", "aria-pressed": r.code === focus ? "true" : "false",
          "aria-label": `${name}: list the items where their label differs from the consensus`,
          onclick: () => setQuery([r.code], []),
        }, name)),
        h("td", {}, String(r.n_ratings)),
        p.has_loo ? h("td", { class: `iaa-loo${drags ? " iaa-drags" : ""}`,
          title: `${nameOf(p.measure)} without ${name}: ${fmt(r.value)}` },
        p.loo_ready ? `${signed(r.delta)} [${signed(r.delta_low)}, ${signed(r.delta_high)}]`
          : "computing…",
        verdict ? h("span", { class: "iaa-verdict" }, ` ${verdict}`) : null) : null,
        h("td", {}, pct(r.consensus_agreement)),
        reference ? [h("td", {}, pct(r.accuracy)), h("td", {}, fmt(r.kappa)), h("td", {}, fmt(r.f1))] : null,
        r.usage.map((share, k) => {
          const diff = share === null ? null : share - p.pooled[k];
          return h("td", { class: "iaa-usage", style: heat(diff === null ? null : -2 * diff),
            title: `${name} gives ${labs[k]} to ${pct(share)} of their items (pooled ${pct(p.pooled[k])})` },
          pct(share));
        }));
    });
    annotatorsBox.replaceChildren(h("h4", {}, "Annotators"),
      h("div", { class: "iaa-caption" }, p.has_loo
        ? "Δ: the measure without them minus with all, with a 95 % paired bootstrap interval; "
          + "label shares coloured orange above the pooled share"
        : "label shares coloured orange above the pooled share"),
      h("div", { class: "iaa-scroll" }, h("table", { class: "iaa-grid iaa-annotators" },
        h("thead", {}, head), h("tbody", {}, body_))));
  };

  // ---------------------------------------------------------------- labels
  const drawLabels = () => {
    const p = model.get("labels_panel");
    const labs = labels();
    const q = query();
    const mine = p.kind === "annotator";
    const who = mine ? names()[p.annotator] : "";
    const on = (r, c) => (q.labels.length === 2 ? q.labels[0] === r && q.labels[1] === c
      : q.labels.length === 1 && r === c && q.labels[0] === r);
    const rowTotal = p.counts.map((row) => row.reduce((a, b) => a + b, 0));
    const head = h("tr", {}, h("th", {}, mine ? `${who} ↓ · consensus →` : ""),
      labs.map((l) => h("th", { scope: "col", title: l }, l)),
      mine ? null : h("th", { title: "specific agreement (Uebersax 1982)" }, "agreement"));
    const rows = p.counts.map((row, r) => h("tr", {},
      h("th", { scope: "row" }, h("button", {
        type: "button", class: "iaa-name", "aria-label": `${labs[r]}: list the items that involve it`,
        "aria-pressed": q.labels.length === 1 && q.labels[0] === r && !q.annotators.length ? "true" : "false",
        onclick: () => setQuery([], [r]),
      }, labs[r])),
      row.map((n, c) => {
        const share = rowTotal[r] ? n / rowTotal[r] : null;
        if (mine && r === c) return h("td", { class: "iaa-diagonal", style: heat(share) }, String(n));
        const text = mine ? `${who} said ${labs[r]} where ${comparedWith(p.consensus)} is ${labs[c]}: ${n}`
          : `${labs[r]} with ${labs[c]}: ${n} pairs of ratings`;
        return h("td", { style: heat(r === c ? share : share === null ? null : -share) }, h("button", {
          type: "button", class: `iaa-cell${on(r, c) ? " iaa-on" : ""}`, title: text,
          "aria-label": `${text}; list these items`, "data-r": String(r), "data-c": String(c),
          disabled: n === 0 ? true : undefined,
          onclick: () => setQuery(mine ? [p.annotator] : [], r === c ? [r] : [r, c]),
        }, String(n)));
      }),
      mine ? null : h("td", {}, fmt(p.agreement[r]))));
    labelsBox.replaceChildren(h("h4", {}, mine ? `Labels of ${who} against ${comparedWith(p.consensus)}`
      : "Labels: pairs of ratings of one item"),
    h("div", { class: "iaa-caption" }, mine ? `rows: their label; columns: ${comparedWith(p.consensus)}`
      : "click a cell for the items where the two labels were confused"),
    h("div", { class: "iaa-scroll" }, h("table", { class: "iaa-grid iaa-confusion" },
      h("thead", {}, head), h("tbody", {}, rows))));
  };

  // ---------------------------------------------------------------- items
  const describe = () => {
    const q = query();
    const all = names();
    const labs = labels();
    const a = q.annotators.map((j) => all[j]);
    const l = q.labels.map((k) => labs[k]);
    if (a.length === 2) {
      return `items ${a[0]} and ${a[1]} both rated and label differently`
        + (l.length === 2 ? `, one ${l[0]} and the other ${l[1]}` : l.length ? `, one of them ${l[0]}` : "");
    }
    if (a.length === 1) {
      return `items where ${a[0]}'s label differs from the consensus`
        + (l.length === 2 ? `: ${a[0]} said ${l[0]}, the consensus ${l[1]}` : l.length ? ` (${l[0]} on either side)` : "");
    }
    if (l.length === 2) return `items where ${l[0]} and ${l[1]} were both given`;
    if (l.length === 1) return `items involving ${l[0]} where ratings differ`;
    return "all items where ratings differ";
  };

  const drawFilters = () => {
    const q = query();
    const annotatorSelect = h("select", { class: "iaa-filter-annotator", "aria-label": "filter by annotator" },
      h("option", { value: "" }, "any annotator"),
      names().map((n, j) => h("option", { value: String(j) }, n)));
    annotatorSelect.value = q.annotators.length === 1 ? String(q.annotators[0]) : "";
    annotatorSelect.addEventListener("change", () => setQuery(
      annotatorSelect.value === "" ? [] : [Number(annotatorSelect.value)], q.labels.slice(0, 1)));
    const labelSelect = h("select", { class: "iaa-filter-label", "aria-label": "filter by label" },
      h("option", { value: "" }, "any label"),
      labels().map((n, k) => h("option", { value: String(k) }, n)));
    labelSelect.value = q.labels.length === 1 ? String(q.labels[0]) : "";
    labelSelect.addEventListener("change", () => setQuery(q.annotators,
      labelSelect.value === "" ? [] : [Number(labelSelect.value)]));
    filters.replaceChildren(
      h("label", { class: "iaa-control" }, h("span", { class: "iaa-control-label" }, "annotator"), annotatorSelect),
      h("label", { class: "iaa-control" }, h("span", { class: "iaa-control-label" }, "label"), labelSelect),
      h("button", { type: "button", class: "iaa-clear", disabled: !q.annotators.length && !q.labels.length,
        onclick: () => setQuery([], []) }, "show all disagreements"));
  };

  const drawItems = () => {
    const t = model.get("items_page");
    const rows = t.rows || [];
    const columns = t.columns || [];
    described.textContent = `${t.total} ${t.total === 1 ? "item" : "items"}: ${describe()}`
      + (rows.length < t.total ? ` (${t.offset + 1}–${t.offset + rows.length} shown, lowest agreement first)` : "");
    pager.replaceChildren(...pageButtons(model, t, "items"));
    const annotatorColumns = new Set(names());
    const consensusAt = columns.indexOf("consensus");
    itemsTable.replaceChildren(
      h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.map((row) => h("tr", {}, row.map((cell, j) => {
        const col = columns[j];
        const off = annotatorColumns.has(col) && cell !== "" && row[consensusAt] !== "" && cell !== row[consensusAt];
        const cls = col === "text" ? "iaa-text" : off ? "iaa-off" : undefined;
        return h("td", { class: cls, title: off ? `differs from the consensus ${row[consensusAt]}` : undefined },
          col === "agreement" ? fmt(cell, 2) : cell === "" && annotatorColumns.has(col) ? "—" : String(cell));
      })))));
  };

  // downloads: Python sends the whole selection as one message (never as table rows)
  const status = h("span", { class: "iaa-download-status", role: "status" });
  downloads.append(
    h("button", { type: "button", class: "iaa-export-csv",
      onclick: () => model.send({ export: "csv" }) }, "download the selection as CSV"),
    h("button", { type: "button", class: "iaa-export-adjudication",
      onclick: () => model.send({ export: "adjudication" }) }, "download an adjudication sheet"),
    status);
  const onMessage = (msg) => {
    if (!msg || !msg.download) return;
    const link = h("a", { class: "iaa-download", download: msg.download, hidden: true }, msg.download);
    link.dataset.csv = msg.content; // what the download holds, for tests and copying
    const url = URL.createObjectURL(new Blob([msg.content], { type: "text/csv;charset=utf-8" }));
    link.href = url;
    downloads.querySelectorAll(".iaa-download").forEach((old) => old.remove());
    downloads.append(link);
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    status.textContent = ` ${msg.download} ready`;
  };

  const drawAll = () => { drawMatrix(); drawAnnotators(); drawLabels(); drawFilters(); };
  drawHeadline();
  drawAll();
  drawItems();
  const announce = () => announceRedraw(root);
  announce();
  const offs = [
    listen(model, "change:headline", drawHeadline),
    listen(model, "change:intervals", drawHeadline),
    listen(model, "change:matrix", drawMatrix),
    listen(model, "change:annotators_panel", drawAnnotators),
    listen(model, "change:labels_panel", drawLabels),
    listen(model, "change:query", drawAll),
    listen(model, "change:items_page", () => { drawItems(); announce(); }),
    listen(model, "msg:custom", onMessage),
    onThemeChange(announce), // the colours follow the theme through CSS; count the redraw
  ];
  return () => {
    offs.forEach((off) => off());
    parts.forEach((p) => p.dispose());
  };
}
