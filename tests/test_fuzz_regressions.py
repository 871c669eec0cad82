"""Inputs the hostile-user sweep of issue 28 found, by cause: a label's value that is
not a finite number (refused where label values become numbers,
``data.categories.numeric_values``, naming the measure and the rating), and raw
exceptions (unitizing α with no overlap, Python ``set`` labels, a DuckDB ``UNION``
column, the ICC's advice on text labels).

Expected numbers: unitizing α against the brute-force evaluation of test_unitizing.py
(loops over segment pairs, straight from Krippendorff 2004); per_label on sets against
the same data given as frozensets (checked against nltk in test_multilabel.py).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError

from test_unitizing import brute_alpha_u


def numbers(bad: float) -> pd.DataFrame:
    """Two annotators, four items, one rating ``bad`` (item 'd2', annotator 'bob')."""
    return pd.DataFrame({"item": ["d1", "d1", "d2", "d2", "d3", "d3", "d4", "d4"],
                         "annotator": ["ann", "bob"] * 4,
                         "label": [1.0, 1.0, 2.0, bad, 3.0, 3.0, 1.0, 2.0]})


# every measure that uses a label's value (weights, scores, interval/ratio distances)
USES_VALUES = [("tolerance_agreement", {"tolerance": 1}),
               ("tolerance_agreement", {"tolerance": 0.5, "rule": "pairs"}),
               ("gwet_ac2", {"weights": "linear"}), ("cohen_kappa", {"weights": "quadratic"}),
               ("fleiss_kappa", {"weights": "radical"}), ("light_kappa", {"weights": "linear"}),
               ("robinson_a", {}), ("janson_olsson_iota", {}), ("mean_pearson_r", {}),
               ("mean_spearman_rho", {}), ("icc", {}), ("finn_coefficient", {"levels": 5}),
               ("krippendorff_alpha", {"metric": "interval"}),
               ("krippendorff_alpha", {"metric": "ratio"})]


@pytest.mark.parametrize("bad", [np.inf, -np.inf])
@pytest.mark.parametrize("measure,kwargs", USES_VALUES)
def test_infinite_label_refused_by_name(measure, kwargs, bad):
    """Before: tolerance_agreement 1.0, gwet_ac2 'expected agreement is 1', robinson_a
    'no variation', ι and mean r NaN; now the measure, the value and (where the data is
    at hand) the rating holding it are named."""
    with pytest.raises(AgreementError, match="inf") as e:
        getattr(iaa, measure)(numbers(bad), **kwargs)
    name = "weights=" if "weights" in kwargs else measure
    assert name in str(e.value) and "finite" in str(e.value), str(e.value)


@pytest.mark.parametrize("measure,kwargs", [("tolerance_agreement", {"tolerance": 1}),
                                            ("icc", {}), ("robinson_a", {})])
def test_rating_named(measure, kwargs):
    with pytest.raises(AgreementError, match="item 'd2', annotator 'bob'"):
        getattr(iaa, measure)(numbers(np.inf), **kwargs)


def test_tolerance_zero_compares_labels_only():
    """With t = 0 agreement is equality of labels (no value used): inf is a label like
    any other, and the value is the share of unanimous items, 2 of 4 here."""
    assert iaa.tolerance_agreement(numbers(np.inf)).value == 0.5


def test_labels_too_far_apart_refused():
    """±1e308: each finite, their difference not (every weight and sum of squares
    would be inf or NaN)."""
    df = numbers(1e308)
    df.loc[0, "label"] = -1e308
    with pytest.raises(AgreementError, match="too far apart"):
        iaa.tolerance_agreement(df, tolerance=1)
    with pytest.raises(AgreementError, match="too far apart"):
        iaa.gwet_ac2(df, weights="linear")


def test_nominal_measures_keep_infinite_labels():
    """A nominal measure compares labels, never their values: inf is one more category."""
    assert iaa.cohen_kappa(numbers(np.inf)).value == \
        iaa.cohen_kappa(numbers(99.0)).value


def test_icc_on_text_labels_says_to_code_numbers():
    """The ICC takes no distance matrix: its message no longer suggests one."""
    df = numbers(1.0).assign(label=list("xyxxyyxy"))
    with pytest.raises(AgreementError, match="icc uses the labels' values") as e:
        iaa.icc(df)
    assert "distance" not in str(e.value)


def test_unitizing_alpha_without_overlapping_units():
    """No unit overlaps another (was an IndexError): α_U from the gaps alone, equal to
    the brute-force evaluation."""
    df = pd.DataFrame({"annotator": ["a", "b", "a"], "category": ["x", "y", "y"],
                       "start": [0, 10, 20], "end": [5, 15, 22]})
    r = iaa.unitizing_alpha(df, continuum=(0, 22))
    for cat, (d_o, d_e) in brute_alpha_u(df, 0, 22).items():
        assert r.per_category.loc[cat, "D_o"] == pytest.approx(float(d_o), rel=1e-12)
        assert r.per_category.loc[cat, "D_e"] == pytest.approx(float(d_e), rel=1e-12)
    assert np.isfinite(r.value)


def test_python_set_labels_are_frozensets():
    """Python sets (unhashable; was pandas' TypeError) are read as the frozensets they
    equal; dicts are refused with their rows."""
    labels = [{"x"}, {"x", "y"}, {"y"}, set(), {"x", "y"}, {"y"}]
    df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": ["a", "b"] * 3,
                       "label": pd.Series(labels, dtype=object)})
    frozen = df.assign(label=pd.Series([frozenset(v) for v in labels], dtype=object))
    pd.testing.assert_frame_equal(iaa.per_label(df), iaa.per_label(frozen))
    assert iaa.krippendorff_alpha(df, metric="masi").value == \
        iaa.krippendorff_alpha(frozen, metric="masi").value
    dicts = df.assign(label=pd.Series([{"x": 1}, {"y": 2}] * 3, dtype=object))
    with pytest.raises(AgreementError, match=r"\{'x': 1\}.*row"):
        iaa.krippendorff_alpha(dicts)


def test_duckdb_union_column_refused_by_name():
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    rel = con.sql("SELECT item, annotator, label::UNION(n INTEGER, s VARCHAR) AS label "
                  "FROM (VALUES (1, 'a', 1), (1, 'b', 2), (2, 'a', 1), (2, 'b', 1)) "
                  "t(item, annotator, label)")
    for fn in (iaa.sufficient_statistics, iaa.krippendorff_alpha):
        with pytest.raises(AgreementError, match="label.*union.*CAST"):
            fn(rel)


@pytest.mark.parametrize("standardize", [False, True])
def test_janson_olsson_iota_without_variation_says_why(standardize):
    """One score everywhere: ι is 0/0 (Janson & Olsson 2001's denominator is 0); the NaN
    came without a note (found by test_fuzz_public.py)."""
    df = numbers(1.0).assign(label=1.0)
    r = iaa.janson_olsson_iota(df, standardize=standardize)
    assert np.isnan(r.value) and "no variation" in r.note
