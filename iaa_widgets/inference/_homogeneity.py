"""Tests that several agreement coefficients are equal: Fleiss' (1981) χ² from the
estimates and their standard errors, and Donner, Eliasziw & Klar's (1996) goodness of
fit for binary κ of two ratings per item.

Binary data of two ratings per item reduce, in each group j, to three counts: items
rated positive twice (n₂), once (n₁) and never (n₀). The intraclass κ (Scott's π) and
the prevalence are then κ̂ = (4 n₂ n₀ − n₁²) / ((2n₂ + n₁)(2n₀ + n₁)),
p̂ = (2n₂ + n₁) / 2n (Fleiss 1981, *Statistical Methods for Rates and Proportions*,
2nd ed., ch. 13).
"""
from __future__ import annotations

import numpy as np

__all__ = ["fleiss_homogeneity", "binary_counts_kappa", "fleiss_binary_variance",
           "donner_gof"]


def fleiss_homogeneity(estimates, se) -> tuple[float, float, int, float]:
    """Fleiss (1981, ch. 13) χ² = Σ_j w_j (κ̂_j − κ̄)², w_j = 1/se_j², κ̄ = Σ w_j κ̂_j / Σ w_j,
    on J − 1 degrees of freedom: (χ², p-value, df, κ̄)."""
    from scipy.special import chdtrc
    k, s = np.asarray(estimates, float), np.asarray(se, float)
    w = 1 / s ** 2
    common = float(w @ k / w.sum())
    chi2 = float(w @ (k - common) ** 2)
    df = len(k) - 1
    return chi2, float(chdtrc(df, chi2)), df, common


def binary_counts_kappa(n2, n1, n0) -> tuple[np.ndarray, np.ndarray]:
    """(κ̂_j, p̂_j) of each group's counts (module docstring; Fleiss 1981, ch. 13)."""
    n2, n1, n0 = (np.asarray(x, float) for x in (n2, n1, n0))
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = (4 * n2 * n0 - n1 ** 2) / ((2 * n2 + n1) * (2 * n0 + n1))
        p = (2 * n2 + n1) / (2 * (n2 + n1 + n0))
    return kappa, p


def fleiss_binary_variance(kappa, p, n) -> np.ndarray:
    """Large-sample variance of the binary intraclass κ̂ (Fleiss 1981, ch. 13; Bloch &
    Kraemer 1989): (1 − κ)/n · [(1 − κ)(1 − 2κ) + κ(2 − κ) / (2p(1 − p))]."""
    kappa, p, n = (np.asarray(x, float) for x in (kappa, p, n))
    return (1 - kappa) / n * ((1 - kappa) * (1 - 2 * kappa) +
                              kappa * (2 - kappa) / (2 * p * (1 - p)))


def donner_gof(n2, n1, n0) -> tuple[float, float, int, float]:
    """Donner, Eliasziw & Klar's (1996, *Biometrics* 52:176–183, doi:10.2307/2533154)
    goodness-of-fit test of H0 κ_1 = … = κ_J for binary ratings, two per item:
    κ̄ = Σ n_j p̂_j q̂_j κ̂_j / Σ n_j p̂_j q̂_j; expected shares under κ̄
    P₂ = p̂² + p̂q̂κ̄, P₁ = 2p̂q̂(1 − κ̄), P₀ = q̂² + p̂q̂κ̄ (q̂ = 1 − p̂);
    χ² = Σ_j Σ_l (n_jl − n_j P_jl)² / (n_j P_jl) on J − 1 degrees of freedom:
    (χ², p-value, df, κ̄)."""
    from scipy.special import chdtrc
    n2, n1, n0 = (np.asarray(x, float) for x in (n2, n1, n0))
    n = n2 + n1 + n0
    kappa, p = binary_counts_kappa(n2, n1, n0)
    pq = p * (1 - p)
    common = float(np.sum(n * pq * kappa) / np.sum(n * pq))
    expected = n * np.stack([p ** 2 + pq * common, 2 * pq * (1 - common),
                             (1 - p) ** 2 + pq * common])
    chi2 = float(np.sum((np.stack([n2, n1, n0]) - expected) ** 2 / expected))
    df = len(n) - 1
    return chi2, float(chdtrc(df, chi2)), df, common
