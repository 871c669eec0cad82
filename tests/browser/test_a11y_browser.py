"""Accessibility of the widgets (issue 16): every control has an accessible name, every
chart is an image with a text summary (role="img", aria-label), and the keyboard's focus
is visible. Checked on a bare page (hostpage.py) for ContingencyMatrix (editable, three
annotators), AugmentedKappaSweep and SparseAgreementExplorer; the names are computed as
the accessible-name rules do for these elements (aria-labelledby, aria-label, a <label>
around or for the control, else the element's own text).
"""
from __future__ import annotations

import pandas as pd
import pytest

from hostpage import ACCESSIBLE_NAMES, open_widget

CHARTS = """() => [...document.querySelectorAll('.iaa-widget .iaa-chart')].map((c) => ({
  role: c.getAttribute('role'), label: c.getAttribute('aria-label') || '' }))"""


def contingency():
    from iaa_widgets.widgets.contingency import ContingencyMatrix
    df = pd.DataFrame({"item": [1, 1, 1, 2, 2, 3, 3, 3, 4],
                       "annotator": ["ann", "bob", "cat", "ann", "cat", "ann", "bob", "cat", "bob"],
                       "label": ["a", "a", "b", "b", "b", "a", "b", "a", "c"]})
    return ContingencyMatrix(df, editable=True)


def sweep():
    from iaa_widgets.datasets import email_types
    from iaa_widgets.widgets.sweep import AugmentedKappaSweep
    return AugmentedKappaSweep(email_types(), rank="rank")


def sparse():
    from iaa_widgets.datasets import crowd_labels
    from iaa_widgets.widgets.sparse import SparseAgreementExplorer
    return SparseAgreementExplorer(crowd_labels(), n_rounds=50)


def gamma():
    from iaa_widgets.continuum import random_continuum
    from iaa_widgets.widgets.gamma import GammaExplorer
    w = GammaExplorer(random_continuum(3, 20, seed=1), n_samples=8, seed=1)
    w.wait()  # the page shows a finished computation
    return w


WIDGETS = {"contingency": contingency, "sweep": sweep, "sparse": sparse, "gamma": gamma}
SUMMARY_WORDS = {"contingency": "Contingency table", "sweep": "κ′", "sparse": "SPA",
                 "gamma": "ontinuum"}


@pytest.fixture(scope="module", params=list(WIDGETS))
def page(request, browser):
    page = open_widget(browser, WIDGETS[request.param](), viewport=(1200, 1600))
    page.wait_for_timeout(500)  # every chart of the widget drawn
    page.kind = request.param
    yield page
    page.close()


def test_every_control_has_an_accessible_name(page):
    controls = page.locator(".iaa-widget").evaluate(ACCESSIBLE_NAMES)
    assert controls, "no controls found"
    nameless = [c for c in controls if not c["name"]]
    assert not nameless, nameless


def test_every_chart_is_an_image_with_a_summary(page):
    charts = page.evaluate(CHARTS)
    assert charts
    for chart in charts:
        assert chart["role"] == "img", chart
        assert len(chart["label"]) > 40 and not chart["label"].startswith("chart:"), chart
    assert SUMMARY_WORDS[page.kind] in charts[0]["label"], charts[0]


def test_keyboard_focus_is_visible(page, artifacts):
    page.locator("body").click(position={"x": 1, "y": 1})
    outlines = []
    for _ in range(4):  # the first controls reached with Tab
        page.keyboard.press("Tab")
        outlines.append(page.evaluate("""() => { const e = document.activeElement;
          const s = getComputedStyle(e);
          return { tag: e.tagName, inWidget: !!e.closest('.iaa-widget'),
                   visible: e.matches(':focus-visible'), style: s.outlineStyle,
                   width: parseFloat(s.outlineWidth) }; }"""))
    reached = [o for o in outlines if o["inWidget"]]
    assert reached, outlines
    for o in reached:
        assert o["visible"] and o["style"] != "none" and o["width"] >= 2, o
    page.locator(".iaa-widget").screenshot(path=str(artifacts / f"a11y_focus_{page.kind}.png"))


def test_controls_work_from_the_keyboard(page):
    # what the page sends to Python (hostpage.py records it in window.__saved)
    if page.kind == "sweep":  # a class row: Enter selects it
        row = page.locator('.iaa-classes tr[data-class="constant_low"]')
        row.focus()
        page.keyboard.press("Enter")
        assert page.evaluate("() => window.__saved.selected_class") == "constant_low"
    elif page.kind == "contingency":  # the pair's second annotator: arrow keys skip the first
        select = page.locator(".iaa-pair select").nth(1)
        select.focus()
        page.keyboard.press("ArrowDown")
        assert page.evaluate("() => window.__saved.pair") == [0, 2]
        # (no kernel here: the matrix stays ann × bob's, [[1, 1, 0], [0, 0, 0], [0, 0, 0]])
        table = page.locator(".iaa-chart-wrap")
        table.focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("+")
        assert page.evaluate("() => window.__saved.matrix") == [[1, 2, 0], [0, 0, 0], [0, 0, 0]]
    elif page.kind == "gamma":  # the zoom-in button: Enter zooms the lanes' x axis
        button = page.locator("button.iaa-zoom-in")
        button.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => !document.querySelector('.iaa-zoom-reset')?.disabled")
    else:  # the x-axis option of the SPA chart
        box = page.locator("input.iaa-fix-x")
        box.focus()
        page.keyboard.press("Space")
        assert box.is_checked()
        page.wait_for_function("() => document.querySelector('.iaa-widget').dataset.fixedX")
