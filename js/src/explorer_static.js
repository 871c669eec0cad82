// ProjectExplorer in a static page (issue 42): a model over the page's stand-in
// (standalone.js) that answers a click from the items the page embeds
// (iaa_widgets/widgets/explorer_export.py). Python listed, at export time, the rows of
// every selection a click or a filter can make, in the widget's order, and wrote each
// row's CSV and adjudication-sheet record; this model only picks a selection's list,
// pages it, and joins the records of a download. It computes no measure.
//
// `query`, `page` and `page_size` are this model's own; `items_page` and `labels_panel`
// follow from them as Python's would (explorer.py: _send_items, _labels_payload). Every
// other traitlet, and every other message, goes to the page's model.

const OWN = new Set(["query", "page", "page_size", "items_page", "labels_panel"]);

const keyOf = (q) => `${(q.annotators || []).join(",")}|${(q.labels || []).join(",")}`;

// the page of `rows` (table positions) for `query`, laid out as explorer.py's _send_items:
// item, text, agreement, ratings, the clicked annotators, the consensus, the reference,
// the other annotators; labels as text ("" where none)
function itemsPage(data, saved, query, rows, page, size, notice) {
  const names = saved.annotator_names;
  const labels = saved.label_names;
  const pages = Math.max(1, Math.ceil(rows.length / size));
  page = Math.min(Math.max(0, page), pages - 1);
  const picked = query.annotators || [];
  const one = picked.length === 1 ? picked[0] : -1;
  const label = (code) => (code >= 0 ? labels[code] : "");
  const reference = saved.items_page.reference;
  const columns = [
    ["item", (i) => data.item[i]],
    ...(data.text ? [["text", (i) => data.text[i]]] : []),
    ["agreement", (i) => data.agreement[i]],
    ["n_ratings", (i) => data.n_ratings[i]],
    ...picked.map((j) => [names[j], (i) => label(data.grid[j][i])]),
    ["consensus", (i) => label(one >= 0 ? data.others[one][i] : data.consensus[i])],
    ...(data.reference ? [[reference, (i) => label(data.reference[i])]] : []),
    ...names.map((n, j) => [n, (i) => label(data.grid[j][i])]).filter((_, j) => !picked.includes(j)),
  ];
  const shown = rows.slice(page * size, (page + 1) * size);
  return {
    ...saved.items_page,
    total: rows.length, page, pages, offset: page * size, page_size: size,
    columns: columns.map(([c]) => c), rows: shown.map((i) => columns.map(([, cell]) => cell(i))),
    query, highlight: "", notice,
  };
}

// A download of `rows` (table positions): Python's header and records, each joined with
// its consensus field (with one annotator clicked, the consensus they are compared with).
function sheet(data, kind, query, rows) {
  const s = data[kind];
  const picked = query.annotators || [];
  const consensus = picked.length === 1 ? data.others[picked[0]] : data.consensus;
  const lines = rows.map((i) => {
    const c = consensus[i];
    return `${s.rows[i]},${c >= 0 ? s.labels[c] : ""}${s.tail}`;
  });
  return [s.header, ...lines].map((line) => `${line}\r\n`).join("");
}

// What the page says of a selection whose items it holds only in part (its budget).
function partNotice(data, total, shown) {
  return shown < total ? `this page holds ${shown.toLocaleString("en-US")} of these `
    + `${total.toLocaleString("en-US")} items: the ${data.n_items.toLocaleString("en-US")} of lowest `
    + "agreement were saved with it, to keep it within its budget" : "";
}

export function staticExplorer(model, data) {
  const saved = {
    annotator_names: model.get("annotator_names"),
    label_names: model.get("label_names"),
    items_page: model.get("items_page"),
  };
  const state = {
    query: model.get("query") || {},
    page: model.get("page"),
    page_size: model.get("page_size"),
    items_page: model.get("items_page"),
    labels_panel: model.get("labels_panel"),
  };
  let pending = {};
  const listeners = new Map();
  const emit = (event, ...args) => {
    for (const callback of [...(listeners.get(event) || [])]) callback(...args);
  };
  const own = (event) => event === "msg:custom" || OWN.has(event.replace(/^change:/, ""));
  const listOf = (query) => {
    const found = data.queries[keyOf(query)];
    return found ? { rows: data.lists[found[0]], total: found[1] } : null;
  };
  const panelOf = (query) => ((query.annotators || []).length === 1
    ? data.panels.annotators[query.annotators[0]] : data.panels.pooled);

  // the page Python would send for the state now (the saved page stays as Python sent
  // it until the reader moves)
  const redraw = (notice = "") => {
    const list = listOf(state.query);
    state.items_page = itemsPage(data, saved, state.query, list.rows, state.page,
      state.page_size, notice || partNotice(data, list.total, list.rows.length));
    state.page = state.items_page.page;
  };
  const apply = () => {
    const next = { ...state, ...pending };
    pending = {};
    const changed = [];
    let notice = "";
    if (keyOf(next.query) !== keyOf(state.query)) {
      if (listOf(next.query)) {
        changed.push("query");
        next.page = 0;
      } else { // a selection the page's budget left out: the list shown stays
        next.query = state.query;
        notice = "this selection was not saved with the page (its budget); the list shown is unchanged";
      }
    }
    if (next.page_size !== state.page_size) changed.push("page_size");
    if (next.page !== state.page) changed.push("page");
    const before = { labels_panel: state.labels_panel };
    Object.assign(state, { query: next.query, page: next.page, page_size: next.page_size });
    if (!listOf(state.query)) { // the saved selection itself was left out: its page stays
      state.page = state.items_page.page;
      state.items_page = { ...state.items_page, notice: "the other pages of this selection "
        + "were not saved with the page (its budget); the page shown is unchanged" };
    } else {
      redraw(notice);
    }
    state.labels_panel = panelOf(state.query);
    if (state.labels_panel !== before.labels_panel) changed.push("labels_panel");
    changed.push("items_page");
    queueMicrotask(() => changed.forEach((name) => emit(`change:${name}`)));
  };

  // a download: the selection's records, sent to the view as Python's answer would be
  const download = (kind) => {
    const list = listOf(state.query);
    const rows = list ? list.rows : [];
    const text = sheet(data, kind, state.query, rows);
    const bytes = new TextEncoder().encode(text);
    const name = kind === "csv" ? "selection.csv" : "adjudication.csv";
    queueMicrotask(() => emit("msg:custom", { download: name, rows: rows.length,
      bytes: bytes.length }, [bytes]));
  };

  return {
    staticData: data,
    get: (name) => (OWN.has(name) ? state[name] : model.get(name)),
    set: (name, value) => {
      if (name === "query" || name === "page" || name === "page_size") pending[name] = value;
      else model.set(name, value);
    },
    save_changes: () => {
      if (Object.keys(pending).length) apply();
      model.save_changes();
    },
    send: (msg) => {
      if (msg && (msg.export === "csv" || msg.export === "adjudication")) download(msg.export);
      else model.send(msg);
    },
    on: (event, callback) => {
      if (!own(event)) return model.on(event, callback);
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(callback);
    },
    off: (event, callback) => {
      if (!event || !own(event)) model.off(event, callback);
      if (!event) listeners.clear();
      else if (!callback) listeners.delete(event);
      else listeners.get(event)?.delete(callback);
    },
  };
}
