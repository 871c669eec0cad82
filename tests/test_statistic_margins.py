"""The two-annotator coefficients' Statistic as 2K + 1 cells an item (Σ w_jk t_jk and the
margins t_j·, t_·k) instead of the K² cells of the contingency table (issue 28): the
same values as the K² table's formulas on any item weights, and a bootstrap whose
memory no longer grows as resamples × K²."""
import tracemalloc

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations
from iaa_widgets.measures import _formulas as F
from iaa_widgets.measures.categorical.classic import _pair_cells
from iaa_widgets.measures._prepare import prepare
from iaa_widgets.measures.weights import agreement_weights


def ratings(seed, n, r, k) -> pd.DataFrame:
    """n items × r annotators, labels among k: 60 % the item's own label, else any."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    x = np.where(rng.random((n, r)) < 0.6, truth[:, None], rng.integers(0, k, (n, r)))
    return pd.DataFrame({"item": np.repeat(np.arange(n), r),
                         "annotator": np.tile(np.arange(r), n), "label": x.ravel()})


def two(seed, n=120, k=6, missing=0.1) -> Annotations:
    return Annotations.from_long(ratings(seed, n, 2, k).sample(frac=1 - missing,
                                                               random_state=seed))


MATRIX = np.random.default_rng(7).uniform(0, 1, (6, 6))  # asymmetric: a transpose would show
np.fill_diagonal(MATRIX, 1.0)


def reference(measure: str, ann: Annotations, w_by_item: np.ndarray, weights=None):
    """The value on item weights w from the K² contingency table t = Σ_i w_i [cell of i]
    with the table formulas of _formulas (the Statistic's former per-item table)."""
    prep = prepare(ann, measure, missing="listwise", two=True, item_weights=True,
                   identity=True)
    k = ann.n_categories
    w = agreement_weights(weights, ann.categories, True)[0]
    tables = np.stack([np.bincount(_pair_cells(prep), weights=row[prep.used], minlength=k * k)
                       for row in w_by_item]).reshape(-1, k, k)
    a_o = F.table_observed(tables, w)
    a_e = {"scott_pi": F.scott_expected, "cohen_kappa": F.cohen_expected}[measure](tables, w)
    return F.chance_corrected(a_o, a_e)


@pytest.mark.parametrize("measure", ["scott_pi", "cohen_kappa"])
@pytest.mark.parametrize("weights", [None, "quadratic", MATRIX])
@pytest.mark.parametrize("seed", [0, 1])
def test_values_equal_the_contingency_table_formulas(measure, weights, seed):
    ann = two(seed)
    stat = getattr(iaa, measure).statistic(ann, weights=weights)
    k = ann.n_categories
    assert stat.shapes == {"agree": (1,), "row": (k,), "col": (k,)}
    w = np.random.default_rng(seed).poisson(1.0, (50, ann.n_items)).astype(float)
    np.testing.assert_allclose(stat.values(w), reference(measure, ann, w, weights), rtol=0,
                               atol=1e-12)
    # the point value, through the measure's own table, is the Statistic's on weights 1
    assert getattr(iaa, measure)(ann, weights=weights).value == pytest.approx(
        float(reference(measure, ann, np.ones((1, ann.n_items)), weights)[0]), abs=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_bootstrap_intervals_equal_recomputing_the_table(method):
    # the intervals of the 2K + 1 Statistic and of the K² tables: the same resamples
    ann = two(3, n=200)
    ours = _bootstrap(ann, "cohen_kappa", method, weights="quadratic")
    again = _bootstrap(ann, lambda d: iaa.cohen_kappa(d, weights="quadratic").value,
                       "percentile")
    np.testing.assert_allclose(ours.values, again.values, rtol=0, atol=1e-12)
    if method == "percentile":
        np.testing.assert_allclose(ours.ci, again.ci, rtol=0, atol=1e-12)
    else:  # BCa by hand (Efron & Tibshirani 1993, ch. 14) on the recomputed values,
        # with the leave-one-item-out values recomputed from the table formulas
        stat = iaa.cohen_kappa.statistic(ann, weights="quadratic")
        eye = np.ones((ann.n_items, ann.n_items)) - np.eye(ann.n_items)
        jack = reference("cohen_kappa", ann, eye, "quadratic")
        np.testing.assert_allclose(stat.jackknife(), jack, rtol=0, atol=1e-12)


def _bootstrap(data, measure, method, **kwargs):
    """bootstrap in the argument order and names of the day (issue 29 turns
    bootstrap(measure, data, method=) into bootstrap(data, measure, interval=))."""
    import inspect
    params = inspect.signature(iaa.bootstrap).parameters
    args = (data, measure) if next(iter(params)) == "data" else (measure, data)
    key = "interval" if "interval" in params else "method"
    return iaa.bootstrap(*args, n_resamples=200, seed=4, **{key: method}, **kwargs)


def test_scott_pi_bootstrap_with_500_labels_in_bounded_memory():
    # 500 labels: 1,000 resamples held b × K² totals (1.86 GiB asked); now b × (2K + 1)
    df = ratings(0, 3000, 2, 500)
    tracemalloc.start()
    stat = iaa.scott_pi.statistic(df)
    from iaa_widgets.stats.resampling import resampled
    values = resampled(stat, 1000, np.random.default_rng(0))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert values.shape == (1000,) and np.isfinite(values).all()
    assert peak < 300 * 2 ** 20


def test_pairwise_with_5000_labels():
    # 5,000 labels, 2e4 items × 5 annotators: every pair's values and bootstrap from
    # P (2K + 1) totals (P × K² was 1.1e9 cells: refused, and its resamples far more)
    df = ratings(1, 20_000, 5, 5_000)
    res = iaa.pairwise(df, "cohen_kappa", ci="percentile", n_resamples=50, seed=0)
    # each pair's κ is cohen_kappa of the pair (its own K × K table: one pair fits)
    one = iaa.cohen_kappa(df[df["annotator"].isin([0, 3])]).value
    assert res.loc[0, 3] == pytest.approx(one, abs=1e-12)
    low, high = np.array(res.attrs["ci_low"]), np.array(res.attrs["ci_high"])
    assert (low[0, 1:] < res.to_numpy()[0, 1:]).all() and \
        (res.to_numpy()[0, 1:] < high[0, 1:]).all()
    alpha = iaa.pairwise(df, "krippendorff_alpha")
    pair = df[df["annotator"].isin([1, 2])]
    assert alpha.loc[1, 2] == pytest.approx(iaa.krippendorff_alpha(pair).value, abs=1e-12)


@pytest.mark.parametrize("measure, kwargs", [
    ("scott_pi", {}), ("scott_pi", {"weights": "quadratic"}), ("scott_pi", {"weights": MATRIX}),
    ("cohen_kappa", {}), ("cohen_kappa", {"weights": "linear"}), ("kappa_max", {}),
])
def test_sparse_counts_give_the_dense_results(monkeypatch, measure, kwargs):
    # where the dense items × categories counts would pass MAX_CELLS, a two-annotator
    # measure keeps them CSR (its Statistic reads the pairs of ratings): the same result,
    # standard error included (scott_pi's Gwet variance from the sparse counts)
    ann = two(5, n=150)
    dense = getattr(iaa, measure)(ann, **kwargs)
    monkeypatch.setattr(iaa.stats, "MAX_CELLS", 1)
    sparse = getattr(iaa, measure)(ann, **kwargs)
    same_result(sparse, dense)
    assert sparse.n_items == dense.n_items and sparse.note == dense.note


def same_result(sparse, dense):
    """The result from CSR counts equals the dense one: values, standard error, interval,
    counts, exclusions and the per-category table."""
    for field in ("value", "observed", "expected", "se"):
        assert getattr(sparse, field) == pytest.approx(getattr(dense, field), abs=1e-12,
                                                        nan_ok=True), field
    if dense.ci is not None:
        np.testing.assert_allclose(sparse.ci, dense.ci, rtol=0, atol=1e-12)
    assert sparse.n_ratings == dense.n_ratings and sparse.excluded == dense.excluded
    if dense.per_category is not None:
        pd.testing.assert_frame_equal(sparse.per_category, dense.per_category,
                                      check_exact=False, atol=1e-12)


def test_scott_pi_with_5000_labels():
    # 5,000 labels over 2e4 items rated twice: the resamples' totals are 2K + 1 numbers
    # (2e4 × 25e6 per-item cells and b × K² totals before)
    df = ratings(2, 20_000, 2, 5_000)
    dense = iaa.scott_pi(df)
    stat = iaa.scott_pi.statistic(df)
    assert stat.shapes["row"] == (df["label"].nunique(),)
    from iaa_widgets.stats.resampling import resampled
    values = resampled(stat, 100, np.random.default_rng(0))
    assert np.isfinite(values).all() and values.min() < dense.value < values.max()


MULTI = [("percent_agreement", {}), ("bennett_s", {"weights": "quadratic"}),
         ("fleiss_kappa", {}), ("fleiss_kappa", {"weights": "linear", "missing": "available"}),
         ("davies_fleiss_kappa", {"missing": "available"}), ("gwet_ac1", {}),
         ("gwet_ac2", {"weights": "quadratic"}), ("specific_agreement", {"positive": 2}),
         ("light_kappa", {})]


def multi(seed, n=80, r=4, k=6) -> Annotations:
    return Annotations.from_long(ratings(seed, n, r, k).sample(frac=0.85, random_state=seed))


@pytest.mark.parametrize("measure, kwargs", MULTI, ids=[m for m, _ in MULTI])
def test_sparse_counts_of_many_raters_give_the_dense_results(monkeypatch, measure, kwargs):
    # beyond MAX_CELLS the items × categories counts stay CSR for every measure (the
    # formulas of _formulas take either): the same results and Statistic values
    from iaa_widgets.stats import tables
    ann = multi(6)
    dense = getattr(iaa, measure)(ann, **kwargs)
    w = np.random.default_rng(1).poisson(1.0, (20, ann.n_items)).astype(float)
    dense_values = getattr(iaa, measure).statistic(ann, **kwargs).values(w)
    monkeypatch.setattr(iaa.stats, "MAX_CELLS", 1)
    monkeypatch.setattr(tables, "SPARSE_CATEGORIES", 2)
    sparse = getattr(iaa, measure)(ann, **kwargs)
    same_result(sparse, dense)
    assert sparse.params.keys() == dense.params.keys()
    np.testing.assert_allclose(getattr(iaa, measure).statistic(ann, **kwargs).values(w),
                               dense_values, rtol=0, atol=1e-12)


def test_fleiss_and_gwet_with_5000_labels():
    # 5,000 labels over 5e4 items × 5 annotators: the dense counts (2.5e8 cells) were
    # refused; kept CSR, Fleiss' κ equals Fleiss' (1971) formulas computed here with
    # pandas from the (item, label) counts, and its bootstrap runs on K + 3 cells an item
    n, r = 50_000, 5
    df = ratings(4, n, r, 5_000)
    n_ic = df.groupby(["item", "label"]).size()
    p_i = ((n_ic ** 2).groupby(level="item").sum() - r) / (r * (r - 1))  # P_i
    p_c = n_ic.groupby(level="label").sum() / (n * r)                     # p_j
    expected = (p_i.mean() - (p_c ** 2).sum()) / (1 - (p_c ** 2).sum())
    result = iaa.fleiss_kappa(df)
    assert result.value == pytest.approx(expected, abs=1e-12)
    q = df["label"].nunique()  # Gwet (2008): p_e = Σ π_k(1 − π_k)/(q − 1), q the labels
    p_e = (p_c * (1 - p_c)).sum() / (q - 1)
    assert iaa.gwet_ac1(df).value == pytest.approx((p_i.mean() - p_e) / (1 - p_e), abs=1e-12)
    from iaa_widgets.stats.resampling import resampled
    values = resampled(iaa.fleiss_kappa.statistic(df), 50, np.random.default_rng(0))
    assert np.isfinite(values).all() and values.min() < result.value < values.max()
