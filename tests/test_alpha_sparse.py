"""α with many categories: its coincidences come from a sparse items × categories table
(stats.tables.item_counts_for_pairs, above SPARSE_CATEGORIES) and equal the dense ones;
α is checked against the krippendorff package and against a count of the ordered pairs
of ratings written here from Krippendorff's (2011) definition."""
import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations
from iaa_widgets.measures.continuous.alpha import alpha_from_coincidences, category_values
from iaa_widgets.stats import coincidences, item_counts, item_counts_for_pairs
from iaa_widgets.stats.tables import SPARSE_CATEGORIES

K = SPARSE_CATEGORIES + 9  # above the switch: the sparse path


def ratings(seed, n_items=300, n_annotators=6, k=K, missing=0.4):
    """Ratings 1..k (numbers: every metric applies) with missing cells, some items
    rated once or never."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, k + 1, n_items)
    x = np.where(rng.random((n_items, n_annotators)) < 0.5, truth[:, None],
                 rng.integers(1, k + 1, (n_items, n_annotators)))
    r, c = np.nonzero(rng.random(x.shape) >= missing)
    return pd.DataFrame({"item": r, "annotator": c, "label": x[r, c]})


def pair_alpha(df) -> float:
    """Nominal α from the ordered pairs of ratings within items, each counted
    1/(m_i − 1) (Krippendorff 2011: o_ck, D_o = Σ_{c≠k} o_ck / n, D_e = Σ_{c≠k} n_c n_k
    / (n(n − 1))), by a pandas self-join: independent of our tables."""
    d = df[["item", "label"]].reset_index().rename(columns={"index": "row"})
    m = d.groupby("item")["row"].transform("size")
    d = d[m >= 2].assign(g=1 / (m[m >= 2] - 1))
    pairs = d.merge(d, on="item")
    pairs = pairs[pairs["row_x"] != pairs["row_y"]]
    n = len(d)
    disagree = pairs.loc[pairs["label_x"] != pairs["label_y"], "g_x"].sum()
    n_c = d["label"].value_counts().to_numpy(float)
    return 1 - (disagree / n) / ((n * n - np.sum(n_c ** 2)) / (n * (n - 1)))


@pytest.mark.parametrize("seed", range(4))
def test_sparse_counts_equal_dense(seed):
    df = ratings(seed)
    ann = Annotations.from_long(df)
    sparse_counts = item_counts_for_pairs(ann)
    assert not isinstance(sparse_counts, np.ndarray)  # the sparse path is taken
    np.testing.assert_array_equal(sparse_counts.toarray(), item_counts(ann))
    o_dense, m_dense = coincidences(item_counts(ann), return_sizes=True)
    o_sparse, m_sparse = coincidences(sparse_counts, return_sizes=True)
    np.testing.assert_allclose(o_sparse, o_dense, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(m_sparse, m_dense)


def matrix_metric(k):
    """A K × K distance matrix (square root of |c − k|), in declared order."""
    v = np.arange(1, k + 1)
    return np.sqrt(np.abs(v[:, None] - v[None, :]))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("metric", ["nominal", "ordinal", "interval", "ratio", "matrix",
                                    "callable"])
def test_alpha_equal_to_the_dense_path_for_every_metric(seed, metric):
    df = ratings(seed)
    ann = Annotations.from_long(df)
    m = {"matrix": matrix_metric(ann.n_categories),
         "callable": lambda c, k: abs(c - k) ** 0.5}.get(metric, metric)
    ours = iaa.krippendorff_alpha(ann, m).value
    dense = alpha_from_coincidences(coincidences(item_counts(ann)), m,
                                    category_values(ann, m))[0]
    assert ours == pytest.approx(float(dense), abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("metric", ["nominal", "interval"])
def test_against_krippendorff_package(seed, metric):
    krippendorff = pytest.importorskip("krippendorff")
    df = ratings(seed, n_items=120)
    x = df.pivot(index="annotator", columns="item", values="label").to_numpy(float)
    ours = iaa.krippendorff_alpha(df, metric).value
    theirs = krippendorff.alpha(reliability_data=x, level_of_measurement=metric,
                                value_domain=sorted(df["label"].unique()))
    assert ours == pytest.approx(theirs, abs=1e-9)


def test_weighted_rows_and_anonymous_counts_take_the_sparse_path():
    # from_contingency (item rows with a weight) and from_counts (anonymous counts): α
    # equals α of the same ratings expanded to one row per item and rating
    rng = np.random.default_rng(7)
    table = rng.integers(0, 3, (K, K)) * (rng.random((K, K)) < 0.3) + np.diag(
        rng.integers(1, 6, K))
    labels = [f"c{i:02d}" for i in range(K)]
    weighted = Annotations.from_contingency(pd.DataFrame(table, index=labels, columns=labels))
    assert weighted.item_weight is not None
    rows = [(i, r, lab) for i, (a, b) in enumerate(
        (labels[a], labels[b]) for a in range(K) for b in range(K)
        for _ in range(table[a, b])) for r, lab in enumerate((a, b))]
    expanded = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    assert iaa.krippendorff_alpha(weighted).value == pytest.approx(pair_alpha(expanded),
                                                                   abs=1e-12)
    df = ratings(3)
    counts = pd.crosstab(df["item"], df["label"])
    anonymous = Annotations.from_counts(counts)
    assert iaa.krippendorff_alpha(anonymous).value == pytest.approx(pair_alpha(df), abs=1e-12)


def thousands_of_labels(seed, text=False) -> pd.DataFrame:
    """5e4 items × 5 annotators, labels among 5,000 (as text if ``text``)."""
    rng = np.random.default_rng(seed)
    n, r, k = 50_000, 5, 5_000
    truth = rng.integers(0, k, n)
    x = np.where(rng.random((n, r)) < 0.6, truth[:, None], rng.integers(0, k, (n, r))).ravel()
    return pd.DataFrame({"item": np.repeat(np.arange(n), r), "annotator": np.tile(np.arange(r), n),
                         "label": [f"label {v}" for v in x] if text else x})


def test_thousands_of_categories_are_not_refused():
    # 5,000 labels over 5e4 items: the dense items × categories table (2.5e8 cells) was
    # refused; the sparse one holds one entry per category present in an item
    df = thousands_of_labels(11, text=True)
    result = iaa.krippendorff_alpha(df)
    assert result.value == pytest.approx(pair_alpha(df), abs=1e-12)
    assert result.per_category.shape[0] == df["label"].nunique()


@pytest.mark.parametrize("metric", ["nominal", "interval", "ordinal"])
def test_bootstrap_with_many_categories_equals_recomputing(metric):
    # α's Statistic from the sparse counts (K + 1 cells an item for a fixed δ; the
    # coincidences for ordinal): the same resamples (same seed) as recomputing α on each
    df = ratings(5, n_items=150)
    ann = Annotations.from_long(df)
    ours = iaa.bootstrap(ann, iaa.krippendorff_alpha, n_resamples=30, seed=1, metric=metric)
    again = iaa.bootstrap(ann, lambda d: iaa.krippendorff_alpha(d, metric).value,
                          n_resamples=30, seed=1)
    np.testing.assert_allclose(ours.values, again.values, rtol=0, atol=1e-12)


def test_bootstrap_with_thousands_of_categories():
    # 5,000 labels over 5e4 items: a resample's totals are K + 1 numbers, not K² (the
    # items × K² table and its b × K² products took gigabytes); the estimate is α
    df = thousands_of_labels(12)
    boot = iaa.bootstrap(df, iaa.krippendorff_alpha, n_resamples=200, seed=0)
    assert boot.estimate == pytest.approx(pair_alpha(df), abs=1e-12)
    assert boot.ci[0] < boot.estimate < boot.ci[1]
    stat = iaa.krippendorff_alpha.statistic(df)
    assert stat.shapes == {"observed": (1,), "n_c": (df["label"].nunique(),)}
