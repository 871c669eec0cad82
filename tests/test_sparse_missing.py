"""spa_missingness: SPA when every annotation is dropped independently with probability
`drop` (the thinning of spa_variance_curve's random mode at τ = 1 − drop).

Expected values come from (a) sparse_agreement on the full data (drop = 0 must give it
in every round), (b) exact enumeration of every subset of the annotations of a small
data set, each subset weighted by (1 − drop)^kept · drop^dropped, with eq. 7 of
Nørregaard & Derczynski written out in plain Python (itself checked against
sparse_agreement on some subsets), and (c) the direct item-by-item thinning, which must
follow the same law as the pattern tables."""
from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError
from iaa_widgets.datasets import crowd_labels
from iaa_widgets.measures.sparse.missing import SpaMissingness, spa_missingness

SMALL = pd.DataFrame({  # 4 items with 3, 2, 4 and 2 annotations, 2 classes
    "item": [1, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4],
    "annotator": ["u", "v", "w", "u", "v", "u", "v", "w", "x", "w", "x"],
    "label": ["a", "a", "b", "a", "b", "a", "a", "a", "b", "b", "b"]})
PLAIN = {"flat": lambda n: 1.0, "annotations": lambda n: float(n),
         "annotations_m1": lambda n: n - 1.0, "edges": lambda n: n * (n - 1) / 2}


def plain_spa(rows, scheme):
    """Eq. 7 by hand: Σ k(n_i) P̂_i / Σ k(n_i) over items with n_i ≥ 2 (None if none);
    ``rows``: (item, label) pairs (plain Python, no pandas: called 2^11 times a scheme)."""
    by_item = {}
    for item, label in rows:
        by_item.setdefault(item, []).append(label)
    num = den = 0.0
    for labels in by_item.values():
        n = len(labels)
        if n < 2:
            continue
        agree = sum(c * (c - 1) for c in Counter(labels).values())
        k = PLAIN[scheme](n)
        num += k * agree / (n * (n - 1))
        den += k
    return num / den if den > 0 else None


def pairs(df):
    """The (item, label) pairs of a long frame, in its row order."""
    return list(zip(df["item"], df["label"]))


def exact_moments(df, drop, scheme):
    """P(defined), E[SPA | defined], Var[SPA | defined] over all 2^N subsets."""
    rows = pairs(df)
    n = len(rows)
    p_def = mean = second = 0.0
    for mask in itertools.product([False, True], repeat=n):
        kept = [row for row, keep in zip(rows, mask) if keep]
        w = (1 - drop) ** len(kept) * drop ** (n - len(kept))
        v = plain_spa(kept, scheme)
        if v is not None:
            p_def += w
            mean += w * v
            second += w * v * v
    mean /= p_def
    return p_def, mean, second / p_def - mean ** 2


def test_plain_helper_is_sparse_agreement():
    for mask in ([True] * 11, [True, False, True, True, True, False, True, True, True, True,
                                False]):
        kept = SMALL[mask]
        for scheme in PLAIN:
            assert plain_spa(pairs(kept), scheme) == pytest.approx(
                iaa.sparse_agreement(kept, scheme=scheme).value, abs=1e-14)


@pytest.mark.parametrize("method", ["patterns", "direct"])
def test_no_drop_is_the_full_data_in_every_round(method):
    df = crowd_labels(n_items=300, seed=5)
    res = SpaMissingness(df, method=method).sample(0.0, n_rounds=7, seed=1)
    for scheme in res.values.columns:
        full = iaa.sparse_agreement(df, scheme=scheme).value
        assert res.full[scheme] == pytest.approx(full, abs=1e-12)
        np.testing.assert_allclose(res.values[scheme], full, rtol=0, atol=1e-12)
    assert np.all(res.n_usable == iaa.sparse_agreement(df).n_ratings)  # on items with n ≥ 2


@pytest.mark.parametrize("method", ["patterns", "direct"])
@pytest.mark.parametrize("drop", [0.2, 0.5])
def test_sample_moments_match_exact_enumeration(method, drop):
    rounds = 20_000
    res = SpaMissingness(SMALL, schemes=list(PLAIN), method=method).sample(
        drop, n_rounds=rounds, seed=11)
    for scheme in PLAIN:
        p_def, mean, var = exact_moments(SMALL, drop, scheme)
        v = res.values[scheme]
        defined = v.notna().mean()
        assert abs(defined - p_def) < 5 * np.sqrt(p_def * (1 - p_def) / rounds)
        got = v.dropna()
        assert abs(got.mean() - mean) < 5 * np.sqrt(var / len(got)), (scheme, got.mean(), mean)
        assert got.var() == pytest.approx(var, rel=0.1)


def test_same_seed_same_values_and_wrapper():
    df = crowd_labels(n_items=200, seed=2)
    a = spa_missingness(df, 0.3, n_rounds=50, seed=4)
    b = SpaMissingness(df).sample(0.3, n_rounds=50, seed=4)
    pd.testing.assert_frame_equal(a.values, b.values)
    assert list(a.summary().columns) == ["full", "mean", "sd", "q025", "q975", "n_rounds"]


def test_agrees_with_the_variance_curve_at_the_same_fraction():
    # spa_variance_curve(mode="random") at τ keeps each annotation with probability τ
    df = crowd_labels(n_items=400, seed=9)
    res = spa_missingness(df, 0.5, schemes=["flat", "edges"], n_rounds=3000, seed=1)
    curve = iaa.spa_variance_curve(df, schemes=["flat", "edges"], n_rounds=3000, seed=2,
                                   n_points=2)
    at = curve[curve["fraction"] == 0.5].set_index("scheme")
    for scheme in ("flat", "edges"):
        v = res.values[scheme]
        assert v.var() == pytest.approx(at.loc[scheme, "variance"], rel=0.1)
        assert abs(v.mean() - at.loc[scheme, "mean"]) < 5 * np.sqrt(v.var() / 1500)


def test_bad_arguments():
    with pytest.raises(AgreementError, match="drop"):
        spa_missingness(SMALL, 1.0)
    with pytest.raises(AgreementError, match="n_rounds"):
        spa_missingness(SMALL, 0.1, n_rounds=0)
    with pytest.raises(AgreementError, match="schemes"):
        spa_missingness(SMALL, 0.1, schemes=["nope"])


def test_a_scheme_that_falls_back_to_a_limit_says_so():
    # one class only: Var[P̂] ≡ 0 for every n, so the inverse-variance schemes use their
    # limits (spa_scheme_weights' notes); the spread result carries those notes
    one_class = SMALL.assign(label="a")
    res = spa_missingness(one_class, 0.2, schemes=["flat", "inv_var_class"], n_rounds=5,
                          seed=0)
    assert len(res.params["notes"]) == 1 and "inv_var_class" in res.params["notes"][0]
    assert spa_missingness(SMALL, 0.2, n_rounds=5, seed=0).params["notes"] == []
