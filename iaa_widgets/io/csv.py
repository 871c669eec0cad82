"""Reading a CSV file of ratings, :func:`iaa_widgets.read_csv`: pandas' parser, explicit
missing-value markers, header names checked before pandas renames duplicates, and
errors that name the file and line (:class:`Lines`). The table read is loaded by the
loaders of :mod:`iaa_widgets.data` (readers build Annotations: io imports data, never
the other way)."""
from __future__ import annotations

import csv
import os
import re
from functools import partial
from os import PathLike
from typing import Sequence

import numpy as np
import pandas as pd

from .. import validate
from ..data.annotations import Annotations
from ..data.loaders import long_table, wide_table
from ..errors import AgreementError

__all__ = ["read_csv", "NA_VALUES", "Lines", "MissingPath", "read_frame"]


class MissingPath(AgreementError, FileNotFoundError):
    """A path that names no file (or a folder where a file belongs): an AgreementError
    as every reader's, and the FileNotFoundError Python would raise."""

# the default na_values of read_csv: only empty cells are missing ("NA", "None", "null"
# are labels); whitespace-only labels count as missing later, in the loader
NA_VALUES = ("",)

# read_args after which the file's header or line numbering is not the plain one
_RENUMBERING = ("header", "names", "skipfooter", "delim_whitespace", "dialect",
                "lineterminator", "compression", "engine")
_SHOWN = 5


def _name(source) -> str:
    """How messages name the CSV: its path, an open file's name (iaa.read names the
    bytes it read once after their source), else 'the CSV input'."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else "the CSV input"


def _plain_file(source) -> bool:
    """A path to an uncompressed file, whose bytes and lines can be read again."""
    return isinstance(source, (str, os.PathLike)) and os.path.isfile(source) and \
        not re.search(r"\.(gz|bz2|zip|xz|zst|tar)$", os.fspath(source))


def _rereadable(source) -> bool:
    """A plain file, or a stream that can be read again from its start (the bytes
    iaa.read read once from a pipe or a compressed file)."""
    if isinstance(source, (str, os.PathLike)):
        return _plain_file(source)
    return bool(getattr(source, "seekable", lambda: False)())


def read_frame(source, na_values, label: str | None, read_args: dict, index_col=None):
    """The table read from ``source`` and a note on the cells ``na_values`` made missing
    in the ``label`` column (None: in every column). Errors name the file (and the line
    where pandas or the decoder says it)."""
    for option in ("chunksize", "iterator"):
        if read_args.get(option):
            raise AgreementError(f"read_csv reads the whole file; {option}= is not supported "
                                 "(read the chunks with pandas and concatenate them)")
    if not isinstance(source, (str, os.PathLike)) and not hasattr(source, "read"):
        # a table already in memory (pandas would raise 'Invalid file path or buffer')
        raise AgreementError(f"read_csv reads a CSV file: a path or an open file, not a "
                             f"{type(source).__name__}; pass a table in memory to the "
                             "measures directly, or to iaa.as_annotations")
    args = {"keep_default_na": False, **read_args, "na_values": list(na_values)}
    try:
        frame = pd.read_csv(source, index_col=index_col, **args)
    except UnicodeDecodeError as err:
        raise AgreementError(_undecodable(source, err, args.get("encoding"))) from None
    except pd.errors.EmptyDataError:
        raise AgreementError(f"{_name(source)} is empty: no header line naming the columns "
                             "was found") from None
    except pd.errors.ParserError as err:
        raise AgreementError(f"{_name(source)} is not a CSV table pandas can read: "
                             f"{str(err).strip()}; check sep= and the quoting on that "
                             "line") from None
    except OSError as err:  # a missing path, a folder
        raise MissingPath(f"cannot read the CSV file {_name(source)!r}: "
                             f"{err.strerror or err}") from None
    _refuse_duplicate_header(source, frame, index_col, read_args)
    written = _numbers_as_written(source, frame, label, read_args, na_values)
    if label is not None and label not in frame.columns:
        return frame, ""  # the loader names the missing column
    cells = frame if label is None else frame[label]
    n_missing = int(cells.isna().to_numpy().sum())
    note = written + ("; " if written and n_missing else "") + ("" if not n_missing else (
        f"{_name(source)}: {n_missing} cell(s) of "
        f"{'the table' if label is None else f'column {label!r}'} "
        f"matched na_values={list(na_values)!r}"
        f"{' or pandas default NA texts' if args['keep_default_na'] else ''} and were read "
        "as missing"))
    return frame, note


# read_args that change how cells are parsed or which lines are read: the same ones
# re-read the label texts
_PARSING = ("sep", "delimiter", "encoding", "quotechar", "escapechar", "comment", "skiprows",
            "skip_blank_lines", "decimal", "thousands", "doublequote", "nrows", "skipfooter",
            "engine")


def _numbers_as_written(source, frame: pd.DataFrame, label, read_args: dict,
                        na_values) -> str:
    """Labels that pandas read as numbers from distinct texts ('1', '1.0', '01' → 1.0)
    look alike: as for any look-alike labels, they stay separate categories (the
    column's labels are read as the texts written) and a warning and a note name them.
    ``dtype=`` or ``converters=`` say how to read the column: then nothing is checked.
    Returns the note ('' if none)."""
    from ..labels import LookAlikeLabelsWarning, warn_from_caller
    cols = [c for c in ([label] if label is not None else frame.columns)
            if c in frame.columns and pd.api.types.is_numeric_dtype(frame[c])
            and not pd.api.types.is_bool_dtype(frame[c])]
    if not cols or not _rereadable(source) or any(
            k in read_args for k in ("dtype", "converters", "names", "header", "usecols")):
        return ""
    if not isinstance(source, (str, os.PathLike)):
        source.seek(0)  # a stream read once by iaa.read, held in memory
    args = {k: v for k, v in read_args.items() if k in _PARSING}
    texts = pd.read_csv(source, usecols=cols, dtype=str, keep_default_na=False,
                        na_values=list(na_values), **args)
    written = np.concatenate([texts[c].to_numpy(dtype=object) for c in cols])
    numbers = np.concatenate([frame[c].to_numpy(dtype=float) for c in cols])
    pairs = pd.DataFrame({"text": written, "number": numbers}).dropna().drop_duplicates()
    clash = pairs[pairs["number"].duplicated(keep=False)]
    if clash.empty:
        return ""
    for c in cols:
        frame[c] = texts[c].to_numpy(dtype=object)
    groups = clash.groupby("number", sort=False)["text"].agg(list)
    shown = "; ".join(f"{g!r}" for g in groups.iloc[:5])
    more = f" and {len(groups) - 5} more" if len(groups) > 5 else ""
    where = f"column {label!r}" if label is not None else "the table"
    note = (f"{_name(source)}: {where}: texts that read as one number stay separate "
            f"categories, read as the texts written: {shown}{more}. If they mean the "
            f"same number, pass dtype={{{cols[0]!r}: float}} (or clean the file)")
    warn_from_caller(note, LookAlikeLabelsWarning)
    return note


def _undecodable(source, err: UnicodeDecodeError, encoding) -> str:
    """Name the file, the undecodable byte and its line, and suggest ``encoding=``."""
    where = ""
    if _plain_file(source):
        with open(source, "rb") as fh:  # an error path: the whole file, once
            data = fh.read()
        try:
            data.decode(err.encoding)
        except UnicodeDecodeError as full:
            line = data.count(b"\n", 0, full.start) + 1
            where = f" (byte 0x{data[full.start]:02x} on line {line})"
        except LookupError:
            pass
    return (f"{_name(source)} is not valid {encoding or err.encoding} text{where}; pass the "
            "encoding it was saved in, for example encoding='latin-1', 'cp1252' or 'utf-16'")


_MANGLED = re.compile(r"^(.*)\.(\d+)$")


def _refuse_duplicate_header(source, frame: pd.DataFrame, index_col, read_args) -> None:
    """pandas renames a repeated column name 'a' to 'a.1': a second annotator or label
    column would pass unseen. Read the header as written when a name looks renamed."""
    names = [frame.index.name, *frame.columns] if index_col is not None else list(frame.columns)
    suspects = [n for n in names if isinstance(n, str) and (m := _MANGLED.match(n))
                and m.group(1) in names]
    if not suspects or any(k in read_args for k in ("names", "header", "usecols")):
        return
    if not isinstance(source, (str, os.PathLike)):
        if not getattr(source, "seekable", lambda: False)():
            return  # a stream read once: pandas' renamed columns cannot be checked
        source.seek(0)
    header_args = {k: v for k, v in read_args.items()
                   if k in ("sep", "delimiter", "encoding", "quotechar", "escapechar",
                            "comment", "skiprows", "skip_blank_lines", "compression")}
    raw = pd.read_csv(source, header=None, nrows=1, dtype=str, keep_default_na=False,
                      **header_args).iloc[0].tolist()
    seen = pd.Series(raw)
    dups = seen[seen.duplicated()].unique().tolist()
    if dups:
        cols = [int(i) + 1 for i in np.flatnonzero(seen.isin(dups))]
        raise AgreementError(f"{_name(source)}: the header names {dups!r} more than once "
                             f"(columns {cols}); pandas would read them as different columns "
                             "(a, a.1 …). Give each column its own name: one column per "
                             "annotator in the wide layout, one item, annotator and label "
                             "column in the long one")


class Lines:
    """Names rows of a table read from a CSV file: file line, item and annotator.

    ``items`` and ``annotators`` hold each row's names, ``records`` the data record of
    the file each row comes from (None: row i is record i). Indexing it (positions or a
    mask) selects rows, as an index would; line numbers are found only when an error
    names rows."""

    def __init__(self, source, read_args: dict, items, annotators, records=None,
                 positions: np.ndarray | None = None):
        self.source, self.read_args = source, read_args
        self.items, self.annotators, self.records = items, annotators, records
        self.positions = positions

    def __getitem__(self, key) -> "Lines":
        rows = np.arange(len(self.items)) if self.positions is None else self.positions
        return Lines(self.source, self.read_args, self.items, self.annotators, self.records,
                     rows[key])

    def name_rows(self, which) -> str:
        """``which`` (positions) as 'file, line 3 (item 1, annotator 'b'), …'."""
        rows = np.asarray(which if self.positions is None else self.positions[which])
        shown = rows[:_SHOWN]
        records = shown if self.records is None else np.asarray(self.records)[shown]
        starts = _record_lines(self.source, self.read_args, int(records.max()) + 1)
        where = [f"line {starts[r]}" if starts is not None else f"data row {r + 1}"
                 for r in records.tolist()]
        items = np.asarray(self.items, dtype=object)[shown].tolist()
        annotators = np.asarray(self.annotators, dtype=object)[shown].tolist()
        more = f" and {len(rows) - _SHOWN} more" if len(rows) > _SHOWN else ""
        return f"{_name(self.source)}, " + ", ".join(
            f"{w} (item {i!r}, annotator {a!r})"
            for w, i, a in zip(where, items, annotators)) + more


def _record_lines(source, read_args: dict, count: int) -> list[int] | None:
    """The file line (1-based) on which each of the first ``count`` data records starts,
    skipping what pandas skips (blank, whitespace-only and comment lines) and counting
    quoted line breaks; None when the options make the numbering another one."""
    sep = read_args.get("sep", read_args.get("delimiter", ","))
    if not _plain_file(source) or not isinstance(sep, str) or len(sep) != 1 or \
            any(k in read_args for k in _RENUMBERING):
        return None
    skiprows = read_args.get("skiprows", 0)
    if isinstance(skiprows, (int, np.integer)) and not isinstance(skiprows, bool):
        skipped_lines, skipped_records = int(skiprows), set()  # that many lines at the start
    elif isinstance(skiprows, (list, tuple, set, range, np.ndarray)) and all(
            isinstance(r, (int, np.integer)) and not isinstance(r, bool) for r in skiprows):
        skipped_lines, skipped_records = 0, {int(r) for r in skiprows}  # 0-based records,
    else:                                                                # as pandas counts
        return None  # a callable: the numbering is pandas' own
    comment = read_args.get("comment")
    skip_blank = read_args.get("skip_blank_lines", True)
    starts, end, header = [], 0, False
    with open(source, newline="", encoding=read_args.get("encoding") or "utf-8",
              errors="replace") as fh:
        reader = csv.reader(fh, delimiter=sep, quotechar=read_args.get("quotechar", '"'),
                            escapechar=read_args.get("escapechar"),
                            doublequote=read_args.get("doublequote", True))
        for record, row in enumerate(reader):
            start, end = end + 1, reader.line_num
            blank = not row or (len(row) == 1 and not row[0].strip())
            commented = comment and row and row[0].lstrip().startswith(comment)
            if start <= skipped_lines or record in skipped_records or (skip_blank and blank) \
                    or commented:
                continue
            if not header:
                header = True
                continue
            starts.append(start)
            if len(starts) >= count:
                return starts
    return None


def read_csv(path: str | PathLike, layout: str = "long", categories: Sequence | None = None,
             item: str = "item", annotator: str = "annotator", label: str = "label",
             rank: str | None = None, na_values: Sequence[str] = NA_VALUES,
             **read_args) -> Annotations:
    r"""Read ratings from a CSV file as `Annotations`.

    ``layout="long"`` reads one row per rating (item, annotator, label columns);
    ``layout="wide"`` reads the first column as the items and every other column as one
    annotator's labels. pandas parses the file; errors name the file and the line (the
    header is line 1) with the item and annotator.

    Parameters
    ----------
    path : path-like or file-like
        The CSV file: a path or an open file (text or binary).
    layout : {"long", "wide"}, default "long"
        One row per rating, or one row per item and one column per annotator.
    categories : sequence, optional
        The labels that may occur, in their order (an order ordinal and weighted measures
        use). By default (None), the labels the file holds; numbers are then ordered by
        value, texts are not ordered. A label not declared is refused.
    item, annotator, label : str, default "item", "annotator", "label"
        The column names of a long table (not read with ``layout="wide"``).
    rank : str, optional
        A long table's column holding each label's rank (1 primary, 2 secondary, …) when
        an annotator gives several labels to an item. None: one label per rating.
    na_values : sequence of str or str or None, default ("",)
        The cell texts read as missing. By default only the empty cell, so that "NA",
        "None", "null" and "nan" stay labels (pass ``keep_default_na=True`` for pandas'
        own list); None: no text is missing.
    **read_args
        Passed to `pandas.read_csv` (``sep=``, ``encoding=`` for a file not in UTF-8,
        ``skiprows=`` …); ``chunksize=`` and ``iterator=`` are refused.

    Returns
    -------
    Annotations
        The validated ratings, integer-coded with their labels kept; its ``notes`` (and
        the ``note`` of every result computed on it) say how many cells were read as
        missing.

    Raises
    ------
    AgreementError
        When ``layout`` or ``na_values`` is not an accepted value; when the file is
        missing (also a ``FileNotFoundError``), empty, not decodable (naming the line and
        ``encoding=``) or not a table pandas can parse; when a header names a column twice
        or lacks a named column; when an annotator rates an item twice, a label is not
        among ``categories``, naming the line.

    See Also
    --------
    iaa_widgets.read : Recognises a CSV file by its content and calls this reader.
    iaa_widgets.as_annotations : The same loaders for a table in memory.
    iaa_widgets.Annotations : The result type.

    Notes
    -----
    A blank or whitespace-only label is a missing rating in both layouts (counted in
    ``n_blank``), as is a cell matching ``na_values``; ``notes`` count both.

    Examples
    --------
    >>> import io
    >>> text = "item,annotator,label\n1,A,NA\n1,B,NA\n2,A,yes\n2,B,\n"
    >>> ann = iaa.read_csv(io.StringIO(text))
    >>> ann  # "NA" is a label; the empty cell is a missing rating
    Annotations(2 items, 2 annotators, 2 categories, 3 ratings)
    >>> ann.categories.tolist()
    ['NA', 'yes']
    >>> wide = iaa.read_csv("examples/exports/ratings_wide.csv", layout="wide")
    >>> wide.annotators.tolist()
    ['alice', 'bob', 'carol']
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
        return wide_table(frame, categories, lines=partial(Lines, path, read_args),
                          notes=(note,) if note else ())
    frame, note = read_frame(path, na_values, label, read_args)
    lines = Lines(path, read_args, frame.get(item), frame.get(annotator))  # None: not found
    return long_table(frame, item, annotator, label, rank, categories,
                      rows=lines, notes=(note,) if note else ())
