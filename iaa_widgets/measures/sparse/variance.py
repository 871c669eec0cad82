"""Item-agreement variances and the weighting schemes of Sparse Probability of
Agreement (Nørregaard & Derczynski, §5).

The agreement of one item with n annotations, P̂ = Σ_c n_c(n_c − 1) / (n(n − 1))
(eq. 1/9), is the mean over the N = n(n − 1)/2 annotation pairs of the kernel
h(x, y) = [x = y]: a U-statistic of degree 2. When the n labels are independent
draws from a class distribution p (§5.4; uniform p_c = 1/C in §5.3), Hoeffding's
variance of a U-statistic gives the exact closed form

    Var[P̂] = 2 (2(n − 2) ζ₁ + ζ₂) / (n(n − 1)),
    ζ₁ = Cov(h(X, Y), h(X, Z)) = s₃ − s₂²,   ζ₂ = Var h(X, Y) = s₂(1 − s₂),

with s_k = Σ_c p_c^k, and E[P̂] = s₂. This equals the appendix sums (eq. 41 and 50,
whose main-text versions eq. 20 and 22 carry typos: eq. 20 puts 2^[n₀ = n₁] where the
appendix has 2^[n₀ ≠ n₁], eq. 22 lacks the 1/N² factor); tests/test_sparse.py checks
all of them against brute-force enumeration of every labelling.

Two consequences the paper observed but did not explain (§6.1):
- uniform p: ζ₁ = 0, so Var[P̂] = 2(C − 1) / (C² n(n − 1)) and the inverse-variance
  weights are exactly proportional to the number of edges n(n − 1)/2, whatever C;
- skewed p: ζ₁ > 0 and the weight n(n − 1) / (2(n − 2)ζ₁ + ζ₂) runs from edges-like
  (ζ₁ ≪ ζ₂) towards linear in n (ζ₁ ≫ ζ₂), and tends to n (the "annotations" scheme)
  as p degenerates onto one class.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ... import validate
from ...errors import AgreementError

__all__ = ["SPA_SCHEMES", "spa_item_variance", "spa_scheme_weights", "spa_weight_curves"]

SPA_SCHEMES = ("flat", "annotations", "annotations_m1", "edges", "inv_var", "inv_var_class")


def check_class_probs(class_probs, n_classes: int | None = None) -> np.ndarray:
    """A class distribution as a float array: finite, non-negative, summing to 1."""
    try:
        if isinstance(class_probs, (str, bytes, bool, np.bool_)):
            raise TypeError
        p = np.asarray(class_probs, dtype=float).ravel()
    except (TypeError, ValueError):
        raise AgreementError(f"class_probs must be finite non-negative probabilities, one "
                             f"per category, got {class_probs!r}") from None
    if p.size == 0 or not np.all(np.isfinite(p)) or np.any(p < 0):
        raise AgreementError(f"class_probs must be finite non-negative probabilities, got {p!r}")
    if abs(p.sum() - 1.0) > 1e-6:
        raise AgreementError(f"class_probs must sum to 1, they sum to {p.sum():.6g}")
    if n_classes is not None and p.size != n_classes:
        raise AgreementError(f"class_probs has {p.size} entries for {n_classes} categories")
    return p / p.sum()


def _zetas(p: np.ndarray) -> tuple[float, float]:
    """ζ₁ = s₃ − s₂² and ζ₂ = s₂(1 − s₂), written without cancellation near a
    degenerate p: s₃ − s₂² = Σ_c p_c (p_c − s₂)², p_c − s₂ = Σ_j p_j (p_c − p_j),
    1 − s₂ = Σ_c p_c Σ_{j≠c} p_j."""
    diff = p[:, None] - p[None, :]
    centred = diff @ p                                     # p_c − s₂
    zeta1 = float(p @ centred ** 2)
    others = (p[None, :] * (1.0 - np.eye(p.size))).sum(axis=1)
    s2 = float(p @ p)
    return zeta1, s2 * float(p @ others)


def spa_item_variance(n, n_classes: int | None = None, class_probs=None):
    r"""Exact variance of one item's agreement P̂ with ``n`` annotations (§5.3, §5.4).

    Give ``n_classes`` (labels uniform over C classes, eq. 41) or ``class_probs``
    (labels drawn from p, eq. 50). ``n`` may be an int or an array; items with fewer
    than two annotations have no agreement, hence infinite variance (§5.5). A class
    distribution concentrated on one class (or C = 1) gives variance 0 for every n.

    Parameters
    ----------
    n : int or array_like of int
        Annotations on the item.
    n_classes : int, optional
        C, for labels uniform over C classes (eq. 41).
    class_probs : array_like, optional
        p, for labels drawn from a class distribution (eq. 50).

    Returns
    -------
    float or ndarray
        Var[P̂] for each n; infinity below two annotations.

    Raises
    ------
    AgreementError
        When neither or both of ``n_classes`` and ``class_probs`` are given, they are not
        a valid number of classes or distribution, or ``n`` is not a whole number ≥ 0.

    See Also
    --------
    sparse_agreement : its "inv_var" and "inv_var_class" schemes weigh items by 1/Var[P̂].
    spa_weight_curves : the resulting weights.

    Notes
    -----
    For uniform labels (Appendix A, eq. 41, which the enumeration of all C^n labellings
    confirms):

    $$\mathrm{Var}[\hat P] = \frac{2(C - 1)}{C^2\, n(n - 1)}.$$

    References
    ----------
    Nørregaard, J. & Derczynski, L. (2022). Sparse Probability of Agreement. arXiv:2208.06161.
    https://doi.org/10.48550/arXiv.2208.06161

    Examples
    --------
    n = 3, C = 2 by hand: 2 of the 8 labellings give P̂ = 1, the other 6 P̂ = 1/3, so
    E = 1/2 and Var = 2/8 + 6/8 · 1/9 − 1/4 = 1/12:

    >>> round(iaa.spa_item_variance(3, n_classes=2), 6)
    0.083333
    >>> iaa.spa_item_variance([1, 2], n_classes=2).tolist()
    [inf, 0.25]
    """
    if (n_classes is None) == (class_probs is None):
        raise AgreementError("give exactly one of n_classes= or class_probs=")
    if class_probs is None:
        c = float(validate.integer("spa_item_variance", "n_classes", n_classes, minimum=1))
        zeta1, zeta2 = 0.0, (c - 1.0) / c ** 2             # uniform: s₃ = s₂² = 1/C²
    else:
        zeta1, zeta2 = _zetas(check_class_probs(class_probs))
    n_arr = np.asarray(n)
    if n_arr.dtype.kind not in "iuf" or not np.all((n_arr >= 0) & (n_arr == np.round(n_arr))):
        raise AgreementError(f"n must be whole numbers of annotations (0, 1, 2 …), got {n!r}")
    nf = n_arr.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = 2.0 * (2.0 * (nf - 2.0) * zeta1 + zeta2) / (nf * (nf - 1.0))  # Hoeffding
    var = np.where(nf < 2, np.inf, var)
    return float(var) if var.ndim == 0 else var


def spa_scheme_weights(scheme: str, n, n_classes: int | None = None,
                       class_probs=None) -> tuple[np.ndarray, str]:
    """Weights k(n) of a named scheme (§5.1, §5.2) for annotation counts ``n``, zero
    below two annotations, and a note when a degenerate class distribution forced
    a limit. Only the ratios of the weights matter."""
    nf = np.asarray(n, dtype=float)
    usable = nf >= 2
    note = ""
    if scheme == "flat":
        w = np.ones_like(nf)
    elif scheme == "annotations":
        w = nf.copy()
    elif scheme == "annotations_m1":
        w = nf - 1.0
    elif scheme == "edges":
        w = nf * (nf - 1.0) / 2.0
    elif scheme in ("inv_var", "inv_var_class"):
        if scheme == "inv_var":
            if n_classes is None:
                raise AgreementError("the 'inv_var' scheme needs n_classes")
            var = spa_item_variance(np.where(usable, nf, 2.0), n_classes=n_classes)
        else:
            if class_probs is None:
                raise AgreementError("the 'inv_var_class' scheme needs class_probs")
            var = spa_item_variance(np.where(usable, nf, 2.0), class_probs=class_probs)
        var = np.atleast_1d(var)
        if np.any(usable) and np.all(var[np.atleast_1d(usable)] == 0):
            # one class only: Var[P̂] ≡ 0; use the limit of the normalised weights
            if scheme == "inv_var":    # uniform: k ∝ n(n − 1) for every C ≥ 2
                w, note = nf * (nf - 1.0), ("one category only: 'inv_var' uses its "
                                            "C-independent limit, the edges weights")
            else:                      # p → one class: Var[P̂] ≈ 4ε/n, so k ∝ n
                w, note = nf.copy(), ("degenerate class distribution (one class has "
                                      "probability 1): 'inv_var_class' uses its limit, "
                                      "the 'annotations' weights k = n")
        else:
            with np.errstate(divide="ignore"):
                w = (1.0 / var).reshape(nf.shape)
    else:
        raise AgreementError(f"unknown weighting scheme {scheme!r}; use one of "
                             f"{list(SPA_SCHEMES)} or an array of per-item weights")
    return np.where(usable, w, 0.0), note


def spa_weight_curves(max_annotations: int, schemes: Sequence[str] = SPA_SCHEMES[1:5],
                      n_classes: int | None = None, class_probs=None) -> pd.DataFrame:
    """Normalised weight curves (Figures 4 and 5): the weight of an item with
    n = 1 … ``max_annotations`` annotations under each scheme, divided by the
    largest weight of that scheme. Rows are n; columns the schemes. "inv_var" uses
    ``n_classes`` (default 2, as in Figure 4; its curve is the same for every C ≥ 2),
    "inv_var_class" needs ``class_probs``.

    Parameters
    ----------
    max_annotations : int
        The largest n shown (rows 1 … max_annotations), at least 2.
    schemes : sequence of str, default ("annotations", "annotations_m1", "edges", "inv_var")
        Names of §5.
    n_classes : int, optional
        C for "inv_var" (default 2).
    class_probs : array_like, optional
        The class distribution "inv_var_class" needs.

    Returns
    -------
    pandas.DataFrame
        Rows n = 1 … max_annotations, one column per scheme, each scaled to a largest weight
        of 1.

    Raises
    ------
    AgreementError
        When a scheme is unknown, ``max_annotations`` is not an integer ≥ 2, or
        "inv_var_class" lacks ``class_probs``.

    See Also
    --------
    sparse_agreement : where the weights enter.
    spa_item_variance : the variances behind "inv_var".

    Notes
    -----
    k(n) = n, n − 1, n(n − 1)/2 and 1/Var[P̂](n) (§5.1–5.4), 0 for n = 1 (§5.5), divided by
    their largest value.

    References
    ----------
    Nørregaard, J. & Derczynski, L. (2022). Sparse Probability of Agreement. arXiv:2208.06161.
    https://doi.org/10.48550/arXiv.2208.06161

    Examples
    --------
    Figure 4 (top) for n ≤ 4: "inv_var" coincides with "edges" (§6.1):

    >>> iaa.spa_weight_curves(4).round(4)
                   annotations  annotations_m1   edges  inv_var
    n_annotations
    1                     0.00          0.0000  0.0000   0.0000
    2                     0.50          0.3333  0.1667   0.1667
    3                     0.75          0.6667  0.5000   0.5000
    4                     1.00          1.0000  1.0000   1.0000
    """
    where = "spa_weight_curves"
    schemes = validate.choices(where, "schemes", schemes, SPA_SCHEMES)
    n_classes = 2 if n_classes is None else validate.integer(where, "n_classes", n_classes,
                                                             minimum=1)
    max_annotations = validate.integer(where, "max_annotations", max_annotations, minimum=2)
    n = np.arange(1, max_annotations + 1)
    cols = {}
    for scheme in schemes:
        w, _ = spa_scheme_weights(scheme, n, n_classes, class_probs)
        cols[scheme] = w / w.max()
    return pd.DataFrame(cols, index=pd.Index(n, name="n_annotations"))
