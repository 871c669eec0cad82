"""Bootstrap over items: reproducible, exact resamples, and intervals that cover."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

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
    fast = iaa.bootstrap(df, "krippendorff_alpha", n_resamples=300, seed=7, metric=metric)
    slow = iaa.bootstrap(df, alpha_generic, n_resamples=300, seed=7, metric=metric)
    np.testing.assert_array_equal(np.isnan(fast.values), np.isnan(slow.values))
    np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12)
    assert fast.estimate == iaa.krippendorff_alpha(df, metric).value


def test_reproducible_with_seed():
    df = krippendorff_2011()
    a = iaa.bootstrap(df, iaa.krippendorff_alpha, n_resamples=200, seed=3)
    b = iaa.bootstrap(df, iaa.krippendorff_alpha, n_resamples=200, seed=3)
    c = iaa.bootstrap(df, iaa.krippendorff_alpha, n_resamples=200, seed=4)
    np.testing.assert_array_equal(a.values, b.values)
    assert a.ci == b.ci and a.se == b.se
    assert not np.array_equal(a.values, c.values)


def test_interval_is_the_percentile_interval():
    res = iaa.bootstrap(krippendorff_2011(), "krippendorff_alpha", n_resamples=500, seed=0,
                        confidence=0.9)
    ok = res.values[~np.isnan(res.values)]
    np.testing.assert_allclose(res.ci, np.quantile(ok, [0.05, 0.95]), rtol=0, atol=1e-12)
    assert res.se == pytest.approx(np.std(ok, ddof=1))
    assert res.n_undefined == len(res.values) - len(ok)
    assert res.method == "percentile" and res.to_frame().shape == (1, 10)


def test_resamples_are_whole_items():
    # a measure that reports what it was given: every resample holds n_items items whose
    # ratings are exactly those of the drawn items
    df = krippendorff_2011()
    ann = iaa.as_annotations(df)
    sizes = np.bincount(ann.item)
    rng = np.random.default_rng(11)  # the bootstrap's own stream for seed 11
    expected = [sizes[rng.integers(0, ann.n_items, ann.n_items)].sum() for _ in range(50)]
    seen = iaa.bootstrap(df, lambda a: a.n_ratings if a.n_items == ann.n_items else -1,
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
        lo, hi = iaa.bootstrap(df, "krippendorff_alpha", n_resamples=300, seed=s,
                               confidence=0.9).ci
        hits += lo <= truth <= hi
    assert 62 <= hits <= 80


def test_bad_arguments():
    df = krippendorff_2011()
    with pytest.raises(AgreementError, match="bootstrap: measure must be a function"):
        iaa.bootstrap(df, "no_such_measure")
    with pytest.raises(AgreementError, match="n_resamples"):
        iaa.bootstrap(df, "krippendorff_alpha", n_resamples=1)
    with pytest.raises(AgreementError, match="confidence"):
        iaa.bootstrap(df, "krippendorff_alpha", confidence=95)
    # every resample undefined (a single category): refused with a reason
    flat = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": [0, 1, 0, 1], "label": [5] * 4})
    with pytest.raises(AgreementError, match="undefined on"):
        iaa.bootstrap(flat, "krippendorff_alpha", n_resamples=20, seed=0)


def test_any_public_measure_by_name_with_its_options():
    from iaa_widgets.datasets import meyer_relatedness
    df = meyer_relatedness()
    res = iaa.bootstrap(df, "cohen_kappa", n_resamples=100, seed=5, annotators=["r1", "r2"])
    assert res.estimate == iaa.cohen_kappa(df, annotators=["r1", "r2"]).value
    assert res.params == {"annotators": ["r1", "r2"]} and len(res.values) == 100
    again = iaa.bootstrap(df, iaa.cohen_kappa, n_resamples=100, seed=5, annotators=["r1", "r2"])
    np.testing.assert_array_equal(res.values, again.values)


def test_result_carries_what_the_measure_excluded():
    # the measure's own excluded counts and note on the data (its AgreementResult), in
    # the frame and the HTML (escaped: a label or reason is text); a bare-number
    # measure has none
    df = pd.DataFrame({"item": [0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 5],
                       "annotator": ["a", "b"] * 3 + ["a"] + ["a", "b"] * 2,
                       "label": ["x", "x", "y", "<b>y</b>", "x", "y", "x", "y", "y", "x",
                                 "x"]})
    res = iaa.bootstrap(df, "krippendorff_alpha", n_resamples=50, seed=0)
    direct = iaa.krippendorff_alpha(df)
    assert direct.excluded and res.excluded == direct.excluded  # item 3: rated once
    assert res.note == direct.note and res.n_excluded == direct.n_excluded == 1
    assert res.to_frame()["n_excluded"].iloc[0] == 1
    assert "excluded: 1 " in res._repr_html_() and "<b>" not in res._repr_html_()
    bare = iaa.bootstrap(df, lambda d: iaa.krippendorff_alpha(d).value, n_resamples=20,
                         seed=0)
    assert bare.excluded == {} and bare.note == "" and bare.n_excluded == 0
    # augmented κ's note: the pair (a, c) shares no item, so it is out of the averages
    pairs = pd.DataFrame({"item": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5],
                          "annotator": list("abababbcbcb"),
                          "label": [0, 0, 1, 1, 0, 1, 1, 1, 0, 0, 1]})
    res = iaa.bootstrap(pairs, "augmented_kappa", n_resamples=30, seed=0, p=0.6)
    assert "share no item" in res.note and res.note == iaa.augmented_kappa(pairs).note
    assert res.excluded == {"rated by fewer than two annotators": 1}
    assert "(a, c)" in res._repr_html_()


@pytest.mark.parametrize("metric", ["nominal", "ordinal"])
def test_bca_interval_by_hand(metric):
    # Efron & Tibshirani (1993), ch. 14 (BCa), with scipy's normal distribution
    # and a leave-one-item-out α computed by brute force (independent of ours)
    from scipy.stats import norm
    from iaa_widgets import Annotations
    df = krippendorff_2011()
    res = iaa.bootstrap(df, "krippendorff_alpha", n_resamples=800, seed=9, metric=metric,
                        interval="bca", confidence=0.9)
    pct = iaa.bootstrap(df, "krippendorff_alpha", n_resamples=800, seed=9, metric=metric)
    np.testing.assert_array_equal(res.values, pct.values)  # same resamples, other interval
    ann = iaa.as_annotations(df)
    jack = []
    for i in range(ann.n_items):
        keep = ann.item != i
        jack.append(iaa.krippendorff_alpha(Annotations(
            ann.item[keep], ann.annotator[keep], ann.label[keep], ann.rank[keep], ann.items,
            ann.annotators, ann.categories, ordered=ann.ordered), metric).value)
    d = np.mean(jack) - np.array(jack)
    a = np.sum(d ** 3) / (6 * np.sum(d ** 2) ** 1.5)
    z0 = norm.ppf(np.mean(res.values < res.estimate))
    q = [norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))) for z in norm.ppf([0.05, 0.95])]
    np.testing.assert_allclose(res.ci, np.quantile(res.values, q), rtol=0, atol=1e-12)
    assert res.method == "bca" and res.ci != pct.ci


def test_bca_only_where_the_jackknife_is_vectorised():
    # a function without a Statistic has no leave-one-item-out values
    with pytest.raises(AgreementError, match="interval must be 'percentile' for <lambda>"):
        iaa.bootstrap(krippendorff_2011(), lambda d: iaa.fleiss_kappa(d), n_resamples=10,
                      interval="bca")
    cells = iaa.Annotations.from_contingency(np.array([[20, 5], [3, 12]]), [0, 1])
    with pytest.raises(AgreementError, match="weighted cells"):
        iaa.bootstrap(cells, "cohen_kappa", n_resamples=10, interval="bca")
    with pytest.raises(AgreementError, match="interval must be"):
        iaa.bootstrap(krippendorff_2011(), "krippendorff_alpha", n_resamples=10,
                      interval="basic")


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
        lo, hi = iaa.bootstrap(df, "krippendorff_alpha", n_resamples=300, seed=s,
                               confidence=0.9, interval="bca").ci
        hits += lo <= truth <= hi
    assert 46 <= hits <= 60


# ------------------------------------------------------ fast paths of the classic measures
# Each classic measure is a function of item-level sufficient statistics, so a resample is
# a vector of item weights w_i (how often item i was drawn). Reference: the general path,
# which rebuilds every resample and calls the measure (forced by wrapping the function, as
# alpha_generic does); same seed ⇒ same draws ⇒ the same values within rounding.
ONES = np.ones((4, 4))  # agreement weights that make A_e = 1
# asymmetric (rows: the first annotator), so a table transposed by mistake would show
MATRIX = np.array([[1, .8, .2, 0], [.1, 1, .6, .2], [.5, 0, 1, .6], [0, .3, .9, 1]])
CLASSIC_CASES = [
    ("percent_agreement", {}),
    ("percent_agreement", {"missing": "available"}),
    ("percent_agreement", {"annotators": ["r0", "r1"], "ci": "wilson"}),
    ("bennett_s", {}),
    ("bennett_s", {"missing": "available", "annotators": ["r2", "r0", "r1"]}),
    ("scott_pi", {"annotators": ["r0", "r1"]}),
    ("cohen_kappa", {"annotators": ["r1", "r0"]}),
    ("cohen_kappa", {"annotators": ["r0", "r2"], "weights": "linear"}),
    ("cohen_kappa", {"annotators": ["r0", "r1"], "weights": "quadratic", "missing": "raise"}),
    ("cohen_kappa", {"annotators": ["r2", "r1"], "weights": MATRIX}),
    ("cohen_kappa", {"annotators": ["r0", "r1"], "weights": ONES}),
    ("fleiss_kappa", {}),
    ("fleiss_kappa", {"missing": "available", "confidence": 0.9}),
    ("davies_fleiss_kappa", {}),
    ("davies_fleiss_kappa", {"missing": "available"}),
    ("specific_agreement", {"positive": 0}),
    ("specific_agreement", {"positive": 1, "missing": "available"}),
]


def random_ratings(seed, n_items, n_raters, k_used, missing, secondary=False):
    """Ratings that agree more than chance, k_used of 4 declared categories, some missing."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k_used, n_items)
    x = np.where(rng.random((n_items, n_raters)) < 0.6, truth[:, None],
                 rng.integers(0, k_used, (n_items, n_raters)))
    kept = rng.random((n_items, n_raters)) >= missing
    kept[0] = True  # one complete item: the data is valid (two annotators at least)
    rows, cols = np.nonzero(kept)
    df = pd.DataFrame({"item": rows, "annotator": [f"r{c}" for c in cols],
                       "label": x[rows, cols], "rank": 1})
    if secondary:  # a second label on some ratings: every measure uses the primary only
        extra = df.sample(frac=0.3, random_state=seed).assign(rank=2)
        extra["label"] = (extra["label"] + 1) % 4
        df = pd.concat([df, extra], ignore_index=True)
    return iaa.Annotations.from_long(df, rank="rank", categories=[0, 1, 2, 3])


def fast_and_generic(name, data, n_resamples, seed, **kwargs):
    """bootstrap through the fast path and through the general path (or the errors)."""
    fn = getattr(iaa, name)
    out = []
    for measure in (name, lambda d, **kw: fn(d, **kw)):
        try:
            out.append(iaa.bootstrap(data, measure, n_resamples=n_resamples, seed=seed,
                                     **kwargs))
        except AgreementError as err:
            out.append(err)
    return out


def assert_same(fast, slow):
    if isinstance(slow, AgreementError):  # refused by both (no item, every resample NaN)
        assert isinstance(fast, AgreementError), (fast, slow)
        assert str(fast).split(" is undefined on")[-1] == str(slow).split(" is undefined on")[-1]
        return
    assert not isinstance(fast, AgreementError), fast
    np.testing.assert_array_equal(np.isnan(fast.values), np.isnan(slow.values))
    np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12)
    assert fast.n_undefined == slow.n_undefined
    np.testing.assert_allclose(fast.ci, slow.ci, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name, kwargs", CLASSIC_CASES)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n_items=st.integers(1, 12),
       n_raters=st.integers(3, 4), k_used=st.integers(1, 3),
       missing=st.sampled_from([0.0, 0.2, 0.4]), secondary=st.booleans())
def test_classic_fast_path_equals_general_path(name, kwargs, seed, n_items, n_raters, k_used,
                                               missing, secondary):
    data = random_ratings(seed, n_items, n_raters, k_used, missing, secondary)
    assert_same(*fast_and_generic(name, data, 25, seed, **kwargs))


def test_classic_fast_paths_count_undefined_resamples():
    # 3 annotators, 6 items: item 0 unanimous "x", item 1 split, items 2–5 lack a rating.
    # Many resamples draw no split item (every rating x: A_e = 1, NaN) or, under
    # listwise, no complete item at all (the measure refuses it: NaN too).
    df = pd.DataFrame({"item": [0] * 3 + [1] * 3 + [2, 2, 3, 3, 4, 4, 5, 5],
                       "annotator": ["r0", "r1", "r2"] * 2 + ["r0", "r1", "r1", "r2"] * 2,
                       "label": list("xxx" "xyy" "xx" "xx" "yy" "xx")})
    for name, kwargs in [("percent_agreement", {}), ("bennett_s", {}),
                         ("fleiss_kappa", {}), ("fleiss_kappa", {"missing": "available"}),
                         ("davies_fleiss_kappa", {"missing": "available"}),
                         ("scott_pi", {"annotators": ["r0", "r2"]}),
                         ("cohen_kappa", {"annotators": ["r2", "r1"], "weights": "linear"}),
                         ("specific_agreement", {"positive": "y"})]:
        fast, slow = fast_and_generic(name, df, 300, 1, **kwargs)
        assert_same(fast, slow)
        assert 0 < fast.n_undefined < 300, name


@pytest.mark.parametrize("name", ["percent_agreement", "bennett_s", "fleiss_kappa",
                                  "specific_agreement"])
def test_classic_fast_path_on_anonymous_counts(name):
    # Fleiss' layout with unequal totals: listwise keeps the items with the most ratings
    # (m = 4, a fixed property of each item: a resample cannot change which are used)
    counts = np.array([[4, 0], [2, 2], [1, 2], [0, 3], [3, 1], [0, 2], [1, 3]])
    data = iaa.Annotations.from_counts(counts)
    for kwargs in ({}, {"missing": "available"}):
        kwargs = {**kwargs, "positive": 1} if name == "specific_agreement" else kwargs
        assert_same(*fast_and_generic(name, data, 200, 4, **kwargs))


def test_classic_measures_take_the_fast_path(monkeypatch):
    from iaa_widgets.inference import bootstrap as resampling
    monkeypatch.setattr(resampling, "_generic", None)  # calling it would fail
    data = random_ratings(0, 30, 3, 3, 0.0)  # complete: missing="raise" accepts it
    for name, kwargs in CLASSIC_CASES:
        if kwargs.get("weights") is ONES:
            continue  # A_e = 1 on every resample: refused by both paths
        assert len(iaa.bootstrap(data, name, n_resamples=5, seed=0, **kwargs).values) == 5


@pytest.mark.parametrize("n, sizes", [(1 << 21, [2, 2, 1]), (1000, [5]), (50_000, [5])])
def test_weight_blocks_cover_every_resample_once(n, sizes):
    # blocks of b = 2²² // rows resamples: with 2²¹ item rows two at a time, the last one
    # alone; row b counts how often resample b drew each item, from the draws of
    # rng.integers(0, n, n) one resample after the other (brute force), whether one
    # bincount counts one resample (2²¹ rows) or several (2¹⁷ // n of them)
    from types import SimpleNamespace
    from iaa_widgets.stats.resampling import _weight_blocks
    stat = SimpleNamespace(n_items=n, weights=None)
    blocks = list(_weight_blocks(np.random.default_rng(0), stat, 5))
    assert [len(b) for b in blocks] == sizes
    rng = np.random.default_rng(0)
    expected = [np.bincount(rng.integers(0, n, n), minlength=n) for _ in range(5)]
    np.testing.assert_array_equal(np.concatenate(blocks), expected)


def test_a_generator_given_as_seed_is_left_where_its_draws_leave_it():
    # the draws are made one group ahead on a second thread (_drawn_ahead), but exactly
    # those of rng.integers(0, n, n) per resample: a Generator passed as the seed has
    # drawn those and no more, and the values are those of an integer seed's stream
    ann = iaa.as_annotations(random_ratings(1, 300, 4, 3, 0.1))
    given = np.random.default_rng(21)
    res = iaa.bootstrap(ann, "fleiss_kappa", n_resamples=9, seed=given)
    ref = np.random.default_rng(21)
    for _ in range(9):
        ref.integers(0, ann.n_items, ann.n_items)
    assert given.integers(0, 2 ** 62) == ref.integers(0, 2 ** 62)
    np.testing.assert_array_equal(
        res.values, iaa.bootstrap(ann, "fleiss_kappa", n_resamples=9, seed=21).values)


# ------------------------------------------- one rule for intervals; method= of a measure
def test_a_measures_own_method_passes_through_and_the_interval_kind_is_interval():
    # bootstrap's interval kind is interval=; a measure that names its own method= gets
    # it (here a user's measure whose value depends on it), with no warning
    import warnings

    def scaled(data, method="one"):
        value = iaa.percent_agreement(data).value
        return value if method == "one" else value / 2

    df = krippendorff_2011()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        half = iaa.bootstrap(df, scaled, n_resamples=50, seed=2, method="half")
    whole = iaa.bootstrap(df, scaled, n_resamples=50, seed=2)
    assert half.estimate == whole.estimate / 2  # method= reached the measure
    np.testing.assert_allclose(half.values, whole.values / 2, rtol=0, atol=0)
    assert half.method == "percentile" and half.params == {"method": "half"}
    # a measure without method=: the former name of interval=, with a DeprecationWarning
    with pytest.warns(DeprecationWarning, match="method="):
        bca = iaa.bootstrap(df, "fleiss_kappa", n_resamples=50, seed=2, method="bca")
    assert bca.method == "bca"


def test_a_bootstrap_interval_follows_the_results_rule():
    # the same cut as an AgreementResult's (results.cut_interval): a percentile interval
    # of values inside the range is never cut; one built outside it is, and says so
    res = iaa.bootstrap(krippendorff_2011(), "percent_agreement", n_resamples=100, seed=0)
    assert res.ci_uncut is None and 0 <= res.ci[0] <= res.ci[1] <= 1
    made = iaa.BootstrapResult("cohen_kappa", 0.5, (-0.3, 1.2), 0.3, 0.95, np.zeros(2))
    assert made.ci == (-0.3, 1.0) and made.ci_uncut == (-0.3, 1.2)
    assert "interval cut to the coefficient's range [−∞, 1]: it was [−0.3000, 1.2000]" \
        in made.note


def test_a_bootstrap_does_not_copy_the_analytic_intervals_cut():
    # 9 agreements of 10: the measure's Wald interval reaches 1.086 and is cut (its note
    # says so); the bootstrap copies the measure's note but not that sentence
    frame = pd.DataFrame([(i, r, "x" if i or r == "a" else "y") for i in range(10)
                          for r in ("a", "b")], columns=["item", "annotator", "label"])
    assert iaa.percent_agreement(frame).ci_uncut is not None
    boot = iaa.bootstrap(frame, "percent_agreement", n_resamples=50, seed=0)
    assert "interval cut" not in boot.note and boot.ci_uncut is None
