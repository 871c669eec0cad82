"""The Statistic of every categorical measure (iaa_widgets.stats): its bootstrap equals
rebuilding each resample and recomputing the public function (same seed), its totals
are additive over items (what an engine summing group-bys relies on), and its
jackknife equals leaving each item out and recomputing the measure.

Expected values all come from the public functions themselves, called on data rebuilt
by hand in this file (no code shared with the Statistic path)."""
import ast
import inspect

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations

# asymmetric agreement weights (rows: the first annotator) and a δ matrix: a table or
# coincidence matrix transposed or misaligned by mistake would show
MATRIX = np.array([[1, .8, .2, 0], [.1, 1, .6, .2], [.5, 0, 1, .6], [0, .3, .9, 1]])
DELTA = np.abs(np.subtract.outer(np.arange(4), np.arange(4))) ** 0.7
CASES = [
    ("percent_agreement", {}),
    ("percent_agreement", {"missing": "available", "ci": "wald"}),
    ("bennett_s", {}),
    ("bennett_s", {"missing": "pairable", "annotators": ["r2", "r0", "r1"]}),
    ("scott_pi", {"annotators": ["r0", "r1"]}),
    ("cohen_kappa", {"annotators": ["r1", "r0"]}),
    ("cohen_kappa", {"annotators": ["r0", "r2"], "weights": "linear"}),
    ("cohen_kappa", {"annotators": ["r2", "r1"], "weights": MATRIX}),
    ("fleiss_kappa", {}),
    ("fleiss_kappa", {"missing": "available"}),
    ("fleiss_kappa", {"missing": "pairable"}),
    ("davies_fleiss_kappa", {}),
    ("davies_fleiss_kappa", {"missing": "available"}),
    ("specific_agreement", {"positive": 2}),
    ("specific_agreement", {"positive": 0, "missing": "available"}),
    ("krippendorff_alpha", {"metric": "nominal"}),
    ("krippendorff_alpha", {"metric": "ordinal"}),
    ("krippendorff_alpha", {"metric": "interval"}),
    ("krippendorff_alpha", {"metric": "ratio"}),
    ("krippendorff_alpha", {"metric": DELTA}),
    ("krippendorff_alpha", {"metric": lambda a, b: abs(a - b) ** 1.5}),
    ("sparse_agreement", {}),
    ("sparse_agreement", {"scheme": "flat"}),
    ("sparse_agreement", {"scheme": "inv_var_class"}),  # k_i depends on pooled shares
    ("sparse_kappa", {"scheme": "edges"}),
    ("sparse_kappa", {"scheme": "inv_var_class", "class_probs": [.1, .2, .3, .4]}),
    ("sparse_agreement", {"scheme": "annotations"}),
    ("sparse_kappa", {"scheme": "inv_var"}),
    ("sparse_agreement", {"scheme": "edges", "class_probs": {0: .4, 1: .1, 2: .2, 3: .3}}),
    ("augmented_kappa", {}),
    ("augmented_kappa", {"p": 0.5}),
    ("augmented_kappa", {"p": 1.0}),
    # coefficients of the field added beside these (their own modules; icc and
    # mean_pearson_r read the category codes 0 … 3 as scores)
    ("light_kappa", {}),
    ("hubert_kappa", {}),
    ("kappa_max", {"annotators": ["r1", "r3"]}),
    ("janson_olsson_iota", {}),
    ("robinson_a", {}),
    ("finn_coefficient", {"levels": 4}),
    ("mean_pearson_r", {}),
    ("tolerance_agreement", {}),
    ("maxwell_re", {"annotators": ["r0", "r2"]}),
    ("icc", {}),
    ("gwet_ac1", {}),
    ("gwet_ac1", {"missing": "listwise"}),
    ("gwet_ac2", {}),
    ("gwet_ac2", {"weights": MATRIX}),
    ("conger_kappa", {}),
    ("kendall_w", {}),
]
# How a new categorical coefficient joins: give it `fn.statistic` (iaa_widgets.stats) and
# add its rows here (its name in iaa_widgets and its keyword arguments); the tests below
# then check its bootstrap against row resampling, its union property and its jackknife,
# and test_every_measure_with_a_statistic_is_tested fails until it has a row. A measure
# whose value is a table (pairwise) has its rows in PAIRWISE_CASES.
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(CASES)]
# Kendall's W refits the ranks on each resample: its totals are the resample's item
# weights, not additive tables, so it has no union property (its bootstrap and jackknife
# are checked above and in tests/test_kendall_statistic.py)
ADDITIVE = [(i, case) for i, case in zip(IDS, CASES) if case[0] != "kendall_w"]


def ratings(seed, n_items=40, n_raters=4, missing=0.25, k=4):
    """Ratings over k declared, ordered categories 0 … k − 1 that agree more than
    chance, some missing (items rated once or not at all included), a third of them with
    a secondary label (augmented κ reads them; every other measure reads the primary
    labels only)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    x = np.where(rng.random((n_items, n_raters)) < 0.6, truth[:, None],
                 rng.integers(0, k, (n_items, n_raters)))
    kept = rng.random((n_items, n_raters)) >= missing
    kept[:3] = True  # complete items: every policy keeps some
    rows, cols = np.nonzero(kept)
    df = pd.DataFrame({"item": rows, "label": x[rows, cols], "rank": 1,
                       "annotator": [f"r{c}" for c in cols]})
    second = df[rng.random(len(df)) < 1 / 3].assign(rank=2)
    second["label"] = (second["label"] + rng.integers(1, k, len(second))) % k
    return Annotations.from_long(pd.concat([df, second], ignore_index=True), rank="rank",
                                 categories=list(range(k)))


BINARY = {"maxwell_re"}  # measures defined for two categories: tested on k = 2


def data_for(name, seed, **kwargs):
    """The test data of a measure: ``ratings``, binary for the measures of BINARY."""
    return ratings(seed, **kwargs, k=2 if name in BINARY else 4)


def with_items(ann, drawn):
    """The ratings of items ``drawn`` (an item drawn twice is two items), written out."""
    parts = [np.flatnonzero(ann.item == i) for i in drawn]
    take = np.concatenate(parts)
    item = np.repeat(np.arange(len(drawn)), [len(p) for p in parts])
    return Annotations(item, ann.annotator[take], ann.label[take], ann.rank[take],
                       pd.RangeIndex(len(drawn), name="item"), ann.annotators,
                       ann.categories, ordered=ann.ordered)


def value_or_nan(fn, data, kwargs):
    try:
        return float(fn(data, **kwargs).value)
    except AgreementError:  # the measure refuses the resample (e.g. no item left)
        return np.nan


def row_resampling(name, ann, n_resamples, seed, kwargs):
    """The reference: rng.integers(0, n, n) per resample, rebuilt data, public function."""
    rng = np.random.default_rng(seed)
    fn = getattr(iaa, name)
    return np.array([value_or_nan(fn, with_items(ann, rng.integers(0, ann.n_items,
                                                                   ann.n_items)), kwargs)
                     for _ in range(n_resamples)])


@pytest.mark.parametrize("name, kwargs", CASES, ids=IDS)
@pytest.mark.parametrize("seed", [0, 1])
def test_statistic_bootstrap_equals_row_resampling(name, kwargs, seed):
    ann = data_for(name, seed)
    boot = iaa.bootstrap(ann, name, n_resamples=60, seed=seed, **kwargs)
    expected = row_resampling(name, ann, 60, seed, kwargs)
    np.testing.assert_array_equal(np.isnan(boot.values), np.isnan(expected))
    np.testing.assert_allclose(boot.values, expected, rtol=0, atol=1e-12)
    assert boot.estimate == getattr(iaa, name)(ann, **kwargs).value


@pytest.mark.parametrize("name", ["percent_agreement", "bennett_s", "fleiss_kappa",
                                  "specific_agreement", "krippendorff_alpha"])
def test_statistic_bootstrap_of_anonymous_counts(name):
    # Fleiss-layout counts (from_counts) stay counts; the reference rebuilds the table
    # of the drawn rows and calls the public function on it
    counts = np.array([[4, 0, 0], [2, 2, 0], [1, 2, 1], [0, 3, 1], [3, 1, 0], [0, 0, 2],
                       [1, 1, 1], [0, 4, 0], [2, 0, 2]])
    kwargs = {"positive": 1} if name == "specific_agreement" else {}
    fn = getattr(iaa, name)
    for more in ({}, {"missing": "available"}):
        more = {} if name == "krippendorff_alpha" else more
        boot = iaa.bootstrap(Annotations.from_counts(counts), name, n_resamples=80, seed=3,
                             **kwargs, **more)
        rng = np.random.default_rng(3)
        expected = [value_or_nan(fn, Annotations.from_counts(counts[rng.integers(0, 9, 9)]),
                                 {**kwargs, **more}) for _ in range(80)]
        np.testing.assert_allclose(boot.values, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name, kwargs", [c for _, c in ADDITIVE], ids=[i for i, _ in ADDITIVE])
def test_statistic_of_a_union_is_the_sum_of_the_parts(name, kwargs):
    # split the items in two; the parts keep the items, annotators and categories of the
    # whole (an item's ratings all go to one part), so each item is used or not alike
    ann = data_for(name, 7, n_items=60)
    make = getattr(iaa, name).statistic
    part = np.random.default_rng(1).random(ann.n_items) < 0.5
    whole = make(ann, **kwargs).total()
    first = make(ann._take(part[ann.item]), **kwargs).total()
    second = make(ann._take(~part[ann.item]), **kwargs).total()
    assert whole.keys() == first.keys() == second.keys()
    for key in whole:
        np.testing.assert_allclose(first[key] + second[key], whole[key], rtol=1e-13,
                                   atol=1e-12)
    # and finish of those totals is the measure of the whole
    stat = make(ann, **kwargs)
    summed = {k: (first[k] + second[k])[None] for k in whole}
    assert float(stat.finish(summed)[0][0]) == pytest.approx(
        getattr(iaa, name)(ann, **kwargs).value, abs=1e-12)


@pytest.mark.parametrize("name, kwargs", CASES, ids=IDS)
def test_jackknife_equals_leaving_each_item_out(name, kwargs):
    ann = data_for(name, 11, n_items=25)
    jack = getattr(iaa, name).statistic(ann, **kwargs).jackknife()
    fn = getattr(iaa, name)
    everything = np.arange(ann.n_items)
    expected = [value_or_nan(fn, with_items(ann, everything[everything != i]), kwargs)
                for i in everything]
    np.testing.assert_allclose(jack, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["fleiss_kappa", "cohen_kappa", "specific_agreement"])
def test_bca_for_every_measure_with_a_statistic(name):
    # Efron & Tibshirani (1993), ch. 14, by hand with scipy's normal distribution over
    # the reference's resamples and leave-one-item-out values
    from scipy.stats import norm
    kwargs = {"fleiss_kappa": {}, "cohen_kappa": {"annotators": ["r0", "r1"]},
              "specific_agreement": {"positive": 1}}[name]
    ann = ratings(5, n_items=80, missing=0.1)
    res = iaa.bootstrap(ann, name, n_resamples=300, seed=2, interval="bca", confidence=0.9,
                        **kwargs)
    values = row_resampling(name, ann, 300, 2, kwargs)
    fn = getattr(iaa, name)
    everything = np.arange(ann.n_items)
    jack = np.array([value_or_nan(fn, with_items(ann, everything[everything != i]), kwargs)
                     for i in everything])
    d = np.mean(jack) - jack
    a = np.sum(d ** 3) / (6 * np.sum(d ** 2) ** 1.5)
    z0 = norm.ppf(np.mean(values < res.estimate))
    q = [norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))) for z in norm.ppf([0.05, 0.95])]
    np.testing.assert_allclose(res.ci, np.quantile(values, q), rtol=0, atol=1e-12)


def test_resampling_knows_no_measure_by_name():
    # the bootstrap reads measure.statistic; no public measure is named in its code
    from iaa_widgets.stats import resampling
    tree = ast.parse(inspect.getsource(resampling))
    words = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} | \
        {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
         and isinstance(n.value, str)}
    text = " ".join(map(str, words))
    from iaa_widgets.measures import _registry
    for name in [*_registry.names(), "pairwise"]:  # every coefficient of the registry
        assert name not in text, name


SPARSE_CASES = [i for i, (name, _) in enumerate(CASES) if name == "augmented_kappa"][:1] + \
    [7, 12, 16, 20, 24, 25]


@pytest.mark.parametrize("name, kwargs", [CASES[i] for i in SPARSE_CASES],
                         ids=[IDS[i] for i in SPARSE_CASES])
def test_large_tables_stay_sparse(name, kwargs, monkeypatch):
    # beyond DENSE_CELLS a per-item table is CSR, built over blocks of ITEM_BLOCK items;
    # its totals, jackknife and bootstrap are those of the dense table
    from iaa_widgets.stats import statistic
    ann = data_for(name, 3)
    make = getattr(iaa, name).statistic
    dense = make(ann, **kwargs)
    before = iaa.bootstrap(ann, name, n_resamples=40, seed=0, interval="bca", **kwargs)
    monkeypatch.setattr(statistic, "ITEM_BLOCK", 7)
    blocked = make(ann, **kwargs)
    monkeypatch.setattr(statistic, "DENSE_CELLS", 0)
    kept = make(ann, **kwargs)
    after = iaa.bootstrap(ann, name, n_resamples=40, seed=0, interval="bca", **kwargs)
    assert any(not isinstance(t, np.ndarray) for t in kept.tables.values())
    for other in (blocked, kept):
        for key, total in dense.total().items():
            np.testing.assert_allclose(other.total()[key], total, rtol=0, atol=1e-12)
        np.testing.assert_allclose(other.jackknife(), dense.jackknife(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(after.values, before.values, rtol=0, atol=1e-12)
    assert after.ci == pytest.approx(before.ci, abs=1e-12)


def test_spa_item_weights_given_per_item_stay_with_their_item():
    # an array of k_i: a drawn item brings its own weight (the reference passes
    # k[drawn] with the rebuilt resample)
    ann = ratings(4, n_items=50, missing=0.4)
    k = np.random.default_rng(0).random(ann.n_items) * 3
    boot = iaa.bootstrap(ann, "sparse_kappa", n_resamples=40, seed=6, scheme=k)
    rng = np.random.default_rng(6)
    expected = []
    for _ in range(40):
        drawn = rng.integers(0, ann.n_items, ann.n_items)
        expected.append(value_or_nan(iaa.sparse_kappa, with_items(ann, drawn),
                                     {"scheme": k[drawn]}))
    np.testing.assert_allclose(boot.values, expected, rtol=0, atol=1e-12)


# ------------------------------------------------------------------ pairwise matrices
# pairwise's value is an annotator × annotator table: its Statistic's finish gives the
# values of the pairs of stats.all_pairs (upper triangle, row by row) per resample.
PAIRWISE_CASES = [
    ("percent_agreement", {}),
    ("bennett_s", {"missing": "listwise"}),
    ("scott_pi", {}),
    ("cohen_kappa", {}),
    ("cohen_kappa", {"weights": MATRIX}),  # asymmetric: a transposed table would show
    ("cohen_kappa", {"weights": "quadratic", "missing": "listwise"}),
    ("krippendorff_alpha", {"metric": "nominal"}),
    ("krippendorff_alpha", {"metric": "ordinal"}),
    ("krippendorff_alpha", {"metric": "interval", "missing": "listwise"}),
    ("krippendorff_alpha", {"metric": DELTA}),
]
PAIRWISE_IDS = [f"{name}-{i}" for i, (name, _) in enumerate(PAIRWISE_CASES)]


def upper(frame):
    """The pairs' values of a pairwise matrix, in stats.all_pairs order."""
    return frame.to_numpy()[np.triu_indices(len(frame), 1)]


def pairwise_or_nan(ann, measure, kwargs, n_pairs):
    try:
        return upper(iaa.pairwise(ann, measure, **kwargs))
    except AgreementError:  # listwise: no complete item drawn
        return np.full(n_pairs, np.nan)


@pytest.mark.parametrize("measure, kwargs", PAIRWISE_CASES, ids=PAIRWISE_IDS)
def test_pairwise_bootstrap_equals_row_resampling(measure, kwargs):
    # reference: rng.integers(0, n, n) per resample, rebuilt data, pairwise() on it
    ann = ratings(2, n_items=30)
    n_pairs = 6
    res = iaa.pairwise(ann, measure, ci="percentile", n_resamples=50, seed=4, confidence=0.8,
                       **kwargs)
    from iaa_widgets.stats.resampling import resampled
    values = resampled(iaa.pairwise.statistic(ann, measure, **kwargs), 50,
                       np.random.default_rng(4))
    rng = np.random.default_rng(4)
    expected = np.array([pairwise_or_nan(with_items(ann, rng.integers(0, 30, 30)), measure,
                                         kwargs, n_pairs) for _ in range(50)])
    np.testing.assert_array_equal(np.isnan(values), np.isnan(expected))
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-12)
    # the interval of each pair: numpy's percentile interval of the reference's values
    low, high = np.nanquantile(expected, [0.1, 0.9], axis=0)
    np.testing.assert_allclose(upper(pd.DataFrame(res.attrs["ci_low"])), low, rtol=0,
                               atol=1e-12)
    np.testing.assert_allclose(upper(pd.DataFrame(res.attrs["ci_high"])), high, rtol=0,
                               atol=1e-12)
    np.testing.assert_allclose(upper(pd.DataFrame(res.attrs["se"])),
                               np.nanstd(expected, axis=0, ddof=1), rtol=1e-12)
    assert upper(pd.DataFrame(res.attrs["n_undefined"])).tolist() == \
        np.isnan(expected).sum(axis=0).tolist()
    # the matrix itself is unchanged by ci=
    pd.testing.assert_frame_equal(pd.DataFrame(res), pd.DataFrame(
        iaa.pairwise(ann, measure, **kwargs)))


@pytest.mark.parametrize("measure, kwargs", PAIRWISE_CASES, ids=PAIRWISE_IDS)
def test_pairwise_statistic_of_a_union_is_the_sum_of_the_parts(measure, kwargs):
    ann = ratings(8, n_items=50)
    make = iaa.pairwise.statistic
    part = np.random.default_rng(2).random(ann.n_items) < 0.5
    whole = make(ann, measure, **kwargs).total()
    first = make(ann._take(part[ann.item]), measure, **kwargs).total()
    second = make(ann._take(~part[ann.item]), measure, **kwargs).total()
    for name in whole:  # counts, or sums of a few weights: equal to rounding
        np.testing.assert_allclose(first[name] + second[name], whole[name], rtol=1e-14)
    # the totals are read off stats.pair_contingencies of the items used (its margins;
    # ordinal α: the tables themselves), and finish of the summed parts is the matrix
    used = ann if kwargs.get("missing") != "listwise" else ann._take(
        (np.bincount(ann.primary().item, minlength=ann.n_items) == 4)[ann.item])
    t = iaa.stats.pair_contingencies(used)
    if "t" in whole:
        np.testing.assert_array_equal(whole["t"], t)
    else:  # 2K + 1 numbers a pair: Σ agreements (unweighted) and the margins
        np.testing.assert_array_equal(whole["row"], t.sum(axis=2))
        np.testing.assert_array_equal(whole["col"], t.sum(axis=1))
        if measure != "krippendorff_alpha" and "weights" not in kwargs:
            np.testing.assert_array_equal(whole["agree"], np.trace(t, axis1=1, axis2=2))
    stat = make(ann, measure, **kwargs)
    summed = {name: (first[name] + second[name])[None] for name in whole}
    np.testing.assert_allclose(stat.finish(summed)[0][0],
                               upper(iaa.pairwise(ann, measure, **kwargs)), rtol=0,
                               atol=1e-12)


@pytest.mark.parametrize("measure, kwargs", [PAIRWISE_CASES[i] for i in (3, 7)],
                         ids=[PAIRWISE_IDS[i] for i in (3, 7)])
def test_pairwise_bca_by_hand(measure, kwargs):
    # Efron & Tibshirani (1993), ch. 14, per pair, with scipy's normal distribution over
    # the reference's resamples and leave-one-item-out matrices (brute force)
    from scipy.stats import norm
    ann = ratings(5, n_items=40, missing=0.1)
    res = iaa.pairwise(ann, measure, ci="bca", n_resamples=200, seed=1, confidence=0.9, **kwargs)
    rng = np.random.default_rng(1)
    values = np.array([upper(iaa.pairwise(with_items(ann, rng.integers(0, 40, 40)), measure,
                                          **kwargs)) for _ in range(200)])
    everything = np.arange(40)
    jack = np.array([upper(iaa.pairwise(with_items(ann, everything[everything != i]),
                                        measure, **kwargs)) for i in everything])
    estimate = upper(iaa.pairwise(ann, measure, **kwargs))
    for j in range(values.shape[1]):
        d = np.mean(jack[:, j]) - jack[:, j]
        a = np.sum(d ** 3) / (6 * np.sum(d ** 2) ** 1.5)
        z0 = norm.ppf(np.mean(values[:, j] < estimate[j]))
        q = [norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))) for z in norm.ppf([0.05, 0.95])]
        low, high = np.quantile(values[:, j], q)
        assert upper(pd.DataFrame(res.attrs["ci_low"]))[j] == pytest.approx(low, abs=1e-12)
        assert upper(pd.DataFrame(res.attrs["ci_high"]))[j] == pytest.approx(high, abs=1e-12)


def test_pairwise_intervals_refused_or_undefined_with_reasons():
    ann = ratings(1)
    with pytest.raises(AgreementError, match="ci= bootstraps the named measures"):
        iaa.pairwise(ann, lambda a: 0.5, ci="percentile")
    with pytest.raises(AgreementError, match="ci must be one of"):
        iaa.pairwise(ann, ci="basic")
    with pytest.raises(AgreementError, match="gives a table"):
        iaa.bootstrap(ann, iaa.pairwise, n_resamples=10)
    cells = Annotations.from_contingency(np.array([[20, 5], [3, 12]]), [0, 1])
    with pytest.raises(AgreementError, match="weighted cells"):
        iaa.pairwise(cells, ci="bca")
    # from_contingency cells: a resample is Multinomial(N, t/N) over the cells, as in
    # bootstrap; the one pair's interval is bootstrap's for cohen_kappa on the same data
    res = iaa.pairwise(cells, ci="percentile", n_resamples=300, seed=0)
    boot = iaa.bootstrap(cells, "cohen_kappa", n_resamples=300, seed=0)
    assert res.attrs["ci_low"][0][1] == pytest.approx(boot.ci[0], abs=1e-12)
    assert res.attrs["ci_high"][1][0] == pytest.approx(boot.ci[1], abs=1e-12)
    # a pair that shares no item (a, b): NaN value, NaN interval, every resample undefined
    df = pd.DataFrame({"item": [0, 0, 1, 1, 2, 2, 3, 3], "annotator": list("acacbcbc"),
                       "label": [0, 1, 1, 1, 0, 0, 1, 0]})
    res = iaa.pairwise(df, "percent_agreement", ci="percentile", n_resamples=30, seed=0)
    attrs = {key: pd.DataFrame(res.attrs[key], index=res.index, columns=res.columns)
             for key in ("n_items", "ci_low", "n_undefined")}
    assert np.isnan(res.loc["a", "b"]) and attrs["n_items"].loc["a", "b"] == 0
    assert np.isnan(attrs["ci_low"].loc["b", "a"]) and attrs["n_undefined"].loc["a", "b"] == 30
    rng = np.random.default_rng(0)  # (a, c) is undefined where items 0 and 1 are not drawn
    none = sum(bool(np.all(rng.integers(0, 4, 4) >= 2)) for _ in range(30))
    assert attrs["n_undefined"].loc["a", "c"] == none and attrs["n_undefined"].loc["a", "a"] == 0
    assert not np.isnan(attrs["ci_low"].loc["a", "c"])
    assert res.attrs["ci_method"].startswith("bootstrap percentile 95%")


def test_every_measure_with_a_statistic_is_tested():
    # the public measures that declare a Statistic all have rows in CASES (or, for a
    # table, PAIRWISE_CASES): a new coefficient is tested the day it gets one
    import types
    declared = {name for name in dir(iaa)
                if not isinstance(getattr(iaa, name), types.ModuleType)
                and callable(getattr(getattr(iaa, name), "statistic", None))}
    tested = {name for name, _ in CASES} | {"pairwise"}
    assert declared - tested == set()


@pytest.mark.parametrize("name, kwargs", [CASES[i] for i in (5, 9, 12, 16, 21, 25)],
                         ids=[IDS[i] for i in (5, 9, 12, 16, 21, 25)])
def test_distinct_rows_give_the_totals_of_every_item(name, kwargs, monkeypatch):
    # items with equal tables counted per distinct row (Statistic.distinct): the same
    # totals, hence the same bootstrap, as one weight per item; and a row that differs
    # from its group's in one entry (a hash that collides) is never merged
    from iaa_widgets.stats import statistic
    ann = ratings(6, n_items=200, n_raters=3, missing=0.1)
    stat = getattr(iaa, name).statistic(ann, **kwargs)
    codes, rows = stat.distinct()
    assert rows.n_items < ann.n_items // 2
    w = np.random.default_rng(0).integers(0, 3, (4, ann.n_items)).astype(float)
    grouped = np.stack([np.bincount(codes, weights=row, minlength=rows.n_items) for row in w])
    for key, total in stat.totals(w).items():
        np.testing.assert_allclose(rows.totals(grouped)[key], total, rtol=1e-13, atol=1e-12)
    grouped_boot = iaa.bootstrap(ann, name, n_resamples=30, seed=2, **kwargs)
    monkeypatch.setattr(statistic.Statistic, "distinct", lambda self: None)
    per_item = iaa.bootstrap(ann, name, n_resamples=30, seed=2, **kwargs)
    np.testing.assert_allclose(grouped_boot.values, per_item.values, rtol=0, atol=1e-12)
    monkeypatch.undo()
    monkeypatch.setattr(statistic, "_row_hash", lambda table, coef: np.zeros(table.shape[0]))
    assert stat.distinct() is None  # one hash for all: the rows are checked, not merged
