"""widget.to_html() pages opened from file:// in headless Chromium with the network off
and every non-file request refused and recorded (issue 16, Export). For each widget:
made in Python, one control changed in Python, exported; the page must draw the chart
(an SVG with marks) showing the changed state, keep the hostile label as text, refuse
the changes that need the kernel (disabled controls, a notice, the numbers unchanged),
keep what is the page's own working (tooltips, zoom, "fix x axis", CSV), with no
console error, no dialog and no request. Screenshots: tests/artifacts/export_*.png."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations
from iaa_widgets.continuum import random_continuum
from iaa_widgets.datasets import crowd_labels, email_types
from iaa_widgets.measures.augmented import augmented_kappa_sweep

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


def test_contingency_page_pair_selectors(offline, tmp_path):
    # issue 42: the pair selectors switch among every pair's saved table and
    # coefficients; editing a cell needs the kernel and stays disabled, named
    long = email_types()
    long = long[long["rank"] == 1]  # primary labels: one per annotator and item
    w = iaa.ContingencyMatrix(long, editable=True)
    page, log = offline(_export(w, tmp_path, "contingency_pairs"))
    _drawn(page)
    assert "pair (6 values)" in page.inner_text(".iaa-static-live")
    columns = page.locator(".iaa-pair select.iaa-select-1")
    assert columns.is_enabled()
    columns.select_option("2")  # A × C
    names = [w.annotators[0], w.annotators[2]]
    sub = Annotations.from_long(long[long["annotator"].isin(names)])
    kappa = iaa.cohen_kappa(sub.select_annotators(names)).value  # the measure itself
    page.wait_for_function("(v) => Math.abs(Number(document.querySelector("
                           "'tr[data-coef=\"cohen_kappa\"] .iaa-value').dataset.value)"
                           " - v) < 1e-12", arg=kappa)
    assert page.locator(".iaa-count").is_disabled()
    assert "count of the selected cell" in page.inner_text(".iaa-static-disabled")
    assert log == {"requests": [], "errors": [], "dialogs": []}, log


def _small_email() -> Annotations:
    """The first 40 messages of the e-mail data (three annotators, secondary labels)."""
    long = email_types()
    return Annotations.from_long(long[long["item"].isin(long["item"].unique()[:40])],
                                 rank="rank")


def _shown(page, key: str) -> float:
    return float(page.locator(f'.iaa-summary tr[data-key="{key}"] .iaa-value')
                 .get_attribute("data-value"))


def test_sweep_page(offline, tmp_path, artifacts):
    # issue 42: the p slider, the class rows and the pair switch among the states Python
    # computed at export; the numbers shown equal the measure's at that p
    data = _small_email()
    w = iaa.AugmentedKappaSweep(data)
    w.p = 0.8
    page, log = offline(_export(w, tmp_path, "sweep"))
    _drawn(page)
    page.screenshot(path=str(artifacts / "export_sweep.png"), full_page=True)
    assert "κ′ at p = 0.800" in page.inner_text(".iaa-widget")
    slider = page.locator("input.iaa-slider-p")
    assert slider.is_enabled() and float(slider.input_value()) == 0.8
    assert "p (51 values)" in page.inner_text(".iaa-static-live")
    assert "p" not in page.inner_text(".iaa-static-disabled").split(", ")
    reference = augmented_kappa_sweep(data)  # the measure itself, at each p
    slider.focus()
    page.keyboard.press("ArrowRight")  # one step of the sweep's grid: 0.81
    page.wait_for_function("() => document.querySelector('.iaa-summary').textContent"
                           ".includes('p = 0.810')")
    r = reference.at(0.81)
    for key, value in (("kappa", r.value), ("p_a", r.observed), ("p_e", r.expected)):
        assert _shown(page, key) == pytest.approx(value, abs=1e-12)
    slider.fill("0.55")
    page.wait_for_function("() => document.querySelector('.iaa-summary').textContent"
                           ".includes('p = 0.550')")
    assert _shown(page, "kappa") == pytest.approx(reference.at(0.55).value, abs=1e-12)
    # the chart's point moved with it (the sweep_point rows of the saved state)
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / "export_sweep_p055.png"), full_page=True)
    # a class row at this p (p × class saved): its items listed, κ_x at p = 0.55
    chosen = w.selected_class
    other = next(c["key"] for c in w.classes if c["key"] != chosen)
    page.locator(f'tr[data-class="{other}"]').click()
    page.wait_for_function(f"() => document.querySelector('tr.iaa-selected')"
                           f".dataset.class === '{other}'")
    total = int((reference.items["class"] == other).sum())
    assert f": {total} items" in page.inner_text(".iaa-items-title")
    assert "κ (p = 0.550)" in page.inner_text(".iaa-items")
    # the pair with p moved was not saved: refused, and the notice says which
    page.locator("select.iaa-select-pair").select_option("0")
    assert "was not saved with the page" in _refused(page)
    assert _shown(page, "kappa") == pytest.approx(reference.at(0.55).value, abs=1e-12)
    # back to the saved class and p, the pair alone is saved: A × B's own sweep
    page.locator(f'tr[data-class="{chosen}"]').click()
    slider.fill("0.8")
    page.wait_for_function("() => document.querySelector('.iaa-summary').textContent"
                           ".includes('p = 0.800')")
    page.locator("select.iaa-select-pair").select_option("0")
    names = list(data.annotators)
    pair = augmented_kappa_sweep(data.select_annotators(names[:2])).at(0.8)
    page.wait_for_function("(v) => Math.abs(Number(document.querySelector("
                           "'.iaa-summary tr[data-key=\"kappa\"] .iaa-value').dataset.value)"
                           " - v) < 1e-12", arg=pair.value)
    # δ and τ switch among the classes Python drew at each of their steps: the class
    # counts are those of the measure's own with_classes (A × B's sweep, δ = 0.3)
    listed = page.inner_text(".iaa-static-disabled")
    assert "δ, least change of κ_x" not in listed and "τ, agreement for class 1" not in listed
    page.locator("select.iaa-select-pair").select_option("-1")
    page.locator("input.iaa-slider-delta").fill("0.3")
    counts = reference.with_classes(0.3, w.tau).items["class"].value_counts()
    for key, n in counts.items():
        if n:
            page.wait_for_function(
                "([k, n]) => document.querySelector(`tr[data-class=\"${k}\"] .iaa-count`)"
                "?.textContent === String(n)", arg=[key, int(n)])
    # δ and τ together on their 0.05 × 0.1 grid: τ snaps to its nearest value saved
    # with δ = 0.3 (its own 0.01 steps are saved with the saved δ only)
    page.locator("input.iaa-slider-tau").fill("0.33")
    counts = reference.with_classes(0.3, 0.3).items["class"].value_counts()
    for key, n in counts.items():
        if n:
            page.wait_for_function(
                "([k, n]) => document.querySelector(`tr[data-class=\"${k}\"] .iaa-count`)"
                "?.textContent === String(n)", arg=[key, int(n)])
    page.screenshot(path=str(artifacts / "export_sweep_delta_tau.png"), full_page=True)
    # the CSV of the listed items is made on the page: it works
    assert page.locator("a.iaa-csv").get_attribute("data-csv").count("\r\n") >= 2
    assert log["requests"] == [] and log["dialogs"] == []
    # vega warns (console.warn, not an error) of an empty extent while no κ_x curve is
    # ticked, as in JupyterLab
    assert log["errors"] == [], log


def test_sweep_page_beyond_a_tiny_budget(offline, tmp_path):
    w = iaa.AugmentedKappaSweep(_small_email())
    w.to_html(tmp_path / "tiny.html", budget=1)
    page, log = offline(tmp_path / "tiny.html")
    _drawn(page)
    dropped = page.inner_text(".iaa-static-dropped")
    for group in ("p (51 states", "item class (", "pair (", "p × item class ("):
        assert group in dropped
    assert page.locator(".iaa-static-live-text").is_hidden()
    assert page.locator("input.iaa-slider-p").is_disabled()
    assert "p" in page.inner_text(".iaa-static-disabled").split(", ")
    assert log == {"requests": [], "errors": [], "dialogs": []}, log


def test_sweep_page_at_1e5_items_stays_within_its_budget(offline, tmp_path):
    rng = np.random.default_rng(0)
    n = 100_000  # items, two annotators, a primary and a secondary label each
    item, who = np.repeat(np.arange(n), 2), np.tile(["A", "B"], n)
    first = rng.integers(0, 3, 2 * n)
    second = (first + 1 + rng.integers(0, 2, 2 * n)) % 3
    w = iaa.AugmentedKappaSweep(Annotations.from_long(pd.DataFrame({
        "item": np.concatenate([item, item]), "annotator": np.concatenate([who, who]),
        "label": np.concatenate([first, second]), "rank": np.repeat([1, 2], 2 * n)}),
        rank="rank"))
    path = tmp_path / "big.html"
    w.to_html(path)
    assert path.stat().st_size <= 5_000_000
    page, log = offline(path)
    _drawn(page)
    page.locator("input.iaa-slider-p").fill("0.9")
    page.wait_for_function("() => document.querySelector('.iaa-summary').textContent"
                           ".includes('p = 0.900')")
    assert _shown(page, "kappa") == pytest.approx(w.sweep.at(0.9).value, abs=1e-12)
    assert log["requests"] == [] and log["errors"] == [], log


def test_sparse_page(offline, tmp_path, artifacts):
    w = iaa.SparseAgreementExplorer(crowd_labels(n_items=200, seed=3), drop=0.1, n_rounds=20,
                                    seed=2, n_points=3)
    w.drop = 0.45
    page, log = offline(_export(w, tmp_path, "sparse"))
    _drawn(page)
    assert "mean, drop 0.45" in page.inner_text(".iaa-schemes")
    assert page.locator("input.iaa-number-seed").is_disabled()
    listed = page.inner_text(".iaa-static-disabled")
    assert {"rounds", "seed"} <= set(listed.split(", ")) and "drop" not in listed
    # the drop slider switches among the rounds Python drew at each of its steps:
    # SPA's mean and sd per scheme are spa_missingness's at that drop
    page.locator("input.iaa-slider-drop").fill("0.2")
    page.wait_for_function("() => document.querySelector('.iaa-schemes').textContent"
                           ".includes('drop 0.20')")
    ref = iaa.spa_missingness(crowd_labels(n_items=200, seed=3), 0.2, n_rounds=20,
                              seed=2).summary()
    for scheme, row in ref.iterrows():
        mean = page.locator(f'tr[data-scheme="{scheme}"] .iaa-mean').get_attribute("data-value")
        assert float(mean) == pytest.approx(row["mean"], abs=1e-12)
    assert page.locator(".iaa-widget").get_attribute("data-busy") in ("", None)
    # "fix x axis" acts on the page only: it stays live and holds the axis
    box = page.locator("input.iaa-fix-x")
    assert box.is_enabled()
    box.check()
    page.wait_for_function("() => document.querySelector('.iaa-widget').dataset.fixedX")
    assert "fix x axis" not in listed
    page.screenshot(path=str(artifacts / "export_sparse.png"), full_page=True)
    assert log == {"requests": [], "errors": [], "dialogs": []}, log


def test_gamma_page(offline, tmp_path, artifacts, monkeypatch):
    from iaa_widgets.widgets import gamma
    monkeypatch.setattr(gamma, "EXPORT_GRID", (1.0, 2.0))  # the weights' saved states
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
    assert page.locator("input.iaa-slider-delta_empty").is_disabled()
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


def test_paradox_and_designer_pages(offline, tmp_path, artifacts):
    # issue 42: every slider of both widgets switches among the states Python computed
    from iaa_widgets.widgets.paradox import paradox_table

    w = iaa.ParadoxExplorer(n=40)
    page, log = offline(_export(w, tmp_path, "paradox"))
    _drawn(page)
    assert page.inner_text(".iaa-static-disabled") == "none"
    page.locator("input.iaa-slider-prevalence").fill("0.1")
    page.locator("input.iaa-slider-bias").fill("-0.3")  # PI × BI on their 0.1 grid
    table, _ = paradox_table(w.observed, 0.1, -0.3, 40)
    kappa = iaa.cohen_kappa(Annotations.from_contingency(table, ["yes", "no"], ["A", "B"]))
    page.wait_for_function("(v) => Math.abs(Number(document.querySelector("
                           "'tr[data-key=\"cohen_kappa\"] .iaa-value').dataset.value) - v)"
                           " < 1e-12", arg=kappa.value)
    page.screenshot(path=str(artifacts / "export_paradox.png"), full_page=True)
    assert log == {"requests": [], "errors": [], "dialogs": []}, log

    d = iaa.StudyDesigner()
    page, log = offline(_export(d, tmp_path, "designer"))
    page.wait_for_selector(".iaa-designs td.iaa-value")
    assert page.inner_text(".iaa-static-disabled") == "none"
    page.locator("input.iaa-slider-raters").fill("4")
    n = iaa.sample_size(method="rotondi-power", kappa0=d.kappa0, kappa1=d.kappa1,
                        prevalence=d.prevalence, raters=4,
                        significance=1 - d.confidence).n_items
    page.wait_for_function("(n) => document.querySelectorAll('.iaa-designs td.iaa-value')[1]"
                           ".dataset.value === String(n)", arg=n)
    assert log == {"requests": [], "errors": [], "dialogs": []}, log


def test_share_page(offline, tmp_path, artifacts):
    # iaa.share: one page, each widget works offline, Markdown with HTML shown as text
    a, b = iaa.ParadoxExplorer(n=40), iaa.StudyDesigner()
    path = tmp_path / "share.html"
    iaa.share(f"# Demo {HOSTILE}", "Two *widgets*, one page:", a, "and <b>the</b> design", b,
              path=path, budget=3_000_000)
    page, log = offline(path)
    page.wait_for_function("() => document.querySelectorAll('.iaa-widget').length === 2")
    assert page.locator("img").count() == 0 and page.locator("b").count() == 0
    assert HOSTILE in page.inner_text("h1") and "and <b>the</b> design" in page.inner_text("body")
    assert page.inner_text("em") == "widgets"
    page.locator("input.iaa-slider-bias").fill("0.1")
    table, _ = paradox_table_at(a, a.prevalence, 0.1)
    page.wait_for_function("(m) => document.querySelector('.iaa-paradox-indices').textContent"
                           ".includes(m)", arg=f"BI = {(table[0][1] - table[1][0]) / 40:.3f}")
    page.locator("input.iaa-slider-raters").fill("3")
    n = iaa.sample_size(method="rotondi-power", kappa0=b.kappa0, kappa1=b.kappa1,
                        prevalence=b.prevalence, raters=3,
                        significance=1 - b.confidence).n_items
    page.wait_for_function("(n) => document.querySelectorAll('.iaa-designs td.iaa-value')[1]"
                           ".dataset.value === String(n)", arg=n)
    page.screenshot(path=str(artifacts / "export_share.png"), full_page=True)
    assert log == {"requests": [], "errors": [], "dialogs": []}, log


def paradox_table_at(w, prevalence, bias):
    from iaa_widgets.widgets.paradox import paradox_table
    return paradox_table(w.observed, prevalence, bias, w.n)
