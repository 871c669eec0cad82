"""StudyDesigner in JupyterLab + headless Chromium: the items each design needs, the
sliders' round trip through the kernel, and with pilot data the projection chart.

Expected values are computed in this process by :func:`iaa_widgets.sample_size` (whose
own tests check it against R's irr and kappaSize, tests/test_inference_sample_size.py).
Data: the seeded synthetic email corpus (iaa_widgets.datasets.email_types: 380
messages, three annotators), primary labels.
"""
from __future__ import annotations

import pytest

import iaa_widgets as iaa
from iaa_widgets.datasets import email_types

CELLS = [
    "import iaa_widgets as iaa\nfrom iaa_widgets.datasets import email_types\n"
    "e = email_types()\nprimary = e[e['rank'] == 1].drop(columns='rank')\n"
    "d = iaa.StudyDesigner(primary, 'fleiss_kappa', n_resamples=300)\nd",
    "plain = iaa.StudyDesigner(raters=3)\nplain",
]


@pytest.fixture(scope="module")
def nb(open_lab_page):
    page = open_lab_page("designer.ipynb", CELLS)
    page.run_all()
    page.wait_for_widgets(".iaa-designer", 1)  # the one with a chart has drawn it
    page.page.wait_for_function(
        "() => document.querySelectorAll('.iaa-designer .iaa-designs tbody tr').length >= 7",
        timeout=60_000)
    return page


def widget(nb, n=0):
    return nb.page.locator(".iaa-designer").nth(n)


def items_shown(nb, n=0) -> list[str]:
    return widget(nb, n).locator(".iaa-designs tbody td.iaa-value").evaluate_all(
        "(cells) => cells.map((c) => c.dataset.value)")


def test_designs_are_sample_size_numbers(nb):
    ci = iaa.sample_size(method="rotondi-ci", kappa0=0.6, kappa_low=0.5, kappa_high=0.7,
                         prevalence=0.3, raters=3, significance=0.05)
    power = iaa.sample_size(method="rotondi-power", kappa0=0.6, kappa1=0.8, prevalence=0.3,
                            raters=3, significance=0.05)
    shown = items_shown(nb, 1)
    assert shown[:2] == [str(ci.n_items), str(power.n_items)]
    assert len(shown) == 3  # no Cantor row with three raters
    primary = email_types()
    primary = primary[primary["rank"] == 1].drop(columns="rank")
    fleiss = iaa.fleiss_kappa(primary).value
    assert nb.python("d.pilot['estimate']") == pytest.approx(fleiss, abs=1e-12)
    assert widget(nb).locator(".iaa-pilot").text_content().startswith(
        f"pilot: {fleiss:.3f}")
    assert widget(nb).locator(".iaa-error").is_hidden()


def test_slider_round_trip_and_projection(nb):
    w = widget(nb)
    before = int(w.get_attribute("data-revision"))
    w.locator("input.iaa-slider-half_width").fill("0.05")
    expected = iaa.sample_size(method="rotondi-ci", kappa0=0.6, kappa_low=0.55,
                               kappa_high=0.65, prevalence=0.3, raters=2,
                               significance=0.05).n_items
    nb.page.wait_for_function(
        "(v) => document.querySelector('.iaa-designer .iaa-designs td.iaa-value')"
        ".dataset.value === v", arg=str(expected), timeout=20_000)
    assert nb.python("d.half_width") == 0.05
    # the projection's rows follow: its target rule at 0.05, the chart redrawn in place
    nb.page.wait_for_function(
        "(r) => Number(document.querySelector('.iaa-designer').dataset.revision) > r",
        arg=before, timeout=20_000)
    assert nb.python("d._datasets['designer_curve'][0]['target']") == 0.05
    assert w.locator("svg path[aria-roledescription='line mark']").count() == 2
    w.locator("input.iaa-slider-raters").fill("4")
    nb.page.wait_for_function("() => document.querySelector('.iaa-designer')"
                              ".querySelectorAll('.iaa-designs tbody tr').length === 4",
                              timeout=20_000)  # no Cantor with four raters; the pilot row
    assert nb.python("d.raters") == 4
    nb.screenshot("designer.png", w)
