"""What the teaching notebooks share, kept out of the lessons' way.

``check`` is a self-check: it shows the student what was compared with what, and where
the expected figure comes from, and stops the notebook (as the test suite runs it) when a
recomputed number no longer matches a paper's.
"""
from __future__ import annotations

import math

from IPython.display import Markdown, display


def shown_as(x: float, digits: int, truncated: bool = False) -> float:
    """``x`` as a page prints it with ``digits`` decimals: rounded, or cut (truncated)."""
    if truncated:
        return math.trunc(x * 10**digits) / 10**digits
    return round(x, digits)


def check(what: str, got, expected, *, source: str, digits: int = 2,
          truncated: bool = False) -> None:
    """Compare ``got`` (a number or a tuple of numbers), rounded (or, with
    ``truncated=True``, cut) to ``digits`` decimals, with the figure ``expected`` printed
    in ``source``; show the outcome in one line."""
    got_t = got if isinstance(got, tuple) else (got,)
    exp_t = expected if isinstance(expected, tuple) else (expected,)
    shown = ", ".join(f"{g:.{digits + 2}f}" for g in got_t)
    if tuple(shown_as(g, digits, truncated) for g in got_t) != tuple(exp_t):
        raise AssertionError(f"{what}: computed {shown}, but {source} prints {expected}")
    how = "truncated" if truncated else "rounded"
    display(Markdown(f"✔ **{what}**: {shown}, {how} to {digits} decimals as printed in "
                     f"{source} ({', '.join(map(str, exp_t))})."))
