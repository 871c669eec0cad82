"""A Statistic whose tables hold one row per group of items (``Statistic.rows``), as
augmented κ builds it (one row per rating pattern), and Gwet's t quantile without
scipy.stats (issue 20: the last two measures over the 1 s bootstrap goal)."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

from iaa_widgets import Annotations
from iaa_widgets.measures.augmented import _ratings, augmented_kappa
from iaa_widgets.measures.categorical.gwet import gwet_ac1, gwet_ac2
from iaa_widgets.inference.bootstrap import bootstrap
from iaa_widgets.stats.statistic import RowBlocks, Statistic


def ratings(seed, n_items, n_raters=3, k=3, missing=0.2, second=0.4):
    """Few annotators and categories, so that many items share a rating pattern; some
    items rated once (left out by augmented κ), a share of ratings with a secondary."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    x = np.where(rng.random((n_items, n_raters)) < 0.6, truth[:, None],
                 rng.integers(0, k, (n_items, n_raters)))
    rows, cols = np.nonzero(rng.random((n_items, n_raters)) >= missing)
    df = pd.DataFrame({"item": rows, "annotator": [f"r{c}" for c in cols],
                       "label": x[rows, cols], "rank": 1})
    sec = df[rng.random(len(df)) < second].assign(rank=2)
    sec["label"] = (sec["label"] + rng.integers(1, k, len(sec))) % k  # ≠ its primary
    return Annotations.from_long(pd.concat([df, sec], ignore_index=True), rank="rank",
                                 categories=list(range(k)))


# ------------------------------------------------------------ Statistic.rows
def _ratio_finish(tot):
    """A finish that reads every cell: Σ cells 0 … / Σ cell last, over the resample axis."""
    t = tot["t"]
    value = t[:, :-1].sum(axis=1) / t[:, -1]
    return value, value, value


@pytest.mark.parametrize("as_csr", [False, True])
def test_statistic_with_rows_equals_its_expansion(as_csr):
    # a Statistic with rows (table row of each item) gives the totals, values, jackknife
    # and distinct rows of the Statistic whose item i has table row rows[i] written out
    rng = np.random.default_rng(1)
    groups = rng.integers(0, 4, (4, 5)).astype(float)[[0, 1, 2, 3, 2, 0, 1, 3]]
    groups[:, -1] += 1                                # the denominator is never 0
    rows = rng.integers(0, 8, 60)                     # 8 groups, 4 distinct tables
    table = sparse.csr_matrix(groups) if as_csr else groups
    grouped = Statistic({"t": table}, {"t": (5,)}, _ratio_finish, None, rows)
    expanded = Statistic({"t": groups[rows]}, {"t": (5,)}, _ratio_finish)
    assert grouped.n_items == expanded.n_items == 60
    w = rng.integers(0, 3, (4, 60)).astype(float)
    np.testing.assert_allclose(grouped.totals(w)["t"], expanded.totals(w)["t"],
                               rtol=1e-14, atol=0)
    np.testing.assert_allclose(grouped.values(w), expanded.values(w), rtol=1e-14, atol=0)
    np.testing.assert_allclose(grouped.total()["t"], expanded.total()["t"], rtol=1e-14)
    np.testing.assert_allclose(grouped.jackknife(), expanded.jackknife(), rtol=1e-14,
                               atol=0)
    for stat in (grouped, expanded):              # counted per distinct row: same totals
        codes, distinct = stat.distinct()
        assert distinct.n_items == 4 and distinct.rows is None   # equal groups merged
        per_row = np.stack([np.bincount(codes, weights=x, minlength=distinct.n_items)
                            for x in w])
        np.testing.assert_allclose(distinct.totals(per_row)["t"], expanded.totals(w)["t"],
                                   rtol=1e-14, atol=0)


def test_rows_of_distinct_groups_are_kept_when_few_repeat():
    # groups that are all different (fewer than half repeat among the table rows): the
    # given rows are the distinct rows, the tables made dense
    groups = np.arange(12.0).reshape(4, 3) + 1
    rows = np.array([0, 1, 2, 3, 3, 2, 1, 0, 0])
    stat = Statistic({"t": sparse.csr_matrix(groups)}, {"t": (3,)}, _ratio_finish, None,
                     rows)
    codes, distinct = stat.distinct()
    np.testing.assert_array_equal(codes, rows)
    assert isinstance(distinct.tables["t"], np.ndarray) and distinct.rows is None
    np.testing.assert_array_equal(distinct.tables["t"], groups)


# ------------------------------------------------------------ RowBlocks
def row_blocks_and_dense():
    """A RowBlocks table of four blocks (dense part in some cells, CSR part in every
    cell, a zero row, dense part in other cells) and the same table written out."""
    rng = np.random.default_rng(5)
    a, b = rng.random((3, 2)), rng.integers(0, 3, (4, 6)).astype(float)
    c = rng.random((2, 3))
    none = np.array([], int)
    blocks = RowBlocks((a, sparse.csr_matrix(b), np.zeros((1, 0)), c),
                       (np.array([0, 0, 1]), None, none, np.array([2, 1, 0])),
                       (np.array([5, 0, 3]), None, none, np.array([1, 2, 4])), 6)
    dense = np.zeros((10, 6))
    dense[0:3, [5, 0, 3]] = a[:, [0, 0, 1]]
    dense[3:7] = b
    dense[8:10, [1, 2, 4]] = c[:, [2, 1, 0]]
    return blocks, dense


def test_row_blocks_are_the_table_they_stand_for():
    # products, rows, totals, values and jackknife of a RowBlocks table equal those of
    # the table written out by hand (numpy on the dense array)
    blocks, dense = row_blocks_and_dense()
    assert blocks.shape == dense.shape
    np.testing.assert_array_equal(blocks.rows(0, 10), dense)
    np.testing.assert_array_equal(blocks.rows(2, 9), dense[2:9])
    w = np.random.default_rng(6).integers(0, 3, (5, 10)).astype(float)
    np.testing.assert_allclose(blocks.product(w), w @ dense, rtol=1e-15, atol=0)

    def finish(tot):
        value = tot["t"][:, 1:].sum(axis=1) / (1 + tot["t"][:, 0])
        return value, value, value
    rows = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 3])
    stat = Statistic({"t": blocks}, {"t": (6,)}, finish, None, rows)
    written = Statistic({"t": dense[rows]}, {"t": (6,)}, finish)
    w = np.random.default_rng(7).integers(0, 3, (5, 12)).astype(float)
    np.testing.assert_allclose(stat.totals(w)["t"], written.totals(w)["t"], rtol=1e-15)
    np.testing.assert_allclose(stat.values(w), written.values(w), rtol=1e-15)
    np.testing.assert_allclose(stat.jackknife(), written.jackknife(), rtol=1e-14, atol=0)
    codes, distinct = stat.distinct()                 # built per group: rows as given
    np.testing.assert_array_equal(codes, rows)
    assert distinct.rows is None and distinct.tables["t"] is blocks
    assert Statistic({"t": blocks}, {"t": (6,)}, finish).distinct() is None


# ------------------------------------------------------ augmented κ: patterns
def terms_by_hand(ann, p):
    """Per item, κ′'s terms written from the ratings: M_r[x, y] = 1 for a label alone,
    p for a primary with a secondary, 1 − p for the secondary (§5.1), R_r[x] = 1 where
    r gave a primary; per pair a < b: R_a R_b (N), Σ_y M_a M_b (ΣAg), M_a[y] R_b and
    M_b[y] R_a (the Freq numerators, §5.2), pair by pair; zero for an item rated by
    fewer than two annotators (left out)."""
    n, m, k = ann.n_items, ann.n_annotators, ann.n_categories
    prim = ann.rank == 1
    second = np.zeros((n, m), dtype=bool)
    second[ann.item[~prim], ann.annotator[~prim]] = True
    weight = np.where(~prim, 1 - p, np.where(second[ann.item, ann.annotator], p, 1.0))
    M = np.zeros((n, m, k))
    np.add.at(M, (ann.item, ann.annotator, ann.label), weight)
    R = np.zeros((n, m))
    R[ann.item[prim], ann.annotator[prim]] = 1.0
    a, b = np.array([(i, j) for i in range(m) for j in range(i + 1, m)]).T
    out = np.concatenate([R[:, a] * R[:, b], (M[:, a] * M[:, b]).sum(axis=2),
                          (M[:, a] * R[:, b, None]).reshape(n, -1),
                          (M[:, b] * R[:, a, None]).reshape(n, -1)], axis=1)
    out[R.sum(axis=1) < 2] = 0.0
    return out


# blocks of the table by SET_ROWS on ratings(3, 2000): 570 patterns, rated by {r0 r1 r2}
# (372), {r0 r1} (63), {r0 r2} (69), {r1 r2} (66); then the rest, then the zero row
BLOCKS = {1: 4 + 0 + 1, 100: 1 + 1 + 1, 10 ** 9: 0 + 1 + 1}


@pytest.mark.parametrize("set_rows", list(BLOCKS))
@pytest.mark.parametrize("p", [0.5, 0.6, 1.0])
def test_augmented_rows_hold_each_items_terms(p, set_rows, monkeypatch):
    # each item's row of the table (RowBlocks: a block per rated set of annotators of
    # at least SET_ROWS patterns, the rest in every term) equals its terms written by
    # hand; items left out (rated once) point to a zero row; items share patterns
    from iaa_widgets.measures import augmented
    monkeypatch.setattr(augmented, "SET_ROWS", set_rows)
    ann = ratings(3, n_items=2000)
    stat = augmented_kappa.statistic(ann, p=p)
    table = stat.tables["terms"]
    assert len(table.parts) == BLOCKS[set_rows]
    t, kept = _ratings(ann)
    assert table.shape[0] < len(kept) // 2
    np.testing.assert_allclose(table.rows(0, table.shape[0])[stat.rows],
                               terms_by_hand(ann, p), rtol=0, atol=1e-15)
    assert len(kept) < ann.n_items


def test_augmented_patterns_beyond_int64_are_the_items():
    # 14 annotators over 4 categories: 25¹⁴ > 2⁶³ patterns, so every item is its own
    # row (not grouped by a key that could overflow); its terms are still its own
    ann = ratings(6, n_items=80, n_raters=14, k=4, missing=0.3)
    stat = augmented_kappa.statistic(ann, p=0.6)
    t, kept = _ratings(ann)
    assert len(np.unique(stat.rows[kept])) == len(kept)
    table = stat.tables["terms"]
    np.testing.assert_allclose(table.rows(0, table.shape[0])[stat.rows],
                               terms_by_hand(ann, 0.6), rtol=0, atol=1e-15)
    fast = bootstrap(ann, augmented_kappa, n_resamples=10, seed=1)
    slow = bootstrap(ann, lambda d, **kw: augmented_kappa(d, **kw).value, n_resamples=10,
                     seed=1)
    np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12)


def test_augmented_patterns_tell_primary_from_secondary():
    # two items whose annotators use the same labels, once as (primary, secondary) and
    # once swapped: different weights M at p = 0.6, so different rows
    df = pd.DataFrame({"item": [0, 0, 0, 0, 1, 1, 1, 1],
                       "annotator": ["a", "a", "b", "b"] * 2,
                       "label": [0, 1, 0, 1, 1, 0, 0, 1], "rank": [1, 2] * 4})
    ann = Annotations.from_long(df, rank="rank", categories=[0, 1])
    stat = augmented_kappa.statistic(ann, p=0.6)
    assert stat.rows[0] != stat.rows[1]


@pytest.mark.parametrize("set_rows", [1, 10 ** 9])
@pytest.mark.parametrize("p", [0.6, 1.0])
def test_augmented_bootstrap_of_patterns_equals_row_resampling(p, set_rows, monkeypatch):
    # the Statistic bootstrap (rows per pattern; a block per rated set, or every
    # pattern in all terms) against rebuilding each resample and recomputing the
    # public function (a wrapper: no Statistic), same seed; and BCa's jackknife
    # against leaving each item out and recomputing
    from iaa_widgets.measures import augmented
    monkeypatch.setattr(augmented, "SET_ROWS", set_rows)
    ann = ratings(4, n_items=300)
    fast = bootstrap(ann, augmented_kappa, n_resamples=25, seed=7, p=p)
    slow = bootstrap(ann, lambda d, **kw: augmented_kappa(d, **kw).value, n_resamples=25,
                     seed=7, p=p)
    np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12)
    stat = augmented_kappa.statistic(ann, p=p)
    jack = stat.jackknife()
    for i in (0, 5, 17, 123):
        without = ann._take(ann.item != i)       # item i's ratings left out
        assert jack[i] == pytest.approx(augmented_kappa(without, p=p).value, abs=1e-12)


# --------------------------------------------------------- Gwet: Student's t
@pytest.mark.parametrize("fn", [gwet_ac1, gwet_ac2])
def test_gwet_interval_and_p_value_are_scipy_stats_t(fn):
    # the interval half-width t_{n−1, (1+c)/2}·se and the p-value 2·P(T > |t|) equal
    # scipy.stats.t's (peer: scipy 1.17), computed from scipy.special's stdtrit/stdtr
    from scipy import stats
    ann = ratings(5, n_items=50, n_raters=4, k=4, second=0.0)
    for confidence in (0.9, 0.95, 0.99):
        r = fn(ann, confidence=confidence)
        df = r.params["df"]
        half = stats.t.ppf(0.5 + confidence / 2, df) * r.se
        assert r.ci[0] == pytest.approx(r.value - half, rel=1e-15, abs=1e-15)
        assert r.params["p_value"] == pytest.approx(
            2 * stats.t.sf(abs(r.params["t"]), df), rel=1e-14)


def test_gwet_does_not_load_scipy_stats():
    # scipy.stats costs 0.65 s to import (measured): the first gwet call no longer pays it
    code = ("import sys, pandas as pd; from iaa_widgets.measures.categorical.gwet import gwet_ac1; "
            "gwet_ac1(pd.DataFrame({'item': [0, 0, 1, 1, 2, 2], 'annotator': list('ababab'), "
            "'label': [1, 1, 2, 1, 2, 2]})); "
            "print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
