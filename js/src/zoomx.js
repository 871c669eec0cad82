// Zoom and pan along x on a layered Vega-Lite chart (the γ widget's continuum): an
// interval selection bound to the x scale (the wheel zooms, a drag pans, a double
// click resets), every layer's marks clipped to the plot, and buttons that do the
// same from the keyboard. The y scale and every other chart stay as they are.
import { fmt, h } from "./base.js";

// Add the scale-bound interval `name` to the first layer of `spec` (a copy the caller
// owns) and clip every layer; return the Vega signal Vega-Lite makes for it: the
// interval on the x field ([low, high]; null means the whole domain).
export function zoomableSpec(spec, name) {
  const layers = spec.layer || [spec];
  const first = layers[0];
  first.params = [...(first.params || []),
    { name, select: { type: "interval", encodings: ["x"] }, bind: "scales" }];
  for (const layer of layers) {
    const mark = typeof layer.mark === "string" ? { type: layer.mark } : layer.mark;
    layer.mark = { ...mark, clip: true };
  }
  return `${name}_${first.encoding.x.field}`;
}

// Vega names its clip paths clip1, clip2, … counting in its own copy of the code, and
// anywidget loads a copy of the bundle per widget: two widgets on one page would then
// both define "clip1", and a chart would be clipped by the other's path. Each copy of
// this module draws its ids from a random prefix of its own instead.
const PREFIX = `iaa${Math.random().toString(36).slice(2, 10)}`;
let clipCount = 0;

// Give every clipped mark and group of `view` an id from PREFIX; if one changed, draw
// the whole chart again (a render with nothing marked dirty redraws every mark and
// rebuilds the clip paths; the view keeps its renderer in `_renderer`: vega 6).
export function ownClipIds(view) {
  let changed = false;
  const own = (node) => {
    if (node.clip && !String(node.clip_id || "").startsWith(PREFIX)) {
      node.clip_id = `${PREFIX}-clip${++clipCount}`;
      changed = true;
    }
  };
  const visit = (mark) => {
    own(mark);
    if (mark.marktype !== "group") return; // other marks' items hold no clip
    for (const group of mark.items || []) {
      own(group);
      for (const child of group.items || []) visit(child);
    }
  };
  visit(view.scenegraph().root);
  if (changed && view._renderer) view._renderer.render(view.scenegraph().root);
  return changed;
}

const ZOOM_STEP = 2; // each zoom button halves or doubles the width shown
const PAN_STEP = 0.25; // each pan button moves by a quarter of the width shown

// Buttons zooming (×2, ÷2 around the middle), panning (a quarter of the width) and
// resetting the x axis of `chart` (mountChart's handle) through the signal that
// `signalName()` names (zoomableSpec's answer for the spec drawn), and a text saying
// which positions are shown. `sync()` re-reads the view (call it after each draw);
// `onChange()` runs after each change of the shown domain.
export function zoomControls(chart, signalName, { what = "x axis", onChange } = {}) {
  const shown = h("span", { class: "iaa-zoom-shown", "aria-live": "polite" });
  const button = (cls, text, label, action) => h("button", {
    type: "button", class: `iaa-zoom-button ${cls}`, "aria-label": label, title: label,
    onclick: action }, text);
  let full = null; // the domain with no zoom
  let bound = null; // the view whose signal we listen to
  let signal = null; // … and that signal's name

  const live = () => Boolean(bound && bound === chart.view);
  const domain = () => bound.scale("x").domain();
  const zoomed = () => live() && Boolean(bound.signal(signal));
  const show = async (interval) => {
    if (live()) await bound.signal(signal, interval).runAsync();
  };
  const zoomBy = (factor) => {
    if (!live()) return null;
    const [lo, hi] = domain();
    const mid = (lo + hi) / 2;
    const half = ((hi - lo) / 2) * factor;
    // zooming out past the whole continuum is the same as no zoom
    if (full && mid - half <= full[0] && mid + half >= full[1]) return show(null);
    return show([mid - half, mid + half]);
  };
  const panBy = (share) => {
    if (!live()) return null;
    const [lo, hi] = domain();
    const step = (hi - lo) * share;
    return show([lo + step, hi + step]);
  };
  const reset = button("iaa-zoom-reset", "reset zoom", `reset zoom: show the whole ${what}`,
    () => show(null));
  const zoomIn = button("iaa-zoom-in", "+", `zoom in on the ${what}`, () => zoomBy(1 / ZOOM_STEP));
  const node = h("div", { class: "iaa-zoom", role: "group", "aria-label": `zoom of the ${what}` },
    h("span", { class: "iaa-control-label" }, "zoom"),
    zoomIn,
    button("iaa-zoom-out", "−", `zoom out of the ${what}`, () => zoomBy(ZOOM_STEP)),
    button("iaa-zoom-left", "◀", `pan the ${what} left`, () => panBy(-PAN_STEP)),
    button("iaa-zoom-right", "▶", `pan the ${what} right`, () => panBy(PAN_STEP)),
    reset, shown);

  const drawn = () => {
    if (!live()) return;
    const [lo, hi] = domain();
    const on = zoomed();
    if (!on) full = [lo, hi];
    // the wheel zoomed out to (or past) the whole continuum: that is no zoom
    const tolerance = full ? 1e-9 * Math.abs(full[1] - full[0]) : 0;
    if (on && full && lo <= full[0] + tolerance && hi >= full[1] - tolerance) {
      show(null);
      return;
    }
    node.dataset.domain = `${lo},${hi}`;
    node.dataset.zoomed = on ? "true" : "false";
    // a disabled button loses the keyboard's focus: hand it to "zoom in"
    if (!on && document.activeElement === reset) zoomIn.focus();
    reset.disabled = !on;
    const digits = hi - lo >= 100 ? 0 : 2;
    const of = full ? ` of ${fmt(full[0], digits)} to ${fmt(full[1], digits)}` : "";
    shown.textContent = on
      ? `showing ${fmt(lo, digits)} to ${fmt(hi, digits)}${of} (double click resets)`
      : `whole ${what} (the wheel zooms, a drag pans)`;
    if (onChange) onChange();
  };
  // (a signal's listeners run before the scales take its new value)
  const listener = () => bound.runAfter(drawn);
  const sync = () => {
    const view = chart.view;
    if (!view) return;
    if (view !== bound) { // a new embed: listen to its signal
      if (bound) bound.removeSignalListener(signal, listener);
      signal = signalName();
      view.addSignalListener(signal, listener);
      bound = view;
    }
    drawn();
  };
  return {
    node,
    sync,
    zoomed,
    text: () => shown.textContent, // what the page says is shown
    dispose() { if (bound) bound.removeSignalListener(signal, listener); },
  };
}
