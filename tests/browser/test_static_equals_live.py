"""A static page shows what the live widget shows (issue 42): for each widget with
controls that work in its exported page, one notebook in JupyterLab holds the widget
and the kernel exports it (``w.to_html``) as it is; then each control is moved to two
values in the notebook and in the page opened from ``file://`` with the network off,
and the two show the same numbers (every ``data-value`` of the widget, in document
order, and the text of its tables' cells) and the same chart data (the ``aria-label``
Vega gives each mark: its fields and values). Both are read from the DOM with the same
selectors; the expected side is the live widget, whose numbers Python computes for the
new value as the reader moves it (and whose agreement with the measure functions the
widgets' own browser tests check).

Small data, one JupyterLab session (the ``lab`` of the module) and one page per widget;
γ's export grid is narrowed in the kernel to the weights moved here (its states are a
full γ each).
"""
from __future__ import annotations

import pytest

# the notebook: every widget on small data, each in its own cell
CELLS = [
    "import iaa_widgets as iaa\n"
    "from iaa_widgets.datasets import email_types, crowd_labels\n"
    "from iaa_widgets.continuum import random_continuum\n"
    "from iaa_widgets.widgets import gamma as _gamma\n"
    "_gamma.EXPORT_GRID = (0.5, 1.0, 2.0)  # the weights moved by the test\n"
    "emails = email_types()\n"
    "small = emails[emails['item'].isin(emails['item'].unique()[:40])]",
    "sweep = iaa.AugmentedKappaSweep(small, rank='rank')\nsweep",
    "matrix = iaa.ContingencyMatrix(small[small['rank'] == 1])\nmatrix",
    "sparse = iaa.SparseAgreementExplorer(crowd_labels(n_items=200, seed=3), drop=0.1,\n"
    "                                     n_rounds=20, seed=2, n_points=3)\nsparse",
    "gamma = iaa.GammaExplorer(random_continuum(3, 8, seed=4), n_samples=4, seed=2)\ngamma",
    "paradox = iaa.ParadoxExplorer(n=40)\nparadox",
    "primary = small[small['rank'] == 1].drop(columns='rank')\n"
    "designer = iaa.StudyDesigner(primary, 'fleiss_kappa', n_resamples=200)\ndesigner",
]

# widget (its variable in the notebook) → the class of its root element
WIDGETS = {"sweep": ".iaa-sweep", "matrix": ".iaa-contingency", "sparse": ".iaa-sparse",
           "gamma": ".iaa-gamma", "paradox": ".iaa-paradox", "designer": ".iaa-designer"}

# (widget, control, its element, two values); a select is set by its option's value,
# a slider by its number; each goes back to its saved value afterwards
MOVES = [
    ("sweep", "p", "input.iaa-slider-p", ("0.8", "0.3")),
    ("sweep", "δ", "input.iaa-slider-delta", ("0.3", "0.6")),
    ("sweep", "τ", "input.iaa-slider-tau", ("0.2", "0.5")),
    ("sweep", "pair", "select.iaa-select-pair", ("0", "2")),
    ("matrix", "pair (columns)", ".iaa-pair select.iaa-select-1", ("2",)),
    ("matrix", "pair (rows)", ".iaa-pair select.iaa-select-0", ("2",)),
    ("sparse", "drop", "input.iaa-slider-drop", ("0.2", "0.5")),
    ("gamma", "positional weight", "input.iaa-slider-alpha", ("0.5", "2")),
    ("gamma", "categorical weight", "input.iaa-slider-beta", ("0.5", "2")),
    ("paradox", "prevalence index", "input.iaa-slider-prevalence", ("0.2", "-0.4")),
    ("paradox", "bias index", "input.iaa-slider-bias", ("0.2", "-0.3")),
    ("designer", "raters", "input.iaa-slider-raters", ("3", "5")),
    ("designer", "target half-width", "input.iaa-slider-half_width", ("0.05", "0.2")),
    ("designer", "κ₀", "input.iaa-slider-kappa0", ("0.4", "0.7")),
    ("designer", "κ₁", "input.iaa-slider-kappa1", ("0.7", "0.9")),
    ("designer", "prevalence", "input.iaa-slider-prevalence", ("0.1", "0.5")),
    ("designer", "confidence", "input.iaa-slider-confidence", ("0.9", "0.99")),
]

# what a widget shows: its numbers and its charts' marks, in document order
_SHOWN = """(css) => {
  const root = document.querySelector(css);
  if (!root) return null;
  return {
    values: [...root.querySelectorAll('[data-value]')].map(e => e.dataset.value),
    cells: [...root.querySelectorAll('td')].map(e => e.textContent),
    marks: [...root.querySelectorAll('svg.marks [aria-label]')]
      .map(e => e.getAttribute('aria-label')),
  };
}"""


@pytest.fixture(scope="module")
def pages(open_lab_page, lab, offline):
    """The notebook page in JupyterLab, and each widget's exported page (offline)."""
    nb = open_lab_page("static_equals_live.ipynb", CELLS)
    nb.run_all()
    for css in WIDGETS.values():
        nb.wait_for_widgets(css, 1, timeout=120_000)
    nb.page.wait_for_function("() => document.querySelector('.iaa-gamma')"
                              ".dataset.state === 'done'", timeout=60_000)
    nb.execute("; ".join(f"{name}.to_html({name + '.html'!r})" for name in WIDGETS))
    static = {}
    for name in WIDGETS:
        page, log = offline(lab.root / f"{name}.html")
        page.wait_for_function("(css) => Number(document.querySelector(css)"
                               "?.dataset.revision) >= 1", arg=WIDGETS[name],
                               timeout=30_000)
        static[name] = (page, log)
    return nb, static


def _shown(page, css: str) -> dict:
    return page.evaluate(_SHOWN, css)


def _move(page, css: str, element: str, value: str) -> None:
    control = page.locator(f"{css} {element}").first
    if element.startswith("input"):
        control.fill(value)
    else:
        control.select_option(value)


def _settle(page, css: str, timeout: float = 700) -> dict:
    """What the widget shows once it has not changed for ``timeout`` ms."""
    before = _shown(page, css)
    while True:
        page.wait_for_timeout(timeout)
        now = _shown(page, css)
        if now == before:
            return now
        before = now


def _live_shows(nb, css: str, expected: dict, timeout: float = 30_000) -> dict:
    """What the live widget shows once it shows ``expected`` (Python answers a move
    in its own time), or after ``timeout`` ms."""
    try:
        nb.page.wait_for_function(f"(want) => JSON.stringify(({_SHOWN})({css!r}))"
                                  " === JSON.stringify(want)", arg=expected,
                                  timeout=timeout)
    except Exception:  # (the assertion below names the difference)
        pass
    return _shown(nb.page, css)


@pytest.mark.parametrize("name, label, element, values", MOVES,
                         ids=[f"{m[0]}-{m[1]}" for m in MOVES])
def test_static_page_shows_what_the_live_widget_shows(pages, name, label, element, values):
    nb, static = pages
    page, log = static[name]
    css = WIDGETS[name]
    saved = page.locator(f"{css} {element}").first.input_value()
    before = _settle(page, css)
    assert before["values"] and before["marks"], f"{name}: nothing shown"
    assert _live_shows(nb, css, before) == before, f"{name}: saved state differs"
    shown = [before]
    for value in values:
        _move(page, css, element, value)
        now = _settle(page, css)
        # the control moved the page: not refused, and not the state it came from
        assert page.locator(".iaa-static-notice").is_hidden(), \
            f"{name}: {label} = {value} refused: {page.inner_text('.iaa-static-notice')}"
        assert now != shown[-1], f"{name}: {label} = {value} changed nothing on the page"
        _move(nb.page, css, element, value)
        live = _live_shows(nb, css, now)
        assert live["values"] == now["values"], f"{name}: {label} = {value}: numbers"
        assert live["cells"] == now["cells"], f"{name}: {label} = {value}: tables"
        assert live["marks"] == now["marks"], f"{name}: {label} = {value}: chart data"
        shown.append(now)
    # back where both started, for the next control
    for where in (page, nb.page):
        _move(where, css, element, saved)
    assert _live_shows(nb, css, before) == _settle(page, css) == before
    assert log == {"requests": [], "errors": [], "dialogs": []}, log
