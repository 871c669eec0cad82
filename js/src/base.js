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
// Each notebook tool marks its theme its own way; the first marker present decides:
// JupyterLab, Notebook 7 and Voila: body[data-jp-theme-light="true"|"false"];
// VS Code: body[data-vscode-theme-kind] or body.vscode-dark / .vscode-light /
//   .vscode-high-contrast / .vscode-high-contrast-light;
// Colab: html[theme="dark"|"light"];
// marimo: html[data-theme="dark"|"light"] or a "dark" / "light" class on html or body.
// With no marker the page is taken as light (classic Notebook, a plain HTML page).
export function themeOf(doc = document) {
  const html = doc.documentElement;
  const body = doc.body;
  const jp = body?.dataset?.jpThemeLight;
  if (jp === "true" || jp === "false") return { dark: jp === "false", host: "jupyterlab" };
  const kind = body?.dataset?.vscodeThemeKind;
  if (kind) return { dark: kind === "vscode-dark" || kind === "vscode-high-contrast", host: "vscode" };
  const vs = body?.classList;
  if (vs?.contains("vscode-high-contrast-light") || vs?.contains("vscode-light")) {
    return { dark: false, host: "vscode" };
  }
  if (vs?.contains("vscode-dark") || vs?.contains("vscode-high-contrast")) {
    return { dark: true, host: "vscode" };
  }
  const colab = html?.getAttribute("theme");
  if (colab === "dark" || colab === "light") return { dark: colab === "dark", host: "colab" };
  const named = html?.dataset?.theme || body?.dataset?.theme;
  if (named === "dark" || named === "light") return { dark: named === "dark", host: "marimo" };
  for (const node of [html, body]) {
    if (node?.classList.contains("dark")) return { dark: true, host: "marimo" };
    if (node?.classList.contains("light")) return { dark: false, host: "marimo" };
  }
  return { dark: false, host: "none" };
}

export function isDarkTheme() {
  return themeOf().dark;
}

// The attributes the markers above live in (on <html> and <body>).
const THEME_ATTRIBUTES = ["data-jp-theme-light", "data-jp-theme-name", "data-vscode-theme-kind",
  "class", "theme", "data-theme"];

// Call `callback(dark)` whenever the host page switches between light and dark.
export function onThemeChange(callback) {
  let dark = isDarkTheme();
  const observer = new MutationObserver(() => {
    const now = isDarkTheme();
    if (now !== dark) {
      dark = now;
      callback(dark);
    }
  });
  for (const node of [document.documentElement, document.body]) {
    if (node) observer.observe(node, { attributes: true, attributeFilter: THEME_ATTRIBUTES });
  }
  return () => observer.disconnect();
}

// A Vega config read from the widget's --iaa-* CSS variables (widgets.css resolves them
// from JupyterLab's --jp-*, VS Code's --vscode-* or our own light/dark fallbacks).
export function vegaConfig(node, dark) {
  const css = getComputedStyle(node);
  const v = (name, light, darkFallback) =>
    css.getPropertyValue(name).trim() || (dark ? darkFallback : light);
  const text = v("--iaa-fg", "#212121", "#e0e0e0");
  const muted = v("--iaa-fg-muted", "#616161", "#bdbdbd");
  const border = v("--iaa-border", "#bdbdbd", "#616161");
  const grid = v("--iaa-border-weak", "#e0e0e0", "#424242");
  const font = v("--iaa-font", "sans-serif", "sans-serif");
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

// ---------------------------------------------------------------- keyboard
// Keys pressed inside a widget are the widget's. JupyterLab and Notebook 7 run their
// notebook shortcuts (ArrowDown: next cell, "r": Raw cell, "d d": delete) from Lumino's
// CommandRegistry, which skips a keydown when the path from its target up to the
// document holds an element with `data-lm-suppress-shortcuts`; it checks each element
// of that path for the attribute before matching the bindings' selectors against it,
// and the command-mode selector (`.jp-Notebook.jp-mod-commandMode:not(.jp-mod-readWrite)
// :focus`) matches the focused element itself: so the attribute sits on the root and on
// every element that takes the focus inside it (stamped as it gets the focus, which
// covers controls drawn later). Returns the function that stops the stamping.
const SUPPRESS_SHORTCUTS = "data-lm-suppress-shortcuts";
export function ownKeyboard(root) {
  root.setAttribute(SUPPRESS_SHORTCUTS, "true");
  const stamp = (event) => {
    if (event.target instanceof Element) event.target.setAttribute(SUPPRESS_SHORTCUTS, "true");
  };
  root.addEventListener("focusin", stamp, true);
  return () => root.removeEventListener("focusin", stamp, true);
}

// Redraw `container` with `draw()` keeping the keyboard focus where the user is: the
// element that had it before is found again among the new elements by its
// `data-focus-key`; when that one is gone or disabled, the first of `fallbacks`
// (more keys) that is there.
export function keepingFocus(container, draw, fallbacks = []) {
  const active = document.activeElement;
  const key = active && active !== container && container.contains(active)
    ? active.dataset.focusKey : undefined;
  draw();
  if (key === undefined || container.contains(document.activeElement)) return;
  for (const k of [key, ...fallbacks]) {
    const next = container.querySelector(`[data-focus-key="${CSS.escape(k)}"]`);
    if (next && !next.disabled) {
      next.focus({ preventScroll: true });
      return;
    }
  }
}

// One tab stop for a list of elements `items` (in their order): only `items[current]`
// is reached with Tab; ArrowDown / ArrowUp (and Home / End) move the focus along the
// list (WAI-ARIA's roving tabindex).
export function rovingFocus(items, current = 0) {
  const at = Math.min(Math.max(0, current), items.length - 1);
  items.forEach((item, k) => {
    item.tabIndex = k === at ? 0 : -1;
    item.addEventListener("keydown", (event) => {
      const to = { ArrowDown: k + 1, ArrowUp: k - 1, Home: 0, End: items.length - 1 }[event.key];
      if (to === undefined || to < 0 || to >= items.length || event.altKey) return;
      event.preventDefault(); // (the page would scroll)
      items.forEach((other) => { other.tabIndex = -1; });
      items[to].tabIndex = 0;
      items[to].focus();
    });
  });
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
  // the theme as a class on the root: widgets.css picks light or dark fallbacks by it
  const syncTheme = () => {
    const { dark, host: tool } = themeOf();
    root.classList.toggle("iaa-dark", dark);
    root.dataset.theme = dark ? "dark" : "light";
    root.dataset.host = tool;
  };
  syncTheme();
  const offs = [listen(model, "change:error", syncError), onThemeChange(syncTheme),
    ownKeyboard(root)];
  return {
    root, body, showError,
    dispose() { offs.forEach((off) => off()); root.remove(); },
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
export function announceRedraw(root) {
  const revision = Number(root.dataset.revision || 0) + 1;
  root.dataset.revision = String(revision);
  root.dispatchEvent(new CustomEvent("iaa:redraw", { bubbles: true, detail: { revision } }));
}

// Leave out of `spec` (Vega-Lite, with named datasets) every layer whose dataset has no
// rows in `rows`, and return those datasets' names. Vega takes a quantitative scale's
// domain from each layer's rows and warns of an "Infinite extent" for a layer with
// none (the sweep with no item ticked, say): such a layer has nothing to draw anyway.
// A layer holding params (a selection) stays, and so do the layers of a stack that
// are all empty (the chart needs a layer: its scales then need explicit domains).
function dropEmptyLayers(spec, rows) {
  const names = new Set();
  const empty = (layer) => !layer.params && layer.data && layer.data.name in (spec.datasets || {})
    && !(rows[layer.data.name] || []).length;
  const visit = (node) => {
    for (const key of ["layer", "vconcat", "hconcat", "concat"]) (node[key] || []).forEach(visit);
    if (!Array.isArray(node.layer) || node.layer.every(empty)) return;
    node.layer.filter(empty).forEach((layer) => names.add(layer.data.name));
    node.layer = node.layer.filter((layer) => !empty(layer));
  };
  visit(spec);
  return names;
}

const sameSet = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));

// Embed the Vega-Lite spec `_specs[name]` into `container`. Its named datasets take
// their rows from the `_datasets` traitlet; when that changes, the rows are swapped in
// the live view (no re-embed). A new spec or a theme switch re-embeds.
// `onClick(event, datum)` receives clicks on marks; with `announce`, each draw of this
// chart is counted as the widget's redraw (see announceRedraw). `patch(spec)` may
// change a copy of the spec before each embed (e.g. a fixed axis the page chose).
// The chart is an image to assistive technology (role="img"): `describe()` returns
// its text summary, set as aria-label after every draw. `after(view)` runs after each
// draw and each update of the rows (e.g. to place labels from the view's scales).
// Layers with no rows are left out of the drawing (see dropEmptyLayers); a dataset
// that gets its first rows, or loses its last, draws the chart again. `keepEmpty`
// keeps them (a chart whose scales have explicit domains, which a new drawing would
// lose the zoom of).
export function mountChart(model, name, container,
  { root, onClick, announce, patch, describe, after, keepEmpty } = {}) {
  const tooltip = textTooltip(root || container);
  let result = null;
  let queue = Promise.resolve();
  let disposed = false;
  let drawn = null; // the spec of the drawing (patched, before rows and dropEmptyLayers)
  let dropped = new Set(); // … and the datasets whose layers it left out

  const datasetNames = () => Object.keys((model.get("_specs")[name] || {}).datasets || {});

  const draw = async () => {
    let spec = structuredClone(model.get("_specs")[name]);
    if (!spec) return;
    if (patch) spec = patch(spec) || spec;
    drawn = structuredClone(spec);
    const rows = model.get("_datasets");
    dropped = keepEmpty ? new Set() : dropEmptyLayers(spec, rows);
    // copies: Vega keeps the rows it is given as its tuples and changes them in place
    // (update), while the model's must stay as sent (a static page switches back to them)
    for (const key of Object.keys(spec.datasets || {})) spec.datasets[key] = structuredClone(rows[key] || []);
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
    const all = model.get("_datasets");
    // a dataset got its first rows or lost its last: its layers come or go
    const regrouped = result && !keepEmpty
      && !sameSet(dropEmptyLayers(structuredClone(drawn), all), dropped);
    if (!result || regrouped) return draw();
    tooltip.hide(); // it would show the old numbers until the pointer moves
    for (const key of datasetNames()) {
      if (dropped.has(key)) continue; // (not in the view)
      const rows = all[key] || [];
      const tuples = result.view.data(key);
      if (!tuples || tuples.length !== rows.length) {
        result.view.data(key, structuredClone(rows)); // (a copy, as in draw)
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

  // (vega-embed sets its own role, graphics-document, on the container at each embed)
  const label = () => {
    container.setAttribute("role", "img");
    const text = describe ? describe() : "";
    container.setAttribute("aria-label", text || `chart: ${name}`);
  };
  label();

  const enqueue = (job) => {
    queue = queue.then(async () => {
      if (disposed) return;
      await job();
      if (after && result && !disposed) await after(result.view);
      label();
      // (a chart whose spec has not arrived yet is not drawn: draw_later in Python)
      if (!disposed && announce && result) announceRedraw(root);
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
    redraw: () => enqueue(draw), // re-embed, e.g. after `patch` would change the spec
    describe: label,
    dispose() {
      disposed = true;
      offs.forEach((off) => off());
      if (result) result.finalize();
      tooltip.remove();
    },
  };
}

// ---------------------------------------------------------------- counts, grids, tips
// A count with thousands separators ("1,800,169"), the same in every locale.
export function count(n) {
  return n === null || n === undefined ? "—" : Number(n).toLocaleString("en-US");
}

// One tab stop for a grid of elements (`grid`: rows of elements, null where there is
// none): only `pick` (or the first element) is reached with Tab; the arrow keys move the
// focus to the next element in their direction, Home / End to the first / last of the
// row (WAI-ARIA's grid pattern with a roving tabindex).
export function gridFocus(grid, pick = null) {
  const all = grid.flat().filter(Boolean);
  if (!all.length) return;
  const start = all.includes(pick) ? pick : all[0];
  all.forEach((item) => { item.tabIndex = item === start ? 0 : -1; });
  const move = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };
  grid.forEach((row, r) => row.forEach((item, c) => {
    if (!item) return;
    item.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      let to = null;
      if (event.key === "Home" || event.key === "End") {
        const cells = row.filter(Boolean);
        to = event.key === "Home" ? cells[0] : cells[cells.length - 1];
      } else if (move[event.key]) {
        const [dr, dc] = move[event.key];
        for (let i = r + dr, j = c + dc; i >= 0 && i < grid.length && j >= 0
          && j < (grid[i] || []).length; i += dr, j += dc) {
          if (grid[i][j]) { to = grid[i][j]; break; }
        }
      } else return;
      event.preventDefault(); // (the page would scroll)
      if (!to) return;
      all.forEach((other) => { other.tabIndex = -1; });
      to.tabIndex = 0;
      to.focus();
    });
  }));
}

// Tooltips that show on keyboard focus as well as on hover: every element inside `root`
// with a `data-tip` shows that text (as text) beside it while it has the pointer, or else
// while it has the focus. Returns the function that removes them.
export function focusTips(root) {
  const tip = h("div", { class: "iaa-tooltip iaa-focus-tip", role: "tooltip", hidden: true });
  root.append(tip);
  let hovered = null;
  const tipped = (node) => {
    const el = node instanceof Element ? node.closest("[data-tip]") : null;
    return el && root.contains(el) ? el : null;
  };
  const update = () => {
    const el = (hovered && hovered.isConnected ? hovered : null) || tipped(document.activeElement);
    if (!el) { tip.hidden = true; return; }
    tip.textContent = el.dataset.tip;
    const box = root.getBoundingClientRect();
    const at = el.getBoundingClientRect();
    tip.style.left = `${Math.max(0, at.left - box.left)}px`;
    tip.style.top = `${at.bottom - box.top + 4}px`;
    tip.hidden = false;
  };
  const later = () => setTimeout(update, 0); // (the focus has moved by then)
  const on = [
    ["mouseover", (e) => { hovered = tipped(e.target); update(); }],
    ["mouseout", (e) => {
      if (hovered && !hovered.contains(e.relatedTarget)) { hovered = null; update(); }
    }],
    ["focusin", later], ["focusout", later]];
  on.forEach(([type, fn]) => root.addEventListener(type, fn));
  return () => {
    on.forEach(([type, fn]) => root.removeEventListener(type, fn));
    tip.remove();
  };
}
