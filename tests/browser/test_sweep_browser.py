"""AugmentedKappaSweep in JupyterLab + headless Chromium: the curve, the rule at p, the
four classes and their items; moving the p slider, δ, the pair selector and ticking an
item change the Python-side result to what the measure functions give.

Expected values are computed in this process by the measure functions:
``augmented_kappa(data, p=...)`` (Rosenberg & Binkowski §5, evaluated directly, not
through the sweep's closed form the widget uses) and ``augmented_kappa_sweep(data,
delta=..., tau=...)`` for the classes. Data: the seeded synthetic email corpus
(iaa_widgets.datasets.email_types: 380 messages, three annotators).
"""
from __future__ import annotations


import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations
from iaa_widgets.datasets import email_types

XSS = '<img src=x onerror="window.__pwned=1">'

FLAT = {"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["a", "b"] * 4,
        "label": ["x", "x", "y", "y", "x", "y", "y", "x"]}

CELLS = [
    "import iaa_widgets as iaa\nfrom iaa_widgets.datasets import email_types\n"
    "emails = email_types()\n"
    "w = iaa.AugmentedKappaSweep(emails, rank='rank')\nw",
    "import pandas as pd\n"
    "xss = pd.DataFrame({'item': [1, 1, 1, 2, 2, 3, 3, 3],\n"
    "                    'annotator': ['a', 'a', 'b', 'a', 'b', 'a', 'b', 'b'],\n"
    f"                    'label': [{XSS!r}, 'x', 'x', 'x', 'x', 'y', 'y', {XSS!r}],\n"
    "                    'rank': [1, 2, 1, 1, 1, 1, 1, 2]})\n"
    "x = iaa.AugmentedKappaSweep(xss, rank='rank')\nx",
    # primary labels only: the curve is flat, and the widget says why
    f"f = iaa.AugmentedKappaSweep(pd.DataFrame({FLAT!r}))\nf",
]


@pytest.fixture(scope="module")
def emails() -> Annotations:
    return Annotations.from_long(email_types(), rank="rank")


@pytest.fixture(scope="module")
def nb(open_lab_page):
    page = open_lab_page("sweep.ipynb", CELLS)
    page.run_all()
    page.wait_for_widgets(".iaa-sweep", 3)
    return page


def widget(nb, n=0):
    return nb.page.locator(".iaa-sweep").nth(n)


def chart_label(nb, n=0) -> list[str]:
    return widget(nb, n).locator("svg g.labels_marks text").all_text_contents()


def wait_value(nb, key, value, n=0):
    nb.page.wait_for_function(
        "([n, key, v]) => { const e = document.querySelectorAll('.iaa-sweep')[n]"
        ".querySelector(`.iaa-summary tr[data-key=\"${key}\"] .iaa-value`);"
        " return e && Math.abs(Number(e.dataset.value) - v) < 1e-12; }",
        arg=[n, key, value], timeout=20_000)


def set_slider(nb, name, value, n=0):
    widget(nb, n).locator(f"input.iaa-slider-{name}").fill(str(value))


def test_renders_curve_rule_and_classes(nb, emails):
    w = widget(nb)
    sweep = iaa.augmented_kappa_sweep(emails)
    at = iaa.augmented_kappa(emails, p=0.6)  # §5 directly, the widget's default p
    assert nb.python("w.result.value") == pytest.approx(at.value, abs=1e-12)
    assert f"κ′ = {at.value:.3f}" in chart_label(nb)
    # three curves of 51 points, a rule, three points at p
    assert w.locator("svg g.curve_marks path").count() == 3
    assert w.locator("svg g.rule_marks line, svg g.rule_marks path").count() == 1
    counts = sweep.items["class"].value_counts()
    for key in ("constant_high", "constant_low", "higher_at_p1", "higher_at_p05"):
        row = w.locator(f'.iaa-classes tr[data-class="{key}"] .iaa-count')
        assert row.text_content() == str(counts[key])
    # the class that needs a reader most is selected: class 4, its items listed
    assert nb.python("w.selected_class") == "higher_at_p05"
    assert w.locator(".iaa-items tbody tr").count() == min(100, counts["higher_at_p05"])
    header = w.locator(".iaa-items thead th").all_text_contents()
    assert header[:3] == ["curve", "item", "case"] and header[-3:] == ["A", "B", "C"]
    assert w.locator(".iaa-error").is_hidden()
    nb.screenshot("sweep_light.png", w, publish="sweep.png")


def test_p_slider_recomputes_in_python_and_redraws(nb, emails):
    before = int(widget(nb).get_attribute("data-revision"))
    widget(nb).locator(".iaa-chart svg").evaluate("(svg) => { svg.dataset.kept = 'yes'; }")
    set_slider(nb, "p", 0.85)
    expected = iaa.augmented_kappa(emails, p=0.85)
    wait_value(nb, "kappa", expected.value)
    assert nb.python("w.p") == 0.85
    assert nb.python("w.result.value") == pytest.approx(expected.value, abs=1e-12)
    assert nb.python("w.result.observed") == pytest.approx(expected.observed, abs=1e-12)
    assert nb.python("w.result.expected") == pytest.approx(expected.expected, abs=1e-12)
    nb.page.wait_for_function(
        "(r) => Number(document.querySelector('.iaa-sweep').dataset.revision) > r",
        arg=before, timeout=20_000)
    assert f"κ′ = {expected.value:.3f}" in chart_label(nb)
    assert f"p(E) = {expected.expected:.3f}" in chart_label(nb)
    # the per-class mean κ_x at p is the mean of the measure's κ_x over the class
    items = expected.items.set_index("item")["kappa"]
    classes = iaa.augmented_kappa_sweep(emails).items.set_index("item")["class"]
    mean4 = items[classes == "higher_at_p05"].mean()
    cell = widget(nb).locator('.iaa-classes tr[data-class="higher_at_p05"] .iaa-mean-p')
    assert cell.text_content() == f"{mean4:.3f}"
    # the rule sits at p = 0.85 on the chart's x scale
    x = nb.page.evaluate("""() => {
      const root = document.querySelector('.iaa-sweep');
      const rule = root.querySelector('svg g.rule_marks line, svg g.rule_marks path');
      const box = rule.getBoundingClientRect();
      const curve = root.querySelector('svg g.curve_marks').getBoundingClientRect();
      return (box.left - curve.left) / curve.width; }""")
    assert x == pytest.approx((0.85 - 0.5) / 0.5, abs=0.02)
    # the new rows went into the live view: the same <svg>, not a re-embedded chart
    assert widget(nb).locator(".iaa-chart svg").get_attribute("data-kept") == "yes"
    nb.screenshot("sweep_p085.png", widget(nb))


def test_delta_redraws_classes_and_items_show_labels(nb, emails):
    set_slider(nb, "delta", 0.3)
    fresh = iaa.augmented_kappa_sweep(emails, delta=0.3, tau=0.5)
    counts = fresh.items["class"].value_counts()
    row = widget(nb).locator('.iaa-classes tr[data-class="constant_low"] .iaa-count')
    row.filter(has_text=str(counts["constant_low"])).wait_for(timeout=20_000)
    assert nb.python("w.sweep.items['class'].value_counts().to_dict()") == \
        {k: int(v) for k, v in counts.items()}
    # selecting class 3 lists its items with every annotator's labels as text
    widget(nb).locator('.iaa-classes tr[data-class="higher_at_p1"]').click()
    nb.page.wait_for_function("() => document.querySelector('.iaa-sweep')"
                              ".querySelector('.iaa-items-title').textContent.startsWith('3')",
                              timeout=20_000)
    first = fresh.items[fresh.items["class"] == "higher_at_p1"].iloc[0]
    cells = widget(nb).locator(".iaa-items tbody tr").first.locator("td").all_text_contents()
    assert cells[1] == str(first["item"]) and cells[2] == str(first["case"])
    labels = email_types()
    mine = labels[(labels["item"] == first["item"]) & (labels["annotator"] == "A")]
    expected_a = " / ".join(mine.sort_values("rank")["label"])
    assert cells[-3] == expected_a


def test_ticking_an_item_draws_its_curve(nb, emails):
    w = widget(nb)
    w.locator(".iaa-items tbody tr").first.locator("input[type=checkbox]").check()
    nb.page.wait_for_function("() => document.querySelector('.iaa-sweep')"
                              ".querySelectorAll('svg g.item_curves_marks path').length === 1",
                              timeout=20_000)
    code = nb.python("w.selected_items")[0]
    item = emails.items[code]
    curve = iaa.augmented_kappa_sweep(emails).item_curve(item)
    drawn = nb.python("[r['value'] for r in w._datasets['sweep_items']]")
    assert drawn == pytest.approx(curve["kappa"].tolist(), abs=1e-12)
    # κ_x of the item at p = 0.5 and 1 from augmented_kappa (§5 directly)
    for p in (0.5, 1.0):
        direct = iaa.augmented_kappa(emails, p=p).items.set_index("item").loc[item, "kappa"]
        assert curve.set_index("p").loc[p, "kappa"] == pytest.approx(direct, abs=1e-12)
    nb.screenshot("sweep_item_curve.png", w)


def test_pair_selector(nb, emails):
    widget(nb).locator("select.iaa-select-pair").select_option("1")  # A × C
    expected = iaa.augmented_kappa(emails.select_annotators(["A", "C"]), p=0.85)
    wait_value(nb, "kappa", expected.value)
    assert nb.python("w.result.value") == pytest.approx(expected.value, abs=1e-12)
    header = widget(nb).locator(".iaa-items thead th").all_text_contents()
    assert header[-2:] == ["A", "C"]
    widget(nb).locator("select.iaa-select-pair").select_option("-1")
    wait_value(nb, "kappa", iaa.augmented_kappa(emails, p=0.85).value)


def test_labels_are_text_and_bad_p_is_shown(nb):
    x = widget(nb, 1)
    assert nb.page.evaluate("() => window.__pwned") is None
    assert x.locator("img").count() == 0
    texts = x.locator(".iaa-items td.iaa-labels").all_text_contents()
    x.locator(".iaa-classes tbody tr").first.click()
    texts += x.locator(".iaa-items td.iaa-labels").all_text_contents()
    for cls in ("constant_low", "higher_at_p1", "higher_at_p05"):
        nb.execute(f"x.selected_class = '{cls}'")
        nb.page.wait_for_timeout(300)
        texts += x.locator(".iaa-items td.iaa-labels").all_text_contents()
    assert any(XSS in t for t in texts), texts
    assert nb.page.evaluate("() => window.__pwned") is None
    nb.shows_error_then_recovers(x, "x.p = 0.2", "p must be a finite number in [0.5, 1]",
                                 "x.p = 0.7")


def test_dark_theme_is_legible(nb):
    # the rules (links, intervals, the rule at the current value) too: black by default
    nb.assert_legible_in_dark(".iaa-sweep", "sweep_dark.png",
                              kinds=("text", "table", "axis", "rule"))


# ------------------------------------------------------------------ issue 16: finish
def legend(nb, n=0) -> list[str]:
    return widget(nb, n).locator("svg g.role-legend-label text").all_text_contents()


def test_legend_lists_kappa_x_only_when_drawn_and_curves_are_told_apart(nb, emails):
    w = widget(nb)
    nb.execute("w.selected_items = []")
    nb.page.wait_for_function("() => ![...document.querySelector('.iaa-sweep')"
                              ".querySelectorAll('svg g.role-legend-label text')]"
                              ".some(t => t.textContent.startsWith('κ_x'))", timeout=20_000)
    assert legend(nb) == ["κ′", "p(A)", "p(E)"]
    codes = nb.python("w.class_table['codes'][:3]")
    nb.execute(f"w.selected_items = {codes}")
    nb.page.wait_for_function("() => document.querySelector('.iaa-sweep')"
                              ".querySelectorAll('svg g.item_curves_marks path').length === 3",
                              timeout=20_000)
    nb.page.wait_for_timeout(300)
    assert legend(nb) == ["κ′", "p(A)", "p(E)", "κ_x of an item"]
    dashes = [p.get_attribute("stroke-dasharray")
              for p in w.locator("svg g.item_curves_marks path").all()]
    assert len(set(dashes)) == 3, dashes  # each ticked item's curve its own dash
    names = sorted(w.locator("svg g.item_labels_marks text").all_text_contents())
    assert names == sorted(str(emails.items[c]) for c in codes)
    nb.screenshot("sweep_item_labels.png", w)


def test_point_labels_stay_inside_the_chart(nb):
    for p in (1.0, 0.5):
        nb.execute(f"w.p = {p}")
        nb.page.wait_for_function(
            "(p) => document.querySelector('.iaa-sweep .iaa-summary tr[data-key=\"kappa\"] th')"
            ".textContent.includes(p)", arg=f"{p:.3f}", timeout=20_000)
        nb.page.wait_for_timeout(300)
        inside = nb.page.evaluate("""() => {
          const root = document.querySelector('.iaa-sweep');
          const svg = root.querySelector('.iaa-chart svg').getBoundingClientRect();
          return [...root.querySelectorAll('svg g.labels_marks text')].map((t) => {
            const b = t.getBoundingClientRect();
            return b.left >= svg.left && b.right <= svg.right && b.top >= svg.top
              && b.bottom <= svg.bottom; }); }""")
        assert inside and all(inside), (p, inside)
        nb.screenshot(f"sweep_labels_p{p}.png", widget(nb))
    nb.execute("w.p = 0.85")


def test_item_list_downloads_as_csv(nb):
    import csv
    import io
    w = widget(nb)
    link = w.locator("a.iaa-csv")
    text = link.get_attribute("data-csv")
    rows = list(csv.reader(io.StringIO(text)))
    header = [h for h in w.locator(".iaa-items thead th").all_text_contents()][1:]
    assert rows[0] == header
    shown = [r.locator("td").all_text_contents()[1:3] for r in w.locator(".iaa-items tbody tr").all()]
    assert [r[:2] for r in rows[1:]] == shown
    table = nb.python("w.class_table['rows']")
    assert [float(r[2]) for r in rows[1:]] == [r[2] for r in table]  # full precision
    assert link.get_attribute("download").endswith(".csv")
    with nb.page.expect_download() as info:
        link.click()
    assert info.value.suggested_filename == link.get_attribute("download")


def test_item_list_pages_past_max_rows(nb, emails):
    w = widget(nb)
    # δ = 0.1 (the default, set back after the δ test): class 3 holds 105 items
    nb.execute("w.delta = 0.1; w.pair = -1; w.selected_class = 'higher_at_p1'; w.row_offset = 0")
    members = nb.python("w.class_items()['item'].astype(str).tolist()")  # the whole class
    assert len(members) > 100  # the email corpus: more than one page in class 3
    nb.page.wait_for_function("(n) => document.querySelector('.iaa-sweep .iaa-items-title')"
                              ".textContent.includes(`${n} items (1–100 shown)`)",
                              arg=len(members), timeout=20_000)
    nxt, prev = w.locator("button.iaa-page-next"), w.locator("button.iaa-page-prev")
    assert prev.is_disabled() and not nxt.is_disabled()
    nxt.click()
    nb.page.wait_for_function("() => document.querySelector('.iaa-sweep .iaa-items-title')"
                              ".textContent.includes('(101–')", timeout=20_000)
    assert nb.python("w.row_offset") == 100
    shown = [r.locator("td").nth(1).text_content() for r in w.locator(".iaa-items tbody tr").all()]
    assert shown == members[100:200]
    assert nxt.is_disabled() == (len(members) <= 200)
    csv_rows = w.locator("a.iaa-csv").get_attribute("data-csv").strip().split("\r\n")[1:]
    assert [r.split(",")[0].strip('"') for r in csv_rows] == members[100:200]
    nb.screenshot("sweep_page2.png", w)
    prev.click()
    nb.page.wait_for_function("() => document.querySelector('.iaa-sweep .iaa-items-title')"
                              ".textContent.includes('(1–100')", timeout=20_000)


def test_data_without_secondary_labels_say_why_the_curve_is_flat(nb):
    flat = widget(nb, 2)
    assert nb.python("f.summary['n_secondary']") == 0
    note = flat.locator(".iaa-notes p").filter(has_text="No secondary labels")
    assert note.count() == 1
    # and the curve is flat indeed: κ′ at p = 0.5 equals κ′ at p = 1 (augmented_kappa)
    k05 = iaa.augmented_kappa(nb_flat_data(), p=0.5).value
    k1 = iaa.augmented_kappa(nb_flat_data(), p=1.0).value
    assert k05 == pytest.approx(k1, abs=1e-15)
    assert widget(nb).locator(".iaa-notes p").filter(has_text="No secondary labels").count() == 0
    nb.screenshot("sweep_flat_note.png", flat)


def nb_flat_data():
    import pandas as pd
    return pd.DataFrame(FLAT)


# ------------------------------------------------------------------ issue 35
def test_thresholds_in_words_tau_marks_axis_title_and_csv_names_p(nb, emails):
    w = widget(nb)
    labels = w.locator(".iaa-controls .iaa-control-label").all_text_contents()
    assert "δ, least change of κ_x" in labels and "τ, agreement for class 1" in labels
    # where τ changes the classes: the means (κ_x(0.5) + κ_x(1)) / 2 of the items whose
    # κ_x changes by at most δ (§6), from augmented_kappa_sweep in this process
    delta = nb.python("w.delta")
    items = iaa.augmented_kappa_sweep(emails).items
    steady = (items["kappa_1.0"] - items["kappa_0.5"]).abs() <= delta
    means = sorted({round(v, 12) for v in
                    ((items["kappa_0.5"] + items["kappa_1.0"]) / 2)[steady]})
    assert nb.python("w.tau_marks") == pytest.approx(means, abs=1e-12)
    ticks = w.locator("datalist option")
    assert [float(v) for v in ticks.evaluate_all("(o) => o.map((e) => e.value)")] == \
        pytest.approx(means, abs=1e-12)
    assert w.locator("input.iaa-slider-tau").get_attribute("list") == \
        w.locator("datalist").get_attribute("id")
    text = w.locator(".iaa-tau-marks").text_content()
    assert text.startswith("classes 1 and 2 change at τ = ") and f"{means[-1]:.2f}" in text
    # the y axis says what it shows
    titles = w.locator(".iaa-chart svg g.role-axis-title text").all_text_contents()
    assert "κ′, p(A), p(E) and κ_x" in titles, titles
    # the CSV and the table name the p of the κ (p) column
    p = nb.python("w.p")
    header = w.locator("a.iaa-csv").get_attribute("data-csv").split("\r\n")[0]
    assert f'"κ (p = {p:.3f})"' in header, header
    assert f"κ (p = {p:.3f})" in w.locator(".iaa-items thead").text_content()
    nb.screenshot("sweep_tau_marks.png", w)


def test_no_vega_warning_in_the_console(nb):
    warnings = [c for c in nb.console if c.startswith(("warning", "error"))
                and ("Infinite extent" in c or "vega" in c.lower() or "WARN" in c)]
    assert warnings == [], warnings
