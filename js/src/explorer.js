// ProjectExplorer: a headline, the annotator × annotator matrix, the annotators and labels
// panels and the items table, sharing one selection (the `query` traitlet). Every panel is
// an HTML table of buttons, so it is its own text alternative and takes the keyboard: each
// matrix and list is one tab stop with the arrow keys inside (gridFocus), a redraw keeps
// the focus on the control the user is on (keepingFocus), and a cell's tooltip shows on
// focus as on hover (focusTips). A click narrows the items, which Python sends one page at
// a time. Labels and names from the data are text nodes (h() in base.js), never HTML.
import { announceRedraw, count, fmt, focusTips, gridFocus, h, keepingFocus, listen,
  onThemeChange, rovingFocus } from "./base.js";
import { select } from "./controls.js";
import { renderSpanExplorer } from "./explorer_spans.js";
import { staticExplorer } from "./explorer_static.js";
import { pageButtons, pageSizeSelect } from "./pager.js";
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
// the items table's columns that are not annotators, in words
const COLUMN_WORDS = { item: "item", text: "text", agreement: "pairs agreeing",
  n_ratings: "ratings", consensus: "consensus" };
const COLUMN_TIPS = {
  agreement: "share of the item's pairs of ratings that agree (Fleiss 1971, P_i)",
  n_ratings: "how many annotators rated the item",
};
const pct = (v) => (v === null || v === undefined ? "—" : `${(100 * v).toFixed(0)} %`);
const signed = (v, d = 3) => (v === null || v === undefined ? "—"
  : `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v).toFixed(d)}`);
const NO_VARIATION = "no interval: no variation";

// A cell's background for a value in [-1, 1]: blue above 0, orange below, by strength
// (at most 45 % opaque, so that the cell's text keeps 4.5:1 in either theme).
function heat(value) {
  if (value === null || value === undefined || Number.isNaN(value)) return "";
  const a = (0.06 + 0.39 * Math.min(1, Math.abs(value))).toFixed(2);
  return value >= 0 ? `background: rgba(49, 130, 189, ${a})` : `background: rgba(230, 120, 20, ${a})`;
}

// The legend of the cell colours: a swatch per colour and what it means, as text.
function legend(entries) {
  return h("div", { class: "iaa-legend" }, entries.map(([value, text]) => h("span", { class: "iaa-legend-entry" },
    h("span", { class: "iaa-swatch", style: heat(value), "aria-hidden": "true" }), text)));
}

export function renderExplorer({ model: given, shell }) {
  if (given.get("mode") === "spans") return renderSpanExplorer({ model: given, shell }); // span data
  // a static page that embeds the items of each click answers them itself (issue 42)
  const data = given.staticData;
  const model = data && data.kind === "explorer" ? staticExplorer(given, data) : given;
  const { root, body } = shell;
  root.classList.add("iaa-explorer");
  const message = model.get("message");
  if (message) { // nothing to explore (one annotator, an empty table): say so, nothing else
    body.append(h("div", { class: "iaa-empty", role: "status" }, message));
    announceRedraw(root);
    return () => {};
  }
  const names = () => model.get("annotator_names");
  const labels = () => model.get("label_names");

  const headline = h("div", { class: "iaa-headline", role: "status" });
  const controls = h("div", { class: "iaa-controls" });
  const matrixBox = h("section", { class: "iaa-panel iaa-matrix-panel", "aria-label": "annotator by annotator agreement" });
  const annotatorsBox = h("section", { class: "iaa-panel iaa-annotators-panel", "aria-label": "annotators" });
  const labelsBox = h("section", { class: "iaa-panel iaa-labels-panel", "aria-label": "labels" });
  const groupsBox = h("section", { class: "iaa-panel iaa-groups-panel", "aria-label": "groups" });
  const filters = h("div", { class: "iaa-filters" });
  const described = h("div", { class: "iaa-selection", "aria-live": "polite" });
  const notice = h("div", { class: "iaa-notice", role: "status" });
  const pager = h("div", { class: "iaa-pager" });
  const itemsTable = h("table", { class: "iaa-items iaa-explorer-items" });
  const itemsScroll = h("div", { class: "iaa-scroll iaa-items-scroll" }, itemsTable);
  const itemsKey = h("div", { class: "iaa-caption iaa-items-key" });
  const downloads = h("div", { class: "iaa-downloads" });
  const jumpInput = h("input", { type: "text", class: "iaa-jump", "aria-label": "go to item id",
    placeholder: "item id", size: "10" });
  const jump = () => { if (jumpInput.value.trim()) model.send({ jump: jumpInput.value.trim() }); };
  jumpInput.addEventListener("keydown", (event) => {
    event.stopPropagation(); // typed text is the input's, never the notebook's
    if (event.key === "Enter") jump();
  });
  const size = pageSizeSelect(model, "items");
  const tools = h("div", { class: "iaa-items-tools" },
    h("label", { class: "iaa-control" }, h("span", { class: "iaa-control-label" }, "go to item"), jumpInput),
    h("button", { type: "button", class: "iaa-jump-go", "aria-label": "go to the item", onclick: jump },
      "go"), size.node, pager);
  const itemsPanel = h("section", { class: "iaa-items-panel", "aria-label": "items" },
    filters, described, notice, tools, itemsScroll, itemsKey, downloads);
  body.append(headline, controls,
    h("div", { class: "iaa-explorer-panels" }, matrixBox, annotatorsBox, labelsBox, groupsBox),
    legend([[0.8, "agreement (pairs; labels on the diagonal) or a share of labels above the pooled one: "
      + "blue, darker for more"], [-0.8, "below chance, confusion off the diagonal, or a share below "
      + "the pooled one: orange, darker for more"]]),
    itemsPanel);

  // a click asks Python for a new list: when it comes, it is brought into view
  let reveal = false;
  const setQuery = (annotators = [], labelCodes = []) => {
    reveal = true;
    model.set("query", { annotators, labels: labelCodes });
    model.save_changes();
  };
  const query = () => {
    const q = model.get("query") || {};
    return { annotators: q.annotators || [], labels: q.labels || [] };
  };
  const focusedKey = () => {
    const a = document.activeElement;
    return a && root.contains(a) ? a.dataset.focusKey : undefined;
  };
  // the element of `nodes` that takes the tab stop: the one focused before the redraw,
  // else the selected one
  const stop = (nodes, key) => nodes.find((n) => n && n.dataset.focusKey === key)
    || nodes.find((n) => n && n.getAttribute("aria-pressed") === "true") || null;

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
  // value, interval and verbal band first; how they are made behind a toggle (kept open
  // across redraws)
  let methodOpen = false;
  const drawHeadline = () => keepingFocus(headline, () => {
    const s = model.get("headline");
    const state = model.get("intervals");
    const still = s.n_disagreements === 0;
    const hasCi = s.ci_low !== null && s.ci_low !== undefined && !still;
    const interval = hasCi ? `[${fmt(s.ci_low)}, ${fmt(s.ci_high)}]`
      : `· ${still ? NO_VARIATION : state === "computing" ? "interval: computing…" : "no interval"}`;
    // why the bootstrap gave no interval (too few items vary …): said, not a red error
    const failed = state === "failed" && s.interval_note ? `no interval: ${s.interval_note}` : "";
    const band = s.band && !still ? `at least ${s.band.toLowerCase()} agreement` : "";
    const design = s.q_min !== undefined && s.q_min !== null && !still;
    const details = h("details", { class: "iaa-method" },
      h("summary", { "data-focus-key": "method" }, "how these numbers are made"),
      h("ul", {},
        hasCi ? h("li", {}, `[low, high]: the 95 % interval (${s.ci_method})`) : null,
        band ? h("li", {}, `band: the ${s.scale} band the value reaches with 95 % cumulative `
          + "probability (Gwet 2014, Handbook of Inter-Rater Reliability, ch. 6)") : null,
        design ? h("li", {}, `q(${s.alpha_min}): the share of bootstrap replicates below `
          + `${s.alpha_min}, the probability of failing that threshold (Krippendorff 2004)`) : null,
        design ? h("li", {}, `±${s.half_width} needs n items: a 95 % interval that narrow, the `
          + "bootstrap SE scaled by √(items / n) (iaa.sample_size, method='pilot')") : null,
        h("li", {}, `${nameOf(s.measure)}: ${s.source}`),
        h("li", {}, "coverage: the share of item × annotator cells that hold a rating")));
    details.open = methodOpen;
    details.addEventListener("toggle", () => { methodOpen = details.open; });
    headline.replaceChildren(...[
      h("div", { class: "iaa-headline-main" },
        h("span", { class: "iaa-headline-value", "data-value": String(s.value) },
          `${nameOf(s.measure)} = ${fmt(s.value)}`), " ",
        h("span", { class: "iaa-headline-interval" }, interval),
        band ? [" · ", h("span", { class: "iaa-headline-band" }, band)] : null),
      design ? h("div", { class: "iaa-headline-design" },
        h("span", { class: "iaa-headline-q", "data-value": String(s.q_min) },
          `q(${s.alpha_min}) = ${fmt(s.q_min)}, the chance of falling below ${s.alpha_min}`),
        " · ",
        h("span", { class: "iaa-headline-items", "data-value": String(s.items_for_half_width) },
          `±${s.half_width} needs ${count(s.items_for_half_width)} items`)) : null,
      still ? h("div", { class: "iaa-still" }, "all annotators agree on every item: nothing to adjudicate") : null,
      h("div", { class: "iaa-caption" },
        `${count(s.n_items)} items · ${count(s.n_annotators)} annotators · ${count(s.n_ratings)} ratings · `
        + `coverage ${pct(s.coverage)} · ${count(s.n_disagreements)} items where ratings differ`
        + (s.reference ? ` · ${s.reference}: the reference, not a rater` : "")),
      s.note ? h("div", { class: "iaa-notes" }, s.note) : null,
      failed ? h("div", { class: "iaa-notes iaa-interval-note" }, failed) : null,
      details].filter(Boolean)); // (replaceChildren writes null as text)
  });

  // ---------------------------------------------------------------- matrix
  const drawMatrix = () => {
    const m = model.get("matrix");
    const all = names();
    const q = query();
    const [qa, qb] = q.annotators.length === 2 ? q.annotators : [-1, -1];
    const still = model.get("headline").n_disagreements === 0;
    const key = focusedKey();
    const grid = [];
    const head = h("tr", {}, h("th", {}, ""),
      m.order.map((a) => h("th", { scope: "col", title: all[a] }, all[a])));
    const rows = m.order.map((a, r) => {
      const line = [];
      grid.push(line);
      return h("tr", {}, h("th", { scope: "row", title: all[a] }, all[a]), m.order.map((b, c) => {
        if (a === b) { line.push(null); return h("td", { class: "iaa-diagonal" }, ""); }
        const v = m.values[r][c];
        const n = m.n_items[r][c];
        const ci = still ? NO_VARIATION : m.ci_low[r][c] === null ? "95 % interval: computing…"
          : `95 % interval ${fmt(m.ci_low[r][c])} to ${fmt(m.ci_high[r][c])}`;
        const text = `${all[a]} × ${all[b]}: ${nameOf(m.measure)} ${fmt(v)}, ${ci}, ${count(n)} shared items`;
        const on = a === qa && b === qb;
        const mirror = a === qb && b === qa;
        const button = h("button", {
          type: "button", class: `iaa-cell${on ? " iaa-on" : ""}${mirror ? " iaa-mirror" : ""}`,
          "data-tip": text, "aria-label": `${text}; list the items they label differently`,
          "aria-pressed": on ? "true" : "false", "data-a": String(a), "data-b": String(b),
          "data-focus-key": `pair:${a}:${b}`, onclick: () => setQuery([a, b], []),
        }, h("span", { class: "iaa-cell-value" }, fmt(v, 2)), h("span", { class: "iaa-cell-n" }, count(n)));
        line.push(button);
        return h("td", { style: heat(v) }, button);
      }));
    });
    keepingFocus(matrixBox, () => matrixBox.replaceChildren(
      h("h4", {}, `${nameOf(m.measure)} of each pair`),
      h("div", { class: "iaa-caption" }, "value and shared items; focus or hover for the interval; "
        + "similar annotators sit together; arrow keys move inside"),
      h("div", { class: "iaa-scroll iaa-matrix-scroll" }, h("table", { class: "iaa-grid iaa-pair-matrix" },
        h("thead", {}, head), h("tbody", {}, rows)))));
    gridFocus(grid, stop(grid.flat(), key));
  };

  // ---------------------------------------------------------------- annotators
  const drawAnnotators = () => {
    const p = model.get("annotators_panel");
    const all = names();
    const labs = labels();
    const q = query();
    const state = model.get("intervals");
    const still = model.get("headline").n_disagreements === 0;
    const chosen = q.annotators.length === 1 ? q.annotators[0] : -1;
    const rows = [...p.rows];
    if (p.has_loo && p.loo_ready) rows.sort((x, y) => (y.delta ?? -Infinity) - (x.delta ?? -Infinity));
    const reference = p.reference;
    const relevant = fmt(p.relevant, 2);
    const measure = nameOf(p.measure);
    const head = h("tr", {}, h("th", { class: "iaa-words" }, "annotator"), h("th", { class: "iaa-words" }, "ratings"),
      p.has_loo ? h("th", { class: "iaa-words iaa-loo-head", title: `${measure} without this annotator minus `
        + `${measure} with all, and its 95 % paired bootstrap interval` }, `Δ ${measure} without them`) : null,
      h("th", { class: "iaa-words", title: `share of their labels equal to ${comparedWith(p.consensus)}, `
        + "and how many of their items differ from it (a click lists them)" }, "= consensus"),
      reference ? [h("th", { class: "iaa-words" }, `accuracy (${reference})`), h("th", {}, "κ"), h("th", {}, "F1")] : null,
      labs.map((l, k) => h("th", { class: "iaa-usage-head", title: `share of ${l}; pooled ${pct(p.pooled[k])}` }, l)));
    const buttons = [];
    const body_ = rows.map((r) => {
      const name = all[r.code];
      const drags = p.loo_ready && r.delta_low !== null && r.delta_low > p.relevant;
      const lifts = p.loo_ready && r.delta_high !== null && r.delta_high < -p.relevant;
      const verdict = drags ? "drags agreement down" : lifts ? "lifts agreement" : "";
      const delta = still ? `${signed(r.delta)} (${NO_VARIATION})`
        : p.loo_ready ? `${signed(r.delta)} [${signed(r.delta_low)}, ${signed(r.delta_high)}]`
          : state === "computing" ? "computing…" : "no interval";
      const button = h("button", {
        type: "button", class: "iaa-name", "aria-pressed": r.code === chosen ? "true" : "false",
        "data-focus-key": `annotator:${r.code}`,
        "aria-label": `${name}: list the ${count(r.n_differ)} items where their label differs from `
          + `${comparedWith(p.consensus)}`,
        onclick: () => setQuery([r.code], []),
      }, name);
      buttons.push(button);
      return h("tr", { class: r.code === chosen ? "iaa-selected" : undefined, "data-code": String(r.code) },
        h("th", { scope: "row" }, button),
        h("td", {}, count(r.n_ratings)),
        p.has_loo ? h("td", { class: `iaa-loo${drags ? " iaa-drags" : ""}`,
          title: `${measure} without ${name}: ${fmt(r.value)}` }, delta,
        verdict ? h("span", { class: "iaa-verdict" }, ` ${verdict}`) : null) : null,
        h("td", { class: "iaa-consensus-share", "data-n-differ": String(r.n_differ) },
          `${pct(r.consensus_agreement)} (${count(r.n_differ)} differ)`),
        reference ? [h("td", {}, pct(r.accuracy)), h("td", {}, fmt(r.kappa)), h("td", {}, fmt(r.f1))] : null,
        r.usage.map((share, k) => {
          const diff = share === null ? null : share - p.pooled[k];
          return h("td", { class: "iaa-usage", style: heat(diff === null ? null : -2 * diff),
            title: `${name} gives ${labs[k]} to ${pct(share)} of their items (pooled ${pct(p.pooled[k])})` },
          pct(share));
        }));
    });
    const key = focusedKey();
    keepingFocus(annotatorsBox, () => annotatorsBox.replaceChildren(h("h4", {}, "Annotators"),
      h("div", { class: "iaa-caption" }, p.has_loo
        ? `Δ: ${measure} without them minus with all, with a 95 % paired bootstrap interval; a verdict `
          + `only where the whole interval lies beyond ±${relevant} (the smallest change taken as relevant). `
          + "Label shares: orange above the pooled share, blue below"
        : "label shares: orange above the pooled share, blue below"),
      h("div", { class: "iaa-scroll" }, h("table", { class: "iaa-grid iaa-annotators" },
        h("thead", {}, head), h("tbody", {}, body_)))));
    const at = buttons.indexOf(stop(buttons, key));
    rovingFocus(buttons, Math.max(0, at));
  };

  // ---------------------------------------------------------------- labels
  const drawLabels = () => {
    const p = model.get("labels_panel");
    const labs = labels();
    const q = query();
    const mine = p.kind === "annotator";
    const who = mine ? names()[p.annotator] : "";
    const [l0, l1] = q.labels.length === 2 ? q.labels : [-1, -1];
    const on = (r, c) => (q.labels.length === 2 ? l0 === r && l1 === c
      : q.labels.length === 1 && r === c && q.labels[0] === r);
    const mirror = (r, c) => !mine && q.labels.length === 2 && l0 === c && l1 === r;
    const rowTotal = p.counts.map((row) => row.reduce((a, b) => a + b, 0));
    const grid = [];
    const head = h("tr", {}, h("th", { class: "iaa-words" }, mine ? `${who} ↓ · consensus →` : ""),
      labs.map((l) => h("th", { scope: "col", title: l }, l)),
      mine ? null : h("th", { class: "iaa-words", title: "specific agreement (Uebersax 1982)" }, "specific agreement"));
    const rows = p.counts.map((row, r) => {
      const nameButton = h("button", {
        type: "button", class: "iaa-name", "aria-label": `${labs[r]}: list the items that involve it`,
        "data-focus-key": `label:${r}`,
        "aria-pressed": q.labels.length === 1 && q.labels[0] === r && !q.annotators.length ? "true" : "false",
        onclick: () => setQuery([], [r]),
      }, labs[r]);
      const line = [nameButton];
      grid.push(line);
      return h("tr", {}, h("th", { scope: "row" }, nameButton),
        row.map((n, c) => {
          const share = rowTotal[r] ? n / rowTotal[r] : null;
          if (mine && r === c) {
            line.push(null);
            return h("td", { class: "iaa-diagonal", style: heat(share),
              title: `${who} agreed with ${comparedWith(p.consensus)} on ${labs[r]}: ${count(n)} items` }, count(n));
          }
          const text = mine ? `${who} said ${labs[r]} where ${comparedWith(p.consensus)} is ${labs[c]}: ${count(n)} items`
            : r === c ? `${labs[r]}: ${count(n)} items involve it where ratings differ; `
              + `${count(p.pairs[r][c])} pairs of ratings agree on it`
              : `${labs[r]} with ${labs[c]}: ${count(n)} items where both were given; `
              + `${count(p.pairs[r][c])} pairs of ratings`;
          const button = h("button", {
            type: "button", class: `iaa-cell${on(r, c) ? " iaa-on" : ""}${mirror(r, c) ? " iaa-mirror" : ""}`,
            "data-tip": text, "aria-label": n ? `${text}; list these items` : text,
            "aria-pressed": on(r, c) ? "true" : "false",
            "data-r": String(r), "data-c": String(c), "data-n": String(n), "data-focus-key": `conf:${r}:${c}`,
            "aria-disabled": n === 0 ? "true" : undefined,
            onclick: () => { if (n) setQuery(mine ? [p.annotator] : [], r === c ? [r] : [r, c]); },
          }, count(n));
          line.push(button);
          return h("td", { style: heat(r === c ? share : share === null ? null : -share) }, button);
        }),
        mine ? null : h("td", {}, fmt(p.agreement[r])));
    });
    const key = focusedKey();
    keepingFocus(labelsBox, () => labelsBox.replaceChildren(
      h("h4", {}, mine ? `Labels of ${who} against ${comparedWith(p.consensus)}` : "Labels: items where both were given"),
      h("div", { class: "iaa-caption" }, mine ? `rows: their label; columns: ${comparedWith(p.consensus)}; `
        + "counts of items, a click lists them"
        : "counts of items where ratings differ (pairs of ratings on focus or hover); a click lists them"),
      h("div", { class: "iaa-scroll" }, h("table", { class: "iaa-grid iaa-confusion" },
        h("thead", {}, head), h("tbody", {}, rows)))));
    gridFocus(grid, stop(grid.flat(), key));
  };

  // ---------------------------------------------------------------- items
  const describe = () => {
    const q = query();
    const all = names();
    const labs = labels();
    const a = q.annotators.map((j) => all[j]);
    const l = q.labels.map((k) => labs[k]);
    const p = model.get("annotators_panel");
    if (a.length === 2) {
      return `items ${a[0]} and ${a[1]} both rated and label differently`
        + (l.length === 2 ? `, one ${l[0]} and the other ${l[1]}` : l.length ? `, one of them ${l[0]}` : "");
    }
    if (a.length === 1) {
      return `items where ${a[0]}'s label differs from ${comparedWith(p.consensus)}`
        + (l.length === 2 ? `: ${a[0]} said ${l[0]}, the consensus ${l[1]}` : l.length ? ` (${l[0]} on either side)` : "");
    }
    if (l.length === 2) return `items where ${l[0]} and ${l[1]} were both given`;
    if (l.length === 1) return `items involving ${l[0]} where ratings differ`;
    return "all items where ratings differ";
  };

  // A filter <select>: "any …", one option per name, and `both` (its text) for a query
  // a click made that one name cannot say (a pair, two labels), picked by no one.
  const filterSelect = (what, options, both, value, pick) => {
    const node = h("select", { class: `iaa-filter-${what}`, "aria-label": `filter by ${what}`,
      "data-focus-key": `filter-${what}` }, h("option", { value: "" }, `any ${what}`),
    options.map((n, j) => h("option", { value: String(j) }, n)),
    both ? h("option", { value: "both" }, both) : null);
    node.value = both ? "both" : value;
    node.addEventListener("change", () => {
      if (node.value !== "both") pick(node.value === "" ? [] : [Number(node.value)]);
    });
    return h("label", { class: "iaa-control" }, h("span", { class: "iaa-control-label" }, what), node);
  };

  // the filters show the whole query (what a click set included)
  const drawFilters = () => keepingFocus(filters, () => {
    const q = query();
    const all = names();
    const labs = labels();
    const [a, l] = [q.annotators, q.labels];
    filters.replaceChildren(
      filterSelect("annotator", all, a.length === 2 ? `${all[a[0]]} and ${all[a[1]]}` : "",
        a.length === 1 ? String(a[0]) : "", (codes) => setQuery(codes, l)),
      filterSelect("label", labs, l.length === 2 ? `${labs[l[0]]} with ${labs[l[1]]}` : "",
        l.length === 1 ? String(l[0]) : "", (codes) => setQuery(a, codes)),
      h("button", { type: "button", class: "iaa-clear", "data-focus-key": "clear",
        disabled: !a.length && !l.length, onclick: () => setQuery([], []) }, "show all disagreements"));
  }, ["filter-annotator"]);

  let lastView = "";
  const drawItems = () => {
    const t = model.get("items_page");
    const rows = t.rows || [];
    const columns = t.columns || [];
    const sort = t.sort || { by: "agreement", descending: false };
    const sortWords = sort.by === "agreement" && !sort.descending ? "lowest agreement first"
      : `by ${COLUMN_WORDS[sort.by] || sort.by}, ${sort.descending ? "descending" : "ascending"}`;
    described.textContent = `${count(t.total)} ${t.total === 1 ? "item" : "items"}: ${describe()}`
      + (rows.length < t.total ? ` (${count(t.offset + 1)}–${count(t.offset + rows.length)} shown, ${sortWords})`
        : t.total > 1 ? ` (${sortWords})` : "");
    notice.textContent = t.notice || "";
    notice.hidden = !t.notice;
    keepingFocus(pager, () => pager.replaceChildren(...pageButtons(model, t, "items")), ["next", "prev"]);
    size.sync();
    const annotatorColumns = new Set(names());
    const consensusAt = columns.indexOf("consensus");
    const none = t.consensus_kind === "majority" ? "tie" : "none";
    const sorters = [];
    const key = focusedKey();
    const header = columns.map((c) => {
      const here = sort.by === c;
      const button = h("button", { type: "button", class: "iaa-sort", "data-focus-key": `sort:${c}`,
        "aria-label": `sort the items by ${COLUMN_WORDS[c] || c}`,
        onclick: () => {
          model.set("sort_by", c);
          model.set("sort_descending", here ? !sort.descending : false);
          model.set("page", 0);
          model.save_changes();
        } }, COLUMN_WORDS[c] || c, here ? (sort.descending ? " ▼" : " ▲") : "");
      sorters.push(button);
      return h("th", { scope: "col", class: c === "item" ? "iaa-sticky-1" : c === "text" ? "iaa-sticky-2" : undefined,
        title: COLUMN_TIPS[c], "aria-sort": here ? (sort.descending ? "descending" : "ascending") : undefined }, button);
    });
    keepingFocus(itemsTable, () => itemsTable.replaceChildren(
      h("thead", {}, h("tr", {}, header)),
      h("tbody", {}, rows.map((row) => h("tr", { class: row[0] === t.highlight ? "iaa-highlight" : undefined },
        row.map((cell, j) => {
          const col = columns[j];
          const person = annotatorColumns.has(col) || (t.reference && col === t.reference);
          const off = annotatorColumns.has(col) && cell !== "" && row[consensusAt] !== "" && cell !== row[consensusAt];
          const cls = col === "item" ? "iaa-sticky-1" : col === "text" ? "iaa-text iaa-sticky-2"
            : off ? "iaa-off" : cell === "" && (person || j === consensusAt) ? "iaa-blank" : undefined;
          const title = off ? `differs from the consensus ${row[consensusAt]}`
            : cell === "" && person ? `${col} did not rate this item`
              : cell === "" && j === consensusAt ? (none === "tie" ? "no majority: the most frequent labels are tied"
                : "the consensus gives no label") : undefined;
          const shown = col === "agreement" ? fmt(cell, 2) : col === "n_ratings" ? count(cell)
            : cell === "" && person ? "—" : cell === "" && j === consensusAt ? none : String(cell);
          return h(col === "item" ? "th" : "td", { class: cls, title, scope: col === "item" ? "row" : undefined }, shown);
        }))))));
    gridFocus([sorters], stop(sorters, key) || sorters.find((b) => b.closest("th").hasAttribute("aria-sort")));
    // the text column sticks beside the item column: its left edge is that column's width
    const first = itemsTable.querySelector("thead th");
    itemsTable.style.setProperty("--iaa-sticky-left", `${first ? first.offsetWidth : 0}px`);
    itemsKey.textContent = `—: the annotator did not rate the item · ${none}: `
      + (none === "tie" ? "no majority, the most frequent labels are tied" : "the consensus gives no label")
      + " · bold: a label that differs from the consensus · a header sorts the whole selection";
    // a new list starts at its top (a jump shows its item)
    const view = JSON.stringify([t.query, t.page, t.sort, t.page_size]);
    if (view !== lastView) {
      itemsScroll.scrollTop = 0;
      itemsScroll.scrollLeft = 0;
      lastView = view;
    }
    const marked = itemsTable.querySelector("tr.iaa-highlight");
    if (marked) marked.scrollIntoView({ block: "nearest" });
    exportButtons.forEach((b) => { b.disabled = busy || !t.total; });
    if (reveal) { // the list a click made: into view (a narrow window puts it below)
      reveal = false;
      described.scrollIntoView({ block: "nearest" }); // (nothing moves when it is in view)
    }
  };

  // downloads: Python sends the whole selection as one message with the file's bytes
  // (never as table rows, never kept in the page), or writes a large one itself
  const status = h("span", { class: "iaa-download-status", role: "status" });
  let busy = false;
  const exportButtons = [
    h("button", { type: "button", class: "iaa-export-csv", "data-kind": "csv" }, "download the selection as CSV"),
    h("button", { type: "button", class: "iaa-export-adjudication", "data-kind": "adjudication" },
      "download an adjudication sheet"),
  ];
  const setBusy = (on, text) => {
    busy = on;
    status.textContent = text;
    exportButtons.forEach((b) => { b.disabled = on || !model.get("items_page").total; });
  };
  exportButtons.forEach((b) => b.addEventListener("click", () => {
    setBusy(true, " preparing…");
    model.send({ export: b.dataset.kind });
  }));
  downloads.append(...exportButtons, status);
  const onMessage = (msg, buffers) => {
    if (!msg) return;
    if (msg.written) {
      setBusy(false, ` ${count(msg.rows)} rows written by Python to ${msg.written} (too large to download `
        + `through the page: ${count(msg.bytes)} bytes)`);
    } else if (msg.export_error) {
      setBusy(false, ` not exported: ${msg.export_error}`);
    } else if (msg.download && buffers && buffers.length) {
      const url = URL.createObjectURL(new Blob([buffers[0]], { type: "text/csv;charset=utf-8" }));
      const link = h("a", { class: "iaa-download", download: msg.download, href: url, hidden: true });
      downloads.append(link);
      link.click();
      link.remove(); // the file is the blob's: nothing of it stays in the page
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setBusy(false, ` ${msg.download} ready (${count(msg.rows)} rows)`);
    }
  };

  // ---------------------------------------------------------------- groups (group=)
  // the headline measure in each group and Fleiss' (1981) homogeneity test, from Python
  const drawGroups = () => {
    const g = model.get("groups_panel") || {};
    groupsBox.hidden = !g.rows;
    if (!g.rows) return groupsBox.replaceChildren();
    const measure = nameOf(model.get("headline").measure);
    const differ = g.p_value < 0.05;
    groupsBox.replaceChildren(
      h("h3", {}, `${measure} by ${g.column}`),
      h("div", { class: "iaa-caption" }, `each group's value with its 95 % interval; `
        + `${g.method}`),
      h("table", { class: "iaa-groups" },
        h("thead", {}, h("tr", {}, h("th", {}, g.column), h("th", {}, measure),
          h("th", {}, "95 % interval"), h("th", {}, "items"))),
        h("tbody", {}, ...g.rows.map((r) => h("tr", {},
          h("th", { scope: "row" }, r.group),
          h("td", { "data-value": String(r.estimate) }, fmt(r.estimate)),
          h("td", {}, r.ci_low === null ? "—" : `[${fmt(r.ci_low)}, ${fmt(r.ci_high)}]`),
          h("td", {}, count(r.n_items)))))),
      h("div", { class: "iaa-groups-test", "data-p": String(g.p_value) },
        `χ² = ${fmt(g.statistic)} on ${g.df} df, `
        + (g.p_value < 0.001 ? "p < 0.001: " : `p = ${fmt(g.p_value)}: `)
        + (differ ? `the groups' ${measure} differ (at the 5 % level)`
          : `no evidence at the 5 % level that the groups' ${measure} differ`)));
  };

  const drawAll = () => { drawMatrix(); drawAnnotators(); drawLabels(); drawFilters(); };
  const untip = focusTips(root);
  drawHeadline();
  drawAll();
  drawGroups();
  drawItems();
  const announce = () => announceRedraw(root);
  announce();
  const offs = [
    listen(model, "change:headline", () => { drawHeadline(); drawMatrix(); drawAnnotators(); }),
    listen(model, "change:intervals", () => { drawHeadline(); drawAnnotators(); }),
    listen(model, "change:matrix", drawMatrix),
    listen(model, "change:annotators_panel", drawAnnotators),
    listen(model, "change:labels_panel", drawLabels),
    listen(model, "change:groups_panel", drawGroups),
    listen(model, "change:query", drawAll),
    listen(model, "change:items_page", () => { drawItems(); announce(); }),
    listen(model, "msg:custom", onMessage),
    onThemeChange(announce), // the colours follow the theme through CSS; count the redraw
  ];
  return () => {
    offs.forEach((off) => off());
    parts.forEach((p) => p.dispose());
    untip();
  };
}
