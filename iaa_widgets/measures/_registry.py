"""Every coefficient known in one place: one :class:`Measure` per coefficient, registered
beside its definition with :func:`register`, and each pairwise kernel with :func:`kernel`.

What lists coefficients reads this registry: the package's namespace (``iaa.cohen_kappa``
and ``__all__``), :func:`coefficients` (which coefficients apply to a data set, and why
not the others), the report, ContingencyMatrix, ``pairwise``, ``per_label``, the
bootstrap's look-up by name and the engines: a registered measure given
:class:`~iaa_widgets.stats.lazy.SufficientStatistics` as its data computes itself from
them through its ``engine`` (measures/_engine.py). A new coefficient is its formula and
one ``@register(...)``.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import math
import pkgutil
from dataclasses import dataclass
from typing import Callable

from .. import validate
from ..stats import lazy
from . import _engine

__all__ = ["Measure", "register", "kernel", "margin_kernel", "measures", "get", "find",
           "names", "kernels", "margin_kernels", "attempt", "coefficients", "cut", "DATA",
           "FAMILIES", "MISSING"]

# what a measure takes, as coefficients() describes it
DATA = {
    "categorical": "labels of items (nominal categories)",
    "numeric": "numeric ratings of items",
    "ranked": "ratings of items in a declared order (numbers or ordered categories)",
    "set-valued": "sets of labels per item (multi-label)",
    "primary-secondary": "a primary and a secondary label per item (rank 1 and 2)",
    "continuum": "units placed on a continuum (annotator, category, start, end)",
    "spans": "spans of one or more documents (a Continuum or Spans)",
}
# the families, in the order every listing follows
FAMILIES = ("observed agreement", "chance-corrected agreement", "Krippendorff's alpha",
            "correlation and variance", "spans", "unitizing and continuum")
# the missing-data policies and what each keeps (measures/_prepare.py defines them)
MISSING = {
    "listwise": "the items every annotator considered rated",
    "available": "every rating in each term that can use it (Gwet 2014)",
    "pairable": "the items rated at least twice, in every term",
    "pairwise": "for each pair of annotators, the items both rated",
    "raise": "refuse data with a missing rating",
}

_MEASURES: dict[str, "Measure"] = {}
_ALIASES: dict[str, str] = {}
_KERNELS: dict[str, tuple[Callable, tuple]] = {}
_MARGIN_KERNELS: dict[str, Callable] = {}
_LOADED = False


@dataclass(frozen=True)
class Measure:
    """One coefficient: its ``name`` and ``function``; its ``family`` (one of
    :data:`FAMILIES`); the ``data`` it needs (a key of :data:`DATA`) and ``annotators``
    ("two" or "many": two or more); the analytic ``intervals`` it gives (the bootstrap's
    are added for a measure with a Statistic, see :attr:`interval_kinds`); its ``missing``
    policies (the default is the function's own); its ``source``; a short ``symbol`` for
    tables and panels; its ``scale`` ("agreement": observed and expected agreement A_o,
    A_e, or "disagreement": D_o, D_e); the ``range`` its values lie in (intervals are cut
    to it, :func:`cut`); ``needs``: keyword arguments the data cannot supply (Finn's
    ``levels``); ``aliases``: other public names of the same function; where it is
    shown: ``report`` (the report's table), ``panel`` (ContingencyMatrix),
    ``benchmarked`` (read against a benchmark scale); and its ``engine``:
    ``engine(statistics, measure, **its arguments)``, the totals its ``finish`` takes
    from :class:`~iaa_widgets.stats.lazy.SufficientStatistics` (measures/_engine.py;
    None: it needs the ratings in memory); ``without_each``: the measure's values without
    each annotator in turn, ``without_each(data, **its arguments)`` (or None where it does
    not apply), for a measure whose leave-one-out cannot take the per-item counts path
    (:func:`iaa_widgets.inference.leave_one_out.leave_one_out`)."""

    name: str
    function: Callable
    family: str
    data: str
    annotators: str
    source: str
    symbol: str = ""
    intervals: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    scale: str = "agreement"
    range: tuple[float, float] = (-math.inf, 1.0)
    needs: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    report: bool = False
    panel: bool = False
    benchmarked: bool = False
    engine: Callable | None = None
    without_each: Callable | None = None

    @property
    def statistic(self) -> Callable | None:
        """``function.statistic(data, **kwargs)``: the Statistic the measure finishes
        (bootstrap, engines, widgets), or None."""
        return getattr(self.function, "statistic", None)

    @property
    def kernel(self) -> tuple[Callable, tuple] | None:
        """(vectorised formula over P × K × K pair tables, keywords it takes) for
        ``pairwise``, or None."""
        return kernels().get(self.name)

    @property
    def keywords(self) -> tuple[str, ...]:
        """The keywords the measure takes after its data (its loader's included, for a
        measure with ``**loader_args``); any other is refused (:func:`_door`)."""
        return self.function.keywords

    @property
    def default_missing(self) -> str | None:
        p = inspect.signature(self.function).parameters.get("missing")
        return None if p is None else p.default

    @property
    def interval_kinds(self) -> tuple[str, ...]:
        """The analytic intervals, then "bootstrap percentile" (any measure of items) and
        "bootstrap BCa" (a measure with a Statistic)."""
        if self.data in ("continuum", "spans"):
            return self.intervals
        boot = ("bootstrap percentile", "bootstrap BCa") if self.statistic else \
            ("bootstrap percentile",)
        return self.intervals + boot


def register(*, family: str, data: str, annotators: str, source: str, **fields) -> Callable:
    """Decorator: record the function as a :class:`Measure` (see its fields) under its
    ``__name__``, and return it as the one door to its data: given
    SufficientStatistics, it computes itself from them (:func:`_door`)."""
    def add(fn: Callable) -> Callable:
        door = _door(fn, data)
        m = Measure(fn.__name__, door, family, data, annotators, source, **fields)
        if fn.__name__.startswith("_") or family not in FAMILIES or data not in DATA or \
                annotators not in ("two", "many"):
            raise ValueError(f"register({fn.__name__}): a private name, or family "
                             f"{family!r}, data {data!r} or annotators {annotators!r} unknown")
        _MEASURES[m.name] = m
        _ALIASES.update(dict.fromkeys(m.aliases, m.name))
        return door
    return add


def _door(fn: Callable, data: str) -> Callable:
    """``fn`` as it is, except that a keyword it does not take (a misspelt one) is refused
    naming the closest it takes (:func:`~iaa_widgets.validate.keywords`), never a
    TypeError nor a default taken in its place (a measure with ``**loader_args`` takes
    those of the loader of its ``data``: Continuum.from_frame, Annotations.from_long);
    the former names of its parameters (``fn`` made by :func:`~iaa_widgets.validate.takes`)
    are taken for the new ones with a warning, and refused together with them; and given
    SufficientStatistics as its data it binds its arguments as ``fn`` would (defaults
    filled) and computes itself through its descriptor's ``engine``; refused, naming the
    measures that can, where it has none. The door's ``keywords`` are those it takes,
    ``renamed`` the former names."""
    from ..continuum import Continuum
    from ..data import Annotations
    renamed = getattr(fn, "renamed", {})
    inner = fn.__wrapped__ if hasattr(fn, "renamed") else fn  # the door checks and renames
    signature = inspect.signature(inner)
    first = next(iter(signature.parameters))
    accepted = validate.keywords_of(inner, Continuum.from_frame if data in (
        "continuum", "spans") else Annotations.from_long)

    @functools.wraps(inner)
    def measure(*args, **kwargs):
        validate.keywords(fn.__name__, [k for k in kwargs if k != first and k not in renamed],
                          accepted)
        kwargs = validate.rename(fn.__name__, renamed, signature, args, kwargs)
        data = args[0] if args else kwargs.get(first)
        if not isinstance(data, lazy.SufficientStatistics):
            return inner(*args, **kwargs)
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        del arguments[first]
        m = _MEASURES[fn.__name__]
        if m.engine is None:
            from ..errors import AgreementError
            able = ", ".join(e.name for e in measures() if e.engine)
            raise AgreementError(
                f"{m.name} cannot be computed from sufficient statistics: its terms are not "
                f"sums of the engine's tables; load the ratings in memory (e.g. "
                f"iaa.Annotations.from_long(frame)), or use one that can: {able}")
        return _engine.compute(m, data, arguments)
    measure.renamed, measure.keywords = renamed, accepted
    return measure


def kernel(name: str, accepts: tuple = ()) -> Callable:
    """Decorator: the pairwise kernel of measure ``name``: a vectorised formula over the
    P × K × K contingency tables of all pairs, with the keywords it ``accepts``."""
    def add(fn: Callable) -> Callable:
        _KERNELS[name] = (fn, tuple(accepts))
        return fn
    return add


def margin_kernel(name: str) -> Callable:
    """Decorator: the same kernel of measure ``name`` from each pair's totals
    ``agree`` = Σ_jk v_jk t_jk, t_j· and t_·k (2K + 1 numbers a pair instead of K²)."""
    def add(fn: Callable) -> Callable:
        _MARGIN_KERNELS[name] = fn
        return fn
    return add


def _load() -> None:
    """Import every module of :mod:`iaa_widgets.measures` once, so every registration
    has run."""
    global _LOADED
    if _LOADED:
        return
    package = importlib.import_module(__package__)
    for info in pkgutil.walk_packages(package.__path__, __package__ + "."):
        importlib.import_module(info.name)
    _LOADED = True


def _key(m: Measure):
    code = getattr(inspect.unwrap(m.function), "__code__", None)
    return (FAMILIES.index(m.family), m.function.__module__,
            code.co_firstlineno if code else 0, m.name)


def measures(**where) -> list[Measure]:
    """Every registered measure whose fields equal ``where`` (e.g. ``report=True``),
    by family, then in the order of their definitions."""
    _load()
    return sorted((m for m in _MEASURES.values()
                   if all(getattr(m, k) == v for k, v in where.items())), key=_key)


def find(name: str, load: bool = True) -> Measure | None:
    """The measure named ``name`` (or an alias), loading the registry only when it is
    not registered yet (never with ``load=False``); None if there is none."""
    if load and name not in _MEASURES and name not in _ALIASES:
        _load()
    return _MEASURES.get(_ALIASES.get(name, name))


def get(name, where: str = "measure", parameter: str = "measure") -> Measure:
    """The measure named ``name``; an AgreementError naming ``where`` otherwise."""
    m = find(name) if isinstance(name, str) else None
    if m is None:
        validate.fail(where, parameter, "the name of a coefficient of iaa_widgets (see "
                      "iaa.coefficients())", name)
    return m


def names() -> list[str]:
    """The public names of every measure, aliases included."""
    out = []
    for m in measures():
        out += [m.name, *m.aliases]
    return out


def kernels() -> dict[str, tuple[Callable, tuple]]:
    """name → (kernel, keywords) of every measure ``pairwise`` evaluates over pair tables."""
    importlib.import_module(".categorical.pairwise", __package__)  # where the kernels are registered
    return dict(_KERNELS)


def margin_kernels() -> dict[str, Callable]:
    """name → its kernel from the pairs' margins (:func:`margin_kernel`)."""
    importlib.import_module(".categorical.pairwise", __package__)
    return dict(_MARGIN_KERNELS)


def _public(name: str) -> Callable:
    """``iaa.<name>`` of a measure or ``pairwise``: where the former methods of
    SufficientStatistics forward (stats/ imports no measure; this hands them the door)."""
    if name == "pairwise":
        return importlib.import_module(".categorical.pairwise", __package__).pairwise
    return get(name).function


lazy.open_door(_public)


def cut(m: Measure, low: float, high: float) -> tuple[float, float, bool]:
    """An interval cut to the coefficient's range, and whether it was cut."""
    lo, hi = m.range
    new_low, new_high = max(low, lo), min(high, hi)
    return new_low, new_high, (new_low, new_high) != (low, high) and not (
        math.isnan(low) or math.isnan(high))


# ------------------------------------------------------------ which coefficients apply
def _kinds(data) -> tuple[set, str, object]:
    """The kinds of :data:`DATA` these data offer, a phrase saying what they are, and the
    data as the measures take them (Annotations for ratings of items; sufficient
    statistics as they are)."""
    import pandas as pd
    from ..continuum import Continuum
    if isinstance(data, pd.DataFrame) and {"start", "end"} <= set(data.columns):
        data = Continuum.from_frame(data)  # a tidy table of units
    if isinstance(data, Continuum):
        return {"continuum", "spans"}, "units on a continuum", data
    if isinstance(data, dict) or type(data).__name__ == "Spans":
        return {"spans"}, "spans of documents", data
    from ..data import as_annotations
    engine = isinstance(data, lazy.SufficientStatistics)
    ann = data if engine else as_annotations(data)
    kinds = {"categorical"}
    cats = ann.categories
    if len(cats) and all(isinstance(c, frozenset) for c in cats):
        kinds.add("set-valued")
    numeric = pd.api.types.is_numeric_dtype(cats) and not pd.api.types.is_bool_dtype(cats)
    if numeric:
        kinds.add("numeric")
    if numeric or ann.ordered:
        kinds.add("ranked")
    if not engine and ann.has_secondary:
        kinds.add("primary-secondary")
    what = ("set-valued labels" if "set-valued" in kinds else "numeric ratings" if numeric
            else "ordered categories" if ann.ordered else "unordered categorical labels")
    what = (f"sufficient statistics of {what} of {ann.n_items}" if engine else
            f"{what} of {ann.total_items}") + f" items by {ann.n_annotators} annotators"
    return kinds, what, ann


def attempt(m: Measure, data, **kwargs):
    """``m`` on ``data``: (result, "") or (None, why it does not apply): the data are not
    of the kind it needs, it needs an argument the data cannot give, or the measure's
    own refusal (its AgreementError)."""
    from ..errors import AgreementError
    kinds, what, taken = _kinds(data)
    if m.data not in kinds:
        return None, f"needs {DATA[m.data]}; these data are {what}"
    missing = [n for n in m.needs if n not in kwargs]
    if missing:
        return None, f"needs {', '.join(f'{n}=' for n in missing)}, which the data do not give"
    if m.engine is None and isinstance(taken, lazy.SufficientStatistics):
        return None, ("needs the ratings in memory: its terms are not sums of the engine's "
                      "tables")
    try:
        return m.function(taken, **kwargs), ""
    except AgreementError as err:
        return None, " ".join(str(err).split())


@validate.takes()
def coefficients(data=None):
    """Every coefficient as a DataFrame, one row each: ``name``, ``family``, the ``data``
    it needs, ``annotators`` (two, or two or more), ``intervals`` (analytic, bootstrap),
    ``missing`` (its policies, default first), ``source``.

    Given ``data`` (ratings of items, a Continuum or Spans), two more columns say which
    coefficients apply: ``applies`` and ``why not`` (the kind of data it needs, an argument
    the data cannot give, or the measure's own refusal). Each applicable measure is
    computed once on the data with its defaults, which is how this is known; units on a
    continuum are judged by their kind only (γ's sampling is not run)."""
    import pandas as pd
    rows = []
    kinds = what = taken = None
    if data is not None:
        kinds, what, taken = _kinds(data)
    for m in measures():
        default = m.default_missing
        policies = ([default] if default else []) + [p for p in m.missing if p != default]
        row = {"name": m.name, "family": m.family, "data": m.data,
               "annotators": "two" if m.annotators == "two" else "two or more",
               "intervals": ", ".join(m.interval_kinds) or "none",
               "missing": ", ".join(policies), "source": m.source}
        if data is not None:
            if m.data in ("continuum", "spans") and m.data in kinds:
                reason = ""
            elif m.data in ("continuum", "spans") or m.data not in kinds:
                reason = f"needs {DATA[m.data]}; these data are {what}"
            else:
                reason = attempt(m, taken)[1]
            row |= {"applies": not reason, "why not": reason}
        rows.append(row)
    return pd.DataFrame(rows)
