"""The classic coefficients as pure, vectorised formulas over sufficient statistics.

Two-annotator formulas take contingency tables ``t`` of shape (..., K, K) (any
leading axes, e.g. P annotator pairs) and return arrays of shape (...). Multi-
annotator formulas take item × category counts n_ic of the items used.
Notation of Meyer's tutorial: A_o observed, A_e expected agreement.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np


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


def scott_expected(t, w=None):
    """A_e^π = Σ_kl w_kl π_k π_l, π_c = (n_c· + n_·c) / 2n (Scott 1955; Meyer,
    "Definition"; Gwet 2014, ch. 3 for w)."""
    t = np.asarray(t, dtype=float)
    return margins_scott_expected(t.sum(axis=-1), t.sum(axis=-2), w)


def cohen_expected(t, w=None):
    """A_e^κ = Σ_ij w_ij p_i· p_·j (Cohen 1960; Cohen 1968 with weights)."""
    t = np.asarray(t, dtype=float)
    return margins_cohen_expected(t.sum(axis=-1), t.sum(axis=-2), w)


# ------------------------------------------- the margins of contingency tables
# The same coefficients from what a two-annotator table's resample needs, 2K + 1
# numbers instead of its K² cells: Σ_jk w_jk t_jk (``agree``) and the margins t_j·
# (``row``) and t_·k (``col``), of shape (..., K) (any leading axes).
def _shares(row, col):
    row, col = np.asarray(row, dtype=float), np.asarray(col, dtype=float)
    n = row.sum(axis=-1)[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):  # a table of no item: NaN
        return row / n, col / n


def margins_observed(agree, row):
    """A_o = Σ_jk w_jk t_jk / n (Meyer, "Percentage of Agreement"; Cohen 1968 for w);
    NaN for a table with no items."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(agree, dtype=float) / np.asarray(row, dtype=float).sum(axis=-1)


def margins_scott_expected(row, col, w=None):
    """A_e^π = Σ_kl w_kl π_k π_l, π_c = (t_c· + t_·c) / 2n (Scott 1955; Gwet 2014, ch. 3)."""
    p_row, p_col = _shares(row, col)
    return fleiss_expected((p_row + p_col) / 2, w)


def margins_cohen_expected(row, col, w=None):
    """A_e^κ = Σ_ij w_ij p_i· p_·j (Cohen 1960; Cohen 1968 with weights), as products
    over the K categories (no K × K array per table)."""
    p_row, p_col = _shares(row, col)
    return np.sum((p_row if w is None else p_row @ w) * p_col, axis=-1)


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
# Under missing="available" the counts of the multi-annotator coefficients include
# items rated once (m_i = 1): they enter the category shares and the variance but have
# no pair of ratings, so the observed agreement averages over the pairable items
# (m_i ≥ 2) only (Gwet 2014, ch. 2, 3 and 5). ``w``: K × K agreement weights w_kl
# (None: identity), Gwet's (2014, ch. 3) weighted forms.
def _row_sums(x):
    """Σ over the last axis as a product with ones: far faster than a sum over short
    rows (K categories) of many items. ``x`` dense, or CSR (many categories)."""
    if _sparse(x):
        return np.asarray(x @ np.ones(x.shape[-1]), dtype=float)
    x = np.asarray(x, dtype=float)
    return x @ np.ones(x.shape[-1])


def _sparse(x) -> bool:
    """Whether item × category counts are a scipy sparse matrix (``prepare`` keeps them
    CSR where the dense table would pass ``stats.MAX_CELLS``)."""
    return hasattr(x, "tocsr") and not isinstance(x, np.ndarray)


def pairable(counts):
    """Items with at least two ratings (m_i ≥ 2): the ones that hold a pair to agree."""
    return _row_sums(counts) >= 2


# most categories whose weighted per-item agreement is an items × K × K product; beyond,
# it runs over the pairs of categories present in each item (9,000 float labels: minutes
# of einsum against a fraction of a second)
DENSE_WEIGHTED_CATEGORIES = 64


def item_agreement(counts, w=None):
    """Per-item agreement Σ_k n_ik(n*_ik − 1) / (m_i(m_i − 1)), n*_ik = Σ_l w_kl n_il:
    the share of agreeing ordered pairs of ratings, each pair counted by its weight
    (Fleiss 1971, P_i; Gwet 2014, ch. 3, weighted p_a); NaN for an item with m_i < 2."""
    if _sparse(counts):
        return _sparse_item_agreement(counts, w)
    if w is not None and np.shape(counts)[1] > DENSE_WEIGHTED_CATEGORIES:
        from scipy.sparse import csr_matrix  # items × K² products: the item's pairs instead
        return _sparse_item_agreement(csr_matrix(np.asarray(counts)), w)
    c = np.asarray(counts, dtype=float)
    m = _row_sums(c)
    pairs = m * (m - 1)
    # n*_ik = Σ_l w_kl n_il; einsum, as a BLAS product of a thin matrix is many times slower
    starred = c if w is None else np.einsum("il,kl->ik", c, np.asarray(w, float))
    return np.divide(_row_sums(c * (starred - 1)), pairs, out=np.full_like(m, np.nan),
                     where=pairs > 0)


def _sparse_item_agreement(counts, w=None):
    """:func:`item_agreement` of CSR counts: Σ_kl n_ik w_kl n_il − m_i over the pairs of
    categories present in the item (no items × K array)."""
    from ..stats.statistic import entry_pairs
    entries = counts.tocsr().tocoo()  # by item
    row, cat, n = entries.row, entries.col, entries.data.astype(float)
    m = np.bincount(row, weights=n, minlength=counts.shape[0])
    a, b = entry_pairs(row, counts.shape[0])
    weight = (cat[a] == cat[b]) if w is None else np.asarray(w, float)[cat[a], cat[b]]
    quadratic = np.bincount(row[a], weights=n[a] * n[b] * weight, minlength=len(m))
    pairs = m * (m - 1)
    return np.divide(quadratic - m, pairs, out=np.full_like(m, np.nan), where=pairs > 0)


@dataclass(frozen=True)
class ItemTerms:
    """The per-item terms every multi-annotator coefficient here shares, computed once
    from the item × category counts n_ik of the items used (Gwet 2014, ch. 2–5):
    m_i = Σ_k n_ik, the pairable items m_i ≥ 2, the per-item agreement a_i of
    :func:`item_agreement` (0 where m_i < 2) and, on first use, the category shares.
    ``rows``: how many items each row stands for (None: one each)."""

    counts: np.ndarray
    m: np.ndarray
    two: np.ndarray
    agree: np.ndarray
    rows: np.ndarray | None = None

    @property
    def n(self) -> float:
        """n: the items with a rating (every term but A'_o)."""
        return float(len(self.m) if self.rows is None else self.rows.sum())

    @property
    def n_pairable(self) -> float:
        """n'': the items rated at least twice (A'_o)."""
        return float(self.two.sum() if self.rows is None else self.rows @ self.two)

    @property
    def observed(self) -> float:
        """A'_o = mean of a_i over the n'' pairable items (Fleiss 1971; Gwet 2014, ch. 2
        and 5); NaN if none."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(self._sum(self.agree) / self.n_pairable)

    @cached_property
    def item_shares(self) -> np.ndarray:
        """n_ik / m_i, each item's own category shares (CSR for CSR counts)."""
        return item_shares(self.counts, self.m)

    @cached_property
    def shares(self) -> np.ndarray:
        """p_k = (1/n) Σ_i n_ik / m_i over every item with a rating (Fleiss 1971, p_j;
        Gwet 2014: π_k, items rated once included); with m_i = m it is n_k / (nm)."""
        return self._sum(self.item_shares) / self.n

    def _sum(self, x):
        """Σ_i over the items, each row counted ``rows`` times."""
        ones = np.ones(x.shape[0]) if self.rows is None else self.rows
        return np.asarray(x.T @ ones).ravel() if _sparse(x) else ones @ x


def item_shares(counts, m=None):
    """n_ik / m_i, each item's own category shares (CSR for CSR counts); ``m``: the
    m_i if known."""
    m = _row_sums(counts) if m is None else m
    if _sparse(counts):
        return counts.multiply(1 / m[:, None]).tocsr()
    return np.asarray(counts, dtype=float) / m[:, None]


def item_terms(counts, w=None, rows=None) -> ItemTerms:
    """:class:`ItemTerms` of the item × category ``counts`` (agreement weights ``w``)."""
    c = counts.astype(float) if _sparse(counts) else np.asarray(counts, dtype=float)
    m = _row_sums(c)
    two = m >= 2
    return ItemTerms(c, m, two, np.where(two, item_agreement(c, w), 0.0),
                     None if rows is None else np.asarray(rows, dtype=float))


def linearised_se(items: ItemTerms, pe_i, pe, f: float = 0.0):
    """Gwet's (2008; 2014, ch. 5) linearised standard error of a chance-corrected
    coefficient whose A'_o averages over the n'' pairable items of n:
    κ_i = (n/n'')(A'_o,i − A'_e)[m_i ≥ 2] / (1 − A'_e),
    κ*_i = κ_i − 2(1 − κ)(A'_e,i − A'_e)/(1 − A'_e),
    var = (1 − f) Σ_i (κ*_i − κ)² / (n(n − 1)), f = n/N the sampling fraction of the
    items from a population of N (0: infinite). ``pe_i``: each item's A'_e,i (``pe``
    for a constant chance term). NaN where A'_e = 1 or n < 2."""
    n = items.n
    if n < 2 or abs(1 - pe) < DEGENERATE_TOL:
        return float("nan")
    kappa = (items.observed - pe) / (1 - pe)
    linear = linearised_terms(items, pe_i, pe)
    return float(np.sqrt((1 - f) * items._sum((linear - kappa) ** 2) / (n * (n - 1))))


def linearised_terms(items: ItemTerms, pe_i, pe) -> np.ndarray:
    """Gwet's (2008; 2016, eq. 6) per-item linearised terms κ*_i of
    :func:`linearised_se`, one per row of ``items``: their mean is the coefficient, and
    the paired test of two coefficients on the same items reads their differences."""
    kappa = (items.observed - pe) / (1 - pe)
    kappa_i = items.n / items.n_pairable * (items.agree - pe * items.two) / (1 - pe)
    return kappa_i - 2 * (1 - kappa) * (np.asarray(pe_i) - pe) / (1 - pe)


def fleiss_expected(shares, w=None):
    """A'_e = Σ_kl w_kl p_k p_l (Fleiss 1971; Gwet 2014, ch. 3 for w); ``shares`` of
    shape (..., K)."""
    p = np.asarray(shares, dtype=float)
    if w is None:
        return np.sum(p ** 2, axis=-1)
    return np.sum((p @ w) * p, axis=-1)  # a product per row: no loop over K² per resample


def fleiss_se(items: ItemTerms, w=None, f: float = 0.0):
    """Standard error of (weighted) Fleiss' κ over the sampling of items, the raters
    fixed (Gwet 2008; 2014, ch. 5): :func:`linearised_se` with A'_e,i = Σ_k n_ik p̄_k /
    m_i, p̄_k = Σ_l (w_kl + w_lk) p_l / 2; every item with a rating in n and in p_k, the
    pairable ones in A'_o."""
    return linearised_se(items, *fleiss_chance(items, w), f)


def fleiss_chance(items: ItemTerms, w=None):
    """(A'_e,i, A'_e) of Fleiss' κ for :func:`linearised_se`: A'_e,i = Σ_k n_ik p̄_k /
    m_i, p̄_k = Σ_l (w_kl + w_lk) p_l / 2 (Gwet 2008; 2014, ch. 5)."""
    p = items.shares
    wp = p if w is None else (w @ p + w.T @ p) / 2
    return items.item_shares @ wp, float(fleiss_expected(p, w))


def fleiss_null_se(counts):
    """Standard errors of Fleiss' κ and of each category's κ_c under H0 κ = 0 (Fleiss,
    Nee & Landis 1979, eqs. 10 and 12; Fleiss 1971 for the design): with n items rated
    by m annotators each and q_c = 1 − p_c,
    var₀(κ) = 2[(Σ p_c q_c)² − Σ p_c q_c(q_c − p_c)] / (n m (m − 1)(Σ p_c q_c)²),
    var₀(κ_c) = 2 / (n m (m − 1)). Defined for a constant m ≥ 2 only (NaN otherwise)."""
    m = _row_sums(counts)
    k = counts.shape[1]
    if len(m) == 0 or m[0] < 2 or np.any(m != m[0]):
        return float("nan"), np.full(k, np.nan)
    n, m = len(m), m[0]
    p = np.asarray(counts.sum(axis=0), dtype=float).ravel() / (n * m)
    pq = p * (1 - p)
    scale = 2 / (n * m * (m - 1))
    total = pq.sum()
    overall = np.sqrt(scale * (total ** 2 - np.sum(pq * (1 - 2 * p))) / total ** 2) \
        if total > 0 else float("nan")
    return float(overall), np.full(k, np.sqrt(scale))


def fleiss_per_category(items: ItemTerms):
    """κ_c = 1 − mean_i[n_ic(m_i − n_ic) / (m_i(m_i − 1))] / (p_c q_c) (Fleiss 1971,
    category-wise κ_j; with unequal m_i each item's term is scaled by its own
    m_i(m_i − 1), and averaged over the pairable items while p_c takes every item, as
    ``ItemTerms.observed`` and ``ItemTerms.shares``: our extension); NaN where
    p_c q_c = 0 (a category used by nobody or by everyone)."""
    c, two = items.counts[items.two], items.two
    m = items.m[two][:, None]
    if _sparse(c):  # n_ic(m_i − n_ic) over the entries of CSR counts
        disagree = np.asarray((c.multiply(m) - c.multiply(c)).multiply(
            1 / (m * (m - 1))).mean(axis=0)).ravel()
    else:
        disagree = np.mean(c * (m - c) / (m * (m - 1)), axis=0)
    p = items.shares
    pq = p * (1 - p)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(pq > 0, 1 - disagree / np.where(pq > 0, pq, 1), np.nan)


def conger_expected(rater_shares, w=None):
    """A'_e^κ = Σ_kl w_kl [(Σ_r p_rk)(Σ_r p_rl) − Σ_r p_rk p_rl] / (m(m − 1)): the mean
    over annotator pairs of Σ_kl w_kl p_r1,k p_r2,l (Davies & Fleiss 1982; Conger 1980;
    Meyer, "Multiple Raters"; Gwet 2014, ch. 3 for w); ``rater_shares`` of shape
    (..., m, K)."""
    q = np.asarray(rater_shares, dtype=float)
    m = q.shape[-2]
    s = q.sum(axis=-2)
    if w is None:
        return np.sum(s ** 2 - np.sum(q ** 2, axis=-2), axis=-1) / (m * (m - 1))
    cross = np.einsum("...k,kl,...l->...", s, w, s) - \
        np.einsum("...rk,kl,...rl->...", q, w, q)
    return cross / (m * (m - 1))


def conger_se(items: ItemTerms, rater_counts, item_of, rater, label, w=None,
              f: float = 0.0):
    """Standard error of (weighted) Conger's κ (Gwet 2014, ch. 5): :func:`linearised_se`
    with A'_e,i = A'_e + Σ_g (n/n_g) Σ_l (δ_igl − ε_ig p_gl) b_gl / (r(r − 1)), the
    linear part of A'_e in the shares p_gl = n_gl/n_g, b_gl = Σ_k w_kl Σ_{h≠g} p_hk;
    δ_igl = 1 if rater g put item i in l, ε_ig = 1 if g rated i. One term per rating
    (``item_of``, ``rater``, ``label``: each rating's item row, rater and category)."""
    return linearised_se(items, *conger_chance(items, rater_counts, item_of, rater, label, w),
                         f)


def conger_chance(items: ItemTerms, rater_counts, item_of, rater, label, w=None):
    """(A'_e,i, A'_e) of Conger's κ for :func:`linearised_se` (see :func:`conger_se`)."""
    n_gc = np.asarray(rater_counts, dtype=float)
    r, n_g = len(n_gc), n_gc.sum(axis=1)
    p = n_gc / n_g[:, None]
    pe = float(conger_expected(p, w))
    b = p.sum(axis=0) - p                                   # Σ_{h≠g} p_hk
    if w is not None:
        b = b @ w                                           # b_gl = Σ_k w_kl Σ_{h≠g} p_hk
    term = items.n / n_g[rater] * (b[rater, label] - np.sum(p * b, axis=1)[rater])
    pe_i = pe + np.bincount(item_of, weights=term, minlength=len(items.m)) / (r * (r - 1))
    return pe_i, pe


def bp_expected(w, k: int):
    """A_e = Σ_kl w_kl / q² (Brennan & Prediger 1981; Gwet 2014, ch. 3 for w; 1/q
    unweighted)."""
    return 1.0 / k if w is None else float(np.sum(w)) / k ** 2


def gwet_expected(shares, w=None):
    """Gwet's (2008; 2014, ch. 4) chance agreement of AC1/AC2:
    p_e = T_w Σ_k π_k(1 − π_k) / (q(q − 1)), T_w = Σ_kl w_kl (q for the identity);
    ``shares`` π_k of shape (..., q). NaN for a single category (q = 1)."""
    p = np.asarray(shares, dtype=float)
    q = p.shape[-1]
    t_w = q if w is None else float(np.sum(w))
    with np.errstate(divide="ignore", invalid="ignore"):
        return t_w * np.sum(p * (1 - p), axis=-1) / (q * (q - 1)) if q > 1 else \
            np.full(p.shape[:-1], np.nan)


def gwet_se(items: ItemTerms, w=None, f: float = 0.0):
    """Standard error of AC1/AC2 (Gwet 2008; 2014, ch. 5): :func:`linearised_se` with
    p_e,i = T_w Σ_k (n_ik/m_i)(1 − π_k) / (q(q − 1)), every item with a rating in n and
    in π_k, the pairable ones in p_a. NaN for a single category."""
    if items.counts.shape[1] < 2:
        return float("nan")
    return linearised_se(items, *gwet_chance(items, w), f)


def gwet_chance(items: ItemTerms, w=None):
    """(p_e,i, p_e) of AC1/AC2 for :func:`linearised_se` (two categories or more):
    p_e,i = T_w Σ_k (n_ik/m_i)(1 − π_k) / (q(q − 1)) (Gwet 2008; 2014, ch. 5)."""
    q = items.counts.shape[1]
    p = items.shares
    t_w = q if w is None else float(np.sum(w))
    return t_w * (items.item_shares @ (1 - p)) / (q * (q - 1)), float(gwet_expected(p, w))
