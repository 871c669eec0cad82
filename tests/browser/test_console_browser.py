"""No Vega warning in the console from any widget, with no filter of Vega's logger
(issue 35): each widget on a bare page (hostpage.py) drawn from its Python state, then
sent the changes Python sends, among them a dataset that gets its first rows and loses
them again (a ticked and unticked item's κ_x curve; γ's links and empty units before
and after a computation). Vega warns "Infinite extent" for a layer with no rows on a
scale with a domain from data; the widgets leave such layers out (base.js,
dropEmptyLayers) or give the scale an explicit domain (γ's continuum). The round trips
through a kernel are in the per-widget JupyterLab tests, which check the console too.
Data: the package's seeded datasets (email_types, crowd_labels, argument_units)."""
from __future__ import annotations

import pytest

import iaa_widgets as iaa
from hostpage import open_widget
from iaa_widgets.datasets import argument_units, crowd_labels, email_types


def warnings(page) -> list[str]:
    return [c for c in page.__dict__.get("console", [])
            if c.startswith(("warning", "error"))] + page.__dict__.get("errors", [])


def send(page, **traits) -> None:
    """Traitlet changes as Python sends them, then wait for the charts to settle."""
    for name, value in traits.items():
        page.evaluate("([n, v]) => window.__setFromPython(n, v)", [name, value])
    page.wait_for_timeout(600)


@pytest.fixture
def shown(browser):
    pages = []

    def show(widget):
        page = open_widget(browser, widget)
        pages.append(page)
        page.wait_for_timeout(600)  # (charts that do not count redraws draw too)
        return page

    yield show
    for page in pages:
        page.close()


def test_sweep_items_ticked_and_unticked(shown):
    w = iaa.AugmentedKappaSweep(email_types(), rank="rank")
    page = shown(w)
    assert w._datasets["sweep_items"] == []
    codes = w.class_table["codes"][:2]
    w.selected_items = codes  # Python answers with the items' κ_x curves
    assert w._datasets["sweep_items"]
    send(page, selected_items=codes, _datasets=w._datasets)
    assert page.locator("g.item_curves_marks path").count() == 2
    w.selected_items = []
    send(page, selected_items=[], _datasets=w._datasets)
    assert page.locator("g.item_curves_marks path").count() == 0
    assert warnings(page) == []


def test_gamma_before_and_after_its_computation(shown):
    w = iaa.GammaExplorer(argument_units(), n_samples=4, seed=1)
    try:
        w.wait(120)
        computed = dict(w._datasets)
        assert computed["gamma_links"] and computed["gamma_empty"]
        page = shown(w)
        before = {**computed, "gamma_links": [], "gamma_empty": [], "gamma_bars": []}
        send(page, _datasets=before)
        send(page, _datasets=computed)
        assert page.locator("g.links_marks line, g.links_marks path").count() > 0
        assert warnings(page) == []
    finally:
        w.close()


def test_sparse_with_the_x_axis_held_and_not(shown):
    w = iaa.SparseAgreementExplorer(crowd_labels(n_items=300, seed=2), n_rounds=30)
    page = shown(w)
    page.locator("input.iaa-fix-x").check()
    page.wait_for_timeout(600)
    w.drop = 0.7
    send(page, drop=0.7, _datasets=w._datasets, summary=w.summary)
    page.locator("input.iaa-fix-x").uncheck()
    page.wait_for_timeout(600)
    assert page.locator(".iaa-chart-variance g.mark-text text").count() > 0
    assert warnings(page) == []


def test_contingency_after_an_edit(shown):
    w = iaa.ContingencyMatrix([[3, 1], [2, 4]], categories=["a", "b"], editable=True)
    page = shown(w)
    w.matrix = [[5, 1], [2, 4]]
    send(page, matrix=w.matrix, _datasets=w._datasets)
    assert warnings(page) == []
