"""Gwet's benchmarking procedure (2014, Handbook of Inter-Rater Reliability, 4th ed., ch. 6).

Sources of the expected numbers:
- scipy.stats.truncnorm: the normal N(κ̂, se²) truncated to [−1, 1], its probability of
  each band, computed independently of our formula, to 1e-12;
- irrCAC 0.4.4 (Python port of Gwet's R package), ``irrCAC.benchmark.Benchmark``: its
  cumulative probabilities, printed rounded to 5 decimals, so compared to 5e-6; and the
  example of its docstring (κ̂ = 0.67, se = 0.15, Altman: cumulative 0.18168, 0.67511,
  0.96356, 0.99912, 1.0 → "Moderate").
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy.stats import truncnorm

from iaa_widgets import AgreementError, Annotations
from iaa_widgets.measures.benchmarking import SCALES, benchmark, membership
from iaa_widgets.measures.continuous.alpha import krippendorff_alpha
from iaa_widgets.measures.categorical.classic import cohen_kappa, percent_agreement

irrCAC = pytest.importorskip("irrCAC.benchmark")

CASES = [(0.67, 0.15), (0.3478, 0.3004), (0.91, 0.02), (-0.2, 0.1), (0.0, 0.5), (0.99, 0.3)]


@pytest.mark.parametrize("value,se", CASES)
@pytest.mark.parametrize("scale", list(SCALES))
def test_membership_is_the_truncated_normal(value, se, scale):
    law = truncnorm((-1 - value) / se, (1 - value) / se, loc=value, scale=se)
    table = membership(value, se, scale)
    expected = [law.cdf(hi) - law.cdf(lo) for lo, hi, _ in SCALES[scale]]
    np.testing.assert_allclose(table["probability"], expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(table["cumulative"], np.cumsum(expected), rtol=0, atol=1e-12)
    assert table["cumulative"].iloc[-1] == pytest.approx(1.0, abs=1e-12)  # scale tiles [−1, 1]
    assert list(table.index) == [label for *_, label in SCALES[scale]]


@pytest.mark.parametrize("value,se", CASES)
def test_cumulative_probabilities_match_irrcac(value, se):
    peer = irrCAC.Benchmark(coeff=value, se=se)
    for ours, theirs in (("landis-koch", peer.landis_koch()), ("fleiss", peer.fleiss()),
                         ("altman", peer.altman())):
        table = membership(value, se, ours)
        # irrCAC rounds its cumulative probabilities to 5 decimals
        np.testing.assert_allclose(table["cumulative"], theirs["CumProb"], atol=5e-6, rtol=0)
        assert list(zip(table["low"], table["high"])) == theirs["scale"]


def test_irrcac_docstring_example_and_the_band_rule():
    # irrCAC.benchmark.Benchmark docstring: κ̂ = 0.67, se = 0.15 on Altman's scale:
    # cumulative 0.18168, 0.67511, 0.96356, 0.99912, 1.0 → "Moderate" (first ≥ 0.95),
    # although 0.67 itself lies in "Good"
    b = benchmark(0.67, se=0.15, scale="altman")
    np.testing.assert_allclose(b.table["cumulative"],
                               [0.18168, 0.67511, 0.96356, 0.99912, 1.0], atol=5e-6)
    assert b.band == "Moderate"
    assert b.probability == pytest.approx(b.table.loc["Moderate", "cumulative"])
    # the rule: the highest band whose cumulative probability reaches the level
    assert benchmark(0.67, se=0.15, scale="altman", confidence=0.6).band == "Good"
    assert benchmark(0.67, se=0.15, scale="altman", confidence=0.99).band == "Fair"  # 0.99912
    assert benchmark(0.67, se=0.15, scale="altman", confidence=0.9995).band == "Poor"


def test_custom_scale_that_does_not_reach_minus_one():
    # Cicchetti & Sparrow (1981) from 0: normalised over [−1, 1] as Gwet does, so the
    # cumulative probability of the last band is P(κ > 0) < 1 (irrCAC, 5 decimals)
    scale = [(0.75, 1.0, "Excellent"), (0.6, 0.75, "Good"), (0.4, 0.6, "Fair"),
             (0.0, 0.4, "Poor")]
    value, se = 0.2, 0.25
    table = membership(value, se, scale)
    theirs = irrCAC.Benchmark(value, se).cicchetti_sparrow()["CumProb"]
    np.testing.assert_allclose(table["cumulative"], theirs, atol=5e-6, rtol=0)
    assert table["cumulative"].iloc[-1] < 0.95
    assert benchmark(value, se=se, scale=scale).band is None


def test_zero_standard_error_puts_everything_on_the_value():
    b = benchmark(1.0, se=0.0)
    assert b.band == "Almost perfect" and b.probability == 1.0
    t = membership(0.5, 0.0, "fleiss")
    assert t["probability"].tolist() == [0.0, 1.0, 0.0]
    assert membership(-1.0, 0.0, "altman")["probability"].tolist() == [0, 0, 0, 0, 1.0]


def test_benchmark_of_a_result_uses_its_standard_error():
    r = cohen_kappa(Annotations.from_contingency([[40, 9], [6, 45]]))
    b = r.benchmark("landis-koch")
    assert b.se == r.se and b.value == r.value and b.measure == "cohen_kappa"
    pd_table = membership(r.value, r.se, "landis-koch")
    assert b.table.equals(pd_table)
    assert benchmark(r, scale="krippendorff").scale == "krippendorff"


def test_errors_name_what_is_wrong():
    ann = Annotations.from_contingency([[2, 2], [1, 5]])
    with pytest.raises(AgreementError, match="no standard error"):  # nor a way to resample
        benchmark(dataclasses.replace(krippendorff_alpha(ann), resample=None))
    with pytest.raises(AgreementError, match="se="):
        benchmark(0.5)
    with pytest.raises(AgreementError, match="scale must be"):
        benchmark(0.5, se=0.1, scale="cohen")
    with pytest.raises(AgreementError, match="scale must be"):  # a gap between bands
        benchmark(0.5, se=0.1, scale=[(0.5, 1.0, "high"), (0.0, 0.4, "low")])
    with pytest.raises(AgreementError, match="se must be"):
        benchmark(0.5, se=-0.1)
    with pytest.raises(AgreementError, match="NaN"):
        benchmark(0.5 * math.nan, se=0.1)
    with pytest.raises(AgreementError, match="confidence must be"):
        benchmark(0.5, se=0.1, confidence=0)


def test_result_html_shows_the_bands_only_for_a_coefficient_with_an_se():
    ann = Annotations.from_contingency([[40, 9], [6, 45]], categories=["<b>yes</b>", "no"])
    kappa = cohen_kappa(ann)
    page = kappa._repr_html_()
    assert "iaa-benchmarks" in page and "Gwet 2014, ch. 6" in page
    for scale in SCALES:
        b = kappa.benchmark(scale)
        assert f"{b.band} ({b.probability:.3f})" in page.replace("&amp;", "&")
    assert "<b>yes</b>" not in page  # labels from the data stay text
    # no SE (α) or no expected agreement (A_o): the page is as before
    assert krippendorff_alpha(ann).se is None
    assert "iaa-benchmarks" not in krippendorff_alpha(ann)._repr_html_()
    assert percent_agreement(ann).se is not None
    assert "iaa-benchmarks" not in percent_agreement(ann)._repr_html_()


def test_alpha_is_benchmarked_with_its_bootstrap_standard_error():
    """α has no analytic standard error: result.benchmark() takes the bootstrap's over the
    same items (the one iaa.bootstrap gives with the same seed) and says so (issue 33)."""
    import iaa_widgets as iaa
    data = iaa.datasets.krippendorff_2011()
    result = iaa.krippendorff_alpha(data, metric="interval")
    b = result.benchmark("krippendorff")
    boot = iaa.bootstrap(data, iaa.krippendorff_alpha, seed=0, metric="interval")
    assert b.se == boot.se and b.value == result.value
    assert b.se_source == "bootstrap over items (1,000 resamples, seed 0)"
    assert "bootstrap over items" in b._repr_html_()
    # a measure with an analytic standard error keeps it
    kappa = iaa.cohen_kappa(data, annotators=("A", "B"))
    assert kappa.benchmark().se == kappa.se and kappa.benchmark().se_source == "analytic"
