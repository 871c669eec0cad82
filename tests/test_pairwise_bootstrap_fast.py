"""The pairs' bootstrap tables made from each annotator's ratings (stats.pairs, issue 43 §3).

Reference throughout: each pair written out on its own, in a Python loop over the pairs
(the definition of a pair's table over the items both annotators rated), or the
two-annotator measure called on the pair's ratings of each rebuilt resample.
"""
import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations, stats
from iaa_widgets.stats import pairs as pair_module
from iaa_widgets.stats.resampling import resampled
from iaa_widgets.stats.statistic import _product, _rows
from test_statistic import with_items  # the ratings of drawn items, written out


def mixed(seed, n_items=60, n_raters=6, k=3):
    """Items of every kind the tables treat apart: complete ones, ones that lack one or
    two ratings (counted from their own ratings), ones rated by two or three (entries per
    rated pair), by one and by none; labels agree more than chance."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    x = np.where(rng.random((n_items, n_raters)) < 0.6, truth[:, None],
                 rng.integers(0, k, (n_items, n_raters)))
    rated = np.ones((n_items, n_raters), bool)
    share = np.array([0.0, 0.1, 0.3, 0.6, 0.9])[rng.integers(0, 5, n_items)]
    rated &= rng.random((n_items, n_raters)) >= share[:, None]
    rated[:4] = True
    rated[4] = False      # an item nobody rated
    rated[5, 1:] = False  # one rated once
    rows, cols = np.nonzero(rated)
    df = pd.DataFrame({"item": rows, "annotator": [f"r{c}" for c in cols],
                       "label": x[rows, cols]})
    return Annotations.from_long(df, categories=list(range(k)))


def by_hand(ann, pairs, w, cells=None):
    """Each pair's agree, row and col totals for item weights w (B × items), pair by pair."""
    x, k = ann._label_grid(), ann.n_categories
    v = np.eye(k) if cells is None else cells
    agree, row, col = [], [], []
    for a, b in pairs:
        both = (x[:, a] >= 0) & (x[:, b] >= 0)
        agree.append(w[:, both] @ v[x[both, a], x[both, b]])
        row.append(w[:, both] @ np.eye(k)[x[both, a]])
        col.append(w[:, both] @ np.eye(k)[x[both, b]])
    return {"agree": np.stack(agree, 1), "row": np.stack(row, 1), "col": np.stack(col, 1)}


def totals(tables, w):
    """W @ T of each table (the product the bootstrap makes)."""
    return {name: _product(w, t) for name, t in tables.items()}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("order", ["all", "reversed"])
@pytest.mark.parametrize("weighted", [False, True])
def test_tables_equal_each_pair_written_out(seed, order, weighted):
    ann = mixed(seed)
    k = ann.n_categories
    pairs = stats.all_pairs(ann.n_annotators)
    if order == "reversed":  # pairs given (b, a), shuffled, some left out
        pairs = pairs[np.random.default_rng(seed).permutation(len(pairs))][:10, ::-1]
    cells = np.random.default_rng(seed).random((k, k)) if weighted else None
    w = np.random.default_rng(seed + 10).integers(0, 4, (7, ann.n_items)).astype(float)
    x = ann._label_grid()
    r = (x >= 0).sum(axis=1)
    counted = r - 1 > ann.n_annotators - r  # margins from the item's own ratings
    assert counted.any() and (~counted & (r >= 2)).any()  # and from its rated pairs
    tables = pair_module.pair_tables(ann, pairs, cells)
    got, expected = totals(tables, w), by_hand(ann, pairs, w, cells)
    np.testing.assert_allclose(got["agree"], expected["agree"], rtol=0, atol=1e-12)
    for name in ("row", "col"):  # counts: exact
        np.testing.assert_array_equal(got[name], expected[name].reshape(len(w), -1))
    # rows written out (the jackknife's leave-one-item-out): item i's tables are the
    # totals of weights that pick item i alone
    for name, t in tables.items():
        alone = totals({name: t}, np.eye(ann.n_items))[name]
        np.testing.assert_allclose(_rows(t, 0, ann.n_items), alone, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(_rows(t, 3, 17), _rows(t, 0, ann.n_items)[3:17])


def test_sparse_agreement_table_equals_the_dense_one(monkeypatch):
    # a crowd: 3 ratings an item among 12 annotators, so few pairs rate an item and
    # ``agree`` is CSR once it exceeds DENSE_CELLS (set low here)
    rng = np.random.default_rng(5)
    n, j = 80, 12
    who = np.argsort(rng.random((n, j)), axis=1)[:, :3]
    df = pd.DataFrame({"item": np.repeat(np.arange(n), 3), "annotator": who.ravel(),
                       "label": rng.integers(0, 4, 3 * n)})
    ann = Annotations.from_long(df, categories=list(range(4)))
    pairs = stats.all_pairs(j)
    w = rng.integers(0, 3, (4, n)).astype(float)
    dense = pair_module.pair_tables(ann, pairs)["agree"]
    monkeypatch.setattr(stats.statistic, "DENSE_CELLS", 0)
    sparse = pair_module.pair_tables(ann, pairs)["agree"]
    assert isinstance(dense, np.ndarray) and not isinstance(sparse, np.ndarray)
    np.testing.assert_array_equal(sparse.toarray(), dense)
    np.testing.assert_array_equal(totals({"a": sparse}, w)["a"],
                                  by_hand(ann, pairs, w)["agree"])


CASES = [
    ("cohen_kappa", {}, iaa.cohen_kappa),
    ("cohen_kappa", {"weights": "quadratic"}, iaa.cohen_kappa),
    ("scott_pi", {}, iaa.scott_pi),
    ("bennett_s", {}, iaa.bennett_s),
    ("percent_agreement", {}, iaa.percent_agreement),
    ("krippendorff_alpha", {"metric": "nominal"}, iaa.krippendorff_alpha),
    ("krippendorff_alpha", {"metric": "interval"}, iaa.krippendorff_alpha),
]


@pytest.mark.parametrize("measure, kwargs, fn", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_resample_equals_the_pair_measured_on_its_own(measure, kwargs, fn):
    # reference: rng.integers(0, n, n) per resample (the draws of stats.resampling),
    # the rebuilt data, and the two-annotator measure on each pair's ratings of it
    ann = mixed(7, n_items=40, n_raters=5)
    ann = Annotations(ann.item, ann.annotator, ann.label, ann.rank, ann.items,
                      ann.annotators, ann.categories, ordered=True)  # an order: quadratic
    values = resampled(iaa.pairwise.statistic(ann, measure, **kwargs), 12,
                       np.random.default_rng(9))
    rng = np.random.default_rng(9)
    names = list(ann.annotators)
    own = {"missing": "listwise"} if measure != "krippendorff_alpha" else {}
    for b in range(12):
        part = with_items(ann, rng.integers(0, ann.n_items, ann.n_items))
        for p, (i, j) in enumerate(stats.all_pairs(ann.n_annotators)):
            two = part.select_annotators([names[i], names[j]])
            try:
                expected = float(fn(two, **own, **kwargs).value)
            except AgreementError:  # no item rated by both in this resample
                expected = np.nan
            if np.isnan(expected):
                assert np.isnan(values[b, p]), (b, p)
            else:
                assert values[b, p] == pytest.approx(expected, abs=1e-12), (b, p)


def test_the_explorer_pairs_intervals_are_the_pairwise_ones():
    # the intervals the explorer's worker shows are pairwise(ci="percentile")'s with its
    # seed: the same draws, per pair the percentile interval of the resampled values
    ann = mixed(11, n_items=50, n_raters=4)
    res = iaa.pairwise(ann, "cohen_kappa", ci="percentile", n_resamples=40, seed=3)
    values = resampled(iaa.pairwise.statistic(ann, "cohen_kappa"), 40,
                       np.random.default_rng(3))
    low, high = np.nanquantile(values, [0.025, 0.975], axis=0)
    upper = np.triu_indices(ann.n_annotators, 1)
    np.testing.assert_allclose(np.asarray(res.attrs["ci_low"])[upper], low, rtol=0,
                               atol=1e-12)
    np.testing.assert_allclose(np.asarray(res.attrs["ci_high"])[upper], high, rtol=0,
                               atol=1e-12)


def test_weights_changed_in_place_give_their_own_totals():
    # row and col share one product W @ (one-hot ratings) within a call of totals; a
    # W written over between two calls is multiplied anew
    ann = mixed(4)
    pairs = stats.all_pairs(ann.n_annotators)
    stat = iaa.pairwise.statistic(ann, "cohen_kappa")
    w = np.ones((3, ann.n_items))
    stat.totals(w)
    w[:] = np.random.default_rng(1).integers(0, 4, w.shape)
    got, expected = stat.totals(w), by_hand(ann, pairs, w)
    for name in ("agree", "row", "col"):
        np.testing.assert_array_equal(got[name], expected[name])


@pytest.mark.parametrize("seed", [0, 1])
def test_pair_margins_are_the_tables_summed(seed):
    # stats.pair_margins (pairwise's values without ci=) sums the same tables a block of
    # items at a time: equal to each pair written out, and to pair_contingencies' margins
    ann = mixed(seed)
    pairs = stats.all_pairs(ann.n_annotators)
    cells = np.random.default_rng(seed).random((3, 3))
    agree, row, col = stats.pair_margins(ann, pairs, cells)
    expected = by_hand(ann, pairs, np.ones((1, ann.n_items)), cells)
    np.testing.assert_allclose(agree, expected["agree"][0], rtol=0, atol=1e-12)
    t = stats.pair_contingencies(ann, pairs)
    np.testing.assert_array_equal(row, t.sum(axis=2))
    np.testing.assert_array_equal(col, t.sum(axis=1))
    np.testing.assert_array_equal(stats.pair_margins(ann, pairs)[0], np.trace(t, axis1=1,
                                                                               axis2=2))


def test_pair_margins_count_weighted_item_rows():
    # from_contingency: a row per cell of the table, counted its count times
    table = np.array([[20, 5, 1], [3, 15, 4], [0, 2, 9]])
    ann = Annotations.from_contingency(table, categories=["a", "b", "c"])
    agree, row, col = stats.pair_margins(ann)
    assert agree.tolist() == [np.trace(table)]
    np.testing.assert_array_equal(row[0], table.sum(axis=1))
    np.testing.assert_array_equal(col[0], table.sum(axis=0))
