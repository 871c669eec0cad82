"""Gwet's (2016) per-item linearised terms of the coefficients his paired t-test covers.

For a coefficient κ̂ = (p_a − p_e)/(1 − p_e) on n items, Gwet (2008; 2014, ch. 5)
writes κ̂ − κ as a mean of per-item terms κ*_i (the linear part of κ̂ in the item
totals), so that mean(κ*_i) = κ̂ and var(κ̂) = Σ (κ*_i − κ̂)² / (n(n − 1)). Two
coefficients on the same items (two groups of raters, two guideline versions) are
then compared by the paired t-test on d_i = κ*_2i − κ*_1i (Gwet 2016, *Educational and
Psychological Measurement* 76(4):609–637, doi:10.1177/0013164415596420).

Each measure's terms come from its own preparation (missing-data policy, annotators,
weights), so that their mean is the measure's value: percent agreement and
Brennan–Prediger (p_e,i = p_e constant), Fleiss, Conger, AC1/AC2
(:mod:`iaa_widgets.measures._formulas`) and Krippendorff's α (:func:`alpha_terms`, as
Gwet's irrCAC ``krippen.alpha.raw`` linearises it).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import AgreementError
from ..measures import _formulas as F

__all__ = ["LINEARIZED", "Linear", "linear_terms", "alpha_terms"]

# the measures of Gwet's (2016) paired test, by their registry names → their terms
_TERMS: dict = {}


def _terms_of(name: str):
    """Decorator: ``fn(data, **kwargs) -> (Prepared, ItemTerms, (p_e,i, p_e))`` gives
    the linearised terms of the measure ``name`` (its registry name)."""
    def add(fn):
        _TERMS[name] = fn
        return fn
    return add


@dataclass(frozen=True)
class Linear:
    """The linearised terms of one coefficient on one data set: ``items`` (the ids of
    the items used, in the order of ``terms``), ``terms`` (κ*_i), the annotators and
    what the measure's policy excluded."""

    items: pd.Index
    terms: np.ndarray
    n_annotators: int
    excluded: dict

    @property
    def estimate(self) -> float:
        """The coefficient: the mean of its linearised terms (Gwet 2016, eq. 6)."""
        return float(np.mean(self.terms))


def linear_terms(measure: str, data, **kwargs) -> Linear:
    """The :class:`Linear` terms of ``measure`` (one of :data:`LINEARIZED`) on ``data``,
    with the measure's own keyword arguments."""
    if measure == "krippendorff_alpha":
        return alpha_terms(data, **kwargs)
    if measure not in _TERMS:
        raise AgreementError(f"{measure} has no linearised terms; the paired test of Gwet "
                             f"(2016) covers {', '.join(LINEARIZED)}")
    prep, items, chance = _TERMS[measure](data, **kwargs)
    if prep.weights is not None:
        raise AgreementError("a paired comparison matches items by their ids, but these "
                             "data keep items as weighted cells (from_contingency); load "
                             "the ratings with one row per item and annotator")
    if items.n < 2:
        raise AgreementError(f"{measure}: the paired test needs two items or more, got "
                             f"{int(items.n)}")
    terms = F.linearised_terms(items, *chance)
    return Linear(prep.ann.items[prep.used], np.asarray(terms, float).ravel(),
                  prep.ann.n_annotators, dict(prep.excluded))


@_terms_of("gwet_ac1")
def _ac1(data, *, missing="available", annotators=None, **_):
    return _gwet("gwet_ac1", data, None, missing, annotators)


@_terms_of("gwet_ac2")
def _ac2(data, *, weights="quadratic", missing="available", annotators=None, **_):
    return _gwet("gwet_ac2", data, weights, missing, annotators)


def _gwet(measure, data, weights, missing, annotators):
    from ..measures.categorical import gwet
    prep, _, items, w, _ = gwet._parts(measure, data, weights, missing, annotators)
    return prep, items, F.gwet_chance(items, w) if items.counts.shape[1] > 1 else (0.0, 0.0)


@_terms_of("percent_agreement")
def _percent(data, **kwargs):
    from ..measures.categorical import classic
    prep, _, items = classic._percent_statistic(data, **kwargs)
    return prep, items, (0.0, 0.0)  # p_a itself: κ*_i = (n/n'') a_i


@_terms_of("bennett_s")
def _bennett(data, **kwargs):
    from ..measures.categorical import classic
    prep, stat, items, _, _ = classic._bennett_statistic(data, **kwargs)
    a_e = classic._point(stat)[2]
    return prep, items, (a_e, a_e)  # A_e = Σ w_kl / k², no term from the data


@_terms_of("fleiss_kappa")
def _fleiss(data, **kwargs):
    from ..measures.categorical import classic
    prep, _, items, w, _ = classic._fleiss_statistic(data, **kwargs)
    return prep, items, F.fleiss_chance(items, w)


@_terms_of("davies_fleiss_kappa")
def _conger(data, **kwargs):
    from ..measures.categorical import classic
    prep, _, items, w, _ = classic._davies_statistic(data, **kwargs)
    row, rater, label = prep.ratings()
    r, k = prep.ann.n_annotators, prep.ann.n_categories
    n_rc = np.bincount(rater * k + label, minlength=r * k).reshape(r, k)  # n_gk
    return prep, items, F.conger_chance(items, n_rc, row, rater, label, w)


def alpha_terms(data, metric="nominal", *, missing: str = "pairable") -> Linear:
    """Krippendorff's α as Gwet (2014, ch. 5; irrCAC 1.0 ``krippen.alpha.raw``)
    linearises it, over the n pairable items (r_i ≥ 2 values), r̄ their mean, ε = 1/Σ r_i,
    agreement weights w = 1 − δ/max δ (α is the same for any scale of δ):

    p_a,i = Σ_k r_ik (r*_ik − 1) / (r̄ (r_i − 1)), r*_ik = Σ_l w_kl r_il,
    p*_a,i = (1 − ε)(p_a,i − p̄_a (r_i − r̄)/r̄) + ε,
    p_e,i = Σ_k r_ik π̄_k / r̄ − p_e (r_i − r̄)/r̄, π̄ = (w + wᵀ)π/2,
    α*_i = (p*_a,i − p_e)/(1 − p_e) − 2(1 − α)(p_e,i − p_e)/(1 − p_e).

    Gwet's pairedCAC 1.0 (``alpha.linear.i``) subtracts Σ_k π_k (= 1) instead of p_e
    in p_e,i; the delta method gives p_e (d p_e / d w_i = 2(Σ_k r_ik π̄_k − p_e r_i) /
    (n r̄)), as irrCAC has it. Metrics with a fixed δ only (not "ordinal", whose δ
    depends on the data's marginals, nor more than ``MANY_VALUES`` distinct values)."""
    from ..measures.continuous import alpha as A
    from ..measures._prepare import complete
    from ..stats import item_counts_for_pairs
    ann = complete(data, "krippendorff_alpha", missing)[0]
    k = ann.n_categories
    if (isinstance(metric, str) and metric == "ordinal") or \
            A.many_values(metric, k) or ann.item_weight is not None:
        raise AgreementError("krippendorff_alpha's linearised terms need a fixed distance "
                             "between categories and one row per item: not the ordinal "
                             "metric, continuous values or from_contingency cells; use "
                             "method='bootstrap'")
    delta = A._delta(metric, np.zeros(k), A.category_values(ann, metric))[0]
    counts = item_counts_for_pairs(ann)
    counts = np.asarray(counts.toarray() if hasattr(counts, "toarray") else counts, float)
    r = counts.sum(axis=1)
    keep = r >= 2
    c, r = counts[keep], r[keep]
    if len(r) < 2 or not np.any(delta > 0):
        raise AgreementError("krippendorff_alpha: the paired test needs two pairable items "
                             "or more and categories at a nonzero distance")
    w = 1 - delta / delta.max()
    n, r_bar, eps = len(r), r.mean(), 1 / r.sum()
    pa_i = np.sum(c * (c @ w.T - 1), axis=1) / (r_bar * (r - 1))
    pa_v = pa_i.mean()
    pa = (1 - eps) * pa_v + eps                                  # Gwet's p'_a
    pi = c.sum(axis=0) / (n * r_bar)
    pe = float(pi @ w @ pi)
    alpha = (pa - pe) / (1 - pe)
    pa_star = (1 - eps) * (pa_i - pa_v * (r - r_bar) / r_bar) + eps
    pe_i = c @ ((w + w.T) @ pi / 2) / r_bar - pe * (r - r_bar) / r_bar
    terms = (pa_star - pe) / (1 - pe) - 2 * (1 - alpha) * (pe_i - pe) / (1 - pe)
    excluded = {"items with a single rating (unpairable)": int(np.sum(counts.sum(axis=1) == 1))}
    return Linear(ann.items[keep], terms, ann.n_annotators,
                  {key: v for key, v in excluded.items() if v})


_TERMS["krippendorff_alpha"] = alpha_terms
LINEARIZED = tuple(_TERMS)
