"""Labels are data, in a real browser (issue 19): hostile labels, annotators, categories
and items through every chart's saved page and every widget in JupyterLab, in headless
Chromium. Nothing may run (no dialog, no ``window.__pwned``, no injected element), no
console error may appear, and each label must be on the page as text.

A saved Altair page loads vega from a CDN, unreachable here: pages are saved with
``inline=True`` (vl-convert bundles vega); tests/test_html.py checks the non-inline
pages' text.
"""
from __future__ import annotations

import pytest

# Python source run here (chart pages) and in the notebook's kernel (widgets)
SETUP = r'''
import numpy as np
import pandas as pd
import iaa_widgets as iaa

HOSTILE = ["</script><script>window.__pwned=1</script>", '"><img src=x onerror=alert(1)>',
           "${alert(1)}", "{{7*7}}", "\u202eRTL mark", "nul\x00byte", "emoji 😀🎉",
           "line\u2028sep\u2029end", "<!-- & -->", "L" * 400]
_rng = np.random.default_rng(0)
_truth = _rng.integers(0, 4, 24)
_codes = np.where(_rng.random(72) < 0.3, _rng.integers(0, 4, 72), np.repeat(_truth, 3))
LABELS = np.array([HOSTILE[1], HOSTILE[3], HOSTILE[2], HOSTILE[6]], dtype=object)
hostile_long = pd.DataFrame({
    "item": np.repeat([f"{HOSTILE[[0, 7, 9, 5][i % 4]]} {i}" for i in range(24)], 3),
    "annotator": [HOSTILE[0], HOSTILE[8], HOSTILE[4]] * 24, "label": LABELS[_codes]})
_second = hostile_long.iloc[::3].assign(label=LABELS[(_codes[::3] + 1) % 4], rank=2)
hostile_ranked = pd.concat([hostile_long.assign(rank=1), _second], ignore_index=True)
hostile_units = pd.DataFrame(
    [(a, LABELS[k % 4], 10.0 * k + _rng.uniform(0, 2), 10.0 * k + 5 + _rng.uniform(0, 2))
     for a in (HOSTILE[0], HOSTILE[1], HOSTILE[6]) for k in range(6)],
    columns=["annotator", "category", "start", "end"])
'''
HOSTILE_0 = "</script><script>window.__pwned=1</script>"  # the first annotator
# short labels that a chart or widget draws whole (no ellipsis), as text
SHOWN = ['"><img src=x onerror=alert(1)>', "{{7*7}}", "${alert(1)}", "emoji 😀🎉"]

PROBE = """() => ({
  pwned: window.__pwned === undefined ? null : String(window.__pwned),
  injected: document.querySelectorAll('%s img, %s script, %s iframe').length,
  text: [...document.querySelectorAll('%s')].map(e => e.textContent).join('\\n'),
})"""


def probe(page, scope: str) -> dict:
    return page.evaluate(PROBE % ((scope,) * 4))


def chart_pages(tmp_path) -> dict:
    """Every chart (builders and result.chart()) on the hostile data, saved inline."""
    scope: dict = {}
    exec(SETUP, scope)
    iaa, pd = scope["iaa"], scope["pd"]
    from iaa_widgets import charts
    ann = iaa.Annotations.from_long(scope["hostile_long"])
    fleiss = iaa.fleiss_kappa(ann)
    sweep = iaa.augmented_kappa_sweep(scope["hostile_ranked"], rank="rank")
    family = iaa.gamma_family(scope["hostile_units"], n_samples=4, seed=0)
    wide = scope["hostile_long"].pivot(index="item", columns="annotator", values="label")
    table = pd.crosstab(wide[ann.annotators[0]], wide[ann.annotators[1]]).reindex(
        index=ann.categories, columns=ann.categories, fill_value=0)
    built = {
        "per_category": charts.per_category_chart(fleiss),
        "pairwise": iaa.pairwise(ann, "cohen_kappa").chart(),
        "contingency": charts.contingency_heatmap(
            charts.contingency_rows(table.to_numpy(), list(ann.categories))),
        "sweep": sweep.chart(p=0.7, items=list(sweep.items["item"][:4])),
        "gamma_family": family.chart(),
        "gamma_k": family.gamma_k.chart(),
        "agreement": fleiss.chart(),
        "spa_missingness": iaa.spa_missingness(scope["hostile_long"], 0.2, n_rounds=10,
                                               seed=0).chart(),
        "bootstrap": iaa.bootstrap(ann, "fleiss_kappa", n_resamples=30, seed=0).chart(),
    }
    paths = {}
    for name, chart in built.items():
        paths[name] = tmp_path / f"{name}.html"
        chart.save(paths[name], inline=True, embed_options={"renderer": "svg"})
    return paths


def test_every_chart_page_shows_hostile_labels_as_text(browser, tmp_path, artifacts):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    dialogs, console = [], []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    # errors only: vega warns (console.warn) of an empty layer's infinite extent when
    # the best alignment has no empty unit, whatever the labels
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    # what each chart draws whole as SVG text (Vega ends a label past its labelLimit
    # with "…"); the other charts hold no label from the data
    drawn = {"per_category": SHOWN, "gamma_family": SHOWN, "gamma_k": SHOWN,
             "contingency": SHOWN[1:],  # the <img> category is cut at 120 px
             "pairwise": ["<!-- & -->", "\u202eRTL mark", "</script><script>window.…"]}
    try:
        for name, path in chart_pages(tmp_path).items():
            page.goto(path.as_uri())
            page.wait_for_selector("#chart svg g.mark-text, #chart svg g.mark-rect, "
                                   "#chart svg g.mark-rule", timeout=20_000)
            found = probe(page, "#chart svg")
            assert found["pwned"] is None and found["injected"] == 0, name
            for label in drawn.get(name, ()):
                assert label in found["text"], (name, label, found["text"][:300])
            if name == "pairwise":  # vega-tooltip's own handler writes the labels as text
                box = page.locator("#chart svg g.layer_1_marks path").nth(1).bounding_box()
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                tip = page.locator("#vg-tooltip-element.visible")
                tip.wait_for(timeout=10_000)
                assert tip.locator("img, script").count() == 0
                assert "annotator" + HOSTILE_0 in tip.text_content()
                page.locator("#chart").screenshot(path=str(artifacts / "hostile_pairwise.png"))
        assert dialogs == [] and console == [], (dialogs, console)
        assert all(u.startswith(("file:", "data:", "about:")) for u in requests), requests
    finally:
        page.close()


CELLS = [
    SETUP,
    "c = iaa.ContingencyMatrix(hostile_long)\nc",
    "s = iaa.AugmentedKappaSweep(hostile_ranked, rank='rank')\ns",
    "e = iaa.SparseAgreementExplorer(hostile_long, n_rounds=20, n_points=5)\ne",
    "g = iaa.GammaExplorer(hostile_units, n_samples=5)\ng",
    # Altair's default renderer in a notebook: an HTML page whose scripts JupyterLab runs
    "iaa.pairwise(hostile_long, 'cohen_kappa').chart()",
]
WIDGETS = [".iaa-contingency", ".iaa-sweep", ".iaa-sparse", ".iaa-gamma"]


@pytest.fixture(scope="module")
def nb(open_lab_page):
    page = open_lab_page("hostile.ipynb", CELLS)
    page.dialogs = []
    page.page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.run_all()
    for css in WIDGETS[:3]:
        page.wait_for_widgets(css, 1)
    page.wait_for_widgets(".iaa-gamma", 1, ready="e.dataset.state === 'done' && "
                          "Number(e.dataset.revision) >= 1", timeout=120_000)
    return page


def test_every_widget_shows_hostile_labels_as_text(nb):
    # list a class's items and draw the κ_x(p) curves of the first three (hostile names)
    nb.execute("s.selected_items = s.class_table['codes'][:3]")
    nb.page.wait_for_function("() => document.querySelectorAll("
                              "'.iaa-sweep .iaa-items input:checked').length === 3")
    # the contingency pair selector and the widgets' own text hold every annotator
    annotators = nb.python("[str(a) for a in c.annotators]")
    options = nb.page.locator(".iaa-contingency select").first.locator("option") \
        .all_text_contents()
    assert options == annotators
    # a label's direction override (U+202E) stays inside its <bdi> in running text
    nb.execute("c.pair = [2, 1]")
    nb.page.wait_for_function("() => document.querySelectorAll("
                              "'.iaa-contingency .iaa-caption bdi')[0].textContent === "
                              f"{annotators[2]!r}")
    caption = nb.page.locator(".iaa-contingency .iaa-caption")
    assert caption.locator("bdi").all_text_contents() == [annotators[2], annotators[1]]
    assert caption.text_content().endswith(" · 24 items")
    found = {css: probe(nb.page, f"{css}") for css in WIDGETS}
    for css, f in found.items():
        assert f["pwned"] is None and f["injected"] == 0, css
        if css != ".iaa-sparse":  # SPA's widget shows counts and schemes, no label
            assert any(s in f["text"] for s in SHOWN), (css, f["text"][:300])
    # the categories as text: the contingency heatmap's axes and per-category table
    contingency = found[".iaa-contingency"]["text"]
    assert all(s in contingency for s in SHOWN), contingency[:500]
    # the sweep's item table lists item names (hostile) as text
    names = set(nb.python("[str(x) for x in s._annotations.items]"))
    shown = nb.page.locator(".iaa-sweep .iaa-items tbody td:nth-child(2)").all_text_contents()
    assert shown and set(shown) <= names, (shown[:5], sorted(names)[:5])
    # the γ lanes and legend: annotators and categories
    assert "emoji 😀🎉" in found[".iaa-gamma"]["text"]
    assert nb.page.evaluate("() => window.__pwned === undefined")
    assert nb.dialogs == []
    # the one Altair output: a single script, the labels inside it escaped
    altair_out = nb.page.locator(".jp-OutputArea-output:has(> div[id^='altair-viz'])")
    assert altair_out.count() == 1 and altair_out.locator("script").count() == 1
    assert "\\u003c/script\\u003e" in altair_out.locator("script").text_content()
    # that output loads vega from a CDN, unreachable here: only those errors are allowed
    errors = [m for m in nb.console if m.startswith(("error", "pageerror")) and not (
        "net::ERR_NAME_NOT_RESOLVED" in m or m.startswith("pageerror: https://cdn.jsdelivr"))]
    assert errors == [], errors
    nb.screenshot("hostile_contingency.png", nb.page.locator(".iaa-contingency").first)
    nb.screenshot("hostile_sweep.png", nb.page.locator(".iaa-sweep").first)
    nb.screenshot("hostile_gamma.png", nb.page.locator(".iaa-gamma").first)
