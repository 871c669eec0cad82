"""The Statistic of a measure: additive per-item tables and the ``finish`` that reads
their sums (see the package docstring)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

__all__ = ["Statistic", "per_item", "item_pairs", "coincidence_table"]

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
    size = np.bincount(row, minlength=len(counts))
    start = np.cumsum(size) - size
    a = np.repeat(np.arange(len(row)), size[row])               # each nonzero, |S_i| times
    b = start[row[a]] + np.arange(len(a)) - np.repeat(np.cumsum(size[row]) - size[row],
                                                       size[row])  # … with each of its row
    return row[a], cat[a], cat[b]


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


def _product(w: np.ndarray, table) -> np.ndarray:
    """W @ table (resamples × cells) for a dense or CSR table: one matrix product."""
    if isinstance(table, np.ndarray):
        return w @ table
    return np.asarray((table.T @ w.T).T)  # CSR: the product scipy makes sparse × dense


@dataclass(frozen=True)
class Statistic:
    """A measure's additive per-item tables on one data set and its ``finish``.

    ``tables``: name → items × cells table (dense array or scipy CSR), one row per item
    row of the data (zeros for an item the measure does not use, e.g. excluded by its
    missing-data policy). ``shapes``: name → the shape of one total. ``finish``: totals
    (each with a leading resample axis) → (value, observed, expected) arrays over that
    axis. ``weights``: how many items each row stands for (from_contingency cells;
    None: one each).
    """

    tables: Mapping[str, Any]
    shapes: Mapping[str, tuple]
    finish: Callable[[dict], tuple]
    weights: np.ndarray | None = None

    @property
    def n_items(self) -> int:
        """Item rows of the data: what a resample draws from."""
        return next(iter(self.tables.values())).shape[0]

    @property
    def base(self) -> np.ndarray:
        """The item weights of the data itself (1 per item, or each cell's count)."""
        return np.ones(self.n_items) if self.weights is None else \
            self.weights.astype(float)

    def totals(self, w) -> dict:
        """Σ_i w_bi T_i for every table and every row b of the item weights w (B × items)."""
        w = np.atleast_2d(np.asarray(w, dtype=float))
        return {name: _product(w, t).reshape((len(w),) + tuple(self.shapes[name]))
                for name, t in self.tables.items()}

    def total(self) -> dict:
        """The totals of the data (item weights ``base``), without the resample axis."""
        return {name: t[0] for name, t in self.totals(self.base).items()}

    def values(self, w) -> np.ndarray:
        """The measure's value for each row of item weights w."""
        return np.asarray(self.finish(self.totals(w))[0], dtype=float)

    def jackknife(self) -> np.ndarray:
        """The value with each item row left out in turn: the totals minus its tables
        (an item the measure does not use leaves the value as it is)."""
        total = {name: _product(self.base[None], t)[0] for name, t in self.tables.items()}
        step = max(1, BLOCK // max(sum(t.shape[1] for t in self.tables.values()), 1))
        out = []
        for s in range(0, self.n_items, step):
            left = {}
            for name, t in self.tables.items():
                part = t[s:s + step]
                part = part if isinstance(part, np.ndarray) else part.toarray()
                left[name] = (total[name] - part).reshape((len(part),) +
                                                         tuple(self.shapes[name]))
            out.append(np.asarray(self.finish(left)[0], dtype=float))
        return np.concatenate(out)
