"""Majority vote: each item's most frequent label, with a stated rule for ties."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import validate
from . import _build, _em
from ._ratings import ratings
from .results import MajorityVoteResult

__all__ = ["majority_vote", "TIE_RULES"]

# how a tie between an item's most frequent categories is decided
TIE_RULES = {
    "random": "a tie goes to one of the tied categories drawn uniformly at random "
              "(reproducible with seed=)",
    "first": "a tie goes to the tied category that comes first in the data's category order",
    "none": "a tied item gets no label",
}


def majority_vote(data, *, ties: str = "random", seed=None) -> MajorityVoteResult:
    """Each item's consensus: the category most of its ratings give.

    ``data``: `Annotations` or anything
    `as_annotations` accepts (primary labels are used). ``ties``:
    ``"random"`` (default; one of the tied categories, uniformly, from ``seed``),
    ``"first"`` (the tied category first in the data's category order: the order of
    ``categories=`` or of an ordered Categorical, else the loader's) or ``"none"`` (no
    label; such items are counted in ``excluded`` and the note). ``result.params["ties"]``
    states the rule. Items without a rating get no label (counted too).

    ``labels``: item → consensus; ``posteriors``: each item's vote shares;
    ``confusion`` and ``accuracy``: each annotator against the consensus (their own
    vote included, items without a consensus left out; a class none of an annotator's
    items has as its consensus gives that annotator a row of NaN: no estimate, not
    zeros); ``tied``: items whose top categories tied.

    Parameters
    ----------
    data : Annotations or anything `as_annotations` accepts
        Ratings (primary labels; per-item counts too).
    ties : {"random", "first", "none"}, default "random"
        How a tie between an item's most frequent categories is decided.
    seed : int, numpy Generator or None, default None
        The draws of ``ties="random"``.

    Returns
    -------
    MajorityVoteResult
        ``labels``, ``posteriors`` (vote shares), ``confusion`` / ``confusion_matrix(a)``
        / ``confusion_cells()``, ``accuracy``, ``tied``, ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        An unknown ``ties``, a bad ``seed``, data without any rating.

    See Also
    --------
    iaa_widgets.MajorityVoteResult : The result type.
    iaa_widgets.dawid_skene : A model that weighs each annotator by its error rates.
    iaa_widgets.mace : A model of annotators who know or spam.
    iaa_widgets.disagreements : The items where an annotator differs from the consensus.

    Notes
    -----
    label_i = argmax_c n_ic; θ_akl = N_akl / Σ_l N_akl with N_akl the items of
    consensus k that a labelled l.

    Examples
    --------
    >>> import pandas as pd, iaa_widgets as iaa
    >>> df = pd.DataFrame({"item": [1, 1, 1, 2, 2], "annotator": ["a", "b", "c", "a", "b"],
    ...                    "label": ["x", "x", "y", "y", "x"]})
    >>> iaa.majority_vote(df, ties="none").labels.tolist()
    ['x', nan]
    """
    validate.choice("majority_vote", "ties", ties, tuple(TIE_RULES))
    validate.seed("majority_vote", "seed", seed)
    r = ratings(data, "majority_vote", identity=False)
    n, k = r.n_items, r.n_categories
    votes = r.votes()  # n_ik: votes of item i for k
    top = votes.max(axis=1)
    is_top = (votes == top[:, None]) & r.rated[:, None]
    tied = is_top.sum(axis=1) > 1
    codes = np.where(r.rated, np.argmax(votes, axis=1), -1)  # argmax: the first maximum
    if ties == "random" and tied.any():
        rng = np.random.default_rng(seed)
        draw = np.where(is_top[tied], rng.random((int(tied.sum()), k)), -1.0)
        codes[tied] = np.argmax(draw, axis=1)
    elif ties == "none":
        codes[tied] = -1
    shares = votes / np.maximum(votes.sum(axis=1, keepdims=True), 1)
    labelled = codes >= 0
    hard = np.zeros((n, k))  # the consensus as one-hot posteriors, items × classes
    hard[np.flatnonzero(labelled), codes[labelled]] = 1.0
    weight = np.where(labelled, _em.item_weights(r), 0.0)
    s = _em.incidence(r)
    counts = _em.counts(s, hard, weight)  # N[u, k]: labels l_u of a_u on items won by k
    rows = s.by_annotator(counts)  # annotators × classes: a's items whose consensus is k
    # θ_akl = N_akl / Σ_l N_akl; a class none of a's items has as consensus: no estimate
    theta = counts / np.maximum(rows, 1e-300)[s.cell_annotator]
    priors = _em.priors(hard, weight) if weight.any() else np.full(k, np.nan)
    n_tied = int(tied.sum() if r.item_weight is None else r.item_weight[tied].sum())
    fields = _build.common(
        r, s, "majority_vote", codes, shares, _build.rates(r, s, cells=theta,
                                                            undefined=rows == 0), counts, priors,
        note=f"{n_tied} item(s) tied: {TIE_RULES[ties]}" if n_tied else "",
        params={"ties": TIE_RULES[ties], "tied_items": n_tied,
                **({"seed": seed} if ties == "random" else {})})
    if ties == "none" and n_tied:
        fields["excluded"] = {**fields["excluded"], "tied": n_tied}
    return MajorityVoteResult(tied=_tied(r, tied), **fields)


def _tied(r, tied):
    return pd.Series(tied, index=pd.Index(r.ann.items, name="item"), name="tied")
