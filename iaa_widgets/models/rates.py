"""Each annotator's class × label probabilities θ_akl = P(label l | class k), held as what
defines them rather than as a dense annotators × K × K array (10,000 annotators × 500
classes would be 18.6 GiB):

- ``base`` (annotators × K) and ``diagonal`` (annotators): a matrix that is the same row
  ``base[a]`` for every class, plus ``diagonal[a]`` where k = l (one-coin Dawid–Skene,
  MACE);
- ``cells`` (used cells × K): the columns l of the labels annotator a gave (the used
  cells u = (a_u, l_u)), over the classes k (full Dawid–Skene, majority vote); any other
  label has probability 0;
- ``undefined`` (annotators × K): rows with no estimate (NaN): an annotator without a
  rating, or a class none of their rated items has (majority vote).

A matrix is made for one annotator at a time (:meth:`ErrorRates.matrix`); the dense
table of every annotator only on request and within :data:`~iaa_widgets.stats.MAX_CELLS`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..stats.tables import check_size

__all__ = ["ErrorRates"]


@dataclass(frozen=True, eq=False)
class ErrorRates:
    """θ_akl of every annotator, stored compactly (see the module)."""

    annotators: pd.Index
    categories: pd.Index
    cell_annotator: np.ndarray            # the used cells u = (a_u, l_u), sorted by a_u
    cell_label: np.ndarray
    undefined: np.ndarray                 # annotators × K: NaN rows
    base: np.ndarray | None = None        # annotators × K: θ_akl = base[a, l] + …
    diagonal: np.ndarray | None = None    # annotators: … + diagonal[a] [k = l]
    cells: np.ndarray | None = None       # used cells × K: θ_{a_u, k, l_u} over k

    def matrix(self, a: int) -> np.ndarray:
        """Annotator code ``a``'s K × K matrix (rows: class k, columns: label l)."""
        k = len(self.categories)
        out = np.zeros((k, k))
        if self.base is not None:
            out += self.base[a][None, :]
        if self.diagonal is not None:
            out[np.diag_indices(k)] += self.diagonal[a]
        if self.cells is not None:
            lo, hi = np.searchsorted(self.cell_annotator, [a, a + 1])
            out[:, self.cell_label[lo:hi]] = self.cells[lo:hi].T
        out[self.undefined[a]] = np.nan
        return out

    def dense(self) -> np.ndarray:
        """Every annotator's matrix, annotators × K × K; refused by its size."""
        a, k = self.undefined.shape
        check_size((a * k, k), "confusion matrices of every annotator",
                   advice="read one annotator's with result.confusion_matrix(annotator), "
                          "or the cells each annotator used with result.confusion_cells()")
        out = np.zeros((a, k, k))
        if self.base is not None:
            out += self.base[:, None, :]
        if self.diagonal is not None:
            out[:, np.arange(k), np.arange(k)] += self.diagonal[:, None]
        if self.cells is not None:
            out[self.cell_annotator, :, self.cell_label] = self.cells
        out[self.undefined] = np.nan
        return out

    def frame(self) -> pd.DataFrame:
        """The dense table as rows (annotator, class k), columns label l."""
        a, k = self.undefined.shape
        rows = pd.MultiIndex.from_arrays(
            [self.annotators.repeat(k), np.tile(np.asarray(self.categories, dtype=object), a)],
            names=["annotator", "class"])
        return pd.DataFrame(self.dense().reshape(a * k, k), index=rows,
                            columns=pd.Index(self.categories, name="label"))

    def long(self) -> pd.DataFrame:
        """One row per (annotator, class, label) of a label the annotator gave, with its
        probability (NaN in an undefined row): the cells the likelihood reads, never
        annotators × K × K."""
        k = len(self.categories)
        who, label = self.cell_annotator, self.cell_label
        check_size((len(who), k), "cells of the labels each annotator gave")
        cls = np.tile(np.arange(k), len(who))
        who_k, label_k = np.repeat(who, k), np.repeat(label, k)
        if self.cells is not None:
            p = self.cells.ravel().copy()
        else:
            p = (self.base[who_k, label_k] if self.base is not None else 0.0) + np.where(
                cls == label_k, self.diagonal[who_k] if self.diagonal is not None else 0.0,
                0.0)
        p = np.where(self.undefined[who_k, cls], np.nan, p)
        return pd.DataFrame({"annotator": self.annotators.take(who_k),
                             "class": self.categories.take(cls),
                             "label": self.categories.take(label_k), "probability": p})
