"""The Statistic of a measure: additive per-item tables and the ``finish`` that reads
their sums (see the package docstring)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

import numpy as np

__all__ = ["Statistic", "RowBlocks", "Computed", "per_item", "item_pairs", "entry_pairs",
           "coincidence_table"]

# largest dense per-item table (rows × cells); beyond it a table is kept sparse (CSR)
DENSE_CELLS = 1 << 23
# entries of a block of item weights W (resamples × rows) or of leave-one-out totals
BLOCK = 1 << 22
# items per block when a per-item table is built from the item × category counts
ITEM_BLOCK = 1 << 16


def per_item(rows: np.ndarray, cells: np.ndarray, n_rows: int, size: int,
             values=None):
    """The n_rows × size table whose entry (rows[j], cells[j]) adds values[j] (1 if
    None): dense up to ``DENSE_CELLS`` cells, else scipy CSR (memory follows entries)."""
    if n_rows * size <= DENSE_CELLS:
        flat = np.bincount(rows * size + cells, weights=values, minlength=n_rows * size)
        return flat.astype(float, copy=False).reshape(n_rows, size)
    return _csr(rows, cells, n_rows, size, values)


def _csr(rows, cells, n_rows: int, size: int, values=None):
    from scipy import sparse  # loads on first use only: `import iaa_widgets` stays light
    data = np.ones(len(rows)) if values is None else np.asarray(values, float)
    return sparse.csr_matrix((data, (rows, cells)), shape=(n_rows, size))


def item_pairs(counts: np.ndarray):
    """Every ordered pair of categories present together in an item: (row, c, k) for
    the nonzero n_ic, n_ik of each row of ``counts`` (Σ_i |S_i|² entries, no loop)."""
    row, cat = np.nonzero(counts)
    a, b = entry_pairs(row, len(counts))
    return row[a], cat[a], cat[b]


def entry_pairs(row: np.ndarray, n_rows: int, other: np.ndarray | None = None):
    """Indices (a, b) of every ordered pair of entries in the same row, each entry with
    itself too, for entries sorted by ``row``; with ``other`` (the rows of other entries,
    sorted too), each entry a of ``row`` with each entry b of ``other`` in its row."""
    size = np.bincount(row if other is None else other, minlength=n_rows)
    start = np.cumsum(size) - size
    a = np.repeat(np.arange(len(row)), size[row])               # each entry, |S_i| times
    b = start[row[a]] + np.arange(len(a)) - np.repeat(np.cumsum(size[row]) - size[row],
                                                       size[row])  # … with each of its row
    return a, b


def coincidence_table(counts: np.ndarray):
    """Per item, its coincidences n_ic (n_ik − [c = k]) / (m_i − 1) (Krippendorff 2011;
    zero below two values) as an items × K² table; built in blocks of items, so that
    memory follows the table: dense up to ``DENSE_CELLS`` cells, else CSR with one entry
    per pair of categories present together in an item."""
    n, k = counts.shape
    diag = np.arange(k) * (k + 1)
    dense = n * k * k <= DENSE_CELLS
    out = np.zeros((n, k * k)) if dense else []
    for s in range(0, n, ITEM_BLOCK):
        c = counts[s:s + ITEM_BLOCK].astype(float)
        m = c.sum(axis=1)
        g = np.divide(1.0, m - 1, out=np.zeros_like(m), where=m >= 2)  # 1/(m_i − 1)
        if dense:
            block = out[s:s + ITEM_BLOCK]
            block[:] = (c[:, :, None] * c[:, None, :]).reshape(len(c), -1)
            block[:, diag] -= c
            block *= g[:, None]
        else:
            row, a, b = item_pairs(c * (g > 0)[:, None])
            out.append(_csr(row, a * k + b, len(c), k * k,
                            c[row, a] * (c[row, b] - (a == b)) * g[row]))
    if dense:
        return out
    from scipy import sparse
    return sparse.vstack(out, format="csr")


class Computed:
    """A per-item table that makes its own product W @ T (``product(w)``) and rows
    (``rows(lo, hi)``, dense) from what it holds, with a ``shape`` (rows × cells):
    :class:`RowBlocks`, ``stats.pairs.PairMargin``. :meth:`Statistic.distinct` does not
    hash it."""


@dataclass(frozen=True, eq=False)
class RowBlocks(Computed):
    """A rows × ``n_cells`` table kept as blocks of consecutive rows, each in the few
    columns its rows vary in: block j is ``parts[j]`` (its rows × d_j, dense or CSR),
    with column ``take[j][c]`` of it in cell ``cells[j][c]`` (distinct cells; every other
    cell 0), or column c in cell c where ``take[j]`` is None. A product W @ T is then
    Σ_j (W[:, block j] @ parts[j]) placed in its cells: it reads Σ_j rows_j · d_j
    entries instead of rows · cells (augmented κ: the rating patterns of one set of
    annotators vary in 1 + its pairs + its annotators × K of the P (2 + 2K) terms; 28 %
    of the entries on the benchmark's 1e5 items × 5 annotators)."""

    parts: tuple
    take: tuple
    cells: tuple
    n_cells: int

    @property
    def starts(self) -> np.ndarray:
        """The first row of each block, and the number of rows last."""
        return np.cumsum([0] + [p.shape[0] for p in self.parts])

    @property
    def shape(self) -> tuple[int, int]:
        return int(self.starts[-1]), self.n_cells

    def product(self, w: np.ndarray) -> np.ndarray:
        """W @ T for item weights w (B × rows): B × cells."""
        out = np.zeros((len(w), self.n_cells))
        bounds = self.starts
        for j, part in enumerate(self.parts):
            x = _product(w[:, bounds[j]:bounds[j + 1]], part)      # B × d_j
            if self.take[j] is None:
                out += x
            else:
                out[:, self.cells[j]] += x[:, self.take[j]]
        return out

    def rows(self, lo: int, hi: int) -> np.ndarray:
        """Rows lo … hi − 1 written out, dense."""
        out = np.zeros((max(0, min(hi, self.shape[0]) - lo), self.n_cells))
        bounds = self.starts
        for j, part in enumerate(self.parts):
            a, b = max(lo, bounds[j]), min(hi, bounds[j + 1])
            if a >= b:
                continue
            x = _rows(part, a - bounds[j], b - bounds[j])
            if self.take[j] is None:
                out[a - lo:b - lo] = x
            else:
                out[a - lo:b - lo, self.cells[j]] = x[:, self.take[j]]
        return out


def _product(w: np.ndarray, table) -> np.ndarray:
    """W @ table (resamples × cells) for a dense, CSR or :class:`Computed` table: one
    matrix product (one per block)."""
    if isinstance(table, np.ndarray):
        return w @ table
    if isinstance(table, Computed):
        return table.product(w)
    return np.asarray((table.T @ w.T).T)  # CSR: the product scipy makes sparse × dense


def _rows(table, lo: int, hi: int) -> np.ndarray:
    """Rows lo … hi − 1 of a dense, CSR or :class:`Computed` table, dense."""
    if isinstance(table, np.ndarray):
        return table[lo:hi]
    if isinstance(table, Computed):
        return table.rows(lo, hi)
    return table[lo:hi].toarray()


def _row_hash(table, coef: np.ndarray) -> np.ndarray:
    """Σ_j coef_j T_ij for every row, summed in the same order for equal rows (numpy's
    reduction along a row; CSR: its entries in column order), so equal rows hash equal."""
    if isinstance(table, np.ndarray):
        return (table * coef).sum(axis=1)
    table = table.copy()
    table.sort_indices()
    out = np.zeros(table.shape[0])
    filled = np.diff(table.indptr) > 0
    if filled.any():
        out[filled] = np.add.reduceat(table.data * coef[table.indices],
                                      table.indptr[:-1][filled])
    return out


def _same_rows(table, rows) -> bool:
    """Whether two tables of the same shape (dense or CSR) are equal, entry by entry."""
    if isinstance(table, np.ndarray):
        return bool(np.array_equal(table, rows))
    return (table != rows).nnz == 0


def _dense(tables: Mapping[str, Any]) -> dict:
    """CSR tables of few rows made dense up to ``DENSE_CELLS`` cells, as in :func:`per_item`."""
    return {name: t if isinstance(t, (np.ndarray, Computed)) or
            t.shape[0] * t.shape[1] > DENSE_CELLS else t.toarray()
            for name, t in tables.items()}


@dataclass(frozen=True)
class Statistic:
    """A measure's additive per-item tables on one data set and its ``finish``.

    ``tables``: name → items × cells table (dense array, scipy CSR or
    :class:`RowBlocks`), one row per item row of the data (zeros for an item the
    measure does not use, e.g. excluded by its missing-data policy). ``shapes``: name
    → the shape of one total. ``finish``: totals (each with a leading resample axis) →
    (value, observed, expected) arrays over that axis. ``weights``: how many items each
    row stands for (from_contingency cells; None: one each). ``rows``: the table row of
    each item row, where the measure knows which items have equal tables before
    building them (augmented κ: items with the same ratings) and builds one row per
    group; None: row i of the tables is item i's.
    """

    tables: Mapping[str, Any]
    shapes: Mapping[str, tuple]
    finish: Callable[[dict], tuple]
    weights: np.ndarray | None = None
    rows: np.ndarray | None = None

    @property
    def n_items(self) -> int:
        """Item rows of the data: what a resample draws from."""
        if self.rows is not None:
            return len(self.rows)
        return next(iter(self.tables.values())).shape[0]

    def _per_row(self, w: np.ndarray) -> np.ndarray:
        """Item weights w (B × items) summed per table row (``rows``): B × table rows."""
        if self.rows is None:
            return w
        g = next(iter(self.tables.values())).shape[0]
        at = (g * np.arange(len(w)))[:, None] + self.rows
        return np.bincount(at.ravel(), weights=w.ravel(), minlength=len(w) * g).reshape(
            len(w), g)

    @property
    def base(self) -> np.ndarray:
        """The item weights of the data itself (1 per item, or each cell's count)."""
        return np.ones(self.n_items) if self.weights is None else \
            self.weights.astype(float)

    def totals(self, w) -> dict:
        """Σ_i w_bi T_i for every table and every row b of the item weights w (B × items)."""
        w = self._per_row(np.atleast_2d(np.asarray(w, dtype=float)))
        return {name: _product(w, t).reshape((len(w),) + tuple(self.shapes[name]))
                for name, t in self.tables.items()}

    def total(self) -> dict:
        """The totals of the data (item weights ``base``), without the resample axis."""
        return {name: t[0] for name, t in self.totals(self.base).items()}

    def values(self, w) -> np.ndarray:
        """The measure's value for each row of item weights w."""
        return np.asarray(self.finish(self.totals(w))[0], dtype=float)

    def distinct(self):
        """Items whose tables are equal are interchangeable in every total: (codes, the
        Statistic of the distinct item rows), where item i's tables are row codes[i] of
        it, so that Σ_i w_i T_i = Σ_g (Σ_{codes[i] = g} w_i) T_g. None when fewer than
        half the rows repeat, or for weighted rows (from_contingency: few rows already).
        A CSR table of few distinct rows becomes dense up to ``DENSE_CELLS`` cells, as in
        :func:`per_item` (a table of 37,426 × 100 at a third nonzero: its products 0.38 s
        as CSR, 0.13 s dense, measured). With ``rows`` (tables built per group of items
        already), the groups' equal rows are merged further where half repeat, else the
        groups are the distinct rows; a :class:`Computed` table is taken as built per
        distinct group (``rows``; None without), not hashed.

        Rows are grouped by a hash of all their tables (random coefficients), then
        checked equal entry by entry (a collision of the hash gives None, never a
        wrong total)."""
        if self.weights is not None:
            return None
        if any(isinstance(t, Computed) for t in self.tables.values()):
            return None if self.rows is None else (self.rows, replace(self, rows=None))
        merged = self._merged()
        if self.rows is None:
            return merged
        if merged is None:
            return self.rows, replace(self, tables=_dense(self.tables), rows=None)
        codes, rows = merged
        return codes[self.rows], rows

    def _merged(self):
        """(codes, Statistic of the distinct table rows) by the hash of :meth:`distinct`,
        over the table rows (not ``rows``); None as there."""
        coef = np.random.default_rng(0x5eed)  # the hash's coefficients: any fixed draw
        h = sum(_row_hash(t, coef.uniform(1, 2, t.shape[1])) for t in self.tables.values())
        _, first, codes = np.unique(h, return_index=True, return_inverse=True)
        if 2 * len(first) > len(h):
            return None
        tables = {name: t[first] for name, t in self.tables.items()}
        if not all(_same_rows(t, tables[name][codes]) for name, t in self.tables.items()):
            return None
        return codes.reshape(-1), Statistic(_dense(tables), self.shapes, self.finish)

    def jackknife(self) -> np.ndarray:
        """The value with each item row left out in turn: the totals minus its tables
        (an item the measure does not use leaves the value as it is). With ``rows``,
        computed once per table row and given to each of its items."""
        total = {name: t[0] for name, t in self.totals(self.base).items()}
        n_rows = next(iter(self.tables.values())).shape[0]
        step = max(1, BLOCK // max(sum(t.shape[1] for t in self.tables.values()), 1))
        out = []
        for s in range(0, n_rows, step):
            left = {}
            for name, t in self.tables.items():
                part = _rows(t, s, s + step)
                left[name] = (total[name] - part.reshape((len(part),) +
                                                         tuple(self.shapes[name])))
            out.append(np.asarray(self.finish(left)[0], dtype=float))
        out = np.concatenate(out)
        return out if self.rows is None else out[self.rows]
