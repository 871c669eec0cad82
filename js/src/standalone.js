// A widget outside the notebook: the script of the page `widget.to_html()` writes
// (iaa_widgets/widgets/export.py). Built as a classic script defining the global
// `iaaStandalone.mount`, inlined into the page (no CDN; works from file:// offline).
//
// A static copy has no Python kernel, so this model stands in for anywidget's over the
// synced state saved in the page: `get`, `on`, `off` work as in the notebook. The page
// may carry precomputed states (export.precomputed_states, issue 42): for the controls
// it names, `set` looks up the state Python computed for the new values of those
// controls and switches to it (a number snaps to the nearest value saved with the other
// controls as they are); it computes
// nothing. Any other `set` is refused (Python would recompute the numbers from it), the
// control that asked is put back to the saved value and a notice says why;
// `save_changes` does nothing and `send` shows the same notice. Form controls that
// would set a traitlet are disabled and listed in the page's banner; those that act on
// the page only, or switch among saved states, stay live.
import widget from "./index.js";
// the bundle's own vega-embed, for a page that also draws charts of its own (`iaa report`
// with widgets: html.page's iaaVega from here, not a second copy of vega)
export { default as embed } from "vega-embed";

// Controls that act on the page only (no traitlet): the SPA chart's "fix x axis" box
// (sparse.js) and the zoom and pan buttons of a zoomable chart (zoomx.js).
const FRONT_END_ONLY = ".iaa-fix-x, .iaa-zoom-button";
const CONTROLS = "input, select, textarea, button";

const NO_STATES = { controls: [], names: [], diffs: [], states: [], dropped: [], data: null };

const same = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);

class StaticModel {
  constructor(state, notify, live = NO_STATES) {
    this.saved = state;
    this.state = state;
    this.notify = notify;
    this.listeners = new Map();
    this.sliders = new Set(); // the controls set by a range input (mount): those snap
    this.live = live;
    // what a widget's front-end reads itself (ProjectExplorer: the items of each click)
    this.staticData = live.data || null;
    this.controls = new Map(live.controls.map((c) => [c.name, c]));
    const key = (values) => JSON.stringify(values);
    this.key = key;
    // a state: the controls' values (its key) and the position of its diff in live.diffs
    // (-1: none), shared by the states that show the same thing at other values
    this.states = new Map(live.states.map(([values, k]) => [key(values),
      { values, diff: k < 0 ? {} : live.diffs[k] }]));
    const here = live.names.map((n) => state[n]);
    this.states.set(key(here), { values: here, diff: {} });
  }

  // The value of control `name` nearest to `value` among the saved states whose other
  // controls hold their values now (a slider's: its step may be finer than the grid
  // saved with the other controls), or `value` itself (a select, a class row, a pager).
  nearest(name, value) {
    if (typeof value !== "number" || !this.sliders.has(name)) return value;
    const names = this.live.names;
    const at = names.indexOf(name);
    let [best, gap] = [value, Infinity];
    for (const { values } of this.states.values()) {
      const v = values[at];
      if (typeof v !== "number" || Math.abs(v - value) >= gap) continue;
      if (values.every((w, k) => k === at || same(w, this.state[names[k]]))) {
        [best, gap] = [v, Math.abs(v - value)];
      }
    }
    return best;
  }

  get(name) {
    return this.state[name];
  }

  // A saved control: switch to the state saved for the new values, if there is one.
  // Otherwise refused: the saved value stays, and the views listening to `name`
  // redraw from it (so a slider the reader dragged springs back to the value the
  // numbers belong to).
  set(name, value) {
    const control = this.controls.get(name);
    if (control) {
      const wanted = this.nearest(name, value);
      const values = this.live.names.map((n) => (n === name ? wanted : this.state[n]));
      const found = this.states.get(this.key(values));
      if (found) {
        this.switchTo(found);
        return;
      }
      const others = this.live.names.filter((n) => n !== name && this.state[n] !== this.saved[n]);
      this.notify(name, `"${control.label}" = ${wanted} with ${others.map((n) => `"${this.controls.get(n)?.label || n}" = ${this.state[n]}`).join(", ")} was not saved with the page`);
    } else {
      this.notify(name);
    }
    queueMicrotask(() => this.emit(`change:${name}`));
  }

  // the saved state with the state's `diff` over it (`_datasets` by dataset) and its
  // controls' `values`; the views of every traitlet that differs from the state shown redraw
  switchTo({ values, diff }) {
    const next = { ...this.saved, ...diff,
      _datasets: { ...this.saved._datasets, ...(diff._datasets || {}) } };
    this.live.names.forEach((n, i) => { next[n] = values[i]; });
    // the controls first, then what follows from them (as Python answers a move in the
    // notebook: a widget that shows "working" from a control's change until an answer)
    const keys = [...this.live.names, ...Object.keys(next).filter((k) => !this.live.names.includes(k))];
    const changed = keys.filter(
      (k) => JSON.stringify(next[k]) !== JSON.stringify(this.state[k]));
    this.state = next;
    queueMicrotask(() => changed.forEach((k) => this.emit(`change:${k}`)));
  }

  save_changes() {}

  send() {
    this.notify(null);
  }

  on(event, callback) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event).add(callback);
  }

  off(event, callback) {
    if (!event) this.listeners.clear();
    else if (!callback) this.listeners.delete(event);
    else this.listeners.get(event)?.delete(callback);
  }

  emit(event) {
    for (const callback of [...(this.listeners.get(event) || [])]) callback(this);
  }
}

// The accessible name of a control, for the banner's list of disabled controls; the
// controls of a table's rows (one tick per item) are named together.
function controlName(node) {
  if (node.closest("tbody")) return `${node.type === "checkbox" ? "ticks" : "controls"} in a table`;
  const label = node.closest("label")?.querySelector(".iaa-control-label")?.textContent
    || node.getAttribute("aria-label") || node.closest("label")?.textContent
    || node.getAttribute("title") || node.className || node.tagName.toLowerCase();
  return label.trim();
}

// Disable every form control under `root` that would set a traitlet (now and in any
// part the widget redraws later), but those matching `live` (they switch among saved
// states); `onChange` receives the sorted, distinct names of the disabled controls the
// reader can see (a hidden part, such as the cell editor of a table that is not
// editable, is not listed).
function disableKernelControls(root, live, onChange) {
  let listed = null;
  const apply = () => {
    const names = new Map();
    for (const node of root.querySelectorAll(CONTROLS)) {
      if (node.matches(FRONT_END_ONLY) || (live && node.matches(live))) continue;
      if (!node.disabled) node.disabled = true; // (a widget may enable it again: see below)
      if (!node.dataset.iaaStatic) {
        node.dataset.iaaStatic = "disabled";
        node.title = "static copy: this control needs the Python kernel";
      }
      if (node.closest("[hidden]")) continue;
      const name = controlName(node);
      names.set(name, (names.get(name) || 0) + 1);
    }
    const now = [...names].map(([name, n]) => (n > 1 ? `${name} (${n})` : name)).sort();
    if (now.join("\n") !== listed) {
      listed = now.join("\n");
      onChange(now);
    }
  };
  apply();
  const observer = new MutationObserver(apply);
  // new parts, and controls the widget enables itself (the count box of a selected cell)
  observer.observe(root, { childList: true, subtree: true, attributes: true,
    attributeFilter: ["disabled", "hidden"] });
  return () => observer.disconnect();
}

// Render the widget whose synced state is `state` into `el`, switching among the
// precomputed states of `live`. `disabledList` receives the names of the disabled
// controls (as text), `liveList` those of the saved controls, `droppedList` the groups
// of controls left out of the page's budget; `notice` the message shown when the reader
// tries one of the refused changes (a click on a cell, a key, a dragged slider).
export function mount(el, state, { live = NO_STATES, disabledList, liveList, droppedList,
  notice } = {}) {
  const notify = (name, why) => {
    if (!notice) return;
    const what = name ? `changing "${name}"` : "this action";
    notice.textContent = why ? `Static copy: ${why}; the numbers shown are unchanged.`
      : `Static copy: ${what} needs the Python kernel; the numbers shown are those saved `
        + "with the page.";
    notice.hidden = false;
  };
  const model = new StaticModel(state, notify, live);
  const cleanup = widget.render({ model, el });
  const shown = (list, items) => {
    if (!list) return;
    list.textContent = items.join("; ");
    list.parentElement.hidden = !items.length;
  };
  const own = (live.data && live.data.controls) || [];
  shown(liveList, [...live.controls.map((c) => `${c.label} (${c.values.length} values)`),
    ...own.map((c) => `${c.label} (${c.n} selections)`)]);
  shown(droppedList, live.dropped.map((d) => d.text || `${d.controls} (${d.n_states} states, `
    + `more than the ${d.left} left)`));
  // a slider over saved values steps over them (its own step may be finer)
  for (const c of live.controls) {
    const nums = c.values.filter((v) => typeof v === "number").sort((a, b) => a - b);
    if (nums.length < 2) continue;
    const step = Number(Math.min(...nums.slice(1).map((v, k) => v - nums[k])).toPrecision(12));
    for (const node of el.querySelectorAll(c.selector)) {
      if (node.type !== "range") continue;
      Object.assign(node, { min: nums[0], max: nums.at(-1), step });
      model.sliders.add(c.name);
    }
  }
  const selector = [...live.controls, ...own].map((c) => c.selector).join(", ");
  const stop = disableKernelControls(el, selector, (names) => {
    if (disabledList) disabledList.textContent = names.length ? names.join(", ") : "none";
  });
  return () => {
    stop();
    if (cleanup) cleanup();
  };
}
