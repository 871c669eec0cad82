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
    ξ_j's posterior mean; ``confusion``: θ_j·[k = l] + (1 − θ_j)·ξ_jl with those;
    ``log_likelihood``: the log marginal likelihood per iteration of the kept restart;
    ``converged``: the kept restart's parameters stopped changing (by ``tol``).
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
    know_cells = _knowing_cells(n, weights)
    n_a = n.sum(axis=(1, 2))
    competence = (alpha + know_cells.sum(axis=1)) / (alpha + beta + n_a)  # E[θ_j]
    spam_cells = n.sum(axis=1) - know_cells
    strategy = (spam_cells + gamma) / (spam_cells.sum(axis=1, keepdims=True) + k * gamma)
    theta = (1 - competence)[:, None, None] * strategy[:, None, :] \
        + competence[:, None, None] * np.eye(k)
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
        **_build.common(r, "mace", codes, t, theta, n, np.full(k, 1 / k), note=note,
                        params={"n_restarts": n_restarts, "max_iter": max_iter,
                                "seed": seed, "alpha": alpha, "beta": beta, "gamma": gamma,
                                "tol": tol}))


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
        weights = _vb_update(e.counts, weights, alpha, beta, gamma)
        e = _e_step(s, w, weights)
        history.append(e.log_likelihood)
        change = max(map(_em.largest_change, before, weights))
        if change < tol:
            break
    return weights, e.t, e.counts, history, change


def _cells(weights):
    """P(label l | class k) of each annotator: spam_j ξ_jl + know_j [l = k] (Hovy et al.
    2013, eq. 1; under VB the weights are sub-normalised, exp E[log ·])."""
    spam, know, xi = weights
    k = xi.shape[1]
    return spam[:, None, None] * xi[:, None, :] + know[:, None, None] * np.eye(k)


def _e_step(s, w, weights):
    """Posteriors of T, the log marginal likelihood Σ_i log (1/K) Σ_k Π_r P(l_r | k) and
    the expected counts (:class:`._em.Expectation`)."""
    k = weights[2].shape[1]
    return _em.e_step(s, _em.log_cells(_cells(weights)), np.full(k, -np.log(k)), w)


def _knowing_cells(n, weights):
    """E[knowing labels] per (annotator, label l): of the N[a, l, l] labels l on items
    of class l, the share know / (know + spam ξ_l); labels off the class are spam."""
    spam, know, xi = weights
    diag = np.diagonal(n, axis1=1, axis2=2)
    return diag * know[:, None] / (know[:, None] + spam[:, None] * xi)


def _vb_update(n, weights, alpha, beta, gamma):
    """Variational M-step: exp ψ(count + prior) − ψ(Σ counts + Σ priors) for knowing vs
    spamming (Beta(α, β)) and for the strategy (Dirichlet(γ))."""
    k = n.shape[1]
    know_cells = _knowing_cells(n, weights)
    spam_cells = n.sum(axis=1) - know_cells  # every label given, minus the known ones
    knowing, spamming = know_cells.sum(axis=1), spam_cells.sum(axis=1)
    total = digamma(knowing + spamming + alpha + beta)
    xi = np.exp(digamma(spam_cells + gamma)
                - digamma(spam_cells.sum(axis=1, keepdims=True) + k * gamma))
    return np.exp(digamma(spamming + beta) - total), np.exp(digamma(knowing + alpha) - total), xi
