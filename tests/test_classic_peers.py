"""Randomised cross-checks of the classic coefficients against independent libraries
(test-only dependencies): statsmodels (cohens_kappa with its standard errors,
fleiss_kappa "fleiss" and "randolph"), scikit-learn (cohen_kappa_score), nltk
(AnnotationTask: S, pi, kappa, multi_kappa, avg_Ao) and irrCAC (Gwet's Fleiss, Conger
and Brennan–Prediger with missing ratings). Every expected number comes from the named
library; agreement is required within 1e-9.
"""
import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations, stats

SEEDS = range(25)
TOL = 1e-9


def ratings(seed, n_annotators=None, missing=0.0):
    """Random items × annotators labels: a hidden truth copied with noise, so the
    coefficients spread over [−1, 1]; -1 marks a missing rating. Every annotator
    uses at least two categories."""
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(8, 60)), int(rng.integers(2, 6))
    m = n_annotators or int(rng.integers(3, 7))
    truth = rng.integers(0, k, n)
    keep = rng.random((n, m)) < rng.uniform(0.2, 0.9)
    x = np.where(keep, truth[:, None], rng.integers(0, k, (n, m)))
    x[:2, :] = [[0], [1]]                  # two categories used by everyone
    if missing:
        hole = rng.random((n, m)) < missing
        hole[:2] = False
        x[hole] = -1
    return x, k


def wide(x):
    return pd.DataFrame(np.where(x >= 0, x, np.nan)).rename(columns=lambda c: f"r{c}")


def annotations(x, k):
    return Annotations.from_wide(wide(x), categories=list(range(k)))


def counts(x, k):
    return np.stack([(x == c).sum(axis=1) for c in range(k)], axis=1)


# ---------------------------------------------------------------- statsmodels
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_kappa_and_standard_errors_match_statsmodels(seed, weights):
    from statsmodels.stats.inter_rater import cohens_kappa
    x, k = ratings(seed, n_annotators=2, missing=0.1)
    ann = annotations(x, k)
    ours = iaa.cohen_kappa(ann, weights=weights)
    both = (x >= 0).all(axis=1)
    table = np.zeros((k, k))
    np.add.at(table, (x[both, 0], x[both, 1]), 1)
    theirs = cohens_kappa(table, wt=weights)     # wt=None: unweighted
    assert ours.value == pytest.approx(theirs.kappa, abs=TOL)
    # variances first: at perfect agreement the variance is 0 up to round-off, which
    # statsmodels turns into NaN (sqrt of −1e-16) and we clip at 0
    assert ours.se ** 2 == pytest.approx(max(theirs.var_kappa, 0.0), abs=TOL)
    assert ours.params["se_null"] ** 2 == pytest.approx(theirs.var_kappa0, abs=TOL)
    if theirs.var_kappa > 1e-6:
        assert ours.se == pytest.approx(theirs.std_kappa, abs=TOL)
        assert ours.params["se_null"] == pytest.approx(theirs.std_kappa0, abs=TOL)
    assert ours.n_items == both.sum()
    # an item with no rating at all never enters the data; one with a single rating is
    # excluded and counted
    one = (x >= 0).sum(axis=1) == 1
    assert ours.excluded.get("rated by one annotator only", 0) == one.sum()


@pytest.mark.parametrize("seed", SEEDS)
def test_fleiss_and_randolph_match_statsmodels(seed):
    from statsmodels.stats.inter_rater import fleiss_kappa
    x, k = ratings(seed)
    table = counts(x, k)
    for data in (annotations(x, k), Annotations.from_counts(table)):
        assert iaa.fleiss_kappa(data).value == pytest.approx(
            fleiss_kappa(table, method="fleiss"), abs=TOL)
        # Randolph's free-marginal κ = Bennett's S with Fleiss' multi-rater A'_o
        assert iaa.bennett_s(data).value == pytest.approx(
            fleiss_kappa(table, method="randolph"), abs=TOL)


# --------------------------------------------------------------- scikit-learn
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_kappa_matches_scikit_learn(seed, weights):
    from sklearn.metrics import cohen_kappa_score
    x, k = ratings(seed, n_annotators=2, missing=0.15)
    both = (x >= 0).all(axis=1)
    theirs = cohen_kappa_score(x[both, 0], x[both, 1], weights=weights, labels=list(range(k)))
    assert iaa.cohen_kappa(annotations(x, k), weights=weights).value == pytest.approx(
        theirs, abs=TOL)


def test_weight_matrix_equals_named_weights():
    # a user matrix equal to the quadratic agreement weights gives the same κ_w (sklearn)
    from sklearn.metrics import cohen_kappa_score
    x, k = ratings(3, n_annotators=2)
    i = np.arange(k)
    w = 1 - (i[:, None] - i) ** 2 / (k - 1) ** 2
    ours = iaa.cohen_kappa(annotations(x, k), weights=w)
    assert ours.params["weights"] == "matrix"
    assert ours.value == pytest.approx(
        cohen_kappa_score(x[:, 0], x[:, 1], weights="quadratic", labels=list(i)), abs=TOL)


# ----------------------------------------------------------------------- nltk
@pytest.mark.parametrize("seed", SEEDS)
def test_multi_rater_coefficients_match_nltk(seed):
    from nltk.metrics.agreement import AnnotationTask
    x, k = ratings(seed)
    ann = annotations(x, k)
    n, m = x.shape
    task = AnnotationTask(data=[(f"r{j}", str(i), int(x[i, j]))
                                for i in range(n) for j in range(m)])
    used_k = len(np.unique(x))
    assert iaa.percent_agreement(ann).value == pytest.approx(task.avg_Ao(), abs=TOL)
    # nltk's S takes k = the labels that occur; declare exactly those categories
    occurring = Annotations.from_wide(wide(x))
    assert occurring.n_categories == used_k
    assert iaa.bennett_s(occurring).value == pytest.approx(task.S(), abs=TOL)
    assert iaa.fleiss_kappa(ann).value == pytest.approx(task.pi(), abs=TOL)
    assert iaa.davies_fleiss_kappa(ann).value == pytest.approx(task.multi_kappa(), abs=TOL)
    # nltk's kappa averages Cohen's κ over coder pairs: the mean of our pairwise matrix
    matrix = iaa.pairwise(ann, "cohen_kappa").to_numpy()
    assert matrix[np.triu_indices(m, 1)].mean() == pytest.approx(task.kappa(), abs=TOL)


@pytest.mark.parametrize("seed", SEEDS)
def test_two_rater_coefficients_match_nltk(seed):
    # with missing ratings: nltk needs every item rated by both coders, so it gets the
    # items both rated, which is what our default missing="listwise" keeps
    from nltk.metrics.agreement import AnnotationTask
    x, k = ratings(seed, n_annotators=2, missing=0.15)
    ann = annotations(x, k)
    both = (x >= 0).all(axis=1)
    task = AnnotationTask(data=[(f"r{j}", str(i), int(x[i, j]))
                                for i in np.flatnonzero(both) for j in range(2)])
    assert iaa.scott_pi(ann).value == pytest.approx(task.pi(), abs=TOL)
    assert iaa.cohen_kappa(ann).value == pytest.approx(task.kappa(), abs=TOL)
    assert iaa.percent_agreement(ann).value == pytest.approx(task.Ao("r0", "r1"), abs=TOL)


# --------------------------------------------------------- irrCAC, missing data
@pytest.mark.parametrize("seed", SEEDS)
def test_available_case_fleiss_and_conger_match_irrcac(seed):
    # Gwet (2014) handles missing ratings by weighting each item by its own m_i; irrCAC
    # implements it. Items with one rating only are dropped first, so "available" and
    # "pairable" coincide here (items rated once: tests/test_gwet_missing.py).
    from irrCAC.raw import CAC
    x, k = ratings(seed, missing=0.25)
    x = x[(x >= 0).sum(axis=1) >= 2]
    frame = wide(x)
    cac = CAC(frame, digits=15)
    ann = annotations(x, k)
    fleiss = iaa.fleiss_kappa(ann, missing="available")
    est = cac.fleiss()["est"]
    assert fleiss.value == pytest.approx(est["coefficient_value"], abs=TOL)
    assert fleiss.se == pytest.approx(est["se"], abs=TOL)  # Gwet's linearised variance
    conger = iaa.davies_fleiss_kappa(ann, missing="available")
    assert conger.value == pytest.approx(cac.conger()["est"]["coefficient_value"], abs=TOL)
    assert fleiss.n_items == len(x)


@pytest.mark.parametrize("seed", SEEDS)
def test_available_case_percent_agreement_and_bennett_s_match_irrcac(seed):
    # irrCAC's Brennan–Prediger coefficient (= Bennett's S) averages the per-item
    # agreement over the items rated at least twice, as our missing="available" does,
    # with chance agreement 1/q over the q declared categories
    from irrCAC.raw import CAC
    x, k = ratings(seed, missing=0.3)
    ann = annotations(x, k)
    est = CAC(wide(x), categories=list(range(k)), digits=15).bp()["est"]
    s = iaa.bennett_s(ann, missing="available")
    assert s.value == pytest.approx(est["coefficient_value"], abs=TOL)
    assert s.expected == pytest.approx(est["pe"], abs=TOL)
    assert iaa.percent_agreement(ann, missing="available").value == pytest.approx(
        est["pa"], abs=TOL)
    assert s.se == pytest.approx(est["se"], abs=TOL)  # Gwet's variance over every rated item
    # Gwet's rule: items rated once enter the variance (n), not A_o (n''), so they are used
    assert s.n_items == ((x >= 0).sum(axis=1) >= 1).sum()
    assert s.params["items_per_term"]["observed"] == ((x >= 0).sum(axis=1) >= 2).sum()


@pytest.mark.parametrize("seed", SEEDS)
def test_listwise_equals_peers_on_complete_items(seed):
    # the default policy drops items not rated by everyone, then is ordinary Fleiss
    from statsmodels.stats.inter_rater import fleiss_kappa
    x, k = ratings(seed, missing=0.05)
    complete = (x >= 0).all(axis=1)
    r = iaa.fleiss_kappa(annotations(x, k))
    assert r.value == pytest.approx(fleiss_kappa(counts(x[complete], k)), abs=TOL)
    from irrCAC.raw import CAC  # statsmodels gives no standard error; irrCAC does
    est = CAC(wide(x[complete]), digits=15).fleiss()["est"]
    assert r.se == pytest.approx(est["se"], abs=TOL)
    wald = (r.value - 1.959963984540054 * r.se, r.value + 1.959963984540054 * r.se)
    assert (r.ci_uncut or r.ci) == pytest.approx(wald, abs=TOL)
    assert r.ci == pytest.approx((wald[0], min(wald[1], 1.0)), abs=TOL)  # cut at κ's 1
    assert r.n_items == complete.sum()
    assert r.n_excluded == (~complete).sum()
    assert r.params["missing"] == "listwise"


@pytest.mark.parametrize("seed", SEEDS)
def test_specific_agreement_two_raters_is_cicchetti_feinstein(seed):
    # two annotators: 2 n_cc / (n_c,r1 + n_c,r2) straight from the contingency table
    x, k = ratings(seed, n_annotators=2, missing=0.1)
    ann = annotations(x, k)
    t = stats.pair_contingencies(ann)[0]
    r = iaa.specific_agreement(ann, positive=0)
    with np.errstate(invalid="ignore"):
        expected = 2 * np.diag(t) / (t.sum(axis=0) + t.sum(axis=1))
    np.testing.assert_allclose(r.per_category["specific_agreement"], expected, atol=TOL)


def test_fleiss_standard_error_from_counts_matches_irrcac():
    # Fleiss' (1971) table of 10 items × 14 raters (anonymous counts), the raters'
    # labels spelled out for irrCAC: the same κ = 0.2099 and Gwet's standard error
    from irrCAC.raw import CAC
    from test_classic import FLEISS_EXAMPLE
    spelled = [np.repeat(np.arange(5), row) for row in FLEISS_EXAMPLE]
    est = CAC(pd.DataFrame(spelled), digits=15).fleiss()["est"]
    r = iaa.fleiss_kappa(iaa.Annotations.from_counts(FLEISS_EXAMPLE))
    assert r.value == pytest.approx(est["coefficient_value"], abs=TOL)
    assert r.se == pytest.approx(est["se"], abs=TOL)


def test_available_case_percent_agreement_se_is_gwets_as_irrcac():
    # irrCAC's cac.raw4raters (12 items × 4 raters, 5 categories, item 12 rated once).
    # R irrCAC 1.0 (cran/irrCAC, R/agree.coeff3.raw.r), run with R 4.2.2 on the
    # package's data/cac.raw4raters.RData: pa.coeff.raw(cac.raw4raters)$est gives
    # pa = 0.8181818, coeff.se = 0.12561 (Gwet's linearised SE: item 12 counts in n).
    # bp.coeff.raw: 0.77273, se 0.14472 (ours too: the same variance, A_e = 1/5).
    from irrCAC.datasets import raw_4raters
    frame = raw_4raters().reset_index().melt(id_vars="Units", var_name="annotator",
                                             value_name="label").dropna()
    ann = Annotations.from_long(frame, item="Units")
    r = iaa.percent_agreement(ann, missing="available")
    assert r.value == pytest.approx(0.8181818, abs=5e-8)
    assert r.se == pytest.approx(0.12561, abs=5e-6)  # was 0.0969 over the 11 items
    assert r.params["items_per_term"] == {"observed": 11, "expected": 0, "se": 12}
    assert "1 item(s) rated once enter the standard error but not" in r.note
    s = iaa.bennett_s(ann, missing="available")
    assert (s.value, s.se) == pytest.approx((0.77273, 0.14472), abs=5e-6)
    # "pairable" leaves item 12 out (counted) and keeps the SE over the 11 items
    pairable = iaa.percent_agreement(ann, missing="pairable")
    assert pairable.excluded == {"only one rating": 1}
    assert pairable.se == pytest.approx(np.sqrt(np.var(_item_agreements(ann)) / 11), abs=1e-12)


def _item_agreements(ann):
    """a_i = Σ_c n_ic(n_ic − 1)/(m_i(m_i − 1)) of the items rated at least twice (Fleiss
    1971), straight from the item × category counts."""
    counts = stats.item_counts(ann).astype(float)
    m = counts.sum(axis=1)
    two = m >= 2
    return (counts[two] * (counts[two] - 1)).sum(axis=1) / (m[two] * (m[two] - 1))
