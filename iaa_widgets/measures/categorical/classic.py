"""The classic agreement coefficients of Meyer's tutorial: percent agreement (with
standard error and confidence interval), Bennett's S (Brennan–Prediger), Scott's π,
Cohen's κ (with asymptotic standard errors), Fleiss' multi-π (with the null test of
Fleiss, Nee & Landis 1979), Davies & Fleiss' multi-κ (Conger's κ, also named
:func:`conger_kappa`) and specific (positive/negative) agreement.

S, π, κ, Fleiss' and Conger's κ take ``weights=``: a family of Gwet (2014, ch. 3)
(:mod:`~iaa_widgets.measures.weights`: identity, linear, quadratic, ordinal, radical,
ratio, circular, bipolar) or a K × K matrix; S, π, Fleiss' and Conger's κ carry Gwet's
(2014, ch. 5) linearised standard error with the finite-population correction
(``population=``). Gwet's AC1/AC2 live in :mod:`~iaa_widgets.measures.categorical.gwet`.

Every function takes :class:`~iaa_widgets.Annotations` or a tidy DataFrame (item,
annotator, label), uses the primary labels only (``params["labels"]`` says so when
secondary labels were present), applies an explicit missing-data policy
(``missing=``, see :mod:`iaa_widgets.measures._prepare`) and returns an
:class:`~iaa_widgets.AgreementResult`. A chance-corrected coefficient whose expected
agreement is 1 (every rating in one category or, for weighted κ, agreement weights of
1 between all the categories used) is 0/0: it is reported as NaN with ``result.note``
saying which, never a ZeroDivisionError.
"""
from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pandas as pd

from ... import validate
from ...data import noted
from ...stats import Statistic, per_item
from ...stats.statistic import DENSE_CELLS
from ...errors import AgreementError
from ...results import AgreementResult
from .. import _formulas as F
from .._prepare import Prepared, prepare
from ..weights import FAMILIES, agreement_weights
from .._registry import register
from .. import _engine

__all__ = ["percent_agreement", "bennett_s", "scott_pi", "cohen_kappa", "fleiss_kappa",
           "davies_fleiss_kappa", "conger_kappa", "specific_agreement"]

TWO_ONLY = ("listwise", "raise")


def _singles_note(params: dict) -> str:
    terms = params.get("items_per_term")
    if not terms or terms["observed"] == terms["se"]:
        return ""
    where = "the expected agreement and the standard error" \
        if terms["expected"] == terms["se"] else "the standard error"
    return (f"{terms['se'] - terms['observed']} item(s) rated once enter {where} but not "
            "the observed agreement, which has no pair of ratings on them "
            "(missing='available', Gwet 2014)")


def _result(measure: str, prep: Prepared, value, a_o, a_e, note: str = "",
            **fields) -> AgreementResult:
    value = float(value)
    if math.isnan(value) and not note:
        note = F.degenerate_note(float(a_o), int(np.count_nonzero(prep.counts.sum(axis=0))))
    params = {**prep.params, **fields.pop("params", {})}
    note = "; ".join(filter(None, [note, _singles_note(params)]))
    note, params = noted(prep.ann, note, params)  # the data's notes, its blank labels
    return AgreementResult(measure=measure, value=value, observed=float(a_o),
                           expected=float(a_e), n_items=prep.n_items,
                           n_annotators=prep.ann.n_annotators, n_ratings=prep.n_ratings,
                           excluded=prep.excluded, params=params, note=note, **fields)


def _z(measure: str, confidence) -> float:
    """z_(1+c)/2 of the normal distribution for the confidence level c."""
    c = validate.confidence(measure, "confidence", confidence)
    return NormalDist().inv_cdf(0.5 + c / 2)


def _categories(prep: Prepared) -> pd.Index:
    return pd.Index(prep.ann.categories, name="category")


def _population(measure: str, population, n: int) -> float:
    """The sampling fraction f = n/N of the n items from a population of N items
    (``population=N``; None: infinite, f = 0), for the finite-population correction
    1 − f of Gwet's (2014, ch. 5) variances."""
    if population is None:
        return 0.0
    big_n = validate.real(measure, "population", population, minimum=n, finite=False)
    return n / big_n


def _weights(weights, prep: Prepared):
    """The K × K agreement weights (None for unweighted, so that the identity takes the
    fast unweighted formulas) and their name."""
    w, name = agreement_weights(weights, prep.ann.categories, prep.ann.ordered, prep.measure)
    return (None if name in ("none", "identity") else w), name


# ---------------------------------------------------------------- percent agreement
@register(family='observed agreement', data='categorical', annotators='many',
          source='Meyer (2009) tutorial; Wilson (1927) interval',
          symbol='A_o (observed agreement)', intervals=('wald', 'wilson'),
          missing=('listwise', 'available', 'pairable', 'raise'), range=(0.0, 1.0),
          report=True, panel=True, engine=_engine.multi_rater(singles=True))
def percent_agreement(data, *, missing: str = "listwise", annotators=None,
                      confidence: float = 0.95, ci: str = "wald") -> AgreementResult:
    r"""Observed agreement A_o, with its standard error and a confidence interval.

    Two annotators: A_o is the share of items both put in the same category (Meyer,
    "Percentage of Agreement"). More annotators: the mean over items of the share of
    agreeing pairs of ratings (Fleiss 1971's A'_o, Meyer "Multiple Raters"). It is not
    chance-corrected: ``expected`` is NaN.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings: [Annotations][iaa_widgets.Annotations], or a tidy table with columns
        ``item``, ``annotator``, ``label`` (anything `iaa.as_annotations` accepts). Primary
        labels only.
    missing : {"listwise", "available", "pairable", "raise"}, default "listwise"
        "listwise": the items every annotator rated. "available": A_o over the items rated
        at least twice, each weighted equally; the items rated once enter the standard
        error as Gwet's (2014, ch. 5) n (``params["items_per_term"]`` counts them).
        "pairable": the same A_o, items rated once excluded and counted. "raise": refuse
        data with a missing rating.
    annotators : sequence of str, optional
        The annotators to use, by name (default: all).
    confidence : float, default 0.95
        Level of the interval ``ci``, in (0, 1).
    ci : {"wald", "wilson"}, default "wald"
        "wald": A_o ± z·SE, cut to [0, 1] (the note says when). "wilson": Wilson's (1927)
        score interval of a binomial proportion, for two annotators only.

    Returns
    -------
    AgreementResult
        ``value`` and ``observed``: A_o; ``expected``: NaN; ``se``; ``ci`` and
        ``ci_method``; ``n_items``, ``n_ratings``; ``excluded``: items left out, by reason;
        ``params``: the arguments, and ``items_per_term`` under "available".

    Raises
    ------
    AgreementError
        If the data cannot be read as ratings of items, a parameter is outside the values
        listed above, no item is left under the policy, or ``ci="wilson"`` is asked for
        more than two annotators.

    See Also
    --------
    iaa_widgets.specific_agreement : Agreement on each category.
    iaa_widgets.tolerance_agreement : Agreement within a tolerance on ordered scores.
    iaa_widgets.bennett_s : A_o corrected for chance with uniform category shares.
    iaa_widgets.bootstrap : A bootstrap interval over items.

    Notes
    -----
    Per item $i$ with $m_i$ ratings and $n_{ic}$ of them in category $c$ (Fleiss 1971):

    $$a_i = \frac{\sum_c n_{ic}(n_{ic} - 1)}{m_i(m_i - 1)}, \qquad
    A_o = \frac{1}{n}\sum_i a_i .$$

    For two annotators $a_i$ is 0 or 1. The standard error is
    $\mathrm{SE} = \sqrt{\sum_i (a_i - A_o)^2 / n}\,/\sqrt{n}$, the binomial
    $\sqrt{A_o(1 - A_o)/n}$ for two annotators. Meyer's slide prints
    $\sqrt{A_o(1 - A_o)}/n$ (0.04 for $A_o = 0.7$, $n = 10$), which divides by $n$
    instead of $\sqrt{n}$; the correct 0.1449 is implemented. Under
    ``missing="available"`` the SE is Gwet's (2014, ch. 5) linearised one, as irrCAC's
    ``pa.coeff.raw`` (R, 1.0): $a^*_i = (n/n'') a_i$, 0 for an item rated once,
    $\mathrm{SE} = \sqrt{\sum_i (a^*_i - A_o)^2 / (n(n - 1))}$.

    References
    ----------
    Meyer, C. M. (2009). *A Brief Tutorial on Inter-Rater Agreement*. Technische
    Universität Darmstadt (DKPro Statistics), slides "Percentage of Agreement".

    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin*, 76(5), 378–382. https://doi.org/10.1037/h0031619

    Wilson, E. B. (1927). Probable inference, the law of succession, and
    statistical inference. *Journal of the American Statistical Association*, 22(158),
    209–212. https://doi.org/10.1080/01621459.1927.10502953

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.). Advanced
    Analytics, LLC. ISBN 978-0970806284.

    Examples
    --------
    Meyer's "Percentage of Agreement" table (rows r2, columns r1): A_o = 7/10.

    >>> data = iaa.Annotations.from_contingency([[2, 2], [1, 5]], categories=["high", "low"],
    ...                                         annotators=("r2", "r1"))
    >>> r = iaa.percent_agreement(data)
    >>> round(r.value, 4), round(r.se, 4)
    (0.7, 0.1449)
    >>> [round(b, 4) for b in r.ci]
    [0.416, 0.984]
    """
    validate.choice("percent_agreement", "ci", ci, ("wald", "wilson"))
    z = _z("percent_agreement", confidence)
    prep, stat, items = _percent_statistic(data, missing=missing, annotators=annotators)
    n = items.n_pairable  # a row of from_contingency data stands for prep.weights items
    a_o = float(_point(stat)[0])
    if missing == "available":  # Gwet (2014, ch. 5): items rated once count in n
        se = F.linearised_se(items, 0.0, 0.0)
    else:  # √(Σ_i (a_i − A_o)² / n) / √n over the n pairable items
        se = math.sqrt(float(items._sum((items.agree - a_o) ** 2)) / n) / math.sqrt(n)
    if ci == "wald":
        interval = (a_o - z * se, a_o + z * se)
    else:
        if prep.ann.n_annotators > 2:
            raise AgreementError("the Wilson interval is defined for a binomial count, i.e. "
                                 "two annotators; use ci='wald' (or bootstrap) with "
                                 f"{prep.ann.n_annotators} annotators")
        # Wilson (1927) score interval for a binomial proportion
        centre = (a_o + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(a_o * (1 - a_o) / n + z * z / (4 * n * n))
        interval = (centre - half, centre + half)
    terms = prep.params.get("items_per_term")
    extra = {"items_per_term": {**terms, "expected": 0}} if terms else {}  # no A_e
    return _result("percent_agreement", prep, a_o, a_o, float("nan"), se=se, ci=interval,
                   ci_method=f"{ci} {confidence:.0%}",
                   note="percent agreement is not chance-corrected: no expected "
                        "agreement (NaN)",
                   params={**extra, "confidence": confidence, "ci": ci})


# ----------------------------------------------------------------- Bennett's S
@register(family='chance-corrected agreement', data='categorical', annotators='many',
          source='Bennett, Alpert & Goldstein (1954); Gwet (2014, ch. 3 and 5) for '
                 'weights and SE',
          symbol='S (Bennett)', intervals=('wald',),
          missing=('listwise', 'available', 'pairable', 'raise'), report=True, panel=True,
          engine=_engine.multi_rater(singles=True))
def bennett_s(data, *, weights=None, missing: str = "listwise", annotators=None,
              confidence: float = 0.95, population=None) -> AgreementResult:
    r"""Bennett, Alpert & Goldstein's (1954) S: A_o corrected for chance with uniform shares.

    The expected agreement is that of annotators who pick each of the k declared
    categories (used or not) with equal chance, A_e = 1/k (Meyer, "Chance-corrected
    Measures"). This is Brennan & Prediger's (1981) coefficient; with more than two
    annotators A_o is Fleiss' multi-rater A'_o, which makes S Randolph's (2005)
    free-marginal multirater κ.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings: [Annotations][iaa_widgets.Annotations], or a tidy table with columns
        ``item``, ``annotator``, ``label``. Primary labels only.
    weights : str or array_like or pandas.DataFrame, optional
        Agreement weights: None (default, unweighted), a family of Gwet (2014, ch. 3):
        "identity", "linear", "quadratic", "ordinal", "radical", "ratio", "circular",
        "bipolar" (over numeric labels' values, or the positions of a declared order), or a
        K × K matrix (a DataFrame aligned by its labels, or an array in declared order).
    missing : {"listwise", "available", "pairable", "raise"}, default "listwise"
        "listwise": the items every annotator rated. "available" (Gwet 2014): A_o over the
        items rated at least twice; A_e takes nothing from the data, but the items rated
        once enter the variance as Gwet's n. "pairable": items rated once excluded,
        counted. "raise": refuse data with a missing rating.
    annotators : sequence of str, optional
        The annotators to use, by name (default: all).
    confidence : float, default 0.95
        Level of the Wald interval ``ci``, in (0, 1).
    population : int, optional
        Size N of the population the n items were drawn from, for the finite-population
        correction 1 − n/N of the variance (None: infinite).

    Returns
    -------
    AgreementResult
        ``value``: S; ``observed``: A_o; ``expected``: A_e; ``se`` (Gwet 2014, ch. 5) and
        the Wald ``ci``; ``params["k"]``: the number of declared categories;
        ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        If the data cannot be read as ratings of items, ``weights`` is neither a family
        nor a K × K matrix of the categories, a parameter is outside the values listed
        above, or no item is left under the policy.

    See Also
    --------
    iaa_widgets.percent_agreement : A_o alone.
    iaa_widgets.scott_pi : Chance from the pooled category shares.
    iaa_widgets.cohen_kappa : Chance from each annotator's category shares.
    iaa_widgets.maxwell_re : S for two categories.
    iaa_widgets.gwet_ac1 : Chance from the shares' spread.

    Notes
    -----
    With agreement weights $w_{kl}$ (the identity unless ``weights`` is given) and k
    declared categories (Gwet 2014, ch. 3):

    $$S = \frac{A_o - A_e}{1 - A_e}, \qquad A_e = \frac{1}{k^2}\sum_{kl} w_{kl}
    \quad (= 1/k \text{ unweighted}).$$

    One declared category gives $A_e = 1$: the value is NaN, with a note. ``se`` is
    Gwet's (2014, ch. 5) standard error over the sampling of items, as irrCAC's
    ``bp.coeff.raw``.

    References
    ----------
    Bennett, E. M., Alpert, R., & Goldstein, A. C. (1954). Communications through
    limited-response questioning. *Public Opinion Quarterly*, 18(3), 303–308.
    https://doi.org/10.1086/266520

    Brennan, R. L., & Prediger, D. J. (1981). Coefficient kappa: some uses, misuses,
    and alternatives. *Educational and Psychological Measurement*, 41(3), 687–699.
    https://doi.org/10.1177/001316448104100307

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.). Advanced
    Analytics, LLC. ISBN 978-0970806284.

    Meyer, C. M. (2009). *A Brief Tutorial on Inter-Rater Agreement*. Technische
    Universität Darmstadt, slide "Chance-corrected Measures: Example".

    Examples
    --------
    Meyer's example prints A_e^S = 0.5 and S = 0.4.

    >>> data = iaa.Annotations.from_contingency([[2, 2], [1, 5]], categories=["high", "low"],
    ...                                         annotators=("r2", "r1"))
    >>> r = iaa.bennett_s(data)
    >>> round(r.expected, 4), round(r.value, 4)
    (0.5, 0.4)
    """
    z_crit = _z("bennett_s", confidence)
    prep, stat, items, w, w_name = _bennett_statistic(data, weights=weights, missing=missing,
                                                      annotators=annotators)
    value, a_o, a_e = _point(stat)
    f = _population("bennett_s", population, prep.n_items)
    se = F.linearised_se(items, a_e, a_e, f)
    terms = prep.params.get("items_per_term")
    extra = {"items_per_term": {**terms, "expected": 0}} if terms else {}  # A_e: no data
    return _result("bennett_s", prep, value, a_o, a_e,
                   params={**extra, "k": prep.ann.n_categories, "weights": w_name,
                           "confidence": confidence, "population": population},
                   **_wald(value, se, confidence, z_crit))


# ------------------------------------------------------------------ Scott's π
@register(family='chance-corrected agreement', data='categorical', annotators='two',
          source='Scott (1955); Gwet (2014) for weights and SE', symbol='π (Scott)',
          intervals=('wald',), missing=('listwise', 'raise'), report=True, panel=True,
          engine=_engine.pair_table)
def scott_pi(data, *, weights=None, missing: str = "listwise", annotators=None,
             confidence: float = 0.95, population=None) -> AgreementResult:
    r"""Scott's (1955) π for two annotators: chance from the pooled category shares.

    The expected agreement is that of two annotators who both draw from the categories'
    shares pooled over the two (Meyer, "Chance-corrected Measures"). π is Fleiss' κ of
    two annotators.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings of two annotators (or pick two with ``annotators``):
        [Annotations][iaa_widgets.Annotations], or a tidy table with columns ``item``,
        ``annotator``, ``label``. Primary labels only.
    weights : str or array_like or pandas.DataFrame, optional
        Agreement weights: None (default), a family of Gwet (2014, ch. 3) ("identity",
        "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar") or a
        K × K matrix (a DataFrame aligned by its labels, or an array in declared order).
    missing : {"listwise", "raise"}, default "listwise"
        "listwise": the items both annotators rated. "raise": refuse a missing rating.
    annotators : tuple of str, optional
        The two annotators to compare, by name (needed when the data have more).
    confidence : float, default 0.95
        Level of the Wald interval ``ci``, in (0, 1).
    population : int, optional
        Size N of the population of items, for the finite-population correction 1 − n/N
        (None: infinite).

    Returns
    -------
    AgreementResult
        ``value``: π; ``observed``: A_o; ``expected``: A_e^π; ``se`` (Gwet 2014, ch. 5)
        and the Wald ``ci``; ``per_category``: the pooled ``share`` of each category.

    Raises
    ------
    AgreementError
        If the data have other than two annotators and ``annotators`` does not pick two,
        ``weights`` or another parameter is not one of the accepted values, or no item is
        rated by both.

    See Also
    --------
    iaa_widgets.fleiss_kappa : Multi-π, for any number of annotators.
    iaa_widgets.cohen_kappa : Chance from each annotator's own shares.
    iaa_widgets.bennett_s : Chance from uniform shares.
    iaa_widgets.pairwise : π of every pair of annotators.

    Notes
    -----
    With the pooled shares $\pi_k = (n_{k\cdot} + n_{\cdot k}) / 2n$ of the 2 × n ratings
    and agreement weights $w_{kl}$ (Scott 1955; Gwet 2014, ch. 3):

    $$\pi = \frac{A_o - A_e}{1 - A_e}, \qquad A_o = \sum_{kl} w_{kl} p_{kl}, \qquad
    A_e = \sum_{kl} w_{kl} \pi_k \pi_l .$$

    Unweighted, $A_e = \sum_c \pi_c^2$. Expected agreement 1 gives NaN, with a note.
    ``se`` is Gwet's (2014, ch. 5) linearised standard error.

    References
    ----------
    Scott, W. A. (1955). Reliability of content analysis: the case of nominal
    scale coding. *Public Opinion Quarterly*, 19(3), 321–325.
    https://doi.org/10.1086/266577

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.). Advanced
    Analytics, LLC. ISBN 978-0970806284.

    Meyer, C. M. (2009). *A Brief Tutorial on Inter-Rater Agreement*. Technische
    Universität Darmstadt, slide "Chance-corrected Measures: Example".

    Examples
    --------
    Meyer's example: A_e^π = 218/400 = 0.545, π printed 0.341.

    >>> data = iaa.Annotations.from_contingency([[2, 2], [1, 5]], categories=["high", "low"],
    ...                                         annotators=("r2", "r1"))
    >>> r = iaa.scott_pi(data)
    >>> round(r.expected, 4), round(r.value, 4)
    (0.545, 0.3407)
    """
    z_crit = _z("scott_pi", confidence)
    prep, stat = _scott_statistic(data, weights=weights, missing=missing,
                                  annotators=annotators)
    w, w_name = _weights(weights, prep)
    t = prep.contingency()  # kept as integers: its sums are the Statistic's totals
    value, a_o, a_e = (float(x[0]) for x in stat.finish(_table_totals(t, w)))
    pooled = (t.sum(axis=0) + t.sum(axis=1)) / (2 * t.sum())
    per_cat = pd.DataFrame({"share": pooled}, index=_categories(prep))
    f = _population("scott_pi", population, prep.n_items)
    se = F.fleiss_se(F.item_terms(prep.counts, w, prep.weights), w, f)
    return _result("scott_pi", prep, value, a_o, a_e, per_category=per_cat,
                   params={"weights": w_name, "confidence": confidence,
                           "population": population},
                   **_wald(value, se, confidence, z_crit))


# ------------------------------------------------------------------ Cohen's κ
@register(family='chance-corrected agreement', data='categorical', annotators='two',
          source='Cohen (1960, 1968); Fleiss, Cohen & Everitt (1969)', symbol='κ (Cohen)',
          intervals=('asymptotic',), missing=('listwise', 'raise'), report=True,
          panel=True, benchmarked=True, engine=_engine.pair_table)
def cohen_kappa(data, *, weights=None, missing: str = "listwise", annotators=None,
                confidence: float = 0.95) -> AgreementResult:
    r"""Cohen's (1960) κ for two annotators, and weighted κ (Cohen 1968).

    The expected agreement is that of two annotators who keep their own category shares
    but rate independently (Meyer, "Chance-corrected Measures"). With ``weights``,
    disagreements between near categories earn partial credit.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings of two annotators (or pick two with ``annotators``):
        [Annotations][iaa_widgets.Annotations], or a tidy table with columns ``item``,
        ``annotator``, ``label``. Primary labels only. Data from
        ``Annotations.from_counts`` are refused (κ needs to know who rated what).
    weights : str or array_like or pandas.DataFrame, optional
        None (default, unweighted) or one of Gwet's (2014, ch. 3) families: "linear"
        (1 − |x_i − x_j|/(x_max − x_min)), "quadratic" (1 − (x_i − x_j)²/(x_max −
        x_min)²), "ordinal", "radical", "ratio", "circular", "bipolar", "identity", over
        the category values x for numeric labels and the positions in the declared order
        for text labels (refused when no order was declared); or a K × K matrix of
        agreement weights (1 on the diagonal; rows are the first annotator's
        categories): a DataFrame aligned by its labels, or a bare array in declared order.
    missing : {"listwise", "raise"}, default "listwise"
        "listwise": the items both annotators rated. "raise": refuse a missing rating.
    annotators : tuple of str, optional
        The two annotators to compare, by name (needed when the data have more).
    confidence : float, default 0.95
        Level of the interval ``ci``, in (0, 1).

    Returns
    -------
    AgreementResult
        ``value``: κ; ``observed``: A_o; ``expected``: A_e^κ; ``se``: the large-sample
        standard error under the alternative (Fleiss, Cohen & Everitt 1969) and its Wald
        ``ci``; ``params``: ``se_null`` (the SE under κ = 0), ``z`` = κ / se_null and its
        two-sided ``p_value``; ``per_category``: each annotator's count and the
        agreements per category.

    Raises
    ------
    AgreementError
        If the data have other than two annotators and ``annotators`` does not pick two,
        come from ``Annotations.from_counts``, ``weights`` is not a family or a matrix of
        the categories (or needs an order that was not declared), or no item is rated by
        both.

    See Also
    --------
    iaa_widgets.davies_fleiss_kappa : Multi-κ (Conger's κ), any number of annotators.
    iaa_widgets.light_kappa : Mean of the pairs' κ.
    iaa_widgets.kappa_max : The largest κ the marginals allow.
    iaa_widgets.scott_pi : Chance from the pooled shares.
    iaa_widgets.pairwise : κ of every pair of annotators.
    iaa_widgets.benchmark : Read κ against a benchmark scale.

    Notes
    -----
    With $p_{kl}$ the share of items the first annotator put in $k$ and the second in
    $l$, margins $p_{k\cdot}$, $p_{\cdot l}$, and agreement weights $w_{kl}$ (Cohen
    1960, 1968):

    $$\kappa_w = \frac{A_o - A_e}{1 - A_e}, \qquad A_o = \sum_{kl} w_{kl} p_{kl},
    \qquad A_e = \sum_{kl} w_{kl} p_{k\cdot} p_{\cdot l} .$$

    Expected agreement 1 gives NaN, with a note. The variances under the alternative and
    under κ = 0 are those of Fleiss, Cohen & Everitt (1969).

    Differences from other software (tests/test_differences.py): R's ``irr::kappa2``
    with weights on numeric ratings sorts ten or more levels as text ("10" before "2")
    and spaces its weights over the levels used: for a = 1…10, 2, 5, 9, 10, 1 and
    b = 2, 2, 4, 4, 6, 6, 8, 8, 10, 9, 3, 4, 10, 10, 1, quadratic κ_w is 0.9692 here and
    in scikit-learn, 0.2187 in irr. ``psych::cohen.kappa`` 1.7.8–2.2.9 puts a row sum
    where a column sum belongs in the variance of weighted κ: on Fleiss, Cohen &
    Everitt's (1969) table with psych's example weights it gives 0.00275 against
    0.00325 (ours and statsmodels); psych 2.3.3 and later agree with us. Called
    without ``levels=``, ``psych::cohen.kappa`` too spaces its weights over the levels
    used, as irr does; pass ``levels=`` the declared categories to get ours.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational
    and Psychological Measurement*, 20(1), 37–46.
    https://doi.org/10.1177/001316446002000104

    Cohen, J. (1968). Weighted kappa: nominal scale agreement with provision for
    scaled disagreement or partial credit. *Psychological Bulletin*, 70(4), 213–220.
    https://doi.org/10.1037/h0026256

    Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard errors
    of kappa and weighted kappa. *Psychological Bulletin*, 72(5), 323–327.
    https://doi.org/10.1037/h0028106

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.). Advanced
    Analytics, LLC. ISBN 978-0970806284.

    Meyer, C. M. (2009). *A Brief Tutorial on Inter-Rater Agreement*. Technische
    Universität Darmstadt, slide "Chance-corrected Measures: Example".

    Examples
    --------
    Meyer's example: A_e^κ = (3·4 + 6·7)/10² = 0.54, κ = 0.16/0.46, printed 0.348.

    >>> data = iaa.Annotations.from_contingency([[2, 2], [1, 5]], categories=["high", "low"],
    ...                                         annotators=("r2", "r1"))
    >>> r = iaa.cohen_kappa(data)
    >>> round(r.expected, 4), round(r.value, 4)
    (0.54, 0.3478)

    Weighted κ on the ten-level ratings above (the value scikit-learn's
    ``cohen_kappa_score(a, b, weights="quadratic")`` gives):

    >>> a = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 2, 5, 9, 10, 1]
    >>> b = [2, 2, 4, 4, 6, 6, 8, 8, 10, 9, 3, 4, 10, 10, 1]
    >>> wide = pd.DataFrame({"a": a, "b": b})
    >>> round(iaa.cohen_kappa(iaa.Annotations.from_wide(wide), weights="quadratic").value, 4)
    0.9692
    """
    z_crit = _z("cohen_kappa", confidence)
    prep, stat = _cohen_statistic(data, weights=weights, missing=missing,
                                  annotators=annotators)
    t = prep.contingency()  # kept as integers: its sums are the Statistic's totals
    w, w_name = agreement_weights(weights, prep.ann.categories, prep.ann.ordered, prep.measure)
    kappa, a_o, a_e = (float(x[0]) for x in stat.finish(_table_totals(t, w)))
    se, se0 = (float(x) for x in F.cohen_se(t, w))
    params = {"weights": w_name, "confidence": confidence}
    extra, note = {}, ""
    if not math.isnan(kappa):
        extra = {"se": se, "ci": (kappa - z_crit * se, kappa + z_crit * se),
                 "ci_method": f"asymptotic (Fleiss, Cohen & Everitt 1969) {confidence:.0%}"}
        z = kappa / se0 if se0 > 0 else float("nan")
        params.update(se_null=se0, z=z,
                      p_value=math.erfc(abs(z) / math.sqrt(2)) if se0 > 0 else float("nan"))
        if not se0 > 0:  # var₀(κ̂) = 0, e.g. each annotator used one category (one item)
            one_each = np.count_nonzero(t.sum(axis=1)) == np.count_nonzero(t.sum(axis=0)) == 1
            note = ("z and p_value are undefined (NaN): the standard error under κ = 0 is 0"
                    + (", as each annotator used a single category" if one_each else ""))
    a, b = prep.ann.annotators
    per_cat = pd.DataFrame({f"n {a}": t.sum(axis=1), f"n {b}": t.sum(axis=0),
                            "agreements": np.diagonal(t)}, index=_categories(prep))
    return _result("cohen_kappa", prep, kappa, a_o, a_e, note=note, per_category=per_cat,
                   params=params, **extra)


# ------------------------------------------------------------ Fleiss' multi-π
@register(family='chance-corrected agreement', data='categorical', annotators='many',
          source="Fleiss (1971); Gwet (2008, 2014) for the SE and missing='available'",
          symbol='multi-π (Fleiss)', intervals=('wald',),
          missing=('listwise', 'available', 'pairable', 'raise'), report=True,
          engine=_engine.multi_rater(singles=True))
def fleiss_kappa(data, *, weights=None, missing: str = "listwise", annotators=None,
                 confidence: float = 0.95, population=None) -> AgreementResult:
    r"""Fleiss' (1971) κ, i.e. multi-π, for any number of annotators.

    A'_o is the mean per-item share of agreeing pairs of ratings; A'_e = Σ_c p_c² with p_c
    the pooled share of category c (Meyer, "Multiple Raters"). It works on anonymous
    per-item counts (``Annotations.from_counts``): it needs no annotator identity.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings: [Annotations][iaa_widgets.Annotations] (per-item counts included), or
        a tidy table with columns ``item``, ``annotator``, ``label``. Primary labels only.
    weights : str or array_like or pandas.DataFrame, optional
        Agreement weights: None (default), a family of Gwet (2014, ch. 3) ("identity",
        "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar") or a
        K × K matrix (a DataFrame aligned by its labels, or an array in declared order);
        as irrCAC's ``fleiss(weights=...)``.
    missing : {"listwise", "available", "pairable", "raise"}, default "listwise"
        "listwise": the items rated by every annotator (by the most annotators any item
        has, for count data). "available" (Gwet 2014, ch. 2 and 5): A'_o over the n''
        items rated at least twice, p_c and the variance over all n items with a rating,
        items rated once included (``params["items_per_term"]`` and the note count them).
        "pairable": the items rated at least twice, in every term. "raise": refuse data
        with a missing rating.
    annotators : sequence of str, optional
        The annotators to use, by name (default: all).
    confidence : float, default 0.95
        Level of the Wald interval ``ci``, in (0, 1).
    population : int, optional
        Size N of the population of items, for the finite-population correction 1 − n/N
        (None: infinite).

    Returns
    -------
    AgreementResult
        ``value``: κ; ``observed``: A'_o; ``expected``: A'_e; ``se`` over the sampling of
        items with the raters fixed (Gwet 2008) and the Wald ``ci``; ``params``:
        ``se_null``, ``z`` and ``p_value`` of the test of κ = 0 (Fleiss, Nee & Landis
        1979; unweighted, every item rated by the same number of annotators, NaN with a
        note otherwise); ``per_category``: ``share`` p_c, Fleiss' category-wise ``kappa``
        and its null ``se_null``, ``z``, ``p_value`` (unweighted; the shares only with
        weights).

    Raises
    ------
    AgreementError
        If the data cannot be read as ratings of items, ``weights`` or another parameter
        is not one of the accepted values, or no item is left under the policy.

    See Also
    --------
    iaa_widgets.scott_pi : The same coefficient for two annotators.
    iaa_widgets.davies_fleiss_kappa : Chance from each annotator's own shares.
    iaa_widgets.gwet_ac1 : Gwet's AC1, less affected by skewed shares.
    iaa_widgets.krippendorff_alpha : α, with missing ratings and other metrics.
    iaa_widgets.bootstrap : A bootstrap interval over items.

    Notes
    -----
    Item $i$ has $m_i$ ratings, $n_{ic}$ of them in category $c$; $w_{kl}$ are the
    agreement weights (the identity unless ``weights`` is given; Fleiss 1971; Gwet
    2014, ch. 3):

    $$a_i = \frac{\sum_k n_{ik}(n^*_{ik} - 1)}{m_i(m_i - 1)}, \quad
    n^*_{ik} = \sum_l w_{kl} n_{il}, \quad
    p_c = \frac{1}{n}\sum_i \frac{n_{ic}}{m_i},$$

    $$\kappa = \frac{A'_o - A'_e}{1 - A'_e}, \qquad A'_o = \frac{1}{n}\sum_i a_i, \qquad
    A'_e = \sum_{kl} w_{kl} p_k p_l .$$

    ``se`` is Gwet's (2008) linearised standard error, as irrCAC computes it; irrCAC
    takes Student's t with n − 1 degrees of freedom for its interval, which differs
    only for a handful of items. The null test (R irr's ``kappam.fleiss``) uses the
    variance of Fleiss, Nee & Landis (1979); a category's null SE is
    $\sqrt{2/(nm(m - 1))}$.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin*, 76(5), 378–382. https://doi.org/10.1037/h0031619

    Fleiss, J. L., Nee, J. C. M., & Landis, J. R. (1979). Large sample variance of
    kappa in the case of different sets of raters. *Psychological Bulletin*, 86(5),
    974–977. https://doi.org/10.1037/0033-2909.86.5.974

    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the
    presence of high agreement. *British Journal of Mathematical and Statistical
    Psychology*, 61(1), 29–48. https://doi.org/10.1348/000711006X126600

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.). Advanced
    Analytics, LLC. ISBN 978-0970806284.

    Meyer, C. M. (2009). *A Brief Tutorial on Inter-Rater Agreement*. Technische
    Universität Darmstadt, slide "Multiple Raters: Example for multi-π".

    Examples
    --------
    Meyer's three raters of ten word pairs: A'_o = 32/60, A'_e = 458/900, multi-π =
    22/442 (printed 0.049, truncated).

    >>> data = iaa.datasets.meyer_relatedness()
    >>> r = iaa.fleiss_kappa(data)
    >>> round(r.observed, 4), round(r.expected, 4), round(r.value, 4)
    (0.5333, 0.5089, 0.0498)

    The same from the slide's agreement table of per-item counts (high, low):

    >>> counts = [[3, 0], [2, 1], [2, 1], [2, 1], [1, 2], [0, 3], [0, 3], [1, 2], [1, 2], [1, 2]]
    >>> round(iaa.fleiss_kappa(iaa.Annotations.from_counts(counts, ["high", "low"])).value, 4)
    0.0498
    """
    z_crit = _z("fleiss_kappa", confidence)
    prep, stat, items, w, w_name = _fleiss_statistic(data, weights=weights, missing=missing,
                                                     annotators=annotators)
    kappa, a_o, a_e = _point(stat)
    se = F.fleiss_se(items, w, _population("fleiss_kappa", population, prep.n_items))
    params = {"weights": w_name, "confidence": confidence, "population": population}
    if w is None:
        shares, kappa_c = items.shares, F.fleiss_per_category(items)
        se0, se0_c = F.fleiss_null_se(prep.counts)
        z, z_c = kappa / se0, kappa_c / se0_c
        params.update(se_null=se0, z=z, p_value=math.erfc(abs(z) / math.sqrt(2)))
        per_cat = pd.DataFrame({"share": shares, "kappa": kappa_c, "se_null": se0_c,
                                "z": z_c, "p_value": _two_sided(z_c)},
                               index=_categories(prep))
        note = "" if not math.isnan(se0) or math.isnan(kappa) else \
            ("z and p_value under κ = 0 are undefined (NaN): the null variance of Fleiss, "
             "Nee & Landis (1979) needs every item rated by the same number of annotators")
    else:
        per_cat = pd.DataFrame({"share": items.shares}, index=_categories(prep))
        note = ""
    return _result("fleiss_kappa", prep, kappa, a_o, a_e, note=note, per_category=per_cat,
                   params=params, **_wald(kappa, se, confidence, z_crit))


def _two_sided(z):
    """Two-sided normal p-values 2(1 − Φ(|z|)) of an array (NaN stays NaN)."""
    from scipy.special import erfc  # vectorised erfc; loads on first use only
    return erfc(np.abs(np.asarray(z, float)) / math.sqrt(2))


def _wald(kappa: float, se: float, confidence: float, z_crit: float) -> dict:
    """se, the Wald interval κ ± z·se and its name; nothing where se is NaN."""
    if math.isnan(se):
        return {}
    return {"se": se, "ci": (kappa - z_crit * se, kappa + z_crit * se),
            "ci_method": f"Wald {confidence:.0%}, Gwet (2008) linearised variance"}


# ----------------------------------------------------- Davies & Fleiss' multi-κ
def _davies_without_each(data, *, weights=None, missing: str = "listwise", annotators=None,
                         **_) -> np.ndarray | None:
    """Conger's κ without each annotator j in turn (values, in the annotators' order), from
    one pass over the ratings instead of one Statistic per version; None where it does
    not apply (``annotators=``, weighted rows, many categories or annotators).

    Version j has J − 1 annotators, so its policy keeps the items by m_i − [j rated i]
    (:func:`~iaa_widgets.measures._prepare.kept` with J − 1). Its A'_o = Σ a_i / Σ [m_i ≥ 2]
    over the kept items (Fleiss 1971's P_i) takes, on the items j rated, the terms of the
    counts n_i − e(x_ij): each rating adds its item's term without it and removes the
    item's own. Its n_rc (Conger 1980's p_rc = n_rc / n_r) is A_rc = Σ_i keep(m_i)[x_ir = c]
    minus D_jrc = Σ_{i rated by j} (keep(m_i) − keep(m_i − 1))[x_ir = c], one sparse
    product of the annotators' items and the ratings; then A'_e and κ as
    :func:`davies_fleiss_kappa` finishes them."""
    if annotators is not None:
        return None
    prep = prepare(data, "davies_fleiss_kappa", missing=missing, identity=True, singles=True)
    ann = prep.ann
    n, n_ann, k = ann.n_items, ann.n_annotators, ann.n_categories
    if ann.rating_count is not None or n * k > DENSE_CELLS or n_ann * n_ann * k > DENSE_CELLS:
        return None
    w, _ = _weights(weights, prep)
    prim = ann.primary()
    rated = prim.label >= 0  # a blank label: no rating
    item, who, label = prim.item[rated], prim.annotator[rated], prim.label[rated]
    counts = np.bincount(item * k + label, minlength=n * k).reshape(n, k).astype(float)
    m = counts.sum(axis=1)
    fewer = n_ann - 1

    def keep(mm):  # the items version j's policy keeps (kept(), with J − 1 annotators)
        if missing == "available":
            return mm >= 1
        return mm >= 2 if missing == "pairable" else mm == fewer

    def agree(rows, mm):  # a_i [m_i ≥ 2] (Fleiss 1971's P_i; Gwet 2014 weighted)
        return np.where(mm >= 2, F.item_agreement(rows, w), 0.0)

    whole, whole_kept = agree(counts, m), keep(m)
    rows = counts[item]
    rows[np.arange(len(item)), label] -= 1  # the item's counts without this rating
    less, less_kept = agree(rows, m[item] - 1), keep(m[item] - 1)
    a_sum = np.sum(whole * whole_kept) + np.bincount(
        who, less * less_kept - whole[item] * whole_kept[item], minlength=n_ann)
    pairs = np.sum((m >= 2) & whole_kept) + np.bincount(
        who, ((m[item] >= 3) & less_kept).astype(float) -
        ((m[item] >= 2) & whole_kept[item]), minlength=n_ann)
    from scipy import sparse
    ones = sparse.csr_matrix((np.ones(len(item)), (item, who * k + label)),
                             shape=(n, n_ann * k))
    step = whole_kept.astype(float) - keep(m - 1)  # keep(m_i) − keep(m_i − 1)
    by_j = sparse.csr_matrix((step[item], (item, who)), shape=(n, n_ann))
    n_rc = np.bincount(who * k + label, weights=whole_kept[item].astype(float),
                       minlength=n_ann * k) - (by_j.T @ ones).toarray()  # J × (J·K)
    others = ~np.eye(n_ann, dtype=bool)  # version j: the annotators but j
    n_rc = n_rc.reshape(n_ann, n_ann, k)[others].reshape(n_ann, fewer, k)
    with np.errstate(divide="ignore", invalid="ignore"):
        shares = n_rc / n_rc.sum(axis=-1, keepdims=True)  # NaN for one who rated none
        a_o = a_sum / pairs
    return F.chance_corrected(a_o, F.conger_expected(shares, w))


@register(family='chance-corrected agreement', data='categorical', annotators='many',
          source='Davies & Fleiss (1982); Conger (1980); Gwet (2014) for the SE',
          symbol='multi-κ (Davies & Fleiss, Conger)', intervals=('wald',),
          missing=('listwise', 'available', 'pairable', 'raise'),
          aliases=('conger_kappa',), report=True, engine=_engine.multi_rater(singles=True),
          without_each=_davies_without_each)
def davies_fleiss_kappa(data, *, weights=None, missing: str = "listwise", annotators=None,
                        confidence: float = 0.95, population=None) -> AgreementResult:
    r"""Davies & Fleiss' (1982) multi-κ, Conger's (1980) κ, for any number of annotators.

    A'_o is that of [fleiss_kappa][iaa_widgets.fleiss_kappa]; the expected agreement keeps
    each annotator's own category shares, averaged over the pairs of annotators (Meyer,
    "Multiple Raters"). Also reachable as `conger_kappa`.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings: [Annotations][iaa_widgets.Annotations], or a tidy table with columns
        ``item``, ``annotator``, ``label``. Primary labels only. Anonymous data from
        ``Annotations.from_counts`` are refused.
    weights : str or array_like or pandas.DataFrame, optional
        Agreement weights: None (default), a family of Gwet (2014, ch. 3) ("identity",
        "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar") or a
        K × K matrix (a DataFrame aligned by its labels, or an array in declared order).
    missing : {"listwise", "available", "pairable", "raise"}, default "listwise"
        "listwise": the items every annotator rated. "available" (Gwet 2014): A'_o over
        the items rated at least twice, p_rc over every item annotator r rated, items
        rated once included, and the variance over every item with a rating.
        "pairable": the items rated at least twice, in every term. "raise": refuse data
        with a missing rating.
    annotators : sequence of str, optional
        The annotators to use, by name (default: all).
    confidence : float, default 0.95
        Level of the Wald interval ``ci``, in (0, 1).
    population : int, optional
        Size N of the population of items, for the finite-population correction 1 − n/N
        (None: infinite).

    Returns
    -------
    AgreementResult
        ``value``: κ; ``observed``: A'_o; ``expected``: A'_e; ``se`` (Gwet 2014, ch. 5,
        as irrCAC's ``conger()``) and the Wald ``ci``; ``per_category``: each annotator's
        category shares.

    Raises
    ------
    AgreementError
        If the data cannot be read as ratings by named annotators, ``weights`` or another
        parameter is not one of the accepted values, no item is left under the policy, or
        an annotator rated none of the items used (leave them out with ``annotators``).

    See Also
    --------
    iaa_widgets.fleiss_kappa : Chance from the pooled shares (multi-π).
    iaa_widgets.cohen_kappa : The same coefficient for two annotators.
    iaa_widgets.hubert_kappa : Hubert's κ, equal on complete data.
    iaa_widgets.light_kappa : Mean of the pairs' Cohen's κ.

    Notes
    -----
    With $p_{rc}$ annotator $r$'s share of category $c$ over the items it rated, $R$
    annotators and agreement weights $w_{kl}$ (Conger 1980; Davies & Fleiss 1982; Gwet
    2014, ch. 3):

    $$\kappa = \frac{A'_o - A'_e}{1 - A'_e}, \qquad
    A'_e = \binom{R}{2}^{-1} \sum_{r < s} \sum_{kl} w_{kl}\, p_{rk}\, p_{sl} .$$

    $A'_o$ is Fleiss' (1971) mean per-item share of agreeing pairs of ratings.
    ``se`` is Gwet's (2014, ch. 5) linearised standard error over the sampling of items.

    References
    ----------
    Davies, M., & Fleiss, J. L. (1982). Measuring agreement for multinomial data.
    *Biometrics*, 38(4), 1047–1051.

    Conger, A. J. (1980). Integration and generalization of kappas for multiple
    raters. *Psychological Bulletin*, 88(2), 322–328.
    https://doi.org/10.1037/0033-2909.88.2.322

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.). Advanced
    Analytics, LLC. ISBN 978-0970806284.

    Meyer, C. M. (2009). *A Brief Tutorial on Inter-Rater Agreement*. Technische
    Universität Darmstadt, slide "Multiple Raters: Generalized Measures".

    Examples
    --------
    Meyer's three raters of ten word pairs (the slide defines multi-κ but prints no
    value): the raters' shares of "high" are 0.3, 0.4 and 0.6, so A'_e = 1.48/3 and
    κ = (32/60 − 1.48/3)/(1 − 1.48/3) = 0.0789.

    >>> r = iaa.davies_fleiss_kappa(iaa.datasets.meyer_relatedness())
    >>> round(r.expected, 4), round(r.value, 4)
    (0.4933, 0.0789)
    """
    z_crit = _z("davies_fleiss_kappa", confidence)
    prep, stat, items, w, w_name = _davies_statistic(data, weights=weights, missing=missing,
                                                     annotators=annotators)
    tot = stat.total()
    n_rc = tot["n_rc"].reshape(prep.ann.n_annotators, -1)  # each annotator's n_rc
    n_r = n_rc.sum(axis=1)
    if np.any(n_r == 0):
        idle = list(prep.ann.annotators[n_r == 0])
        raise AgreementError(f"davies_fleiss_kappa: annotator(s) {idle!r} rated none of the "
                             f"items used under missing={missing!r}; leave them out with "
                             "annotators=[...]")
    shares = n_rc / n_r[:, None]
    kappa, a_o, a_e = _point(stat, tot)
    f = _population("davies_fleiss_kappa", population, prep.n_items)
    se = F.conger_se(items, n_rc, *prep.ratings(), w, f)
    per_cat = pd.DataFrame(shares.T, index=_categories(prep),
                           columns=[f"share {a}" for a in prep.ann.annotators])
    return _result("davies_fleiss_kappa", prep, kappa, a_o, a_e, per_category=per_cat,
                   params={"weights": w_name, "confidence": confidence,
                           "population": population},
                   **_wald(kappa, se, confidence, z_crit))


conger_kappa = davies_fleiss_kappa  # Conger (1980): the same coefficient, by his name


# --------------------------------------------------------- specific agreement
@register(family='observed agreement', data='categorical', annotators='many',
          source='Cicchetti & Feinstein (1990); Uebersax (1982)',
          symbol='specific agreement',
          missing=('listwise', 'available', 'pairable', 'raise'), range=(0.0, 1.0),
          engine=_engine.multi_rater(singles=False))
def specific_agreement(data, *, positive=None, missing: str = "listwise",
                       annotators=None) -> AgreementResult:
    r"""Specific agreement per category: agreements on c over the opportunities to agree on c.

    For two annotators this is 2 n_cc / (n_c,r1 + n_c,r2); for binary data the two values
    are the positive and negative agreement A_o+ and A_o− (Cicchetti & Feinstein 1990;
    Meyer, "Equal Weights"). Any number of annotators and categories (Uebersax 1982). It is
    not chance-corrected: ``expected`` is NaN.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings: [Annotations][iaa_widgets.Annotations], or a tidy table with columns
        ``item``, ``annotator``, ``label``. Primary labels only.
    positive : label, optional
        The category whose specific agreement is ``value``. By default, for two
        categories, 1 (or True) when the categories are {0, 1}, else the first category of
        an order the user declared (``categories=``, an ordered Categorical); otherwise,
        and with more categories, it must be given (never the first string in sorted
        order).
    missing : {"listwise", "available", "pairable", "raise"}, default "listwise"
        "listwise": the items every annotator rated. "available" and "pairable" (the same
        here): an item rated once adds nothing to either sum and is excluded, counted.
        "raise": refuse data with a missing rating.
    annotators : sequence of str, optional
        The annotators to use, by name (default: all).

    Returns
    -------
    AgreementResult
        ``value``: the specific agreement of ``positive``; ``observed``: the overall A_o;
        ``expected``: NaN; ``per_category``: ``agreements``, ``opportunities`` and
        ``specific_agreement`` of every category (NaN, with a note, for a category nobody
        used); ``params``: ``positive``, and for two categories ``positive_agreement`` and
        ``negative_agreement``.

    Raises
    ------
    AgreementError
        If ``positive`` is not a category, or is needed (more than two categories, or two
        with no declared order that are not {0, 1}) and not given; or if the data cannot be
        read or no item is left under the policy.

    See Also
    --------
    iaa_widgets.percent_agreement : Agreement over all categories.
    iaa_widgets.span_f1 : F1 between annotators, the positive specific agreement of spans.
    iaa_widgets.per_label : Any measure on each label of set-valued annotations.

    Notes
    -----
    With $n_{ic}$ ratings of item $i$ in category $c$ and $m_i$ ratings in all (Uebersax
    1982):

    $$p_s(c) = \frac{\sum_i n_{ic}(n_{ic} - 1)}{\sum_i n_{ic}(m_i - 1)} .$$

    For two annotators and a 2 × 2 table with cells a (both positive), b, c, d (both
    negative): $A_o^+ = 2a / (2a + b + c)$ and $A_o^- = 2d / (2d + b + c)$ (Cicchetti &
    Feinstein 1990).

    References
    ----------
    Cicchetti, D. V., & Feinstein, A. R. (1990). High agreement but low kappa: II.
    Resolving the paradoxes. *Journal of Clinical Epidemiology*, 43(6), 551–558.
    https://doi.org/10.1016/0895-4356(90)90159-M

    Uebersax, J. S. (1982). A design-independent method for measuring the
    reliability of psychiatric diagnosis. *Journal of Psychiatric Research*, 17(4),
    335–342. https://doi.org/10/fbbdfn

    Meyer, C. M. (2009). *A Brief Tutorial on Inter-Rater Agreement*. Technische
    Universität Darmstadt, slide "Issues: Equal Weights".

    Examples
    --------
    Meyer's "Equal Weights" table: A_o+ = 2·10/(30 + 30) = 0.333 and
    A_o− = 2·1000/(1020 + 1020) = 0.980.

    >>> data = iaa.Annotations.from_contingency([[10, 20], [20, 1000]], categories=["+", "-"],
    ...                                         annotators=("r2", "r1"))
    >>> r = iaa.specific_agreement(data, positive="+")
    >>> round(r.value, 4), round(r.params["negative_agreement"], 4)
    (0.3333, 0.9804)
    """
    prep, stat, positive = _specific_statistic(data, positive=positive, missing=missing,
                                               annotators=annotators)
    cats = prep.ann.categories
    code = cats.get_indexer([positive])[0]
    tot = stat.total()
    agree, chances = tot["agree_c"], tot["chances_c"]
    with np.errstate(divide="ignore", invalid="ignore"):
        specific = agree / chances
    per_cat = pd.DataFrame({"agreements": agree, "opportunities": chances,
                            "specific_agreement": specific}, index=_categories(prep))
    note = "specific agreement is not chance-corrected: no expected agreement (NaN)"
    unused = list(cats[chances == 0])
    if unused:
        note += f"; category(ies) {unused!r} never used: their specific agreement is NaN"
    params = {"positive": positive}
    if len(cats) == 2:
        params.update(positive_agreement=float(specific[code]),
                      negative_agreement=float(specific[1 - code]))
    value, a_o, _ = _point(stat, tot)
    return _result("specific_agreement", prep, value, a_o, float("nan"), note=note,
                   per_category=per_cat, params=params)


def _positive(prep: Prepared, positive):
    """The category whose specific agreement is the value (see specific_agreement)."""
    cats = prep.ann.categories
    if positive is None:
        if len(cats) != 2:
            raise AgreementError(f"specific_agreement: with {len(cats)} categories name the "
                                 f"one to report with positive=, one of {list(cats)!r} "
                                 "(per_category holds them all)")
        if set(cats) == {0, 1}:  # binary data: 1 (or True) is the positive class
            positive = cats[cats.get_indexer([1])[0]]
        elif prep.ann.ordered:  # the first of the two categories in the declared order
            positive = cats[0]
        else:
            raise AgreementError(f"specific_agreement: name the category to report with "
                                 f"positive=, one of {list(cats)!r}; their order was not "
                                 "declared (categories=), so neither comes first "
                                 "(per_category holds both)")
    if cats.get_indexer([positive])[0] < 0:
        raise AgreementError(f"specific_agreement: positive={positive!r} is not a category; "
                             f"the categories are {list(cats)!r}")
    return positive


# ------------------------------------------------------------------ Statistics
# Each measure's per-item tables over the items used and its finish(totals) → (value,
# A_o, A_e), vectorised over a leading resample axis (see iaa_widgets.stats).
def _point(stat: Statistic, totals: dict | None = None) -> tuple:
    """(value, A_o, A_e) of the data itself: finish of the totals with their own weights
    (``totals``: ``stat.total()`` if already made)."""
    totals = stat.total() if totals is None else totals
    return tuple(float(x[0]) for x in stat.finish({k: v[None] for k, v in totals.items()}))


def _statistic(prep: Prepared, tables: dict, finish, made=None) -> Statistic:
    """The Statistic over the data's item rows: ``tables`` (arrays over the items used,
    rows × …) get zero rows for the other items, and are kept as :func:`per_item` keeps
    a table (dense up to ``DENSE_CELLS`` cells, else CSR of their nonzero entries: the
    category shares n_ik/m_i of many categories); ``made`` maps the names of tables
    already over the data's rows (from :func:`per_item`) to the shape of their total."""
    made = made or {}
    shapes = {name: made.get(name, t.shape[1:]) for name, t in tables.items()}
    full = {}
    used = np.flatnonzero(prep.used)
    for name, t in tables.items():
        if name in made:
            full[name] = t
            continue
        if F._sparse(t):  # CSR counts (many categories): their entries
            entries = t.tocoo()
            full[name] = per_item(used[entries.row], entries.col, prep.ann.n_items,
                                  t.shape[1], entries.data)
            continue
        flat = t.reshape(len(t), -1)
        if prep.ann.n_items * flat.shape[1] <= DENSE_CELLS and len(used) == len(prep.used):
            full[name] = np.asarray(flat, dtype=float)  # every row used: no copy
        elif prep.ann.n_items * flat.shape[1] <= DENSE_CELLS:
            full[name] = np.zeros((prep.ann.n_items, flat.shape[1]))
            full[name][used] = flat
        else:
            row, cell = np.nonzero(flat)
            full[name] = per_item(used[row], cell, prep.ann.n_items, flat.shape[1],
                                  flat[row, cell])
    return Statistic(full, shapes, finish, prep.ann.item_weight)


def _multi_tables(items: F.ItemTerms) -> dict:
    """A'_o's tables of the item terms (computed once, read by the value, its standard
    error and its Statistic): a_i [m_i ≥ 2] and [m_i ≥ 2] (Fleiss 1971, P_i over pairable
    items; Gwet 2014, ch. 3: each pair counted by its agreement weight)."""
    return {"agree": items.agree[:, None], "pairable": items.two[:, None].astype(float)}


def _observed(tot: dict) -> np.ndarray:
    """A'_o = Σ_i w_i a_i / Σ_i w_i over the pairable items (NaN if none)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return tot["agree"][:, 0] / tot["pairable"][:, 0]


def _percent_statistic(data, *, missing="listwise", annotators=None, **_):
    prep = prepare(data, "percent_agreement", missing=missing, annotators=annotators,
                   item_weights=True, singles=True)  # "available": Gwet's n in the SE

    items = F.item_terms(prep.counts, None, prep.weights)

    def finish(tot):
        a_o = _observed(tot)
        return a_o, a_o, np.full_like(a_o, np.nan)
    return prep, _statistic(prep, _multi_tables(items), finish), items


def _bennett_statistic(data, *, weights=None, missing="listwise", annotators=None, **_):
    """Bennett's S: the prepared data (items rated once kept under "available": they
    enter Gwet's variance), the Statistic, the item terms it is made of and the weights
    (matrix or None, name)."""
    validate.name_or_matrix("bennett_s", "weights", weights, FAMILIES, none=True)
    prep = prepare(data, "bennett_s", missing=missing, annotators=annotators,
                   item_weights=True, singles=True)
    w, w_name = _weights(weights, prep)
    items = F.item_terms(prep.counts, w, prep.weights)
    a_e = F.bp_expected(w, prep.ann.n_categories)  # A_e = Σ w_kl / k² (1/k unweighted)

    def finish(tot):
        a_o = _observed(tot)
        return F.chance_corrected(a_o, a_e), a_o, np.full_like(a_o, a_e)
    return prep, _statistic(prep, _multi_tables(items), finish), items, w, w_name


def _pair_cells(prep: Prepared) -> np.ndarray:
    """Each item's cell x_i1 · k + x_i2 of the two annotators' table; anonymous counts
    (from_counts) put the lower category first, as ``stats.pair_contingencies``."""
    k = prep.ann.n_categories
    if prep.ann.rating_count is not None:
        if F._sparse(prep.counts):  # CSR: each row's first and last category present
            c = prep.counts.tocsr()
            c.sort_indices()
            return c.indices[c.indptr[:-1]] * k + c.indices[c.indptr[1:] - 1]
        seen = prep.counts > 0
        return np.argmax(seen, axis=1) * k + (k - 1 - np.argmax(seen[:, ::-1], axis=1))
    x = prep.ann._label_grid()[prep.used]
    return x[:, 0] * k + x[:, 1]


def _table_statistic(prep: Prepared, finish, w=None) -> Statistic:
    """The two annotators' table t_jk = Σ_i [x_i1 = j, x_i2 = k] as what its
    coefficients read of it: per item the agreement weight w_{x_i1 x_i2} of its pair of
    ratings (1 where w is None: the identity) and its categories x_i1, x_i2, whose
    totals are ``agree`` = Σ_jk w_jk t_jk and the margins ``row`` t_j· and ``col`` t_·k
    (2K + 1 cells an item instead of K²: a block of resamples holds B × (2K + 1)
    totals; see :func:`_table_totals` for those of a table)."""
    k = prep.ann.n_categories
    first, second = np.divmod(_pair_cells(prep), k)
    rows, n = np.flatnonzero(prep.used), prep.ann.n_items
    agree = (first == second).astype(float) if w is None else np.asarray(w)[first, second]
    tables = {"agree": agree[:, None], "row": per_item(rows, first, n, k),
              "col": per_item(rows, second, n, k)}
    return _statistic(prep, tables, finish, {"row": (k,), "col": (k,)})


def _table_totals(t: np.ndarray, w=None) -> dict:
    """The totals of :func:`_table_statistic` for a K × K table t (one resample axis)."""
    agree = np.trace(t) if w is None else np.sum(np.asarray(w) * t)
    return {"agree": np.array([[agree]], dtype=float), "row": t.sum(axis=1)[None],
            "col": t.sum(axis=0)[None]}


def _scott_statistic(data, *, weights=None, missing="listwise", annotators=None, **_):
    validate.name_or_matrix("scott_pi", "weights", weights, FAMILIES, none=True)
    prep = prepare(data, "scott_pi", missing=missing, annotators=annotators, two=True,
                   item_weights=True,
                   policies=TWO_ONLY, pointer=", or fleiss_kappa (multi-π)")
    w = _weights(weights, prep)[0]

    def finish(tot):  # π = (A_o − A_e^π) / (1 − A_e^π), Scott (1955)
        a_o = F.margins_observed(tot["agree"][:, 0], tot["row"])
        a_e = F.margins_scott_expected(tot["row"], tot["col"], w)
        return F.chance_corrected(a_o, a_e), a_o, a_e
    return prep, _table_statistic(prep, finish, w)


def _cohen_statistic(data, *, weights=None, missing="listwise", annotators=None, **_):
    validate.name_or_matrix("cohen_kappa", "weights", weights, FAMILIES, none=True)
    prep = prepare(data, "cohen_kappa", missing=missing, annotators=annotators, two=True,
                   item_weights=True,
                   identity=True, policies=TWO_ONLY,
                   pointer=", or davies_fleiss_kappa (multi-κ)")
    w = _weights(weights, prep)[0]  # None for the identity: the unweighted sums

    def finish(tot):  # κ_w = (A_o − A_e^κ) / (1 − A_e^κ), Cohen (1960; 1968)
        a_o = F.margins_observed(tot["agree"][:, 0], tot["row"])
        a_e = F.margins_cohen_expected(tot["row"], tot["col"], w)
        return F.chance_corrected(a_o, a_e), a_o, a_e
    return prep, _table_statistic(prep, finish, w)


def _fleiss_statistic(data, *, weights=None, missing="listwise", annotators=None, **_):
    """Fleiss' κ: the prepared data, the Statistic, the item terms it is made of and the
    weights (matrix or None, name)."""
    validate.name_or_matrix("fleiss_kappa", "weights", weights, FAMILIES, none=True)
    prep = prepare(data, "fleiss_kappa", missing=missing, annotators=annotators,
                   singles=True)
    w, w_name = _weights(weights, prep)
    items = F.item_terms(prep.counts, w)
    tables = {**_multi_tables(items), "shares": items.item_shares,
              "items": np.ones((len(items.m), 1))}

    def finish(tot):  # p_c = Σ n_ic/m_i / n; A'_e = Σ_kl w_kl p_k p_l (Fleiss 1971; Gwet 2014)
        a_o = _observed(tot)
        with np.errstate(divide="ignore", invalid="ignore"):  # a resample of unused items: NaN
            a_e = F.fleiss_expected(tot["shares"] / tot["items"], w)
        return F.chance_corrected(a_o, a_e), a_o, a_e
    return prep, _statistic(prep, tables, finish), items, w, w_name


def _davies_statistic(data, *, weights=None, missing="listwise", annotators=None, **_):
    """Conger's κ: the prepared data, the Statistic, the item terms it is made of and the
    weights (matrix or None, name)."""
    validate.name_or_matrix("davies_fleiss_kappa", "weights", weights, FAMILIES, none=True)
    prep = prepare(data, "davies_fleiss_kappa", missing=missing, annotators=annotators,
                   identity=True, singles=True)
    w, w_name = _weights(weights, prep)
    items = F.item_terms(prep.counts, w)
    item_of, rater, label = prep.ratings()
    r, k = prep.ann.n_annotators, prep.ann.n_categories
    tables = {**_multi_tables(items),
              "n_rc": per_item(np.flatnonzero(prep.used)[item_of], rater * k + label,
                               prep.ann.n_items, r * k)}

    def finish(tot):  # p_rc = n_rc / n_r; A'_e Conger (1980), Davies & Fleiss (1982)
        n_rc = tot["n_rc"].reshape(-1, r, k)
        with np.errstate(divide="ignore", invalid="ignore"):  # NaN if r rated no item
            shares = n_rc / n_rc.sum(axis=-1, keepdims=True)
        a_o, a_e = _observed(tot), F.conger_expected(shares, w)
        return F.chance_corrected(a_o, a_e), a_o, a_e
    return prep, _statistic(prep, tables, finish, {"n_rc": (r, k)}), items, w, w_name


def _specific_statistic(data, *, positive=None, missing="listwise", annotators=None, **_):
    prep = prepare(data, "specific_agreement", missing=missing, annotators=annotators,
                   item_weights=True)
    positive = _positive(prep, positive)
    items = F.item_terms(prep.counts, None, prep.weights)
    c, m = items.counts, items.m[:, None]
    code = prep.ann.categories.get_indexer([positive])[0]
    if F._sparse(c):  # n_ic(n_ic − 1) and n_ic(m_i − 1) over the entries of CSR counts
        agree_c, chances_c = (c.multiply(c) - c).tocsr(), c.multiply(m - 1).tocsr()
    else:
        agree_c, chances_c = c * (c - 1), c * (m - 1)
    tables = {**_multi_tables(items), "agree_c": agree_c, "chances_c": chances_c}

    def finish(tot):  # Σ_i w_i n_ic(n_ic − 1) / Σ_i w_i n_ic(m_i − 1), Uebersax (1982)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = tot["agree_c"][:, code] / tot["chances_c"][:, code]
        return value, _observed(tot), np.full_like(value, np.nan)
    return prep, _statistic(prep, tables, finish), positive


def _public(make):
    """``measure.statistic(data, **kwargs)``: the Statistic the measure finishes."""
    return lambda data, **kwargs: make(data, **kwargs)[1]


percent_agreement.statistic = _public(_percent_statistic)
bennett_s.statistic = _public(_bennett_statistic)
scott_pi.statistic = _public(_scott_statistic)
cohen_kappa.statistic = _public(_cohen_statistic)
fleiss_kappa.statistic = _public(_fleiss_statistic)
davies_fleiss_kappa.statistic = _public(_davies_statistic)
specific_agreement.statistic = _public(_specific_statistic)
