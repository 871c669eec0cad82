"""Krippendorff's α on many distinct values (slider ratings, scores, durations, or
thousands of labels), with no K × K table: nominal α from per-item counts, interval and
ordinal α from per-item moments, ratio α by a sweep in blocks.

Notation of Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": the n
pairable values (items with m_i ≥ 2 values), D_o = (1/n) Σ_i 1/(m_i − 1) Σ_{u≠u' ∈ i} δ_uu'
and D_e = 1/(n(n − 1)) Σ_{u≠u'} δ_uu' over all pairs of pairable values, α = 1 − D_o/D_e.

- **Nominal**, δ = [c ≠ k]: Σ_ck o_ck δ_ck = n − Σ_c o_cc with o_cc = Σ_i n_ic (n_ic − 1)/
  (m_i − 1), and Σ_ck n_c n_k δ_ck = n² − Σ_c n_c²: O(N) from the counts of the categories
  present in each item.
- **Interval**, δ = (v − v')²: Σ_{u≠u' ∈ i} (v_u − v_u')² = 2 m_i SS_i with SS_i the item's
  sum of squared deviations from its mean, and Σ_{u≠u'} = 2 n SS over all pairable values,
  so α needs per item only (2 m_i SS_i/(m_i − 1), m_i, Σ v, Σ v²): O(N).
- **Ordinal**, δ_ck = (mid_k − mid_c)² with mid_c = Σ_{g≤c} n_g − n_c/2 (the mid-rank of c
  among the pairable values, n_g their counts per category in declared order): interval α
  on the values replaced by their mid-ranks. O(N + K) from codes already in order.
- **Ratio**, δ = ((c − k)/(c + k))², does not separate into moments. D_o reads the pairs
  of values within each item (Σ_i |S_i|² entries); D_e = Σ_ck n_c n_k δ_ck is summed over
  the K distinct values in blocks of rows (a block × K slab at a time, memory
  ``BLOCK`` entries, time K²): exact, with no K × K table, and refused beyond
  ``MAX_RATIO_VALUES`` = 50,000 values (about 7 s; the message says what to do
  instead). (The identity δ = 1 − 4ck/(c + k)² leaves a Cauchy-like kernel 1/(c + k)²,
  whose fast summation is approximate; the sweep keeps α exact.)

Values are divided by their largest magnitude, centred on their mean and divided by
their largest magnitude again (α is a ratio of D's: unchanged), so that sums of squares
neither cancel nor leave the float range (values near 1.7e308, or denormals below
2.2e-308); D_o and D_e are reported in the data's units (infinity or 0 where those
leave the float range).
"""
from __future__ import annotations

import numpy as np

from ...errors import AgreementError
from ...stats import Statistic
from ...stats.resampling import _one_blas_thread
from ...stats.statistic import entry_pairs
from ._anova import mid_ranks  # Σ_{g<c} n_g + (n_c + 1)/2: Krippendorff's mid_c + 1/2

__all__ = ["MANY_VALUES", "many_values", "pairable_ratings", "pairable_entries",
           "moment_alpha", "nominal_alpha", "ratio_alpha", "check_ratio",
           "values_statistic", "MAX_RATIO_VALUES"]

# distinct values above which interval and ordinal α take this module's path instead of
# the coincidence matrix (ratio: twice as many). Measured on 1e6 ratings (CPU s, dense
# path / this one): interval 0.08 / 0.015 at 400 values, 0.17 / 0.015 at 1,461, 1.5 /
# 0.017 at 5,283; ratio 0.18 / 0.34 at 1,461, 0.41–0.61 / 0.31 at 2,055–2,895. Below the
# threshold the coincidence matrix costs little and is reported (params["coincidences"]).
MANY_VALUES = 1024
# most distinct values ratio α sums D_e over: the sweep takes K²/2 pairs of values, about
# PAIR_SECONDS each (measured, CPU: K = 16,000 0.67 s, 34,000 3.7 s, 50,000 6.8 s), so
# 50,000 values take about 7 s and every doubling four times as long (1e6 values: 45 min);
# beyond it, refused
MAX_RATIO_VALUES = 50_000
PAIR_SECONDS = 5.4e-9
# entries of one block of the ratio sweep (block rows × K values; in cache: measured
# 0.46 s for K = 12,000 at 2¹⁶, 2.5 s at 2²⁰)
BLOCK = 1 << 16


def many_values(metric, n_categories: int) -> bool:
    """Whether α under ``metric`` on ``n_categories`` distinct values takes this path."""
    if not isinstance(metric, str) or metric not in ("nominal", "interval", "ordinal",
                                                     "ratio"):
        return False
    return n_categories > (2 * MANY_VALUES if metric == "ratio" else MANY_VALUES)


def pairable_ratings(ann):
    """The primary ratings of the pairable items (m_i ≥ 2 values), in the data's order:
    (item, category, count), and every item's m_i; ``count``: how many values a rating
    stands for (a ``from_counts`` cell's count; None: one each; a ``from_contingency``
    row's item weight is not in it). No sort and no grouping: moments need none."""
    prim = ann.primary()
    count = None if prim.rating_count is None else prim.rating_count.astype(float)
    m = np.bincount(prim.item, weights=count, minlength=ann.n_items).astype(float)
    keep = m[prim.item] >= 2
    if keep.all():
        return prim.item, prim.label, count, m
    return prim.item[keep], prim.label[keep], None if count is None else count[keep], m


def pairable_entries(ann):
    """:func:`pairable_ratings` summed per item and category (one entry per category
    present in an item, sorted by item: the pairs within items read them)."""
    from scipy import sparse
    item, cat, count, m = pairable_ratings(ann)
    count = np.ones(len(item)) if count is None else count
    table = sparse.csr_matrix((count, (item, cat)), shape=(ann.n_items, ann.n_categories))
    table.sum_duplicates()  # canonical: one entry per (item, category), by item
    entries = table.tocoo()
    return entries.row, entries.col, entries.data, m


def _standardised(v: np.ndarray, weight):
    """Values (a new array, changed in place) divided by their largest magnitude, centred
    on their weighted mean and divided by their largest magnitude again, and the unit s²
    that D's are multiplied back by (α is unchanged). Dividing first keeps the sums in
    range near 1.7e308, and dividing (not multiplying by a reciprocal that overflows)
    keeps denormal values exact. ``weight``: per value, or None for one each."""
    top = _magnitude(v)
    v /= top
    total = len(v) if weight is None else np.sum(weight)
    if total > 0:
        v -= (np.sum(v) if weight is None else weight @ v) / total
    spread = _magnitude(v)
    v /= spread
    with np.errstate(over="ignore", under="ignore"):  # the unit may leave the float range
        return v, (top * spread) ** 2


def _magnitude(v: np.ndarray) -> float:
    """max |v|, or 1 for no values or only zeros: the divisor of :func:`_standardised`."""
    top = max(-float(v.min()), float(v.max())) if len(v) else 0.0
    return np.float64(top if top > 0 else 1.0)  # numpy's: its square may overflow to inf


def _moments(item, v, count, m, n_items: int, summed: bool = False) -> np.ndarray:
    """Per item (n_items × 4): 2 m_i SS_i/(m_i − 1) (its share of n·D_o, SS_i its squared
    deviations from its mean), m_i, Σ v, Σ v² over its values; zeros below two values
    (``item`` only pairable ones). ``summed``: their totals over the items instead."""
    cv = v if count is None else count * v
    s1 = np.bincount(item, weights=cv, minlength=n_items)
    pairable = m >= 2
    mean = np.divide(s1, m, out=np.zeros(n_items), where=pairable)
    dev = v - mean[item]
    dev *= dev
    ss = np.bincount(item, weights=dev if count is None else count * dev, minlength=n_items)
    within = np.divide(2 * m * ss, m - 1, out=np.zeros(n_items), where=pairable)
    if summed:  # Σ v² needs no per-item pass
        return np.array([within.sum(), m[pairable].sum(), s1.sum(), cv @ v])
    return np.column_stack([within, np.where(pairable, m, 0.0), s1,
                            np.bincount(item, weights=cv * v, minlength=n_items)])


def _alpha_of_moments(tot: np.ndarray, unit: float = 1.0):
    """α, D_o, D_e from the totals (…, 4) of :func:`_moments`: n = Σ m_i,
    D_o = Σ 2 m_i SS_i/(m_i − 1) / n, D_e = 2 (Σ v² − (Σ v)²/n)/(n − 1)."""
    within, n, s1, s2 = (tot[..., j] for j in range(4))
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = np.where(n > 0, within / n, np.nan)
        d_e = np.where(n > 1, 2 * (s2 - s1 * s1 / n) / (n - 1), np.nan)
        value = np.where(d_e > 0, 1.0 - d_o / d_e, np.nan)  # α = 1 − D_o/D_e
    return value, d_o * unit, d_e * unit


def _values(metric: str, cat, count_w, values, k: int):
    """Each entry's value: the category's number (interval), or its mid-rank among the
    pairable values (ordinal; ``count_w`` the entries' weighted counts)."""
    if metric == "ordinal":
        return mid_ranks(np.bincount(cat, weights=count_w, minlength=k))[cat]
    return np.asarray(values, float)[cat]  # a new array (gathered)


def moment_alpha(ratings, n_items: int, k: int, metric: str, values, item_weight=None):
    """(α, D_o, D_e) of interval or ordinal α from per-item moments of the
    :func:`pairable_ratings` ``ratings``."""
    item, cat, count, m = ratings
    weight = count if item_weight is None else \
        item_weight[item] * (1.0 if count is None else count)
    v, unit = _standardised(_values(metric, cat, weight, values, k), weight)
    tot = _moments(item, v, count, m, n_items, summed=True) if item_weight is None else \
        item_weight @ _moments(item, v, count, m, n_items)
    return tuple(float(x) for x in _alpha_of_moments(tot, unit))


def _matched(item, cat, count, m, n_items: int) -> np.ndarray:
    """Per entry (an item's count n_ic of category c) its share of o_cc,
    n_ic (n_ic − 1)/(m_i − 1) (Krippendorff 2011): the matching pairs of values."""
    g = np.divide(1.0, m - 1, out=np.zeros(n_items), where=m >= 2)  # 1/(m_i − 1)
    return count * (count - 1) * g[item]


def nominal_alpha(ann, item_weight=None):
    """(α, D_o, D_e, o_cc) of nominal α with no K × K table: Σ_ck o_ck δ_ck = n − Σ_c o_cc
    and Σ_ck n_c n_k δ_ck = n² − Σ_c n_c² for δ_ck = [c ≠ k] (Krippendorff 2011), from the
    per-item counts of the categories present; o_cc per category."""
    item, cat, count, m = pairable_entries(ann)
    w = np.ones(ann.n_items) if item_weight is None else item_weight.astype(float)
    o_cc = np.bincount(cat, weights=w[item] * _matched(item, cat, count, m, ann.n_items),
                       minlength=ann.n_categories)
    n_c = np.bincount(cat, weights=w[item] * count, minlength=ann.n_categories)
    value, d_o, d_e = _nominal_of(n_c, n_c.sum(axis=-1) - o_cc.sum())
    return float(value), float(d_o), float(d_e), o_cc


def _nominal_of(n_c: np.ndarray, mismatched):
    """α, D_o, D_e from the pairable values per category n_c (…, K) and Σ_{c≠k} o_ck:
    D_o = Σ_{c≠k} o_ck / n, D_e = (n² − Σ_c n_c²)/(n(n − 1))."""
    n = n_c.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = np.where(n > 0, mismatched / n, np.nan)
        d_e = np.where(n > 1, (n * n - np.sum(n_c * n_c, axis=-1)) / (n * (n - 1)), np.nan)
        return np.where(d_e > 0, 1.0 - d_o / d_e, np.nan), d_o, d_e


def _ratio_delta(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """((a − b)/(a + b))², 0 where a + b = 0 (both values 0)."""
    total = a + b
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, ((a - b) / np.where(total > 0, total, 1)) ** 2, 0.0)


def _ratio_observed(item, cat, count, m, v, n_items: int) -> np.ndarray:
    """Per item, Σ_{c≠k} n_ic n_ik δ_ck/(m_i − 1) over its pairs of values (its share of
    Σ o_ck δ_ck), from the pairs of its entries."""
    a, b = entry_pairs(item, n_items)
    pairs = np.bincount(item[a], weights=count[a] * count[b] * _ratio_delta(v[cat[a]],
                                                                           v[cat[b]]),
                        minlength=n_items)
    return np.divide(pairs, m - 1, out=np.zeros(n_items), where=m >= 2)


def _ratio_expected(v: np.ndarray, n_c: np.ndarray) -> np.ndarray:
    """Σ_ck n_c n_k δ_ck for values v ≥ 0 and counts n_c of shape (…, K): δ symmetric with
    a zero diagonal, so 2 Σ_{c<k}, swept in blocks of rows (block × K entries of δ in two
    reused buffers, never K × K): each block against itself and the values after it. On
    one BLAS thread: a block's product is small, and more threads busy-wait for cores
    (measured on a loaded machine: 20 ms a product of 34,000 values, 20 µs on one)."""
    k = len(v)
    flat = n_c.reshape(-1, k)
    out = np.zeros(len(flat))
    step = max(1, BLOCK // max(k, 1))
    diff, total = np.empty(step * k), np.empty(step * k)
    with _one_blas_thread():
        for s in range(0, k, step):
            e = min(s + step, k)
            a, rest = v[s:e, None], v[s:]
            x = diff[:(e - s) * len(rest)].reshape(e - s, len(rest))
            t = total[:x.size].reshape(x.shape)
            np.subtract(a, rest, out=x)
            np.add(a, rest, out=t)
            np.divide(x, t, out=x, where=t > 0)  # t = 0: both values 0, x = 0 already
            np.multiply(x, x, out=x)             # δ = ((c − k)/(c + k))²
            x[:, e - s:] *= 2                    # the pairs (c, k) with k after the block
            out += np.einsum("cb,bc->b", x @ flat[:, s:].T, flat[:, s:e])
    return out.reshape(n_c.shape[:-1])


def check_ratio(k: int) -> None:
    """Refuse ratio α on more than ``MAX_RATIO_VALUES`` distinct values, whose D_e would
    take K²/2 pairs (δ = ((c − k)/(c + k))² is no function of ranks or moments), saying
    the size, the time it would take and what to do instead."""
    if k > MAX_RATIO_VALUES:
        raise AgreementError(
            f"krippendorff_alpha(metric='ratio'): {k:,} distinct values would take "
            f"{k * (k - 1) / 2:.3g} pairs of values to sum D_e (about "
            f"{k * k / 2 * PAIR_SECONDS / 60:,.0f} min; at most {MAX_RATIO_VALUES:,} "
            f"distinct values, about {MAX_RATIO_VALUES ** 2 / 2 * PAIR_SECONDS:.0f} s). Round the values to fewer distinct ones (e.g. "
            "np.round(v, 3) or a coarser unit: ratio α of the rounded values, exact), or "
            "use metric='interval' on log(values), a scale-free comparison with no such "
            "limit (O(N), per-item moments)")


def ratio_alpha(ann, values, item_weight=None):
    """(α, D_o, D_e) of ratio α: D_o from the pairs within items, D_e by the sweep."""
    check_ratio(ann.n_categories)
    item, cat, count, m = pairable_entries(ann)
    w = np.ones(ann.n_items) if item_weight is None else item_weight.astype(float)
    v = np.asarray(values, float)
    v = v / (float(np.max(np.abs(v))) or 1.0)  # δ is scale free
    n_c = np.bincount(cat, weights=count * w[item], minlength=ann.n_categories)
    observed = w @ _ratio_observed(item, cat, count, m, v, ann.n_items)
    n = n_c.sum()
    expected = _ratio_expected(v, n_c)
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = observed / n if n > 0 else np.nan
        d_e = expected / (n * (n - 1)) if n > 1 else np.nan
        value = 1.0 - d_o / d_e if d_e > 0 else np.nan
    return float(value), float(d_o), float(d_e)


def values_statistic(ann, metric: str, values) -> Statistic:
    """α's Statistic on many values (see :func:`iaa_widgets.krippendorff_alpha`).

    Interval: per item the four cells of :func:`_moments` (the three moments m_i, Σ v,
    Σ v² and the item's share of n·D_o: D_o is not a function of the moments' totals),
    values divided by their largest magnitude, centred on the categories' mid-range and
    divided by half their range, so that
    an item's cells do not depend on the other items (the Statistic of a union of items
    is the sum of its parts').

    Ordinal: the mid-ranks depend on each resample's counts n_c(w), so the moments of
    fixed ranks would be wrong. The resample's weights themselves are the totals (a table
    with one cell per item, its own: W @ I = W), and ``finish`` recomputes, for a block of
    B resamples at once, n_c(w), the mid-ranks (centred on n/2) and every item's Σ v and
    Σ v² under them as two sparse products (items × K counts times K × B ranks): exact,
    O(N) per resample. The jackknife of BCa is the same with one item left out per row
    (O(N) per item).

    Ratio: per item its share of Σ o_ck δ_ck (pairs within the item) and its counts n_ic
    (K cells, CSR); ``finish`` sums D_e by the sweep for every resample (K² each, and as
    much per item for the jackknife of BCa)."""
    from scipy import sparse
    item, cat, count, m = pairable_entries(ann) if metric in ("ratio", "nominal") else \
        pairable_ratings(ann)
    n, k = ann.n_items, ann.n_categories
    if metric == "nominal":  # per item Σ_{c≠k} o_ick and its counts n_ic (K cells, CSR)
        mismatched = m * (m >= 2) - np.bincount(item, weights=_matched(item, cat, count, m, n),
                                                minlength=n)
        return Statistic({"observed": mismatched[:, None],  # as the dense path's
                          "n_c": sparse.csr_matrix((count, (item, cat)), shape=(n, k))},
                         {"observed": (1,), "n_c": (k,)},
                         lambda tot: _nominal_of(tot["n_c"], tot["observed"][..., 0]),
                         ann.item_weight)
    if metric == "interval":  # centred on the categories' mid-range: the same for any
        values = np.asarray(values, float)  # subset of the items (totals stay additive)
        top = _magnitude(values)  # divided first: no overflow near 1.7e308, exact denormals
        lo, hi = (values.min() / top, values.max() / top) if len(values) else (0.0, 0.0)
        half = (hi - lo) / 2 or 1.0
        v = (values[cat] / top - (lo + hi) / 2) / half
        with np.errstate(over="ignore", under="ignore"):  # D's unit may leave the range
            unit = (top * half) ** 2
        return Statistic({"moments": _moments(item, v, count, m, n)}, {"moments": (4,)},
                         lambda tot: _alpha_of_moments(tot["moments"], unit),
                         ann.item_weight)
    if metric == "ordinal":
        counts = sparse.csr_matrix((np.ones(len(item)) if count is None else count,
                                    (item, cat)), shape=(n, k))
        pairable = np.where(m >= 2, m, 0.0)
        factor = np.divide(2 * m, m - 1, out=np.zeros(n), where=m >= 2)

        def finish(tot):  # tot["w"]: B × items, the resamples' item weights
            w = tot["w"]
            n_c = np.asarray((counts.T @ w.T).T)                      # B × K: n_c(w)
            total = n_c.sum(axis=1, keepdims=True)
            mid = mid_ranks(n_c) - (total + 1) / 2  # centred: Σ_c n_c mid_c = 0
            s1 = np.asarray(counts @ mid.T)                          # items × B: Σ v
            s2 = np.asarray(counts @ (mid * mid).T)                  # Σ v²
            ss = s2 - np.divide(s1 * s1, m[:, None], out=np.zeros_like(s1),
                                where=m[:, None] > 0)                # SS_i per resample
            moments = np.stack([np.einsum("bi,ib->b", w, factor[:, None] * ss), w @ pairable,
                                np.einsum("bi,ib->b", w, s1), np.einsum("bi,ib->b", w, s2)],
                               axis=-1)
            return _alpha_of_moments(moments)
        return Statistic({"w": sparse.identity(n, format="csr")}, {"w": (n,)}, finish,
                         ann.item_weight)
    check_ratio(k)
    v = np.asarray(values, float)
    v = v / (float(np.max(np.abs(v))) or 1.0)
    observed = _ratio_observed(item, cat, count, m, v, n)

    def finish_ratio(tot):
        n_c, obs = tot["n_c"], tot["observed"][..., 0]
        total = n_c.sum(axis=-1)
        expected = _ratio_expected(v, n_c)
        with np.errstate(invalid="ignore", divide="ignore"):
            d_o = np.where(total > 0, obs / total, np.nan)
            d_e = np.where(total > 1, expected / (total * (total - 1)), np.nan)
            return np.where(d_e > 0, 1.0 - d_o / d_e, np.nan), d_o, d_e
    return Statistic({"observed": observed[:, None],
                      "n_c": sparse.csr_matrix((count, (item, cat)), shape=(n, k))},
                     {"observed": (1,), "n_c": (k,)}, finish_ratio, ann.item_weight)
