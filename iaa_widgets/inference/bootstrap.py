"""Bootstrap confidence intervals for any measure: over items (the unit bootstrap), over
clusters of items, over annotators or both, and Krippendorff's own bootstrap of α.

The public face of :mod:`iaa_widgets.stats.resampling` (draws, item weights, intervals):
it resolves a measure through the registry, checks the arguments and returns a
:class:`BootstrapResult`.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import pandas as pd

from .. import validate
from ..data import as_annotations
from ..errors import AgreementError
from ..labels import warn_from_caller
from ..results import Charted, InRange, provenance_html, without_cut
from ..stats.lazy import SufficientStatistics
from ..stats.resampling import (_draws, _generic, _value, cluster_draws, intervals,
                                resampled, two_way)
from ._clusters import cluster_codes
from ._measure import MAX_RESAMPLES, check_keywords, measure_like, resolve, takes

__all__ = ["bootstrap", "BootstrapResult", "MAX_RESAMPLES"]

# what each kind of bootstrap resamples (BootstrapResult.resampled)
RESAMPLED = {
    "items": "items, with replacement (each keeps its ratings)",
    "clusters": "clusters of items, with replacement (each keeps its items and ratings)",
    "annotators": "annotators, with replacement, the distinct ones kept and the deviation "
                  "rescaled (delete-d jackknife), items fixed",
    "items and annotators": "items with replacement, and annotators as in 'annotators' "
                            "(two-way)",
    "clusters and annotators": "clusters of items with replacement, and annotators as in "
                               "'annotators' (two-way)",
    "pairable values": "pairs of values from the coincidence matrix, D_e held fixed "
                       "(Hayes & Krippendorff 2007)",
}


@dataclass(frozen=True)
class BootstrapResult(InRange, Charted):
    r"""A measure's estimate on the data and its bootstrap distribution.

    What `bootstrap` returns: the estimate, its percentile or BCa interval, the bootstrap
    standard error and every replicate, with what was resampled and what the measure left
    out. The interval is cut to the coefficient's range as an `AgreementResult`'s is
    (``ci_uncut`` and ``note`` then say so).

    Parameters
    ----------
    measure : str
        The coefficient's name.
    estimate : float
        The measure's value on the data.
    ci : tuple of float
        The interval's (low, high) bounds at ``level``, cut to the coefficient's range.
    se : float
        The bootstrap standard error: the replicates' standard deviation.
    level : float
        The interval's level, in (0, 1).
    values : numpy.ndarray
        Every replicate's value (NaN where the measure is undefined on a resample).
    n_resamples : int, default 0
        The replicates drawn.
    n_undefined : int, default 0
        Replicates on which the measure is undefined (NaN), left out of the interval.
    seed : int, numpy.random.Generator or None, optional
        The seed given.
    method : {"percentile", "bca"}, default "percentile"
        The interval's kind.
    params : mapping, default {}
        The measure's options (``metric=``, ``weights=`` …).
    excluded : mapping of str to int, default {}
        What the measure left out of the data and why (e.g. items rated once); a resample
        draws from the items and keeps their ratings, so it leaves out the same kind.
    note : str, default ""
        The measure's note on the value, and the bootstrap's (an interval cut).
    ci_uncut : tuple of float, optional
        The interval before it was cut to the coefficient's range (None: not cut).
    kind : str, default "items"
        What was resampled: "items", "clusters", "annotators", "items and annotators",
        "clusters and annotators" or "pairable values" (Krippendorff's bootstrap).
    cluster : str, optional
        The clusters' column (or "Series"), when clusters were resampled.
    n_clusters : int, optional
        The clusters.
    n_draws : int, optional
        What one replicate draws: items, clusters, or Krippendorff's pairable values.
    n_items, n_ratings, n_annotators : int, optional
        Those the measure used (α: pairable units and values).
    missing : str, optional
        The measure's missing-data policy.

    Attributes
    ----------
    confidence : float
        The interval's level, as ``bootstrap(confidence=…)`` names it (= ``level``).
    n_excluded : int
        The data the measure left out, summed over ``excluded``.
    resampled : str
        What one replicate drew, in words.
    distribution : numpy.ndarray
        The replicates' values where the measure is defined.

    Methods
    -------
    prob_below(threshold)
        Krippendorff's $q(\alpha_{min})$: the share of defined replicates below
        ``threshold``.
    reporting(thresholds=(0.667, 0.8))
        A paragraph in Krippendorff's reporting standard, ready to paste into a paper.
    to_frame()
        A one-row DataFrame: estimate, se, bounds, level, method, counts.
    chart(**options)
        An Altair chart of the replicates' distribution and the interval.

    See Also
    --------
    iaa_widgets.bootstrap : Makes it.
    iaa_widgets.AgreementResult : A measure's own result, with its analytic interval.
    iaa_widgets.compare : Bootstrap tests between coefficients.

    Notes
    -----
    With $\hat\theta^*_b$ the defined replicates,
    $\mathrm{se} = \operatorname{sd}(\hat\theta^*_b)$,
    the percentile interval is $[\hat\theta^*_{(\alpha/2)}, \hat\theta^*_{(1-\alpha/2)}]$
    (Efron & Tibshirani 1993, ch. 13) and

    $$
    q(\alpha_{min}) = \frac{|\{b : \hat\theta^*_b < \alpha_{min}\}|}{B}
    $$

    the probability of failing to reach $\alpha_{min}$ (Krippendorff 2004, §11.4).

    References
    ----------
    Efron, B., & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman &
    Hall/CRC. https://doi.org/10.1201/9780429246593

    Hayes, A. F., & Krippendorff, K. (2007). Answering the Call for a Standard Reliability
    Measure for Coding Data. Communication Methods and Measures, 1(1), 77–89.
    https://doi.org/10.1080/19312450709336664

    Examples
    --------
    >>> from iaa_widgets.datasets import krippendorff_2011
    >>> res = iaa.bootstrap(krippendorff_2011(), "krippendorff_alpha", n_resamples=1000,
    ...                     seed=1)
    >>> round(res.estimate, 3)  # Krippendorff (2011): nominal α = .743
    0.743
    >>> res.kind, res.n_items, res.excluded
    ('items', 11, {'items with a single rating (unpairable)': 1})
    >>> len(res.values) == res.n_resamples == 1000
    True
    >>> 0 <= res.prob_below(0.8) <= 1
    True
    """

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
    kind: str = "items"
    cluster: str | None = None
    n_clusters: int | None = None
    n_draws: int | None = None
    n_items: int | None = None
    n_ratings: int | None = None
    n_annotators: int | None = None
    missing: str | None = None

    def __float__(self) -> float:
        return float(self.estimate)

    @property
    def confidence(self) -> float:
        """The interval's level, as ``bootstrap(confidence=…)`` names it (= ``level``)."""
        return self.level

    @property
    def n_excluded(self) -> int:
        return int(sum(self.excluded.values()))

    @property
    def resampled(self) -> str:
        """What one replicate drew, in words."""
        return RESAMPLED[self.kind]

    @property
    def distribution(self) -> np.ndarray:
        """The replicates' values where the measure is defined (NaN ones left out)."""
        return self.values[~np.isnan(self.values)]

    def prob_below(self, threshold: float) -> float:
        """Krippendorff's q(α_min): the share of the defined replicates below
        ``threshold``, the probability of failing to reach it (Krippendorff 2004,
        *Content Analysis*, §11.4; Hayes & Krippendorff 2007)."""
        threshold = validate.real("prob_below", "threshold", threshold)
        return float(np.mean(self.distribution < threshold))

    def reporting(self, thresholds=(0.667, 0.8)) -> str:
        """A paragraph ready to paste into a paper, in Krippendorff's reporting standard:
        the coefficient, its interval and how it was made, q(α_min) at ``thresholds``,
        the items and (pairable) values it rests on and the missing-data policy
        (:func:`~iaa_widgets.inference.reporting.paragraph`)."""
        from .reporting import paragraph
        return paragraph(self, thresholds)

    def to_frame(self) -> pd.DataFrame:
        """A one-row DataFrame: estimate, se, interval bounds, level, what was resampled
        and counts."""
        return pd.DataFrame([{"measure": self.measure, "estimate": self.estimate,
                              "se": self.se, "ci_low": self.ci[0], "ci_high": self.ci[1],
                              "level": self.level, "method": self.method,
                              "resampled": self.kind,
                              "n_resamples": self.n_resamples,
                              "n_undefined": self.n_undefined,
                              "n_excluded": self.n_excluded}]).set_index("measure")

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(float_format=lambda v: f"{v:.4f}") + \
            provenance_html(self.excluded, self.note)


class _DefaultText(str):
    """A text default that knows it was not given (its identity)."""


INTERVAL = _DefaultText("percentile")
KINDS = ("unit", "krippendorff")
RESAMPLE = ("items", "annotators", "both")


@validate.takes(level="confidence")  # level=: the former name, one more release
def bootstrap(data, measure, n_resamples: int = 1000, seed=None,
              confidence: float = 0.95, interval: str = INTERVAL, *,
              method: str = "unit", cluster=None, resample: str = "items",
              **measure_kwargs) -> BootstrapResult:
    """Bootstrap a measure: estimate, interval, standard error and the replicates.

    Any coefficient of the registry (or any function of the data) is recomputed on
    resamples of the data's items, clusters or annotators, or, for Krippendorff's α,
    on Hayes & Krippendorff's resamples of pairable values; the percentile or BCa
    interval, the standard error and Krippendorff's q(α_min) follow from the
    replicates.

    Parameters
    ----------
    data : Annotations or tidy DataFrame (item, annotator, label)
        The ratings, data first as `scipy.stats.bootstrap`.
    measure : str or callable
        The name of a coefficient (``iaa.coefficients()``) or a function of the data
        returning a result with ``.value`` or a number.
    n_resamples : int, default 1000
        Replicates, 2 … 10⁶ (``MAX_RESAMPLES``: beyond it the Monte Carlo error of a
        95 % bound is far below any reported digit, and the run would take minutes).
        Ctrl-C stops a run between blocks of replicates (about a second at 10⁶
        replicates of 2·10⁴ items, measured).
    seed : None, int or numpy Generator, default None
        Makes the replicates reproducible (``numpy.random.default_rng``).
    confidence : float, default 0.95
        The interval's level, in (0, 1).
    interval : {"percentile", "bca"}, default "percentile"
        Percentile (Efron & Tibshirani 1993, ch. 13), or BCa (ch. 14) for a measure with
        a Statistic resampled over items (its jackknife is the totals minus one item).
    method : {"unit", "krippendorff"}, default "unit"
        "unit": resample the data's units (``resample=``, ``cluster=``); "krippendorff":
        Hayes & Krippendorff's bootstrap of ``krippendorff_alpha`` (pairs of values
        drawn from the coincidence matrix with D_e fixed, M = ⌊(m − 1)·n../2⌋ pairs a
        replicate, no cap: ``iaa_widgets.inference.krippendorff.pair_draws``). It
        draws the pairs as independent: with three or more coders the pairs of one unit
        are not, and its interval is too narrow (95 % intervals covered 87 % of 500
        simulated data sets of 3 coders, the unit bootstrap 94 %:
        benchmarks/bench_coverage.py); with two coders both covered 94 %.
    cluster : str or pandas.Series, optional
        Each item's cluster (document, batch): a column of ``data`` or a Series item →
        cluster. Whole clusters are drawn with replacement (the cluster bootstrap: tokens
        in documents are not independent, and their naive SE is far too small).
    resample : {"items", "annotators", "both"}, default "items"
        What a replicate draws: items (or clusters), annotators (for crowds, where the
        annotators are a sample too), or both. Annotators are drawn r times with
        replacement; as a copy of an annotator would agree with itself, the replicate
        keeps the s distinct ones and rescales its deviation by √(s/(r − s))
        (``iaa_widgets.stats.resampling.two_way``).
    **measure_kwargs
        Passed to the measure (e.g. ``metric="ordinal"``); a keyword the measure does
        not take is refused, naming the closest it takes.

    Returns
    -------
    BootstrapResult
        ``estimate`` (the measure on the data), ``ci``, ``se`` (the replicates' standard
        deviation, ddof = 1), ``values`` and ``distribution`` (the replicates),
        ``prob_below(α_min)``, ``kind`` (what was resampled), ``reporting()``.

    Raises
    ------
    AgreementError
        An unknown measure or keyword, a former name given with its new one
        (``level=`` with ``confidence=``, ``method="bca"`` with ``interval=``), a
        parameter out of range, a measure undefined on nearly every replicate.

    See Also
    --------
    iaa_widgets.BootstrapResult : The result type.
    iaa_widgets.compare : Bootstrap tests between data sets or groups.
    iaa_widgets.leave_one_out : the measure without each annotator, paired intervals.
    iaa_widgets.stats.resampling.resampled : the replicates of a Statistic.

    Notes
    -----
    A measure with a Statistic (every categorical one) is resampled as item weights:
    replicate b's value is ``finish(Σ_i w_bi T_i)`` (w_bi: how often item i was drawn;
    clustered, the draws of its cluster), the same values as rebuilding each replicate
    and recomputing it, for the same seed. Any other function, and every annotator
    resample, is called on each rebuilt replicate. Krippendorff's α* = 1 − Σδ/(M·D_e).
    On ``Annotations.from_contingency`` data a replicate draws how often each cell's
    items are drawn, Multinomial(N, t/N) (percentile only). Former names, each for one
    more release with a DeprecationWarning: the order ``bootstrap(measure, data)``,
    ``level=`` (for ``confidence=``) and ``method="percentile"|"bca"`` (for
    ``interval=``). A measure that takes its own ``method=`` gets any other value.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*. Chapman &
    Hall. doi:10.1201/9780429246593.
    Hayes, A. F. & Krippendorff, K. (2007). Answering the call for a standard
    reliability measure for coding data. *Communication Methods and Measures* 1(1),
    77–89. doi:10.1080/19312450709336664.
    Field, C. A. & Welsh, A. H. (2007). Bootstrapping clustered data. *JRSS B* 69(3),
    369–390. doi:10.1111/j.1467-9868.2007.00593.x.

    Examples
    --------
    >>> import iaa_widgets as iaa
    >>> from iaa_widgets.datasets import krippendorff_2011
    >>> res = iaa.bootstrap(krippendorff_2011(), "krippendorff_alpha",
    ...                     method="krippendorff", n_resamples=20_000, seed=1)
    >>> round(res.estimate, 3), res.n_draws
    (0.743, 60)
    """
    if measure_like(data) and not measure_like(measure):  # the former order
        warn_from_caller("bootstrap(measure, data) is deprecated and will be removed in "
                         "the next release; pass the data first: bootstrap(data, measure)",
                         DeprecationWarning)  # at the user's line, through validate.takes
        data, measure = measure, data
    fn, name = resolve(measure)
    method = _method(fn, method, interval, measure_kwargs)
    if method in ("percentile", "bca"):
        interval, method = method, "unit"
    check_keywords("bootstrap", name, fn, measure_kwargs)
    n_resamples = validate.integer("bootstrap", "n_resamples", n_resamples, minimum=2,
                                   maximum=MAX_RESAMPLES)
    level = validate.confidence("bootstrap", "confidence", confidence)
    validate.seed("bootstrap", "seed", seed)
    validate.choice("bootstrap", "interval", interval, ("percentile", "bca"))
    validate.choice("bootstrap", "resample", resample, RESAMPLE)
    if isinstance(data, SufficientStatistics):
        raise AgreementError("bootstrap resamples items, and sufficient statistics keep no "
                             "per-item sums: compute the value with "
                             f"iaa.{name}(statistics), or bootstrap the ratings in memory "
                             "(e.g. iaa.Annotations.from_long(frame))")
    ann = as_annotations(data)
    rng = np.random.default_rng(seed)
    if method == "krippendorff":
        return _krippendorff(ann, fn, name, n_resamples, rng, seed, level, str(interval),
                             cluster, resample, measure_kwargs)
    clusters = cluster_codes(data, ann, cluster, "bootstrap")
    make = getattr(fn, "statistic", None)
    crossed = resample != "items"
    if interval == "bca" and (make is None or clusters is not None or crossed):
        raise AgreementError(f"interval must be 'percentile' for {name} (" + (
            "it has no Statistic" if make is None else "resampled over clusters or "
            "annotators") + "), or 'bca' for a measure with a Statistic resampled over single "
            "items (its leave-one-item-out values are the totals minus one item)")
    if crossed and ann.anonymous:
        raise AgreementError("resample='annotators' draws annotators, but these data were "
                             "built from per-item counts (Annotations.from_counts) and "
                             "know no annotator; load the ratings with from_long")
    if make is None or crossed:
        ann = ann.expanded("bootstrap")  # resamples single items: one row per item
    result = fn(ann, **measure_kwargs)
    if np.size(getattr(result, "value", result)) != 1:
        raise AgreementError(f"bootstrap gives the interval of one number, but {name} gives "
                             "a table; pass ci= to the measure itself if it takes one")
    estimate = _value(result)
    stat = None
    if crossed:
        r = ann.n_annotators
        items = (None for _ in range(n_resamples)) if resample == "annotators" else (
            _draws(rng, ann.n_items, n_resamples) if clusters is None else
            cluster_draws(rng, clusters, n_resamples))
        values = two_way(fn, ann, estimate, items, (rng.integers(0, r, r) for _ in
                                                     range(n_resamples)), measure_kwargs)
    elif make is None:
        values = _generic(fn, ann, _draws(rng, ann.n_items, n_resamples) if clusters is None
                          else cluster_draws(rng, clusters, n_resamples), measure_kwargs)
    else:
        stat = make(ann, **measure_kwargs)
        if interval == "bca" and stat.weights is not None:
            raise AgreementError("interval='bca' leaves out one item at a time, but these "
                                 "data keep items as weighted cells (from_contingency); use "
                                 "interval='percentile'")
        values = resampled(stat, n_resamples, rng, clusters)
    kind = ("clusters" if clusters is not None else "items") if resample == "items" else \
        "annotators" if resample == "annotators" else \
        ("clusters" if clusters is not None else "items") + " and annotators"
    draws = None if resample == "annotators" else (
        ann.n_items if clusters is None else int(clusters.max()) + 1)
    return _result(name, estimate, values, level, interval, seed, measure_kwargs, result,
                   fn, stat.jackknife()[:, None] if interval == "bca" else None,
                   kind=kind, n_draws=draws,
                   cluster=None if cluster is None else
                   (cluster if isinstance(cluster, str) else "Series"),
                   n_clusters=None if clusters is None else int(clusters.max()) + 1,
                   n_annotators=ann.n_annotators)


def _method(fn, method, interval, measure_kwargs) -> str:
    """bootstrap's ``method``: "unit", "krippendorff", or the former name of
    ``interval=`` ("percentile", "bca"; refused beside ``interval=``); any other value
    goes to a measure that takes its own ``method=``."""
    if method in KINDS:
        return method
    if method in ("percentile", "bca") and not takes(fn, "method"):
        if interval is not INTERVAL:
            raise AgreementError("bootstrap: method= and interval= were both given; "
                                 "method='percentile'|'bca' is the former name of "
                                 "interval=: pass interval= only (method= is now "
                                 "'unit' or 'krippendorff')")
        # method= stays a parameter ("unit", "krippendorff"): only its former values
        # are renamed, with the warning validate.takes gives
        validate.rename("bootstrap", {"method": "interval"}, inspect.Signature(), (),
                        {"method": method})
        return method
    if takes(fn, "method"):
        measure_kwargs["method"] = method
        return "unit"
    validate.fail("bootstrap", "method", "'unit' (resample items, clusters or annotators) "
                  "or 'krippendorff' (Hayes & Krippendorff's bootstrap of α)", method)


def _krippendorff(ann, fn, name, n_resamples, rng, seed, level, interval, cluster, resample,
                  kwargs) -> BootstrapResult:
    """Krippendorff's bootstrap (:func:`~iaa_widgets.inference.krippendorff.pair_draws`)."""
    from ..measures import _registry
    from .krippendorff import pair_draws
    if _registry.find("krippendorff_alpha").function is not fn:
        raise AgreementError(f"method='krippendorff' is Krippendorff's bootstrap of α; for "
                             f"{name} use method='unit'")
    if cluster is not None or resample != "items" or interval != "percentile":
        raise AgreementError("method='krippendorff' draws pairs of values from the "
                             "coincidence matrix: it takes no cluster=, resample= or "
                             "interval='bca'; use method='unit' for those")
    drawn = pair_draws(ann.expanded("bootstrap"), n_resamples, rng, **kwargs)
    note = "; ".join(filter(None, [
        f"{drawn.n_indeterminate} replicates drew every pair from one value: α* = 0 "
        "(Krippendorff)" if drawn.n_indeterminate else "",
        f"{drawn.n_coders} coders: the pairs of a unit are drawn as independent, and the "
        "interval is too narrow (the unit bootstrap, method='unit', covers)"
        if drawn.n_coders >= 3 else ""]))
    return _result(name, float(drawn.result.value), drawn.values, level, "percentile", seed,
                   kwargs, drawn.result, fn, None, kind="pairable values",
                   n_draws=drawn.n_draws, n_annotators=drawn.n_coders, extra_note=note)


def _result(name, estimate, values, level, interval, seed, kwargs, result, fn, jackknife,
            extra_note="", **fields) -> BootstrapResult:
    """The BootstrapResult of the replicates ``values`` of the measure's ``result``."""
    ok = values[~np.isnan(values)]
    if len(ok) < 2:
        raise AgreementError(f"{name} is undefined on {len(values) - len(ok)} of "
                             f"{len(values)} resamples; too few items vary to bootstrap")
    low, high, se, _ = intervals(values[:, None], estimate, level, interval, jackknife)
    if np.isnan(low[0]):  # BCa: z0 is infinite
        raise AgreementError("the BCa interval is undefined: every resample lies on one side "
                             "of the estimate; use interval='percentile'")
    note = "; ".join(filter(None, [without_cut(str(getattr(result, "note", "") or "")),
                                   extra_note]))
    missing = kwargs.get("missing", _default(fn, "missing"))
    return BootstrapResult(measure=name, estimate=estimate, ci=(float(low[0]), float(high[0])),
                           se=float(se[0]), level=level, values=values,
                           n_resamples=len(values), n_undefined=int(len(values) - len(ok)),
                           seed=seed, method=interval, params=dict(kwargs),
                           excluded=dict(getattr(result, "excluded", None) or {}), note=note,
                           n_items=getattr(result, "n_items", None),
                           n_ratings=getattr(result, "n_ratings", None),
                           missing=missing, **fields)


def _default(fn, name: str):
    """The default of ``fn``'s parameter ``name``, or None."""
    import inspect
    try:
        p = inspect.signature(fn).parameters.get(name)
    except (TypeError, ValueError):
        return None
    return None if p is None or p.default is p.empty else p.default
