"""Every annotator pair's per-item tables, made from each annotator's ratings.

Over the items both annotators of a pair p = (a, b) rated, a two-annotator coefficient
reads ``agree`` Σ_i w_i v[x_ia, x_ib] (v the K × K weights of a pair of ratings) and the
margins ``row`` t_pj = Σ_i w_i [x_ia = j] r_ib and ``col`` t_pk = Σ_i w_i r_ia [x_ib = k]
(r_ia: a rated item i), P (2K + 1) numbers for P pairs and K categories. Written as
entries, that is three per item and pair that rated it (n · P · 3 in a complete design),
and a block of B resamples of item weights W costs B times as many multiply-adds.

- ``agree`` is one number per item and pair: a dense items × P table where most pairs
  rate an item, so that W @ A is one BLAS product; CSR (one entry per rated pair)
  elsewhere.
- The margins read the annotators' own ratings: [x_ia = j] r_ib = [x_ia = j] −
  [x_ia = j] (1 − r_ib). An item rated by more annotators than it lacks counts its
  one-hot ratings X_i (J × K), taken per pair at (a, ·) for ``row`` and (b, ·) for ``col``,
  less an entry for each pair whose other annotator did not rate it; any other item an
  entry for each pair that both rated (:class:`PairMargin`). A product is W @ X
  (B × J·K) taken per pair plus a sparse product of the entries: none in a complete
  design.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..data import Annotations
from . import statistic
from .statistic import Computed, _product, _rows, entry_pairs, per_item

__all__ = ["PairMargin", "pair_tables", "pair_totals"]


@dataclass(frozen=True, eq=False)
class PairMargin(Computed):
    """The items × P·K table of one margin of every pair: 1 in cell (p, x_is) for each
    pair p rated by both, s = ``side[p]`` the annotator whose label the margin counts
    (a for ``row``, b for ``col``). Held as ``own`` (items × J·K: the one-hot ratings of
    the items counted from them, else 0), taken at s for each pair, plus ``fix`` (items ×
    P·K: −1 where the other annotator lacks such an item's rating, +1 for each rated
    pair of the other items)."""

    own: Any
    fix: Any
    side: np.ndarray
    k: int
    last: dict = field(default_factory=dict)  # row's W @ own, for col's product of that W

    @property
    def shape(self) -> tuple[int, int]:
        return self.fix.shape

    def product(self, w: np.ndarray) -> np.ndarray:
        """W @ T for item weights w (B × items): B × P·K."""
        if self.last.get("w") is w:  # made by the other margin for this W, used once
            base = self.last.pop("base")
            self.last.clear()
        else:  # kept for the other margin's product of the same W (Statistic.totals)
            base = _product(w, self.own).reshape(len(w), -1, self.k)
            self.last.update(w=w, base=base)
        base = base[:, self.side]
        return base.reshape(len(w), -1) + _product(w, self.fix)

    def rows(self, lo: int, hi: int) -> np.ndarray:
        """Rows lo … hi − 1 written out, dense."""
        base = _rows(self.own, lo, hi)
        base = base.reshape(len(base), -1, self.k)[:, self.side]
        return base.reshape(len(base), -1) + _rows(self.fix, lo, hi)


def pair_tables(ann: Annotations, pairs: np.ndarray, cells=None) -> dict:
    """The per-item tables ``agree`` (items × P), ``row`` and ``col`` (items × P·K, each
    a :class:`PairMargin`) of the annotator pairs ``pairs`` (P × 2), one row per item row
    of ``ann``; ``cells``: the K × K weights v of ``agree`` (None: agreements counted)."""
    x = ann._label_grid()
    k, n_pairs = ann.n_categories, len(pairs)
    own, fix = _margins(x, pairs, k)
    parts = list(_agreement(x, pairs, cells, k))
    if len(parts) == 1 and parts[0][0] is None:  # CSR
        agree = parts[0][1]
    else:
        agree = np.empty((len(x), n_pairs))
        for at, block in parts:
            agree[at] = block
    last = {}
    return {"agree": agree, "row": PairMargin(own, fix["row"], pairs[:, 0], k, last),
            "col": PairMargin(own, fix["col"], pairs[:, 1], k, last)}


def pair_totals(ann: Annotations, pairs: np.ndarray, cells=None):
    """The totals of :func:`pair_tables` over the item rows, each counted
    ``ann.item_weight`` times (1 if None): ``agree`` (P), ``row`` and ``col`` (P × K),
    its agreement table summed a block of items at a time (bounded memory)."""
    x = ann._label_grid()
    k, n_pairs = ann.n_categories, len(pairs)
    w = (np.ones(len(x)) if ann.item_weight is None else
         np.asarray(ann.item_weight, dtype=float))[None]
    own, fix = _margins(x, pairs, k)
    agree = sum((_product(w if at is None else w[:, at], block)
                 for at, block in _agreement(x, pairs, cells, k)), np.zeros((1, n_pairs)))
    return (agree.reshape(n_pairs),) + tuple(
        PairMargin(own, fix[name], pairs[:, j], k).product(w).reshape(n_pairs, k)
        for j, name in enumerate(("row", "col")))


def _margins(x: np.ndarray, pairs: np.ndarray, k: int):
    """``own`` and the ``fix`` tables of ``row`` and ``col`` (:class:`PairMargin`) of the
    label grid x (items × annotators, −1 missing)."""
    n, n_ann = x.shape
    n_pairs = len(pairs)
    rated = x >= 0
    r = rated.sum(axis=1)
    counted = r - 1 > n_ann - r  # fewer entries from the ratings: r (J − r) < r (r − 1)
    item, who = np.nonzero(rated & counted[:, None])
    own = per_item(item, who * k + x[item, who], n, n_ann * k)
    # ordered annotator pairs (u, v) → pair p where (u, v) = (a, b): u's label in row;
    # P + p where (u, v) = (b, a): in col; −1 for other pairs
    code = np.full((n_ann, n_ann), -1, dtype=np.min_scalar_type(-2 * n_pairs - 1))
    code[pairs[:, 0], pairs[:, 1]] = np.arange(n_pairs)
    code[pairs[:, 1], pairs[:, 0]] = np.arange(n_pairs) + n_pairs
    # counted items: u rated, v did not (−1); other items: both rated, u ≠ v (+1)
    gap, lacks = np.nonzero(~rated & counted[:, None])
    a, b = entry_pairs(item, n, gap)
    minus = (item[a], who[a], lacks[b])
    item, who = np.nonzero(rated & ~counted[:, None])
    a, b = entry_pairs(item, n)
    a, b = a[who[a] != who[b]], b[who[a] != who[b]]
    plus = (item[a], who[a], who[b])
    at, u, v = (np.concatenate(p) for p in zip(minus, plus))
    sign = np.concatenate([np.full(len(minus[0]), -1.0), np.ones(len(plus[0]))])
    c = code[u, v].astype(np.int64)
    fix = {}
    for name, side in (("row", c < n_pairs), ("col", c >= n_pairs)):
        keep = side & (c >= 0)
        fix[name] = per_item(at[keep], c[keep] % n_pairs * k + x[at[keep], u[keep]], n,
                             n_pairs * k, sign[keep])
    return own, fix


def _agreement(x: np.ndarray, pairs: np.ndarray, cells, k: int):
    """The items × P table v[x_ia, x_ib] for each pair (a, b) that rated the item, else
    0, as (rows, block) parts: dense blocks of items (rows: a slice) within
    ``statistic.DENSE_CELLS`` in all or where most pairs rate an item (then dense holds
    fewer bytes than CSR's 12 an entry), else one CSR table (rows: None) from
    :func:`pair_ratings`."""
    n, n_ann = x.shape
    n_pairs = len(pairs)
    v = np.zeros((k + 1, k + 1))  # code −1 (missing) reads the last row and column: 0
    v[:k, :k] = np.eye(k) if cells is None else cells
    r = (x >= 0).sum(axis=1)
    rated_pairs = float((r * (r - 1)).sum()) / max(n_ann * (n_ann - 1), 1)  # share × n
    if n * n_pairs <= statistic.DENSE_CELLS or 2 * rated_pairs >= n:
        small = x.astype(np.min_scalar_type(-k - 1))  # the gathers move 1 byte a cell
        step = max(1, (1 << 22) // max(n_pairs, 1))  # items per block: bounded memory
        for s in range(0, n, step):
            a = np.take(small[s:s + step], pairs[:, 0], axis=1)
            b = np.take(small[s:s + step], pairs[:, 1], axis=1)
            yield slice(s, s + step), (((a == b) & (a >= 0)).astype(float) if cells is None
                                       else v.ravel()[a.astype(np.intp) * (k + 1) + b])
        return
    rows, pair_of, first, second = (np.concatenate(p) for p in
                                    zip(*pair_ratings(x, pairs)))
    yield None, per_item(rows, pair_of, n, n_pairs, v[first, second])


def pair_ratings(x: np.ndarray, pairs: np.ndarray):
    """(item rows, pair, x_ia, x_ib) of every item and annotator pair (a, b) of
    ``pairs`` that both rated it, in blocks of items (bounded memory); x: the label grid
    (items × annotators, −1 missing)."""
    step = max(1, (1 << 22) // max(len(pairs), 1))  # items per block
    for start in range(0, len(x), step):
        a, b = x[start:start + step, pairs[:, 0]], x[start:start + step, pairs[:, 1]]
        item, pair = np.nonzero((a >= 0) & (b >= 0))
        yield item + start, pair, a[item, pair], b[item, pair]
