"""Adjudication sheets: the items to decide, out to a CSV file a spreadsheet opens, and
the decisions back as the labels of a ``gold`` annotator for the next round.

A sheet has one row per item: ``item``, ``text`` (when given), each annotator's label,
``consensus`` and an empty ``adjudicated`` column for the decision. A text cell that a
spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return)
is written with a leading ``'`` so that it stays text (OWASP's CSV-injection rule), and
:func:`read_adjudication` takes that quote off again. A date-time cell is written whole,
``str(Timestamp)`` (pandas would drop a time of midnight), which is how it is read back;
a number is matched by value (a spreadsheet saves the label 1.0 as 1).
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import AgreementError, rows_text

__all__ = ["adjudication_sheet", "write_adjudication", "read_adjudication"]

_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_NOT_LABELS = ("item", "text", "agreement", "n_ratings", "adjudicated")


def adjudication_sheet(selection: pd.DataFrame, text=None) -> pd.DataFrame:
    """The sheet of a :func:`~iaa_widgets.disagreements` table: item, text (``text``: a
    Series or mapping item → text, when given), each annotator's label, consensus and
    an empty ``adjudicated`` column."""
    if not isinstance(selection, pd.DataFrame) or "item" not in selection.columns:
        raise AgreementError("adjudication_sheet: selection must be a DataFrame with an "
                             "'item' column (iaa.disagreements(data) or explorer.selection), "
                             f"got {type(selection).__name__}")
    labels = [c for c in selection.columns if c not in _NOT_LABELS]
    sheet = pd.DataFrame({"item": selection["item"].to_numpy()})
    if text is not None:
        mapping = text if isinstance(text, pd.Series) else pd.Series(dict(text))
        sheet["text"] = mapping.reindex(sheet["item"]).to_numpy()
    for column in labels:
        sheet[column] = selection[column].astype(object).to_numpy()  # 2 stays 2, not 2.0
    sheet["adjudicated"] = ""
    return sheet


def _safe(value):
    """A text cell a spreadsheet would run as a formula, with a leading ' (stays text)."""
    return "'" + value if isinstance(value, str) and value.startswith(_FORMULA) else value


def write_adjudication(selection: pd.DataFrame, path=None, *, text=None):
    """Write an adjudication sheet of the items to decide, as CSV a spreadsheet opens.

    The sheet has one row per item of ``selection``: ``item``, ``text`` (when given), each
    annotator's label, ``consensus`` and an empty ``adjudicated`` column for the decision.
    `read_adjudication` reads the decisions back.

    Parameters
    ----------
    selection : pandas.DataFrame
        A table with an ``item`` column and one column per annotator, as
        `disagreements` returns (or ``ProjectExplorer.selection``); its ``agreement``
        and ``n_ratings`` columns are not written.
    path : path-like or file-like, optional
        Where to write the sheet (UTF-8, CRLF line ends): a path or an open text file.
        None (the default): return the sheet as a string.
    text : pandas.Series or mapping, optional
        Each item's text (item → text), written in a ``text`` column beside the labels.

    Returns
    -------
    str or None
        The CSV text when ``path`` is None, else None (the sheet was written).

    Raises
    ------
    AgreementError
        When ``selection`` is not a DataFrame with an ``item`` column.

    See Also
    --------
    iaa_widgets.read_adjudication : Reads the decisions back as a "gold" annotator.
    iaa_widgets.disagreements : The items to decide.
    iaa_widgets.ProjectExplorer : Exports the sheet of its selection.

    Notes
    -----
    A text cell that a spreadsheet would run as a formula (starting with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return) is written with a leading ``'`` so that it
    stays text (OWASP's CSV-injection rule); `read_adjudication` takes the quote off
    again. A date-time is written whole (``str(Timestamp)``); integer labels stay integers.

    References
    ----------
    OWASP Foundation. CSV Injection. https://owasp.org/www-community/attacks/CSV_Injection

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": ["A", "B"] * 3,
    ...                    "label": ["pos", "pos", "pos", "neg", "neg", "=SUM(1)"]})
    >>> print(iaa.write_adjudication(iaa.disagreements(df)), end="")
    item,A,B,consensus,adjudicated
    2,pos,neg,,
    3,neg,'=SUM(1),,
    """
    sheet = adjudication_sheet(selection, text)
    for column in sheet.columns:
        if pd.api.types.is_datetime64_any_dtype(sheet[column]):  # the time kept: str(Timestamp)
            sheet[column] = [("" if pd.isna(v) else str(v)) for v in sheet[column]]
        elif sheet[column].dtype == object or isinstance(sheet[column].dtype,
                                                         (pd.StringDtype, pd.CategoricalDtype)):
            # objects kept as they are (Series.map would infer 2.0 for a 2 beside a NaN)
            sheet[column] = np.frompyfunc(_safe, 1, 1)(sheet[column].astype(object).to_numpy())
    csv = sheet.to_csv(index=False, lineterminator="\r\n")
    if path is None:
        return csv
    if hasattr(path, "write"):
        path.write(csv)
    else:
        Path(path).write_text(csv, encoding="utf-8", newline="")
    return None


def _unquoted(value):
    """A cell as written, without the ' that kept a formula-like text as text."""
    if isinstance(value, str) and len(value) > 1 and value[0] == "'" and \
            value[1:].startswith(_FORMULA):
        return value[1:]
    return value


def _is_number(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_))


def _by_text(values: pd.Series, known: pd.Index, what: str, where: str) -> list:
    """Each text of ``values`` as the element of ``known`` it spells (identity kept:
    the sheet's "1" becomes the data's 1), or else, for a number of ``known``, the one
    of equal value (the sheet's "1" is the data's 1.0); refuses texts no element spells,
    or two elements that spell alike (1 and "1")."""
    spelled = pd.Series(list(known), index=[str(k) for k in known])
    twins = spelled.index[spelled.index.duplicated()].unique()
    if len(twins):
        raise AgreementError(f"read_adjudication: the data have {what}s that are written "
                             f"alike ({list(twins)[:5]!r}), so a CSV cell cannot tell them "
                             "apart; give them distinct names")
    at = spelled.index.get_indexer(values)
    numbers = [j for j, k in enumerate(known) if _is_number(k)]
    if numbers and (at < 0).any():  # by value: 1 for 1.0, 1e3 for 1000
        value = pd.to_numeric(pd.Series(values), errors="coerce").to_numpy(dtype=float)
        by_value = pd.Index([float(known[j]) for j in numbers]).get_indexer(value)
        at = np.where((at < 0) & (by_value >= 0), np.take(numbers, by_value), at)
    missing = pd.Series(at < 0, index=values.index)
    if missing.any():
        raise AgreementError(f"read_adjudication: {where} has {what}(s) the data do not "
                             f"have: {sorted(set(values[missing]))[:5]!r} (rows "
                             f"{rows_text(values.index[missing.to_numpy()] + 2)}); the "
                             f"data's {what}s are {list(known)[:8]!r}")
    elements = list(known)
    return [elements[j] for j in at]


def read_adjudication(path, data=None, *, annotator: str = "gold") -> pd.DataFrame:
    r"""Read the decisions of an adjudication sheet as the ratings of one annotator.

    Each row whose ``adjudicated`` cell is filled gives one rating by ``annotator``;
    ``pd.concat([df, gold])`` then makes the next round's data (``reference="gold"`` in
    the measures that take one).

    Parameters
    ----------
    path : path-like or file-like
        The sheet: a CSV file written by `write_adjudication` (or
        ``ProjectExplorer.export_adjudication``) and edited in a spreadsheet, or an open
        file.
    data : Annotations, pandas.DataFrame or array-like, optional
        The project's ratings (anything `as_annotations` accepts). With it, the sheet's
        items and labels are matched to the data's by their text, so that they keep their
        identity (the item ``7`` stays the integer 7, the label ``"007"`` stays text; a
        number by value: the sheet's ``1`` is the data's 1.0). Without it (None), they are
        read as text.
    annotator : str, default "gold"
        The name of the adjudicator in the result.

    Returns
    -------
    pandas.DataFrame
        A tidy table ``item``, ``annotator``, ``label``, one row per decided item;
        ``attrs["n_blank"]`` counts the rows left undecided.

    Raises
    ------
    AgreementError
        When ``path`` is not a path or open file, or the sheet is empty, unreadable or
        lacks an ``item`` or ``adjudicated`` column; when a decided row has a blank item;
        when an item is decided twice; with ``data``, when an item or label is not one of
        the data's (naming the rows) or two of the data's are written alike (``1`` and
        ``"1"``).

    See Also
    --------
    iaa_widgets.write_adjudication : Writes the sheet.
    iaa_widgets.disagreements : The items to decide.
    iaa_widgets.majority_vote : A consensus without an adjudicator.

    Notes
    -----
    A cell that `write_adjudication` quoted with ``'`` (a text a spreadsheet would run as
    a formula) is read without the quote. Leading and trailing spaces of a decision are
    dropped.

    Examples
    --------
    >>> import io
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["A", "B"] * 2,
    ...                    "label": ["pos", "pos", "pos", "neg"]})
    >>> sheet = io.StringIO("item,A,B,consensus,adjudicated\n2,pos,neg,,neg\n")
    >>> gold = iaa.read_adjudication(sheet, df)
    >>> gold.values.tolist()  # the item is the data's integer 2, not the text "2"
    [[2, 'gold', 'neg']]
    >>> gold.attrs["n_blank"]
    0
    """
    from .. import validate
    from ..data import as_annotations
    if not (isinstance(path, (str, os.PathLike)) or hasattr(path, "read")):
        validate.fail("read_adjudication", "path", "the path of a CSV sheet or an open file",
                      path)
    where = os.fspath(path) if isinstance(path, (str, os.PathLike)) else "the sheet"
    try:
        sheet = pd.read_csv(path, dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError:
        raise AgreementError(f"read_adjudication: {where} is empty; an adjudication sheet "
                             "has a header row (item, …, adjudicated) and one row per item: "
                             "write it with write_adjudication or "
                             "explorer.export_adjudication") from None
    except (OSError, pd.errors.ParserError, UnicodeDecodeError) as err:
        raise AgreementError(f"read_adjudication: cannot read {where}: {err}") from None
    for column in ("item", "adjudicated"):
        if column not in sheet.columns:
            raise AgreementError(f"read_adjudication: {where} has no {column!r} column "
                                 f"(columns: {list(sheet.columns)!r}); write the sheet with "
                                 "write_adjudication or explorer.export_adjudication")
    items = sheet["item"].map(_unquoted)
    decided = sheet["adjudicated"].map(_unquoted).str.strip()
    filled = decided != ""
    blank = filled & (items.str.strip() == "")
    if blank.any():
        raise AgreementError(f"read_adjudication: {where} decides a label for a blank item "
                             f"cell (rows {rows_text(np.flatnonzero(blank.to_numpy()) + 2)}); "
                             "fill in the item as written by write_adjudication, or clear "
                             "the row's adjudicated cell")
    items, decided = items[filled], decided[filled]  # index: the sheet's row − 2
    if data is not None:
        ann = as_annotations(data)
        item_values = _by_text(items, ann.items, "item", where)
        label_values = _by_text(decided, ann.categories, "label", where)
    else:
        item_values, label_values = items.tolist(), decided.tolist()
    twice = pd.Series(item_values, index=items.index).duplicated(keep=False)  # 1 and 1.0 too
    if twice.any():
        raise AgreementError(f"read_adjudication: {where} decides item(s) "
                             f"{sorted(set(items[twice]))[:5]!r} more than once")
    out = pd.DataFrame({"item": pd.Series(item_values, dtype=object),
                        "annotator": annotator,
                        "label": pd.Series(label_values, dtype=object)})
    out.attrs["n_blank"] = int((~filled).sum())
    return out
