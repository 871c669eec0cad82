"""missing="available" follows Gwet (2014, Handbook of Inter-Rater Reliability, ch. 2
and 5): the observed agreement averages over the items rated at least twice, the chance
terms (Fleiss' p_c, Conger's p_gc) and the linearised variance take every item with a
rating, items rated once included. Expected numbers come from irrCAC (Gwet's own
formulas, test-only; digits=15 to switch off its rounding) or from hand computations
with exact fractions; missing="pairable" is Gwet's analysis of the data with the items
rated once deleted.
"""
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError
from test_bootstrap import assert_same, fast_and_generic, random_ratings
from test_classic_peers import annotations, ratings, wide

SEEDS = range(20)
TOL = 1e-9


def with_singles(seed):
    """Random ratings with missing values and at least two items rated once."""
    x, k = ratings(seed, missing=0.45)
    x[2, 1:] = -1
    x[3, :-1], x[3, -1] = -1, 0
    return x, k


def irrcac(x):
    from irrCAC.raw import CAC
    cac = CAC(wide(x), digits=15)
    return cac.fleiss()["est"], cac.conger()["est"]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("single_ratings", [True, False])
def test_available_matches_irrcac_value_and_se(seed, single_ratings):
    x, k = with_singles(seed) if single_ratings else ratings(seed)
    fleiss_est, conger_est = irrcac(x)
    ann = annotations(x, k)
    for ours, est in ((iaa.fleiss_kappa(ann, missing="available"), fleiss_est),
                      (iaa.davies_fleiss_kappa(ann, missing="available"), conger_est)):
        assert ours.value == pytest.approx(est["coefficient_value"], abs=TOL)
        assert ours.observed == pytest.approx(est["pa"], abs=TOL)
        assert ours.expected == pytest.approx(est["pe"], abs=TOL)
        assert ours.se == pytest.approx(est["se"], abs=TOL)
        # irrCAC drops the items nobody rated; we count them
        rated = int(((x >= 0).sum(axis=1) >= 1).sum())
        assert ours.n_items == rated
        assert ours.excluded == ({"not rated by these annotators": len(x) - rated}
                                 if rated < len(x) else {})


@pytest.mark.parametrize("seed", SEEDS)
def test_listwise_matches_irrcac_on_complete_items(seed):
    # Conger's κ and its standard error on the items everyone rated
    x, k = with_singles(seed)
    complete = (x >= 0).all(axis=1)
    if complete.sum() < 2:
        x, complete = ratings(seed)[0], np.ones(len(x), bool)
    _, est = irrcac(x[complete])
    ours = iaa.davies_fleiss_kappa(annotations(x, k))
    assert ours.value == pytest.approx(est["coefficient_value"], abs=TOL)
    assert ours.se == pytest.approx(est["se"], abs=TOL)


@pytest.mark.parametrize("seed", SEEDS)
def test_pairable_is_gwet_without_the_single_rating_items(seed):
    x, k = with_singles(seed)
    two = (x >= 0).sum(axis=1) >= 2
    fleiss_est, conger_est = irrcac(x[two])
    ann = annotations(x, k)
    for ours, est in ((iaa.fleiss_kappa(ann, missing="pairable"), fleiss_est),
                      (iaa.davies_fleiss_kappa(ann, missing="pairable"), conger_est)):
        assert ours.value == pytest.approx(est["coefficient_value"], abs=TOL)
        assert ours.se == pytest.approx(est["se"], abs=TOL)
        assert ours.excluded["only one rating"] == int(((x >= 0).sum(axis=1) == 1).sum())
        assert "items_per_term" not in ours.params


# three raters; item 1: a a b, item 2: a b (one missing), item 3: b (rated once)
SMALL = pd.DataFrame({"item": [1, 1, 1, 2, 2, 3], "annotator": ["r", "s", "t", "r", "s", "t"],
                      "label": ["a", "a", "b", "a", "b", "b"]})


def test_small_example_by_hand():
    # A'_o over items 1–2: (2·1/(3·2) + 0/(2·1)) / 2 = 1/6
    # available: π_a = (2/3 + 1/2 + 0)/3 = 7/18, π_b = 11/18, A'_e = 170/324
    # pairable:  π_a = (2/3 + 1/2)/2 = 7/12,     π_b = 5/12,  A'_e = 74/144
    p_a = Fraction(1, 6)
    for missing, p_e, n in (("available", Fraction(170, 324), 3),
                            ("pairable", Fraction(74, 144), 2)):
        r = iaa.fleiss_kappa(SMALL, missing=missing)
        assert r.observed == pytest.approx(float(p_a), abs=1e-15)
        assert r.expected == pytest.approx(float(p_e), abs=1e-15)
        assert r.value == pytest.approx(float((p_a - p_e) / (1 - p_e)), abs=1e-15)
        assert r.n_items == n
    # Conger, available: p_r = (2/2 a), p_s = (1/2 a, 1/2 b), p_t = (0 a, 2/2 b);
    # pairs r·s = 1/2, r·t = 0, s·t = 1/2 → A'_e = 1/3
    r = iaa.davies_fleiss_kappa(SMALL, missing="available")
    assert r.expected == pytest.approx(1 / 3, abs=1e-15)
    assert r.value == pytest.approx(float((p_a - Fraction(1, 3)) / (1 - Fraction(1, 3))),
                                    abs=1e-15)


def test_single_rating_items_are_reported_as_used_not_excluded():
    r = iaa.fleiss_kappa(SMALL, missing="available")
    assert r.excluded == {}
    assert r.params["items_per_term"] == {"observed": 2, "expected": 3, "se": 3}
    assert "1 item(s) rated once enter the expected agreement" in r.note
    # percent agreement: A_o reads pairs of ratings only, but Gwet's linearised variance
    # (irrCAC's pa.coeff.raw, issue 44) sums over every rated item under "available"
    r = iaa.percent_agreement(SMALL, missing="available")
    assert (r.n_items, r.excluded) == (3, {})
    assert r.params["items_per_term"] == {"observed": 2, "expected": 0, "se": 3}
    assert "1 item(s) rated once enter the standard error but not" in r.note
    r = iaa.percent_agreement(SMALL, missing="pairable")
    assert (r.n_items, r.excluded) == (2, {"only one rating": 1})
    # Brennan–Prediger (Bennett's S): its A_e = 1/q takes no data, but Gwet's variance
    # sums over every rated item (n), so under "available" the item is used there only
    r = iaa.bennett_s(SMALL, missing="available")
    assert (r.n_items, r.excluded) == (3, {})
    assert r.params["items_per_term"] == {"observed": 2, "expected": 0, "se": 3}
    assert "1 item(s) rated once enter the standard error but not" in r.note
    r = iaa.bennett_s(SMALL, missing="pairable")
    assert (r.n_items, r.excluded) == (2, {"only one rating": 1})
    r = iaa.specific_agreement(SMALL, positive="a", missing="available")
    assert r.excluded == {"only one rating": 1}


def test_no_pairable_item_is_refused():
    once = pd.DataFrame({"item": [1, 2, 3], "annotator": ["r", "s", "r"],
                         "label": ["a", "b", "a"]})
    for fn in (iaa.fleiss_kappa, iaa.davies_fleiss_kappa):
        with pytest.raises(AgreementError, match="no item is rated at least twice"):
            fn(once, missing="available")


def test_unknown_policy_names_the_accepted_ones():
    with pytest.raises(AgreementError, match="'available', 'pairable'"):
        iaa.fleiss_kappa(SMALL, missing="pairwise")


@pytest.mark.parametrize("name", ["fleiss_kappa", "davies_fleiss_kappa"])
@pytest.mark.parametrize("missing", ["available", "pairable"])
@pytest.mark.parametrize("seed", range(6))
def test_bootstrap_fast_path_equals_general_path(name, missing, seed):
    # 4 raters, 40 % missing: items rated once occur; same seed ⇒ same draws
    data = random_ratings(seed, 15, 4, 3, 0.4)
    assert (np.bincount(data.item) == 1).any()
    assert_same(*fast_and_generic(name, data, 40, seed, missing=missing))


def test_undefined_value_keeps_both_notes():
    # every rating "a": A'_e = 1, κ = 0/0; the item rated once is still reported as used
    flat = pd.DataFrame({"item": [1, 1, 2], "annotator": ["r", "s", "r"],
                         "label": ["a", "a", "a"]})
    r = iaa.fleiss_kappa(flat, missing="available")
    assert np.isnan(r.value)
    assert "expected agreement is 1" in r.note and "1 item(s) rated once" in r.note
