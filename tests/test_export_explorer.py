"""ProjectExplorer's static page, the Python side (issue 42; iaa_widgets/widgets/
explorer_export.py): the embedded list of each selection is the live widget's selection
for that query; each download the page joins from the embedded records equals the
widget's own ``export_csv`` / ``export_adjudication`` (text with commas, quotes, line
breaks and formula-like cells; a reference; a model's consensus; a saved sort); the
labels panel of each one-annotator selection is the widget's; within a budget the page
keeps the clicks' selections over the lowest-agreement items and names what it leaves
out. The page itself is driven in Chromium by tests/browser/test_explorer_static.py."""
from __future__ import annotations

import csv
import io
import json
import re

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.html import script_json
from iaa_widgets.widgets.explorer_export import explorer_data, groups, query_key, records
from iaa_widgets.widgets.export import _page, empty_states, widget_state

STATES = re.compile(r'<script type="application/json" id="iaa-states">(.*?)</script>', re.S)


def _hostile() -> pd.DataFrame:
    """Three annotators, labels and texts a CSV writer must quote or a spreadsheet would
    run (commas, quotes, CR LF inside a field, a leading =)."""
    rng = np.random.default_rng(3)
    labels = np.array(["a,b", 'say "no"', "=SUM(1)", "plain"], dtype=object)
    texts = ['one, two', 'a "quote"', "line\r\nbreak", "=1+1", "-minus", "", "ok"]
    rows = [(f"i{i:03d}", who, labels[rng.integers(4)], texts[i % len(texts)])
            for i in range(60) for who in ("x", "y", "z")]
    return pd.DataFrame(rows, columns=["item", "annotator", "label", "text"])


def _sheet(data, kind, annotators, rows) -> str:
    """A download as the page joins it (js/src/explorer_static.js: sheet)."""
    s = data[kind]
    cons = data["others"][annotators[0]] if len(annotators) == 1 else data["consensus"]
    lines = [s["header"]] + [f"{s['rows'][i]},{s['labels'][cons[i]] if cons[i] >= 0 else ''}"
                             f"{s['tail']}" for i in rows]
    return "".join(line + "\r\n" for line in lines)


def _check_every_selection(w) -> None:
    data, dropped = explorer_data(w, 10**9)
    assert dropped == [] and data["n_items"] == data["n_listed"]
    n_a, n_k = len(w.annotator_names), len(w.label_names)
    for _, queries in groups(n_a, n_k):
        for a, k in queries:
            at, total = data["queries"][query_key(a, k)]
            rows = data["lists"][at]
            w.query = {"annotators": list(a), "labels": list(k)}
            want = [str(v) for v in w.selection["item"].astype(object)]  # (as items_page)
            assert [data["item"][i] for i in rows] == want and total == len(want), (a, k)
            assert _sheet(data, "csv", a, rows) == w.export_csv(), (a, k)
            assert _sheet(data, "adjudication", a, rows) == w.export_adjudication(), (a, k)
    w.query = {}


@pytest.fixture(scope="module")
def reviews():
    w = iaa.ProjectExplorer(iaa.datasets.product_reviews(n_items=150), text="text",
                            n_resamples=2, seed=0)
    w.wait(120)
    yield w
    w.close()


def test_records_split_where_csv_ends_a_record():
    # Python's csv module (an independent reader) parses each record as one row
    frame = _hostile()
    text = frame.to_csv(index=False, lineterminator="\r\n")
    got = records(text)
    assert len(got) == len(frame) + 1
    assert [next(csv.reader(io.StringIO(r + "\r\n"))) for r in got] == list(
        csv.reader(io.StringIO(text)))


def test_every_selection_and_download_is_the_widgets(reviews):
    _check_every_selection(reviews)


def test_hostile_text_and_labels_download_as_python_writes_them():
    df = _hostile()
    w = iaa.ProjectExplorer(df, text="text", n_resamples=2)
    try:
        _check_every_selection(w)
    finally:
        w.close()


def test_a_reference_a_model_consensus_and_a_saved_sort():
    df = iaa.datasets.product_reviews(n_items=80)
    gold = df[df["annotator"] == "ana"].assign(annotator="gold")
    w = iaa.ProjectExplorer(pd.concat([df, gold]), text="text", reference="gold",
                            consensus="dawid_skene", n_resamples=2)
    try:
        w.sort_by, w.sort_descending = "item", True
        _check_every_selection(w)
        data, _ = explorer_data(w, 10**9)
        assert data["reference"] is not None
        rows = data["lists"][data["queries"][query_key((), ())][0]]
        assert [data["item"][i] for i in rows] == sorted(
            (data["item"][i] for i in rows), reverse=True)  # the saved sort: item, descending
    finally:
        w.close()


def test_labels_panels_are_the_widgets(reviews):
    w = reviews
    data, _ = explorer_data(w, 10**9)
    for a in range(len(w.annotator_names)):
        w.query = {"annotators": [a], "labels": []}
        assert data["panels"]["annotators"][a] == w.labels_panel
    w.query = {"annotators": [0, 1], "labels": []}
    assert data["panels"]["pooled"] == w.labels_panel
    w.query = {}


def test_the_page_carries_the_data_and_the_widget_is_unchanged(reviews):
    w = reviews
    w.query = {"annotators": [1], "labels": []}
    before = widget_state(w)
    page = w.to_html()
    assert widget_state(w) == before
    live = json.loads(STATES.search(page).group(1))
    assert live["data"]["kind"] == "explorer" and live["dropped"] == []
    assert [c["label"] for c in live["data"]["controls"]] == [g[0] for g in groups(5, 4)]
    w.query = {}


def test_within_a_budget_the_clicks_keep_the_lowest_agreement_items(reviews):
    w = reviews
    full, _ = explorer_data(w, 10**9)
    budget = len(script_json(full).encode()) // 3
    data, dropped = explorer_data(w, budget)
    assert len(script_json(data).encode()) <= budget
    n = data["n_items"]
    assert 0 < n < full["n_listed"]
    # first the label filter over a pair, then the items of highest agreement
    assert [d["controls"] for d in dropped] == ["the label filter with a pair of annotators",
                                                "items"]
    assert f"the page keeps the {n:,} lowest first" in dropped[1]["text"]
    assert data["item"] == full["item"][:n]  # the table's first rows: lowest agreement first
    assert data["agreement"] == sorted(data["agreement"])
    for key, (at, total) in data["queries"].items():  # each list: its items among them
        whole = full["lists"][full["queries"][key][0]]
        assert data["lists"][at] == [i for i in whole if i < n] and total == len(whole)
    assert data["csv"]["rows"] == full["csv"]["rows"][:n]


def test_a_budget_too_small_for_any_list_names_every_group(reviews):
    data, dropped = explorer_data(reviews, 100)
    assert data is None
    assert [d["controls"] for d in dropped] == [g[0] for g in groups(5, 4)]


def test_a_page_at_zero_items_keeps_the_lists_empty(reviews):
    w = reviews
    full, _ = explorer_data(w, 10**9)
    empty = {**full, "lists": [[]], "n_items": 0}  # the frame without a row
    for key in ("item", "text", "agreement", "n_ratings", "consensus"):
        empty[key] = []
    for key in ("grid", "others"):
        empty[key] = [[] for _ in full[key]]
    for kind in ("csv", "adjudication"):
        empty[kind] = {**full[kind], "rows": []}
    clicks = {query_key(a, k) for _, g in groups(5, 4)[:4] for a, k in g}
    empty["queries"] = {k: [0, t] for k, (_, t) in full["queries"].items() if k in clicks}
    empty["controls"] = full["controls"][:4]
    budget = len(script_json(empty).encode()) + 10
    data, dropped = explorer_data(w, budget)
    assert data is not None and data["n_items"] == 0 and data["lists"] == [[]]
    assert "items" in [d["controls"] for d in dropped]


def test_a_page_stays_within_a_budget_that_cuts_its_items(reviews):
    frame = len(_page(reviews, None, empty_states(0)).encode("utf-8"))  # no data, no state
    budget = frame + 40_000
    page = reviews.to_html(budget=budget)
    assert len(page.encode("utf-8")) <= budget
    live = json.loads(STATES.search(page).group(1))
    assert 0 < live["data"]["n_items"] < live["data"]["n_listed"]


def test_integer_items_and_labels_with_missing_ratings():
    # numbers as ids and labels (pandas writes 2, not 2.0, beside a missing rating)
    rng = np.random.default_rng(11)
    rows = [(i, who, int(rng.integers(1, 5))) for i in range(50) for who in ("p", "q", "r", "s")
            if rng.random() > 0.2]
    w = iaa.ProjectExplorer(pd.DataFrame(rows, columns=["item", "annotator", "label"]),
                            n_resamples=2)
    try:
        _check_every_selection(w)
    finally:
        w.close()


def test_an_integer_label_beside_a_missing_rating_stays_an_integer():
    # write_adjudication's Notes: "integer labels stay integers" (the page joins the
    # records it writes; Series.map had made b's 2 a 2.0 beside a's missing rating)
    df = pd.DataFrame({"item": [1, 1, 2, 2, 2, 3, 3], "annotator": ["b", "c", "a", "b", "c",
                                                                   "a", "c"],
                       "label": [2, 3, 1, 2, 2, 4, 1]})
    sheet = iaa.write_adjudication(iaa.disagreements(df))
    assert sheet.splitlines() == ["item,b,c,a,consensus,adjudicated", "1,2,3,,,", "3,,1,4,,",
                                  "2,2,2,1,2,"]


def test_date_time_items_some_at_midnight():
    # pandas writes a date-time column all at midnight as dates: a selection's CSV would
    # differ from the page's records; both write each date-time whole (str(Timestamp))
    days = [pd.Timestamp("2024-03-01"), pd.Timestamp("2024-03-02 10:00"),
            pd.Timestamp("2024-03-05"), pd.Timestamp("2024-03-06")]
    rows = [(d, who, label) for d, labels in zip(days, ("xy", "xy", "xx", "yx"))
            for who, label in zip("ab", labels)] + [(days[2], "c", "y"), (days[3], "c", "y")]
    w = iaa.ProjectExplorer(pd.DataFrame(rows, columns=["item", "annotator", "label"]),
                            n_resamples=2)
    try:
        _check_every_selection(w)
        w.query = {"annotators": [0, 2], "labels": []}  # items at midnight only
        assert w.export_csv().splitlines()[1].startswith("2024-03-05 00:00:00,")
        w.query = {}
    finally:
        w.close()
