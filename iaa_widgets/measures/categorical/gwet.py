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
    """Gwet's (2008) AC1 for two or more annotators (nominal categories).

    ``observed`` is p_a, ``expected`` p_e = Σ_k π_k(1 − π_k) / (q − 1) (see the module
    docstring for which items enter which term). ``se``: Gwet's (2014, ch. 5)
    linearised standard error with the finite-population correction 1 − n/N when
    ``population=N`` is given (the size of the population of items the n were drawn
    from; None: infinite). ``ci``: γ ± t·se, t of Student's distribution with n − 1
    degrees of freedom, cut at 1 (as irrCAC; the note says so); ``params`` hold ``t`` =
    γ/se, ``df`` and its two-sided ``p_value``. ``per_category``: the shares π_k.

    ``missing``: "available" (default, Gwet 2014: p_a over the items rated at least
    twice; π_k and the variance over every item with a rating), "pairable" (items rated
    at least twice in every term), "listwise" (items rated by every annotator) or
    "raise". One declared category: p_e is undefined, the value NaN with a note.
    """
    return _gwet("gwet_ac1", data, None, missing, annotators, confidence, population)


@register(family='chance-corrected agreement', data='ranked', annotators='many',
          source='Gwet (2014), ch. 3-5', symbol='AC2 (Gwet)', intervals=('student t',),
          missing=('listwise', 'available', 'pairable', 'raise'), benchmarked=True,
          engine=_engine.multi_rater(singles=True))
def gwet_ac2(data, *, weights="quadratic", missing: str = "available", annotators=None,
             confidence: float = 0.95, population=None) -> AgreementResult:
    """Gwet's (2014, ch. 4) AC2: AC1 with agreement weights. ``weights``: one of
    "identity" (AC1), "linear", "quadratic" (default), "ordinal", "radical", "ratio",
    "circular", "bipolar" (Gwet 2014, ch. 3, over the category values for numeric
    labels, else positions in the declared order; see
    :mod:`iaa_widgets.measures.weights`) or a K × K matrix (a DataFrame aligned by its
    labels, or an array in the declared order). Everything else as :func:`gwet_ac1`.
    ``missing``: as :func:`gwet_ac1` ("available" by default).
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
