// A widget outside the notebook: the script of the page `widget.to_html()` writes
// (iaa_widgets/widgets/export.py). Built as a classic script defining the global
// `iaaStandalone.mount`, inlined into the page (no CDN; works from file:// offline).
//
// A static copy has no Python kernel, so this model stands in for anywidget's over the
// synced state saved in the page: `get`, `on`, `off` work as in the notebook; `set` of
// any traitlet is refused (Python would recompute the numbers from it), the control
// that asked is put back to the saved value and a notice says why; `save_changes` does
// nothing and `send` shows the same notice. Form controls that would set a traitlet are
// disabled and listed in the page's banner; those that act on the page only stay live.
import widget from "./index.js";

// Controls that act on the page only (no traitlet): the SPA chart's "fix x axis" box
// (sparse.js) and the zoom and pan buttons of a zoomable chart (zoomx.js).
const FRONT_END_ONLY = ".iaa-fix-x, .iaa-zoom-button";
const CONTROLS = "input, select, textarea, button";

class StaticModel {
  constructor(state, notify) {
    this.state = state;
    this.notify = notify;
    this.listeners = new Map();
  }

  get(name) {
    return this.state[name];
  }

  // Refused: the saved value stays, and the views listening to `name` redraw from it
  // (so a slider the reader dragged springs back to the value the numbers belong to).
  set(name) {
    this.notify(name);
    queueMicrotask(() => this.emit(`change:${name}`));
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
// part the widget redraws later); `onChange` receives the sorted, distinct names of the
// disabled controls the reader can see (a hidden part, such as the cell editor of a
// table that is not editable, is not listed).
function disableKernelControls(root, onChange) {
  let listed = null;
  const apply = () => {
    const names = new Map();
    for (const node of root.querySelectorAll(CONTROLS)) {
      if (node.matches(FRONT_END_ONLY)) continue;
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

// Render the widget whose synced state is `state` into `el`. `disabledList` receives
// the names of the disabled controls (as text); `notice` the message shown when the
// reader tries one of the refused changes (a click on a cell, a key, a dragged slider).
export function mount(el, state, { disabledList, notice } = {}) {
  const notify = (name) => {
    if (!notice) return;
    const what = name ? `changing "${name}"` : "this action";
    notice.textContent = `Static copy: ${what} needs the Python kernel; the numbers shown `
      + "are those saved with the page.";
    notice.hidden = false;
  };
  const model = new StaticModel(state, notify);
  const cleanup = widget.render({ model, el });
  const stop = disableKernelControls(el, (names) => {
    if (disabledList) disabledList.textContent = names.length ? names.join(", ") : "none";
  });
  return () => {
    stop();
    if (cleanup) cleanup();
  };
}
