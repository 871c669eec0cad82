"""Cohen's κ carried to many annotators by averaging (Light 1971; Hubert 1977), and the
largest κ the annotators' marginals allow (Cohen 1960; Umesh, Peterson & Sauber 1989).
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ... import stats
from ...errors import AgreementError
from ...results import AgreementResult
from ...stats import per_item
from ...stats.statistic import DENSE_CELLS
from .. import _formulas as F
from .classic import (TWO_ONLY, _point, _public, _result, _statistic, _table_statistic, _z,
                      davies_fleiss_kappa)
from .._prepare import prepare
from .pairwise import KERNELS
from ..weights import agreement_weights
from .._registry import register
from .. import _engine

__all__ = ["light_kappa", "hubert_kappa", "kappa_max"]

COMPLETE = ("listwise", "raise")


# ------------------------------------------------------------------ Light (1971)
def _light_engine(s, measure, *, weights=None, missing="listwise", annotators=None,
                  **_) -> _engine.Totals:
    """Light's totals from sufficient statistics: each pair's Σ_jk w_jk t_pjk over the
    items every annotator rated (their pair tables), the annotators' counts n_rc and
    the number of those items (the tables of :func:`_light_parts`)."""
    _engine.whole_panel(s, measure.name, annotators)
    used, excluded = _engine.policy(s, measure.name, missing, measure.missing)
    t = s.complete_pair_tables
    if t is None:
        raise AgreementError("light_kappa: these statistics were made without pair "
                             "tables; call sufficient_statistics(..., pairs=True)")
    w, w_name = agreement_weights(weights, s.categories, s.ordered, measure.name)
    r = s.n_annotators
    totals = {"agree": np.einsum("pjk,jk->p", t, w)[None],
              "n_rc": s.annotator_counts[r].reshape(1, -1), "items": s.sizes[r:r + 1, None]}
    stat = measure.statistic(s.stand_in(), weights=weights, missing=missing)
    return _engine.Totals({k: np.asarray(v, dtype=float) for k, v in totals.items()},
                          stat.finish, used, excluded, {"weights": w_name, "missing": missing})


@register(family='chance-corrected agreement', data='categorical', annotators='many',
          source='Light (1971); jackknife SE', symbol='κ (Light)',
          intervals=('jackknife wald',), missing=('listwise', 'raise'),
          engine=_light_engine)
def light_kappa(data, *, weights=None, missing: str = "listwise", annotators=None,
                confidence: float = 0.95) -> AgreementResult:
    r"""Light's (1971) κ: the mean of Cohen's κ over every pair of annotators.

    Each of the r(r − 1)/2 pairs' κ is taken over the items every annotator rated, as R's
    ``irr::kappam.light``; with ``weights`` it is the mean of weighted κ's, as R's
    ``psy::lkappa``.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings: [Annotations][iaa_widgets.Annotations], or a tidy table with columns
        ``item``, ``annotator``, ``label``. Primary labels only.
    weights : str or array_like or pandas.DataFrame, optional
        Agreement weights as [cohen_kappa][iaa_widgets.cohen_kappa]: None (default), a
        family of Gwet (2014, ch. 3) ("identity", "linear", "quadratic", "ordinal",
        "radical", "ratio", "circular", "bipolar") or a K × K matrix (a DataFrame aligned
        by its labels, or an array in declared order).
    missing : {"listwise", "raise"}, default "listwise"
        "listwise": the items every annotator rated (irr's ``na.omit``). "raise": refuse
        data with a missing rating.
    annotators : sequence of str, optional
        The annotators to use, by name (default: all).
    confidence : float, default 0.95
        Level of the Wald interval ``ci``, in (0, 1).

    Returns
    -------
    AgreementResult
        ``value``: κ_L; ``observed`` and ``expected``: the means over pairs of A_o and
        A_e; ``se``: the jackknife standard error over items, and the Wald ``ci``;
        ``params``: ``pairs`` (each pair's κ), ``z`` = κ / se and its two-sided
        ``p_value``.

    Raises
    ------
    AgreementError
        If the data cannot be read as ratings by named annotators, ``weights`` or another
        parameter is not one of the accepted values, or no item is rated by every
        annotator.

    See Also
    --------
    iaa_widgets.cohen_kappa : κ of two annotators.
    iaa_widgets.hubert_kappa : The ratio of the pairs' mean agreements.
    iaa_widgets.davies_fleiss_kappa : Conger's multi-κ.
    iaa_widgets.pairwise : Each pair's κ as a matrix.

    Notes
    -----
    Over the pairs $p = (a, b)$ of $r$ annotators, with $A_{o,p}$ and $A_{e,p}$ the
    pair's observed and expected agreement (Cohen 1960; Light 1971):

    $$\kappa_L = \binom{r}{2}^{-1} \sum_{p} \frac{A_{o,p} - A_{e,p}}{1 - A_{e,p}} .$$

    $\kappa_L$ is the mean of the pairs' ratios, not the ratio of the means (that is
    Hubert's κ). A pair with $A_e = 1$ has no κ: the value is NaN. Light gives no
    variance for the mean of the pairs' κ's (the pairs share items and annotators, so
    their covariances matter): ``se`` is the jackknife over items,
    $\sqrt{(n - 1)/n \sum_i (\kappa_{(i)} - \bar\kappa_{(\cdot)})^2}$ with
    $\kappa_{(i)}$ the value without item $i$. irr's z uses another variance (README
    "Differences from other software").

    References
    ----------
    Light, R. J. (1971). Measures of response agreement for qualitative data: some
    generalizations and alternatives. *Psychological Bulletin*, 76(5), 365–377.
    https://doi.org/10.1037/h0031643

    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational
    and Psychological Measurement*, 20(1), 37–46.
    https://doi.org/10.1177/001316446002000104

    Gamer, M., Lemon, J., Fellows, I., & Singh, P. (2019). irr: Various coefficients
    of interrater reliability and agreement (R package 0.84.1).
    https://CRAN.R-project.org/package=irr

    Examples
    --------
    irr's ``diagnoses`` data (30 patients, 6 raters; Fleiss 1971, Table 1): irr's manual
    prints ``kappam.light(diagnoses)`` Kappa = 0.459.

    >>> rows = ("4 4 4 4 4 4;2 2 2 5 5 5;2 3 3 3 3 5;5 5 5 5 5 5;2 2 2 4 4 4;1 1 3 3 3 3;"
    ...         "3 3 3 3 5 5;1 1 3 3 3 4;1 1 4 4 4 4;5 5 5 5 5 5;1 4 4 4 4 4;1 2 4 4 4 4;"
    ...         "2 2 2 3 3 3;1 4 4 4 4 4;2 2 4 4 4 5;3 3 3 3 3 5;1 1 1 4 5 5;1 1 1 1 1 2;"
    ...         "2 2 4 4 4 4;1 3 3 5 5 5;5 5 5 5 5 5;2 4 4 4 4 4;2 2 4 5 5 5;1 1 4 4 4 4;"
    ...         "1 4 4 4 4 5;2 2 2 2 2 4;1 1 1 1 5 5;2 2 4 4 4 4;1 3 3 3 3 3;5 5 5 5 5 5")
    >>> wide = pd.DataFrame([r.split() for r in rows.split(";")]).astype(int)
    >>> r = iaa.light_kappa(iaa.Annotations.from_wide(wide))
    >>> round(r.value, 3)
    0.459
    """
    z_crit = _z("light_kappa", confidence)
    prep, stat, w_name = _light_parts(data, weights=weights, missing=missing,
                                      annotators=annotators)
    value, a_o, a_e = _point(stat)
    r = prep.ann.n_annotators
    pairs = stats.all_pairs(r)
    t = stats.pair_contingencies(prep.ann, pairs, items=prep.used).astype(float)
    w = agreement_weights(weights, prep.ann.categories, prep.ann.ordered, prep.measure)[0]
    kappas = KERNELS["cohen_kappa"][0](t, weights=w)
    names = prep.ann.annotators
    params = {"weights": w_name, "confidence": confidence,
              "pairs": {f"{names[a]} – {names[b]}": float(k) for (a, b), k in zip(pairs, kappas)}}
    extra, note = {}, ""
    n = prep.n_items
    if math.isnan(value):
        note = ("a pair's expected agreement is 1 (its two annotators each used one "
                "category), so its κ and their mean are undefined (NaN)")
    elif n >= 2:
        jack = stat.jackknife()[prep.used]
        se = math.sqrt((n - 1) / n * float(np.sum((jack - jack.mean()) ** 2)))
        extra = {"se": se, "ci": (value - z_crit * se, value + z_crit * se),
                 "ci_method": f"Wald, jackknife standard error {confidence:.0%}"}
        z = value / se if se > 1e-12 else float("nan")  # below: rounding noise of 0
        params.update(z=z, p_value=math.erfc(abs(z) / math.sqrt(2)))
        undefined = int(np.isnan(jack).sum())
        if undefined:
            which = f"one of {undefined} items" if undefined > 1 else "one item"
            note = ("the standard error, interval, z and p_value are undefined (NaN): "
                    f"leaving out {which} makes a pair's expected agreement 1, so the "
                    "jackknife values are not all defined")
        elif math.isnan(z):
            note = ("z and p_value are undefined (NaN): leaving out any one item leaves "
                    "the value unchanged, so the jackknife standard error is 0")
    return _result("light_kappa", prep, value, a_o, a_e, note=note, params=params, **extra)


def _light_parts(data, *, weights=None, missing="listwise", annotators=None):
    prep = prepare(data, "light_kappa", missing=missing, annotators=annotators,
                   identity=True, policies=COMPLETE)
    w, w_name = agreement_weights(weights, prep.ann.categories, prep.ann.ordered, prep.measure)
    r, k = prep.ann.n_annotators, prep.ann.n_categories
    pairs = stats.all_pairs(r)
    x = prep.ann._label_grid()[prep.used]  # complete: every annotator rated every item
    n = len(x)
    item_rows = np.flatnonzero(prep.used)
    tables = {"agree": _pair_agreement(x, pairs, w, item_rows, prep.ann.n_items),
              "n_rc": per_item(np.repeat(item_rows, r), (np.arange(r) * k + x).ravel(),
                               prep.ann.n_items, r * k),
              "items": np.ones((n, 1))}

    def finish(tot):  # κ_L = mean_p (A_o,p − A_e,p) / (1 − A_e,p) (Light 1971)
        with np.errstate(divide="ignore", invalid="ignore"):
            a_o = tot["agree"] / tot["items"]
            p = tot["n_rc"].reshape(-1, r, k) / tot["items"][:, :, None]
        g = np.matmul(p @ w, np.swapaxes(p, 1, 2))  # Σ_ij p_ai w_ij p_bj, all a, b
        a_e = g[:, pairs[:, 0], pairs[:, 1]]
        kappa = F.chance_corrected(a_o, a_e)
        return kappa.mean(axis=1), a_o.mean(axis=1), a_e.mean(axis=1)
    made = {"agree": (len(pairs),), "n_rc": (r * k,)}
    return prep, _statistic(prep, tables, finish, made), w_name


def _pair_agreement(x, pairs, w, item_rows, n_rows):
    """The items × pairs table of each pair's agreement weight w[x_ia, x_ib] (the
    Statistic of the pairs' observed agreements), built in blocks of items and kept
    sparse (only the nonzero weights) beyond ``DENSE_CELLS`` cells."""
    n_pairs = len(pairs)
    if n_rows * n_pairs <= DENSE_CELLS:
        out = np.zeros((n_rows, n_pairs))
        out[item_rows] = w[x[:, pairs[:, 0]], x[:, pairs[:, 1]]]
        return out
    rows, cols, vals = [], [], []
    step = max(1, DENSE_CELLS // n_pairs)
    for s in range(0, len(x), step):
        v = w[x[s:s + step, pairs[:, 0]], x[s:s + step, pairs[:, 1]]]
        i, p = np.nonzero(v)
        rows.append(item_rows[s + i])
        cols.append(p)
        vals.append(v[i, p])
    return per_item(np.concatenate(rows), np.concatenate(cols), n_rows, n_pairs,
                    np.concatenate(vals))


def _light_statistic(data, **kwargs):
    kwargs.pop("confidence", None)
    return _light_parts(data, **kwargs)[1]


light_kappa.statistic = _light_statistic


# ------------------------------------------------------------------ Hubert (1977)
@register(family='chance-corrected agreement', data='categorical', annotators='many',
          source='Hubert (1977)', symbol='κ (Hubert)', intervals=('jackknife wald',),
          missing=('listwise', 'raise'), engine=_engine.multi_rater(singles=False))
def hubert_kappa(data, *, missing: str = "listwise", annotators=None,
                 confidence: float = 0.95) -> AgreementResult:
    r"""Hubert's (1977) κ as DKPro Agreement defines it: pairwise agreement and chance.

    DKPro Agreement's ``HubertKappaAgreement`` cites Hubert 1977, Conger 1980 and Davies &
    Fleiss 1982 together. On complete data it is Davies & Fleiss' multi-κ (Conger's κ),
    which computes it: ``davies_fleiss_kappa(data, missing="listwise")``, its standard
    error included.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings: [Annotations][iaa_widgets.Annotations], or a tidy table with columns
        ``item``, ``annotator``, ``label``. Primary labels only.
    missing : {"listwise", "raise"}, default "listwise"
        "listwise": the items every annotator rated. "raise": refuse data with a missing
        rating (DKPro warns on missing values and defines it on complete data only).
    annotators : sequence of str, optional
        The annotators to use, by name (default: all).
    confidence : float, default 0.95
        Level of the Wald interval ``ci``, in (0, 1).

    Returns
    -------
    AgreementResult
        As [davies_fleiss_kappa][iaa_widgets.davies_fleiss_kappa] (``value``, ``observed``
        A'_o, ``expected`` A'_e, ``se``, ``ci``, ``per_category``), with ``measure``
        "hubert_kappa" and a note saying so.

    Raises
    ------
    AgreementError
        If ``missing`` is not "listwise" or "raise", or as
        [davies_fleiss_kappa][iaa_widgets.davies_fleiss_kappa].

    See Also
    --------
    iaa_widgets.davies_fleiss_kappa : The same on complete data, with missing ratings too.
    iaa_widgets.light_kappa : The mean of the pairs' κ instead.
    iaa_widgets.fleiss_kappa : Chance from the pooled shares.

    Notes
    -----
    With $r$ annotators, $n_{ic}$ ratings of item $i$ in category $c$ and $p_{ac}$
    annotator $a$'s share of category $c$ (Hubert 1977; Conger 1980):

    $$A'_o = \frac{1}{n}\sum_i \frac{\sum_c n_{ic}(n_{ic} - 1)}{r(r - 1)}, \qquad
    A'_e = \binom{r}{2}^{-1} \sum_{a < b} \sum_c p_{ac} p_{bc}, \qquad
    \kappa_H = \frac{A'_o - A'_e}{1 - A'_e} .$$

    References
    ----------
    Hubert, L. (1977). Kappa revisited. *Psychological Bulletin*, 84(2), 289–297.
    https://doi.org/10.1037/0033-2909.84.2.289

    Conger, A. J. (1980). Integration and generalization of kappas for multiple
    raters. *Psychological Bulletin*, 88(2), 322–328.
    https://doi.org/10.1037/0033-2909.88.2.322

    Davies, M., & Fleiss, J. L. (1982). Measuring agreement for multinomial data.
    *Biometrics*, 38(4), 1047–1051.

    Meyer, C. M. (2009). *A Brief Tutorial on Inter-Rater Agreement*. Technische
    Universität Darmstadt, slide "Multiple Raters: Generalized Measures".

    Examples
    --------
    Meyer's three raters of ten word pairs: A'_e = 1.48/3 by hand from the raters' shares
    of "high" (0.3, 0.4, 0.6), κ = 0.0789, as `davies_fleiss_kappa`.

    >>> r = iaa.hubert_kappa(iaa.datasets.meyer_relatedness())
    >>> round(r.expected, 4), round(r.value, 4)
    (0.4933, 0.0789)
    """
    if missing not in COMPLETE:
        raise AgreementError(f"hubert_kappa: missing must be one of {list(COMPLETE)!r} "
                             f"(defined on complete data), got {missing!r}; "
                             "davies_fleiss_kappa takes missing='available'")
    result = davies_fleiss_kappa(data, missing=missing, annotators=annotators,
                                 confidence=confidence)
    note = "; ".join(filter(None, [result.note, "equal to davies_fleiss_kappa (Conger's κ) "
                                   "on complete data"]))
    return replace(result, measure="hubert_kappa", note=note)


def _hubert_statistic(data, *, missing="listwise", annotators=None, **_):
    if missing not in COMPLETE:
        raise AgreementError(f"hubert_kappa: missing must be one of {list(COMPLETE)!r}")
    return davies_fleiss_kappa.statistic(data, missing=missing, annotators=annotators)


hubert_kappa.statistic = _hubert_statistic


# --------------------------------------------------------------------- κ_max
@register(family='chance-corrected agreement', data='categorical', annotators='two',
          source='Cohen (1960); Umesh, Peterson & Sauber (1989)', symbol='κ_max',
          missing=('listwise', 'raise'), engine=_engine.pair_table)
def kappa_max(data, *, weights=None, missing: str = "listwise",
              annotators=None) -> AgreementResult:
    r"""Cohen's (1960) κ_max: the largest κ two annotators could reach with their marginals.

    The row shares p_i· and column shares p_·j of the two annotators' table are kept;
    κ_max is the κ of the table with those marginals that agrees most. κ / κ_max is the
    share of the attainable agreement beyond chance that was reached.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings of two annotators (or pick two with ``annotators``):
        [Annotations][iaa_widgets.Annotations], or a tidy table with columns ``item``,
        ``annotator``, ``label``. Primary labels only.
    weights : str or array_like or pandas.DataFrame, optional
        Agreement weights as [cohen_kappa][iaa_widgets.cohen_kappa]: None (default), a
        family of Gwet (2014, ch. 3) or a K × K matrix (a DataFrame aligned by its labels,
        or an array in declared order).
    missing : {"listwise", "raise"}, default "listwise"
        "listwise": the items both annotators rated. "raise": refuse a missing rating.
    annotators : tuple of str, optional
        The two annotators to compare, by name (needed when the data have more).

    Returns
    -------
    AgreementResult
        ``value``: κ_max; ``observed``: A_max; ``expected``: A_e; ``params``: the data's
        ``kappa`` and ``kappa_over_max`` (κ / κ_max). NaN, with a note, where A_e = 1.

    Raises
    ------
    AgreementError
        If the data have other than two annotators and ``annotators`` does not pick two,
        ``weights`` or another parameter is not one of the accepted values, or no item is
        rated by both.

    See Also
    --------
    iaa_widgets.cohen_kappa : The κ reached.
    iaa_widgets.gwet_ac1 : A coefficient less bound by skewed marginals.

    Notes
    -----
    Unweighted (Cohen 1960):

    $$\kappa_{\max} = \frac{A_{\max} - A_e}{1 - A_e}, \qquad
    A_{\max} = \sum_c \min(p_{c\cdot}, p_{\cdot c}), \qquad A_e = \sum_c p_{c\cdot} p_{\cdot c} .$$

    Weighted, $A_{\max} = \max \sum_{ij} w_{ij} p_{ij}$ over the tables $p \ge 0$ with
    those marginals, a transportation linear programme (Umesh, Peterson & Sauber 1989),
    solved with scipy's HiGHS.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational
    and Psychological Measurement*, 20(1), 37–46.
    https://doi.org/10.1177/001316446002000104

    Umesh, U. N., Peterson, R. A., & Sauber, M. H. (1989). Interjudge agreement and
    the maximum value of kappa. *Educational and Psychological Measurement*, 49(4),
    835–850.

    Examples
    --------
    Meyer's table (shares of "high" 0.4 and 0.3): A_max = 0.3 + 0.6 = 0.9, A_e = 0.54,
    κ_max = 0.36/0.46 by Cohen's formula; κ = 0.3478 is 4/9 of it.

    >>> data = iaa.Annotations.from_contingency([[2, 2], [1, 5]], categories=["high", "low"],
    ...                                         annotators=("r2", "r1"))
    >>> r = iaa.kappa_max(data)
    >>> round(r.observed, 4), round(r.value, 4), round(r.params["kappa_over_max"], 4)
    (0.9, 0.7826, 0.4444)
    """
    prep, stat = _kappa_max_statistic(data, weights=weights, missing=missing,
                                      annotators=annotators)
    value, a_max, a_e = _point(stat)
    t = prep.contingency().astype(float)
    w = agreement_weights(weights, prep.ann.categories, prep.ann.ordered, prep.measure)[0]
    kappa = float(KERNELS["cohen_kappa"][0](t, weights=w))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = kappa / value if value != 0 else float("nan")
    return _result("kappa_max", prep, value, a_max, a_e,
                   params={"weights": agreement_weights(weights, prep.ann.categories,
                                                        prep.ann.ordered)[1],
                           "kappa": kappa, "kappa_over_max": ratio})


def _max_agreement(row: np.ndarray, col: np.ndarray, w: np.ndarray) -> float:
    """max Σ_ij w_ij p_ij subject to Σ_j p_ij = row_i, Σ_i p_ij = col_j, p ≥ 0."""
    from scipy.optimize import linprog
    k = len(row)
    eq = np.vstack([np.kron(np.eye(k), np.ones(k)), np.kron(np.ones(k), np.eye(k))])
    res = linprog(-w.ravel(), A_eq=eq, b_eq=np.concatenate([row, col]), bounds=(0, None),
                  method="highs")
    if not res.success:  # the marginals always admit the independence table
        raise AgreementError(f"kappa_max: the linear programme failed ({res.message})")
    return float(-res.fun)


def _kappa_max_statistic(data, *, weights=None, missing="listwise", annotators=None, **_):
    prep = prepare(data, "kappa_max", missing=missing, annotators=annotators, two=True,
                   item_weights=True, identity=True, policies=TWO_ONLY)
    w, name = agreement_weights(weights, prep.ann.categories, prep.ann.ordered, prep.measure)
    identity = np.array_equal(w, np.eye(len(w)))

    def finish(tot):  # κ_max = (A_max − A_e) / (1 − A_e) (Cohen 1960), from the margins
        with np.errstate(divide="ignore", invalid="ignore"):
            n = tot["row"].sum(axis=1)[:, None]
            row, col = tot["row"] / n, tot["col"] / n
        if identity:  # Σ_c min(p_c·, p_·c)
            a_max = np.minimum(row, col).sum(axis=1)
        else:  # one linear programme per resample (Umesh et al. 1989)
            a_max = np.array([_max_agreement(a, b, w) if np.isfinite(a).all() else np.nan
                              for a, b in zip(row, col)])
        a_e = F.margins_cohen_expected(tot["row"], tot["col"], None if identity else w)
        return F.chance_corrected(a_max, a_e), a_max, a_e
    return prep, _table_statistic(prep, finish)


kappa_max.statistic = _public(_kappa_max_statistic)
