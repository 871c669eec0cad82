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
from iaa_widgets.measures.augmented import (_ratings, _terms, augmented_kappa)
from iaa_widgets.measures.gwet import gwet_ac1, gwet_ac2
from iaa_widgets.resampling import bootstrap
from iaa_widgets.stats import all_pairs
from iaa_widgets.stats.statistic import Statistic


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


# ------------------------------------------------------ augmented κ: patterns
@pytest.mark.parametrize("p", [0.5, 0.6, 1.0])
def test_augmented_rows_hold_each_items_terms(p):
    # each item's row of the grouped table equals the terms built for that item alone
    # (the per-item table of before, :func:`_terms` over every kept item); items left
    # out (rated once) point to a zero row; and items did share patterns
    ann = ratings(3, n_items=2000)
    stat = augmented_kappa.statistic(ann, p=p)
    t, kept = _ratings(ann)
    per_item = _terms(t, p, all_pairs(ann.n_annotators))
    table = stat.tables["terms"]
    assert table.shape[0] < len(kept) // 2
    np.testing.assert_allclose(table[stat.rows[kept]], per_item, rtol=0, atol=1e-15)
    left_out = np.setdiff1d(np.arange(ann.n_items), kept)
    assert len(left_out) > 0
    assert not np.any(table[stat.rows[left_out]])


def test_augmented_patterns_beyond_int64_are_the_items():
    # 14 annotators over 4 categories: 25¹⁴ > 2⁶³ patterns, so every item is its own
    # row (not grouped by a key that could overflow); its terms are still its own
    ann = ratings(6, n_items=80, n_raters=14, k=4, missing=0.3)
    stat = augmented_kappa.statistic(ann, p=0.6)
    t, kept = _ratings(ann)
    np.testing.assert_array_equal(stat.rows[kept], np.arange(len(kept)))
    np.testing.assert_allclose(stat.tables["terms"][stat.rows[kept]],
                               _terms(t, 0.6, all_pairs(ann.n_annotators)), rtol=0, atol=0)
    fast = bootstrap(augmented_kappa, ann, n_resamples=10, seed=1)
    slow = bootstrap(lambda d, **kw: augmented_kappa(d, **kw).value, ann, n_resamples=10,
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


@pytest.mark.parametrize("p", [0.6, 1.0])
def test_augmented_bootstrap_of_patterns_equals_row_resampling(p):
    # the Statistic bootstrap (rows per pattern) against rebuilding each resample and
    # recomputing the public function (a wrapper: no Statistic), same seed; and BCa's
    # jackknife against leaving each item out and recomputing
    ann = ratings(4, n_items=300)
    fast = bootstrap(augmented_kappa, ann, n_resamples=25, seed=7, p=p)
    slow = bootstrap(lambda d, **kw: augmented_kappa(d, **kw).value, ann, n_resamples=25,
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
    code = ("import sys, pandas as pd; from iaa_widgets.measures.gwet import gwet_ac1; "
            "gwet_ac1(pd.DataFrame({'item': [0, 0, 1, 1, 2, 2], 'annotator': list('ababab'), "
            "'label': [1, 1, 2, 1, 2, 2]})); "
            "print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
