// Small form controls shared by the live widgets: a labelled slider bound to a
// numeric traitlet (a move sent at once, drag updates coalesced to one message per
// animation frame), a select bound to a traitlet, and tables whose cells are text
// (never HTML).
import { fmt, h, listen } from "./base.js";

// A range input bound to `model[name]`; returns { node, dispose }.
export function slider(model, name, { label, min, max, step, digits = 2, title } = {}) {
  const input = h("input", {
    type: "range", min: String(min), max: String(max), step: String(step),
    class: `iaa-slider iaa-slider-${name}`, "aria-label": label, title,
  });
  const shown = h("span", { class: "iaa-slider-value" });
  const node = h("label", { class: "iaa-control" }, h("span", { class: "iaa-control-label" }, label),
    input, shown);
  let pending = null;
  let waiting = false;  // a send is scheduled for the next frame
  let sent = -Infinity; // when the last value was sent
  let dragging = false;
  const show = (v) => { shown.textContent = fmt(Number(v), digits); };
  const sync = () => {
    if (dragging) return;
    input.value = String(model.get(name));
    show(model.get(name));
  };
  const send = () => {
    waiting = false;
    model.set(name, pending);
    model.save_changes();
    sent = performance.now();
  };
  // a move sends its value at once; while dragging, at most one value per frame (the
  // newest): waiting for the next frame before the first send cost ~13 ms per move
  input.addEventListener("input", () => {
    show(input.value);
    pending = Number(input.value);
    if (waiting) return;
    if (performance.now() - sent >= 16) send();
    else { waiting = true; requestAnimationFrame(send); }
  });
  input.addEventListener("pointerdown", () => { dragging = true; });
  input.addEventListener("pointerup", () => { dragging = false; });
  input.addEventListener("change", () => { dragging = false; });
  input.addEventListener("keydown", (event) => event.stopPropagation());
  sync();
  const off = listen(model, `change:${name}`, sync);
  return { node, input, dispose: off };
}

// A <select> bound to `model[name]`; options are [value, text] pairs (text as text).
export function select(model, name, options, { label } = {}) {
  const node = h("select", { class: `iaa-select iaa-select-${name}`, "aria-label": label },
    options.map(([value, text]) => h("option", { value: String(value) }, text)));
  node.value = String(model.get(name));
  node.addEventListener("change", () => {
    const raw = node.value;
    model.set(name, typeof model.get(name) === "number" ? Number(raw) : raw);
    model.save_changes();
  });
  const off = listen(model, `change:${name}`, () => { node.value = String(model.get(name)); });
  const wrap = h("label", { class: "iaa-control" },
    label ? h("span", { class: "iaa-control-label" }, label) : null, node);
  return { node: wrap, select: node, dispose: off };
}

// A number input bound to `model[name]` (committed on change/Enter). What is typed is
// kept: the input has no `min` attribute, which would become the base of its steps (with
// min 2 and step 50 the arrows take a typed 300 to 302, not 350); a value below `min`
// is raised to it here.
export function numberInput(model, name, { label, min, max, step } = {}) {
  const input = h("input", { type: "number", class: `iaa-number iaa-number-${name}`,
    max: max === undefined ? undefined : String(max),
    step: String(step || 1), "aria-label": label });
  const sync = () => { if (document.activeElement !== input) input.value = String(model.get(name)); };
  input.addEventListener("change", () => {
    let v = Number(input.value);
    if (input.value === "" || !Number.isFinite(v)) return;
    if (min !== undefined && v < min) input.value = String((v = min));
    model.set(name, v);
    model.save_changes();
  });
  input.addEventListener("keydown", (event) => event.stopPropagation());
  sync();
  const off = listen(model, `change:${name}`, sync);
  return { node: h("label", { class: "iaa-control" }, h("span", { class: "iaa-control-label" }, label),
    input), input, dispose: off };
}

// A cell's text: integers as they are, other numbers with `digits`, the rest as text.
export function cellText(value, digits = 3) {
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  if (typeof value === "number" || value === null) return fmt(value, digits);
  return String(value);
}

// A link that downloads `rows` under `header` as a CSV file made on the page (no server
// round trip): each cell as quoted text, numbers at full precision, missing as empty;
// a text cell a spreadsheet would run as a formula (starting = + - @ tab CR) gets a
// leading ' so that it stays text.
export function csvLink(filename, header, rows, text) {
  const cell = (value) => {
    let out = value === null || value === undefined ? "" : String(value);
    if (typeof value === "string" && /^[=+\-@\t\r]/.test(out)) out = `'${out}`;
    return `"${out.replace(/"/g, '""')}"`;
  };
  const csv = `${[header, ...rows].map((row) => row.map(cell).join(",")).join("\r\n")}\r\n`;
  const link = h("a", { class: "iaa-csv", href: "#", download: filename }, text);
  link.dataset.csv = csv; // what the download holds, for tests and for copying
  link.addEventListener("click", () => {
    const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
    link.href = url;
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  });
  return link;
}
