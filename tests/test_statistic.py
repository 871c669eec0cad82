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
    ("sparse_agreement", {"weights": "flat"}),
    ("sparse_agreement", {"weights": "inv_var_class"}),  # k_i depends on pooled shares
    ("sparse_kappa", {"weights": "edges"}),
    ("sparse_kappa", {"weights": "inv_var_class", "class_probs": [.1, .2, .3, .4]}),
    ("augmented_kappa", {}),
    ("augmented_kappa", {"p": 0.5}),
    ("augmented_kappa", {"p": 1.0}),
]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(CASES)]


def ratings(seed, n_items=40, n_raters=4, missing=0.25):
    """Ratings over 4 declared, ordered categories that agree more than chance, some
    missing (items rated once or not at all included), a third of them with a secondary
    label (augmented κ reads them; every other measure reads the primary labels only)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, n_items)
    x = np.where(rng.random((n_items, n_raters)) < 0.6, truth[:, None],
                 rng.integers(0, 4, (n_items, n_raters)))
    kept = rng.random((n_items, n_raters)) >= missing
    kept[:3] = True  # complete items: every policy keeps some
    rows, cols = np.nonzero(kept)
    df = pd.DataFrame({"item": rows, "label": x[rows, cols], "rank": 1,
                       "annotator": [f"r{c}" for c in cols]})
    second = df[rng.random(len(df)) < 1 / 3].assign(rank=2)
    second["label"] = (second["label"] + rng.integers(1, 4, len(second))) % 4
    return Annotations.from_long(pd.concat([df, second], ignore_index=True), rank="rank",
                                 categories=[0, 1, 2, 3])


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
    ann = ratings(seed)
    boot = iaa.bootstrap(name, ann, n_resamples=60, seed=seed, **kwargs)
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
        boot = iaa.bootstrap(name, Annotations.from_counts(counts), n_resamples=80, seed=3,
                             **kwargs, **more)
        rng = np.random.default_rng(3)
        expected = [value_or_nan(fn, Annotations.from_counts(counts[rng.integers(0, 9, 9)]),
                                 {**kwargs, **more}) for _ in range(80)]
        np.testing.assert_allclose(boot.values, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name, kwargs", CASES, ids=IDS)
def test_statistic_of_a_union_is_the_sum_of_the_parts(name, kwargs):
    # split the items in two; the parts keep the items, annotators and categories of the
    # whole (an item's ratings all go to one part), so each item is used or not alike
    ann = ratings(7, n_items=60)
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
    ann = ratings(11, n_items=25)
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
    res = iaa.bootstrap(name, ann, n_resamples=300, seed=2, method="bca", level=0.9,
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
    from iaa_widgets import resampling
    tree = ast.parse(inspect.getsource(resampling))
    words = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} | \
        {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
         and isinstance(n.value, str)}
    text = " ".join(map(str, words))
    for name in ["percent_agreement", "bennett_s", "scott_pi", "cohen_kappa", "fleiss_kappa",
                 "davies_fleiss_kappa", "specific_agreement", "krippendorff_alpha",
                 "sparse_agreement", "sparse_kappa", "augmented_kappa", "pairwise"]:
        assert name not in text, name


@pytest.mark.parametrize("name, kwargs", [CASES[i] for i in (7, 12, 16, 20, 24, 25, 26)],
                         ids=[IDS[i] for i in (7, 12, 16, 20, 24, 25, 26)])
def test_large_tables_stay_sparse(name, kwargs, monkeypatch):
    # beyond DENSE_CELLS a per-item table is CSR, built over blocks of ITEM_BLOCK items;
    # its totals, jackknife and bootstrap are those of the dense table
    from iaa_widgets.stats import statistic
    ann = ratings(3)
    make = getattr(iaa, name).statistic
    dense = make(ann, **kwargs)
    before = iaa.bootstrap(name, ann, n_resamples=40, seed=0, method="bca", **kwargs)
    monkeypatch.setattr(statistic, "ITEM_BLOCK", 7)
    blocked = make(ann, **kwargs)
    monkeypatch.setattr(statistic, "DENSE_CELLS", 0)
    kept = make(ann, **kwargs)
    after = iaa.bootstrap(name, ann, n_resamples=40, seed=0, method="bca", **kwargs)
    assert any(not isinstance(t, np.ndarray) for t in kept.tables.values())
    for other in (blocked, kept):
        for key, total in dense.total().items():
            np.testing.assert_allclose(other.total()[key], total, rtol=0, atol=1e-12)
        np.testing.assert_allclose(other.jackknife(), dense.jackknife(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(after.values, before.values, rtol=0, atol=1e-12)
    assert after.ci == pytest.approx(before.ci, abs=1e-12)


def test_spa_weights_given_per_item_stay_with_their_item():
    # an array of k_i: a drawn item brings its own weight (the reference passes
    # k[drawn] with the rebuilt resample)
    ann = ratings(4, n_items=50, missing=0.4)
    k = np.random.default_rng(0).random(ann.n_items) * 3
    boot = iaa.bootstrap("sparse_kappa", ann, n_resamples=40, seed=6, weights=k)
    rng = np.random.default_rng(6)
    expected = []
    for _ in range(40):
        drawn = rng.integers(0, ann.n_items, ann.n_items)
        expected.append(value_or_nan(iaa.sparse_kappa, with_items(ann, drawn),
                                     {"weights": k[drawn]}))
    np.testing.assert_allclose(boot.values, expected, rtol=0, atol=1e-12)
