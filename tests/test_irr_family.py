"""The coefficients of R's irr that we lacked (issue 21) and Light's κ, Hubert's κ,
κ_max (issue 14), each checked against an independent implementation (scipy,
scikit-learn, pingouin, irrCAC), a brute-force or exact-fraction computation of the
published formula, and irr's printed outputs (quoted with their source).

irr's printed outputs quoted here (irr 0.84.1 manual examples, as rendered on
rdrr.io with "Example output"):
- agree(video): %-agree = 35; agree(video, tolerance=1): %-agree = 90
- meancor(anxiety): R = 0.224, z = 0.922, p-value = 0.357
- finn(anxiety, 6): Finn = 0.446, F(Inf,40) = 1.8, p-value = 0.01
- kappam.light(diagnoses): Kappa = 0.459, z = 2.31, p-value = 0.0211
- iota(list(diagnoses)) "produces the same result as kappam.fleiss(diagnoses,
  exact=TRUE)" (irr's iota help page), i.e. Conger's κ.
"""
import itertools
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from irr_datasets import ANXIETY, DIAGNOSES, VIDEO, wide  # noqa: E402

from iaa_widgets.data import Annotations  # noqa: E402
from iaa_widgets.errors import AgreementError  # noqa: E402
from iaa_widgets.measures.continuous.anova import (finn_coefficient, janson_olsson_iota,  # noqa: E402
                                        robinson_a)
from iaa_widgets.measures.categorical.classic import davies_fleiss_kappa  # noqa: E402
from iaa_widgets.measures.continuous.correlation import mean_pearson_r, mean_spearman_rho  # noqa: E402
from iaa_widgets.measures.categorical.light import hubert_kappa, kappa_max, light_kappa  # noqa: E402
from iaa_widgets.measures.categorical.maxwell import maxwell_re  # noqa: E402
from iaa_widgets.measures.categorical.tolerance import tolerance_agreement  # noqa: E402
from iaa_widgets.inference.bootstrap import bootstrap  # noqa: E402

ANX = wide(ANXIETY)
VID = wide(VIDEO)
DIA = wide(DIAGNOSES)


def ann(df):
    return Annotations.from_wide(df)


def random_scores(seed, n=25, r=4, k=5):
    rng = np.random.default_rng(seed)
    base = rng.integers(1, k + 1, n)
    x = np.clip(base[:, None] + rng.integers(-1, 2, (n, r)), 1, k)
    return pd.DataFrame(x, columns=[f"r{j}" for j in range(r)])


# ------------------------------------------------------------ tolerance agreement
def test_tolerance_irr_printed_video():
    # irr manual: agree(video) 35, agree(video, tolerance=1) 90 (percent)
    assert tolerance_agreement(ann(VID)).value == pytest.approx(0.35, abs=1e-15)
    assert tolerance_agreement(ann(VID), tolerance=1).value == pytest.approx(0.90, abs=1e-15)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("t", [0, 1, 2])
def test_tolerance_brute_force(seed, t):
    df = random_scores(seed)
    x = df.to_numpy()
    # range: max − min ≤ t per item (irr's definition, R/agree.R)
    brute = np.mean(x.max(axis=1) - x.min(axis=1) <= t)
    assert tolerance_agreement(ann(df), tolerance=t).value == pytest.approx(brute, abs=1e-15)
    # pairs: the share of ordered pairs of different raters within t, averaged
    shares = [Fraction(sum(abs(int(row[a]) - int(row[b])) <= t
                           for a in range(len(row)) for b in range(len(row)) if a != b),
                       len(row) * (len(row) - 1)) for row in x]
    exact = sum(shares) / len(shares)
    res = tolerance_agreement(ann(df), tolerance=t, rule="pairs")
    assert res.value == pytest.approx(float(exact), abs=1e-14)
    # standard error: √(Σ (a_i − A)² / n) / √n over the per-item agreements
    a = np.array([float(s) for s in shares])
    assert res.se == pytest.approx(math.sqrt(np.mean((a - a.mean()) ** 2) / len(a)), abs=1e-14)


def test_tolerance_text_needs_a_declared_order():
    labels = ["low", "mid", "high"]
    df = pd.DataFrame({"a": ["low", "mid", "high", "mid"], "b": ["mid", "mid", "low", "high"]})
    with pytest.raises(AgreementError, match="order"):
        tolerance_agreement(ann(df), tolerance=1)
    ordered = Annotations.from_wide(df, categories=labels)
    # positions low=1, mid=2, high=3: |1−2|, 0, |3−1|, |2−3| → 3 of 4 items within 1
    assert tolerance_agreement(ordered, tolerance=1).value == pytest.approx(0.75)


def test_tolerance_missing_available_counts_exclusions():
    df = random_scores(9).astype(float)
    df.iloc[0, 1:] = np.nan  # rated once: excluded under "available", counted
    df.iloc[1, 0] = np.nan
    long = df.reset_index().melt(id_vars="index", var_name="annotator", value_name="label")
    long = long.dropna().rename(columns={"index": "item"})
    res = tolerance_agreement(Annotations.from_long(long), tolerance=1, missing="available")
    assert res.excluded == {"only one rating": 1}
    x = df.to_numpy()[1:]
    brute = np.mean(np.nanmax(x, axis=1) - np.nanmin(x, axis=1) <= 1)
    assert res.value == pytest.approx(brute)
    assert tolerance_agreement(Annotations.from_long(long), tolerance=1).excluded == \
        {"rated by fewer than all 4 annotators": 2}


# --------------------------------------------------------- mean correlations
@pytest.mark.parametrize("seed", range(3))
def test_mean_correlations_against_scipy(seed):
    stats = pytest.importorskip("scipy.stats")
    df = random_scores(seed, n=30, r=4)
    x = df.to_numpy(float)
    pairs = list(itertools.combinations(range(4), 2))
    for fn, peer in ((mean_pearson_r, stats.pearsonr), (mean_spearman_rho, stats.spearmanr)):
        r = np.array([peer(x[:, a], x[:, b])[0] for a, b in pairs])
        res = fn(ann(df))
        assert res.value == pytest.approx(np.tanh(np.mean(np.arctanh(r))), abs=1e-12)
        assert list(res.params["pairs"].values()) == pytest.approx(r, abs=1e-12)
        z = np.mean(np.arctanh(r)) * math.sqrt(len(x) - 3)  # Fisher (1921)
        assert res.params["z"] == pytest.approx(z, abs=1e-12)
        assert res.params["p_value"] == pytest.approx(2 * stats.norm.sf(abs(z)), abs=1e-12)
        assert fn(ann(df), fisher=False).value == pytest.approx(r.mean(), abs=1e-12)


def test_mean_correlation_irr_printed_anxiety():
    # irr manual: meancor(anxiety) R = 0.224 (its z: test_differences.py)
    assert round(mean_pearson_r(ann(ANX)).value, 3) == 0.224


def test_perfect_correlations_are_dropped_and_counted():
    df = random_scores(3, n=20, r=3)
    df["r2"] = df["r0"] * 2 + 1  # r(r0, r2) = 1 exactly
    res = mean_pearson_r(ann(df))
    assert res.params["perfect_pairs"] == 1
    assert "1 pair(s) with a perfect correlation" in res.note
    r = [np.corrcoef(df["r0"], df["r1"])[0, 1], np.corrcoef(df["r1"], df["r2"])[0, 1]]
    assert res.value == pytest.approx(np.tanh(np.mean(np.arctanh(r))), abs=1e-12)


def test_constant_annotator_gives_nan_with_note():
    df = random_scores(4, n=10, r=3)
    df["r1"] = 3
    res = mean_pearson_r(ann(df))
    assert math.isnan(res.value) and "'r1'" in res.note


# ------------------------------------------------------------------ Finn, Robinson
def _ss(x):
    """Two-way sums of squares by explicit double loops (independent of our tables)."""
    n, r = x.shape
    g = x.mean()
    rows, cols = x.mean(axis=1), x.mean(axis=0)
    ss_items = sum(r * (rows[i] - g) ** 2 for i in range(n))
    ss_raters = sum(n * (cols[j] - g) ** 2 for j in range(r))
    ss_total = sum((x[i, j] - g) ** 2 for i in range(n) for j in range(r))
    ss_within = sum((x[i, j] - rows[i]) ** 2 for i in range(n) for j in range(r))
    return ss_items, ss_raters, ss_total - ss_items - ss_raters, ss_within


def test_finn_irr_printed_anxiety():
    # irr manual (print.irrlist): finn(anxiety, 6): Finn = 0.446, F(Inf,40) = 1.8, p = 0.01
    res = finn_coefficient(ann(ANX), levels=6)
    assert round(res.value, 3) == 0.446
    assert round(res.params["F"], 1) == 1.8 and res.params["df"] == (math.inf, 40)
    assert round(res.params["p_value"], 2) == 0.01


@pytest.mark.parametrize("seed", range(3))
def test_finn_against_loops_and_scipy(seed):
    stats = pytest.importorskip("scipy.stats")
    df = random_scores(seed)
    x = df.to_numpy(float)
    n, r = x.shape
    ms_exp = (5 ** 2 - 1) / 12  # Finn (1970): variance of the uniform on 5 points
    _, _, ss_res, ss_within = _ss(x)
    one = finn_coefficient(ann(df), levels=5)
    ms_w = np.mean(x.var(axis=1, ddof=1))  # mean within-item variance (irr's MSw)
    assert ms_w == pytest.approx(ss_within / (n * (r - 1)))
    assert one.value == pytest.approx(1 - ms_w / ms_exp, abs=1e-12)
    # F(∞, df) upper tail = P(χ²_df < df/F)
    assert one.params["p_value"] == pytest.approx(
        stats.chi2.cdf(n * (r - 1) / one.params["F"], n * (r - 1)), rel=1e-10)
    two = finn_coefficient(ann(df), levels=5, model="twoway")
    assert two.value == pytest.approx(1 - ss_res / ((n - 1) * (r - 1)) / ms_exp, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_robinson_against_pingouin_icc3(seed):
    pg = pytest.importorskip("pingouin")
    df = random_scores(seed)
    x = df.to_numpy(float)
    ss_items, _, ss_res, _ = _ss(x)
    res = robinson_a(ann(df))
    assert res.value == pytest.approx(ss_items / (ss_items + ss_res), abs=1e-12)
    # A = (1 + (r − 1) ICC(3,1)) / r, with ICC(3,1) = (MS_b − MS_e)/(MS_b + (r − 1) MS_e)
    long = df.reset_index().melt(id_vars="index", var_name="rater", value_name="score")
    icc = pg.intraclass_corr(long, targets="index", raters="rater", ratings="score")
    icc3 = icc.set_index("Type").loc["ICC(C,1)", "ICC"]  # = ICC3 (Shrout & Fleiss)
    r = x.shape[1]
    assert res.value == pytest.approx((1 + (r - 1) * icc3) / r, abs=1e-10)


# ------------------------------------------------------------------------- ι
def _iota_by_distances(variables):
    """Janson & Olsson's (2001) ι = 1 − D_o/D_e from squared Euclidean distances by
    loops: D_o over pairs of different raters on the same item, D_e over pairs of
    different raters on any two items (the same or not)."""
    x = np.stack(variables, axis=-1)  # n × r × v
    n, r, _ = x.shape
    d_o = sum(np.sum((x[i, a] - x[i, b]) ** 2) for i in range(n)
              for a in range(r) for b in range(r) if a != b) / (n * r * (r - 1))
    d_e = sum(np.sum((x[i, a] - x[j, b]) ** 2) for i in range(n) for j in range(n)
              for a in range(r) for b in range(r) if a != b) / (n * n * r * (r - 1))
    return 1 - d_o / d_e


def test_iota_quantitative_by_distances():
    one = random_scores(1, n=12, r=3)
    two = random_scores(2, n=12, r=3)
    assert janson_olsson_iota(ann(one)).value == pytest.approx(
        _iota_by_distances([one.to_numpy(float)]), abs=1e-12)
    both = janson_olsson_iota([ann(one), ann(two)])
    assert both.value == pytest.approx(
        _iota_by_distances([one.to_numpy(float), two.to_numpy(float)]), abs=1e-12)
    assert both.params["variables"] == 2
    # standardize: each variable divided by its sd (n·r values, ddof 1) first
    z = [(d.to_numpy(float) - d.to_numpy(float).mean()) / d.to_numpy(float).std(ddof=1)
         for d in (one, two * 3)]
    assert janson_olsson_iota([ann(one), ann(two * 3)], standardize=True).value == \
        pytest.approx(_iota_by_distances(z), abs=1e-12)


def test_iota_nominal_is_conger_kappa():
    irrcac = pytest.importorskip("irrCAC.raw")
    # irr's help page: iota(list(diagnoses)) = kappam.fleiss(diagnoses, exact=TRUE)
    res = janson_olsson_iota(ann(DIA), scale="nominal")
    peer = irrcac.CAC(DIA).conger()["est"]["coefficient_value"]
    assert res.value == pytest.approx(peer, abs=1e-4)  # irrCAC rounds to 5 digits
    assert res.value == pytest.approx(davies_fleiss_kappa(ann(DIA)).value, abs=1e-12)
    # nominal ι by distances: each category an indicator variable
    codes = DIA.to_numpy()
    dummies = [(codes == c).astype(float) for c in range(1, 6)]
    assert res.value == pytest.approx(_iota_by_distances(dummies), abs=1e-12)
    # nominal ratings need no order: the same diagnoses as unordered text labels
    names = np.array(["", "depression", "personality", "schizophrenia", "neurosis", "other"])
    text = pd.DataFrame(names[codes], columns=DIA.columns)
    assert janson_olsson_iota(ann(text), scale="nominal").value == pytest.approx(
        res.value, abs=1e-12)


def test_iota_variables_align_by_item_and_annotator():
    one, two = random_scores(5, n=10, r=3), random_scores(6, n=10, r=3)
    shuffled = two.iloc[::-1][["r2", "r0", "r1"]]  # rows and columns reordered, labels kept
    assert janson_olsson_iota([ann(one), ann(shuffled)]).value == pytest.approx(
        janson_olsson_iota([ann(one), ann(two)]).value, abs=1e-12)
    short = ann(two.iloc[:8])
    res = janson_olsson_iota([ann(one), short])
    assert res.excluded == {"not complete in every variable": 2} and res.n_items == 8
    other = two.rename(columns={"r2": "someone"})
    with pytest.raises(AgreementError, match="same annotators"):
        janson_olsson_iota([ann(one), ann(other)])


# ------------------------------------------------------------------- Maxwell
def test_maxwell_re_irr_example():
    # irr's maxwell example: median split of anxiety's raters 1 and 2
    r1 = (ANX.rater1 >= ANX.rater1.median()).astype(int)
    r2 = (ANX.rater2 >= ANX.rater2.median()).astype(int)
    agree = Fraction(int((r1 == r2).sum()), len(r1))
    res = maxwell_re(ann(pd.DataFrame({"r1": r1, "r2": r2})))
    assert res.value == pytest.approx(float(2 * agree - 1), abs=1e-15)  # Maxwell (1977)
    with pytest.raises(AgreementError, match="two categories"):
        maxwell_re(ann(ANX[["rater1", "rater2"]]))


# --------------------------------------------------------------- Light, Hubert
def test_light_kappa_irr_printed_and_sklearn():
    skm = pytest.importorskip("sklearn.metrics")
    res = light_kappa(ann(DIA))
    assert round(res.value, 3) == 0.459  # irr manual: kappam.light(diagnoses) 0.459
    kappas = [skm.cohen_kappa_score(DIA.iloc[:, a], DIA.iloc[:, b])
              for a, b in itertools.combinations(range(6), 2)]
    assert res.value == pytest.approx(np.mean(kappas), abs=1e-12)
    assert list(res.params["pairs"].values()) == pytest.approx(kappas, abs=1e-12)


def test_light_kappa_weighted_and_jackknife():
    skm = pytest.importorskip("sklearn.metrics")
    df = random_scores(7, n=15, r=3)
    res = light_kappa(ann(df), weights="quadratic")
    kappas = [skm.cohen_kappa_score(df.iloc[:, a], df.iloc[:, b], weights="quadratic",
                                    labels=[1, 2, 3, 4, 5])
              for a, b in itertools.combinations(range(3), 2)]
    assert res.value == pytest.approx(np.mean(kappas), abs=1e-12)
    # jackknife standard error by leaving each item out and recomputing
    loo = [light_kappa(Annotations.from_wide(df.drop(index=i), categories=[1, 2, 3, 4, 5]),
                       weights="quadratic").value for i in df.index]
    n = len(loo)
    assert res.se == pytest.approx(math.sqrt((n - 1) / n * np.sum((loo - np.mean(loo)) ** 2)),
                                   abs=1e-12)


def test_hubert_kappa_is_dkpro_formula_in_fractions():
    # DKPro Agreement HubertKappaAgreement: A_e = 2 Σ_c Σ_{m<n} n_mc n_nc / (r(r−1) N²);
    # A_o the mean per-item share of agreeing rater pairs
    codes = DIA.to_numpy()
    n, r = codes.shape
    a_e = 2 * sum(Fraction(int((codes[:, m] == c).sum() * (codes[:, q] == c).sum()))
                  for c in range(1, 6) for m in range(r) for q in range(m + 1, r))
    a_e /= r * (r - 1) * n * n
    a_o = sum(Fraction(sum(int(row[a] == row[b]) for a in range(r) for b in range(r) if a != b),
                       r * (r - 1)) for row in codes) / n
    res = hubert_kappa(ann(DIA))
    assert res.value == pytest.approx(float((a_o - a_e) / (1 - a_e)), abs=1e-14)
    assert res.measure == "hubert_kappa"
    with pytest.raises(AgreementError, match="complete data"):
        hubert_kappa(ann(DIA), missing="available")


# ---------------------------------------------------------------------- κ_max
def _tables_with_margins(r1, r2):
    """Every 2-rater table with the given label lists as margins: all pairings."""
    seen = set()
    for perm in set(itertools.permutations(r2)):
        key = tuple(sorted(zip(r1, perm)))
        if key not in seen:
            seen.add(key)
            yield key


def test_kappa_max_brute_force():
    r1 = [1, 1, 2, 2, 2, 3, 3]
    r2 = [1, 2, 2, 3, 3, 3, 3]
    data = ann(pd.DataFrame({"a": r1, "b": r2}))
    n = len(r1)
    row = {c: Fraction(r1.count(c), n) for c in (1, 2, 3)}
    col = {c: Fraction(r2.count(c), n) for c in (1, 2, 3)}
    for weights, w in ((None, lambda i, j: int(i == j)),
                       ("quadratic", lambda i, j: 1 - Fraction((i - j) ** 2, 4)),
                       ("linear", lambda i, j: 1 - Fraction(abs(i - j), 2))):
        a_e = sum(w(i, j) * row[i] * col[j] for i in row for j in col)
        best = max(sum(w(i, j) for i, j in t) for t in _tables_with_margins(r1, r2)) / n
        res = kappa_max(data, weights=weights)
        assert res.observed == pytest.approx(float(best), abs=1e-9)
        assert res.value == pytest.approx(float((best - a_e) / (1 - a_e)), abs=1e-9)
    # unweighted: Σ_c min(p_c·, p_·c) (Cohen 1960)
    assert kappa_max(data).observed == pytest.approx(
        float(sum(min(row[c], col[c]) for c in row)), abs=1e-15)


# ------------------------------------------------------------- Statistics
CASES = [
    (tolerance_agreement, ANX, {"tolerance": 1}),
    (tolerance_agreement, ANX, {"tolerance": 1, "rule": "pairs"}),
    (mean_pearson_r, ANX, {}),
    (finn_coefficient, ANX, {"levels": 6}),
    (finn_coefficient, ANX, {"levels": 6, "model": "twoway"}),
    (robinson_a, ANX, {}),
    (janson_olsson_iota, ANX, {}),
    (janson_olsson_iota, DIA, {"scale": "nominal"}),
    (light_kappa, DIA, {}),
    (hubert_kappa, DIA, {}),
    (kappa_max, ANX[["rater1", "rater2"]], {}),
    (kappa_max, ANX[["rater1", "rater2"]], {"weights": "quadratic"}),
    (maxwell_re, (ANX[["rater1", "rater2"]] > 3).astype(int), {}),
]


@pytest.mark.parametrize("fn,df,kw", CASES)
def test_statistic_equals_recomputation_on_a_resample(fn, df, kw):
    data = ann(df)
    stat = fn.statistic(data, **kw)
    rng = np.random.default_rng(0)
    draw = rng.integers(0, len(df), len(df))
    w = np.bincount(draw, minlength=len(df)).astype(float)
    resampled = df.iloc[draw].reset_index(drop=True)
    cats = list(data.categories)
    expected = fn(Annotations.from_wide(resampled, categories=cats), **kw).value
    assert stat.values(w[None])[0] == pytest.approx(expected, abs=1e-12)
    assert stat.values(np.ones((1, len(df))))[0] == pytest.approx(fn(data, **kw).value,
                                                                  abs=1e-12)


def test_bootstrap_runs_on_each_family():
    for fn, df, kw in CASES[:3] + CASES[8:9]:
        res = bootstrap(ann(df), fn, n_resamples=50, seed=1, interval="bca", **kw)
        assert res.ci[0] <= res.estimate <= res.ci[1]
    res = bootstrap(ann(ANX), mean_spearman_rho, n_resamples=20, seed=1)  # no Statistic
    assert res.n_resamples == 20


# ------------------------------------------------------------ edges and inputs
def test_reductions_to_known_coefficients():
    from iaa_widgets.measures.categorical.classic import cohen_kappa, percent_agreement
    df = random_scores(11, n=20, r=3)
    # pairs rule with t = 0 is Fleiss' A'_o, percent_agreement's value
    assert tolerance_agreement(ann(df), rule="pairs").value == pytest.approx(
        percent_agreement(ann(df)).value, abs=1e-14)
    # Light's κ of two annotators is their Cohen's κ
    two = ann(df[["r0", "r1"]])
    assert light_kappa(two).value == pytest.approx(cohen_kappa(two).value, abs=1e-14)


def test_light_kappa_listwise_counts_exclusions():
    df = random_scores(12, n=12, r=3).astype(float)
    df.iloc[0, 2] = np.nan
    long = df.reset_index().melt(id_vars="index", var_name="annotator", value_name="label")
    data = Annotations.from_long(long.dropna().rename(columns={"index": "item"}))
    res = light_kappa(data)
    assert res.excluded == {"rated by fewer than all 3 annotators": 1} and res.n_items == 11
    full = light_kappa(Annotations.from_wide(df.iloc[1:].astype(int), categories=[1, 2, 3, 4, 5]))
    assert res.value == pytest.approx(full.value, abs=1e-14)
    with pytest.raises(AgreementError, match="missing"):
        light_kappa(data, missing="available")


def test_contingency_input_for_two_annotator_measures():
    t = np.array([[20, 5], [3, 12]])
    data = Annotations.from_contingency(t, categories=[0, 1])
    # Maxwell (1977): RE = (a + d − b − c)/n
    assert maxwell_re(data).value == pytest.approx((20 + 12 - 5 - 3) / 40, abs=1e-15)
    # κ_max: A_max = min(25, 23)/40 + min(15, 17)/40 (Cohen 1960)
    a_e = (25 * 23 + 15 * 17) / 40 ** 2
    assert kappa_max(data).value == pytest.approx(((23 + 15) / 40 - a_e) / (1 - a_e), abs=1e-14)


def test_bad_inputs_are_named():
    with pytest.raises(AgreementError, match="levels"):
        finn_coefficient(ann(ANX), levels=1)
    with pytest.raises(AgreementError, match="model"):
        finn_coefficient(ann(ANX), levels=6, model="threeway")
    with pytest.raises(AgreementError, match="annotators=\\(a, b\\)"):
        kappa_max(ann(ANX))
    with pytest.raises(AgreementError, match="tolerance"):
        tolerance_agreement(ann(ANX), tolerance=-1)
    with pytest.raises(AgreementError, match="standardize"):
        janson_olsson_iota(ann(DIA), scale="nominal", standardize=True)
    text = pd.DataFrame({"a": ["x", "y", "z", "x"], "b": ["y", "y", "z", "x"]})
    for fn in (mean_pearson_r, robinson_a):
        with pytest.raises(AgreementError, match="order"):
            fn(ann(text))


def test_finn_refuses_too_few_levels_and_robinson_degenerate():
    with pytest.raises(AgreementError, match="levels=5"):
        finn_coefficient(ann(ANX), levels=5)  # anxiety's scores run 1 … 6
    same = pd.DataFrame({"a": [1, 2, 3], "b": [1, 2, 3]})  # no residual, no raters
    assert robinson_a(ann(same)).value == 1.0
    flat = pd.DataFrame({"a": [2, 2, 2], "b": [2, 2, 2]})
    res = robinson_a(ann(flat))
    assert math.isnan(res.value) and "0/0" in res.note


def test_tolerance_on_anonymous_counts():
    x = VID.to_numpy()
    counts = pd.DataFrame([[int((row == v).sum()) for v in (2, 3, 4, 5)] for row in x],
                          columns=[2, 3, 4, 5])
    data = Annotations.from_counts(counts)
    assert tolerance_agreement(data, tolerance=1).value == pytest.approx(0.90, abs=1e-15)


def test_light_kappa_zero_jackknife_se_is_noted():
    # three annotators who disagree on every item in a rotation: every κ_p = −1/4 and
    # leaving any item out keeps the marginals' shares equal, so κ_(i) is constant
    codes = np.tile(np.arange(1, 6), 8)
    df = pd.DataFrame({"a": codes, "b": np.roll(codes, 1), "c": np.roll(codes, 2)})
    res = light_kappa(ann(df))
    assert res.value == pytest.approx(-0.25, abs=1e-14)
    assert res.se < 1e-12
    assert math.isnan(res.params["z"]) and "standard error is 0" in res.note


def test_iota_janson_olsson_table1_photo():
    # irr's iota help page: "Example from Janson & Olsson (2001), Table 1": 5 persons,
    # 3 raters, weight and height estimated from photographs. No printed ι was found to
    # quote, so the check is the distance definition computed by loops (see above).
    weight = pd.DataFrame({"r1": [71, 73, 86, 59, 71], "r2": [74, 80, 101, 62, 83],
                           "r3": [76, 80, 93, 66, 77]})
    height = pd.DataFrame({"r1": [166, 160, 187, 161, 172], "r2": [171, 170, 174, 163, 182],
                           "r3": [171, 165, 185, 162, 181]})
    raw = [weight.to_numpy(float), height.to_numpy(float)]
    res = janson_olsson_iota([ann(weight), ann(height)])
    assert res.value == pytest.approx(_iota_by_distances(raw), abs=1e-12)
    z = [(v - v.mean()) / v.std(ddof=1) for v in raw]
    assert janson_olsson_iota([ann(weight), ann(height)], standardize=True).value == \
        pytest.approx(_iota_by_distances(z), abs=1e-12)


def test_all_pairs_perfect():
    df = pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [1, 2, 3, 4, 5]})
    res = mean_pearson_r(ann(df))
    assert math.isnan(res.value) and "no pair is left" in res.note
    assert mean_pearson_r(ann(df), fisher=False).value == pytest.approx(1.0)


# ------------------------------------------------ continuous ratings at scale
def test_anova_family_takes_continuous_ratings_without_a_category_table(monkeypatch):
    # Continuous ratings make one category per distinct value, so an items × categories
    # table grows as items × ratings. The ANOVA core (measures/_anova.py) keeps ratings in
    # long form: with the dense-table limit shrunk far below items × categories, Finn,
    # Robinson, ι, the ICC and the mean correlations still run (a measure that does need
    # that table is refused, which shows the limit bites), and their values equal the
    # textbook sums of squares of the n × r grid computed here with numpy.
    from iaa_widgets.measures.categorical.classic import fleiss_kappa
    from iaa_widgets.measures.continuous.icc import icc
    from iaa_widgets.stats import tables
    rng = np.random.default_rng(21)
    n, r = 600, 5
    x = np.round(4 + rng.normal(0, 1, (n, 1)) + rng.normal(0, 0.6, (n, r)), 4).clip(1, 7)
    data = ann(pd.DataFrame(x, columns=[f"r{j}" for j in range(r)]))
    assert n * data.n_categories > 1_000_000
    monkeypatch.setattr(tables, "MAX_CELLS", 20_000)
    with pytest.raises(AgreementError, match="dense"):
        fleiss_kappa(data)
    # two-way ANOVA by hand (Searle 1971): SS between items, raters, residual
    g = x.mean()
    ss_items = r * np.sum((x.mean(axis=1) - g) ** 2)
    ss_raters = n * np.sum((x.mean(axis=0) - g) ** 2)
    ss_within = np.sum((x - x.mean(axis=1, keepdims=True)) ** 2)
    ss_res = ss_within - ss_raters
    assert robinson_a(data).value == pytest.approx(ss_items / (ss_items + ss_res), abs=1e-12)
    ms_exp = (7 ** 2 - 1) / 12
    assert finn_coefficient(data, levels=7).value == pytest.approx(
        1 - ss_within / (n * (r - 1)) / ms_exp, abs=1e-12)
    assert finn_coefficient(data, levels=7, model="twoway").value == pytest.approx(
        1 - ss_res / ((n - 1) * (r - 1)) / ms_exp, abs=1e-12)
    ss_total = np.sum((x - g) ** 2)  # ι for one variable (Janson & Olsson 2001)
    assert janson_olsson_iota(data).value == pytest.approx(
        1 - r * ss_within / ((r - 1) * ss_total + ss_raters), abs=1e-12)
    msr, mse = ss_items / (n - 1), ss_res / ((n - 1) * (r - 1))
    assert icc(data, type="consistency").value == pytest.approx(
        (msr - mse) / (msr + (r - 1) * mse), abs=1e-12)  # ICC(C,1), McGraw & Wong (1996)
    corr = np.corrcoef(x.T)[np.triu_indices(r, 1)]
    assert mean_pearson_r(data, fisher=False).value == pytest.approx(corr.mean(), abs=1e-12)
    # tolerance: irr's range rule and the pairs rule, by hand over the grid
    spread = x.max(axis=1) - x.min(axis=1)
    assert tolerance_agreement(data, tolerance=0.5).value == pytest.approx(
        np.mean(spread <= 0.5 + 7e-12), abs=1e-15)
    near = np.abs(x[:, :, None] - x[:, None, :]) <= 0.5
    pairs = (near.sum(axis=(1, 2)) - r) / (r * (r - 1))
    assert tolerance_agreement(data, tolerance=0.5, rule="pairs").value == pytest.approx(
        pairs.mean(), abs=1e-14)
