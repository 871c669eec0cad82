"""Product reviews labelled for sentiment by five annotators, with their texts: the
project of notebook 08 ("Exploring an annotation project") and of ProjectExplorer's
browser tests and benchmark."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import validate

__all__ = ["REVIEW_SENTIMENTS", "product_reviews"]

REVIEW_SENTIMENTS = ("positive", "neutral", "mixed", "negative")

_GOOD = ["the battery lasts all day", "setup took two minutes", "the screen is sharp",
         "it feels solid in the hand", "support answered within the hour",
         "the sound is rich and clear", "it was cheaper than I expected"]
_BAD = ["the charger broke after a week", "the app keeps logging me out",
        "it arrived with a scratch", "the fan is loud", "the manual is useless",
        "it overheats when charging", "the buttons feel cheap"]
_PLAIN = ["it comes in grey and black", "the box holds a cable and a manual",
          "I use it mostly in the kitchen", "it replaced an older model",
          "it weighs about 300 grams", "delivery took four days"]

# how an annotator errs: (accuracy, share of their errors that swap neutral and mixed)
_ANNOTATORS = {"ana": (0.92, 0.6), "ben": (0.88, 0.6), "chloe": (0.86, 0.7),
               "dev": (0.55, 0.2), "emma": (0.84, 0.8)}


def product_reviews(n_items: int = 400, seed: int = 8) -> pd.DataFrame:
    """Short product reviews (item ``r0001`` …, a ``text`` per item) labelled positive,
    neutral, mixed or negative by ana, ben, chloe, dev and emma; about one rating in ten
    is missing. Columns: item, annotator, label, text.

    Origin: synthetic, made by this function from ``seed`` (numpy's PCG64): each review
    has a true sentiment and a text made of clauses that carry it (a mixed review has a
    good and a bad clause, a neutral one only plain facts). An annotator gives the true
    label with their accuracy; otherwise, for a neutral or mixed review, they swap the
    two with a probability of their own (the confusion a guideline should settle), else
    they pick another label at random. dev is careless (accuracy 0.55): the annotator
    who drags agreement down."""
    validate.integer("product_reviews", "n_items", n_items, minimum=1)
    validate.seed("product_reviews", "seed", seed)
    rng = np.random.default_rng(seed)
    k = len(REVIEW_SENTIMENTS)
    truth = rng.choice(k, n_items, p=[0.35, 0.2, 0.2, 0.25])
    texts = [_text(rng, REVIEW_SENTIMENTS[t]) for t in truth]
    items = [f"r{i + 1:04d}" for i in range(n_items)]
    swap = np.array([0, 2, 1, 3])  # neutral ↔ mixed
    rows = []
    for name, (accuracy, swaps) in _ANNOTATORS.items():
        right = rng.random(n_items) < accuracy
        other = (truth + rng.integers(1, k, n_items)) % k  # any label but the true one
        swapped = np.isin(truth, (1, 2)) & (rng.random(n_items) < swaps)
        label = np.where(right, truth, np.where(swapped, swap[truth], other))
        rated = rng.random(n_items) > 0.1
        rows.append(pd.DataFrame({"item": np.array(items)[rated], "annotator": name,
                                  "label": np.array(REVIEW_SENTIMENTS)[label[rated]],
                                  "text": np.array(texts, dtype=object)[rated]}))
    return pd.concat(rows, ignore_index=True)


def _text(rng, sentiment: str) -> str:
    pick = lambda pool: pool[rng.integers(len(pool))]  # noqa: E731
    if sentiment == "positive":
        parts = [pick(_GOOD), pick(_GOOD)]
    elif sentiment == "negative":
        parts = [pick(_BAD), pick(_BAD)]
    elif sentiment == "mixed":
        parts = [pick(_GOOD), "but " + pick(_BAD)]
    else:
        parts = [pick(_PLAIN), pick(_PLAIN)]
    sentence = ", ".join(dict.fromkeys(parts))
    return sentence[0].upper() + sentence[1:] + "."
