"""Annotator × annotator matrices of a two-annotator coefficient.

What a coefficient reads of each pair's K × K table, over the items both annotators
rated, is made for all annotator pairs at once by ``stats.pair_margins``: Σ_jk v_jk t_jk
(v the agreement weights, or α's δ_jk + δ_kj) and the margins t_j·, t_·k, 2K + 1
numbers a pair instead of K² (P × K × K tables were refused beyond 2e8 cells: 10
annotators and 2,100 labels); ordinal α, whose δ depends on the margins, reads the
P × K × K tables of ``stats.pair_contingencies``. The coefficient is then one vectorised
evaluation over the leading axis: the ``finish`` of the Statistic whose per-item tables
are those of each pair the item is rated by (``pairwise.statistic``), which gives the
bootstrap intervals of every pair at once (``ci=``).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from ... import stats, validate
from ...stats import Statistic, per_item
from ...data import as_annotations, noted
from ...errors import AgreementError, rows_text
from ...results import PairwiseMatrix
from ...stats.lazy import SufficientStatistics
from .. import _formulas as F
from .._order import by_label
from ..weights import agreement_weights
from .. import _registry

__all__ = ["pairwise"]


@_registry.kernel("percent_agreement")
def _percent(t):
    return F.table_observed(t)


@_registry.kernel("bennett_s")
def _bennett(t):
    return F.chance_corrected(F.table_observed(t), F.bennett_expected(t))


@_registry.kernel("scott_pi")
def _scott(t):
    return F.chance_corrected(F.table_observed(t), F.scott_expected(t))


@_registry.kernel("cohen_kappa", ("weights",))
def _cohen(t, weights=None):
    w = np.eye(t.shape[-1]) if weights is None else weights  # resolved by pairwise
    return F.chance_corrected(F.table_observed(t, w), F.cohen_expected(t, w))


@_registry.kernel("krippendorff_alpha", ("metric", "category_values"))
def _alpha(t, metric="nominal", category_values=None):
    from ..continuous.alpha import alpha_from_coincidences
    # a pair's coincidences are its contingency table plus its transpose
    # (Krippendorff 2011, "coincidence matrix"); items rated by one only are unpairable
    value, _, _ = alpha_from_coincidences(t + np.swapaxes(t, -1, -2), metric,
                                          category_values=category_values)
    return value


# the same kernels from a pair's totals ``agree`` = Σ_jk v_jk t_jk (v: the cell
# weights of :func:`_cells`), t_j· and t_·k: 2K + 1 numbers a pair, not K²
@_registry.margin_kernel("percent_agreement")
def _margins_percent(agree, row, col):
    return F.margins_observed(agree, row)


@_registry.margin_kernel("bennett_s")
def _margins_bennett(agree, row, col):
    return F.chance_corrected(F.margins_observed(agree, row), 1.0 / row.shape[-1])


@_registry.margin_kernel("scott_pi")
def _margins_scott(agree, row, col):
    return F.chance_corrected(F.margins_observed(agree, row), F.margins_scott_expected(row, col))


@_registry.margin_kernel("cohen_kappa")
def _margins_cohen(agree, row, col, weights=None):
    return F.chance_corrected(F.margins_observed(agree, row),
                              F.margins_cohen_expected(row, col, weights))


@_registry.margin_kernel("krippendorff_alpha")
def _margins_alpha(agree, row, col, delta=None, unit=1.0):
    from ..continuous.alpha import _alpha_of
    # o = t + tᵀ: n_c = t_c· + t_·c and Σ o_ck δ_ck = Σ t_ck (δ_ck + δ_kc) (``agree``)
    return _alpha_of(row + col, agree, delta, unit)[0]


# name -> (vectorised formula over P × K × K tables, keyword arguments it accepts) and
# name -> its formula over the margins: the kernels registered above (measures/_registry.py)
KERNELS: dict[str, tuple[Callable, tuple]] = _registry.kernels()
MARGINS: dict[str, Callable] = _registry.margin_kernels()


@validate.takes(level="confidence")
def pairwise(data, measure="cohen_kappa", *, missing: str = "pairwise",
             diagonal: float = np.nan, ci: str | None = None, confidence: float = 0.95,
             n_resamples: int = 1000, seed=None, **kwargs) -> PairwiseMatrix:
    r"""A symmetric annotator × annotator table of a measure on every pair of annotators.

    Datasaur's labeler/reviewer matrix. The named measures are evaluated for all pairs
    at once from their contingency tables; a callable is called once per pair.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame or SufficientStatistics
        The ratings: [Annotations][iaa_widgets.Annotations], or a tidy table with columns
        ``item``, ``annotator``, ``label``; or
        [sufficient_statistics][iaa_widgets.sufficient_statistics] made with their pair
        tables (each pair's table kept as counts; no ``ci=``). Anonymous data from
        ``Annotations.from_counts`` are refused.
    measure : str or callable, default "cohen_kappa"
        "percent_agreement", "bennett_s", "scott_pi", "cohen_kappa" (with ``weights=``) or
        "krippendorff_alpha" (with ``metric=``); or a callable
        ``measure(annotations, **kwargs)`` returning a number or an AgreementResult (a
        Python loop over pairs, so slower).
    missing : {"pairwise", "listwise", "raise"}, default "pairwise"
        "pairwise": for each pair, the items both annotators rated. "listwise": only the
        items every annotator rated, so that all cells share the same items (refused when
        no item is). "raise": refuse data with a missing rating.
    diagonal : float, default nan
        The value of the annotator-with-itself cells.
    ci : {None, "percentile", "bca"}, default None
        Add bootstrap intervals for every pair at once (named measures only): a resample
        draws items, and each pair uses the drawn items both annotators rated.
    confidence : float, default 0.95
        Level of the bootstrap intervals, in (0, 1). ``level=``, its former name, works
        for one more release with a DeprecationWarning.
    n_resamples : int, default 1000
        Number of bootstrap resamples (at least 2), with ``ci``.
    seed : int or sequence of int or numpy.random.SeedSequence or numpy.random.Generator, optional
        Seed of the bootstrap, with ``ci``: anything `numpy.random.default_rng` takes
        (an integer ≥ 0, a sequence of them, a SeedSequence, BitGenerator or
        Generator); None: fresh entropy.
    **kwargs
        Keywords of the measure: ``weights`` (cohen_kappa), ``metric`` and
        ``category_values`` (krippendorff_alpha; for "interval" and "ratio" the
        categories' numeric values, and for a callable metric the labels, are used unless
        ``category_values`` is given), or any keyword of a callable measure. Weight and
        distance matrices are aligned by label (a DataFrame), or need a declared order (a
        bare array).

    Returns
    -------
    PairwiseMatrix
        A DataFrame whose index and columns are the annotators, with ``.chart()`` (its
        heatmap). A pair with no item in common, or whose expected agreement is 1, gets
        NaN. ``attrs``: ``measure``, ``n_items`` (items each pair shares, a list of rows in
        the annotators' order), ``params``, ``note`` (look-alike or blank labels, empty if
        nothing); with ``ci``: ``ci_low``, ``ci_high``, ``se``, ``n_undefined`` (resamples
        where the pair's value is undefined), as lists of rows (NaN on the diagonal),
        ``ci_method`` and ``seed``.

    Raises
    ------
    AgreementError
        If ``measure`` is neither a named measure above nor a callable, ``ci`` is asked for
        a callable, a parameter is outside the values listed above, the data come from
        ``Annotations.from_counts``, or no item is rated by every annotator under
        "listwise".

    See Also
    --------
    iaa_widgets.cohen_kappa : κ of one pair.
    iaa_widgets.light_kappa : The mean of the pairs' κ.
    iaa_widgets.davies_fleiss_kappa : One multi-rater κ for all annotators.
    iaa_widgets.bootstrap : Bootstrap intervals of any measure.
    iaa_widgets.ContingencyMatrix : A pair's table, live.

    Notes
    -----
    Cell $(a, b)$ is the measure on the $n_{ab}$ items both annotators rated (or every
    annotator rated, under "listwise"), computed from the pair's K × K table
    $t_{ab}[j, k] = \#\{i : x_{ia} = j,\ x_{ib} = k\}$; e.g. for Cohen's κ

    $$\kappa_{ab} = \frac{A_{o,ab} - A_{e,ab}}{1 - A_{e,ab}}, \quad
    A_{o,ab} = \frac{\sum_j t_{ab}[j, j]}{n_{ab}}, \quad
    A_{e,ab} = \sum_j \frac{t_{ab}[j, \cdot]\, t_{ab}[\cdot, j]}{n_{ab}^2} .$$

    The bootstrap resamples are item weights on ``pairwise.statistic(data, measure,
    **kwargs)`` (per item, one cell of each pair's table), not rebuilt data; they give
    exactly what recomputing the matrix on the rebuilt data would.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational
    and Psychological Measurement*, 20(1), 37–46.
    https://doi.org/10.1177/001316446002000104

    Datasaur. *Krippendorff's Alpha Calculation*: how Datasaur arranges the labels
    of labelers and reviewers into its Inter-annotator Agreement matrix. Datasaur
    documentation.

    Examples
    --------
    Meyer's three raters of ten word pairs: r1 and r2 are the slide's table, κ = 0.16/0.46
    (printed 0.348); r1–r3 and r2–r3 by the same formula from their tables.

    >>> m = iaa.pairwise(iaa.datasets.meyer_relatedness())
    >>> m.round(4)
    annotator      r1      r2      r3
    annotator
    r1            NaN  0.3478  0.0741
    r2         0.3478     NaN -0.1538
    r3         0.0741 -0.1538     NaN
    >>> m.attrs["n_items"][0]
    [0, 10, 10]
    """
    if not callable(measure) and not (isinstance(measure, str) and measure in KERNELS):
        validate.fail("pairwise", "measure", f"one of {list(KERNELS)!r} or a callable (for "
                      "all annotators at once use fleiss_kappa, davies_fleiss_kappa or "
                      "krippendorff_alpha)", measure)
    diagonal = validate.real("pairwise", "diagonal", diagonal, nan=True)
    if ci is not None:
        validate.choice("pairwise", "ci", ci, ("percentile", "bca"))
        if callable(measure):
            raise AgreementError("pairwise: ci= bootstraps the named measures "
                                 f"{list(KERNELS)!r}; for a callable use "
                                 "bootstrap(data.select_annotators([a, b]), measure) per pair")
        n_resamples = validate.integer("pairwise", "n_resamples", n_resamples, minimum=2)
        level = validate.confidence("pairwise", "confidence", confidence)
        validate.seed("pairwise", "seed", seed)
    engine = isinstance(data, SufficientStatistics)
    ann = _used(_pair_tables(data, missing, ci) if engine else data,
                "pairwise" if engine else missing)
    pairs = stats.all_pairs(ann.n_annotators)
    extra = {}
    if callable(measure):
        shared = stats.pair_margins(ann, pairs)[1].sum(axis=1)
        values = np.array([
            float(measure(ann.select_annotators(ann.annotators[list(p)]), **kwargs))
            if n else np.nan for p, n in zip(pairs, shared)])
        name = getattr(measure, "__name__", "measure")
    else:  # one of KERNELS (validated above)
        finish, kwargs, cells = _finish(ann, measure, kwargs)
        stat = None if ci is None else _statistic(ann, pairs, finish, cells)
        if cells is False:  # the kernel reads the whole tables (ordinal α)
            t = stats.pair_contingencies(ann, pairs).astype(float)
            tot, shared = {"t": t[None]}, t.sum(axis=(1, 2))
        else:  # the totals of the Statistic the intervals resample, if made
            tot = dict(zip(("agree", "row", "col"), (
                v[None] for v in stats.pair_margins(ann, pairs, cells)))) if stat is None \
                else {name: v[None] for name, v in stat.total().items()}
            shared = tot["row"][0].sum(axis=1)
        values = finish(tot)[0][0]  # the totals of the Statistic
        name = measure
        if ci is not None:
            extra = _intervals(stat, values, ci, level, n_resamples, seed)
    m = ann.n_annotators
    frame = PairwiseMatrix(_square(values, pairs, m, diagonal),
                           index=pd.Index(ann.annotators, name=None),
                           columns=pd.Index(ann.annotators, name=None))  # with .chart()
    frame.attrs["measure"] = name
    # attrs hold plain lists (pandas compares attrs when combining frames)
    frame.attrs["n_items"] = _square(shared, pairs, m, 0).astype(np.int64).tolist()
    frame.attrs["params"] = {k: np.asarray(v).tolist() if isinstance(v, np.ndarray) else v
                             for k, v in kwargs.items()} | {"missing": missing}
    frame.attrs["note"], frame.attrs["params"] = noted(ann, "", frame.attrs["params"])
    if engine:  # what the engine's table says of itself (blank labels)
        frame.attrs["note"] = "; ".join(filter(None, (*data.notes, frame.attrs["note"])))
    for key, value in extra.items():  # intervals: NaN on the diagonal; counts: 0
        if key == "n_undefined":
            value = _square(value, pairs, m, 0).astype(np.int64)
        elif isinstance(value, np.ndarray):
            value = _square(value, pairs, m, np.nan)
        frame.attrs[key] = value.tolist() if isinstance(value, np.ndarray) else value
    return frame


def _square(values: np.ndarray, pairs: np.ndarray, m: int, diagonal) -> np.ndarray:
    """An annotators × annotators matrix with ``values`` at each pair (both ways)."""
    out = np.full((m, m), diagonal, dtype=float)
    out[pairs[:, 0], pairs[:, 1]] = values
    out[pairs[:, 1], pairs[:, 0]] = values
    return out


def _pair_tables(s: SufficientStatistics, missing: str, ci):
    """The pair tables of sufficient statistics that ``missing`` uses, kept as counts
    (Annotations in which each pair's cells are items rated by that pair only)."""
    validate.choice("pairwise", "missing", missing, ("pairwise", "listwise", "raise"))
    if ci is not None:
        raise AgreementError("pairwise: ci= resamples the items, which sufficient statistics "
                             "do not hold; load the ratings in memory for intervals")
    short = int(s.sizes[:s.n_annotators].sum())  # items rated by fewer than all
    if missing == "raise" and short:
        raise AgreementError(f"pairwise: {short} item(s) lack a rating by some annotator; "
                             "pass missing='pairwise' or 'listwise'")
    tables = s.complete_pair_tables if missing == "listwise" else s.pair_tables
    if tables is None:
        raise AgreementError("pairwise: these statistics were made without pair tables; "
                             "call sufficient_statistics(..., pairs=True)")
    if not tables.any():
        raise AgreementError(f"pairwise: no item is rated by all {s.n_annotators} annotators, "
                             "so missing='listwise' leaves no item to compare; pass "
                             "missing='pairwise'" if missing == "listwise" else
                             "pairwise: no two annotators rated an item in common")
    return s.counted(s.pairs, tables, s.annotators)


def _used(data, missing: str):
    """The data whose items the pairs use under ``missing`` (listwise: the complete
    items' ratings only; every item keeps its row)."""
    validate.choice("pairwise", "missing", missing, ("pairwise", "listwise", "raise"))
    ann = as_annotations(data)
    if ann.anonymous:
        raise AgreementError("pairwise needs to know which annotator gave each label, but "
                             "this data was built from per-item counts "
                             "(Annotations.from_counts), where annotators are anonymous")
    rated = np.bincount(ann.primary().item, minlength=ann.n_items)
    complete = rated == ann.n_annotators
    if missing == "raise" and not complete.all():
        raise AgreementError(f"pairwise: {int((~complete).sum())} item(s) lack a rating by "
                             f"some annotator (items {rows_text(ann.items[~complete])}); pass "
                             "missing='pairwise' or 'listwise'")
    if missing == "listwise":
        if not complete.any():
            raise AgreementError(f"pairwise: no item is rated by all {ann.n_annotators} "
                                 "annotators, so missing='listwise' leaves no item to compare; "
                                 "pass missing='pairwise' to use, for each pair, the items "
                                 "both annotators rated")
        ann = ann._take(complete[ann.item])
    return ann


def _finish(ann, measure: str, kwargs: dict):
    """finish(totals) of a kernel → (values, NaN, NaN), B × P, NaN for a pair that shares
    no item; the keyword arguments as the result reports them (labelled matrices
    aligned); and the cell weights v of its totals (:func:`_cells`). The totals (with a
    leading resample axis) are the pairs' ``agree`` = Σ_jk v_jk t_jk, margins ``row``
    and ``col`` (B × P × K), or, where v is False (ordinal α, whose δ depends on the
    margins), the P × K × K tables ``t``."""
    kernel, accepted = KERNELS[measure]
    validate.keywords(f"pairwise({measure!r})", kwargs, accepted)
    kwargs = dict(kwargs)
    if measure == "krippendorff_alpha":
        from ..continuous.alpha import category_values
        metric = kwargs.get("metric", "nominal")
        labels = category_values(ann, metric)  # refuses an order nobody declared
        if isinstance(metric, pd.DataFrame):  # aligned by label, then by position
            kwargs["metric"] = by_label(metric, ann.categories, "the distance matrix")
        elif kwargs.get("category_values") is None and labels is not None:
            kwargs["category_values"] = labels
    args = dict(kwargs)
    if measure == "cohen_kappa":  # a labelled matrix aligned, an order declared
        args["weights"] = agreement_weights(kwargs.get("weights"), ann.categories,
                                              ann.ordered, "pairwise")[0]
        if isinstance(kwargs.get("weights"), pd.DataFrame):  # kept in category order
            kwargs["weights"] = args["weights"]

    cells, margin_args = _cells(ann, measure, args)

    def finish(tot):
        if cells is False:
            t = tot["t"]
            values, shared = np.asarray(kernel(t, **args), dtype=float), t.sum(axis=(-2, -1))
        else:
            values = np.asarray(MARGINS[measure](tot["agree"], tot["row"], tot["col"],
                                                 **margin_args), dtype=float)
            shared = tot["row"].sum(axis=-1)
        values = np.where(shared > 0, values, np.nan)
        return values, np.full_like(values, np.nan), np.full_like(values, np.nan)
    return finish, kwargs, cells


def _cells(ann, measure: str, args: dict):
    """The K × K weights v of the pairs of ratings that the kernel's ``agree`` totals
    (None: the identity, agreements counted) and the keyword arguments of its MARGINS
    kernel; False for ordinal α (its δ depends on the margins: it reads the tables)."""
    if measure == "cohen_kappa":
        w = args["weights"]
        identity = w.shape == (ann.n_categories,) * 2 and \
            np.array_equal(w, np.eye(len(w)))
        return (None, {}) if identity else (w, {"weights": w})
    if measure == "krippendorff_alpha":
        from ..continuous.alpha import _delta
        metric = args.get("metric", "nominal")
        if isinstance(metric, str) and metric == "ordinal":
            return False, {}
        delta, unit = _delta(metric, np.zeros(ann.n_categories), args.get("category_values"))
        delta = np.asarray(delta, dtype=float)
        return delta + delta.T, {"delta": delta, "unit": unit}
    return None, {}


def _statistic(ann, pairs: np.ndarray, finish, cells=False) -> Statistic:
    """Per item row and annotator pair p whose both annotators rated it: the weight
    v[x_ia, x_ib] of its pair of ratings in ``agree`` (P cells; 1 for an agreement where
    ``cells`` is None) and 1 in cell (p, x_ia) of ``row`` and (p, x_ib) of ``col``
    (P × K each; ``stats.pair_margins`` is their sum): P (2K + 1) cells an item. With
    ``cells`` False (ordinal α), 1 in cell (p, x_ia, x_ib) of the P × K × K tables
    (``stats.pair_contingencies`` is their sum), built over blocks of items, dense or
    CSR as :func:`stats.per_item` decides; the margins' tables are made from each
    annotator's ratings (:func:`_margins_statistic`)."""
    if cells is not False:
        return _margins_statistic(ann, pairs, finish, cells)
    x = ann._label_grid()
    k, n_pairs = ann.n_categories, len(pairs)
    base = np.arange(n_pairs) * k * k
    rows, at = [], []
    step = max(1, (1 << 22) // max(n_pairs, 1))  # items per block: bounded memory
    for start in range(0, len(x), step):
        a, b = x[start:start + step, pairs[:, 0]], x[start:start + step, pairs[:, 1]]
        both = (a >= 0) & (b >= 0)
        rows.append(np.nonzero(both)[0] + start)
        at.append((base + a * k + b)[both])
    table = per_item(np.concatenate(rows), np.concatenate(at), ann.n_items,
                     n_pairs * k * k)
    return Statistic({"t": table}, {"t": (n_pairs, k, k)}, finish, ann.item_weight)


def _margins_statistic(ann, pairs: np.ndarray, finish, cells) -> Statistic:
    """:func:`_statistic`'s ``agree``, ``row`` and ``col`` tables, made from each
    annotator's ratings (``stats.pairs.pair_tables``: dense where most pairs rate an
    item, the margins from the one-hot ratings)."""
    from ...stats.pairs import pair_tables
    k, n_pairs = ann.n_categories, len(pairs)
    return Statistic(pair_tables(ann, pairs, cells),
                     {"agree": (n_pairs,), "row": (n_pairs, k), "col": (n_pairs, k)},
                     finish, ann.item_weight)


def _pairwise_statistic(data, measure="cohen_kappa", *, missing: str = "pairwise",
                        diagonal: float = np.nan, **kwargs) -> Statistic:
    """pairwise's Statistic for a named ``measure`` (see :func:`_statistic`); its finish
    gives the B × P values of the pairs in ``stats.all_pairs`` order."""
    if not (isinstance(measure, str) and measure in KERNELS):
        validate.fail("pairwise.statistic", "measure", f"one of {list(KERNELS)!r}", measure)
    for key in ("ci", "confidence", "level", "n_resamples", "seed"):
        kwargs.pop(key, None)  # pairwise's own interval arguments: no part of the values
    ann = _used(data, missing)
    finish, _, cells = _finish(ann, measure, kwargs)
    return _statistic(ann, stats.all_pairs(ann.n_annotators), finish, cells)


def _intervals(stat: Statistic, values: np.ndarray, ci: str, level: float,
               n_resamples: int, seed) -> dict:
    """Bootstrap intervals of every pair at once (item weights on the Statistic)."""
    from ...stats.resampling import intervals, resampled
    if ci == "bca" and stat.weights is not None:
        raise AgreementError("ci='bca' leaves out one item at a time, but these data keep "
                             "items as weighted cells (from_contingency); use "
                             "ci='percentile'")
    boot = resampled(stat, n_resamples, np.random.default_rng(seed))
    low, high, se, undefined = intervals(boot, values, level, ci,
                                         stat.jackknife() if ci == "bca" else None)
    return {"ci_low": low, "ci_high": high, "se": se,
            "n_undefined": undefined,
            "ci_method": f"bootstrap {ci} {level:.0%}, {n_resamples} resamples of the items",
            "seed": seed}


pairwise.statistic = _pairwise_statistic
