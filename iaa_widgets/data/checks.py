"""Checks of freshly loaded ratings and of tables of counts."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..messages import rows_or_lines as _rows
from ..errors import AgreementError

if TYPE_CHECKING:  # the checks read an Annotations; annotations.py does not import them
    from .annotations import Annotations


def _validate(ann: Annotations, index, unique_cells: bool = False) -> None:
    """Duplicates, ranks and the number of annotators of a freshly loaded table
    (``unique_cells``: its (item, annotator) pairs are known to be distinct, as the cells
    of a wide table are: with primary labels only, nothing to sort or count)."""
    if unique_cells and not ann.has_secondary:
        _check_annotators(ann)
        return
    if not ann.has_secondary and _distinct_cells(ann):  # no pair twice: no sort needed
        _check_annotators(ann)
        return
    slot = (ann.item * ann.n_annotators + ann.annotator) * 2 + (ann.rank - 1)
    order = np.argsort(slot, kind="stable")
    s = slot[order]
    dup = np.flatnonzero(s[1:] == s[:-1])
    if len(dup):
        rows = np.sort(np.concatenate([order[dup], order[dup + 1]]))
        what = "a (item, annotator) pair rated more than once" if not ann.has_secondary else \
            "more than one label of the same rank for an (item, annotator)"
        raise AgreementError(f"{what} at {_rows(index, rows)}; keep one rating per pair "
                             "(or give a rank column: 1 primary, 2 secondary)")
    if ann.has_secondary:
        pair = s // 2
        first = np.r_[True, pair[1:] != pair[:-1]]
        orphan = first & (s % 2 == 1)  # a pair whose first slot is a secondary
        if orphan.any():
            raise AgreementError(f"a secondary label without a primary at "
                                 f"{_rows(index, order[orphan])}")
        same = (~first) & (ann.label[order] == np.r_[-1, ann.label[order][:-1]])
        if same.any():
            raise AgreementError(f"a secondary label equal to its primary at "
                                 f"{_rows(index, order[same])}")
    _check_annotators(ann)


def _distinct_cells(ann: Annotations) -> bool:
    """Whether no (item, annotator) pair comes twice, without sorting the ratings: each
    pair marks its cell of the items × annotators grid where the grid is small (at most
    8 cells per rating + 2²⁰), else a place in a table of 2–4 places per rating (a
    multiplicative hash of the cell, Knuth's Fibonacci hashing); the rows whose place
    another row also took (a quarter to a third of them) are then compared exactly, by
    sorting only their cells. False:
    some pair comes twice (the caller's sort names where)."""
    n, width = ann.n_ratings, ann.n_annotators
    if ann.n_items * width <= 8 * n + (1 << 20):
        seen = np.zeros(ann.n_items * width, dtype=bool)  # dense (item, annotator) grid
        for start in range(0, n, 1 << 16):  # blocks: the index stays in cache
            block = slice(start, start + (1 << 16))
            seen[ann.item[block] * width + ann.annotator[block]] = True
        return np.count_nonzero(seen) == n
    bits = (2 * n).bit_length()  # 2^bits places ≥ 2n
    item, annotator = (np.asarray(x, np.int64) for x in (ann.item, ann.annotator))
    place = (item * width).view(np.uint64)  # the cell, then its place, in one array
    place += annotator.view(np.uint64)
    place *= np.uint64(0x9E3779B97F4A7C15)  # modulo 2⁶⁴; the top bits are the place
    place >>= np.uint64(64 - bits)
    row = np.arange(n, dtype=np.int32 if n < 1 << 31 else np.intp)
    owner = np.empty(1 << bits, row.dtype)
    owner[place] = row  # one row per place keeps it (whichever)
    lost = owner[place] != row  # these share their place with the row that kept it
    if not lost.any():
        return True
    shared = np.zeros(1 << bits, dtype=bool)
    shared[place[lost]] = True
    rows = np.flatnonzero(shared[place])  # a pair twice shares one place: compared here
    cells = np.sort(item[rows] * width + annotator[rows])
    return not np.any(cells[1:] == cells[:-1])


def _check_annotators(ann: Annotations) -> None:
    if ann.n_annotators < 2:
        raise AgreementError(f"only one annotator ({ann.annotators[0]!r}); agreement needs at "
                             "least two")


def _check_total(counts: np.ndarray) -> None:
    """Counts whose total is exact in float64 sums (≤ 2⁵³), as the statistics add them."""
    if counts.sum(dtype=float) > 2.0 ** 53:
        raise AgreementError(f"the counts add up to {counts.sum(dtype=float):.3g} ratings, "
                             "more than 2⁵³ (9.0e15), beyond exact arithmetic; scale them down")


def _whole_counts(counts: np.ndarray) -> bool:
    """Finite, non-negative whole numbers (a table of counts)."""
    return np.issubdtype(counts.dtype, np.number) and bool(np.all(np.isfinite(counts))) and \
        not np.any(counts < 0) and not np.any(counts != np.round(counts))
