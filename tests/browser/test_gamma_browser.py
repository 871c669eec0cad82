"""GammaExplorer in JupyterLab + headless Chromium: lanes, units, the best alignment's
links and empty units, γ / γ_cat / γ_k bars; moving the positional weight (α), the
categorical weight (β) or Δ∅ recomputes in a worker thread with progress shown, a newer
value cancels a stale computation (the note on it clears when done), and the result in
Python and on the page is what gamma_family gives for the new parameters. The
continuum zooms and pans along x (wheel, drag, buttons; reset restores the whole
axis) while the γ bars keep theirs; its legend sits beside the lanes; every control
has an accessible name, the charts a text summary, and the keyboard's focus shows.

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

from hostpage import ACCESSIBLE_NAMES, open_widget

XSS = '<img src=x onerror="window.__pwned=1">'

CELLS = [
    "import iaa_widgets as iaa\nfrom iaa_widgets.datasets import argument_units\n"
    "units = argument_units()\n"
    "w = iaa.GammaExplorer(units, n_samples=12, seed=1)\nw",
    "from iaa_widgets.continuum import random_continuum\n"
    "from iaa_widgets.widgets import gamma as _gamma\n"
    "_gamma.QUICK_AFTER_SECONDS = 0  # a quick estimate however fast this machine is\n"
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
    # while the newer value computes, the page says a stale computation was cancelled
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.iaa-gamma')[1].querySelector('.iaa-status-text')"
        ".textContent.includes('1 stale computation cancelled')", timeout=60_000)
    nb.screenshot("gamma_stale.png", w)
    wait_done(nb, 1, gen + 2)
    status = nb.python("slow.status")
    assert status["cancelled"] >= cancelled + 1 and status["stale"] == 0
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


# ---------------------------------------------------------------- zoom and pan
def zoom_state(nb, n=0):
    """The x domain of widget n's continuum ([low, high]) and whether it is zoomed."""
    return nb.page.evaluate("""(n) => { const z = document.querySelectorAll('.iaa-gamma')[n]
      .querySelector('.iaa-zoom'); return { domain: z.dataset.domain.split(',').map(Number),
      zoomed: z.dataset.zoomed === 'true' }; }""", n)


def wait_zoom(nb, previous, n=0):
    """Wait until widget n's x domain differs from ``previous``; return the new state."""
    nb.page.wait_for_function(
        """([n, d]) => { const z = document.querySelectorAll('.iaa-gamma')[n]
          .querySelector('.iaa-zoom'); return z.dataset.domain !== d.join(','); }""",
        arg=[n, previous], timeout=10_000)
    return zoom_state(nb, n)


def bars_axis(w):
    return w.locator(".iaa-chart-bars svg g.role-axis-label text").all_text_contents()


def test_zoom_and_pan_change_the_x_domain_and_reset_restores_it(nb, units):
    w = widget(nb)
    w.scroll_into_view_if_needed()
    start = zoom_state(nb)
    lo, hi = start["domain"]
    assert not start["zoomed"] and lo <= units.start.min() and hi >= units.end.max()
    assert w.locator(".iaa-zoom-reset").is_disabled()
    bars = bars_axis(w)
    # the wheel over the lanes zooms in around the pointer
    box = w.locator(".iaa-chart-continuum svg g.units_marks").bounding_box()
    nb.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    nb.page.mouse.wheel(0, -400)
    wheel = wait_zoom(nb, start["domain"])
    assert wheel["zoomed"] and lo <= wheel["domain"][0] < wheel["domain"][1] <= hi
    width = wheel["domain"][1] - wheel["domain"][0]
    assert width < 0.8 * (hi - lo)
    # a drag to the left pans right: same width, larger positions
    nb.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    nb.page.mouse.down()
    nb.page.mouse.move(box["x"] + box["width"] / 2 - 120, box["y"] + box["height"] / 2, steps=6)
    nb.page.mouse.up()
    drag = wait_zoom(nb, wheel["domain"])
    assert drag["domain"][0] > wheel["domain"][0]
    assert drag["domain"][1] - drag["domain"][0] == pytest.approx(width, rel=1e-9)
    # the buttons: + halves the width around the middle, ▶ moves a quarter of it
    w.locator(".iaa-zoom-in").click()
    half = wait_zoom(nb, drag["domain"])
    mid = sum(drag["domain"]) / 2
    assert half["domain"] == pytest.approx([mid - width / 4, mid + width / 4], rel=1e-9)
    w.locator(".iaa-zoom-right").click()
    right = wait_zoom(nb, half["domain"])
    assert right["domain"] == pytest.approx([d + width / 8 for d in half["domain"]], rel=1e-9)
    shown = w.locator(".iaa-zoom-shown").text_content()
    assert shown.startswith(f"showing {right['domain'][0]:.0f} to {right['domain'][1]:.0f}")
    # the lanes' axis follows, the γ bars' axis does not
    ticks = [float(t.replace(",", "")) for t in
             w.locator(".iaa-chart-continuum svg g.role-axis-label text").all_text_contents()
             if t.replace(",", "").replace(".", "").isdigit()]
    assert ticks and right["domain"][0] <= min(ticks) and max(ticks) <= right["domain"][1]
    assert bars_axis(w) == bars
    assert "Zoomed: showing" in w.locator(".iaa-chart-continuum").get_attribute("aria-label")
    nb.screenshot("gamma_zoomed.png", w)
    # a slider move keeps the zoom and still recomputes
    gen = nb.python("w.status['generation']")
    w.locator("input.iaa-slider-beta").fill("1.5")
    wait_done(nb, 0, gen + 1)
    assert nb.python("w.result.gamma.params['beta']") == 1.5
    assert zoom_state(nb)["domain"] == pytest.approx(right["domain"], rel=1e-12)
    # reset shows the whole continuum again
    w.locator(".iaa-zoom-reset").click()
    back = wait_zoom(nb, right["domain"])
    assert back == start
    assert w.locator(".iaa-zoom-reset").is_disabled()
    assert bars_axis(w) == bars
    nb.execute("w.beta = 1.0")
    wait_done(nb, 0, gen + 2)


def test_clip_paths_belong_to_their_own_chart(nb):
    # the lanes are clipped to the plot when zoomed; vega numbers clip paths per copy of
    # its code (one per widget): each id must be unique on the page and each chart must
    # refer to its own paths only
    found = nb.page.evaluate("""() => {
      const ids = [...document.querySelectorAll('clipPath')].map((c) => c.id);
      const refs = [...document.querySelectorAll('.iaa-gamma [clip-path]')].map((e) => {
        const id = e.getAttribute('clip-path').match(/#([^)]+)/)[1];
        const path = document.getElementById(id);
        return path && path.closest('.iaa-gamma') === e.closest('.iaa-gamma');
      });
      return { ids, refs };
    }""")
    assert found["refs"] and all(found["refs"])
    assert len(found["ids"]) == len(set(found["ids"])), found["ids"]


# ---------------------------------------------------------------- legend
def test_legend_of_categories_sits_beside_the_lanes(nb, units):
    w = widget(nb)
    legend = w.locator(".iaa-chart-continuum svg g.role-legend").bounding_box()
    lanes = w.locator(".iaa-chart-continuum svg g.units_marks").bounding_box()
    bars = w.locator(".iaa-chart-bars").bounding_box()
    assert legend["x"] >= lanes["x"] + lanes["width"] - 1            # right of the lanes
    assert legend["y"] < lanes["y"] + lanes["height"] and \
        legend["y"] + legend["height"] > lanes["y"]                    # at their height
    assert legend["y"] + legend["height"] < bars["y"]                 # not over the bars
    names = w.locator(".iaa-chart-continuum svg g.role-legend-label text").all_text_contents()
    assert sorted(names) == sorted(units.categories.astype(str))


# ---------------------------------------------------------------- accessibility

@pytest.fixture(scope="module")
def bare(browser, units):
    """The widget on a bare page (hostpage.py: its synced state, no kernel)."""
    w = iaa.GammaExplorer(units, n_samples=12, seed=1)
    w.wait(120)
    page = open_widget(browser, w, viewport=(1200, 1000))
    page.wait_for_function("() => document.querySelector('.iaa-widget').dataset.clipIds")
    yield page
    page.close()
    w.close()


def test_every_control_has_an_accessible_name(bare):
    controls = bare.locator(".iaa-gamma").evaluate(ACCESSIBLE_NAMES)
    assert len(controls) >= 10, controls      # 3 sliders, 2 numbers, 5 zoom buttons (…)
    assert not [c for c in controls if not c["name"]], controls
    by_class = {(c["cls"].split() or ["?"])[-1]: c["name"] for c in controls}
    # the weights are named for what they do, with Mathet et al.'s letter (not "α" alone)
    assert by_class["iaa-slider-alpha"] == "positional weight (α in Mathet et al. 2015)"
    assert by_class["iaa-slider-beta"] == "categorical weight (β in Mathet et al. 2015)"
    label = bare.locator("label:has(input.iaa-slider-alpha) .iaa-control-label").text_content()
    assert label == "positional weight"
    assert by_class["iaa-zoom-reset"].startswith("reset zoom")


def test_charts_are_images_with_a_summary(bare, units):
    charts = bare.evaluate("""() => [...document.querySelectorAll('.iaa-gamma .iaa-chart')]
      .map((c) => ({ role: c.getAttribute('role'), label: c.getAttribute('aria-label') }))""")
    assert [c["role"] for c in charts] == ["img", "img"]
    lanes, bars = charts[0]["label"], charts[1]["label"]
    assert lanes.startswith(f"Continuum of {units.n_units} units by 3 annotators "
                            "(annotator A, annotator B, annotator C)")
    assert "unitary alignments drawn as links" in lanes
    assert "The x axis zooms with the wheel" in lanes
    assert bars.startswith("Agreement bars (95 % sampling intervals over random continua): γ ")
    # the numbers are gamma_family's for the same parameters and seed (Mathet 2015, 2017)
    expected = iaa.gamma_family(units, n_samples=12, seed=1)
    g, gc = expected.gamma, expected.gamma_cat
    assert f"γ {g.value:.3f} ({g.ci[0]:.3f} to {g.ci[1]:.3f})" in bars
    assert f"γ_cat {gc.value:.3f} ({gc.ci[0]:.3f} to {gc.ci[1]:.3f})" in bars
    claim = expected.gamma_k.per_category.loc["claim"]
    assert f"γ_k: claim {claim['value']:.3f}" in bars
    assert f"{expected.alignment.members.shape[0]} unitary alignments drawn as links" in lanes


def test_keyboard_focus_is_visible_and_zoom_works_from_the_keyboard(bare, artifacts):
    bare.locator("input.iaa-slider-alpha").focus()
    reached = []
    for _ in range(8):  # sliders, number inputs, then the zoom buttons
        bare.keyboard.press("Tab")
        reached.append(bare.evaluate("""() => { const e = document.activeElement;
          const s = getComputedStyle(e);
          return { cls: e.className, inWidget: !!e.closest('.iaa-gamma'),
                   visible: e.matches(':focus-visible'), style: s.outlineStyle,
                   width: parseFloat(s.outlineWidth) }; }"""))
    assert all(r["inWidget"] for r in reached), reached
    for r in reached:
        assert r["visible"] and r["style"] != "none" and r["width"] >= 2, r
    assert "iaa-zoom-button iaa-zoom-in" in [r["cls"] for r in reached]
    bare.locator(".iaa-zoom-in").focus()
    before = bare.evaluate("() => document.querySelector('.iaa-zoom').dataset.domain")
    bare.keyboard.press("Enter")
    bare.wait_for_function("(d) => document.querySelector('.iaa-zoom').dataset.domain !== d",
                           arg=before)
    lo, hi = map(float, before.split(","))
    now = [float(v) for v in bare.evaluate(
        "() => document.querySelector('.iaa-zoom').dataset.domain").split(",")]
    assert now == pytest.approx([lo + (hi - lo) / 4, hi - (hi - lo) / 4], rel=1e-9)
    bare.locator(".iaa-gamma").screenshot(path=str(artifacts / "a11y_focus_gamma.png"))
    bare.locator(".iaa-zoom-reset").focus()
    bare.keyboard.press("Enter")
    bare.wait_for_function("() => document.querySelector('.iaa-zoom').dataset.zoomed === 'false'")
    # the reset button is disabled now: the keyboard's focus stays in the zoom controls
    assert bare.evaluate("() => document.activeElement.classList.contains('iaa-zoom-in')")


# ---------------------------------------------------------------- issue 35
def test_wheel_zoomed_all_the_way_out_is_the_whole_continuum(nb):
    w = widget(nb)
    w.scroll_into_view_if_needed()
    start = zoom_state(nb)
    assert not start["zoomed"]
    box = w.locator(".iaa-chart-continuum svg g.units_marks").bounding_box()
    nb.page.mouse.move(box["x"] + box["width"] / 3, box["y"] + box["height"] / 2)
    nb.page.mouse.wheel(0, -400)
    zoomed = wait_zoom(nb, start["domain"])
    assert zoomed["zoomed"]
    for _ in range(6):  # far past the whole continuum
        nb.page.mouse.wheel(0, 400)
        nb.page.wait_for_timeout(100)
    nb.page.wait_for_function("() => document.querySelector('.iaa-gamma .iaa-zoom')"
                              ".dataset.zoomed === 'false'", timeout=10_000)
    assert zoom_state(nb) == start
    assert w.locator(".iaa-zoom-shown").text_content().startswith("whole continuum")
    assert w.locator(".iaa-zoom-reset").is_disabled()


ANNOUNCEMENTS = """(n) => { const root = document.querySelectorAll('.iaa-gamma')[n];
  const live = root.querySelector('.iaa-announce');
  window.__said = [];
  new MutationObserver(() => window.__said.push(live.textContent))
    .observe(live, { childList: true, characterData: true, subtree: true });
  return { live: live.getAttribute('role'),
           progress: root.querySelector('.iaa-progress').getAttribute('role'),
           progressLive: root.querySelector('.iaa-progress').getAttribute('aria-live') }; }"""


def test_quick_estimate_then_refined_result_and_two_announcements(nb):
    w = widget(nb, 1)  # 40 samples: the quick estimate comes from 4 of them
    roles = nb.page.evaluate(ANNOUNCEMENTS, 1)
    # the progress line is not a live region; the announcer is
    assert roles == {"live": "status", "progress": None, "progressLive": None}
    gen = nb.python("slow.status['generation']")
    # the parameters the earlier tests left, with the new positional weight
    params = nb.python("{k: getattr(slow, k) for k in ('beta', 'delta_empty', 'seed')}")
    w.locator("input.iaa-slider-alpha").fill("1.5")
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.iaa-gamma')[1].querySelector('.iaa-status-text')"
        ".textContent.startsWith('quick estimate from 4 samples shown')", timeout=60_000)
    # the estimate is on the page (γ from the first 4 samples of the same seed)
    quick = iaa.gamma_family(random_continuum(4, 80, seed=3), alpha=1.5, n_samples=4,
                             **params).gamma.value
    shown = w.locator('.iaa-gamma-summary tr[data-key="gamma"] .iaa-value')
    assert float(shown.get_attribute("data-value")) == pytest.approx(quick, abs=1e-12)
    nb.screenshot("gamma_quick_estimate.png", w)
    wait_done(nb, 1, gen + 1)
    full = iaa.gamma_family(random_continuum(4, 80, seed=3), alpha=1.5, n_samples=40, **params)
    nb.page.wait_for_function(
        "(v) => Math.abs(Number(document.querySelectorAll('.iaa-gamma')[1].querySelector("
        "'.iaa-gamma-summary tr[data-key=\"gamma\"] .iaa-value').dataset.value) - v) < 1e-12",
        arg=full.gamma.value, timeout=10_000)
    said = nb.page.evaluate("() => window.__said")
    assert len(said) == 2, said  # the start and the result, not every sample
    assert said[0] == "computing γ…"
    assert said[1] == (f"γ = {full.gamma.value:.3f}, γ_cat = {full.gamma_cat.value:.3f}, "
                       "from 40 samples")
    nb.execute("slow.alpha = 1.0")
    wait_done(nb, 1, gen + 2)


def test_no_vega_warning_in_the_console(nb):
    warnings = [c for c in nb.console if c.startswith(("warning", "error"))
                and ("Infinite extent" in c or "vega" in c.lower() or "WARN" in c)]
    assert warnings == [], warnings


# ------------------------------------------------------------ static page (issue 42)
def _move(page, name, value):
    """Set a slider of the page as a drag does (its value, then an `input` event)."""
    page.evaluate("""([name, value]) => {
      const input = document.querySelector(`input.iaa-slider-${name}`);
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }""", [name, value])


def _shown_gamma(page, before):
    """γ on the page once it differs from ``before`` (the saved state's)."""
    cell = 'tr[data-key="gamma"] .iaa-value'
    page.wait_for_function(f"() => document.querySelector('{cell}').dataset.value !== "
                           f"'{before}'", timeout=10_000)
    return page.locator(cell).get_attribute("data-value")


def test_static_page_weight_sliders_show_what_python_computed(offline, tmp_path,
                                                              monkeypatch):
    # each saved state is gamma_family's for its weights: γ, γ_cat and every γ_k
    from iaa_widgets.widgets import gamma
    monkeypatch.setattr(gamma, "EXPORT_GRID", (0.5, 1.0, 1.5))
    small = random_continuum(3, 8, seed=4)
    w = iaa.GammaExplorer(small, n_samples=4, seed=2)
    try:
        w.wait(60)
        path = tmp_path / "gamma_static.html"
        w.to_html(path)
    finally:
        w.close()
    page, log = offline(path)
    page.wait_for_selector(".iaa-chart-bars svg.marks g.mark-rect path", timeout=30_000)
    saved = page.locator('tr[data-key="gamma"] .iaa-value').get_attribute("data-value")
    assert float(saved) == pytest.approx(
        iaa.gamma_family(small, n_samples=4, seed=2, progress=False).gamma.value, abs=1e-12)
    assert page.locator("input.iaa-slider-delta_empty").is_disabled()
    assert not page.locator("input.iaa-slider-alpha").is_disabled()
    for name, value in (("alpha", 1.5), ("alpha", 1.0), ("beta", 0.5)):
        before = page.locator('tr[data-key="gamma"] .iaa-value').get_attribute("data-value")
        _move(page, name, value)
        expected = iaa.gamma_family(small, n_samples=4, seed=2, progress=False,
                                    **{name: value})
        shown = _shown_gamma(page, before)
        assert float(shown) == pytest.approx(expected.gamma.value, abs=1e-12)
        cat = page.locator('tr[data-key="gamma_cat"] .iaa-value').get_attribute("data-value")
        assert float(cat) == pytest.approx(expected.gamma_cat.value, abs=1e-12)
        page.wait_for_function("([sel, text]) => (document.querySelector(sel)"
                               ".getAttribute('aria-label') || '').includes(text)",
                               arg=[".iaa-chart-bars", f"γ_k: {expected.gamma_k.values.index[0]}"
                                    f" {expected.gamma_k.values.iloc[0]:.3f}"], timeout=10_000)
        label = page.locator(".iaa-chart-bars").get_attribute("aria-label")
        for k, v in expected.gamma_k.values.items():  # every category's γ_k, as drawn
            assert f"γ_k: {k} {v:.3f}" in label
    assert page.locator(".iaa-static-notice").is_hidden()
    assert log == {"requests": [], "errors": [], "dialogs": []}, log
