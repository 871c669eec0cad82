"""Loaders: a tidy table, an items × annotators table, items × categories counts and a
two-annotator contingency table (a CSV file of either layout is read by
:func:`iaa_widgets.io.csv.read_csv`, which calls them)."""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from ..messages import rows_or_lines as _rows
from ..errors import AgreementError
from ..labels import merged_labels
from .annotations import Annotations, _raters
from .categories import NUMERIC, _checked_categories, _label_codes, _label_notes, _order_given
from .cells import _check_ranks, _expand_pairs, _refuse_pairs
from .checks import _check_total, _validate, _whole_counts
from .codes import _column_codes, _factorize, _id_codes, _owned, _in_id_order
from .frames import _FOREIGN_FRAMES, _not_a_frame, tidy_columns


def long_table(df, item="item", annotator="annotator", label="label", rank=None,
               categories=None, rows=None, subject=None,
               notes: tuple = ()) -> Annotations:
    """:meth:`Annotations.from_long`, with errors naming rows through ``rows`` (an index, or the
    lines of a file), notes calling the labels ``subject``, and earlier ``notes``."""
    wanted = [c for c in (item, annotator, label, rank) if c is not None]
    if not isinstance(df, pd.DataFrame):  # polars, Arrow, DuckDB, Dask …: see tidy_columns
        df = tidy_columns(df, wanted)
    missing = [c for c in wanted if c not in df.columns]
    if missing:
        raise AgreementError(f"column(s) {missing!r} not found; the table has columns "
                             f"{list(df.columns)!r} (name them with item=, annotator=, "
                             "label= and rank=)")
    if len(df) == 0:
        raise AgreementError("the table is empty: at least two annotators must rate an item")
    rows = df.index if rows is None else rows
    ids = []  # at most one hash pass per column: codes (−1 where missing) and names
    for col in (item, annotator):
        with _valid_text(col):
            codes, names = _id_codes(df[col])  # names: a pd.Index named col
        _refuse_missing_ids(codes, col, rows)
        ids.append((codes, names))
    with _valid_text(label):
        return _coded_table(*ids, df[label], None if rank is None else df[rank], label,
                            categories, rows, subject, notes)


@contextmanager
def _valid_text(col: str):
    """Text that cannot be encoded as UTF-8 (a lone surrogate, from bytes decoded with
    ``errors="surrogateescape"``) refused by column, not pandas' or Arrow's raw error."""
    try:
        yield
    except UnicodeEncodeError as e:
        raise AgreementError(
            f"column {col!r} holds text that is not valid Unicode: {e.object[e.start:e.end]!r} "
            f"in {e.object!r}; decode the file with errors='replace' (or fix the value) so "
            "that every id and label is text") from None


def _refuse_missing_ids(codes: np.ndarray, col: str, rows) -> None:
    """An item or annotator id is never missing (codes −1: NaN or None)."""
    bad = np.flatnonzero(codes < 0)
    if len(bad):
        raise AgreementError(f"column {col!r} is missing at {_rows(rows, bad)}")


def _coded_table(items: tuple, annotators: tuple, labels: pd.Series, rank, label: str,
                 categories, rows, subject, notes: tuple,
                 unique_cells: bool = False) -> Annotations:
    """Annotations from the ratings' item and annotator (codes, names: pd.Index) and their
    ``labels`` (``rank``: a rank column or None); ``label`` names the label column in
    errors, ``rows`` the rows (an index, or the lines of a file); ``unique_cells``: no
    (item, annotator) can come twice (the cells of a wide table)."""
    kind = pd.api.types.infer_dtype(labels.to_numpy(), skipna=True) \
        if labels.dtype == object else None  # one type scan for the checks below
    if rank is not None and labels.dtype == object:
        _refuse_pairs(labels, rows, kind)
    if rank is None and labels.dtype == object:
        labels, ranks, rowpos = _expand_pairs(labels, rows, kind)
    else:
        rowpos = None
        ranks = np.ones(len(labels), np.int8) if rank is None else _check_ranks(rank, rows)
    identity = rowpos is None  # no (primary, secondary) cell was expanded
    index = rows if identity else rows[rowpos]
    codes, cats, ordered = _label_codes(labels, categories, label, index)
    (item_codes, item_names), (ann_codes, ann_names) = items, annotators
    if not identity:
        item_codes, ann_codes = item_codes[rowpos], ann_codes[rowpos]
    merged = merged_labels(labels.to_numpy(), codes, cats, kind if identity else None) \
        if labels.dtype == object else []  # True, 1 and 1.0: one code
    rated = codes >= 0 if codes.min() < 0 else None  # a blank label: a missing rating
    n_blank = 0 if rated is None else len(codes) - int(np.count_nonzero(rated))
    if n_blank:  # its item and annotator stay known
        item_codes, ann_codes, codes, ranks = (
            x[rated] for x in (item_codes, ann_codes, codes, ranks))
        index = index[rated]
    subject = f"column {label!r}" if subject is None else subject
    out = Annotations(_owned(item_codes, np.int64), _owned(ann_codes, np.int64),
                      _owned(codes, np.int64), _owned(ranks, np.int8), item_names,
                      ann_names, cats, ordered=ordered,
                      notes=notes + _label_notes(cats, subject, n_blank, merged),
                      n_blank=n_blank)
    _validate(out, index, unique_cells)
    return out


def wide_table(df, categories=None, lines: Callable | None = None,
               notes: tuple = ()) -> Annotations:
    """:meth:`Annotations.from_wide`; ``lines(items, annotators, records)``: what names
    the ratings' rows in errors (the lines of a CSV file, :class:`iaa_widgets.io.csv.Lines`;
    None: their (item, annotator) cells); ``notes``: earlier notes on the data."""
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
    values = np.ascontiguousarray(values)  # row-major, as the ratings are read
    present = ~pd.isna(values)
    r, c, every_row = _rated_cells(present)  # rating j is cell (r_j, c_j), row-major
    if len(r) == 0:
        raise AgreementError("the table is empty: at least two annotators must rate an item")
    cells = pd.MultiIndex(levels=[df.index, df.columns], codes=[r, c],
                          names=["item", "annotator"], verify_integrity=False)
    rows = cells if lines is None else lines(df.index.to_numpy()[r], df.columns.to_numpy()[c],
                                             records=r)
    # the label column as a tidy table would hold it (the same dtype inference)
    labels = pd.DataFrame({"label": values.ravel()[present.ravel()]}, copy=False)["label"]
    item_names = _axis_names(df.index, "item", r, rows)
    annotator_names = _axis_names(df.columns, "annotator", c, rows)
    if item_names is None or annotator_names is None:  # names pandas hashes as equal
        long = pd.DataFrame({"item": df.index.to_numpy()[r],
                             "annotator": df.columns.to_numpy()[c], "label": values[r, c]},
                            index=cells)
        out = long_table(long, categories=categories, rows=rows, notes=notes,
                         subject="the table's cells")
        if out.n_items < len(df):  # keep the rows nobody rated: counted, never dropped
            positions = df.index.get_indexer(out.items)
            out = replace(out, item=positions[out.item],
                          items=pd.Index(df.index, name="item"))
        return out
    # items: every row, in order (a row nobody rated stays an item: counted, never
    # dropped); annotators: the columns rated, in order of first appearance; integer
    # names in a compact range in increasing order, as the tidy form codes them
    items = _in_id_order(r, item_names[1], len(r)) if every_row else \
        (r, pd.Index(df.index, name="item"))
    order, seen = _factorize(c)
    codes, names = annotator_names
    annotators = _in_id_order(order, names[codes[seen]], len(r))  # as the tidy form's
    return _coded_table(items, annotators, labels, None, "label", categories, rows,
                        "the table's cells", notes, unique_cells=True)


def _rated_cells(present: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """Row and column of each True cell of ``present``, row-major (``np.nonzero``, from
    one flat scan and the count of each row), and whether every row has one."""
    n_rows, n_cols = present.shape
    flat = np.flatnonzero(present.ravel())
    per_row = present.view(np.int8) @ np.ones(n_cols, np.int8) if n_cols < 128 else \
        np.count_nonzero(present, axis=1)
    r = np.repeat(np.arange(n_rows), per_row)
    c = r * n_cols
    np.subtract(flat, c, out=c)
    return r, c, bool(np.all(per_row))


def _axis_names(axis: pd.Index, name: str, position: np.ndarray, rows):
    """Each place on ``axis`` (the rows or the columns of a wide table) coded into its
    names as the tidy column ``axis[position]`` would name them (``position``: each
    rating's place): (codes, names); a missing name (NaN, None) of a rated row or column
    is refused; None when pandas hashes distinct names of the axis as equal (the tidy
    column merges them)."""
    codes, names = _column_codes(pd.DataFrame({name: axis.to_numpy()}, copy=False)[name])
    if not np.array_equal(codes[codes >= 0], np.arange(len(names))):
        return None
    if len(names) < len(axis):  # a name is missing: refused where it is rated
        _refuse_missing_ids(codes[position], name, rows)
    return codes, pd.Index(names, name=name)


def counts_table(table, categories: Sequence | None = None) -> Annotations:
    """:meth:`Annotations.from_counts`."""
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
    return Annotations(item.astype(np.int64), annotator, label.astype(np.int64),
                       np.ones(len(item), np.int8), pd.Index(item_names, name="item"),
                       _raters(m), cats, anonymous=True,
                       ordered=ordered or cats.inferred_type in NUMERIC,
                       rating_count=counts[item, label])


def contingency_table(matrix, categories: Sequence | None = None,
                      annotators: Sequence = ("A", "B")) -> Annotations:
    """:meth:`Annotations.from_contingency`."""
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
    return Annotations(item, annotator, label, np.ones(2 * n, np.int8), cells,
                       pd.Index(list(annotators), name="annotator"), cats,
                       ordered=ordered or cats.inferred_type in NUMERIC,
                       item_weight=m[first, second])
