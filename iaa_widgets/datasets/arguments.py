"""Units on a continuum: several annotators segment one text into argument units of a
few categories, the setting of Mathet et al.'s γ (2015) and γ_cat / γ_k (2017)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import AgreementError
from .. import validate

__all__ = ["ARGUMENT_CATEGORIES", "argument_units"]

ARGUMENT_CATEGORIES = ("claim", "premise", "rebuttal")
_CATEGORY_SHARE = np.array([.4, .45, .15])


def argument_units(n_annotators: int = 3, n_units: int = 30, seed: int = 2015,
                   miss: float = .1, relabel: float = .15, jitter: float = 3.0,
                   extra: float = 1.0) -> pd.DataFrame:
    """Argument units (claim, premise, rebuttal) placed by ``n_annotators`` on one text,
    in character offsets: columns annotator, category, start, end (integers, end > start).

    Origin: synthetic, made by this function from ``seed`` (numpy's PCG64). A hidden
    reference segmentation of ``n_units`` units (lengths 10–60 characters, gaps 0–30,
    categories with shares .40 / .45 / .15) is copied by each annotator with the four
    kinds of disagreement that Mathet (2017, introduction) names for γ — position,
    category, false negative, false positive: each unit is missed with probability
    ``miss``; its bounds move by a rounded normal shift of standard deviation
    ``jitter``; its category changes with probability ``relabel`` (two times out of
    three to its confusable one: claim ↔ premise, rebuttal → claim); and each annotator
    adds a Poisson number (mean ``extra``) of spurious units of random category. Units
    of one annotator may overlap, as γ allows.

    The defaults (3 annotators × about 30 units) keep an exact γ fast enough for a
    notebook.
    """
    where = "argument_units"
    validate.integer(where, "n_annotators", n_annotators, minimum=2, maximum=26)
    validate.integer(where, "n_units", n_units, minimum=1)
    validate.probability(where, "miss", miss)
    validate.probability(where, "relabel", relabel)
    validate.seed(where, "seed", seed)
    if not (isinstance(jitter, (int, float)) and jitter >= 0) or \
            not (isinstance(extra, (int, float)) and extra >= 0):
        raise AgreementError(f"jitter and extra must be non-negative numbers, got "
                             f"{jitter!r} and {extra!r}")
    rng = np.random.default_rng(seed)
    n, m, c = n_units, n_annotators, len(ARGUMENT_CATEGORIES)
    length = rng.integers(10, 61, size=n)
    gap = rng.integers(0, 31, size=n)
    start = np.cumsum(gap + np.r_[0, length[:-1]])
    end = start + length
    category = rng.choice(c, size=n, p=_CATEGORY_SHARE)
    text_end = int(end[-1]) + int(rng.integers(0, 31))

    # every annotator's copy of every reference unit (m × n), then the kept ones
    keep = rng.random((m, n)) >= miss
    s = start + np.rint(rng.normal(0, jitter, (m, n))).astype(np.int64)
    e = end + np.rint(rng.normal(0, jitter, (m, n))).astype(np.int64)
    s = np.clip(s, 0, text_end - 1)
    e = np.clip(np.maximum(e, s + 1), 1, text_end)
    s = np.minimum(s, e - 1)
    # a changed category is the confusable one two times out of three
    confusable = np.array([1, 0, 0])[category]  # claim <-> premise, rebuttal -> claim
    swap_to = np.where(rng.random((m, n)) < 2 / 3, confusable,
                       (category + rng.integers(1, c, size=(m, n))) % c)
    cat = np.where(rng.random((m, n)) < relabel, swap_to, category)
    ann = np.repeat(np.arange(m), n).reshape(m, n)

    # spurious units: random place, length and category
    n_extra = rng.poisson(extra, size=m)
    x_ann = np.repeat(np.arange(m), n_extra)
    x_len = rng.integers(5, 41, size=len(x_ann))
    x_start = rng.integers(0, max(text_end - 5, 1), size=len(x_ann))
    x_end = np.minimum(x_start + x_len, text_end)
    x_cat = rng.choice(c, size=len(x_ann), p=_CATEGORY_SHARE)

    annotators = np.array([f"annotator {chr(ord('A') + j)}" for j in range(m)], dtype=object)
    df = pd.DataFrame({
        "annotator": annotators[np.r_[ann[keep], x_ann]],
        "category": np.array(ARGUMENT_CATEGORIES, dtype=object)[np.r_[cat[keep], x_cat]],
        "start": np.r_[s[keep], x_start].astype(np.int64),
        "end": np.r_[e[keep], x_end].astype(np.int64),
    })
    return df.sort_values(["annotator", "start", "end"], kind="stable").reset_index(drop=True)
