"""One door to the engines: every measure with engine totals takes the sufficient
statistics of a table on its engine as its data,
``iaa.gwet_ac1(iaa.sufficient_statistics(duckdb_relation))``.

A measure's descriptor (measures/_registry.py) holds its ``engine``: a function of the
:class:`~iaa_widgets.stats.lazy.SufficientStatistics` and the measure's own arguments
that gives either

- :class:`Totals`: the totals its own ``finish`` takes (the tables of its Statistic,
  summed over the items its missing-data policy keeps, as sums over the number of
  ratings m of the engine's tables), that ``finish``, and what was kept and excluded;
  the value then equals the in-memory one, and the result says in its note that the
  standard error, which needs per-item sums, is not there; or
- an AgreementResult: a two-annotator coefficient computed by the measure itself from
  its pair's K × K table kept as counts (:func:`pair_table`), standard error included.

The shared engines are here: :func:`multi_rater` (the coefficients of Fleiss' per-item
agreement: percent agreement, S, Fleiss', Conger's and Hubert's κ, Gwet's AC1/AC2,
specific agreement) and :func:`pair_table`; the others sit beside their measure (α,
SPA, Light's κ). The registry's ``register`` recognises SufficientStatistics given as
the data and calls :func:`compute`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from .. import validate
from ..errors import AgreementError
from ..results import AgreementResult
from ..stats.lazy import SufficientStatistics
from ._prepare import kept
from .weights import agreement_weights

__all__ = ["Totals", "compute", "multi_rater", "pair_table", "policy", "whole_panel",
           "NOTE"]

NOTE = ("computed from sufficient statistics on the data's engine: value only, the "
        "standard error needs per-item sums")


@dataclass(frozen=True)
class Totals:
    """A measure's engine totals: ``totals`` (name → array with a leading resample axis
    of 1, as its Statistic's ``finish`` takes them), that ``finish`` (→ value,
    observed, expected), ``used`` (boolean over the numbers of ratings m = 0 … M of
    ``SufficientStatistics.sizes``: the items the policy keeps), what it ``excluded``
    (reason → items) and the result's ``params``; ``measure``: the result's name when
    it is not the registered one."""

    totals: dict
    finish: Callable[[dict], tuple]
    used: np.ndarray
    excluded: dict
    params: dict = field(default_factory=dict)
    measure: str = ""


def compute(measure, s: SufficientStatistics, arguments: dict) -> AgreementResult:
    """The registered ``measure`` (its descriptor) on the sufficient statistics ``s``:
    its ``engine`` called with the measure's own ``arguments`` (bound, defaults
    filled), then its ``finish`` of the totals."""
    out = measure.engine(s, measure, **arguments)
    if isinstance(out, AgreementResult):
        return out
    value, observed, expected = (float(np.asarray(x, dtype=float).ravel()[0])
                                 for x in out.finish(out.totals))
    m = np.arange(len(s.sizes))
    params = {**out.params, "blank_labels": s.n_blank} if s.n_blank else out.params
    return AgreementResult(
        measure=out.measure or measure.name, value=value, observed=observed,
        expected=expected, n_items=int(s.sizes[out.used].sum()),
        n_annotators=s.n_annotators, n_ratings=int((m * s.sizes)[out.used].sum()),
        scale=measure.scale,
        excluded={k: v for k, v in out.excluded.items() if v}, params=params,
        note="; ".join((*s.notes, NOTE)))


def whole_panel(s: SufficientStatistics, name: str, annotators) -> None:
    """Refuse ``annotators=`` other than the statistics' own: they were made for their
    annotators (``sufficient_statistics(..., annotators=[...])`` selects on the engine)."""
    if annotators is not None and list(annotators) != list(s.annotators):
        raise AgreementError(
            f"{name}: annotators={list(annotators)!r} selects ratings in memory; these "
            f"sufficient statistics hold the ratings of {list(s.annotators)!r}. Choose the "
            "annotators when making them: sufficient_statistics(frame, annotators=[...])")


def policy(s: SufficientStatistics, name: str, missing: str, policies: tuple,
           singles: bool = False) -> tuple[np.ndarray, dict]:
    """The numbers of ratings m a missing-data policy keeps (a mask over ``s.sizes``)
    and what it excludes, as :func:`~iaa_widgets.measures._prepare.prepare` keeps items
    (``singles``: the chance terms take items rated once under "available")."""
    validate.choice(name, "missing", missing, policies)
    m = np.arange(len(s.sizes))
    full = s.n_annotators
    short = int(s.sizes[m < full].sum())
    if missing == "raise" and short:
        raise AgreementError(f"{name}: {short} item(s) lack a rating by some of the {full} "
                             "annotators; pass missing='listwise' to drop them")
    return kept(m, full, missing, singles, s.sizes, name, policies)


def multi_rater(singles: bool) -> Callable:
    """The engine of a coefficient of Fleiss' per-item agreement (the tables of its
    Statistic named as in measures/categorical/classic.py): Σ_i a_i over pairable
    items, a_i = (Σ_kl w_kl n_ik n_il − m_i) / (m_i(m_i − 1)) (Fleiss 1971's P_i; Gwet
    2014's weighted p_a), grouped by m; the shares Σ_i n_ic / m_i; the annotators'
    counts n_rc; Σ_i n_ic(n_ic − 1) and Σ_i n_ic(m_i − 1) (Uebersax 1982). ``singles``:
    its chance terms take items rated once under "available" (Fleiss', Conger's κ, S,
    Gwet's AC1/AC2)."""
    def engine(s: SufficientStatistics, measure, **arguments) -> Totals:
        name = measure.name
        whole_panel(s, name, arguments.get("annotators"))
        missing = arguments["missing"]
        used, excluded = policy(s, name, missing, measure.missing, singles)
        m = np.arange(len(s.sizes))
        pairable = used & (m >= 2)
        w, w_name = agreement_weights(arguments.get("weights"), s.categories, s.ordered,
                                      name)
        weighted = np.einsum("mkl,kl->m", s.products, w) - m * s.sizes
        with np.errstate(divide="ignore", invalid="ignore"):
            agree = np.where(pairable, weighted / (m * (m - 1)), 0.0).sum()
            shares = (s.totals[used] / m[used, None]).sum(axis=0)  # Σ_i n_ic / m_i
        diag = np.diagonal(s.products, axis1=1, axis2=2)
        stat = measure.statistic(s.stand_in(), **{**arguments, "annotators": None})
        n_rc = s.annotator_counts[used].sum(axis=0)
        if "n_rc" in stat.shapes and not n_rc.sum(axis=1).all():
            idle = list(s.annotators[n_rc.sum(axis=1) == 0])
            raise AgreementError(f"{name}: annotator(s) {idle!r} rated none of the items "
                                 f"used under missing={missing!r}; leave them out with "
                                 "sufficient_statistics(..., annotators=[...])")
        made = {"agree": [[agree]], "pairable": [[s.sizes[pairable].sum()]],
                "shares": [shares], "items": [[s.sizes[used].sum()]], "n_rc": [n_rc],
                "agree_c": [(diag - s.totals)[used].sum(axis=0)],
                "chances_c": [((m[:, None] - 1) * s.totals)[used].sum(axis=0)]}
        params = {"missing": missing, "annotators": list(s.annotators)}
        if "weights" in arguments:
            params["weights"] = w_name
        if "positive" in arguments:
            params["positive"] = arguments["positive"]
        return Totals({t: np.asarray(made[t], dtype=float) for t in stat.shapes},
                      stat.finish, used, excluded, params)
    return engine


def pair_table(s: SufficientStatistics, measure, *, annotators=None,
               missing: str = "listwise", **arguments) -> AgreementResult:
    """A two-annotator coefficient computed by the measure itself from the K × K table
    of ``annotators`` (the two of the data by default) kept as counts: over the items
    both rated, with its standard error (it needs only that table); the items the pair
    did not share are counted in ``excluded``."""
    name = measure.name
    validate.choice(name, "missing", missing, measure.missing)
    names = list(s.annotators) if annotators is None else list(annotators)
    if len(names) != 2:
        raise AgreementError(f"{name} compares two annotators but the data has "
                             f"{s.n_annotators}; pick two with annotators=(a, b)")
    table = s.pair_table(names, name)
    both = int(table.sum())
    if both == 0:
        raise AgreementError(f"{name}: {names[0]!r} and {names[1]!r} rated no item in "
                             "common")
    a, b = s.annotators.get_indexer(names)
    rated = s.annotator_counts.sum(axis=(0, 2))  # items each annotator rated
    excluded = {"not rated by these annotators": s.n_items - int(rated[a] + rated[b]) + both,
                "rated by one annotator only": int(rated[a] + rated[b]) - 2 * both}
    if missing == "raise" and excluded["rated by one annotator only"]:
        raise AgreementError(f"{name}: {excluded['rated by one annotator only']} item(s) "
                             f"lack a rating by {names[0]!r} or {names[1]!r}; pass "
                             "missing='listwise' to drop them")
    result = measure.function(s.counted(np.array([[0, 1]]), table[None], names),
                              missing=missing, **arguments)
    params = {**result.params, "blank_labels": s.n_blank} if s.n_blank else result.params
    return replace(result, excluded={k: v for k, v in excluded.items() if v},
                   params=params, note="; ".join(filter(None, (*s.notes, result.note))))
