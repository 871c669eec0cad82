"""The order and the identity of categories, where a measure relies on them.

An ordered computation (ordinal α, linear or quadratic weighted κ) needs an order
someone gave (``Annotations.ordered``: numeric labels, an ordered Categorical,
``categories=``), never one found by sorting text. A matrix over categories (agreement
weights, distances) is aligned by its row and column labels; a bare array is read by
position, so only against a declared order.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import AgreementError

__all__ = ["require_order", "require_declared", "by_label"]

DECLARE = ("declare the order with categories=[...] in the loader (Annotations.from_long, "
           "from_wide, from_counts, from_contingency or read_csv), an ordered pandas "
           "Categorical (pd.Categorical(labels, categories=[...], ordered=True)), or "
           "numeric labels")


def _shown(categories) -> str:
    cats = list(categories)
    return repr(cats[:8])[:-1] + (", …]" if len(cats) > 8 else "]")


def require_order(categories, ordered: bool, what: str) -> None:
    """Refuse ``what`` (an ordered computation) on categories whose order nobody gave.
    Two categories need none: linear and quadratic weights and ordinal δ are unchanged
    when the order is reversed, and any order of two is the other one or its reverse."""
    if not ordered and len(categories) > 2:
        raise AgreementError(
            f"{what} uses the order of the categories, but no order was given for "
            f"{_shown(categories)}: text labels and unordered Categoricals carry none "
            f"(as text they sort by spelling, e.g. 'high' < 'low' < 'medium'); {DECLARE}")


def require_declared(categories, ordered: bool, what: str) -> None:
    """Refuse a bare array over categories (read by position) without a declared order."""
    if not ordered:
        raise AgreementError(
            f"{what} given as a bare array is read by position, but the order of the "
            f"categories {_shown(categories)} was not declared; pass a pandas DataFrame "
            f"whose index and columns are the category labels, or {DECLARE}")


def by_label(frame: pd.DataFrame, categories, what: str) -> np.ndarray:
    """A K × K float array of ``frame`` with rows and columns in the order of
    ``categories``, found by label. The frame may name more categories than these: their
    rows and columns would only ever meet zero counts, so leaving them out changes no
    sum of a weighted κ or an α. A category it lacks is refused, naming the labels that
    are missing and those the frame has instead."""
    categories = pd.Index(list(categories))
    positions = []
    for axis, name in ((frame.index, "row"), (frame.columns, "column")):
        if not axis.is_unique:
            raise AgreementError(f"the {name} labels of {what} repeat "
                                 f"{_shown(axis[axis.duplicated()].unique())}; give each "
                                 "category one row and one column")
        found = axis.get_indexer(categories)
        if np.any(found < 0):
            extra = [label for label in axis if label not in set(categories)]
            raise AgreementError(
                f"the {name} labels of {what} lack the data's categories "
                f"{_shown(categories[found < 0])}"
                + (f" and name {_shown(extra)} instead" if extra else "")
                + f"; label its rows and columns with the categories {_shown(categories)}")
        positions.append(found)
    try:
        values = frame.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise AgreementError(f"{what} must hold numbers") from None
    return values[np.ix_(*positions)]
