"""The classic coefficients as pure, vectorised formulas over sufficient statistics.

Two-annotator formulas take contingency tables ``t`` of shape (..., K, K) (any
leading axes, e.g. P annotator pairs) and return arrays of shape (...). Multi-
annotator formulas take item × category counts n_ic of the items used.
Notation of Meyer's tutorial: A_o observed, A_e expected agreement.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import AgreementError
from ._order import by_label, require_declared, require_order

# |1 − A_e| below this counts as A_e = 1: the coefficient is 0/0 (undefined)
DEGENERATE_TOL = 1e-12


def chance_corrected(a_o, a_e):
    """(A_o − A_e) / (1 − A_e) (Meyer, "Chance-corrected Measures: Definition");
    NaN where A_e = 1 (see :func:`degenerate_note`)."""
    a_o, a_e = np.asarray(a_o, float), np.asarray(a_e, float)
    denom = 1.0 - a_e
    degenerate = np.abs(denom) < DEGENERATE_TOL
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(degenerate, np.nan, (a_o - a_e) / np.where(degenerate, 1.0, denom))


def degenerate_note(a_o: float, categories_used: int) -> str:
    """Why A_e = 1: every rating in one category, or else (weighted κ only) agreement
    weights of 1 between all the categories the annotators used."""
    why = "every rating falls into one category" if categories_used <= 1 else \
        "the agreement weights are 1 between all the categories the annotators used"
    return (f"expected agreement is 1 ({why}), so the coefficient is 0/0 and undefined: "
            f"reported as NaN (observed agreement {a_o:.4g})")


# ------------------------------------------------------------ agreement weights
def agreement_weights(weights, categories, ordered: bool) -> tuple[np.ndarray, str]:
    """K × K agreement weights w_ij (1 = full agreement) over ``categories`` and a name
    for them: None (identity), "linear" 1 − |i−j|/(K−1), "quadratic" 1 − (i−j)²/(K−1)²
    (Cohen 1968; Fleiss & Cohen 1973; both need a declared order, ``ordered``), or a
    user matrix (rows: first annotator), a DataFrame aligned by its labels or a bare
    array read in the declared order."""
    k = len(categories)
    if weights is None:
        return np.eye(k), "none"
    if isinstance(weights, str):
        if weights not in ("linear", "quadratic"):
            raise AgreementError(f"weights must be None, 'linear', 'quadratic' or a K × K "
                                 f"matrix of agreement weights, got {weights!r}")
        require_order(categories, ordered, f"weights={weights!r}")
        d = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) / max(k - 1, 1)
        return (1.0 - d if weights == "linear" else 1.0 - d ** 2), weights
    if isinstance(weights, pd.DataFrame):
        w = by_label(weights, categories, "the weight matrix")
    else:
        require_declared(categories, ordered, "the weight matrix")
        try:
            w = np.asarray(weights, dtype=float)
        except (TypeError, ValueError):
            raise AgreementError(f"weights must be None, 'linear', 'quadratic' or a K × K "
                                 f"matrix of numbers, got {type(weights).__name__}") from None
    if w.shape != (k, k):
        raise AgreementError(f"a weight matrix must be {k} × {k} (one row and column per "
                             f"category), got shape {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or np.any(w > 1) or \
            np.any(np.diag(w) != 1):
        raise AgreementError("a weight matrix holds agreement weights: finite, between 0 "
                             "and 1, with 1 on the diagonal (full agreement)")
    return w, "matrix"


# --------------------------------------------------------- contingency tables
def _proportions(t):
    t = np.asarray(t, dtype=float)
    n = t.sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = t / n[..., None, None]
    return p, n


def table_observed(t, w=None):
    """A_o = Σ_ij w_ij p_ij (Meyer, "Percentage of Agreement"; Cohen 1968 for w);
    NaN for a table with no items."""
    p, _ = _proportions(t)
    return np.einsum("...ij,ij->...", p, np.eye(p.shape[-1]) if w is None else w)


def bennett_expected(t):
    """A_e^S = 1/k (Bennett, Alpert & Goldstein 1954; Meyer, "Definition")."""
    t = np.asarray(t)
    return np.full(t.shape[:-2], 1.0 / t.shape[-1])


def scott_expected(t):
    """A_e^π = Σ_c ((n_c· + n_·c) / 2n)² (Scott 1955; Meyer, "Definition")."""
    p, _ = _proportions(t)
    pooled = (p.sum(axis=-1) + p.sum(axis=-2)) / 2
    return np.sum(pooled ** 2, axis=-1)


def cohen_expected(t, w=None):
    """A_e^κ = Σ_ij w_ij p_i· p_·j (Cohen 1960; Cohen 1968 with weights)."""
    p, _ = _proportions(t)
    w = np.eye(p.shape[-1]) if w is None else w
    return np.einsum("...i,ij,...j->...", p.sum(axis=-1), w, p.sum(axis=-2))


def cohen_se(t, w=None):
    """Asymptotic standard errors of (weighted) κ: under the alternative (for the
    confidence interval) and under the null κ = 0 (for the test), Fleiss, Cohen &
    Everitt (1969). NaN where A_e = 1."""
    p, n = _proportions(t)
    w = np.eye(p.shape[-1]) if w is None else w
    row, col = p.sum(axis=-1), p.sum(axis=-2)
    a_o, a_e = table_observed(t, w), cohen_expected(t, w)
    kappa = chance_corrected(a_o, a_e)
    w_row = np.einsum("ij,...j->...i", w, col)        # w̄_i· = Σ_j p_·j w_ij
    w_col = np.einsum("...i,ij->...j", row, w)        # w̄_·j = Σ_i p_i· w_ij
    both = w_row[..., :, None] + w_col[..., None, :]
    k_ = kappa[..., None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        # alternative: var(κ̂) = [Σ p_ij (w_ij − (w̄_i· + w̄_·j)(1 − κ))² − (κ − A_e(1 − κ))²] / n(1 − A_e)²
        alt = (np.sum(p * (w - both * (1 - k_)) ** 2, axis=(-2, -1))
               - (kappa - a_e * (1 - kappa)) ** 2) / (n * (1 - a_e) ** 2)
        # null κ = 0: var₀(κ̂) = [Σ p_i· p_·j (w_ij − (w̄_i· + w̄_·j))² − A_e²] / n(1 − A_e)²
        null = (np.sum(row[..., :, None] * col[..., None, :] * (w - both) ** 2, axis=(-2, -1))
                - a_e ** 2) / (n * (1 - a_e) ** 2)
    return np.sqrt(np.maximum(alt, 0.0)), np.sqrt(np.maximum(null, 0.0))


# ------------------------------------------------------- item × category counts
# Under missing="available" the counts of Fleiss' and Conger's κ include items rated
# once (m_i = 1): they enter the category shares and the variance but have no pair of
# ratings, so the observed agreement averages over the pairable items (m_i ≥ 2) only.
def _row_sums(x):
    """Σ over the last axis as a product with ones: far faster than a sum over short
    rows (K categories) of many items."""
    x = np.asarray(x, dtype=float)
    return x @ np.ones(x.shape[-1])


def pairable(counts):
    """Items with at least two ratings (m_i ≥ 2): the ones that hold a pair to agree."""
    return _row_sums(counts) >= 2


def item_agreement(counts):
    """Per-item agreement Σ_c n_ic(n_ic − 1) / (m_i(m_i − 1)): the share of agreeing
    ordered pairs of ratings (Fleiss 1971, P_i); NaN for an item with m_i < 2."""
    c = np.asarray(counts, dtype=float)
    m = _row_sums(c)
    pairs = m * (m - 1)
    return np.divide(_row_sums(c * (c - 1)), pairs, out=np.full_like(m, np.nan),
                     where=pairs > 0)


def multi_observed(counts):
    """A'_o = mean of the per-item agreement over the pairable items, m_i ≥ 2 (Fleiss
    1971; Meyer, "Multiple Raters"; Gwet 2014, ch. 2 and 5: p_a over the n'' items
    rated at least twice). NaN if no item is pairable."""
    c = np.asarray(counts, dtype=float)
    two = pairable(c) * 1.0
    a = np.where(two > 0, item_agreement(c), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (two @ a) / np.sum(two)


def category_shares(counts):
    """p_c = mean_i n_ic / m_i over every item with a rating (Fleiss 1971, p_j; Gwet
    2014, ch. 2 and 5: π_k = (1/n) Σ_i r_ik / r_i, items rated once included); with
    m_i = m it is n_c / (nm)."""
    c = np.asarray(counts, dtype=float)
    return np.mean(c / _row_sums(c)[:, None], axis=0)


def _linearised_se(c, pe_i, pe):
    """Gwet's (2008; 2014, ch. 5) linearised standard error of a κ with A'_o over the n''
    pairable items of n: κ_i = (n/n'')(A'_o,i − A'_e)[m_i ≥ 2] / (1 − A'_e),
    κ*_i = κ_i − 2(1 − κ)(A'_e,i − A'_e)/(1 − A'_e), var = Σ_i (κ*_i − κ)² / (n(n − 1))
    (no finite-population correction: f = n/N = 0). NaN where A'_e = 1 or n < 2."""
    n, two = len(c), pairable(c)
    if n < 2 or abs(1 - pe) < DEGENERATE_TOL:
        return float("nan")
    a_oi = np.where(two, item_agreement(c), 0.0)
    kappa = (multi_observed(c) - pe) / (1 - pe)
    kappa_i = n / two.sum() * (a_oi - pe) * two / (1 - pe)
    linear = kappa_i - 2 * (1 - kappa) * (pe_i - pe) / (1 - pe)
    return float(np.sqrt(np.sum((linear - kappa) ** 2) / (n * (n - 1))))


def fleiss_se(counts):
    """Standard error of Fleiss' κ over the sampling of items, the raters fixed (Gwet
    2008; 2014, ch. 5): :func:`_linearised_se` with A'_e,i = Σ_c p_c n_ic / m_i, every
    item with a rating in n and in p_c, the pairable ones in A'_o."""
    c = np.asarray(counts, dtype=float)
    p = category_shares(c)
    return _linearised_se(c, c @ p / _row_sums(c), float(np.sum(p ** 2)))


def fleiss_per_category(counts):
    """κ_c = 1 − mean_i[n_ic(m_i − n_ic) / (m_i(m_i − 1))] / (p_c q_c) (Fleiss 1971,
    category-wise κ_j; with unequal m_i each item's term is scaled by its own
    m_i(m_i − 1), and averaged over the pairable items while p_c takes every item, as
    in :func:`multi_observed` and :func:`category_shares`: our extension); NaN where
    p_c q_c = 0 (a category used by nobody or by everyone)."""
    c = np.asarray(counts, dtype=float)
    two = pairable(c)
    m = _row_sums(c[two])[:, None]
    p = category_shares(c)
    disagree = np.mean(c[two] * (m - c[two]) / (m * (m - 1)), axis=0)
    pq = p * (1 - p)
    with np.errstate(divide="ignore", invalid="ignore"):
        return p, np.where(pq > 0, 1 - disagree / np.where(pq > 0, pq, 1), np.nan)


def conger_expected(rater_shares):
    """A'_e^κ = Σ_c [(Σ_r p_rc)² − Σ_r p_rc²] / (m(m − 1)): the mean over annotator pairs
    of Σ_c p_r1,c p_r2,c (Davies & Fleiss 1982; Conger 1980; Meyer, "Multiple Raters");
    ``rater_shares`` of shape (..., m, K)."""
    q = np.asarray(rater_shares, dtype=float)
    m = q.shape[-2]
    return np.sum(q.sum(axis=-2) ** 2 - np.sum(q ** 2, axis=-2), axis=-1) / (m * (m - 1))


def conger_se(counts, rater_counts, item_of, rater, label):
    """Standard error of Conger's κ (Gwet 2014, ch. 5): :func:`_linearised_se` with
    A'_e,i = A'_e + Σ_g (n/n_g) Σ_c (δ_igc − ε_ig p_gc) b_gc / (r(r − 1)), the linear
    part of A'_e in the shares p_gc = n_gc/n_g, b_gc = Σ_{h≠g} p_hc; δ_igc = 1 if rater
    g put item i in c, ε_ig = 1 if g rated i. One term per rating (``item_of``,
    ``rater``, ``label``: each rating's item row in ``counts``, rater and category)."""
    c = np.asarray(counts, dtype=float)
    n_gc = np.asarray(rater_counts, dtype=float)
    r, n_g = len(n_gc), n_gc.sum(axis=1)
    p = n_gc / n_g[:, None]
    pe = float(conger_expected(p))
    b = p.sum(axis=0) - p                                   # b_gc = Σ_{h≠g} p_hc
    term = len(c) / n_g[rater] * (b[rater, label] - np.sum(p * b, axis=1)[rater])
    pe_i = pe + np.bincount(item_of, weights=term, minlength=len(c)) / (r * (r - 1))
    return _linearised_se(c, pe_i, pe)
