"""Sufficient statistics shared by the measures, each made by one ``bincount``.

Measures never look at individual ratings again once these are made: the
item × category counts (Fleiss, Krippendorff), the annotator × category
marginals (Cohen, Davies–Fleiss) and the per-pair contingency tables (every
two-annotator coefficient and the pairwise matrices).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from .data import Annotations

__all__ = ["item_counts", "annotator_counts", "pair_contingencies", "all_pairs",
           "coincidences"]


def item_counts(ann: Annotations) -> np.ndarray:
    """n_items × n_categories counts n_ic of primary labels."""
    prim = ann.primary()
    k = ann.n_categories
    flat = np.bincount(prim.item * k + prim.label, minlength=ann.n_items * k)
    return flat.reshape(ann.n_items, k)


def annotator_counts(ann: Annotations, items: np.ndarray | None = None) -> np.ndarray:
    """n_annotators × n_categories counts n_rc of primary labels (on ``items`` if given,
    a boolean mask over items)."""
    prim = ann.primary()
    keep = slice(None) if items is None else items[prim.item]
    k = ann.n_categories
    flat = np.bincount(prim.annotator[keep] * k + prim.label[keep],
                       minlength=ann.n_annotators * k)
    return flat.reshape(ann.n_annotators, k)


def all_pairs(n_annotators: int) -> np.ndarray:
    """Every unordered annotator pair (a < b), as a P × 2 array."""
    return np.array(list(combinations(range(n_annotators), 2)), dtype=np.int64).reshape(-1, 2)


def pair_contingencies(ann: Annotations, pairs: np.ndarray | None = None,
                       items: np.ndarray | None = None) -> np.ndarray:
    """P × K × K contingency tables: ``t[p, i, j]`` items that annotator ``pairs[p, 0]``
    put in category i and ``pairs[p, 1]`` in j, over the items both rated (restricted
    to the boolean mask ``items`` if given)."""
    x = ann.label_matrix()
    if items is not None:
        x = x[items]
    pairs = all_pairs(ann.n_annotators) if pairs is None else np.asarray(pairs).reshape(-1, 2)
    k = ann.n_categories
    n_pairs = len(pairs)
    base = np.arange(n_pairs) * k * k
    out = np.zeros(n_pairs * k * k, dtype=np.int64)
    step = max(1, (1 << 22) // max(n_pairs, 1))  # items per block: bounded memory
    for start in range(0, len(x), step):
        a = x[start:start + step, pairs[:, 0]]
        b = x[start:start + step, pairs[:, 1]]
        both = (a >= 0) & (b >= 0)
        out += np.bincount((base + a * k + b)[both], minlength=n_pairs * k * k)
    return out.reshape(n_pairs, k, k)


def coincidences(counts: np.ndarray, return_sizes: bool = False):
    """Krippendorff's coincidence matrix o_ck = Σ_i n_ic (n_ik − [c = k]) / (m_i − 1)
    over pairable items (m_i ≥ 2); items with one value contribute nothing. With
    ``return_sizes``, also each item's number of values m_i (as floats)."""
    k = counts.shape[1]
    o, diag, ones = np.zeros((k, k)), np.zeros(k), np.ones(k)
    sizes = np.empty(len(counts)) if return_sizes else None
    step = max(1, (1 << 17) // max(k, 1))  # items per block: the block stays in cache
    for start in range(0, len(counts), step):
        c = counts[start:start + step].astype(float, copy=False)
        m = c @ ones  # m_i (a BLAS product: faster than a sum over short rows)
        w = np.divide(1.0, m - 1, out=np.zeros_like(m), where=m >= 2)  # 0 if unpairable
        o += (c * w[:, None]).T @ c
        diag += w @ c
        if return_sizes:
            sizes[start:start + step] = m
    o[np.diag_indices_from(o)] -= diag
    return (o, sizes) if return_sizes else o
