"""The two sums every annotator model iterates, as sparse products over the ratings.

The ratings form an incidence matrix S (items × annotator-label cells): S[i, a·K + l]
counts the times annotator a gave item i label l. With it, an E-step's per-item sums
Σ_r log P(l_r | class k) are S @ log M (M: each cell's probability under each class),
and an M-step's expected counts N[a, k, l] = Σ_i w_i T_ik S[i, a·K + l] are Sᵀ @ (w T):
one pass over the ratings each, no Python loop over items or annotators.

Posteriors are held classes × items (T[k, i], C order): the per-item reductions over
the K classes are then K − 1 vector operations over the items, not n short rows.
"""
from __future__ import annotations

import numpy as np
from scipy import sparse

from ._ratings import Ratings

# floor of a probability before its log (a label never seen for a class would be
# log 0 = −inf, and that class could then never return for the item)
FLOOR = 1e-10


def incidence(r: Ratings) -> sparse.csr_array:
    """S: items × (annotator·K + label) counts of the ratings (repeats summed)."""
    k = r.n_categories
    data = np.ones(len(r.item)) if r.count is None else r.count.astype(float)
    index = np.int32 if r.n_annotators * k < 2**31 and r.n_items < 2**31 else np.int64
    return sparse.csr_array((data, (r.item.astype(index), (r.annotator * k + r.label)
                                    .astype(index))), shape=(r.n_items, r.n_annotators * k))


def item_weights(r: Ratings) -> np.ndarray:
    """w_i: how many items row i stands for, 0 for an item without a rating (it takes no
    part in the sums)."""
    w = np.ones(r.n_items) if r.item_weight is None else r.item_weight.astype(float)
    return np.where(r.rated, w, 0.0)


def e_step(s, log_cell: np.ndarray, log_prior: np.ndarray,
           w: np.ndarray) -> tuple[np.ndarray, float]:
    """Posteriors T (classes × items) and the log-likelihood Σ_i w_i log Σ_k π_k Π_r
    P(l_r | k) (Dawid & Skene 1979, eqs. 2.5 and 2.7, in log space). ``log_cell`` is
    (annotator·K + label) × K: log P(label | class) of each annotator. Items of weight 0
    (no rating) get T = 0."""
    x = np.empty((len(log_prior), s.shape[0]))  # log π_k + Σ_r log θ_{a_r k l_r}
    np.add((s @ log_cell).T, log_prior[:, None], out=x)
    top = x.max(axis=0)
    x -= top
    np.exp(x, out=x)
    total = x.sum(axis=0)
    x /= np.where(w > 0, total, np.inf)
    return x, float(w @ (top + np.log(total)))


def counts(s, t: np.ndarray, w: np.ndarray, n_annotators: int) -> np.ndarray:
    """N[a, k, l] = Σ_i w_i T_ki S[i, a·K + l]: expected labels l from annotator a on
    items of class k (Dawid & Skene 1979, eq. 2.3's numerator)."""
    k = t.shape[0]
    weighted = np.empty(t.shape[::-1])
    np.multiply(t.T, w[:, None], out=weighted)
    n = s.T @ weighted  # (annotator·K + label) × class
    return n.reshape(n_annotators, k, k).transpose(0, 2, 1)


def largest_change(before: np.ndarray, after: np.ndarray) -> float:
    """The largest change of any probability between two iterations: the stopping rule."""
    return float(np.abs(after - before).max(initial=0.0))


def priors(t: np.ndarray, w: np.ndarray) -> np.ndarray:
    """π_k: the (weighted) mean posterior over the rated items (eq. 2.4)."""
    return (t @ w) / w.sum()


def log_cells(theta: np.ndarray) -> np.ndarray:
    """log θ[a, k, l] as the (a·K + l) × k matrix that :func:`e_step` multiplies."""
    a, k, _ = theta.shape
    return np.log(np.maximum(theta, FLOOR)).transpose(0, 2, 1).reshape(a * k, k)
