"""MACE (Hovy, Berg-Kirkpatrick, Vaswani & Hovy 2013): annotators who either know an
item's label or spam, fitted by variational Bayes with random restarts."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import digamma

from .. import validate
from . import _build, _em
from ._ratings import ratings
from .results import MaceResult

__all__ = ["mace"]


def mace(data, *, n_restarts: int = 10, max_iter: int = 50, seed=None, alpha: float = 0.5,
         beta: float = 0.5, gamma: float = 10.0, tol: float = 1e-5) -> MaceResult:
    """Multi-Annotator Competence Estimation (Hovy et al. 2013), variational Bayes.

    Each item's true label T_i is uniform over the K categories; annotator j spams an
    item with probability 1 − θ_j (S_ij ~ Bernoulli(1 − θ_j)); not spamming, they give
    T_i; spamming, a label drawn from their strategy ξ_j. Priors: θ_j ~ Beta(α, β) (α
    weighs knowing, β spamming) and ξ_j ~ Dirichlet(γ) (symmetric). Variational Bayes
    alternates the expected counts (E-step, in log space) with the variational update
    of θ and ξ, exp ψ(count + prior) / exp ψ(total + prior sum), for ``max_iter``
    iterations or until no parameter (knowing and spamming weights, strategies) changes
    by ``tol`` or more; ``n_restarts`` random starts (drawn from ``seed``) are run and the
    one with the highest log marginal likelihood is kept. The defaults α = β = 0.5, γ = 10,
    10 restarts of 50 iterations are those of crowd-kit 1.4.2's MACE.

    ``competence``: θ_j's posterior mean (α + E[knowing]) / (α + β + n_j); ``spamming``:
    ξ_j's posterior mean; ``confusion``: θ_j·[k = l] + (1 − θ_j)·ξ_jl with those (held
    per annotator as ξ_j and θ_j, never as annotators × K × K: ``rates``);
    ``log_likelihood``: the log marginal likelihood per iteration of the kept restart,
    Σ_i log (1/K) Σ_k Π_r P(l_r | k) under the iteration's weights exp E[log ·];
    ``converged``: the kept restart's parameters stopped changing (by ``tol``).

    Parameters
    ----------
    data : Annotations or anything `as_annotations` accepts
        Ratings with named annotators (per-item counts are refused).
    n_restarts : int, default 10
        Random starts.
    max_iter : int, default 50
        Most iterations of each start.
    seed : int, numpy Generator or None, default None
        The random starts.
    alpha, beta : float, default 0.5
        Beta(α, β) prior on θ_j: α weighs knowing, β spamming (crowd-kit's are swapped).
    gamma : float, default 10.0
        Symmetric Dirichlet(γ) prior on the strategies ξ_j.
    tol : float, default 1e-5
        Stop a restart when no parameter changes by this much.

    Returns
    -------
    MaceResult
        ``labels``, ``posteriors``, ``competence``, ``spamming``, ``confusion``,
        ``accuracy``, ``log_likelihood``, ``n_iter``, ``converged``, ``note``.

    Raises
    ------
    AgreementError
        Per-item counts, fewer than two annotators or categories with ratings, a bad
        parameter.

    See Also
    --------
    iaa_widgets.MaceResult : The result type.
    iaa_widgets.dawid_skene : A full confusion matrix per annotator.
    iaa_widgets.majority_vote : The unweighted consensus.

    Notes
    -----
    **α and β are crowd-kit's swapped.** Here, as in Hovy et al. (2013), θ_j is the
    probability of *not* spamming and θ_j ~ Beta(α, β): ``alpha`` is the prior weight of
    knowing, ``beta`` that of spamming. crowd-kit 1.4.2's ``MACE(alpha=, beta=)`` gives
    ``alpha`` to its first column, spamming (``theta_priors_[:, 0]`` beside
    ``spamming_[:, 0]``, the weight of the strategy), and ``beta`` to knowing: crowd-kit's
    ``MACE(alpha=a, beta=b)`` is ``iaa.mace(alpha=b, beta=a)``. With the defaults (both
    0.5) the two agree.

    **log_likelihood may fall.** Variational Bayes increases its evidence lower bound,
    not the marginal likelihood recorded here (which crowd-kit reports too): the recorded
    value usually rises but may fall between iterations (e.g. by 0.013 at the 8th
    iteration on a crowd of 60 items × 6 annotators, tests/test_models.py). Restarts are
    ranked by it, as crowd-kit ranks them; convergence is judged on the parameters.

    References
    ----------
    Hovy, D., Berg-Kirkpatrick, T., Vaswani, A. & Hovy, E. (2013). Learning whom to trust
    with MACE. NAACL-HLT 2013, 1120–1130. https://aclanthology.org/N13-1132

    Examples
    --------
    >>> import pandas as pd, iaa_widgets as iaa
    >>> df = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2], "annotator": list("abc") * 2,
    ...                    "label": ["x", "x", "y", "y", "y", "y"]})
    >>> iaa.mace(df, seed=0).labels.tolist()
    ['x', 'y']
    """
    where = "mace"
    n_restarts = validate.integer(where, "n_restarts", n_restarts, minimum=1)
    max_iter = validate.integer(where, "max_iter", max_iter, minimum=1)
    validate.seed(where, "seed", seed)
    alpha = validate.real(where, "alpha", alpha, minimum=0.0, open_low=True)
    beta = validate.real(where, "beta", beta, minimum=0.0, open_low=True)
    gamma = validate.real(where, "gamma", gamma, minimum=0.0, open_low=True)
    tol = validate.real(where, "tol", tol, minimum=0.0)
    r = ratings(data, where, identity=True)
    s = _em.incidence(r)
    rng = np.random.default_rng(seed)
    best = None
    for _ in range(n_restarts):  # a handful of restarts, each one vectorised
        run = _fit(s, r, rng, max_iter, alpha, beta, gamma, tol)
        if best is None or run[3][-1] > best[3][-1]:  # highest log marginal likelihood
            best = run
    weights, t, n, history, change = best
    k = r.n_categories
    know, spam_cells = _split(s, n, weights)
    n_a = spam_cells.sum(axis=1) + know  # every label a gave
    competence = (alpha + know) / (alpha + beta + n_a)  # E[θ_j]
    strategy = (spam_cells + gamma) / (spam_cells.sum(axis=1, keepdims=True) + k * gamma)
    converged = change < tol
    codes = np.where(r.rated, np.argmax(t, axis=1), -1)
    note = "" if converged else (
        f"variational Bayes ran all {max_iter} iterations and had not converged (a "
        f"parameter still changed by {change:.3g} in the last one, "
        f"tol={tol:g}); raise max_iter")
    annotators = pd.Index(r.ann.annotators, name="annotator")
    return MaceResult(
        log_likelihood=np.asarray(history), n_iter=len(history) - 1, converged=converged,
        competence=pd.Series(competence, index=annotators, name="competence"),
        spamming=pd.DataFrame(strategy, index=annotators,
                              columns=pd.Index(r.ann.categories, name="label")),
        **_build.common(r, s, "mace", codes, t, _build.rates(  # θ_j [k = l] + (1 − θ_j) ξ_jl
            r, s, base=(1 - competence)[:, None] * strategy, diagonal=competence,
            undefined=np.zeros((r.n_annotators, k), bool)), n,  # no rating: the priors' means
            np.full(k, 1 / k), note=note,
            params={"n_restarts": n_restarts, "max_iter": max_iter, "seed": seed,
                    "alpha": alpha, "beta": beta, "gamma": gamma, "tol": tol}))


def _fit(s, r, rng, max_iter, alpha, beta, gamma, tol):
    """One restart: random knowing/spamming shares and strategies, then VB iterations.
    Returns the final weights, posteriors, expected counts, and the log marginal
    likelihood after the first E-step and after each iteration."""
    k, a = r.n_categories, r.n_annotators
    w = _em.item_weights(r)
    spam_know = rng.uniform(1.0, 2.5, (a, 2))  # random start, as crowd-kit's U(1, 2.5)
    spam_know /= spam_know.sum(axis=1, keepdims=True)
    xi = rng.uniform(1.0, 2.5, (a, k))
    weights = (spam_know[:, 0], spam_know[:, 1], xi / xi.sum(axis=1, keepdims=True))
    e = _e_step(s, w, weights)
    history = [e.log_likelihood]
    for _ in range(max_iter):
        before = weights
        weights = _vb_update(s, e.counts, weights, alpha, beta, gamma)
        e = _e_step(s, w, weights)
        history.append(e.log_likelihood)
        change = max(map(_em.largest_change, before, weights))
        if change < tol:
            break
    return weights, e.t, e.counts, history, change


def _cells(s, weights):
    """log P(l_u | class k) of the used cells (cells × classes): spam_j ξ_jl + know_j
    [l = k] (Hovy et al. 2013, eq. 1; under VB the weights are sub-normalised,
    exp E[log ·])."""
    spam, know, xi = weights
    a, l = s.cell_annotator, s.cell_label
    off = spam[a] * xi[a, l]  # the label given, on an item of another class: spam
    cells = np.repeat(off[:, None], s.n_categories, axis=1)
    cells[np.arange(len(l)), l] += know[a]  # … of its own class: spam or knowing
    return _em.log_cells(cells)


def _e_step(s, w, weights):
    """Posteriors of T, the log marginal likelihood Σ_i log (1/K) Σ_k Π_r P(l_r | k) and
    the expected counts (:class:`._em.Expectation`)."""
    k = weights[2].shape[1]
    return _em.e_step(s, _cells(s, weights), np.full(k, -np.log(k)), w)


def _split(s, n, weights):
    """E[knowing labels] of each annotator, and their expected spam labels (annotators
    × labels): of the N[u, l_u] labels l on items of class l, the share know / (know +
    spam ξ_l) is known; every other label given is spam."""
    spam, know, xi = weights
    a, l = s.cell_annotator, s.cell_label
    diag = s.diagonal(n)
    known = diag * know[a] / (know[a] + spam[a] * xi[a, l])
    spam_cells = np.zeros_like(xi)
    spam_cells[a, l] = n.sum(axis=1) - known  # the used cells are distinct (a, l) pairs
    return s.by_annotator(known), spam_cells


def _vb_update(s, n, weights, alpha, beta, gamma):
    """Variational M-step: exp ψ(count + prior) − ψ(Σ counts + Σ priors) for knowing vs
    spamming (Beta(α, β)) and for the strategy (Dirichlet(γ))."""
    k = n.shape[1]
    knowing, spam_cells = _split(s, n, weights)
    spamming = spam_cells.sum(axis=1)
    total = digamma(knowing + spamming + alpha + beta)
    xi = np.exp(digamma(spam_cells + gamma)
                - digamma(spam_cells.sum(axis=1, keepdims=True) + k * gamma))
    return np.exp(digamma(spamming + beta) - total), np.exp(digamma(knowing + alpha) - total), xi
