"""Shared front door of the classic measures: coercion to Annotations, annotator
selection, the missing-data policy and the count of excluded items.

Missing-data policies (the ``missing=`` parameter of every classic measure):

``"listwise"`` (default)
    keep the items rated by every annotator considered (for two annotators: the
    items both rated); the others are excluded and counted.
``"available"``
    Gwet's (2014, ch. 2 and 5) available-case analysis: every rating is used in each
    term that can use it. The observed agreement A'_o averages over the n'' items
    rated at least twice (an item rated once has no pair); the chance terms take
    every item with a rating: Fleiss' shares p_c = (1/n) Σ_i n_ic/m_i over all n items,
    Conger's p_gc over all the items annotator g rated, and the linearised variance
    sums over all n items (with A'_o,i rescaled by n/n''). Items rated once are
    therefore *used* (``params["items_per_term"]`` and the note say where) by
    :func:`~iaa_widgets.fleiss_kappa` and :func:`~iaa_widgets.davies_fleiss_kappa`;
    the measures that are functions of rating pairs only (percent agreement, S,
    specific agreement) have no term for them and exclude them, counted.
``"pairable"``
    keep the items rated at least twice and use them in every term; items rated once
    are excluded and counted. The name is Krippendorff's: a unit is pairable when it
    holds at least two values, the units his α uses. This equals Gwet's analysis of
    the data with the items rated once deleted (what "available" did before it
    followed Gwet). For the measures of rating pairs only it equals "available".
``"raise"``
    refuse data with any missing rating (AgreementError naming the items).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np

from .. import stats, validate
from ..data import Annotations, as_annotations
from ..errors import AgreementError, rows_text
from . import _formulas as F

__all__ = ["Prepared", "prepare", "complete"]

POLICIES = ("listwise", "available", "pairable", "raise")


@dataclass(frozen=True)
class Prepared:
    """Validated input of one measure: the (selected) annotations, the item ×
    category counts of the items used (dense, or scipy CSR beyond ``stats.MAX_CELLS``
    cells: thousands of categories), the boolean mask of those items, and what was
    excluded and why."""

    ann: Annotations
    counts: np.ndarray
    used: np.ndarray
    excluded: dict
    params: dict
    weights: np.ndarray | None = None  # how many items each row of counts stands for
    measure: str = ""  # the public function, named in errors

    @property
    def n_items(self) -> int:
        return int(self.used.sum()) if self.weights is None else int(self.weights.sum())

    @property
    def n_ratings(self) -> int:
        if self.weights is None:
            return int(self.counts.sum())
        return int(self.weights @ F._row_sums(self.counts))

    def ratings(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The primary ratings of the items used: each one's row in ``counts``, its
        annotator and its category code."""
        prim = self.ann.primary()
        keep = self.used[prim.item]
        row = np.cumsum(self.used)[prim.item[keep]] - 1
        return row, prim.annotator[keep], prim.label[keep]

    def contingency(self) -> np.ndarray:
        """K × K contingency table of the two annotators over the items used."""
        return stats.pair_contingencies(self.ann, np.array([[0, 1]]), items=self.used)[0]


def prepare(data, measure: str, *, missing: str, annotators=None, identity: bool = False,
            two: bool = False, policies: tuple = POLICIES, pointer: str = "",
            singles: bool = False, item_weights: bool = False) -> Prepared:
    """Coerce ``data``, select ``annotators``, apply the ``missing`` policy.

    ``singles``: the measure's chance terms use items rated once (Fleiss' and Conger's
    κ); under "available" they are then kept (``params["items_per_term"]`` counts
    them), else excluded as having "only one rating".

    ``item_weights``: the measure weights each row of ``counts`` by ``Prepared.weights``
    (data from :meth:`Annotations.from_contingency` keep one row per cell); otherwise
    such data are expanded into one row per item, or refused when too large.

    ``identity``: the measure needs to know who gave each label (refuses data from
    :meth:`Annotations.from_counts`). ``two``: the measure is defined for two
    annotators only; with more, ``annotators=(a, b)`` must pick two (``pointer``
    names the multi-annotator alternatives in the error message).
    """
    validate.choice(measure, "missing", missing, policies)
    ann = as_annotations(data)
    if ann.item_weight is not None and not item_weights:
        ann = ann.expanded(measure)
    if ann.anonymous and (identity or annotators is not None):
        raise AgreementError(
            f"{measure} needs to know which annotator gave each label, but this data was "
            "built from per-item counts (Annotations.from_counts), where annotators are "
            "anonymous; use fleiss_kappa, bennett_s, percent_agreement or "
            "specific_agreement, or load the ratings with from_long/from_wide")
    if annotators is not None:
        ann = select(ann, annotators, measure, two=two)
    if two and ann.n_annotators > 2:
        raise AgreementError(
            f"{measure} compares two annotators but the data has {ann.n_annotators} "
            f"({', '.join(map(str, ann.annotators[:6]))}{'…' if ann.n_annotators > 6 else ''}); "
            f"pick two with annotators=(a, b), use pairwise(data, '{measure}') for every "
            f"pair{pointer}")
    counts = _item_counts(ann)
    m = F._row_sums(counts)  # m_i (exact: counts stay below 2⁵³)
    full = ann.n_annotators
    if missing == "raise" and np.any(m < full):
        bad = np.flatnonzero(m < full)
        raise AgreementError(
            f"{measure}: {len(bad)} item(s) lack a rating by some of the {full} annotators "
            f"(items {rows_text(ann.items[bad])}); pass missing='listwise' to drop them"
            + (" or missing='available' to use every rating where it can be used"
               if "available" in policies else ""))
    used, excluded = kept(m, full, missing, singles, ann.item_weight, measure, policies)
    params = {"missing": missing,
              "annotators": "anonymous" if ann.anonymous else list(ann.annotators)}
    if missing == "available" and singles:  # A'_o over m_i ≥ 2; shares and variance over all
        params["items_per_term"] = {"observed": _count(m >= 2, ann.item_weight),
                                    "expected": _count(used, ann.item_weight),
                                    "se": _count(used, ann.item_weight)}
    if ann.has_secondary:
        params["labels"] = "primary (secondary labels ignored)"
    every = np.all(used)  # every item kept: the counts as they are, no copy
    return Prepared(ann, counts if every else counts[used], used, excluded, params,
                    None if ann.item_weight is None else ann.item_weight[used], measure)


def _item_counts(ann: Annotations):
    """The item × category counts: dense, or CSR where the dense table would pass
    ``stats.MAX_CELLS`` (thousands of categories; the formulas of ``_formulas`` take
    either, and a two-annotator measure reads the two ratings of each item instead)."""
    if ann.n_items * ann.n_categories > stats.MAX_CELLS and \
            ann.n_categories > stats.tables.SPARSE_CATEGORIES:
        return stats.item_counts_for_pairs(ann)
    return stats.item_counts(ann)


def kept(m: np.ndarray, full: int, missing: str, singles: bool, weights, measure: str,
         policies: tuple = POLICIES) -> tuple[np.ndarray, dict]:
    """Which items a missing-data policy keeps, from their numbers of ratings ``m`` (each
    counting ``weights`` items if given), and what it excludes, by reason: "listwise"
    keeps the items all ``full`` annotators rated, "pairable" those rated at least
    twice, "available" those too, or every rated item when the measure's chance terms
    use items rated once (``singles``: Gwet 2014)."""
    excluded = {"not rated by these annotators": _count(m == 0, weights)}
    if missing == "available" and singles:
        used = m >= 1
        if not np.any(m >= 2):
            raise AgreementError(f"{measure}: no item is rated at least twice, so there is "
                                 "no pair of ratings to agree")
    elif missing in ("available", "pairable"):
        used = m >= 2
        excluded["only one rating"] = _count(m == 1, weights)
    else:
        used = m == full
        what = "rated by one annotator only" if full == 2 else \
            f"rated by fewer than all {full} annotators"
        excluded[what] = _count((m > 0) & (m < full), weights)
    excluded = {k: v for k, v in excluded.items() if v}
    if not _count(used, weights):
        raise AgreementError(
            f"{measure}: no item is left under missing={missing!r} "
            f"({', '.join(f'{v} {k}' for k, v in excluded.items())})"
            + ("; try missing='available'" if missing == "listwise" and "available" in policies
               else ""))
    return used, excluded


# the policies of a measure that uses every pairable value itself (α)
PAIRABLE = ("pairable", "listwise", "raise")


def complete(data, measure: str, missing: str,
             policies: tuple = PAIRABLE) -> tuple[Annotations, dict]:
    """``data`` as Annotations under ``missing`` (one of :data:`PAIRABLE`) for a measure
    that itself uses every pairable value (Krippendorff's α): "pairable" keeps the data
    as they are; "listwise" keeps the items every annotator rated, the others left out
    and counted by reason as :func:`kept` counts them; "raise" refuses data with a missing
    rating. ``policies``: those the measure accepts. Returns the data and what was left
    out."""
    validate.choice(measure, "missing", missing, policies)
    ann = as_annotations(data)
    if missing == "pairable":
        return ann, {}
    prim = ann.primary()
    m = np.bincount(prim.item, weights=prim.rating_count, minlength=ann.n_items)  # m_i
    full = ann.n_annotators
    short = m < full
    if not short.any():
        return ann, {}
    if missing == "raise":
        raise AgreementError(
            f"{measure}: {int(short.sum())} item(s) lack a rating by some of the {full} "
            f"annotators (items {rows_text(ann.items[short])}); pass "
            + ("missing='listwise' to drop them or " if "listwise" in policies else "")
            + "missing='pairable' to use every pairable value")
    keep = np.flatnonzero(~short)
    if not len(keep):
        raise AgreementError(f"{measure}: no item is rated by all {full} annotators, so "
                             "missing='listwise' leaves none; pass missing='pairable'")
    code = np.full(ann.n_items, -1)
    code[keep] = np.arange(len(keep))
    sub = ann._take(~short[ann.item])
    sub = replace(sub, item=code[sub.item], items=ann.items[keep],
                  item_weight=None if ann.item_weight is None else ann.item_weight[keep])
    what = "rated by one annotator only" if full == 2 else \
        f"rated by fewer than all {full} annotators"
    excluded = {"not rated by these annotators": _count(m == 0, ann.item_weight),
                what: _count(short & (m > 0), ann.item_weight)}
    return sub, {k: v for k, v in excluded.items() if v}


def _count(mask: np.ndarray, weights: np.ndarray | None) -> int:
    """How many items ``mask`` selects, each row counting ``weights`` times if given."""
    return int(np.count_nonzero(mask)) if weights is None else int(weights[mask].sum())


def select(ann: Annotations, annotators, measure: str, two: bool = False) -> Annotations:
    """The ratings of the named annotators (at least two, distinct; exactly two for a
    measure of two annotators), in that order."""
    if isinstance(annotators, (str, bytes)) or not isinstance(annotators, Iterable):
        validate.fail(measure, "annotators", "a list of at least two annotator names",
                      annotators)
    names = list(annotators)
    if len(names) < 2 or len(set(names)) != len(names):
        raise AgreementError(f"{measure}: annotators must name at least two different "
                             f"annotators, got {names!r}")
    if two and len(names) != 2:
        raise AgreementError(f"{measure} compares two annotators; annotators= must name "
                             f"exactly two, got {names!r}")
    return ann.select_annotators(names)
