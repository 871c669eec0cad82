"""The ratings an annotator model reads: each rating's item, annotator and primary
category as integer codes, checked once for every model, with what was left out."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data import Annotations, as_annotations
from ..errors import AgreementError


@dataclass(frozen=True)
class Ratings:
    """Primary ratings of :class:`~iaa_widgets.Annotations` as parallel int64 code
    arrays. ``count[r]`` is how many identical ratings row r stands for (data from
    :meth:`Annotations.from_counts`; None: one each) and ``item_weight[i]`` how many
    identical items row i of ``ann.items`` stands for (None: one each). ``rated`` marks
    the items with at least one rating; ``params`` and ``notes`` go into the result."""

    ann: Annotations
    item: np.ndarray
    annotator: np.ndarray
    label: np.ndarray
    count: np.ndarray | None
    item_weight: np.ndarray | None
    rated: np.ndarray
    params: dict
    notes: tuple[str, ...]

    @property
    def n_items(self) -> int:
        return self.ann.n_items

    @property
    def n_categories(self) -> int:
        return self.ann.n_categories

    @property
    def n_annotators(self) -> int:
        return self.ann.n_annotators

    def ratings_per_item(self) -> np.ndarray:
        """m_i: ratings of each item row."""
        return np.bincount(self.item, weights=self.count, minlength=self.n_items)

    def votes(self) -> np.ndarray:
        """n_ik: the ratings of item i with label k (items × categories)."""
        n, k = self.n_items, self.n_categories
        return np.bincount(self.item * k + self.label, weights=self.count,
                           minlength=n * k).reshape(n, k)

    def weight(self) -> np.ndarray | None:
        """How many ratings each rating row stands for in the totals (counts times the
        weight of its item; None: one each)."""
        return self.ann.primary().rating_weights()

    def excluded(self) -> dict:
        """Items left without a consensus, by reason (the items they stand for)."""
        unrated = ~self.rated
        n = int(unrated.sum() if self.item_weight is None else self.item_weight[unrated].sum())
        return {"no rating": n} if n else {}


def ratings(data, model: str, *, identity: bool) -> Ratings:
    """Load ``data`` (anything :func:`~iaa_widgets.as_annotations` accepts) for ``model``.

    ``identity``: the model estimates each annotator (Dawid–Skene, MACE), so data from
    per-item counts, whose annotators are anonymous, is refused, and so are data with
    one annotator or one category, where there is nothing to estimate.
    """
    ann = as_annotations(data)
    if ann.anonymous and identity:
        raise AgreementError(
            f"{model} estimates each annotator, but this data was built from per-item "
            "counts (Annotations.from_counts), where annotators are anonymous; load the "
            "ratings with Annotations.from_long or from_wide, or use majority_vote")
    prim = ann.primary()
    if prim.n_ratings == 0:
        raise AgreementError(f"{model}: the data has no rating (every label is blank)")
    params: dict = {}
    notes: list[str] = []
    if ann.has_secondary:
        params["labels"] = "primary (secondary labels ignored)"
    silent = np.bincount(prim.annotator, minlength=ann.n_annotators) == 0
    used_annotators = ann.n_annotators - int(silent.sum())
    used_categories = np.count_nonzero(np.bincount(prim.label, minlength=ann.n_categories))
    if identity and used_annotators < 2:
        raise AgreementError(
            f"{model} needs ratings by at least two annotators to tell their accuracies "
            f"apart; the data has ratings by {used_annotators} "
            f"({', '.join(map(str, ann.annotators[~silent][:3]))}); use majority_vote")
    if used_categories < 2:
        only = f"every rating is {ann.categories[prim.label[0]]!r}"
        if identity:
            raise AgreementError(f"{model} needs at least two categories in the ratings; "
                                 f"{only}, so every item's label is that one")
        notes.append(f"{only}: every item's label is that one, and there is no "
                     "disagreement to learn from")
    if silent.any() and not ann.anonymous:  # per-item counts name no annotator
        names = ", ".join(map(str, ann.annotators[silent][:5])) + (
            ", …" if silent.sum() > 5 else "")
        notes.append(f"{int(silent.sum())} annotator(s) gave no rating ({names}): their "
                     "estimates rest on no data")
    rated = np.bincount(prim.item, minlength=ann.n_items) > 0
    if not rated.all():
        notes.append(f"{int((~rated).sum())} item(s) have no rating and get no label")
    return Ratings(ann, prim.item.astype(np.int64, copy=False),
                   prim.annotator.astype(np.int64, copy=False),
                   prim.label.astype(np.int64, copy=False), prim.rating_count,
                   ann.item_weight, rated, params, tuple(notes))
