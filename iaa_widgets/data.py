"""Annotations: validated, integer-coded categorical ratings, and their loaders.

Every measure works on an :class:`Annotations`: one row per rating, stored as
integer codes (item, annotator, category, rank) beside the names they stand for.
Categories keep a declared order, which ordinal metrics and Bennett's S need.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from os import PathLike
from typing import Sequence

import numpy as np
import pandas as pd

from .csvfile import NA_VALUES, Lines, read_frame, rows_or_lines as _rows
from . import validate
from .errors import AgreementError
from .labels import (LookAlikeLabelsWarning, blank_labels, look_alike_note, merged_labels,
                     warn_from_caller)

__all__ = ["Annotations", "as_annotations", "read_csv"]

# most rows a table of counts is expanded into for code that reads single ratings
EXPANSION_LIMIT = 10_000_000


@dataclass(frozen=True, eq=False)
class Annotations:
    """Ratings of items by annotators, one entry per rating, integer-coded.

    ``item``, ``annotator``, ``label`` and ``rank`` are parallel int arrays (codes
    into ``items``, ``annotators`` and ``categories``; rank 1 is a primary label,
    2 a secondary one). ``anonymous`` marks data built from per-item counts, where
    annotator identities are unknown. ``ordered`` says that the order of ``categories``
    was given by someone (numeric or boolean labels, an ordered pandas Categorical, or
    ``categories=``), so that ordinal metrics and linear/quadratic weights may use it;
    an order found by sorting text never counts. Build one with a loader, never by hand:
    :meth:`from_long`, :meth:`from_wide`, :meth:`from_counts`,
    :meth:`from_contingency` or :func:`read_csv`.

    Counts stay counts: ``item_weight[i]`` is how many identical items row i of
    ``items`` stands for (:meth:`from_contingency`: one item per non-zero cell) and
    ``rating_count[r]`` how many identical anonymous ratings rating r stands for
    (:meth:`from_counts`: one rating per non-zero cell); None means 1. ``n_items`` and
    ``n_ratings`` count rows, ``total_items`` and ``total_ratings`` what they stand
    for; code that reads single ratings calls :meth:`expanded` first.

    ``notes`` say what every result computed from this data should report (look-alike
    labels, blank labels, cells a file reader made missing); ``n_blank`` is how many
    rows had a blank label (NaN, None, '' or whitespace only): missing ratings, whose
    item and annotator stay known.
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

    def category_values(self) -> np.ndarray:
        """The categories as numbers (interval and ratio metrics need them)."""
        try:
            values = np.asarray(self.categories, dtype=float)
        except (TypeError, ValueError):
            raise AgreementError(
                f"this metric needs numeric categories, got {list(self.categories)[:8]!r}; "
                "code the labels as numbers or pass a distance matrix") from None
        if not np.all(np.isfinite(values)):
            raise AgreementError("categories must be finite numbers for this metric")
        return values

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
    def from_long(cls, df: pd.DataFrame, item: str = "item", annotator: str = "annotator",
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
        return cls._from_long(df, item, annotator, label, rank, categories)

    @classmethod
    def _from_long(cls, df, item="item", annotator="annotator", label="label", rank=None,
                   categories=None, rows=None, subject=None,
                   notes: tuple = ()) -> "Annotations":
        """:meth:`from_long`, with errors naming rows through ``rows`` (an index, or the
        lines of a file), notes calling the labels ``subject``, and earlier ``notes``."""
        if not isinstance(df, pd.DataFrame):
            raise _not_a_frame(df, "a tidy pandas DataFrame (item, annotator, label)")
        wanted = [c for c in (item, annotator, label, rank) if c is not None]
        missing = [c for c in wanted if c not in df.columns]
        if missing:
            raise AgreementError(f"column(s) {missing!r} not found; the table has columns "
                                 f"{list(df.columns)!r} (name them with item=, annotator=, "
                                 "label= and rank=)")
        if len(df) == 0:
            raise AgreementError("the table is empty: at least two annotators must rate an item")
        rows = df.index if rows is None else rows
        factorized = {}  # one hash pass per column: codes (−1 where missing) and names
        for col in (item, annotator):
            factorized[col] = _column_codes(df[col])
            bad = np.flatnonzero(factorized[col][0] < 0)
            if len(bad):
                raise AgreementError(f"column {col!r} is missing at {_rows(rows, bad)}")
        labels = df[label]
        if rank is not None and labels.dtype == object:
            _refuse_pairs(labels, rows)
        if rank is None and labels.dtype == object:
            labels, ranks, rowpos = _expand_pairs(labels, rows)
        else:
            rowpos = None
            ranks = np.ones(len(df), np.int8) if rank is None else _check_ranks(df[rank], rows)
        identity = rowpos is None  # no (primary, secondary) cell was expanded
        index = rows if identity else rows[rowpos]
        codes, cats, ordered = _label_codes(labels, categories, label, index)
        item_codes, item_names = factorized[item]
        ann_codes, ann_names = factorized[annotator]
        if not identity:
            item_codes, ann_codes = item_codes[rowpos], ann_codes[rowpos]
        merged = merged_labels(labels.to_numpy(), codes, cats) \
            if labels.dtype == object else []  # True, 1 and 1.0: one code
        rated = codes >= 0 if codes.min() < 0 else None  # a blank label: a missing rating
        n_blank = 0 if rated is None else len(codes) - int(np.count_nonzero(rated))
        if n_blank:  # its item and annotator stay known
            item_codes, ann_codes, codes, ranks = (
                x[rated] for x in (item_codes, ann_codes, codes, ranks))
            index = index[rated]
        subject = f"column {label!r}" if subject is None else subject
        out = cls(_owned(item_codes, np.int64), _owned(ann_codes, np.int64), _owned(codes, np.int64),
                  _owned(ranks, np.int8), pd.Index(item_names, name=item),
                  pd.Index(ann_names, name=annotator), cats, ordered=ordered,
                  notes=notes + _label_notes(cats, subject, n_blank, merged), n_blank=n_blank)
        _validate(out, index)
        return out

    @classmethod
    def from_wide(cls, df: pd.DataFrame, categories: Sequence | None = None) -> "Annotations":
        """From an items × annotators table (the index names items, the columns
        annotators); NaN, None, '' or whitespace marks a missing rating. A cell may hold a
        ``(primary, secondary)`` pair. A row with no rating at all stays an item (the
        measures count it as excluded); errors name a cell as (item, annotator)."""
        return cls._from_wide(df, categories)

    @classmethod
    def _from_wide(cls, df, categories=None, file: tuple | None = None,
                   notes: tuple = ()) -> "Annotations":
        """:meth:`from_wide`; ``file``: (source, read_args) of a CSV file, whose lines
        errors name; ``notes``: earlier notes on the data."""
        if type(df).__module__.split(".")[0] in _FOREIGN_FRAMES:
            raise _not_a_frame(df, "an items × annotators table (pandas DataFrame or array)")
        if not isinstance(df, pd.DataFrame):
            df = pd.DataFrame(df)
        if df.shape[1] == 0 or df.shape[0] == 0:
            raise AgreementError("the table is empty: rows are items, columns annotators")
        for axis, what in ((df.columns, "annotator column"), (df.index, "item row")):
            if not axis.is_unique:
                dup = axis[axis.duplicated()].unique().tolist()
                raise AgreementError(f"{what}(s) {dup[:5]!r} appear more than once; give each "
                                     f"{what.split()[0]} one {what.split()[1]}")
        dtypes = set(df.dtypes)
        if categories is None and len(dtypes) == 1 and \
                isinstance(df.dtypes.iloc[0], pd.CategoricalDtype):
            categories = df.dtypes.iloc[0]  # its categories, ordered or not
        if len(dtypes) == 1 and isinstance(df.dtypes.iloc[0], np.dtype) and \
                df.dtypes.iloc[0].kind in "iuf":
            values = df.to_numpy()  # one numeric dtype: no Python object per cell
        else:
            values = df.astype(object).to_numpy()
        present = ~pd.isna(values)
        r, c = np.nonzero(present)
        cells = pd.MultiIndex(levels=[df.index, df.columns], codes=[r, c],
                              names=["item", "annotator"], verify_integrity=False)
        long = pd.DataFrame({"item": df.index.to_numpy()[r],
                             "annotator": df.columns.to_numpy()[c],
                             "label": values[r, c]}, index=cells)
        lines = None if file is None else Lines(*file, long["item"].to_numpy(),
                                                long["annotator"].to_numpy(), records=r)
        out = cls._from_long(long, categories=categories, rows=lines, notes=notes,
                             subject="the table's cells")
        if out.n_items < len(df):  # keep the rows nobody rated: counted, never dropped
            rows = df.index.get_indexer(out.items)
            out = replace(out, item=rows[out.item], items=pd.Index(df.index, name="item"))
        return out

    @classmethod
    def from_counts(cls, table, categories: Sequence | None = None) -> "Annotations":
        """From an items × categories table of counts (Fleiss' layout).

        Annotator identities are unknown in this layout, so measures that need
        them (Cohen's κ, Davies–Fleiss κ, pairwise matrices) refuse such data. The
        counts are kept as counts (one rating row per non-zero cell, ``rating_count``);
        annotators are numbered 1 … the most ratings of an item.
        """
        ordered = _order_given(categories)
        if isinstance(table, pd.DataFrame):
            categories = table.columns if categories is None else categories
            ordered = ordered or _order_given(table.columns, axis=True)
            item_names = table.index
            counts = table.to_numpy()
        else:
            counts = np.asarray(table)
            item_names = pd.RangeIndex(counts.shape[0]) if counts.ndim == 2 else None
        if counts.ndim != 2 or counts.size == 0:
            raise AgreementError("counts must be a non-empty 2-D table: items × categories")
        if not _whole_counts(counts):
            raise AgreementError("counts must be non-negative whole numbers")
        counts = counts.astype(np.int64)
        cats = _checked_categories(range(counts.shape[1]) if categories is None else categories)
        if len(cats) != counts.shape[1]:
            raise AgreementError(f"{len(cats)} categories given for {counts.shape[1]} columns")
        _check_total(counts)
        item, label = np.nonzero(counts)  # one rating row per non-zero cell, item-major
        if len(item) == 0:
            raise AgreementError("the counts table holds no ratings")
        m = int(counts.sum(axis=1).max())
        if m < 2:
            raise AgreementError("every item of the counts table holds at most one rating; "
                                 "agreement needs items rated at least twice")
        cells = np.bincount(item, minlength=counts.shape[0])  # rows per item
        annotator = np.arange(len(item)) - np.repeat(np.cumsum(cells) - cells, cells)
        return cls(item.astype(np.int64), annotator, label.astype(np.int64),
                   np.ones(len(item), np.int8), pd.Index(item_names, name="item"),
                   _raters(m), cats, anonymous=True,
                   ordered=ordered or cats.inferred_type in NUMERIC,
                   rating_count=counts[item, label])

    @classmethod
    def from_contingency(cls, matrix, categories: Sequence | None = None,
                         annotators: Sequence = ("A", "B")) -> "Annotations":
        """From a two-annotator contingency table: ``matrix[i, j]`` items that the
        first annotator put in category i and the second in category j. The counts are
        kept as counts: one item row per non-zero cell, named (category of the first,
        category of the second), with ``item_weight`` its count."""
        ordered = _order_given(categories)
        if isinstance(matrix, pd.DataFrame):
            ordered = ordered or _order_given(matrix.index, axis=True)
            rows, cols = matrix.index, matrix.columns
            if not cols.equals(rows) and not cols.equals(pd.RangeIndex(len(cols))):
                if len(cols) != len(rows) or set(cols) != set(rows):
                    raise AgreementError(f"the rows name categories {list(rows)!r} but the "
                                         f"columns {list(cols)!r}; label both with the same "
                                         "categories")
                matrix = matrix[rows]  # the columns in the order of the rows
            categories = rows if categories is None else categories
            matrix = matrix.to_numpy()
        m = np.asarray(matrix)
        if m.ndim != 2 or m.shape[0] != m.shape[1] or m.size == 0:
            raise AgreementError(f"a contingency table must be square, got shape {m.shape}")
        if not _whole_counts(m):
            raise AgreementError("contingency counts must be non-negative whole numbers")
        k = m.shape[0]
        cats = _checked_categories(range(k) if categories is None else categories)
        if len(cats) != k:
            raise AgreementError(f"{len(cats)} categories given for a {k}×{k} table")
        if len(annotators) != 2 or annotators[0] == annotators[1]:
            raise AgreementError("annotators must name two different annotators")
        m = m.astype(np.int64)
        _check_total(m)
        first, second = np.nonzero(m)  # one item per non-zero cell, row-major
        n = len(first)
        if n == 0:
            raise AgreementError("the contingency table holds no items")
        item = np.concatenate([np.arange(n), np.arange(n)])
        annotator = np.repeat(np.arange(2), n)
        label = np.concatenate([first, second]).astype(np.int64)
        cells = pd.MultiIndex.from_arrays([cats.take(first), cats.take(second)],
                                          names=[str(a) for a in annotators])
        return cls(item, annotator, label, np.ones(2 * n, np.int8), cells,
                   pd.Index(list(annotators), name="annotator"), cats,
                   ordered=ordered or cats.inferred_type in NUMERIC, item_weight=m[first, second])


def as_annotations(data, **loader_args) -> Annotations:
    """Accept an :class:`Annotations` or a tidy DataFrame (see :meth:`Annotations.from_long`)."""
    if isinstance(data, Annotations):
        if loader_args:
            raise AgreementError(f"loader options {sorted(loader_args)} apply to a DataFrame, "
                                 "not to Annotations")
        return data
    if isinstance(data, pd.DataFrame):
        return Annotations.from_long(data, **loader_args)
    raise _not_a_frame(data, "Annotations or a tidy DataFrame (item, annotator, label)")


def noted(ann: Annotations, note: str, params: dict) -> tuple[str, dict]:
    """A result's note and params with what its data says of itself: the data's notes,
    and how many blank labels (missing ratings) it had, if any."""
    note = "; ".join(filter(None, (note, *ann.notes)))
    return note, ({**params, "blank_labels": ann.n_blank} if ann.n_blank else params)


# frame libraries by top-level module, and how to make a pandas DataFrame of their tables
_FOREIGN_FRAMES = {"polars": "df.to_pandas()", "pyarrow": "table.to_pandas()",
                   "dask": "df.compute()", "pyspark": "df.toPandas()", "duckdb": "rel.df()",
                   "modin": "df._to_pandas()", "cudf": "df.to_pandas()",
                   "ibis": "table.to_pandas()", "narwhals": "df.to_pandas()",
                   "vaex": "df.to_pandas_df()"}


def _not_a_frame(data, expected: str) -> AgreementError:
    """What a loader accepts, and how to get there from what it was given."""
    kind = type(data)
    module = kind.__module__.split(".")[0]
    if module in _FOREIGN_FRAMES:
        hint = f"convert it first: {_FOREIGN_FRAMES[module]}"
    elif isinstance(data, dict):
        hint = ("make it a table: pd.DataFrame(data) with columns item, annotator, label "
                "(or Annotations.from_wide for {annotator: labels per item})")
    elif isinstance(data, (list, tuple)):
        hint = "make it a table: pd.DataFrame(rows, columns=['item', 'annotator', 'label'])"
    elif isinstance(data, np.ndarray):
        hint = ("an array has no column names: Annotations.from_wide(array) reads items × "
                "annotators, from_counts items × categories, from_contingency a K × K table")
    else:
        hint = "see Annotations.from_wide, from_counts and from_contingency for other layouts"
    name = kind.__name__ if module == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    return AgreementError(f"expected {expected}, got {name}; {hint}")


def read_csv(path: str | PathLike, layout: str = "long", categories: Sequence | None = None,
             item: str = "item", annotator: str = "annotator", label: str = "label",
             rank: str | None = None, na_values: Sequence[str] = NA_VALUES,
             **read_args) -> Annotations:
    """Read ratings from a CSV file: ``layout="long"`` (one row per rating) or
    ``"wide"`` (first column items, one column per annotator).

    ``na_values``: the cell texts read as missing, by default only the empty cell
    (``("",)``), so that "NA", "None", "null" and "nan" stay labels (pass
    ``keep_default_na=True`` for pandas' own list; None: no text). A blank or
    whitespace-only label is a missing rating in both layouts; the ``notes`` of the
    Annotations (and the ``note`` of every result) say how many cells were read as
    missing. Errors name the file and the line (the header is
    line 1) with the item and annotator; a file not in UTF-8 needs ``encoding=``.
    Other keyword arguments go to :func:`pandas.read_csv`.
    """
    validate.choice("read_csv", "layout", layout, ("long", "wide"))
    if not (na_values is None or isinstance(na_values, str) or (
            isinstance(na_values, (list, tuple, set)) and all(isinstance(v, str)
                                                               for v in na_values))):
        validate.fail("read_csv", "na_values", "None, a text or a list of texts", na_values)
    na_values = () if na_values is None else (na_values,) if isinstance(na_values, str) \
        else tuple(na_values)
    if layout == "wide":
        frame, note = read_frame(path, na_values, None, read_args, index_col=0)
        return Annotations._from_wide(frame, categories, file=(path, read_args),
                                      notes=(note,) if note else ())
    frame, note = read_frame(path, na_values, label, read_args)
    lines = Lines(path, read_args, frame.get(item), frame.get(annotator))  # None: not found
    return Annotations._from_long(frame, item, annotator, label, rank, categories,
                                  rows=lines, notes=(note,) if note else ())


# ---------------------------------------------------------------- helpers
def _expand_pairs(labels: pd.Series, rows):
    """Expand ``(primary, secondary)`` cells into two ranked ratings (labels, ranks and
    each rating's row position, None when no cell held a pair)."""
    values = labels.to_numpy()
    if _no_sequences(values):
        return labels, np.ones(len(values), np.int8), None
    is_seq = np.fromiter((isinstance(v, (tuple, list)) for v in values), bool, len(values))
    if not is_seq.any():
        return labels, np.ones(len(values), np.int8), None
    lengths = np.where(is_seq, [len(v) if s else 1 for v, s in zip(values, is_seq)], 1)
    if np.any(lengths > 2) or np.any(lengths == 0):
        bad = np.flatnonzero((lengths > 2) | (lengths == 0))
        raise AgreementError(f"a label cell holds one label or a (primary, secondary) pair; "
                             f"{_rows(rows, bad)} hold {lengths[bad[0]]}")
    flat = [x for v, s in zip(values, is_seq) for x in (v if s else (v,))]
    rowpos = np.repeat(np.arange(len(values)), lengths)
    ranks = (np.arange(len(flat)) - np.repeat(np.cumsum(lengths) - lengths, lengths) + 1)
    return pd.Series(flat, dtype=object), ranks.astype(np.int8), rowpos


def _no_sequences(values: np.ndarray) -> bool:
    """True when an object array holds only scalars (a C-speed type scan, no Python loop)."""
    return pd.api.types.infer_dtype(values, skipna=True) in (
        "string", "bytes", "integer", "floating", "mixed-integer-float", "decimal", "boolean",
        "datetime", "date", "time", "timedelta", "empty")


def _refuse_pairs(labels: pd.Series, rows) -> None:
    """With a rank column, a label cell holds one label, never a (primary, secondary) pair."""
    if _no_sequences(labels.to_numpy()):
        return
    is_seq = np.fromiter((isinstance(v, (tuple, list)) for v in labels.to_numpy()), bool,
                         len(labels))
    if is_seq.any():
        raise AgreementError(f"with a rank column each row holds one label, but "
                             f"{_rows(rows, np.flatnonzero(is_seq))} hold a sequence; give one "
                             "row per label, or drop rank= to use (primary, secondary) cells")


def _check_ranks(col: pd.Series, rows) -> np.ndarray:
    r = pd.to_numeric(col, errors="coerce").to_numpy()
    bad = np.flatnonzero(~np.isin(r, (1, 2)))
    if len(bad):
        raise AgreementError(f"rank must be 1 (primary) or 2 (secondary); "
                             f"{_rows(rows, bad)} hold {col.iloc[bad[0]]!r}")
    return r.astype(np.int8)


def _owned(codes: np.ndarray, dtype) -> np.ndarray:
    """``codes`` as ``dtype``, never a view of the user's table (codes equal to the ids
    are the column itself): a later edit of the table must not change the ratings."""
    if codes.base is not None or not codes.flags.owndata:
        return np.array(codes, dtype=dtype)
    return codes.astype(dtype, copy=False)


def _label_notes(cats: pd.Index, subject: str, n_blank: int, merged) -> tuple[str, ...]:
    """Notes on the labels: blank ones counted as missing, look-alikes (also a warning)."""
    notes = ()
    if n_blank:
        notes += (f"{n_blank} blank label(s) (NaN, None, '' or whitespace only) in "
                  f"{subject} count as missing ratings",)
    look_alike = look_alike_note(cats, subject, merged)
    if look_alike:
        warn_from_caller(look_alike, LookAlikeLabelsWarning)
        notes += (look_alike,)
    return notes


def _blank_as_missing(codes: np.ndarray, uniques):
    """Blank distinct labels ('' or whitespace only) become missing (code −1)."""
    if getattr(uniques, "dtype", None) != object:
        return codes, uniques
    blank = blank_labels(uniques)
    if not blank.any():
        return codes, uniques
    remap = np.append(np.where(blank, -1, np.cumsum(~blank) - 1), -1)  # [-1]: missing stays
    return remap[codes], uniques[~blank]


def _dense_ints(values: np.ndarray):
    """(values − lowest, which values of the range occur, the distinct values) for
    integers in a compact range, else None: one bincount instead of a hash table."""
    if values.dtype.kind not in "iu" or values.dtype == np.uint64 or len(values) == 0:
        return None
    lowest, hi = int(values.min()), int(values.max())
    limit = 4 * len(values) + 1024
    if hi - lowest > limit:
        return None
    lo = 0 if 0 < lowest and hi <= limit else lowest  # small positive ids need no shift
    # in intp: values − lo and the codes' running maximum + 1 overflow int8/int16/uint8
    shifted = np.subtract(values, lo, dtype=np.intp) if lo else values.astype(np.intp, copy=False)
    present = np.zeros(hi - lo + 1, dtype=bool)
    head = shifted[:1 << 14]  # a few labels: every one of them shows up early
    if hi - lowest < len(head) and np.all(np.bincount(head, minlength=hi - lo + 1)[lowest - lo:]):
        present[lowest - lo:] = True
    else:
        present = np.bincount(shifted, minlength=hi - lo + 1) > 0
    return shifted, present, (lo + np.flatnonzero(present)).astype(values.dtype)


def _arrow_strings(col: pd.Series) -> bool:
    """Strings that pandas keeps in Arrow (its default with pyarrow installed, pandas 3)."""
    return getattr(col.dtype, "storage", None) == "pyarrow" or (
        isinstance(col.dtype, pd.ArrowDtype) and col.dtype.kind in "OSU")


def _column_codes(col: pd.Series):
    """Codes (−1 where missing) and distinct values of a column in one hash pass:
    Arrow-backed strings take Arrow's dictionary encoding, with no Python object per
    row; any other column goes through :func:`_factorize`."""
    if _arrow_strings(col):
        codes, uniques = pd.factorize(col)
        return np.asarray(codes), np.asarray(uniques, dtype=object)
    return _factorize(col.to_numpy())


def _factorize(values: np.ndarray):
    """``pd.factorize`` (codes in order of first appearance); sorted integer ids are
    coded from their steps, and integer ids whose first appearances come in increasing
    order take a dense look-up table instead of hashing."""
    if values.dtype.kind in "iu" and len(values) and \
            np.all(values[1:17] >= values[:16][:len(values) - 1]) and \
            np.all(values[1:] >= values[:-1]):
        return _sorted_codes(values)
    dense = _dense_ints(values)
    if dense is not None:
        shifted, present, uniques = dense
        codes = shifted if present.all() else (np.cumsum(present) - 1)[shifted]  # 0..n−1: as is
        # first appearances increase if the ids are sorted, or, generally, iff every code
        # exceeds the running maximum before it by at most 1
        if np.all(values[1:] >= values[:-1]) or (codes[0] == 0 and np.all(
                codes[1:] <= np.maximum.accumulate(codes)[:-1] + 1)):
            return codes, uniques
    if values.dtype == object and len(values):
        # hash the object pointers (ints: fast), then the few distinct objects (equal
        # values at different addresses merge there; None/NaN become −1 as in pd.factorize)
        values = np.ascontiguousarray(values)  # a sliced or reversed column is strided
        ptr_codes, ptrs = pd.factorize(np.frombuffer(memoryview(values), dtype=np.intp))
        value_codes, uniques = pd.factorize(values[_first_positions(ptr_codes, len(ptrs))])
        if np.array_equal(value_codes, np.arange(len(ptrs))):  # one object per value
            return ptr_codes, uniques
        return value_codes[ptr_codes], uniques
    return pd.factorize(values)


def _sorted_codes(values: np.ndarray):
    """Codes and distinct values of sorted integers, from where consecutive ids differ."""
    new = np.empty(len(values), dtype=bool)
    new[:1] = True
    np.not_equal(values[1:], values[:-1], out=new[1:])
    n_distinct = np.count_nonzero(new)
    first, last = int(values[0]), int(values[-1])
    if last - first == n_distinct - 1:  # no gaps: the ids, shifted
        return (np.subtract(values, values[0], dtype=np.intp),  # intp: no int8 overflow
                np.arange(first, last + 1).astype(values.dtype))
    return np.cumsum(new) - 1, values[new]


def _first_positions(codes: np.ndarray, n_codes: int) -> np.ndarray:
    """Where each code first appears, for codes numbered in order of first appearance:
    found in a growing prefix (few distinct values show up early), else by one scan."""
    length = 1 << 12
    while length < len(codes):
        found, where = np.unique(codes[:length], return_index=True)
        if len(found) == n_codes:
            return where
        length <<= 3
    return np.flatnonzero(np.diff(np.maximum.accumulate(codes), prepend=-1))


def _label_codes(labels: pd.Series, categories, name: str, index):
    """The declared categories and each label's code, from one pass over the labels."""
    dense = None
    if isinstance(labels.dtype, pd.CategoricalDtype):
        blank = blank_labels(labels.cat.categories)
        if blank.any():  # a blank category is a missing label
            labels = labels.cat.remove_categories(labels.cat.categories[blank])
        value_codes, uniques = labels.cat.codes.to_numpy(), labels.cat.categories
    else:
        dense = None if _arrow_strings(labels) else _dense_ints(labels.to_numpy())
        if dense is None:
            value_codes, uniques = _blank_as_missing(*_column_codes(labels))
        else:
            value_codes, present, uniques = dense  # codes into the value range
    missing = None  # where a label is NaN, None or blank: never among dense integers
    if dense is None and value_codes.min() < 0:
        missing = value_codes < 0
        if missing.all():
            raise AgreementError(f"column {name!r} holds no label: all {len(missing)} are "
                                 "missing (NaN, None, '' or whitespace only)")
    cats, ordered = _declared_categories(labels, categories, uniques)
    found = cats.get_indexer(uniques)  # each distinct label looked up once
    lookup = found
    if dense is not None:  # spread over the value range
        lookup = np.full(len(present), -1, np.intp)
        lookup[present] = found
    first = int(np.argmax(lookup >= 0))
    if np.array_equal(lookup[first:first + len(found)], np.arange(len(found))) and \
            len(found) == len(cats) == np.count_nonzero(lookup >= 0):
        codes = value_codes - first if first else value_codes  # codes are the values, shifted
    else:
        codes = lookup[value_codes]
    if np.any(found < 0):  # some label outside the declared categories
        bad = np.flatnonzero(codes < 0 if missing is None else (codes < 0) & ~missing)
        values = pd.unique(labels.to_numpy()[bad])[:5].tolist()
        raise AgreementError(f"column {name!r} holds label(s) {values!r} outside the declared "
                             f"categories {list(cats)!r} at {_rows(index, bad)}")
    if missing is not None:
        codes = np.where(missing, -1, codes)
    return codes.astype(np.int64, copy=False), cats, ordered


def _check_total(counts: np.ndarray) -> None:
    """Counts whose total is exact in float64 sums (≤ 2⁵³), as the statistics add them."""
    if counts.sum(dtype=float) > 2.0 ** 53:
        raise AgreementError(f"the counts add up to {counts.sum(dtype=float):.3g} ratings, "
                             "more than 2⁵³ (9.0e15), beyond exact arithmetic; scale them down")


def _raters(m: int) -> pd.Index:
    """Anonymous annotators 1 … m of data from per-item counts (m: most ratings of an item;
    a range, whatever m)."""
    return pd.RangeIndex(1, m + 1, name="annotator")


def _whole_counts(counts: np.ndarray) -> bool:
    """Finite, non-negative whole numbers (a table of counts)."""
    return np.issubdtype(counts.dtype, np.number) and bool(np.all(np.isfinite(counts))) and \
        not np.any(counts < 0) and not np.any(counts != np.round(counts))


def _checked_categories(categories) -> pd.Index:
    """A declared category set: distinct values, none of them NaN."""
    cats = pd.Index(list(categories))
    if not cats.is_unique:
        raise AgreementError(f"categories must be distinct, got {list(categories)!r}")
    if cats.hasnans:
        raise AgreementError("NaN cannot be a category")
    blank = blank_labels(cats)
    if blank.any():
        raise AgreementError(f"{list(cats[blank])!r} cannot be a category: a blank label "
                             "('' or whitespace only) is a missing rating")
    return cats


# pandas' inferred types of labels whose order is their value (numbers, booleans)
NUMERIC = ("integer", "floating", "mixed-integer-float", "decimal", "boolean")


def _order_given(categories, axis: bool = False) -> bool:
    """Whether ``categories`` carry an order someone gave: any explicit ``categories=``
    list, or a dtype/axis that is an ordered Categorical. The labelled axes of a table
    (``axis=True``) name categories but order them only when ordered: pd.crosstab,
    pivot_table and value_counts sort text or count, nobody chose that order."""
    if isinstance(categories, (pd.CategoricalDtype, pd.CategoricalIndex)):
        return bool(categories.ordered)
    return categories is not None and not axis


def _declared_categories(labels: pd.Series, categories, uniques) -> tuple[pd.Index, bool]:
    """The categories in their order, and whether that order was given by someone
    (``categories=``, an ordered Categorical, numbers); text sorted here never is."""
    dtype = labels.dtype if categories is None else getattr(categories, "dtype", categories)
    if isinstance(dtype, pd.CategoricalDtype):
        cats = pd.Index(dtype.categories)
        if dtype.ordered or cats.inferred_type not in NUMERIC:
            return _checked_categories(cats), bool(dtype.ordered)
        return pd.Index(np.sort(cats.to_numpy())), True  # unordered numbers: by value
    if categories is not None:
        return _checked_categories(categories), True
    uniques = np.asarray(uniques)
    try:
        cats = pd.Index(np.sort(uniques))
    except TypeError:  # mixed, unorderable labels keep their order of appearance
        return pd.Index(uniques), False
    return cats, cats.inferred_type in NUMERIC


def _validate(ann: Annotations, index) -> None:
    """Duplicates, ranks and the number of annotators of a freshly loaded table."""
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
