"""Notebook 09 (planning and reporting, issue 45 §5): every number its prose states,
recomputed with the package, and the text checked to state it; its folded answers
checked through notebooks/lesson.py's ``check_exercise``, the function a student calls.

Sources of the expected numbers: Krippendorff (2011), "Computing Krippendorff's
Alpha-Reliability" (nominal α = 0.743 of his reliability data); issue 45's interval for
those data with 20,000 replicates of Hayes & Krippendorff's bootstrap, [0.615, 0.872]
(kripp.boot's algorithm without its cap); R irr 0.84.1 ``N.cohen.kappa(0.5, 0.5, 0.7,
0.85)`` = 96 and R kappaSize 1.2 ``CIBinary(kappa0=0.6, kappaL=0.4, props=0.3,
raters=3)`` = 37 and ``PowerBinary(kappa0=0.4, kappa1=0.6, props=0.3, raters=3)`` = 106
(tests/fixtures/kappasize/, rows "irr.csv" 1 and "kappasize.csv" 2 categories × 3
raters); Gwet's rule ⌈z² p(1 − p)/E²⌉ written out below. The other figures describe
seeded simulations (lesson.simulated_crowd, lesson.tokens_in_documents): they are the
package's output, and the test keeps the text equal to it.
"""
import math

import numpy as np
import pytest
from scipy.stats import norm

import iaa_widgets as iaa
from test_lessons_numbers import lesson, markdown

NB = "09_planning_and_reporting.ipynb"


@pytest.fixture(scope="module")
def text():
    return " ".join(markdown(NB).split())


@pytest.fixture(scope="module")
def crowd():
    ratings, _ = lesson.simulated_crowd({"ana": 0.85, "ben": 0.8, "cai": 0.75, "dee": 0.7},
                                        n_items=300, seed=7)
    return (ratings[ratings["annotator"].isin(["cai", "dee"])],
            ratings[ratings["annotator"].isin(["ana", "ben"])])


def r3(*values):
    return tuple(round(float(v), 3) for v in values)


def test_09_good_enough(text):
    boot = iaa.bootstrap(iaa.datasets.krippendorff_2011(), "krippendorff_alpha",
                         method="krippendorff", n_resamples=20_000, seed=0)
    assert r3(boot.estimate, *boot.ci) == (0.743, 0.615, 0.872)
    assert (round(100 * boot.prob_below(0.8)), round(100 * boot.prob_below(0.667))) == (79, 13)
    assert "α = 0.743, with a 95 % interval of 0.615 … 0.872" in text
    assert "79 % of the replicates fall below 0.8 ($q(0.8) = 0.79$) and 13 % below 0.667" in text


def test_09_paired_and_independent(text, crowd):
    first, second = crowd
    paired = iaa.compare(first, second, "fleiss_kappa")
    independent = iaa.compare(first, second, "fleiss_kappa", paired=False)
    assert paired.method.startswith("paired t-test on linearised terms")
    assert r3(*paired.estimates, paired.difference, *paired.ci, paired.p_value) == \
        (0.365, 0.506, 0.140, 0.025, 0.255, 0.017)
    assert r3(paired.se, independent.se, *independent.ci, independent.p_value) == \
        (0.058, 0.060, 0.023, 0.257, 0.019)
    assert ("rose from 0.365 to 0.506 with the second guideline: by 0.140, with a paired "
            "95 % interval of 0.025 … 0.255 (t-test on the linearised terms, p = 0.017)") in text
    assert ("a standard error of 0.060 instead of 0.058 (interval 0.023 … 0.257, p = 0.019)"
            in text)


def test_09_clustered_tokens(text):
    tokens = lesson.tokens_in_documents()
    assert len(tokens) == 2 * 1200 and tokens["document"].nunique() == 24
    naive = iaa.bootstrap(tokens, "cohen_kappa", n_resamples=1000, seed=0)
    clustered = iaa.bootstrap(tokens, "cohen_kappa", n_resamples=1000, seed=0,
                              cluster="document")
    assert r3(naive.estimate, naive.se, clustered.se) == (0.252, 0.028, 0.056)
    assert tuple(round(v, 2) for v in (*naive.ci, *clustered.ci)) == (0.20, 0.31, 0.14, 0.36)
    assert ("κ = 0.252 either way; only its uncertainty differs. Drawing tokens, the standard "
            "error is 0.028 and the interval 0.20 … 0.31; drawing documents, 0.056 and "
            "0.14 … 0.36") in text


def test_09_how_many_items(text, crowd):
    pilot = iaa.sample_size(crowd[1], "fleiss_kappa", half_width=0.05, alpha_min=0.4,
                            prob=0.95, seed=0)
    assert (pilot.n_items, pilot.n_items_for_prob, r3(pilot.estimate, pilot.se)) == \
        (785, 124, (0.506, 0.041))
    assert ("The pilot's κ is 0.506 with a bootstrap standard error of 0.041 over 300 items; "
            "± 0.05 at 95 % needs 785 items, 485 more than the pilot") in text
    assert "exceeds 0.4 with probability 0.95 needs only 124" in text
    tokens = lesson.tokens_in_documents()
    clustered = iaa.sample_size(tokens, "cohen_kappa", half_width=0.05, cluster="document",
                                seed=0)
    naive = iaa.sample_size(tokens, "cohen_kappa", half_width=0.05, seed=0)
    assert (clustered.n_items, clustered.n_items // 50, naive.n_items) == (5900, 118, 1445)
    assert "asks for 5,900 tokens (118 documents of 50), the naive one for 1,445" in text


def test_09_designs(text):
    # R irr 0.84.1 and kappaSize 1.2 (module docstring); Gwet's rule by its formula
    assert iaa.sample_size(method="cantor", kappa0=0.85, kappa1=0.7,
                           prevalence=(0.5, 0.5)).n_items == 96
    assert iaa.sample_size(method="rotondi-ci", kappa0=0.6, kappa_low=0.4, prevalence=0.3,
                           raters=3).n_items == 37
    assert iaa.sample_size(method="rotondi-power", kappa0=0.4, kappa1=0.6, prevalence=0.3,
                           raters=3).n_items == 106
    z2 = norm.ppf(0.975) ** 2
    assert math.ceil(z2 * 0.8 * 0.2 / 0.05 ** 2) == 246 == iaa.sample_size(
        method="percent", agreement=0.8, half_width=0.05).n_items
    for said in ("raters of a balanced binary label need 96 items",
                 "lower limit no lower than 0.4 need 37 items",
                 "with power 0.8 needs 106", "needs 246 items"):
        assert said in text


def test_09_designer_answers(text, crowd):
    def items(**traits):
        designer = iaa.StudyDesigner(**traits)
        return [d["items"] for d in designer.designs]
    assert items() == [337, 149, 54, 100]
    assert items(half_width=0.05) == [1259, 149, 215, 100]
    assert items(raters=4) == [154, 72, 54]
    assert items(prevalence=0.1) == [744, 335, 26, 239]
    # the pilot's projection (section 3's second pair, the widget's 1,000 replicates)
    designer = iaa.StudyDesigner(crowd[1], "fleiss_kappa", seed=0)
    assert designer.designs[-1]["items"] == 196
    designer.half_width = 0.05
    assert designer.designs[-1]["items"] == 783
    pe = 0.1 ** 2 + 0.9 ** 2  # chance agreement of two raters at prevalence 0.1
    assert (round(pe, 2), round(0.6 * (1 - pe) + pe, 2)) == (0.82, 0.93)
    for said in ("goes from 337 to 1,259 items, Gwet's rule from 54 to 215, the pilot's "
                 "projection from 196 to 783",
                 "needs 154 items instead of 337, and its test 72 instead of 149",
                 "stays at 54", "the interval design needs 744 items and Cantor's test 239",
                 "Gwet's rule needs only 26 items", "$0.1^2 + 0.9^2 = 0.82$"):
        assert said in text


def test_09_exercises(text):
    # 1: Gwet's rule ⌈1.96² · 0.9 · 0.1 / 0.03²⌉ = ⌈384.1⌉ = 385
    assert math.ceil(norm.ppf(0.975) ** 2 * 0.09 / 0.03 ** 2) == 385
    assert lesson.check_exercise("09.1", 385).ok and not lesson.check_exercise("09.1", 384).ok
    assert "\\lceil 384.1 \\rceil = 385$ items" in text
    # 2: 785 · (5/3)² ≈ 2,181 by hand, 2,178 from the function; both within 1 %
    assert round(785 * (0.05 / 0.03) ** 2) == 2181
    assert lesson.check_exercise("09.2", 2178).ok and lesson.check_exercise("09.2", 2181).ok
    assert not lesson.check_exercise("09.2", 785).ok
    assert "\\approx 2{,}181$. The function gives 2,178" in text
    # 3: 30 documents (1,500 tokens) clustered, 362 tokens naive
    tokens = lesson.tokens_in_documents()
    naive = iaa.sample_size(tokens, "cohen_kappa", half_width=0.1, seed=0).n_items
    assert naive == 362 and math.ceil(naive / 50) == 8
    assert lesson.check_exercise("09.3", 30).ok and not lesson.check_exercise("09.3", 1500).ok
    assert "30 documents (1,500 tokens), against 362 tokens (8 documents, rounded up)" in text
    # an answer that is no number says what to give
    assert "answer a number of items" in lesson.check_exercise("09.1", "many").message


def test_09_reporting_matches_the_report(text):
    """The paragraph the lesson prints is the one ``iaa report`` puts in its section,
    which adds the bootstrap over units where a unit holds more than two values, as the
    lesson's caution says (this data: up to 4 values in a unit)."""
    from iaa_widgets.report import reporting_paragraph
    data = iaa.datasets.krippendorff_2011()
    boot = iaa.bootstrap(data, "krippendorff_alpha", method="krippendorff",
                         n_resamples=500, seed=0)
    units = iaa.bootstrap(data, "krippendorff_alpha", n_resamples=500, seed=0).ci
    assert reporting_paragraph(iaa.as_annotations(data), n_resamples=500, seed=0) == \
        boot.reporting() + (" Its units hold up to 4 values, whose pairs this bootstrap draws "
                            "as independent, so its interval is narrower than it should be; "
                            f"the bootstrap over units gives [{units[0]:.3f}, {units[1]:.3f}].")
    assert "covered the true α 87 % of the time" in text and "units 94 %" in text
    assert np.isfinite(boot.prob_below(0.8))
