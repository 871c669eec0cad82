"""widget.to_html() pages opened from file:// in headless Chromium with the network off
and every non-file request refused and recorded (issue 16, Export). For each widget:
made in Python, one control changed in Python, exported; the page must draw the chart
(an SVG with marks) showing the changed state, keep the hostile label as text, refuse
the changes that need the kernel (disabled controls, a notice, the numbers unchanged),
keep what is the page's own working (tooltips, zoom, "fix x axis", CSV), with no
console error, no dialog and no request. Screenshots: tests/artifacts/export_*.png."""
from __future__ import annotations

import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations
from iaa_widgets.continuum import random_continuum
from iaa_widgets.datasets import crowd_labels, email_types

HOSTILE = "</script><img src=x onerror=alert(1)>"


def _drawn(page) -> None:
    """Wait until the widget's announcing chart has drawn, and its SVG has marks."""
    page.wait_for_function("() => { const e = document.querySelector('.iaa-widget');"
                           " return e && Number(e.dataset.revision) >= 1; }", timeout=30_000)
    page.wait_for_selector(".iaa-chart svg.marks g.mark-rect path, "
                           ".iaa-chart svg.marks g.mark-symbol path, "
                           ".iaa-chart svg.marks g.mark-line path", timeout=30_000)
    page.wait_for_timeout(300)  # vega's last frame, before a screenshot


def _export(widget, tmp_path, name):
    path = tmp_path / f"{name}.html"
    widget.to_html(path)
    return path


def _refused(page) -> str:
    notice = page.locator(".iaa-static-notice")
    notice.wait_for(state="visible", timeout=5_000)
    return notice.inner_text()


def test_contingency_page(offline, tmp_path, artifacts):
    w = iaa.ContingencyMatrix([[3, 1], [2, 4]], categories=[HOSTILE, "ok"], editable=True)
    w.matrix = [[5, 1], [2, 4]]  # in Python: 12 items now, not 10
    page, log = offline(_export(w, tmp_path, "contingency"))
    _drawn(page)
    page.screenshot(path=str(artifacts / "export_contingency.png"), full_page=True)
    assert "12 items" in page.inner_text(".iaa-caption")
    texts = page.locator(".iaa-chart svg g.mark-text text").all_text_contents()
    assert "5" in texts and "12" in texts  # the changed cell and the new total
    # the hostile category: a row of the per-category table, as text, and no <img>
    assert HOSTILE in page.inner_text(".iaa-per-category")
    assert page.locator("img").count() == 0
    kappa = page.locator('tr[data-coef="cohen_kappa"] .iaa-value').get_attribute("data-value")
    assert float(kappa) == pytest.approx(w.result["cohen_kappa"].value, abs=1e-12)
    # the count box is disabled, and named in the banner
    assert page.locator(".iaa-count").is_disabled()
    assert "count of the selected cell" in page.inner_text(".iaa-static-disabled")
    # a tooltip is the page's own: hovering a cell (a corner: its count's text is in
    # the middle) shows its count
    cell = page.locator(".iaa-chart svg g.layer_0_marks path").first.bounding_box()
    page.mouse.move(cell["x"] + 4, cell["y"] + 4)
    page.wait_for_selector(".iaa-tooltip:not([hidden])", timeout=5_000)
    assert "count: 5" in page.inner_text(".iaa-tooltip")
    # a click on a cell (+1 in the notebook) is refused: a notice, the numbers unchanged
    page.mouse.click(cell["x"] + 4, cell["y"] + 4)
    assert 'changing "matrix" needs the Python kernel' in _refused(page)
    page.wait_for_timeout(200)
    assert "12 items" in page.inner_text(".iaa-caption")
    assert page.locator(".iaa-count").is_disabled()  # the widget enabled it: still off
    page.screenshot(path=str(artifacts / "export_contingency_refused.png"), full_page=True)
    assert log == {"requests": [], "errors": [], "dialogs": []}, log


def test_sweep_page(offline, tmp_path, artifacts):
    w = iaa.AugmentedKappaSweep(Annotations.from_long(email_types(), rank="rank"))
    w.p = 0.8
    page, log = offline(_export(w, tmp_path, "sweep"))
    _drawn(page)
    page.screenshot(path=str(artifacts / "export_sweep.png"), full_page=True)
    assert "κ′ at p = 0.800" in page.inner_text(".iaa-widget")
    slider = page.locator("input.iaa-slider-p")
    assert slider.is_disabled() and float(slider.input_value()) == 0.8
    # the class table's rows ask Python for their items: refused, the selection kept
    chosen = w.selected_class
    other = next(c["key"] for c in w.classes if c["key"] != chosen)
    page.locator(f'tr[data-class="{other}"]').click()
    assert 'changing "selected_class"' in _refused(page)
    assert page.locator("tr.iaa-selected").get_attribute("data-class") == chosen
    # the CSV of the listed items is made on the page: it works
    csv = page.locator("a.iaa-csv").get_attribute("data-csv")
    assert csv.count("\r\n") == len(w.class_table["rows"]) + 1
    assert log["requests"] == [] and log["dialogs"] == []
    # vega warns (console.warn, not an error) of an empty extent while no κ_x curve is
    # ticked, as in JupyterLab
    assert log["errors"] == [], log


def test_sparse_page(offline, tmp_path, artifacts):
    w = iaa.SparseAgreementExplorer(crowd_labels(n_items=200, seed=3), drop=0.1, n_rounds=20,
                                    seed=2, n_points=3)
    w.drop = 0.45
    page, log = offline(_export(w, tmp_path, "sparse"))
    _drawn(page)
    assert "mean, drop 0.45" in page.inner_text(".iaa-schemes")
    assert page.locator("input.iaa-slider-drop").is_disabled()
    assert page.locator("input.iaa-number-seed").is_disabled()
    listed = page.inner_text(".iaa-static-disabled")
    assert {"drop", "rounds", "seed"} <= set(listed.split(", "))
    # "fix x axis" acts on the page only: it stays live and holds the axis
    box = page.locator("input.iaa-fix-x")
    assert box.is_enabled()
    box.check()
    page.wait_for_function("() => document.querySelector('.iaa-widget').dataset.fixedX")
    assert "fix x axis" not in listed
    page.screenshot(path=str(artifacts / "export_sparse.png"), full_page=True)
    assert log == {"requests": [], "errors": [], "dialogs": []}, log


def test_gamma_page(offline, tmp_path, artifacts):
    w = iaa.GammaExplorer(random_continuum(3, 8, seed=4), n_samples=4, seed=2)
    try:
        w.alpha = 2.0  # to_html waits for the worker's result at α = 2
        page, log = offline(_export(w, tmp_path, "gamma"))
        gamma = w.result.gamma.value
    finally:
        w.close()
    _drawn(page)
    page.screenshot(path=str(artifacts / "export_gamma.png"), full_page=True)
    shown = page.locator('tr[data-key="gamma"] .iaa-value').get_attribute("data-value")
    assert float(shown) == pytest.approx(gamma, abs=1e-12)
    assert page.locator(".iaa-widget").get_attribute("data-state") == "done"
    assert page.locator("input.iaa-slider-alpha").is_disabled()
    assert float(page.locator("input.iaa-slider-alpha").input_value()) == 2.0
    # zoom is the page's own: the zoom-in button narrows the continuum shown
    zoom = page.locator("[data-zoomed]")
    assert zoom.get_attribute("data-zoomed") == "false"
    page.locator("button.iaa-zoom-in").click()
    page.wait_for_function(
        "() => document.querySelector('[data-zoomed]').dataset.zoomed === 'true'")
    page.screenshot(path=str(artifacts / "export_gamma_zoomed.png"), full_page=True)
    assert log == {"requests": [], "errors": [], "dialogs": []}, log


def test_saved_result_chart_opens_offline(offline, tmp_path, artifacts):
    # issue 16: result.chart().save("x.html") inlines vega by default
    result = iaa.cohen_kappa(Annotations.from_contingency([[3, 1], [2, 4]], [HOSTILE, "ok"]))
    result.chart().save(tmp_path / "kappa.html")
    page, log = offline(tmp_path / "kappa.html")
    page.wait_for_selector("#chart canvas, #chart svg.marks", timeout=30_000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / "export_result_chart.png"), full_page=True)
    assert log == {"requests": [], "errors": [], "dialogs": []}, log
