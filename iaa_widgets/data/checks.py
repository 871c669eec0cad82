"""Checks of freshly loaded ratings and of tables of counts."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..io.csv import rows_or_lines as _rows
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
    if not ann.has_secondary and ann.n_items * ann.n_annotators <= 8 * ann.n_ratings + (1 << 20):
        seen = np.zeros(ann.n_items * ann.n_annotators, dtype=bool)  # dense (item, annotator) grid
        for start in range(0, ann.n_ratings, 1 << 16):  # blocks: the index stays in cache
            block = slice(start, start + (1 << 16))
            seen[ann.item[block] * ann.n_annotators + ann.annotator[block]] = True
        if np.count_nonzero(seen) == ann.n_ratings:  # no pair twice: no sort needed
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
