// The one bundle shared by every iaa_widgets widget: the Python class names its
// renderer in the `_kind` traitlet.
import "./widgets.css";
import { mountShell } from "./base.js";
import { renderContingency } from "./contingency.js";
import { renderSweep } from "./sweep.js";
import { renderSparse } from "./sparse.js";
import { renderGamma } from "./gamma.js";
import { renderExplorer } from "./explorer.js";
import { renderDesigner } from "./designer.js";
import { renderParadox } from "./paradox.js";

const RENDERERS = {
  contingency: renderContingency,
  sweep: renderSweep,
  sparse: renderSparse,
  gamma: renderGamma,
  explorer: renderExplorer,
  designer: renderDesigner,
  paradox: renderParadox,
};

function render({ model, el }) {
  const shell = mountShell(model, el);
  const kind = model.get("_kind");
  const renderer = RENDERERS[kind];
  if (!renderer) {
    shell.showError(`iaa_widgets: no front-end for widget kind "${kind}"`);
    return () => shell.dispose();
  }
  const cleanup = renderer({ model, el, shell });
  return () => {
    if (cleanup) cleanup();
    shell.dispose();
  };
}

export default { render };
