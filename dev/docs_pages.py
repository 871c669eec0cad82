"""The documentation site's generated pages (dev/docs.sh runs this before `mkdocs build`).

Writes into docs/generated/ (git-ignored):

- ``api.md``: one mkdocstrings entry per public name of ``iaa_widgets`` (``__all__``),
  grouped by kind, each pointing at the module that defines it;
- ``coefficients.md``: the registry's table of coefficients (``iaa.coefficients()``),
  included by the "Which coefficient?" page;
- ``gallery/*.html``: each widget as a self-contained page (``widget.to_html``), which the
  gallery embeds as iframes: hover, zoom and tooltips work with no kernel;
- ``notebooks/*.ipynb``: the notebooks with their outputs. Copies executed by the test
  suite (``IAA_EXECUTED_NOTEBOOKS``, which dev/test.sh sets) are reused; any other
  notebook is executed here.
"""
from __future__ import annotations

import inspect
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "generated"
# a notebook's page is site/generated/notebooks/<name>/: three folders below the site's root
GALLERY_FROM_NOTEBOOK = "../" * len(("generated", "notebooks", "<name>")) + "widgets/"


def _public_names(iaa) -> list[str]:
    names = getattr(iaa, "__all__", None)
    if names is None:
        names = [n for n in dir(iaa) if not n.startswith("_")]
    return [n for n in names if n not in ("datasets", "charts", "io", "__version__")]


def _kind(obj) -> str:
    name = getattr(obj, "__name__", "")
    module = getattr(obj, "__module__", "")
    if module.startswith("iaa_widgets.widgets"):
        return "Widgets"
    if module.startswith("iaa_widgets.io") or name in ("read_csv", "read_continuum_csv"):
        return "Reading data"
    if inspect.isclass(obj):
        return "Data and result types"
    if module.startswith("iaa_widgets.models"):
        return "Annotator models"
    if module.startswith(("iaa_widgets.report", "iaa_widgets.explore")):
        return "Reports and exploration"
    return "Coefficients and intervals"


KINDS = ["Coefficients and intervals", "Annotator models", "Reports and exploration",
         "Reading data", "Data and result types", "Widgets"]


def api_page(iaa) -> str:
    groups: dict[str, list[str]] = {k: [] for k in KINDS}
    for name in _public_names(iaa):
        obj = getattr(iaa, name)
        module = getattr(obj, "__module__", None)
        if module is None or not module.startswith("iaa_widgets"):
            continue
        groups[_kind(obj)].append(f"::: {module}.{obj.__qualname__}")
    lines = ["# API reference", "",
             "Every public name of `iaa_widgets` (`import iaa_widgets as iaa`), generated "
             "from the docstrings. Module paths are where each name is defined; use them "
             "through `iaa.<name>`.", ""]
    for kind in KINDS:
        if groups[kind]:
            lines += [f"## {kind}", ""]
            lines += [entry + "\n    options:\n      heading_level: 3\n" for entry in groups[kind]]
    return "\n".join(lines) + "\n"


def coefficients_page(iaa) -> str:
    from iaa_widgets.html import text
    table = iaa.coefficients()
    columns = list(table.columns)
    head = "| " + " | ".join(text(c) for c in columns) + " |"
    rule = "|" + "---|" * len(columns)

    def cell(v) -> str:
        s = ", ".join(map(str, v)) if isinstance(v, (list, tuple, frozenset, set)) else str(v)
        return text(s).replace("|", "&#124;").replace("\n", " ")
    rows = ["| " + " | ".join(cell(row[c]) for c in columns) + " |"
            for _, row in table.iterrows()]
    return "\n".join([head, rule, *rows]) + "\n"


def gallery(iaa, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    labels = iaa.read_csv(ROOT / "examples" / "labels.csv")
    emails = iaa.read_csv(ROOT / "examples" / "emails.csv", rank="rank")
    units = iaa.read_continuum_csv(ROOT / "examples" / "units.csv")
    widgets = {
        "contingency": lambda: iaa.ContingencyMatrix(labels),
        "sweep": lambda: iaa.AugmentedKappaSweep(emails),
        "sparse": lambda: iaa.SparseAgreementExplorer(iaa.datasets.crowd_labels()),
        "gamma": lambda: iaa.GammaExplorer(units, seed=0),
        "paradox": lambda: iaa.ParadoxExplorer(observed=0.85),
    }
    if hasattr(iaa, "ProjectExplorer"):
        widgets["explorer"] = lambda: iaa.ProjectExplorer(labels)
    for name, make in widgets.items():
        make().to_html(out / f"{name}.html", title=f"iaa_widgets: {name}")


def notebooks(out: Path) -> None:
    import nbformat
    out.mkdir(parents=True, exist_ok=True)
    executed = os.environ.get("IAA_EXECUTED_NOTEBOOKS")
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        done = Path(executed) / path.name if executed else None
        if done is not None and done.is_file():
            nb = nbformat.read(done, as_version=4)
        else:
            from nbclient import NotebookClient
            nb = nbformat.read(path, as_version=4)
            print(f"executing {path.name}", file=sys.stderr)
            NotebookClient(nb, kernel_name="python3", timeout=300,
                           resources={"metadata": {"path": str(path.parent)}}).execute()
        nbformat.write(static_copy(nb), out / path.name)


def static_copy(nb):
    """The notebook as a page shows it: a live widget's output needs a kernel, so it
    becomes a line that points to the gallery, where the widget works without one; no
    widget state (it would make the page load a widget manager from a CDN)."""
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "application/vnd.jupyter.widget-view+json" in data:
                name = data.get("text/plain", "a widget")
                output["data"] = {"text/markdown":
                                  f"*{name.splitlines()[0]}: a live widget; with no kernel "
                                  f"behind this page, see it working in the "
                                  f"[widgets gallery]({GALLERY_FROM_NOTEBOOK}).*"}
    return nb


def main() -> None:
    sys.path.insert(0, str(ROOT))
    import iaa_widgets as iaa
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "api.md").write_text(api_page(iaa), encoding="utf-8")
    (OUT / "coefficients.md").write_text(coefficients_page(iaa), encoding="utf-8")
    gallery(iaa, OUT / "gallery")
    notebooks(OUT / "notebooks")


if __name__ == "__main__":
    main()
