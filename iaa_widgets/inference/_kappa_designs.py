"""Analytic sample sizes for κ studies: Cantor (1996), Flack et al. (1988) and Donner &
Rotondi (2010), as pure functions of the design parameters (validated by the caller,
:func:`iaa_widgets.sample_size`)."""
from __future__ import annotations

import math

import numpy as np

__all__ = ["cantor_n", "flack_n", "rotondi_statistic", "rotondi_ci_n", "rotondi_power_n",
           "rotondi_bound"]


def _z(q: float) -> float:
    from scipy.special import ndtri
    return float(ndtri(q))


def _cantor_q(kappa: float, p1: float, p2: float, pe: float) -> float:
    """Cantor's (1996, eq. 3) n·var(κ̂) for two raters' binary ratings with marginal
    probabilities p1, p2 of the first category and agreement π₀ = κ(1 − π_e) + π_e."""
    q1, q2 = 1 - p1, 1 - p2
    pi0 = kappa * (1 - pe) + pe
    pi22 = (pi0 - p1 + q2) / 2                 # both in the second category
    pi11 = pi0 - pi22
    pi12, pi21 = p1 - pi11, p2 - pi11
    return (1 - pe) ** -4 * (pi11 * (1 - pe - (p2 + p1) * (1 - pi0)) ** 2 +
                             pi22 * (1 - pe - (q2 + q1) * (1 - pi0)) ** 2 +
                             (1 - pi0) ** 2 * (pi12 * (p2 + q1) ** 2 + pi21 * (q2 + p1) ** 2) -
                             (pi0 * pe - 2 * pe + pi0) ** 2)


def cantor_n(p1: float, p2: float, kappa1: float, kappa0: float, significance: float,
             power: float, sides: int) -> int:
    """Cantor (1996) items to detect κ₁ against H0 κ = κ₀ (binary, two raters):
    n = ⌈((z_{1−a/s} √Q₀ + z_power √Q₁) / (κ₁ − κ₀))²⌉."""
    pe = p1 * p2 + (1 - p1) * (1 - p2)
    q0, q1 = _cantor_q(kappa0, p1, p2, pe), _cantor_q(kappa1, p1, p2, pe)
    n = ((_z(1 - significance / sides) * math.sqrt(q0) + _z(power) * math.sqrt(q1)) /
         (kappa1 - kappa0)) ** 2
    return math.ceil(n)


def _flack_tau(margins: np.ndarray, kappa: float) -> float:
    """Flack et al.'s (1988) largest √(n var κ̂) over the K × K tables with the given
    margins (both raters) and agreement π₀ = κ + π_e(1 − κ): a linear program over the
    table's cells (scipy's HiGHS)."""
    from scipy.optimize import linprog
    k = len(margins)
    pe = float(margins @ margins)
    pi0 = kappa + pe * (1 - kappa)
    if not pi0 > 0:
        return math.nan
    both = margins[:, None] + margins[None, :]
    obj = (1 - pi0) ** 2 * both ** 2                          # off-diagonal cells
    d = np.arange(k)
    obj[d, d] = -(1 - pi0) * 2 * margins * (2 * (1 - pe) - (1 - pi0) * 2 * margins)
    rows = np.kron(np.eye(k), np.ones(k))                    # Σ_j x_ij = m_i
    cols = np.kron(np.ones(k), np.eye(k))                    # Σ_i x_ij = m_j
    a_eq = np.vstack([rows, cols, np.eye(k).ravel()])        # trace = π₀
    b_eq = np.concatenate([margins, margins, [pi0]])
    lp = linprog(-obj.ravel(), A_eq=a_eq, b_eq=b_eq, bounds=(0, None), method="highs")
    if not lp.success:
        return math.nan
    tau2 = pi0 * (1 - pe) ** 2 - lp.fun - (pi0 * pe - 2 * pe + pi0) ** 2
    return math.sqrt(tau2) / (1 - pe) ** 2 if tau2 > 0 else math.nan


def flack_n(margins, kappa1: float, kappa0: float, significance: float, power: float,
            sides: int) -> int:
    """Flack, Afifi, Lachenbruch & Schouten (1988) items for K categories:
    n = ⌈((z_{1−a/s} τ₀ + z_power τ₁) / (κ₀ − κ₁))²⌉, τ the largest standard deviation
    the margins allow (:func:`_flack_tau`); -1 where no table fits the design."""
    m = np.asarray(margins, float)
    t0, t1 = _flack_tau(m, kappa0), _flack_tau(m, kappa1)
    if math.isnan(t0) or math.isnan(t1):
        return -1
    return math.ceil(((_z(1 - significance / sides) * t0 + _z(power) * t1) /
                      (kappa0 - kappa1)) ** 2)


def _outcomes(rho: float, p, raters: int) -> np.ndarray:
    """Donner & Rotondi's (2010) outcome probabilities under the common-correlation model
    with κ = ρ: binary (p a number): P(j of the m raters say "yes"), j = 0 … m, the
    mixture ρ·(all alike) + (1 − ρ)·(independent); K categories (p the K shares): all m
    raters in category k, P_k = p_k Π_{t=1}^{m−1} (p_k(1 − ρ) + tρ)/(1 + (t − 1)ρ)
    (Dirichlet-multinomial), and the rest, 1 − Σ P_k."""
    if np.ndim(p) == 0:
        j = np.arange(raters + 1)
        binom = np.array([math.comb(raters, int(x)) for x in j], float)
        out = (1 - rho) * binom * p ** j * (1 - p) ** (raters - j)
        out[0] += rho * (1 - p)
        out[-1] += rho * p
        return out
    p = np.asarray(p, float)
    t = np.arange(1, raters)
    unanimous = p * np.prod((p[:, None] * (1 - rho) + t * rho) / (1 + (t - 1) * rho), axis=1)
    return np.concatenate([[1 - unanimous.sum()], unanimous])


def rotondi_statistic(rho0: float, rho1: float, p, raters: int) -> float:
    """Σ (P(ρ₀) − P(ρ₁))² / P(ρ₁): the χ² non-centrality of one item (Donner & Rotondi
    2010; zero cells left out)."""
    a, b = _outcomes(rho0, p, raters), _outcomes(rho1, p, raters)
    ok = b > 0
    return float(np.sum((a[ok] - b[ok]) ** 2 / b[ok]))


def _critical(significance: float, two_sided: bool) -> float:
    """χ²₁ quantile: 1 − α for a two-sided interval, 1 − 2α for a one-sided bound."""
    from scipy.special import chdtri
    return float(chdtri(1, significance if two_sided else 2 * significance))


def rotondi_ci_n(kappa0: float, low: float, high, p, raters: int,
                 significance: float) -> int:
    """Donner & Rotondi (2010) CI-based items: the least n with n·X²(κ₀, κ_L) ≥ χ²_crit
    (and the same for κ_U when given), :func:`rotondi_statistic` at the limits."""
    crit = _critical(significance, high is not None)
    need = [crit / rotondi_statistic(kappa0, low, p, raters)]
    if high is not None:
        need.append(crit / rotondi_statistic(kappa0, high, p, raters))
    return math.ceil(max(need))


def rotondi_power_n(kappa0: float, kappa1: float, p, raters: int, significance: float,
                    power: float) -> int:
    """Donner & Rotondi (2010) power-based items: n = ⌈λ / X²(κ₁; κ₀)⌉, λ the
    non-centrality at which χ²₁(λ) exceeds χ²_{1,1−α} with probability ``power``."""
    from scipy.special import chdtri, chndtrinc
    lam = float(chndtrinc(chdtri(1, significance), 1, 1 - power))
    return math.ceil(lam / rotondi_statistic(kappa1, kappa0, p, raters))


def rotondi_bound(kappa0: float, n: int, p, raters: int, significance: float) -> float:
    """The lower limit κ_L that n items attain (Donner & Rotondi 2010; kappaSize's
    FixedN): n·X²(κ₀, κ_L) = χ²_{1,1−2α}, solved for κ_L < κ₀."""
    from scipy.optimize import brentq
    crit = _critical(significance, False)

    def gap(low):
        return n * rotondi_statistic(kappa0, low, p, raters) - crit
    lo = kappa0 - 1e-9
    floor = -1 / (raters - 1) + 1e-9  # the model's smallest correlation
    if gap(floor) < 0:
        return math.nan
    return float(brentq(gap, floor, lo, xtol=1e-10))
