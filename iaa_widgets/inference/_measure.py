"""Which measure a caller of the inference functions means: a name of the registry or a
function of the data (shared by bootstrap, leave_one_out and compare)."""
from __future__ import annotations

import inspect
from typing import Callable

from .. import validate
from ..measures import _registry

# the most replicates a bootstrap draws: 10⁶ (beyond it the Monte Carlo error of a 95 %
# bound, about 0.001 of the SE at 10⁵ already, is below any reported digit, and a measure
# recomputed per replicate would run for hours); larger requests are refused
MAX_RESAMPLES = 1_000_000


def resolve(measure, where: str = "bootstrap") -> tuple[Callable, str]:
    """The function and name of ``measure`` (a coefficient's name or a callable)."""
    if isinstance(measure, str):  # a coefficient of the registry
        if _registry.find(measure) is None:
            validate.fail(where, "measure", "a function or the name of a coefficient "
                          "of iaa_widgets (iaa.coefficients())", measure)
        return _registry.find(measure).function, measure
    if not callable(measure):
        validate.fail(where, "measure", "a function or the name of a public measure "
                      "of iaa_widgets", measure)
    return measure, getattr(measure, "__name__", type(measure).__name__)


def measure_like(x) -> bool:
    """Whether ``x`` can name a measure (the former argument order of bootstrap)."""
    return isinstance(x, str) or callable(x)


def takes(fn, name: str) -> bool:
    """Whether ``fn`` names a parameter ``name``."""
    try:
        return name in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def check_keywords(where: str, name: str, fn, given) -> None:
    """Refuse a keyword that ``fn`` does not take (a misspelt one, ``weights=`` for
    percent agreement), naming the closest it takes; its former names pass (the measure
    warns about them itself)."""
    known = [k for k in given if k not in getattr(fn, "renamed", {})]
    validate.keywords(f"{where}({name!r})", known, fn)
