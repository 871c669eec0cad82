"""Agreement weights w_kl over the categories (1 = full agreement, 0 = none): the
families of Gwet (2014, *Handbook of Inter-Rater Reliability*, 4th ed., ch. 3),
built over the categories as the user gave them.

Each category k has a score x_k: its value for numeric (or boolean) labels, as Gwet
does (so {1, 2, 5} are not equally spaced); its position 1 … q in the declared order
for text labels (``categories=``, an ordered Categorical; refused without one, as
sorting text is no order). With x_min, x_max the smallest and largest scores:

========== ==========================================================================
identity   w_kl = [k = l] (no order needed)
linear     1 − |x_k − x_l| / (x_max − x_min)
quadratic  1 − (x_k − x_l)² / (x_max − x_min)²
ordinal    1 − M_kl / max M, M_kl = C(|r_k − r_l| + 1, 2) with r_k the rank of x_k
radical    1 − √|x_k − x_l| / √(x_max − x_min)
ratio      1 − ((x_k − x_l)/(x_k + x_l))² / ((x_max − x_min)/(x_max + x_min))²
           (scores must be positive: a ratio scale)
circular   1 − sin²(π(x_k − x_l)/U) / max, U = x_max − x_min + 1
bipolar    1 − d_kl / max d, d_kl = (x_k − x_l)² / ((x_k + x_l − 2x_min)(2x_max − x_k − x_l))
           for k ≠ l, d_kk = 0
========== ==========================================================================

A user matrix is accepted too: a DataFrame aligned by its row and column labels (never
by position), or a bare array read in a declared order.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..data.categories import numeric_values
from ..errors import AgreementError
from ..stats.tables import check_size
from ._order import by_label, require_declared, require_order

__all__ = ["FAMILIES", "agreement_weights", "category_scores", "weight_matrix"]

FAMILIES = ("identity", "linear", "quadratic", "ordinal", "radical", "ratio", "circular",
            "bipolar")
NUMERIC = ("integer", "floating", "mixed-integer-float", "decimal", "boolean")


def category_scores(categories, ordered: bool, what: str, where=None) -> np.ndarray:
    """The scores x_k of the categories: their values when numeric (finite:
    :func:`~iaa_widgets.data.categories.numeric_values`; ``where(code)`` names a
    rating), else their positions 1 … q in the declared order (``what`` names the
    computation in the errors)."""
    cats = pd.Index(list(categories))
    if cats.inferred_type in NUMERIC:
        return numeric_values(cats, what, where, "use finite numeric labels")
    require_order(cats, ordered, what)
    return np.arange(1.0, len(cats) + 1)


def _normalised(d: np.ndarray) -> np.ndarray:
    """1 − d / max d (all ones when every d is 0: a single category)."""
    top = d.max()
    return 1.0 - d / top if top > 0 else np.ones_like(d)


def weight_matrix(family: str, scores) -> np.ndarray:
    """The q × q agreement weights of one of Gwet's (2014, ch. 3) ``FAMILIES`` over the
    category scores x_k (see the module docstring for each formula)."""
    x = np.asarray(scores, dtype=float)
    q = len(x)
    if family == "identity":
        return np.eye(q)
    diff = np.subtract.outer(x, x)
    span = x.max() - x.min() if q else 0.0
    if family == "ordinal":  # M_kl = (|r_k − r_l| + 1)|r_k − r_l| / 2 over ranks
        r = np.argsort(np.argsort(x))
        gap = np.abs(np.subtract.outer(r, r)).astype(float)
        return _normalised(gap * (gap + 1) / 2)
    if family == "circular":  # sin²(π(x_k − x_l)/U), U = x_max − x_min + 1
        return _normalised(np.sin(np.pi * diff / (span + 1)) ** 2)
    if span == 0:  # one category: every weight is full agreement
        return np.ones((q, q))
    if family == "linear":
        return 1.0 - np.abs(diff) / span
    if family == "quadratic":
        return 1.0 - diff ** 2 / span ** 2
    if family == "radical":
        return 1.0 - np.sqrt(np.abs(diff)) / np.sqrt(span)
    if family == "ratio":
        if np.any(x <= 0):
            raise AgreementError(
                "weights='ratio' needs positive category values (a ratio scale: "
                f"(x_k − x_l)/(x_k + x_l)), got {list(x[x <= 0])!r}; use numeric labels "
                "above 0 or another family")
        total = np.add.outer(x, x)
        return 1.0 - (diff / total) ** 2 / (span / (x.max() + x.min())) ** 2
    if family == "bipolar":
        total = np.add.outer(x, x)
        with np.errstate(divide="ignore", invalid="ignore"):  # 0/0 only on the diagonal
            d = diff ** 2 / ((total - 2 * x.min()) * (2 * x.max() - total))
        np.fill_diagonal(d, 0.0)
        return _normalised(d)
    raise AgreementError(f"weights must be None, one of {list(FAMILIES)!r} or a K × K "
                         f"matrix of agreement weights, got {family!r}")


def agreement_weights(weights, categories, ordered: bool,
                      measure: str = "") -> tuple[np.ndarray, str]:
    """K × K agreement weights w_kl over ``categories`` and their name: None or
    "identity" (unweighted), a family of :data:`FAMILIES` over the scores of
    :func:`category_scores` (every family but identity needs an order), or a user
    matrix (rows: the first annotator's categories): a DataFrame aligned by its
    labels, or a bare array read in the declared order. ``measure``: the public
    function, named in the errors."""
    k = len(categories)
    said = f"{measure}: " if measure else ""
    check_size((k, k), "agreement weights")  # refused with its size, never a MemoryError
    if weights is None:
        return np.eye(k), "none"
    if isinstance(weights, str):
        if weights not in FAMILIES:
            raise AgreementError(f"{said}weights must be None, one of {list(FAMILIES)!r} or a "
                                 f"K × K matrix of agreement weights, got {weights!r}")
        if weights == "identity":
            return np.eye(k), "identity"
        scores = category_scores(categories, ordered, f"{said}weights={weights!r}")
        return weight_matrix(weights, scores), weights
    if isinstance(weights, pd.DataFrame):
        w = by_label(weights, categories, "the weight matrix")
    else:
        require_declared(categories, ordered, "the weight matrix")
        try:
            w = np.asarray(weights, dtype=float)
        except (TypeError, ValueError):
            raise AgreementError(f"{said}weights must be None, one of {list(FAMILIES)!r} or a "
                                 "K × K matrix of numbers, got "
                                 f"{type(weights).__name__}") from None
    if w.shape != (k, k):
        raise AgreementError(f"a weight matrix must be {k} × {k} (one row and column per "
                             f"category), got shape {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or np.any(w > 1) or \
            np.any(np.diag(w) != 1):
        raise AgreementError("a weight matrix holds agreement weights: finite, between 0 "
                             "and 1, with 1 on the diagonal (full agreement)")
    return w, "matrix"
