"""Crowd-style sparse labels: many annotators, each labelling a random subset of the
items, as in the data sets that Nørregaard & Derczynski's SPA is made for (§6.2)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import validate
from ..measures.sparse.variance import check_class_probs

__all__ = ["CROWD_CLASSES", "crowd_labels"]

CROWD_CLASSES = ("positive", "neutral", "negative", "unclear")


def crowd_labels(n_items: int = 1500, n_annotators: int = 25,
                 annotations_per_item: int | tuple[int, int] = (1, 6),
                 class_probs=(.45, .25, .2, .1), seed: int = 2023) -> pd.DataFrame:
    """Posts labelled by a crowd: each item gets a number of annotations drawn uniformly
    from ``annotations_per_item`` (a (low, high) range, or one number), given by that
    many distinct annotators chosen at random from a pool of ``n_annotators``.

    Origin: synthetic, made by this function from ``seed`` (numpy's PCG64). The default
    shape echoes the Brazilian stock-market tweets of Nørregaard & Derczynski §6.2
    (4 classes, 1–6 annotations per item), scaled down so that notebooks run in
    seconds. Each item has a true class drawn from ``class_probs`` (classes
    :data:`CROWD_CLASSES`) and an ease e ~ Beta(5, 2); annotator a has a skill
    s_a ~ U(0.6, 0.95) and gives the true class with probability e · s_a, otherwise a
    class drawn from ``class_probs`` (which may be the true one by luck).

    Missingness is completely at random — the condition under which SPA is unbiased
    (§4.2) — and ``annotations_per_item=n_annotators`` gives complete data, from which a
    notebook can sparsify at random itself. Columns: item, annotator, label (an ordered
    Categorical over :data:`CROWD_CLASSES`).
    """
    where = "crowd_labels"
    validate.integer(where, "n_items", n_items, minimum=1)
    validate.integer(where, "n_annotators", n_annotators, minimum=2)
    validate.seed(where, "seed", seed)
    low, high = ((annotations_per_item,) * 2 if isinstance(annotations_per_item, int)
                 else tuple(annotations_per_item))
    validate.integer(where, "annotations_per_item (low)", low, minimum=1,
                     maximum=n_annotators)
    validate.integer(where, "annotations_per_item (high)", high, minimum=low,
                     maximum=n_annotators)
    probs = check_class_probs(class_probs, len(CROWD_CLASSES))
    rng = np.random.default_rng(seed)
    n, m, c = n_items, n_annotators, len(CROWD_CLASSES)
    k = rng.integers(low, high + 1, size=n)                      # annotations per item
    truth = rng.choice(c, size=n, p=probs)
    ease = rng.beta(5, 2, size=n)
    skill = rng.uniform(.6, .95, size=m)
    # the first k_i annotators of a random permutation of the pool label item i
    chosen = np.argsort(rng.random((n, m)), axis=1)[:, :high]
    slot = np.arange(high)[None, :] < k[:, None]
    item, annotator = np.nonzero(slot)[0], chosen[slot]
    correct = rng.random(len(item)) < ease[item] * skill[annotator]
    guess = rng.choice(c, size=len(item), p=probs)
    label = np.where(correct, truth[item], guess)
    width = max(4, len(str(n)))
    items = np.array([f"post {i + 1:0{width}d}" for i in range(n)], dtype=object)
    workers = np.array([f"worker {j + 1:02d}" for j in range(m)], dtype=object)
    return pd.DataFrame({
        "item": items[item],
        "annotator": workers[annotator],
        "label": pd.Categorical.from_codes(label, categories=CROWD_CLASSES),
    })
