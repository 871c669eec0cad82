"""The one exception type that bad input raises."""


class AgreementError(ValueError):
    """Input that no agreement measure can use.

    The message names the offending column, rows or values and says what would
    be accepted instead.
    """


def rows_text(rows, limit: int = 5) -> str:
    """Name a few offending rows (0-based positions or index labels) for a message."""
    rows = list(rows)
    shown = ", ".join(str(r) for r in rows[:limit])
    more = f" and {len(rows) - limit} more" if len(rows) > limit else ""
    return f"{shown}{more}"
