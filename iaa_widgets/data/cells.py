"""Label cells: a ``(primary, secondary)`` pair in one cell, or a rank column."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..messages import rows_or_lines as _rows
from ..errors import AgreementError


def _expand_pairs(labels: pd.Series, rows, kind: str | None = None):
    """Expand ``(primary, secondary)`` cells into two ranked ratings (labels, ranks and
    each rating's row position, None when no cell held a pair); ``kind``: the labels'
    ``infer_dtype`` when the caller has it."""
    values = labels.to_numpy()
    if _no_sequences(values, kind):
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


def _no_sequences(values: np.ndarray, kind: str | None = None) -> bool:
    """True when an object array holds only scalars (a C-speed type scan, no Python loop;
    ``kind``: its ``infer_dtype(values, skipna=True)``, scanned once by the caller)."""
    kind = pd.api.types.infer_dtype(values, skipna=True) if kind is None else kind
    return kind in (
        "string", "bytes", "integer", "floating", "mixed-integer-float", "decimal", "boolean",
        "datetime", "date", "time", "timedelta", "empty")


def _refuse_pairs(labels: pd.Series, rows, kind: str | None = None) -> None:
    """With a rank column, a label cell holds one label, never a (primary, secondary) pair
    (``kind``: as for :func:`_expand_pairs`)."""
    if _no_sequences(labels.to_numpy(), kind):
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
