"""Bootstrap confidence intervals for any measure, by resampling items.

Each resample draws ``n_items`` items with replacement (a drawn item keeps all its
ratings; an item drawn twice counts as two items) and recomputes the measure. The
interval is the **percentile** interval: the (1 − level)/2 and (1 + level)/2
quantiles of the resampled values (Efron & Tibshirani 1993, *An Introduction to
the Bootstrap*, ch. 13), or the **BCa** interval (ch. 14) from leave-one-item-out
values. The standard error is their standard deviation (ddof = 1). Resamples where the
measure is undefined (NaN, e.g. no variation left) are counted in ``n_undefined`` and
left out of the interval.

A measure with a Statistic (``measure.statistic``, see :mod:`iaa_widgets.stats`) is
resampled as item weights: a resample is the vector w of how often each item was
drawn, a block of resamples one product W @ T of its per-item tables, and its
``finish`` turns the B totals into B values; the jackknife of BCa is the totals minus
each item's row. This module knows no measure by name. The measure's own ``prepare``
fixes, once, which items are used under its missing-data policy (a drawn item keeps
its ratings, so whether it is used cannot change in a resample): the values equal
those of rebuilding each resample and recomputing the measure, for the same seed.
Any other callable is called on each rebuilt resample (one vectorised gather).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np
import pandas as pd

from .data import Annotations, as_annotations
from . import validate
from .errors import AgreementError
from .results import Charted

__all__ = ["bootstrap", "BootstrapResult"]


@dataclass(frozen=True)
class BootstrapResult(Charted):
    """A measure's estimate on the data and its bootstrap distribution over items."""

    measure: str
    estimate: float
    ci: tuple[float, float]
    se: float
    level: float
    values: np.ndarray = field(repr=False)
    n_resamples: int = 0
    n_undefined: int = 0
    seed: Any = None
    method: str = "percentile"
    params: Mapping[str, Any] = field(default_factory=dict)

    def __float__(self) -> float:
        return float(self.estimate)

    def to_frame(self) -> pd.DataFrame:
        """A one-row DataFrame: estimate, se, interval bounds, level and counts."""
        return pd.DataFrame([{"measure": self.measure, "estimate": self.estimate,
                              "se": self.se, "ci_low": self.ci[0], "ci_high": self.ci[1],
                              "level": self.level, "method": self.method,
                              "n_resamples": self.n_resamples,
                              "n_undefined": self.n_undefined}]).set_index("measure")

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(float_format=lambda v: f"{v:.4f}")


def _resolve(measure) -> tuple[Callable, str]:
    if isinstance(measure, str):  # a public name: the package above is loaded already
        fn = getattr(sys.modules[__package__], measure, None)
        if not callable(fn):
            validate.fail("bootstrap", "measure", "a function or the name of a public "
                          "measure of iaa_widgets", measure)
        return fn, measure
    if not callable(measure):
        validate.fail("bootstrap", "measure", "a function or the name of a public measure "
                      "of iaa_widgets", measure)
    return measure, getattr(measure, "__name__", type(measure).__name__)


def _value(result) -> float:
    return float(getattr(result, "value", result))


def _draws(rng: np.random.Generator, n_items: int, n_resamples: int):
    """Item codes of each resample, one array at a time (same stream for every path)."""
    for _ in range(n_resamples):
        yield rng.integers(0, n_items, size=n_items)


def _weight_blocks(rng: np.random.Generator, stat, n_resamples: int):
    """W (b × item rows): how often each of b resamples drew each item row, b · rows ≤
    2²² per block. Unweighted rows: the counts of the item codes of :func:`_draws` (the
    same stream, drawn b resamples at once); rows of ``from_contingency`` data stand for
    ``weights`` items each, so N = Σ w draws from N items fall on the rows as
    Multinomial(N, w / N), drawn as such (no row per item)."""
    n = stat.n_items
    b = max(1, (1 << 22) // max(n, 1))
    for start in range(0, n_resamples, b):
        size = min(b, n_resamples - start)
        if stat.weights is None:
            cells = rng.integers(0, n, size=(size, n))
            cells += (n * np.arange(size))[:, None]  # resample b counts in cells b·n …
            w = np.bincount(cells.ravel(), minlength=size * n).reshape(size, n)
        else:
            w = rng.multinomial(int(stat.weights.sum()), stat.weights / stat.weights.sum(),
                                size=size)
        yield w.astype(float)


def _resample(ann: Annotations, by_item: np.ndarray, starts: np.ndarray, sizes: np.ndarray,
              drawn: np.ndarray) -> Annotations:
    """The ratings of the drawn items, each draw a new item (vectorised gather)."""
    lengths = sizes[drawn]
    offsets = np.cumsum(lengths) - lengths
    take = by_item[np.repeat(starts[drawn] - offsets, lengths) + np.arange(lengths.sum())]
    return Annotations(np.repeat(np.arange(len(drawn)), lengths), ann.annotator[take],
                       ann.label[take], ann.rank[take], pd.RangeIndex(len(drawn), name="item"),
                       ann.annotators, ann.categories, ann.anonymous, ann.ordered)


def _generic(fn, ann, draws, kwargs) -> np.ndarray:
    by_item = np.argsort(ann.item, kind="stable")
    sizes = np.bincount(ann.item, minlength=ann.n_items)
    starts = np.cumsum(sizes) - sizes
    out = []
    for drawn in draws:
        try:
            out.append(_value(fn(_resample(ann, by_item, starts, sizes, drawn), **kwargs)))
        except AgreementError:  # e.g. a resample with no pairable item: undefined
            out.append(np.nan)
    return np.array(out, dtype=float)


def _bca(values: np.ndarray, estimate: float, jackknife: np.ndarray, level: float):
    """Efron's BCa interval (Efron & Tibshirani 1993, ch. 14): bias correction
    z0 = Φ⁻¹(#{θ* < θ̂}/B), acceleration a = Σ d_i³ / (6 (Σ d_i²)^{3/2}) with
    d_i = mean(θ_(·)) − θ_(i) over the leave-one-item-out values, and quantiles
    Φ(z0 + (z0 + z_q)/(1 − a (z0 + z_q))) of the resampled values."""
    from statistics import NormalDist
    normal = NormalDist()
    share = float(np.mean(values < estimate))
    if not 0 < share < 1:
        raise AgreementError("the BCa interval is undefined: every resample lies on one side "
                             "of the estimate; use method='percentile'")
    z0 = normal.inv_cdf(share)
    d = np.nanmean(jackknife) - jackknife[~np.isnan(jackknife)]
    spread = 6 * float(np.sum(d ** 2)) ** 1.5
    a = float(np.sum(d ** 3)) / spread if spread > 0 else 0.0
    qs = [normal.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
          for z in (normal.inv_cdf((1 - level) / 2), normal.inv_cdf((1 + level) / 2))]
    return np.quantile(values, qs)


def bootstrap(measure, data, n_resamples: int = 1000, seed=None, level: float = 0.95,
              method: str = "percentile", **measure_kwargs) -> BootstrapResult:
    """Bootstrap a measure over items: estimate, percentile interval, standard error.

    ``measure``: a function of the data (returning a result with ``.value`` or a
    number) or the name of a public measure of :mod:`iaa_widgets`.
    ``measure_kwargs`` are passed to it (e.g. ``metric="ordinal"`` for α). ``seed`` makes
    the resamples reproducible (anything ``numpy.random.default_rng`` accepts).
    ``method``: "percentile" (any measure) or "bca" (a measure with a Statistic, whose
    leave-one-item-out values are its totals minus one item's tables: α and the
    classic coefficients). Those measures are resampled through their
    Statistic with the same values as recomputing them on each resample; any other
    function is called per resample.

    Counts stay counts where the Statistic allows: on ``Annotations.from_contingency``
    data a resample draws how often each cell's items are drawn, Multinomial(N, t/N)
    (percentile only: the jackknife would leave out whole cells); on ``from_counts``
    data the items are drawn as usual and their category counts kept. Other cases are
    expanded into one row per item, or refused above ``EXPANSION_LIMIT`` ratings.
    """
    fn, name = _resolve(measure)
    n_resamples = validate.integer("bootstrap", "n_resamples", n_resamples, minimum=2)
    level = validate.confidence("bootstrap", "level", level)
    validate.seed("bootstrap", "seed", seed)
    validate.choice("bootstrap", "method", method, ("percentile", "bca"))
    make = getattr(fn, "statistic", None)
    if method == "bca" and make is None:
        raise AgreementError(f"method must be 'percentile' for {name}, or 'bca' for a measure "
                             "with a Statistic (measure.statistic: its leave-one-item-out "
                             "values are the totals minus one item)")
    ann = as_annotations(data)
    if make is None:
        ann = ann.expanded("bootstrap")  # resamples single items: one row per item
    result = fn(ann, **measure_kwargs)
    estimate = _value(result)
    rng = np.random.default_rng(seed)
    if make is None:
        values = _generic(fn, ann, _draws(rng, ann.n_items, int(n_resamples)), measure_kwargs)
    else:
        stat = make(ann, **measure_kwargs)
        if method == "bca" and stat.weights is not None:
            raise AgreementError("method='bca' leaves out one item at a time, but these data "
                                 "keep items as weighted cells (from_contingency); use "
                                 "method='percentile'")
        values = np.concatenate([stat.values(w) for w in
                                 _weight_blocks(rng, stat, int(n_resamples))])
    ok = values[~np.isnan(values)]
    if len(ok) < 2:
        raise AgreementError(f"{name} is undefined on {len(values) - len(ok)} of "
                             f"{len(values)} resamples; too few items vary to bootstrap")
    if method == "bca":
        low, high = _bca(ok, estimate, stat.jackknife(), level)
    else:
        low, high = np.quantile(ok, [(1 - level) / 2, (1 + level) / 2])
    return BootstrapResult(measure=name, estimate=estimate, ci=(float(low), float(high)),
                           se=float(np.std(ok, ddof=1)), level=level, values=values,
                           n_resamples=int(n_resamples), n_undefined=int(len(values) - len(ok)),
                           seed=seed, method=method, params=dict(measure_kwargs))
