"""The resampling machinery below the measures: draws, item weights, intervals.

Each resample draws ``n_items`` items with replacement (a drawn item keeps all its
ratings; an item drawn twice counts as two items). The interval is the **percentile**
interval: the (1 − confidence)/2 and (1 + confidence)/2 quantiles of the resampled values
(Efron & Tibshirani 1993, *An Introduction to the Bootstrap*, ch. 13), or the **BCa**
interval (ch. 14) from leave-one-item-out values. The standard error is their standard
deviation (ddof = 1). Resamples where the measure is undefined (NaN) are counted apart.

A Statistic (:mod:`iaa_widgets.stats.statistic`) is resampled as item weights: a resample
is the vector w of how often each item was drawn, a block of resamples one product W @ T
of its per-item tables, and its ``finish`` turns the B totals into B values; the
jackknife of BCa is the totals minus each item's row. Any other callable is called on
each rebuilt resample (one vectorised gather). This module knows no measure by name and
imports nothing above ``stats``: the public :func:`iaa_widgets.bootstrap` (in
:mod:`iaa_widgets.inference`) resolves a measure and calls it.

How it stays fast (figures in benchmarks/README.md, "Bootstrap over Statistics"): every
measure draws the same item codes for the same seed, ``rng.integers(0, n, n)`` per
resample, so that measures compared on one seed see the same resamples; the draws are
counted in cache-sized blocks (:func:`_weight_blocks`), per distinct row of the
measure's tables where items repeat them (``Statistic.distinct``, ``Statistic.rows``,
``stats.statistic.RowBlocks``), and made on a second thread one group ahead of the
counting (:func:`_drawn_ahead`); the products run on one BLAS thread
(:func:`_one_blas_thread`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..data import Annotations
from ..errors import AgreementError

__all__ = ["resampled", "intervals", "spread", "Spread", "cluster_draws",
           "cluster_weight_blocks", "two_way"]


def _value(result) -> float:
    return float(getattr(result, "value", result))


def _draws(rng: np.random.Generator, n_items: int, n_resamples: int):
    """Item codes of each resample, one array at a time (same stream for every path)."""
    for _ in range(n_resamples):
        yield rng.integers(0, n_items, size=n_items)


# counts per bincount call: 2¹⁷ int64 bins (1 MiB) stay in a core's cache
COUNT_BINS = 1 << 17


def _weight_blocks(rng: np.random.Generator, stat, n_resamples: int, codes=None):
    """W (b × rows): how often each of b resamples drew each item row, b · rows ≤ 2²²
    per block (the block's product W @ T is one BLAS call).

    Unweighted rows: the counts of the item codes of :func:`_draws` (the same stream,
    drawn b resamples at once). With ``codes`` (:meth:`Statistic.distinct`: the row of
    each item among the distinct ones), the counts of the drawn items' codes, i.e. how
    often each distinct row was drawn: the same totals from a far smaller W.

    The draws, and with ``codes`` the gather of the drawn items' codes, are made on a
    second thread, one group ahead of the counting (:func:`_drawn_ahead`). The draws of
    as few resamples at once as keep the bins of one ``bincount`` within
    ``COUNT_BINS`` are counted together (one resample of a large data set, many of a
    small one; the same stream), each written straight into the float block. (A
    Multinomial(n, 1/n) draw of the weights would need no counting, but numpy draws it
    as n − 1 conditional binomials, slower, and from another random stream.)

    Rows of ``from_contingency`` data stand for ``weights`` items each, so N = Σ w draws
    from N items fall on the rows as Multinomial(N, w / N), drawn as such (no row per
    item)."""
    n = stat.n_items
    u = n if codes is None else int(codes.max()) + 1  # the columns of W
    b = max(1, (1 << 22) // max(u, 1))
    g = max(1, COUNT_BINS // max(n, u, 1))  # resamples counted by one bincount
    sizes = [min(b, n_resamples - start) for start in range(0, n_resamples, b)]
    if stat.weights is not None:
        for size in sizes:
            yield rng.multinomial(int(stat.weights.sum()),
                                  stat.weights / stat.weights.sum(), size=size).astype(float)
        return
    drawn = _drawn_ahead(rng, n, [(min(g, size - lo), n) for size in sizes
                                  for lo in range(0, size, g)], codes)
    for size in sizes:
        w = np.empty((size, u))
        for lo in range(0, size, g):  # resamples lo … lo + g: drawn, counted in cells g·u
            part = next(drawn)
            if len(part) > 1:
                part += (u * np.arange(len(part)))[:, None]
            w[lo:lo + g] = np.bincount(part.ravel(), minlength=len(part) * u).reshape(-1, u)
        yield w


def _drawn_ahead(rng: np.random.Generator, n: int, shapes: list, codes=None):
    """``rng.integers(0, n, shape)`` for each of ``shapes`` in turn (the stream of
    :func:`_draws`), or with ``codes`` the codes of the drawn items, each made on a
    second thread while the caller counts the one before: numpy draws and gathers
    without holding the GIL, so on two cores they cost no wall time beside the counting.
    Exactly these draws are made, in
    this order, so a generator passed as the seed is left where drawing them in turn
    would leave it."""
    from concurrent.futures import ThreadPoolExecutor  # loads on first use only

    def draw(shape):
        part = rng.integers(0, n, shape)
        return part if codes is None else np.take(codes, part)
    if not shapes:
        return
    with ThreadPoolExecutor(1, thread_name_prefix="iaa-draws") as pool:
        pending = pool.submit(draw, shapes[0])
        for shape in shapes[1:]:
            part = pending.result()
            pending = pool.submit(draw, shape)
            yield part
        yield pending.result()


def _gathered(order: np.ndarray, starts: np.ndarray, sizes: np.ndarray, drawn: np.ndarray):
    """Positions (in ``order``) of the members of each drawn group, draw after draw, and
    each draw's number of members: groups are runs of ``order`` (``starts``, ``sizes``)."""
    lengths = sizes[drawn]
    offsets = np.cumsum(lengths) - lengths
    return order[np.repeat(starts[drawn] - offsets, lengths) + np.arange(lengths.sum())], lengths


def _groups(codes: np.ndarray, n_groups: int):
    """(order, starts, sizes): ``codes`` sorted into runs of equal code, for :func:`_gathered`."""
    sizes = np.bincount(codes, minlength=n_groups)
    return np.argsort(codes, kind="stable"), np.cumsum(sizes) - sizes, sizes


def _resample(ann: Annotations, by_item: np.ndarray, starts: np.ndarray, sizes: np.ndarray,
              drawn: np.ndarray) -> Annotations:
    """The ratings of the drawn items, each draw a new item (vectorised gather)."""
    take, lengths = _gathered(by_item, starts, sizes, drawn)
    return Annotations(np.repeat(np.arange(len(drawn)), lengths), ann.annotator[take],
                       ann.label[take], ann.rank[take], pd.RangeIndex(len(drawn), name="item"),
                       ann.annotators, ann.categories, ann.anonymous, ann.ordered)


def _resample_annotators(ann: Annotations, drawn: np.ndarray) -> Annotations:
    """The ratings of the drawn annotators, each draw a new annotator (annotators
    0 … r − 1 in the order drawn), on the same items (vectorised gather)."""
    take, lengths = _gathered(*_groups(ann.annotator, ann.n_annotators), drawn)
    return Annotations(ann.item[take], np.repeat(np.arange(len(drawn)), lengths),
                       ann.label[take], ann.rank[take], ann.items,
                       pd.RangeIndex(len(drawn), name="annotator"), ann.categories,
                       ann.anonymous, ann.ordered)


def cluster_draws(rng: np.random.Generator, clusters: np.ndarray, n_resamples: int):
    """Item codes of each clustered resample, one array at a time: the G clusters
    (``clusters``: each item's cluster code 0 … G − 1) drawn G times with replacement,
    each draw adding all its items (Field & Welsh 2007, the cluster bootstrap; R
    multiagree's ``boot.pair``); ``rng.integers(0, G, G)`` per resample, the stream of
    :func:`cluster_weight_blocks`."""
    g = int(clusters.max()) + 1
    groups = _groups(clusters, g)
    for _ in range(n_resamples):
        yield _gathered(*groups, rng.integers(0, g, g))[0]


def cluster_weight_blocks(rng: np.random.Generator, clusters: np.ndarray, n_resamples: int,
                          codes=None):
    """W (b × rows) of clustered resamples: how often each item row was drawn when the G
    clusters are drawn G times with replacement (:func:`cluster_draws`, the same stream),
    i.e. w_i = c_{g(i)}, the draws of item i's cluster. The cluster counts C (b × G) go
    through one sparse product with A (G × rows: items of each cluster per row; with
    ``codes``, per distinct row of :meth:`Statistic.distinct`): W = C A."""
    from scipy import sparse
    n, g = len(clusters), int(clusters.max()) + 1
    rows = np.arange(n) if codes is None else codes
    u = int(rows.max()) + 1
    a = sparse.csr_matrix((np.ones(n), (clusters, rows)), shape=(g, u))
    b = max(1, (1 << 22) // max(u, g, 1))
    for start in range(0, n_resamples, b):
        size = min(b, n_resamples - start)
        drawn = rng.integers(0, g, (size, g)) + (g * np.arange(size))[:, None]
        c = np.bincount(drawn.ravel(), minlength=size * g).reshape(size, g).astype(float)
        yield np.asarray((a.T @ c.T).T)


def _generic(fn, ann, draws, kwargs) -> np.ndarray:
    """``fn`` on each rebuilt resample of the drawn items (``draws``: item codes, or None
    to keep the items); NaN where ``fn`` refuses a resample."""
    by_item, starts, sizes = _groups(ann.item, ann.n_items)
    return np.array([_defined(fn, ann if drawn is None else
                              _resample(ann, by_item, starts, sizes, drawn), kwargs)
                     for drawn in draws], dtype=float)


def _defined(fn, part, kwargs) -> float:
    """``fn``'s value on ``part``, NaN where it refuses it (e.g. no pairable item)."""
    try:
        return _value(fn(part, **kwargs))
    except AgreementError:
        return np.nan


def two_way(fn, ann, estimate: float, draws, annotator_draws, kwargs) -> np.ndarray:
    """Replicates over annotators (and items): for each resample, the items of ``draws``
    (item codes, or None to keep them) and the annotators of ``annotator_draws`` (r codes
    drawn with replacement).

    An annotator drawn twice would agree with their copy on every item, so a replicate
    keeps the s distinct drawn annotators S, and its deviation is rescaled as the
    delete-d jackknife's (Shao & Wu 1989, d = r − s; Rao & Wu 1988's rescaling):
    θ*_b = θ_b + (θ_b(S) − θ_b) · √(s / (r − s)), θ_b the measure on the replicate's items
    with every annotator (``estimate`` when the items are kept), θ_b(S) on S only; the
    spread of θ* then estimates the variance over annotators, not the 0.58 of it that the
    distinct subsets alone give (s ≈ 0.63 r). A replicate of one distinct annotator is
    undefined (NaN: no pair to agree)."""
    by_item, starts, sizes = _groups(ann.item, ann.n_items)
    r = ann.n_annotators
    out = []
    for drawn in draws:
        part = ann if drawn is None else _resample(ann, by_item, starts, sizes, drawn)
        whole = estimate if drawn is None else _defined(fn, part, kwargs)
        chosen = np.unique(next(annotator_draws))                   # S: distinct draws
        s = len(chosen)
        if s == r:
            out.append(whole)
            continue
        value = np.nan if s < 2 else _defined(fn, _resample_annotators(part, chosen), kwargs)
        out.append(whole + (value - whole) * np.sqrt(s / (r - s)))  # θ + (θ(S) − θ)·√(s/d)
    return np.array(out, dtype=float)


def resampled(stat, n_resamples: int, rng: np.random.Generator,
              clusters: np.ndarray | None = None) -> np.ndarray:
    """The values of a Statistic on ``n_resamples`` bootstrap resamples of its item rows
    (:func:`_weight_blocks`; with ``clusters``, each item's cluster code, of whole
    clusters: :func:`cluster_weight_blocks`): B × the shape of one value (a number, or
    e.g. the annotator pairs of a matrix), NaN where the measure is undefined on a
    resample. Where items repeat the same tables (:meth:`Statistic.distinct`: a few
    hundred distinct rows among 1e5 items is common), a resample counts its draws per
    distinct row: the same draws and totals, without the items × cells product."""
    grouped = stat.distinct()
    codes, rows = (None, stat) if grouped is None else grouped

    def blocks():
        if clusters is None:
            return _weight_blocks(rng, stat, n_resamples, codes)
        return cluster_weight_blocks(rng, clusters, n_resamples, codes)
    with _one_blas_thread():
        return np.concatenate([rows.values(w) for w in blocks()])


def _one_blas_thread():
    """One BLAS thread for the products W @ T of :func:`resampled`: the counting between
    them runs on one core, and a second BLAS thread would busy-wait meanwhile on the core
    that draws the next resamples (:func:`_drawn_ahead`)."""
    from threadpoolctl import threadpool_limits  # loads on first use only
    return threadpool_limits(1, user_api="blas")


def _quantiles(values: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Column j's q[:, j] quantiles of values (B × C), NaN left out: ``np.quantile``'s
    default (linear) interpolation between order statistics, with its two-sided
    interpolation formula, for a different q in each column (BCa); NaN below 2 values."""
    q = np.broadcast_to(q, (len(q), values.shape[1]))
    ordered = np.sort(values, axis=0)  # NaN last
    n = np.count_nonzero(~np.isnan(values), axis=0)
    h = np.maximum(n - 1, 0) * q                              # position among the n values
    low = np.floor(h).astype(np.intp)
    t = h - low
    a = np.take_along_axis(ordered, low, axis=0)
    b = np.take_along_axis(ordered, np.minimum(low + 1, np.maximum(n - 1, 0)), axis=0)
    out = np.where(t >= 0.5, b - (b - a) * (1 - t), a + (b - a) * t)
    return np.where(n >= 2, out, np.nan)


def _bca_quantiles(values: np.ndarray, estimate: np.ndarray, jackknife: np.ndarray,
                   level: float) -> np.ndarray:
    """Efron's BCa (Efron & Tibshirani 1993, ch. 14) levels of each column of values
    (B × C): bias correction z0 = Φ⁻¹(#{θ* < θ̂}/B) over the defined resamples,
    acceleration a = Σ d_i³ / (6 (Σ d_i²)^{3/2}) with d_i = mean(θ_(·)) − θ_(i) over the
    defined leave-one-item-out values (jackknife, items × C), and the levels
    Φ(z0 + (z0 + z_q)/(1 − a (z0 + z_q))) for z_q at (1 ∓ level)/2: 2 × C, NaN in a
    column whose resamples all lie on one side of the estimate (z0 infinite)."""
    from scipy.special import ndtr, ndtri
    ok = ~np.isnan(values)
    share = np.sum((values < estimate) & ok, axis=0) / np.maximum(ok.sum(axis=0), 1)
    z0 = np.where((share > 0) & (share < 1), ndtri(np.clip(share, 1e-300, 1)), np.nan)
    defined = np.count_nonzero(~np.isnan(jackknife), axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.nansum(jackknife, axis=0) / defined - jackknife      # NaN where undefined
    spread = 6 * np.nansum(d ** 2, axis=0) ** 1.5
    a = np.where(spread > 0, np.nansum(d ** 3, axis=0) / np.where(spread > 0, spread, 1), 0.0)
    z = ndtri(np.array([(1 - level) / 2, (1 + level) / 2]))[:, None]
    return ndtr(z0 + (z0 + z) / (1 - a * (z0 + z)))


def intervals(values: np.ndarray, estimate, level: float, method: str = "percentile",
              jackknife: np.ndarray | None = None):
    """The bootstrap interval of each value from its resamples ``values`` (B × …, NaN
    where undefined): (low, high, se, n_undefined), each the shape of one value.
    ``method``: "percentile", the (1 ∓ level)/2 quantiles of the defined resamples
    (Efron & Tibshirani 1993, ch. 13), or "bca" with the leave-one-item-out values
    ``jackknife`` (items × …). se is their standard deviation (ddof = 1). A value with
    fewer than 2 defined resamples, or (BCa) all on one side of its estimate, gets NaN."""
    shape = values.shape[1:]
    flat = values.reshape(len(values), -1)
    n_ok = np.count_nonzero(~np.isnan(flat), axis=0)
    if method == "bca":
        q = _bca_quantiles(flat, np.asarray(estimate, float).reshape(-1), jackknife.reshape(
            len(jackknife), -1), level)
    else:
        q = np.array([(1 - level) / 2, (1 + level) / 2])[:, None]
    low, high = np.where(np.isnan(q), np.nan, _quantiles(flat, np.nan_to_num(q)))
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.nansum(flat, axis=0) / n_ok
        se = np.sqrt(np.nansum((flat - mean) ** 2, axis=0) / (n_ok - 1))  # ddof = 1
    se = np.where(n_ok >= 2, se, np.nan)
    return (low.reshape(shape), high.reshape(shape), se.reshape(shape),
            (len(flat) - n_ok).reshape(shape))


@dataclass(frozen=True)
class Spread:
    """A Statistic's values on ``n_resamples`` resamples of its items (NaN: undefined) and
    their standard deviation ``se`` (ddof = 1), for a measure below the inference layer
    that needs a bootstrap standard error (α's benchmark)."""

    values: np.ndarray
    se: float
    n_resamples: int
    seed: Any


def spread(stat, n_resamples: int, seed) -> Spread:
    """:class:`Spread` of ``stat`` over ``n_resamples`` resamples drawn from ``seed``: the
    values :func:`iaa_widgets.bootstrap` draws for the same seed."""
    values = resampled(stat, n_resamples, np.random.default_rng(seed))
    se = intervals(values.reshape(len(values), -1)[:, :1], np.nan, 0.95)[2]
    return Spread(values, float(se[0]), int(n_resamples), seed)
