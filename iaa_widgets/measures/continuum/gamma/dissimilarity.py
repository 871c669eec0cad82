"""Dissimilarities between units (Mathet, Widlöcher & Métivier 2015, §4.2–4.3).

All functions are vectorised over index arrays ``i``, ``j`` of units of one
:class:`~iaa_widgets.continuum.Continuum`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from ....continuum import Continuum
from .... import validate
from ....errors import AgreementError

__all__ = ["Dissimilarity", "CATEGORY_DISTANCES", "levenshtein"]

CATEGORY_DISTANCES = ("nominal", "ordinal", "numeric", "levenshtein")


def levenshtein(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions of one character each)."""
    prev = np.arange(len(b) + 1)
    for i, ch in enumerate(a, 1):  # one row per character of a; labels are short
        cur = np.empty_like(prev)
        cur[0] = i
        sub = prev[:-1] + (np.array(list(b)) != ch) if b else prev[:0]
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, sub[j - 1])
        prev = cur
    return int(prev[-1])


@lru_cache(maxsize=64)
def _levenshtein_matrix(labels: tuple[str, ...]) -> np.ndarray:
    """pygamma-agreement 0.5.9's proportional Levenshtein distance between labels:
    lev(a, b) / (max(len a, len b) + 1), the matrix then divided by max(1, its
    largest entry)."""
    k = len(labels)
    m = np.zeros((k, k))
    for i in range(k):  # k² label pairs: categories, not units
        for j in range(i):
            m[i, j] = m[j, i] = levenshtein(labels[i], labels[j]) / (
                max(len(labels[i]), len(labels[j])) + 1)
    return m / max(1.0, m.max(initial=0.0))


def _positions_matrix(p: np.ndarray) -> np.ndarray:
    """|p_i − p_j| divided by max(1, the largest difference) (pygamma-agreement's
    ordinal and numerical categorical dissimilarities)."""
    m = np.abs(p[:, None] - p[None, :])
    return m / max(1.0, m.max(initial=0.0))


@dataclass(frozen=True, eq=False)
class Dissimilarity:
    """Combined dissimilarity d = α·d_pos + β·d_cat, with Δ∅ against the empty unit.

    ``category_distance`` (dist_cat, 2015 §4.2.3, in [0, 1] for the named ones) is

    - ``None`` or ``"nominal"``: 0 for equal categories, 1 otherwise;
    - ``"ordinal"``: |rank_i − rank_j| in the declared category order
      (``Continuum.ordered``: ``categories=`` or numeric categories), or a mapping
      {category: position} (dict or Series, aligned by label) for chosen positions;
    - ``"numeric"``: |value_i − value_j| of numeric categories;
    - ``"levenshtein"``: lev(a, b) / (max(len a, len b) + 1) between the labels as
      text;

      the last three divided by max(1, their largest entry), as pygamma-agreement
      0.5.9's Ordinal-, Numerical- and LevenshteinCategoricalDissimilarity do, so
      that its numbers can be had;
    - a square matrix over the continuum's categories: a DataFrame indexed and
      columned by category names (aligned by label), or a bare array in the
      category order, accepted only when that order was declared
      (``Continuum.ordered``); symmetric, ≥ 0, zero on the diagonal.
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
        if m is None or (isinstance(m, str) and m == "nominal"):
            return 1.0 - np.eye(k)
        if isinstance(m, str):
            return self._named_matrix(continuum, m)
        if isinstance(m, (Mapping, pd.Series)):
            return _positions_matrix(self._positions(continuum, m))
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

    def _named_matrix(self, c: Continuum, name: str) -> np.ndarray:
        """dist_cat for ``"ordinal"``, ``"numeric"`` or ``"levenshtein"`` (class doc)."""
        if name == "levenshtein":
            return _levenshtein_matrix(tuple(str(x) for x in c.categories))
        if name == "ordinal":
            if not c.ordered:
                raise AgreementError(
                    f"category_distance='ordinal' needs a category order, and nobody "
                    f"declared one (the categories {list(c.categories)[:8]!r} were "
                    "sorted); declare it with categories=[...] when loading, or pass a "
                    "mapping {category: position}")
            return _positions_matrix(np.arange(c.n_categories, dtype=float))
        if name == "numeric":
            values = pd.to_numeric(pd.Series(list(c.categories)), errors="coerce")
            if values.isna().any():
                raise AgreementError(
                    f"category_distance='numeric' needs numeric categories, got "
                    f"{list(c.categories[values.isna().to_numpy()])[:8]!r}; use 'ordinal' "
                    "or a mapping {category: position}")
            return _positions_matrix(values.to_numpy(dtype=float))
        raise AgreementError(f"category_distance must be None, one of "
                             f"{list(CATEGORY_DISTANCES)!r}, a mapping {{category: "
                             f"position}} or a matrix, got {name!r}")

    @staticmethod
    def _positions(c: Continuum, mapping) -> np.ndarray:
        """The positions of ``c.categories`` from a mapping, by label."""
        missing = [x for x in c.categories if x not in mapping]
        if missing:
            raise AgreementError(f"category_distance positions lack categories {missing!r}")
        p = pd.to_numeric(pd.Series([mapping[x] for x in c.categories]), errors="coerce")
        if not np.all(np.isfinite(p.to_numpy(dtype=float))):
            raise AgreementError("category_distance positions must be finite numbers")
        return p.to_numpy(dtype=float)

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
