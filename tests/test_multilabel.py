"""Per-label agreement on set-valued (multi-label) annotations."""
import itertools
import random
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from iaa_widgets import AgreementError, Annotations
from iaa_widgets.measures.continuous.alpha import krippendorff_alpha
from iaa_widgets.measures.categorical.classic import cohen_kappa
from iaa_widgets.measures.sets_spans.multilabel import per_label

SUBSETS = [frozenset(s) for r in range(0, 3) for s in itertools.combinations("abcd", r)]


def _rows(seed, n_items=50, annotators="xyz", p_missing=0.2):
    rng = random.Random(seed)
    rows = []
    for i in range(n_items):
        base = rng.choice(SUBSETS)
        for who in annotators:
            if rng.random() < p_missing:
                continue
            rows.append((who, f"i{i}", base if rng.random() < 0.6 else rng.choice(SUBSETS)))
    return rows


def _frame(rows):
    return pd.DataFrame(rows, columns=["annotator", "item", "label"])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_alpha_per_label_matches_nltk_and_krippendorff(seed):
    # Peers: nltk AnnotationTask(...).alpha() and the krippendorff package
    # (level_of_measurement="nominal") on each label as a present/absent rating.
    agreement = pytest.importorskip("nltk.metrics.agreement")
    kd = pytest.importorskip("krippendorff")
    rows = _rows(seed)
    out = per_label(_frame(rows))
    assert list(out.columns) == ["label", "value", "observed", "expected", "prevalence",
                                 "n_items"]
    assert sorted(out["label"]) == list("abcd")
    items = sorted({i for _, i, _ in rows})
    for label, value in zip(out["label"], out["value"]):
        binary = [(who, item, label in s) for who, item, s in rows]
        assert value == pytest.approx(agreement.AnnotationTask(data=binary).alpha(),
                                      abs=1e-12)
        grid = np.full((3, len(items)), np.nan)
        for who, item, present in binary:
            grid["xyz".index(who), items.index(item)] = float(present)
        assert value == pytest.approx(kd.alpha(reliability_data=grid,
                                               level_of_measurement="nominal"), abs=1e-12)


def test_alpha_per_label_equals_alpha_on_binary_data():
    # Our own nominal α on each label's binary Annotations gives the same value, D_o, D_e
    # and pairable items (the one-pass coincidences are the per-label ones).
    rows = _rows(7)
    out = per_label(_frame(rows)).set_index("label")
    for label, row in out.iterrows():
        binary = _frame([(w, i, label in s) for w, i, s in rows])
        ref = krippendorff_alpha(binary)
        assert row["value"] == pytest.approx(ref.value, abs=1e-13)
        assert row["observed"] == pytest.approx(ref.observed, abs=1e-13)
        assert row["expected"] == pytest.approx(ref.expected, abs=1e-13)
        assert row["n_items"] == ref.n_items
    assert out.attrs["scale"] == "disagreement"


def test_prevalence_and_counts_by_hand():
    # 2 items × 2 annotators + one item rated once: sets {a,b},{a} | {},{b} | {a}.
    # a is in 3 of the 5 ratings (3/5), b in 2 of 5. Item 3 is unpairable: excluded.
    # Label a: values (1,1), (0,0) ⇒ perfect agreement, α = 1; label b: (1,0), (0,1):
    # o_01 = o_10 = 2, D_o = 4/4 = 1, D_e = 2·2·2/(4·3) = 2/3, α = 1 − 3/2 = −1/2.
    df = pd.DataFrame({"item": [1, 1, 2, 2, 3], "annotator": ["x", "y", "x", "y", "x"],
                       "label": [frozenset("ab"), frozenset("a"), frozenset(),
                                 frozenset("b"), frozenset("a")]})
    out = per_label(df, labels=["a", "b"]).set_index("label")
    assert out.loc["a", "prevalence"] == pytest.approx(3 / 5)
    assert out.loc["b", "prevalence"] == pytest.approx(2 / 5)
    assert out.loc["a", "value"] == 1.0
    assert out.loc["b", "value"] == pytest.approx(float(Fraction(-1, 2)), abs=1e-15)
    assert (out["n_items"] == 2).all()
    assert out.attrs["excluded"] == {"items with a single rating (unpairable)": 1}


def test_cohen_kappa_per_label_matches_sklearn():
    # scikit-learn's cohen_kappa_score on each label's 0/1 vectors (two annotators, every
    # item rated by both).
    metrics = pytest.importorskip("sklearn.metrics")
    rows = _rows(11, annotators="xy", p_missing=0.0)
    out = per_label(_frame(rows), "cohen_kappa").set_index("label")
    for label, row in out.iterrows():
        x = [label in s for w, _, s in rows if w == "x"]
        y = [label in s for w, _, s in rows if w == "y"]
        assert row["value"] == pytest.approx(metrics.cohen_kappa_score(x, y), abs=1e-12)
    assert out.attrs["scale"] == "agreement"
    # the function itself is accepted as well as its name
    same = per_label(_frame(rows), cohen_kappa).set_index("label")
    np.testing.assert_allclose(same["value"], out["value"], atol=0)


def test_labels_declared_order_and_unused_label():
    rows = _rows(3)
    out = per_label(_frame(rows), labels=["d", "c", "b", "a", "z"])
    assert list(out["label"]) == ["d", "c", "b", "a", "z"]
    unused = out.set_index("label").loc["z"]
    assert unused["prevalence"] == 0 and np.isnan(unused["value"])  # D_e = 0: undefined
    default = per_label(_frame(rows)).set_index("label")
    pd.testing.assert_series_equal(out.set_index("label").loc[list("abcd"), "value"],
                                   default.loc[list("abcd"), "value"])


def test_bad_input_is_named():
    rows = _rows(3)
    with pytest.raises(AgreementError, match="leaves out"):
        per_label(_frame(rows), labels=["a", "b"])
    with pytest.raises(AgreementError, match="not a set"):
        per_label(pd.DataFrame({"item": [1, 1], "annotator": ["x", "y"],
                                "label": ["a", "b"]}))
    with pytest.raises(AgreementError, match="measure must be"):
        per_label(_frame(rows), "no_such_measure")
    with pytest.raises(AgreementError, match="pairable"):
        per_label(pd.DataFrame({"item": [1, 2], "annotator": ["x", "y"],
                                "label": [frozenset("a"), frozenset("b")]}))


def test_weighted_items_count_as_often_as_they_stand():
    # Annotations.from_contingency: a cell of the 2-annotator table stands for that many
    # identical items; per-label α equals that of the data with the items written out.
    cats = [frozenset("a"), frozenset("ab"), frozenset("b")]
    table = np.array([[3, 1, 0], [1, 4, 2], [0, 1, 5]])
    ann = Annotations.from_contingency(table, cats, annotators=("x", "y"))
    rows = [("x", f"{r}{c}{k}", cats[r]) for r in range(3) for c in range(3)
            for k in range(table[r, c])] + \
           [("y", f"{r}{c}{k}", cats[c]) for r in range(3) for c in range(3)
            for k in range(table[r, c])]
    a = per_label(ann).set_index("label")
    b = per_label(_frame(rows)).set_index("label")
    np.testing.assert_allclose(a.loc[["a", "b"], "value"], b.loc[["a", "b"], "value"],
                               atol=1e-13)
    np.testing.assert_allclose(per_label(ann, "cohen_kappa").set_index("label")
                               .loc[["a", "b"], "value"], per_label(_frame(rows), "cohen_kappa")
                               .set_index("label").loc[["a", "b"], "value"], atol=1e-13)
