"""How messages name the rows of a table: shared by the loaders (data/) and the readers
(io/), which import it and not each other."""
from __future__ import annotations

from .errors import rows_text

__all__ = ["rows_or_lines"]


def rows_or_lines(index, positions) -> str:
    """Name rows for a message: 'row(s) 0, 1' of a table's index, or what an index that
    names its own rows says of them (``name_rows``: the file and line of a CSV,
    :class:`iaa_widgets.io.csv.Lines`)."""
    name_rows = getattr(index, "name_rows", None)
    if name_rows is not None:
        return name_rows(positions)
    return f"row(s) {rows_text(index[positions])}"
