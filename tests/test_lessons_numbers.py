"""Every number issue 41 corrects in the lessons, recomputed with the package, and the
notebook's text checked to state it (cells found by id in the committed .ipynb JSON).

Sources of the expected numbers: the tables printed in the notebooks (Feinstein &
Cicchetti's tables as in Gerstman, Table 10.6, and BMC Med Res Methodol 14:100 (2014),
Table 3, scenarios 4 and 5; Meyer's slides; Krippendorff 2011's reliability data), each
recomputed here by a formula written out in the test or by the package, and issue 41's
own figures, each of which reproduced (none is copied without being recomputed).
Folded answers to exercises are checked through notebooks/lesson.py's
``check_exercise``, the function a student calls. Figures that only the package computes
(bootstrap intervals, EM fits and MACE on seeded data, γ on the seeded continuum) are
the package's, compared with what the text states: they keep the text from drifting
from the code; the measures' own tests check the code against references.
"""
import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def _lesson():
    spec = importlib.util.spec_from_file_location("lesson", NOTEBOOKS / "lesson.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("lesson", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


lesson = _lesson()


def cell(notebook: str, cell_id: str) -> str:
    """The source of one cell of a committed notebook, by its id."""
    nb = json.loads((NOTEBOOKS / notebook).read_text())
    (source,) = ["".join(c["source"]) for c in nb["cells"] if c.get("id") == cell_id]
    return source


def markdown(notebook: str) -> str:
    nb = json.loads((NOTEBOOKS / notebook).read_text())
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def table(counts, categories=("yes", "no")):
    return Annotations.from_contingency(counts, categories=list(categories))


P07, P01 = "07_kappa_paradoxes.ipynb", "01_tutorial_measures.ipynb"
TABLE_B, TABLE_C, TABLE_D = [[80, 10], [5, 5]], [[45, 15], [25, 15]], [[25, 35], [5, 35]]


# ------------------------------------------------------------ 07: errors 1-4 and 7
def test_07_chance_terms_from_c_to_d():
    """Error 1: AC1's chance term rises (0.455 → 0.495), S's stays, π's and κ's fall."""
    c, d = table(TABLE_C), table(TABLE_D)
    # Gwet (2008): p_e = Σ_k π_k(1 − π_k)/(q − 1) with π_k the pooled shares 0.65, 0.45
    assert 2 * 0.65 * 0.35 == pytest.approx(iaa.gwet_ac1(c).expected)
    assert 2 * 0.45 * 0.55 == pytest.approx(iaa.gwet_ac1(d).expected)
    assert (round(iaa.gwet_ac1(c).expected, 3), round(iaa.gwet_ac1(d).expected, 3)) == (0.455, 0.495)
    assert iaa.bennett_s(c).expected == iaa.bennett_s(d).expected == 0.5
    assert (round(iaa.scott_pi(c).expected, 3), round(iaa.scott_pi(d).expected, 3)) == (0.545, 0.505)
    assert (round(iaa.cohen_kappa(c).expected, 2), round(iaa.cohen_kappa(d).expected, 2)) == (0.54, 0.46)
    assert (round(iaa.gwet_ac1(c).value, 2), round(iaa.gwet_ac1(d).value, 2)) == (0.27, 0.21)
    assert round(iaa.bennett_s(c).value, 2) == round(iaa.bennett_s(d).value, 2) == 0.20
    text = cell(P07, "e9530ea4")
    assert "Every chance term falls" not in text
    assert "(0.455 → 0.495)" in text and "S's stays at 0.5" in text and "(0.545 → 0.505" in text


def test_07_lopsided_disagreements_move_kappa_only():
    """Error 2: over [[80,10],[5,5]] → [[80,12],[3,5]] → [[80,15],[0,5]] κ goes 0.318 →
    0.327 → 0.348 (κ = (A_o − A_e)/(1 − A_e) with A_e from each annotator's marginals,
    computed here by hand) while π, α, AC1 and S stay where they are."""
    tables = [[[80, 10], [5, 5]], [[80, 12], [3, 5]], [[80, 15], [0, 5]]]
    by_hand = []
    for t in np.array(tables) / 100:
        a_e = t.sum(1) @ t.sum(0)
        by_hand.append((np.trace(t) - a_e) / (1 - a_e))
    kappas = [iaa.cohen_kappa(table(t)).value for t in tables]
    assert kappas == pytest.approx(by_hand, abs=1e-12)
    assert [round(k, 3) for k in kappas] == [0.318, 0.327, 0.348]
    for measure in (iaa.scott_pi, iaa.krippendorff_alpha, iaa.gwet_ac1, iaa.bennett_s):
        values = [measure(table(t)).value for t in tables]
        assert max(values) - min(values) < 1e-12, measure.__name__
    text = cell(P07, "551aaa3a")
    assert "four tries" in text and "three tries" not in text and "faster than π" not in text
    assert "0.318 → 0.327 → 0.348" in text
    # the exercise "which moves least?": S, 0.20 in C and D
    assert "0.20 in C and D" in cell(P07, "370badff")


def test_07_items_to_retain_fair():
    """Error 3: 300 items keep "Slight", 400 retain "Fair" (cumulative probability 0.962);
    the normal approximation (κ − 0.2)/SE ≥ 1.645 with SE ∝ 1/√n gives about 345."""
    def benchmark(n):
        scaled = (np.array(TABLE_B) * n // 100).tolist()
        return iaa.cohen_kappa(table(scaled)).benchmark()
    assert benchmark(300).band == "Slight"
    four = benchmark(400)
    assert four.band == "Fair" and round(four.probability, 3) == 0.962
    b = iaa.cohen_kappa(table(TABLE_B))
    assert round(b.value, 3) == 0.318 and round(b.se, 3) == 0.133
    n = 100 * (b.se / ((b.value - 0.2) / 1.6448536269514722)) ** 2
    assert round(n) == 345
    assert benchmark(340).band == "Slight" and benchmark(360).band == "Fair"
    answer = cell(P07, "370badff")
    assert "0.962" in answer and "345" in answer and "ten times the items" not in answer
    assert lesson.check_exercise("07.4", 360).ok
    assert not lesson.check_exercise("07.4", 400).ok   # retains it, but is not the least
    assert not lesson.check_exercise("07.4", 340).ok


def test_07_yes_share_of_table_b():
    """Error 4: A says yes 90 times, B 85 times: 175 of 200 ratings, 87.5 %."""
    t = np.array(TABLE_B)
    assert t.sum(1)[0] + t.sum(0)[0] == 175 and 175 / 200 == 0.875
    text = cell(P07, "49849332")
    assert "87.5 %" in text and "85 % of" not in text


def test_07_weighted_kappa_against_alpha():
    """Error 7 and the weighted-κ formula: on Krippendorff (2011), annotators A and B,
    linear κ_w 0.894 against α with δ = |c − k| 0.899, quadratic κ_w 0.940 against
    interval α 0.943; κ_w computed here from the formula the notebook prints."""
    rel = iaa.datasets.krippendorff_2011()
    pair = rel[rel["annotator"].isin(["A", "B"])]
    wide = pair.pivot(index="item", columns="annotator", values="label").dropna()
    values = np.arange(1, 6)
    p = pd.crosstab(wide["A"], wide["B"]).reindex(index=values, columns=values,
                                                  fill_value=0).to_numpy() / len(wide)
    chance = np.outer(p.sum(1), p.sum(0))
    dist = np.abs(values[:, None] - values[None, :])
    for weights, w in (("linear", 1 - dist / 4), ("quadratic", 1 - dist ** 2 / 16)):
        formula = ((w * p).sum() - (w * chance).sum()) / (1 - (w * chance).sum())
        assert iaa.cohen_kappa(pair, weights=weights).value == pytest.approx(formula, abs=1e-12)
    absolute = pd.DataFrame(dist.astype(float), index=values, columns=values)
    got = (iaa.cohen_kappa(pair, weights="linear").value,
           iaa.krippendorff_alpha(pair, metric=absolute).value,
           iaa.cohen_kappa(pair, weights="quadratic").value,
           iaa.krippendorff_alpha(pair, metric="interval").value)
    assert tuple(round(v, 3) for v in got) == (0.894, 0.899, 0.940, 0.943)
    text = cell(P07, "8ef20872")
    assert "correspond to no α metric" not in text and "\\kappa_w =" in text
    assert "κ_w keeps each annotator's" in text
    assert "0.894" in cell(P07, "eb8c9d35") and "0.899" in cell(P07, "eb8c9d35")


def test_07_exercise_1_answer():
    assert lesson.check_exercise("07.1", [[80, 10], [10, 0]]).ok
    assert not lesson.check_exercise("07.1", [[40, 9], [6, 45]]).ok   # table A: κ 0.70
    assert not lesson.check_exercise("07.1", [[80, 10], [10, 1]]).ok  # 101 items


# ------------------------------------------------------------ 01: errors 5, 6, 10
SLIDE_6 = [[46, 0, 0], [0, 10, 0], [6, 6, 32]]  # Meyer, "Krippendorff's α: Example", rows r1


def test_01_linear_distance_is_not_the_interval_metric():
    """Error 5: δ = 0, 0.5, 1 is |c − k|/2 (α 0.8155); interval α on 1, 2, 3 is 0.8260."""
    labels = ["+", "•", "−"]
    half = pd.DataFrame([[abs(c - k) / 2 for k in range(3)] for c in range(3)],
                        index=labels, columns=labels)
    linear = iaa.krippendorff_alpha(Annotations.from_contingency(SLIDE_6, labels), metric=half)
    interval = iaa.krippendorff_alpha(Annotations.from_contingency(SLIDE_6, [1, 2, 3]),
                                      metric="interval")
    assert math.trunc(linear.value * 1e4) / 1e4 == 0.8155
    assert round(interval.value, 4) == 0.8260
    exercises = cell(P01, "4479f5b4")
    assert "interval metric on positions 0, 1, 2, scaled" not in exercises
    assert "linear distance $|c - k|/2$" in exercises and "0.8260" in exercises
    assert lesson.check_exercise("01.3", 0.8260).ok
    assert not lesson.check_exercise("01.3", 0.8155).ok


def test_01_random_raters_hold_180_items():
    """Error 6: np.full((2, 2), 45) and np.full((3, 3), 20) both hold 180 items."""
    assert np.full((2, 2), 45).sum() == np.full((3, 3), 20).sum() == 180
    text = cell(P01, "38a702d4")
    assert "180 items" in text and "90 items" not in text


def test_01_correlation_against_agreement_on_numbers():
    """Error 10: B = 2A gives Pearson r = 1, interval α 0.317, ICC(A,1) 0.476."""
    a = np.array([1, 2, 3, 4, 5])
    scores = pd.DataFrame({"item": list(range(5)) * 2, "annotator": ["A"] * 5 + ["B"] * 5,
                           "label": [*a, *(2 * a)]})
    assert np.corrcoef(a, 2 * a)[0, 1] == pytest.approx(1)
    assert round(iaa.krippendorff_alpha(scores, metric="interval").value, 3) == 0.317
    assert round(iaa.icc(scores).value, 3) == 0.476
    text = cell(P01, "0c747b42")
    assert "0.317" in text and "0.476" in text


def test_01_tries_and_exercises():
    """The folded answers of 01's tries: 71 items for A_o+ to pass 0.8; one item off the
    diagonal costs κ 0.26; with high rare S follows A_o while π and κ level off."""
    def a_plus(a):  # 2a / (2a + b + c), b + c = 40
        return 2 * a / (2 * a + 40)
    assert a_plus(80) == 0.8 and a_plus(81) > 0.8 and 81 - 10 == 71
    nouns = Annotations.from_contingency([[81, 20], [20, 929]], ["+", "−"])
    spec = iaa.specific_agreement(nouns, positive="+").per_category["specific_agreement"]
    assert spec["+"] > 0.8
    assert "71." in markdown(P01)

    def coefficients(t):  # rows r2, columns r1, as the teaching widget
        ann = Annotations.from_contingency(np.array(t).T.tolist(), ["high", "low"])
        return [round(f(ann).value, 3) for f in (iaa.percent_agreement, iaa.bennett_s,
                                                 iaa.scott_pi, iaa.cohen_kappa)]
    assert coefficients([[2, 2], [1, 5]]) == [0.7, 0.4, 0.341, 0.348]
    assert coefficients([[1, 3], [1, 5]])[::3] == [0.6, 0.091]
    assert coefficients([[2, 2], [1, 20]])[1] == 0.76
    rare = coefficients([[2, 2], [1, 95]])
    assert rare[1] == 0.94 and round(rare[2], 2) == round(rare[3], 2) == 0.56
    text = markdown(P01)
    assert "(0.348 → 0.091)" in text and "near 0.56" in text
    assert lesson.check_exercise("01.1", (0.6, 0.2)).ok
    assert not lesson.check_exercise("01.1", (0.6, 0.5)).ok
    assert lesson.check_exercise("01.2", [[8, 1], [1, 0]]).ok
    assert not lesson.check_exercise("01.2", [[5, 1], [1, 3]]).ok


def test_01_intervals_and_coincidences():
    """00 and 01 print κ's interval −0.24 … 0.94 on 10 items (and A_o's 0.42 … 0.98):
    the lesson reads them. The coincidence matrix: diagonal 14 of 20 values, rows 7, 13."""
    ratings = iaa.datasets.meyer_relatedness()
    two = ratings[ratings["annotator"].isin(["r1", "r2"])]
    kappa = iaa.cohen_kappa(two)
    assert tuple(round(v, 2) for v in kappa.ci) == (-0.24, 0.94)
    assert tuple(round(v, 2) for v in iaa.percent_agreement(two).ci) == (0.42, 0.98)
    text = markdown(P01)
    assert "−0.24 to\n0.94" in text and "0.42 to 0.98" in text
    assert "−0.24" in markdown("00_tour.ipynb")
    o = iaa.krippendorff_alpha(two).params["coincidences"]
    assert np.trace(o) == 14 and tuple(o.sum(axis=1)) == (7, 13) and o.to_numpy().sum() == 20
    assert "14/20 = 0.7" in text and "(7/20)^2 + (13/20)^2 = 0.545" in text


# ------------------------------------------------------------ 02-05
def test_02_tries_and_interval():
    emails = iaa.datasets.email_types()
    curve = iaa.augmented_kappa_sweep(emails, rank="rank").curve.set_index("p").round(3)
    assert tuple(curve.loc[0.6]) == (0.489, 0.550, 0.118)
    assert tuple(curve.loc[0.8]) == (0.515, 0.573, 0.121)
    default = iaa.augmented_kappa_sweep(emails, rank="rank").items["class"]
    wider = iaa.augmented_kappa_sweep(emails, rank="rank", delta=0.3).items["class"]
    moves = pd.crosstab(default, wider)
    assert (moves.loc["higher_at_p05", "higher_at_p05"], default.eq("higher_at_p05").sum()) == (7, 90)
    assert (moves.loc["higher_at_p1", "higher_at_p1"], default.eq("higher_at_p1").sum()) == (88, 105)
    assert set(default[default != wider]) <= {"higher_at_p05", "higher_at_p1"}
    assert set(wider[default != wider]) == {"constant_low"}
    pairs = iaa.augmented_kappa(emails, p=0.6, rank="rank").pairs["kappa"].round(3).tolist()
    assert pairs == [0.516, 0.484, 0.468]
    text = markdown("02_augmented_kappa.ipynb")
    assert "7\n   of its 90" in text and "0.516 at p = 0.6" in text
    # the slope's paired bootstrap: one seed draws the same resamples for both ends
    ann = iaa.Annotations.from_long(emails, rank="rank")
    ends = [iaa.bootstrap(ann, iaa.augmented_kappa, n_resamples=1000, seed=1, p=p)
            for p in (0.5, 1.0)]
    rise = np.asarray(ends[1].values) - np.asarray(ends[0].values)
    assert tuple(np.percentile(rise, [2.5, 97.5]).round(2)) == (0.04, 0.09)
    few = [iaa.bootstrap(ann, iaa.augmented_kappa, n_resamples=5, seed=3, p=p) for p in (0.5, 1.0)]
    paired = iaa.bootstrap(ann, lambda d: iaa.augmented_kappa(d, p=1.0).value
                           - iaa.augmented_kappa(d, p=0.5).value, n_resamples=5, seed=3)
    assert np.allclose(np.asarray(few[1].values) - np.asarray(few[0].values), paired.values)
    # exercise 1 (κ′ = 0.6 by hand) and exercise 3 (no nearly-constant mean κ_x in 0.25 … 1)
    assert lesson.check_exercise("02.1", 0.6).ok and not lesson.check_exercise("02.1", 0.5).ok
    items = iaa.augmented_kappa_sweep(emails, rank="rank").items
    flat = items[items["class"].isin(["constant_high", "constant_low"])]
    means = (flat["kappa_0.5"] + flat["kappa_1.0"]) / 2
    assert round(means[means < 0.999].max(), 2) == 0.24
    strict = iaa.augmented_kappa_sweep(emails, rank="rank", tau=0.9).items["class"]
    assert strict.equals(items["class"])


def test_03_fleiss_needs_equal_numbers_of_ratings():
    """Error 8: Fleiss' κ takes anonymous counts, any raters, as long as each item has the
    same number m of ratings; unequal m takes Gwet's missing="available"."""
    equal = Annotations.from_counts([[3, 0], [1, 2], [0, 3], [2, 1]], categories=["a", "b"])
    assert np.isfinite(iaa.fleiss_kappa(equal).value)
    text = cell("03_sparse_agreement.ipynb", "317722b7")
    assert "needs complete data" not in text and "same number" in text
    assert 'missing="available"' in text
    assert "Gwet" in markdown("08_exploring_a_project.ipynb")


def test_03_interval_and_exercise():
    crowd = iaa.datasets.crowd_labels()
    spread = iaa.bootstrap(crowd, iaa.sparse_agreement, n_resamples=1000, seed=1,
                           scheme="annotations_m1")
    assert tuple(round(v, 2) for v in spread.ci) == (0.53, 0.57)
    assert "0.53 … 0.57" in markdown("03_sparse_agreement.ipynb")
    # exercise 1's answer: drop 0.8 of the hard items' labels, 0.2 of the others'
    complete = iaa.datasets.crowd_labels(n_items=300, n_annotators=6,
                                         annotations_per_item=6, seed=7)
    full = iaa.sparse_agreement(complete, scheme="annotations_m1")
    hard = full.per_item["agreement"] < full.per_item["agreement"].median()
    drop = np.where(complete["item"].map(hard).to_numpy(), 0.8, 0.2)
    kept = complete[np.random.default_rng(0).random(len(complete)) >= drop]
    verdict = lesson.check_exercise("03.1", kept)
    assert verdict.ok and "0.57" in verdict.message   # the complete data's SPA
    assert round(iaa.sparse_agreement(kept, scheme="annotations_m1").value, 2) == 0.73
    at_random = complete[np.random.default_rng(1).random(len(complete)) >= 0.5]
    assert not lesson.check_exercise("03.1", at_random).ok


def test_04_tries_and_exercise():
    continuum = iaa.Continuum.from_frame(iaa.datasets.argument_units())
    no_categories = iaa.gamma(continuum, beta=0, n_samples=30, seed=1).value
    assert round(no_categories, 2) == 0.66
    assert "from 0.62 to 0.66" in markdown("04_gamma_family.ipynb")
    verdict = lesson.check_exercise("04.1", 60)   # γ_cat collapses, to about −0.14
    assert verdict.ok and "-0.143" in verdict.message
    assert not lesson.check_exercise("04.1", 0).ok


def test_05_the_pattern_this_data_does_not_show():
    """Error 9: 2 of 120 spans have the three labelers agreeing against the reviewer, and
    every labeler–labeler α lies below both labelers' α with the reviewer."""
    project = iaa.datasets.review_spans()
    wide = project.pivot(index="item", columns="annotator", values="label")
    labelers = ["Labeler A", "Labeler B", "Labeler C"]
    overruled = wide[(wide[labelers].nunique(axis=1) == 1) & wide[labelers].notna().all(axis=1)
                     & (wide["Labeler A"] != wide["Reviewer"])]
    assert (len(overruled), len(wide)) == (2, 120)
    m = iaa.pairwise(project, "krippendorff_alpha")
    for a, b in [("Labeler A", "Labeler B"), ("Labeler A", "Labeler C"),
                 ("Labeler B", "Labeler C")]:
        assert m.loc[a, b] < min(m.loc[a, "Reviewer"], m.loc[b, "Reviewer"])
    assert (round(m.loc["Labeler A", "Labeler B"], 3), round(m.loc["Labeler A", "Reviewer"], 3),
            round(m.loc["Labeler B", "Reviewer"], 3)) == (0.604, 0.753, 0.654)
    text = cell("05_labelers_and_reviewers.ipynb", "6af0e3ae")
    assert "does not show it" in text and "only 2 of its 120 spans" in text
    accuracy = iaa.annotator_profile(project, reference="Reviewer").loc["Labeler C", "accuracy"]
    both = wide[["Labeler C", "Reviewer"]].dropna()
    assert (both["Labeler C"] == both["Reviewer"]).mean() == pytest.approx(accuracy, abs=1e-12)
    assert lesson.check_exercise("05.3", (both["Labeler C"] == both["Reviewer"]).mean()).ok
    assert not lesson.check_exercise("05.3", 0.5).ok


def test_check_exercise_names_what_it_checks():
    with pytest.raises(KeyError, match="07.1"):
        lesson.check_exercise("07.9", 1)
    verdict = lesson.check_exercise("07.1", [[80, 10], [10, 0]])
    assert verdict._repr_markdown_().startswith("✔") and "A_o = 0.80" in verdict.message


# ------------------------------------------------------------ 07b: the annotator models
def test_07b_models_lesson_answers():
    """The folded answers of 07b, recomputed on lesson.simulated_crowd (seeded): without
    fox one-coin Dawid–Skene 0.89, the full model 0.87, the vote 0.78; with five equally
    good annotators the vote 0.86, Dawid–Skene 0.85, MACE 0.86."""
    def right(labels, truth):
        return round(labels.reindex(truth.index).astype(str).eq(truth).mean(), 2)
    ratings, truth = lesson.simulated_crowd({k: v for k, v in lesson.CROWD.items() if k != "fox"})
    assert (right(iaa.dawid_skene(ratings, model="one-coin").labels, truth),
            right(iaa.dawid_skene(ratings).labels, truth),
            right(iaa.majority_vote(ratings, seed=0).labels, truth)) == (0.89, 0.87, 0.78)
    equal, truth = lesson.simulated_crowd({n: 0.7 for n in ["ana", "ben", "cai", "dee", "eve"]})
    assert (right(iaa.majority_vote(equal, seed=0).labels, truth),
            right(iaa.dawid_skene(equal).labels, truth),
            right(iaa.mace(equal, seed=0).labels, truth)) == (0.86, 0.85, 0.86)
    text = markdown("07b_annotator_models.ipynb")
    assert "89 % of the items, against 87 % for the full model and 78 %" in text
    assert "the vote is right on 86 % of the items, Dawid–Skene on 85 % and MACE on 86 %" in text
    # the simulation's plan: shares .5/.3/.2 and each annotator's accuracy, within noise
    ratings, truth = lesson.simulated_crowd()
    wide = ratings.pivot(index="item", columns="annotator", values="label")
    observed = wide.eq(truth, axis=0).mean()
    for name in ("ana", "ben", "cai", "dee"):
        assert abs(observed[name] - lesson.CROWD[name]) < 3 * math.sqrt(0.25 / len(truth))
    assert (wide["fox"] == "yes").all() and len(truth) == 300


# ------------------------------------------------------------ 08 as a lesson
def test_08_exercise_answers():
    """08's folded answers: κ without dev 0.747 (0.710 … 0.784) against 0.600 (0.563 …
    0.636); with MACE as the consensus dev 0.55 → 0.56, ana 0.92 → 0.96, ben 0.86 →
    0.89."""
    ratings = iaa.datasets.product_reviews().drop(columns="text")
    whole = iaa.fleiss_kappa(ratings, missing="available")
    without = iaa.fleiss_kappa(ratings[ratings["annotator"] != "dev"], missing="available")
    assert tuple(round(v, 3) for v in (whole.value, *whole.ci)) == (0.600, 0.563, 0.636)
    assert tuple(round(v, 3) for v in (without.value, *without.ci)) == (0.747, 0.710, 0.784)
    vote = iaa.annotator_profile(ratings)["consensus_agreement"].round(2)
    model = iaa.annotator_profile(ratings, consensus="mace")["consensus_agreement"].round(2)
    assert (vote["dev"], model["dev"]) == (0.55, 0.56) and model.idxmin() == "dev"
    assert (vote["ana"], model["ana"], vote["ben"], model["ben"]) == (0.92, 0.96, 0.86, 0.89)
    exercises = cell("08_exploring_a_project.ipynb", "project-exercises")
    assert "0.747 (0.710 … 0.784) against 0.600 (0.563 … 0.636)" in exercises
    assert "ana\nfrom 0.92 to 0.96" in exercises
