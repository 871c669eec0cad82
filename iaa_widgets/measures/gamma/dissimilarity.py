"""Dissimilarities between units (Mathet, Widlöcher & Métivier 2015, §4.2–4.3).

All functions are vectorised over index arrays ``i``, ``j`` of units of one
:class:`~iaa_widgets.continuum.Continuum`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...continuum import Continuum
from ... import validate
from ...errors import AgreementError

__all__ = ["Dissimilarity"]


@dataclass(frozen=True, eq=False)
class Dissimilarity:
    """Combined dissimilarity d = α·d_pos + β·d_cat, with Δ∅ against the empty unit.

    ``category_distance`` is ``None`` (nominal: 0 for equal categories, 1 otherwise)
    or a square matrix over the continuum's categories: a DataFrame indexed and
    columned by category names (aligned by label), or a bare array in the category
    order, accepted only when that order was declared (``Continuum.ordered``);
    symmetric, ≥ 0, zero on the diagonal.
    """

    alpha: float = 1.0
    beta: float = 1.0
    delta_empty: float = 1.0
    category_distance: object = None

    def __post_init__(self):
        validate.real("Dissimilarity", "alpha", self.alpha, minimum=0.0)
        validate.real("Dissimilarity", "beta", self.beta, minimum=0.0)
        validate.real("Dissimilarity", "delta_empty", self.delta_empty, minimum=0.0,
                      open_low=True)  # Δ∅ is the unit of disorder

    def category_matrix(self, continuum: Continuum) -> np.ndarray:
        """The n_categories × n_categories distance matrix dist_cat."""
        k = continuum.n_categories
        m = self.category_distance
        if m is None:
            return 1.0 - np.eye(k)
        if isinstance(m, pd.DataFrame):
            missing = [c for c in continuum.categories if c not in m.index or c not in m.columns]
            if missing:
                raise AgreementError(f"category_distance lacks categories {missing!r}")
            m = m.loc[list(continuum.categories), list(continuum.categories)].to_numpy()
        elif not continuum.ordered:
            raise AgreementError(
                f"category_distance as a bare array is read in the category order, and "
                f"nobody declared one (the categories {list(continuum.categories)[:8]!r} "
                "were sorted); pass a DataFrame indexed and columned by category, or "
                "declare the order with categories=[...] when loading")
        m = np.asarray(m, dtype=float)
        if m.shape != (k, k):
            raise AgreementError(f"category_distance must be {k} × {k} (categories "
                                 f"{list(continuum.categories)!r}), got shape {m.shape}")
        if (not np.all(np.isfinite(m)) or np.any(m < 0) or np.any(np.diag(m) != 0)
                or not np.allclose(m, m.T)):
            raise AgreementError("category_distance must be finite, >= 0, symmetric and "
                                 "zero on the diagonal")
        return m

    def positional(self, c: Continuum, i, j) -> np.ndarray:
        """d_pos = ((|Δstart| + |Δend|) / (len_u + len_v))² · Δ∅ (2015, §4.2.2)."""
        num = np.abs(c.start[i] - c.start[j]) + np.abs(c.end[i] - c.end[j])
        den = (c.end[i] - c.start[i]) + (c.end[j] - c.start[j])
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(num == 0, 0.0, num / den)  # two equal points: 0; distinct points: ∞
        return ratio * ratio * self.delta_empty

    def categorical(self, c: Continuum, i, j, matrix: np.ndarray | None = None) -> np.ndarray:
        """d_cat = dist_cat(cat_u, cat_v) · Δ∅ (2015, §4.2.3)."""
        matrix = self.category_matrix(c) if matrix is None else matrix
        return matrix[c.category[i], c.category[j]] * self.delta_empty

    def combined(self, c: Continuum, i, j, matrix: np.ndarray | None = None) -> np.ndarray:
        """d = α·d_pos + β·d_cat (2015, §4.2.4); with α = 0 positions are ignored
        (0·∞ for two distinct points would otherwise give NaN)."""
        d = self.beta * self.categorical(c, i, j, matrix)
        return d + self.alpha * self.positional(c, i, j) if self.alpha else d

    def position_reach(self, bound: float) -> float:
        """c such that d < bound implies |Δstart| + |Δend| < c·(len_u + len_v)."""
        if self.alpha == 0:
            return np.inf
        return float(np.sqrt(bound / (self.alpha * self.delta_empty)))
