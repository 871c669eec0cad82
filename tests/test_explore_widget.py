"""ProjectExplorer's Python side (iaa_widgets/widgets/explorer.py): each kind of click
(a ``query``) gives the items pandas finds, a page never holds more than ``page_size``
rows, the panels hold the API's numbers, the exports round-trip, bad queries are shown.

Expected items are computed here with pandas from the tidy rows (see
tests/test_explore.py for the same rules against the API)."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from test_explore import expected_items, project
from iaa_widgets.explore import Project
from iaa_widgets.widgets.span_explorer import SpanExplorer

XSS = '<img src=x onerror="window.__pwned=1">'


@pytest.fixture(scope="module")
def df():
    out = project(seed=5, n_items=80)
    out.loc[out["label"] == "mixed", "label"] = XSS  # a label that must stay text
    return out


@pytest.fixture(scope="module")
def raters(df):
    """The ratings without "ann", the widget's reference: a yardstick, not a rater."""
    return df[df["annotator"] != "ann"]


@pytest.fixture(scope="module")
def w(df):
    texts = {item: f"text of {item}" for item in df["item"].unique()}
    widget = iaa.ProjectExplorer(df, text=texts, reference="ann", n_resamples=50, seed=1,
                                 page_size=10)
    widget.wait(120)
    return widget


def codes(w, annotators=(), labels=()):
    return {"annotators": [w.annotator_names.index(a) for a in annotators],
            "labels": [w.label_names.index(x) for x in labels]}


@pytest.mark.parametrize("annotators, labels", [
    ((), ()),                      # opening: every disagreement
    (("bob", "eve"), ()),          # a matrix cell
    ((), ("neg", "pos")),          # a confusion cell
    (("eve",), ()),                # an annotator
    ((), ("neu",)),                # a label
    (("eve",), ("neu", "pos")),    # a cell of eve's confusion against the consensus
])
def test_each_click_selects_what_pandas_finds(w, raters, annotators, labels):
    w.query = codes(w, annotators, labels)
    expected = expected_items(raters, annotators, labels)
    assert sorted(w.selection["item"]) == expected and w.error == ""
    page = w.items_page
    assert page["total"] == len(expected)
    assert len(page["rows"]) == min(10, len(expected))  # one page, never more
    assert [r[0] for r in page["rows"]] == [str(i) for i in w.selection["item"][:10]]
    if len(annotators) == 1:
        assert w.labels_panel["kind"] == "annotator"  # their labels against the consensus


def test_paging_and_texts(w, df):
    w.query = {}
    total = w.items_page["total"]
    assert total > 20
    w.page = 2
    assert w.items_page["offset"] == 20 and len(w.items_page["rows"]) == min(10, total - 20)
    w.query = codes(w, ("bob", "eve"))  # a new selection starts on its first page
    assert w.page == 0 and w.items_page["offset"] == 0
    columns = w.items_page["columns"]
    # the clicked annotators and the consensus come first, then the others
    assert columns[:6] == ["item", "text", "agreement", "n_ratings", "bob", "eve"]
    assert columns[6:8] == ["consensus", "ann"] and len(columns) == 8 + 2  # then the reference
    row = w.items_page["rows"][0]
    assert row[1] == f"text of {row[0]}"


def test_panels_hold_the_api_numbers(w, df, raters):
    assert "ann" not in w.annotator_names  # the reference is not a rater
    # the raters as the project holds them (items in the data's order, which the draws of
    # the paired bootstrap follow)
    loo = iaa.leave_one_out(Project(df, reference="ann").ann, "fleiss_kappa", n_resamples=50,
                            seed=1, missing="available")
    rows = {r["code"]: r for r in w.annotators_panel["rows"]}
    for j, name in enumerate(w.annotator_names):
        assert rows[j]["delta"] == pytest.approx(loo.loc[name, "delta"], abs=1e-12)
        assert rows[j]["delta_low"] == pytest.approx(loo.loc[name, "ci_low"], abs=1e-12)
    prof = iaa.annotator_profile(df, reference="ann")
    assert rows[w.annotator_names.index("eve")]["accuracy"] == pytest.approx(
        prof.loc["eve", "accuracy"], abs=1e-12)
    pairs = iaa.pairwise(raters, "cohen_kappa")
    m = w.matrix
    names = [w.annotator_names[c] for c in m["order"]]
    got = pd.DataFrame(m["values"], index=names, columns=names)
    pd.testing.assert_frame_equal(got.loc[pairs.index, pairs.columns].astype(float),
                                  pd.DataFrame(pairs).astype(float), check_names=False)
    off = ~np.eye(len(names), dtype=bool)
    low, high = np.array(m["ci_low"], float), np.array(m["ci_high"], float)
    assert np.isfinite(low[off]).all() and (low[off] <= got.to_numpy()[off]).all()
    assert (got.to_numpy()[off] <= high[off]).all()  # after wait(): the pairs' intervals
    assert w.headline["value"] == pytest.approx(
        iaa.fleiss_kappa(raters, missing="available").value, abs=1e-12)
    assert w.label_names == [str(c) for c in iaa.as_annotations(raters).categories]
    assert XSS in w.label_names  # sent as text; the page shows it as text


def test_exports_round_trip(w, df, tmp_path):
    w.select(annotators=("bob", "eve"))
    csv = pd.read_csv(io.StringIO(w.export_csv()))
    assert sorted(csv["item"]) == sorted(w.selection["item"])
    path = tmp_path / "adjudicate.csv"
    w.export_adjudication(path)
    sheet = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert list(sheet.columns)[:2] == ["item", "text"] and "adjudicated" in sheet.columns
    sheet["adjudicated"] = sheet["bob"].map(lambda v: v.lstrip("'"))  # bob is right
    sheet.to_csv(path, index=False)
    gold = iaa.read_adjudication(path, df)
    assert len(gold) == len(sheet)
    nxt = iaa.ProjectExplorer(pd.concat([df, gold]), reference="gold", n_resamples=20)
    nxt.wait(120)
    row = {r["code"]: r for r in nxt.annotators_panel["rows"]}
    assert row[nxt.annotator_names.index("bob")]["accuracy"] == 1.0


def test_bad_query_is_shown_then_cleared(w):
    w.query = {"annotators": [99]}
    assert "query['annotators']" in w.error
    w.query = {}
    assert w.error == ""


def test_static_page(w):
    page = w.to_html()
    assert "Static copy of ProjectExplorer" in page
    assert "<img src=x" not in page  # labels are in a JSON block, never markup


def test_refusals(df):
    with pytest.raises(iaa.AgreementError, match="measure"):
        iaa.ProjectExplorer(df, measure="nope")
    with pytest.raises(iaa.AgreementError, match="text"):
        iaa.ProjectExplorer(df, text="no_such_column")
    # span data: the brat reader's Spans, one document's Continuum, a table of units open
    # the span explorer (test_span_explorer); the API of labels of items refuses them,
    # naming what to use instead
    examples = Path(__file__).resolve().parents[1] / "examples"
    spans = iaa.read_brat(examples / "exports" / "brat")
    units = pd.read_csv(examples / "units.csv")
    for data in (spans, next(iter(spans.values())), units):
        assert isinstance(iaa.ProjectExplorer(data), SpanExplorer)
        for api in (iaa.annotator_profile, iaa.label_confusion):
            with pytest.raises(iaa.AgreementError, match="span_disagreements"):
                api(data)
    with pytest.raises(iaa.AgreementError, match="reference"):
        iaa.ProjectExplorer(spans, reference="gold")  # arguments of labels of items


def test_span_explorer():
    """ProjectExplorer(spans): the documents table is span_disagreements' (checked against
    pandas in tests/test_explore_spans.py), paged; a click (``document``) sends that
    document's units (GammaExplorer's lane rows) and its text; ``match`` recomputes."""
    from test_explore_spans import ANNOTATED, UNITS
    from iaa_widgets.io._common import Spans
    units = pd.DataFrame(UNITS, columns=["item", "annotator", "category", "start", "end"])
    spans = Spans(units=units.astype({"start": float, "end": float}),
                  annotated=pd.DataFrame(ANNOTATED, columns=["item", "annotator"]))
    texts = {"d1": XSS, "d3": "third"}
    w = iaa.ProjectExplorer(spans, text=texts, page_size=2)
    want = iaa.span_disagreements(spans)
    pd.testing.assert_frame_equal(w.selection, want)
    assert w.headline["value"] == pytest.approx(iaa.span_f1(spans).value)
    page = w.items_page
    assert (page["total"], page["pages"], len(page["rows"])) == (3, 2, 2)
    assert [r[0] for r in page["rows"]] == want["item"].tolist()[:2]
    w.page = 1
    assert [r[0] for r in w.items_page["rows"]] == want["item"].tolist()[2:]
    assert w.document_panel == {}
    codes = w.items_page["codes"]  # each row's document, as a click sends it
    assert w.documents["item"].take(codes).tolist() == want["item"].tolist()[2:]
    w.page = 0
    w.document = w.items_page["codes"][want["item"].tolist().index("d1")]
    rows = w._datasets["span_units"]
    assert sorted(r["annotator"] for r in rows) == sorted(units.loc[units["item"] == "d1",
                                                                   "annotator"])
    panel = w.document_panel
    assert panel["item"] == "d1" and panel["text"] == XSS  # sent as text, shown as text
    assert panel["counts"] == [["A", 2], ["B", 2], ["C", 1]]
    assert w.show("d2")["annotator"].tolist() == ["A", "B"]
    assert w.document_panel["text"] is None
    w.match = "overlap"
    assert w.error == "" and w.headline["match"] == "overlap"
    pd.testing.assert_frame_equal(w.selection, iaa.span_disagreements(spans, "overlap"))
    page = w.to_html()
    assert "<img src=x" not in page


def test_the_consensus_control(df):
    """The consensus control: a model's result passed in is "given"; each choice makes
    the items' consensus column, the annotators' agreement and their confusion those of
    the API with the same consensus (tests/test_explore.py checks these against pandas)."""
    fitted = iaa.dawid_skene(df)
    w = iaa.ProjectExplorer(df, consensus=fitted, n_resamples=20, seed=1, page_size=500)
    try:
        w.wait(120)
        assert w.consensus == "given"
        assert w.consensus_options == ["majority", "dawid_skene", "mace", "given"]
        for choice, consensus in (("given", fitted), ("majority", "majority"),
                                  ("dawid_skene", "dawid_skene")):
            w.consensus = choice
            assert w.error == ""
            prof = iaa.annotator_profile(df, consensus=consensus)
            pd.testing.assert_frame_equal(w.profile, prof)
            got = [r["consensus_agreement"] for r in w.annotators_panel["rows"]]
            np.testing.assert_allclose(got, prof["consensus_agreement"].to_numpy())
            page = w.items_page
            at = page["columns"].index("consensus")
            expected = iaa.disagreements(df, consensus=consensus)
            assert [r[at] for r in page["rows"]] == \
                ["" if pd.isna(v) else str(v) for v in expected["consensus"].astype(object)]
            w.query = codes(w, ("eve",))
            assert sorted(w.selection["item"]) == \
                sorted(iaa.disagreements(df, "eve", consensus=consensus)["item"])
            cube = iaa.consensus_confusion(df, "eve", consensus=consensus)
            assert w.labels_panel["counts"] == cube.to_numpy().tolist()
            w.query = {}
        w.consensus = "nope"
        assert "consensus" in w.error
    finally:
        w.close()
    plain = iaa.ProjectExplorer(df, n_resamples=20, seed=1)
    assert plain.consensus_options == ["majority", "dawid_skene", "mace"]
    plain.close()


def test_headline_shows_the_measures_own_interval():
    """The headline's interval is the measure's ``result.ci`` and is named by its own kind
    (AC1's Student-t, Gwet 2014; Fleiss' Wald, Gwet 2008), not one label for every measure."""
    data = iaa.read_csv(Path(__file__).parents[1] / "examples" / "labels.csv")
    w = iaa.ProjectExplorer(data, measure="gwet_ac1")
    expected = iaa.gwet_ac1(data, missing="available")
    assert (w.headline["ci_low"], w.headline["ci_high"]) == pytest.approx(expected.ci, abs=1e-12)
    assert w.headline["ci_method"].startswith("Student-t")
    w.measure = "fleiss_kappa"
    assert w.headline["ci_method"].startswith("Wald")


def test_headline_says_q_and_the_items_for_its_half_width(w, raters):
    """Issue 45 §5: the headline adds Krippendorff's q(0.8), the share of the headline
    measure's bootstrap replicates below 0.8 (iaa.bootstrap's prob_below, same draws), and
    the items a 95 % interval of ±0.05 needs, which is sample_size's pilot answer on the
    same seed (its SE the bootstrap's: test_inference_sample_size checks that), after the
    measure's own interval has stayed its own (Wald for Fleiss' κ)."""
    h, ann = w.headline, w._project.ann  # the raters as the widget holds them (its draws)
    assert set(ann.annotators) == set(raters["annotator"])
    boot = iaa.bootstrap(ann, "fleiss_kappa", n_resamples=50, seed=1, missing="available")
    assert (h["alpha_min"], h["half_width"]) == (0.8, 0.05)
    assert h["q_min"] == boot.prob_below(0.8)
    pilot = iaa.sample_size(ann, "fleiss_kappa", half_width=0.05, n_resamples=50, seed=1,
                            missing="available")
    assert h["items_for_half_width"] == pilot.n_items
    assert h["ci_method"].startswith("Wald")
    assert (h["ci_low"], h["ci_high"]) == pytest.approx(
        iaa.fleiss_kappa(raters, missing="available").ci, abs=1e-12)


def test_groups_panel_is_compare_by_group(df, raters):
    """Issue 45 §5: group= (a column, one group per item) adds the headline measure by group
    and Fleiss' (1981) homogeneity test: iaa.compare(by=)'s numbers on the raters (the
    reference left out, as everywhere in the explorer); an item in two groups is refused."""
    order = {item: k for k, item in enumerate(df["item"].unique())}
    grouped = df.assign(batch=[("a" if order[i] % 2 else "b") for i in df["item"]])
    w = iaa.ProjectExplorer(grouped, reference="ann", group="batch", n_resamples=50, seed=1)
    w.wait(120)
    panel = w.groups_panel
    expected = iaa.compare(raters, measure="fleiss_kappa",
                           by=grouped.groupby("item")["batch"].first(), missing="available")
    shown = {r["group"]: r["estimate"] for r in panel["rows"]}
    assert shown == pytest.approx(dict(zip(map(str, expected.groups), expected.estimates)),
                                  abs=1e-12)
    assert (panel["statistic"], panel["p_value"]) == pytest.approx(
        (expected.statistic, expected.p_value), abs=1e-12)
    assert "Fleiss 1981" in panel["method"]
    w.close()
    clash = grouped.copy()
    clash.loc[clash.index[0], "batch"] = "c"
    with pytest.raises(iaa.AgreementError, match="more than one group"):
        iaa.ProjectExplorer(clash, group="batch")


def test_counts_shown_equal_the_lists(w, raters):
    """Issue 39: a number the panels show is the length of the list its click gives. Each
    annotator's "n differ" (their items whose label differs from the majority of the
    others) against ``disagreements(annotators=a)``; each cell of the pooled label panel
    (items holding both labels, or the label) and of each annotator's labels against the
    consensus against the selection of that click."""
    k = len(w.label_names)
    try:
        for row in w.annotators_panel["rows"]:
            name = w.annotator_names[row["code"]]
            w.query = codes(w, (name,))
            assert row["n_differ"] == len(w.selection) == w.items_page["total"], name
            counts = w.labels_panel["counts"]
            for r in range(k):
                for c in range(k):
                    if r != c:
                        w.query = {"annotators": [row["code"]], "labels": [r, c]}
                        assert counts[r][c] == len(w.selection), (name, r, c)
        w.query = {}
        counts = w.labels_panel["counts"]
        for r in range(k):
            for c in range(k):
                w.query = {"annotators": [], "labels": [r] if r == c else [r, c]}
                assert counts[r][c] == len(w.selection) == \
                    len(expected_items(raters, (), tuple({w.label_names[r], w.label_names[c]}))), (r, c)
    finally:
        w.query = {}


def test_sort_is_stable_over_the_whole_selection(w, df):
    """A header sorts the whole selection in Python (not one page): by an annotator's
    label in the data's category order (never as strings), missing ratings last either
    way, ties in the default order (lowest agreement first); the reference is pandas'
    stable sort (DataFrame.sort_values(kind="stable")) of the default selection."""
    w.query = {}
    base = w.selection
    cats = list(iaa.as_annotations(df).categories)
    try:
        for descending in (False, True):
            w.sort_by, w.sort_descending = "bob", descending
            assert w.error == "" and w.page == 0
            key = base["bob"].astype(object).map(lambda v: cats.index(v) if isinstance(v, str)
                                                 else np.nan)
            want = base.assign(_k=key).sort_values("_k", ascending=not descending,
                                                   kind="stable", na_position="last")
            assert w.selection["item"].tolist() == want["item"].tolist()
            assert [r[0] for r in w.items_page["rows"]] == [str(i) for i in want["item"][:10]]
        w.sort_by, w.sort_descending = "n_ratings", True
        want = base.sort_values("n_ratings", ascending=False, kind="stable")
        assert w.selection["item"].tolist() == want["item"].tolist()
        w.sort_by = "nope"
        assert "sort_by" in w.error and "consensus" in w.error
    finally:
        w.sort_by, w.sort_descending = "agreement", False
    assert w.selection["item"].tolist() == base["item"].tolist()


def test_jump_to_an_item(w):
    w.query = {}
    items = [str(i) for i in w.selection["item"]]
    at = w.jump(items[23])
    assert at == 23 and w.page == 2
    assert w.items_page["highlight"] == items[23]
    assert items[23] in [r[0] for r in w.items_page["rows"]]
    assert w.jump("no such item") is None
    assert w.items_page["notice"] == "there is no item no such item in the data"
    agreeing = sorted(set(map(str, w._project.ann.items)) - set(items))[0]
    assert w.jump(agreeing) is None and "is not among these" in w.items_page["notice"]
    w.page = 0
    assert w.items_page["notice"] == ""  # said once


@pytest.mark.parametrize("rows", [slice(0, 0), "one"])
def test_nothing_to_compare_is_a_message_in_the_widget(df, rows):
    data = df.iloc[rows] if isinstance(rows, slice) else df[df["annotator"] == "bob"]
    w = iaa.ProjectExplorer(data)
    assert ("table is empty" if isinstance(rows, slice) else "Only one annotator (bob)") \
        in w.message
    assert w.error == "" and w.headline == {}
    with pytest.raises(iaa.AgreementError, match="nothing to explore"):
        w.selection
    w.close()


def test_no_variation_no_interval(df):
    """Every annotator gives every item the same label: nothing to resample, so no
    interval is made (and none fails), leave-one-out has its values, no item is listed."""
    same = df.assign(label=df.groupby("item")["label"].transform("first"))
    w = iaa.ProjectExplorer(same, n_resamples=20)
    w.wait(120)
    assert (w.intervals, w.error, w.headline["n_disagreements"]) == ("none", "", 0)
    assert "q_min" not in w.headline  # no variation: no replicates to read q from
    assert w.items_page["total"] == 0 and w.annotators_panel["loo_ready"]
    rows = w.annotators_panel["rows"]
    assert all(r["delta_low"] is None and r["n_differ"] == 0 for r in rows)
    w.close()


def test_downloads_travel_as_bytes_or_are_written_by_python(w, tmp_path, monkeypatch):
    sent = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: sent.append((content, buffers)))
    w.select(annotators=("bob", "eve"))
    w._on_message(w, {"export": "csv"}, [])
    content, buffers = sent[-1]
    assert content["download"] == "selection.csv" and content["rows"] == len(w.selection)
    assert buffers[0].decode("utf-8") == w.export_csv()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(w, "download_limit", 100)
    for name in ("adjudication.csv", "adjudication-1.csv"):  # never over an existing file
        w._on_message(w, {"export": "adjudication"}, [])
        content, buffers = sent[-1]
        assert buffers is None and content["written"] == str(tmp_path / name)
        assert (tmp_path / name).read_bytes().decode("utf-8") == w.export_adjudication()
    w._on_message(w, {"jump": str(w.selection["item"].iloc[0])}, [])
    assert w.items_page["highlight"] == str(w.selection["item"].iloc[0])
    w.query = {}


def test_verdict_threshold_is_sent_and_checked(df):
    with pytest.raises(iaa.AgreementError, match="relevant_delta"):
        iaa.ProjectExplorer(df, relevant_delta=-0.1)
    w = iaa.ProjectExplorer(df, relevant_delta=0.05, n_resamples=20)
    assert w.annotators_panel["relevant"] == 0.05
    w.close()


def test_no_import_cycle_among_the_front_end_modules():
    """Issue 45 §6: no ES module of js/src imports, directly or not, a module that imports
    it (explorer.js and explorer_spans.js share the pager through pager.js). The graph is
    read from the modules' static ``import … from "./x.js"`` lines."""
    import re
    src = Path(__file__).resolve().parents[1] / "js" / "src"
    graph = {p.name: set(re.findall(r'^import\s[^;]*?from\s+"\./([\w.]+\.js)"', p.read_text(),
                                    flags=re.M | re.S))
             for p in src.glob("*.js")}
    assert "pager.js" in graph["explorer_spans.js"] and "explorer.js" not in graph["explorer_spans.js"]

    def reaches(start, goal, seen=()):
        return any(nxt == goal or (nxt not in seen and reaches(nxt, goal, (*seen, nxt)))
                   for nxt in graph.get(start, ()))
    assert not [name for name in graph if reaches(name, name)]


def test_wait_returns_when_the_latest_run_has_set_the_panels(df, monkeypatch):
    """The race behind test_panels_hold_the_api_numbers' rare None: ``wait()`` joined the
    worker it found and returned, though a newer run (started while it waited) had not
    set its panels yet, and a run whose publication raised ended silently with its
    panels unset. Now a run started meanwhile is waited for, and a failed publication
    is raised."""
    import threading
    import time
    from iaa_widgets.widgets import explorer as module

    w = iaa.ProjectExplorer(df, reference="ann", n_resamples=20, seed=1)
    w.wait(120)
    gate, real = threading.Event(), module.bootstrap

    def held(data, fn, **kwargs):  # every run waits at the gate; run 2 is the slower
        gate.wait(60)
        if fn.__name__ == "fleiss_kappa":
            time.sleep(1.0)
        return real(data, fn, **kwargs)
    monkeypatch.setattr(module, "bootstrap", held)
    w.measure = "gwet_ac1"  # run 1, held at the gate
    waited = []
    waiter = threading.Thread(target=lambda: waited.append(w.wait(120)))
    waiter.start()
    gate.wait(0.2)  # (the waiter joins run 1 now)
    w.measure = "fleiss_kappa"  # run 2: run 1 is stale
    gate.set()
    waiter.join(120)
    assert waited == [None] and w.intervals == "ready"
    loo = iaa.leave_one_out(w._project.ann, "fleiss_kappa", n_resamples=20, seed=1,
                            missing="available")
    rows = w.annotators_panel["rows"]
    assert [r["delta_low"] for r in rows] == pytest.approx(loo["ci_low"].tolist(), abs=1e-12)

    def broken(*args):
        raise RuntimeError("publication failed")
    monkeypatch.setattr(w, "_publish", broken)
    w.measure = "gwet_ac1"
    with pytest.raises(iaa.AgreementError, match="publication failed"):
        w.wait(120)
    assert w.intervals == "failed" and "publication failed" in w.headline["interval_note"]
    w.close()


def test_a_new_headline_measure_keeps_the_pairs_intervals(df, monkeypatch):
    """The pairs' bootstrap (most of a run, issue 43 §3) depends on the pair measure
    only: a change of the headline measure keeps its intervals, a change of the pair
    measure makes them again."""
    from iaa_widgets.widgets import explorer as module

    w = iaa.ProjectExplorer(df, reference="ann", n_resamples=20, seed=1)
    w.wait(120)
    before = w.matrix
    calls, real = [], module.pairwise
    monkeypatch.setattr(module, "pairwise",
                        lambda *a, **k: (calls.append(k.get("ci")), real(*a, **k))[1])
    w.measure = "gwet_ac1"
    w.wait(120)
    assert calls == [] and w.matrix == before and w.intervals == "ready"
    w.pair_measure = "scott_pi"
    w.wait(120)
    assert "percentile" in calls and w.matrix["measure"] != before["measure"]
    w.close()
