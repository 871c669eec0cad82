"""The mean of the pairwise correlations between annotators, Pearson's r or Spearman's
ρ, averaged through Fisher's z (R's ``irr::meancor`` and ``irr::meanrho``).
"""
from __future__ import annotations

import math

import numpy as np

from ... import stats, validate
from ...results import AgreementResult
from ._anova import mid_ranks, scores
from .._registry import register

__all__ = ["mean_pearson_r", "mean_spearman_rho"]

PERFECT_TOL = 1e-12  # |r| within this of 1 counts as a perfect correlation


@register(family='correlation and variance', data='numeric', annotators='many',
          source="R irr::meancor; Fisher's z", symbol='mean Pearson r',
          missing=('listwise', 'raise'), range=(-1.0, 1.0))
def mean_pearson_r(data, *, fisher: bool = True, missing: str = "listwise",
                   annotators=None) -> AgreementResult:
    r"""The mean of the annotators' pairwise Pearson correlations (R's ``irr::meancor``);
    see `mean_spearman_rho` for the rank version and the definition.
    ``missing``: "listwise" (default) or "raise", as there.

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Numeric scores (or labels in a declared order), one per annotator and item.
    fisher : bool, default True
        Average on Fisher's z scale and test H0 ρ = 0 (False: the plain mean, no test).
    missing : {"listwise", "raise"}, default "listwise"
        Keep the items every annotator rated, or refuse a missing score.
    annotators : sequence, optional
        The annotators to use, by name (default: all).

    Returns
    -------
    AgreementResult
        ``value`` (the mean r), ``params`` (``pairs``, ``perfect_pairs``, ``z``, ``p_value``),
        ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        When the scores are not numeric or ordered, fewer than two annotators
        remain, an annotator is unknown, or ``missing="raise"`` meets a gap.

    See Also
    --------
    mean_spearman_rho : the same on ranks.
    icc : intraclass correlation.

    Notes
    -----
    Over the P = r(r − 1)/2 pairs, $\bar r = \tanh\big(\frac{1}{P}\sum_p \operatorname{atanh} r_p\big)$
    and $z = \bar z \sqrt{n - 3}$ (Fisher 1921).

    References
    ----------
    Fisher, R. A. (1921). On the "probable error" of a coefficient of correlation deduced
    from a small sample. Metron, 1, 3–32.

    Gamer, M., Lemon, J., Fellows, I. & Singh, P. (2019). irr: Various coefficients of
    interrater reliability and agreement, R package version 0.84.1.
    https://CRAN.R-project.org/package=irr

    Examples
    --------
    irr's anxiety data; R's ``irr::meancor(anxiety)`` prints R = 0.224:

    >>> anxiety = pd.DataFrame(
    ...     [[3, 3, 2], [3, 6, 1], [3, 4, 4], [4, 6, 4], [5, 2, 3], [5, 4, 2], [2, 2, 1],
    ...      [3, 4, 6], [5, 3, 1], [2, 3, 1], [2, 2, 1], [6, 3, 2], [1, 3, 3], [5, 3, 3],
    ...      [2, 2, 1], [2, 2, 1], [1, 1, 3], [2, 3, 3], [4, 3, 2], [3, 4, 2]],
    ...     columns=["r1", "r2", "r3"])
    >>> data = iaa.Annotations.from_wide(anxiety)
    >>> round(iaa.mean_pearson_r(data).value, 3)
    0.224
    """
    return _mean_correlation(data, "pearson", fisher, missing, annotators)


@register(family='correlation and variance', data='ranked', annotators='many',
          source="R irr::meanrho; Fisher's z", symbol='mean Spearman ρ',
          missing=('listwise', 'raise'), range=(-1.0, 1.0))
def mean_spearman_rho(data, *, fisher: bool = True, missing: str = "listwise",
                      annotators=None) -> AgreementResult:
    r"""The mean of the annotators' pairwise Spearman correlations ρ (R's
    ``irr::meanrho``): Pearson's r of the ranks within each annotator, ties given their
    mean rank (as R's ``cor(method="spearman")`` and ``scipy.stats.spearmanr``).

    Both functions: the mean over the r(r − 1)/2 annotator pairs of their correlation
    over the items (scores: numeric labels, or positions 1 … K of a declared order).

    ``fisher=True`` (default, as irr): the value is tanh(z̄), z̄ = mean_p atanh(r_p); a
    perfect correlation (|r| = 1, z infinite) is left out of the mean, as irr does, and
    ``params["perfect_pairs"]`` and the note say how many. ``params``: ``z`` =
    z̄ √(n − 3), Fisher's (1921) statistic for H0 ρ = 0 treating z̄ as one correlation's z
    (an approximation: the pairs share annotators and are not independent), and its
    two-sided ``p_value``. irr divides the back-transformed mean r, not z̄, by
    1/√(n − 3) (README "Differences from other software"). ``fisher=False``: the
    plain mean of the r_p, no test.

    ``params["pairs"]``: each pair's correlation. An annotator whose scores do not vary
    has no correlation with anyone: the value is NaN, with a note naming them.
    ``missing``: "listwise" (default, irr's ``na.omit``) or "raise".
    ``mean_pearson_r.statistic`` serves ``bootstrap``; ``mean_spearman_rho`` has none
    (ranks are not sums over items), so ``bootstrap`` recomputes it per resample.

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Numeric scores (or labels in a declared order), one per annotator and item.
    fisher, missing, annotators
        As in `mean_pearson_r` (default True, "listwise", all annotators).

    Returns
    -------
    AgreementResult
        ``value`` (the mean ρ), ``params`` (``pairs``, ``perfect_pairs``, ``z``, ``p_value``),
        ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        As `mean_pearson_r`.

    See Also
    --------
    mean_pearson_r : the same on the scores.
    kendall_w : concordance of the rankings.

    Notes
    -----
    $\rho_p$ is Pearson's r of the two annotators' mid-ranks (Spearman 1904);
    $\bar\rho = \tanh\big(\frac{1}{P}\sum_p \operatorname{atanh} \rho_p\big)$ over the
    P = r(r − 1)/2 pairs, and $z = \bar z \sqrt{n - 3}$ (Fisher 1921).

    References
    ----------
    Spearman, C. (1904). The proof and measurement of association between two things. The
    American Journal of Psychology, 15(1), 72–101. https://doi.org/10.2307/1412159

    Fisher, R. A. (1921). On the "probable error" of a coefficient of correlation deduced
    from a small sample. Metron, 1, 3–32.

    Examples
    --------
    irr's anxiety data; the pairs' ρ are scipy's ``spearmanr`` (tests/test_irr_family.py):

    >>> anxiety = pd.DataFrame(
    ...     [[3, 3, 2], [3, 6, 1], [3, 4, 4], [4, 6, 4], [5, 2, 3], [5, 4, 2], [2, 2, 1],
    ...      [3, 4, 6], [5, 3, 1], [2, 3, 1], [2, 2, 1], [6, 3, 2], [1, 3, 3], [5, 3, 3],
    ...      [2, 2, 1], [2, 2, 1], [1, 1, 3], [2, 3, 3], [4, 3, 2], [3, 4, 2]],
    ...     columns=["r1", "r2", "r3"])
    >>> data = iaa.Annotations.from_wide(anxiety)
    >>> r = iaa.mean_spearman_rho(data)
    >>> round(r.value, 4), {k: round(v, 4) for k, v in r.params["pairs"].items()}
    (0.3138, {'r1 – r2': 0.4222, 'r1 – r3': 0.1655, 'r2 – r3': 0.3423})
    """
    return _mean_correlation(data, "spearman", fisher, missing, annotators)


def _mean_correlation(data, method: str, fisher, missing, annotators) -> AgreementResult:
    name = {"pearson": "mean_pearson_r", "spearman": "mean_spearman_rho"}[method]
    fisher = validate.boolean(name, "fisher", fisher)
    sc = scores(data, name, missing=missing, annotators=annotators)
    x = _mean_ranks(sc.grid()) if method == "spearman" else sc.grid(centred=True)
    # the totals n, Σ x_a and Σ x_a x_b straight from the grid (no per-item table)
    tot = {"x": x.sum(axis=0)[None], "xx": (x.T @ x).reshape(1, -1),
           "items": np.array([[float(len(x))]])}
    value = float(_finish(sc.k, fisher)(tot)[0][0])
    n = sc.n_items
    r_p = _pair_correlations(tot, sc.k)[0]
    pairs = stats.all_pairs(sc.k)
    names = sc.ann.annotators
    params = {"method": method, "fisher": fisher,
              "pairs": {f"{names[a]} – {names[b]}": float(v) for (a, b), v in zip(pairs, r_p)}}
    notes = []
    flat = names[np.std(x, axis=0) == 0]
    if len(flat):
        notes.append(f"annotator(s) {list(flat)!r} gave every item the same score, so their "
                     "correlations are undefined: the value is NaN")
    if fisher:
        perfect = int(np.sum(np.abs(np.abs(r_p) - 1) <= PERFECT_TOL))
        z = math.atanh(value) * math.sqrt(n - 3) if n > 3 and abs(value) < 1 else float("nan")
        params.update(perfect_pairs=perfect, z=z,
                      p_value=math.erfc(abs(z) / math.sqrt(2)))
        if perfect == len(r_p):
            notes.append("every pair correlates perfectly (|r| = 1, Fisher's z infinite): "
                         "no pair is left to average, the value is NaN (as irr); "
                         "fisher=False gives the plain mean")
        elif perfect:
            notes.append(f"{perfect} pair(s) with a perfect correlation (|r| = 1, Fisher's z "
                         "infinite) left out of the mean, as irr does")
        if n <= 3:
            notes.append("z needs more than 3 items (its variance is 1/(n − 3)): NaN")
    return sc.result(name, value, float("nan"), float("nan"),
                     note="; ".join(notes) or "a correlation: no observed or expected "
                                              "agreement",
                     params=params)


def _mean_ranks(x: np.ndarray) -> np.ndarray:
    """Each column's ranks 1 … n, tied scores sharing their mean rank: the number of
    smaller scores plus (ties + 1)/2. Scores take few values (one per category), so
    ranks come from one count of each value per column, with no sort of the items."""
    values, code = np.unique(x, return_inverse=True)
    code = code.reshape(x.shape)
    k, r = len(values), x.shape[1]
    counts = np.bincount((code + np.arange(r) * k).ravel(), minlength=r * k).reshape(r, k)
    return mid_ranks(counts)[np.arange(r), code]


def _pair_correlations(tot: dict, r: int) -> np.ndarray:
    """Each pair's Pearson r from the totals n, Σ x_a, Σ x_a x_b (…, P)."""
    n = tot["items"][:, 0][:, None, None]
    s = tot["x"]
    cov = tot["xx"].reshape(-1, r, r) - s[:, :, None] * s[:, None, :] / n
    var = np.diagonal(cov, axis1=1, axis2=2)
    a, b = stats.all_pairs(r).T
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.clip(cov[:, a, b] / np.sqrt(var[:, a] * var[:, b]), -1, 1)


def _finish(r: int, fisher: bool):
    """The finish of the totals n ("items"), Σ x_a ("x") and Σ x_a x_b ("xx")."""
    def finish(tot):  # r̄ = tanh(mean atanh r_p) (Fisher 1921), or the plain mean
        rho = _pair_correlations(tot, r)
        if fisher:
            keep = np.abs(np.abs(rho) - 1) > PERFECT_TOL
            with np.errstate(divide="ignore", invalid="ignore"):
                z = np.where(keep, np.arctanh(np.where(keep, rho, 0)), 0).sum(axis=1) / \
                    keep.sum(axis=1)
            z = np.where(np.isnan(rho).any(axis=1), np.nan, z)
            value = np.tanh(z)
        else:
            value = rho.mean(axis=1)
        nan = np.full_like(value, np.nan)
        return value, nan, nan
    return finish


def _statistic_public(data, *, fisher=True, missing="listwise", annotators=None, **_):
    """Per item row (zeros for the rows not used): its centred scores x_a, their
    products x_a x_b (items × r², made for the bootstrap only) and 1."""
    sc = scores(data, "mean_pearson_r", missing=missing, annotators=annotators)
    x = sc.grid(centred=True)
    r = sc.k
    used = {"x": x, "xx": (x[:, :, None] * x[:, None, :]).reshape(len(x), r * r),
            "items": np.ones((len(x), 1))}
    tables = {name: sc.padded(t) for name, t in used.items()}
    return sc.statistic(tables, {name: (t.shape[1],) for name, t in tables.items()},
                        _finish(r, fisher))


mean_pearson_r.statistic = _statistic_public
