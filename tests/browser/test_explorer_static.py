"""ProjectExplorer's static page (issue 42), opened from file:// in headless Chromium with
the network off (the ``offline`` fixture), no kernel. On notebook 08's project
(``iaa.datasets.product_reviews``: five annotators, four labels, a text per item): for
every annotator, every label, pairs of the matrix, every pooled confusion cell, an
annotator's confusion cells and the filters, the page lists the same item ids in the same
order as the live widget's ``selection`` for the same query (Python, in this process);
paging and the page-size control work; the downloaded CSV and adjudication sheet equal
``export_csv()`` and ``export_adjudication()``. At 1e5 items the page stays within its
5 MB budget (the file's size) and names what it leaves out, and a selection it left out
is refused with a notice."""
from __future__ import annotations

import json
import re

import pandas as pd
import pytest

import iaa_widgets as iaa

ITEMS = ".iaa-explorer-items tbody tr > th"
STATES = re.compile(r'<script type="application/json" id="iaa-states">(.*?)</script>', re.S)


@pytest.fixture(scope="module")
def explorer():
    w = iaa.ProjectExplorer(iaa.datasets.product_reviews(), text="text", n_resamples=20,
                            seed=0, page_size=10)
    w.wait(120)
    yield w
    w.close()


@pytest.fixture(scope="module")
def static(explorer, offline, tmp_path_factory):
    path = tmp_path_factory.mktemp("explorer_static") / "explorer.html"
    explorer.to_html(path)
    page, log = offline(path)
    page.wait_for_selector(".iaa-explorer .iaa-pair-matrix .iaa-cell", timeout=30_000)
    return page, log


def _act(page, action) -> None:
    """Do ``action`` (a click in the explorer) and wait for its items table to redraw."""
    before = page.eval_on_selector(".iaa-explorer", "(e) => Number(e.dataset.revision)")
    action()
    page.wait_for_function("(r) => Number(document.querySelector('.iaa-explorer')"
                           ".dataset.revision) > r", arg=before, timeout=10_000)


def _listed(page) -> list[str]:
    return page.eval_on_selector_all(ITEMS, "(els) => els.map((e) => e.textContent)")


def _python(w, annotators=(), labels=()) -> list[str]:
    """The live widget's selection for the query (codes), as the page shows its ids."""
    w.query = {"annotators": list(annotators), "labels": list(labels)}
    return w.selection["item"].astype(str).tolist()


def _click(page, selector) -> None:
    _act(page, lambda: page.click(selector))


def _show_all(page) -> None:
    """"show all disagreements" (disabled while it is the selection)."""
    if page.is_enabled(".iaa-clear"):
        _click(page, ".iaa-clear")


def _all_on_one_page(page) -> None:
    if page.eval_on_selector(".iaa-page-size", "(e) => e.value") != "1000":
        _act(page, lambda: page.select_option(".iaa-page-size", "1000"))


def test_every_click_lists_the_live_widgets_items(static, explorer):
    page, log = static
    w = explorer
    _all_on_one_page(page)
    n_a, n_k = len(w.annotator_names), len(w.label_names)
    _show_all(page)
    assert _listed(page) == _python(w)
    for a in range(n_a):  # each annotator: their items off the consensus of the others
        _click(page, f'.iaa-annotators button[data-focus-key="annotator:{a}"]')
        assert _listed(page) == _python(w, [a]), w.annotator_names[a]
        # their confusion cells (off the diagonal: the diagonal is not a list)
        for r, c in ((0, 1), (1, 0), (2, 3), (3, 2)):
            cell = f'.iaa-confusion button.iaa-cell[data-r="{r}"][data-c="{c}"]'
            if page.get_attribute(cell, "data-n") == "0":
                continue
            _click(page, cell)
            assert _listed(page) == _python(w, [a], [r, c]), (a, r, c)
            _click(page, f'.iaa-annotators button[data-focus-key="annotator:{a}"]')
    for a, b in ((0, 1), (1, 0), (2, 4), (3, 1)):  # matrix cells (both orders)
        _click(page, f'.iaa-pair-matrix button[data-a="{a}"][data-b="{b}"]')
        assert _listed(page) == _python(w, [a, b]), (a, b)
        # the label filter over the pair
        _act(page, lambda: page.select_option(".iaa-filter-label", "2"))
        assert _listed(page) == _python(w, [a, b], [2]), (a, b, 2)
    _show_all(page)
    for k in range(n_k):  # each label
        _click(page, f'.iaa-confusion button[data-focus-key="label:{k}"]')
        assert _listed(page) == _python(w, [], [k]), w.label_names[k]
    for r in range(n_k):  # every pooled confusion cell
        for c in range(n_k):
            cell = f'.iaa-confusion button.iaa-cell[data-r="{r}"][data-c="{c}"]'
            if page.get_attribute(cell, "data-n") == "0":
                continue
            _click(page, cell)
            assert _listed(page) == _python(w, [], [r] if r == c else [r, c]), (r, c)
    # the filters: an annotator, then a label with them
    _act(page, lambda: page.select_option(".iaa-filter-annotator", "3"))
    _act(page, lambda: page.select_option(".iaa-filter-label", "1"))
    assert _listed(page) == _python(w, [3], [1])
    assert not log["requests"] and not log["errors"], log


def test_the_items_table_columns_and_cells_are_the_widgets(static, explorer):
    # one annotator clicked: their column first, the consensus of the others; the cells
    # of the live widget's first page (items_page, sent by Python) at the same page size
    page, _ = static
    w = explorer
    _all_on_one_page(page)
    _click(page, '.iaa-annotators button[data-focus-key="annotator:3"]')
    w.query = {"annotators": [3], "labels": []}
    w.page_size = 1000
    try:
        t = w.items_page
        heads = page.eval_on_selector_all(".iaa-explorer-items thead th",
                                          "(els) => els.map((e) => e.textContent)")
        assert [h.rstrip(" ▲▼") for h in heads] == [
            {"agreement": "pairs agreeing", "n_ratings": "ratings"}.get(c, c)
            for c in t["columns"]]
        cells = page.eval_on_selector_all(
            ".iaa-explorer-items tbody tr",
            "(rows) => rows.map((r) => [...r.children].map((c) => c.textContent))")
        assert len(cells) == t["total"]
        def cell(column, value):  # as explorer.js shows Python's cell
            if column == "agreement":
                return f"{value:.2f}"
            if column == "n_ratings":
                return f"{value:,}"
            if column == "consensus":
                return value or "tie"  # (the majority: a blank is a tie)
            return value or "—" if column in w.annotator_names else value

        assert [[cell(c, v) for c, v in zip(t["columns"], row)] for row in t["rows"]] == cells
        # the labels panel: their labels against the consensus of the others, Python's counts
        counts = w.labels_panel["counts"]
        shown = page.eval_on_selector_all(".iaa-confusion button.iaa-cell", "(bs) => bs.map("
                                          "(b) => [+b.dataset.r, +b.dataset.c, +b.dataset.n])")
        assert len(shown) == len(counts) * (len(counts) - 1)  # (the diagonal: no button)
        assert all(counts[r][c] == n for r, c, n in shown)
    finally:
        w.page_size = 10


def test_paging_and_page_size(static, explorer):
    page, _ = static
    w = explorer
    _show_all(page)
    _act(page, lambda: page.select_option(".iaa-page-size", "10"))
    want = _python(w)
    assert _listed(page) == want[:10]
    assert page.inner_text(".iaa-page-of") == f"page 1 of {-(-len(want) // 10)}"
    _click(page, ".iaa-page-next")
    _click(page, ".iaa-page-next")
    assert _listed(page) == want[20:30]
    _click(page, ".iaa-page-prev")
    assert _listed(page) == want[10:20]
    _act(page, lambda: page.select_option(".iaa-page-size", "25"))  # back to the first page
    assert _listed(page) == want[:25]
    # a click starts its list on the first page
    _click(page, ".iaa-page-next")
    _click(page, '.iaa-annotators button[data-focus-key="annotator:1"]')
    assert _listed(page) == _python(w, [1])[:25]


@pytest.mark.parametrize("query", [((), ()), ((3,), ()), ((0, 2), ()), ((), (1, 3)),
                                   ((3,), (2, 0))])
def test_downloads_equal_pythons_export(static, explorer, query):
    page, _ = static
    w = explorer
    annotators, labels = query
    clicks = {((), ()): None,
              ((3,), ()): '.iaa-annotators button[data-focus-key="annotator:3"]',
              ((0, 2), ()): '.iaa-pair-matrix button[data-a="0"][data-b="2"]',
              ((), (1, 3)): '.iaa-confusion button.iaa-cell[data-r="1"][data-c="3"]'}
    if query == ((3,), (2, 0)):
        _click(page, clicks[((3,), ())])
        _click(page, '.iaa-confusion button.iaa-cell[data-r="2"][data-c="0"]')
    else:
        _show_all(page)  # (the pooled confusion)
        if clicks[query]:
            _click(page, clicks[query])
    w.query = {"annotators": list(annotators), "labels": list(labels)}
    for kind, expected in (("csv", w.export_csv()), ("adjudication", w.export_adjudication())):
        with page.expect_download(timeout=30_000) as info:
            page.click(f".iaa-export-{kind}")
        got = open(info.value.path(), encoding="utf-8", newline="").read()
        assert got == expected, (query, kind)


def test_banner_names_what_works_and_what_is_disabled(static):
    page, _ = static
    live = page.inner_text(".iaa-static-live")
    for group in ("show all, each annotator, each label", "pairs of annotators (matrix cells)",
                  "pairs of labels (confusion cells)", "an annotator's confusion cells",
                  "the label filter with a pair of annotators"):
        assert group in live
    disabled = page.inner_text(".iaa-static-disabled")
    for name in ("measure", "pairs", "consensus", "go to item", "sort the items by item"):
        assert name in disabled
    assert page.locator(".iaa-static-dropped-text").is_hidden()
    assert page.is_enabled(".iaa-export-csv") and page.is_enabled(".iaa-page-size")


def test_a_page_of_1e5_items_stays_within_its_budget(offline, tmp_path):
    w = iaa.ProjectExplorer(iaa.datasets.product_reviews(n_items=100_000), text="text",
                            n_resamples=2, page_size=25)
    try:
        w.wait(300)
        path = tmp_path / "explorer_1e5.html"
        w.to_html(path)
        size = path.stat().st_size
        assert size <= 5_000_000, size
        data = json.loads(STATES.search(path.read_text(encoding="utf-8")).group(1))["data"]
        kept = set(data["item"])
        page, log = offline(path)
        page.wait_for_selector(".iaa-explorer .iaa-pair-matrix .iaa-cell", timeout=60_000)
        dropped = page.inner_text(".iaa-static-dropped")
        assert "the label filter with a pair of annotators" in dropped
        assert f"the page keeps the {data['n_items']:,} lowest first" in dropped
        _act(page, lambda: page.select_option(".iaa-page-size", "1000"))
        # a click lists the selection's items that the page holds, in the widget's order
        _click(page, '.iaa-annotators button[data-focus-key="annotator:3"]')
        want = [i for i in _python(w, [3]) if i in kept]
        assert _listed(page) == want[:1000]
        assert "this page holds" in page.inner_text(".iaa-explorer .iaa-notice")
        # a selection left out: refused with a notice, the list stays
        _click(page, '.iaa-pair-matrix button[data-a="0"][data-b="1"]')
        before = _listed(page)
        _act(page, lambda: page.select_option(".iaa-filter-label", "1"))
        assert _listed(page) == before
        assert "not saved with the page" in page.inner_text(".iaa-explorer .iaa-notice")
        assert not log["requests"] and not log["errors"], log
    finally:
        w.close()


def test_at_zero_items_the_downloads_are_disabled(explorer, offline, tmp_path):
    # a budget that holds the clicks' selections but no item: every list is empty, the
    # page says how many items each selection has, and the downloads are disabled
    from iaa_widgets.widgets.explorer_export import explorer_data
    from iaa_widgets.widgets.export import _RESERVE, _page, _size, empty_states

    low, high = 0, 10**7  # the data's bytes at which it holds no item (bisection)
    while high - low > 1:
        mid = (low + high) // 2
        data, _ = explorer_data(explorer, mid)
        low, high = (mid, high) if data is None or data["n_items"] == 0 else (low, mid)
    assert explorer_data(explorer, low)[0]["n_items"] == 0
    frame = len(_page(explorer, None, empty_states(0)).encode("utf-8"))
    budget = frame + _size(empty_states(10**7)) + _RESERVE + low
    path = tmp_path / "explorer_0.html"
    explorer.to_html(path, budget=budget)
    assert path.stat().st_size <= budget
    page, log = offline(path)
    page.wait_for_selector(".iaa-explorer .iaa-pair-matrix .iaa-cell", timeout=30_000)
    _click(page, '.iaa-annotators button[data-focus-key="annotator:2"]')
    assert _listed(page) == []
    n = len(_python(explorer, [2]))
    assert f"this page holds 0 of these {n:,} items" in page.inner_text(
        ".iaa-explorer .iaa-notice")
    assert page.is_disabled(".iaa-export-csv") and page.is_disabled(".iaa-export-adjudication")
    assert "items" in page.inner_text(".iaa-static-dropped")
    assert not log["requests"] and not log["errors"], log


def test_labels_and_texts_from_the_data_stay_text(offline, tmp_path):
    # hostile labels, annotator names and texts, embedded and shown by the page's script:
    # text nodes, never HTML; the download equals Python's
    xss = "<img src=x onerror=window.__pwned=1>"
    rows = [(f"i{i}", who, (xss, "ok", "=SUM(1)")[(i + j * (i % 2)) % 3], f"{xss}, \"{i}\"")
            for i in range(30) for j, who in enumerate(("x", xss, "z"))]
    w = iaa.ProjectExplorer(pd.DataFrame(rows, columns=["item", "annotator", "label", "text"]),
                            text="text", n_resamples=2)
    try:
        path = tmp_path / "explorer_hostile.html"
        w.to_html(path)
        page, log = offline(path)
        page.wait_for_selector(".iaa-explorer .iaa-pair-matrix .iaa-cell", timeout=30_000)
        _click(page, '.iaa-pair-matrix button[data-a="1"][data-b="2"]')
        assert _listed(page) == _python(w, [1, 2]) and len(_listed(page)) == 15
        assert page.get_by_text(xss, exact=True).count() >= 1
        with page.expect_download(timeout=30_000) as info:
            page.click(".iaa-export-adjudication")
        got = open(info.value.path(), encoding="utf-8", newline="").read()
        assert got == w.export_adjudication()
        assert page.evaluate("() => window.__pwned") is None and page.locator("img").count() == 0
        assert not log["requests"] and not log["errors"], log
    finally:
        w.close()
