"""Annotations: validated, integer-coded categorical ratings.

Every measure works on an :class:`Annotations`: one row per rating, stored as
integer codes (item, annotator, category, rank) beside the names they stand for.
Categories keep a declared order, which ordinal metrics and Bennett's S need.
The loaders live in :mod:`.loaders`; the classmethods here are their public names
and import them when called (:mod:`.loaders` builds Annotations, so it imports this
module).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import import_module
from typing import Sequence

import numpy as np
import pandas as pd

from ..errors import AgreementError

# most rows a table of counts is expanded into for code that reads single ratings
EXPANSION_LIMIT = 10_000_000


@dataclass(frozen=True, eq=False)
class Annotations:
    """Ratings of items by annotators, one entry per rating, integer-coded.

    The data every categorical measure works on: parallel integer codes (item, annotator,
    category, rank) beside the names they stand for, validated once. Build one with a
    loader, never by hand: `from_long`, `from_wide`, `from_counts`, `from_contingency`,
    `iaa_widgets.as_annotations` or a reader (`iaa_widgets.read_csv` …); every measure also
    accepts a tidy table and loads it with `as_annotations`.

    Parameters
    ----------
    item, annotator, label, rank : numpy.ndarray of int
        Parallel arrays, one entry per rating: codes into ``items``, ``annotators`` and
        ``categories``, and the rank of the label (1 primary, 2 secondary). A blank
        label is no entry (``n_blank`` counts it).
    items, annotators, categories : pandas.Index
        The names the codes stand for, in order; labels keep their identity (``1`` and
        ``"1"`` stay apart).
    anonymous : bool, default False
        Data built from per-item counts, where annotator identities are unknown.
    ordered : bool, default False
        The order of ``categories`` was given by someone (numeric or boolean labels, an
        ordered pandas Categorical, or ``categories=``), so that ordinal metrics and
        linear or quadratic weights may use it; an order found by sorting text never
        counts.
    item_weight : numpy.ndarray of int, optional
        How many identical items each row of ``items`` stands for (`from_contingency`:
        one item per non-zero cell). None: one each.
    rating_count : numpy.ndarray of int, optional
        How many identical anonymous ratings each rating stands for (`from_counts`: one
        rating per non-zero cell). None: one each.
    notes : tuple of str, default ()
        What every result computed from this data reports (look-alike labels, blank
        labels, cells a file reader made missing).
    n_blank : int, default 0
        How many rows had a blank label (NaN, None, '' or whitespace only): missing
        ratings, whose item and annotator stay known.

    Attributes
    ----------
    n_items, n_annotators, n_categories, n_ratings : int
        Rows of ``items``, ``annotators``, ``categories`` and ratings.
    total_items, total_ratings : int
        What the rows stand for, counting ``item_weight`` and ``rating_count``.
    weighted : bool
        Rows stand for several items or ratings (counts kept as counts).
    has_secondary : bool
        Some rating is a secondary (rank 2) label.

    Methods
    -------
    from_long(df, item="item", annotator="annotator", label="label", rank=None, categories=None)
        From a tidy table with one row per rating.
    from_wide(df, categories=None)
        From an items × annotators table.
    from_counts(table, categories=None)
        From an items × categories table of counts (Fleiss' layout).
    from_contingency(matrix, categories=None, annotators=("A", "B"))
        From a two-annotator contingency table.
    to_long()
        The tidy table: item, annotator, label (and rank).
    label_matrix()
        Items × annotators primary category codes, -1 where missing.
    primary()
        The primary (rank 1) labels only.
    select_annotators(names)
        The ratings by the named annotators, in the order given.
    expanded(what)
        One row per item and per rating (counts expanded), for code that reads single
        ratings.

    See Also
    --------
    iaa_widgets.as_annotations : Loads a tidy table of any dataframe library.
    iaa_widgets.read_csv : Reads one from a CSV file.
    iaa_widgets.read : Reads one from an annotation tool's export.
    iaa_widgets.sufficient_statistics : The same tables on a user's engine.

    Notes
    -----
    Counts stay counts: ``n_items`` and ``n_ratings`` count rows, ``total_items`` and
    ``total_ratings`` what they stand for, so that a 2 × 2 table of a million items is
    four rows. `from_counts` data are anonymous: measures that need annotator identities
    (Cohen's κ, Davies–Fleiss κ, pairwise matrices) refuse them.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": ["A", "B"] * 3,
    ...                    "label": ["yes", "yes", "no", "yes", "no", "no"]})
    >>> ann = iaa.Annotations.from_long(df)
    >>> ann
    Annotations(3 items, 2 annotators, 2 categories, 6 ratings)
    >>> ann.categories.tolist(), ann.ordered
    (['no', 'yes'], False)
    >>> ann.label_matrix().tolist()  # codes into categories, one row per item
    [[1, 1], [0, 1], [0, 0]]
    >>> table = iaa.Annotations.from_contingency([[20, 5], [10, 15]], categories=["yes", "no"])
    >>> table
    Annotations(50 items, 2 annotators, 2 categories, 100 ratings, kept as counts)
    >>> # Cohen (1960), eq. 1 by hand: p_o = 35/50 = 0.7, p_e = (25·30 + 25·20)/50² = 0.5
    >>> round(iaa.cohen_kappa(table).value, 4)
    0.4
    """

    item: np.ndarray
    annotator: np.ndarray
    label: np.ndarray
    rank: np.ndarray
    items: pd.Index
    annotators: pd.Index
    categories: pd.Index
    anonymous: bool = False
    ordered: bool = False
    item_weight: np.ndarray | None = None
    rating_count: np.ndarray | None = None
    notes: tuple[str, ...] = ()
    n_blank: int = 0

    # ------------------------------------------------------------------ sizes
    @property
    def n_items(self) -> int:
        return len(self.items)

    @property
    def n_annotators(self) -> int:
        return len(self.annotators)

    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @property
    def n_ratings(self) -> int:
        return len(self.label)

    @property
    def weighted(self) -> bool:
        """Rows stand for several items or ratings (counts kept as counts)."""
        return self.item_weight is not None or self.rating_count is not None

    def rating_weights(self) -> np.ndarray | None:
        """How many ratings each rating row stands for (None: one each)."""
        if not self.weighted:
            return None
        per_row = np.ones(self.n_ratings, np.int64) if self.rating_count is None \
            else self.rating_count
        return per_row if self.item_weight is None else per_row * self.item_weight[self.item]

    @property
    def total_items(self) -> int:
        return self.n_items if self.item_weight is None else int(self.item_weight.sum())

    @property
    def total_ratings(self) -> int:
        w = self.rating_weights()
        return self.n_ratings if w is None else int(w.sum())

    @property
    def has_secondary(self) -> bool:
        return bool(np.any(self.rank == 2))

    def __repr__(self) -> str:
        sec = f", {int(np.sum(self.rank == 2))} secondary" if self.has_secondary else ""
        return (f"Annotations({self.total_items} items, {self.n_annotators} annotators, "
                f"{self.n_categories} categories, {self.total_ratings} ratings{sec}"
                f"{', kept as counts' if self.weighted else ''})")

    def expanded(self, what: str) -> "Annotations":
        """The same data with one row per item and per rating, for code that reads single
        ratings (``what`` names it in the error); refuses more than ``EXPANSION_LIMIT``
        rows, where a silent expansion would exhaust memory."""
        if not self.weighted:
            return self
        total = self.total_ratings
        if total > EXPANSION_LIMIT:
            takes = ("percent_agreement, bennett_s, fleiss_kappa, specific_agreement, "
                     "krippendorff_alpha, sparse_agreement") if self.item_weight is None else \
                ("percent_agreement, bennett_s, scott_pi, cohen_kappa, specific_agreement, "
                 "krippendorff_alpha, pairwise")
            raise AgreementError(
                f"{what} reads one row per rating, but these counts stand for {total:,} "
                f"ratings (more than {EXPANSION_LIMIT:,} rows); use a measure that takes "
                f"these counts as they are ({takes}) or a table with fewer items")
        out = self
        if self.rating_count is not None:  # anonymous: the j-th rating of an item is rater j
            order = np.argsort(self.item, kind="stable")
            reps = self.rating_count[order]
            item = np.repeat(self.item[order], reps)
            per_item = np.bincount(item, minlength=self.n_items)
            position = np.arange(len(item)) - np.repeat(np.cumsum(per_item) - per_item,
                                                        per_item)
            out = replace(out, item=item, annotator=position,
                          label=np.repeat(self.label[order], reps),
                          rank=np.repeat(self.rank[order], reps), rating_count=None,
                          annotators=_raters(int(per_item.max())))
        if out.item_weight is not None:  # copy c of item i becomes item start_i + c
            weight = out.item_weight
            start = np.cumsum(weight) - weight
            reps = weight[out.item]
            copy = np.arange(int(reps.sum())) - np.repeat(np.cumsum(reps) - reps, reps)
            out = replace(out, item=np.repeat(start[out.item], reps) + copy,
                          annotator=np.repeat(out.annotator, reps),
                          label=np.repeat(out.label, reps), rank=np.repeat(out.rank, reps),
                          items=pd.RangeIndex(int(weight.sum()), name="item"),
                          item_weight=None)
        return out

    # ------------------------------------------------------------- views
    def primary(self) -> "Annotations":
        """The primary (rank 1) labels only."""
        if not self.has_secondary:
            return self
        return self._take(self.rank == 1)

    def _take(self, keep: np.ndarray) -> "Annotations":
        counts = None if self.rating_count is None else self.rating_count[keep]
        return replace(self, item=self.item[keep], annotator=self.annotator[keep],
                       label=self.label[keep], rank=self.rank[keep], rating_count=counts)

    def label_matrix(self) -> np.ndarray:
        """Items × annotators matrix of primary category codes, -1 where missing (one
        row per item: counts are expanded, see :meth:`expanded`)."""
        return self.expanded("label_matrix")._label_grid()

    def _label_grid(self) -> np.ndarray:
        """Rows × annotators primary category codes, -1 where missing (an item row of
        weighted data stands for ``item_weight`` items)."""
        # refused by its size, never a MemoryError (1e4 annotators of a sparse crowd)
        import_module(f"{__package__.rsplit('.', 1)[0]}.stats.tables").check_size(
            (self.n_items, self.n_annotators), "items × annotators table of labels")
        prim = self.primary()
        out = np.full((self.n_items, self.n_annotators), -1, dtype=np.int64)
        out[prim.item, prim.annotator] = prim.label
        return out

    def select_annotators(self, names: Sequence) -> "Annotations":
        """Ratings by the named annotators only (in the order given)."""
        codes = self.annotators.get_indexer(list(names))
        if np.any(codes < 0):
            unknown = [n for n, c in zip(names, codes) if c < 0]
            raise AgreementError(f"unknown annotator(s) {unknown!r}; the data has "
                                 f"{list(self.annotators)!r}")
        remap = np.full(self.n_annotators, -1)
        remap[codes] = np.arange(len(codes))
        new = remap[self.annotator]
        keep = new >= 0
        return replace(self._take(keep), annotator=new[keep], annotators=self.annotators[codes])

    def category_values(self, what: str = "this measure",
                        instead: str = "code the labels as numbers") -> np.ndarray:
        """The categories as numbers (interval and ratio metrics, the ICC need them),
        refused as :func:`~iaa_widgets.data.categories.numeric_values` says, naming
        ``what`` (the measure and its parameter) and the first rating of a bad label."""
        from .categories import numeric_values
        return numeric_values(self.categories, what, self.rating_of, instead)

    def rating_of(self, code: int) -> str:
        """Where category ``code`` is first used, for a message: its item and annotator
        ('' when no rating holds it)."""
        at = np.flatnonzero(self.label == code)
        if not len(at):
            return ""
        item, annotator = self.items[self.item[at[0]]], self.annotators[self.annotator[at[0]]]
        plain = [x.item() if isinstance(x, np.generic) else x for x in (item, annotator)]
        return f"item {plain[0]!r}, annotator {plain[1]!r}"

    def to_long(self) -> pd.DataFrame:
        """Tidy table: item, annotator, label (and rank when there are secondary labels);
        counts are expanded into rows (see :meth:`expanded`)."""
        if self.weighted:
            return self.expanded("to_long").to_long()
        df = pd.DataFrame({
            "item": self.items.take(self.item),
            "annotator": self.annotators.take(self.annotator),
            "label": self.categories.take(self.label),
        })
        if self.has_secondary:
            df["rank"] = self.rank
        return df

    # ------------------------------------------------------------- loaders
    @classmethod
    def from_long(cls, df, item: str = "item", annotator: str = "annotator",
                  label: str = "label", rank: str | None = None,
                  categories: Sequence | None = None) -> "Annotations":
        """From a tidy table with one row per rating.

        A ``rank`` column (1 primary, 2 secondary) allows up to two labels per
        (item, annotator); without it, a label cell may also hold a
        ``(primary, secondary)`` pair. ``categories`` declares the category set and
        its order; by default an ordered pandas Categorical's categories are used,
        else the sorted distinct labels. A blank label (NaN, None, '' or whitespace
        only) is a missing rating: its item and annotator stay known, and ``n_blank``
        and ``notes`` count it. Distinct labels that only look alike (``1`` and
        ``'1'``, ``'yes'`` and ``'Yes '``, NFC and NFD forms) stay separate categories,
        named in a :class:`LookAlikeLabelsWarning` and in ``notes``.
        """
        return _loaders().long_table(df, item, annotator, label, rank, categories)

    @classmethod
    def from_wide(cls, df, categories: Sequence | None = None) -> "Annotations":
        """From an items × annotators table (the index names items, the columns
        annotators); NaN, None, '' or whitespace marks a missing rating. A cell may hold a
        ``(primary, secondary)`` pair. A row with no rating at all stays an item (the
        measures count it as excluded); errors name a cell as (item, annotator)."""
        return _loaders().wide_table(df, categories)

    @classmethod
    def from_counts(cls, table, categories: Sequence | None = None) -> "Annotations":
        """From an items × categories table of counts (Fleiss' layout).

        Annotator identities are unknown in this layout, so measures that need
        them (Cohen's κ, Davies–Fleiss κ, pairwise matrices) refuse such data. The
        counts are kept as counts (one rating row per non-zero cell, ``rating_count``);
        annotators are numbered 1 … the most ratings of an item.
        """
        return _loaders().counts_table(table, categories)

    @classmethod
    def from_contingency(cls, matrix, categories: Sequence | None = None,
                         annotators: Sequence = ("A", "B")) -> "Annotations":
        """From a two-annotator contingency table: ``matrix[i, j]`` items that the
        first annotator put in category i and the second in category j. The counts are
        kept as counts: one item row per non-zero cell, named (category of the first,
        category of the second), with ``item_weight`` its count."""
        return _loaders().contingency_table(matrix, categories, annotators)


def _loaders():
    """:mod:`.loaders`, loaded by name on first use: it builds Annotations (so it imports
    this module), and the constructors above hand their table to it without an import
    cycle."""
    return import_module(f"{__package__}.loaders")


def _raters(m: int) -> pd.Index:
    """Anonymous annotators 1 … m of data from per-item counts (m: most ratings of an item;
    a range, whatever m)."""
    return pd.RangeIndex(1, m + 1, name="annotator")


def noted(ann: Annotations, note: str, params: dict) -> tuple[str, dict]:
    """A result's note and params with what its data says of itself: the data's notes,
    and how many blank labels (missing ratings) it had, if any."""
    note = "; ".join(filter(None, (note, *ann.notes)))
    return note, ({**params, "blank_labels": ann.n_blank} if ann.n_blank else params)
