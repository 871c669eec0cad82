"""Shared validators for the public parameters (seed, confidence, p, n_jobs …).

Every public function checks its non-data parameters at the top through these, so a
wrongly typed or out-of-range value raises :class:`~iaa_widgets.AgreementError`
"<function>: <parameter> must be …, got <repr>" before any numpy or pandas code sees
it. Each validator returns the value in its plain Python form (``int``, ``float``,
``bool``). A bool is never taken for a number (``True`` is not 1 here), NaN is never a
number, and infinity only where ``finite=False`` says so.
"""
from __future__ import annotations

import difflib
import functools
import inspect
import math
from numbers import Integral, Real
from typing import Any, Callable, Iterable, NoReturn

import numpy as np

from .errors import AgreementError

__all__ = ["fail", "boolean", "integer", "real", "probability", "confidence", "seed",
           "n_jobs", "choice", "choices", "name_or_matrix", "keywords", "keywords_of",
           "takes", "rename"]


def fail(where: str, name: str, what: str, value: Any) -> NoReturn:
    """Raise the one message every validator uses."""
    raise AgreementError(f"{where}: {name} must be {what}, got {_shown(value)}")


def _shown(value: Any) -> str:
    """The value as the message shows it: its repr, or for a table or any value whose
    repr spans lines or runs long, its type (and shape)."""
    text = repr(value)
    if "\n" not in text and len(text) <= 80:
        return text
    shape = getattr(value, "shape", None)
    size = f" of shape {' × '.join(map(str, shape))}" if isinstance(shape, tuple) else ""
    return f"a {type(value).__name__}{size}"


def keywords_of(function: Callable, passed_to: Callable | None = None) -> tuple[str, ...] | None:
    """The keywords ``function`` takes by name (its parameters after the data, in order,
    through any ``functools.wraps``); where it also takes ``**kwargs``, those it passes
    them ``passed_to`` take (a loader's, e.g. ``Annotations.from_long``), or None (any
    keyword) without one."""
    params = list(inspect.signature(function).parameters.values())
    names = tuple(p.name for p in params[1:] if p.kind in (p.POSITIONAL_OR_KEYWORD,
                                                             p.KEYWORD_ONLY))
    if not any(p.kind is p.VAR_KEYWORD for p in params):
        return names
    further = None if passed_to is None else keywords_of(passed_to)
    return None if further is None else names + tuple(n for n in further if n not in names)


def keywords(where: str, given: Iterable[str], accepted: Iterable[str] | Callable) -> None:
    """Refuse any name of ``given`` (keyword arguments, or their names) that is not
    ``accepted`` (names, or a function whose keywords they are, see :func:`keywords_of`):
    the AgreementError names the unknown keyword, the closest accepted name
    (:func:`difflib.get_close_matches`) and every accepted one. A misspelt keyword is
    never taken for its default."""
    names = keywords_of(accepted) if callable(accepted) else tuple(accepted)
    if names is None:
        return
    unknown = [g for g in given if g not in names]
    if not unknown:
        return
    shown = []
    for u in unknown:
        close = difflib.get_close_matches(u, names, n=1)
        shown.append(f"{u}=" + (f" (did you mean {close[0]}=?)" if close else ""))
    taken = ", ".join(f"{n}=" for n in names) or "no keyword besides its data"
    raise AgreementError(f"{where} does not take {', '.join(shown)}; it takes {taken}")


def takes(where: str | None = None, /, *, loader: Callable | None = None,
          **former: str) -> Callable:
    """Decorator: the keywords a function takes, checked at each call, so that a
    misspelt one is never taken for its default: one it does not take is refused
    (:func:`keywords`; a function with ``**kwargs`` takes those of the ``loader`` it
    passes them to, e.g. ``Annotations.from_long``, or, without one, leaves them to
    whoever takes them); ``former`` names of its parameters (``level="confidence"``) are
    taken for the new ones through :func:`rename`, kept outside the signature so that
    ``help()`` and ``inspect.signature`` show only the new names. Messages name
    ``where`` (default: the function's name). The wrapper's ``renamed`` holds
    ``former`` (the registry's door reads it)."""
    def wrap(fn: Callable) -> Callable:
        signature = inspect.signature(fn)
        name = where or fn.__name__
        accepted = keywords_of(fn, loader)
        first = next(iter(signature.parameters), None)

        @functools.wraps(fn)
        def call(*args, **kwargs):
            if accepted is not None:
                keywords(name, [k for k in kwargs if k != first and k not in former],
                         accepted)
            return fn(*args, **rename(name, former, signature, args, kwargs))
        call.renamed = dict(former)
        return call
    return wrap


def rename(where: str, old_to_new: dict, signature: inspect.Signature, args: tuple,
           kwargs: dict) -> dict:
    """``kwargs`` with each former name of ``old_to_new`` given in them taken for its new
    one, with a DeprecationWarning naming both at the user's line; a former name and its
    new one given together (by keyword, or the new one by position) are refused, naming
    both: keeping either without a word would be a silent change."""
    old = [o for o in old_to_new if o in kwargs]
    if not old:
        return kwargs
    from .labels import warn_from_caller
    out = {k: v for k, v in kwargs.items() if k not in old_to_new}
    by_position = [p.name for p in signature.parameters.values()
                   if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][:len(args)]
    given = {*out, *by_position}
    for o in old:
        new = old_to_new[o]
        if new in given:
            raise AgreementError(f"{where}: {o}= and {new}= were both given; {o}= is the "
                                 f"former name of {new}=: pass {new}= only")
        warn_from_caller(f"{where}: {o}= is deprecated and will be removed in the next "
                         f"release; use {new}=", DeprecationWarning)
        out[new] = kwargs[o]
    return out


def _is_bool(value) -> bool:
    return isinstance(value, (bool, np.bool_))


def boolean(where: str, name: str, value) -> bool:
    """True or False (numpy's bool included; 0, 1 and strings are refused)."""
    if not _is_bool(value):
        fail(where, name, "True or False", value)
    return bool(value)


def integer(where: str, name: str, value, minimum: int | None = None,
            maximum: int | None = None) -> int:
    """A whole number (a Python or numpy integer, not a bool or a float) in
    [minimum, maximum]."""
    bounds = _bounds_text(minimum, maximum, False, False)
    if _is_bool(value) or not isinstance(value, Integral):
        fail(where, name, f"an integer{bounds}", value)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        fail(where, name, f"an integer{bounds}", value)
    return int(value)


def real(where: str, name: str, value, *, minimum: float | None = None,
         maximum: float | None = None, open_low: bool = False, open_high: bool = False,
         finite: bool = True, nan: bool = False) -> float:
    """A real number (not a bool; NaN only with ``nan=True``, ±inf only with
    ``finite=False``) within the bounds, each closed unless ``open_low``/``open_high``."""
    what = ("a finite number" if finite else "a number") + _bounds_text(
        minimum, maximum, open_low, open_high) + (" or NaN" if nan else "")
    if _is_bool(value) or not isinstance(value, Real):
        fail(where, name, what, value)
    v = float(value)
    if math.isnan(v):
        if nan:
            return v
        fail(where, name, what, value)
    if finite and math.isinf(v):
        fail(where, name, what, value)
    if minimum is not None and (v < minimum or (open_low and v == minimum)):
        fail(where, name, what, value)
    if maximum is not None and (v > maximum or (open_high and v == maximum)):
        fail(where, name, what, value)
    return v


def probability(where: str, name: str, value, *, open_low: bool = False,
                open_high: bool = False) -> float:
    """A number in [0, 1] (either end open on request)."""
    return real(where, name, value, minimum=0.0, maximum=1.0, open_low=open_low,
                open_high=open_high)


def confidence(where: str, name: str, value) -> float:
    """A confidence level strictly between 0 and 1, e.g. 0.95."""
    return probability(where, name, value, open_low=True, open_high=True)


def seed(where: str, name: str, value):
    """What :func:`numpy.random.default_rng` accepts as a reproducible seed: None, an
    integer ≥ 0, a sequence of such integers, a SeedSequence, a BitGenerator or a
    Generator. Returned unchanged."""
    what = ("None, an integer ≥ 0, a sequence of integers ≥ 0, a numpy SeedSequence, "
            "BitGenerator or Generator")
    if value is None or isinstance(value, (np.random.SeedSequence, np.random.BitGenerator,
                                           np.random.Generator)):
        return value
    items = value if isinstance(value, (list, tuple, np.ndarray)) else [value]
    if isinstance(value, np.ndarray) and value.ndim != 1:
        fail(where, name, what, value)
    if (isinstance(value, (list, tuple, np.ndarray)) and len(value) == 0) or not all(
            isinstance(v, Integral) and not _is_bool(v) and v >= 0 for v in items):
        fail(where, name, what, value)
    return value


def n_jobs(where: str, name: str, value) -> int | None:
    """Processes to use: an integer ≥ 1, or -1 / None for one per CPU."""
    if value is None:
        return None
    if _is_bool(value) or not isinstance(value, Integral) or not (value >= 1 or value == -1):
        fail(where, name, "an integer ≥ 1, or -1 or None for one process per CPU", value)
    return int(value)


def choice(where: str, name: str, value, options: Iterable):
    """One of ``options`` (compared by equality; an unhashable or odd value is refused,
    never a TypeError)."""
    options = list(options)
    if not any(_same(value, o) for o in options):
        fail(where, name, f"one of {options!r}", value)
    return value


def choices(where: str, name: str, values, options: Iterable) -> list:
    """A non-empty sequence of distinct names, each one of ``options``; a single name
    stands for a list of one."""
    options = list(options)
    what = f"a name or a non-empty list of distinct names from {options!r}"
    if isinstance(values, str):
        values = [values]
    if isinstance(values, bytes) or not isinstance(values, Iterable):
        fail(where, name, what, values)
    values = list(values)
    if not values or not all(any(_same(v, o) for o in options) for v in values) or \
            len(set(values)) != len(values):
        fail(where, name, what, values)
    return values


def name_or_matrix(where: str, name: str, value, names: Iterable, *,
                   none: bool = False, function: bool = False):
    """One of ``names``, or a square table (a DataFrame or anything two-dimensional;
    its cells are the measure's to check), or None / a callable where allowed (weights
    of κ, metrics of α)."""
    names = list(names)
    if isinstance(value, str):
        return choice(where, name, value, names)
    if (none and value is None) or (function and callable(value)) or _is_table(value):
        return value
    fail(where, name, f"one of {names!r}" + (", None" if none else "")
         + (", a callable" if function else "") + " or a K × K matrix", value)


def _is_table(value) -> bool:
    import pandas as pd
    if isinstance(value, pd.DataFrame):
        return True
    try:
        return np.ndim(np.asarray(value, dtype=object)) == 2
    except ValueError:  # ragged nesting
        return False


def _same(value, option) -> bool:
    """value == option as a plain bool: a string only equals a string, a bool only a
    bool (True is not 1), and an array or a failing comparison equals nothing."""
    if isinstance(value, str) or isinstance(option, str):
        return isinstance(value, str) and isinstance(option, str) and value == option
    if _is_bool(value) != _is_bool(option):
        return False
    try:
        return bool(value == option)
    except (TypeError, ValueError):
        return False


def _bounds_text(minimum, maximum, open_low: bool, open_high: bool) -> str:
    if minimum is not None and maximum is not None:
        return (f" in {'(' if open_low else '['}{minimum:g}, {maximum:g}"
                f"{')' if open_high else ']'}")
    if minimum is not None:
        return f" {'>' if open_low else '≥'} {minimum:g}"
    if maximum is not None:
        return f" {'<' if open_high else '≤'} {maximum:g}"
    return ""
