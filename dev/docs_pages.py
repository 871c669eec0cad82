"""The documentation site's generated pages (dev/docs.sh runs this before `mkdocs build`).

Writes into docs/generated/ (git-ignored):

- ``api/<family>.md``: one page per family (:data:`FAMILIES`), opening with a summary
  table from the registry, then one mkdocstrings entry per public name of
  ``iaa_widgets`` (``__all__``, aliases included), ``::: iaa_widgets.<name>`` (made a
  member of the package by dev/docs_griffe.py), and a note of the former names;
- ``bibliography.md``: the papers the docstrings cite, with DOIs, and each
  coefficient's source from the registry;
- ``katex/``: KaTeX from js/node_modules, which docs/javascripts/site.js typesets with;
- ``coefficients.md``: the registry's table of coefficients (``iaa.coefficients()``),
  included by the "Which coefficient?" page;
- ``gallery/*.html``: each widget as a self-contained page (``widget.to_html``), which the
  gallery embeds as iframes: hover, zoom and tooltips work with no kernel;
- ``notebooks/*.ipynb``: the notebooks with their outputs. Copies executed by the test
  suite (``IAA_EXECUTED_NOTEBOOKS``, which dev/test.sh sets) are reused; any other
  notebook is executed here. Either way a last cell (:func:`live_cell`, removed after)
  saves each widget still open as its live page (``widget.to_html``, with the states
  its controls switch among, :data:`SITE_BUDGET`) into ``<name>.live/``, by model id.
  Each widget output becomes an iframe of that page (``snapshots/``), or, for a widget
  with none, of a snapshot from the state the notebook saved (its controls disabled);
  each Altair chart becomes a snapshot page too.
"""
from __future__ import annotations

import inspect
import os
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "generated"
# a notebook's page is site/generated/notebooks/<name>/: three folders below the site's root
GALLERY_FROM_NOTEBOOK = "../" * len(("generated", "notebooks", "<name>")) + "widgets/"
# site/generated/snapshots/, two folders up from a notebook's page
SNAPSHOTS_FROM_NOTEBOOK = "../" * len(("notebooks", "<name>")) + "snapshots/"
# bytes of a notebook widget's live page (to_html's default: the bundle alone is 1.2 MB,
# and the 380-message sweep's p slider needs 0.9 MB more)
SITE_BUDGET = 5_000_000


def live_cell(folder: Path) -> str:
    """The code of the cell run after a notebook's own, for the site: every widget open
    then saved as its live page into ``folder`` (:func:`iaa_widgets.sharing.save_pages`)."""
    return ("import iaa_widgets.sharing as _sharing\n"
            f"_sharing.save_pages({str(folder)!r}, budget={SITE_BUDGET})")


def _public_names(iaa) -> list[str]:
    names = getattr(iaa, "__all__", None)
    if names is None:
        names = [n for n in dir(iaa) if not n.startswith("_")]
    return [n for n in names if n not in ("datasets", "charts", "io", "__version__")]


# The API pages, one per family (slug, title, what it holds), in the order of the nav
FAMILIES = [
    ("categorical", "Categorical coefficients",
     "Agreement on nominal labels: observed agreement, the chance-corrected coefficients, "
     "primary and secondary labels (κ′) and sparse labels (SPA)."),
    ("continuous", "Continuous and ordinal coefficients",
     "Krippendorff's α under every metric, the intraclass correlations, Kendall's W, "
     "mean correlations and the ANOVA family."),
    ("sets-spans", "Sets and spans", "Multi-label data and spans of text."),
    ("continuum", "Continuum (γ, α_U)",
     "Units placed on a continuum: the γ family and Krippendorff's unitizing alphas."),
    ("models", "Annotator models", "Consensus labels and each annotator's competence."),
    ("explore", "Explore and report",
     "From the agreement number to the items, annotators and labels behind it; the "
     "coefficients that apply to a data set; the report."),
    ("design", "Design: inference and sample size",
     "Intervals, comparisons, benchmarks, leave-one-out and the items a study needs."),
    ("data", "Data and readers",
     "The data types, the loaders and one reader per annotation tool's format."),
    ("widgets", "Widgets", "The JupyterLab widgets (anywidget)."),
    ("results", "Results, errors and warnings",
     "What the functions return, with their fields and methods, and what they raise."),
]
_MODULE_FAMILY = [  # the first prefix of the defining module that matches decides
    ("iaa_widgets.widgets", "widgets"),
    ("iaa_widgets.models", "models"),
    ("iaa_widgets.explore", "explore"), ("iaa_widgets.report", "explore"),
    ("iaa_widgets.inference", "design"), ("iaa_widgets.measures.benchmarking", "design"),
    ("iaa_widgets.io", "data"), ("iaa_widgets.data", "data"),
    ("iaa_widgets.continuum", "data"), ("iaa_widgets.stats", "data"),
    ("iaa_widgets.measures.continuous", "continuous"),
    ("iaa_widgets.measures.sets_spans", "sets-spans"),
    ("iaa_widgets.measures.continuum", "continuum"),
    ("iaa_widgets.measures", "categorical"),
]


def family(name: str, obj) -> str:
    """The API page of public name ``name`` (a slug of :data:`FAMILIES`)."""
    module = getattr(obj, "__module__", "") or ""
    if inspect.isclass(obj) and not module.startswith(("iaa_widgets.widgets", "iaa_widgets.io",
                                                       "iaa_widgets.data",
                                                       "iaa_widgets.continuum",
                                                       "iaa_widgets.stats")):
        return "results"
    if name == "coefficients":
        return "explore"
    return next((f for prefix, f in _MODULE_FAMILY if module.startswith(prefix)), "results")


def api_entries(iaa) -> dict[str, list[str]]:
    """The public names of each API page, in the order of ``__all__``."""
    pages: dict[str, list[str]] = {slug: [] for slug, _, _ in FAMILIES}
    for name in _public_names(iaa):
        obj = getattr(iaa, name)
        if (getattr(obj, "__module__", None) or "").startswith("iaa_widgets"):
            pages[family(name, obj)].append(name)
    return pages


def api_urls(iaa) -> dict[str, str]:
    """Each public name's entry: the URL of its page (from the site's root) and anchor."""
    return {name: f"generated/api/{slug}/#iaa_widgets.{name}"
            for slug, names in api_entries(iaa).items() for name in names}


def _summary(obj) -> str:
    """A docstring's first paragraph, on one line."""
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n")[0].split())


def _cell(value) -> str:
    from iaa_widgets.html import text
    return text(str(value)).replace("|", "&#124;").replace("\n", " ")


def former_names(obj) -> list[tuple[str, str]]:
    """(former, new) names of ``obj``'s parameters that still work for one release: the
    ``renamed`` of ``validate.takes`` and the ``validate.rename("<its name>", {"old":
    "new"}, …)`` calls in its module (a helper of the function may make them)."""
    pairs = dict(getattr(obj, "renamed", {}))
    try:
        source = inspect.getsource(inspect.getmodule(inspect.unwrap(obj)))
    except (TypeError, OSError):
        source = ""
    name = re.escape(getattr(obj, "__name__", ""))
    for old, new in re.findall(rf'rename\(\s*"{name}",\s*\{{\s*"(\w+)":\s*"(\w+)"', source):
        pairs.setdefault(old, new)
    return list(pairs.items())


def api_page(iaa, slug: str, title: str, about: str, names: list[str]) -> str:
    table = iaa.coefficients().set_index("name")
    from iaa_widgets.measures import _registry
    aliases = {a: m.name for m in _registry.measures() for a in m.aliases}
    lines = [f"# {title}", "", about, "",
             "| name | what it is | data | annotators | intervals |", "|---|---|---|---|---|"]
    for name in names:
        obj = getattr(iaa, name)
        key = aliases.get(name, name)
        row = table.loc[key] if key in table.index else None
        facts = ([_cell(row[c]) for c in ("data", "annotators", "intervals")]
                 if row is not None else ["—"] * 3)
        line = (f"another name for [`{key}`](#iaa_widgets.{key})" if name in aliases
                else _cell(_summary(obj)))
        lines.append(f"| [`{name}`](#iaa_widgets.{name}) | {line} | " + " | ".join(facts) + " |")
    former = [(name, old, new) for name in names for old, new in former_names(getattr(iaa, name))]
    if former:
        lines += ["", '!!! note "Former names"', "",
                  "    These keyword arguments still work for one release, with a "
                  "DeprecationWarning; the signatures below show only the new names.", ""]
        lines += [f"    - `{name}`: `{old}=` is now `{new}=`" for name, old, new in former]
    lines.append("")
    for name in names:
        obj = getattr(iaa, name)
        options = ["heading_level: 2"]
        if inspect.isclass(obj):
            options += ["members: true", "inherited_members: false", "filters: [\"!^_\"]",
                        "show_bases: false", "summary: {attributes: true, functions: true}"]
        lines.append(f"::: iaa_widgets.{name}\n    options:\n"
                     + "".join(f"      {o}\n" for o in options))
    return "\n".join(lines) + "\n"


def api_index(iaa) -> str:
    lines = ["# API reference", "",
             "Every public name of `iaa_widgets` (`import iaa_widgets as iaa`), generated "
             "from the docstrings, one page per family; each name has its own entry, "
             "`iaa_widgets.<name>`, whatever module defines it.", "",
             "| page | what it holds | names |", "|---|---|---|"]
    entries = api_entries(iaa)
    for slug, title, about in FAMILIES:
        lines.append(f"| [{title}]({slug}.md) | {about} | {len(entries[slug])} |")
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


SECTION = re.compile(r"^(\w[\w ]*)\n-{3,}\n", re.M)
DOI = re.compile(r"(?:https?://(?:dx\.)?doi\.org/|doi:\s*)(10\.\d{4,9}/[^\s,;>]+?)(?=[.,;]?(?:\s|$))",
                 re.I)


def references(obj) -> list[str]:
    """The entries of a numpydoc docstring's References section, each on one line."""
    doc = inspect.getdoc(obj) or ""
    heads = list(SECTION.finditer(doc))
    for k, head in enumerate(heads):
        if head.group(1).strip() == "References":
            end = heads[k + 1].start() if k + 1 < len(heads) else len(doc)
            body = re.sub(r"^\.\. \[\w+\]\s*", "", doc[head.end():end], flags=re.M)
            return [" ".join(e.split()) for e in re.split(r"\n\s*\n|\n(?=\S)(?<=\n)(?=[A-Z][^\n]*\(\d{4})",
                                                         body) if e.strip()]
    return []


def bibliography_page(iaa) -> str:
    """Every paper the API's docstrings cite (their References sections), with its DOI
    and the names that cite it, then each registered coefficient's source."""
    from iaa_widgets.measures import _registry
    cited: dict[str, tuple[str, list[str]]] = {}
    for name in _public_names(iaa):
        for entry in references(getattr(iaa, name)):
            doi = DOI.search(entry)
            key = doi.group(1).lower() if doi else entry.lower()
            cited.setdefault(key, (entry, []))[1].append(name)
    lines = ["# Bibliography", "",
             "Every paper that the API's docstrings cite (their *References*), with its DOI "
             "where it has one and the functions that implement it; then the source of each "
             "coefficient, from the registry (`iaa.coefficients()`). The "
             "[coefficients' sources](../measures/sources.md) say what each function "
             "takes from each paper, and [How to cite](../citing.md) how to cite this "
             "package.", "", "## Papers", ""]
    for key, (entry, names) in sorted(cited.items(), key=lambda kv: kv[1][0].lower()):
        doi = DOI.search(entry)
        text = entry.replace("|", "&#124;")
        if doi:
            text = text.replace(doi.group(0), "").rstrip(" .,") + \
                f". DOI: [{doi.group(1)}](https://doi.org/{doi.group(1)})"
        uses = ", ".join(f"[`{n}`](api/{family(n, getattr(iaa, n))}.md#iaa_widgets.{n})"
                         for n in dict.fromkeys(names))
        lines.append(f"- {text} — {uses}")
    lines += ["", "## Each coefficient's source", "", "| coefficient | source |", "|---|---|"]
    for m in _registry.measures():
        lines.append(f"| [`{m.name}`](api/{family(m.name, m.function)}.md#iaa_widgets.{m.name})"
                     f" | {_cell(m.source)} |")
    return "\n".join(lines) + "\n"


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
            live = done.parent / f"{path.stem}.live"
        else:
            from nbclient import NotebookClient
            nb = nbformat.read(path, as_version=4)
            live = out / f"{path.stem}.live"
            nb.cells.append(nbformat.v4.new_code_cell(live_cell(live)))
            print(f"executing {path.name}", file=sys.stderr)
            NotebookClient(nb, kernel_name="python3", timeout=300,
                           resources={"metadata": {"path": str(path.parent)}}).execute()
            nb.cells.pop()
        nbformat.write(static_copy(nb, out.parent / "snapshots", path.stem, live),
                       out / path.name)


class _Saved:
    """A widget as its notebook saved it (its synced traitlets), for
    ``widgets.export._page``, which reads only the class name and the traitlets."""

    def __init__(self, state: dict):
        self._state = state

    def trait_names(self, sync=False):
        return list(self._state)

    def __getattr__(self, name):
        try:
            return self.__dict__["_state"][name]
        except KeyError:
            raise AttributeError(name) from None


def snapshot(state: dict, kind: str) -> str:
    """The self-contained page of a widget from its state saved in a notebook: what
    ``widget.to_html()`` writes, without the precomputed states (no kernel to compute
    them), so every control that needs Python is disabled and named."""
    from iaa_widgets.widgets import export
    saved = type(kind, (_Saved,), {})(state)
    empty = {"controls": [], "names": [], "diffs": [], "states": [], "dropped": [],
             "budget": export.DEFAULT_BUDGET}
    return export._page(saved, f"iaa_widgets: {kind}", empty)


def static_copy(nb, snapshots: Path, stem: str, live: Path | None = None):
    """The notebook as a page shows it: each widget output becomes an iframe of the
    widget's live page in ``live`` (``<model id>.html``, :func:`live_cell`), or, where
    there is none, of its snapshot made from the state the notebook saved (a repr line
    where none was saved); no widget state is left in the copy (it would make the page
    load a widget manager from a CDN)."""
    states = nb.metadata.pop("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}).get("state", {})
    snapshots.mkdir(parents=True, exist_ok=True)
    count = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            spec = altair_spec(data.get("text/html", ""))
            if spec is not None:  # Altair's HTML output loads vega from a CDN
                count += 1
                name = f"{stem}-{count}.html"
                from iaa_widgets.html import page
                (snapshots / name).write_text(
                    page("chart", '<div id="chart"></div>', {"chart": spec}), encoding="utf-8")
                output["data"] = {"text/html": _frame(name, "chart", 400)}
            view = data.get("application/vnd.jupyter.widget-view+json")
            if view is None:
                continue
            kind = re.search(r"\.(\w+) object at", str(data.get("text/plain", "")))
            model = states.get(view.get("model_id"), {})
            if kind is None or model.get("model_name") != "AnyModel":
                output["data"] = {"text/markdown": "*A live widget: with no kernel behind "
                                  f"this page, see it in the [widgets gallery]"
                                  f"({GALLERY_FROM_NOTEBOOK}).*"}
                continue
            count += 1
            name = f"{stem}-{count}.html"
            page = live / f"{view.get('model_id')}.html" if live else None
            if page is not None and page.is_file():  # its controls work
                shutil.copy(page, snapshots / name)
            else:
                (snapshots / name).write_text(snapshot(model["state"], kind.group(1)),
                                              encoding="utf-8")
            output["data"] = {"text/html": _frame(name, f"{kind.group(1)} snapshot", 600)}
    return nb


def _frame(name: str, title: str, height: int) -> str:
    """An iframe of a snapshot page (docs/javascripts/site.js sizes it to its content)."""
    return (f'<iframe class="iaa-snapshot" src="{SNAPSHOTS_FROM_NOTEBOOK}{name}" '
            f'title="{title}" width="100%" height="{height}" loading="lazy"></iframe>')


ALTAIR_HTML = re.compile(r"\}\)\((\{.*\}), (\{[^{}]*\})\);\s*</script>\s*$", re.S)


def altair_spec(html) -> dict | None:
    """The Vega-Lite spec of an Altair chart's HTML output (which loads vega from a CDN),
    or None for any other output."""
    html = "".join(html) if isinstance(html, list) else html
    if "cdn.jsdelivr.net/npm/vega" not in html:
        return None
    import json
    found = ALTAIR_HTML.search(html)
    return json.loads(found.group(1)) if found else None


def katex(out: Path) -> None:
    """KaTeX (js/node_modules, npm package ``katex``) copied into the site: its script,
    auto-render, stylesheet and woff2 fonts; docs/javascripts/site.js typesets with it."""
    dist = ROOT / "js" / "node_modules" / "katex" / "dist"
    if not dist.is_dir():
        raise SystemExit("KaTeX is missing: run `npm ci` in js/ (package.json lists it)")
    (out / "fonts").mkdir(parents=True, exist_ok=True)
    for name in ("katex.min.js", "katex.min.css", "contrib/auto-render.min.js", "LICENSE"):
        source = dist / name if (dist / name).exists() else dist.parent / name
        shutil.copy(source, out / Path(name).name)
    for font in (dist / "fonts").glob("*.woff2"):
        shutil.copy(font, out / "fonts" / font.name)


def main() -> None:
    sys.path.insert(0, str(ROOT))
    import iaa_widgets as iaa
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "api").mkdir(parents=True, exist_ok=True)
    (OUT / "api" / "index.md").write_text(api_index(iaa), encoding="utf-8")
    entries = api_entries(iaa)
    for slug, title, about in FAMILIES:
        (OUT / "api" / f"{slug}.md").write_text(api_page(iaa, slug, title, about, entries[slug]),
                                               encoding="utf-8")
    (OUT / "bibliography.md").write_text(bibliography_page(iaa), encoding="utf-8")
    katex(OUT / "katex")
    (OUT / "coefficients.md").write_text(coefficients_page(iaa), encoding="utf-8")
    gallery(iaa, OUT / "gallery")
    notebooks(OUT / "notebooks")


if __name__ == "__main__":
    main()
