"""Categories: the declared set and its order, each label's code, notes on the labels.

An order counts only when someone gave it (numbers, an ordered Categorical,
``categories=``); an order found by sorting text never does."""
from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import pandas as pd

from ..messages import rows_or_lines as _rows
from ..errors import AgreementError
from ..labels import LookAlikeLabelsWarning, blank_labels, look_alike_note, warn_from_caller
from .codes import _arrow_strings, _blank_as_missing, _column_codes, _dense_ints, \
    _whole_floats


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


def numeric_values(categories, what: str, where=None,
                   instead: str = "code the labels as numbers") -> np.ndarray:
    """The categories as numbers, for ``what`` (a measure and its parameter) that uses
    the labels' values: the one place label values become numbers. Refused, naming the
    label (and ``where(code)``: the first rating holding it) when a label is no number
    or is not finite (±inf; NaN is a blank label), or when the labels lie so far apart
    that their difference is not finite; ``instead`` says what to pass."""
    cats = pd.Index(list(categories))
    try:
        values = cats.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise AgreementError(f"{what} uses the labels' values: it needs numeric categories, "
                             f"got {list(cats)[:8]!r}; {instead}") from None
    bad = np.flatnonzero(~np.isfinite(values))
    if len(bad):
        at = where(bad[0]) if where is not None else ""
        raise AgreementError(f"{what} uses the labels' values, but label {values[bad[0]]}"
                             + (f" (at {at})" if at else "") + " is not a finite number; "
                             "recode or drop such ratings (labels must be finite numbers)")
    with np.errstate(over="ignore"):
        spread = values.max() - values.min() if len(values) else 0.0
    if not np.isfinite(spread):
        raise AgreementError(f"{what} uses the labels' values, but {values.min()} and "
                             f"{values.max()} lie too far apart for their difference to "
                             "be a finite number; rescale the labels")
    return values


def unhashable_labels(name: str, bad: list, where: str = "") -> AgreementError:
    """The refusal of labels that cannot be compared as values (lists, dicts)."""
    return AgreementError(f"column {name!r} holds label(s) {bad[:5]!r}{where} that cannot be "
                          "grouped (lists, dicts); give each label as text, a number, or "
                          "several labels as a set or frozenset")


def hashable_labels(labels: pd.Series, name: str, index) -> pd.Series:
    """``labels`` with each Python set as a frozenset (the same labels, now comparable);
    other unhashable labels refused with their rows (a pass over the rows, made only
    once coding them failed)."""
    values = labels.to_numpy(dtype=object)
    sets = np.flatnonzero([isinstance(v, (set, frozenset)) for v in values])
    values = values.copy()
    values[sets] = [frozenset(v) for v in values[sets]]
    bad = np.flatnonzero([not isinstance(v, Hashable) for v in values])
    if len(bad):
        raise unhashable_labels(name, [values[j] for j in bad[:5]], f" at {_rows(index, bad)}")
    return pd.Series(values, index=labels.index, dtype=object)


def _label_codes(labels: pd.Series, categories, name: str, index):
    """The declared categories and each label's code, from one pass over the labels."""
    dense = None
    if isinstance(labels.dtype, pd.CategoricalDtype):
        blank = blank_labels(labels.cat.categories)
        if blank.any():  # a blank category is a missing label
            labels = labels.cat.remove_categories(labels.cat.categories[blank])
        value_codes, uniques = labels.cat.codes.to_numpy(), labels.cat.categories
    else:
        values = None if _arrow_strings(labels) else labels.to_numpy()
        dense = None if values is None else _dense_ints(values) or _whole_floats(values)
        if dense is None:
            try:
                coded = _column_codes(labels)
            except TypeError:  # unhashable labels: sets become frozensets, others refused
                labels = hashable_labels(labels, name, index)
                coded = _column_codes(labels)
            value_codes, uniques = _blank_as_missing(*coded)
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
