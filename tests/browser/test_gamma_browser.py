"""GammaExplorer in JupyterLab + headless Chromium: lanes, units, the best alignment's
links and empty units, γ / γ_cat / γ_k bars; moving α, β or Δ∅ recomputes in a worker
thread with progress shown, a newer value cancels a stale computation, and the result
in Python and on the page is what gamma_family gives for the new parameters.

Expected values come from gamma_family (Mathet et al. 2015; Mathet 2017) in this
process with the same parameters and seed (samples are seeded one by one, so equal
seeds give equal values). Data: the seeded synthetic argument-units continuum
(iaa_widgets.datasets.argument_units) and random_continuum for a slower case.
"""
from __future__ import annotations


import pytest

import iaa_widgets as iaa
from iaa_widgets.continuum import random_continuum
from iaa_widgets.datasets import argument_units

XSS = '<img src=x onerror="window.__pwned=1">'

CELLS = [
    "import iaa_widgets as iaa\nfrom iaa_widgets.datasets import argument_units\n"
    "units = argument_units()\n"
    "w = iaa.GammaExplorer(units, n_samples=12, seed=1)\nw",
    "from iaa_widgets.continuum import random_continuum\n"
    "slow = iaa.GammaExplorer(random_continuum(4, 80, seed=3), n_samples=40, seed=2)\nslow",
    "import pandas as pd\n"
    "odd = pd.DataFrame({'annotator': ['x', 'x', 'y', 'y'],\n"
    f"                    'category': [{XSS!r}, 'b', {XSS!r}, 'b'],\n"
    "                    'start': [0, 10, 1, 11], 'end': [5, 15, 6, 16]})\n"
    "z = iaa.GammaExplorer(odd, n_samples=5)\nz",
]


@pytest.fixture(scope="module")
def units():
    return iaa.Continuum.from_frame(argument_units())


@pytest.fixture(scope="module")
def nb(open_lab_page):
    page = open_lab_page("gamma.ipynb", CELLS)
    page.run_all()
    page.wait_for_widgets(".iaa-gamma", 3, ready="e.dataset.state === 'done'",
                          timeout=120_000)
    return page


def widget(nb, n=0):
    return nb.page.locator(".iaa-gamma").nth(n)


def wait_done(nb, n, generation):
    nb.page.wait_for_function(
        "([n, g]) => { const e = document.querySelectorAll('.iaa-gamma')[n];"
        " return e.dataset.state === 'done' && Number(e.dataset.generation) >= g; }",
        arg=[n, generation], timeout=120_000)


def test_renders_lanes_alignment_and_bars(nb, units):
    w = widget(nb)
    expected = iaa.gamma_family(units, n_samples=12, seed=1)
    assert nb.python("w.result.gamma.value") == expected.gamma.value
    shown = w.locator('.iaa-gamma-summary tr[data-key="gamma"] .iaa-value')
    assert float(shown.get_attribute("data-value")) == pytest.approx(expected.gamma.value,
                                                                      abs=1e-12)
    # the precision reached on δ_e (relative 95 % half-width, 2015 §5.3) is shown
    reached = w.locator('.iaa-gamma-summary tr[data-key="precision"] .iaa-value')
    assert float(reached.get_attribute("data-value")) == pytest.approx(
        expected.gamma.precision, abs=1e-12)
    assert reached.inner_text() == f"±{100 * expected.gamma.precision:.2f} %"
    assert w.locator("svg g.units_marks path").count() == units.n_units
    members = expected.alignment.members
    real = (members >= 0).sum(axis=1)
    assert w.locator("svg g.links_marks line, svg g.links_marks path").count() == \
        int((real - 1).clip(min=0).sum())
    assert w.locator("svg g.empty_marks path").count() == int((members < 0).sum())
    lanes = w.locator(".iaa-chart-continuum svg g.role-axis-label text").all_text_contents()
    assert {"annotator A", "annotator B", "annotator C"} <= set(lanes)
    labels = w.locator(".iaa-chart-bars svg g.values_marks text").all_text_contents()
    assert labels[:2] == [f"{expected.gamma.value:.3f}", f"{expected.gamma_cat.value:.3f}"]
    assert len(labels) == 2 + units.n_categories
    assert w.locator(".iaa-error").is_hidden()
    nb.page.set_viewport_size({"width": 1300, "height": 1300})
    nb.screenshot("gamma_light.png", w, publish="gamma.png")


def test_sliders_recompute_gamma_in_python_and_on_page(nb, units):
    gen = nb.python("w.status['generation']")
    widget(nb).locator("input.iaa-slider-alpha").fill("2.5")
    wait_done(nb, 0, gen + 1)
    widget(nb).locator("input.iaa-slider-delta_empty").fill("0.6")
    wait_done(nb, 0, gen + 2)
    expected = iaa.gamma_family(units, alpha=2.5, delta_empty=0.6, n_samples=12, seed=1)
    params = nb.python("w.result.gamma.params")
    assert (params["alpha"], params["beta"], params["delta_empty"]) == (2.5, 1.0, 0.6)
    assert nb.python("w.result.gamma.value") == expected.gamma.value
    assert nb.python("w.result.gamma_k.values.tolist()") == pytest.approx(
        expected.gamma_k.values.tolist(), nan_ok=True, abs=0)
    shown = widget(nb).locator('.iaa-gamma-summary tr[data-key="gamma"] .iaa-value')
    assert float(shown.get_attribute("data-value")) == pytest.approx(expected.gamma.value,
                                                                      abs=1e-12)
    labels = widget(nb).locator(".iaa-chart-bars svg g.values_marks text").all_text_contents()
    assert labels[0] == f"{expected.gamma.value:.3f}"
    members = expected.alignment.members
    assert widget(nb).locator("svg g.empty_marks path").count() == int((members < 0).sum())


def test_progress_shown_and_stale_computation_cancelled(nb):
    w = widget(nb, 1)
    gen = nb.python("slow.status['generation']")
    w.locator("input.iaa-slider-beta").fill("2")
    # progress is shown while it samples, and the old drawing is dimmed
    nb.page.wait_for_function(
        "() => { const e = document.querySelectorAll('.iaa-gamma')[1];"
        " return e.dataset.state === 'sampling'"
        " && e.querySelector('.iaa-status-text').textContent.includes('/ 40'); }",
        timeout=60_000)
    assert "iaa-busy" in w.get_attribute("class")
    assert w.locator(".iaa-progress progress").is_visible()
    nb.screenshot("gamma_progress.png", w)
    cancelled = nb.python("slow.status['cancelled']")
    w.locator("input.iaa-slider-beta").fill("3")        # newer value: the stale run stops
    wait_done(nb, 1, gen + 2)
    status = nb.python("slow.status")
    assert status["cancelled"] >= cancelled + 1
    assert status["generation"] == gen + 2
    expected = iaa.gamma_family(random_continuum(4, 80, seed=3), beta=3.0, n_samples=40,
                                seed=2)
    assert nb.python("slow.result.gamma.params['beta']") == 3.0
    assert nb.python("slow.result.gamma.value") == expected.gamma.value
    assert "cancelled" not in w.locator(".iaa-status-text").text_content()  # cleared when done
    # every lane is painted: a mark (the bar, or a link drawn over it) sits under the
    # centre of the last lane's bar (a clip path shared by id with another chart on
    # the page once hid that lane)
    hit = nb.page.evaluate("""() => {
      const root = document.querySelectorAll('.iaa-gamma')[1];
      const bars = [...root.querySelectorAll('svg g.units_marks path')];
      const low = bars.reduce((a, b) => a.getBoundingClientRect().top >
                                        b.getBoundingClientRect().top ? a : b);
      low.scrollIntoView({ block: 'center' });
      const r = low.getBoundingClientRect();
      const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return Boolean(el && el.closest('g.role-mark') && root.contains(el));
    }""")
    assert hit


def test_the_kernel_stays_free_while_computing(nb):
    import time
    nb.execute("slow.seed = 5")
    nb.page.wait_for_function("() => document.querySelectorAll('.iaa-gamma')[1]"
                              ".dataset.state === 'sampling'", timeout=60_000)
    t0 = time.perf_counter()
    assert nb.python("1 + 1") == 2
    assert time.perf_counter() - t0 < 5
    assert nb.python("slow.wait(120).gamma.params['seed']") == 5


def test_labels_are_text_and_bad_values_are_shown(nb):
    z = widget(nb, 2)
    assert nb.page.evaluate("() => window.__pwned") is None
    assert z.locator("img").count() == 0
    texts = z.locator("svg text").all_text_contents()
    assert any(t.startswith("γ_k: <img") for t in texts), texts
    nb.shows_error_then_recovers(z, "z.delta_empty = 0", "delta_empty must be a finite number > 0",
                                 "z.delta_empty = 1.0", timeout=30_000)
    assert nb.page.evaluate("() => window.__pwned") is None


def test_dark_theme_is_legible(nb):
    # the rules (links, intervals, the rule at the current value) too: black by default
    nb.assert_legible_in_dark(".iaa-gamma", "gamma_dark.png",
                              kinds=("text", "table", "axis", "rule"))
