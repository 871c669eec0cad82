"""The `iaa report` page and a saved chart, opened from file:// in headless Chromium with
every network request refused: each chart renders (a canvas or SVG inside its
vega-embed container), no console error, no dialog, hostile labels shown as text.
Screenshots go to tests/artifacts/."""
from __future__ import annotations

import pandas as pd

from iaa_widgets.cli import main
from iaa_widgets.data import Annotations

HOSTILE = "</script><img src=x onerror=alert(1)>"
CHARTS = ("chart-coefficients", "chart-pairwise", "chart-per-category", "chart-items")


def _rendered(page, ident: str) -> None:
    page.wait_for_selector(f"#{ident} canvas, #{ident} svg.marks", timeout=30_000)


def test_report_opens_offline_with_every_chart(offline, tmp_path, artifacts):
    rows = [(i, a, lab) for i, labs in enumerate(
        [("low", "low", "mid"), ("high", "high", "high"), ("mid", "low", "mid"),
         (HOSTILE, HOSTILE, "low"), ("high", "mid", "high"), ("low", "low", "low")])
            for a, lab in zip(("ann 1", HOSTILE, "ann 3"), labs)]
    pd.DataFrame(rows, columns=["item", "annotator", "label"]).to_csv(
        tmp_path / "labels.csv", index=False)
    out = tmp_path / "report.html"
    assert main(["report", str(tmp_path / "labels.csv"), "-o", str(out),
                 "--bootstrap", "200"]) == 0
    page, log = offline(out)
    for ident in CHARTS:
        _rendered(page, ident)
    page.wait_for_timeout(300)  # let vega finish its last frame before the screenshot
    page.screenshot(path=str(artifacts / "report_offline.png"), full_page=True)
    assert HOSTILE in page.inner_text("#per-category")  # a label, shown as text
    assert HOSTILE in page.inner_text("#pairwise")  # an annotator, shown as text
    assert page.locator("img").count() == 0  # the labels made no element
    assert log == {"requests": [], "errors": [], "dialogs": []}, log


def test_saved_chart_opens_offline(offline, tmp_path, artifacts):
    import iaa_widgets as iaa
    ann = Annotations.from_contingency([[2, 2], [1, 5]], ["yes", HOSTILE])
    chart = iaa.specific_agreement(ann, positive="yes")
    from iaa_widgets import charts
    out = tmp_path / "chart.html"
    charts.per_category_chart(chart).save(out)  # inline by default: no CDN
    page, log = offline(out)
    _rendered(page, "chart")
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / "chart_offline.png"), full_page=True)
    assert page.locator("img").count() == 0
    assert log == {"requests": [], "errors": [], "dialogs": []}, log


def test_report_widgets_work_offline(offline, tmp_path, artifacts):
    # issue 42: the report's sweep and matrix switch among the states Python computed
    # for the page; the numbers are the measure functions' (augmented_kappa at p,
    # Rosenberg & Binkowski §5; cohen_kappa of the pair's primary labels)
    import iaa_widgets as iaa
    from iaa_widgets.datasets import email_types

    long = email_types()
    long = long[long["item"].isin(long["item"].unique()[:40])]
    long.to_csv(tmp_path / "emails.csv", index=False)
    out = tmp_path / "report.html"
    assert main(["report", str(tmp_path / "emails.csv"), "-o", str(out),
                 "--bootstrap", "0"]) == 0
    page, log = offline(out)
    page.wait_for_function("() => [...document.querySelectorAll('.iaa-widget')]"
                           ".filter(e => Number(e.dataset.revision) >= 1).length === 2",
                           timeout=30_000)
    ann = iaa.Annotations.from_long(long, rank="rank")
    page.locator("#augmented input.iaa-slider-p").fill("0.8")
    page.wait_for_function("(v) => Math.abs(Number(document.querySelector('#augmented "
                           ".iaa-summary tr[data-key=\"kappa\"] .iaa-value').dataset.value)"
                           " - v) < 1e-12", arg=iaa.augmented_kappa(ann, p=0.8).value)
    page.locator("#pairwise .iaa-pair select.iaa-select-1").select_option("2")  # A × C
    primary = long[(long["rank"] == 1) & long["annotator"].isin(["A", "C"])]
    kappa = iaa.cohen_kappa(Annotations.from_long(primary.drop(columns="rank"))).value
    page.wait_for_function("(v) => Math.abs(Number(document.querySelector('#pairwise "
                           "tr[data-coef=\"cohen_kappa\"] .iaa-value').dataset.value) - v)"
                           " < 1e-12", arg=kappa)
    assert page.locator(".iaa-static-notice:not([hidden])").count() == 0
    for ident in CHARTS:  # the report's own charts, drawn by the widgets' vega-embed
        _rendered(page, ident)
    page.screenshot(path=str(artifacts / "report_widgets.png"), full_page=True)
    assert log == {"requests": [], "errors": [], "dialogs": []}, log
