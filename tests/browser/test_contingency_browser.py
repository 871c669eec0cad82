"""ContingencyMatrix in JupyterLab + headless Chromium: rendering, teaching-mode edits
recomputed in Python, the dark theme, labels as text, errors shown in the widget.

Expected coefficients are computed in this process by the measure functions on the
edited table (``cohen_kappa(Annotations.from_contingency(...))``, ``gwet_ac1`` likewise,
and the benchmark band by ``benchmarking.benchmark`` with the widget's se); the starting table
is the chance-corrected example of Meyer's tutorial (seeds/meyer-tutorial..., "Chance-
corrected Measures: Example": A_o = 0.7, S = 0.4, π = 0.341, κ = 0.348).
"""
from __future__ import annotations


import pytest

from iaa_widgets import Annotations, cohen_kappa
from iaa_widgets.measures.benchmarking import benchmark
from iaa_widgets.measures.categorical.gwet import gwet_ac1
from labdriver import contrast, luminance

XSS = '<img src=x onerror="window.__pwned=1">'
MEYER = [[2, 2], [1, 5]]  # Meyer's tutorial: rows r2 (high, low), columns r1

CELLS = [
    "import iaa_widgets as iaa\n"
    f"w = iaa.ContingencyMatrix({MEYER}, categories=['high', 'low'], "
    "annotators=['r2', 'r1'], editable=True)\nw",
    f"x = iaa.ContingencyMatrix([[3, 1], [2, 4]], categories=[{XSS!r}, 'ok'])\nx",
    "import pandas as pd\n"
    "df = pd.DataFrame({'item': [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],\n"
    "                   'annotator': ['ann', 'bob', 'cat'] * 4,\n"
    "                   'label': ['a', 'a', 'b', 'b', 'b', 'b', 'a', 'b', 'a', 'c', 'c', 'a']})\n"
    "p = iaa.ContingencyMatrix(df)\np",
    # items 2, 4 and 5 lack a label from one or both of ann and bob
    "gaps = pd.DataFrame({'item': [1, 1, 1, 2, 2, 3, 3, 3, 4, 5],\n"
    "                     'annotator': ['ann', 'bob', 'cat', 'ann', 'cat', 'ann', 'bob', 'cat',"
    " 'bob', 'cat'],\n"
    "                     'label': ['+', '+', '−', '−', '−', '+', '+', '−', 'Σ', 'Σ']})\n"
    "g = iaa.ContingencyMatrix(gaps, editable=True)\ng",
]
GAPS = {"item": [1, 1, 1, 2, 2, 3, 3, 3, 4, 5],
        "annotator": ["ann", "bob", "cat", "ann", "cat", "ann", "bob", "cat", "bob", "cat"],
        "label": ["+", "+", "−", "−", "−", "+", "+", "−", "Σ", "Σ"]}

# JS: the rect of inner cell (i, j) of the n-th widget (items follow the data's
# row-major order, see charts.contingency_rows)
CELL_RECT = """([n, i, j]) => {
  const root = document.querySelectorAll('.iaa-contingency')[n];
  const rects = root.querySelectorAll('svg g.layer_0_marks path');
  const k = Math.round(Math.sqrt(rects.length));
  return rects[i * k + j];
}"""


def kappa_of(table) -> float:
    return cohen_kappa(Annotations.from_contingency(table)).value


@pytest.fixture(scope="module")
def nb(open_lab_page):
    page = open_lab_page("contingency.ipynb", CELLS)
    page.run_all()
    page.wait_for_widgets(".iaa-contingency", 4)
    return page


def widget(nb, n):
    return nb.page.locator(".iaa-contingency").nth(n)


def shown_value(nb, n, key) -> str:
    return widget(nb, n).locator(f'tr[data-coef="{key}"] .iaa-value')


def click_cell(nb, n, i, j, shift=False):
    handle = nb.page.evaluate_handle(CELL_RECT, [n, i, j]).as_element()
    handle.scroll_into_view_if_needed()
    box = handle.bounding_box()
    nb.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    if shift:
        nb.page.keyboard.down("Shift")
    nb.page.mouse.down()
    nb.page.mouse.up()
    if shift:
        nb.page.keyboard.up("Shift")


def wait_kappa(nb, n, value):
    nb.page.wait_for_function(
        "([n, v]) => { const e = document.querySelectorAll('.iaa-contingency')[n]"
        ".querySelector('tr[data-coef=\"cohen_kappa\"] .iaa-value');"
        " return e && Math.abs(Number(e.dataset.value) - v) < 1e-12; }",
        arg=[n, value], timeout=20_000)


def test_renders_heatmap_and_panel(nb):
    w = widget(nb, 0)
    # 4 inner counts, 5 marginal counts (2 rows, 2 columns, the total), 2 diagonal marks
    counts = w.locator("svg g.layer_3_marks text").all_text_contents()
    totals = w.locator("svg g.layer_4_marks text").all_text_contents()
    assert counts == ["2", "2", "1", "5"]
    assert sorted(totals, key=int) == ["3", "4", "6", "7", "10"]
    assert w.locator("svg g.layer_2_marks path").count() == 2
    # Meyer's tutorial, "Chance-corrected Measures: Example" (3 decimals as printed)
    assert shown_value(nb, 0, "percent_agreement").text_content() == "0.700"
    assert shown_value(nb, 0, "bennett_s").text_content() == "0.400"
    assert shown_value(nb, 0, "scott_pi").text_content() == "0.341"
    assert shown_value(nb, 0, "cohen_kappa").text_content() == "0.348"
    assert w.locator('tr[data-coef="krippendorff_alpha"] .iaa-value').count() == 1
    assert w.locator('tr[data-coef="percent_agreement"] .iaa-interval').text_content() \
        .startswith("[")
    # each interval says how it was made: the measure's own (result.ci), Wald for A_o,
    # asymptotic for κ; α, which has none, the jackknife over the table's items
    assert w.locator('tr[data-coef="percent_agreement"] .iaa-method').text_content() == \
        "wald"
    assert w.locator('tr[data-coef="cohen_kappa"] .iaa-method').text_content() == \
        "asymptotic"
    assert w.locator('tr[data-coef="krippendorff_alpha"] .iaa-method').text_content() == \
        "jackknife"
    # Gwet's AC1 (2008) on Meyer's table: p_e = 2·(7/20)(13/20), AC1 = 98/218 = 0.450
    assert shown_value(nb, 0, "gwet_ac1").text_content() == "0.450"
    # the benchmark band of κ and AC1 (Gwet 2014, ch. 6), as the kernel computed it
    for key in ("cohen_kappa", "gwet_ac1"):
        band = nb.python(f"next(r['band'] for r in w.coefficients if r['key'] == '{key}')")
        cell = w.locator(f'tr[data-coef="{key}"] .iaa-band')
        assert cell.get_attribute("data-band") == band["band"]
        # read as what it is: that band or a higher one, with that probability
        assert cell.text_content() == \
            f"at least {band['band']} (probability {band['probability']:.2f})"
        assert "membership probability" in cell.get_attribute("title")
    # a coefficient without a band says why, and the table says what the band is
    assert w.locator('tr[data-coef="percent_agreement"] .iaa-band').text_content() == \
        "not rated"
    assert "band (landis-koch)" in w.locator(".iaa-coefs thead").text_content()
    assert "at least 95% probability" in w.locator(".iaa-coefs caption").text_content()
    assert w.locator(".iaa-per-category tbody tr").count() == 2
    assert w.locator(".iaa-error").is_hidden()
    nb.screenshot("contingency_light.png", w, publish="contingency_light.png")


def test_edits_recompute_kappa_in_python_and_on_page(nb):
    # click: +1 on (low, low) → [[2, 2], [1, 6]]
    click_cell(nb, 0, 1, 1)
    expected = kappa_of([[2, 2], [1, 6]])
    wait_kappa(nb, 0, expected)
    assert nb.python("w.matrix") == [[2, 2], [1, 6]]
    assert nb.python("w.result['cohen_kappa'].value") == pytest.approx(expected, abs=1e-15)
    assert shown_value(nb, 0, "cohen_kappa").text_content() == f"{expected:.3f}"
    # shift-click: −1 on (high, low) → [[2, 1], [1, 6]]
    click_cell(nb, 0, 0, 1, shift=True)
    expected = kappa_of([[2, 1], [1, 6]])
    wait_kappa(nb, 0, expected)
    assert nb.python("w.matrix") == [[2, 1], [1, 6]]
    # typing a count into the selected cell → [[2, 9], [1, 6]]
    count = widget(nb, 0).locator("input.iaa-count")
    count.fill("9")
    count.press("Enter")
    expected = kappa_of([[2, 9], [1, 6]])
    wait_kappa(nb, 0, expected)
    assert nb.python("w.result['cohen_kappa'].value") == pytest.approx(expected, abs=1e-15)
    assert widget(nb, 0).locator("svg g.layer_3_marks text").all_text_contents() == \
        ["2", "9", "1", "6"]
    nb.screenshot("contingency_edited.png", widget(nb, 0))
    # from Python: the page follows
    nb.execute(f"w.matrix = {MEYER}")
    wait_kappa(nb, 0, kappa_of(MEYER))


def wait_value(nb, n, key, value):
    nb.page.wait_for_function(
        "([n, k, v]) => { const e = document.querySelectorAll('.iaa-contingency')[n]"
        ".querySelector(`tr[data-coef=\"${k}\"] .iaa-value`);"
        " return e && Math.abs(Number(e.dataset.value) - v) < 1e-12; }",
        arg=[n, key, value], timeout=20_000)


def test_a_click_changes_ac1_and_its_band_to_what_python_computes(nb):
    # Feinstein & Cicchetti (1990), first paradox, table B (80, 10 / 5, 5): then clicks
    # on the rare category's agreement cell raise both coefficients
    table = [[80, 10], [5, 5]]
    nb.execute(f"w.matrix = {table}")
    wait_value(nb, 0, "gwet_ac1", gwet_ac1(Annotations.from_contingency(table)).value)
    for _ in range(3):
        table[1][1] += 1
        click_cell(nb, 0, 1, 1)
        expected = gwet_ac1(Annotations.from_contingency(table)).value  # this process
        wait_value(nb, 0, "gwet_ac1", expected)
        wait_kappa(nb, 0, kappa_of(table))
    assert nb.python("w.matrix") == table
    assert nb.python("w.result['gwet_ac1'].value") == pytest.approx(expected, abs=1e-15)
    w = widget(nb, 0)
    assert shown_value(nb, 0, "gwet_ac1").text_content() == f"{expected:.3f}"
    for key in ("cohen_kappa", "gwet_ac1"):
        row = nb.python(f"next(r for r in w.coefficients if r['key'] == '{key}')")
        band = benchmark(row["value"], se=row["se"], scale="landis-koch")  # this process
        assert w.locator(f'tr[data-coef="{key}"] .iaa-band').get_attribute("data-band") == \
            band.band
    nb.screenshot("contingency_ac1_band.png", w)
    nb.execute(f"w.matrix = {MEYER}")
    wait_kappa(nb, 0, kappa_of(MEYER))


def test_updates_swap_rows_without_re_embedding(nb):
    # new counts travel as rows of the named dataset and go into the live Vega view:
    # the chart's <svg> stays the same element (a re-embed would replace it)
    nb.page.evaluate("() => { document.querySelectorAll('.iaa-contingency')[0]"
                     ".querySelector('.iaa-chart svg').dataset.kept = 'yes'; }")
    table = [[3, 2], [1, 5]]
    nb.execute(f"w.matrix = {table}")
    wait_kappa(nb, 0, kappa_of(table))
    w = widget(nb, 0)
    w.locator("svg g.layer_3_marks text").filter(has_text="3").wait_for(timeout=10_000)
    assert w.locator("svg g.layer_3_marks text").all_text_contents() == ["3", "2", "1", "5"]
    assert w.locator(".iaa-chart svg").get_attribute("data-kept") == "yes"
    nb.execute(f"w.matrix = {MEYER}")
    wait_kappa(nb, 0, kappa_of(MEYER))


def test_labels_are_text_never_html(nb):
    w = widget(nb, 1)
    assert nb.page.evaluate("() => window.__pwned") is None
    assert w.locator("img").count() == 0
    assert w.locator(".iaa-per-category tbody tr td").first.text_content() == XSS
    axis = w.locator("svg g.role-axis-label text").all_text_contents()
    assert any(t.startswith("<img src=x") for t in axis), axis
    # hovering the cell shows the label in the tooltip, as text
    handle = nb.page.evaluate_handle(CELL_RECT, [1, 0, 0]).as_element()
    handle.scroll_into_view_if_needed()
    box = handle.bounding_box()
    nb.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tip = w.locator(".iaa-tooltip")
    tip.wait_for(state="visible", timeout=5_000)
    assert XSS in tip.text_content()
    assert tip.locator("img").count() == 0
    nb.page.wait_for_timeout(300)
    assert nb.page.evaluate("() => window.__pwned") is None
    nb.screenshot("contingency_xss.png", w)


def test_pair_selector_switches_annotators(nb):
    w = widget(nb, 2)
    assert w.locator(".iaa-pair select").count() == 2
    from iaa_widgets.stats import pair_contingencies
    import pandas as pd
    df = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],
                       "annotator": ["ann", "bob", "cat"] * 4,
                       "label": ["a", "a", "b", "b", "b", "b", "a", "b", "a", "c", "c", "a"]})
    ann = Annotations.from_long(df)
    w.locator(".iaa-pair select").nth(1).select_option("2")  # ann × cat
    expected = cohen_kappa(ann.select_annotators(["ann", "cat"])).value
    wait_kappa(nb, 2, expected)
    assert nb.python("p.matrix") == pair_contingencies(ann, pairs=[[0, 2]])[0].tolist()
    assert "columns: cat" in w.locator(".iaa-caption").text_content()


def test_observer_error_is_shown_in_the_widget(nb):
    nb.execute("w.matrix = [[0, 0], [0, 0]]")
    banner = widget(nb, 0).locator(".iaa-error")
    banner.wait_for(state="visible", timeout=10_000)
    assert "holds no items" in banner.text_content()
    assert "holds no items" in nb.python("w.error")
    nb.screenshot("contingency_error.png", widget(nb, 0))
    nb.execute(f"w.matrix = {MEYER}")
    banner.wait_for(state="hidden", timeout=10_000)
    wait_kappa(nb, 0, kappa_of(MEYER))


def test_nothing_loaded_from_outside(nb):
    # the bundle carries vega, vega-lite and vega-embed: no CDN, so offline and Binder work
    from urllib.parse import urlsplit
    hosts = {urlsplit(u).hostname for u in nb.requests if urlsplit(u).scheme in ("http", "https")}
    assert hosts == {"127.0.0.1"}, hosts
    assert not [c for c in nb.console if c.startswith("pageerror")], nb.console


def test_dark_theme_is_legible(nb):
    before = int(widget(nb, 0).get_attribute("data-revision"))
    nb.set_theme("JupyterLab Dark")
    nb.page.wait_for_function(
        "(r) => Number(document.querySelector('.iaa-contingency').dataset.revision) > r",
        arg=before, timeout=20_000)
    colours = nb.page.evaluate("""() => {
      const root = document.querySelector('.iaa-contingency');
      let node = root, bg = 'rgba(0, 0, 0, 0)';
      while (node && /rgba\\(0, 0, 0, 0\\)|transparent/.test(bg)) {
        bg = getComputedStyle(node).backgroundColor; node = node.parentElement; }
      const axis = root.querySelector('svg g.role-axis-label text');
      const total = root.querySelector('svg g.layer_4_marks text');
      const th = root.querySelector('.iaa-coefs tbody th');
      return { bg, text: getComputedStyle(root).color, th: getComputedStyle(th).color,
               axis: getComputedStyle(axis).fill, total: getComputedStyle(total).fill };
    }""")
    assert luminance(colours["bg"]) < 0.1, colours  # the page really is dark
    for key in ("text", "th", "axis", "total"):
        assert contrast(colours[key], colours["bg"]) >= 4.5, (key, colours)
    nb.screenshot("contingency_dark.png", widget(nb, 0), publish="contingency_dark.png")
    nb.set_theme("JupyterLab Light")


# ------------------------------------------------------------------ issue 16: finish
def test_count_text_contrasts_with_its_own_cell(nb):
    # counts close together (45/44/43/45): the colour scale spreads them from light to
    # dark, and each count's colour is picked from its own cell's fill (WCAG contrast)
    nb.execute("w.matrix = [[45, 44], [43, 45]]")
    nb.page.wait_for_function("() => [...document.querySelectorAll('.iaa-contingency')[0]"
                              ".querySelectorAll('svg g.layer_3_marks text')].map(t => t.textContent)"
                              ".join() === '45,44,43,45'", timeout=20_000)
    pairs = nb.page.evaluate("""() => {
      const root = document.querySelectorAll('.iaa-contingency')[0];
      const rects = [...root.querySelectorAll('svg g.layer_0_marks path')];
      const texts = [...root.querySelectorAll('svg g.layer_3_marks text')];
      return rects.map((r, k) => [getComputedStyle(r).fill, getComputedStyle(texts[k]).fill]);
    }""")
    assert len(pairs) == 4
    fills = {fill for fill, _ in pairs}
    assert len(fills) >= 3, pairs  # the cells really differ in fill
    for fill, text in pairs:
        # black or white, whichever is stronger, reaches at least 4.58:1 on any fill
        assert contrast(text, fill) >= 4.5, (fill, text)
    nb.screenshot("contingency_close_counts.png", widget(nb, 0))
    nb.execute(f"w.matrix = {MEYER}")
    wait_kappa(nb, 0, kappa_of(MEYER))


def test_column_labels_are_horizontal(nb):
    w = widget(nb, 3)
    labels = w.locator("svg g.role-axis-label text")
    texts = labels.all_text_contents()
    assert {"+", "−"} <= set(texts), texts  # "Σ" is also a margin: told apart by the chart
    transforms = [t.get_attribute("transform") or "" for t in labels.all()]
    assert not any("rotate" in t for t in transforms), transforms
    nb.screenshot("contingency_horizontal_labels.png", w)


def test_pair_selector_cannot_pick_one_annotator_twice(nb):
    w = widget(nb, 2)
    a, b = nb.python("p.pair")  # ann × cat after test_pair_selector_switches_annotators
    free = ({0, 1, 2} - {a, b}).pop()
    first, second = w.locator(".iaa-pair select").nth(0), w.locator(".iaa-pair select").nth(1)
    # the other slot's annotator is disabled in each select
    assert first.locator(f'option[value="{b}"]').is_disabled()
    assert second.locator(f'option[value="{a}"]').is_disabled()
    assert not second.locator(f'option[value="{free}"]').is_disabled()
    assert not first.locator(f'option[value="{a}"]').is_disabled()
    assert first.get_attribute("aria-label") and second.get_attribute("aria-label")
    assert w.locator(".iaa-error").is_hidden()


def test_left_out_items_are_shown(nb):
    w = widget(nb, 3)
    # computed here with pandas: items without a label from ann, from bob, or from both
    import pandas as pd
    gaps = pd.DataFrame(GAPS)
    by = gaps.groupby("item")["annotator"].agg(set)
    expected = [(str(i), "labelled by neither" if not ({"ann", "bob"} & s) else
                 "no label from bob" if "bob" not in s else "no label from ann")
                for i, s in by.items() if not {"ann", "bob"} <= s]
    assert expected == [("2", "no label from bob"), ("4", "no label from ann"),
                        ("5", "labelled by neither")]
    box = w.locator(".iaa-left-out")
    assert box.locator("summary").text_content().startswith("3 items left out for this pair")
    box.locator("summary").click()
    rows = [tuple(r.locator("td").all_text_contents())
            for r in box.locator("tbody tr").all()]
    assert rows == expected
    assert nb.python("g.left_out['total']") == 3
    nb.screenshot("contingency_left_out.png", w)
    # ann × cat: item 4 (bob's alone) and item 5 (cat's alone) are left out
    w.locator(".iaa-pair select").nth(1).select_option("2")
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.iaa-contingency')[3].querySelector('.iaa-left-out "
        "summary')?.textContent.startsWith('2 items left out')", timeout=20_000)


def test_keyboard_edits_the_matrix(nb):
    w = widget(nb, 3)
    nb.execute("g.pair = [0, 1]")
    start = nb.python("g.matrix")
    table = w.locator(".iaa-chart-wrap")
    assert table.get_attribute("tabindex") == "0"
    table.focus()
    # focus starts at (0, 0): right, down → (1, 1); + twice, − once → +1 on (1, 1)
    for key in ("ArrowRight", "ArrowDown", "+", "+", "-"):
        table.press(key)
    start[1][1] += 1
    deadline = 40
    while nb.python("g.matrix") != start and deadline:
        nb.page.wait_for_timeout(250)
        deadline -= 1
    assert nb.python("g.matrix") == start
    # Enter adds, Shift+Enter removes, on the focus cell moved left to (1, 0)
    table.press("ArrowLeft")
    table.press("Enter")
    table.press("Enter")
    table.press("Shift+Enter")
    start[1][0] += 1
    deadline = 40
    while nb.python("g.matrix") != start and deadline:
        nb.page.wait_for_timeout(250)
        deadline -= 1
    assert nb.python("g.matrix") == start
    frame = w.locator(".iaa-focus-cell")
    assert frame.is_visible()
    nb.screenshot("contingency_keyboard.png", w)


# ------------------------------------------------------------------ issue 35
# the text boxes of the counts (inner cells and margins) of the n-th widget
COUNT_BOXES = """(n) => [...document.querySelectorAll('.iaa-contingency')[n]
  .querySelectorAll('svg g.layer_3_marks text, svg g.layer_4_marks text')].map((t) => {
    const b = t.getBoundingClientRect();
    return { text: t.textContent, x: b.x, y: b.y, w: b.width }; })"""
CELL_WIDTH = """(n) => document.querySelectorAll('.iaa-contingency')[n]
  .querySelector('svg g.layer_0_marks path').getBoundingClientRect().width"""


def test_counts_of_1e5_items_do_not_run_together(nb):
    table = [[61234, 9876], [8765, 20125]]  # 100 000 items: a 6-digit Σ
    nb.execute(f"w.matrix = {table}")
    wait_kappa(nb, 0, kappa_of(table))
    nb.page.wait_for_function("() => [...document.querySelectorAll('.iaa-contingency')[0]"
                              ".querySelectorAll('svg g.layer_4_marks text')]"
                              ".some((t) => t.textContent === '100000')", timeout=20_000)
    boxes = nb.page.evaluate(COUNT_BOXES, 0)
    margins = [sum(r) for r in table] + [sum(c) for c in zip(*table)] + [100000]
    assert sorted(b["text"] for b in boxes) == sorted(map(str, sum(table, []) + margins))
    cell = nb.page.evaluate(CELL_WIDTH, 0)
    assert max(b["w"] for b in boxes) <= cell - 4, (cell, boxes)  # each count fits its cell
    rows: dict[int, list] = {}
    for b in boxes:
        rows.setdefault(round(b["y"]), []).append(b)
    for row in rows.values():  # neighbours in a row keep a gap
        row.sort(key=lambda b: b["x"])
        for left, right in zip(row, row[1:]):
            assert left["x"] + left["w"] + 4 <= right["x"], (left, right)
    nb.screenshot("contingency_1e5_counts.png", widget(nb, 0))
    nb.execute(f"w.matrix = {MEYER}")
    wait_kappa(nb, 0, kappa_of(MEYER))


def poll_python(nb, expression, value, tries=80):
    """Wait until the kernel's ``expression`` equals ``value`` (the page draws a pair's
    caption at once, Python answers a moment later)."""
    while nb.python(expression) != value and tries:
        nb.page.wait_for_timeout(250)
        tries -= 1
    assert nb.python(expression) == value


def test_edits_survive_a_pair_switch(nb):
    w = widget(nb, 3)
    nb.execute("g.pair = [0, 1]")
    nb.page.wait_for_function("() => document.querySelectorAll('.iaa-contingency')[3]"
                              ".querySelector('.iaa-caption').textContent.includes('columns: bob')",
                              timeout=20_000)
    edited = nb.python("g.matrix")
    edited[0][0] += 1
    click_cell(nb, 3, 0, 0)  # +1 on (+, +)
    count = w.locator("input.iaa-count")
    nb.page.wait_for_function("() => document.querySelectorAll('.iaa-contingency')[3]"
                              f".querySelector('input.iaa-count').value === '{edited[0][0]}'",
                              timeout=20_000)
    poll_python(nb, "g.matrix", edited)
    second = w.locator(".iaa-pair select").nth(1)
    second.select_option("2")  # ann × cat: that pair's own table
    from iaa_widgets.stats import pair_contingencies
    import pandas as pd
    ann = Annotations.from_long(pd.DataFrame(GAPS))
    nb.page.wait_for_function("() => document.querySelectorAll('.iaa-contingency')[3]"
                              ".querySelector('.iaa-caption').textContent.includes('columns: cat')",
                              timeout=20_000)
    poll_python(nb, "g.matrix", pair_contingencies(ann, pairs=[[0, 2]])[0].tolist())
    assert count.input_value() == "" and count.is_disabled()  # no stale count
    second.select_option("1")  # back to ann × bob: the edit comes back with the pair
    nb.page.wait_for_function("() => document.querySelectorAll('.iaa-contingency')[3]"
                              ".querySelector('.iaa-caption').textContent.includes('columns: bob')",
                              timeout=20_000)
    poll_python(nb, "g.matrix", edited)
    assert edited != pair_contingencies(ann, pairs=[[0, 1]])[0].tolist()
    # the panel too (κ is NaN on this one-category table: A_o, from percent_agreement)
    from iaa_widgets import percent_agreement
    wait_value(nb, 3, "percent_agreement",
               percent_agreement(Annotations.from_contingency(edited)).value)
    nb.screenshot("contingency_edit_kept.png", w)
