// Shared helpers of every iaa_widgets widget: safe DOM building, the error banner,
// JupyterLab theme tracking and Vega-Lite charts whose named datasets are updated
// in place (view.data(name, rows).runAsync()) instead of being re-embedded.
import embed from "vega-embed";
import { changeset } from "vega";

// Build an element; string children become text nodes: labels from data are never HTML.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A number for the panel: NaN and missing values are spelled out, never blank.
export function fmt(value, digits = 3) {
  if (value === null || value === undefined) return "—";
  if (typeof value !== "number") return String(value);
  if (Number.isNaN(value)) return "NaN";
  return value.toFixed(digits);
}

// Subscribe to a model event and return the matching unsubscribe function.
export function listen(model, event, callback) {
  model.on(event, callback);
  return () => model.off(event, callback);
}

// ---------------------------------------------------------------- theme
export function isDarkTheme() {
  const light = document.body?.dataset?.jpThemeLight;
  if (light === "false") return true;
  if (light === "true") return false;
  return Boolean(document.body?.classList.contains("vscode-dark"));
}

// Call `callback` whenever JupyterLab switches between its light and dark themes.
export function onThemeChange(callback) {
  let dark = isDarkTheme();
  const observer = new MutationObserver(() => {
    const now = isDarkTheme();
    if (now !== dark) {
      dark = now;
      callback(dark);
    }
  });
  observer.observe(document.body, {
    attributes: true,
    attributeFilter: ["data-jp-theme-light", "data-jp-theme-name", "class"],
  });
  return () => observer.disconnect();
}

// A Vega config read from JupyterLab's --jp-* CSS variables (with light/dark fallbacks).
export function vegaConfig(node, dark) {
  const css = getComputedStyle(node);
  const v = (name, light, darkFallback) =>
    css.getPropertyValue(name).trim() || (dark ? darkFallback : light);
  const text = v("--jp-ui-font-color1", "#212121", "#e0e0e0");
  const muted = v("--jp-ui-font-color2", "#616161", "#bdbdbd");
  const border = v("--jp-border-color1", "#bdbdbd", "#616161");
  const grid = v("--jp-border-color2", "#e0e0e0", "#424242");
  const font = v("--jp-ui-font-family", "sans-serif", "sans-serif");
  return {
    background: null,
    font,
    view: { stroke: null },
    text: { color: text },
    // Vega-Lite draws rules black by default: invisible on a dark page
    rule: { color: text },
    mark: { color: dark ? "#74a9cf" : "#3182bd" },
    axis: {
      labelColor: text, titleColor: text, domainColor: border,
      tickColor: border, gridColor: grid, labelFont: font, titleFont: font,
    },
    legend: { labelColor: text, titleColor: text, labelFont: font, titleFont: font },
    header: { labelColor: text, titleColor: text },
    title: { color: text, subtitleColor: muted, font },
    range: { heatmap: { scheme: dark ? "darkblue" : "blues" } },
  };
}

// ---------------------------------------------------------------- shell
// The widget's root: an error banner (the text of an exception raised by a Python
// observer, shown rather than lost in a log) above the widget's own body.
export function mountShell(model, host) {
  const banner = h("div", { class: "iaa-error", role: "alert", hidden: true });
  const body = h("div", { class: "iaa-body" });
  const root = h("div", { class: "iaa-widget" }, banner, body);
  host.append(root);
  const showError = (message) => {
    banner.textContent = message || "";
    banner.hidden = !message;
  };
  const syncError = () => showError(model.get("error"));
  syncError();
  const off = listen(model, "change:error", syncError);
  return {
    root, body, showError,
    dispose() { off(); root.remove(); },
  };
}

// ---------------------------------------------------------------- tooltip
// vega-embed's tooltip handler, writing text only (never innerHTML).
function textTooltip(root) {
  const tip = h("div", { class: "iaa-tooltip", hidden: true });
  root.append(tip);
  const handler = (_handler, event, _item, value) => {
    if (value === null || value === undefined || value === "") {
      tip.hidden = true;
      return;
    }
    const lines = typeof value === "object"
      ? Object.entries(value).map(([k, v]) => `${k}: ${typeof v === "number" ? fmt(v, 4) : v}`)
      : [String(value)];
    tip.replaceChildren(...lines.map((line) => h("div", {}, line)));
    const box = root.getBoundingClientRect();
    tip.style.left = `${event.clientX - box.left + 12}px`;
    tip.style.top = `${event.clientY - box.top + 12}px`;
    tip.hidden = false;
  };
  return { handler, hide: () => { tip.hidden = true; }, remove: () => tip.remove() };
}

// ---------------------------------------------------------------- charts
// A widget's root counts its chart's draws in `data-revision` and fires `iaa:redraw`
// after each: tests and benchmarks wait on these to know the page shows new numbers.
function announceRedraw(root) {
  const revision = Number(root.dataset.revision || 0) + 1;
  root.dataset.revision = String(revision);
  root.dispatchEvent(new CustomEvent("iaa:redraw", { bubbles: true, detail: { revision } }));
}

// Embed the Vega-Lite spec `_specs[name]` into `container`. Its named datasets take
// their rows from the `_datasets` traitlet; when that changes, the rows are swapped in
// the live view (no re-embed). A new spec or a theme switch re-embeds.
// `onClick(event, datum)` receives clicks on marks; with `announce`, each draw of this
// chart is counted as the widget's redraw (see announceRedraw).
export function mountChart(model, name, container, { root, onClick, announce } = {}) {
  const tooltip = textTooltip(root || container);
  let result = null;
  let queue = Promise.resolve();
  let disposed = false;

  const datasetNames = () => Object.keys((model.get("_specs")[name] || {}).datasets || {});

  const draw = async () => {
    const spec = structuredClone(model.get("_specs")[name]);
    if (!spec) return;
    const rows = model.get("_datasets");
    for (const key of Object.keys(spec.datasets || {})) spec.datasets[key] = rows[key] || [];
    const dark = isDarkTheme();
    for (const param of spec.params || []) if (param.name === "dark") param.value = dark;
    if (result) result.finalize();
    container.replaceChildren();
    result = await embed(container, spec, {
      actions: false,
      renderer: "svg",
      config: vegaConfig(root || container, dark),
      tooltip: tooltip.handler,
    });
    if (onClick) result.view.addEventListener("click", (event, item) => {
      if (item && item.datum) onClick(event, item.datum);
    });
  };

  // New rows of the same length modify the live tuples field by field, so that Vega
  // re-renders only the marks whose data changed; otherwise the rows are replaced.
  const update = async () => {
    if (!result) return draw();
    tooltip.hide(); // it would show the old numbers until the pointer moves
    const all = model.get("_datasets");
    for (const key of datasetNames()) {
      const rows = all[key] || [];
      const tuples = result.view.data(key);
      if (!tuples || tuples.length !== rows.length) {
        result.view.data(key, rows);
        continue;
      }
      const changes = changeset();
      let changed = 0;
      rows.forEach((row, r) => {
        for (const field of Object.keys(row)) {
          if (tuples[r][field] !== row[field]) {
            changes.modify(tuples[r], field, row[field]);
            changed += 1;
          }
        }
      });
      if (changed) result.view.change(key, changes);
    }
    await result.view.runAsync();
  };

  const enqueue = (job) => {
    queue = queue.then(async () => {
      if (disposed) return;
      await job();
      if (!disposed && announce) announceRedraw(root);
    }).catch((err) => {
      console.error(err);
      if (root) root.dataset.chartError = String(err && err.message || err);
    });
    return queue;
  };

  enqueue(draw);
  const offs = [
    listen(model, "change:_datasets", () => enqueue(update)),
    listen(model, "change:_specs", () => enqueue(draw)),
    onThemeChange(() => enqueue(draw)),
  ];
  return {
    get view() { return result && result.view; },
    settled: () => queue,
    dispose() {
      disposed = true;
      offs.forEach((off) => off());
      if (result) result.finalize();
      tooltip.remove();
    },
  };
}
