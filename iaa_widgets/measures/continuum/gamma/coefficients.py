"""γ, γ_cat and γ_k (Mathet, Widlöcher & Métivier 2015; Mathet 2017).

γ = 1 − δ_o / δ_e, with δ_o the disorder of the best alignment and δ_e its mean
over random continua (:mod:`.sampling`). γ_cat and γ_k reuse γ's best alignment
and judge categories only (2017, §4.2–4.3, Algorithm 1): in each unitary
alignment with n_v ≥ 2 real units, every pair of real units has weight
1/(n_v − 1) (value level, as Krippendorff's α) × max(0, 1 − d_pos) (pairing
confidence), and δ_cat is the weighted mean of dist_cat over these pairs. γ_k
keeps the pairs with at least one unit of category k. Pairs with an empty unit
are not pairs of values and add nothing.

Differences from pygamma-agreement 0.5.9 (``Alignment.gamma_k_disorder``): it
adds, for every pair of a real unit and an empty unit, a disorder Δ∅² with
weight Δ∅ (its comment calls it "experimental"); Mathet's Algorithm 1 has no
such term, so our δ_cat equals Krippendorff's D_o on predefined items when the
alignment follows the items. It also takes the confidence from α·d_pos (we use
d_pos, 2017, §4.2.3), charges dist_cat·Δ∅, and where no pair of real units
exists returns δ = 1 when no pair at all touches the category and 0 otherwise,
averaging these into δ_e; its γ_cat and γ_k are 1 when δ_o = 0 and its γ_cat 0
when δ_e = 0. ``cat_variant="pygamma"`` computes γ_cat and γ_k by that
definition (all of it), so that both numbers can be had; the default
``"mathet"`` follows Mathet (2017) and reports NaN where no pair is defined.

Krippendorff's 2011 data as a continuum (2017, §5.1): the best alignment is
*not* item by item. Annotator B's lone unit in item 12 joins C's and D's units
of item 11, because with a lone unit costing Δ∅ the merge lowers the total
disorder: the B–C and B–D pairs cost d = 2 instead of Δ∅ = 1 (+2/6) but B's lone
Δ∅ goes (−1), so Σ δ(ă) on these units falls from 11/6 to 7/6 (K = C(4, 2) = 6).
The added pairs have confidence 0 but the (C, D) pair's value weight halves, so
δ_cat = 4/19.5 ≈ 0.2051, not α's D_o = 0.2; aligned by items, δ_cat is exactly
0.2 (tests/test_gamma_coefficients.py shows both). Had a pair of two empty units
cost 0 instead of Δ∅ (the other reading of the 2015 definition), merge and split
would tie at 7/6 and a solver keeping the split would give Mathet's 0.2; we
charge Δ∅, as pygamma-agreement does, so that best-alignment disorders agree.
"""
from __future__ import annotations

import html
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd

from ....continuum import Continuum, as_continuum
from .... import validate
from ....errors import AgreementError
from ....results import AgreementResult, Charted
from .alignment import Alignment, best_alignment, best_alignments
from .dissimilarity import Dissimilarity
from .progress import progress_reporter
from . import sampling
from .sampling import SAMPLERS, Z95, expected_disorder
from ..._registry import register

__all__ = ["GammaResult", "GammaKResult", "GammaFamilyResult", "gamma", "gamma_cat",
           "gamma_k", "gamma_family", "category_disorder", "CAT_VARIANTS"]


# ---------------------------------------------------------------- γ_cat disorder
CAT_VARIANTS = ("mathet", "pygamma")


def category_disorder(alignment: Alignment, dissimilarity: Dissimilarity = Dissimilarity(),
                      variant: str = "mathet"):
    """Weighted categorial disagreement of an alignment (2017, Algorithm 1).

    Returns ``(num, den, num_k, den_k)``: Σ w·dist_cat and Σ w over the pairs of
    real units (γ_cat), and the same per category over the pairs holding at least
    one unit of that category (γ_k); δ_cat = num / den. ``variant="pygamma"``
    (module doc): w from α·d_pos, dist_cat·Δ∅, and every (real, empty) pair adds
    Δ∅² to num and Δ∅ to den (to the real unit's category for γ_k).
    """
    c, members = alignment.continuum, alignment.members
    n, k = members.shape[1], c.n_categories
    matrix = dissimilarity.category_matrix(c)
    n_v = (members >= 0).sum(axis=1)
    value_w = np.where(n_v >= 2, 1.0 / np.maximum(n_v - 1, 1), 0.0)  # 1/(n_v − 1), §4.2.2
    a, b = np.triu_indices(n, 1)
    row, pair = np.nonzero((members[:, a] >= 0) & (members[:, b] >= 0))  # real pairs
    u, v = members[row, a[pair]], members[row, b[pair]]
    d_pos = dissimilarity.positional(c, u, v)
    if variant == "pygamma":
        d_pos = dissimilarity.alpha * d_pos
        matrix = matrix * dissimilarity.delta_empty
    conf = np.maximum(0.0, 1.0 - d_pos)  # §4.2.3
    w = value_w[row] * conf
    d = matrix[c.category[u], c.category[v]]
    cu, cv = c.category[u], c.category[v]
    num_k = np.bincount(cu, w * d, k) + np.bincount(cv, w * d * (cv != cu), k)
    den_k = np.bincount(cu, w, k) + np.bincount(cv, w * (cv != cu), k)
    num, den = float(np.sum(w * d)), float(np.sum(w))
    if variant == "pygamma":  # each real unit has n − n_v empty partners in its row
        real = members[members >= 0]
        lonely = np.broadcast_to((n - n_v)[:, None], members.shape)[members >= 0]
        e = dissimilarity.delta_empty
        num_k = num_k + e * e * np.bincount(c.category[real], lonely, k)
        den_k = den_k + e * np.bincount(c.category[real], lonely, k)
        num, den = num + e * e * lonely.sum(), den + e * lonely.sum()
    return num, den, num_k, den_k


def _pygamma_ratios(alignment: Alignment, dissimilarity: Dissimilarity):
    """pygamma-agreement's δ_cat and δ_k (module doc): the ratio where a pair of real
    units exists, else 0 if some pair touches the category and 1 if none does."""
    num, den, num_k, den_k = category_disorder(alignment, dissimilarity, "pygamma")
    c, members = alignment.continuum, alignment.members
    n, k = members.shape[1], c.n_categories
    a, b = np.triu_indices(n, 1)
    row, pair = np.nonzero((members[:, a] >= 0) & (members[:, b] >= 0))
    u, v = members[row, a[pair]], members[row, b[pair]]
    real_pair_k = (np.bincount(c.category[u], minlength=k)
                   + np.bincount(c.category[v], minlength=k)) > 0
    touched_k = np.bincount(c.category, minlength=k) > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(num_k == 0, 0.0, num_k / den_k)
    r_k = np.where(real_pair_k, r, np.where(touched_k, 0.0, 1.0))
    r_cat = (0.0 if num == 0 else num / den) if len(u) else (0.0 if c.n_units else 1.0)
    return r_cat, r_k


def _sampling_interval(d_o, samples: np.ndarray) -> tuple[float, float]:
    """95 % interval of 1 − δ_o / δ_e from the sampling error of δ_e alone: δ_e ±
    1.96·s/√N over the samples where the statistic is defined (NaN where δ_e − half
    width ≤ 0 or fewer than two samples)."""
    ok = samples[np.isfinite(samples)]
    if len(ok) < 2 or not np.isfinite(d_o):
        return math.nan, math.nan
    mean, hw = float(ok.mean()), Z95 * float(ok.std(ddof=1)) / math.sqrt(len(ok))
    lo = 1.0 - d_o / (mean - hw) if mean - hw > 0 else math.nan
    return lo, (1.0 - d_o / (mean + hw) if mean + hw > 0 else math.nan)


def _ratio(num, den):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.asarray(den) > 0, np.asarray(num) / np.asarray(den), np.nan)


def _category_ratios(al: Alignment, dissimilarity: Dissimilarity, variant: str):
    """(δ_cat, δ_k per category) of an alignment under ``variant`` (module doc)."""
    if variant == "pygamma":
        return _pygamma_ratios(al, dissimilarity)
    num, den, num_k, den_k = category_disorder(al, dissimilarity)
    return float(_ratio(num, den)), _ratio(num_k, den_k)


def _statistics(c: Continuum, dissimilarity: Dissimilarity,
                cat_variant: str = "mathet") -> np.ndarray:
    """One sample's [δ, δ_cat, δ_k per category] (NaN where no pair exists)."""
    return _sample_rows([best_alignment(c, dissimilarity)], dissimilarity, cat_variant)[0]


def _sample_rows(alignments, dissimilarity: Dissimilarity, cat_variant: str) -> np.ndarray:
    """[δ, δ_cat, δ_k per category] of each best alignment of a batch of samples."""
    rows = []
    for al in alignments:  # a batch of samples
        d_cat, d_k = _category_ratios(al, dissimilarity, cat_variant)
        rows.append(np.r_[al.disorder, d_cat, d_k])
    return np.array(rows)


# ---------------------------------------------------------------- results
@dataclass(frozen=True)
class GammaResult(AgreementResult):
    r"""γ or γ_cat: value, observed and expected disorder (``scale="disagreement"``),
    samples used, the precision reached on δ_e (relative 95 % half-width) and the
    best alignment (one row per unitary alignment). ``n_items`` counts unitary
    alignments, ``n_ratings`` units.

    Parameters
    ----------
    measure, value, observed, expected, n_items, n_annotators, n_ratings, scale, excluded, params, per_category, se, ci, ci_method, note, resample, ci_uncut
        As in `AgreementResult`.
    n_samples : int, default 0
        Random continua drawn for δ_e.
    precision : float, default nan
        Relative 95 % half-width reached on δ_e.
    best_alignment : pandas.DataFrame, optional
        One row per unitary alignment: its disorder, its units and each annotator's unit.

    See Also
    --------
    gamma : makes one.
    gamma_cat : makes one.
    AgreementResult : the fields it shares.

    Notes
    -----
    $\gamma = 1 - \delta_o/\delta_e$ (Mathet et al. 2015), with ``observed`` = δ_o and
    ``expected`` = δ_e.

    References
    ----------
    Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method
    gamma (γ) for inter-annotator agreement measure and alignment. Computational
    Linguistics, 41(3), 437–479. https://doi.org/10.1162/COLI_a_00227

    Examples
    --------
    >>> units = pd.DataFrame({"annotator": list("aabb"), "category": list("XYXY"),
    ...                       "start": [0, 20, 0, 21], "end": [10, 30, 10, 30]})
    >>> r = iaa.gamma(units, n_samples=10, seed=0, progress=False)
    >>> r.best_alignment["disorder"].round(5).tolist()
    [0.0, 0.00277]
    """

    n_samples: int = 0
    precision: float = math.nan
    best_alignment: pd.DataFrame | None = field(default=None, repr=False)

    def summary(self) -> dict:
        row = super().summary()
        row.update(n_samples=self.n_samples, precision=self.precision)
        return row

    def _repr_html_(self) -> str:
        out = super()._repr_html_()
        if self.best_alignment is not None:
            out += (f"<details><summary>best alignment ({len(self.best_alignment)} unitary "
                    f"alignments)</summary>{self.best_alignment.to_html(max_rows=50)}"
                    "</details>")
        return out


@dataclass(frozen=True)
class GammaKResult(Charted):
    r"""γ_k for every category: ``per_category`` has value, observed and expected
    disorder, the number of samples where the category was paired and the 95 %
    sampling interval of γ_k from the sampling error of its expected disorder
    (``ci_low``, ``ci_high``).

    Parameters
    ----------
    per_category : pandas.DataFrame
        One row per category: value, observed, expected, pair_weight, samples_defined,
        ci_low, ci_high.
    n_samples : int
        Random continua drawn.
    precision : float
        Relative 95 % half-width reached on δ_e of γ.
    params : dict, optional
        The options used.

    See Also
    --------
    gamma_k : makes one.
    GammaFamilyResult : holds one.

    Notes
    -----
    $\gamma_k = 1 - \delta_{k,o}/\delta_{k,e}$ per category (Mathet 2017, §4.3).

    References
    ----------
    Mathet, Y. (2017). The agreement measure γcat a complement to γ focused on
    categorization of a continuum. Computational Linguistics, 43(3), 661–681.
    https://doi.org/10.1162/COLI_a_00296

    Examples
    --------
    >>> c = iaa.Continuum.from_items(iaa.datasets.krippendorff_2011())
    >>> r = iaa.gamma_k(c, n_samples=10, seed=7, progress=False)
    >>> r[5], list(r.values.index)
    (1.0, [1, 2, 3, 4, 5])
    """

    per_category: pd.DataFrame
    n_samples: int
    precision: float
    params: dict = field(default_factory=dict)

    def __getitem__(self, category) -> float:
        return float(self.per_category.loc[category, "value"])

    @property
    def values(self) -> pd.Series:
        return self.per_category["value"]

    def to_frame(self) -> pd.DataFrame:
        df = self.per_category.copy()
        df.index = [f"gamma_k({k})" for k in df.index]
        df.index.name = "measure"
        return df

    def _repr_html_(self) -> str:
        return ("<p>γ_k per category (" + html.escape(f"{self.n_samples} samples") + ")</p>"
                + self.per_category.to_html(float_format=lambda v: f"{v:.4f}"))


@dataclass(frozen=True)
class GammaFamilyResult(Charted):
    """γ, γ_cat and γ_k from one best alignment and one set of samples; ``alignment``
    is that best alignment (unit indices per unitary alignment, for drawing it).

    Parameters
    ----------
    gamma : GammaResult
        γ.
    gamma_cat : GammaResult
        γ_cat, on the same alignment and samples.
    gamma_k : GammaKResult
        γ_k for every category.
    alignment : Alignment, optional
        The best alignment (unit indices per unitary alignment).

    See Also
    --------
    gamma_family : makes one.
    GammaResult : the type of ``gamma`` and ``gamma_cat``.
    GammaKResult : the type of ``gamma_k``.

    Notes
    -----
    The three share δ_o's best alignment and δ_e's samples (Mathet 2017, §4).

    References
    ----------
    Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method
    gamma (γ) for inter-annotator agreement measure and alignment. Computational
    Linguistics, 41(3), 437–479. https://doi.org/10.1162/COLI_a_00227

    Mathet, Y. (2017). The agreement measure γcat a complement to γ focused on
    categorization of a continuum. Computational Linguistics, 43(3), 661–681.
    https://doi.org/10.1162/COLI_a_00296

    Examples
    --------
    >>> units = pd.DataFrame({"annotator": list("aabb"), "category": list("XYXY"),
    ...                       "start": [0, 20, 0, 21], "end": [10, 30, 10, 30]})
    >>> r = iaa.gamma_family(units, n_samples=10, seed=0, progress=False)
    >>> list(r.to_frame().index)
    ['gamma', 'gamma_cat', 'gamma_k(X)', 'gamma_k(Y)']
    """

    gamma: GammaResult
    gamma_cat: GammaResult
    gamma_k: GammaKResult
    alignment: Alignment | None = field(default=None, repr=False, compare=False)

    def to_frame(self) -> pd.DataFrame:
        head = pd.concat([self.gamma.to_frame(), self.gamma_cat.to_frame()])
        k = self.gamma_k.to_frame().rename(columns={"observed": "D_o", "expected": "D_e"})
        return pd.concat([head, k[["value", "D_o", "D_e"]]])

    def _repr_html_(self) -> str:
        return (self.to_frame().to_html(float_format=lambda v: f"{v:.4f}")
                + self.gamma._repr_html_().split("</table>", 1)[1])


# ---------------------------------------------------------------- entry points
def _as_continuum(data, loader_args) -> Continuum:
    c = as_continuum("γ", data, loader_args)
    placed = c.units_per_annotator() > 0
    if c.n_units == 0:  # a document of an export where nobody marked anything
        raise AgreementError(f"γ of an empty continuum: none of the annotators "
                             f"{list(c.annotators)!r} placed a unit; γ needs units from at "
                             "least two annotators")
    if placed.sum() < 2:  # an annotator without units counts, but two must place some
        raise AgreementError(f"γ needs units from at least two annotators; only "
                             f"{list(c.annotators[placed])!r} placed any")
    return c


def _distance_name(category_distance) -> str:
    """How ``category_distance`` was given, for the result's parameters."""
    if category_distance is None or isinstance(category_distance, str):
        return category_distance or "nominal"
    return "positions" if isinstance(category_distance, Mapping | pd.Series) else "matrix"


def _check_options(where: str, alpha, beta, delta_empty, n_samples, seed) -> None:
    """α, β ≥ 0 and Δ∅ > 0 finite (2015, §4.2), n_samples ≥ 2, a seed: shared with the
    GammaExplorer widget."""
    validate.real(where, "alpha", alpha, minimum=0.0)
    validate.real(where, "beta", beta, minimum=0.0)
    validate.real(where, "delta_empty", delta_empty, minimum=0.0, open_low=True)
    validate.integer(where, "n_samples", n_samples, minimum=2)
    validate.seed(where, "seed", seed)


@validate.takes(loader=Continuum.from_frame)  # a misspelt keyword refused (issue 44)
def gamma_family(data, alpha: float = 1.0, beta: float = 1.0, delta_empty: float = 1.0,
                 category_distance=None, sampler: str = "shuffle", n_samples: int = 30,
                 precision: float | None = None, seed=None, n_jobs: int = 1,
                 progress="auto", cat_variant: str = "mathet", estimate=None,
                 **loader_args) -> GammaFamilyResult:
    r"""γ, γ_cat and γ_k (every category) from one best alignment and one set of
    samples. ``data``: a `Continuum` or a tidy (annotator, category, start,
    end) table. Dissimilarity: α·d_pos + β·d_cat, Δ∅ against the empty unit,
    ``category_distance`` None (nominal), ``"ordinal"``, ``"numeric"``,
    ``"levenshtein"``, a mapping {category: position} or a matrix
    (`Dissimilarity`). Sampling: see
    `expected_disorder`. ``progress``:
    ``"auto"`` (a tqdm bar when the computation lasts over a second and tqdm is
    installed), True, False or a callable ``progress(done, wanted)``, also called
    with ``done = 0`` before the first sample
    (`progress`). Ctrl-C stops it promptly.
    ``cat_variant``: γ_cat and γ_k by Mathet (2017), ``"mathet"``, or by
    pygamma-agreement 0.5.9, ``"pygamma"`` (module doc); γ is the same in both.
    ``estimate``: a pair ``(k, callback)``; once the first k samples are drawn,
    ``callback`` receives the result from those k alone (the same as with
    ``n_samples=k``), and the run goes on with the same best alignment and samples.

    Parameters
    ----------
    data : Continuum or a tidy DataFrame
        Units with columns annotator, category, start, end.
    alpha : float, default 1.0
        Weight α ≥ 0 of the positional dissimilarity d_pos.
    beta : float, default 1.0
        Weight β ≥ 0 of the categorial dissimilarity d_cat.
    delta_empty : float, default 1.0
        Δ∅ > 0, the cost of a unit aligned with the empty unit.
    category_distance : None, str, mapping or matrix, default None
        dist_cat: None or "nominal", "ordinal", "numeric", "levenshtein", a mapping
        {category: position}, or a K × K matrix (a DataFrame aligned by label).
    sampler : {"shuffle", "gamma-software", "pygamma", "statistical"}, default "shuffle"
        How random continua are drawn for δ_e.
    n_samples : int, default 30
        Random continua drawn (at least 2).
    precision : float, optional
        Draw more samples until the relative 95 % half-width of δ_e is at most this.
    seed : int or numpy.random.Generator, optional
        Seed of the samples.
    n_jobs : int, default 1
        Processes drawing the samples (-1 or None: all cores).
    progress : "auto", bool or callable, default "auto"
        A tqdm bar after a second ("auto"), always, never, or ``progress(done, wanted)``.
    cat_variant : {"mathet", "pygamma"}, default "mathet"
        γ_cat and γ_k by Mathet (2017) or by pygamma-agreement 0.5.9.
    estimate : tuple of (int, callable), optional
        ``(k, callback)``: the result from the first k samples, passed on early.
    **loader_args
        Passed to `Continuum.from_frame` (e.g. ``annotators=``, ``categories=``).

    Returns
    -------
    GammaFamilyResult
        ``gamma`` and ``gamma_cat`` (`GammaResult`), ``gamma_k`` (`GammaKResult`) and
        the best ``alignment``.

    Raises
    ------
    AgreementError
        When fewer than two annotators placed units, a column is missing, a unit ends
        before it starts, an option is out of range or not one listed, or a category
        distance does not fit the categories; and when the exact best alignment does
        not finish within two minutes (``alignment.SOLVE_SECONDS``), which happens when
        many alignments cost the same, as at a positional weight ``alpha`` at or near 0.

    See Also
    --------
    gamma : γ alone.
    gamma_cat : γ_cat alone.
    gamma_k : γ_k alone.
    gamma_corpus : γ over documents.
    unitizing_alpha : Krippendorff's α_U on the same units.

    Notes
    -----
    With the best alignment's disorder δ_o and its mean δ_e over random continua
    (Mathet et al. 2015, eq. 4–6), and d = α·d_pos + β·d_cat,

    $$\gamma = 1 - \frac{\delta_o}{\delta_e}, \quad
    d_\mathrm{pos}(u, v) = \left(\frac{|s_u - s_v| + |e_u - e_v|}
    {(e_u - s_u) + (e_v - s_v)}\right)^2;$$

    γ_cat and γ_k apply the same ratio to the categorial disorder of that alignment
    (Mathet 2017, Algorithm 1).

    References
    ----------
    Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method
    gamma (γ) for inter-annotator agreement measure and alignment. Computational
    Linguistics, 41(3), 437–479. https://doi.org/10.1162/COLI_a_00227

    Mathet, Y. (2017). The agreement measure γcat a complement to γ focused on
    categorization of a continuum. Computational Linguistics, 43(3), 661–681.
    https://doi.org/10.1162/COLI_a_00296

    Examples
    --------
    Krippendorff's (2011) data as a continuum (Mathet 2017, §5.1): the best alignment's
    categorial disorder is 4/19.5 (module docstring), and γ_cat lies near α = .743:

    >>> c = iaa.Continuum.from_items(iaa.datasets.krippendorff_2011())
    >>> r = iaa.gamma_family(c, n_samples=30, seed=7, progress=False)
    >>> round(r.gamma_cat.observed, 4), round(r.gamma_cat.value, 2)
    (0.2051, 0.74)
    """
    _check_options("gamma_family", alpha, beta, delta_empty, n_samples, seed)
    validate.choice("gamma_family", "sampler", sampler, sorted(SAMPLERS))
    validate.choice("gamma_family", "cat_variant", cat_variant, list(CAT_VARIANTS))
    if precision is not None:  # a relative half-width
        validate.probability("gamma_family", "precision", precision, open_low=True,
                             open_high=True)
    validate.n_jobs("gamma_family", "n_jobs", n_jobs)  # progress: progress_reporter's check
    c = _as_continuum(data, loader_args)
    dis = Dissimilarity(alpha, beta, delta_empty, category_distance)
    dis.category_matrix(c)  # validate before sampling
    report, close = progress_reporter(progress)
    params = dict(alpha=alpha, beta=beta, delta_empty=delta_empty,
                  category_distance=_distance_name(category_distance),
                  sampler=sampler, seed=seed, precision_target=precision,
                  cat_variant=cat_variant)
    observed = None  # the best alignment, found with the first batch of samples

    def batch(continua):  # one solver call for the observed continuum and a first batch
        nonlocal observed
        if observed is None:
            observed, *aligned = best_alignments([c, *continua], dis)
        else:
            aligned = best_alignments(continua, dis)
        return _sample_rows(aligned, dis, cat_variant)
    try:
        if n_jobs != 1 or c.n_units >= sampling.BATCH_UNITS:  # no batch, or a batch alone
            observed = best_alignment(c, dis)
        if report is not None:
            report(0, int(n_samples))
        snapshot = None if estimate is None else (
            estimate[0], lambda first: estimate[1](_family(c, dis, observed, first, params)))
        exp = expected_disorder(c, partial(_statistics, dissimilarity=dis,
                                           cat_variant=cat_variant), sampler,
                                n_samples, precision, seed, n_jobs, progress=report,
                                snapshot=snapshot, batch=batch)
    finally:
        close()
    return _family(c, dis, observed, exp, params)


def _family(c: Continuum, dis: Dissimilarity, observed: Alignment, exp,
            params: dict) -> GammaFamilyResult:
    """γ, γ_cat and γ_k from the best alignment and the samples' statistics ``exp``
    (an :class:`~.sampling.ExpectedDisorder`)."""
    cat_variant = params["cat_variant"]
    num, den, num_k, den_k = category_disorder(observed, dis, cat_variant)
    d_cat, d_k = _category_ratios(observed, dis, cat_variant)
    s = exp.samples
    frame = observed.to_frame()
    common = dict(n_items=len(observed), n_annotators=c.n_annotators, n_ratings=c.n_units,
                  scale="disagreement", n_samples=exp.n_samples, precision=exp.precision,
                  best_alignment=frame)

    def value(d_o, d_e):
        return 1.0 - d_o / d_e if d_e > 0 else math.nan

    interval = dict(ci_method="95 % sampling interval of the expected disorder")
    g = GammaResult("gamma", value(observed.disorder, exp.mean), observed.disorder, exp.mean,
                    params=params, ci=_sampling_interval(observed.disorder, s[:, 0]),
                    note=_noted(c, "" if exp.mean > 0 else "expected disorder is 0: γ undefined"),
                    **interval, **common)
    cat_samples = s[:, 1]
    ok = np.isfinite(cat_samples)
    e_cat = float(cat_samples[ok].mean()) if ok.any() else math.nan
    note = ("no pair of aligned real units: γ_cat undefined" if den == 0 else
            "expected categorial disorder is 0 (no sample pairs two different categories, "
            "e.g. a single category): γ_cat undefined" if not e_cat > 0 else "")
    if cat_variant == "pygamma":  # its conventions: 1 when δ_o = 0, 0 when δ_e = 0
        v_cat = 1.0 if d_cat == 0 else (0.0 if e_cat == 0 else value(d_cat, e_cat))
        note = ("pygamma-agreement's convention: γ_cat = 1 when δ_o = 0, 0 when δ_e = 0"
                if d_cat == 0 or e_cat == 0 else "")
    else:
        v_cat = value(d_cat, e_cat)
    gc = GammaResult("gamma_cat", v_cat, d_cat, e_cat,
                     params=params, note=_noted(c, note),
                     ci=_sampling_interval(d_cat, cat_samples),
                     **interval,
                     excluded={"samples without aligned pairs": int((~ok).sum())} if (~ok).any()
                     else {}, **common)
    ks = s[:, 2:]
    defined = np.isfinite(ks).sum(axis=0)
    e_k = np.where(defined > 0, np.nansum(ks, axis=0) / np.maximum(defined, 1), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        v_k = np.where(e_k > 0, 1.0 - d_k / e_k, np.nan)
    if cat_variant == "pygamma":  # its convention: 1 when δ_o = 0
        v_k = np.where(d_k == 0, 1.0, v_k)
    ci_k = np.array([_sampling_interval(d, ks[:, j]) for j, d in enumerate(d_k)]).reshape(-1, 2)
    per = pd.DataFrame({"value": v_k, "observed": d_k, "expected": e_k,
                        "pair_weight": den_k, "samples_defined": defined,
                        "ci_low": ci_k[:, 0], "ci_high": ci_k[:, 1]},
                       index=pd.Index(c.categories, name="category"))
    gk = GammaKResult(per, exp.n_samples, exp.precision, params)
    return GammaFamilyResult(g, gc, gk, observed)


def _options(given: dict, part: str) -> dict:
    """The arguments of gamma, gamma_cat or gamma_k (their ``locals()``) for
    :func:`gamma_family`: the same names, loader options spread, and an ``estimate``
    callback given the wrapper's own ``part`` of the family's early result."""
    out = {**{k: v for k, v in given.items() if k != "loader_args"}, **given["loader_args"]}
    if out.get("estimate") is not None:
        k, callback = out["estimate"]
        out["estimate"] = (k, lambda family: callback(getattr(family, part)))
    return out


def _noted(c: Continuum, note: str) -> str:
    """A result's note and what the continuum says of itself (a reader's skipped records)."""
    return "; ".join(filter(None, (note, *c.notes)))


@register(family='unitizing and continuum', data='continuum', annotators='many',
          source='Mathet, Widlöcher & Métivier (2015)', symbol='γ',
          intervals=('sampling',), scale='disagreement')
def gamma(data, alpha: float = 1.0, beta: float = 1.0, delta_empty: float = 1.0,
          category_distance=None, sampler: str = "shuffle", n_samples: int = 30,
          precision: float | None = None, seed=None, n_jobs: int = 1, progress="auto",
          cat_variant: str = "mathet", estimate=None, **loader_args) -> GammaResult:
    r"""Mathet's γ = 1 − δ_o / δ_e on a continuum (2015); options as `gamma_family`.

    Parameters
    ----------
    data : Continuum or a tidy DataFrame
        Units with columns annotator, category, start, end.
    alpha, beta, delta_empty, category_distance, sampler, n_samples, precision, seed, n_jobs, progress, cat_variant, estimate, **loader_args
        As in `gamma_family`.

    Returns
    -------
    GammaResult
        ``value`` (γ), ``observed`` (δ_o), ``expected`` (δ_e), ``ci`` (95 % sampling
        interval), ``n_samples``, ``precision``, ``best_alignment``.

    Raises
    ------
    AgreementError
        As `gamma_family`.

    See Also
    --------
    gamma_family : γ, γ_cat and γ_k at once, and every option.
    gamma_cat : agreement on categories.
    unitizing_alpha : Krippendorff's α_U.

    Notes
    -----
    Mathet et al. (2015), eq. 4–6: $\gamma = 1 - \delta_o / \delta_e$, δ_o the disorder
    of the best alignment and δ_e its mean over random continua.

    References
    ----------
    Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method
    gamma (γ) for inter-annotator agreement measure and alignment. Computational
    Linguistics, 41(3), 437–479. https://doi.org/10.1162/COLI_a_00227

    Examples
    --------
    Annotator b starts its Y unit one tick late. The best alignment pairs X with X (d = 0)
    and Y with Y, d_pos = ((1 + 0)/(10 + 9))² (eq. 3), over two units per annotator
    (eq. 4): δ_o = 1/722. Identical units give γ = 1:

    >>> units = pd.DataFrame({"annotator": list("aabb"), "category": list("XYXY"),
    ...                       "start": [0, 20, 0, 21], "end": [10, 30, 10, 30]})
    >>> r = iaa.gamma(units, n_samples=10, seed=0, progress=False)
    >>> round(r.observed, 7), round(1 / 722, 7)
    (0.001385, 0.001385)
    >>> same = units.assign(start=[0, 20, 0, 20])
    >>> iaa.gamma(same, n_samples=10, seed=0, progress=False).value
    1.0
    """
    return gamma_family(**_options(locals(), "gamma")).gamma


@register(family='unitizing and continuum', data='continuum', annotators='many',
          source='Mathet (2017, §4.2)', symbol='γ_cat', intervals=('sampling',),
          scale='disagreement')
def gamma_cat(data, alpha: float = 1.0, beta: float = 1.0, delta_empty: float = 1.0,
              category_distance=None, sampler: str = "shuffle", n_samples: int = 30,
              precision: float | None = None, seed=None, n_jobs: int = 1, progress="auto",
              cat_variant: str = "mathet", estimate=None, **loader_args) -> GammaResult:
    r"""γ_cat: agreement on categories over γ's best alignment (2017, §4.2). Options as
    `gamma_family`.

    Parameters
    ----------
    data : Continuum or a tidy DataFrame
        Units with columns annotator, category, start, end.
    alpha, beta, delta_empty, category_distance, sampler, n_samples, precision, seed, n_jobs, progress, cat_variant, estimate, **loader_args
        As in `gamma_family`.

    Returns
    -------
    GammaResult
        ``value`` (γ_cat), ``observed`` and ``expected`` (categorial disorders), ``ci``,
        ``n_samples``, ``precision``, ``best_alignment``.

    Raises
    ------
    AgreementError
        As `gamma_family`.

    See Also
    --------
    gamma_family : γ, γ_cat and γ_k at once, and every option.
    gamma_k : the same for each category.
    krippendorff_alpha : α on predefined items.

    Notes
    -----
    Mathet (2017), Algorithm 1: in each unitary alignment with n_v ≥ 2 real units, every
    pair has weight $\frac{1}{n_v - 1}\max(0, 1 - d_\mathrm{pos})$, δ_cat is the weighted
    mean of dist_cat, and $\gamma_\mathrm{cat} = 1 - \delta_{\mathrm{cat},o} / \delta_{\mathrm{cat},e}$.

    References
    ----------
    Mathet, Y. (2017). The agreement measure γcat a complement to γ focused on
    categorization of a continuum. Computational Linguistics, 43(3), 661–681.
    https://doi.org/10.1162/COLI_a_00296

    Examples
    --------
    Krippendorff's (2011) data as a continuum (Mathet 2017, §5.1): observed disorder
    4/19.5 (module docstring), γ_cat near α = .743:

    >>> c = iaa.Continuum.from_items(iaa.datasets.krippendorff_2011())
    >>> r = iaa.gamma_cat(c, n_samples=30, seed=7, progress=False)
    >>> round(r.observed, 4), round(r.value, 2)
    (0.2051, 0.74)
    """
    return gamma_family(**_options(locals(), "gamma_cat")).gamma_cat


@register(family='unitizing and continuum', data='continuum', annotators='many',
          source='Mathet (2017, §4.3)', symbol='γ_k', intervals=('sampling',),
          scale='disagreement')
def gamma_k(data, alpha: float = 1.0, beta: float = 1.0, delta_empty: float = 1.0,
            category_distance=None, sampler: str = "shuffle", n_samples: int = 30,
            precision: float | None = None, seed=None, n_jobs: int = 1, progress="auto",
            cat_variant: str = "mathet", estimate=None, **loader_args) -> GammaKResult:
    r"""γ_k for every category k (2017, §4.3). Options as
    `gamma_family`.

    Parameters
    ----------
    data : Continuum or a tidy DataFrame
        Units with columns annotator, category, start, end.
    alpha, beta, delta_empty, category_distance, sampler, n_samples, precision, seed, n_jobs, progress, cat_variant, estimate, **loader_args
        As in `gamma_family`.

    Returns
    -------
    GammaKResult
        ``per_category``: value, observed, expected, pair_weight, samples where the
        category was paired, ci_low, ci_high; ``result[category]`` is one value.

    Raises
    ------
    AgreementError
        As `gamma_family`.

    See Also
    --------
    gamma_family : γ, γ_cat and γ_k at once, and every option.
    gamma_cat : over all categories.

    Notes
    -----
    Mathet (2017, §4.3): γ_cat's ratio over the pairs with at least one unit of
    category k, $\gamma_k = 1 - \delta_{k,o} / \delta_{k,e}$.

    References
    ----------
    Mathet, Y. (2017). The agreement measure γcat a complement to γ focused on
    categorization of a continuum. Computational Linguistics, 43(3), 661–681.
    https://doi.org/10.1162/COLI_a_00296

    Examples
    --------
    On Krippendorff's (2011) data as a continuum every unit of value 5 is matched by a 5:
    its observed disorder is 0 and γ_5 = 1.

    >>> c = iaa.Continuum.from_items(iaa.datasets.krippendorff_2011())
    >>> r = iaa.gamma_k(c, n_samples=10, seed=7, progress=False)
    >>> r.per_category.loc[5, ["observed", "value"]].tolist()
    [0.0, 1.0]
    """
    return gamma_family(**_options(locals(), "gamma_k")).gamma_k
