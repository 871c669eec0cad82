"""Dawid & Skene (1979): each annotator's confusion matrix and each item's true class,
by EM from a majority-vote start."""
from __future__ import annotations

import numpy as np

from .. import validate
from . import _build, _em
from ._ratings import ratings
from .results import DawidSkeneResult

__all__ = ["dawid_skene"]

MODELS = ("full", "one-coin")


def dawid_skene(data, *, max_iter: int = 100, tol: float = 1e-5, init: str = "majority",
                model: str = "full") -> DawidSkeneResult:
    """Maximum-likelihood annotator error rates and item classes (Dawid & Skene 1979).

    Each annotator a has a confusion matrix θ_akl = P(label l | true class k); classes
    have priors π_k; an item's ratings are independent given its class. EM starts from
    the majority vote (``init="majority"``: each item's vote shares, the paper's eq.
    3.1), then alternates the M-step (π and θ from the expected counts, eqs. 2.3–2.4) and
    the E-step (each item's class posteriors, eq. 2.5, in log space) until no
    class prior π_k or error rate θ_akl changes by ``tol`` or more in an iteration, or
    ``max_iter`` iterations (then ``converged`` is False and the note says so).

    ``model="one-coin"``: one accuracy p_a per annotator, θ_akk = p_a and
    θ_akl = (1 − p_a)/(K − 1) otherwise (the homogeneous model; p_a is the expected
    share of a's labels that match the class).

    ``data``: `Annotations` or anything
    `as_annotations` accepts (primary labels; missing ratings are the
    norm: each item uses the ratings it has). Items without a rating get no label
    (counted); an annotator without a rating gets NaN error rates (noted).
    Probabilities of the labels an annotator gave are floored at 1e-10 (a label never
    given keeps 0), so that no class is ruled out for good by one log 0.
    ``log_likelihood``: eq. 2.7 at each iteration's parameters (it never decreases).

    Parameters
    ----------
    data : Annotations or anything `as_annotations` accepts
        Ratings with named annotators (per-item counts are refused).
    max_iter : int, default 100
        Most EM iterations.
    tol : float, default 1e-5
        Stop when no class prior or error rate changes by this much.
    init : {"majority"}, default "majority"
        The start: each item's vote shares.
    model : {"full", "one-coin"}, default "full"
        A confusion matrix per annotator, or one accuracy each.

    Returns
    -------
    DawidSkeneResult
        ``labels``, ``posteriors``, ``confusion`` (θ_akl; held as the cells each
        annotator used: ``confusion_matrix(a)``, ``confusion_cells()``), ``accuracy``,
        ``priors``, ``log_likelihood``, ``n_iter``, ``converged``, ``note``.

    Raises
    ------
    AgreementError
        Per-item counts, fewer than two annotators or categories with ratings, a bad
        parameter.

    See Also
    --------
    iaa_widgets.DawidSkeneResult : The result type.
    iaa_widgets.majority_vote : The start.
    iaa_widgets.mace : Annotators who know or spam.

    Notes
    -----
    E-step: T_ik ∝ π_k Π_r θ_{a_r k l_r} (eq. 2.5); M-step: θ_akl = N_akl / Σ_l N_akl
    with N_akl = Σ_i T_ik n_ial (eq. 2.3), π_k = Σ_i T_ik / n (eq. 2.4).

    References
    ----------
    Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. Applied Statistics, 28(1), 20–28.
    https://doi.org/10.2307/2346806

    Examples
    --------
    >>> import pandas as pd, iaa_widgets as iaa
    >>> df = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2], "annotator": list("abc") * 2,
    ...                    "label": ["x", "x", "y", "y", "y", "y"]})
    >>> iaa.dawid_skene(df).labels.tolist()
    ['x', 'y']
    """
    where = "dawid_skene"
    max_iter = validate.integer(where, "max_iter", max_iter, minimum=1)
    tol = validate.real(where, "tol", tol, minimum=0.0)
    validate.choice(where, "init", init, ("majority",))
    validate.choice(where, "model", model, MODELS)
    r = ratings(data, where, identity=True)
    s = _em.incidence(r)
    w = _em.item_weights(r)
    votes = r.votes()  # items × classes
    t = votes / np.maximum(votes.sum(axis=1, keepdims=True), 1)  # vote shares (eq. 3.1)
    n = _em.counts(s, t, w)
    prior, theta = _em.priors(t, w), _error_rates(s, n, model)
    history = []
    converged = False
    for _ in range(max_iter):
        e = _em.e_step(s, _em.log_cells(theta), np.log(np.maximum(prior, _em.FLOOR)), w)
        history.append(e.log_likelihood)
        before = (prior, theta)
        t, n = e.t, e.counts
        prior, theta = e.class_totals / w.sum(), _error_rates(s, n, model)
        change = max(_em.largest_change(before[0], prior), _em.largest_change(before[1], theta))
        if change < tol:
            converged = True
            break
    codes = np.where(r.rated, np.argmax(t, axis=1), -1)
    note = "" if converged else (
        f"EM did not converge in {max_iter} iterations (a class prior or error rate "
        f"still changed by {change:.3g} in the last one, tol={tol:g}); raise max_iter")
    if model == "full":  # the used cells' columns; a label never given keeps 0
        rates = _build.rates(r, s, cells=theta)
    else:  # p_a on the diagonal, (1 − p_a)/(K − 1) elsewhere
        p = _one_coin(s, n)
        off = np.repeat(((1 - p) / (r.n_categories - 1))[:, None], r.n_categories, axis=1)
        rates = _build.rates(r, s, base=off, diagonal=p - off[:, 0])
    return DawidSkeneResult(
        log_likelihood=np.asarray(history), n_iter=len(history), converged=converged,
        **_build.common(r, s, f"dawid_skene ({model})", codes, t, rates, n, prior,
                        note=note, params={"model": model, "init": init,
                                           "max_iter": max_iter, "tol": tol}))


def _error_rates(s, n, model):
    """θ of the used cells (cells × classes) from their expected counts N (the M-step,
    eq. 2.3; π comes from the class totals, eq. 2.4): θ_akl = N_akl / Σ_l' N_akl' over
    the labels l' a gave (floored at 1e-10; a label never given keeps 0 and has no cell);
    one-coin: p_a on the diagonal, (1 − p_a)/(K − 1) elsewhere (:func:`_one_coin`)."""
    if model == "full":
        theta = np.maximum(n, _em.FLOOR)
        theta /= s.by_annotator(theta)[s.cell_annotator]  # each class row sums to 1
        return theta
    p = _one_coin(s, n)[s.cell_annotator]
    k = n.shape[1]
    theta = np.repeat(((1 - p) / (k - 1))[:, None], k, axis=1)
    theta[np.arange(len(theta)), s.cell_label] = p
    return theta


def _one_coin(s, n):
    """p_a = Σ_k N_akk / Σ_kl N_akl, the expected share of a's labels that match the
    class, kept inside (1e-10, 1 − 1e-10) (annotators × 1)."""
    total = s.by_annotator(n.sum(axis=1))
    p = s.by_annotator(s.diagonal(n)) / np.maximum(total, _em.FLOOR)
    return np.clip(p, _em.FLOOR, 1 - _em.FLOOR)
