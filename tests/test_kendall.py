"""Kendall's W against R's printed output (irr / DescTools on irr's anxiety data), scipy's
tie-corrected Friedman χ² (W = χ²_F / (m(n − 1))), brute-force ranks (scipy.stats.rankdata)
and pingouin's two-way ANOVA F on the ranks (F = (m − 1)W/(1 − W) for untied rankings);
W for incomplete rankings (Brueckl 2011, R's irrNA::kendallNA) against a pair-by-pair
brute force of its published formula and the documented properties of irrNA's examples."""
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2, friedmanchisquare, rankdata

from iaa_widgets.errors import AgreementError
from iaa_widgets.measures.continuous.kendall import kendall_w

sys.path.insert(0, str(Path(__file__).parent))
import irr_datasets  # noqa: E402
from irr_datasets import long_form  # noqa: E402

# irr's anxiety data (R package irr 0.84.1): 20 subjects × 3 raters, as printed in the
# example of DescTools::KendallW (https://andrisignorell.github.io/DescTools/reference/KendallW.html)
ANXIETY = irr_datasets.matrix(irr_datasets.ANXIETY)


def test_anxiety_matches_r_printed():
    # DescTools' KendallW(anxiety, TRUE) prints 0.5396569 (irr::kendall(anxiety, TRUE)
    # "without logical changes", per DescTools' note)
    r = kendall_w(long_form(ANXIETY))
    assert r.value == pytest.approx(0.5396569, abs=5e-8)
    assert r.params["df"] == 19
    assert r.params["chi2"] == pytest.approx(3 * 19 * r.value, rel=1e-12)


def test_desctools_printed_test():
    # DescTools' KendallW(ratings, test=TRUE) on 6 subjects × 3 raters (R output printed
    # in a public R Markdown tutorial): Kendall chi-squared = 8.5238, df = 5,
    # p-value = 0.1296, W = 0.568254 (no ties: corrected or not, the same)
    ratings = np.array([[1, 6, 3, 2, 5, 4], [1, 5, 6, 2, 4, 3], [2, 3, 6, 5, 4, 1]]).T
    r = kendall_w(long_form(ratings))
    assert round(r.value, 6) == 0.568254
    assert round(r.params["chi2"], 4) == 8.5238 and r.params["df"] == 5
    assert round(r.params["p_value"], 4) == 0.1296


@pytest.mark.parametrize("seed,n,m,levels", [(0, 20, 3, 6), (1, 50, 7, 5), (2, 9, 12, 100),
                                              (3, 30, 4, 3)])
def test_tie_corrected_w_is_friedman(seed, n, m, levels):
    grid = np.random.default_rng(seed).integers(0, levels, (n, m))
    r = kendall_w(long_form(grid))
    # scipy: each item is a "treatment" measured in m blocks (the judges), tie-corrected
    ref = friedmanchisquare(*grid)
    assert r.params["chi2"] == pytest.approx(ref.statistic, rel=1e-10)
    assert r.value == pytest.approx(ref.statistic / (m * (n - 1)), rel=1e-10)
    assert r.params["p_value"] == pytest.approx(ref.pvalue, rel=1e-8)


def test_anxiety_friedman_and_p_value():
    ref = friedmanchisquare(*ANXIETY)
    r = kendall_w(long_form(ANXIETY))
    assert r.params["chi2"] == pytest.approx(ref.statistic, rel=1e-12)
    assert r.params["p_value"] == pytest.approx(chi2.sf(ref.statistic, 19), rel=1e-12)


def test_uncorrected_w_by_brute_force_ranks():
    grid = np.random.default_rng(4).integers(0, 5, (15, 4))
    ranks = np.column_stack([rankdata(grid[:, j]) for j in range(4)])  # mid-ranks per judge
    n, m = grid.shape
    s = np.sum((ranks.sum(axis=1) - m * (n + 1) / 2) ** 2)
    w = 12 * s / (m * m * (n ** 3 - n))  # Kendall (1948), no tie term
    r = kendall_w(long_form(grid), correct=False)
    assert r.value == pytest.approx(w, rel=1e-12)
    assert "not corrected" in r.note
    assert kendall_w(long_form(grid)).value > r.value  # the correction raises W


def test_f_test_is_anova_on_ranks_for_untied_rankings():
    pg = pytest.importorskip("pingouin")
    rng = np.random.default_rng(5)
    n, m = 10, 4
    grid = np.column_stack([rng.permutation(n) + 1 for _ in range(m)])  # no ties
    r = kendall_w(long_form(grid))
    ref = pg.intraclass_corr(long_form(grid), targets="item", raters="annotator",
                             ratings="label")
    f_ranks = ref["F"].iloc[2]  # two-way MS_items / MS_error on the ranks
    assert r.params["F"] == pytest.approx(f_ranks, rel=1e-9)
    # Kendall's (1948) df: n − 1 − 2/m and (m − 1)(n − 1 − 2/m)
    assert r.params["df1"] == pytest.approx(n - 1 - 2 / m)
    assert r.params["df2"] == pytest.approx((m - 1) * (n - 1 - 2 / m))


def test_perfect_concordance_and_reversal():
    ranks = np.tile(np.arange(1, 8)[:, None], (1, 5))
    r = kendall_w(long_form(ranks))
    assert r.value == pytest.approx(1.0) and r.params["F"] == float("inf")
    two = np.column_stack([np.arange(8), np.arange(8)[::-1]])  # two judges, opposite
    assert kendall_w(long_form(two)).value == pytest.approx(0.0, abs=1e-12)


def test_labels_need_a_declared_order():
    text = pd.DataFrame({"item": [0, 0, 1, 1, 2, 2], "annotator": ["a", "b"] * 3,
                         "label": ["low", "high", "mid", "mid", "high", "low"]})
    with pytest.raises(AgreementError, match="order"):
        kendall_w(text)
    order = ["low", "mid", "high"]
    cat = text.assign(label=pd.Categorical(text["label"], categories=order, ordered=True))
    coded = text.assign(label=text["label"].map({c: i for i, c in enumerate(order)}))
    assert kendall_w(cat).value == pytest.approx(kendall_w(coded).value, abs=1e-12)


def test_missing_policies():
    grid = np.random.default_rng(6).integers(0, 9, (12, 3)).astype(float)
    grid[[2, 5], [0, 1]] = np.nan
    r = kendall_w(long_form(grid))
    kept = np.delete(grid, [2, 5], axis=0)
    assert r.value == pytest.approx(friedmanchisquare(*kept).statistic / (3 * 9), rel=1e-10)
    assert r.excluded == {"ranked by fewer than all 3 judges": 2} and r.n_items == 10
    with pytest.raises(AgreementError, match="lack a rank"):
        kendall_w(long_form(grid), missing="raise")
    with pytest.raises(AgreementError, match="correct=False"):
        kendall_w(long_form(grid), missing="available", correct=False)


# ------------------------------------------------ incomplete rankings (Brueckl 2011)
# The example data of R's irrNA (0.2.x, data/ConsistNA.rda, IndepNA.rda, IndepW.rda,
# read with pyreadr from the CRAN sources): 6 objects × 6 raters, NaN missing.
N = np.nan
CONSIST_NA = [[1, 3, 5, N, N, N], [2, 4, 6, N, N, N], [3, 5, 7, N, N, N],
              [N, N, N, 5, 3, 1], [N, N, N, 6, 4, 2], [N, N, N, 7, 5, 3]]
INDEP_NA = [[1, 2, 3, 4, 5, N], [2, 3, 4, 5, N, 1], [3, 4, 5, N, 1, 2],
            [4, 5, N, 1, 2, 3], [5, N, 1, 2, 3, 4], [N, 1, 2, 3, 4, 5]]
INDEP_W = [[1, 3, 7, N, N, N], [2, 4, 6, N, N, N], [3, 5, 5, N, N, N],
           [N, N, N, 5, 3, 1], [N, N, N, 5, 4, 2], [N, N, N, 5, 5, 3]]


def brueckl_brute_force(grid):
    """irrNA::kendallNA's published formula, pair by pair with scipy: ρ_ab Spearman over
    the items both judges ranked (NaN → 0), weights max(n_ab − 1, 0) (Taylor 1987),
    k̄ the mean number of ranks per item, W = (1 + (k̄ − 1) ρ̄)/k̄ (Kendall 1962)."""
    from scipy.stats import spearmanr
    x = np.asarray(grid, dtype=float)
    x = x[:, (~np.isnan(x)).sum(axis=0) > 1]  # judges with fewer than two ranks dropped
    x = x[(~np.isnan(x)).any(axis=1)]         # items nobody (left) ranked: excluded
    num = den = 0.0
    for a in range(x.shape[1]):
        for b in range(a + 1, x.shape[1]):
            ok = ~np.isnan(x[:, a]) & ~np.isnan(x[:, b])
            rho = np.nan
            if ok.sum() > 1 and np.ptp(x[ok, a]) > 0 and np.ptp(x[ok, b]) > 0:
                rho = spearmanr(x[ok, a], x[ok, b]).statistic
            w = max(int(ok.sum()) - 1, 0)
            num, den = num + w * (0.0 if np.isnan(rho) else rho), den + w
    k_bar = (~np.isnan(x)).sum(axis=1).mean()
    rho_bar = num / den
    return (1 + (k_bar - 1) * rho_bar) / k_bar, rho_bar, k_bar, len(x)


def test_available_reproduces_irrna_documented_examples():
    # irrNA's documentation of kendallNA: ConsistNA "exhibits missing values and a perfect
    # concordance between raters" (W = 1); IndepW "exhibits missing values and a mean
    # Spearman's rho, that equals zero" (so W = 1/k̄ = 1/3, χ² = k̄(N − 1)W = 5 on 5 df).
    # No printed output of kendallNA was found; IndepNA is checked by brute force.
    r = kendall_w(long_form(CONSIST_NA), missing="available")
    assert r.value == pytest.approx(1.0, abs=1e-15) and r.params["mean_rho"] == 1.0
    assert r.params["mean_judges"] == 3.0 and r.params["chi2"] == pytest.approx(15.0)
    r = kendall_w(long_form(INDEP_W), missing="available")
    assert r.params["mean_rho"] == pytest.approx(0.0, abs=1e-15)
    assert r.value == pytest.approx(1 / 3, abs=1e-15)
    assert r.params["chi2"] == pytest.approx(5.0) and r.params["df"] == 5
    assert r.params["p_value"] == pytest.approx(chi2.sf(5.0, 5), rel=1e-12)
    r = kendall_w(long_form(INDEP_NA), missing="available")
    w, rho, k_bar, n = brueckl_brute_force(INDEP_NA)
    assert r.value == pytest.approx(w, abs=1e-12) and r.params["mean_rho"] == \
        pytest.approx(rho, abs=1e-12) and r.params["mean_judges"] == k_bar == 5


@pytest.mark.parametrize("seed", range(6))
def test_available_equals_brute_force_of_the_published_formula(seed):
    # random incomplete rankings with ties (few levels), a judge with one rank (left
    # out), a judge who gives one level only (ρ undefined → 0, weight kept), an item
    # nobody ranks (excluded), pairs sharing 0 or 1 items (weight 0)
    rng = np.random.default_rng(seed)
    n, m = 30, 6
    grid = rng.integers(1, 6, (n, m)).astype(float)
    grid[rng.random((n, m)) < 0.35] = np.nan
    grid[:, 4] = np.nan
    grid[~np.isnan(grid[:, 5]), 5] = 3.0  # judge j5: the same level everywhere
    grid[7] = np.nan
    grid[7, 4] = 2.0  # judge j4: one rank only (left out), item 7: by j4 only (excluded)
    r = kendall_w(long_form(grid), missing="available")
    w, rho, k_bar, n_used = brueckl_brute_force(grid)
    assert r.value == pytest.approx(w, abs=1e-12)
    assert r.params["mean_rho"] == pytest.approx(rho, abs=1e-12)
    assert r.params["mean_judges"] == pytest.approx(k_bar, abs=1e-12)
    assert r.n_items == n_used and r.params["df"] == n_used - 1
    assert r.params["judges_left_out"] == ["r4"] and r.n_annotators == 5
    assert r.excluded == {"not rated": 1}


def test_available_on_complete_data_is_kendalls_w():
    # Kendall (1962): on complete rankings without ties ρ̄ = (mW − 1)/(m − 1), so
    # Brueckl's W is Kendall's W (corrected or not: no ties to correct)
    rng = np.random.default_rng(3)
    ranks = np.argsort(rng.random((4, 15)) + np.linspace(0, 1.5, 15), axis=1).T + 1.0
    full = kendall_w(long_form(ranks))
    assert kendall_w(long_form(ranks), missing="available").value == \
        pytest.approx(full.value, abs=1e-13)
    assert full.value == pytest.approx(kendall_w(long_form(ranks), correct=False).value)
    # with ties it is (1 + (m − 1) ρ̄)/m over the tie-corrected pairwise ρ (scipy), which
    # differs from the tie-corrected W (as the irrNA documentation says)
    from scipy.stats import spearmanr
    tied = np.asarray(ANXIETY, dtype=float)
    rho = spearmanr(tied).statistic[np.triu_indices(3, 1)].mean()
    r = kendall_w(long_form(tied), missing="available")
    assert r.value == pytest.approx((1 + 2 * rho) / 3, abs=1e-13)
    # anxiety: 0.540000 here against the tie-corrected 0.5396569 R prints (see above)
    assert abs(r.value - kendall_w(long_form(tied)).value) > 3e-4


def test_available_undefined_without_a_shared_pair():
    # every pair of judges shares at most one item: no weight, ρ̄ and W are NaN
    grid = [[1, 2, N], [N, 1, 2], [2, N, 1]]
    r = kendall_w(long_form(grid), missing="available")
    assert np.isnan(r.value) and "undefined" in r.note


def test_all_tied_is_nan_with_note():
    r = kendall_w(long_form(np.ones((5, 3))))
    assert np.isnan(r.value) and "0/0" in r.note
