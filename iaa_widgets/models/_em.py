"""The two sums every annotator model iterates, as sparse products over the ratings.

The ratings form an incidence matrix S (items × used cells): a cell u is one
(annotator a_u, label l_u) pair that occurs in the ratings, and S[i, u] counts the times
a_u gave item i label l_u. With it, an E-step's per-item sums Σ_r log P(l_r | class k)
are S @ log M (M: each cell's probability under each class, used cells × K), and an
M-step's expected counts N[u, k] = Σ_i w_i T_ik S[i, u] are Sᵀ @ (w T): one pass over
the ratings each, no Python loop over items or annotators. Only the cells an annotator
used are held (a label never given has no term in the likelihood), so memory follows the
ratings × K, never annotators × K × K (10,000 annotators × 500 classes: 18.6 GiB).

S is held in row blocks of :data:`BLOCK` items, and :func:`e_step` does all of one
block's work (product, normalisation, expected counts) before the next: the block's
items × classes arrays stay in the processor's cache instead of making a dozen trips
through memory each iteration. Posteriors are held items × classes (T[i, k], C order),
the layout the sparse products read and write; each per-item reduction over the K
classes is K − 1 operations on the classes' columns (a reduction along rows of K
numbers, or a broadcast over them, is many times slower in numpy).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import sparse

from ._ratings import Ratings

# floor of a probability before its log (a label never seen for a class would be
# log 0 = −inf, and that class could then never return for the item)
FLOOR = 1e-10

# items per block of S: a block's BLOCK × K float64 arrays (512 KiB at K = 4) fit in L2
BLOCK = 1 << 14


class Incidence(NamedTuple):
    """S in row blocks: (first item, S_b, S_bᵀ) for each block of items; the used cells'
    annotator and label codes (sorted by annotator, then label) and ``owner``, the
    annotators × cells indicator that sums cells by annotator."""

    blocks: list
    n_items: int
    n_annotators: int
    n_categories: int
    cell_annotator: np.ndarray
    cell_label: np.ndarray
    owner: sparse.csr_array

    def by_annotator(self, x: np.ndarray) -> np.ndarray:
        """Σ over each annotator's cells of ``x`` (cells × …): annotators × …."""
        return self.owner @ x

    def diagonal(self, n: np.ndarray) -> np.ndarray:
        """N[u, l_u]: each cell's entry in the class equal to its label."""
        return n[np.arange(len(n)), self.cell_label]


class Expectation(NamedTuple):
    """One E-step: posteriors T (items × classes), the log-likelihood, the expected
    counts N[u, k] (used cells × classes) and the class totals Σ_i w_i T_ik they imply."""

    t: np.ndarray
    log_likelihood: float
    counts: np.ndarray
    class_totals: np.ndarray


def incidence(r: Ratings) -> Incidence:
    """S: items × used cells counts of the ratings (repeats summed), in row blocks of
    :data:`BLOCK` items."""
    k = r.n_categories
    data = np.ones(len(r.item)) if r.count is None else r.count.astype(float)
    used, cell = np.unique(r.annotator * k + r.label, return_inverse=True)
    index = np.int32 if len(used) < 2**31 and r.n_items < 2**31 else np.int64
    s = sparse.csr_array((data, (r.item.astype(index), cell.reshape(-1).astype(index))),
                         shape=(r.n_items, len(used)))
    blocks = []
    for start in range(0, r.n_items, BLOCK):
        block = s[start:start + BLOCK]
        blocks.append((start, block, block.T))
    who = used // k
    owner = sparse.csr_array((np.ones(len(used)), (who, np.arange(len(used)))),
                             shape=(r.n_annotators, len(used)))
    return Incidence(blocks, r.n_items, r.n_annotators, k, who, used % k, owner)


def item_weights(r: Ratings) -> np.ndarray:
    """w_i: how many items row i stands for, 0 for an item without a rating (it takes no
    part in the sums)."""
    w = np.ones(r.n_items) if r.item_weight is None else r.item_weight.astype(float)
    return np.where(r.rated, w, 0.0)


def e_step(s: Incidence, log_cell: np.ndarray, log_prior: np.ndarray,
           w: np.ndarray) -> Expectation:
    """Posteriors T (items × classes) and the log-likelihood Σ_i w_i log Σ_k π_k Π_r
    P(l_r | k) (Dawid & Skene 1979, eqs. 2.5 and 2.7, in log space), with the expected
    counts of the next M-step (:func:`counts` of T). ``log_cell`` is used cells × K:
    log P(l_u | class k) of cell u's annotator. Items of weight 0 (no rating) get
    T = 0."""
    k = len(log_prior)
    t = np.empty((s.n_items, k))
    n = np.zeros((len(s.cell_label), k))  # used cells × classes
    totals = np.zeros(k)
    item_ll = np.empty(s.n_items)  # log Σ_k π_k Π_r P(l_r | k) of each item
    for start, s_b, s_bt in s.blocks:
        stop = start + s_b.shape[0]
        x = s_b @ log_cell  # Σ_r log θ_{a_r k l_r}, block items × classes
        cols = [x[:, j] for j in range(k)]
        for j in range(k):
            cols[j] += log_prior[j]  # + log π_k
        top = cols[0].copy()
        for j in range(1, k):
            np.maximum(top, cols[j], out=top)
        for j in range(k):
            cols[j] -= top
        np.exp(x, out=x)
        total = cols[0].copy()
        for j in range(1, k):
            total += cols[j]
        np.add(top, np.log(total), out=item_ll[start:stop])
        w_b = w[start:stop]
        scale = np.divide(1.0, total, out=np.zeros_like(total), where=w_b > 0)
        for j in range(k):
            cols[j] *= scale
        t[start:stop] = x
        for j in range(k):
            cols[j] *= w_b
            totals[j] += cols[j].sum()
        n += s_bt @ x  # x is w T now
    return Expectation(t, _dot(w, item_ll), n, totals)


def counts(s: Incidence, t: np.ndarray, w: np.ndarray) -> np.ndarray:
    """N[u, k] = Σ_i w_i T_ik S[i, u]: expected labels l_u from annotator a_u on items of
    class k (Dawid & Skene 1979, eq. 2.3's numerator), used cells × classes."""
    n = np.zeros((len(s.cell_label), t.shape[1]))
    for start, s_b, s_bt in s.blocks:
        stop = start + s_b.shape[0]
        n += s_bt @ (t[start:stop] * w[start:stop, None])
    return n


def largest_change(before: np.ndarray, after: np.ndarray) -> float:
    """The largest change of any probability between two iterations: the stopping rule
    (NaN, the rates of an annotator without a rating, is no change)."""
    change = np.subtract(after, before)
    np.abs(change, out=change)
    return float(change.max(initial=0.0, where=~np.isnan(change)))


def priors(t: np.ndarray, w: np.ndarray) -> np.ndarray:
    """π_k: the (weighted) mean posterior over the rated items (eq. 2.4)."""
    return np.einsum("ik,i->k", t, w) / w.sum()


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """Σ a_i b_i without BLAS: OpenBLAS threads a long dot product, and its threads then
    spin, costing a core for nothing on a shared machine."""
    return float(np.einsum("i,i->", a, b))


def log_cells(theta: np.ndarray) -> np.ndarray:
    """log θ of the used cells (cells × classes), floored: what :func:`e_step`
    multiplies."""
    out = np.maximum(theta, FLOOR)
    return np.log(out, out=out)
