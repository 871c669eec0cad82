"""Argument checks shared by the dataset generators."""
from __future__ import annotations

from ..errors import AgreementError


def check_count(name: str, value, low: int, high: int | None = None) -> None:
    """``value`` must be a whole number in [low, high]."""
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= low and \
        (high is None or value <= high)
    if not ok:
        upper = "" if high is None else f" and at most {high}"
        raise AgreementError(f"{name} must be a whole number of at least {low}{upper}, "
                             f"got {value!r}")


def check_choice(name: str, value, choices) -> None:
    if value not in choices:
        raise AgreementError(f"{name} must be one of {list(choices)!r}, got {value!r}")


def check_probability(name: str, value) -> None:
    if not (isinstance(value, (int, float)) and 0 <= value <= 1):
        raise AgreementError(f"{name} must be a probability in [0, 1], got {value!r}")
