"""Agreement coefficients from the two-way analysis of variance of scores (items ×
annotators), as R's ``irr`` computes them: Finn's (1970) coefficient, Robinson's (1957)
A and Janson & Olsson's (2001) ι for quantitative and nominal, single and multivariate
ratings.

Every item used is rated by every annotator (``missing="listwise"``, R's ``na.omit``,
or "raise"). Sums of squares (see :mod:`iaa_widgets.measures.continuous._anova`, shared with the
ICC): SS_items between items, SS_raters between annotators, SS_within within items and
SS_residual the interaction. Ratings stay in long form (no items × categories table),
so continuous ratings are as cheap as coded ones. Each measure declares a Statistic over
the per-item tables of :func:`~iaa_widgets.measures.continuous._anova.anova_tables`, so that
``bootstrap`` works for it.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ... import validate
from ...data import as_annotations
from ...errors import AgreementError
from ...results import AgreementResult
from ._anova import anova_tables, scores, sums_of_squares
from ..categorical.classic import _point, _public
from .._registry import register

__all__ = ["finn_coefficient", "robinson_a", "janson_olsson_iota"]


# ------------------------------------------------------------------ Finn (1970)
@register(family='correlation and variance', data='numeric', annotators='many',
          source='Finn (1970)', symbol='r (Finn)', missing=('listwise', 'raise'),
          needs=('levels',))
def finn_coefficient(data, *, levels: int, model: str = "oneway", missing: str = "listwise",
                     annotators=None) -> AgreementResult:
    r"""Finn's (1970) coefficient r = 1 − MS_observed / MS_expected, with MS_expected =
    (s² − 1)/12 the variance of ratings drawn uniformly from the s = ``levels``
    consecutive scale points (Finn 1970; as R's ``irr::finn(ratings, s.levels)``).

    ``model="oneway"``: MS_observed = SS_within / (n(r − 1)), the mean over items of the
    variance of its r scores; ``"twoway"``: MS_observed = SS_residual / ((n − 1)(r − 1)),
    the annotator effect removed (Asendorpf & Wallbott 1979, as cited by irr).

    Scores are the numeric labels, or positions 1 … K in a declared order; the scale's
    points must be one unit apart, as MS_expected assumes. ``params``: F = MS_expected /
    MS_observed with (∞, df) degrees of freedom, df = n(r − 1) (one-way) or
    (n − 1)(r − 1) (two-way: the degrees of freedom of MS_observed; irr prints n(r − 1)
    for both, see README "Differences from other software"), and its upper-tail
    ``p_value``. ``observed``/``expected`` are MS_observed and MS_expected
    (``scale="disagreement"``). ``missing``: "listwise" (default; the items every
    annotator rated) or "raise".

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Numeric scores (or labels in a declared order) one unit apart.
    levels : int
        s, the number of points of the rating scale (at least 2).
    model : {"oneway", "twoway"}, default "oneway"
        Within-item variance, or the residual with the annotator effect removed.
    missing : {"listwise", "raise"}, default "listwise"
        Keep the items every annotator rated, or refuse a missing score.
    annotators : sequence, optional
        The annotators to use, by name (default: all).

    Returns
    -------
    AgreementResult
        ``value`` (r), ``observed`` (MS_observed), ``expected`` (MS_expected),
        ``params`` (``F``, ``df``, ``p_value``), ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        When the scores are not numeric or ordered, ``levels`` is below 2 or smaller
        than the scores' range, an option is not one listed, or ``missing="raise"`` meets a
        gap.

    See Also
    --------
    robinson_a : the share of variation between items.
    janson_olsson_iota : ι, for several variables.
    icc : intraclass correlation.

    Notes
    -----
    Finn (1970):

    $$r = 1 - \frac{MS_\mathrm{observed}}{(s^2 - 1)/12}, \quad
    MS_\mathrm{observed} = \frac{SS_\mathrm{within}}{n(r - 1)} \text{ (one-way)}.$$

    References
    ----------
    Finn, R. H. (1970). A note on estimating the reliability of categorical data.
    Educational and Psychological Measurement, 30(1), 71–76.
    https://doi.org/10.1177/001316447003000106

    Examples
    --------
    irr's anxiety data (a 6-point scale); R's ``irr::finn(anxiety, 6)`` prints
    Finn = 0.446, F(Inf, 40) = 1.8, p = 0.01:

    >>> anxiety = pd.DataFrame(
    ...     [[3, 3, 2], [3, 6, 1], [3, 4, 4], [4, 6, 4], [5, 2, 3], [5, 4, 2], [2, 2, 1],
    ...      [3, 4, 6], [5, 3, 1], [2, 3, 1], [2, 2, 1], [6, 3, 2], [1, 3, 3], [5, 3, 3],
    ...      [2, 2, 1], [2, 2, 1], [1, 1, 3], [2, 3, 3], [4, 3, 2], [3, 4, 2]],
    ...     columns=["r1", "r2", "r3"])
    >>> data = iaa.Annotations.from_wide(anxiety)
    >>> r = iaa.finn_coefficient(data, levels=6)
    >>> round(r.value, 3), round(r.params["F"], 1), r.params["df"], round(r.params["p_value"], 2)
    (0.446, 1.8, (inf, 40), 0.01)
    """
    validate.choice("finn_coefficient", "model", model, ("oneway", "twoway"))
    levels = validate.integer("finn_coefficient", "levels", levels, minimum=2)
    sc, stat = _finn_statistic(data, levels=levels, model=model, missing=missing,
                               annotators=annotators)
    value, ms, ms_exp = _point(stat)
    n, r = sc.n_items, sc.k
    df = n * (r - 1) if model == "oneway" else (n - 1) * (r - 1)
    f_value = ms_exp / ms if ms > 0 else float("inf")
    from scipy.special import gammainc  # P(F(∞, df) > F) = P(χ²_df < df / F)
    p = float(gammainc(df / 2, df / (2 * f_value))) if ms > 0 else 0.0
    result = sc.result("finn_coefficient", value, ms, ms_exp,
                       params={"levels": levels, "model": model, "F": f_value,
                               "df": (float("inf"), df), "p_value": p})
    return replace(result, scale="disagreement")


def _finn_statistic(data, *, levels, model="oneway", missing="listwise", annotators=None,
                    **_):
    sc = scores(data, "finn_coefficient", missing=missing, annotators=annotators)
    used = sc.points[np.bincount(sc.label, minlength=len(sc.points)) > 0]
    if used.max() - used.min() > levels - 1:
        raise AgreementError(f"finn_coefficient: the scores run from {used.min():g} to "
                             f"{used.max():g}, more than levels={levels} consecutive scale "
                             "points; pass the number of points of the rating scale")
    r = sc.k
    ms_exp = (levels ** 2 - 1) / 12  # variance of the discrete uniform on s points
    tables, shapes = sc.tables(twoway=model == "twoway")

    def finish(tot):  # r_Finn = 1 − MS / MS_exp (Finn 1970)
        ss = sums_of_squares(tot, r)
        ms = ss["MSW"] if model == "oneway" else ss["MSE"]
        return 1 - ms / ms_exp, ms, np.full_like(ms, ms_exp)
    return sc, sc.statistic(tables, shapes, finish)


finn_coefficient.statistic = _public(_finn_statistic)


# -------------------------------------------------------------- Robinson (1957)
@register(family='correlation and variance', data='numeric', annotators='many',
          source='Robinson (1957)', symbol='A (Robinson)', missing=('listwise', 'raise'))
def robinson_a(data, *, missing: str = "listwise", annotators=None) -> AgreementResult:
    r"""Robinson's (1957) A = SS_items / (SS_items + SS_residual): the share of the
    variation not due to the annotators' means that lies between items (as R's
    ``irr::robinson``). Scores as in `finn_coefficient`. No observed or
    expected agreement (NaN); ``params`` holds the sums of squares. NaN, with a note,
    when SS_items + SS_residual = 0 (every item got one score from everyone).
    ``missing``: "listwise" (default; the items every annotator rated) or "raise".

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Numeric scores (or labels in a declared order).
    missing : {"listwise", "raise"}, default "listwise"
        Keep the items every annotator rated, or refuse a missing score.
    annotators : sequence, optional
        The annotators to use, by name (default: all).

    Returns
    -------
    AgreementResult
        ``value`` (A), ``params`` (the sums of squares), ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        When the scores are not numeric or ordered, fewer than two annotators or items
        remain, or ``missing="raise"`` meets a gap.

    See Also
    --------
    finn_coefficient : agreement against uniform random ratings.
    icc : ICC(C,1), Robinson's A rescaled.

    Notes
    -----
    Robinson (1957):
    $$A = \frac{SS_\mathrm{items}}{SS_\mathrm{items} + SS_\mathrm{residual}}.$$

    References
    ----------
    Robinson, W. S. (1957). The statistical measurement of agreement. American
    Sociological Review, 22(1), 17–25. https://doi.org/10.2307/2088760

    Examples
    --------
    irr's anxiety data; the value is SS_items / (SS_items + SS_residual) of the two-way
    ANOVA (tests/test_irr_family.py checks it against pingouin's sums of squares):

    >>> anxiety = pd.DataFrame(
    ...     [[3, 3, 2], [3, 6, 1], [3, 4, 4], [4, 6, 4], [5, 2, 3], [5, 4, 2], [2, 2, 1],
    ...      [3, 4, 6], [5, 3, 1], [2, 3, 1], [2, 2, 1], [6, 3, 2], [1, 3, 3], [5, 3, 3],
    ...      [2, 2, 1], [2, 2, 1], [1, 1, 3], [2, 3, 3], [4, 3, 2], [3, 4, 2]],
    ...     columns=["r1", "r2", "r3"])
    >>> data = iaa.Annotations.from_wide(anxiety)
    >>> round(iaa.robinson_a(data).value, 4)
    0.4774
    """
    sc, stat = _robinson_statistic(data, missing=missing, annotators=annotators)
    value = _point(stat)[0]
    ss = sums_of_squares({k: v[None] for k, v in stat.total().items()}, sc.k)
    note = "Robinson's A is a ratio of sums of squares: no observed or expected agreement"
    if np.isnan(value):
        note = ("SS_items + SS_residual is 0 (no variation within annotators' columns): "
                "A is 0/0, reported as NaN; " + note)
    return sc.result("robinson_a", value, float("nan"), float("nan"), note=note,
                     params={"ss_items": float(ss["items"][0]),
                             "ss_residual": float(ss["residual"][0]),
                             "ss_raters": float(ss["raters"][0])})


def _robinson_statistic(data, *, missing="listwise", annotators=None, **_):
    sc = scores(data, "robinson_a", missing=missing, annotators=annotators)
    r = sc.k
    tables, shapes = sc.tables()

    def finish(tot):  # A = SS_b / (SS_b + SS_r) (Robinson 1957)
        ss = sums_of_squares(tot, r)
        denom = ss["items"] + ss["residual"]
        with np.errstate(divide="ignore", invalid="ignore"):
            ok = (ss["total"] > 0) & (denom > 1e-12 * ss["total"])  # else 0/0
            value = np.where(ok, ss["items"] / denom, np.nan)
        nan = np.full_like(value, np.nan)
        return value, nan, nan
    return sc, sc.statistic(tables, shapes, finish)


robinson_a.statistic = _public(_robinson_statistic)


# ---------------------------------------------------------- Janson & Olsson (2001)
@register(family='correlation and variance', data='categorical', annotators='many',
          source='Janson & Olsson (2001)', symbol='ι (Janson & Olsson)',
          missing=('listwise', 'raise'))
def janson_olsson_iota(data, *, scale: str = "quantitative", standardize: bool = False,
                       missing: str = "listwise") -> AgreementResult:
    r"""Janson & Olsson's (2001) ι = 1 − r Σ_v SS_within,v / Σ_v [(r − 1) SS_total,v +
    SS_raters,v] over the variables v (as R's ``irr::iota``).

    ``data``: one set of ratings (a single variable), or a list of them, one per
    variable, rated by the same annotators (aligned by annotator name) on the same
    items (aligned by item label; the items complete in every variable are used, the
    others excluded and counted).

    ``scale="quantitative"``: the scores of `finn_coefficient` (numbers, or
    positions in a declared order); ``standardize=True`` divides each variable's sums
    of squares by its variance s_v² = SS_total,v / (nr − 1), i.e. z-standardises it
    (irr's ``standardize``). ``scale="nominal"``: each category c is an indicator
    variable [x_ir = c] (Janson & Olsson's dummy coding; their 1/√2 factor cancels);
    for one variable ι is then Conger's κ (Davies & Fleiss' multi-κ).
    ``missing``: "listwise" (default; the items every annotator rated) or "raise".

    Parameters
    ----------
    data : Annotations, a tidy DataFrame, or a list of them
        One set of ratings per variable, by the same annotators on the same items.
    scale : {"quantitative", "nominal"}, default "quantitative"
        Scores, or categories as indicator variables.
    standardize : bool, default False
        z-standardise each variable (quantitative only).
    missing : {"listwise", "raise"}, default "listwise"
        Keep the items every annotator rated in every variable, or refuse a gap.

    Returns
    -------
    AgreementResult
        ``value`` (ι), ``params`` (``variables`` and the sums), ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        When the variables do not share annotators, the scores are not numeric or
        ordered (quantitative), an option is not one listed, or ``missing="raise"``
        meets a gap.

    See Also
    --------
    finn_coefficient : one variable against uniform ratings.
    davies_fleiss_kappa : nominal ι on one variable.

    Notes
    -----
    Janson & Olsson (2001), over variables v and r annotators:

    $$\iota = 1 - \frac{r \sum_v SS_{\mathrm{within},v}}
    {\sum_v \left[(r - 1) SS_{\mathrm{total},v} + SS_{\mathrm{raters},v}\right]}.$$

    References
    ----------
    Janson, H. & Olsson, U. (2001). A measure of agreement for interval or nominal
    multivariate observations. Educational and Psychological Measurement, 61(2), 277–289.
    https://doi.org/10.1177/00131640121971239

    Examples
    --------
    Janson & Olsson's (2001) Table 1, as in irr's ``iota`` help page: weight and height of
    5 persons estimated by 3 raters from photographs (no printed ι was found; the value
    is checked against the distance definition in tests/test_irr_family.py):

    >>> weight = pd.DataFrame({"r1": [71, 73, 86, 59, 71], "r2": [74, 80, 101, 62, 83],
    ...                        "r3": [76, 80, 93, 66, 77]})
    >>> height = pd.DataFrame({"r1": [166, 160, 187, 161, 172],
    ...                        "r2": [171, 170, 174, 163, 182],
    ...                        "r3": [171, 165, 185, 162, 181]})
    >>> variables = [iaa.Annotations.from_wide(weight), iaa.Annotations.from_wide(height)]
    >>> round(iaa.janson_olsson_iota(variables).value, 4)
    0.755
    """
    validate.choice("janson_olsson_iota", "scale", scale, ("quantitative", "nominal"))
    standardize = validate.boolean("janson_olsson_iota", "standardize", standardize)
    if standardize and scale == "nominal":
        raise AgreementError("janson_olsson_iota: standardize=True applies to "
                             "scale='quantitative' only (indicators are not standardised)")
    first, n_var, n, excluded, stat = _iota_parts(data, scale, standardize, missing)
    value, d_o, d_e = _point(stat)
    note = ("no variation: every rating has the same score, so Σ_v ((r − 1) SS_total,v + "
            "SS_raters,v) is 0 and ι is 0/0, reported as NaN" if np.isnan(value) else "")
    result = first.result("janson_olsson_iota", value, d_o, d_e, note=note,
                          params={"scale": scale, "standardize": standardize,
                                  "variables": n_var})
    return replace(result, scale="disagreement", excluded=excluded, n_items=n,
                   n_ratings=n * first.k * n_var)


def _iota_parts(data, scale: str, standardize: bool, missing: str):
    """The first variable's Scores, the number of variables and of items used, what was
    excluded, and the Statistic over the first variable's item rows, of which the items
    complete in every variable are used (the other rows zero)."""
    variables = list(data) if isinstance(data, (list, tuple)) else [data]
    if not variables:
        raise AgreementError("janson_olsson_iota: data must be ratings or a non-empty list "
                             "of ratings, one per variable")
    nominal = scale == "nominal"
    parts = [scores(as_annotations(one), "janson_olsson_iota", missing=missing,
                    points="none" if nominal else "scores") for one in variables]
    first = parts[0]
    names, items = first.ann.annotators, first.ann.items
    for j, sc in enumerate(parts[1:], start=1):
        if set(sc.ann.annotators) != set(names) or sc.k != len(names):
            raise AgreementError(f"janson_olsson_iota: variable {j} is rated by "
                                 f"{list(sc.ann.annotators)!r} but variable 0 by "
                                 f"{list(names)!r}; every variable needs the same annotators")
    common = first.used.copy()  # over the first variable's item rows
    for sc in parts[1:]:
        pos = sc.ann.items.get_indexer(items)  # each first-variable item's row in sc
        common &= (pos >= 0) & sc.used[np.maximum(pos, 0)]
    excluded = dict(first.excluded)
    dropped = first.n_items - int(common.sum())
    if dropped:
        excluded["not complete in every variable"] = dropped
    if common.sum() < 2:
        raise AgreementError(f"janson_olsson_iota: {int(common.sum())} item(s) are rated by "
                             "every annotator in every variable; ι needs at least two")
    r = len(names)
    tables, shapes = {}, {}
    for j, sc in enumerate(parts):
        row = items.get_indexer(sc.ann.items)[sc.item]  # its ratings' first-variable rows
        keep = (row >= 0) & common[np.maximum(row, 0)]
        rater = names.get_indexer(sc.ann.annotators)[sc.rater[keep]]
        if nominal:  # one indicator column [x_ir = c] per category
            t, sh = anova_tables(row[keep], rater, sc.label[keep], np.ones(int(keep.sum())),
                                 len(items), r, sc.ann.n_categories)
        else:
            t, sh = anova_tables(row[keep], rater, None, sc.value[keep], len(items), r, 1)
        tables.update({f"{j}:{name}": table for name, table in t.items()})
        shapes.update({f"{j}:{name}": shape for name, shape in sh.items()})
    n_var = len(parts)

    def finish(tot):  # ι = 1 − r Σ_v SS_w,v / Σ_v ((r − 1) SS_t,v + SS_c,v) (J & O 2001)
        d_o = d_e = 0.0
        with np.errstate(divide="ignore", invalid="ignore"):  # no variation: 0/0, NaN
            for j in range(n_var):
                ss = sums_of_squares({k.split(":", 1)[1]: v for k, v in tot.items()
                                      if k.startswith(f"{j}:")}, r)
                s2 = ss["total"] / (ss["n"] * r - 1) if standardize else 1.0
                d_o = d_o + ss["within"] / s2
                d_e = d_e + ((r - 1) * ss["total"] + ss["raters"]) / s2
            value = 1 - r * d_o / d_e
        return value, d_o, d_e / r
    return first, n_var, int(common.sum()), excluded, first.statistic(tables, shapes, finish)


def _iota_statistic(data, *, scale="quantitative", standardize=False, missing="listwise", **_):
    return _iota_parts(data, scale, standardize, missing)[4]


janson_olsson_iota.statistic = _iota_statistic
