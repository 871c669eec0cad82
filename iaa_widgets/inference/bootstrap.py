"""Bootstrap confidence intervals for any measure, by resampling items.

The public face of :mod:`iaa_widgets.stats.resampling` (draws, item weights, intervals):
it resolves a measure through the registry, checks the arguments and returns a
:class:`BootstrapResult`.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import pandas as pd

from .. import validate
from ..data import as_annotations
from ..errors import AgreementError
from ..results import Charted, InRange, provenance_html, without_cut
from ..stats.lazy import SufficientStatistics
from ..stats.resampling import _draws, _generic, _value, intervals, resampled
from ._measure import measure_like, resolve, takes

__all__ = ["bootstrap", "BootstrapResult"]


@dataclass(frozen=True)
class BootstrapResult(InRange, Charted):
    """A measure's estimate on the data and its bootstrap distribution over items.

    ``excluded`` and ``note`` are the measure's own on the data (what it left out and
    why, e.g. items rated once, and any note on the value; see
    :class:`~iaa_widgets.results.AgreementResult`): a resample draws from the items
    and keeps their ratings, so it leaves out the same kind of items. Empty for a
    measure that returns a bare number. ``ci`` is cut to the coefficient's range as an
    :class:`~iaa_widgets.AgreementResult`'s is (``ci_uncut`` and the note then say so)."""

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
    excluded: Mapping[str, int] = field(default_factory=dict)
    note: str = ""
    ci_uncut: tuple[float, float] | None = None

    def __float__(self) -> float:
        return float(self.estimate)

    @property
    def confidence(self) -> float:
        """The interval's level, as ``bootstrap(confidence=…)`` names it (= ``level``)."""
        return self.level

    @property
    def n_excluded(self) -> int:
        return int(sum(self.excluded.values()))

    def to_frame(self) -> pd.DataFrame:
        """A one-row DataFrame: estimate, se, interval bounds, level and counts."""
        return pd.DataFrame([{"measure": self.measure, "estimate": self.estimate,
                              "se": self.se, "ci_low": self.ci[0], "ci_high": self.ci[1],
                              "level": self.level, "method": self.method,
                              "n_resamples": self.n_resamples,
                              "n_undefined": self.n_undefined,
                              "n_excluded": self.n_excluded}]).set_index("measure")

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(float_format=lambda v: f"{v:.4f}") + \
            provenance_html(self.excluded, self.note)


def bootstrap(data, measure, n_resamples: int = 1000, seed=None, confidence: float = 0.95,
              interval: str = "percentile", **measure_kwargs) -> BootstrapResult:
    """Bootstrap a measure over items: estimate, percentile interval, standard error.

    Data first, as :func:`scipy.stats.bootstrap`: ``bootstrap(data, measure)``.
    ``measure``: a function of the data (returning a result with ``.value`` or a
    number) or the name of a coefficient (``iaa.coefficients()``).
    ``measure_kwargs`` are passed to it (e.g. ``metric="ordinal"`` for α), and none of
    bootstrap's own names is a measure's parameter. ``seed`` makes the resamples
    reproducible (anything ``numpy.random.default_rng`` accepts). ``confidence``: the
    level of the interval. ``interval``: "percentile" (any measure) or "bca" (a measure
    with a Statistic, whose leave-one-item-out values are its totals minus one item's
    tables: every categorical measure). Those measures are resampled through their
    Statistic with the same values as recomputing them on each resample; any other
    function is called per resample. Former names, each for one more release with a
    DeprecationWarning: the order ``bootstrap(measure, data)``, ``level=`` and
    ``method=``.
    A measure whose value is a table (an annotator × annotator matrix) takes its own
    ``ci=`` instead, through :func:`resampled` and :func:`intervals`.

    Counts stay counts where the Statistic allows: on ``Annotations.from_contingency``
    data a resample draws how often each cell's items are drawn, Multinomial(N, t/N)
    (percentile only: the jackknife would leave out whole cells); on ``from_counts``
    data the items are drawn as usual and their category counts kept. Other cases are
    expanded into one row per item, or refused above ``EXPANSION_LIMIT`` ratings.
    """
    if measure_like(data) and not measure_like(measure):  # the former order
        warnings.warn("bootstrap(measure, data) is deprecated and will be removed in the "
                      "next release; pass the data first: bootstrap(data, measure)",
                      DeprecationWarning, stacklevel=2)
        data, measure = measure, data
    fn, name = resolve(measure)
    confidence = validate.renamed("bootstrap", "level", "confidence",
                                  measure_kwargs.pop("level", validate.RENAMED), confidence)
    if "method" in measure_kwargs and not takes(fn, "method"):
        interval = validate.renamed("bootstrap", "method", "interval",
                                    measure_kwargs.pop("method"), interval)
    method = interval
    n_resamples = validate.integer("bootstrap", "n_resamples", n_resamples, minimum=2)
    level = validate.confidence("bootstrap", "confidence", confidence)
    validate.seed("bootstrap", "seed", seed)
    validate.choice("bootstrap", "interval", method, ("percentile", "bca"))
    make = getattr(fn, "statistic", None)
    if method == "bca" and make is None:
        raise AgreementError(f"interval must be 'percentile' for {name}, or 'bca' for a measure "
                             "with a Statistic (measure.statistic: its leave-one-item-out "
                             "values are the totals minus one item)")
    if isinstance(data, SufficientStatistics):
        raise AgreementError("bootstrap resamples items, and sufficient statistics keep no "
                             "per-item sums: compute the value with "
                             f"iaa.{name}(statistics), or bootstrap the ratings in memory "
                             "(e.g. iaa.Annotations.from_long(frame))")
    ann = as_annotations(data)
    if make is None:
        ann = ann.expanded("bootstrap")  # resamples single items: one row per item
    result = fn(ann, **measure_kwargs)
    if np.size(getattr(result, "value", result)) != 1:
        raise AgreementError(f"bootstrap gives the interval of one number, but {name} gives "
                             "a table; pass ci= to the measure itself if it takes one")
    estimate = _value(result)
    rng = np.random.default_rng(seed)
    if make is None:
        values = _generic(fn, ann, _draws(rng, ann.n_items, int(n_resamples)), measure_kwargs)
    else:
        stat = make(ann, **measure_kwargs)
        if method == "bca" and stat.weights is not None:
            raise AgreementError("interval='bca' leaves out one item at a time, but these "
                                 "data keep items as weighted cells (from_contingency); use "
                                 "interval='percentile'")
        values = resampled(stat, int(n_resamples), rng)
    ok = values[~np.isnan(values)]
    if len(ok) < 2:
        raise AgreementError(f"{name} is undefined on {len(values) - len(ok)} of "
                             f"{len(values)} resamples; too few items vary to bootstrap")
    low, high, se, _ = intervals(values[:, None], estimate, level, method,
                                 stat.jackknife()[:, None] if method == "bca" else None)
    if np.isnan(low[0]):  # BCa: z0 is infinite
        raise AgreementError("the BCa interval is undefined: every resample lies on one side "
                             "of the estimate; use interval='percentile'")
    return BootstrapResult(measure=name, estimate=estimate, ci=(float(low[0]), float(high[0])),
                           se=float(se[0]), level=level, values=values,
                           n_resamples=int(n_resamples), n_undefined=int(len(values) - len(ok)),
                           seed=seed, method=method, params=dict(measure_kwargs),
                           excluded=dict(getattr(result, "excluded", None) or {}),
                           note=without_cut(str(getattr(result, "note", "") or "")))
