"""Rosenberg & Binkowski's (2004) augmented κ for items with a primary and a secondary label.

An annotator gives an item one label (weight 1) or a primary and a secondary label
(weights p and 1 − p, 0.5 ≤ p ≤ 1). For two annotators A and B, §5 of the paper:

- annotation matrices ``M_A[x, y]`` (§5.1): 1, p, 1 − p or 0;
- agreement matrix ``Ag = M_A ∘ M_B`` and ``p(A) = ΣAg / N`` (§5.1);
- frequency vectors ``Freq_A[y] = Σ_x M_A[x, y] / N`` and
  ``p(E) = Σ_y Freq_A[y] Freq_B[y]`` (§5.2);
- ``κ′ = (p(A) − p(E)) / (1 − p(E))`` (§5.3).

Every weight is linear in p, so p(A) and p(E) are quadratics in p:
:func:`augmented_kappa_sweep` computes their coefficients once and evaluates the
curve exactly at any p; :func:`augmented_kappa` evaluates §5 directly at one p.

Definitions the paper leaves open (decided in issue 3)
------------------------------------------------------
- Per-item agreement of a pair is the row sum of Ag, ``pA_x = Σ_y Ag[x, y]``; the
  per-item κ is ``κ_x = (pA_x − p(E)) / (1 − p(E))`` with that pair's corpus-level
  p(E) at the same p, so that for two annotators the mean of κ_x over items is κ′.
- More than two annotators: κ′ and κ_x are averages over annotator pairs, each pair
  with its own p(E) (the paper's "average kappa across the three annotators", §6);
  ``observed`` and ``expected`` are the pair averages of p(A) and p(E). An item that
  an annotator did not label is left out of that annotator's pairs (each pair uses
  the N items both rated; ``pairs.n_left_out`` says how many it left out); κ_x
  averages the pairs that rated item x. Items rated by fewer than two annotators are
  excluded and counted in ``excluded``. With missing ratings the mean of κ_x over
  items need not equal κ′ (the pairs weigh items differently).
- The four item classes (§6) from the endpoints, with ``d = κ_x(1.0) − κ_x(0.5)``:
  ``d > δ`` → ``"higher_at_p1"`` (paper class 3); ``d < −δ`` → ``"higher_at_p05"``
  (class 4); otherwise ``mean(κ_x(0.5), κ_x(1.0)) ≥ τ`` → ``"constant_high"``
  (class 1), else ``"constant_low"`` (class 2). Defaults δ = 0.1, τ = 0.5. An item
  whose κ_x is undefined (p(E) = 1) is ``"undefined"``.
- The case type of an item writes each annotator's labels in the paper's §4 format,
  letters given in order of first appearance: ``{ab,ba}``, ``{a,a}``, ``{ab,c}``;
  with more annotators ``{ab,a,ba}``, and ``-`` for an annotator who did not rate it.

How it is computed (issue 19: memory and time follow the sufficient statistics)
------------------------------------------------------------------------------
Nothing is of size items × annotator pairs. Items are taken in blocks; a block is
the dense table M[y, x, r] (categories × items × annotators) of one weight, or of the
p⁰ and p¹ coefficients side by side. Per pair (r, s), over the items both rated:
N = Σ_x R_r R_s, ΣAg = Σ_x Σ_y M_r M_s and the Freq numerators Σ_x M_r[x, y] R_s[x]
(R: rated) are matrix products of these blocks, summed over blocks. Per item,
Σ_{r<s} A_rs (1 − pA_x(r, s)) for a pair matrix A is a quadratic form of the item's
table, so κ_x = 1 − Σ_{r<s} (1 − pA_x) / (1 − p(E)_rs) / (pairs that rated x) needs
one product with the annotators × annotators matrix 1 / (1 − p(E)) per block.
"""
from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

import numpy as np
import pandas as pd

from .. import validate
from ..data import Annotations, as_annotations, noted
from ..errors import AgreementError
from ..results import AgreementResult, Charted, provenance_html
from ..stats import all_pairs
from ._prepare import complete
from ._registry import register

__all__ = ["augmented_kappa", "augmented_kappa_sweep", "AugmentedKappaResult",
           "AugmentedSweepResult", "annotation_matrix", "ITEM_CLASSES"]

ITEM_CLASSES = ("constant_high", "constant_low", "higher_at_p1", "higher_at_p05",
                "undefined")
DEFAULT_PS = np.round(np.linspace(0.5, 1.0, 51), 2)


# ------------------------------------------------------------------ checks
def _check_p(where: str, ps, name: str = "p") -> np.ndarray:
    """p (or a grid of them) as floats in [0.5, 1] (§5: 0.5 ≤ p ≤ 1.0; 0.5: primary and
    secondary weigh the same, 1: secondary labels ignored)."""
    values = np.asarray(ps, dtype=object).ravel() if np.ndim(ps) else [ps]
    if len(values) == 0:
        validate.fail(where, name, "at least one number in [0.5, 1]", ps)
    return np.array([validate.real(where, name, v, minimum=0.5, maximum=1.0)
                     for v in values])


def _check_annotations(data, loader_args, missing: str = "pairable") -> Annotations:
    """The ratings, one row each; ``missing``: "pairable" (every item rated by two
    annotators or more enters) or "raise" (refuse an item an annotator left unrated)."""
    ann = as_annotations(data, **loader_args)
    if ann.anonymous:
        raise AgreementError("augmented κ compares annotators pairwise, but these data came "
                             "from per-item counts without annotator identities; load them "
                             "with from_long or from_wide")
    ann = ann.expanded("augmented κ")  # reads single ratings
    return complete(ann, "augmented_kappa", missing, ("pairable", "raise"))[0]


# ------------------------------------------- the ratings as weights in p, by item
BLOCK = 1 << 20  # floats in one dense categories × items × annotators block (8 MB)


@dataclass(frozen=True, eq=False)
class _Ratings:
    """The ratings of the kept items (rated by ≥ 2 annotators), grouped by item.

    ``item`` is the row of the rating's item among the kept ones; ``bounds[x]`` …
    ``bounds[x + 1]`` are item x's ratings. ``kind``: 0 a label alone, 1 a primary
    with a secondary, 2 a secondary; its weight in M (§5.1) is ``by_kind[kind]`` for
    the 3-vector of :func:`_by_kind`.
    """

    item: np.ndarray
    annotator: np.ndarray
    label: np.ndarray
    rank: np.ndarray
    kind: np.ndarray
    bounds: np.ndarray
    n_annotators: int
    n_categories: int

    @property
    def n_items(self) -> int:
        return len(self.bounds) - 1

    @property
    def step(self) -> int:
        """Items per block: a dense categories × items × annotators block of M holds at
        most BLOCK floats."""
        return max(1, BLOCK // (self.n_annotators * self.n_categories))

    def blocks(self):
        """Item ranges [lo, hi) of one block each, with their ratings' slice."""
        for lo in range(0, self.n_items, self.step):
            hi = min(lo + self.step, self.n_items)
            yield lo, hi, slice(self.bounds[lo], self.bounds[hi])

    def dense(self, by_kind: np.ndarray, lo: int, hi: int, s: slice) -> np.ndarray:
        """M on items [lo, hi) (§5.1), (categories · items) × annotators, for each row
        of weights ``by_kind`` (:func:`_by_kind`) side by side: (K · items) × (d · m)."""
        m, deg = self.n_annotators, len(by_kind)
        out = np.zeros((self.n_categories * (hi - lo), deg * m))
        cell = self.cell(lo, hi, s, deg * m)
        for j in range(deg):
            out.reshape(-1)[cell + j * m] = by_kind[j][self.kind[s]]
        return out

    def cell(self, lo: int, hi: int, s: slice, width: int) -> np.ndarray:
        """Each rating's cell in a (categories · items [lo, hi)) × ``width`` table."""
        return (self.label[s] * (hi - lo) + self.item[s] - lo) * width + self.annotator[s]

    def rated(self, lo: int, hi: int, s: slice) -> np.ndarray:
        """Items [lo, hi) × annotators: 1 where the annotator rated the item."""
        prim = self.rank[s] == 1
        out = np.zeros((hi - lo, self.n_annotators))
        out[self.item[s][prim] - lo, self.annotator[s][prim]] = 1.0
        return out

    def take(self, rows: np.ndarray) -> "_Ratings":
        """The ratings of item rows ``rows`` (repeats allowed), renumbered 0, 1, …"""
        lo, counts = self.bounds[rows], self.bounds[rows + 1] - self.bounds[rows]
        starts = np.cumsum(counts) - counts
        at = np.repeat(lo - starts, counts) + np.arange(counts.sum())
        return replace(self, item=np.repeat(np.arange(len(rows)), counts),
                       annotator=self.annotator[at], label=self.label[at],
                       rank=self.rank[at], kind=self.kind[at],
                       bounds=np.concatenate([starts, [counts.sum()]]))


def _ratings(ann: Annotations) -> tuple[_Ratings, np.ndarray]:
    """The ratings of the items rated by at least two annotators, and those items' codes."""
    m = ann.n_annotators
    prim = ann.rank == 1
    rated = np.bincount(ann.item[prim], minlength=ann.n_items)
    kept = np.flatnonzero(rated >= 2)
    if len(kept) == 0:
        raise AgreementError("no item is rated by two annotators, so no pair can agree")
    row = np.full(ann.n_items, -1, dtype=np.int32 if len(kept) < 2**31 else np.int64)
    row[kept] = np.arange(len(kept))
    item = row[ann.item]                                 # row of each rating's item, or -1
    if np.all(item[1:] >= item[:-1]):                    # grouped by item already
        order = slice(np.count_nonzero(item < 0), None)
    else:
        order = np.argsort(item, kind="stable")[np.count_nonzero(item < 0):]
    item = item[order]
    small = np.int32 if max(m, ann.n_categories) < 2**31 else np.int64
    annotator = ann.annotator[order].astype(small, copy=False)
    label = ann.label[order].astype(small, copy=False)
    rank = ann.rank[order].astype(np.int8, copy=False)
    del order
    two = np.zeros((len(kept), m), dtype=bool)                       # has a secondary
    two[item[rank == 2], annotator[rank == 2]] = True
    kind = np.where(rank == 2, np.int8(2), two[item, annotator].astype(np.int8))
    bounds = np.concatenate([[0], np.cumsum(np.bincount(item, minlength=len(kept)))])
    return _Ratings(item, annotator, label, rank, kind, bounds, m, ann.n_categories), kept


def _blas_threads(n_annotators: int):
    """One BLAS thread for the thin products of few annotators (memory-bound): on a busy
    2-core machine a second thread made the 5e5 × 10 sweep 6–10× slower (measured)."""
    if n_annotators >= 64:
        return nullcontext()
    from threadpoolctl import threadpool_limits
    return threadpool_limits(1, user_api="blas")


def _by_kind(p: float) -> np.ndarray:
    """Weights in M at p of a label alone, a primary, a secondary (§5.1): 1, p, 1 − p."""
    return np.array([1.0, p, 1.0 - p])


POLY_BY_KIND = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0]])  # the same: 1, p, 1 − p


# ----------------------------------------------- pair tables: sums over items
def _poly_mul(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Product of polynomials in p given by coefficients on the first axis."""
    out = np.zeros((len(u) + len(v) - 1,) + np.broadcast_shapes(u.shape[1:], v.shape[1:]))
    for i in range(len(u)):
        for j in range(len(v)):
            out[i + j] += u[i] * v[j]
    return out


def _pair_tables(t: _Ratings, coef: np.ndarray, pairs: np.ndarray):
    """Per annotator pair (r, s), sums over items of per-item tables, from one pass over
    blocks of items (matrix products of annotators × (categories · items) blocks):

    - ``n``: N, the items both rated (§5);
    - ``agree[d]``: p^d coefficient of ΣAg = Σ_x Σ_y M_r[x, y] M_s[x, y] (§5.1);
    - ``col_r[d]``, ``col_s[d]``: p^d coefficient of Σ_x M_r[x, y] (of M_s) over the
      items both rated, the Freq vectors of §5.2 before dividing by N, (d, P, K).

    ``coef``: the weights by kind as a polynomial in p (``POLY_BY_KIND``, p^j in row
    j), or at one p (``_by_kind(p)[None]``).
    """
    m, k, deg = t.n_annotators, t.n_categories, len(coef)
    n = np.zeros((m, m))
    gram = np.zeros((deg * m, deg * m))            # [(i, r), (j, s)]: Σ M^(i)_r M^(j)_s
    col = np.zeros((k, deg * m, m))               # [y, (d, r), s]
    with _blas_threads(m):
        for lo, hi, s in t.blocks():
            r = t.rated(lo, hi, s)
            n += r.T @ r
            w = t.dense(coef, lo, hi, s)
            gram += w.T @ w
            col += np.matmul(w.reshape(k, hi - lo, -1).transpose(0, 2, 1), r)
    agree = np.zeros((2 * deg - 1, m, m))
    for i in range(deg):
        for j in range(deg):
            agree[i + j] += gram[i * m:(i + 1) * m, j * m:(j + 1) * m]
    col = col.reshape(k, deg, m, m).transpose(2, 3, 1, 0)   # [r, s, d, y]
    a, b = pairs[:, 0], pairs[:, 1]
    return (n[a, b], agree[:, a, b], col[a, b].transpose(1, 0, 2),
            col[b, a].transpose(1, 0, 2))


def _pe_one_from(col_a: np.ndarray, col_b: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Per pair, the least p at which p(E) is exactly 1 (inf: none). p(E) = 1 iff both
    Freq vectors are 1 on one category, i.e. every weight is 1 on it (§5.1): then at
    p = 0.5 already if no secondary label, else only at p = 1. Decided exactly: the
    column totals at p = 0.5 and 1 are multiples of ½, so Σ_y F_A F_B = N² has no
    rounding."""
    def one_at(p):
        fa, fb = col_a[0] + p * col_a[1], col_b[0] + p * col_b[1]
        return (np.sum(fa * fb, axis=1) == n * n) & (n > 0)
    return np.where(one_at(0.5), 0.5, np.where(one_at(1.0), 1.0, np.inf))


def _symmetric(values: np.ndarray, pairs: np.ndarray, m: int) -> np.ndarray:
    """An annotators × annotators matrix with ``values`` at each pair (both ways)."""
    out = np.zeros((m, m))
    out[pairs[:, 0], pairs[:, 1]] = values
    out[pairs[:, 1], pairs[:, 0]] = values
    return out


def _item_sums(t: _Ratings, by_kind: np.ndarray, on_labels, on_raters) -> np.ndarray:
    """Per item x, Σ_{r<s} A_rs (1 − Σ_y Ag[x, y]) for each A in ``on_labels`` and
    Σ_{r<s} B_rs [r and s rated x] for each B in ``on_raters`` (symmetric, zero
    diagonal): quadratic forms of the item's annotators × categories table, never an
    items × pairs array. Each row of M sums to 1 (§5.1), so 1 − Σ_y M_r[x, y] M_s[x, y]
    = Σ_{y' ≠ y} M_r[x, y] M_s[x, y'], computed as such: exactly 0 where the pair
    agrees fully. Rows: the matrices in that order; columns: items."""
    m, k, nl = t.n_annotators, t.n_categories, len(on_labels)
    out = np.zeros((nl + len(on_raters), t.n_items))
    with _blas_threads(m):
        for lo, hi, s in t.blocks():
            w, item, ann = t.dense(by_kind[None], lo, hi, s), t.item[s] - lo, t.annotator[s]
            z = (w @ np.concatenate(on_labels, axis=1)).reshape(-1)   # Σ_s A_rs M_s[x, y]
            total = z.reshape(k, -1).sum(axis=0)             # Σ_s A_rs Σ_y' M_s[x, y']
            at_z, at_total = t.cell(lo, hi, s, nl * m), item * (nl * m) + ann
            other = np.stack([total[at_total + j * m] - z[at_z + j * m]   # … over y' ≠ y
                              for j in range(nl)], axis=1)
            weight = by_kind[t.kind[s]]
            for j in range(nl):
                out[j, lo:hi] = np.bincount(item, weight * other[:, j], minlength=hi - lo)
            if on_raters:
                r = t.rated(lo, hi, s)
                zr = (r @ np.concatenate(on_raters, axis=1)).reshape(hi - lo, -1, m)
                out[nl:, lo:hi] = (zr * r[:, None, :]).sum(axis=2).T
    return out / 2


def _n_pairs(t: _Ratings) -> np.ndarray:
    """Annotator pairs that rated each item: n_x (n_x − 1) / 2."""
    n_x = np.bincount(t.item[t.rank == 1], minlength=t.n_items)
    return n_x * (n_x - 1) // 2


def _item_kappa(t: _Ratings, pairs: np.ndarray, p_e: np.ndarray, p: float,
                with_agreement: bool = False):
    """κ_x at p for every item of ``t``: the mean over the pairs that rated x of
    (pA_x − p(E)) / (1 − p(E)) = 1 − (1 − pA_x) / (1 − p(E)), each pair with its
    p(E) (``p_e``, (P,)); NaN if a pair that rated x has p(E) = 1. With
    ``with_agreement``, also the mean over those pairs of pA_x = Σ_y Ag[x, y]."""
    m = t.n_annotators
    defined = p_e < 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(defined, 1.0 / (1.0 - p_e), 0.0)
    on_labels = [_symmetric(scale, pairs, m)]
    if with_agreement:
        on_labels.append(_symmetric(np.ones(len(pairs)), pairs, m))
    undefined = [_symmetric((~defined).astype(float), pairs, m)] if not defined.all() else []
    sums = _item_sums(t, _by_kind(p), on_labels, undefined)
    n_pairs = _n_pairs(t)
    kappa = 1.0 - sums[0] / n_pairs
    if undefined:
        kappa[sums[-1] > 0] = np.nan
    return (kappa, 1.0 - sums[1] / n_pairs) if with_agreement else kappa


def _expected(pe: np.ndarray, one_from: np.ndarray, ps: np.ndarray) -> np.ndarray:
    """p(E) of every pair at every p from its (3, P) coefficients, (P, G); exactly 1
    where it is 1 (``one_from``), which rounding of the quadratic could miss."""
    return np.where(ps[None, :] >= one_from[:, None], 1.0, pe.T @ _powers(ps))


def _kappa(p_a, p_e):
    """κ′ = (p(A) − p(E)) / (1 − p(E)) (§5.3); NaN where p(E) = 1."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p_e < 1.0, (p_a - p_e) / (1.0 - p_e), np.nan)


def _pairs_frame(ann: Annotations, pairs: np.ndarray, n: np.ndarray) -> pd.DataFrame:
    names = ann.annotators
    return pd.DataFrame({"annotator_a": names.take(pairs[:, 0]),
                         "annotator_b": names.take(pairs[:, 1]),
                         "n_items": n.astype(np.int64),
                         "n_left_out": ann.n_items - n.astype(np.int64)})


def _pair_average(values: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Average over the pairs that share at least one item (§6: average across pairs)."""
    return values[n > 0].mean(axis=0)


def _excluded(ann: Annotations, kept: np.ndarray) -> dict:
    n_out = ann.n_items - len(kept)
    return {"rated by fewer than two annotators": n_out} if n_out else {}


def _note(kappa: np.ndarray, pairs: pd.DataFrame) -> str:
    """Say which pairs are left out of the averages and where κ′ is undefined."""
    n = pairs["n_items"].to_numpy()
    parts = []
    if np.any(n == 0):
        empty = pairs[n == 0]
        names = ", ".join(f"({a}, {b})" for a, b in
                          zip(empty["annotator_a"][:5], empty["annotator_b"][:5]))
        parts.append(f"{len(empty)} annotator pair(s) share no item and are left out of the "
                     f"averages: {names}{' …' if len(empty) > 5 else ''}.")
    if np.any(np.isnan(kappa[n > 0])):
        parts.append("κ′ is undefined (NaN) where p(E) = 1: both annotators of a pair put "
                     "all weight on one category.")
    return " ".join(parts)


# ------------------------------------------------------------ one value of p
@dataclass(frozen=True, eq=False, repr=False)
class AugmentedKappaResult(AgreementResult):
    r"""Augmented κ′ at one p: an AgreementResult with the paper's tables.

    Made by [augmented_kappa][iaa_widgets.augmented_kappa]; frozen. Every field of
    [AgreementResult][iaa_widgets.AgreementResult] (``value`` κ′, ``observed`` p(A),
    ``expected`` p(E), ``params["p"]`` …), and the three tables below.

    Attributes
    ----------
    items : pandas.DataFrame
        Per item: ``item``, ``p_a`` (the row sum of Ag, averaged over pairs), ``kappa``
        (κ_x) and ``n_pairs`` (the pairs that rated it).
    pairs : pandas.DataFrame
        Per annotator pair: ``annotator_a``, ``annotator_b``, ``n_items`` (N),
        ``n_left_out``, ``p_a``, ``p_e``, ``kappa``.
    freq : pandas.DataFrame
        The Freq vectors of §5.2 over the categories, one row per (annotator_a,
        annotator_b, annotator).

    See Also
    --------
    iaa_widgets.augmented_kappa : Makes it.
    iaa_widgets.AgreementResult : The fields it shares.

    Examples
    --------
    >>> frame = pd.DataFrame({"item": [1, 2], "annotator": ["A", "A"],
    ...                       "label": [("a", "b"), "b"]})
    >>> frame = pd.concat([frame, frame.assign(annotator="B", label=["a", "b"])])
    >>> r = iaa.augmented_kappa(frame, p=0.6)
    >>> r.pairs[["annotator_a", "annotator_b", "n_items"]].values.tolist()
    [['A', 'B', 2]]
    """

    items: pd.DataFrame | None = None
    pairs: pd.DataFrame | None = None
    freq: pd.DataFrame | None = None

    def _repr_html_(self) -> str:
        pairs = "" if self.pairs is None else self.pairs.to_html(
            index=False, float_format=lambda v: f"{v:.4f}")  # to_html escapes labels
        return super()._repr_html_() + pairs


@register(family='chance-corrected agreement', data='primary-secondary', annotators='many',
          source='Rosenberg & Binkowski (2004)', symbol='κ′ (augmented)',
          missing=('pairable', 'raise'))
def augmented_kappa(data, p: float = 0.6, *, missing: str = "pairable",
                    **loader_args) -> AugmentedKappaResult:
    r"""Rosenberg & Binkowski's (2004) augmented κ′ at weight ``p`` (§5), computed directly.

    An annotator gives an item one label (weight 1) or a primary and a secondary label
    (weights p and 1 − p, 0.5 ≤ p ≤ 1). κ′ is Cohen's κ over these weighted annotation
    matrices; at p = 1 it is Cohen's κ of the primary labels. More than two annotators: the
    average over annotator pairs (§6), each pair over the items both rated.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        Ratings with a primary and an optional secondary label per item and annotator:
        [Annotations][iaa_widgets.Annotations], or a tidy table with columns ``item``,
        ``annotator``, ``label`` and either a ``rank`` column (1 primary, 2 secondary) or
        ``(primary, secondary)`` tuples as label cells.
    p : float, default 0.6
        The primary label's weight, in [0.5, 1] (one value; for many use
        [augmented_kappa_sweep][iaa_widgets.augmented_kappa_sweep]).
    missing : {"pairable", "raise"}, default "pairable"
        "pairable": the items rated by two annotators or more (the others are excluded
        and counted). "raise": refuse data with a missing rating.
    **loader_args
        Keywords of [Annotations.from_long][iaa_widgets.Annotations] for a table
        (``categories=``, column names …); a misspelt one is refused, naming the closest.

    Returns
    -------
    AugmentedKappaResult
        An [AgreementResult][iaa_widgets.AgreementResult]: ``value`` κ′ (averaged over
        pairs), ``observed`` p(A), ``expected`` p(E) (pair averages), ``params["p"]``;
        and ``items`` (per item ``p_a``, ``kappa`` κ_x and ``n_pairs``), ``pairs`` (per
        annotator pair ``n_items`` N, ``n_left_out``, ``p_a``, ``p_e``, ``kappa``) and
        ``freq`` (the Freq vectors of §5.2, one row per pair and annotator).

    Raises
    ------
    AgreementError
        If ``p`` is not one number in [0.5, 1], the data cannot be read as primary and
        secondary labels, a keyword is unknown, or no item is rated by two annotators.

    See Also
    --------
    iaa_widgets.augmented_kappa_sweep : κ′ over a grid of p, and the item classes.
    iaa_widgets.AugmentedKappaSweep : The sweep as a live widget.
    iaa_widgets.cohen_kappa : κ′ at p = 1, on the primary labels.

    Notes
    -----
    For two annotators A and B over their N common items, with annotation matrices
    $M_A[x, y] \in \{1, p, 1 - p, 0\}$ (§5.1):

    $$p(A) = \frac{1}{N}\sum_{x, y} M_A[x, y] M_B[x, y], \qquad
    \mathrm{Freq}_A[y] = \frac{1}{N}\sum_x M_A[x, y], \qquad
    p(E) = \sum_y \mathrm{Freq}_A[y]\, \mathrm{Freq}_B[y],$$

    $$\kappa' = \frac{p(A) - p(E)}{1 - p(E)} \quad (\S 5.3).$$

    Per item, $\kappa_x = (pA_x - p(E))/(1 - p(E))$ with $pA_x = \sum_y Ag[x, y]$ and the
    pair's corpus p(E) (our reading, issue 3: for two annotators the mean of κ_x is κ′).

    References
    ----------
    Rosenberg, A., & Binkowski, E. (2004). Augmenting the kappa statistic to
    determine interannotator reliability for multiply labeled data points. In
    *Proceedings of HLT-NAACL 2004: Short Papers*, 77–80. Association for
    Computational Linguistics. https://aclanthology.org/N04-4020

    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational
    and Psychological Measurement*, 20(1), 37–46.
    https://doi.org/10.1177/001316446002000104

    Examples
    --------
    The paper's Table 1 (annotator A, messages 1–5, p = 0.6) beside an annotator B who
    gives one label each (B is not in the paper):

    >>> frame = pd.DataFrame({
    ...     "item": [1, 2, 3, 4, 5] * 2, "annotator": ["A"] * 5 + ["B"] * 5,
    ...     "label": [("a", "b"), ("b", "a"), "b", "c", ("c", "b"), "a", "b", "b", "c", "c"]})
    >>> r = iaa.augmented_kappa(frame, p=0.6, categories=["a", "b", "c", "d"])
    >>> r.freq.loc[("A", "B", "A")].tolist()  # the paper's Table 3: Freq_A
    [0.2, 0.48, 0.32, 0.0]
    >>> round(r.observed, 4), round(r.expected, 4), round(r.value, 4)
    (0.76, 0.36, 0.625)

    By hand from §5: ΣAg = 0.6 + 0.6 + 1 + 1 + 0.6 = 3.8, p(A) = 3.8/5;
    Freq_B = (0.2, 0.4, 0.4, 0), p(E) = 0.04 + 0.192 + 0.128 = 0.36; κ′ = 0.4/0.64.
    """
    if np.ndim(p) != 0:
        raise AgreementError("augmented_kappa takes one p; use augmented_kappa_sweep for many")
    p = float(_check_p("augmented_kappa", p)[0])
    ann = _check_annotations(data, loader_args, missing)
    t, kept = _ratings(ann)
    pairs = all_pairs(ann.n_annotators)
    n, agree, col_a, col_b = _pair_tables(t, _by_kind(p)[None], pairs)  # M at p (§5.1)
    terms = np.concatenate([n, agree[0], col_a[0].ravel(), col_b[0].ravel()])  # the totals
    finish = _finish(len(pairs), ann.n_categories)                  # of the Statistic
    value, observed, expected = (float(x[0]) for x in finish({"terms": terms[None]}))
    _, p_a, freq_a, freq_b, p_e, kappa = (x[0] for x in
                                          _pair_values(terms[None], len(pairs),
                                                       ann.n_categories))
    kappa_x, p_a_x = _item_kappa(t, pairs, p_e, p, with_agreement=True)
    items = pd.DataFrame({"item": ann.items.take(kept), "p_a": p_a_x, "kappa": kappa_x,
                          "n_pairs": _n_pairs(t)})
    table = _pairs_frame(ann, pairs, n).assign(p_a=p_a, p_e=p_e, kappa=kappa)
    names = ann.annotators
    freq_index = pd.MultiIndex.from_arrays(
        [np.repeat(names.take(pairs[:, 0]), 2), np.repeat(names.take(pairs[:, 1]), 2),
         names.take(pairs.ravel())], names=["annotator_a", "annotator_b", "annotator"])
    freq = pd.DataFrame(np.stack([freq_a, freq_b], axis=1).reshape(2 * len(pairs), -1),
                        index=freq_index, columns=ann.categories)
    note, params = noted(ann, _note(kappa, table), {"p": p})  # look-alikes, blank labels
    return AugmentedKappaResult(
        measure="augmented kappa", value=value, observed=observed, expected=expected,
        n_items=len(kept), n_annotators=ann.n_annotators, n_ratings=ann.n_ratings,
        excluded=_excluded(ann, kept), params=params, note=note,
        items=items, pairs=table, freq=freq)


@validate.takes(loader=Annotations.from_long)  # a misspelt keyword refused (issue 44)
def annotation_matrix(data, annotator, p: float = 0.6, **loader_args) -> pd.DataFrame:
    """The annotation matrix M of one annotator (§5.1, the paper's Table 2): items it
    rated × categories, 1 for a single label, p and 1 − p for primary and secondary."""
    p = float(_check_p("annotation_matrix", p)[0])
    ann = _check_annotations(data, loader_args)
    if annotator not in ann.annotators:
        raise AgreementError(f"unknown annotator {annotator!r}; the data has "
                             f"{list(ann.annotators)!r}")
    own = ann.annotator == ann.annotators.get_loc(annotator)
    item, label, rank = ann.item[own], ann.label[own], ann.rank[own]
    two = np.zeros(ann.n_items, bool)
    two[item[rank == 2]] = True
    w = np.where(rank == 2, 1.0 - p, np.where(two[item], p, 1.0))
    rows, row_of = np.unique(item, return_inverse=True)
    m = np.zeros((len(rows), ann.n_categories))
    m[row_of, label] = w
    return pd.DataFrame(m, index=ann.items.take(rows), columns=ann.categories)


# ------------------------------------------------------------- sweep over p
def _powers(ps: np.ndarray) -> np.ndarray:
    """[1, p, p²] for each p, shape (3, G)."""
    return np.stack([np.ones_like(ps), ps, ps * ps])


@dataclass(frozen=True, eq=False)
class AugmentedSweepResult(Charted):
    r"""Augmented κ′ over a grid of p, with every item's κ_x curve and class.

    Made by [augmented_kappa_sweep][iaa_widgets.augmented_kappa_sweep]; frozen. It keeps
    the quadratic coefficients of p(A) and p(E), so that its methods evaluate the curves
    exactly at any p (κ_x is cheap enough for a slider).

    Attributes
    ----------
    curve : pandas.DataFrame
        ``p``, ``kappa`` (κ′, averaged over pairs), ``p_a``, ``p_e`` (pair averages).
    items : pandas.DataFrame
        ``item``, ``kappa_0.5``, ``kappa_1.0``, ``case`` (§4 notation), ``class`` (one of
        ``ITEM_CLASSES``: constant_high, constant_low, higher_at_p1, higher_at_p05,
        undefined).
    pairs : pandas.DataFrame
        Per annotator pair N (``n_items``), ``n_left_out`` and the quadratic coefficients
        of p(A) (``p_a_c0`` + ``p_a_c1``·p + ``p_a_c2``·p²) and of p(E) (``p_e_c0`` …).
    n_items : int
        The items kept (rated by two annotators or more).
    n_annotators : int
        Annotators in the data.
    n_ratings : int
        Ratings in the data.
    excluded : mapping of str to int
        Items left out, by reason.
    params : mapping
        ``delta`` and ``tau``.
    note : str
        Undefined pairs, look-alike or blank labels.
    n_excluded : int
        The number of items excluded.

    Methods
    -------
    at(p)
        κ′, p(A) and p(E) at one p, as an AgreementResult (pair averages).
    pair_curves(ps=None)
        Every annotator pair's curve (long): annotator_a, annotator_b, p, kappa, p_a, p_e.
    item_curves(items=None, ps=None)
        κ_x(p) of the items over ``ps``: items × p.
    item_curve(item, ps=None)
        κ_x(p) of one item: columns p, kappa.
    item_kappa(p)
        κ_x at one p for every kept item.
    with_classes(delta=0.1, tau=0.5)
        The same sweep with the item classes redrawn, no curve recomputed.
    to_frame()
        The corpus curve: p, kappa, p_a, p_e.
    chart(**options)
        An Altair chart of the curve.

    See Also
    --------
    iaa_widgets.augmented_kappa_sweep : Makes it.
    iaa_widgets.AugmentedKappaSweep : The sweep as a live widget.

    Examples
    --------
    By hand from §5: p(A) = (p + 1)/2 and p(E) = 1/2 here, so κ′(p) = p.

    >>> frame = pd.DataFrame({"item": [1, 2, 1, 2], "annotator": ["A", "A", "B", "B"],
    ...                       "label": [("a", "b"), "b", "a", "b"]})
    >>> sweep = iaa.augmented_kappa_sweep(frame, ps=[0.5, 1.0])
    >>> sweep.to_frame()["kappa"].round(4).tolist()
    [0.5, 1.0]
    >>> round(sweep.at(0.75).value, 4)
    0.75
    """

    curve: pd.DataFrame
    items: pd.DataFrame
    pairs: pd.DataFrame
    n_items: int
    n_annotators: int
    n_ratings: int
    excluded: Mapping[str, int] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""
    _item_row: np.ndarray = field(default=None, repr=False)    # kept row per item code, -1
    _item_names: pd.Index = field(default=None, repr=False)    # every item of the data
    _ratings: _Ratings = field(default=None, repr=False)       # the kept items' ratings
    _pair_codes: np.ndarray = field(default=None, repr=False)  # (P, 2) annotator codes
    _pe: np.ndarray = field(default=None, repr=False)          # (3, P) p(E) coefficients
    _pe_one_from: np.ndarray = field(default=None, repr=False)  # (P,) least p with p(E) = 1

    @property
    def n_excluded(self) -> int:
        return int(sum(self.excluded.values()))

    def _kappa_at(self, t: _Ratings, ps: np.ndarray) -> np.ndarray:
        """κ_x of the items of ``t`` at each p: (items, G), one pass over t per p."""
        p_e = _expected(self._pe, self._pe_one_from, ps)
        return np.stack([_item_kappa(t, self._pair_codes, p_e[:, g], p)
                         for g, p in enumerate(ps)], axis=1).reshape(t.n_items, len(ps))

    def _grid(self, ps) -> np.ndarray:
        return self.curve["p"].to_numpy() if ps is None else _check_p("sweep", ps, "ps")

    def _pair_curves(self, ps: np.ndarray):
        cols = self.pairs
        pa = cols[["p_a_c0", "p_a_c1", "p_a_c2"]].to_numpy().T
        return _pair_curves(pa, self._pe, self._pe_one_from, ps)

    def at(self, p: float) -> AgreementResult:
        """κ′, p(A) and p(E) at one p, from the closed form (pair averages)."""
        if np.ndim(p) != 0:
            raise AgreementError("at takes one p; pass a grid to augmented_kappa_sweep")
        grid = _check_p("at", p)
        p_a, p_e, kappa = self._pair_curves(grid)
        n = self.pairs["n_items"].to_numpy()
        return AgreementResult(
            measure="augmented kappa", value=float(_pair_average(kappa, n)[0]),
            observed=float(_pair_average(p_a, n)[0]),
            expected=float(_pair_average(p_e, n)[0]), n_items=self.n_items,
            n_annotators=self.n_annotators, n_ratings=self.n_ratings,
            excluded=self.excluded, params={"p": float(grid[0])},
            note=_note(kappa, self.pairs))

    def pair_curves(self, ps=None) -> pd.DataFrame:
        """Every annotator pair's curve (long): annotator_a, annotator_b, p, kappa, p_a, p_e."""
        grid = self._grid(ps)
        p_a, p_e, kappa = self._pair_curves(grid)
        reps = len(grid)
        return pd.DataFrame({"annotator_a": np.repeat(self.pairs["annotator_a"].to_numpy(), reps),
                             "annotator_b": np.repeat(self.pairs["annotator_b"].to_numpy(), reps),
                             "p": np.tile(grid, len(self.pairs)), "kappa": kappa.ravel(),
                             "p_a": p_a.ravel(), "p_e": p_e.ravel()})

    def item_curves(self, items=None, ps=None) -> pd.DataFrame:
        """κ_x(p) of ``items`` (default: all kept items) over ``ps`` (default: the sweep's
        grid), averaged over the pairs that rated each item: items × p."""
        grid = self._grid(ps)
        if items is None:
            items = self.items["item"]
        items = pd.Index(items)                                  # no per-item Python objects
        codes = self._item_names.get_indexer(items)
        if np.any(codes < 0):
            unknown = [i for i, c in zip(items, codes) if c < 0][:5]
            raise AgreementError(f"unknown item(s) {unknown!r}")
        rows = self._item_row[codes]
        if np.any(rows < 0):
            lone = [i for i, r in zip(items, rows) if r < 0][:5]
            raise AgreementError(f"item(s) {lone!r} are rated by fewer than two annotators")
        whole = len(rows) == self._ratings.n_items and np.array_equal(rows, np.arange(len(rows)))
        t = self._ratings if whole else self._ratings.take(rows)
        return pd.DataFrame(self._kappa_at(t, grid), index=pd.Index(items, name="item"),
                            columns=pd.Index(grid, name="p"))

    def item_curve(self, item, ps=None) -> pd.DataFrame:
        """κ_x(p) of one item over ``ps`` (default: the sweep's grid): columns p, kappa."""
        row = self.item_curves([item], ps).iloc[0]
        return pd.DataFrame({"p": row.index.to_numpy(), "kappa": row.to_numpy()})

    def item_kappa(self, p: float) -> pd.Series:
        """κ_x at one ``p`` for every kept item (averaged over the pairs that rated it)."""
        if np.ndim(p) != 0:
            raise AgreementError("item_kappa takes one p; use item_curves for curves")
        return self.item_curves(ps=[p]).iloc[:, 0].rename("kappa")

    def with_classes(self, delta: float = 0.1, tau: float = 0.5) -> "AugmentedSweepResult":
        """The same sweep with the item classes redrawn for thresholds ``delta`` (δ)
        and ``tau`` (τ), without recomputing any curve."""
        _check_thresholds("with_classes", delta, tau)
        items = self.items.assign(**{"class": _classes(
            self.items["kappa_0.5"].to_numpy(), self.items["kappa_1.0"].to_numpy(),
            delta, tau)})
        return replace(self, items=items,
                       params={**self.params, "delta": float(delta), "tau": float(tau)})

    def to_frame(self) -> pd.DataFrame:
        """The corpus curve: p, kappa, p_a, p_e."""
        return self.curve

    def _repr_html_(self) -> str:
        ends = self.curve.iloc[[0, -1]].to_html(index=False,
                                               float_format=lambda v: f"{v:.4f}")
        counts = self.items["class"].value_counts(sort=False).to_frame("items").to_html()
        extra = provenance_html(self.excluded, self.note)
        return (f"<p>augmented κ′ sweep over {len(self.curve)} values of p, "
                f"{self.n_items} items, {self.n_annotators} annotators</p>"
                f"{ends}{counts}{extra}")

    def __repr__(self) -> str:
        k = self.curve["kappa"].to_numpy()
        return (f"AugmentedSweepResult({len(k)} values of p, κ′ from {k[0]:.4f} to "
                f"{k[-1]:.4f}, n_items={self.n_items})")


def _pair_curves(pa: np.ndarray, pe: np.ndarray, one_from: np.ndarray, ps: np.ndarray):
    """p(A), p(E) and κ′ of every pair at every p from the (3, P) coefficients: (P, G)."""
    p_a, p_e = pa.T @ _powers(ps), _expected(pe, one_from, ps)
    return p_a, p_e, _kappa(p_a, p_e)


def _check_thresholds(where: str, delta, tau) -> None:
    """δ a finite number ≥ 0, τ a finite number (§6)."""
    validate.real(where, "delta", delta, minimum=0.0)
    validate.real(where, "tau", tau)


def _classes(k05: np.ndarray, k1: np.ndarray, delta: float, tau: float) -> pd.Categorical:
    """The four item classes of §6 from the endpoints (module docstring)."""
    d = k1 - k05
    code = np.select([np.isnan(d), d > delta, d < -delta, (k05 + k1) / 2 >= tau],
                     [4, 2, 3, 0], default=1)
    return pd.Categorical.from_codes(code, categories=list(ITEM_CLASSES))


def _letter(k: int) -> str:
    return chr(ord("a") + k - 1) if k <= 26 else f"[{k}]"


def _case_letters(t: _Ratings) -> np.ndarray:
    """Label slots (annotator 1 primary, secondary, annotator 2 …) × items: each label's
    letter number by first appearance in that order, 0 where there is no label. One
    pass per slot over the items, with an items × categories table of letters given."""
    m, k = t.n_annotators, t.n_categories
    slots = np.full((2 * m, t.n_items), -1, dtype=t.label.dtype)
    slots[2 * t.annotator + t.rank - 1, t.item] = t.label
    letters = np.zeros(slots.shape, dtype=np.uint8 if 2 * m < 256 else np.uint16)
    step = max(1, BLOCK // k)
    for lo in range(0, t.n_items, step):                  # loop over blocks and slots only
        block = slots[:, lo:lo + step]
        base = np.arange(block.shape[1]) * k
        given = np.zeros(block.shape[1] * k, dtype=letters.dtype)  # letter of (item, label)
        seen = np.zeros(block.shape[1], dtype=letters.dtype)
        for j, s in enumerate(block):
            has = s >= 0
            at = base + np.where(has, s, 0)
            new = has & (given[at] == 0)
            seen += new
            given[at[new]] = seen[new]
            letters[j, lo:lo + step] = given[at] * has
    return letters


def _unique_columns(cols: np.ndarray):
    """The distinct columns of small non-negative integers and each column's index
    among them (np.unique(axis=1), faster: columns packed into 64-bit words)."""
    bits = max(1, int(cols.max(initial=0)).bit_length())
    per_word = 64 // bits
    words = []
    for lo in range(0, len(cols), per_word):
        word = np.zeros(cols.shape[1], dtype=np.uint64)
        for j, row in enumerate(cols[lo:lo + per_word]):
            word |= row.astype(np.uint64) << np.uint64(bits * j)
        words.append(word)
    order = np.lexsort(words[::-1])
    new = np.zeros(cols.shape[1], dtype=bool)
    new[:1] = True
    for word in words:
        new[1:] |= np.diff(word[order]) != 0
    inverse = np.empty(cols.shape[1], dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return cols[:, order[new]], inverse


def _case_types(t: _Ratings) -> pd.Categorical:
    """§4 case of each item: every annotator's labels, letters by first appearance."""
    m = t.n_annotators
    cases, inverse = _unique_columns(_case_letters(t))
    cases = cases.astype(np.int64)
    names = np.array([""] + [_letter(k) for k in range(1, 2 * m + 1)], dtype=object)
    text, step = [], max(1, (1 << 18) // m)           # cases at a time: bounded memory
    for lo in range(0, cases.shape[1], step):
        some = cases[:, lo:lo + step]
        parts = [np.where(some[2 * a] > 0, names[some[2 * a]] + names[some[2 * a + 1]], "-")
                 for a in range(m)]                   # one annotator's labels, these cases
        while len(parts) > 1:                         # join in pairs: log2(m) rounds
            joined = [a + "," + b for a, b in zip(parts[0::2], parts[1::2])]
            parts = joined + parts[len(joined) * 2:]
        text += ("{" + parts[0] + "}").tolist()
    return pd.Categorical.from_codes(inverse, categories=text)


@validate.takes(loader=Annotations.from_long)  # a misspelt keyword refused (issue 44)
def augmented_kappa_sweep(data, ps=None, delta: float = 0.1, tau: float = 0.5,
                          **loader_args) -> AugmentedSweepResult:
    r"""Augmented κ′ over a grid of p, exactly, with every item's κ_x curve and class.

    Every weight is linear in p, so p(A) and p(E) are quadratics in p: their coefficients
    are computed once and the curve is evaluated exactly at any p (Rosenberg & Binkowski
    2004, §5). Each item gets its §4 case type and one of the paper's four classes (§6)
    from κ_x at p = 0.5 and p = 1.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        Ratings with a primary and an optional secondary label per item and annotator:
        [Annotations][iaa_widgets.Annotations], or a tidy table with columns ``item``,
        ``annotator``, ``label`` and either a ``rank`` column (1 primary, 2 secondary) or
        ``(primary, secondary)`` tuples as label cells.
    ps : array_like of float, optional
        The grid of p, each in [0.5, 1] (default 0.50, 0.51, …, 1.00).
    delta : float, default 0.1
        δ ≥ 0: how far κ_x(1.0) − κ_x(0.5) must move for "higher_at_p1" or
        "higher_at_p05".
    tau : float, default 0.5
        τ: the mean of κ_x(0.5) and κ_x(1.0) at or above which an item that does not move
        is "constant_high", else "constant_low".
    **loader_args
        Keywords of [Annotations.from_long][iaa_widgets.Annotations] for a table
        (``categories=``, column names …); a misspelt one is refused, naming the closest.

    Returns
    -------
    AugmentedSweepResult
        ``curve`` (p, kappa κ′, p_a, p_e: pair averages), ``items`` (item, ``kappa_0.5``,
        ``kappa_1.0``, ``case`` in §4 notation, ``class``), ``pairs`` (per annotator pair
        N, ``n_left_out`` and the quadratic coefficients of p(A) and p(E)), ``excluded``,
        ``note``; methods ``at(p)`` (an AgreementResult at any p), ``pair_curves()``,
        ``item_curves()``, ``item_curve(item)``, ``item_kappa(p)``,
        ``with_classes(delta, tau)``, ``to_frame()`` and ``chart()``.

    Raises
    ------
    AgreementError
        If a p of ``ps`` is outside [0.5, 1], ``delta`` is negative, ``tau`` is not a
        number, the data cannot be read as primary and secondary labels, a keyword is
        unknown, or no item is rated by two annotators.

    See Also
    --------
    iaa_widgets.augmented_kappa : κ′ at one p, with the Freq vectors.
    iaa_widgets.AugmentedKappaSweep : The sweep as a live widget.
    iaa_widgets.cohen_kappa : κ′ at p = 1, on the primary labels.

    Notes
    -----
    With $p(A) = a_0 + a_1 p + a_2 p^2$ and $p(E) = e_0 + e_1 p + e_2 p^2$ per pair
    (§5.1–5.2), $\kappa'(p) = (p(A) - p(E))/(1 - p(E))$ (§5.3). The classes (§6), with
    $d = \kappa_x(1.0) - \kappa_x(0.5)$: $d > \delta$ → "higher_at_p1" (paper class 3);
    $d < -\delta$ → "higher_at_p05" (class 4); otherwise
    $\tfrac12(\kappa_x(0.5) + \kappa_x(1.0)) \ge \tau$ → "constant_high" (class 1), else
    "constant_low" (class 2); "undefined" where p(E) = 1. The paper does not fix δ and τ
    (issue 3 chose 0.1 and 0.5).

    References
    ----------
    Rosenberg, A., & Binkowski, E. (2004). Augmenting the kappa statistic to
    determine interannotator reliability for multiply labeled data points. In
    *Proceedings of HLT-NAACL 2004: Short Papers*, 77–80. Association for
    Computational Linguistics. https://aclanthology.org/N04-4020

    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational
    and Psychological Measurement*, 20(1), 37–46.
    https://doi.org/10.1177/001316446002000104

    Examples
    --------
    The paper's Table 1 (annotator A, messages 1–5, p = 0.6) beside an annotator B who
    gives one label each (B is not in the paper):

    >>> frame = pd.DataFrame({
    ...     "item": [1, 2, 3, 4, 5] * 2, "annotator": ["A"] * 5 + ["B"] * 5,
    ...     "label": [("a", "b"), ("b", "a"), "b", "c", ("c", "b"), "a", "b", "b", "c", "c"]})
    >>> sweep = iaa.augmented_kappa_sweep(frame, categories=["a", "b", "c", "d"])
    >>> sweep.curve.set_index("p").loc[[0.5, 0.6, 1.0], "kappa"].round(4).tolist()
    [0.5312, 0.625, 1.0]
    >>> sweep.items[["item", "case", "class"]].head(3)
       item    case          class
    0     1  {ab,a}   higher_at_p1
    1     2  {ab,a}   higher_at_p1
    2     3   {a,a}  constant_high

    At p = 0.6 the curve is κ′ of `augmented_kappa` (0.4/0.64); at p = 1 both annotators'
    primary labels agree on every message, so κ′ is Cohen's κ, 1.
    """
    grid = DEFAULT_PS if ps is None else _check_p("augmented_kappa_sweep", ps, "ps")
    _check_thresholds("augmented_kappa_sweep", delta, tau)
    ann = _check_annotations(data, loader_args)
    t, kept = _ratings(ann)
    pairs = all_pairs(ann.n_annotators)
    n, pa, col_a, col_b = _pair_tables(t, POLY_BY_KIND, pairs)     # M = c0 + c1·p (§5.1)
    with np.errstate(divide="ignore", invalid="ignore"):
        pa = pa / n                                                # p(A) = ΣAg / N, (3, P)
        pe = _poly_mul(col_a / n[:, None], col_b / n[:, None]).sum(axis=2)  # Σ Freq_A Freq_B
    one_from = _pe_one_from(col_a, col_b, n)
    p_a, p_e, kappa = _pair_curves(pa, pe, one_from, grid)
    curve = pd.DataFrame({"p": grid, "kappa": _pair_average(kappa, n),
                          "p_a": _pair_average(p_a, n), "p_e": _pair_average(p_e, n)})
    ends = _expected(pe, one_from, np.array([0.5, 1.0]))
    k05, k1 = (_item_kappa(t, pairs, ends[:, g], p) for g, p in enumerate((0.5, 1.0)))
    items = pd.DataFrame({"item": ann.items.take(kept), "kappa_0.5": k05, "kappa_1.0": k1,
                          "case": _case_types(t), "class": _classes(k05, k1, delta, tau)})
    coefs = {f"{name}_c{j}": c[j] for name, c in (("p_a", pa), ("p_e", pe))
             for j in range(3)}
    table = _pairs_frame(ann, pairs, n).assign(**coefs)
    item_row = np.full(ann.n_items, -1, dtype=np.int64)
    item_row[kept] = np.arange(len(kept))
    note, params = noted(ann, _note(kappa, table), {"delta": float(delta), "tau": float(tau)})
    return AugmentedSweepResult(
        curve=curve, items=items, pairs=table,
        n_items=len(kept), n_annotators=ann.n_annotators, n_ratings=ann.n_ratings,
        excluded=_excluded(ann, kept), params=params, note=note, _item_row=item_row, _item_names=ann.items, _ratings=t,
        _pair_codes=pairs, _pe=pe, _pe_one_from=one_from)


# ------------------------------------------------------------------ Statistic
# rating patterns of one rated set of annotators that get a block of their own in the
# Statistic's table; the patterns of the smaller sets share one block of every term
SET_ROWS = 256


def _augmented_statistic(data, p: float = 0.6, *, missing: str = "pairable", **loader_args):
    """κ′'s Statistic at one p: per item x and annotator pair (r, s) its terms of the
    pair sums of §5, R_r R_s (N), Σ_y M_r M_s (ΣAg, §5.1), M_r[y] R_s and M_s[y] R_r
    (the Freq numerators, §5.2), zero for an item rated by fewer than two annotators;
    finish is the pair average of κ′ (§5.3, §6). Items with the same ratings have the
    same terms: the table holds one row per distinct rating pattern
    (:func:`_patterns`, ``Statistic.rows``) and a zero row for the items left out.

    The rows are kept as :class:`~iaa_widgets.stats.statistic.RowBlocks`: the patterns
    rated by one set S of annotators (:func:`_rated_sets`, sets of at least
    ``SET_ROWS`` patterns) in the 1 + |S|(|S| − 1)/2 + |S|·K columns their terms take
    (:func:`_set_block`), the other patterns in all P (2 + 2K) terms (:func:`_terms`)."""
    from ..stats.statistic import RowBlocks, Statistic
    p = float(_check_p("augmented_kappa", p)[0])
    ann = _check_annotations(data, loader_args, missing)
    t, kept = _ratings(ann)
    pairs = all_pairs(ann.n_annotators)
    first, codes = _patterns(t)
    patterns = t.take(first)
    order, sets = _rated_sets(patterns)
    blocks, lo = [], 0
    for members, size in sets:
        blocks.append(_set_block(patterns.take(order[lo:lo + size]), p, members, pairs))
        lo += size
    if lo < len(order):                                # the patterns of the smaller sets
        blocks.append((_terms(patterns.take(order[lo:]), p, pairs), None, None))
    if len(kept) < ann.n_items:                        # items left out: one zero row
        none = np.zeros(0, dtype=np.int64)
        blocks.append((np.zeros((1, 0)), none, none))
    width = len(pairs) * (2 + 2 * t.n_categories)
    table = RowBlocks(*(tuple(b) for b in zip(*blocks)), width)
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))            # each pattern's row in the table
    rows = np.full(ann.n_items, len(order))            # items left out: the zero row
    rows[kept] = position[codes]
    return Statistic({"terms": table}, {"terms": (width,)},
                     _finish(len(pairs), t.n_categories), ann.item_weight, rows)


def _rated_sets(t: _Ratings) -> tuple[np.ndarray, list]:
    """The items of ``t`` grouped by the set of annotators who rated them (primary
    labels): (an order of the items that puts the items of each set of at least
    ``SET_ROWS`` items together, those sets first; those sets as (their annotators in
    increasing order, number of items)). The other items follow, in no set's block.
    A set is the bits of an int64: beyond 62 annotators no item is in a set's block."""
    if t.n_annotators > 62:
        return np.arange(t.n_items), []
    bit = np.where(t.rank == 1, np.left_shift(1, t.annotator.astype(np.int64)), 0)
    key = np.add.reduceat(bit, t.bounds[:-1])          # every kept item has ≥ 2 ratings
    sets, of_set, size = np.unique(key, return_inverse=True, return_counts=True)
    own = size >= SET_ROWS
    of_set = of_set.reshape(-1)
    order = np.argsort(np.where(own[of_set], of_set, len(sets)), kind="stable")
    members = [np.flatnonzero((key_s >> np.arange(t.n_annotators)) & 1)
               for key_s in sets[own]]
    return order, list(zip(members, size[own]))


def _set_block(t: _Ratings, p: float, members: np.ndarray, pairs: np.ndarray):
    """The terms of :func:`_augmented_statistic` for items all rated by exactly the
    annotators ``members`` (S), as a block of RowBlocks: R_r R_s is 1 on the pairs
    within S and 0 elsewhere, so an item's terms are read off its columns
    [1, Σ_y M_r M_s over the pairs r < s of S, M_r[y] over r in S] (§5.1): N ← 1,
    ΣAg ← Σ_y M_r M_s, the Freq numerators M_r[y] R_s ← M_r[y] (§5.2) of the pairs
    within S, all other terms 0. Returns (items × columns, take, cells): column take[c]
    is term cells[c]."""
    m, k, n_pairs = t.n_annotators, t.n_categories, len(pairs)
    inner = all_pairs(len(members))                     # the pairs within S, as members
    index = np.full((m, m), -1)
    index[pairs[:, 0], pairs[:, 1]] = np.arange(n_pairs)
    g = index[members[inner[:, 0]], members[inner[:, 1]]]   # … among all pairs
    n_in = len(inner)
    part = np.empty((t.n_items, 1 + n_in + len(members) * k))
    part[:, 0] = 1.0
    for lo, hi, s in t.blocks():
        w = t.dense(_by_kind(p)[None], lo, hi, s).reshape(k, hi - lo, m).transpose(1, 2, 0)
        w = w[:, members]                                # items × |S| × K: M_r[x, y]
        part[lo:hi, 1:1 + n_in] = np.einsum("xpy,xpy->xp", w[:, inner[:, 0]],
                                            w[:, inner[:, 1]])
        part[lo:hi, 1 + n_in:] = w.reshape(hi - lo, -1)
    y = np.arange(k)
    at = 1 + n_in + inner * k                 # column of M_r[0] of each pair's r and s
    take = np.concatenate([np.zeros(n_in, dtype=np.int64), 1 + np.arange(n_in),
                           (at[:, 0, None] + y).ravel(), (at[:, 1, None] + y).ravel()])
    cells = np.concatenate([g, n_pairs + g, (2 * n_pairs + g[:, None] * k + y).ravel(),
                            (2 * n_pairs + (n_pairs + g[:, None]) * k + y).ravel()])
    return part, take, cells


def _patterns(t: _Ratings) -> tuple[np.ndarray, np.ndarray]:
    """Items with the same ratings: (the first item of each pattern, each item's
    pattern). An annotator's state on an item is (primary + 1)(K + 1) + (secondary + 1,
    or 0 without one), 0 if unrated: one primary and one secondary at most per (item,
    annotator), as the loaders check, so equal patterns mean equal weights M (§5.1) and
    rated indicators R, hence equal terms. The pattern is the number with digit r the
    state of annotator r in base (K + 1)², summed over the item's ratings (exact in
    int64, memory of the ratings); beyond int64 (many annotators, where patterns rarely
    repeat) every item is its own pattern."""
    k1 = t.n_categories + 1
    base = k1 * k1
    if base ** t.n_annotators >= 2 ** 63:
        every = np.arange(t.n_items)
        return every, every
    digit = base ** np.arange(t.n_annotators, dtype=np.int64)
    state = np.where(t.rank == 1, (t.label + 1) * k1, t.label + 1).astype(np.int64)
    key = np.add.reduceat(state * digit[t.annotator], t.bounds[:-1])  # ≥ 2 ratings each
    _, first, codes = np.unique(key, return_index=True, return_inverse=True)
    return first, codes.reshape(-1)


def _terms(t: _Ratings, p: float, pairs: np.ndarray):
    """The per-item terms of :func:`_augmented_statistic` for the items of ``t``, items ×
    P · (2 + 2K): dense up to ``stats.statistic.DENSE_CELLS`` cells, else CSR, built
    over blocks of items."""
    from ..stats import per_item, statistic
    a, b = pairs[:, 0], pairs[:, 1]
    m, k = t.n_annotators, t.n_categories
    width = len(pairs) * (2 + 2 * k)
    dense = t.n_items * width <= statistic.DENSE_CELLS
    table, entries = (np.zeros((t.n_items, width)) if dense else None), []
    for lo, hi, s in t.blocks():
        r = t.rated(lo, hi, s)                                          # items × m
        w = t.dense(_by_kind(p)[None], lo, hi, s).reshape(k, hi - lo, m).transpose(1, 2, 0)
        block = np.concatenate([r[:, a] * r[:, b],                      # N
                                np.einsum("xpy,xpy->xp", w[:, a], w[:, b]),  # ΣAg
                                (w[:, a] * r[:, b, None]).reshape(hi - lo, -1),
                                (w[:, b] * r[:, a, None]).reshape(hi - lo, -1)], axis=1)
        if dense:
            table[lo:hi] = block
        else:  # the block's nonzero terms
            i, j = np.nonzero(block)
            entries.append((lo + i, j, block[i, j]))
    if dense:
        return table
    rows, cells, values = (np.concatenate(e) for e in zip(*entries))
    return per_item(rows, cells, t.n_items, width, values)


def _pair_values(terms: np.ndarray, n_pairs: int, k: int):
    """Per annotator pair, from the pair sums ``terms`` (…, P · (2 + 2K)): N, ΣAg, the
    Freq numerators of A and B laid out as :func:`_augmented_statistic` makes them →
    N, p(A) = ΣAg / N (§5.1), Freq_A, Freq_B (§5.2), p(E) = Σ_y Freq_A Freq_B and
    κ′ (§5.3), over the leading axes; NaN where the pair shares no item (N = 0)."""
    n, agree = terms[..., :n_pairs], terms[..., n_pairs:2 * n_pairs]
    col_a, col_b = (terms[..., start:start + n_pairs * k].reshape(terms.shape[:-1] +
                                                                 (n_pairs, k))
                    for start in (2 * n_pairs, 2 * n_pairs + n_pairs * k))
    with np.errstate(divide="ignore", invalid="ignore"):
        p_a = agree / n
        freq_a, freq_b = col_a / n[..., None], col_b / n[..., None]
        p_e = np.sum(freq_a * freq_b, axis=-1)
    return n, p_a, freq_a, freq_b, p_e, _kappa(p_a, p_e)


def _finish(n_pairs: int, k: int):
    """κ′'s finish: (κ′, p(A), p(E)), each the average over the pairs that share an item
    (§6), vectorised over a leading resample axis."""
    def finish(tot):
        n, p_a, _, _, p_e, kappa = _pair_values(tot["terms"], n_pairs, k)
        used = n > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            shared = np.sum(used, axis=-1)
            return tuple(np.sum(np.where(used, x, 0.0), axis=-1) / shared
                         for x in (kappa, p_a, p_e))
    return finish


augmented_kappa.statistic = _augmented_statistic
