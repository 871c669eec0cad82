"""Every worked example of Meyer's "A Brief Tutorial on Inter-Rater Agreement" (TU
Darmstadt 2009), except
Krippendorff's α (tests/test_alpha*.py). Slide titles name the source of each number.
The tutorial prints truncated figures in places (noted per test); where a printed
figure does not reproduce we assert the exact value and say why.
"""
import math
from fractions import Fraction

import numpy as np
import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations, stats
from iaa_widgets.datasets import meyer_relatedness

# Slides "Percentage of Agreement": rows r2 (high, low), columns r1 (high, low)
RELATEDNESS = [[2, 2], [1, 5]]


def table(m, cats=None):
    return Annotations.from_contingency(m, categories=cats, annotators=("r2", "r1"))


def truncated(x, digits=3):
    return math.floor(x * 10 ** digits) / 10 ** digits


def test_relatedness_dataset_gives_the_contingency_table():
    # slide "Percentage of Agreement: Definition": the word-pair list of r1, r2 and its table
    data = meyer_relatedness()
    from_items = iaa.cohen_kappa(data, annotators=("r2", "r1"))
    from_table = iaa.cohen_kappa(table(RELATEDNESS, ["high", "low"]))
    assert from_items.value == pytest.approx(from_table.value, abs=1e-15)
    assert from_items.per_category["agreements"].tolist() == [2, 5]


def test_percent_agreement_value():
    # slide "Percentage of Agreement: Definition": A_o = 1/10 (2 + 5) = 0.7
    r = iaa.percent_agreement(table(RELATEDNESS))
    assert r.value == pytest.approx(0.7, abs=1e-12)
    assert r.n_items == 10


def test_percent_agreement_standard_error_is_binomial_not_tutorials():
    # slide "Standard Error and Confidence Interval" prints SE = √(A_o(1 − A_o)) / n
    # = 0.04, which divides by n instead of √n. The binomial SE of a proportion is
    # √(A_o(1 − A_o) / n) = √0.021 = 0.1449 (any statistics text, e.g. Fleiss,
    # Levin & Paik 2003, §2.1); we implement that one.
    r = iaa.percent_agreement(table(RELATEDNESS))
    assert r.se == pytest.approx(math.sqrt(0.7 * 0.3 / 10), abs=1e-12)
    z95 = 1.959963984540054  # Φ⁻¹(0.975)
    assert r.ci == pytest.approx((0.7 - z95 * r.se, 0.7 + z95 * r.se), abs=1e-12)
    r90 = iaa.percent_agreement(table(RELATEDNESS), confidence=0.90)
    z90 = 1.6448536269514722  # Φ⁻¹(0.95)
    assert r90.ci == pytest.approx((0.7 - z90 * r.se, 0.7 + z90 * r.se), abs=1e-12)
    # The printed intervals (0.610, 0.789) and (0.624, 0.775) follow from the
    # tutorial's own SE 0.0458 with z = 1.96 and 1.645, truncated to 3 decimals:
    tutorial_se = math.sqrt(0.7 * 0.3) / 10
    assert truncated(tutorial_se, 2) == 0.04
    assert (truncated(0.7 - 1.96 * tutorial_se), truncated(0.7 + 1.96 * tutorial_se)) \
        == (0.610, 0.789)
    assert (truncated(0.7 - 1.645 * tutorial_se), truncated(0.7 + 1.645 * tutorial_se)) \
        == (0.624, 0.775)


@pytest.mark.parametrize("m, a_o", [
    ([[45, 45], [45, 45]], 0.5),                                   # A_o = 0.5
    ([[20, 20, 20], [20, 20, 20], [20, 20, 20]], 1 / 3),           # A_o = 1/3
])
def test_random_guessing_tables(m, a_o):
    # slides "Issues: Agreement by Chance" (twice): A_o as printed, and S = π = κ = 0.0
    t = table(m)
    assert iaa.percent_agreement(t).value == pytest.approx(a_o, abs=1e-12)
    for measure in (iaa.bennett_s, iaa.scott_pi, iaa.cohen_kappa):
        assert measure(t).value == pytest.approx(0.0, abs=1e-12)


def test_equal_weights_positive_and_negative_agreement():
    # slide "Issues: Equal Weights" (Cicchetti & Feinstein 1990)
    t = table([[10, 20], [20, 1000]], ["+", "-"])
    # A_o = 1010/1050 = 0.96190…, printed 0.961 (truncated; rounding gives 0.962)
    assert iaa.percent_agreement(t).value == pytest.approx(1010 / 1050, abs=1e-12)
    assert truncated(1010 / 1050) == 0.961
    r = iaa.specific_agreement(t, positive="+")
    # A_o+ = 2·10 / (30 + 30) = 0.333, A_o− = 2·1000 / (1020 + 1020) = 0.980
    assert r.value == pytest.approx(20 / 60, abs=1e-12)
    assert r.params["positive_agreement"] == pytest.approx(1 / 3, abs=1e-12)
    assert r.params["negative_agreement"] == pytest.approx(2000 / 2040, abs=1e-12)
    assert round(r.params["negative_agreement"], 3) == 0.980
    assert r.per_category["agreements"].tolist() == [20, 2000]  # ordered pairs 2·n_cc
    assert r.observed == pytest.approx(1010 / 1050, abs=1e-12)


def test_chance_corrected_example():
    # slide "Chance-corrected Measures: Example"
    t = table(RELATEDNESS)
    s = iaa.bennett_s(t)
    assert (s.expected, s.value) == pytest.approx((0.5, 0.4), abs=1e-12)     # A_e^S, S
    pi = iaa.scott_pi(t)
    # A_e^π = ((3+4)² + (6+7)²) / (4·10²) = 218/400 = 0.545; π = 0.155/0.455 = 0.3407 → 0.341
    assert pi.expected == pytest.approx(218 / 400, abs=1e-12)
    assert pi.value == pytest.approx(float((Fraction(7, 10) - Fraction(218, 400))
                                           / (1 - Fraction(218, 400))), abs=1e-12)
    assert round(pi.value, 3) == 0.341
    kappa = iaa.cohen_kappa(t)
    # A_e^κ = (3·4 + 6·7)/10² = 0.54; κ = 0.16/0.46 = 0.3478 → 0.348
    assert kappa.expected == pytest.approx(0.54, abs=1e-12)
    assert kappa.value == pytest.approx(0.16 / 0.46, abs=1e-12)
    assert round(kappa.value, 3) == 0.348


def test_agreement_table_of_three_raters():
    # slide "Multiple Raters: Agreement Table": items × (high, low) counts
    expected = [[3, 0], [2, 1], [2, 1], [2, 1], [1, 2], [0, 3], [0, 3], [1, 2], [1, 2], [1, 2]]
    data = Annotations.from_long(meyer_relatedness())
    assert stats.item_counts(data).tolist() == expected


def test_multi_pi_example():
    # slide "Multiple Raters: Example for multi-π": A'_o = 32/60 = 0.533,
    # A'_e = (13² + 17²)/30² = 458/900 = 0.508(9), multi-π = 0.04977…, printed 0.049
    # (truncated; rounding gives 0.050). Exact: (32/60 − 458/900)/(1 − 458/900) = 22/442.
    for data in (meyer_relatedness(),
                 Annotations.from_counts([[3, 0], [2, 1], [2, 1], [2, 1], [1, 2], [0, 3],
                                          [0, 3], [1, 2], [1, 2], [1, 2]], ["high", "low"])):
        r = iaa.fleiss_kappa(data)
        assert r.observed == pytest.approx(32 / 60, abs=1e-12)
        assert r.expected == pytest.approx(458 / 900, abs=1e-12)
        exact = (Fraction(32, 60) - Fraction(458, 900)) / (1 - Fraction(458, 900))
        assert exact == Fraction(22, 442)
        assert r.value == pytest.approx(float(exact), abs=1e-12)
        assert truncated(r.value) == 0.049


def test_multi_kappa_on_the_relatedness_data():
    # slide "Multiple Raters: Generalized Measures" defines multi-κ but prints no value;
    # by hand from the formula: rater shares of "high" r1 3/10, r2 4/10, r3 6/10;
    # A'_e^κ = mean over the 3 pairs of Σ_c p_r1c p_r2c
    #        = [(.3·.4 + .7·.6) + (.3·.6 + .7·.4) + (.4·.6 + .6·.4)] / 3 = 1.48/3
    r = iaa.davies_fleiss_kappa(meyer_relatedness())
    a_e = Fraction(148, 300)
    assert r.expected == pytest.approx(float(a_e), abs=1e-12)
    assert r.value == pytest.approx(float((Fraction(32, 60) - a_e) / (1 - a_e)), abs=1e-12)


def test_chi_square_table_adapted_from_cohen_1960():
    # slide "Traditional Statistics: Why not use χ² or correlations?". The printed
    # A_o = 0.36, S = 0.04, π = 0.02, κ = 0.04 do not reproduce from the printed table:
    # its diagonal is 25 + 2 + 2 = 29, so A_o = 0.29 exactly, and with it (exact
    # fractions) S = (0.29 − 1/3)/(2/3) = −0.065, π: A_e = (90² + 60² + 50²)/200² = 71/200,
    # π = −0.1008, κ: A_e = (50·40 + 30·30 + 20·30)/100² = 7/20, κ = −6/65 = −0.0923.
    # The printed S = 0.04 matches A_o = 0.36 but π and κ match neither A_o (0.36 gives
    # π = 0.0078, κ = 0.0154), and the printed χ² = 64.59 is twice the table's
    # Pearson χ² 32.30 (scipy.stats.chi2_contingency): the slide's figures do not come
    # from this table. We trust the exact fractions of the table as printed.
    t = table([[25, 13, 12], [12, 2, 16], [3, 15, 2]], ["+", "•", "-"])
    assert iaa.percent_agreement(t).value == pytest.approx(0.29, abs=1e-12)
    assert iaa.bennett_s(t).value == pytest.approx((0.29 - 1 / 3) / (2 / 3), abs=1e-12)
    pi_ae = Fraction(71, 200)
    assert iaa.scott_pi(t).value == pytest.approx(
        float((Fraction(29, 100) - pi_ae) / (1 - pi_ae)), abs=1e-12)
    assert iaa.cohen_kappa(t).value == pytest.approx(-6 / 65, abs=1e-12)


def test_correlation_is_not_agreement():
    # same slide: A = B = 1..5 gives κ = 1.0; B = 2A gives κ printed −0.08: exactly
    # A_o = 0, A_e = 2·(1/5)(1/5) = 0.08 (categories 2 and 4 shared), κ = −0.08/0.92
    # = −0.0870, truncated to −0.08.
    import pandas as pd
    a = list(range(1, 6))
    same = pd.DataFrame({"A": a, "B": a})
    assert iaa.cohen_kappa(Annotations.from_wide(same)).value == pytest.approx(1.0)
    double = Annotations.from_wide(pd.DataFrame({"A": a, "B": [2 * x for x in a]}))
    r = iaa.cohen_kappa(double)
    assert r.value == pytest.approx(-0.08 / 0.92, abs=1e-12)
    assert math.trunc(r.value * 100) / 100 == -0.08
    assert np.isclose(r.expected, 0.08)
