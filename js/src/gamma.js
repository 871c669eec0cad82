// GammaExplorer: the continuum (one lane per annotator, units coloured by category,
// the best alignment as links, empty units as hollow markers; zoom and pan along x),
// bars for γ, γ_cat and γ_k with sampling intervals, and sliders for the positional
// and categorical weights (α and β of Mathet et al. 2015, §4.2.4) and Δ∅.
// Recomputation runs in a Python worker thread; this view shows its progress and dims
// the stale drawing meanwhile.
import { fmt, h, listen, mountChart } from "./base.js";
import { numberInput, slider } from "./controls.js";
import { ownClipIds, zoomableSpec, zoomControls } from "./zoomx.js";
import "./gamma.css";

// The continuum chart (charts.gamma_continuum_chart, its legend of categories beside the
// lanes) as the widget shows it: zoomable along x (the interval "zoom" bound to the x scale).
function continuumSpec(spec) {
  const signal = zoomableSpec(spec, "zoom");
  return { spec, signal };
}

// a list for a summary: at most `most` names, then how many more
function listed(names, most = 12) {
  const more = names.length > most ? ` and ${names.length - most} more` : "";
  return names.slice(0, most).join(", ") + more;
}

const STATES = {
  queued: "starting…",
  aligning: "aligning the observed continuum…",
  sampling: "sampling random continua",
  failed: "failed",
};

export function renderGamma({ model, shell }) {
  const { root, body } = shell;
  root.classList.add("iaa-gamma");

  const caption = h("div", { class: "iaa-caption" });
  const controls = h("div", { class: "iaa-controls" });
  const bar = h("progress", { max: "1", value: "0", "aria-label": "progress of the computation" });
  const statusText = h("span", { class: "iaa-status-text" });
  // the progress line changes with every sample: assistive technology hears only the
  // start of a computation and its result, from a live region of their own
  const status = h("div", { class: "iaa-progress" }, statusText, bar);
  const announcer = h("div", { class: "iaa-sr-only iaa-announce", role: "status" });
  let announced = null; // "start" or "result": what the live region said last
  const laneBox = h("div", { class: "iaa-chart iaa-chart-continuum" });
  const barBox = h("div", { class: "iaa-chart iaa-chart-bars" });
  const table = h("table", { class: "iaa-coefs iaa-gamma-summary" });
  const lanes = h("div", { class: "iaa-lanes" }, laneBox);
  body.append(caption, controls, status, announcer, lanes,
    h("div", { class: "iaa-main" }, barBox, h("div", { class: "iaa-panel" }, table)));

  // α and β are Mathet et al.'s weights in d = α·d_pos + β·d_cat (2015, §4.2.4), named
  // here for what they do: an "α" slider would read as Krippendorff's α
  const EQ = "d = α·d_pos + β·d_cat (Mathet et al. 2015, §4.2.4)";
  const named = (part, name) => { part.input.setAttribute("aria-label", name); return part; };
  const parts = [
    // from 0.1: at a positional weight of 0 every same-category pairing costs nothing and
    // the exact alignment's program has no end in sight (units.csv: 0.02 → 2.3 s, 0 → hours)
    named(slider(model, "alpha", { label: "positional weight", min: 0.1, max: 5, step: 0.1,
      digits: 1, title: `weight of the positional dissimilarity: α in ${EQ}` }),
    "positional weight (α in Mathet et al. 2015)"),
    named(slider(model, "beta", { label: "categorical weight", min: 0, max: 5, step: 0.1,
      digits: 1, title: `weight of the categorical dissimilarity: β in ${EQ}` }),
    "categorical weight (β in Mathet et al. 2015)"),
    named(slider(model, "delta_empty", { label: "Δ∅", min: 0.1, max: 3, step: 0.05, digits: 2,
      title: "cost of aligning a unit with an empty unit" }), "Δ∅, cost of an empty unit"),
    named(numberInput(model, "n_samples", { label: "samples", min: 2, step: 10 }),
      "samples: random continua for the expected disorder"),
    named(numberInput(model, "seed", { label: "seed", min: 0, step: 1 }),
      "seed of the random continua"),
  ];
  controls.append(...parts.map((part) => part.node));

  const drawStatus = () => {
    const s = model.get("status");
    const busy = s.state && s.state !== "done" && s.state !== "failed";
    root.classList.toggle("iaa-busy", Boolean(busy));
    root.dataset.state = s.state || "";
    root.dataset.generation = String(s.generation || 0);
    // stale runs cancelled since the last result (Python resets the count when done)
    const cancelled = s.stale ? ` · ${s.stale} stale computation${s.stale === 1 ? "" : "s"} cancelled` : "";
    // a quick estimate from few random continua is shown while all of them are sampled
    const estimate = s.estimate ? `quick estimate from ${s.estimate} samples shown · refining: ` : "";
    if (announced === null) { // the state the widget opens in is not news
      announced = busy ? "start" : "result";
    } else if (busy && announced !== "start") {
      announced = "start";
      announcer.textContent = "computing γ…";
    } else if (s.state === "done" && announced !== "result") {
      announced = "result";
      const g = model.get("summary") || {};
      announcer.textContent = `γ = ${fmt(g.gamma)}, γ_cat = ${fmt(g.gamma_cat)}, from ${s.done} samples`;
    } else if (s.state === "failed" && announced !== "result") {
      announced = "result";
      announcer.textContent = "γ: the computation failed";
    }
    if (s.state === "done") {  // the note on cancelled stale runs clears once done
      statusText.textContent = `computed ${s.done} samples in ${fmt(s.seconds, 2)} s`;
      bar.hidden = true;
    } else if (s.state === "sampling") {
      statusText.textContent = `${estimate}${STATES.sampling}: ${s.done} / ${s.wanted}${cancelled}`;
      bar.hidden = false;
      bar.max = String(s.wanted || 1);
      bar.value = String(s.done || 0);
    } else if (s.state === "failed") {
      statusText.textContent = STATES.failed;
      bar.hidden = true;
    } else {
      statusText.textContent = `${STATES[s.state] || ""}${cancelled}`;
      bar.hidden = s.state === "failed";
      bar.removeAttribute("value");  // indeterminate while aligning
    }
  };

  const drawSummary = () => {
    const s = model.get("summary");
    if (!s || s.gamma === undefined) {
      table.replaceChildren();
      return;
    }
    const interval = (ci) => (ci ? `[${fmt(ci[0])}, ${fmt(ci[1])}]` : "");
    const row = (key, label, value, ci) => h("tr", { "data-key": key },
      h("th", {}, label),
      h("td", { class: "iaa-value", "data-value": value === null ? "nan" : String(value) }, fmt(value)),
      h("td", { class: "iaa-interval" }, interval(ci)));
    const p = s.params || {};
    table.replaceChildren(
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "value"), h("th", {}, "95 % sampling"))),
      h("tbody", {},
        row("gamma", "γ", s.gamma, s.gamma_ci),
        row("gamma_cat", "γ_cat", s.gamma_cat, s.gamma_cat_ci),
        row("observed", "δ_o (best alignment)", s.observed),
        row("expected", "δ_e (random continua)", s.expected),
        h("tr", { "data-key": "precision" },
          h("th", { title: "95 % half-width of δ_e divided by δ_e (Mathet et al. 2015, §5.3)" },
            "δ_e precision reached"),
          h("td", { class: "iaa-value", "data-value": s.precision === null ? "nan" : String(s.precision) },
            s.precision === null ? "–" : `±${fmt(100 * s.precision, 2)} %`),
          h("td", { class: "iaa-interval" },
            p.precision_target ? `target ±${fmt(100 * p.precision_target, 2)} %` : ""))));
    caption.textContent = `${s.n_units} units · ${s.n_annotators} annotators · ` +
      `${s.n_alignments} unitary alignments · positional weight ${fmt(p.alpha, 2)}, ` +
      `categorical weight ${fmt(p.beta, 2)}, Δ∅ ${fmt(p.delta_empty, 2)} · ` +
      `${s.n_samples} samples (${p.sampler} sampler)`;
  };

  // ---------------------------------------------------------- chart summaries
  const rows = (name) => model.get("_datasets")[name] || [];
  const describeContinuum = () => {
    const units = rows("gamma_units");
    const annotators = [...new Set(units.map((u) => u.annotator))];
    const categories = [...new Set(units.map((u) => u.category))];
    const first = units.reduce((m, u) => Math.min(m, u.start), Infinity);
    const last = units.reduce((m, u) => Math.max(m, u.end), -Infinity);
    const groups = new Set(units.filter((u) => u.alignment >= 0).map((u) => u.alignment));
    const zoomText = zoom && zoom.zoomed() ? ` Zoomed: ${zoom.text()}.` : "";
    return `Continuum of ${units.length} units by ${annotators.length} annotators `
      + `(${listed(annotators)}) from ${fmt(first, 2)} to ${fmt(last, 2)}, `
      + `one lane per annotator, units coloured by category (${listed(categories)}); `
      + `the best alignment: ${groups.size} unitary alignments drawn as links, `
      + `${rows("gamma_empty").length} empty units as hollow circles. The x axis zooms `
      + `with the wheel or the zoom buttons and pans with a drag.${zoomText}`;
  };
  const describeBars = () => {
    const bars = rows("gamma_bars");
    if (!bars.length) return "γ, γ_cat and γ_k: not computed yet.";
    const interval = (b) => (b.ci_low === null || b.ci_high === null ? ""
      : ` (${fmt(b.ci_low)} to ${fmt(b.ci_high)})`);
    return `Agreement bars (95 % sampling intervals over random continua): `
      + `${bars.map((b) => `${b.name} ${b.label}${interval(b)}`).join("; ")}.`;
  };

  let zoom = null;
  let signal = null;
  // (links and empty units have no rows until γ is computed: the x scale's domain is
  // explicit, charts.gamma_continuum_chart, so their layers stay and keep the zoom)
  const continuum = mountChart(model, "continuum", laneBox, { root, announce: true,
    patch: (spec) => { const out = continuumSpec(spec); signal = out.signal; return out.spec; },
    describe: describeContinuum, keepEmpty: true });
  const charts = [
    continuum,
    mountChart(model, "bars", barBox, { root, describe: describeBars }),
  ];
  zoom = zoomControls(continuum, () => signal, { what: "continuum",
    onChange: () => continuum.describe() });
  lanes.prepend(zoom.node);
  // after every draw: clip paths with ids of this page's own, the zoom buttons on the new view
  const onRedraw = () => {
    if (!continuum.view) return;
    ownClipIds(continuum.view);
    zoom.sync();
    root.dataset.clipIds = "own";
  };
  root.addEventListener("iaa:redraw", onRedraw);
  drawStatus();
  drawSummary();
  const offs = [
    listen(model, "change:status", drawStatus),
    listen(model, "change:summary", drawSummary),
    () => root.removeEventListener("iaa:redraw", onRedraw),
  ];
  return () => {
    offs.forEach((off) => off());
    parts.forEach((part) => part.dispose());
    zoom.dispose();
    charts.forEach((chart) => chart.dispose());
  };
}
