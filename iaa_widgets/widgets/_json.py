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
        return [json_safe(r) for r in value.to_dict(orient="records")]
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
