"""Shared front door of the classic measures: coercion to Annotations, annotator
selection, the missing-data policy and the count of excluded items.

Missing-data policies (the ``missing=`` parameter of every classic measure):

``"listwise"`` (default)
    keep the items rated by every annotator considered (for two annotators: the
    items both rated); the others are excluded and counted.
``"available"``
    keep every item with at least two ratings, each item weighted by its own number
    of ratings m_i (Gwet 2014, ch. 2 and 5; only where the formula allows it).
``"raise"``
    refuse data with any missing rating (AgreementError naming the items).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import stats
from ..data import Annotations, as_annotations
from ..errors import AgreementError, rows_text

__all__ = ["Prepared", "prepare"]

POLICIES = ("listwise", "available", "raise")


@dataclass(frozen=True)
class Prepared:
    """Validated input of one measure: the (selected) annotations, the item ×
    category counts of the items used, the boolean mask of those items, and what
    was excluded and why."""

    ann: Annotations
    counts: np.ndarray
    used: np.ndarray
    excluded: dict
    params: dict

    @property
    def n_items(self) -> int:
        return int(self.used.sum())

    @property
    def n_ratings(self) -> int:
        return int(self.counts.sum())

    def contingency(self) -> np.ndarray:
        """K × K contingency table of the two annotators over the items used."""
        return stats.pair_contingencies(self.ann, np.array([[0, 1]]), items=self.used)[0]


def prepare(data, measure: str, *, missing: str, annotators=None, identity: bool = False,
            two: bool = False, policies: tuple = POLICIES, pointer: str = "") -> Prepared:
    """Coerce ``data``, select ``annotators``, apply the ``missing`` policy.

    ``identity``: the measure needs to know who gave each label (refuses data from
    :meth:`Annotations.from_counts`). ``two``: the measure is defined for two
    annotators only; with more, ``annotators=(a, b)`` must pick two (``pointer``
    names the multi-annotator alternatives in the error message).
    """
    if missing not in policies:
        raise AgreementError(f"{measure}: missing must be one of {list(policies)!r}, "
                             f"got {missing!r}")
    ann = as_annotations(data)
    if ann.anonymous and (identity or annotators is not None):
        raise AgreementError(
            f"{measure} needs to know which annotator gave each label, but this data was "
            "built from per-item counts (Annotations.from_counts), where annotators are "
            "anonymous; use fleiss_kappa, bennett_s, percent_agreement or "
            "specific_agreement, or load the ratings with from_long/from_wide")
    if annotators is not None:
        names = list(annotators)
        if len(names) < 2 or len(set(names)) != len(names):
            raise AgreementError(f"{measure}: annotators must name at least two different "
                                 f"annotators, got {names!r}")
        if two and len(names) != 2:
            raise AgreementError(f"{measure} compares two annotators; annotators= must name "
                                 f"exactly two, got {names!r}")
        ann = ann.select_annotators(names)
    if two and ann.n_annotators > 2:
        raise AgreementError(
            f"{measure} compares two annotators but the data has {ann.n_annotators} "
            f"({', '.join(map(str, ann.annotators[:6]))}{'…' if ann.n_annotators > 6 else ''}); "
            f"pick two with annotators=(a, b), use pairwise(data, '{measure}') for every "
            f"pair{pointer}")
    counts = stats.item_counts(ann)
    m = counts.sum(axis=1)
    full = ann.n_annotators
    excluded: dict[str, int] = {}
    if missing == "raise" and np.any(m < full):
        bad = np.flatnonzero(m < full)
        raise AgreementError(
            f"{measure}: {len(bad)} item(s) lack a rating by some of the {full} annotators "
            f"(items {rows_text(ann.items[bad])}); pass missing='listwise' to drop them"
            + (" or missing='available' to use every item rated at least twice"
               if "available" in policies else ""))
    n0 = int(np.sum(m == 0))  # only after selecting annotators
    if n0:
        excluded["not rated by these annotators"] = n0
    if missing == "available":
        used = m >= 2
        n1 = int(np.sum(m == 1))
        if n1:
            excluded["only one rating"] = n1
    else:
        used = m == full
        short = int(np.sum((m > 0) & (m < full)))
        if short:
            what = "rated by one annotator only" if full == 2 else \
                f"rated by fewer than all {full} annotators"
            excluded[what] = short
    if not used.any():
        raise AgreementError(
            f"{measure}: no item is left under missing={missing!r} "
            f"({', '.join(f'{v} {k}' for k, v in excluded.items())})"
            + ("; try missing='available'" if missing == "listwise" and "available" in policies
               else ""))
    params = {"missing": missing, "annotators": list(ann.annotators)}
    if ann.has_secondary:
        params["labels"] = "primary (secondary labels ignored)"
    return Prepared(ann, counts[used], used, excluded, params)
