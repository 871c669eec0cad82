"""The identity of labels: blank labels, and labels that only look alike.

A blank label (``''`` or whitespace only, like NaN and None) is a missing rating.
Distinct labels that are the same value in another type (``1``, ``'1'``, ``True``) or
differ only in surrounding whitespace, case or Unicode normal form stay separate
categories: they are named in one :class:`LookAlikeLabelsWarning` and a note. Every
check runs on the distinct labels, never per rating.
"""
from __future__ import annotations

import numbers
import os
import sys
import unicodedata
import warnings

import numpy as np
import pandas as pd

__all__ = ["LookAlikeLabelsWarning", "blank_labels", "look_alike_note", "warn_from_caller"]

_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_SHOWN = 5  # look-alike groups named in a note


class LookAlikeLabelsWarning(UserWarning):
    r"""Distinct labels that look alike were kept as separate categories.

    Labels keep their identity: ``1`` and ``'1'``, ``'yes'`` and ``'Yes '``, NFC and NFD
    forms of the same text are different categories, never merged silently. When such
    labels occur, loading warns with this category; clean them before loading if they
    mean the same. The same text is in the ``notes`` of the Annotations and in the
    ``note`` of every result computed from them.

    See Also
    --------
    iaa_widgets.Annotations : The loader that checks the labels.
    iaa_widgets.AgreementError : Raised for input no measure can use.

    Notes
    -----
    Look-alikes are texts equal after Unicode NFC normalisation, `str.strip` and
    `str.casefold`, and labels of different kinds that stand for the same number
    (``1``, ``'1'``, ``' 1.0'``, ``True``); the message says how they differ. Filter the warning with
    ``warnings.simplefilter("ignore", iaa.LookAlikeLabelsWarning)``; the notes stay.

    Examples
    --------
    >>> import warnings
    >>> frame = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b", "a", "b"],
    ...                       "label": ["yes", "yes ", "no", "no"]})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     data = iaa.Annotations.from_long(frame)
    >>> caught[0].category is iaa.LookAlikeLabelsWarning
    True
    >>> data.categories.tolist()
    ['no', 'yes', 'yes ']
    """


def blank_labels(uniques) -> np.ndarray:
    """Which distinct labels are blank strings: ``''`` or whitespace only (str.isspace)."""
    return np.fromiter((isinstance(u, str) and not u.strip() for u in uniques), bool,
                       len(uniques))


def _kind(value) -> str:
    """The kind of a label for the mixed-types check: numbers of any width are one kind."""
    if isinstance(value, str):
        return "text"
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    return "number" if isinstance(value, numbers.Number) else type(value).__name__


def _shown(values) -> str:
    """Values as a Python list; non-ASCII text escaped, so NFC and NFD forms differ."""
    values = [v.item() if isinstance(v, np.generic) else v for v in values]
    return "[" + ", ".join(ascii(v) if isinstance(v, str) and not v.isascii() else repr(v)
                           for v in values) + "]"


def _text_groups(texts: list) -> list[list]:
    """Texts equal after NFC normalisation, strip() and casefold() (one pass, a dict)."""
    by_key: dict = {}
    for text in texts:
        key = unicodedata.normalize("NFC", text).strip().casefold()
        by_key.setdefault(key, []).append(text)
    return [group for group in by_key.values() if len(group) > 1]


def _text_ways(group: list) -> str:
    """How texts of a group differ: in a way W when skipping W alone leaves them apart."""
    nfc = [unicodedata.normalize("NFC", t) for t in group]
    without = {"Unicode form": {t.strip().casefold() for t in group},
               "whitespace": {t.casefold() for t in nfc}, "case": {t.strip() for t in nfc}}
    ways = [way for way, rest in without.items() if len(rest) > 1]
    return f"{_shown(group)} (differ in {', '.join(ways)})"


def _number(value, kind: str):
    """The number a label stands for (a number, a bool, a numeric text), else None."""
    if kind in ("number", "bool"):
        try:
            return float(value)
        except (TypeError, ValueError, OverflowError):
            return None
    if kind == "text":
        try:
            number = float(value)
        except ValueError:
            return None
        return None if number != number else number  # 'nan' stands for no number
    return None


def _value_groups(labels: list, kinds: list) -> list[list]:
    """Labels of different kinds that are the same number (1, '1', ' 1.0', True)."""
    by_value: dict = {}
    for label, kind in zip(labels, kinds):
        number = _number(label, kind)
        if number is not None:
            by_value.setdefault(number, []).append((label, kind))
    return [group for group in by_value.values() if len({kind for _, kind in group}) > 1]


def merged_labels(values: np.ndarray, codes: np.ndarray, categories,
                  kind: str | None = None) -> list[str]:
    """Labels of different kinds that Python calls equal (True == 1 == 1.0), which a hash
    table codes as one category: named, so that the merge is not silent. Only a column
    mixing bools with other values is scanned (its distinct objects, by address);
    ``kind``: ``infer_dtype(values, skipna=True)`` when the caller has it."""
    if values.dtype != object:
        return []
    kind = pd.api.types.infer_dtype(values, skipna=True) if kind is None else kind
    if kind not in ("mixed", "mixed-integer"):
        return []
    values = np.ascontiguousarray(values)
    _, first = np.unique(np.frombuffer(memoryview(values), dtype=np.intp), return_index=True)
    first = first[codes[first] >= 0]  # one row per distinct object, missing ones left out
    kinds = pd.Series([_kind(v) for v in values[first]], index=codes[first])
    mixed = kinds.groupby(level=0).nunique()
    out = []
    for code in mixed.index[mixed > 1][:_SHOWN]:
        members = sorted(pd.unique(pd.Series(values[first[codes[first] == code]]).map(
            lambda v: (type(v).__name__, v))).tolist(), key=lambda m: (m[0], repr(m[1])))
        out.append(f"{_shown([v for _, v in members])} → {_shown([categories[code]])[1:-1]}")
    return out


def look_alike_note(uniques, subject: str, merged: list[str] = ()) -> str:
    """The note naming look-alike labels and mixed types among ``uniques`` ('' if none),
    after the ``merged`` groups of :func:`merged_labels`; ``subject`` names where the
    labels are ("column 'label'"). One pass over the distinct labels; only the groups
    named are described."""
    if not merged and (len(uniques) < 2 or pd.api.types.infer_dtype(uniques, skipna=True) in (
            "integer", "floating", "mixed-integer-float", "decimal", "boolean", "empty")):
        return ""  # numbers of one kind cannot look alike
    labels = list(uniques)
    kinds = [_kind(v) for v in labels]
    by_kind: dict = {}
    for label, kind in zip(labels, kinds):
        by_kind.setdefault(kind, []).append(label)
    value_groups = _value_groups(labels, kinds) if len(by_kind) > 1 else []
    text_groups = _text_groups(by_kind.get("text", []))
    named = [f"{_shown([v for v, _ in g])} (one value as "
             f"{', '.join(dict.fromkeys(k for _, k in g))})" for g in value_groups[:_SHOWN]]
    named += [_text_ways(g) for g in text_groups[:_SHOWN - len(named)]]
    parts = []
    if merged:
        parts.append("labels of different types that Python calls equal share one "
                     f"category: {'; '.join(merged)}")
    n_groups = len(value_groups) + len(text_groups)
    if n_groups:
        more = f" and {n_groups - len(named)} more" if n_groups > len(named) else ""
        parts.append(f"labels that look alike stay separate categories: "
                     f"{'; '.join(named)}{more}")
    if len(by_kind) > 1:
        parts.append("it mixes types: " + ", ".join(
            f"{kind} {_shown(values[:3])}" for kind, values in by_kind.items()))
    if not parts:
        return ""
    return (f"{subject}: " + "; ".join(parts) + ". If they mean the same, clean the "
            "labels before loading (str.strip, str.casefold, unicodedata.normalize('NFC', "
            "…), one type)")


def warn_from_caller(message: str, category: type[Warning]) -> None:
    """Warn at the first frame outside this package (the user's line)."""
    frame, level = sys._getframe(), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)
