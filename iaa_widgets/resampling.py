"""Bootstrap confidence intervals for any measure, by resampling items.

Each resample draws ``n_items`` items with replacement (a drawn item keeps all its
ratings; an item drawn twice counts as two items) and recomputes the measure. The
interval is the **percentile** interval: the (1 − level)/2 and (1 + level)/2
quantiles of the resampled values (Efron & Tibshirani 1993, *An Introduction to
the Bootstrap*, ch. 13); for Krippendorff's α also the **BCa** interval (ch. 14), its
acceleration from leave-one-item-out values computed in one vectorised step. The standard
error is their standard deviation (ddof = 1). Resamples where the measure is
undefined (NaN, e.g. no variation left) are counted in ``n_undefined`` and left out
of the interval.

Building a resample is vectorised (one gather over the ratings, sorted by item);
only the loop over resamples is in Python. Krippendorff's α and the classic
coefficients take fast paths: a resample is a vector of item weights w_i (how often
item i was drawn) on item-level sufficient statistics, e.g. α's coincidences
o_ck = Σ_i w_i n_ic (n_ik − [c = k]) / (m_i − 1), a two-annotator table
t_jk = Σ_i w_i [item i in cell jk], Fleiss' A'_o and p_c as w-weighted means over
items. They give the same values as the general path for the same seed (the measure's
own ``prepare`` fixes, once, which items are used under its missing-data policy; a
drawn item keeps its ratings, so whether it is used cannot change in a resample).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Callable, Mapping

import numpy as np
import pandas as pd

from .data import Annotations, as_annotations
from . import validate
from .errors import AgreementError
from .results import Charted
from .stats import item_counts

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
    if isinstance(measure, str):
        import iaa_widgets
        fn = getattr(iaa_widgets, measure, None)
        if not callable(fn):
            validate.fail("bootstrap", "measure", "a function or the name of a public "
                          "measure such as 'krippendorff_alpha'", measure)
        return fn, measure
    if not callable(measure):
        validate.fail("bootstrap", "measure", "a function or the name of a public measure "
                      "such as 'krippendorff_alpha'", measure)
    return measure, getattr(measure, "__name__", type(measure).__name__)


def _value(result) -> float:
    return float(getattr(result, "value", result))


def _draws(rng: np.random.Generator, n_items: int, n_resamples: int):
    """Item codes of each resample, one array at a time (same stream for every path)."""
    for _ in range(n_resamples):
        yield rng.integers(0, n_items, size=n_items)


def _item_weights(rng: np.random.Generator, ann: Annotations, n_resamples: int):
    """How often each item row is drawn, one vector per resample. Rows of
    ``from_contingency`` data stand for ``item_weight`` items each: N = Σ w draws with
    replacement from N items fall on the rows as Multinomial(N, w / N), drawn as such
    (no row per item); otherwise the counts of the item codes of :func:`_draws`."""
    if ann.item_weight is None:
        for drawn in _draws(rng, ann.n_items, n_resamples):
            yield np.bincount(drawn, minlength=ann.n_items)
        return
    p = ann.item_weight / ann.item_weight.sum()
    for _ in range(n_resamples):
        yield rng.multinomial(ann.total_items, p)


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


def _alpha_fast(ann, weights, metric="nominal") -> np.ndarray:
    from .measures.alpha import alpha_from_coincidences, category_values
    counts = item_counts(ann).astype(float)
    m = counts.sum(axis=1)
    weighted = counts / np.maximum(m - 1, 1)[:, None] * (m >= 2)[:, None]
    diag = np.diag_indices(counts.shape[1])
    o = []
    for w in weights:
        o_b = (weighted * w[:, None]).T @ counts     # Σ_i w_i n_ic n_ik / (m_i − 1)
        o_b[diag] -= w @ weighted                     # − Σ_i w_i n_ic / (m_i − 1) on c = k
        o.append(o_b)
    return alpha_from_coincidences(np.array(o), metric, category_values(ann, metric))[0]


def _weight_blocks(draws, used: np.ndarray, width: int):
    """W (b × items used): how often each of b resamples drew each item used, from their
    item codes; b · width ≤ 2²² entries per block."""
    return _blocks((np.bincount(d, minlength=len(used)) for d in draws), used, width)


def _blocks(weights, used: np.ndarray, width: int):
    """W (b × items used) from each resample's vector of item weights (see
    :func:`_item_weights`); b · width ≤ 2²² entries per block."""
    b = max(1, (1 << 22) // max(width, 1))
    while block := list(islice(weights, b)):
        yield np.array([w[used] for w in block], dtype=float)


def _weighted_tables(cells: np.ndarray, w: np.ndarray, size: int) -> np.ndarray:
    """Σ_i w_bi [cells_i = j] for every row b of w: one bincount for the block."""
    rows = np.arange(len(w))[:, None] * size
    return np.bincount((rows + cells).ravel(), weights=w.ravel(),
                       minlength=len(w) * size).reshape(len(w), size)


def _classic_fast(fn, ann: Annotations, result, kwargs):
    """The used-item mask, value(w) of a classic measure on a block w of item weights
    (from its item-level sufficient statistics) and the width of the arrays value(w)
    builds per resample; None if fn is not a classic measure."""
    from .measures import _formulas as F, classic
    from .measures._prepare import prepare
    name = next((n for n in classic.__all__ if getattr(classic, n) is fn), None)
    if name is None:
        return None
    prep = prepare(ann, name, missing=result.params["missing"],
                   annotators=kwargs.get("annotators"), singles=name in classic.SINGLES,
                   item_weights=name in ON_ITEM_WEIGHTS)
    c, k, used = prep.counts, prep.ann.n_categories, prep.used
    width = len(c) + k  # per resample: w_i over the item rows used, a sum per category
    if name == "percent_agreement":  # A_o = Σ_i w_i a_i / Σ_i w_i
        return used, width, lambda w: F.multi_observed(c, w)
    if name == "bennett_s":          # S = (A_o − 1/k) / (1 − 1/k)
        return used, width, lambda w: F.chance_corrected(F.multi_observed(c, w), 1.0 / k)
    if name == "fleiss_kappa":  # A'_o (pairable items), p_c (all used) as w-weighted means
        return used, width, lambda w: F.chance_corrected(F.multi_observed(c, w),
                                                         F.fleiss_expected(c, w))
    if name == "specific_agreement":  # Σ_i w_i n_ic(n_ic − 1) / Σ_i w_i n_ic(m_i − 1)
        code = prep.ann.categories.get_indexer([result.params["positive"]])[0]
        return used, width, lambda w: F.specific_from_counts(c, w)[2][:, code]
    if name in ("scott_pi", "cohen_kappa"):  # t_jk = Σ_i w_i [x_i1 = j, x_i2 = k]
        x = prep.ann._label_grid()[used]  # item rows (weighted by w, see _item_weights)
        cells = x[:, 0] * k + x[:, 1]
        agree = F.agreement_weights(kwargs.get("weights"), prep.ann.categories,
                                    prep.ann.ordered)[0]  # identity for π

        def two(w):
            t = _weighted_tables(cells, w, k * k).reshape(-1, k, k)
            a_e = F.scott_expected(t) if name == "scott_pi" else F.cohen_expected(t, agree)
            return F.chance_corrected(F.table_observed(t, agree), a_e)
        return used, width + k * k, two
    # davies_fleiss_kappa: n_rc = Σ_i w_i [annotator r put item i in c]
    item_of, rater, label = prep.ratings()
    cells = rater * k + label
    r = prep.ann.n_annotators

    def multi_kappa(w):
        n_rc = _weighted_tables(cells, w[:, item_of], r * k).reshape(-1, r, k)
        with np.errstate(divide="ignore", invalid="ignore"):  # p_rc = n_rc / n_r; NaN if
            shares = n_rc / n_rc.sum(axis=-1, keepdims=True)   # r rated no item (refused)
        return F.chance_corrected(F.multi_observed(c, w), F.conger_expected(shares))
    return used, len(item_of) + r * k, multi_kappa


# classic measures whose fast path weights the item rows of from_contingency data, and
# those that read only the item × category counts (exact on from_counts data)
ON_ITEM_WEIGHTS = ("percent_agreement", "bennett_s", "scott_pi", "cohen_kappa",
                   "specific_agreement")
ON_ITEM_COUNTS = ("percent_agreement", "bennett_s", "fleiss_kappa", "specific_agreement")


def _takes_counts(fn, ann: Annotations, fast: bool, method: str) -> bool:
    """Whether a fast path resamples these data as counts: α's coincidences and the
    classic measures above (no BCa on weighted rows: its jackknife leaves out rows)."""
    from .measures import classic
    name = next((n for n in classic.__all__ if getattr(classic, n) is fn), None)
    if ann.item_weight is not None and ann.rating_count is None:
        return (fast and method == "percentile") or name in ON_ITEM_WEIGHTS
    if ann.rating_count is not None and ann.item_weight is None:
        return fast or name in ON_ITEM_COUNTS
    return not ann.weighted


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
    number) or the name of a public measure, e.g. ``"krippendorff_alpha"``.
    ``measure_kwargs`` are passed to it (e.g. ``metric="ordinal"``). ``seed`` makes
    the resamples reproducible (anything ``numpy.random.default_rng`` accepts).
    ``method``: "percentile" (any measure) or "bca" (Krippendorff's α, whose
    leave-one-item-out values are vectorised). Krippendorff's α and the classic
    coefficients (percent agreement, S, π, κ, multi-π, multi-κ, specific agreement)
    take fast paths with the same values; any other function is called per resample.

    Counts stay counts where a fast path allows: on ``Annotations.from_contingency``
    data a resample draws how often each cell's items are drawn, Multinomial(N, t/N),
    for α (percentile) and A_o, S, π, κ, specific agreement; on ``from_counts`` data the
    items are drawn as usual and their category counts kept (α, A_o, S, multi-π,
    specific agreement). Other cases are expanded into one row per item, or refused
    above ``EXPANSION_LIMIT`` ratings.
    """
    fn, name = _resolve(measure)
    n_resamples = validate.integer("bootstrap", "n_resamples", n_resamples, minimum=2)
    level = validate.confidence("bootstrap", "level", level)
    validate.seed("bootstrap", "seed", seed)
    validate.choice("bootstrap", "method", method, ("percentile", "bca"))
    from .measures.alpha import alpha_jackknife, category_values, krippendorff_alpha
    fast = fn is krippendorff_alpha and set(measure_kwargs) <= {"metric"}
    if method not in ("percentile", "bca") or (method == "bca" and not fast):
        raise AgreementError(f"method must be 'percentile' or, for krippendorff_alpha, 'bca' "
                             f"(it needs leave-one-item-out values); got {method!r} for {name}")
    ann = as_annotations(data)
    if not _takes_counts(fn, ann, fast, method):
        ann = ann.expanded("bootstrap")  # resamples single items: one row per item
    result = fn(ann, **measure_kwargs)
    estimate = _value(result)
    rng = np.random.default_rng(seed)
    weights = _item_weights(rng, ann, int(n_resamples))
    classic = None if fast else _classic_fast(fn, ann, result, measure_kwargs)
    if fast:
        values = _alpha_fast(ann, weights, **measure_kwargs)
    elif classic is not None:
        used, width, value = classic
        values = np.concatenate([value(w) for w in _blocks(weights, used, width)])
    else:
        values = _generic(fn, ann, _draws(rng, ann.n_items, int(n_resamples)), measure_kwargs)
    ok = values[~np.isnan(values)]
    if len(ok) < 2:
        raise AgreementError(f"{name} is undefined on {len(values) - len(ok)} of "
                             f"{len(values)} resamples; too few items vary to bootstrap")
    if method == "bca":
        metric = measure_kwargs.get("metric", "nominal")
        jackknife = alpha_jackknife(item_counts(ann), metric, category_values(ann, metric))
        low, high = _bca(ok, estimate, jackknife, level)
    else:
        low, high = np.quantile(ok, [(1 - level) / 2, (1 + level) / 2])
    return BootstrapResult(measure=name, estimate=estimate, ci=(float(low), float(high)),
                           se=float(np.std(ok, ddof=1)), level=level, values=values,
                           n_resamples=int(n_resamples), n_undefined=int(len(values) - len(ok)),
                           seed=seed, method=method, params=dict(measure_kwargs))
