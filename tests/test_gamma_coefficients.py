"""γ, γ_cat, γ_k: Mathet 2017 §4.2–4.3 and §5.1 (Krippendorff 2011 data as a continuum)."""
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.continuum import Continuum, random_continuum
from iaa_widgets.datasets import krippendorff_2011
from iaa_widgets.measures.continuum.gamma.alignment import alignment_from_members, best_alignment
from iaa_widgets.measures.continuum.gamma.coefficients import category_disorder, gamma_family


def krippendorff_D_o(table: pd.DataFrame) -> Fraction:
    """Nominal D_o from the coincidence definition, exact (Krippendorff 2011, p. 4–5):
    D_o = (1/n) Σ_u Σ_{c≠k} n_uc n_uk / (m_u − 1), over units with m_u ≥ 2."""
    num, n = Fraction(0), 0
    for _, g in table.groupby("item"):
        m = len(g)
        if m < 2:
            continue
        counts = g["label"].value_counts()
        num += Fraction(m * m - int((counts ** 2).sum()), m - 1)
        n += m
    return num / n


def items_alignment(c: Continuum):
    """The alignment that follows the predefined items (one unitary alignment per item)."""
    item = c.start.astype(int)
    members = np.full((item.max() + 1, c.n_annotators), -1)
    members[item, c.annotator] = np.arange(c.n_units)
    return alignment_from_members(c, members)


def test_krippendorff_D_o_is_0_2():
    # Krippendorff 2011 p. 9 and Mathet 2017 §5.1: observed disagreement 0.2 (= 8/40)
    assert krippendorff_D_o(krippendorff_2011()) == Fraction(1, 5)


def test_gamma_cat_equals_alpha_D_o_when_aligned_by_items():
    # Mathet 2017 §5.1: on predefined items γ_cat's observed disorder is α's D_o
    c = Continuum.from_items(krippendorff_2011())
    num, den, _, _ = category_disorder(items_alignment(c))
    assert Fraction(num).limit_denominator(1000) / Fraction(den).limit_denominator(1000) \
        == krippendorff_D_o(krippendorff_2011())
    assert num / den == pytest.approx(0.2, abs=1e-15)


def test_best_alignment_is_not_by_items_on_krippendorff_2011():
    """Why γ_cat's δ is not exactly 0.2 here (coefficients module docstring): with a
    lone unit costing Δ∅, B's unit of item 12 joins C's and D's units of item 11."""
    c = Continuum.from_items(krippendorff_2011())
    best, by_items = best_alignment(c), items_alignment(c)
    # strictly better than the item alignment: ΣKδ falls from 11 to 7 on those units
    # (K = 6; the B–C and B–D pairs cost d = d_pos 1 + d_cat 1 = 2 each)
    assert best.disorder < by_items.disorder
    assert (by_items.disorder - best.disorder) * (c.n_units / 4) == pytest.approx(4 / 6)
    merged = [row for row in best.members if set(c.start[row[row >= 0]]) == {10.0, 11.0}]
    assert len(merged) == 1
    num, den, _, _ = category_disorder(best)
    # value weights: item 11's (C, D) pair halves (1 → 1/2), B's pairs have confidence 0
    assert den == pytest.approx(19.5) and num == pytest.approx(4.0)
    assert num / den == pytest.approx(4 / 19.5)


def test_gamma_cat_close_to_alpha_on_krippendorff_2011():
    # Mathet 2017 §5.1: α = 0.743 and 0.74 < γ_cat < 0.76 (Krippendorff 2011: α = .743);
    # our δ_o = 0.2051 (see above), δ_e by 200 seeded shuffles
    r = gamma_family(Continuum.from_items(krippendorff_2011()), n_samples=200, seed=7)
    assert r.gamma_cat.value == pytest.approx(0.743, abs=0.02)
    assert r.gamma_cat.observed == pytest.approx(4 / 19.5)


def hand_continuum():
    """Three annotators: item-like group (A, A, B) at [0, 10]; a (B, B) pair at
    [100, 110] / [101, 110]; a lone C far away."""
    df = pd.DataFrame({
        "annotator": ["r1", "r2", "r3", "r1", "r2", "r3"],
        "category": ["A", "A", "B", "B", "B", "C"],
        "start": [0, 0, 0, 100, 101, 500], "end": [10, 10, 10, 110, 110, 505]})
    return Continuum.from_frame(df)


def test_category_disorder_by_hand():
    # Mathet 2017 Algorithm 1, computed by hand:
    # group 1: n_v = 3, weights 1/2, confidence 1: (A,A) 0, (A,B) 1, (A,B) 1
    # group 2: n_v = 2, weight 1 × (1 − (1/19)²), (B,B) 0; lone C: no pair
    al = best_alignment(hand_continuum())
    num, den, num_k, den_k = category_disorder(al)
    conf = 1 - (1 / 19) ** 2
    assert num == pytest.approx(1.0) and den == pytest.approx(1.5 + conf)
    # γ_k(A): pairs holding an A; γ_k(B): the two (A,B) pairs and (B,B); C: none
    assert num_k == pytest.approx([1.0, 1.0, 0.0])
    assert den_k == pytest.approx([1.5, 1.0 + conf, 0.0])


def test_family_result_api_and_gamma_k():
    r = gamma_family(hand_continuum(), n_samples=10, seed=1)
    assert r.gamma_cat.observed == pytest.approx(1 / (1.5 + 1 - (1 / 19) ** 2))
    assert r.gamma_k.per_category.loc["A", "observed"] == pytest.approx(2 / 3)
    assert np.isnan(r.gamma_k.per_category.loc["C", "observed"])  # never paired: NA (2017 §6)
    assert r.gamma.n_samples == 10 and r.gamma.best_alignment.shape[0] == 3
    frame = r.to_frame()
    assert list(frame.index[:2]) == ["gamma", "gamma_cat"]
    assert "gamma_k(A)" in frame.index
    assert "<table" in r._repr_html_() and "best alignment" in r.gamma._repr_html_()


def test_gamma_k_is_one_minus_observed_over_expected():
    k = gamma_family(random_continuum(3, 20, seed=2), n_samples=10, seed=1).gamma_k
    per = k.per_category
    assert (per["samples_defined"] > 0).all()
    assert np.allclose(per["value"], 1 - per["observed"] / per["expected"])
    assert k["c0"] == per.loc["c0", "value"]


def test_one_call_equals_separate_calls():
    c = random_continuum(3, 15, seed=2)
    fam = gamma_family(c, n_samples=8, seed=3)
    assert iaa.gamma(c, n_samples=8, seed=3).value == fam.gamma.value
    assert iaa.gamma_cat(c, n_samples=8, seed=3).value == fam.gamma_cat.value
    assert iaa.gamma_k(c, n_samples=8, seed=3).values.equals(fam.gamma_k.values)


def test_perfect_agreement_gives_one():
    c0 = random_continuum(1, 20, seed=5, miss=0)
    c = Continuum.from_codes(np.r_[c0.annotator, c0.annotator + 1], np.tile(c0.category, 2),
                             np.tile(c0.start, 2), np.tile(c0.end, 2), ["a", "b"],
                             c0.categories)
    r = gamma_family(c, n_samples=5, seed=0)
    assert r.gamma.value == 1.0 and r.gamma_cat.value == 1.0
    assert r.gamma.observed == 0.0 and r.gamma.expected > 0


@pytest.mark.parametrize("sampler", ["shuffle", "statistical"])
def test_precision_is_reached_and_reported(sampler):
    c = random_continuum(3, 20, seed=8)
    r = iaa.gamma(c, n_samples=10, precision=0.03, seed=1, sampler=sampler)
    assert r.precision <= 0.03 and r.n_samples >= 10


def test_processes_do_not_change_the_result():
    c = random_continuum(3, 20, seed=9)
    one = iaa.gamma(c, n_samples=6, seed=4)
    two = iaa.gamma(c, n_samples=6, seed=4, n_jobs=2)
    assert one.expected == two.expected


def test_samplers_keep_the_units():
    from iaa_widgets.measures.continuum.gamma.sampling import shuffle_sample, statistical_sample
    c = random_continuum(4, 30, seed=3)
    rng = np.random.default_rng(0)
    s = shuffle_sample(c, rng)
    assert s.n_annotators == 4 and np.all(s.end >= s.start)
    # each sampled annotator is a shifted copy of an observed one: same lengths
    lens = {a: sorted(np.round((c.end - c.start)[c.annotator == a], 9)) for a in range(4)}
    for a in range(4):
        assert sorted(np.round((s.end - s.start)[s.annotator == a], 9)) in lens.values()
    t = statistical_sample(c, rng)
    assert set(np.bincount(t.annotator, minlength=4)) <= set(c.units_per_annotator())


def test_bad_input():
    with pytest.raises(iaa.AgreementError, match="end < start"):
        iaa.gamma(pd.DataFrame({"annotator": ["a", "b"], "category": ["x", "x"],
                                "start": [0, 5], "end": [1, 2]}))
    c = random_continuum(2, 5, seed=1)
    with pytest.raises(iaa.AgreementError, match="n_samples"):
        iaa.gamma(c, n_samples=1)
    with pytest.raises(iaa.AgreementError, match="sampler"):
        iaa.gamma(c, sampler="bootstrap")
    with pytest.raises(iaa.AgreementError, match="category_distance"):
        iaa.gamma(c, category_distance=np.ones((2, 2)))


def test_labels_render_as_text_in_html():
    df = pd.DataFrame({"annotator": ["a", "b"], "category": ["<b>x</b>", "<b>x</b>"],
                       "start": [0, 0], "end": [1, 1]})
    r = gamma_family(df, n_samples=3, seed=0)
    page = r._repr_html_() + r.gamma_k._repr_html_()
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page


def test_category_distance_by_name_or_order():
    from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity
    c = random_continuum(3, 15, seed=6)  # categories c0, c1, c2
    arr = np.array([[0, 0.2, 1], [0.2, 0, 0.5], [1, 0.5, 0]])
    names = ["c2", "c0", "c1"]
    order = [2, 0, 1]
    df = pd.DataFrame(arr[np.ix_(order, order)], index=names, columns=names)
    a = best_alignment(c, Dissimilarity(category_distance=arr)).disorder
    b = best_alignment(c, Dissimilarity(category_distance=df)).disorder
    assert a == b
    assert a != best_alignment(c).disorder  # the matrix changes the disorder


def with_silent_annotator():
    """Annotators a and b place units; c places none (all of c's units are empty)."""
    return Continuum.from_codes([0, 0, 0, 1, 1], [0, 1, 0, 0, 1], [0, 20, 40, 1, 21],
                                [10, 30, 50, 10, 30], ["a", "b", "c"], ["x", "y"])


@pytest.mark.parametrize("sampler", ["shuffle", "statistical"])
def test_annotator_without_units_never_gives_an_empty_sample(sampler):
    # 200 seeds: shuffle draws c's (empty) units for all three sampled annotators with
    # probability 1/27 and the statistical sampler three counts of 0 with 1/27, so an
    # empty sample would surely come up; both draw again instead (as pygamma-agreement's
    # shuffle does), and the statistical sampler keeps c's count 0 among its draws
    from iaa_widgets.measures.continuum.gamma.sampling import SAMPLERS
    c = with_silent_annotator()
    sizes = set()
    for s in range(200):
        sample = SAMPLERS[sampler](c, np.random.default_rng(s))
        assert sample.n_units > 0 and sample.n_annotators == 3
        sizes |= set(sample.units_per_annotator())
    assert sizes <= {0, 2, 3} and 0 in sizes
    r = gamma_family(c, n_samples=10, seed=0, sampler=sampler)
    # observed by hand: a's three units, b's two, K = 3; the two pairs align (d_pos of
    # [0,10]/[1,10] = (1/19)², of [20,30]/[21,30] likewise): Σδ = 2·(2 + (1/19)²)/3 + 1,
    # over 5/3 units per annotator
    assert r.gamma.observed == pytest.approx((2 * (2 + (1 / 19) ** 2) / 3 + 1) / (5 / 3))
    assert np.isfinite(r.gamma.value)


def test_units_from_one_annotator_only_are_refused():
    c = Continuum.from_codes([0, 0], [0, 0], [0, 20], [10, 30], ["a", "b"], ["x"])
    with pytest.raises(iaa.AgreementError, match="at least two annotators.*'a'"):
        gamma_family(c, n_samples=3)


def test_single_category_gamma_cat_is_undefined_and_says_why():
    # one category: every pair agrees, observed and expected δ_cat are 0 (0/0)
    df = pd.DataFrame({"annotator": ["a", "b", "a", "b"], "category": "x",
                       "start": [0, 1, 20, 40], "end": [10, 10, 30, 50]})
    r = gamma_family(df, n_samples=5, seed=0)
    assert r.gamma_cat.observed == 0 and r.gamma_cat.expected == 0
    assert np.isnan(r.gamma_cat.value) and "γ_cat undefined" in r.gamma_cat.note
    assert np.isfinite(r.gamma.value) and r.gamma.note == ""


def test_bare_category_distance_needs_a_declared_order():
    """A bare array is read in the category order: refused when the order was only the
    sorted category names; accepted with categories= (the same γ as the labelled frame)."""
    from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity
    units = pd.DataFrame({"annotator": ["a", "a", "b", "b"], "category": ["low", "high"] * 2,
                          "start": [0, 5, 0, 5], "end": [4, 9, 4, 8]})
    arr = np.array([[0, 0.3], [0.3, 0]])
    with pytest.raises(iaa.AgreementError, match="declare the order"):
        best_alignment(Continuum.from_frame(units), Dissimilarity(category_distance=arr))
    declared = Continuum.from_frame(units, categories=["low", "high"])
    frame = pd.DataFrame(arr, index=["low", "high"], columns=["low", "high"])
    assert best_alignment(declared, Dissimilarity(category_distance=arr)).disorder == \
        best_alignment(Continuum.from_frame(units), Dissimilarity(category_distance=frame)
                       ).disorder


def test_reader_notes_of_the_continuum_reach_gamma_and_gamma_cat():
    # a reader counts what it skipped in Continuum.notes (e.g. a TextGrid's point tiers);
    # the results say it too, as the categorical measures repeat Annotations.notes
    c = replace(random_continuum(2, 6, seed=3), notes=("2 point tier(s) not read",))
    fam = gamma_family(c, n_samples=5, seed=0)
    assert "2 point tier(s) not read" in fam.gamma.note
    assert "2 point tier(s) not read" in fam.gamma_cat.note
    plain = gamma_family(random_continuum(2, 6, seed=3), n_samples=5, seed=0)
    assert "point tier" not in plain.gamma.note
