// The ES module each widget model loads (its `_esm`): a few hundred bytes. anywidget
// gives a model 2 s to load its module and then drops every message Python sends it,
// and each model imports its own copy; the bundle with vega (static/widgets.js, over
// 1 MB) would be parsed once per widget, inside that limit. Instead the bundle travels
// in the `_bundle` traitlet and is imported once per page, when the first view renders.
const LOADED = (globalThis.__iaaWidgetsBundles ??= new Map()); // _bundle_id → Promise<module>

function bundle(model) {
  const id = model.get("_bundle_id");
  if (!LOADED.has(id)) {
    const url = URL.createObjectURL(new Blob([model.get("_bundle")], { type: "text/javascript" }));
    const loading = import(/* @vite-ignore */ url).finally(() => URL.revokeObjectURL(url));
    loading.catch(() => LOADED.delete(id)); // a failed import is retried by the next view
    LOADED.set(id, loading);
  }
  return LOADED.get(id);
}

async function render(context) {
  let widgets;
  try {
    widgets = await bundle(context.model);
  } catch (error) {
    const message = document.createElement("pre");
    message.className = "iaa-error";
    message.textContent = `iaa_widgets: the front-end bundle did not load: ${error}`;
    context.el.replaceChildren(message);
    return undefined;
  }
  return widgets.default.render(context);
}

export default { render };
