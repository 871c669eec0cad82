"""bootstrap beyond single items (issue 45 §1, §2): Krippendorff's own bootstrap of α, whole
clusters of items, annotators, q(α_min), the reporting paragraph; and bootstrap's refusals
of misspelt, conflicting and unbounded arguments (issue 44)."""
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom

import iaa_widgets as iaa
from iaa_widgets import AgreementError
from iaa_widgets.datasets import krippendorff_2011

# Reference: kripp.boot 1.0.0 (github MikeGruz/kripp.boot, commit c7d4bde, R/kripp.boot.R),
# run with R 4.2.2 on the `nmm` matrix of its own example (Krippendorff 2011's 4 × 12
# reliability data with missing values):
#   source("R/kripp.boot.R"); set.seed(s); b <- kripp.boot(nmm, iter=20000)
#   c(b$lower, b$upper, mean(b$alphas < 0.667), mean(b$alphas < 0.8))
# seeds 1, 2, 3: lower 0.6151316 and upper 0.8717105 each time; q(0.667) 0.13265,
# 0.12500, 0.13065; q(0.8) 0.78690, 0.77905, 0.79080. On these data its cap of 25·q = 425
# draws does not bind (M = 60), so its algorithm is the uncapped one.
# kripp.boot(nmm, iter=20000, method="interval") with seed 1: [0.7156250, 0.9477679].
KRIPP_BOOT_NOMINAL = (0.6151316, 0.8717105)
KRIPP_BOOT_INTERVAL = (0.7156250, 0.9477679)


def krippendorff(data=None, **kwargs):
    return iaa.bootstrap(krippendorff_2011() if data is None else data, "krippendorff_alpha",
                         method="krippendorff", **{"n_resamples": 20_000, "seed": 1, **kwargs})


def test_krippendorffs_bootstrap_of_his_2011_data():
    res = krippendorff()
    # α = 0.743 (Krippendorff 2011, "Computing Krippendorff's alpha-reliability", nominal)
    assert res.estimate == pytest.approx(0.743, abs=5e-4)
    # M = (m − 1)·n../2 = 3 · 40 / 2 pairs a replicate (Hayes & Krippendorff 2007)
    assert (res.n_draws, res.n_ratings, res.n_annotators) == (60, 40, 4)
    assert res.kind == "pairable values" and "D_e held fixed" in res.resampled
    assert "4 coders: the pairs of a unit are drawn as independent" in res.note
    np.testing.assert_allclose(res.ci, KRIPP_BOOT_NOMINAL, atol=5e-7)
    # nominal δ is 0 or 1, so Σδ over M pairs is Binomial(M, D_o) exactly, D_o = 0.2 (o's
    # off-diagonal share): the exact 2.5 % and 97.5 % points of α* = 1 − Σδ/(M·D_e)
    alpha = iaa.krippendorff_alpha(krippendorff_2011())
    m, d_o, d_e = 60, alpha.observed, alpha.expected
    exact = [1 - binom.ppf(q, m, d_o) / (m * d_e) for q in (0.975, 0.025)]
    np.testing.assert_allclose(res.ci, exact, atol=1e-12)
    # E[α*] = 1 − M·D_o/(M·D_e) = α: no downward bias (icr's unit-weighted draws sit at
    # 0.720 on these data, issue 45's trap); within 4 Monte Carlo standard errors
    assert abs(res.distribution.mean() - alpha.value) < 4 * res.se / np.sqrt(20_000)
    # q(α_min) = P(Σδ > (1 − α_min)·M·D_e): exact binomial tail; R's three seeds above
    for t, r_values in ((0.667, (0.13265, 0.125, 0.13065)), (0.8, (0.7869, 0.77905, 0.7908))):
        tail = binom.sf(np.floor((1 - t) * m * d_e), m, d_o)
        sd = np.sqrt(tail * (1 - tail) / 20_000)
        assert abs(res.prob_below(t) - tail) < 4 * sd
        assert min(r_values) - 4 * sd < res.prob_below(t) < max(r_values) + 4 * sd


def test_krippendorffs_bootstrap_interval_metric_against_kripp_boot():
    res = krippendorff(metric="interval")
    # the lower bound sits between two points of α*'s lattice: within one step of R's
    np.testing.assert_allclose(res.ci, KRIPP_BOOT_INTERVAL, atol=0.01)


def test_krippendorffs_interval_narrows_as_items_grow():
    # no cap on M: ten copies of the data (new unit ids) have 10 × n.. pairable values,
    # M = 600 pairs, and a √10 narrower interval; kripp.boot's min(25·q, M) = 425 draws
    # would keep it near the width of 425 draws (issue kripp.boot#1)
    df = krippendorff_2011()
    copies = pd.concat([df.assign(item=df["item"] + 100 * k) for k in range(10)])
    one, ten = krippendorff(), krippendorff(copies)
    assert ten.n_draws == 600 and ten.estimate == pytest.approx(one.estimate, abs=0.01)
    ratio = (ten.ci[1] - ten.ci[0]) / (one.ci[1] - one.ci[0])
    assert ratio == pytest.approx(1 / np.sqrt(10), rel=0.15)


def test_krippendorffs_replicates_from_one_value_are_indeterminate():
    # two values, one of them nearly everywhere: a replicate whose M pairs all fall in
    # one diagonal cell has no variation; Krippendorff sets its α* to 0, not 1, counted
    rows = [(i, a, 1) for i in range(30) for a in "ab"] + [(30, "a", 1), (30, "b", 2)]
    res = krippendorff(pd.DataFrame(rows, columns=["item", "annotator", "label"]),
                       n_resamples=2000)
    o_11 = iaa.krippendorff_alpha(pd.DataFrame(rows, columns=["item", "annotator", "label"])
                                  ).params["coincidences"].iloc[0, 0]
    p_all = (o_11 / 62) ** res.n_draws  # P(every pair in cell 11), M = 31
    stuck = int(res.note.split(" replicates")[0])
    assert stuck > 0 and abs(stuck / 2000 - p_all) < 4 * np.sqrt(p_all * (1 - p_all) / 2000)
    assert np.count_nonzero(res.values == 1.0) == 0


def test_krippendorffs_method_is_for_alpha_only():
    df = krippendorff_2011()
    with pytest.raises(AgreementError, match="Krippendorff's bootstrap of α"):
        iaa.bootstrap(df, "fleiss_kappa", method="krippendorff")
    with pytest.raises(AgreementError, match="no cluster="):
        iaa.bootstrap(df, "krippendorff_alpha", method="krippendorff", resample="both")
    with pytest.raises(AgreementError, match="'unit'.*'krippendorff'"):
        iaa.bootstrap(df, "krippendorff_alpha", method="hayes")


def test_prob_below_is_the_share_of_replicates_below():
    res = iaa.bootstrap(krippendorff_2011(), "fleiss_kappa", n_resamples=300, seed=4)
    ok = res.values[~np.isnan(res.values)]
    for t in (0.5, 0.667, 0.8):
        assert res.prob_below(t) == np.count_nonzero(ok < t) / len(ok)
    with pytest.raises(AgreementError, match="threshold"):
        res.prob_below("high")


# ------------------------------------------------------------------ clusters
def documents(rng, n_docs=20, tokens=50, low=0.4):
    """Two annotators label tokens (0/1) of documents; in document d they agree on a token
    with probability p_d ~ U(low, 1): tokens of one document are alike, the documents
    differ. Agreement's population value is E[p_d] = (1 + low)/2."""
    p = rng.uniform(low, 1, n_docs)
    doc = np.repeat(np.arange(n_docs), tokens)
    a = rng.integers(0, 2, len(doc))
    b = np.where(rng.random(len(doc)) < p[doc], a, 1 - a)
    item = np.arange(len(doc))
    return pd.DataFrame({"item": np.repeat(item, 2), "annotator": np.tile(["a", "b"], len(doc)),
                         "label": np.column_stack([a, b]).ravel(),
                         "document": np.repeat(doc, 2)})


def test_clustered_values_equal_rebuilding_each_resample():
    # the Statistic's clustered item weights (w_i = draws of i's cluster) against the
    # measure recomputed on the rebuilt replicates of the same cluster draws (same seed)
    df = documents(np.random.default_rng(3), n_docs=8, tokens=6)
    fast = iaa.bootstrap(df, "percent_agreement", n_resamples=60, seed=5, cluster="document")
    slow = iaa.bootstrap(df, lambda a: iaa.percent_agreement(a).value, n_resamples=60,
                         seed=5, cluster="document")
    np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12)
    assert fast.kind == "clusters" and fast.n_clusters == 8 and fast.cluster == "document"
    series = df.groupby("item")["document"].first()
    by_series = iaa.bootstrap(df.drop(columns="document"), "percent_agreement",
                              n_resamples=60, seed=5, cluster=series)
    np.testing.assert_array_equal(by_series.values, fast.values)
    # a replicate draws 8 clusters of 6 tokens: by hand, from the bootstrap's stream
    rng = np.random.default_rng(5)
    drawn = rng.integers(0, 8, 8)
    agree = (df.iloc[::2]["label"].to_numpy() == df.iloc[1::2]["label"].to_numpy()
             ).reshape(8, 6)
    assert fast.values[0] == pytest.approx(agree[drawn].mean(), abs=1e-12)


def test_token_data_naive_se_far_below_clustered_se():
    # softcite-dataset#538: tokens nested in documents; the SE over tokens ignores that
    # tokens of one document agree alike
    df = documents(np.random.default_rng(0))
    naive = iaa.bootstrap(df, "percent_agreement", n_resamples=400, seed=1)
    clustered = iaa.bootstrap(df, "percent_agreement", n_resamples=400, seed=1,
                              cluster="document")
    assert clustered.se > 2.5 * naive.se
    for name in ("cohen_kappa", "krippendorff_alpha"):
        n = iaa.bootstrap(df, name, n_resamples=300, seed=1).se
        assert iaa.bootstrap(df, name, n_resamples=300, seed=1, cluster="document").se > 2 * n


def test_clustered_coverage_is_near_nominal_and_naive_is_not():
    # a small simulation (the ≥ 500 data set check is benchmarks/bench_coverage.py):
    # 50 data sets of 15 documents × 40 tokens, p_d ~ U(0.4, 1), truth E[p_d] = 0.7.
    # Expected coverage of 90 % intervals: clustered about 0.86 (15 clusters), naive about
    # 0.48 (its SE ≈ 0.019 against the true 0.048); binomial sd over 50 sets ≈ 0.05–0.07
    rng = np.random.default_rng(45)
    hits = {"naive": 0, "clustered": 0}
    for s in range(50):
        df = documents(rng, n_docs=15, tokens=40)
        ann, doc = iaa.as_annotations(df), df.groupby("item")["document"].first()
        for kind, cluster in (("naive", None), ("clustered", doc)):
            lo, hi = iaa.bootstrap(ann, "percent_agreement", n_resamples=200, seed=s,
                                   confidence=0.9, cluster=cluster).ci
            hits[kind] += lo <= 0.7 <= hi
    assert hits["clustered"] / 50 >= 0.74
    assert hits["naive"] / 50 <= 0.66


def test_cluster_refusals_name_the_problem():
    df = documents(np.random.default_rng(1), n_docs=4, tokens=3)
    with pytest.raises(AgreementError, match="names no column"):
        iaa.bootstrap(df, "percent_agreement", cluster="doc")
    split = df.copy()
    split.loc[0, "document"] = 3  # item 0's two ratings in two documents
    with pytest.raises(AgreementError, match=r"items \[0\] lie in more than one 'document'"):
        iaa.bootstrap(split, "percent_agreement", cluster="document")
    with pytest.raises(AgreementError, match="no cluster for items"):
        iaa.bootstrap(df, "percent_agreement", cluster=pd.Series({0: 1, 1: 2}))
    with pytest.raises(AgreementError, match="at least two"):
        iaa.bootstrap(df, "percent_agreement", cluster=pd.Series(0, index=range(12)))
    with pytest.raises(AgreementError, match="percentile"):
        iaa.bootstrap(df, "percent_agreement", cluster="document", interval="bca")
    counts = iaa.Annotations.from_contingency([[5, 1], [2, 6]])
    with pytest.raises(AgreementError, match="weighted cells"):
        iaa.bootstrap(counts, "cohen_kappa", cluster=pd.Series([0, 1]))


# ------------------------------------------------------------------ annotators
def test_annotator_resamples_keep_the_distinct_drawn_annotators_rescaled():
    # each replicate draws r annotators with replacement, keeps the s distinct ones S (a
    # copy would agree with itself) and rescales: θ̂ + (θ(S) − θ̂)·√(s/(r − s)); checked
    # against the measure on the rows of S, drawn by hand from the same stream
    df = krippendorff_2011()
    res = iaa.bootstrap(df, "fleiss_kappa", n_resamples=8, seed=2, resample="annotators",
                        missing="available")
    rng = np.random.default_rng(2)
    names = list(iaa.as_annotations(df).annotators)
    for b in range(8):
        chosen = np.unique(rng.integers(0, 4, 4))
        s = len(chosen)
        part = df[df["annotator"].isin([names[j] for j in chosen])]
        theta = iaa.fleiss_kappa(part, missing="available").value if s > 1 else np.nan
        expected = res.estimate + (theta - res.estimate) * np.sqrt(s / (4 - s)) if s < 4 \
            else res.estimate
        assert res.values[b] == pytest.approx(expected, abs=1e-12, nan_ok=True)
    assert res.kind == "annotators" and res.n_draws is None
    both = iaa.bootstrap(df, "fleiss_kappa", n_resamples=50, seed=2, resample="both")
    assert both.kind == "items and annotators" and len(both.values) == 50
    counts = iaa.Annotations.from_counts(np.array([[2, 1], [0, 3], [3, 0]]))
    with pytest.raises(AgreementError, match="know no annotator"):
        iaa.bootstrap(counts, "fleiss_kappa", resample="annotators")
    with pytest.raises(AgreementError, match="resample"):
        iaa.bootstrap(df, "fleiss_kappa", resample="raters")


def test_annotator_bootstrap_se_agrees_with_the_annotator_jackknife():
    # a crowd of 10 annotators of accuracies U(0.3, 0.95) on 120 items, 3 classes: the SE
    # over annotators from the rescaled replicates against the delete-one jackknife SE,
    # √((r − 1)/r · Σ (θ_(j) − θ̄)²) of leave_one_out's values (Efron & Tibshirani 1993,
    # eq. 11.5), an independent estimate of the same variance
    rng = np.random.default_rng(7)
    n, r = 120, 10
    truth = rng.integers(0, 3, n)
    keep = rng.random((n, r)) < rng.uniform(0.3, 0.95, r)
    x = np.where(keep, truth[:, None], rng.integers(0, 3, (n, r)))
    df = pd.DataFrame({"item": np.repeat(np.arange(n), r), "annotator": np.tile(np.arange(r), n),
                       "label": x.ravel()})
    boot = iaa.bootstrap(df, "fleiss_kappa", n_resamples=300, seed=1, resample="annotators")
    v = iaa.leave_one_out(df, "fleiss_kappa", n_resamples=None)["value"].to_numpy()
    jackknife = np.sqrt((r - 1) / r * np.sum((v - v.mean()) ** 2))
    assert 0.75 < boot.se / jackknife < 1.33


# ------------------------------------------------------------------ arguments (issue 44)
# (misspelt keywords and n_resamples' bound: tests/test_inference_leave_one_out.py, for both)
def test_former_and_new_names_together_are_refused_naming_both():
    df = krippendorff_2011()
    with pytest.raises(AgreementError, match="level= and confidence= were both given"):
        iaa.bootstrap(df, "fleiss_kappa", confidence=0.99, level=0.9)
    with pytest.raises(AgreementError, match="method= and interval= were both given"):
        iaa.bootstrap(df, "fleiss_kappa", interval="percentile", method="bca")
    with pytest.warns(DeprecationWarning, match="level="):
        assert iaa.bootstrap(df, "fleiss_kappa", n_resamples=20, level=0.9).level == 0.9
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert iaa.bootstrap(df, "fleiss_kappa", n_resamples=20, confidence=0.95).level == 0.95


# ------------------------------------------------------------------ reporting, chart
def test_reporting_paragraph_states_krippendorffs_standard():
    res = krippendorff()
    text = res.reporting()
    for part in ("α (Krippendorff, nominal) = 0.743", "95% percentile confidence interval",
                 f"[{res.ci[0]:.3f}, {res.ci[1]:.3f}]", "20,000 bootstrap replicates",
                 "60 pairs of values", "D_e held fixed", "seed 1",
                 f"q(0.667) = {res.prob_below(0.667):.3f}", f"q(0.8) = {res.prob_below(0.8):.3f}",
                 "11 units", "40 pairable values", "4 coders",
                 "1 items with a single rating", "Missing values: pairable"):
        assert part in text, part
    unit = iaa.bootstrap(krippendorff_2011(), "fleiss_kappa", n_resamples=100, seed=0,
                         missing="available")
    assert "resampling the 12 units with replacement" in unit.reporting(thresholds=(0.6,))
    assert "q(0.6)" in unit.reporting(thresholds=(0.6,))


def test_a_measures_result_reports_its_analytic_interval():
    res = iaa.fleiss_kappa(krippendorff_2011(), missing="available")
    text = res.reporting()
    for part in (f"= {res.value:.3f}", f"[{res.ci[0]:.3f}, {res.ci[1]:.3f}]", res.ci_method,
                 "12 units", "41 values", "4 coders", "Missing values: available"):
        assert part in text, part
    alpha = iaa.krippendorff_alpha(krippendorff_2011()).reporting()
    assert "no analytic interval" in alpha and "method='krippendorff'" in alpha


def test_chart_marks_the_thresholds_with_their_q():
    res = krippendorff(n_resamples=2000)
    spec = res.chart().to_dict()
    cuts = [d for d in spec["datasets"].values() if d and "threshold" in d[0]][0]
    assert [(c["threshold"], c["q"]) for c in cuts] == [
        (0.667, res.prob_below(0.667)), (0.8, res.prob_below(0.8))]
