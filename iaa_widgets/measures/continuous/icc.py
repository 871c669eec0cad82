"""Intraclass correlation for interval ratings: the Shrout & Fleiss (1979) forms ICC(1,1),
ICC(2,1), ICC(3,1) and their averages, named as McGraw & Wong (1996) name them.

Items are the targets (objects of measurement), annotators the raters; the labels must
be numbers (their values enter the sums of squares). Every form is a function of a few
mean squares of the items × raters analysis of variance, computed by the ANOVA core
shared with Finn, Robinson and ι (:mod:`iaa_widgets.measures.continuous._anova`, whose docstring
says which sums enter which term) from additive per-item tables, with n items (Σ w_i
under item weights w, so that a bootstrap resample is the same formula), N = Σ m_i
ratings, m_i on item i, k raters:

- MSR = SS_items / (n − 1) between items, MSW = SS_within / (N − n) within items;
- MSC = SS_raters / (k − 1) between raters and MSE = SS_residual / ((n − 1)(k − 1))
  (complete two-way design only).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ... import validate
from ...errors import AgreementError
from ...results import AgreementResult
from ...stats import Statistic
from ._anova import Scores, scores, sums_of_squares
from .._registry import register

__all__ = ["icc", "icc_table"]

MODELS = ("oneway", "twoway")
TYPES = ("agreement", "consistency")
UNITS = ("single", "average")
POLICIES = ("listwise", "available", "raise")

# (model, type, unit) → McGraw & Wong's name, Shrout & Fleiss' name, a description
FORMS = {
    ("oneway", "agreement", "single"): ("ICC(1)", "ICC(1,1)",
                                        "one-way random, single rater"),
    ("twoway", "agreement", "single"): ("ICC(A,1)", "ICC(2,1)",
                                        "two-way, absolute agreement, single rater"),
    ("twoway", "consistency", "single"): ("ICC(C,1)", "ICC(3,1)",
                                          "two-way, consistency, single rater"),
    ("oneway", "agreement", "average"): ("ICC(k)", "ICC(1,k)",
                                         "one-way random, average of k raters"),
    ("twoway", "agreement", "average"): ("ICC(A,k)", "ICC(2,k)",
                                         "two-way, absolute agreement, average of k raters"),
    ("twoway", "consistency", "average"): ("ICC(C,k)", "ICC(3,k)",
                                           "two-way, consistency, average of k raters"),
}


# ------------------------------------------------------------------ the data
def _design(data, measure: str, model: str, missing: str) -> Scores:
    """Numeric ratings of the items used under ``missing`` (see :func:`icc`)."""
    validate.choice(measure, "missing", missing, POLICIES)
    if missing == "available" and model == "twoway":
        raise AgreementError(
            f"{measure}: missing='available' is defined for the one-way model only "
            "(the ANOVA estimator with unequal group sizes, Donner 1986); the two-way "
            "mean squares of an incomplete design are not those of McGraw & Wong, so "
            "use missing='listwise' (items rated by every rater) or model='oneway'")
    d = scores(data, measure, missing=missing, policies=POLICIES, noun="raters",
               points="values", identity=model == "twoway",
               hint="; or use model='oneway', which needs no rater identity")
    if not d.balanced and len(d.value) <= d.n_items:
        raise AgreementError(f"{measure}: no item has two ratings; the within-item mean "
                             "square is undefined")
    return d.scaled()  # the ICC is a ratio of mean squares: unchanged by the scale


def _mean_squares(d: Scores, model: str) -> dict:
    """The mean squares of the data itself (totals with one weight per item)."""
    return sums_of_squares(d.tables(twoway=model == "twoway", summed=True)[0], d.k)


def _coefficient(ms: dict, k: int, form: tuple) -> np.ndarray:
    """The ICC of ``form`` from the mean squares (McGraw & Wong 1996;
    Shrout & Fleiss 1979)."""
    model, type_, unit = form
    n = ms["n"]
    with np.errstate(divide="ignore", invalid="ignore"):
        if model == "oneway":
            msr, msw = ms["MSR"], ms["MSW"]
            if unit == "single":  # ICC(1) = (MSR − MSW) / (MSR + (n0 − 1) MSW)
                return (msr - msw) / (msr + (ms["n0"] - 1) * msw)
            return (msr - msw) / msr  # ICC(k) = (MSR − MSW) / MSR
        msr, msc, mse = ms["MSR"], ms["MSC"], ms["MSE"]
        if type_ == "consistency":
            if unit == "single":  # ICC(C,1) = (MSR − MSE) / (MSR + (k − 1) MSE)
                return (msr - mse) / (msr + (k - 1) * mse)
            return (msr - mse) / msr  # ICC(C,k) = (MSR − MSE) / MSR
        if unit == "single":  # ICC(A,1) = (MSR − MSE) / (MSR + (k−1) MSE + k (MSC − MSE)/n)
            return (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)
        return (msr - mse) / (msr + (msc - mse) / n)  # ICC(A,k)


def _form(measure: str, model, type_, unit) -> tuple:
    validate.choice(measure, "model", model, MODELS)
    validate.choice(measure, "type", type_, TYPES)
    validate.choice(measure, "unit", unit, UNITS)
    if model == "oneway" and type_ == "consistency":
        raise AgreementError(
            f"{measure}: the one-way model has no consistency form (its raters differ from "
            "item to item, so their mean differences cannot be separated from error; McGraw "
            "& Wong 1996); use type='agreement' with model='oneway', or "
            "model='twoway' for consistency")
    return model, type_, unit


# ------------------------------------------------------------ F test and interval
def _inference(ms: dict, k: int, form: tuple, value: float, confidence: float,
               balanced: bool) -> dict:
    """The F test of H0: ρ = 0 against ρ > 0 and McGraw & Wong's (1996)
    interval. Under ρ = 0 every two-way form tests F = MSR/MSE on (n − 1, (n − 1)(k − 1))
    degrees of freedom (their test of ρ = ρ0 at ρ0 = 0: a = 0, b = 1) and the one-way forms
    F = MSR/MSW on (n − 1, N − n), exact also for unequal group sizes."""
    from scipy.stats import f as fdist

    model, type_, unit = form
    n, big_n = float(ms["n"]), float(ms["N"])
    msr = float(ms["MSR"])
    alpha = 1 - confidence
    df1 = n - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        if model == "oneway":
            f0, df2 = np.divide(msr, float(ms["MSW"])), big_n - n
        else:
            f0, df2 = np.divide(msr, float(ms["MSE"])), (n - 1) * (k - 1)
        f0 = float(f0)
        p = float(fdist.sf(f0, df1, df2)) if not math.isnan(f0) else float("nan")
        out = {"F": f0, "df1": df1, "df2": df2, "p_value": p}
        if model == "oneway" and not balanced:
            return out  # no exact interval for unequal group sizes: none is given
        if math.isinf(f0) and (model == "oneway" or type_ == "consistency"
                               or float(ms["MSC"]) == 0):
            out["ci"] = (1.0, 1.0)  # no error variance: each limit → 1 as F → ∞
            return out
        if type_ == "agreement" and model == "twoway":
            low, high, v = _agreement_interval(ms, k, unit, alpha, value)
            out["df_interval"] = v
        else:
            # F_L = F0 / F_(1−α/2)(df1, df2), F_U = F0 · F_(1−α/2)(df2, df1) (McGraw & Wong 1996)
            fl = f0 / fdist.ppf(1 - alpha / 2, df1, df2)
            fu = f0 * fdist.ppf(1 - alpha / 2, df2, df1)
            if unit == "single":  # (F − 1)/(F + k − 1) = 1 − k/(F + k − 1) at F_L, F_U
                low, high = 1 - k / (fl + k - 1), 1 - k / (fu + k - 1)
            else:  # 1 − 1/F_L, 1 − 1/F_U
                low, high = 1 - 1 / fl, 1 - 1 / fu
        out["ci"] = (float(low), float(high))
    return out


def _agreement_interval(ms: dict, k: int, unit: str, alpha: float, value: float):
    """McGraw & Wong (1996, cases 2A and 3A) for ICC(A,1) and ICC(A,k).

    Both use the Satterthwaite degrees of freedom v of the estimated denominator
    a·MSC + b·MSE with a = kρ̂/(n(1 − ρ̂)), b = 1 + kρ̂(n − 1)/(n(1 − ρ̂)) and ρ̂ the
    *single-rater* estimate ICC(A,1) (Shrout & Fleiss 1979, for ICC(2,1)). With this
    one v the ICC(A,k) limits are the Spearman–Brown images of the ICC(A,1) limits,
    as the population ICC(A,k) is that function of ICC(A,1) (see :func:`icc`)."""
    from scipy.stats import f as fdist

    n, msr, msc, mse = (np.float64(ms[x]) for x in ("n", "MSR", "MSC", "MSE"))
    rho = np.float64(value) if unit == "single" else np.float64(_coefficient(
        {"n": ms["n"], "MSR": ms["MSR"], "MSC": ms["MSC"], "MSE": ms["MSE"]}, k,
        ("twoway", "agreement", "single")))
    a = k * rho / (n * (1 - rho))
    b = 1 + k * rho * (n - 1) / (n * (1 - rho))
    v = (a * msc + b * mse) ** 2 / ((a * msc) ** 2 / (k - 1)
                                    + (b * mse) ** 2 / ((n - 1) * (k - 1)))
    f_star = fdist.ppf(1 - alpha / 2, n - 1, v)   # F*: F_(1−α/2)(n − 1, v)
    f_2star = fdist.ppf(1 - alpha / 2, v, n - 1)  # F**: F_(1−α/2)(v, n − 1)
    if unit == "single":
        c = k * msc + (k * n - k - n) * mse
        low = n * (msr - f_star * mse) / (f_star * c + n * msr)
        high = n * (f_2star * msr - mse) / (c + n * f_2star * msr)
    else:
        low = n * (msr - f_star * mse) / (f_star * (msc - mse) + n * msr)
        high = n * (f_2star * msr - mse) / (msc - mse + n * f_2star * msr)
    return low, high, float(v)


# ------------------------------------------------------------------ public API
@register(family='correlation and variance', data='numeric', annotators='many',
          source='Shrout & Fleiss (1979); McGraw & Wong (1996); Donner (1986)',
          symbol='ICC', intervals=('exact F',), missing=('listwise', 'available', 'raise'))
def icc(data, *, model: str = "twoway", type: str = "agreement", unit: str = "single",
        confidence: float = 0.95, missing: str = "listwise") -> AgreementResult:
    r"""Intraclass correlation of numeric ratings (items = targets, annotators = raters).

    McGraw & Wong's (1996) forms, with Shrout & Fleiss' (1979) names:

    ============  ==================  ============  ======================================
    ``model``     ``type``            ``unit``      form
    ============  ==================  ============  ======================================
    "oneway"      "agreement"         "single"      ICC(1) = Shrout–Fleiss ICC(1,1)
    "oneway"      "agreement"         "average"     ICC(k) = ICC(1,k)
    "twoway"      "agreement"         "single"      ICC(A,1) = ICC(2,1)
    "twoway"      "agreement"         "average"     ICC(A,k) = ICC(2,k)
    "twoway"      "consistency"       "single"      ICC(C,1) = ICC(3,1)
    "twoway"      "consistency"       "average"     ICC(C,k) = ICC(3,k)
    ============  ==================  ============  ======================================

    "twoway" covers McGraw & Wong's random (case 2) and mixed (case 3) models: their
    estimates, tests and intervals are the same formulas; what differs is the
    population the raters stand for (any raters like these, or these raters only),
    which is the reader's to state. The one-way model (each item rated by its own
    raters) has no consistency form (refused).

    ``value`` is the ICC (see the module docstring for the mean squares);
    ``params`` holds the form's two names, the mean squares, the F test of H0: ρ = 0
    against ρ > 0 (``F``, ``df1``, ``df2``, one-sided ``p_value``), and ``ci`` the exact
    interval of McGraw & Wong (1996) at level ``confidence``; for the
    absolute-agreement forms its F quantiles use the Satterthwaite degrees of freedom
    ``params["df_interval"]`` (v, computed with ρ̂ = ICC(A,1) for both ICC(A,1) and
    ICC(A,k)). ``observed`` and ``expected`` are NaN: an ICC is a ratio of variance
    components, not a chance-corrected agreement.

    ``missing``:

    - "listwise" (default): the items rated by every rater; the others are excluded
      and counted in ``excluded``.
    - "available": one-way model only. Every item with a rating enters the ANOVA
      estimator for unequal group sizes (Searle 1971; Donner 1986): the mean squares
      above with m_i ratings on item i and k replaced by
      n0 = (N − Σ m_i²/N) / (n − 1) in ICC(1). The F test (MSR/MSW on n − 1, N − n df)
      stays exact; there is no exact interval (``ci`` is None, a note says so), and
      the average form ICC(k) (whose k is no longer one number) is refused. The
      two-way model refuses it: its mean squares are those of a complete design.
    - "raise": refuse any item that lacks a rating.

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Numeric ratings: items are the targets, annotators the raters.
    model : {"twoway", "oneway"}, default "twoway"
        Two-way (raters crossed with items) or one-way (each item its own raters).
    type : {"agreement", "consistency"}, default "agreement"
        Absolute agreement, or consistency (rater means removed; two-way only).
    unit : {"single", "average"}, default "single"
        The reliability of one rater's rating or of the mean of the k raters.
    confidence : float, default 0.95
        Level of the interval ``ci``, in (0, 1).
    missing : {"listwise", "available", "raise"}, default "listwise"
        As listed above ("available": one-way single form only).

    Returns
    -------
    AgreementResult
        ``value`` (the ICC), ``ci`` (exact interval), ``params`` (the form's names, mean
        squares, ``F``, ``df1``, ``df2``, ``p_value``, ``df_interval``), ``excluded``,
        ``note``; ``observed`` and ``expected`` are NaN.

    Raises
    ------
    AgreementError
        When the ratings are not numeric, fewer than two items or raters remain, an
        option is not one listed, ``type="consistency"`` is asked of the one-way model,
        or ``missing`` is refused by the model.

    See Also
    --------
    icc_table : every form on the same data.
    kendall_w : concordance of rankings.
    robinson_a : Robinson's A, the consistency ICC's older relative.
    finn_coefficient : agreement against uniform random ratings.

    Notes
    -----
    McGraw & Wong (1996), Table 4, with n items and k raters:

    $$\mathrm{ICC}(1) = \frac{MSR - MSW}{MSR + (k-1)MSW}, \quad
    \mathrm{ICC}(A,1) = \frac{MSR - MSE}{MSR + (k-1)MSE + \frac{k}{n}(MSC - MSE)},$$

    $$\mathrm{ICC}(C,1) = \frac{MSR - MSE}{MSR + (k-1)MSE};$$

    the average forms drop the factor $(k - 1)$ (and $k/n$ becomes $1/n$).

    Differences from other software:
    R's ``irr::icc`` (0.84.1), read from its published source:

    - it tests the absolute-agreement forms ICC(A,1) and ICC(A,k) against
      F(n − 1, v), v the Satterthwaite degrees of freedom of the *interval*, where
      McGraw & Wong's (1996) test of H0: ρ = ρ0 at ρ0 = 0 has a = 0, b = 1 and so
      F = MSR/MSE on (n − 1, (n − 1)(k − 1)) degrees of freedom (irrNA's ``icc_corr``
      documents this as a bug of irr and fixes it; pingouin agrees with us);
    - for the interval of ICC(A,k) it computes v with the average estimate ICC(A,k)
      put where the single-rater formula takes ρ̂ = ICC(A,1) (irrNA does the same).
      We use ρ̂ = ICC(A,1) for both forms. The population ICC(A,k) is the
      Spearman–Brown function kρ/(1 + (k − 1)ρ) of ICC(A,1), increasing in ρ, so the
      image of a (1 − α) interval for ICC(A,1) is a (1 − α) interval for ICC(A,k); and
      with one v, McGraw & Wong's ICC(A,k) limits are exactly that image (algebra:
      their denominators differ by the factor k). pingouin computes the same. (The claim that irr uses "the single-rater Satterthwaite df" for
      ICC(A,k) is therefore not what its code does: it uses the single-rater
      *formula* fed with the average-rater estimate.)

    - with no residual variance (every item's ratings agree, or differ by a constant per
      rater: MSE = 0, F = ∞) it computes the limits F_L, F_U = ∞ as they come: ∞/∞ =
      NaN for the single forms where MSE is exactly 0, [1, 1] for the average forms and
      where MSE is rounding error (a huge finite F). We give the limit as F → ∞ in every
      form, [1, 1] (for ICC(A,·) with MSC > 0, McGraw & Wong's interval with v = k − 1,
      the limit of their Satterthwaite v). The ICC itself does not depend on the scale
      of the ratings: they are divided by their largest magnitude first, so data times
      1e-170 or 1e160 give the same ICC, F and interval (the mean squares in ``params``
      are in the data's units, infinity or 0 where those leave the float range).

    On irr's own anxiety data (20 subjects × 3 raters), R prints for
    ``icc(anxiety, "twoway", "agreement")``: ICC(A,1) = 0.198, F(19,39.7) = 1.83,
    p = 0.0543, 95% CI −0.039 < ICC < 0.494. We give the same value, F and interval,
    but F(19, 38), p = 0.0562; 39.7 is the interval's v (``params["df_interval"]``).

    On Shrout & Fleiss' (1979) Table 2 (6 targets × 4 judges), ICC(A,k) = 0.6201::

        ours (= pingouin): F(5, 15) = 11.03, p = 1.35e-4, v = 4.785, 95% CI [0.0711, 0.9272]
        irr 0.84.1:        F(5, 4.19) = 11.03, p = 0.0165, v = 4.189, 95% CI [0.0394, 0.9286]

    (irr's figures here are its published formulas evaluated on these mean squares; R
    was not run). ``tests/test_icc.py`` pins ours on both data sets.

    References
    ----------
    Shrout, P. E. & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing
    rater reliability. Psychological Bulletin, 86(2), 420–428.
    https://doi.org/10.1037/0033-2909.86.2.420

    McGraw, K. O. & Wong, S. P. (1996). Forming inferences about some intraclass
    correlation coefficients. Psychological Methods, 1(1), 30–46.
    https://doi.org/10.1037/1082-989X.1.1.30

    Donner, A. (1986). A review of inference procedures for the intraclass correlation
    coefficient in the one-way random effects model. International Statistical Review,
    54(1), 67–82. https://doi.org/10.2307/1403259

    Examples
    --------
    Shrout & Fleiss' (1979) Table 2, 6 targets × 4 judges; their Table 4 prints
    ICC(1,1) = .17, ICC(2,1) = .29, ICC(3,1) = .71 and ICC(2,4) = .62:

    >>> sf = pd.DataFrame([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...                    [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], columns=list("ABCD"))
    >>> data = iaa.Annotations.from_wide(sf)
    >>> round(iaa.icc(data, model="oneway").value, 2)
    0.17
    >>> r = iaa.icc(data)
    >>> r.params["form"], round(r.value, 2)
    ('ICC(A,1)', 0.29)
    >>> round(iaa.icc(data, type="consistency").value, 2)
    0.71
    >>> round(iaa.icc(data, unit="average").value, 2)
    0.62
    """
    form = _form("icc", model, type, unit)
    confidence = validate.confidence("icc", "confidence", confidence)
    d = _design(data, "icc", model, missing)
    _check_average(d, unit)
    return _result(d, _mean_squares(d, model), form, confidence)


def _check_average(d: Scores, unit: str) -> None:
    if not d.balanced and unit == "average":
        raise AgreementError(
            "icc: the average form ICC(k) needs the same number of ratings on every item; "
            "with unequal numbers (missing='available') use unit='single' (ICC(1) with "
            "Donner's n0), or missing='listwise'")


def _result(d: Scores, mean_squares: dict, form: tuple, confidence: float):
    """The AgreementResult of one form from the mean squares of the data."""
    ms = {name: v[0] for name, v in mean_squares.items()}  # numpy scalars
    value = float(_coefficient(ms, d.k, form))
    inf = _inference(ms, d.k, form, value, confidence, d.balanced)
    mw, sf, description = FORMS[form]
    note = "an ICC is a ratio of variance components: no observed or expected agreement"
    if not d.balanced:
        note += ("; unequal numbers of ratings per item: ICC(1) uses n0 = "
                 f"{ms['n0']:.4g} (Donner 1986) and no exact interval exists (none given)")
    if math.isnan(value):
        note += "; the ICC is 0/0 (no variance between or within items)"
    elif math.isinf(inf["F"]):
        error = "MSW" if form[0] == "oneway" else "MSE"
        note += (f"; no residual variance ({error} = 0, F infinite): the interval is its "
                 "limit as F → ∞" + (" (MSC > 0: the raters differ by constants only, "
                                     "v = k − 1)" if inf["ci"] != (1.0, 1.0) else
                                     ", [1, 1]"))
    if not 0 < float(ms["MSR"]) * d.unit < math.inf and float(ms["MSR"]) > 0:
        note += ("; the mean squares lie outside the float range (reported as infinity or "
                 "0), but the ICC is exact: it is computed on the ratings divided by their "
                 "largest magnitude")
    model, type_, unit = form
    params = {"form": mw, "shrout_fleiss": sf, "description": description,
              "model": model, "type": type_, "unit": unit, "confidence": confidence,
              "k": d.k, **{x: _in_units(ms[x], d.unit) for x in ("MSR", "MSW", "MSC", "MSE")
                           if x in ms},
              **{x: inf[x] for x in ("F", "df1", "df2", "p_value", "df_interval")
                 if x in inf}}
    if not d.balanced:
        params["n0"] = float(ms["n0"])
    return d.result("icc", value, float("nan"), float("nan"), note, params=params,
                    ci=inf.get("ci"),
                    ci_method=(f"exact F (McGraw & Wong 1996) {confidence:.0%}" if "ci" in inf
                               else None))


def _in_units(mean_square, unit) -> float:
    """A mean square of the scaled ratings in the data's units (0 stays 0 when the unit
    overflows to infinity)."""
    with np.errstate(over="ignore", under="ignore"):
        return float(mean_square * unit) if mean_square != 0 else 0.0


def icc_table(data, *, confidence: float = 0.95, missing: str = "listwise") -> pd.DataFrame:
    """Every ICC form on the same data, one row each, in the layout of pingouin's
    ``intraclass_corr``: Type (McGraw & Wong's name), Shrout–Fleiss, Description, ICC,
    F, df1, df2, pval and the interval (``CI95%`` at the default ``confidence``, as
    a [low, high] pair). ``missing`` as in `icc` ("available" is refused: it
    gives the one-way single form only).

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Numeric ratings, as for `icc`.
    confidence : float, default 0.95
        Level of the intervals, in (0, 1).
    missing : {"listwise", "raise"}, default "listwise"
        As in `icc`.

    Returns
    -------
    pandas.DataFrame
        Six rows (ICC(1), ICC(A,1), ICC(C,1), ICC(k), ICC(A,k), ICC(C,k)) with columns
        Type, Shrout–Fleiss, Description, ICC, F, df1, df2, pval and the interval.

    Raises
    ------
    AgreementError
        As `icc`, and for ``missing="available"``.

    See Also
    --------
    icc : one form, with its full result.

    Notes
    -----
    Each row is `icc` of one (model, type, unit); the formulas are McGraw & Wong's (1996)
    Table 4.

    References
    ----------
    Shrout, P. E. & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing
    rater reliability. Psychological Bulletin, 86(2), 420–428.
    https://doi.org/10.1037/0033-2909.86.2.420

    McGraw, K. O. & Wong, S. P. (1996). Forming inferences about some intraclass
    correlation coefficients. Psychological Methods, 1(1), 30–46.
    https://doi.org/10.1037/1082-989X.1.1.30

    Examples
    --------
    Shrout & Fleiss' (1979) Table 2; their Table 4 prints .17, .29, .71, .44, .62, .91:

    >>> sf = pd.DataFrame([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
    ...                    [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], columns=list("ABCD"))
    >>> table = iaa.icc_table(iaa.Annotations.from_wide(sf))
    >>> table["ICC"].round(2).tolist()
    [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    """
    if missing == "available":
        raise AgreementError("icc_table: missing='available' gives only the one-way single "
                             "form; call icc(data, model='oneway', missing='available')")
    confidence = validate.confidence("icc_table", "confidence", confidence)
    d = _design(data, "icc_table", "twoway", missing)  # one pass over the data
    ms = _mean_squares(d, "twoway")
    rows = []
    for form in (("oneway", "agreement", "single"), ("twoway", "agreement", "single"),
                 ("twoway", "consistency", "single"), ("oneway", "agreement", "average"),
                 ("twoway", "agreement", "average"), ("twoway", "consistency", "average")):
        r = _result(d, ms, form, confidence)
        p = r.params
        rows.append({"Type": p["form"], "Shrout–Fleiss": p["shrout_fleiss"],
                     "Description": p["description"], "ICC": r.value, "F": p["F"],
                     "df1": p["df1"], "df2": p["df2"], "pval": p["p_value"],
                     f"CI{round(100 * confidence, 6):g}%": list(r.ci)})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ Statistic
def _icc_statistic(d: Scores, form: tuple) -> Statistic:
    tables, shapes = d.tables(twoway=form[0] == "twoway")

    def finish(tot):  # the ICC of each resample's totals (McGraw & Wong 1996)
        value = _coefficient(sums_of_squares(tot, d.k), d.k, form)
        nan = np.full_like(value, np.nan)
        return value, nan, nan
    return d.statistic(tables, shapes, finish)


def _statistic(data, *, model="twoway", type="agreement", unit="single",
               missing="listwise", **_):
    """``icc.statistic(data, **kw)``: the additive per-item tables and their finish."""
    form = _form("icc", model, type, unit)
    d = _design(data, "icc", model, missing)
    _check_average(d, unit)
    return _icc_statistic(d, form)


icc.statistic = _statistic
