"""Example data sets, each with its origin. Every loader returns a tidy DataFrame
(item, annotator, label) that any measure accepts — with a ``rank`` column for
:func:`email_types`, and (annotator, category, start, end) for :func:`argument_units`.

Published examples: :func:`krippendorff_2011`, :func:`meyer_relatedness`,
:func:`datasaur_spans`. Synthetic, seeded sets (same seed, same table):
:func:`email_types` (primary and secondary labels), :func:`crowd_labels` (sparse),
:func:`argument_units` (a continuum), :func:`review_spans` (labelers and a reviewer).
"""
from __future__ import annotations

import pandas as pd

from .arguments import ARGUMENT_CATEGORIES, argument_units
from .crowd import CROWD_CLASSES, crowd_labels
from .emails import EMAIL_KINDS, EMAIL_TYPES, email_types
from .reviews import SPAN_LABELS, review_spans
from .product_reviews import REVIEW_SENTIMENTS, product_reviews

__all__ = ["krippendorff_2011", "meyer_relatedness", "datasaur_spans",
           "email_types", "crowd_labels", "argument_units", "review_spans",
           "EMAIL_TYPES", "EMAIL_KINDS", "CROWD_CLASSES", "ARGUMENT_CATEGORIES",
           "SPAN_LABELS", "product_reviews", "REVIEW_SENTIMENTS"]


def _from_rows(rows: dict[str, list], items: list) -> pd.DataFrame:
    """Long table from one list of labels per annotator (None = not rated)."""
    records = [(item, annotator, label)
               for annotator, labels in rows.items()
               for item, label in zip(items, labels) if label is not None]
    # one list per column: each column is then a contiguous array (a frame built from
    # records stores them interleaved)
    return pd.DataFrame(dict(zip(["item", "annotator", "label"], map(list, zip(*records)))))


def krippendorff_2011() -> pd.DataFrame:
    """Krippendorff's reliability data: 4 observers, 12 units, values 1–5, with
    missing values. Published α: nominal .743, ordinal .815, interval .849, ratio .797.

    Origin: published, Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability".
    Licence: the source states none; these 41 values are a short quotation of its worked
    example, given with the citation."""
    _ = None
    rows = {
        "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
        "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
        "C": [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
        "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
    }
    return _from_rows(rows, list(range(1, 13)))


def meyer_relatedness() -> pd.DataFrame:
    """Relatedness of ten word pairs (Rubenstein & Goodenough 1965) judged high/low by
    three raters; r1 and r2 alone give the tutorial's two-rater contingency table.

    Origin: published, Meyer (2009), "A Brief Tutorial on Inter-Rater Agreement" (slides
    "Multiple Raters"). Licence: the tutorial states none; these 30 judgements are a
    short quotation of its worked example, given with the citation."""
    items = ["gem – jewel", "coast – shore", "coast – hill", "forest – graveyard",
             "asylum – fruit", "noon – string", "automobile – wizard", "brother – lad",
             "cord – smile", "autograph – shore"]
    rows = {
        "r1": ["high", "high", "high", "low", "low", "low", "low", "low", "low", "low"],
        "r2": ["high", "high", "low", "high", "low", "low", "low", "high", "low", "low"],
        "r3": ["high", "low", "high", "high", "high", "low", "low", "low", "high", "high"],
    }
    df = _from_rows(rows, items)
    df["label"] = pd.Categorical(df["label"], categories=["high", "low"])
    return df


def datasaur_spans() -> pd.DataFrame:
    """Span labels of Labeler A and the Reviewer in Datasaur's note on Krippendorff's
    α (Table 1). Two spans carry a single label: "Prince of Denmark" (PER) and "30557"
    (QTY); the note does not say whose, so they are given to the Reviewer and to
    Labeler A — either way they are unpairable and leave α (0.56) unchanged.

    Origin: published, Datasaur's documentation, "Krippendorff's Alpha Calculation".
    Licence: the note states none; these 14 labels are a short quotation of its worked
    example, given with the citation."""
    items = ["The Tragedy of Hamlet", "Prince of Denmark", "Hamlet", "William Shakespeare",
             "1599", "1601", "Shakespeare", "30557"]
    rows = {
        "Labeler A": ["EVE", None, "PER", "PER", "YEAR", "YEAR", "ORG", "QTY"],
        "Reviewer": ["TITLE", "PER", "PER", "PER", "YEAR", "YEAR", "PER", None],
    }
    return _from_rows(rows, items)
