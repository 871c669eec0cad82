"""Gwet's AC1/AC2 and the weighted chance-corrected family (Fleiss' κ, Conger's κ,
Brennan–Prediger, Scott's π) with Gwet's variances, and Fleiss' null test.

Expected numbers come from:
* irrCAC 0.4.4 (the Python port of Gwet's R package irrCAC, test-only; ``digits=15``
  switches off its rounding): ``gwet``, ``fleiss``, ``conger``, ``bp`` with every weight
  family, complete and missing ratings, two and many raters, with and without its
  finite-population size ``N``; required within 1e-9;
* the examples irrCAC's docs print (5 decimals) for the data sets it ships from Gwet
  (2014): ``raw_4raters`` (4 raters, 12 units, missing ratings) and
  ``table_cont3x3abstractors`` (two abstractors, 100 units);
* R irr's ``kappam.fleiss(diagnoses, detail=TRUE)`` printed output (3 decimals) on the
  data of Fleiss (1971, Table 1), and a hand computation of Fleiss, Nee & Landis (1979)
  with exact fractions.
"""
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations
from iaa_widgets.errors import AgreementError
from iaa_widgets.measures.categorical.classic import (bennett_s, conger_kappa, davies_fleiss_kappa,
                                          fleiss_kappa, scott_pi)
from iaa_widgets.measures.categorical.gwet import gwet_ac1, gwet_ac2
from iaa_widgets.measures.weights import FAMILIES, agreement_weights
from test_classic_peers import ratings

TOL = 1e-9
VALUES = np.array([1, 2, 4, 7, 11])  # unequally spaced labels, all > 0 (ratio weights)
pytestmark = pytest.mark.filterwarnings("ignore::Warning")  # irrCAC's pandas warnings


def case(seed, raters, missing):
    """Random ratings as a wide frame with NaN holes (labels VALUES), its declared
    categories and our Annotations."""
    x, k = ratings(seed, n_annotators=raters, missing=missing)
    frame = pd.DataFrame(np.where(x >= 0, VALUES[np.maximum(x, 0)], np.nan))
    frame = frame.rename(columns=lambda c: f"r{c}")
    cats = [int(v) for v in VALUES[:k]]
    return frame, cats, Annotations.from_wide(frame, categories=cats)


def cac(frame, cats, weights="identity", **kw):
    from irrCAC.raw import CAC
    return CAC(frame, weights=weights, categories=cats, digits=15, **kw)


def same(ours, est, se=True):
    assert ours.value == pytest.approx(est["coefficient_value"], abs=TOL)
    assert ours.observed == pytest.approx(est["pa"], abs=TOL)
    assert ours.expected == pytest.approx(est["pe"], abs=TOL)
    if se:
        assert ours.se == pytest.approx(float(np.squeeze(est["se"])), abs=TOL)


CASES = [(seed, raters, missing) for seed in range(6) for raters in (2, None)
         for missing in (0.0, 0.3)]


# ------------------------------------------------------------------ AC1 / AC2
@pytest.mark.parametrize("seed, raters, missing", CASES)
@pytest.mark.parametrize("family", FAMILIES)
def test_ac2_matches_irrcac_for_every_family(seed, raters, missing, family):
    frame, cats, ann = case(seed, raters, missing)
    est = cac(frame, cats, family).gwet()["est"]
    ours = gwet_ac2(ann, weights=family)
    same(ours, est)
    # Gwet's interval: Student's t with n − 1 df; irrCAC caps it at 1, our result cuts
    # it to the coefficient's range, at most 1: the same interval
    low, high = (float(np.squeeze(v)) for v in est["confidence_interval"])
    assert ours.ci == pytest.approx((low, high), abs=TOL)
    assert ours.params["p_value"] == pytest.approx(float(np.squeeze(est["p_value"])),
                                                   abs=TOL)
    assert ours.params["df"] == ours.n_items - 1
    assert ours.n_items == int(frame.notna().any(axis=1).sum())
    if family == "identity":
        assert gwet_ac1(ann).value == ours.value


@pytest.mark.parametrize("seed, raters, missing", CASES[:8])
def test_ac1_finite_population_correction_matches_irrcac(seed, raters, missing):
    frame, cats, ann = case(seed, raters, missing)
    n = int(frame.notna().any(axis=1).sum())
    for big_n in (n, 2 * n, 10 * n + 3):
        est = cac(frame, cats, N=big_n).gwet()["est"]
        ours = gwet_ac1(ann, population=big_n)
        same(ours, est)
        assert ours.se == pytest.approx(gwet_ac1(ann).se * np.sqrt(1 - n / big_n),
                                        abs=TOL)
    with pytest.raises(AgreementError, match="population"):
        gwet_ac1(ann, population=n - 1)  # fewer items in the population than rated


@pytest.mark.parametrize("seed", range(6))
def test_ac1_listwise_and_pairable_are_gwet_on_the_kept_items(seed):
    frame, cats, ann = case(seed, None, 0.35)
    m = frame.notna().sum(axis=1)
    for policy, keep in (("listwise", m == frame.shape[1]), ("pairable", m >= 2)):
        if keep.sum() < 3:
            continue
        est = cac(frame[keep], cats).gwet()["est"]
        same(gwet_ac1(ann, missing=policy), est)


def test_gwet_2014_four_raters_example_as_printed_by_irrcac():
    # irrCAC docs (raw.py): raw_4raters, Gwet (2014) — AC1 0.77544, se 0.14295,
    # CI (0.46081, 1), pa 0.81818, pe 0.19032; Fleiss 0.76117, se 0.15302;
    # AC2 bipolar 0.90037, se 0.10582, pa 0.96836, pe 0.68244 (5 decimals)
    from irrCAC.datasets import raw_4raters
    ann = Annotations.from_wide(raw_4raters())
    r = gwet_ac1(ann)
    assert (round(r.value, 5), round(r.se, 5), round(r.observed, 5),
            round(r.expected, 5)) == (0.77544, 0.14295, 0.81818, 0.19032)
    assert (round(r.ci[0], 5), r.ci[1]) == (0.46081, 1.0)
    r = fleiss_kappa(ann, missing="available")
    assert (round(r.value, 5), round(r.se, 5), round(r.expected, 5)) == \
        (0.76117, 0.15302, 0.23872)
    r = gwet_ac2(ann, weights="bipolar")
    assert (round(r.value, 5), round(r.se, 5), round(r.observed, 5),
            round(r.expected, 5)) == (0.90037, 0.10582, 0.96836, 0.68244)


def test_two_abstractors_table_example():
    # irrCAC docs (table.py): table_cont3x3abstractors, Gwet (2014) — AC1 0.84933,
    # pa 0.89, pe 0.26992, se 0.04322; AC2 quadratic 0.94024, pa 0.9725, pe 0.53985,
    # se 0.01792. Its contingency-table variance divides by n² where the raw-data
    # variance (ours, for any number of raters, and irrCAC.raw's) divides by n(n − 1):
    # our se is the printed one times √(n/(n − 1)), checked at full precision.
    from irrCAC.datasets import table_cont3x3abstractors
    from irrCAC.table import CAC as TableCAC
    table = table_cont3x3abstractors()
    order = list(table.index)  # Ectopic, AIU, NIU: the order the abstractors used
    ann = Annotations.from_contingency(table, categories=order)
    n = 100
    for ours, weights, printed in ((gwet_ac1(ann), "identity", (0.84933, 0.89, 0.26992)),
                                   (gwet_ac2(ann, weights="quadratic"), "quadratic",
                                    (0.94024, 0.9725, 0.53985))):
        assert (round(ours.value, 5), round(ours.observed, 5),
                round(ours.expected, 5)) == printed
        est = TableCAC(table, weights=weights, digits=15).gwet()["est"]
        assert ours.value == pytest.approx(est["coefficient_value"], abs=TOL)
        assert ours.se == pytest.approx(float(np.squeeze(est["se"])) * np.sqrt(n / (n - 1)),
                                        abs=TOL)


def test_ac1_resists_the_kappa_paradox():
    # Feinstein & Cicchetti (1990): 90 % agreement on a rare category gives κ near 0;
    # AC1 (p_e = 2π(1 − π) for two categories) stays high. Table [[88, 5], [5, 2]]:
    # π = (93 + 93) / 200 for "no", p_e = 2·0.93·0.07 = 0.1302, pa = 0.90
    table = pd.DataFrame([[88, 5], [5, 2]], index=["no", "yes"], columns=["no", "yes"])
    ann = Annotations.from_contingency(table)
    r = gwet_ac1(ann)
    p_e = Fraction(2) * Fraction(93, 100) * Fraction(7, 100)
    assert r.expected == pytest.approx(float(p_e), abs=1e-15)
    assert r.value == pytest.approx(float((Fraction(9, 10) - p_e) / (1 - p_e)), abs=1e-15)
    assert iaa.cohen_kappa(ann).value < 0.3 < r.value


def test_ac1_single_category_is_undefined_with_a_note():
    ann = Annotations.from_wide(pd.DataFrame({"a": ["x", "x"], "b": ["x", "x"]}))
    r = gwet_ac1(ann)
    assert np.isnan(r.value) and "one declared category" in r.note
    assert r.se is None and r.ci is None


def test_ac2_refuses_an_order_nobody_gave():
    ann = Annotations.from_wide(pd.DataFrame({"a": list("abc"), "b": list("bca")}))
    with pytest.raises(AgreementError, match="no order was given"):
        gwet_ac2(ann, weights="linear")
    with pytest.raises(AgreementError, match="weights"):
        gwet_ac2(ann, weights="cubic")


@pytest.mark.parametrize("fn, kwargs", [(gwet_ac1, {}), (gwet_ac1, {"missing": "listwise"}),
                                        (gwet_ac2, {"weights": "quadratic"}),
                                        (gwet_ac2, {"weights": "ordinal"})])
def test_bootstrap_fast_path_equals_general_path(fn, kwargs):
    frame, cats, ann = case(4, None, 0.3)
    fast = iaa.bootstrap(ann, fn, n_resamples=40, seed=7, **kwargs)
    slow = iaa.bootstrap(ann, lambda d, **kw: fn(d, **kw), n_resamples=40, seed=7, **kwargs)
    np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12)
    np.testing.assert_allclose(fast.ci, slow.ci, rtol=0, atol=1e-12)
    assert fast.estimate == pytest.approx(fn(ann, **kwargs).value, abs=1e-15)
    # BCa's jackknife: the Statistic's totals minus one item = the measure without it
    jack = fn.statistic(ann, **kwargs).jackknife()
    for i in range(5):
        rest = Annotations.from_wide(frame.drop(index=frame.index[i]), categories=cats)
        assert jack[i] == pytest.approx(fn(rest, **kwargs).value, abs=1e-12)
    assert iaa.bootstrap(ann, fn, n_resamples=40, seed=7, interval="bca", **kwargs).ci


# ------------------------------------------- the weighted chance-corrected family
@pytest.mark.parametrize("seed, raters, missing", CASES)
@pytest.mark.parametrize("family", FAMILIES)
def test_weighted_family_matches_irrcac(seed, raters, missing, family):
    frame, cats, ann = case(seed, raters, missing)
    theirs = cac(frame, cats, family)
    same(fleiss_kappa(ann, weights=family, missing="available"), theirs.fleiss()["est"])
    same(davies_fleiss_kappa(ann, weights=family, missing="available"),
         theirs.conger()["est"])
    same(bennett_s(ann, weights=family, missing="available"), theirs.bp()["est"])
    if raters == 2:  # Scott's π is Fleiss' κ of two raters on the items both rated
        both = frame.notna().all(axis=1)
        same(scott_pi(ann, weights=family),
             cac(frame[both], cats, family).fleiss()["est"])


@pytest.mark.parametrize("seed", range(4))
def test_weighted_family_finite_population_matches_irrcac(seed):
    frame, cats, ann = case(seed, None, 0.2)
    big_n = 3 * int(frame.notna().any(axis=1).sum())
    theirs = cac(frame, cats, "quadratic", N=big_n)
    kw = {"weights": "quadratic", "missing": "available", "population": big_n}
    same(fleiss_kappa(ann, **kw), theirs.fleiss()["est"])
    same(davies_fleiss_kappa(ann, **kw), theirs.conger()["est"])
    same(bennett_s(ann, **kw), theirs.bp()["est"])


def test_a_user_matrix_aligned_by_label_equals_its_family():
    frame, cats, ann = case(2, None, 0.2)
    w, _ = agreement_weights("quadratic", pd.Index(cats), True)
    shuffled = pd.DataFrame(w, index=cats, columns=cats).iloc[::-1, ::-1]
    for fn in (fleiss_kappa, davies_fleiss_kappa, bennett_s, gwet_ac2):
        a, b = fn(ann, weights="quadratic"), fn(ann, weights=shuffled)
        assert (a.value, a.se) == pytest.approx((b.value, b.se), abs=1e-12)


def test_identity_weights_are_the_unweighted_coefficients():
    frame, cats, ann = case(5, None, 0.2)
    for fn in (fleiss_kappa, davies_fleiss_kappa, bennett_s):
        a, b = fn(ann, missing="available"), fn(ann, weights="identity", missing="available")
        assert (a.value, a.se) == pytest.approx((b.value, b.se), abs=1e-15)


def test_conger_kappa_is_davies_fleiss_kappa():
    assert conger_kappa is davies_fleiss_kappa


@pytest.mark.parametrize("name", ["fleiss_kappa", "davies_fleiss_kappa", "bennett_s"])
def test_weighted_bootstrap_fast_path_equals_general_path(name):
    import iaa_widgets.measures.categorical.classic as classic
    fn = getattr(classic, name)
    frame, cats, ann = case(1, None, 0.25)
    kw = {"weights": "linear", "missing": "available"}
    fast = iaa.bootstrap(ann, fn, n_resamples=30, seed=3, **kw)
    slow = iaa.bootstrap(ann, lambda d, **k: fn(d, **k), n_resamples=30, seed=3, **kw)
    np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12)


# ------------------------------------------------------- Fleiss' null test
# R irr's diagnoses: 30 patients, 6 psychiatrists each (Fleiss 1971, Table 1), as
# item × category counts over 1. Depression, 2. Personality Disorder,
# 3. Schizophrenia, 4. Neurosis, 5. Other
DIAGNOSES = [[0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6],
             [0, 3, 0, 3, 0], [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0],
             [2, 0, 0, 4, 0], [0, 0, 0, 0, 6], [1, 0, 0, 5, 0], [1, 1, 0, 4, 0],
             [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1], [0, 0, 5, 0, 1],
             [3, 0, 0, 1, 2], [5, 1, 0, 0, 0], [0, 2, 0, 4, 0], [1, 0, 2, 0, 3],
             [0, 0, 0, 0, 6], [0, 1, 0, 5, 0], [0, 2, 0, 1, 3], [2, 0, 0, 4, 0],
             [1, 0, 0, 4, 1], [0, 5, 0, 1, 0], [4, 0, 0, 0, 2], [0, 2, 0, 4, 0],
             [1, 0, 5, 0, 0], [0, 0, 0, 0, 6]]
DIAG_CATS = ["1. Depression", "2. Personality Disorder", "3. Schizophrenia",
             "4. Neurosis", "5. Other"]


def diagnoses():
    return Annotations.from_counts(pd.DataFrame(DIAGNOSES, columns=DIAG_CATS))


def test_fleiss_null_test_matches_r_irr_printed_output():
    # R irr 0.84.1, kappam.fleiss(diagnoses, detail=TRUE) (as reproduced in the README
    # of pyirr, a port of irr): Kappa = 0.430, z = 17.652; per category
    # Kappa 0.245 0.245 0.520 0.471 0.566, z 5.192 5.192 11.031 9.994 12.009
    r = fleiss_kappa(diagnoses())
    assert (round(r.value, 3), round(r.params["z"], 3)) == (0.430, 17.652)
    pc = r.per_category
    assert list(pc["kappa"].round(3)) == [0.245, 0.245, 0.520, 0.471, 0.566]
    assert list(pc["z"].round(3)) == [5.192, 5.192, 11.031, 9.994, 12.009]
    assert r.params["p_value"] < 1e-60 and (pc["p_value"] < 1e-6).all()
    assert r.se != r.params["se_null"]  # the SE under the alternative stays beside it


def test_fleiss_null_variance_by_hand_with_fractions():
    # Fleiss, Nee & Landis (1979): var₀(κ) = 2[(Σ p q)² − Σ p q (q − p)] /
    # (n m (m − 1) (Σ p q)²), var₀(κ_j) = 2 / (n m (m − 1)), n = 30, m = 6
    n, m = 30, 6
    p = [Fraction(sum(row[j] for row in DIAGNOSES), n * m) for j in range(5)]
    pq = [x * (1 - x) for x in p]
    var0 = 2 * (sum(pq) ** 2 - sum(a * (1 - 2 * x) for a, x in zip(pq, p))) / \
        (n * m * (m - 1) * sum(pq) ** 2)
    r = fleiss_kappa(diagnoses())
    assert r.params["se_null"] ** 2 == pytest.approx(float(var0), abs=1e-15)
    np.testing.assert_allclose(r.per_category["se_null"] ** 2,
                               float(Fraction(2, n * m * (m - 1))), atol=1e-15)
    assert r.params["z"] == pytest.approx(r.value / r.params["se_null"], abs=1e-12)


def test_fleiss_null_test_needs_a_constant_number_of_ratings():
    frame, cats, ann = case(0, None, 0.3)
    r = fleiss_kappa(ann, missing="available")
    assert np.isnan(r.params["z"]) and "same number of annotators" in r.note
    assert not np.isnan(r.se)
    assert "z" not in fleiss_kappa(ann, weights="linear").params  # unweighted only


def test_contingency_counts_equal_the_expanded_items():
    # from_contingency keeps one row per cell with its count (the ContingencyMatrix
    # widget's data); AC1/AC2 and their SEs equal those of the same items one by one
    table = pd.DataFrame([[30, 4, 1], [6, 25, 3], [0, 5, 26]], index=[1, 2, 3],
                         columns=[1, 2, 3])
    cells = Annotations.from_contingency(table)
    pairs = [(a, b) for a in table.index for b in table.columns
             for _ in range(table.loc[a, b])]
    items = Annotations.from_wide(pd.DataFrame(pairs, columns=["A", "B"]))
    for fn, kw in ((gwet_ac1, {}), (gwet_ac2, {"weights": "linear"}),
                   (gwet_ac1, {"population": 500})):
        a, b = fn(cells, **kw), fn(items, **kw)
        assert (a.value, a.se, a.n_items) == pytest.approx((b.value, b.se, b.n_items),
                                                           abs=1e-12)
        assert a.ci == pytest.approx(b.ci, abs=1e-12)
    for fn, kw in ((bennett_s, {"weights": "quadratic"}), (scott_pi, {"weights": "linear"}),
                   (scott_pi, {})):  # their SEs take the cells' counts as rows too
        a, b = fn(cells, **kw), fn(items, **kw)
        assert (a.value, a.se) == pytest.approx((b.value, b.se), abs=1e-12)
    fast = iaa.bootstrap(cells, gwet_ac1, n_resamples=20, seed=1)
    assert fast.estimate == pytest.approx(gwet_ac1(items).value, abs=1e-12)


def test_ac1_raise_policy_names_the_items():
    frame, cats, ann = case(0, None, 0.3)
    with pytest.raises(AgreementError, match="lack a rating"):
        gwet_ac1(ann, missing="raise")


def test_irrcac_without_categories_counts_missing_as_a_category_under_pandas_3():
    # documented in gwet.py's "Differences from other software": irrCAC finds the
    # categories with DataFrame.stack(), which keeps NaN under pandas 3 (q = 3 here)
    from irrCAC.raw import CAC
    frame = pd.DataFrame({"a": [1, 2, np.nan, 1, 2], "b": [1, 2, 2, 2, 2]})
    ours = gwet_ac1(Annotations.from_wide(frame))
    given = CAC(frame, categories=[1, 2], digits=15).gwet()["est"]
    assert ours.value == pytest.approx(given["coefficient_value"], abs=TOL)
    found = CAC(frame, digits=15)
    if int(pd.__version__.split(".")[0]) >= 3:
        assert found.q == 3 and any(pd.isna(c) for c in found.categories)
        assert abs(found.gwet()["est"]["coefficient_value"] - ours.value) > 1e-3


@pytest.mark.parametrize("seed, raters, missing", CASES[::3])
@pytest.mark.parametrize("family", FAMILIES)
def test_alpha_with_one_minus_the_weights_is_irrcacs_weighted_krippendorff(seed, raters,
                                                                           missing, family):
    # Gwet (2014, ch. 3) writes Krippendorff's α with agreement weights; ours takes the
    # distances δ_kl = 1 − w_kl as a matrix aligned by label (value only: α has no SE)
    frame, cats, ann = case(seed, raters, missing)
    w, _ = agreement_weights(family, pd.Index(cats), True)
    delta = pd.DataFrame(1 - w, index=cats, columns=cats)
    est = cac(frame, cats, family).krippendorff()["est"]
    assert iaa.krippendorff_alpha(ann, metric=delta).value == pytest.approx(
        est["coefficient_value"], abs=TOL)


def test_weighted_agreement_over_many_categories_runs_over_each_items_pairs(monkeypatch):
    """Issue 44: 9,000 float labels made AC2's weighted per-item agreement an items × K × K
    einsum (minutes); beyond DENSE_WEIGHTED_CATEGORIES it sums over the pairs of categories
    present in each item. Both routes give the same AC2 (the dense one is the reference,
    Gwet 2014 ch. 3's weighted p_a), here forced on 40 float labels."""
    from iaa_widgets.measures import _formulas
    rng = np.random.default_rng(3)
    values = np.round(rng.normal(size=40), 3)
    df = pd.DataFrame({"item": np.repeat(np.arange(30), 3), "annotator": ["a", "b", "c"] * 30,
                       "label": rng.choice(values, 90)})
    dense = iaa.gwet_ac2(df, weights="quadratic")
    monkeypatch.setattr(_formulas, "DENSE_WEIGHTED_CATEGORIES", 2)
    pairs = iaa.gwet_ac2(df, weights="quadratic")
    assert (pairs.value, pairs.se) == pytest.approx((dense.value, dense.se), abs=1e-12)
