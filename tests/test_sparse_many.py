"""SPA with many annotations per item (issue 19): spa_missingness, spa_variance_curve and
their helpers at m = 2 … 200 annotations on an item.

Expected values come from exact laws computed here independently of the package:
- m ≤ 8: every subset of an item's annotations enumerated (2^m subsets), each kept with
  probability keep^k · drop^(m − k) — the thinning of Nørregaard & Derczynski §4.2/§6.3;
- m up to 200: the kept count of each category is Bin(n_c, keep), independently, so an
  item's law is the product of binomial pmfs over the grid of kept count vectors
  (scipy.stats.binom), a different route from the package's convolution.
Items are independent, so the law of P̄_spa (eq. 7, weights of §5 written out by hand)
is the product of the items' laws. The simulated values must match its mean and
variance within 5 standard errors of a Monte Carlo estimate (SE of a mean √(σ²/R), of a
variance √((μ₄ − σ⁴(R − 3)/(R − 1))/R), with μ₄ from the same exact law): a seeded run
fails only for a real difference. No approximation is documented because none is used.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom, hypergeom

import iaa_widgets as iaa
from iaa_widgets import AgreementError
from iaa_widgets.measures.sparse.curves import _same_before, _sort_columns
from iaa_widgets.measures.sparse.missing import SpaMissingness, _kept_law

PLAIN = {"flat": lambda n: np.ones_like(n), "annotations": lambda n: n,
         "annotations_m1": lambda n: n - 1.0, "edges": lambda n: n * (n - 1) / 2}


# ----------------------------------------------------------------- exact references
def law_by_subsets(labels):
    """{(k, P): number of subsets of the item's annotations with k kept and P =
    Σ_c m_c(m_c − 1) agreeing ordered pairs}, by enumerating all 2^m subsets."""
    out = {}
    for mask in itertools.product([False, True], repeat=len(labels)):
        kept = [lab for lab, keep in zip(labels, mask) if keep]
        counts = np.unique(kept, return_counts=True)[1] if kept else np.zeros(0, int)
        key = (len(kept), int((counts * (counts - 1)).sum()))
        out[key] = out.get(key, 0) + 1
    return out


def item_law_subsets(labels, keep):
    """(k, P, probability) of one item's kept annotations, from law_by_subsets."""
    law = law_by_subsets(labels)
    k = np.array([key[0] for key in law], dtype=float)
    pairs = np.array([key[1] for key in law], dtype=float)
    ways = np.array(list(law.values()), dtype=float)
    return k, pairs, ways * keep ** k * (1 - keep) ** (len(labels) - k)


def item_law_binomial(counts, keep):
    """(k, P, probability) of one item's kept counts: independent Bin(n_c, keep) per
    category over the whole grid of kept count vectors."""
    grids = np.meshgrid(*[np.arange(c + 1) for c in counts], indexing="ij")
    prob = np.prod([binom.pmf(g, c, keep) for g, c in zip(grids, counts)], axis=0)
    k = sum(grids).ravel()
    pairs = sum(g * (g - 1) for g in grids).ravel()
    cells, which = np.unique(np.column_stack([k, pairs]), axis=0, return_inverse=True)
    return (cells[:, 0].astype(float), cells[:, 1].astype(float),
            np.bincount(which.ravel(), prob.ravel()))               # summed per (k, P)


def spa_law(items, scheme):
    """Exact P(defined), E, Var and μ₄ of P̄_spa (eq. 7) given defined, over independent
    items [(k, P, probability), …]."""
    num, den, prob = np.zeros(1), np.zeros(1), np.ones(1)
    for k, pairs, p in items:
        w = np.where(k >= 2, PLAIN[scheme](k), 0.0)
        item_num = np.divide(w * pairs, k * (k - 1), out=np.zeros_like(w), where=k >= 2)
        num = (num[:, None] + item_num).ravel()
        den = (den[:, None] + w).ravel()
        prob = (prob[:, None] * p).ravel()
    ok = den > 0
    p_def = prob[ok].sum()
    value, weight = num[ok] / den[ok], prob[ok] / p_def
    mean = weight @ value
    return p_def, mean, weight @ (value - mean) ** 2, weight @ (value - mean) ** 4


def assert_matches_law(values, law, rounds, what):
    """Monte Carlo values (NaN where undefined) against the exact law, within 5 SE."""
    p_def, mean, var, mu4 = law
    values = np.asarray(values, dtype=float)
    ok = ~np.isnan(values)
    assert abs(ok.mean() - p_def) <= 5 * np.sqrt(p_def * (1 - p_def) / rounds) + 1e-12, what
    x = values[ok]
    n = len(x)
    assert abs(x.mean() - mean) <= 5 * np.sqrt(var / n) + 1e-12, (what, x.mean(), mean)
    se_var = np.sqrt(max(mu4 - var ** 2 * (n - 3) / (n - 1), 0.0) / n)
    assert abs(x.var(ddof=1) - var) <= 5 * se_var + 1e-12, (what, x.var(ddof=1), var)


def tidy(items):
    """Tidy table from {item: [labels]}, annotators distinct within an item."""
    rows = [(item, j, lab) for item, labels in items.items() for j, lab in enumerate(labels)]
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


# m ≤ 8: an item of 8 (3 classes), one of 5, four items of one pattern (tabled under
# "auto", while the 8-annotation item is thinned directly: method "mixed")
SMALL = {"big": list("aaabbbcc"), "mid": list("aabbc"), **{f"p{i}": list("ab")
                                                            for i in range(4)}}


def small_law(keep, scheme):
    return spa_law([item_law_subsets(labels, keep) for labels in SMALL.values()], scheme)


# ----------------------------------------------------------------- the pieces
@pytest.mark.parametrize("labels", ["aaabbbcc", "abcdabcd", "aaaaaaa", "aabbccdd", "ab"])
def test_kept_law_counts_every_subset(labels):
    # N_n(k, P) of the convolution = number of subsets with (k, P), exact integers
    counts = np.unique(list(labels), return_counts=True)[1]
    k, pairs, log_ways = _kept_law(counts)
    got = {(int(a), int(b)): round(float(np.exp(c))) for a, b, c in zip(k, pairs, log_ways)}
    assert got == law_by_subsets(list(labels))
    assert np.allclose(np.exp(log_ways), [got[(int(a), int(b))] for a, b in zip(k, pairs)],
                       rtol=1e-12)


def test_kept_law_at_200_annotations_matches_the_binomial_grid():
    # |n| = 200 over 3 categories: Σ N · keep^k drop^(n−k) per cell equals the product of
    # binomial pmfs summed over the grid (item_law_binomial), cell by cell
    counts = np.array([120, 50, 30])
    k, pairs, log_ways = _kept_law(counts)
    keep = 0.7
    prob = np.exp(log_ways + k * np.log(keep) + (200 - k) * np.log(1 - keep))
    rk, rp, rprob = item_law_binomial(counts, keep)
    ref = pd.Series(rprob).groupby([rk, rp]).sum()
    mine = pd.Series(prob, index=pd.MultiIndex.from_arrays([k.astype(float),
                                                            pairs.astype(float)]))
    assert len(mine) == len(ref)
    np.testing.assert_allclose(mine.sort_index().to_numpy(), ref.sort_index().to_numpy(),
                               rtol=1e-9, atol=1e-300)


@pytest.mark.parametrize("m", [17, 50, 200])
def test_same_before_and_sort_above_the_network(m):
    # the sort-based s_q (m > 16) against its definition: earlier slots with the label
    rng = np.random.default_rng(m)
    seq = rng.integers(0, 3, size=(m, 4, 5)).astype(np.int16)
    expected = np.stack([(seq[:q] == seq[q]).sum(axis=0) for q in range(m)])
    np.testing.assert_array_equal(_same_before(seq), expected)
    x = rng.integers(0, 10 ** 6, size=(m, 3, 4))
    ref = np.sort(x, axis=0)                                 # numpy's sort as reference
    _sort_columns(x)
    np.testing.assert_array_equal(x, ref)


# ----------------------------------------------------------------- spa_missingness
@pytest.mark.parametrize("method", ["auto", "patterns", "direct"])
def test_missingness_small_items_match_subset_enumeration(method):
    prep = SpaMissingness(tidy(SMALL), schemes=list(PLAIN), method=method)
    assert prep.method == {"auto": "mixed"}.get(method, method)
    rounds = 20_000
    res = prep.sample(0.4, n_rounds=rounds, seed=3)
    for scheme in PLAIN:
        assert_matches_law(res.values[scheme], small_law(0.6, scheme), rounds, scheme)


@pytest.mark.parametrize("m", [15, 50, 200])
def test_missingness_many_annotations_matches_binomial_law(m):
    # one item with m annotations over 3 classes, one with 15 over 2, one with 2
    big = ["a"] * (m // 2) + ["b"] * (m // 3) + ["c"] * (m - m // 2 - m // 3)
    items = {"big": big, "fifteen": list("a" * 9 + "b" * 6), "two": list("ab")}
    data = tidy(items)
    counts = [np.unique(v, return_counts=True)[1] for v in items.values()]
    rounds = 20_000
    item_laws = [item_law_binomial(c, 0.7) for c in counts]  # once for every scheme
    laws = {scheme: spa_law(item_laws, scheme) for scheme in PLAIN}
    for method in ("auto", "direct"):
        res = SpaMissingness(data, schemes=list(PLAIN), method=method).sample(
            0.3, n_rounds=rounds, seed=m)
        for scheme in PLAIN:
            assert_matches_law(res.values[scheme], laws[scheme], rounds, (m, method, scheme))
    # drop = 0: the full data in every round, exactly as sparse_agreement
    res = iaa.spa_missingness(data, 0.0, schemes=list(PLAIN), n_rounds=3, seed=0)
    for scheme in PLAIN:
        np.testing.assert_allclose(res.values[scheme],
                                   iaa.sparse_agreement(data, scheme).value, atol=1e-12)


def test_patterns_method_refuses_a_table_it_cannot_hold():
    data = tidy({"huge": ["a", "b"] * 600, "pair": ["a", "a"]})      # |n| = 1,200 > 1,000
    with pytest.raises(AgreementError, match="method='patterns'"):
        SpaMissingness(data, method="patterns")
    assert SpaMissingness(data).method in ("direct", "mixed")


# ----------------------------------------------------------------- variance curves
def test_random_curve_small_items_match_subset_enumeration():
    # at τ = g/G each annotation is present with probability τ, independently (§6.3)
    rounds = 8_000
    curve = iaa.spa_variance_curve(tidy(SMALL), list(PLAIN), n_rounds=rounds, seed=5,
                                   n_points=4)
    for tau in (0.25, 0.5, 0.75):
        at = curve[curve["fraction"] == tau].set_index("scheme")
        for scheme in PLAIN:
            p_def, mean, var, mu4 = small_law(tau, scheme)
            n = at.loc[scheme, "n_rounds"]
            assert abs(n / rounds - p_def) <= 5 * np.sqrt(p_def * (1 - p_def) / rounds) + 1e-12
            assert abs(at.loc[scheme, "mean"] - mean) <= 5 * np.sqrt(var / n), (tau, scheme)
            se_var = np.sqrt((mu4 - var ** 2 * (n - 3) / (n - 1)) / n)
            assert abs(at.loc[scheme, "variance"] - var) <= 5 * se_var, (tau, scheme)


@pytest.mark.parametrize("m, n_points", [(15, 5), (40, 60), (50, 5), (200, 5)],
                         ids=["network", "sorted", "binned-50", "binned-200"])
def test_random_curve_many_annotations_matches_binomial_law(m, n_points):
    # m ≤ 16: arrivals ordered by a sorting network; (40, G = 60): by numpy's sort, as
    # G·C > 2m; otherwise counted per (time bin, label) (sparse.curves._binned)
    big = ["a"] * (m - m // 3) + ["b"] * (m // 3)
    items = {"big": big, "other": list("aab"), "two": list("bb")}
    counts = [np.unique(v, return_counts=True)[1] for v in items.values()]
    rounds = 6_000
    curve = iaa.spa_variance_curve(tidy(items), list(PLAIN), n_rounds=rounds, seed=m,
                                   n_points=n_points)
    for tau in (0.4, 0.8):
        at = curve[np.isclose(curve["fraction"], tau)].set_index("scheme")
        for scheme in PLAIN:
            p_def, mean, var, mu4 = spa_law([item_law_binomial(c, tau) for c in counts],
                                            scheme)
            n = at.loc[scheme, "n_rounds"]
            assert abs(at.loc[scheme, "mean"] - mean) <= 5 * np.sqrt(var / n), (tau, scheme)
            se_var = np.sqrt((mu4 - var ** 2 * (n - 3) / (n - 1)) / n)
            assert abs(at.loc[scheme, "variance"] - var) <= 5 * se_var, (tau, scheme)
    full = curve[curve["fraction"] == 1.0].set_index("scheme")      # τ = 1: the data
    for scheme in PLAIN:
        assert full.loc[scheme, "mean"] == pytest.approx(
            iaa.sparse_agreement(tidy(items), scheme).value, rel=1e-12)
        assert full.loc[scheme, "n_usable"] == m + 5


def test_random_curve_many_rounds_and_points_no_overflow():
    # 500 rounds × 60 times at m = 50 (arrival by arrival, as G·C > 2m): the old
    # (q, s, A) state table had 750,975 states, 500 · 60 · 750,975 ≈ 2.3e10 bincount
    # cells, indexed in int32 (overflow); now R·G·m = 1.5e6 cells, int64 indices
    items = {"big": ["a"] * 30 + ["b"] * 20, "two": ["a", "a"]}
    curve = iaa.spa_variance_curve(tidy(items), ["flat"], n_rounds=500, seed=0, n_points=60)
    assert curve["mean"].between(0, 1).all() and np.isfinite(curve["variance"]).all()
    assert curve["n_usable"].iloc[-1] == 52


@pytest.mark.parametrize("m", [15, 200])
def test_per_item_curve_many_annotations_is_hypergeometric(m):
    # one item: its first a arrivals are a uniform a-subset, so with n_a of its m labels
    # "a", the kept count of "a" is hypergeometric and P̂(a) = (j(j−1) + (a−j)(a−j−1))/(a(a−1))
    n_a = m // 3
    rounds = 4_000
    curve = iaa.spa_variance_curve(tidy({"big": ["a"] * n_a + ["b"] * (m - n_a)}), ["flat"],
                                   n_rounds=rounds, seed=1, mode="per_item", n_points=2)
    assert set(curve["annotations_per_item"]) == set(range(2, m + 1))
    for a in (2, 7, m // 2, m):
        row = curve[curve["annotations_per_item"] == a].iloc[0]
        j = np.arange(a + 1)
        p = hypergeom.pmf(j, m, n_a, a)
        value = (j * (j - 1) + (a - j) * (a - j - 1)) / (a * (a - 1))
        mean = p @ value
        var, mu4 = p @ (value - mean) ** 2, p @ (value - mean) ** 4
        assert abs(row["mean"] - mean) <= 5 * np.sqrt(var / rounds) + 1e-12, a
        se_var = np.sqrt(max(mu4 - var ** 2 * (rounds - 3) / (rounds - 1), 0) / rounds)
        assert abs(row["variance"] - var) <= 5 * se_var + 1e-12, a
