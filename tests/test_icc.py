"""Intraclass correlation: every form against pingouin (intraclass_corr, 0.7), Shrout &
Fleiss' (1979) printed values, the ANOVA estimator for unequal group sizes (Donner 1986)
by exact fractions, and the Statistic (bootstrap) against duplicated data."""
from fractions import Fraction

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from iaa_widgets.errors import AgreementError
from iaa_widgets.measures.continuous.icc import icc, icc_table

sys.path.insert(0, str(Path(__file__).parent))
import irr_datasets  # noqa: E402
from irr_datasets import long_form  # noqa: E402

FORMS = {  # pingouin's Type → our (model, type, unit)
    "ICC1": ("oneway", "agreement", "single"), "ICC2": ("twoway", "agreement", "single"),
    "ICC3": ("twoway", "consistency", "single"), "ICC1k": ("oneway", "agreement", "average"),
    "ICC2k": ("twoway", "agreement", "average"), "ICC3k": ("twoway", "consistency", "average"),
}
PG_TYPES = ["ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"]

# Shrout & Fleiss (1979), Table 2: 6 targets (rows) × 4 judges (columns)
SHROUT_FLEISS = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
                          [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]])

# irr's anxiety data (R package irr 0.84.1), as printed in DescTools' KendallW example
ANXIETY = irr_datasets.matrix(irr_datasets.ANXIETY)


def pingouin_table(df: pd.DataFrame) -> pd.DataFrame:
    """pingouin's intraclass_corr (a test-only peer, in the test extra)."""
    pg = pytest.importorskip("pingouin")
    old = pg.options["round.column.CI95"]
    pg.options["round.column.CI95"] = None  # full precision of its interval
    try:
        out = pg.intraclass_corr(df, targets="item", raters="annotator", ratings="label",
                                 nan_policy="omit")
    finally:
        pg.options["round.column.CI95"] = old
    out["Type"] = PG_TYPES  # pingouin's labels vary between versions; its row order does not
    return out.set_index("Type")


def random_grid(seed, n, k, offset=0.0):
    rng = np.random.default_rng(seed)
    target = rng.normal(0, 2, n)[:, None]
    bias = rng.normal(0, 1, k)[None, :]
    return offset + target + bias + rng.normal(0, 1.5, (n, k)).round(3)


DATASETS = {
    "shrout_fleiss": SHROUT_FLEISS,
    "anxiety": ANXIETY,
    "random_30x5": random_grid(1, 30, 5),
    "random_200x3": random_grid(2, 200, 3),
    "random_12x10": random_grid(3, 12, 10),
    "two_raters": random_grid(4, 25, 2),
}


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_every_form_matches_pingouin(name):
    df = long_form(DATASETS[name])
    ref = pingouin_table(df)
    for pg_type, (model, type_, unit) in FORMS.items():
        r = icc(df, model=model, type=type_, unit=unit)
        row = ref.loc[pg_type]
        assert r.value == pytest.approx(row["ICC"], abs=1e-9), pg_type
        assert r.params["F"] == pytest.approx(row["F"], rel=1e-9), pg_type
        assert r.params["df1"] == row["df1"] and r.params["df2"] == row["df2"], pg_type
        assert r.params["p_value"] == pytest.approx(row["pval"], rel=1e-7, abs=1e-12)
        assert r.ci == pytest.approx(tuple(row["CI95"]), abs=1e-9), pg_type


def test_icc_table_matches_pingouin_layout():
    df = long_form(SHROUT_FLEISS)
    table, ref = icc_table(df), pingouin_table(df)
    assert list(table.columns) == ["Type", "Shrout–Fleiss", "Description", "ICC", "F", "df1",
                                   "df2", "pval", "CI95%"]
    np.testing.assert_allclose(table["ICC"], ref["ICC"], atol=1e-9)
    np.testing.assert_allclose(np.vstack(table["CI95%"]), np.vstack(ref["CI95"]), atol=1e-9)
    assert list(table["Shrout–Fleiss"]) == ["ICC(1,1)", "ICC(2,1)", "ICC(3,1)", "ICC(1,k)",
                                            "ICC(2,k)", "ICC(3,k)"]


def test_shrout_fleiss_printed_values():
    # Shrout & Fleiss (1979), Table 4 (their Table 2 data): ICC(1,1) .17, ICC(2,1) .29,
    # ICC(3,1) .71, ICC(1,4) .44, ICC(2,4) .62, ICC(3,4) .91 (two decimals printed)
    df = long_form(SHROUT_FLEISS)
    printed = {"ICC1": .17, "ICC2": .29, "ICC3": .71, "ICC1k": .44, "ICC2k": .62,
               "ICC3k": .91}
    for pg_type, value in printed.items():
        model, type_, unit = FORMS[pg_type]
        assert round(icc(df, model=model, type=type_, unit=unit).value, 2) == value
    # the mean squares of their Table 3 (BMS 11.24, WMS 6.26, JMS 32.49, EMS 1.02)
    p = icc(df).params
    assert [round(p[x], 2) for x in ("MSR", "MSW", "MSC", "MSE")] == [11.24, 6.26, 32.49, 1.02]


def test_descr_tools_printed_table_on_shrout_fleiss():
    # DescTools::ICC(ratings) on Shrout & Fleiss' Table 2, R output printed in a public
    # R Markdown tutorial on inter-rater reliability (3 decimals, F 2, p 6):
    # ICC1 0.166 F 1.79 (5, 18) p 0.164769; ICC2 0.290 F 11.03 (5, 15) p 0.000135;
    # ICC3 0.715; ICC1k 0.443; ICC2k 0.620; ICC3k 0.909
    table = icc_table(long_form(SHROUT_FLEISS)).set_index("Shrout–Fleiss")
    printed = {"ICC(1,1)": (0.166, 1.79, 18, 0.164769), "ICC(2,1)": (0.290, 11.03, 15, 0.000135),
               "ICC(3,1)": (0.715, 11.03, 15, 0.000135), "ICC(1,k)": (0.443, 1.79, 18, 0.164769),
               "ICC(2,k)": (0.620, 11.03, 15, 0.000135), "ICC(3,k)": (0.909, 11.03, 15, 0.000135)}
    for form, (value, f0, df2, p) in printed.items():
        row = table.loc[form]
        assert round(row["ICC"], 3) == value and round(row["F"], 2) == f0
        assert row["df1"] == 5 and row["df2"] == df2 and round(row["pval"], 6) == p


def test_irr_printed_anxiety_and_its_test_df():
    """irr::icc(anxiety, "twoway", "agreement") prints (R output quoted in a public R
    Markdown tutorial): ICC(A,1) = 0.198, F(19,39.7) = 1.83, p = 0.0543, 95% CI
    -0.039 < ICC < 0.494. Value, F and interval agree with ours; its test's df2 = 39.7 is
    the interval's Satterthwaite v (ours too, params["df_interval"]), where McGraw & Wong
    (1996, test of ρ = ρ0 at ρ0 = 0) test on (n − 1)(k − 1) = 38 df: our p is 0.0562 (issue 21)."""
    from scipy.stats import f as fdist
    r = icc(long_form(ANXIETY))
    assert round(r.value, 3) == 0.198 and round(r.params["F"], 2) == 1.83
    assert tuple(round(x, 3) for x in r.ci) == (-0.039, 0.494)
    assert round(r.params["df_interval"], 1) == 39.7
    # irr's p is the same F on (19, v): reproduces its printed 0.0543
    assert round(fdist.sf(r.params["F"], 19, r.params["df_interval"]), 4) == 0.0543
    assert (r.params["df1"], r.params["df2"]) == (19, 38)
    assert r.params["p_value"] == pytest.approx(fdist.sf(r.params["F"], 19, 38), rel=1e-12)
    assert round(r.params["p_value"], 4) == 0.0562


def test_agreement_average_interval_pinned_differs_from_irr():
    """Issue 21: our ICC(A,k) interval is the Spearman–Brown image of ICC(A,1)'s (one v,
    from ρ̂ = ICC(A,1)); irr 0.84.1 plugs ICC(A,k) into v and tests on F(n − 1, v)."""
    df = long_form(SHROUT_FLEISS)
    single, average = icc(df, unit="single"), icc(df, unit="average")
    k = 4
    sb = tuple(k * x / (1 + (k - 1) * x) for x in single.ci)
    assert average.ci == pytest.approx(sb, abs=1e-12)
    # pinned: pingouin 0.7.0 prints this interval for ICC2k on these data (full precision)
    assert average.ci == pytest.approx((0.07113681530250343, 0.9272320401677219), abs=1e-12)
    assert average.params["df_interval"] == pytest.approx(single.params["df_interval"])
    assert average.params["df_interval"] == pytest.approx(4.78514386221276, rel=1e-9)
    # the test of H0: ρ = 0 is F = MSR/MSE on (n − 1, (n − 1)(k − 1)) = (5, 15)
    # (McGraw & Wong 1996, test of ρ = ρ0 at ρ0 = 0), not irr's F(5, v)
    assert (average.params["df1"], average.params["df2"]) == (5, 15)
    # irr's v for ICC(A,k), from its code with ρ̂ = ICC(A,k) = 0.62005 (issue 21): 4.189,
    # giving the interval [0.0394, 0.9286]; ours is a different, pinned number
    assert average.ci[0] == pytest.approx(0.0711, abs=1e-4)
    assert abs(average.ci[0] - 0.0394) > 0.03


def test_listwise_excludes_and_matches_pingouin_omit():
    grid = random_grid(5, 40, 4)
    grid[[3, 7, 11], [0, 2, 3]] = np.nan
    df = long_form(grid)
    ref = pingouin_table(df)  # nan_policy="omit": listwise
    for pg_type, (model, type_, unit) in FORMS.items():
        r = icc(df, model=model, type=type_, unit=unit)
        assert r.value == pytest.approx(ref.loc[pg_type, "ICC"], abs=1e-9)
        assert r.excluded == {"rated by fewer than all 4 raters": 3}
        assert r.n_items == 37
    with pytest.raises(AgreementError, match="lack a rating"):
        icc(df, missing="raise")
    with pytest.raises(AgreementError, match="one-way model only"):
        icc(df, missing="available")


def _donner_icc1(groups):
    """ANOVA estimator for unequal group sizes, in exact fractions, one group at a time
    (Donner 1986; Searle 1971): (MSB − MSW) / (MSB + (n0 − 1) MSW)."""
    groups = [[Fraction(x).limit_denominator(10 ** 6) for x in g] for g in groups]
    n = len(groups)
    big_n = sum(len(g) for g in groups)
    grand = sum(sum(g) for g in groups) / big_n
    ssb = sum(len(g) * (sum(g) / len(g) - grand) ** 2 for g in groups)
    ssw = sum(sum((x - sum(g) / len(g)) ** 2 for x in g) for g in groups)
    msb, msw = ssb / (n - 1), ssw / (big_n - n)
    n0 = (big_n - Fraction(sum(len(g) ** 2 for g in groups), big_n)) / (n - 1)
    return float((msb - msw) / (msb + (n0 - 1) * msw)), float(msb / msw), float(n0)


def test_oneway_unbalanced_is_donners_estimator():
    grid = random_grid(6, 15, 4).round(2)
    rng = np.random.default_rng(7)
    grid[rng.random(grid.shape) < 0.3] = np.nan
    grid[0, 1:] = np.nan  # an item rated once enters between and n0, not within
    df = long_form(grid)
    groups = [row[~np.isnan(row)] for row in grid if (~np.isnan(row)).any()]
    value, f0, n0 = _donner_icc1(groups)
    r = icc(df, model="oneway", missing="available")
    assert r.value == pytest.approx(value, abs=1e-12)
    assert r.params["F"] == pytest.approx(f0, rel=1e-12)
    assert r.params["n0"] == pytest.approx(n0, rel=1e-12)
    big_n = sum(len(g) for g in groups)
    assert (r.params["df1"], r.params["df2"]) == (len(groups) - 1, big_n - len(groups))
    assert r.ci is None and "n0" in r.note
    with pytest.raises(AgreementError, match="average form"):
        icc(df, model="oneway", unit="average", missing="available")


def test_oneway_available_on_complete_data_equals_listwise():
    df = long_form(DATASETS["random_30x5"])
    a = icc(df, model="oneway", missing="available")
    b = icc(df, model="oneway")
    assert a.value == pytest.approx(b.value, abs=1e-12) and a.ci == pytest.approx(b.ci)


def test_shift_invariance_with_large_offset():
    base = long_form(random_grid(8, 50, 4))
    shifted = base.assign(label=base["label"] + 1e9)
    for model, type_, unit in FORMS.values():
        a = icc(base, model=model, type=type_, unit=unit).value
        b = icc(shifted, model=model, type=type_, unit=unit).value
        assert b == pytest.approx(a, abs=1e-6)


def test_statistic_resample_equals_duplicated_items():
    grid = random_grid(9, 20, 3)
    df = long_form(grid)
    w = np.random.default_rng(10).multinomial(20, np.full(20, 1 / 20))
    # the same resample written out as data: item i copied w_i times
    rows = np.repeat(np.arange(20), w)
    dup = long_form(grid[rows])
    for model, type_, unit in FORMS.values():
        stat = icc.statistic(df, model=model, type=type_, unit=unit)
        assert stat.values(np.ones(20))[0] == pytest.approx(
            icc(df, model=model, type=type_, unit=unit).value, abs=1e-12)
        assert stat.values(w.astype(float))[0] == pytest.approx(
            icc(dup, model=model, type=type_, unit=unit).value, abs=1e-10)


def test_bootstrap_runs_on_icc():
    from iaa_widgets.inference.bootstrap import bootstrap
    df = long_form(DATASETS["random_30x5"])
    res = bootstrap(df, icc, n_resamples=200, seed=1, interval="bca", unit="average")
    assert res.ci[0] < icc(df, unit="average").value < res.ci[1]


def test_refusals():
    df = long_form(SHROUT_FLEISS)
    with pytest.raises(AgreementError, match="no consistency form"):
        icc(df, model="oneway", type="consistency")
    with pytest.raises(AgreementError, match="model"):
        icc(df, model="mixed")
    with pytest.raises(AgreementError, match="confidence"):
        icc(df, confidence=1.5)
    text = pd.DataFrame({"item": [0, 0, 1, 1], "annotator": ["a", "b"] * 2,
                         "label": ["x", "y", "y", "x"]})
    with pytest.raises(AgreementError, match="numeric"):
        icc(text)
    one = long_form(SHROUT_FLEISS[:1])
    with pytest.raises(AgreementError, match="at least two items"):
        icc(one)


def test_perfect_agreement_and_constant_data():
    same = long_form(np.repeat(np.arange(6.0)[:, None], 3, axis=1))
    r = icc(same)
    assert r.value == 1.0 and r.params["MSE"] == 0.0
    assert r.params["F"] == np.inf and r.params["p_value"] == 0.0
    # F = ∞: every form's interval is its limit [1, 1] (issue 44; irr 0.84.1 gives it
    # where its MSE is rounding, NaN = ∞/∞ where exactly 0: tests/test_extremes.py)
    assert r.ci == (1.0, 1.0) and "MSE = 0" in r.note
    for form in ({"type": "consistency"}, {"model": "oneway"}, {"unit": "average"}):
        assert icc(same, **form).ci == (1.0, 1.0) and "= 0, F infinite" in \
            icc(same, **form).note
    # values whose centring is inexact in binary (1/3, 0.1 + 1e6): still exactly 0
    odd = long_form(np.array([[1, 1, 1], [1, 1, 1], [2, 2, 2]]) * 0.1 + 1e6)
    assert icc(odd).params["MSE"] == 0.0 and icc(odd, model="oneway").params["MSW"] == 0.0
    flat = long_form(np.ones((5, 3)))
    assert np.isnan(icc(flat).value) and "0/0" in icc(flat).note


def test_wide_and_anonymous_inputs():
    from iaa_widgets.data import Annotations
    wide = pd.DataFrame(SHROUT_FLEISS, columns=["j1", "j2", "j3", "j4"])
    ann = Annotations.from_wide(wide)
    assert icc(ann).value == pytest.approx(icc(long_form(SHROUT_FLEISS)).value, abs=1e-12)
    # per-item counts of each value: raters anonymous, so only the one-way model applies
    counts = pd.DataFrame([[np.sum(row == v) for v in range(1, 11)] for row in SHROUT_FLEISS],
                          columns=range(1, 11))
    anon = Annotations.from_counts(counts)
    with pytest.raises(AgreementError, match="model='oneway'"):
        icc(anon)
    # one-way ICC(1) needs no rater identity: equal to the named data's (pingouin: 0.1657)
    assert icc(anon, model="oneway").value == pytest.approx(
        icc(ann, model="oneway").value, abs=1e-12)
