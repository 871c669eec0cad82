"""The pieces every annotator model's result is made of, built one way: labels as a
Categorical over the data's categories, items × categories and (annotator, class) ×
label frames, per-annotator and per-item counts."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..data import noted
from ._ratings import Ratings


def categories(r: Ratings) -> pd.Index:
    return pd.Index(r.ann.categories, name="category")


def labels(r: Ratings, codes: np.ndarray) -> pd.Series:
    """item → label: a Categorical over the data's categories in their order (labels keep
    their identity and type; code −1 is no label, NaN)."""
    cat = pd.Categorical.from_codes(codes, categories=r.ann.categories)
    return pd.Series(cat, index=pd.Index(r.ann.items, name="item"), name="label")


def posteriors(r: Ratings, t: np.ndarray) -> pd.DataFrame:
    """items × categories probabilities (rows of items without a rating are NaN)."""
    t = np.where(r.rated[:, None], t, np.nan)
    return pd.DataFrame(t, index=pd.Index(r.ann.items, name="item"), columns=categories(r))


def confusion(r: Ratings, theta: np.ndarray) -> pd.DataFrame:
    """θ[a, k, l] as rows (annotator, class k), columns label l."""
    a, k = r.n_annotators, r.n_categories
    rows = pd.MultiIndex.from_arrays(
        [r.ann.annotators.repeat(k), np.tile(np.asarray(r.ann.categories, dtype=object), a)],
        names=["annotator", "class"])
    cols = pd.Index(r.ann.categories, name="label")
    return pd.DataFrame(theta.reshape(a * k, k), index=rows, columns=cols)


def accuracy(r: Ratings, counts: np.ndarray) -> pd.Series:
    """Each annotator's expected share of correct labels over the items they rated,
    Σ_k N_akk / Σ_kl N_akl (N from :meth:`Ratings.class_label_counts`; NaN for an
    annotator without a rating on an item that has a consensus)."""
    total = counts.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        acc = np.trace(counts, axis1=1, axis2=2) / total
    return pd.Series(acc, index=pd.Index(r.ann.annotators, name="annotator"), name="accuracy")


def common(r: Ratings, model: str, codes: np.ndarray, t: np.ndarray, theta: np.ndarray,
           counts: np.ndarray, priors: np.ndarray, note: str, params: dict) -> dict:
    """The fields every model result shares, as keyword arguments of its class."""
    w = r.weight()
    by = np.bincount(r.annotator, weights=w, minlength=r.n_annotators)
    note, params = noted(r.ann, "; ".join(filter(None, (note, *r.notes))),
                         {**r.params, **params})
    return dict(
        model=model, labels=labels(r, codes), posteriors=posteriors(r, t),
        confusion=confusion(r, theta), accuracy=accuracy(r, counts),
        priors=pd.Series(priors, index=categories(r), name="prior"),
        n_items=r.ann.total_items, n_annotators=r.n_annotators,
        n_ratings=len(r.label) if w is None else int(w.sum()),
        ratings_by=pd.Series(by.astype(np.int64), index=pd.Index(r.ann.annotators,
                                                                 name="annotator")),
        ratings_of=pd.Series(r.ratings_per_item().astype(np.int64),
                             index=pd.Index(r.ann.items, name="item")),
        excluded=r.excluded(), params=params, note=note)
