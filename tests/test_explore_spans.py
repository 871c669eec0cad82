"""The explorer's API for span data (iaa_widgets/explore_spans.py) against a pandas
computation written here, on a small hand-made Spans.

Under exact matching a maximum one-to-one matching of two annotators' units is
Σ min(n_a, n_b) over identical units (spans.py's docstring; each unit matches only its
identical copies), which pandas computes with a merge: m over (document, start, end,
label), m_any over (document, start, end). Overlap matching is checked against span_f1
itself run on each document alone."""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.explore_spans import span_disagreements, span_documents
from iaa_widgets.io._common import Spans

UNITS = [  # item, annotator, category, start, end
    ("d1", "A", "X", 0, 5), ("d1", "A", "Y", 10, 15), ("d1", "B", "X", 0, 5),
    ("d1", "B", "Z", 10, 15), ("d1", "C", "X", 0, 5),           # B says Z where A says Y
    ("d2", "A", "X", 1, 2), ("d2", "B", "X", 1, 2),               # agree; C did not annotate
    ("d3", "A", "X", 0, 3), ("d3", "B", "X", 0, 4), ("d3", "C", "Y", 0, 3),  # bounds differ
    ("d5", "A", "X", 0, 1),                                       # only A annotated d5
    ("d6", "A", "X", 0, 2), ("d6", "A", "X", 0, 2), ("d6", "B", "X", 0, 2),  # a duplicate
]
ANNOTATED = [("d1", a) for a in "ABC"] + [("d2", "A"), ("d2", "B")] + \
    [("d3", a) for a in "ABC"] + [("d4", "A"), ("d4", "B"), ("d5", "A")] + \
    [("d6", "A"), ("d6", "B")]


@pytest.fixture(scope="module")
def spans():
    units = pd.DataFrame(UNITS, columns=["item", "annotator", "category", "start", "end"])
    units[["start", "end"]] = units[["start", "end"]].astype(float)
    annotated = pd.DataFrame(ANNOTATED, columns=["item", "annotator"])
    return Spans(units=units, annotated=annotated)


def expected(spans) -> pd.DataFrame:
    """Per document with pandas: Σ over pairs who both annotated it of n_a + n_b, of
    m (identical units with the same label) and of m_any (identical units)."""
    u, who = spans.units, spans.annotated
    everyone = pd.unique(who["annotator"])
    rows = []
    for doc in pd.unique(who["item"]):
        mine = u[u["item"] == doc]
        names = who.loc[who["item"] == doc, "annotator"].tolist()
        n = m = m_any = 0
        for a, b in itertools.combinations(names, 2):
            ua, ub = mine[mine["annotator"] == a], mine[mine["annotator"] == b]
            n += len(ua) + len(ub)
            for keys, total in ((["start", "end", "category"], "m"), (["start", "end"], "any")):
                ca = ua.groupby(keys).size().rename("a")
                cb = ub.groupby(keys).size().rename("b")
                both = pd.concat([ca, cb], axis=1, join="inner")
                hits = int(np.minimum(both["a"], both["b"]).sum())
                if total == "m":
                    m += hits
                else:
                    m_any += hits
        per = mine.groupby("annotator").size()
        rows.append({"item": doc, "f1": 2 * m / n if n else np.nan, "units": len(mine),
                     "unmatched": n - 2 * m_any, "mismatched": m_any - m,
                     "n_annotators": len(names),
                     **{a: (per.get(a, 0) if a in names else pd.NA) for a in everyone}})
    return pd.DataFrame(rows)


def test_documents_match_pandas(spans):
    got = span_documents(spans)
    want = expected(spans)
    assert list(got.columns) == list(want.columns)
    assert got["item"].tolist() == want["item"].tolist()
    np.testing.assert_allclose(got["f1"], want["f1"].astype(float))
    for col in ("units", "unmatched", "mismatched", "n_annotators"):
        assert got[col].tolist() == want[col].tolist(), col
    for a in "ABC":
        assert [None if pd.isna(v) else int(v) for v in got[a]] == \
            [None if pd.isna(v) else int(v) for v in want[a]], a
    # hand check of d1: pairs AB (n 4, m 1, m_any 2), AC and BC (n 3, m 1): F1 6/10
    d1 = got.set_index("item").loc["d1"]
    assert (d1["f1"], d1["unmatched"], d1["mismatched"]) == (0.6, 2, 1)


def test_disagreements_are_the_documents_pandas_finds_lowest_f1_first(spans):
    want = expected(spans)
    want = want[(want["unmatched"] + want["mismatched"]) > 0]
    want = want.sort_values("f1", kind="stable")
    got = span_disagreements(spans)
    assert got["item"].tolist() == want["item"].tolist() == ["d3", "d1", "d6"]
    assert got.attrs["n_items"] == 6
    # the package's dispatch: iaa.disagreements(spans) is this table
    pd.testing.assert_frame_equal(iaa.disagreements(spans), got)


def test_document_f1_is_span_f1_of_the_document_alone(spans):
    """Each document's f1 is span_f1's value on that document's Continuum (both
    matchings), so the overlap matcher is checked against the measure itself."""
    for match in ("exact", "overlap"):
        got = span_documents(spans, match).set_index("item")["f1"]
        for doc in ("d1", "d3", "d6"):
            assert got[doc] == pytest.approx(iaa.span_f1(spans[doc], match).value), (match, doc)
    # under overlap d3's A and B units (0–3, 0–4) match; A–C, B–C: same bounds, not labels
    d3 = span_documents(spans, "overlap").set_index("item").loc["d3"]
    assert (d3["unmatched"], d3["mismatched"]) == (0, 2)


def test_annotators_narrow_to_their_pairs_and_documents(spans):
    # B and C only: d5 (annotated by A alone) is no longer a document of theirs
    kept = Spans(units=spans.units[spans.units["annotator"].isin(["B", "C"])],
                 annotated=spans.annotated[spans.annotated["annotator"].isin(["B", "C"])])
    got = span_documents(spans, annotators=["B", "C"])
    want = expected(kept)
    assert got["item"].tolist() == want["item"].tolist() == ["d1", "d2", "d3", "d4", "d6"]
    for col in ("f1", "unmatched", "mismatched"):
        np.testing.assert_allclose(got[col].astype(float), want[col].astype(float))
    assert list(got.columns[-2:]) == ["B", "C"]


def test_one_continuum_and_refusals(spans):
    one = span_documents(spans["d1"])
    assert len(one) == 1 and one["f1"].iloc[0] == 0.6
    with pytest.raises(iaa.AgreementError, match="match"):
        span_documents(spans, "fuzzy")
    with pytest.raises(iaa.AgreementError, match="labels"):
        iaa.disagreements(spans, labels="X")
    bad = Spans(units=spans.units.replace({"annotator": {"A": "f1"}}),
                annotated=spans.annotated.replace({"annotator": {"A": "f1"}}))
    with pytest.raises(iaa.AgreementError, match="rename"):
        span_documents(bad)


def test_too_many_documents_times_pairs_is_refused_by_size(monkeypatch):
    """The per-document matchings are pairs × documents tables: beyond the package's dense
    limit (stats.tables.MAX_CELLS, lowered here) a clear AgreementError names the size,
    before any table is made (a crowd of annotators over many documents would not fit)."""
    from iaa_widgets.stats import tables
    monkeypatch.setattr(tables, "MAX_CELLS", 5)
    units = pd.DataFrame({"item": ["d1", "d1", "d2", "d2", "d3"],
                          "annotator": ["a", "b", "a", "c", "b"], "category": ["x"] * 5,
                          "start": [0, 0, 1, 1, 2], "end": [2, 2, 3, 3, 4]})
    with pytest.raises(iaa.AgreementError, match="documents × annotator pairs") as err:
        iaa.span_disagreements(units)
    # issue 44: it says what is too large and what to do, not "merge categories"
    assert "3 documents by 3 annotators" in str(err.value)
    assert "annotators=" in str(err.value) and "categor" not in str(err.value)
