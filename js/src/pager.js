// The pager of a table that Python sends one page at a time, shared by ProjectExplorer's
// items (explorer.js) and its documents on span data (explorer_spans.js): previous and next
// buttons and a page-size control, bound to the `page` and `page_size` traitlets.
// (Its own module so that neither explorer module imports the other.)
import { count, h } from "./base.js";

const SIZES = [10, 25, 50, 100, 250, 1000];

// `t`: the table's page ({ page, pages }); none for a single page. Each button has a
// data-focus-key ("prev", "next") for keepingFocus.
export function pageButtons(model, t, what) {
  const go = (page) => { model.set("page", page); model.save_changes(); };
  return t.pages > 1 ? [
    h("button", { type: "button", class: "iaa-page-prev", disabled: t.page <= 0,
      "data-focus-key": "prev", "aria-label": `previous page of ${what}`,
      onclick: () => go(t.page - 1) }, "‹ previous"),
    h("span", { class: "iaa-page-of" }, `page ${count(t.page + 1)} of ${count(t.pages)}`),
    h("button", { type: "button", class: "iaa-page-next", disabled: t.page >= t.pages - 1,
      "data-focus-key": "next", "aria-label": `next page of ${what}`,
      onclick: () => go(t.page + 1) }, "next ›"),
  ] : [];
}

// A <select> of rows per page bound to `page_size` (its value among the choices even when
// Python was given another); returns { node, sync } (sync: after page_size changed).
export function pageSizeSelect(model, what) {
  const input = h("select", { class: "iaa-page-size", "aria-label": `${what} per page` });
  const sync = () => {
    const now = model.get("page_size");
    const sizes = [...new Set([...SIZES, now])].sort((a, b) => a - b);
    input.replaceChildren(...sizes.map((n) => h("option", { value: String(n) }, count(n))));
    input.value = String(now);
  };
  input.addEventListener("change", () => {
    model.set("page_size", Number(input.value));
    model.set("page", 0);
    model.save_changes();
  });
  sync();
  return { node: h("label", { class: "iaa-control" },
    h("span", { class: "iaa-control-label" }, `${what} per page`), input), sync };
}
