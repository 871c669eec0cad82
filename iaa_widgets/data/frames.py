"""Tables from other libraries: any dataframe in, through narwhals (pandas, polars eager
or lazy, pyarrow Tables, DuckDB relations, Dask, anything with ``__arrow_c_stream__``),
and the message for what is not a table."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import validate
from ..errors import AgreementError
from .annotations import Annotations


@validate.takes(loader=Annotations.from_long)  # a misspelt keyword refused (issue 44)
def as_annotations(data, **loader_args) -> Annotations:
    """Load ratings as `Annotations` from an Annotations or a tidy table of any dataframe
    library.

    The entry every measure calls on its ``data``: an `Annotations` passes through; a
    pandas DataFrame, a polars frame (eager or lazy), a pyarrow Table, a DuckDB relation, a
    Dask frame or anything with ``__arrow_c_stream__`` is read through narwhals by
    `Annotations.from_long`.

    Parameters
    ----------
    data : Annotations or DataFrame-like
        The ratings: an `Annotations`, or a tidy table with one row per rating.
    **loader_args
        Options of `Annotations.from_long` (``item=``, ``annotator=``, ``label=``,
        ``rank=``, ``categories=``), for a table only; a misspelt one is refused.

    Returns
    -------
    Annotations
        The validated, integer-coded ratings.

    Raises
    ------
    AgreementError
        When ``data`` is neither Annotations nor a table (naming how to convert what was
        given: a dict, a list, an array, another library's frame); when loader options are
        given with Annotations or are not `Annotations.from_long`'s; when a named column
        is missing, an annotator rates an item twice without a rank, or a label is not
        among ``categories``.

    See Also
    --------
    iaa_widgets.Annotations : The result type, with its other loaders.
    iaa_widgets.read_csv : Ratings from a CSV file.
    iaa_widgets.sufficient_statistics : The tables on a lazy engine, without loading.

    Notes
    -----
    A blank label (NaN, None, '' or whitespace only) is a missing rating: its item and
    annotator stay known, ``n_blank`` and ``notes`` count it. Labels that only look alike
    (``1`` and ``'1'``, ``'yes'`` and ``'Yes '``) stay separate categories, named in a
    `LookAlikeLabelsWarning` and in ``notes``.

    Examples
    --------
    >>> df = pd.DataFrame({"doc": ["d1", "d1", "d2", "d2"], "coder": ["A", "B", "A", "B"],
    ...                    "code": [1, 2, 2, 2]})
    >>> ann = iaa.as_annotations(df, item="doc", annotator="coder", label="code")
    >>> ann
    Annotations(2 items, 2 annotators, 2 categories, 4 ratings)
    >>> ann.ordered  # numbers carry their order
    True
    >>> iaa.as_annotations(ann) is ann
    True
    """
    if isinstance(data, Annotations):
        if loader_args:
            raise AgreementError(f"loader options {sorted(loader_args)} apply to a DataFrame, "
                                 "not to Annotations")
        return data
    if isinstance(data, pd.DataFrame) or _narwhals_frame(data) is not None:
        return Annotations.from_long(data, **loader_args)
    raise _not_a_frame(data, "Annotations or a tidy DataFrame (item, annotator, label)")


def _narwhals_frame(data):
    """``data`` as a narwhals DataFrame or LazyFrame, or None if narwhals does not know it
    (an object with ``__arrow_c_stream__`` is read as a pyarrow Table)."""
    import narwhals as nw
    if isinstance(data, (nw.DataFrame, nw.LazyFrame)):
        return data
    try:
        return nw.from_native(data)
    except TypeError:
        pass
    if hasattr(data, "__arrow_c_stream__") and not isinstance(data, pd.DataFrame):
        import pyarrow as pa
        return nw.from_native(pa.table(data))
    return None


def tidy_columns(data, columns: list) -> pd.DataFrame:
    """The ``columns`` of any dataframe as a pandas DataFrame over the same memory where
    it can: a lazy frame runs on its engine (only these columns are read), an eager one
    goes through Arrow with its strings kept in Arrow (``string[pyarrow]``: the loaders
    then take Arrow's dictionary encoding, one hash pass per column, no Python object
    per row), its dictionary (categorical) columns as pandas Categoricals."""
    frame = _narwhals_frame(data)
    if frame is None:
        raise _not_a_frame(data, "a tidy table (item, annotator, label)")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise AgreementError(f"column(s) {missing!r} not found; the table has columns "
                             f"{list(frame.columns)!r} (name them with item=, annotator=, "
                             "label= and rank=)")
    import narwhals as nw
    frame = frame.select(columns)
    if isinstance(frame, nw.LazyFrame):
        frame = frame.collect()
    native = frame.to_native()
    if isinstance(native, pd.DataFrame):  # e.g. what Dask computes
        return native.reset_index(drop=True)
    table = _arrow_table(frame, native)
    try:
        return table.to_pandas(types_mapper=_arrow_text)
    except (NotImplementedError, TypeError, ValueError) as e:  # pyarrow's, e.g. a UNION
        raise unreadable_columns(table.schema, e) from None


def unreadable_columns(schema, error, names: dict | None = None) -> AgreementError:
    """The refusal of Arrow columns pandas cannot hold (a DuckDB ``UNION``): named with
    their types (``names`` maps a column to the user's name for it)."""
    import pyarrow as pa
    names = names or {}
    odd = [f for f in schema if pa.types.is_union(f.type) or pa.types.is_nested(f.type)] \
        or list(schema)
    shown = ", ".join(f"{names.get(f.name, f'column {f.name!r}')} ({f.type})" for f in odd)
    return AgreementError(f"cannot read {shown} as ids or labels ({error}); cast it to text "
                          "or numbers first, e.g. CAST(label AS VARCHAR) in SQL")


def _arrow_table(frame, native):
    """The frame as a pyarrow Table; polars' string columns as they are in its memory
    (Arrow ``string_view``, no copy: the loaders read short names there or convert)."""
    if type(native).__module__.split(".")[0] == "polars":
        import polars as pl
        import pyarrow as pa
        return pa.table({name: column.to_arrow(compat_level=pl.CompatLevel.newest())
                         if column.dtype == pl.String else column.to_arrow()
                         for name, column in zip(native.columns, native.get_columns())})
    return frame.to_arrow()


def _arrow_text(arrow_type):
    """pandas dtype of an Arrow column: strings stay in Arrow (None: pandas' default)."""
    import pyarrow as pa
    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type) or \
            pa.types.is_string_view(arrow_type):
        return pd.ArrowDtype(arrow_type)
    return None


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
