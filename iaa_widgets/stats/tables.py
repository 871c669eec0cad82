"""Sufficient statistics shared by the measures, each made by one ``bincount``.

Measures never look at individual ratings again once these are made: the
item × category counts (Fleiss, Krippendorff), the annotator × category
marginals (Cohen, Davies–Fleiss) and the per-pair contingency tables (every
two-annotator coefficient and the pairwise matrices).

Counts stay counts: a rating of ``from_counts`` data adds its ``rating_count``, an item
row of ``from_contingency`` data its ``item_weight`` (the measures weight the rows of
``item_counts`` by it). A dense table beyond ``MAX_CELLS`` cells (many categories) is
refused with its size, never allocated.

Every size limit of the package lives here, each refused with an ``AgreementError``
that says the size (never a ``MemoryError``): ``MAX_CELLS`` (dense tables of
statistics), ``MAX_TABLE_CATEGORIES`` (ContingencyMatrix), ``MAX_ALIGNMENT_CELLS`` (γ's
candidate alignments) and ``MAX_SPAN_PAIRS`` (span_f1's matching blocks).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from ..data import Annotations
from ..errors import AgreementError

__all__ = ["item_counts", "item_counts_for_pairs", "annotator_counts", "pair_contingencies",
           "pair_margins", "all_pairs", "coincidences"]


# largest dense table of statistics made (2e8 int64 or float64 cells: 1.5 GiB)
MAX_CELLS = 200_000_000


def check_size(shape: tuple, what: str, advice: str = "merge rare categories (or drop "
               "unused ones with categories=), or split the items into batches") -> None:
    """Refuse a dense table of statistics beyond ``MAX_CELLS`` cells, saying its size and
    what to do (``advice``: what makes that table smaller)."""
    cells = int(np.prod(shape, dtype=float))
    if cells > MAX_CELLS:
        raise AgreementError(
            f"the {what} would be a dense {' × '.join(f'{d:,}' for d in shape)} table "
            f"({cells * 8 / 2 ** 30:,.1f} GiB, more than {MAX_CELLS:,} cells); {advice}")


# most categories of one table the ContingencyMatrix widget evaluates: its coefficients'
# Statistics hold one item row per cell (k²), each with the item's k category counts
# (k³ numbers; measured k = 300: 0.9–1.1 GB, k = 100: 0.2–0.3 GB, benchmarks/README.md)
MAX_TABLE_CATEGORIES = 300


def check_categories(k: int, what: str) -> None:
    """Refuse a table of more than ``MAX_TABLE_CATEGORIES`` categories, saying its size."""
    if k > MAX_TABLE_CATEGORIES:
        raise AgreementError(
            f"{what} has {k:,} categories ({k * k:,} cells); it evaluates at most "
            f"{MAX_TABLE_CATEGORIES:,} (its per-cell statistics grow as k³); merge rare "
            "categories, or compute the coefficients with their functions (cohen_kappa, "
            "krippendorff_alpha, ...), which take any number")


# candidate unitary alignments × annotators γ's candidates may grow to: with the solver's
# linear programme over them a cell costs about 300 bytes at the peak (measured: 475,101
# candidates of 6 annotators, 2.9e6 cells, 0.78 GiB and 14 s), so 3e6 cells ≈ 0.9 GB
MAX_ALIGNMENT_CELLS = 3_000_000
ALIGNMENT_CELL_BYTES = 300
# overlapping unit pairs span_f1 gives one matching call (blocks of documents and
# labels); a denser single document and label is matched by its interval greedy
MAX_SPAN_PAIRS = 4_000_000


def _counted(cells: np.ndarray, weights, size: int) -> np.ndarray:
    """bincount of ``cells``, each counted ``weights`` times (int64; exact, as the
    loaders keep total counts ≤ 2⁵³)."""
    if weights is None:
        return np.bincount(cells, minlength=size)
    return np.rint(np.bincount(cells, weights=weights, minlength=size)).astype(np.int64)


def item_counts(ann: Annotations) -> np.ndarray:
    """n_items × n_categories counts n_ic of primary labels (per item row: a row of
    ``from_contingency`` data stands for ``ann.item_weight`` identical items)."""
    prim = ann.primary()
    k = ann.n_categories
    check_size((ann.n_items, k), "items × categories counts")
    flat = _counted(prim.item * k + prim.label, prim.rating_count, ann.n_items * k)
    return flat.reshape(ann.n_items, k)


# categories above which the coincidences are made from a sparse items × categories
# table: the dense product costs items × K², the sparse one the pairs of ratings
# (measured on 2e5 items × 5 annotators: equal near K = 32; K = 1,024 dense 7.9 s,
# sparse 0.09 s), and the dense table itself is refused beyond MAX_CELLS
SPARSE_CATEGORIES = 32


def item_counts_for_pairs(ann: Annotations):
    """:func:`item_counts`, as a CSR matrix (scipy.sparse) with one entry per category
    present in an item when there are more than ``SPARSE_CATEGORIES`` categories; for
    :func:`coincidences`."""
    if ann.n_categories <= SPARSE_CATEGORIES:
        return item_counts(ann)
    from scipy import sparse
    prim = ann.primary()
    ones = np.ones(len(prim.item)) if prim.rating_count is None else \
        prim.rating_count.astype(float)
    counts = sparse.csr_matrix((ones, (prim.item, prim.label)),
                               shape=(ann.n_items, ann.n_categories))
    counts.sum_duplicates()  # a category's ratings of an item: one entry, their count
    return counts


def annotator_counts(ann: Annotations, items: np.ndarray | None = None) -> np.ndarray:
    """n_annotators × n_categories counts n_rc of primary labels (on ``items`` if given,
    a boolean mask over items; weighted items and ratings count as often as they stand)."""
    prim = ann.primary()
    keep = slice(None) if items is None else items[prim.item]
    k = ann.n_categories
    weights = prim.rating_weights()
    flat = _counted(prim.annotator[keep] * k + prim.label[keep],
                    None if weights is None else weights[keep], ann.n_annotators * k)
    return flat.reshape(ann.n_annotators, k)


def all_pairs(n_annotators: int) -> np.ndarray:
    """Every unordered annotator pair (a < b), as a P × 2 array."""
    return np.array(list(combinations(range(n_annotators), 2)), dtype=np.int64).reshape(-1, 2)


def pair_contingencies(ann: Annotations, pairs: np.ndarray | None = None,
                       items: np.ndarray | None = None) -> np.ndarray:
    """P × K × K contingency tables: ``t[p, i, j]`` items that annotator ``pairs[p, 0]``
    put in category i and ``pairs[p, 1]`` in j, over the items both rated (restricted
    to the boolean mask ``items`` if given). An item row of ``from_contingency`` data
    counts ``item_weight`` times; anonymous counts (``from_counts``) give the table of
    their two rating slots, the lower category first, without expansion."""
    pairs = all_pairs(ann.n_annotators) if pairs is None else np.asarray(pairs).reshape(-1, 2)
    k = ann.n_categories
    n_pairs = len(pairs)
    check_size((n_pairs, k, k), "annotator pairs × categories × categories tables")
    if ann.rating_count is not None:
        if ann.n_annotators != 2 or n_pairs != 1 or ann.item_weight is not None:
            return pair_contingencies(ann.expanded("pair contingency tables of anonymous "
                                                   "counts"), pairs, items)
        return _slot_table(ann, items)[None]
    x = ann._label_grid()
    weight = ann.item_weight
    if items is not None:
        x = x[items]
        weight = None if weight is None else weight[items]
    base = np.arange(n_pairs) * k * k
    out = np.zeros(n_pairs * k * k, dtype=np.int64)
    step = max(1, (1 << 22) // max(n_pairs, 1))  # items per block: bounded memory
    for start in range(0, len(x), step):
        a = x[start:start + step, pairs[:, 0]]
        b = x[start:start + step, pairs[:, 1]]
        both = (a >= 0) & (b >= 0)
        w = None if weight is None else \
            np.broadcast_to(weight[start:start + step, None], a.shape)[both]
        out += _counted((base + a * k + b)[both], w, n_pairs * k * k)
    return out.reshape(n_pairs, k, k)


def pair_margins(ann: Annotations, pairs: np.ndarray | None = None, cells=None):
    """What the coefficients of a two-annotator table read of it, for each pair of
    ``pairs`` (all by default), without its K² cells (:func:`pair_contingencies`):
    ``agree`` Σ_jk v_jk t_pjk (P; v the K × K weights ``cells`` of a pair of ratings,
    None: the identity, agreements counted) and the margins ``row`` t_pj· and ``col``
    t_p·k (P × K each), over the items both annotators of the pair rated (an item row
    of ``from_contingency`` data counting ``item_weight`` times)."""
    from .pairs import pair_totals  # the sums of the pairs' per-item tables
    pairs = all_pairs(ann.n_annotators) if pairs is None else np.asarray(pairs).reshape(-1, 2)
    check_size((len(pairs), ann.n_categories), "annotator pairs × categories margins")
    return pair_totals(ann, pairs, None if cells is None else np.asarray(cells, float))


def _slot_table(ann: Annotations, items: np.ndarray | None) -> np.ndarray:
    """K × K table of anonymous items rated twice, the lower category in the first slot
    (as rater 1 of the expanded data): t_cc = #{n_ic = 2}, t_ck = #{n_ic = n_ik = 1} for
    c < k, i.e. the upper triangle of the coincidences Σ_i n_i n_iᵀ − diag(n_i), its
    diagonal halved."""
    counts = item_counts(ann)
    counts = counts[items] if items is not None else counts
    two = counts[counts.sum(axis=1) == 2]
    o = two.T @ two - np.diag(two.sum(axis=0))
    return np.triu(o, 1) + np.diag(np.diagonal(o) // 2)


def coincidences(counts: np.ndarray, return_sizes: bool = False, weights=None):
    """Krippendorff's coincidence matrix o_ck = Σ_i n_ic (n_ik − [c = k]) / (m_i − 1)
    over pairable items (m_i ≥ 2); items with one value contribute nothing; item i
    counts ``weights[i]`` times if given (``Annotations.item_weight``). With
    ``return_sizes``, also each item's number of values m_i (as floats). ``counts``:
    dense, or CSR (:func:`item_counts_for_pairs`: many categories)."""
    k = counts.shape[1]
    check_size((k, k), "coincidence matrix")
    if not isinstance(counts, np.ndarray):
        return _sparse_coincidences(counts, return_sizes, weights)
    o, diag, ones = np.zeros((k, k)), np.zeros(k), np.ones(k)
    sizes = np.empty(len(counts)) if return_sizes else None
    step = max(1, (1 << 17) // max(k, 1))  # items per block: the block stays in cache
    for start in range(0, len(counts), step):
        c = counts[start:start + step].astype(float, copy=False)
        m = c @ ones  # m_i (a BLAS product: faster than a sum over short rows)
        w = np.divide(1.0, m - 1, out=np.zeros_like(m), where=m >= 2)  # 0 if unpairable
        if weights is not None:
            w *= weights[start:start + step]
        o += (c * w[:, None]).T @ c
        diag += w @ c
        if return_sizes:
            sizes[start:start + step] = m
    o[np.diag_indices_from(o)] -= diag
    return (o, sizes) if return_sizes else o


def _sparse_coincidences(counts, return_sizes: bool, weights):
    """:func:`coincidences` of a CSR items × K table: o = Nᵀ G N − diag(Σ_i g_i n_i),
    g_i = 1/(m_i − 1) (0 below two values), as sparse products over the categories
    present in each item."""
    from scipy import sparse
    m = np.asarray(counts.sum(axis=1), dtype=float).ravel()
    g = np.divide(1.0, m - 1, out=np.zeros_like(m), where=m >= 2)
    if weights is not None:
        g *= weights
    scaled = sparse.diags(g) @ counts
    o = np.asarray((counts.T @ scaled).toarray(), dtype=float)
    o[np.diag_indices_from(o)] -= np.asarray(scaled.sum(axis=0)).ravel()
    return (o, m) if return_sizes else o
