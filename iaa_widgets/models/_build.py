"""The pieces every annotator model's result is made of, built one way: labels as a
Categorical over the data's categories, items × categories and (annotator, class) ×
label frames, per-annotator and per-item counts."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..data import noted
from ._em import Incidence
from ._ratings import Ratings
from .rates import ErrorRates


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


def rates(r: Ratings, s: Incidence, **parts) -> ErrorRates:
    """:class:`~.rates.ErrorRates` of the data's annotators and categories: ``parts``
    are its ``base``, ``diagonal``, ``cells`` (over ``s``'s used cells) and
    ``undefined`` (default: the rows of annotators without a cell)."""
    if "undefined" not in parts:
        silent = np.bincount(s.cell_annotator, minlength=r.n_annotators) == 0
        parts["undefined"] = np.repeat(silent[:, None], r.n_categories, axis=1)
    return ErrorRates(r.ann.annotators, r.ann.categories, s.cell_annotator, s.cell_label,
                      **parts)


def accuracy(r: Ratings, s: Incidence, counts: np.ndarray) -> pd.Series:
    """Each annotator's expected share of correct labels over the items they rated,
    Σ_k N_akk / Σ_kl N_akl (N: the expected counts of the used cells, N[u, k]; NaN for
    an annotator without a rating on an item that has a consensus)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        acc = s.by_annotator(s.diagonal(counts)) / s.by_annotator(counts.sum(axis=1))
    return pd.Series(acc, index=pd.Index(r.ann.annotators, name="annotator"), name="accuracy")


def common(r: Ratings, s: Incidence, model: str, codes: np.ndarray, t: np.ndarray,
           error_rates: ErrorRates, counts: np.ndarray, priors: np.ndarray, note: str,
           params: dict) -> dict:
    """The fields every model result shares, as keyword arguments of its class."""
    w = r.weight()
    by = np.bincount(r.annotator, weights=w, minlength=r.n_annotators)
    note, params = noted(r.ann, "; ".join(filter(None, (note, *r.notes))),
                         {**r.params, **params})
    return dict(
        model=model, labels=labels(r, codes), posteriors=posteriors(r, t),
        rates=error_rates, accuracy=accuracy(r, s, counts),
        priors=pd.Series(priors, index=categories(r), name="prior"),
        n_items=r.ann.total_items, n_annotators=r.n_annotators,
        n_ratings=len(r.label) if w is None else int(w.sum()),
        ratings_by=pd.Series(by.astype(np.int64), index=pd.Index(r.ann.annotators,
                                                                 name="annotator")),
        ratings_of=pd.Series(r.ratings_per_item().astype(np.int64),
                             index=pd.Index(r.ann.items, name="item")),
        excluded=r.excluded(), params=params, note=note)
