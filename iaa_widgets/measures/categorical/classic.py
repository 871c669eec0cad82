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
    """Observed agreement A_o with its standard error and a confidence interval.

    Two annotators: A_o is the share of items both put in the same category (Meyer,
    "Percentage of Agreement"). More annotators: the mean over items of the share of
    agreeing pairs of ratings, Σ_c n_ic(n_ic − 1) / (m_i(m_i − 1)) (Fleiss 1971's
    A'_o, Meyer "Multiple Raters").

    Standard error: SE = √(Σ_i (a_i − A_o)² / n) / √n over the per-item agreements
    a_i; for two annotators a_i is 0 or 1 and this is the binomial √(A_o(1 − A_o)/n).
    Under ``missing="available"`` it is Gwet's (2014, ch. 5) linearised SE, as irrCAC's
    ``pa.coeff.raw`` (R, 1.0) and as Bennett's S with A_e = 0: over the n items with a
    rating, a*_i = (n/n'') a_i (0 for an item rated once, n'' the items rated at least
    twice), SE = √(Σ_i (a*_i − A_o)² / (n(n − 1))).
    The tutorial prints SE = √(A_o(1 − A_o)) / n, which divides by n instead of √n
    (its 0.04 for A_o = 0.7, n = 10 should be 0.145); we implement the correct one.
    ``ci="wald"`` (default): A_o ± z·SE, cut to [0, 1] (the note says when);
    ``ci="wilson"``: the
    Wilson score interval, defined for a binomial count, so for two annotators only.

    ``missing``: "listwise" (default; items rated by every annotator), "available" (A_o
    over the items rated at least twice, each weighted equally; the items rated once
    enter the SE as Gwet's n, ``params["items_per_term"]`` counts them), "pairable" (the
    same A_o, items rated once excluded and counted) or "raise".
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
    """Bennett, Alpert & Goldstein's (1954) S = (A_o − 1/k) / (1 − 1/k), with k the
    number of declared categories, used or not (Meyer, "Chance-corrected Measures");
    Brennan & Prediger's (1981) coefficient. With ``weights`` (a family of
    :mod:`~iaa_widgets.measures.weights` or a K × K matrix) A_o counts each pair of
    ratings by its weight and A_e = Σ_kl w_kl / k² (Gwet 2014, ch. 3).

    With more than two annotators A_o is Fleiss' multi-rater A'_o, which makes S
    Randolph's (2005) free-marginal multirater κ. One declared category: A_e = 1, the
    value is NaN (with a note). ``se``: Gwet's (2014, ch. 5) standard error over the
    sampling of items (as irrCAC's ``bp()``), with the finite-population correction
    1 − n/N for ``population=N``; ``ci`` the Wald interval S ± z·se.

    ``missing``: "listwise" (default), "available" (Gwet 2014: A_o over the items
    rated at least twice; A_e takes nothing from the data, but the items rated once
    enter the variance, as Gwet's n), "pairable" (items rated once excluded, counted),
    "raise".
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
    """Scott's (1955) π for two annotators: A_e^π = Σ_c ((n_c,r1 + n_c,r2) / 2n)²
    (Meyer, "Chance-corrected Measures"); with ``weights`` (a family of
    :mod:`~iaa_widgets.measures.weights` or a K × K matrix) A_o = Σ_kl w_kl p_kl and
    A_e = Σ_kl w_kl π_k π_l over the pooled shares π (Gwet 2014, ch. 3). ``se``: Gwet's
    (2014, ch. 5) linearised standard error (π is Fleiss' κ of two annotators), with
    the finite-population correction 1 − n/N for ``population=N``, and the Wald
    interval ``ci``. More annotators: pick two with ``annotators=(a, b)``, or use
    :func:`fleiss_kappa` (multi-π, the same weights) or :func:`~iaa_widgets.pairwise`.
    ``missing``: "listwise" (default; the items both rated) or "raise". Expected
    agreement 1: NaN with a note.
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
    """Cohen's (1960) κ for two annotators; weighted κ (Cohen 1968) with ``weights``
    one of Gwet's (2014, ch. 3) families (:mod:`~iaa_widgets.measures.weights`):
    "linear" (1 − |x_i − x_j|/(x_max − x_min)), "quadratic" (1 − (x_i − x_j)²/(x_max −
    x_min)²), "ordinal", "radical", "ratio", "circular", "bipolar", over the category
    values x for numeric labels (equally spaced labels such as 1 … k give Cohen's
    1 − |i − j|/(k − 1)) and the positions in the declared order for text labels
    (refused when no order was declared), or a k × k matrix of agreement weights (1 on
    the diagonal; rows are the first annotator's categories): a DataFrame aligned by
    its labels, or a bare array in declared order.

    ``se`` is the large-sample standard error under the alternative (Fleiss, Cohen &
    Everitt 1969), used for the Wald interval ``ci``; ``params["se_null"]``
    the one under κ = 0, with ``z`` = κ / se_null and its two-sided
    ``p_value``. More annotators: ``annotators=(a, b)``, :func:`davies_fleiss_kappa`
    (multi-κ) or :func:`~iaa_widgets.pairwise`. ``missing``: "listwise" (default; the
    items both rated) or "raise". Data from ``Annotations.from_counts`` is refused
    (κ needs to know who rated what). Expected agreement 1: NaN with a note.

    Differences from other software (tests/test_differences.py): R's ``irr::kappa2``
    with weights on numeric ratings sorts ten or more levels as text ("10" before
    "2") and spaces its weights over the levels used: for a = 1…10, 2, 5, 9, 10, 1 and
    b = 2, 2, 4, 4, 6, 6, 8, 8, 10, 9, 3, 4, 10, 10, 1, quadratic κ_w is 0.9692 here and
    in scikit-learn, 0.2187 in irr. ``psych::cohen.kappa`` 1.7.8–2.2.9 puts a row sum
    where a column sum belongs in the variance of weighted κ: on Fleiss, Cohen &
    Everitt's (1969) table with psych's example weights it gives 0.00275 against
    0.00325 (ours and statsmodels); psych 2.3.3 and later agree with us. Called
    without ``levels=``, ``psych::cohen.kappa`` too spaces its weights over the levels
    used, as irr does; pass ``levels=`` the declared categories to get ours.
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
    """Fleiss' (1971) κ, i.e. multi-π (Meyer, "Multiple Raters"): A'_o the mean
    per-item share of agreeing rating pairs, A'_e = Σ_c p_c² with p_c the pooled share
    of category c. Works on anonymous per-item counts (``Annotations.from_counts``).
    With ``weights`` (a family of :mod:`~iaa_widgets.measures.weights` or a K × K
    matrix) each pair of ratings counts by its agreement weight and
    A'_e = Σ_kl w_kl p_k p_l (Gwet 2014, ch. 3; irrCAC's ``fleiss(weights=...)``).

    ``se``: the standard error over the sampling of items with the raters fixed
    (Gwet 2008's linearisation, as irrCAC computes it), with the finite-population
    correction 1 − n/N for ``population=N`` (None: infinite), used for the Wald
    interval ``ci`` (κ ± z·se; irrCAC takes Student's t with n − 1 degrees of freedom,
    which differs only for a handful of items).

    Test of H0 κ = 0 (unweighted, every item rated by the same number m of
    annotators, e.g. under the default "listwise"): ``params["se_null"]`` the standard
    error under the null of Fleiss, Nee & Landis (1979), ``z`` = κ / se_null and its
    two-sided normal ``p_value`` (what R irr's ``kappam.fleiss`` prints); NaN with a
    note for weights or unequal m. ``per_category``: p_c, Fleiss' category-wise κ_c
    (1971; NaN where p_c is 0 or 1), and (equal m) its null ``se_null`` = √(2/(nm(m − 1))),
    ``z`` and ``p_value``; with weights the shares only.

    ``missing``: "listwise" (default; items rated by all, or by the most annotators
    any item has for count data); "available" (Gwet 2014, ch. 2 and 5): A'_o over the
    n'' items rated at least twice, p_c = (1/n) Σ_i n_ic/m_i and the variance over all
    n items with a rating, items rated once included (``params["items_per_term"]``
    and the note count them); "pairable" (items rated at least twice in every term,
    items rated once excluded); or "raise".
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
    """Davies & Fleiss' (1982) multi-κ, Conger's (1980) κ (Meyer, "Multiple Raters";
    also reachable as :func:`conger_kappa`): A'_o as in :func:`fleiss_kappa`, A'_e the
    mean over annotator pairs of Σ_kl w_kl p_r1,k p_r2,l with p_r,c each annotator's
    own category shares (w the identity unless ``weights`` names a family of
    :mod:`~iaa_widgets.measures.weights` or gives a K × K matrix; Gwet 2014, ch. 3).

    ``se``: Gwet's (2014, ch. 5) linearised standard error over the sampling of items
    (as irrCAC's ``conger()``), with the finite-population correction 1 − n/N for
    ``population=N``, and a Wald interval ``ci``. ``missing``: "listwise" (default);
    "available" (Gwet 2014): A'_o over the items rated at least twice, p_r,c over
    every item annotator r rated, items rated once included, and the variance over
    every item with a rating; "pairable" (items rated at least twice in every term);
    or "raise". Refuses anonymous data from ``Annotations.from_counts``.
    ``per_category``: each annotator's shares.
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
    """Specific agreement per category: agreements on c over the opportunities to
    agree on c, Σ_i n_ic(n_ic − 1) / Σ_i n_ic(m_i − 1) (Uebersax 1982). For two
    annotators this is 2 n_cc / (n_c,r1 + n_c,r2); for binary data the two values are
    the positive and negative agreement A_o+ and A_o− (Cicchetti & Feinstein 1990;
    Meyer, "Equal Weights"). Any number of annotators and categories.

    ``per_category``: agreements, opportunities and specific agreement of every
    category (NaN, with a note, for a category nobody used). ``value`` is the specific
    agreement of ``positive``; by default, for two categories, the category 1 (or
    True) when the categories are {0, 1}, else the first category of an order the user
    declared (``categories=``, an ordered Categorical); otherwise, and with more
    categories, ``positive`` must be given (never the first string in sorted order). ``observed`` is the overall A_o; there is no
    expected agreement (NaN). ``missing``: "listwise" (default), "available" or
    "pairable" (the same here: an item rated once adds nothing to either sum and is
    excluded, counted), "raise".
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
