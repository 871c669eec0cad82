"""Comparing agreement: two data sets on the same items (paired), two independent
samples, or several groups (``by=``), and the equality of precomputed coefficients."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import pandas as pd

from .. import validate
from ..data import Annotations, as_annotations
from ..errors import AgreementError
from ..results import Charted
from . import _homogeneity as H
from ._linearized import LINEARIZED, linear_terms

__all__ = ["compare", "ComparisonResult"]

METHODS = ("auto", "linearized", "bootstrap", "analytic", "goodness-of-fit", "homogeneity")
NAN = float("nan")


@dataclass(frozen=True)
class ComparisonResult(Charted):
    r"""Agreement compared between two data sets or several groups: estimates and a test.

    What `compare` returns: each group's estimate with its standard error, interval and
    items; for two groups the difference (second minus first) with its interval; the
    test's statistic and p-value; and how it was made.

    Parameters
    ----------
    measure : str
        The coefficient's name ("precomputed" for estimates computed elsewhere).
    method : str
        The test, in words (e.g. "paired linearized t (Gwet 2016)", "homogeneity χ²
        (Fleiss 1981) …").
    groups : tuple
        The groups' names, in order (0 and 1 for two data sets).
    estimates, estimate_se : tuple of float
        Each group's coefficient and its standard error.
    estimate_ci : tuple of tuple of float
        Each group's interval at ``level``.
    n_items : tuple of int
        The items each estimate rests on (0 for estimates computed elsewhere).
    difference : float
        The second group's estimate minus the first's (two groups); NaN for more.
    se : float
        The difference's standard error (two groups), or that of the pooled coefficient.
    ci : tuple of float
        The interval of ``difference`` at ``level`` (NaN for more than two groups).
    level : float
        The intervals' level, in (0, 1).
    statistic : float
        The test statistic.
    statistic_name : {"t", "z", "chi2"}
        Its distribution under the null.
    df : float
        Its degrees of freedom (NaN for z).
    p_value : float
        The test's p-value.
    paired : bool, default False
        The same items were rated in both data sets.
    n_resamples : int, default 0
        The bootstrap's resamples (0: an analytic test).
    resampled : str, default ""
        What the bootstrap drew: "items", "clusters", or "" for an analytic method.
    common : float, default NaN
        The pooled coefficient $\bar\kappa$ of a homogeneity test.
    excluded : tuple, default ()
        What each group's measure left out, and why.
    note : str, default ""
        Notes on the test (clusters, cut intervals, …).
    params : mapping, default {}
        The measure's options.

    Methods
    -------
    to_frame()
        One row per group (estimate, se, interval, items) and one for the test
        ("difference" for two groups, "homogeneity" for more).
    chart(**options)
        Each group's estimate with its interval, and the difference with its interval
        (Altair).

    See Also
    --------
    iaa_widgets.compare : Makes it.
    iaa_widgets.BootstrapResult : One coefficient's bootstrap.

    Notes
    -----
    Independent groups: $\mathrm{se} = \sqrt{\mathrm{se}_1^2 + \mathrm{se}_2^2}$,
    $z = \Delta / \mathrm{se}$. Several groups (Fleiss 1981, ch. 13):

    $$
    \chi^2 = \sum_j w_j (\hat\kappa_j - \bar\kappa)^2, \quad w_j = 1/\mathrm{se}_j^2,
    \quad \bar\kappa = \frac{\sum_j w_j \hat\kappa_j}{\sum_j w_j},
    $$

    on $J - 1$ degrees of freedom.

    References
    ----------
    Fleiss, J. L. (1981). Statistical Methods for Rates and Proportions, 2nd ed., ch. 13.
    Wiley. https://doi.org/10.1002/0471445428

    Gwet, K. L. (2016). Testing the difference of correlated agreement coefficients for
    statistical significance. Educational and Psychological Measurement, 76(4), 609–637.
    https://doi.org/10.1177/0013164415596420

    Examples
    --------
    >>> r = iaa.compare(estimates=[0.6, 0.75], se=[0.05, 0.06])
    >>> r.statistic_name, r.df
    ('chi2', 1)
    >>> # by hand: w = (400, 277.8), κ̄ = 0.6615, χ² = 400·0.0615² + 277.8·0.0885² = 3.689
    >>> round(r.common, 4), round(r.statistic, 3), round(r.p_value, 4)
    (0.6615, 3.689, 0.0548)
    """

    measure: str
    method: str
    groups: tuple
    estimates: tuple
    estimate_se: tuple
    estimate_ci: tuple
    n_items: tuple
    difference: float
    se: float
    ci: tuple
    level: float
    statistic: float
    statistic_name: str
    df: float
    p_value: float
    paired: bool = False
    n_resamples: int = 0
    resampled: str = ""
    common: float = NAN
    excluded: tuple = ()
    note: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """One row per group (estimate, se, interval, items) and one for the test
        ("difference" for two groups, "homogeneity" for more): its estimate, se,
        interval, statistic and p-value."""
        rows = [{"group": str(g), "estimate": e, "se": s, "ci_low": c[0], "ci_high": c[1],
                 "n_items": n} for g, e, s, c, n in zip(self.groups, self.estimates,
                                                        self.estimate_se, self.estimate_ci,
                                                        self.n_items)]
        two = len(self.groups) == 2
        rows.append({"group": "difference" if two else "homogeneity",
                     "estimate": self.difference if two else self.common, "se": self.se,
                     "ci_low": self.ci[0], "ci_high": self.ci[1],
                     "statistic": self.statistic, "df": self.df, "p_value": self.p_value})
        frame = pd.DataFrame(rows).set_index("group")
        frame.attrs.update(measure=self.measure, method=self.method, level=self.level)
        return frame

    def _repr_html_(self) -> str:
        from ..html import text
        head = text(f"{self.measure}: {self.method}, {self.level:.0%} intervals"
                      + (f"; {self.note}" if self.note else ""))
        return f"<p>{head}</p>" + self.to_frame().to_html(float_format=lambda v: f"{v:.4f}")

    def chart(self, **options):
        """Each group's estimate with its interval, and the difference with its interval
        (Altair; see :class:`~iaa_widgets.results.Charted`)."""
        from ..charts import register
        from ._compare_chart import comparison_chart
        register(ComparisonResult)(comparison_chart)
        return super().chart(**options)


def compare(data=None, other=None, measure: str = "fleiss_kappa", *, paired=None, by=None,
            method: str = "auto", cluster=None, confidence: float = 0.95,
            n_resamples: int = 2000, seed=None, estimates=None, se=None,
            **measure_kwargs) -> ComparisonResult:
    """Compare agreement between two data sets, between groups, or between coefficients
    computed elsewhere.

    Parameters
    ----------
    data, other : Annotations or tidy DataFrame (item, annotator, label)
        The two data sets; the difference is ``other`` minus ``data``.
    measure : str
        A coefficient of the registry (``iaa.coefficients()``), e.g. "fleiss_kappa".
    paired : bool or None
        True: the same items rated twice (two groups of raters, before and after
        adjudication, two guideline versions), matched by item id; False: independent
        samples. None: paired when both hold the same items, independent when they share
        none, refused when they share some.
    by : str or pandas.Series
        A column of ``data`` (or a Series item → group) naming groups of items to test
        for equal agreement (``other`` not given).
    method : str
        "auto"; paired: "linearized" (Gwet 2016; percent agreement, Brennan–Prediger,
        Fleiss, Conger, AC1/AC2, α with a fixed metric) or "bootstrap" (any measure with
        a Statistic); independent: "analytic" (the measures' standard errors),
        "bootstrap" or "goodness-of-fit" (binary κ of two ratings per item); groups:
        "homogeneity" or "goodness-of-fit".
    cluster : str or pandas.Series
        A column (or a Series item → cluster) of clusters of items (tokens in documents,
        items in batches): the bootstrap draws whole clusters, the linearised test sums
        the terms per cluster.
    confidence : float
        The level of the intervals.
    n_resamples : int, default 2000
        The bootstrap's resamples.
    seed : int, numpy.random.Generator or None, optional
        The bootstrap's random seed.
    estimates, se : Mapping or sequence
        Coefficients computed elsewhere and their standard errors (no data): Fleiss'
        (1981) homogeneity test.
    **measure_kwargs
        Passed to the measure (``weights=``, ``missing=``, ``metric=`` …); any other
        keyword is refused.

    Returns
    -------
    ComparisonResult
        Each group's ``.estimates`` (with ``.estimate_se``, ``.estimate_ci``,
        ``.n_items``), the ``.difference`` with its ``.se`` and ``.ci``, the test's
        ``.statistic``, ``.df`` and ``.p_value``, and the ``.method``.

    Raises
    ------
    AgreementError
        Paired data whose items do not match (naming them), an unknown keyword or
        measure, a method the measure or the data cannot take.

    See Also
    --------
    iaa_widgets.bootstrap : the interval of one coefficient.
    iaa_widgets.sample_size : how many items a study needs.

    Notes
    -----
    Paired, linearised (Gwet 2016): with κ*_ji the linearised terms of data set j
    (mean κ̂_j) and d_i = κ*_2i − κ*_1i over the n items, t = d̄ / (s_d/√n) on n − 1
    degrees of freedom; with clusters, s_d²/n is replaced by G/(G − 1) Σ_g D_g² / n²,
    D_g the sum of d_i − d̄ over cluster g, on G − 1 degrees of freedom. Bootstrap:
    the same draws of items (or clusters) for both data sets, the percentile interval
    of κ̂*_2 − κ̂*_1, its standard deviation as se, z = difference/se, and the p-value
    2 min(P*(Δ ≤ 0), P*(Δ ≥ 0)) at which the percentile interval reaches 0.
    Independent: se = √(se_1² + se_2²), z = difference/se, normal interval.
    Groups: χ² = Σ_j w_j (κ̂_j − κ̄)², w_j = 1/se_j² (Fleiss 1981), on J − 1 df.

    References
    ----------
    Gwet, K. L. (2016). Testing the difference of correlated agreement coefficients for
    statistical significance. *Educational and Psychological Measurement* 76(4),
    609–637. doi:10.1177/0013164415596420

    Donner, A., Eliasziw, M. & Klar, N. (1996). Testing the homogeneity of kappa
    statistics. *Biometrics* 52(1), 176–183. doi:10.2307/2533154

    Fleiss, J. L. (1981). *Statistical Methods for Rates and Proportions*, 2nd ed.,
    ch. 13. Wiley. doi:10.1002/0471445428

    Examples
    --------
    >>> import pandas as pd, iaa_widgets as iaa
    >>> first = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4],
    ...                       "annotator": ["a", "b"] * 4,
    ...                       "label": ["x", "x", "y", "x", "y", "y", "x", "y"]})
    >>> second = first.assign(label=["x", "x", "y", "y", "y", "y", "x", "x"])
    >>> r = iaa.compare(first, second, "percent_agreement")
    >>> round(r.difference, 2), r.statistic_name
    (0.5, 't')
    """
    level = validate.confidence("compare", "confidence", confidence)
    validate.choice("compare", "method", method, METHODS)
    if estimates is not None or se is not None:
        if data is not None or other is not None or by is not None or measure_kwargs:
            raise AgreementError("compare: estimates= and se= compare coefficients computed "
                                 "elsewhere; pass them without data, other, by or measure "
                                 "options")
        return _precomputed(estimates, se, level, method)
    from ..measures import _registry
    m = _registry.find(measure) if isinstance(measure, str) else None
    if m is None:
        validate.fail("compare", "measure", "the name of a coefficient of iaa_widgets "
                      "(iaa.coefficients())", measure)
    validate.keywords("compare", measure_kwargs,
                      [k for k in m.keywords if k != "confidence"])
    n_resamples = validate.integer("compare", "n_resamples", n_resamples, minimum=2)
    validate.seed("compare", "seed", seed)
    if data is None:
        raise AgreementError("compare: pass the data (and other, or by=), or estimates= and "
                             "se=")
    ctx = _Context(m, measure_kwargs, level, n_resamples, seed, method)
    if by is not None:
        if other is not None:
            raise AgreementError("compare: by= compares groups within data; pass other= or "
                                 "by=, not both")
        return _groups(ctx, data, by, cluster)
    if other is None:
        raise AgreementError("compare: pass other= (a second data set) or by= (groups)")
    a, ca = _split_column(data, cluster, "cluster")
    b, cb = _split_column(other, cluster, "cluster")
    a, b = as_annotations(a), as_annotations(b)
    shared = a.items.intersection(b.items)
    if paired is None:
        if len(shared) and (len(shared) < len(a.items) or len(shared) < len(b.items)):
            raise AgreementError(
                f"compare: data and other share {len(shared)} of their items "
                f"({len(a.items)} and {len(b.items)}): pass paired=True (the same items: the "
                f"mismatch is then named) or paired=False (independent samples)")
        paired = bool(len(shared))
    validate.boolean("compare", "paired", paired)
    if paired:
        return _paired(ctx, a, b, ca)
    return _independent(ctx, a, b, (ca, cb))


@dataclass(frozen=True)
class _Context:
    measure: Any
    kwargs: dict
    level: float
    n_resamples: int
    seed: Any
    method: str


def _split_column(data, column, what: str):
    """(data without ``column``, item → value Series) for a column name; (data, Series)
    for a Series; (data, None) for None."""
    if column is None:
        return data, None
    if isinstance(column, pd.Series):
        return data, column
    if not isinstance(column, str):
        validate.fail("compare", what, "a column name or a pandas Series item → "
                      f"{what}", column)
    if not isinstance(data, pd.DataFrame) or column not in data.columns:
        raise AgreementError(f"compare: {what}={column!r} names a column, but the data "
                             f"{'has no such column' if isinstance(data, pd.DataFrame) else 'are not a DataFrame'}"
                             "; pass a pandas Series mapping each item to its " + what)
    per_item = data.groupby("item", sort=False)[column]
    if (per_item.nunique(dropna=False) > 1).any():
        bad = list(per_item.nunique(dropna=False).pipe(lambda s: s[s > 1]).index[:5])
        raise AgreementError(f"compare: {what} column {column!r} gives an item more than one "
                             f"value (items {bad}); each item belongs to one {what}")
    return data.drop(columns=[column]), per_item.first()


def _codes(mapping: pd.Series | None, items: pd.Index, what: str = "cluster"):
    """The integer cluster of each item (None without clusters); an item without one is
    refused, named."""
    if mapping is None:
        return None
    values = mapping.reindex(items)
    if values.isna().any():
        missing = list(items[values.isna().to_numpy()][:5])
        raise AgreementError(f"compare: {int(values.isna().sum())} item(s) have no {what} "
                             f"(items {missing}); map every item to its {what}")
    return pd.factorize(values, sort=False)[0]


def _two_sided_t(t: float, df: float) -> float:
    from scipy.special import stdtr
    return float(2 * stdtr(df, -abs(t))) if math.isfinite(t) else NAN


def _two_sided_z(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2)) if math.isfinite(z) else NAN


def _z(level: float) -> float:
    from scipy.special import ndtri
    return float(ndtri(0.5 + level / 2))


def _mismatch(first: pd.Index, second: pd.Index, what: str) -> None:
    only1, only2 = first.difference(second), second.difference(first)
    if len(only1) or len(only2):
        def shown(ix):
            return ", ".join(map(repr, list(ix[:5]))) + (" …" if len(ix) > 5 else "")
        raise AgreementError(
            f"compare(paired=True): the {what} do not match: {len(only1)} only in data"
            + (f" ({shown(only1)})" if len(only1) else "") + f", {len(only2)} only in other"
            + (f" ({shown(only2)})" if len(only2) else "") + "; a paired comparison needs "
            "the same items in both (after the measure's missing-data policy), or compare "
            "independent samples with paired=False")


def _paired(ctx: _Context, a: Annotations, b: Annotations, clusters) -> ComparisonResult:
    name = ctx.measure.name
    method = ctx.method
    if method == "auto":
        method = "linearized" if name in LINEARIZED and _fixed_metric(ctx) else "bootstrap"
    validate.choice("compare", "method", method, ("linearized", "bootstrap"))
    if method == "bootstrap":
        return _paired_bootstrap(ctx, a, b, clusters)
    if name not in LINEARIZED:
        raise AgreementError(f"compare: method='linearized' covers {', '.join(LINEARIZED)}; "
                             f"use method='bootstrap' for {name}")
    kwargs = {k: v for k, v in ctx.kwargs.items() if k != "population"}
    first, second = linear_terms(name, a, **kwargs), linear_terms(name, b, **kwargs)
    _mismatch(first.items, second.items, "items used")
    t1 = first.terms
    t2 = pd.Series(second.terms, index=second.items).reindex(first.items).to_numpy()
    d = t2 - t1
    n = len(d)
    codes = _codes(clusters, first.items)
    if codes is None:
        se, df = float(np.std(d, ddof=1) / math.sqrt(n)), n - 1
    else:  # cluster-robust: G/(G − 1) Σ_g D_g² / n², D_g = Σ_{i∈g} (d_i − d̄)
        g = int(codes.max()) + 1
        sums = np.bincount(codes, weights=d - d.mean(), minlength=g)
        se, df = math.sqrt(g / (g - 1) * np.sum(sums ** 2)) / n if g > 1 else NAN, g - 1
    from scipy.special import stdtrit
    diff = float(d.mean())
    t = diff / se if se > 0 else NAN
    half = float(stdtrit(df, 0.5 + ctx.level / 2)) * se if df >= 1 else NAN
    ests = (first.estimate, float(t2.mean()))
    ses = tuple(float(np.std(x, ddof=1) / math.sqrt(n)) for x in (t1, t2))
    return ComparisonResult(
        measure=name, method="paired t-test on linearised terms (Gwet 2016)"
        + (", clustered" if codes is not None else ""),
        groups=("data", "other"), estimates=ests, estimate_se=ses,
        estimate_ci=tuple((e - s * _z(ctx.level), e + s * _z(ctx.level))
                          for e, s in zip(ests, ses)),
        n_items=(n, n), difference=diff, se=se, ci=(diff - half, diff + half),
        level=ctx.level, statistic=t, statistic_name="t", df=df,
        p_value=_two_sided_t(t, df), paired=True,
        resampled="", excluded=(first.excluded, second.excluded),
        params={**ctx.kwargs, "clusters": None if codes is None else int(codes.max()) + 1})


def _fixed_metric(ctx: _Context) -> bool:
    """Whether α's metric has a fixed δ (the linearised terms need one)."""
    metric = ctx.kwargs.get("metric", "nominal")
    return ctx.measure.name != "krippendorff_alpha" or not (
        isinstance(metric, str) and metric == "ordinal")


def _statistic(ctx: _Context, ann: Annotations):
    make = ctx.measure.statistic
    if make is None:
        raise AgreementError(f"compare: {ctx.measure.name} has no Statistic to resample; "
                             "the bootstrap of compare covers the measures with one")
    return make(ann, **ctx.kwargs)


def _bootstrap_summary(values1, values2, level: float):
    """(difference values, se, interval, z, p) of resampled pairs of values."""
    from ..stats.resampling import intervals
    delta = values2 - values1
    low, high, se, _ = intervals(delta[:, None], NAN, level)
    ok = delta[~np.isnan(delta)]
    if len(ok) < 2:
        raise AgreementError("compare: the difference is undefined on nearly every "
                             "resample; too few items vary to bootstrap")
    p = min(1.0, 2 * min(np.mean(ok <= 0), np.mean(ok >= 0)))
    return float(se[0]), (float(low[0]), float(high[0])), float(p)


def _paired_bootstrap(ctx, a: Annotations, b: Annotations, clusters) -> ComparisonResult:
    _mismatch(a.items, b.items, "items")
    s1, s2 = _statistic(ctx, a), _statistic(ctx, b)
    at = pd.Index(a.items).get_indexer(b.items)  # other's item j is data's item at[j]
    codes = _codes(clusters, a.items)
    from ..stats.resampling import _one_blas_thread, _weight_blocks, cluster_weight_blocks
    rng = np.random.default_rng(ctx.seed)
    blocks = _weight_blocks(rng, s1, ctx.n_resamples) if codes is None else \
        cluster_weight_blocks(rng, codes, ctx.n_resamples)  # the draws of iaa.bootstrap
    v1, v2 = [], []
    with _one_blas_thread():
        for w in blocks:  # the same items (or clusters) drawn for both data sets
            v1.append(s1.values(w))
            v2.append(s2.values(w[:, at]))
    v1, v2 = np.concatenate(v1), np.concatenate(v2)
    se, ci, p = _bootstrap_summary(v1, v2, ctx.level)
    est = tuple(float(s.values(s.base[None])[0]) for s in (s1, s2))
    diff = est[1] - est[0]
    from ..stats.resampling import intervals
    lo, hi, ses, _ = intervals(np.stack([v1, v2], axis=1), np.array(est), ctx.level)
    return ComparisonResult(
        measure=ctx.measure.name, method="paired bootstrap (percentile)", groups=("data", "other"),
        estimates=est, estimate_se=tuple(map(float, ses)),
        estimate_ci=((float(lo[0]), float(hi[0])), (float(lo[1]), float(hi[1]))),
        n_items=(a.n_items, b.n_items), difference=diff, se=se, ci=ci, level=ctx.level,
        statistic=diff / se if se > 0 else NAN, statistic_name="z", df=NAN, p_value=p,
        paired=True, n_resamples=ctx.n_resamples,
        resampled="items" if codes is None else "clusters",
        params={**ctx.kwargs, "seed": ctx.seed})


def _binary_counts(ann: Annotations, categories) -> tuple[np.ndarray, dict]:
    """(n₂, n₁, n₀) of binary data of two ratings per item, the first of ``categories``
    counted as positive; items with another number of ratings are excluded, counted."""
    from ..stats import item_counts
    if ann.n_categories > 2 or (categories is not None and
                                list(ann.categories) != list(categories)):
        raise AgreementError(
            "compare(method='goodness-of-fit') tests binary κ (Donner, Eliasziw & Klar "
            f"1996): the same two categories in every group, got {list(ann.categories)}"
            + (f" and {list(categories)}" if categories is not None else ""))
    counts = np.asarray(item_counts(ann.primary()), float)
    if counts.shape[1] == 1:
        counts = np.column_stack([counts, np.zeros(len(counts))])
    two = counts.sum(axis=1) == 2
    pos = counts[two, 0]
    excluded = {"items without exactly two ratings": int(np.sum(~two))}
    return np.array([np.sum(pos == 2), np.sum(pos == 1), np.sum(pos == 0)]), \
        {k: v for k, v in excluded.items() if v}


def _gof(ctx, groups: list, names: tuple) -> ComparisonResult:
    cats = list(groups[0].categories)
    tables, excluded = zip(*(_binary_counts(g, cats) for g in groups))
    n2, n1, n0 = np.array(tables, float).T
    kappa, p = H.binary_counts_kappa(n2, n1, n0)
    n = n2 + n1 + n0
    var = H.fleiss_binary_variance(kappa, p, n)
    chi2, p_value, df, common = H.donner_gof(n2, n1, n0)
    return _summary(ctx, names, kappa, np.sqrt(var), n.astype(int), chi2, p_value, df,
                    common, "goodness-of-fit test of binary κ (Donner, Eliasziw & Klar 1996)",
                    excluded, measure="binary intraclass κ (Scott's π)")


def _summary(ctx, names, estimates, ses, n_items, chi2, p_value, df, common, method,
             excluded, measure=None, resampled="", n_resamples=0) -> ComparisonResult:
    """A test of J groups: with two, the difference and its normal interval too."""
    z = _z(ctx.level)
    est, ses = np.asarray(estimates, float), np.asarray(ses, float)
    diff = se = NAN
    ci = (NAN, NAN)
    if len(est) == 2:
        diff, se = float(est[1] - est[0]), float(math.hypot(*ses))
        ci = (diff - z * se, diff + z * se)
    return ComparisonResult(
        measure=measure or ctx.measure.name, method=method, groups=tuple(names),
        estimates=tuple(map(float, est)), estimate_se=tuple(map(float, ses)),
        estimate_ci=tuple((float(e - z * s), float(e + z * s)) for e, s in zip(est, ses)),
        n_items=tuple(int(x) for x in n_items), difference=diff, se=se, ci=ci,
        level=ctx.level, statistic=float(chi2), statistic_name="chi2", df=df,
        p_value=float(p_value), common=float(common), excluded=tuple(excluded),
        resampled=resampled, n_resamples=n_resamples, params=dict(ctx.kwargs))


def _estimates(ctx, groups: list, clusters: list, boot: bool):
    """Each group's estimate and standard error: the measure's own (analytic) or, with
    ``boot``, the bootstrap's over items or clusters; and what each excluded."""
    from ..stats.resampling import resampled
    est, ses, excluded = [], [], []
    rng = np.random.default_rng(ctx.seed)
    for ann, cl in zip(groups, clusters):
        result = ctx.measure.function(ann, **ctx.kwargs)
        est.append(float(getattr(result, "value", result)))
        excluded.append(dict(getattr(result, "excluded", {}) or {}))
        if boot:
            stat = _statistic(ctx, ann)
            values = resampled(stat, ctx.n_resamples, rng, clusters=_codes(cl, ann.items))
            ses.append(float(np.nanstd(values, ddof=1)))
        else:
            s = getattr(result, "se", None)
            if s is None or not math.isfinite(s):
                raise AgreementError(f"compare: {ctx.measure.name} gives no analytic standard "
                                     "error here; use method='bootstrap'")
            ses.append(float(s))
    return est, ses, excluded


def _independent(ctx, a: Annotations, b: Annotations, clusters) -> ComparisonResult:
    method = ctx.method
    if method == "auto":
        method = "bootstrap" if clusters[0] is not None or not _has_se(ctx, a) else "analytic"
    validate.choice("compare", "method", method, ("analytic", "bootstrap", "goodness-of-fit"))
    if method == "goodness-of-fit":
        return _gof(ctx, [a, b], ("data", "other"))
    if method == "analytic" and any(c is not None for c in clusters):
        raise AgreementError("compare: cluster= needs method='bootstrap' for independent "
                             "samples (the analytic standard errors assume independent items)")
    boot = method == "bootstrap"
    est, ses, excluded = _estimates(ctx, [a, b], list(clusters), boot)
    z = _z(ctx.level)
    diff, se = est[1] - est[0], math.hypot(*ses)
    stat = diff / se if se > 0 else NAN
    return ComparisonResult(
        measure=ctx.measure.name,
        method="independent samples, " + ("bootstrap standard errors" if boot else
                                          "the measure's standard errors"),
        groups=("data", "other"), estimates=tuple(est), estimate_se=tuple(ses),
        estimate_ci=tuple((e - z * s, e + z * s) for e, s in zip(est, ses)),
        n_items=(a.n_items, b.n_items), difference=diff, se=se,
        ci=(diff - z * se, diff + z * se), level=ctx.level, statistic=stat,
        statistic_name="z", df=NAN, p_value=_two_sided_z(stat), paired=False,
        n_resamples=ctx.n_resamples if boot else 0,
        resampled=("clusters" if clusters[0] is not None else "items") if boot else "",
        excluded=tuple(excluded), params=dict(ctx.kwargs))


def _has_se(ctx, ann) -> bool:
    s = getattr(ctx.measure.function(ann, **ctx.kwargs), "se", None)
    return s is not None and math.isfinite(s)


def _groups(ctx, data, by, cluster) -> ComparisonResult:
    frame, groups = _split_column(data, by, "group") if isinstance(by, str) else (data, by)
    if not isinstance(groups, pd.Series):
        validate.fail("compare", "by", "a column name or a pandas Series item → group", by)
    frame, clusters = _split_column(frame, cluster, "cluster")
    ann = as_annotations(frame)
    long = ann.to_long()
    label = _codes(groups, ann.items, "group")
    names = pd.Index(groups.reindex(ann.items)).unique()
    if len(names) < 2:
        raise AgreementError(f"compare: by= gives {len(names)} group; a comparison needs two "
                             "or more")
    code = label[ann.items.get_indexer(long["item"])]
    parts = [Annotations.from_long(long[code == j], categories=list(ann.categories))
             for j in range(len(names))]
    method = "homogeneity" if ctx.method == "auto" else ctx.method
    validate.choice("compare", "method", method, ("homogeneity", "bootstrap",
                                                  "goodness-of-fit"))
    if method == "goodness-of-fit":
        return _gof(ctx, parts, tuple(names))
    boot = method == "bootstrap" or (cluster is not None) or not _has_se(ctx, parts[0])
    est, ses, excluded = _estimates(ctx, parts, [clusters] * len(parts), boot)
    chi2, p, df, common = H.fleiss_homogeneity(est, ses)
    return _summary(ctx, names, est, ses, [g.n_items for g in parts], chi2, p, df, common,
                    "homogeneity χ² (Fleiss 1981) from " + ("bootstrap" if boot else
                                                            "the measure's") + " standard errors",
                    excluded, resampled=("clusters" if cluster is not None else "items")
                    if boot else "", n_resamples=ctx.n_resamples if boot else 0)


def _precomputed(estimates, se, level: float, method: str) -> ComparisonResult:
    if estimates is None or se is None:
        raise AgreementError("compare: pass both estimates= and se= (one standard error per "
                             "estimate)")
    validate.choice("compare", "method", method, ("auto", "homogeneity"))
    names = list(estimates.keys()) if isinstance(estimates, Mapping) else \
        list(range(len(estimates)))
    est = [estimates[k] for k in names] if isinstance(estimates, Mapping) else list(estimates)
    try:
        ses = [se[k] for k in names] if isinstance(estimates, Mapping) else list(se)
    except (KeyError, TypeError):
        raise AgreementError("compare: se= must give a standard error for each estimate "
                             f"({names})") from None
    if len(ses) != len(est) or len(est) < 2:
        raise AgreementError(f"compare: {len(est)} estimates and {len(ses)} standard errors; "
                             "pass two or more of each, one for one")
    est = [validate.real("compare", "estimates", e) for e in est]
    ses = [validate.real("compare", "se", s, minimum=0, open_low=True) for s in ses]
    chi2, p, df, common = H.fleiss_homogeneity(est, ses)
    ctx = _Context(None, {}, level, 0, None, method)
    return _summary(ctx, names, est, ses, [0] * len(est), chi2, p, df, common,
                    "homogeneity χ² (Fleiss 1981) of precomputed coefficients",
                    [{}] * len(est), measure="precomputed")
