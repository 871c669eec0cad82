"""Plain JSON for the widgets' traitlets and their saved pages (one rule for both)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["json_safe"]


def json_safe(value: Any) -> Any:
    """Plain JSON for a traitlet: numpy scalars to Python numbers, NaN/inf to None,
    DataFrames to lists of row dicts."""
    if isinstance(value, pd.DataFrame):
        return _records(value)
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [json_safe(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    return value if value is None or isinstance(value, str) else str(value)


def _records(df: pd.DataFrame) -> list[dict]:
    """``json_safe`` of each row of ``df`` as a dict (what ``to_dict("records")`` then
    ``json_safe`` give), built column by column where every column has a numpy dtype:
    numeric columns go through numpy at once (NaN/inf to None), others value by value.
    Extension dtypes (nullable, Arrow) keep pandas' own conversion of their missing
    values."""
    if not all(isinstance(t, np.dtype) for t in df.dtypes):
        return [json_safe(r) for r in df.to_dict(orient="records")]
    columns = []
    for _, col in df.items():
        values = col.to_numpy()
        if values.dtype.kind in "biuf":
            out = values.tolist()
            if values.dtype.kind == "f":
                for i in np.flatnonzero(~np.isfinite(values)):  # the few non-finite values
                    out[i] = None
        else:
            out = [json_safe(v) for v in col.tolist()]
        columns.append(out)
    names = [str(k) for k in df.columns]
    return [dict(zip(names, row)) for row in zip(*columns)] if columns else [{}] * len(df)
