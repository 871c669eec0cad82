"""Integer codes of a column: one hash pass per column, Arrow's dictionary encoding for
Arrow-backed strings, a dense look-up table or the steps of sorted ids for integers."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..labels import blank_labels


def _owned(codes: np.ndarray, dtype) -> np.ndarray:
    """``codes`` as ``dtype``, never a view of the user's table (codes equal to the ids
    are the column itself): a later edit of the table must not change the ratings."""
    if codes.base is not None or not codes.flags.owndata:
        return np.array(codes, dtype=dtype)
    return codes.astype(dtype, copy=False)


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
    Arrow-backed strings take Arrow's dictionary encoding (one hash table across the
    chunks, no Python object per row); any other column goes through :func:`_factorize`."""
    if _arrow_strings(col):
        import pyarrow as pa  # pandas keeps these strings in Arrow: pyarrow is installed
        encoded = pa.chunked_array(pa.array(col.array)).dictionary_encode()
        if encoded.num_chunks == 0:
            return np.empty(0, np.intp), np.empty(0, dtype=object)
        codes = pa.chunked_array([c.indices for c in encoded.chunks]).fill_null(-1)
        return (np.asarray(codes.to_numpy(), dtype=np.intp),
                np.asarray(encoded.chunk(encoded.num_chunks - 1).dictionary.to_pylist(),
                           dtype=object))  # the chunks share one dictionary, the last complete
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
