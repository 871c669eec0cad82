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

from .errors import AgreementError, rows_text

__all__ = ["Annotations", "as_annotations", "read_csv"]


@dataclass(frozen=True, eq=False)
class Annotations:
    """Ratings of items by annotators, one entry per rating, integer-coded.

    ``item``, ``annotator``, ``label`` and ``rank`` are parallel int arrays (codes
    into ``items``, ``annotators`` and ``categories``; rank 1 is a primary label,
    2 a secondary one). ``anonymous`` marks data built from per-item counts, where
    annotator identities are unknown. Build one with a loader, never by hand:
    :meth:`from_long`, :meth:`from_wide`, :meth:`from_counts`,
    :meth:`from_contingency` or :func:`read_csv`.
    """

    item: np.ndarray
    annotator: np.ndarray
    label: np.ndarray
    rank: np.ndarray
    items: pd.Index
    annotators: pd.Index
    categories: pd.Index
    anonymous: bool = False

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
    def has_secondary(self) -> bool:
        return bool(np.any(self.rank == 2))

    def __repr__(self) -> str:
        sec = f", {int(np.sum(self.rank == 2))} secondary" if self.has_secondary else ""
        return (f"Annotations({self.n_items} items, {self.n_annotators} annotators, "
                f"{self.n_categories} categories, {self.n_ratings} ratings{sec})")

    # ------------------------------------------------------------- views
    def primary(self) -> "Annotations":
        """The primary (rank 1) labels only."""
        if not self.has_secondary:
            return self
        return self._take(self.rank == 1)

    def _take(self, keep: np.ndarray) -> "Annotations":
        return Annotations(self.item[keep], self.annotator[keep], self.label[keep],
                           self.rank[keep], self.items, self.annotators,
                           self.categories, self.anonymous)

    def label_matrix(self) -> np.ndarray:
        """Items × annotators matrix of primary category codes, -1 where missing."""
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
        return Annotations(self.item[keep], new[keep], self.label[keep], self.rank[keep],
                           self.items, self.annotators[codes], self.categories,
                           self.anonymous)

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
        """Tidy table: item, annotator, label (and rank when there are secondary labels)."""
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
        else the sorted distinct labels.
        """
        if not isinstance(df, pd.DataFrame):
            raise AgreementError(f"expected a pandas DataFrame, got {type(df).__name__}")
        wanted = [c for c in (item, annotator, label, rank) if c is not None]
        missing = [c for c in wanted if c not in df.columns]
        if missing:
            raise AgreementError(f"column(s) {missing!r} not found; the table has columns "
                                 f"{list(df.columns)!r} (name them with item=, annotator=, "
                                 "label= and rank=)")
        if len(df) == 0:
            raise AgreementError("the table is empty: at least two annotators must rate an item")
        factorized = {}  # one hash pass per column: codes (−1 where missing) and names
        for col in (item, annotator):
            factorized[col] = _factorize(df[col].to_numpy())
            bad = np.flatnonzero(factorized[col][0] < 0)
            if len(bad):
                raise AgreementError(f"column {col!r} is missing at row(s) "
                                     f"{rows_text(df.index[bad])}")
        labels = df[label]
        if rank is not None and labels.dtype == object:
            _refuse_pairs(labels)
        if rank is None and labels.dtype == object:
            labels, ranks, rowpos = _expand_pairs(labels)
        else:
            rowpos = None
            ranks = np.ones(len(df), np.int8) if rank is None else _check_ranks(df[rank])
        identity = rowpos is None  # no (primary, secondary) cell was expanded
        index = df.index if identity else df.index[rowpos]
        _check_no_nan(labels, label, index)
        codes, cats = _label_codes(labels, categories, label, index)
        item_codes, item_names = factorized[item]
        ann_codes, ann_names = factorized[annotator]
        if not identity:
            item_codes, ann_codes = item_codes[rowpos], ann_codes[rowpos]
        out = cls(_owned(item_codes, np.int64), _owned(ann_codes, np.int64), _owned(codes, np.int64),
                  _owned(ranks, np.int8), pd.Index(item_names, name=item),
                  pd.Index(ann_names, name=annotator), cats)
        _validate(out, index)
        return out

    @classmethod
    def from_wide(cls, df: pd.DataFrame, categories: Sequence | None = None) -> "Annotations":
        """From an items × annotators table (the index names items, the columns
        annotators); NaN or None marks a missing rating. A cell may hold a
        ``(primary, secondary)`` pair. A row with no rating at all stays an item (the
        measures count it as excluded); errors name a cell as (item, annotator)."""
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
            categories = df.dtypes.iloc[0].categories
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
        out = cls.from_long(long, categories=categories)
        if out.n_items < len(df):  # keep the rows nobody rated: counted, never dropped
            rows = df.index.get_indexer(out.items)
            out = replace(out, item=rows[out.item], items=pd.Index(df.index, name="item"))
        return out

    @classmethod
    def from_counts(cls, table, categories: Sequence | None = None) -> "Annotations":
        """From an items × categories table of counts (Fleiss' layout).

        Annotator identities are unknown in this layout, so measures that need
        them (Cohen's κ, Davies–Fleiss κ, pairwise matrices) refuse such data.
        """
        if isinstance(table, pd.DataFrame):
            categories = table.columns if categories is None else categories
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
        per_item = counts.sum(axis=1)
        item = np.repeat(np.arange(counts.shape[0]), per_item)
        label = np.repeat(np.tile(np.arange(counts.shape[1]), counts.shape[0]), counts.ravel())
        starts = np.concatenate([[0], np.cumsum(per_item)[:-1]])
        annotator = np.arange(len(item)) - np.repeat(starts, per_item)
        if len(item) == 0:
            raise AgreementError("the counts table holds no ratings")
        m = int(per_item.max())
        if m < 2:
            raise AgreementError("every item of the counts table holds at most one rating; "
                                 "agreement needs items rated at least twice")
        return cls(item, annotator.astype(np.int64), label, np.ones(len(item), np.int8),
                   pd.Index(item_names, name="item"),
                   pd.Index([f"rater {k + 1}" for k in range(m)], name="annotator"),
                   cats, anonymous=True)

    @classmethod
    def from_contingency(cls, matrix, categories: Sequence | None = None,
                         annotators: Sequence = ("A", "B")) -> "Annotations":
        """From a two-annotator contingency table: ``matrix[i, j]`` items that the
        first annotator put in category i and the second in category j."""
        if isinstance(matrix, pd.DataFrame):
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
        cells = np.repeat(np.arange(k * k), m.astype(np.int64).ravel())
        n = len(cells)
        if n == 0:
            raise AgreementError("the contingency table holds no items")
        item = np.concatenate([np.arange(n), np.arange(n)])
        annotator = np.repeat([0, 1], n)
        label = np.concatenate([cells // k, cells % k])
        return cls(item, annotator, label, np.ones(2 * n, np.int8),
                   pd.RangeIndex(n, name="item"), pd.Index(list(annotators), name="annotator"),
                   cats)


def as_annotations(data, **loader_args) -> Annotations:
    """Accept an :class:`Annotations` or a tidy DataFrame (see :meth:`Annotations.from_long`)."""
    if isinstance(data, Annotations):
        if loader_args:
            raise AgreementError(f"loader options {sorted(loader_args)} apply to a DataFrame, "
                                 "not to Annotations")
        return data
    if isinstance(data, pd.DataFrame):
        return Annotations.from_long(data, **loader_args)
    raise AgreementError(f"expected Annotations or a tidy DataFrame (item, annotator, label), "
                         f"got {type(data).__name__}; see Annotations.from_wide, from_counts "
                         "and from_contingency for other layouts")


def read_csv(path: str | PathLike, layout: str = "long", categories: Sequence | None = None,
             item: str = "item", annotator: str = "annotator", label: str = "label",
             rank: str | None = None, **read_args) -> Annotations:
    """Read ratings from a CSV file: ``layout="long"`` (one row per rating) or
    ``"wide"`` (first column items, one column per annotator)."""
    if layout == "long":
        return Annotations.from_long(pd.read_csv(path, **read_args), item, annotator, label,
                                     rank, categories)
    if layout == "wide":
        return Annotations.from_wide(pd.read_csv(path, index_col=0, **read_args), categories)
    raise AgreementError(f"layout must be 'long' or 'wide', got {layout!r}")


# ---------------------------------------------------------------- helpers
def _expand_pairs(labels: pd.Series):
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
                             f"row(s) {rows_text(labels.index[bad])} hold {lengths[bad[0]]}")
    flat = [x for v, s in zip(values, is_seq) for x in (v if s else (v,))]
    rowpos = np.repeat(np.arange(len(values)), lengths)
    ranks = (np.arange(len(flat)) - np.repeat(np.cumsum(lengths) - lengths, lengths) + 1)
    return pd.Series(flat, dtype=object), ranks.astype(np.int8), rowpos


def _no_sequences(values: np.ndarray) -> bool:
    """True when an object array holds only scalars (a C-speed type scan, no Python loop)."""
    return pd.api.types.infer_dtype(values, skipna=True) in (
        "string", "bytes", "integer", "floating", "mixed-integer-float", "decimal", "boolean",
        "datetime", "date", "time", "timedelta", "empty")


def _refuse_pairs(labels: pd.Series) -> None:
    """With a rank column, a label cell holds one label, never a (primary, secondary) pair."""
    if _no_sequences(labels.to_numpy()):
        return
    is_seq = np.fromiter((isinstance(v, (tuple, list)) for v in labels.to_numpy()), bool,
                         len(labels))
    if is_seq.any():
        raise AgreementError(f"with a rank column each row holds one label, but row(s) "
                             f"{rows_text(labels.index[is_seq])} hold a sequence; give one "
                             "row per label, or drop rank= to use (primary, secondary) cells")


def _check_ranks(col: pd.Series) -> np.ndarray:
    r = pd.to_numeric(col, errors="coerce").to_numpy()
    bad = np.flatnonzero(~np.isin(r, (1, 2)))
    if len(bad):
        raise AgreementError(f"rank must be 1 (primary) or 2 (secondary); row(s) "
                             f"{rows_text(col.index[bad])} hold {col.iloc[bad[0]]!r}")
    return r.astype(np.int8)


def _owned(codes: np.ndarray, dtype) -> np.ndarray:
    """``codes`` as ``dtype``, never a view of the user's table (codes equal to the ids
    are the column itself): a later edit of the table must not change the ratings."""
    if codes.base is not None or not codes.flags.owndata:
        return np.array(codes, dtype=dtype)
    return codes.astype(dtype, copy=False)


def _check_no_nan(labels: pd.Series, name: str, index) -> None:
    bad = np.flatnonzero(pd.isna(labels).to_numpy())
    if len(bad):
        raise AgreementError(f"column {name!r} has missing labels at row(s) "
                             f"{rows_text(index[bad])}; drop those rows (a missing rating "
                             "is a row that is absent, never a NaN category)")


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
    shifted = values - lo if lo else values
    present = np.zeros(hi - lo + 1, dtype=bool)
    head = shifted[:1 << 14]  # a few labels: every one of them shows up early
    if hi - lowest < len(head) and np.all(np.bincount(head, minlength=hi - lo + 1)[lowest - lo:]):
        present[lowest - lo:] = True
    else:
        present = np.bincount(shifted, minlength=hi - lo + 1) > 0
    return shifted, present, (lo + np.flatnonzero(present)).astype(values.dtype)


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
        return values - values[0], np.arange(first, last + 1).astype(values.dtype)
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
        value_codes, uniques = labels.cat.codes.to_numpy(), labels.cat.categories
    else:
        dense = _dense_ints(labels.to_numpy())
        if dense is None:
            value_codes, uniques = _factorize(labels.to_numpy())
        else:
            value_codes, present, uniques = dense  # codes into the value range
    cats = _declared_categories(labels, categories, uniques)
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
        bad = np.flatnonzero(codes < 0)
        values = pd.unique(labels.to_numpy()[bad])[:5].tolist()
        raise AgreementError(f"column {name!r} holds label(s) {values!r} outside the declared "
                             f"categories {list(cats)!r} at row(s) {rows_text(index[bad])}")
    return codes.astype(np.int64, copy=False), cats


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
    return cats


def _declared_categories(labels: pd.Series, categories, uniques) -> pd.Index:
    if categories is not None:
        return _checked_categories(categories)
    if isinstance(labels.dtype, pd.CategoricalDtype):
        return pd.Index(labels.cat.categories)
    uniques = np.asarray(uniques)
    try:
        return pd.Index(np.sort(uniques))
    except TypeError:  # mixed, unorderable labels keep their order of appearance
        return pd.Index(uniques)


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
        rows = index[np.sort(np.concatenate([order[dup], order[dup + 1]]))]
        what = "a (item, annotator) pair rated more than once" if not ann.has_secondary else \
            "more than one label of the same rank for an (item, annotator)"
        raise AgreementError(f"{what} at row(s) {rows_text(rows)}; keep one rating per pair "
                             "(or give a rank column: 1 primary, 2 secondary)")
    if ann.has_secondary:
        pair = s // 2
        first = np.r_[True, pair[1:] != pair[:-1]]
        orphan = first & (s % 2 == 1)  # a pair whose first slot is a secondary
        if orphan.any():
            raise AgreementError(f"a secondary label without a primary at row(s) "
                                 f"{rows_text(index[order[orphan]])}")
        same = (~first) & (ann.label[order] == np.r_[-1, ann.label[order][:-1]])
        if same.any():
            raise AgreementError(f"a secondary label equal to its primary at row(s) "
                                 f"{rows_text(index[order[same]])}")
    _check_annotators(ann)


def _check_annotators(ann: Annotations) -> None:
    if ann.n_annotators < 2:
        raise AgreementError(f"only one annotator ({ann.annotators[0]!r}); agreement needs at "
                             "least two")
