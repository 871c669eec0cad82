"""Krippendorff's α over the coincidence matrix, for any difference function δ.

Notation of Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability":
o_ck the coincidences of values c and k within items (pairable values only),
n_c = Σ_k o_ck their marginals, n = Σ_c n_c the number of pairable values, and

    α = 1 − D_o / D_e,   D_o = (1/n) Σ_ck o_ck δ_ck,
                         D_e = 1/(n(n−1)) Σ_ck n_c n_k δ_ck.

δ_ck is Krippendorff's *squared* difference δ²_ck (the value that enters D):
nominal [c ≠ k]; ordinal (Σ_{g=c..k} n_g − (n_c + n_k)/2)² over the categories in
their declared order; interval (c − k)²; ratio ((c − k)/(c + k))²; for set-valued
labels (multi-label annotation, each category a frozenset) Jaccard 1 − |A∩B|/|A∪B| and
MASI 1 − J·M (Passonneau 2006, see :func:`set_distances`); or one given as a K × K
matrix or a callable ``d(c, k)`` on the category labels (e.g. Meyer's tutorial
distances 0 / 0.5 / 1 enter as they are).

Degenerate data: when every pairable value falls in one category D_e = 0 and α is
1 − 0/0, undefined: the result's value is NaN and its ``note`` says why. Data with
no item rated twice raise :class:`~iaa_widgets.AgreementError`.
"""
from __future__ import annotations

from functools import partial
from typing import Callable, Sequence, Union

import numpy as np
import pandas as pd

from ... import validate
from ...data import as_annotations, noted
from ...errors import AgreementError
from ...results import AgreementResult
from ...stats import Statistic, coincidence_table, coincidences, item_counts, \
    item_counts_for_pairs
from ...stats.statistic import entry_pairs, per_item
from .._order import by_label, require_declared, require_order
from .._prepare import complete
from .alpha_values import many_values, moment_alpha, nominal_alpha, pairable_ratings, \
    ratio_alpha, values_statistic
from .._registry import register
from .. import _engine

__all__ = ["krippendorff_alpha", "alpha_from_coincidences", "set_distances", "set_membership",
           "METRICS"]

METRICS = ("nominal", "ordinal", "interval", "ratio", "jaccard", "masi")
SET_METRICS = ("jaccard", "masi")
Metric = Union[str, np.ndarray, Sequence[Sequence[float]], Callable[[object, object], float]]


def _metric_name(metric: Metric) -> str:
    if isinstance(metric, str):
        return metric
    return "callable" if callable(metric) else "matrix"


def _delta(metric: Metric, n_c: np.ndarray, category_values):
    """δ_ck, broadcastable to n_c's leading axes × K × K (ordinal depends on n_c), and
    the unit u that δ is given in (true δ = u·δ): α = 1 − D_o/D_e does not change when
    every δ is scaled, so interval and ratio values are divided by max |v| first and
    values near 1e200 square without overflow (Krippendorff 2011: α is a ratio of D's)."""
    k = n_c.shape[-1]
    if isinstance(metric, str):
        if metric == "nominal":
            return 1.0 - np.eye(k), 1.0
        if metric == "ordinal":
            # δ_ck = (Σ_{g=c..k} n_g − (n_c+n_k)/2)² = (mid_k − mid_c)²,
            # mid_c = Σ_{g≤c} n_g − n_c/2
            mid = np.cumsum(n_c, axis=-1) - n_c / 2
            return (mid[..., :, None] - mid[..., None, :]) ** 2, 1.0
        if metric in ("interval", "ratio"):
            v = _ratio_values(category_values, k) if metric == "ratio" else \
                _values(category_values, k, metric)
            scale = np.max(np.abs(v)) or np.float64(1.0)
            v = v / scale
            diff = v[:, None] - v[None, :]
            if metric == "interval":
                with np.errstate(over="ignore", under="ignore"):  # the unit may leave
                    return diff ** 2, scale * scale  # the float range: δ = (c − k)² · unit
            total = v[:, None] + v[None, :]
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where(total > 0, (diff / total) ** 2, 0.0), 1.0  # ((c−k)/(c+k))²
        if metric in SET_METRICS:
            if category_values is None:
                raise AgreementError(f"the {metric} metric compares the categories' sets: "
                                     "pass them as category_values= (or o as a labelled "
                                     "DataFrame)")
            return _checked_matrix(set_distances(category_values, metric), k,
                                   f"the {metric} distances"), 1.0
        raise AgreementError(f"metric must be one of {METRICS!r}, a K×K distance matrix or a "
                             f"callable d(c, k); got {metric!r}")
    if callable(metric):
        labels = list(range(k)) if category_values is None else list(category_values)
        try:
            d = np.array([[float(metric(a, b)) for b in labels] for a in labels])
        except (TypeError, ValueError) as e:
            raise AgreementError(f"the distance callable failed on the categories "
                                 f"{labels[:8]!r}: {e}") from None
        return _checked_matrix(d, k, "the distance callable"), 1.0
    if isinstance(metric, pd.DataFrame):
        if category_values is None:
            raise AgreementError("a labelled distance matrix is aligned by label: pass the "
                                 "coincidences as a labelled DataFrame or their categories "
                                 "as category_values=")
        return _checked_matrix(by_label(metric, category_values, "the distance matrix"), k,
                               "the distance matrix"), 1.0
    try:
        d = np.asarray(metric, dtype=float)
    except (TypeError, ValueError):
        raise AgreementError(f"metric must be one of {METRICS!r}, a K×K distance matrix or a "
                             f"callable d(c, k); got {type(metric).__name__}") from None
    return _checked_matrix(d, k, "the distance matrix"), 1.0


def set_membership(categories, what: str):
    """Set-valued categories as a K × L membership matrix B_cl = [label l ∈ set c] over
    the L labels they hold (in order of first appearance), and those labels. Refuses a
    category that is not a set or frozenset, naming it and ``what`` needs sets."""
    cats = list(categories)
    bad = [c for c in cats if not isinstance(c, (set, frozenset))]
    if bad:
        raise AgreementError(f"{what} compares set-valued labels (each a frozenset of "
                             f"labels), but {len(bad)} categor"
                             f"{'y is' if len(bad) == 1 else 'ies are'} not a set: "
                             f"{bad[:5]!r}; give every label as a set (a single choice "
                             "as a one-element frozenset)")
    sizes = np.fromiter((len(c) for c in cats), np.int64, len(cats))
    members = [m for c in cats for m in c]  # the labels of every set, set by set
    codes, universe = pd.factorize(pd.Series(members, dtype=object), sort=False)
    b = np.zeros((len(cats), len(universe)))
    b[np.repeat(np.arange(len(cats)), sizes), codes] = 1.0
    return b, pd.Index(universe, dtype=object)


def set_distances(categories, metric: str = "masi") -> np.ndarray:
    r"""The K × K distances between set-valued categories (each a set or frozenset of
    labels), row and column c for ``categories[c]``.

    Sets become rows of a boolean membership matrix B over the labels they hold, so
    |A∩B| = (B Bᵀ)_ab and |A∪B| = |A| + |B| − |A∩B| for every pair at once.
    ``"jaccard"``: d = 1 − |A∩B|/|A∪B| (Jaccard 1912). ``"masi"`` (Passonneau 2006):
    d = 1 − J·M with the monotonicity M = 1 when A = B, 2/3 when one set contains the
    other, 1/3 when they overlap otherwise, 0 when disjoint; this is Passonneau's
    definition and nltk's ``masi_distance``. Two empty sets are equal: d = 0 (J = 1 by
    convention, where nltk divides by zero); an empty and a non-empty set: d = 1.
    A category that is not a set is refused (read several choices as sets throughout:
    the readers' ``sets=`` option).

    Parameters
    ----------
    categories : sequence of set or frozenset
        The set-valued categories, in the order of the rows and columns.
    metric : {"masi", "jaccard"}, default "masi"
        The distance.

    Returns
    -------
    ndarray of shape (K, K)
        Symmetric distances in [0, 1], zero on the diagonal.

    Raises
    ------
    AgreementError
        When a category is not a set, or ``metric`` is not "masi" or "jaccard".

    See Also
    --------
    krippendorff_alpha : α with ``metric="masi"`` or ``"jaccard"``.
    per_label : agreement on each label of set-valued annotations.

    Notes
    -----
    Jaccard: $d = 1 - |A \cap B| / |A \cup B|$. MASI (Passonneau 2006): $d = 1 - J M$ with
    $M = 1$ if $A = B$, $2/3$ if one contains the other, $1/3$ if they overlap otherwise,
    $0$ if disjoint.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, 831–836.
    http://www.lrec-conf.org/proceedings/lrec2006/pdf/636_pdf.pdf

    Jaccard, P. (1912). The distribution of the flora in the alpine zone. New
    Phytologist, 11(2), 37–50. https://doi.org/10.1111/j.1469-8137.1912.tb05611.x

    Examples
    --------
    {a, b} against {a}: J = 1/2 and one contains the other (M = 2/3), so
    d = 1 − 1/3 (Passonneau 2006):

    >>> d = iaa.set_distances([frozenset("ab"), frozenset("a"), frozenset("c")])
    >>> d.round(4).tolist()
    [[0.0, 0.6667, 1.0], [0.6667, 0.0, 1.0], [1.0, 1.0, 0.0]]
    """
    validate.choice("set_distances", "metric", metric, SET_METRICS)
    b, _ = set_membership(categories, f"the {metric} metric")
    sizes = b.sum(axis=1)
    inter = b @ b.T                                           # |A∩B|
    union = sizes[:, None] + sizes[None, :] - inter           # |A∪B|
    j = np.where(union > 0, inter / np.maximum(union, 1), 1.0)  # J = |A∩B|/|A∪B|; ∅, ∅: 1
    if metric == "jaccard":
        return 1.0 - j
    smaller = np.minimum(sizes[:, None], sizes[None, :])
    equal = (inter == sizes[:, None]) & (inter == sizes[None, :])
    m = np.select([equal, inter == smaller, inter > 0], [1.0, 2 / 3, 1 / 3], 0.0)  # M
    return 1.0 - j * m                                        # MASI distance 1 − J·M


def _values(category_values, k: int, metric: str) -> np.ndarray:
    if category_values is None:
        raise AgreementError(f"the {metric} metric needs the categories' numeric values")
    try:
        v = np.asarray(category_values, dtype=float)
    except (TypeError, ValueError):
        raise AgreementError(f"the {metric} metric needs numeric categories, got "
                             f"{list(category_values)[:8]!r}") from None
    if v.shape != (k,):
        raise AgreementError(f"{len(v)} category values given for {k} categories")
    if not np.all(np.isfinite(v)):
        raise AgreementError(f"the {metric} metric needs finite category values")
    return v


def _checked_matrix(d: np.ndarray, k: int, what: str) -> np.ndarray:
    if d.shape != (k, k):
        raise AgreementError(f"{what} must be {k}×{k} (one row and column per category in "
                             f"declared order), got shape {d.shape}")
    if not np.all(np.isfinite(d)) or np.any(d < 0):
        raise AgreementError(f"{what} must hold finite, non-negative distances")
    if np.any(np.diag(d) != 0) or not np.allclose(d, d.T):
        raise AgreementError(f"{what} must be symmetric with a zero diagonal "
                             "(δ_cc = 0, δ_ck = δ_kc)")
    return d


def category_values(ann, metric: Metric):
    """What a metric needs to know of the categories: their numbers (interval, ratio),
    their labels (a callable, a labelled distance matrix), or nothing. Refuses the
    ordinal metric and a bare distance matrix when the data declared no order."""
    if isinstance(metric, str):
        if metric == "ordinal":
            require_order(ann.categories, ann.ordered, "metric='ordinal'")
        if metric in SET_METRICS:
            return list(ann.categories)
        return ann.category_values(f"krippendorff_alpha(metric={metric!r})",
                                   "code the labels as numbers or pass a distance matrix "
                                   "as metric=") if metric in ("interval", "ratio") else None
    if callable(metric) or isinstance(metric, pd.DataFrame):
        return list(ann.categories)
    require_declared(ann.categories, ann.ordered, "the distance matrix (metric=)")
    return None


def _coincidence_input(o, metric: Metric, category_values):
    """``o`` as floats (..., K, K), validated, and the category values; a labelled
    DataFrame gives its labels as the category values unless they are given."""
    if isinstance(o, pd.DataFrame):
        if category_values is None and not (isinstance(metric, str) and
                                             metric in ("nominal", "ordinal")):
            category_values = list(o.index)
        o = by_label(o, o.index, "the coincidence matrix o")
    try:
        o = np.asarray(o, dtype=float)
    except (TypeError, ValueError):
        raise AgreementError("the coincidence matrix o must hold numbers") from None
    if o.ndim < 2 or o.shape[-1] != o.shape[-2]:
        raise AgreementError(f"the coincidence matrix o must be square, of shape (..., K, K), "
                             f"got {o.shape}")
    if not np.all(np.isfinite(o)):
        raise AgreementError("the coincidence matrix o must hold finite numbers (no NaN or "
                             "infinity)")
    tol = 1e-9 * (1.0 + np.max(np.abs(o), axis=(-2, -1), keepdims=True))  # round-off
    if np.any(o < -tol):
        raise AgreementError("the coincidence matrix o must be non-negative: o_ck counts "
                             "pairs of values (Krippendorff 2011)")
    if np.any(np.abs(o - np.swapaxes(o, -1, -2)) > tol):
        raise AgreementError("the coincidence matrix o must be symmetric, o_ck = o_kc: each "
                             "pair of values counts in both orders (Krippendorff 2011)")
    return o, category_values


def alpha_from_coincidences(o, metric: Metric = "nominal", category_values=None):
    r"""α, D_o and D_e from coincidence matrices ``o`` of shape (..., K, K).

    Vectorised over the leading axes (e.g. one matrix per annotator pair). Where
    D_e = 0 (no variation among the pairable values, or fewer than two) the value
    is NaN. ``o`` may be a labelled DataFrame (its labels are then the categories);
    it must be square, finite, non-negative and symmetric. ``category_values`` are the
    categories' numbers (interval, ratio) or the labels a callable metric receives and
    a labelled distance matrix is aligned to. A bare distance matrix and the ordinal
    metric follow the order of o's rows. D_o and D_e become infinity or 0 where they
    leave the float range (values near 1e200 or 1e-200); α, computed on values scaled
    by their largest magnitude, stays exact.

    Parameters
    ----------
    o : array_like of shape (..., K, K) or DataFrame
        Coincidence matrices: square, finite, non-negative and symmetric. A labelled
        DataFrame gives its labels as the categories.
    metric : str, array_like or callable, default "nominal"
        As in `krippendorff_alpha`: a name, a K × K matrix of δ or a callable ``d(c, k)``.
    category_values : sequence, optional
        The categories' numbers (interval, ratio), their sets (jaccard, masi), or the labels
        a callable receives and a labelled distance matrix is aligned to.

    Returns
    -------
    value, d_o, d_e : ndarray
        α, D_o and D_e, each of shape ``o.shape[:-2]`` (NaN where D_e = 0).

    Raises
    ------
    AgreementError
        When ``o`` is not a square, finite, non-negative, symmetric matrix, the metric is
        unknown, or the metric needs category values that are missing or not numeric.

    See Also
    --------
    krippendorff_alpha : α from ratings.
    set_distances : distances for set-valued categories.

    Notes
    -----
    With $n_c = \sum_k o_{ck}$ and $n = \sum_c n_c$ (Krippendorff 2011):

    $$\alpha = 1 - \frac{(n-1)\sum_{c,k} o_{ck}\,\delta_{ck}}{\sum_{c,k} n_c n_k\,\delta_{ck}}.$$

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg
    School for Communication, University of Pennsylvania.
    https://repository.upenn.edu/asc_papers/43

    Examples
    --------
    The coincidences of Krippendorff's (2011) nominal example (n = 40, D_o = 8/40;
    he prints α = .743):

    >>> data = iaa.datasets.krippendorff_2011()
    >>> o = iaa.krippendorff_alpha(data).params["coincidences"]
    >>> value, d_o, d_e = iaa.alpha_from_coincidences(o)
    >>> round(float(value), 3), round(float(d_o), 4)
    (0.743, 0.2)
    """
    validate.name_or_matrix("alpha_from_coincidences", "metric", metric, METRICS,
                            function=True)
    o, category_values = _coincidence_input(o, metric, category_values)
    n_c = o.sum(axis=-1)  # n_c = Σ_k o_ck
    delta, unit = _delta(metric, n_c, category_values)
    return _alpha_of(n_c, (o * delta).sum(axis=(-2, -1)), delta, unit)  # Σ o_ck δ_ck


def _alpha_of(n_c, observed, delta, unit):
    """α, D_o and D_e from the pairable values per category n_c (..., K), Σ o_ck δ_ck and
    δ in its unit (Krippendorff 2011: D_o = Σ o_ck δ_ck / n, D_e = Σ n_c n_k δ_ck /
    (n(n − 1)), α = 1 − D_o/D_e)."""
    n = n_c.sum(axis=-1)
    # Σ n_c n_k δ_ck as products (no array of n_c's leading axes × K × K)
    expected = np.sum(np.matmul(n_c[..., None, :], delta)[..., 0, :] * n_c, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        d_o = np.where(n > 0, observed / n, np.nan)
        d_e = np.where(n > 1, expected / (n * (n - 1)), np.nan)
        value = np.where(d_e > 0, 1.0 - d_o / d_e, np.nan)                    # α = 1 − D_o/D_e
        return value, d_o * unit, d_e * unit


def _ratio_values(category_values, k: int) -> np.ndarray:
    """The categories' numbers for the ratio metric, refused when negative."""
    v = _values(category_values, k, "ratio")
    if np.any(v < 0):
        raise AgreementError(f"the ratio metric needs non-negative category values, got "
                             f"{v[v < 0][:5].tolist()!r}; use 'interval' instead")
    return v


def _alpha_engine(s, measure, metric: Metric = "nominal", *,
                  missing: str = "pairable") -> _engine.Totals:
    """α from sufficient statistics: the coincidences o_ck = Σ_{m ≥ 2} (Σ_{m_i = m}
    n_ic n_ik − [c = k] Σ_{m_i = m} n_ic) / (m − 1) over the item sizes m its policy
    keeps (Krippendorff 2011), finished by :func:`alpha_from_coincidences`."""
    from ...data.categories import numeric_values
    validate.name_or_matrix("krippendorff_alpha", "metric", metric, METRICS, function=True)
    validate.choice("krippendorff_alpha", "missing", missing, measure.missing)
    m = np.arange(len(s.sizes))
    if missing == "pairable":
        used = m >= 2
        excluded = {"items with a single rating (unpairable)": int(s.sizes[1:2].sum()),
                    "items with no rating": int(s.sizes[0])}
    else:  # listwise: the items every annotator rated (as complete())
        used, excluded = _engine.policy(s, "krippendorff_alpha", missing, measure.missing)
    pairable = used & (m >= 2)
    if not s.sizes[pairable].any():
        raise AgreementError("no item has two or more ratings, so no values are pairable; "
                             "Krippendorff's α needs items rated by at least two annotators")
    if isinstance(metric, str) and metric in ("interval", "ratio"):
        # by the labels' values: no rating is at hand (the stand-in's would be named)
        numeric_values(s.categories, f"krippendorff_alpha(metric={metric!r})")
    values = category_values(s.stand_in(), metric)
    with np.errstate(divide="ignore"):
        g = np.where(pairable, 1.0 / (m - 1), 0.0)  # 1/(m − 1) of each pairable size
    o = np.einsum("m,mck->ck", g, s.products) - np.diag(g @ s.totals)
    return _engine.Totals({"o": o[None]},
                          lambda tot: alpha_from_coincidences(tot["o"][0], metric, values),
                          used, excluded, {"metric": _metric_name(metric), "missing": missing})


@register(family="Krippendorff's alpha", data='categorical', annotators='many',
          source="Krippendorff (1980; 2011, Computing Krippendorff's Alpha-Reliability)",
          symbol='α (Krippendorff, nominal)', missing=('pairable', 'listwise', 'raise'),
          scale='disagreement',
          report=True, panel=True, engine=_alpha_engine)
def krippendorff_alpha(data, metric: Metric = "nominal", *,
                       missing: str = "pairable") -> AgreementResult:
    r"""Krippendorff's α for any number of annotators, with missing ratings.

    ``data``: `Annotations` or a tidy DataFrame (item,
    annotator, label). ``metric``: "nominal", "ordinal" (rank-based, categories in
    their declared order; refused when no order was declared), "interval", "ratio"
    (numeric categories), "jaccard" or "masi" (set-valued labels, each a frozenset:
    multi-label annotation; distances from `set_distances`), a K × K matrix of δ
    (a DataFrame aligned by its labels, or a bare array in declared order), or a
    callable ``d(c, k)`` on category labels.
    Only pairable values count: items with a single rating are excluded and counted
    in ``excluded``; ``n_items`` and ``n_ratings`` are the pairable items and values
    (n); only primary labels are used. ``observed`` and ``expected`` are D_o and D_e;
    ``params["coincidences"]`` is the matrix o_ck; ``per_category``
    gives each category's pairable values n_c, its share, and o_cc / n_c (how often
    a value c is matched by c within its item). With no variation (D_e = 0) the
    value is NaN and ``note`` explains it. ``missing``: "pairable" (default, α's own:
    every item rated at least twice), "listwise" (only the items every annotator rated;
    the others excluded and counted) or "raise" (refuse a missing rating).

    Many distinct values (continuous scores or thousands of labels: more than
    ``alpha_values.MANY_VALUES`` = 1,024 for nominal, interval and ordinal, twice that for
    ratio) need no K × K table (`alpha_values`):
    nominal α from per-item counts, interval α from per-item moments, ordinal α the same
    on the values' mid-ranks, all O(N); ratio α with D_e summed over the values in blocks
    (K² time, no K² memory; refused beyond ``alpha_values.MAX_RATIO_VALUES`` = 50,000
    values, about 7 s, with what to do instead). The value is the same; ``params`` then
    has no "coincidences" and ``per_category`` no "o_cc/n_c" (nominal keeps it), and
    ``note`` says so.

    Differences from other software: R's ``irr::kripp.alpha`` (0.84.1) divides a unit's
    pairs by m_u − 1 only when the matrix holds an NA; on complete data with m ≥ 3
    annotators it computes 1 − (N(m − 1) − 1)/(m − 1)·D_o/D_e instead of
    1 − (N − 1)·D_o/D_e. On irr's ``anxiety`` data (3 raters, nominal) irr prints
    −0.0324; we and the krippendorff package give −0.0237 (tests/test_differences.py).

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Columns item, annotator, label (anything `iaa.as_annotations` accepts).
    metric : str, array_like or callable, default "nominal"
        "nominal", "ordinal", "interval", "ratio", "jaccard" or "masi"; a K × K matrix
        of δ (a DataFrame aligned by label, or an array in declared order); or a
        callable ``d(c, k)`` on two category labels.
    missing : {"pairable", "listwise", "raise"}, default "pairable"
        Which items enter: those rated at least twice, those every annotator rated, or
        none missing (refuse otherwise).

    Returns
    -------
    AgreementResult
        ``value`` (α), ``observed`` (D_o), ``expected`` (D_e), ``n_items`` and
        ``n_ratings`` (pairable items and values), ``excluded``, ``per_category``,
        ``params["coincidences"]`` and ``note``.

    Raises
    ------
    AgreementError
        When no item has two ratings, the metric is unknown or unfit for the labels
        (ordinal without a declared order, interval or ratio on text, set metrics on
        labels that are not sets), or ``missing="raise"`` meets a missing rating.

    See Also
    --------
    alpha_from_coincidences : α from a coincidence matrix.
    set_distances : the Jaccard and MASI distances between set-valued labels.
    per_label : α for each label of set-valued annotations.
    unitizing_alpha : α_U for units on a continuum.

    Notes
    -----
    Krippendorff (2011), with o_ck the coincidences, $n_c = \sum_k o_{ck}$ and
    $n = \sum_c n_c$ the pairable values:

    $$\alpha = 1 - \frac{D_o}{D_e}, \quad D_o = \frac{1}{n}\sum_{c,k} o_{ck}\,\delta_{ck},
    \quad D_e = \frac{1}{n(n-1)}\sum_{c,k} n_c n_k\,\delta_{ck}.$$

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg
    School for Communication, University of Pennsylvania.
    https://repository.upenn.edu/asc_papers/43

    Hayes, A. F. & Krippendorff, K. (2007). Answering the call for a standard
    reliability measure for coding data. Communication Methods and Measures, 1(1),
    77–89. https://doi.org/10.1080/19312450709336664

    Examples
    --------
    Krippendorff's (2011) 4 observers × 12 units; he prints α = .743 (nominal),
    .815 (ordinal), .849 (interval) and .797 (ratio):

    >>> data = iaa.datasets.krippendorff_2011()
    >>> [round(iaa.krippendorff_alpha(data, m).value, 3)
    ...  for m in ("nominal", "ordinal", "interval", "ratio")]
    [0.743, 0.815, 0.849, 0.797]
    >>> iaa.krippendorff_alpha(data).excluded
    {'items with a single rating (unpairable)': 1}
    """
    validate.name_or_matrix("krippendorff_alpha", "metric", metric, METRICS, function=True)
    ann, dropped = complete(data, "krippendorff_alpha", missing)  # listwise: complete items
    values = category_values(ann, metric)
    if many_values(metric, ann.n_categories):  # no K × K table: moments, or the sweep
        ratings = pairable_ratings(ann)
        o, m, o_cc = None, ratings[3], None
        weight = ratings[2] if ann.item_weight is None else ann.item_weight[ratings[0]] * (
            1.0 if ratings[2] is None else ratings[2])
        n_c = np.bincount(ratings[1], weights=weight, minlength=ann.n_categories).astype(
            float, copy=False)
    else:
        o, m = coincidences(item_counts_for_pairs(ann), return_sizes=True,  # m_i: per item
                            weights=ann.item_weight)  # from_contingency: per cell
        n_c, o_cc = o.sum(axis=1), np.diag(o)
    times = np.ones(len(m), np.int64) if ann.item_weight is None else ann.item_weight
    pairable = m >= 2
    if not pairable.any():
        raise AgreementError("no item has two or more ratings, so no values are pairable; "
                             "Krippendorff's α needs items rated by at least two annotators")
    if o is not None:
        value, d_o, d_e = (float(x) for x in alpha_from_coincidences(o, metric, values))
    elif metric == "nominal":
        value, d_o, d_e, o_cc = nominal_alpha(ann, ann.item_weight)
    elif metric == "ratio":
        value, d_o, d_e = ratio_alpha(ann, _ratio_values(values, ann.n_categories),
                                      ann.item_weight)
    else:
        value, d_o, d_e = moment_alpha(ratings, ann.n_items, ann.n_categories, metric,
                                       None if values is None else
                                       _values(values, ann.n_categories, metric),
                                       ann.item_weight)
    n = float(n_c.sum())
    note = ""
    if np.isnan(value) and np.count_nonzero(n_c) <= 1:
        note = ("α is undefined (0/0): all pairable values fall in one category, so there is "
                "no variation to measure agreement against (D_e = 0)")
    elif np.isnan(value):
        note = ("α is undefined (0/0): the distances δ between the categories used are all "
                "0 under this metric, so D_e = 0")
    elif not 0 < d_e < np.inf:
        note = ("D_o and D_e lie outside the float range (reported as infinity or 0), but "
                "α is exact: it is computed on the category values divided by their "
                "largest magnitude")
    with np.errstate(invalid="ignore", divide="ignore"):
        per_category = pd.DataFrame({"n_c": n_c, "share": n_c / n} if o_cc is None else
                                    {"n_c": n_c, "share": n_c / n,
                                     "o_cc/n_c": np.where(n_c > 0, o_cc / n_c, np.nan)},
                                    index=ann.categories)
    excluded = {"items with a single rating (unpairable)": int(times[m == 1].sum()),
                "items with no rating": int(times[m == 0].sum()), **dropped}
    params = {"metric": _metric_name(metric), "missing": missing}
    if o is None:
        note = (note + "; " if note else "") + (
            f"{ann.n_categories:,} distinct values: α computed without the coincidence "
            "matrix (" + ("D_e summed over the values in blocks" if metric == "ratio" else
                          "per-item counts" if metric == "nominal" else
                          "per-item moments" + (" of mid-ranks" if metric == "ordinal"
                                                else "")) + "); params has no "
            "'coincidences' table" + ("" if o_cc is not None else
                                      " and per_category no o_cc/n_c (it would need the "
                                      "ratings sorted by item and value)"))
    else:
        params["coincidences"] = pd.DataFrame(o, index=ann.categories, columns=ann.categories)
    note, params = noted(ann, note, params)
    return AgreementResult(
        measure="krippendorff_alpha", value=value, observed=d_o, expected=d_e,
        n_items=int(times[pairable].sum()), n_annotators=ann.n_annotators, n_ratings=int(round(n)),
        scale="disagreement",
        excluded={reason: count for reason, count in excluded.items() if count},
        params=params, per_category=per_category, note=note,
        resample=partial(_resampled, ann, metric, missing))


def _resampled(ann, metric, missing, n_resamples: int = 1000, seed=0):
    """α bootstrapped over the same items (its Statistic, the draws of
    :func:`iaa_widgets.bootstrap`): the standard error that
    :meth:`AgreementResult.benchmark` reads, α having no analytic one."""
    from ...stats.resampling import spread
    return spread(_alpha_statistic(ann, metric, missing=missing), n_resamples, seed)


def _alpha_statistic(data, metric: Metric = "nominal", *,
                     missing: str = "pairable") -> Statistic:
    """α's Statistic. Interval: per item its moments (m_i, Σ v, Σ v²) and its share of
    n·D_o, four cells whatever the number of values; nominal, ordinal and ratio on more than
    ``MANY_VALUES`` values: :func:`~iaa_widgets.measures.continuous.alpha_values.values_statistic`
    (ordinal exact with each resample's own mid-ranks). Ordinal on fewer (δ depends on the
    resample's n_c): per pairable item its
    coincidences n_ic (n_ik − [c = k]) / (m_i − 1) (Krippendorff 2011), finished by
    :func:`alpha_from_coincidences` of their sum. Every other metric (δ fixed): per
    pairable item its share of Σ o_ck δ_ck, (n_i δ n_iᵀ − n_i · diag δ) / (m_i − 1), and
    its values n_ic: K + 1 cells an item instead of K² (a resample's totals no larger
    than the categories, however many there are)."""
    validate.name_or_matrix("krippendorff_alpha", "metric", metric, METRICS, function=True)
    ann = complete(data, "krippendorff_alpha", missing)[0]
    values = category_values(ann, metric)
    k = ann.n_categories
    if isinstance(metric, str) and metric == "interval" or many_values(metric, k):  # moments
        return values_statistic(ann, metric, None if metric in ("ordinal", "nominal") else
                                _ratio_values(values, k) if metric == "ratio" else
                                _values(values, k, metric))
    if isinstance(metric, str) and metric == "ordinal":
        return Statistic({"o": coincidence_table(item_counts(ann))}, {"o": (k, k)},
                         lambda tot: alpha_from_coincidences(tot["o"], metric, values),
                         ann.item_weight)
    delta, unit = _delta(metric, np.zeros(k), values)
    counts = item_counts_for_pairs(ann)  # dense, or CSR for many categories
    if isinstance(counts, np.ndarray):
        row, cat = np.nonzero(counts)
        n_ic = counts[row, cat].astype(float)
    else:
        entries = counts.tocoo()  # by item (canonical CSR)
        row, cat, n_ic = entries.row, entries.col, entries.data.astype(float)
    n = ann.n_items
    m = np.bincount(row, weights=n_ic, minlength=n)
    g = np.divide(1.0, m - 1, out=np.zeros_like(m), where=m >= 2)  # 1/(m_i − 1), 0 if unpairable
    keep = g[row] > 0
    row, cat, n_ic = row[keep], cat[keep], n_ic[keep]
    a, b = entry_pairs(row, n)  # the ordered pairs of categories within each item
    observed = g * np.bincount(row[a], weights=n_ic[a] * (n_ic[b] - (a == b)) *
                               delta[cat[a], cat[b]], minlength=n)  # Σ_ck o_ick δ_ck
    return Statistic({"observed": observed[:, None], "n_c": per_item(row, cat, n, k, n_ic)},
                     {"observed": (1,), "n_c": (k,)},
                     lambda tot: _alpha_of(tot["n_c"], tot["observed"][..., 0], delta, unit),
                     ann.item_weight)


krippendorff_alpha.statistic = _alpha_statistic
