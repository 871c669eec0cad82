// StudyDesigner: the items an agreement study needs, live (issue 45 §5). Sliders for the
// target half-width, κ₀ / κ₁, the prevalence, the raters and the confidence; a table of
// each design's items (from Python's iaa.sample_size); with pilot data, the projected
// half-width and the probability of failing κ₀ against items. Every number comes from
// Python; this module only shows them (as text, never HTML).
import { count, fmt, h, listen, mountChart } from "./base.js";
import { slider } from "./controls.js";

export function renderDesigner({ model, shell }) {
  const { root, body } = shell;
  root.classList.add("iaa-designer");
  const controls = h("div", { class: "iaa-controls" });
  const table = h("table", { class: "iaa-designs" });
  const pilot = h("div", { class: "iaa-caption iaa-pilot" });
  const chartBox = h("div", { class: "iaa-chart" });
  body.append(controls, table, pilot, chartBox);

  const parts = [
    slider(model, "half_width", { label: "target half-width", min: 0.01, max: 0.3, step: 0.01 }),
    slider(model, "kappa0", { label: "κ₀ (α_min)", min: 0.05, max: 0.95, step: 0.01 }),
    slider(model, "kappa1", { label: "κ₁", min: 0.05, max: 0.95, step: 0.01 }),
    slider(model, "prevalence", { label: "prevalence", min: 0.05, max: 0.95, step: 0.01 }),
    slider(model, "raters", { label: "raters", min: 2, max: 6, step: 1, digits: 0 }),
    slider(model, "confidence", { label: "confidence", min: 0.8, max: 0.99, step: 0.01 }),
  ];
  controls.append(...parts.map((part) => part.node));

  const drawDesigns = () => {
    const rows = (model.get("designs") || []).map((d) => h("tr", {},
      h("th", { scope: "row" }, d.design),
      h("td", { class: "iaa-value", "data-value": d.items === null ? "" : String(d.items) },
        d.items === null ? "—" : `${count(d.items)} items`),
      h("td", { class: "iaa-why" }, d.why || "")));
    table.replaceChildren(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "design"),
      h("th", { scope: "col" }, "needs"), h("th", { scope: "col" }, ""))), h("tbody", {}, ...rows));
  };
  const drawPilot = () => {
    const p = model.get("pilot") || {};
    pilot.textContent = p.n_pilot
      ? `pilot: ${fmt(p.estimate)} with bootstrap SE ${fmt(p.se, 4)} over ${count(p.n_pilot)} `
        + `${p.resampled}; the chart projects the SE as se·√(n₀/n)`
      : "";
  };
  drawDesigns();
  drawPilot();
  const chart = (model.get("_specs") || {}).projection
    ? mountChart(model, "projection", chartBox, { root, announce: true,
      describe: () => "projected half-width and probability of an estimate below κ₀ against items" })
    : null;
  const offs = [listen(model, "change:designs", drawDesigns), listen(model, "change:pilot", drawPilot)];
  return () => {
    offs.forEach((off) => off());
    parts.forEach((part) => part.dispose());
    if (chart) chart.dispose();
  };
}
