"""SparseAgreementExplorer in JupyterLab + headless Chromium: SPA under every scheme with
its spread under missingness, the weight curves (Figures 4–5) and variance curves
(Figures 6–7); moving the drop slider and changing rounds or seed give, in Python and
on the page, what the measure functions give for the new parameters.

Expected values come from the measure functions in this process: sparse_agreement
(eq. 7 of Nørregaard & Derczynski) per scheme, spa_missingness with the same drop,
rounds and seed (same seed, same draws), spa_weight_curves and spa_variance_curve.
Data: the seeded synthetic crowd set (iaa_widgets.datasets.crowd_labels).
"""
from __future__ import annotations


import numpy as np
import pytest

import iaa_widgets as iaa
from iaa_widgets.datasets import crowd_labels
from iaa_widgets.measures.sparse.variance import SPA_SCHEMES


CELLS = [
    "import iaa_widgets as iaa\nfrom iaa_widgets.datasets import crowd_labels\n"
    "crowd = crowd_labels()\n"
    "w = iaa.SparseAgreementExplorer(crowd, drop=0.2, n_rounds=200, seed=0)\nw",
]


@pytest.fixture(scope="module")
def crowd():
    return crowd_labels()


@pytest.fixture(scope="module")
def nb(open_lab_page):
    page = open_lab_page("sparse.ipynb", CELLS)
    page.run_all()
    page.wait_for_widgets(".iaa-sparse", 1, ready="Number(e.dataset.revision) >= 1"
                          " && e.querySelectorAll('svg').length >= 3")
    return page


def widget(nb):
    return nb.page.locator(".iaa-sparse").first


def shown(nb, scheme, cls):
    return widget(nb).locator(f'tr[data-scheme="{scheme}"] .{cls}')


def wait_sd(nb, scheme, value):
    nb.page.wait_for_function(
        "([s, v]) => { const e = document.querySelector('.iaa-sparse')"
        ".querySelector(`tr[data-scheme=\"${s}\"] .iaa-sd`);"
        " return e && Math.abs(Number(e.dataset.value) - v) < 1e-12; }",
        arg=[scheme, value], timeout=30_000)


def chart_labels(nb) -> list[str]:
    return widget(nb).locator(".iaa-chart-spa svg g.labels_marks text").all_text_contents()


def test_renders_schemes_weights_and_variance(nb, crowd):
    w = widget(nb)
    for scheme in SPA_SCHEMES:
        full = iaa.sparse_agreement(crowd, scheme=scheme).value       # eq. 7
        assert shown(nb, scheme, "iaa-value").text_content() == f"{full:.4f}"
        assert nb.python(f"w.result[{scheme!r}].value") == pytest.approx(full, abs=1e-15)
    labels = chart_labels(nb)
    assert len(labels) == len(SPA_SCHEMES)
    full = iaa.sparse_agreement(crowd, scheme="annotations_m1").value
    assert any(t.startswith(f"{full:.4f} · sd") for t in labels), labels
    # the rounds as a strip of 40 bins per scheme, counting every round
    assert w.locator(".iaa-chart-spa svg g.rounds_marks path").count() == 40 * len(SPA_SCHEMES)
    assert sum(r["count"] for r in nb.python("w._datasets['spa_rounds']")) == \
        200 * len(SPA_SCHEMES)
    # Figures 4–5: one line per scheme over n = 1 … 6 annotations
    curves = iaa.spa_weight_curves(6, list(SPA_SCHEMES), n_classes=4,
                                   class_probs=iaa.sparse_agreement(crowd).class_probs)
    assert nb.python("w.weight_curves.round(12).to_dict()") == \
        {k: {str(n): v for n, v in col.items()} for k, col in curves.round(12).to_dict().items()}
    assert w.locator(".iaa-chart-weights svg g.weights_marks path").count() >= len(SPA_SCHEMES)
    # (names of marks in a concatenated chart get a suffix: variance_0_marks)
    assert w.locator('.iaa-chart-variance svg g.role-mark[class*="variance_"] path').count() \
        == len(SPA_SCHEMES)
    assert w.locator('.iaa-chart-variance svg g.role-mark[class*="difference_"] path').count() \
        == len(SPA_SCHEMES)
    assert w.locator(".iaa-error").is_hidden()
    nb.page.set_viewport_size({"width": 1300, "height": 1700})  # the whole widget
    nb.screenshot("sparse_light.png", w, publish="sparse.png")


def test_drop_slider_resamples_in_python_and_on_page(nb, crowd):
    before = int(widget(nb).get_attribute("data-revision"))
    widget(nb).locator("input.iaa-slider-drop").fill("0.6")
    expected = iaa.spa_missingness(crowd, 0.6, n_rounds=200, seed=0)
    table = expected.summary()
    wait_sd(nb, "annotations_m1", table.loc["annotations_m1", "sd"])
    assert nb.python("w.drop") == 0.6
    got = nb.python("w.missingness.values.to_numpy().tolist()")
    np.testing.assert_allclose(got, expected.values.to_numpy(), rtol=0, atol=1e-15)
    nb.page.wait_for_function(
        "(r) => Number(document.querySelector('.iaa-sparse').dataset.revision) > r",
        arg=before, timeout=20_000)
    for scheme in SPA_SCHEMES:
        assert shown(nb, scheme, "iaa-mean").text_content() == f"{table.loc[scheme, 'mean']:.4f}"
    labels = chart_labels(nb)
    for scheme in SPA_SCHEMES:
        row = table.loc[scheme]
        assert f"{row['full']:.4f} · sd {row['sd']:.4f}" in labels
    # more spread with more missingness: sd at drop 0.6 above sd at drop 0.2
    low = iaa.spa_missingness(crowd, 0.2, n_rounds=200, seed=0).summary()
    assert (table["sd"] > low["sd"]).all()
    nb.screenshot("sparse_drop06.png", widget(nb))


def test_rounds_and_seed_controls(nb, crowd):
    rounds = widget(nb).locator("input.iaa-number-n_rounds")
    rounds.fill("300")
    rounds.press("Enter")
    seed = widget(nb).locator("input.iaa-number-seed")
    seed.fill("7")
    seed.press("Enter")
    expected = iaa.spa_missingness(crowd, 0.6, n_rounds=300, seed=7).summary()
    wait_sd(nb, "flat", expected.loc["flat", "sd"])
    assert nb.python("[w.n_rounds, w.seed]") == [300, 7]
    curve = iaa.spa_variance_curve(crowd, list(SPA_SCHEMES), n_rounds=300, seed=7, n_points=25)
    got = nb.python("w.variance_curve['variance'].tolist()")
    np.testing.assert_allclose(got, curve["variance"].to_numpy(), rtol=1e-12)
    assert sum(r["count"] for r in nb.python("w._datasets['spa_rounds']")) == \
        300 * len(SPA_SCHEMES)


def test_bad_value_from_python_is_shown(nb):
    nb.shows_error_then_recovers(widget(nb), "w.drop = 1.5",
                                 "drop must be a finite number in [0, 1)", "w.drop = 0.3")


def test_dark_theme_is_legible(nb):
    # the rules (links, intervals, the rule at the current value) too: black by default
    nb.assert_legible_in_dark(".iaa-sparse", "sparse_dark.png",
                              kinds=("text", "table", "axis", "rule"))


# ------------------------------------------------------------------ issue 16: finish
def spa_axis(nb) -> list[str]:
    return widget(nb).locator(".iaa-chart-spa svg g.role-axis-label text").all_text_contents()


def test_fixed_x_axis_holds_while_drop_moves(nb):
    w = widget(nb)
    w.locator("input.iaa-fix-x").check()
    nb.page.wait_for_function("() => document.querySelector('.iaa-sparse').dataset.fixedX",
                              timeout=20_000)
    lo, hi = map(float, w.get_attribute("data-fixed-x").split(","))
    held = spa_axis(nb)
    before = int(w.get_attribute("data-revision"))
    w.locator("input.iaa-slider-drop").fill("0.8")
    nb.page.wait_for_function(
        "(r) => Number(document.querySelector('.iaa-sparse').dataset.revision) > r",
        arg=before, timeout=30_000)
    nb.page.wait_for_timeout(300)
    assert nb.python("w.drop") == 0.8
    # the rounds at drop 0.8 spread wider than the held axis, which stays put
    assert spa_axis(nb) == held
    assert nb.page.evaluate("() => document.querySelector('.iaa-sparse .iaa-chart-spa')"
                            ".getAttribute('aria-label')").endswith(
        f"x axis fixed at {lo:.4f} to {hi:.4f}.")
    # the value labels stand right of the held axis, off the rounds' strips (issue 35)
    place = nb.page.evaluate("""() => {
      const chart = document.querySelector('.iaa-sparse .iaa-chart-spa');
      const right = Math.max(...[...chart.querySelectorAll('g.role-axis-domain line, '
        + 'g.role-axis-domain path')].map((e) => e.getBoundingClientRect().right));
      return { right, lefts: [...chart.querySelectorAll('g.labels_marks text')]
        .map((t) => t.getBoundingClientRect().left) }; }""")
    assert place["lefts"] and min(place["lefts"]) >= place["right"], place
    nb.screenshot("sparse_fixed_x.png", w)
    # unticked: the axis follows the rounds of drop 0.8 again
    before = int(w.get_attribute("data-revision"))
    w.locator("input.iaa-fix-x").uncheck()
    nb.page.wait_for_function(
        "(r) => Number(document.querySelector('.iaa-sparse').dataset.revision) > r",
        arg=before, timeout=30_000)
    assert spa_axis(nb) != held
    nb.execute("w.drop = 0.6")


def spa_text_overflow(nb) -> list:
    """The SPA chart's texts that reach past its SVG's right edge: (text, how far, px)."""
    return nb.page.evaluate("""() => {
      const svg = document.querySelector('.iaa-sparse .iaa-chart-spa svg');
      const edge = svg.getBoundingClientRect().right;
      return [...svg.querySelectorAll('g.mark-text text')]
        .map((t) => [t.textContent, t.getBoundingClientRect().right - edge])
        .filter(([, over]) => over > 0.5);
    }""")


# The SPA chart's value labels and what they must not cover: the boxes of the visible
# bins of the rounds' strips and of the 95 % rules, cut to the plot's width (a held
# axis clips them there), and the plot's left and right ends (its x axis).
SPA_BOXES = """() => {
  const svg = document.querySelector('.iaa-sparse .iaa-chart-spa svg');
  const axis = [...svg.querySelectorAll('g.role-axis-domain line, g.role-axis-domain path')]
    .map((e) => e.getBoundingClientRect());
  const left = Math.min(...axis.map((b) => b.left)), right = Math.max(...axis.map((b) => b.right));
  const box = (e) => { const b = e.getBoundingClientRect();
    return { left: Math.max(b.left, left), right: Math.min(b.right, right), top: b.top,
             bottom: b.bottom }; };
  const seen = (e) => Number(getComputedStyle(e).opacity) * Number(getComputedStyle(e).fillOpacity
    || 1) > 0;
  return {
    left, right,
    labels: [...svg.querySelectorAll('g.labels_marks text')].map((t) => {
      const b = t.getBoundingClientRect();
      return { text: t.textContent, left: b.left, right: b.right, top: b.top, bottom: b.bottom }; }),
    strips: [...svg.querySelectorAll('g.rounds_marks path, g.interval_marks line, '
      + 'g.interval_marks path')].filter(seen).map(box).filter((b) => b.right > b.left),
  };
}"""


def overlaps(a, b, slack=0.5) -> bool:
    """Whether two boxes (left, right, top, bottom) share more than ``slack`` px each way."""
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > slack
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > slack)


@pytest.mark.parametrize("fixed", [False, True])
def test_spa_labels_are_never_cut_and_never_on_the_strips(nb, fixed):
    # the labels ("0.5501 · sd 0.0161") after the drop slider moves (the rounds spread
    # wider or narrower than at the first drawing), with the x axis following the
    # rounds or held: every label lies inside the chart, right of the plot, on no
    # visible bin of a strip, no 95 % rule and no other label (issue 35)
    w = widget(nb)
    if fixed:
        w.locator("input.iaa-fix-x").check()
        nb.page.wait_for_function(
            "() => document.querySelector('.iaa-sparse').dataset.fixedX", timeout=20_000)
    for drop in ("0.9", "0.05", "0.7"):
        before = int(w.get_attribute("data-revision"))
        w.locator("input.iaa-slider-drop").fill(drop)
        nb.page.wait_for_function(
            "(r) => Number(document.querySelector('.iaa-sparse').dataset.revision) > r",
            arg=before, timeout=30_000)
        nb.page.wait_for_timeout(300)
        assert nb.python("w.drop") == float(drop)
        assert len(chart_labels(nb)) == len(SPA_SCHEMES)
        assert spa_text_overflow(nb) == [], (drop, fixed)
        seen = nb.page.evaluate(SPA_BOXES)
        assert len(seen["strips"]) >= len(SPA_SCHEMES), seen  # (the test sees the strips)
        for label in seen["labels"]:
            assert label["left"] >= seen["right"], (drop, fixed, label)
            assert not [b for b in seen["strips"] if overlaps(label, b)], (drop, fixed, label)
        for i, a in enumerate(seen["labels"]):
            assert not [b for b in seen["labels"][i + 1:] if overlaps(a, b)], (drop, fixed, a)
    nb.screenshot(f"sparse_labels_{'fixed' if fixed else 'free'}.png", w.locator(".iaa-chart-spa"))
    if fixed:
        w.locator("input.iaa-fix-x").uncheck()
    nb.execute("w.drop = 0.6")


def test_figures_6_and_7_fit_the_notebook(nb):
    # every text of Figures 6–7 (axes, titles, the lines' labels) lies inside the
    # notebook's output area, none cut at its right edge
    over = nb.page.evaluate("""() => {
      const chart = document.querySelector('.iaa-sparse .iaa-chart-variance');
      const area = chart.closest('.jp-OutputArea-output') || document.body;
      const edge = area.getBoundingClientRect().right;
      return [...chart.querySelectorAll('svg text')]
        .map((t) => [t.textContent, t.getBoundingClientRect().right - edge])
        .filter(([, over]) => over > 0.5);
    }""")
    assert over == []


# ------------------------------------------------------------------ issue 35
BUSY_SEEN = """() => { const root = document.querySelector('.iaa-sparse');
  window.__busy = [];
  new MutationObserver(() => window.__busy.push(root.dataset.busy))
    .observe(root, { attributes: true, attributeFilter: ['data-busy'] }); }"""


def test_a_slow_recompute_shows_it_is_working(nb):
    w = widget(nb)
    # a recompute made slow (1 s) in the kernel: the page says it is working after 300 ms
    nb.execute("import time\n_fast = w._compute_missing\n"
               "w._compute_missing = lambda: (time.sleep(1.0), _fast())[1]")
    try:
        nb.page.evaluate(BUSY_SEEN)
        drop = nb.python("w.drop")
        w.locator("input.iaa-slider-drop").fill(f"{drop + 0.05:.2f}")
        nb.page.wait_for_function("() => document.querySelector('.iaa-sparse').dataset.busy"
                                  " === 'true'", timeout=5_000)
        assert w.locator(".iaa-progress progress").is_visible()
        assert w.locator(".iaa-status-text").text_content().startswith("recomputing")
        assert w.locator(".iaa-progress").get_attribute("role") == "status"
        nb.screenshot("sparse_busy.png", w)
        nb.page.wait_for_function("() => document.querySelector('.iaa-sparse').dataset.busy"
                                  " === ''", timeout=30_000)
        assert w.locator(".iaa-progress progress").is_hidden()
    finally:
        nb.execute("w._compute_missing = _fast")


def test_number_inputs_keep_what_is_typed_and_drop_slider_is_fine(nb):
    w = widget(nb)
    rounds = w.locator("input.iaa-number-n_rounds")
    rounds.fill("300")
    rounds.press("Enter")
    for _ in range(40):
        if nb.python("w.n_rounds") == 300:
            break
        nb.page.wait_for_timeout(250)
    assert nb.python("w.n_rounds") == 300
    assert rounds.input_value() == "300"
    rounds.press("ArrowUp")  # a step of 50 from what was typed (not snapped to 302)
    assert rounds.input_value() == "350"
    rounds.press("ArrowDown")
    assert rounds.input_value() == "300"
    rounds.press("Enter")
    # below the least value: raised to it (2 rounds), not sent as typed
    rounds.fill("1")
    rounds.press("Enter")
    assert rounds.input_value() == "2"
    for _ in range(40):
        if nb.python("w.n_rounds") == 2:
            break
        nb.page.wait_for_timeout(250)
    assert nb.python("w.n_rounds") == 2
    rounds.fill("200")
    rounds.press("Enter")
    # the drop slider: 0.95 over at least 300 px, so a 40 px drag moves it by < 0.13
    width = w.locator("input.iaa-slider-drop").bounding_box()["width"]
    assert width >= 300 and 40 * 0.95 / width < 0.13


# Per panel of Figures 6–7: each line's colour and last point, each swatch's colour
# and box, each label's text, fill and box (client pixels), the rule's label, the SVG's
# box and the page's background behind the widget.
LINE_LABELS = """(panel) => {
  const chart = document.querySelector('.iaa-sparse .iaa-chart-variance');
  const box = (e) => { const b = e.getBoundingClientRect();
    return { left: b.left, right: b.right, top: b.top, bottom: b.bottom, y: (b.top + b.bottom) / 2 }; };
  const texts = (sel) => [...chart.querySelectorAll(sel)].map((t) => ({
    text: t.textContent, fill: getComputedStyle(t).fill, ...box(t) }));
  const lines = [...chart.querySelectorAll(`g.mark-line[class*="${panel}_"] path`)].map((p) => {
    const end = p.getPointAtLength(p.getTotalLength());
    const at = new DOMPoint(end.x, end.y).matrixTransform(p.getScreenCTM());
    return { stroke: getComputedStyle(p).stroke, x: at.x, y: at.y }; });
  let node = chart, background = 'rgba(0, 0, 0, 0)';
  while (node && /rgba\\(0, 0, 0, 0\\)|transparent/.test(background)) {
    background = getComputedStyle(node).backgroundColor; node = node.parentElement; }
  return { lines, background,
           labels: texts(`g.mark-text[class*="${panel}_"][class*="_labels"] text`),
           swatches: texts(`g.mark-text[class*="${panel}_"][class*="_swatches"] text`),
           rule: texts(`g.mark-text[class*="drop_rule_"][class*="_label"] text`),
           plot: chart.querySelector(`g.concat_${panel === 'variance' ? 0 : 1}_group > g >`
             + ' path.background').getBoundingClientRect().toJSON(),
           svg: chart.querySelector('svg').getBoundingClientRect().toJSON() };
}"""

GAP = 12  # px between two labels' middles (sparse.js END_GAP)


def check_end_labels(seen, names, panel):
    """Each line of ``panel`` labelled at its own end: the label's swatch in the line's
    colour just right of the line's last point, and the label at the height of that
    point unless ends lie closer than a label's height. Labels too close to each other
    are moved apart as little as they can: in the order of their ends, ``GAP`` apart,
    a run of them centred on the mean of their ends (least squares), unless the run
    meets the plot's top or bottom (then pushed inside). No two labels overlap."""
    assert sorted(t["text"] for t in seen["labels"]) == sorted(names), (panel, seen["labels"])
    assert len(seen["lines"]) == len(names) == len(seen["swatches"])
    line_of = {line["stroke"]: line for line in seen["lines"]}
    assert {s["fill"] for s in seen["swatches"]} == set(line_of), panel
    placed = []  # (line end's y, label's y, text)
    for label in seen["labels"]:
        swatch = min(seen["swatches"], key=lambda s: abs(s["y"] - label["y"]))
        assert abs(swatch["y"] - label["y"]) < 1 and swatch["right"] <= label["left"] + 1
        end = line_of[swatch["fill"]]
        assert end["x"] <= swatch["left"] <= end["x"] + GAP, (panel, label["text"], end, swatch)
        placed.append((end["y"], label["y"], label["text"]))
    placed.sort(key=lambda p: p[1])
    top, bottom = seen["plot"]["top"], seen["plot"]["bottom"]
    assert all(top - 1 <= y <= bottom + 1 for _, y, _ in placed), (panel, placed, top, bottom)
    for a, b in zip(placed, placed[1:]):  # in the order of the ends
        assert a[0] <= b[0] + 0.5, (panel, a, b)
    runs = [[placed[0]]]  # labels that touch (GAP apart) form a run
    for a, b in zip(placed, placed[1:]):
        if b[1] - a[1] > GAP + 0.5:
            runs.append([])
        runs[-1].append(b)
    for run in runs:
        if run[0][1] <= top + 1 or run[-1][1] >= bottom - 1:
            continue  # pushed inside the plot
        ends = sum(e for e, _, _ in run) / len(run)
        labels = sum(y for _, y, _ in run) / len(run)
        assert abs(labels - ends) < 2, (panel, run)  # a single label: at its line's end
    labels = seen["labels"]
    for i, a in enumerate(labels):
        assert not [b for b in labels[i + 1:] if overlaps(a, b, slack=0.5)], (panel, a)


def test_variance_lines_labelled_at_their_ends_in_legible_text(nb):
    from labdriver import contrast, luminance
    w = widget(nb)
    for _ in range(40):  # (the test before sets 200 rounds: its recompute has ended)
        if nb.python("w.n_rounds") == 200:
            break
        nb.page.wait_for_timeout(250)
    nb.page.wait_for_function("() => document.querySelector('.iaa-sparse').dataset.busy"
                              " !== 'true'", timeout=30_000)
    nb.page.wait_for_timeout(500)
    w.locator(".iaa-chart-variance").scroll_into_view_if_needed()
    names = nb.python("[r['label'] for r in w.summary]")
    for panel in ("variance", "difference"):
        seen = nb.page.evaluate(LINE_LABELS, panel)
        check_end_labels(seen, names, panel)
        for label in seen["labels"]:  # the names in the text colour, legible on the page
            assert contrast(label["fill"], seen["background"]) >= 4.5, label
    # the dashed rule says what it marks (in both panels)
    drop = nb.python("w.drop")
    assert [r["text"] for r in seen["rule"]] == \
        [f"dashed line: mean usable annotations at drop {drop:.2f}"] * 2
    assert min(r["left"] for r in seen["rule"]) >= seen["svg"]["x"]  # not cut at the left
    nb.screenshot("sparse_variance_labels.png", w.locator(".iaa-chart-variance"))
    # in the dark theme too: no faint label (a yellow line's name on white, or dark text
    # on the dark page)
    before = int(w.get_attribute("data-revision"))
    nb.set_theme("JupyterLab Dark")
    try:
        nb.page.wait_for_function(
            "(r) => Number(document.querySelector('.iaa-sparse').dataset.revision) > r",
            arg=before, timeout=30_000)
        nb.page.wait_for_timeout(500)  # (the labels are placed after the drawing)
        for panel in ("variance", "difference"):
            seen = nb.page.evaluate(LINE_LABELS, panel)
            assert luminance(seen["background"]) < 0.1, seen["background"]
            check_end_labels(seen, names, panel)
            for label in seen["labels"]:
                assert contrast(label["fill"], seen["background"]) >= 4.5, label
        nb.screenshot("sparse_variance_labels_dark.png", w.locator(".iaa-chart-variance"))
    finally:
        nb.set_theme("JupyterLab Light")


def test_no_vega_warning_in_the_console(nb):
    # with no filter of Vega's logger (issue 35): every draw and redraw above, in both
    # themes, with the x axis held and not, warned of nothing
    warnings = [c for c in nb.console if c.startswith(("warning", "error"))
                and ("Infinite extent" in c or "vega" in c.lower() or "WARN" in c)]
    assert warnings == [], warnings
