"""Bootstrap over items: reproducible, exact resamples, and intervals that cover."""
import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError
from iaa_widgets.datasets import krippendorff_2011


def alpha_generic(data, metric="nominal"):
    """α through the general resampling path (not recognised as the fast path)."""
    return iaa.krippendorff_alpha(data, metric)


@pytest.mark.parametrize("metric", ["nominal", "ordinal", "interval", "ratio"])
def test_fast_alpha_path_equals_general_path(metric):
    # same seed ⇒ same item draws; the weighted-coincidence fast path must give the
    # values that rebuilding each resample and recomputing α gives
    df = krippendorff_2011()
    fast = iaa.bootstrap("krippendorff_alpha", df, n_resamples=300, seed=7, metric=metric)
    slow = iaa.bootstrap(alpha_generic, df, n_resamples=300, seed=7, metric=metric)
    np.testing.assert_array_equal(np.isnan(fast.values), np.isnan(slow.values))
    np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12)
    assert fast.estimate == iaa.krippendorff_alpha(df, metric).value


def test_reproducible_with_seed():
    df = krippendorff_2011()
    a = iaa.bootstrap(iaa.krippendorff_alpha, df, n_resamples=200, seed=3)
    b = iaa.bootstrap(iaa.krippendorff_alpha, df, n_resamples=200, seed=3)
    c = iaa.bootstrap(iaa.krippendorff_alpha, df, n_resamples=200, seed=4)
    np.testing.assert_array_equal(a.values, b.values)
    assert a.ci == b.ci and a.se == b.se
    assert not np.array_equal(a.values, c.values)


def test_interval_is_the_percentile_interval():
    res = iaa.bootstrap("krippendorff_alpha", krippendorff_2011(), n_resamples=500, seed=0,
                        level=0.9)
    ok = res.values[~np.isnan(res.values)]
    np.testing.assert_allclose(res.ci, np.quantile(ok, [0.05, 0.95]), rtol=0, atol=1e-12)
    assert res.se == pytest.approx(np.std(ok, ddof=1))
    assert res.n_undefined == len(res.values) - len(ok)
    assert res.method == "percentile" and res.to_frame().shape == (1, 8)


def test_resamples_are_whole_items():
    # a measure that reports what it was given: every resample holds n_items items whose
    # ratings are exactly those of the drawn items
    df = krippendorff_2011()
    ann = iaa.as_annotations(df)
    sizes = np.bincount(ann.item)
    rng = np.random.default_rng(11)  # the bootstrap's own stream for seed 11
    expected = [sizes[rng.integers(0, ann.n_items, ann.n_items)].sum() for _ in range(50)]
    seen = iaa.bootstrap(lambda a: a.n_ratings if a.n_items == ann.n_items else -1, df,
                         n_resamples=50, seed=11)
    np.testing.assert_array_equal(seen.values, expected)


def test_coverage_sanity():
    # Items with a true class among K = 3; each of 3 raters reports it with probability q,
    # else a uniformly random class. Population α (nominal, n → ∞) = (A − 1/K)/(1 − 1/K)
    # with A = a² + (K−1)b², a = q + (1−q)/K, b = (1−q)/K. Percentile 90% intervals from
    # 200 items should cover it in about 90% of 80 data sets (binomial sd ≈ 2.7 hits).
    k, q, n_items, raters, sims = 3, 0.6, 200, 3, 80
    a, b = q + (1 - q) / k, (1 - q) / k
    agree = a * a + (k - 1) * b * b
    truth = (agree - 1 / k) / (1 - 1 / k)
    rng = np.random.default_rng(2024)
    hits = 0
    for s in range(sims):
        t = rng.integers(0, k, n_items)
        keep = rng.random((n_items, raters)) < q
        x = np.where(keep, t[:, None], rng.integers(0, k, (n_items, raters)))
        df = pd.DataFrame({"item": np.repeat(np.arange(n_items), raters),
                           "annotator": np.tile(np.arange(raters), n_items),
                           "label": x.ravel()})
        lo, hi = iaa.bootstrap("krippendorff_alpha", df, n_resamples=300, seed=s,
                               level=0.9).ci
        hits += lo <= truth <= hi
    assert 62 <= hits <= 80


def test_bad_arguments():
    df = krippendorff_2011()
    with pytest.raises(AgreementError, match="unknown measure"):
        iaa.bootstrap("no_such_measure", df)
    with pytest.raises(AgreementError, match="n_resamples"):
        iaa.bootstrap("krippendorff_alpha", df, n_resamples=1)
    with pytest.raises(AgreementError, match="level"):
        iaa.bootstrap("krippendorff_alpha", df, level=95)
    # every resample undefined (a single category): refused with a reason
    flat = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": [0, 1, 0, 1], "label": [5] * 4})
    with pytest.raises(AgreementError, match="undefined on"):
        iaa.bootstrap("krippendorff_alpha", flat, n_resamples=20, seed=0)


def test_any_public_measure_by_name_with_its_options():
    from iaa_widgets.datasets import meyer_relatedness
    df = meyer_relatedness()
    res = iaa.bootstrap("cohen_kappa", df, n_resamples=100, seed=5, annotators=["r1", "r2"])
    assert res.estimate == iaa.cohen_kappa(df, annotators=["r1", "r2"]).value
    assert res.params == {"annotators": ["r1", "r2"]} and len(res.values) == 100
    again = iaa.bootstrap(iaa.cohen_kappa, df, n_resamples=100, seed=5, annotators=["r1", "r2"])
    np.testing.assert_array_equal(res.values, again.values)


@pytest.mark.parametrize("metric", ["nominal", "ordinal"])
def test_bca_interval_by_hand(metric):
    # Efron & Tibshirani (1993), ch. 14 (BCa), with scipy's normal distribution
    # and a leave-one-item-out α computed by brute force (independent of ours)
    from scipy.stats import norm
    from iaa_widgets import Annotations
    df = krippendorff_2011()
    res = iaa.bootstrap("krippendorff_alpha", df, n_resamples=800, seed=9, metric=metric,
                        method="bca", level=0.9)
    pct = iaa.bootstrap("krippendorff_alpha", df, n_resamples=800, seed=9, metric=metric)
    np.testing.assert_array_equal(res.values, pct.values)  # same resamples, other interval
    ann = iaa.as_annotations(df)
    jack = []
    for i in range(ann.n_items):
        keep = ann.item != i
        jack.append(iaa.krippendorff_alpha(Annotations(
            ann.item[keep], ann.annotator[keep], ann.label[keep], ann.rank[keep], ann.items,
            ann.annotators, ann.categories), metric).value)
    d = np.mean(jack) - np.array(jack)
    a = np.sum(d ** 3) / (6 * np.sum(d ** 2) ** 1.5)
    z0 = norm.ppf(np.mean(res.values < res.estimate))
    q = [norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))) for z in norm.ppf([0.05, 0.95])]
    np.testing.assert_allclose(res.ci, np.quantile(res.values, q), rtol=0, atol=1e-12)
    assert res.method == "bca" and res.ci != pct.ci


def test_bca_only_where_the_jackknife_is_vectorised():
    with pytest.raises(AgreementError, match="method must be"):
        iaa.bootstrap("fleiss_kappa", krippendorff_2011(), n_resamples=10, method="bca")
    with pytest.raises(AgreementError, match="method must be"):
        iaa.bootstrap("krippendorff_alpha", krippendorff_2011(), n_resamples=10,
                      method="basic")


def test_bca_coverage_sanity():
    # the model of test_coverage_sanity; BCa 90% intervals should cover the population α
    # in about 90% of 60 data sets (binomial sd ≈ 2.3 hits)
    k, q, n_items, raters, sims = 3, 0.6, 200, 3, 60
    a, b = q + (1 - q) / k, (1 - q) / k
    truth = (a * a + (k - 1) * b * b - 1 / k) / (1 - 1 / k)
    rng = np.random.default_rng(7)
    hits = 0
    for s in range(sims):
        t = rng.integers(0, k, n_items)
        x = np.where(rng.random((n_items, raters)) < q, t[:, None],
                     rng.integers(0, k, (n_items, raters)))
        df = pd.DataFrame({"item": np.repeat(np.arange(n_items), raters),
                           "annotator": np.tile(np.arange(raters), n_items),
                           "label": x.ravel()})
        lo, hi = iaa.bootstrap("krippendorff_alpha", df, n_resamples=300, seed=s, level=0.9,
                               method="bca").ci
        hits += lo <= truth <= hi
    assert 46 <= hits <= 60
