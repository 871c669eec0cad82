"""Gwet's AC1 and AC2 (Gwet 2008; *Handbook of Inter-Rater Reliability*, 4th ed.,
2014, ch. 4 and 5), for two annotators and many, with missing ratings.

AC2 with agreement weights w_kl (any family of :mod:`~iaa_widgets.measures.weights` or
a user matrix) is γ = (p_a − p_e) / (1 − p_e) with

* p_a = (1/n'') Σ_i Σ_k r_ik(r*_ik − 1) / (r_i(r_i − 1)) over the n'' items rated at
  least twice, r*_ik = Σ_l w_kl r_il (r_ik: ratings of item i in category k, r_i their
  sum);
* p_e = T_w Σ_k π_k(1 − π_k) / (q(q − 1)), T_w = Σ_kl w_kl, π_k = (1/n) Σ_i r_ik/r_i over
  the n items with at least one rating (Gwet's rule for missing ratings: items rated
  once enter π_k and the variance, not p_a), q the number of *declared* categories
  (``categories=``; unused ones count, as in Gwet's q).

AC1 is AC2 with identity weights. The variance is Gwet's linearisation (2014, ch. 5)
with the finite-population correction 1 − n/N (``population=N``; None: infinite);
the interval is Gwet's: γ ± t_{n−1}·se with Student's t on n − 1 degrees of freedom,
cut to the coefficient's range, at most 1, as every interval is (irrCAC caps it at 1;
``result.note`` and ``result.ci_uncut`` say when it was cut).

Differences from other software (each pinned by a test in ``tests/test_gwet.py``):

* irrCAC's ``table.CAC`` (two raters from a contingency table) divides the variance by
  n² where its ``raw.CAC`` and we, for any number of raters, divide by n(n − 1): on
  Gwet's abstractors table (n = 100) it prints se 0.04322 for AC1, we give
  0.04343 = 0.04322·√(100/99). Both are Gwet's; the raw-data form is the one that
  holds for two raters and many alike.
* irrCAC's ``raw.CAC`` without ``categories=`` finds the categories with
  ``DataFrame.stack()``, which under pandas 3 keeps the NaN of missing ratings, so
  that "missing" counts as one more category (q = 6 instead of 5 on data with holes):
  its p_e and AC1 are then wrong. Pass ``categories=`` to irrCAC to compare.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ... import validate
from ...results import AgreementResult
from .. import _formulas as F
from .._prepare import prepare
from .classic import _categories, _point, _population, _result, _statistic
from ..weights import FAMILIES, agreement_weights
from .._registry import register
from .. import _engine

__all__ = ["gwet_ac1", "gwet_ac2"]


@register(family='chance-corrected agreement', data='categorical', annotators='many',
          source='Gwet (2008); Handbook of Inter-Rater Reliability (2014), ch. 4-5',
          symbol='AC1 (Gwet)', intervals=('student t',),
          missing=('listwise', 'available', 'pairable', 'raise'), report=True, panel=True,
          benchmarked=True, engine=_engine.multi_rater(singles=True))
def gwet_ac1(data, *, missing: str = "available", annotators=None,
             confidence: float = 0.95, population=None) -> AgreementResult:
    r"""Gwet's (2008) AC1 for two or more annotators (nominal categories).

    AC1 takes chance agreement from how evenly the ratings spread over the categories, so
    that a skewed distribution does not drive it to zero (Gwet 2008). It takes missing
    ratings by Gwet's rule (2014, ch. 5): an item rated once enters the shares and the
    variance, not the observed agreement.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings: [Annotations][iaa_widgets.Annotations], or a tidy table with columns
        ``item``, ``annotator``, ``label``. Primary labels only. The number q of categories
        is that declared (``categories=``): unused ones count.
    missing : {"available", "pairable", "listwise", "raise"}, default "available"
        "available" (Gwet 2014): p_a over the items rated at least twice; π_k and the
        variance over every item with a rating. "pairable": the items rated at least twice,
        in every term. "listwise": the items every annotator rated. "raise": refuse data
        with a missing rating.
    annotators : sequence of str, optional
        The annotators to use, by name (default: all).
    confidence : float, default 0.95
        Level of the interval ``ci``, in (0, 1).
    population : int, optional
        Size N of the population the n items were drawn from, for the finite-population
        correction 1 − n/N of the variance (None: infinite).

    Returns
    -------
    AgreementResult
        ``value``: AC1; ``observed``: p_a; ``expected``: p_e; ``se``: Gwet's (2014, ch. 5)
        linearised standard error; ``ci``: AC1 ± t·se on n − 1 degrees of freedom, cut at
        1 (as irrCAC; the note and ``ci_uncut`` say when); ``params``: ``t`` = AC1 / se,
        ``df`` and its two-sided ``p_value``; ``per_category``: the shares π_k.

    Raises
    ------
    AgreementError
        If the data cannot be read as ratings of items, a parameter is outside the values
        listed above, or no item is left under the policy.

    See Also
    --------
    iaa_widgets.gwet_ac2 : AC1 with agreement weights.
    iaa_widgets.fleiss_kappa : Chance from the squared pooled shares.
    iaa_widgets.bennett_s : Chance from uniform shares.
    iaa_widgets.benchmark : Read AC1 against a benchmark scale.

    Notes
    -----
    Item $i$ has $r_i$ ratings, $r_{ik}$ of them in category $k$; $n''$ items are rated
    at least twice, $n$ at least once, and $q$ categories are declared (Gwet 2008; 2014,
    ch. 4):

    $$p_a = \frac{1}{n''}\sum_{i:\,r_i \ge 2} \sum_k \frac{r_{ik}(r_{ik} - 1)}{r_i(r_i - 1)},
    \qquad \pi_k = \frac{1}{n}\sum_i \frac{r_{ik}}{r_i},$$

    $$p_e = \frac{1}{q - 1}\sum_k \pi_k(1 - \pi_k), \qquad
    \mathrm{AC1} = \frac{p_a - p_e}{1 - p_e} .$$

    One declared category leaves $p_e$ undefined: the value is NaN with a note.

    Differences from other software (each pinned by a test in ``tests/test_gwet.py``):
    irrCAC's ``table.CAC`` (two raters from a contingency table) divides the variance by
    n² where its ``raw.CAC`` and we divide by n(n − 1): on Gwet's abstractors table it
    prints se 0.04322, we give 0.04343 = 0.04322·√(100/99). irrCAC's ``raw.CAC`` without
    ``categories=`` under pandas 3 counts "missing" as one more category; pass
    ``categories=`` to irrCAC to compare.

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the
    presence of high agreement. *British Journal of Mathematical and Statistical
    Psychology*, 61(1), 29–48. https://doi.org/10.1348/000711006X126600

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.), ch. 3–5.
    Advanced Analytics, LLC. ISBN 978-0970806284.

    Examples
    --------
    Gwet's (2014) two abstractors, 100 units (irrCAC's ``table_cont3x3abstractors``;
    irrCAC prints AC1 0.84933, p_a 0.89, p_e 0.26992):

    >>> table = pd.DataFrame([[13, 0, 0], [0, 20, 7], [0, 4, 56]],
    ...                      index=["Ectopic", "AIU", "NIU"], columns=["Ectopic", "AIU", "NIU"])
    >>> data = iaa.Annotations.from_contingency(table, categories=["Ectopic", "AIU", "NIU"])
    >>> r = iaa.gwet_ac1(data)
    >>> round(r.value, 5), round(r.observed, 5), round(r.expected, 5)
    (0.84933, 0.89, 0.26992)

    Gwet's (2014) four raters of twelve units with missing ratings (irrCAC's
    ``raw_4raters``; irrCAC prints AC1 0.77544, se 0.14295):

    >>> nan = np.nan
    >>> wide = pd.DataFrame({"Rater1": [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...                      "Rater2": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, nan],
    ...                      "Rater3": [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    ...                      "Rater4": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]})
    >>> r = iaa.gwet_ac1(iaa.Annotations.from_wide(wide))
    >>> round(r.value, 5), round(r.se, 5)
    (0.77544, 0.14295)
    """
    return _gwet("gwet_ac1", data, None, missing, annotators, confidence, population)


@register(family='chance-corrected agreement', data='ranked', annotators='many',
          source='Gwet (2014), ch. 3-5', symbol='AC2 (Gwet)', intervals=('student t',),
          missing=('listwise', 'available', 'pairable', 'raise'), benchmarked=True,
          engine=_engine.multi_rater(singles=True))
def gwet_ac2(data, *, weights="quadratic", missing: str = "available", annotators=None,
             confidence: float = 0.95, population=None) -> AgreementResult:
    r"""Gwet's (2014, ch. 4) AC2: AC1 with agreement weights, for ordered categories.

    Disagreements between near categories earn partial credit through the weights; with
    the identity weights AC2 is [gwet_ac1][iaa_widgets.gwet_ac1]. Missing ratings are
    taken by Gwet's rule, as AC1.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings: [Annotations][iaa_widgets.Annotations], or a tidy table with columns
        ``item``, ``annotator``, ``label``, in a declared order (numeric labels, an
        ordered Categorical, or ``categories=``). Primary labels only.
    weights : str or array_like or pandas.DataFrame, default "quadratic"
        One of Gwet's (2014, ch. 3) families: "identity" (AC1), "linear", "quadratic",
        "ordinal", "radical", "ratio", "circular", "bipolar", over the category values for
        numeric labels and the positions in the declared order for text labels; or a
        K × K matrix (a DataFrame aligned by its labels, or an array in declared order).
    missing : {"available", "pairable", "listwise", "raise"}, default "available"
        "available" (Gwet 2014): p_a over the items rated at least twice; π_k and the
        variance over every item with a rating. "pairable": the items rated at least twice,
        in every term. "listwise": the items every annotator rated. "raise": refuse data
        with a missing rating.
    annotators : sequence of str, optional
        The annotators to use, by name (default: all).
    confidence : float, default 0.95
        Level of the interval ``ci``, in (0, 1).
    population : int, optional
        Size N of the population the n items were drawn from, for the finite-population
        correction 1 − n/N of the variance (None: infinite).

    Returns
    -------
    AgreementResult
        ``value``: AC2; ``observed``: p_a; ``expected``: p_e; ``se``, ``ci`` (Student's t
        on n − 1 degrees of freedom, cut at 1), ``params`` (``t``, ``df``, ``p_value``,
        ``weights``) and ``per_category`` (the shares π_k), as
        [gwet_ac1][iaa_widgets.gwet_ac1].

    Raises
    ------
    AgreementError
        If ``weights`` is neither a family nor a K × K matrix of the categories, a family
        needs an order that was not declared, or as [gwet_ac1][iaa_widgets.gwet_ac1].

    See Also
    --------
    iaa_widgets.gwet_ac1 : The unweighted coefficient.
    iaa_widgets.cohen_kappa : Weighted κ of two annotators.
    iaa_widgets.krippendorff_alpha : α with ordinal or interval metrics.

    Notes
    -----
    With agreement weights $w_{kl}$, $T_w = \sum_{kl} w_{kl}$ and
    $r^*_{ik} = \sum_l w_{kl} r_{il}$ (Gwet 2014, ch. 4):

    $$p_a = \frac{1}{n''}\sum_{i:\,r_i \ge 2} \sum_k \frac{r_{ik}(r^*_{ik} - 1)}{r_i(r_i - 1)},
    \qquad p_e = \frac{T_w}{q(q - 1)} \sum_k \pi_k(1 - \pi_k), \qquad
    \mathrm{AC2} = \frac{p_a - p_e}{1 - p_e},$$

    with $\pi_k$ and $q$ as in AC1. The variance is Gwet's linearisation (2014, ch. 5).

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the
    presence of high agreement. *British Journal of Mathematical and Statistical
    Psychology*, 61(1), 29–48. https://doi.org/10.1348/000711006X126600

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.), ch. 3–5.
    Advanced Analytics, LLC. ISBN 978-0970806284.

    Examples
    --------
    Gwet's (2014) two abstractors with quadratic weights (irrCAC prints AC2 0.94024,
    p_a 0.9725, p_e 0.53985):

    >>> table = pd.DataFrame([[13, 0, 0], [0, 20, 7], [0, 4, 56]],
    ...                      index=["Ectopic", "AIU", "NIU"], columns=["Ectopic", "AIU", "NIU"])
    >>> data = iaa.Annotations.from_contingency(table, categories=["Ectopic", "AIU", "NIU"])
    >>> r = iaa.gwet_ac2(data, weights="quadratic")
    >>> round(r.value, 5), round(r.observed, 5), round(r.expected, 5)
    (0.94024, 0.9725, 0.53985)
    """
    validate.name_or_matrix("gwet_ac2", "weights", weights, FAMILIES)
    return _gwet("gwet_ac2", data, weights, missing, annotators, confidence, population)


def _gwet(measure, data, weights, missing, annotators, confidence, population):
    validate.confidence(measure, "confidence", confidence)
    prep, stat, items, w, w_name = _parts(measure, data, weights, missing, annotators)
    value, a_o, a_e = _point(stat)  # the value its Statistic gives, as for a resample
    se = F.gwet_se(items, w, _population(measure, population, prep.n_items))
    params = {"weights": w_name, "confidence": confidence, "population": population}
    extra = {}
    if not (math.isnan(value) or math.isnan(se)):
        # Student's t quantile and tail from scipy.special, as scipy.stats.t computes them
        # (stdtrit, stdtr), without importing scipy.stats (0.65 s on the first call)
        from scipy.special import stdtr, stdtrit
        df = prep.n_items - 1
        half = stdtrit(df, 0.5 + confidence / 2) * se
        extra = {"se": se, "ci": (float(value - half), float(value + half)),  # result cuts
                 "ci_method": f"Student-t {confidence:.0%} ({df} df), Gwet (2014) "
                              "linearised variance"}
        t = value / se if se > 0 else float("nan")
        params.update(t=t, df=df, p_value=float(2 * stdtr(df, -abs(t)))
                      if se > 0 else float("nan"))
    per_cat = pd.DataFrame({"share": items.shares}, index=_categories(prep))
    note = "" if prep.ann.n_categories > 1 else \
        "one declared category: Gwet's chance agreement T_w Σπ(1 − π)/(q(q − 1)) is 0/0"
    return _result(measure, prep, value, a_o, a_e, note=note, per_category=per_cat,
                   params=params, **extra)


def _prepared(measure, data, weights, missing, annotators):
    """The prepared data (items rated once kept under "available") and the weights
    (matrix, or None for the identity; name)."""
    prep = prepare(data, measure, missing=missing, annotators=annotators, singles=True,
                   item_weights=True)  # from_contingency cells stay rows with a count
    w, w_name = agreement_weights(weights, prep.ann.categories, prep.ann.ordered, prep.measure)
    return prep, (None if w_name in ("none", "identity") else w), w_name


def _parts(measure, data, weights, missing, annotators):
    """The prepared data, its per-item terms (computed once), the Statistic made of them
    (per item a_i[m_i ≥ 2], [m_i ≥ 2], n_ik/m_i and 1), and the weights (matrix or None,
    name): the value, its standard error and its resamples all read these."""
    prep, w, w_name = _prepared(measure, data, weights, missing, annotators)
    items = F.item_terms(prep.counts, w, prep.weights)
    tables = {"agree": items.agree[:, None], "pairable": items.two[:, None].astype(float),
              "shares": items.item_shares, "items": np.ones((len(items.m), 1))}

    def finish(tot):  # γ = (p_a − p_e)/(1 − p_e), p_e = T_w Σ π(1 − π)/(q(q − 1)), Gwet (2014)
        with np.errstate(divide="ignore", invalid="ignore"):  # a resample of no pair: NaN
            a_o = tot["agree"][:, 0] / tot["pairable"][:, 0]
            a_e = F.gwet_expected(tot["shares"] / tot["items"], w)
        return F.chance_corrected(a_o, a_e), a_o, a_e
    return prep, _statistic(prep, tables, finish), items, w, w_name


def _statistic_of(measure, data, *, weights=None, missing="available", annotators=None,
                  **_):
    """The Statistic of AC1/AC2 (:func:`_parts`)."""
    return _parts(measure, data, weights, missing, annotators)[1]


def _ac1_statistic(data, **kwargs):
    return _statistic_of("gwet_ac1", data, **{**kwargs, "weights": None})


def _ac2_statistic(data, *, weights="quadratic", **kwargs):
    validate.name_or_matrix("gwet_ac2", "weights", weights, FAMILIES)
    return _statistic_of("gwet_ac2", data, weights=weights, **kwargs)


gwet_ac1.statistic = _ac1_statistic
gwet_ac2.statistic = _ac2_statistic
