// GammaExplorer: the continuum (one lane per annotator, units coloured by category,
// the best alignment as links, empty units as hollow markers), bars for γ, γ_cat and
// γ_k with sampling intervals, and α, β, Δ∅ sliders. Recomputation runs in a Python
// worker thread; this view shows its progress and dims the stale drawing meanwhile.
import { fmt, h, listen, mountChart } from "./base.js";
import { numberInput, slider } from "./controls.js";

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
  const bar = h("progress", { max: "1", value: "0" });
  const statusText = h("span", { class: "iaa-status-text" });
  const status = h("div", { class: "iaa-progress", role: "status" }, statusText, bar);
  const laneBox = h("div", { class: "iaa-chart iaa-chart-continuum" });
  const barBox = h("div", { class: "iaa-chart iaa-chart-bars" });
  const table = h("table", { class: "iaa-coefs iaa-gamma-summary" });
  body.append(caption, controls, status, laneBox,
    h("div", { class: "iaa-main" }, barBox, h("div", { class: "iaa-panel" }, table)));

  const parts = [
    slider(model, "alpha", { label: "α", min: 0, max: 5, step: 0.1, digits: 1,
      title: "weight of the positional dissimilarity" }),
    slider(model, "beta", { label: "β", min: 0, max: 5, step: 0.1, digits: 1,
      title: "weight of the categorical dissimilarity" }),
    slider(model, "delta_empty", { label: "Δ∅", min: 0.1, max: 3, step: 0.05, digits: 2,
      title: "cost of aligning a unit with an empty unit" }),
    numberInput(model, "n_samples", { label: "samples", min: 2, step: 10 }),
    numberInput(model, "seed", { label: "seed", min: 0, step: 1 }),
  ];
  controls.append(...parts.map((part) => part.node));

  const drawStatus = () => {
    const s = model.get("status");
    const busy = s.state && s.state !== "done" && s.state !== "failed";
    root.classList.toggle("iaa-busy", Boolean(busy));
    root.dataset.state = s.state || "";
    root.dataset.generation = String(s.generation || 0);
    const cancelled = s.cancelled ? ` · ${s.cancelled} stale computation(s) cancelled` : "";
    if (s.state === "done") {  // the note on cancelled stale runs clears once done
      statusText.textContent = `computed ${s.done} samples in ${fmt(s.seconds, 2)} s`;
      bar.hidden = true;
    } else if (s.state === "sampling") {
      statusText.textContent = `${STATES.sampling}: ${s.done} / ${s.wanted}${cancelled}`;
      bar.hidden = false;
      bar.max = String(s.wanted || 1);
      bar.value = String(s.done || 0);
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
      `${s.n_alignments} unitary alignments · α = ${fmt(p.alpha, 2)}, β = ${fmt(p.beta, 2)}, ` +
      `Δ∅ = ${fmt(p.delta_empty, 2)} · ${s.n_samples} samples (${p.sampler} sampler)`;
  };
  const charts = [
    mountChart(model, "continuum", laneBox, { root, announce: true }),
    mountChart(model, "bars", barBox, { root }),
  ];
  drawStatus();
  drawSummary();
  const offs = [
    listen(model, "change:status", drawStatus),
    listen(model, "change:summary", drawSummary),
  ];
  return () => {
    offs.forEach((off) => off());
    parts.forEach((part) => part.dispose());
    charts.forEach((chart) => chart.dispose());
  };
}
