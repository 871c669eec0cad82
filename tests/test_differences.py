"""Where R's irr and psych print another number than we do, and why (issue 21).

Each test pins our value with the source of the right one (the krippendorff package,
statsmodels, the published formula), and reproduces the other program's number with a
small re-implementation of ITS formula, written here from its R source (irr 0.84.1,
github.com/cran/irr; psych, github.com/cran/psych) and clearly labelled: that code is
a model of the other program, never used by iaa_widgets.
"""
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from irr_datasets import ANXIETY, DIAGNOSES, wide  # noqa: E402

from iaa_widgets.data import Annotations  # noqa: E402
from iaa_widgets.measures import _formulas as F  # noqa: E402
from iaa_widgets.measures.continuous.alpha import krippendorff_alpha  # noqa: E402
from iaa_widgets.measures.categorical.classic import cohen_kappa  # noqa: E402
from iaa_widgets.measures.continuous.correlation import mean_pearson_r  # noqa: E402
from iaa_widgets.measures.continuous.anova import finn_coefficient  # noqa: E402
from iaa_widgets.measures.categorical.light import light_kappa  # noqa: E402


# --------------------------------------------------- irr::kripp.alpha, complete data
def r_irr_kripp_alpha_nominal(units_by_raters: np.ndarray) -> float:
    """REPRODUCES R's irr::kripp.alpha (0.84.1, R/kripp.alpha.R), nominal: each pair of
    values in a unit adds (1 + [same]) / mc to the coincidences, mc = m_u − 1 when the
    matrix holds an NA and 1 otherwise (the bug), then
    α = 1 − (n.. − 1) Σ_{c<k} o_ck / Σ_{c<k} n_c n_k."""
    x = units_by_raters
    levels = np.unique(x[~np.isnan(x)])
    k = len(levels)
    cm = np.zeros((k, k))
    has_na = np.isnan(x).any()
    for unit in x:
        vals = unit[~np.isnan(unit)]
        mc = len(vals) - 1 if has_na else 1
        for i1 in range(len(vals) - 1):
            for i2 in range(i1 + 1, len(vals)):
                a, b = np.searchsorted(levels, vals[i1]), np.searchsorted(levels, vals[i2])
                cm[a, b] += (1 + (a == b)) / mc
                if a != b:
                    cm[b, a] = cm[a, b]
    nc = cm.sum(axis=1)
    iu = np.triu_indices(k, 1)
    return 1 - (cm.sum() - 1) * cm[iu].sum() / np.outer(nc, nc)[iu].sum()


def test_kripp_alpha_complete_data_three_raters():
    krippendorff = pytest.importorskip("krippendorff")
    df = wide(ANXIETY)  # irr's own anxiety data: 20 subjects, 3 raters, nominal
    ours = krippendorff_alpha(Annotations.from_wide(df), metric="nominal").value
    # right value: the krippendorff package (Castro) on the same data
    peer = krippendorff.alpha(reliability_data=df.to_numpy(float).T,
                              level_of_measurement="nominal")
    assert ours == pytest.approx(peer, abs=1e-12)
    assert round(ours, 4) == -0.0237  # the figure issue 21 quotes as correct
    # irr's value: −0.0324, as issue 21 quotes it
    irr = r_irr_kripp_alpha_nominal(df.to_numpy(float))
    assert round(irr, 4) == -0.0324
    # the model of irr agrees with the correct α as soon as one value is missing …
    holed = df.to_numpy(float).copy()
    holed[0, 0] = np.nan
    ours_holed = krippendorff.alpha(reliability_data=holed.T, level_of_measurement="nominal")
    assert r_irr_kripp_alpha_nominal(holed) == pytest.approx(ours_holed, abs=1e-12)
    # … and with two raters on complete data (m_u − 1 = 1): the bug needs m ≥ 3
    two = df.to_numpy(float)[:, :2]
    assert r_irr_kripp_alpha_nominal(two) == pytest.approx(
        krippendorff.alpha(reliability_data=two.T, level_of_measurement="nominal"), abs=1e-12)


def test_kripp_alpha_difference_is_the_scale_of_n():
    # With m raters on complete data irr's coincidences are (m − 1) × the right ones:
    # n.. grows m − 1 fold, so α_irr = 1 − (N(m − 1) − 1)/(m − 1) · D/E against
    # 1 − (N − 1) · D/E, N the number of values (Krippendorff 2011, eq. of α).
    df = wide(ANXIETY)
    ours = krippendorff_alpha(Annotations.from_wide(df), metric="nominal")
    n_values, m = df.size, df.shape[1]
    ratio = (1 - ours.value) / (n_values - 1)  # D_o/D_e
    irr = 1 - (n_values * (m - 1) - 1) / (m - 1) * ratio
    assert irr == pytest.approx(r_irr_kripp_alpha_nominal(df.to_numpy(float)), abs=1e-12)


# --------------------------------------------- irr::kappa2, weights, ≥ 10 levels
def r_irr_kappa2_levels(r1: np.ndarray, r2: np.ndarray) -> list:
    """REPRODUCES the level order of R's irr::kappa2 (0.84.1, R/kappa2.R) for numeric
    ratings: sort.levels is forced TRUE and the factor levels, which are strings, are
    sorted as strings: sort(c("1", "2", …, "10")) = "1" "10" "2" …"""
    lev = sorted({str(v) for v in r1} | {str(v) for v in r2})
    return [int(v) for v in lev]


def r_irr_kappa2_weighted(r1, r2, weight: str) -> float:
    """REPRODUCES R's irr::kappa2 weighted κ: weights 1 − (i − j)²/(k − 1)² ("squared") or
    1 − |i − j|/(k − 1) ("equal") by position in the level order above."""
    lev = r_irr_kappa2_levels(r1, r2)
    pos = {v: i for i, v in enumerate(lev)}
    k = len(lev)
    t = np.zeros((k, k))
    for a, b in zip(r1, r2):
        t[pos[a], pos[b]] += 1
    d = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) / (k - 1)
    w = 1 - (d ** 2 if weight == "squared" else d)
    p = t / t.sum()
    po, pc = (w * p).sum(), (w * np.outer(p.sum(1), p.sum(0))).sum()
    return (po - pc) / (1 - pc)


# ten levels 1 … 10, each used: two raters within one step of each other
R1 = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 2, 5, 9, 10, 1])
R2 = np.array([2, 2, 4, 4, 6, 6, 8, 8, 10, 9, 3, 4, 10, 10, 1])


def test_kappa2_sorts_ten_numeric_levels_as_strings():
    assert r_irr_kappa2_levels(R1, R2) == [1, 10, 2, 3, 4, 5, 6, 7, 8, 9]
    data = Annotations.from_wide(pd.DataFrame({"a": R1, "b": R2}))
    ours = cohen_kappa(data, weights="quadratic").value
    # right value: scikit-learn's quadratic κ (labels ordered as numbers)
    sklearn = pytest.importorskip("sklearn.metrics")
    peer = sklearn.cohen_kappa_score(R1, R2, weights="quadratic")
    assert ours == pytest.approx(peer, abs=1e-12)
    irr = r_irr_kappa2_weighted(R1, R2, "squared")
    assert irr < ours - 0.2  # 10 sits between 1 and 2: near misses become far ones
    assert round(ours, 4) == 0.9692 and round(irr, 4) == 0.2187  # both pinned
    # with nine levels or fewer string order is numeric order: irr agrees
    keep = (R1 < 10) & (R2 < 10)
    nine = Annotations.from_wide(pd.DataFrame({"a": R1[keep], "b": R2[keep]}))
    assert r_irr_kappa2_weighted(R1[keep], R2[keep], "squared") == pytest.approx(
        cohen_kappa(nine, weights="quadratic").value, abs=1e-12)


# ------------------------------------------- psych::cohen.kappa, weighted variance
FCE = np.array([[106, 10, 4], [22, 28, 10], [2, 12, 6]])  # Fleiss, Cohen & Everitt (1969)
FCE_W = np.array([[1, 0, .4444], [0, 1, .6667], [.4444, .6667, 1]])  # psych's man/kappa.Rd


def r_psych_var_weighted(t: np.ndarray, w: np.ndarray, row_weights: str) -> float:
    """REPRODUCES psych::cohen.kappa1's Varkw (R/kappa.R): (1/(n(1 − pc)⁴)) [Σ p_ij
    (w_ij(1 − pc) − (colw_i + roww_j)(1 − po))² − (po·pc − 2pc + po)²], colw =
    colSums(w * cs); roww = rowSums(w * rs) in psych 1.7.8 – 2.2.9 (the bug: rs_i Σ_j w_ij
    instead of Σ_i w_ij rs_i), colSums(w * rs) before and from 2.3.3 on."""
    n = t.sum()
    x = t / n
    rs, cs = x.sum(1), x.sum(0)
    po, pc = (w * x).sum(), (w * np.outer(rs, cs)).sum()
    colw = (w * cs[:, None]).sum(axis=0)
    ws = w * rs[:, None]
    roww = ws.sum(axis=1) if row_weights == "rowSums" else ws.sum(axis=0)
    inner = (x * (w * (1 - pc) - np.add.outer(colw, roww) * (1 - po)) ** 2).sum()
    return (inner - (po * pc - 2 * pc + po) ** 2) / (n * (1 - pc) ** 4)


def test_psych_weighted_kappa_variance():
    sm = pytest.importorskip("statsmodels.stats.inter_rater")
    cats = ["1", "2", "3"]
    data = Annotations.from_contingency(FCE, categories=cats)
    ours = cohen_kappa(data, weights=pd.DataFrame(FCE_W, index=cats, columns=cats))
    # right value: statsmodels (its 2-D weights are disagreement weights, 1 − w)
    peer = sm.cohens_kappa(FCE, weights=1 - FCE_W)
    assert ours.value == pytest.approx(peer.kappa, abs=1e-12)
    assert ours.se ** 2 == pytest.approx(peer.var_kappa, abs=1e-15)
    assert round(ours.se ** 2, 5) == 0.00325  # issue 21's correct figure
    assert round(r_psych_var_weighted(FCE, FCE_W, "rowSums"), 5) == 0.00275  # psych 2.2.9
    # psych from 2.3.3 on ("changed back following a report Ju, Yu-Jeng") agrees
    assert r_psych_var_weighted(FCE, FCE_W, "colSums") == pytest.approx(ours.se ** 2,
                                                                         abs=1e-15)
    assert F.cohen_se(FCE, FCE_W)[0] == pytest.approx(ours.se, abs=1e-15)


# ---------------------------------------------------- irr::meancor's z statistic
def test_meancor_z_uses_the_back_transformed_r():
    # irr::meancor(anxiety) prints R = 0.224, z = 0.922, p-value = 0.357 (irr manual,
    # print.irrlist example, rdrr.io). R's code: u = coeff / sqrt(1/(ns − 3)) with coeff
    # the back-transformed mean, i.e. r̄ √(n − 3); Fisher's (1921) statistic is
    # z̄ √(n − 3) with z̄ = atanh(r̄) the mean of the z's. Both are reported here.
    res = mean_pearson_r(Annotations.from_wide(wide(ANXIETY)))
    n = res.n_items
    assert round(res.value, 3) == 0.224
    irr_u = res.value * math.sqrt(n - 3)  # REPRODUCES irr's u
    assert round(irr_u, 3) == 0.922
    assert round(math.erfc(irr_u / math.sqrt(2)), 3) == 0.357
    assert res.params["z"] == pytest.approx(math.atanh(res.value) * math.sqrt(n - 3))
    assert round(res.params["z"], 4) == 0.9373


# --------------------------------------------- irr::finn two-way degrees of freedom
def test_finn_twoway_degrees_of_freedom():
    # irr::finn prints F(Inf, ns(nr − 1)) for both models (R/finn.R: df2 <- ns*(nr-1));
    # MS_e of the two-way model has (ns − 1)(nr − 1) degrees of freedom.
    data = Annotations.from_wide(wide(ANXIETY))
    one = finn_coefficient(data, levels=6)
    two = finn_coefficient(data, levels=6, model="twoway")
    assert one.params["df"] == (math.inf, 40)  # irr prints F(Inf,40) (print.irrlist)
    assert two.params["df"] == (math.inf, 38)


# ------------------------------------------------------ irr::kappam.light's z test
def r_irr_light_z(codes: np.ndarray, kappa: float) -> float:
    """REPRODUCES irr::kappam.light's z (R/kappam.light.R): per pair the count of
    discordant chance pairings Σ_{i≠j} n_ai n_bj = n²(1 − A_e,p), B = P · Π_p of those,
    chanceP = 1 − B / n^(2P), var = chanceP / (n(1 − chanceP)), z = κ / √var."""
    n, r = codes.shape
    levels = np.unique(codes)
    dis = []
    for a in range(r - 1):
        for b in range(a + 1, r):
            na = np.array([(codes[:, a] == v).sum() for v in levels], float)
            nb = np.array([(codes[:, b] == v).sum() for v in levels], float)
            dis.append(na.sum() * nb.sum() - na @ nb)
    chance = 1 - len(dis) * np.prod(np.array(dis) / n ** 2)
    return kappa / math.sqrt(chance / (n * (1 - chance)))


def test_light_z_differs_from_irr():
    codes = wide(DIAGNOSES).to_numpy()
    res = light_kappa(Annotations.from_wide(wide(DIAGNOSES)))
    # irr::kappam.light(diagnoses): Kappa = 0.459, z = 2.31, p-value = 0.0211 (irr manual)
    assert round(res.value, 3) == 0.459
    irr_z = r_irr_light_z(codes, res.value)
    assert round(irr_z, 2) == 2.31
    # For two raters irr's variance is Cohen's (1960) approximate null variance
    # A_e / (n(1 − A_e)); for more, the product over pairs has no source we could trace
    # (P · Π_p (1 − A_e,p) can exceed 1 and make the variance negative). Ours is a
    # jackknife standard error over items, pinned here.
    assert round(res.params["z"], 2) == 9.64
    two = codes[:, :2]
    t = pd.crosstab(two[:, 0], two[:, 1]).reindex(index=range(1, 6), columns=range(1, 6),
                                                  fill_value=0).to_numpy()
    a_e = float(F.cohen_expected(t))
    kappa2 = float(F.chance_corrected(F.table_observed(t), a_e))
    assert r_irr_light_z(two, kappa2) == pytest.approx(
        kappa2 / math.sqrt(a_e / (len(two) * (1 - a_e))), rel=1e-12)


def test_irr_light_variance_goes_negative():
    # three raters using five categories about evenly: A_e,p ≈ 0.2 for each pair, so
    # irr's chanceP = 1 − 3 · Π_p (1 − A_e,p) ≈ 1 − 3 · 0.8³ < 0 and its variance
    # chanceP / (n(1 − chanceP)) is negative: R's sqrt gives NaN (with a warning)
    codes = np.random.default_rng(1).integers(1, 6, (40, 3))
    n, r = codes.shape
    dis = [n * n - sum(int((codes[:, a] == v).sum()) * int((codes[:, b] == v).sum())
                       for v in range(1, 6)) for a, b in [(0, 1), (0, 2), (1, 2)]]
    chance = 1 - 3 * np.prod(np.array(dis) / n ** 2)
    assert chance < 0
    with np.errstate(invalid="ignore"):
        assert math.isnan(np.sqrt(chance / (n * (1 - chance))))
    res = light_kappa(Annotations.from_wide(pd.DataFrame(codes)))
    assert res.se > 0 and not math.isnan(res.params["z"])
