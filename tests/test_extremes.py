"""Continuous measures at the edges of the float range and of their work (issue 44,
"Continuous extremes and bounds").

Expected values:

- interval α is a ratio of D's, and multiplying every value by s multiplies δ = (c − k)²
  and so D_o and D_e by s² (Krippendorff 2011, "Computing Krippendorff's
  Alpha-Reliability", the definitions of D_o, D_e): α of the data times s equals α of
  the data, which is computed here a second way, straight from those definitions over
  every pair of values (:func:`alpha_by_pairs`);
- the ICC is a ratio of mean squares (McGraw & Wong 1996, Table 4), each multiplied by
  s² when the ratings are: the ICC of the data times s equals the ICC of the data, itself
  checked against pingouin in tests/test_icc.py;
- the ICC's interval when every item's ratings agree: R's irr 0.84.1, R/icc.R
  (``icc(ratings, model, type, unit)``, read from the cran/irr sources and run with R
  4.2.2 on the values below).
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa


def long_form(grid: np.ndarray) -> pd.DataFrame:
    n, r = grid.shape
    return pd.DataFrame({"item": np.repeat(np.arange(n), r),
                         "annotator": np.tile([f"r{j}" for j in range(r)], n),
                         "label": grid.ravel()})


def integer_scores(n_items: int, seed: int) -> np.ndarray:
    """n_items × 3 integer scores: a true score in [0, 3000) plus a shift in [−3, 3]
    per rater (about 1,500 distinct values at 800 items)."""
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 3000, (n_items, 1)) + rng.integers(-3, 4, (n_items, 3))).astype(float)


def alpha_by_pairs(grid: np.ndarray) -> float:
    """Interval α from Krippendorff's (2011) definitions, every pair of values written out
    (complete data: m_i = 3 values per item): D_o = (1/n) Σ_i Σ_{u≠u'} δ/(m_i − 1),
    D_e = Σ_{u≠u'} δ / (n(n − 1)) over all n values, δ = (v − v')²."""
    n_items, m = grid.shape
    within = ((grid[:, :, None] - grid[:, None, :]) ** 2).sum() / (m - 1)
    v = grid.ravel()
    n = len(v)
    total = ((v[:, None] - v[None, :]) ** 2).sum()
    return 1.0 - (within / n) / (total / (n * (n - 1)))


# ------------------------------------------------------------- interval α at the edges
@pytest.mark.parametrize("n_items", [800, 120])  # > 1,024 distinct values (moments); fewer
@pytest.mark.parametrize("scale,shift", [(5e-324, 0), (1.7e308 / 3003, 0),
                                         (1.7e308 / 8003, -5000)])
def test_interval_alpha_is_the_same_at_every_scale(n_items, scale, shift):
    grid = integer_scores(n_items, seed=1) - shift
    expected = alpha_by_pairs(grid)
    assert iaa.krippendorff_alpha(long_form(grid), "interval").value == \
        pytest.approx(expected, abs=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no overflow on the way
        r = iaa.krippendorff_alpha(long_form(grid * scale), "interval")
    assert r.value == pytest.approx(expected, abs=1e-12)
    assert "all distances are 0" not in r.note and "one category" not in r.note
    assert "outside the float range" in r.note  # D's of 1e616 or 1e-648: inf or 0, said


def test_leave_one_out_and_bootstrap_of_interval_alpha_at_1e308():
    """Both go through α's Statistic: on values from 0.6e308 to 1.7e308 (the sum of
    two overflows) they equal the same calls on the unscaled data (the same seed draws
    the same items)."""
    grid = integer_scores(800, seed=2) + 5000  # in [4997, 8002]
    big = long_form(grid * (1.7e308 / 8003))
    loo = iaa.leave_one_out(big, "krippendorff_alpha", metric="interval", seed=3,
                            n_resamples=50)
    ref = iaa.leave_one_out(long_form(grid), "krippendorff_alpha", metric="interval",
                            seed=3, n_resamples=50)
    assert np.isfinite(loo["value"]).all()
    np.testing.assert_allclose(loo["value"], ref["value"], atol=1e-12)
    np.testing.assert_allclose(loo["ci_low"], ref["ci_low"], atol=1e-9)
    boot = iaa.bootstrap(big, "krippendorff_alpha", n_resamples=50, seed=4, metric="interval")
    same = iaa.bootstrap(long_form(grid), "krippendorff_alpha", n_resamples=50, seed=4,
                         metric="interval")
    assert boot.n_undefined == 0
    np.testing.assert_allclose(boot.ci, same.ci, atol=1e-9)


# ------------------------------------------------------------------ the ICC's scale
@pytest.mark.parametrize("scale", [1e-170, 1e160, 1e300])
@pytest.mark.parametrize("form", [{}, {"type": "consistency"}, {"model": "oneway"},
                                  {"unit": "average"}])
def test_icc_does_not_depend_on_scale(scale, form):
    rng = np.random.default_rng(5)
    grid = rng.normal(size=(30, 1)) + 0.5 * rng.normal(size=(30, 3))
    ref = iaa.icc(long_form(grid), **form)
    r = iaa.icc(long_form(grid * scale), **form)
    assert r.value == pytest.approx(ref.value, abs=1e-12)
    np.testing.assert_allclose(r.ci, ref.ci, atol=1e-12)
    assert r.params["F"] == pytest.approx(ref.params["F"], rel=1e-10)
    assert "outside the float range" in r.note  # MSR of 1e-340 or 1e320: reported 0 or inf
    boot = iaa.bootstrap(long_form(grid * scale), iaa.icc, n_resamples=30, seed=6, **form)
    same = iaa.bootstrap(long_form(grid), iaa.icc, n_resamples=30, seed=6, **form)
    np.testing.assert_allclose(boot.ci, same.ci, atol=1e-9)


# ------------------------------------------------- the ICC when every item's ratings agree
AGREE = np.array([1.5, 2.25, 7, 3.125, 4, 9.5, 6, 5.75, 8, 2])


@pytest.mark.parametrize("form", [
    {"model": "oneway", "unit": "single"}, {"model": "oneway", "unit": "average"},
    {"type": "consistency", "unit": "single"}, {"type": "consistency", "unit": "average"},
    {"type": "agreement", "unit": "single"}, {"type": "agreement", "unit": "average"}])
def test_icc_interval_is_its_limit_when_ratings_agree(form):
    """Three raters give every item the same value: MSW = MSE = MSC = 0, F = ∞, and each
    limit of the interval tends to 1 as F → ∞ (McGraw & Wong 1996, Table 7: (F_L − 1)/
    (F_L + k − 1), 1 − 1/F_L, ...). irr 0.84.1, R/icc.R, on ``cbind(x, x, x)`` with x the
    values of AGREE: ``icc(r, "oneway", unit="average")`` and ``icc(r, "twoway",
    "consistency", "average")`` print value 1, lbound 1, ubound 1; its single forms divide
    ∞ by ∞ (NaN) where its MSE is exactly 0, and give [1, 1] where MSE is rounding (x =
    rnorm(10) * 0.1 with set.seed(1): ICC(C,1) and ICC(A,1) lbound 1, ubound 1). We give the
    limit, [1, 1], in every form."""
    r = iaa.icc(long_form(np.column_stack([AGREE] * 3)), **form)
    assert r.value == 1.0 and r.params["F"] == np.inf and r.params["p_value"] == 0.0
    assert r.ci == (1.0, 1.0) and "limit" in r.note


def test_icc_agreement_interval_when_raters_differ_by_constants():
    """MSE = 0 but MSC > 0 (rater j adds a constant): ICC(C,·) = 1 with the limit [1, 1],
    while ICC(A,1) < 1 keeps McGraw & Wong's (1996, case 2A) interval, whose Satterthwaite
    v = (a MSC + b MSE)²/((a MSC)²/(k − 1) + (b MSE)²/((n − 1)(k − 1))) is k − 1 at MSE = 0:
    the same interval as with a residual 1e-9 of the rater effects' size (continuity)."""
    grid = np.column_stack([AGREE] * 3) + np.array([0.0, 1.0, 2.5])
    r = iaa.icc(long_form(grid))
    assert iaa.icc(long_form(grid), type="consistency").ci == (1.0, 1.0)
    assert r.params["df_interval"] == pytest.approx(2.0)
    nudged = grid + 1e-9 * np.random.default_rng(7).normal(size=grid.shape)
    near = iaa.icc(long_form(nudged))
    assert r.value == pytest.approx(near.value, abs=1e-8)
    np.testing.assert_allclose(r.ci, near.ci, atol=1e-6)


# ------------------------------------------------------------------ bounded work
def test_ratio_alpha_beyond_its_bound_is_refused_at_once():
    """Ratio α sums D_e over K²/2 pairs of distinct values (δ = ((c − k)/(c + k))² is no
    function of ranks or moments): 1e6 values would take about 45 min (5.4 ns a pair,
    measured in alpha_values.MAX_RATIO_VALUES's comment; today's main runs it without
    bound). Beyond 50,000 values it is refused before any sweep, naming the size, the
    bound and what to do instead, which works."""
    import time
    rng = np.random.default_rng(11)
    truth = rng.uniform(1, 1e6, (30_000, 1))
    grid = np.round(truth * rng.uniform(0.9, 1.1, (30_000, 2)), 6)
    df = long_form(grid)
    start = time.perf_counter()
    with pytest.raises(iaa.AgreementError, match=r"60,000 distinct values.*at most "
                                                 r"50,000.*np\.round.*metric='interval' "
                                                 r"on log"):
        iaa.krippendorff_alpha(df, "ratio")
    assert time.perf_counter() - start < 5  # O(N) checks only, no sweep (7 s on main)
    with pytest.raises(iaa.AgreementError, match="at most 50,000"):
        iaa.krippendorff_alpha.statistic(df, "ratio")  # the bootstrap's door too
    logs = df.assign(label=np.log(df["label"]))
    assert 0.9 < iaa.krippendorff_alpha(logs, "interval").value < 1


def test_ratio_sweep_stops_on_ctrl_c():
    """The sweep runs in blocks of ``alpha_values.BLOCK`` entries (each well under a
    millisecond), so a signal handler (Ctrl-C's KeyboardInterrupt, here SIGALRM's, which
    Python runs the same way: between bytecodes) stops it within a block, where the
    100 sweeps would run for minutes."""
    import signal
    import time
    from iaa_widgets.measures.continuous.alpha_values import _ratio_expected

    class Interrupted(Exception):
        pass

    def interrupt(signum, frame):
        raise Interrupted

    v = np.random.default_rng(0).random(50_000)
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        start = time.perf_counter()
        with pytest.raises(Interrupted):
            for _ in range(100):
                _ratio_expected(v, np.ones(50_000))
        assert time.perf_counter() - start < 2  # 0.2 s, then within a block
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
