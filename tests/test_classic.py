"""Classic coefficients: published examples beyond Meyer's tutorial, pairwise matrices,
missing-data policies, degenerate data and bad input. Each expected number names its
source (paper, brute-force enumeration, or an independent library)."""
import math
from itertools import permutations

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets.datasets import datasaur_spans, krippendorff_2011, meyer_relatedness

# Fleiss (1971) style example of Wikipedia "Fleiss' kappa": 10 subjects × 14 raters ×
# 5 categories, published P̄ = 0.378, P̄_e = 0.213, κ = 0.210
FLEISS_EXAMPLE = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
                  [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
                  [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]


def test_fleiss_wikipedia_example():
    r = iaa.fleiss_kappa(Annotations.from_counts(FLEISS_EXAMPLE))
    assert round(r.observed, 3) == 0.378
    assert round(r.expected, 3) == 0.213
    assert round(r.value, 3) == 0.210
    # p_j = column sums / 140
    assert r.per_category["share"].tolist() == pytest.approx([20 / 140, 28 / 140, 39 / 140,
                                                              21 / 140, 32 / 140])


def test_fleiss_per_category_kappa_is_kappa_of_the_dichotomised_data():
    # Fleiss' (1971) category-wise κ_j equals Fleiss' κ of "category j vs the rest"
    # (statsmodels fleiss_kappa on the collapsed two-column table)
    from statsmodels.stats.inter_rater import fleiss_kappa
    table = np.array(FLEISS_EXAMPLE)
    r = iaa.fleiss_kappa(Annotations.from_counts(table))
    for j in range(5):
        binary = np.stack([table[:, j], table.sum(axis=1) - table[:, j]], axis=1)
        assert r.per_category["kappa"].iloc[j] == pytest.approx(fleiss_kappa(binary), abs=1e-12)


# --------------------------------------------------------------------- pairwise
def test_datasaur_labeler_reviewer_alpha():
    # Datasaur, "Krippendorff's Alpha Calculation", step 7: α(Labeler A, Reviewer) = 0.56
    # over the 6 spans both labelled (step 2 removes the 2 single-label spans)
    m = iaa.pairwise(datasaur_spans(), "krippendorff_alpha")
    assert m.loc["Labeler A", "Reviewer"] == pytest.approx(0.56, abs=1e-12)
    assert m.loc["Reviewer", "Labeler A"] == m.loc["Labeler A", "Reviewer"]
    assert m.attrs["n_items"] == [[0, 6], [6, 0]]
    assert math.isnan(m.loc["Reviewer", "Reviewer"])


@pytest.mark.parametrize("metric", ["nominal", "ordinal", "interval", "ratio"])
def test_pairwise_alpha_equals_alpha_of_each_pair(metric):
    # vectorised pairwise α against krippendorff_alpha on each pair's ratings alone
    data = Annotations.from_long(krippendorff_2011())
    m = iaa.pairwise(data, "krippendorff_alpha", metric=metric)
    for a, b in permutations(data.annotators, 2):
        one = iaa.krippendorff_alpha(data.select_annotators([a, b]), metric=metric)
        assert m.loc[a, b] == pytest.approx(one.value, abs=1e-12, nan_ok=True)


@pytest.mark.parametrize("measure, kwargs", [
    ("percent_agreement", {}), ("bennett_s", {}), ("scott_pi", {}), ("cohen_kappa", {}),
    ("cohen_kappa", {"weights": "quadratic"}), ("cohen_kappa", {"weights": "linear"})])
def test_pairwise_equals_the_measure_on_each_pair(measure, kwargs):
    data = Annotations.from_long(krippendorff_2011())
    m = iaa.pairwise(data, measure, **kwargs)
    looped = iaa.pairwise(data, getattr(iaa, measure), **kwargs)  # callable: loop over pairs
    for a, b in permutations(data.annotators, 2):
        one = getattr(iaa, measure)(data, annotators=(a, b), **kwargs).value
        assert m.loc[a, b] == pytest.approx(one, abs=1e-12)
        assert looped.loc[a, b] == pytest.approx(one, abs=1e-12)


def test_pairwise_pair_without_common_items_is_nan():
    df = pd.DataFrame({"item": [1, 1, 2, 2, 3], "annotator": ["a", "b", "a", "b", "c"],
                       "label": ["x", "y", "x", "x", "y"]})
    m = iaa.pairwise(df, "percent_agreement", diagonal=1.0)
    assert math.isnan(m.loc["a", "c"]) and m.attrs["n_items"][0][2] == 0
    assert m.loc["a", "a"] == 1.0
    assert m.loc["a", "b"] == 0.5


def test_pairwise_bad_measure_and_options():
    data = meyer_relatedness()
    with pytest.raises(AgreementError, match="pairwise: measure must be one of"):
        iaa.pairwise(data, "fleiss_kappa")
    with pytest.raises(AgreementError, match="does not take"):
        iaa.pairwise(data, "scott_pi", weights="linear")


# ------------------------------------------------------ annotators, identity
def test_two_annotator_measures_refuse_more_annotators_and_point_elsewhere():
    data = meyer_relatedness()
    with pytest.raises(AgreementError, match=r"annotators=\(a, b\).*pairwise.*davies_fleiss"):
        iaa.cohen_kappa(data)
    with pytest.raises(AgreementError, match="fleiss_kappa"):
        iaa.scott_pi(data)
    with pytest.raises(AgreementError, match="exactly two"):
        iaa.cohen_kappa(data, annotators=("r1", "r2", "r3"))
    with pytest.raises(AgreementError, match="unknown annotator"):
        iaa.cohen_kappa(data, annotators=("r1", "r9"))
    picked = iaa.cohen_kappa(data, annotators=("r1", "r3"))
    alone = iaa.cohen_kappa(data[data.annotator != "r2"])
    assert picked.value == alone.value and picked.params["annotators"] == ["r1", "r3"]


def test_anonymous_counts_are_refused_where_identity_matters():
    counts = Annotations.from_counts([[2, 0], [1, 1], [0, 2], [1, 1]])
    for measure in (iaa.cohen_kappa, iaa.davies_fleiss_kappa, iaa.pairwise):
        with pytest.raises(AgreementError, match="anonymous"):
            measure(counts)
    # π, S, A_o and specific agreement are symmetric in the two ratings of an item
    assert iaa.scott_pi(counts).value == pytest.approx(iaa.fleiss_kappa(counts).value)
    assert iaa.percent_agreement(counts).value == 0.5
    assert iaa.specific_agreement(counts).value == 0.5  # 2·1 / (3 + 1) for category 1


def test_secondary_labels_use_primary_and_say_so():
    df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": ["a", "b"] * 3,
                       "label": [("x", "y"), "x", "y", ("y", "x"), "x", "y"]})
    r = iaa.cohen_kappa(df)
    assert r.params["labels"].startswith("primary")
    assert r.observed == pytest.approx(2 / 3)


# ---------------------------------------------------------------- missing data
def test_fleiss_listwise_and_available_counts():
    # Krippendorff (2011) reliability data: units 2–9 have all four observers (8 items);
    # unit 1 and 10 have three, unit 11 two, unit 12 one
    data = Annotations.from_long(krippendorff_2011())
    listwise = iaa.fleiss_kappa(data)
    assert (listwise.n_items, listwise.excluded) == (
        8, {"rated by fewer than all 4 annotators": 4})
    pairable = iaa.fleiss_kappa(data, missing="pairable")
    assert (pairable.n_items, pairable.excluded) == (11, {"only one rating": 1})
    # Gwet (2014): unit 12, rated once, is used in p_c and the variance, not in A'_o
    available = iaa.fleiss_kappa(data, missing="available")
    assert (available.n_items, available.excluded) == (12, {})
    assert available.params["items_per_term"] == {"observed": 11, "expected": 12, "se": 12}
    assert "1 item(s) rated once" in available.note
    assert available.params["missing"] == "available"
    with pytest.raises(AgreementError, match=r"4 item\(s\) lack a rating.*items 1, 10, 11, 12"):
        iaa.fleiss_kappa(data, missing="raise")
    with pytest.raises(AgreementError, match="missing must be one of"):
        iaa.cohen_kappa(data, annotators=("A", "B"), missing="available")


def test_available_percent_agreement_brute_force():
    # per-item share of agreeing ordered pairs of ratings, averaged over items rated at
    # least twice: brute-force enumeration of the annotator pairs of each item
    df = krippendorff_2011()
    shares, rated = [], 0
    for _, g in df.groupby("item"):
        labels = g["label"].dropna().tolist()
        rated += bool(labels)
        pairs = [(x, y) for i, x in enumerate(labels) for j, y in enumerate(labels) if i != j]
        if pairs:
            shares.append(np.mean([x == y for x, y in pairs]))
    r = iaa.percent_agreement(df, missing="available")
    assert r.value == pytest.approx(np.mean(shares), abs=1e-12)
    assert iaa.percent_agreement(df, missing="pairable").se == pytest.approx(
        np.std(shares) / math.sqrt(len(shares)), abs=1e-12)
    # "available": Gwet's (2014, ch. 5) linearised SE over the n items with a rating,
    # a*_i = (n/n'') a_i and 0 for an item rated once (irrCAC's pa.coeff.raw)
    star = np.zeros(rated)
    star[:len(shares)] = rated / len(shares) * np.array(shares)
    assert r.se == pytest.approx(math.sqrt(np.sum((star - r.value) ** 2) /
                                           (rated * (rated - 1))), abs=1e-12)


def test_specific_agreement_many_annotators_brute_force():
    # Uebersax (1982): over all ordered pairs of ratings of an item (x, y), specific
    # agreement on c = #(x = y = c) / #(x = c); brute force over pairs
    df = meyer_relatedness()
    agree = {"high": 0, "low": 0}
    chances = {"high": 0, "low": 0}
    for _, g in df.groupby("item", observed=True):
        labels = g["label"].tolist()
        for i, x in enumerate(labels):
            for j, y in enumerate(labels):
                if i != j:
                    chances[x] += 1
                    agree[x] += x == y
    with pytest.raises(AgreementError, match="positive="):  # no declared order: no default
        iaa.specific_agreement(df)
    r = iaa.specific_agreement(df, positive="high")
    assert r.params["positive"] == "high"
    assert r.value == pytest.approx(agree["high"] / chances["high"], abs=1e-12)
    assert r.params["negative_agreement"] == pytest.approx(agree["low"] / chances["low"])
    assert r.per_category["opportunities"].tolist() == [chances["high"], chances["low"]]


def test_specific_agreement_needs_positive_for_many_categories():
    data = krippendorff_2011()
    with pytest.raises(AgreementError, match="positive="):
        iaa.specific_agreement(data)
    with pytest.raises(AgreementError, match="not a category"):
        iaa.specific_agreement(data, positive=9)
    r = iaa.specific_agreement(data, positive=3, missing="available")
    assert r.per_category.index.tolist() == [1, 2, 3, 4, 5]
    # default positive for {0, 1} categories is 1
    two = Annotations.from_contingency([[5, 1], [2, 3]])
    assert iaa.specific_agreement(two).params["positive"] == 1
    # ... also when the declared order puts 1 first
    assert iaa.specific_agreement(Annotations.from_contingency(
        [[3, 2], [1, 5]], categories=[1, 0])).value == pytest.approx(6 / 9)
    # text labels: the first category of the order the user declared
    declared = Annotations.from_contingency([[3, 2], [1, 5]], categories=["yes", "no"])
    assert iaa.specific_agreement(declared).params["positive"] == "yes"
    # 2 n_11 / (n_1· + n_·1) = 2·3 / ((2 + 3) + (1 + 3))
    assert iaa.specific_agreement(two).value == pytest.approx(6 / 9)


# ---------------------------------------------------------------- degenerate data
def test_one_category_only_gives_nan_with_a_note():
    # every rating "x": A_o = 1 and every chance model expects A_e = 1 → 0/0
    one = Annotations.from_contingency([[7]], categories=["x"])
    for measure in (iaa.bennett_s, iaa.scott_pi, iaa.cohen_kappa, iaa.fleiss_kappa,
                    iaa.davies_fleiss_kappa):
        r = measure(one)
        assert math.isnan(r.value) and r.observed == 1.0 and r.expected == 1.0
        assert "expected agreement is 1" in r.note
    assert iaa.cohen_kappa(one).se is None and iaa.fleiss_kappa(one).se is None
    assert iaa.percent_agreement(one).value == 1.0
    assert iaa.pairwise(one, "cohen_kappa").isna().all().all()


def test_degenerate_note_names_the_cause():
    # two categories used, weights all 1: A_e = Σ_ij 1 · p_i· p_·j = 1 (Cohen 1968's
    # weighted A_e), so κ_w is 0/0 although the ratings are not in one category
    data = Annotations.from_contingency([[3, 1], [2, 4]], categories=["x", "y"])
    r = iaa.cohen_kappa(data, weights=np.ones((2, 2)))
    assert math.isnan(r.value) and r.expected == 1.0
    assert "agreement weights are 1" in r.note and "one category" not in r.note
    # one category only: the note says so, and not the weights
    one = iaa.cohen_kappa(Annotations.from_contingency([[3, 0], [0, 0]], categories=["x", "y"]))
    assert "every rating falls into one category" in one.note and "weights" not in one.note


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_zero_null_se_says_why_z_is_nan(weights):
    # one item, rated x by A and z by B: p_i· = e_x, p_·j = e_z, A_e = w_xz and
    # w̄_x· = w̄_·z = w_xz, so var₀ = [p_x· p_·z (w_xz − 2 w_xz)² − A_e²] / (n(1 − A_e)²)
    # = 0 (Fleiss, Cohen & Everitt 1969): z = κ / se₀ is 0/0
    data = Annotations.from_contingency([[0, 0, 1], [0, 0, 0], [0, 0, 0]],
                                        categories=["x", "y", "z"])
    r = iaa.cohen_kappa(data, weights=weights)
    assert r.value == 0.0 and r.params["se_null"] == 0.0
    assert math.isnan(r.params["z"]) and math.isnan(r.params["p_value"])
    assert "standard error under κ = 0 is 0" in r.note and "single category" in r.note
    # a defined test leaves the note empty
    assert iaa.cohen_kappa(Annotations.from_contingency([[3, 1], [2, 4]])).note == ""


def test_unused_declared_category_is_defined():
    # one category used of two declared: π, κ are 0/0 (NaN), S = (1 − 1/2)/(1 − 1/2) = 1
    data = Annotations.from_contingency([[6, 0], [0, 0]], categories=["x", "y"])
    assert iaa.bennett_s(data).value == 1.0
    assert math.isnan(iaa.scott_pi(data).value)
    r = iaa.specific_agreement(data, positive="x")
    assert r.value == 1.0 and math.isnan(r.per_category["specific_agreement"]["y"])
    assert "never used" in r.note


def test_perfect_agreement_interval_and_wilson_against_statsmodels():
    from statsmodels.stats.proportion import proportion_confint
    t = Annotations.from_contingency([[4, 1], [2, 13]])
    r = iaa.percent_agreement(t, ci="wilson")
    assert r.ci == pytest.approx(proportion_confint(17, 20, method="wilson"), abs=1e-12)
    wald = iaa.percent_agreement(t, confidence=0.9)
    assert wald.ci == pytest.approx(proportion_confint(17, 20, alpha=0.1, method="normal"),
                                    abs=1e-12)
    with pytest.raises(AgreementError, match="Wilson"):
        iaa.percent_agreement(meyer_relatedness(), ci="wilson")


# ----------------------------------------------------------------------- bad input
def test_bad_input_messages():
    t = Annotations.from_contingency([[4, 1], [2, 3]])
    with pytest.raises(AgreementError, match="confidence"):
        iaa.percent_agreement(t, confidence=95)
    with pytest.raises(AgreementError, match="ci must be"):
        iaa.percent_agreement(t, ci="exact")
    with pytest.raises(AgreementError, match="weights must be"):
        iaa.cohen_kappa(t, weights="cubic")
    with pytest.raises(AgreementError, match="must be 2 × 2"):
        iaa.cohen_kappa(t, weights=np.eye(3))
    with pytest.raises(AgreementError, match="1 on the diagonal"):
        iaa.cohen_kappa(t, weights=[[0.5, 0], [0, 1]])
    with pytest.raises(AgreementError, match="expected Annotations or a tidy DataFrame"):
        iaa.fleiss_kappa([[1, 2], [3, 4]])
    with pytest.raises(AgreementError, match="at least two different"):
        iaa.fleiss_kappa(t, annotators=["A", "A"])
    gap = pd.DataFrame({"item": [1, 2, 3], "annotator": ["a", "b", "a"],
                        "label": ["x", "y", "x"]})
    with pytest.raises(AgreementError, match="no item is left"):
        iaa.cohen_kappa(gap)


def test_result_rendering():
    r = iaa.cohen_kappa(Annotations.from_contingency([[4, 1], [2, 3]],
                                                     categories=["<b>", "y"]))
    html = r._repr_html_()
    assert "&lt;b&gt;" in html and "<b>" not in html
    row = r.to_frame()
    assert row.loc["cohen_kappa", "se"] == r.se and "ci_low" in row


def test_pairwise_missing_policies():
    # Krippendorff (2011) data: units 2–9 are rated by all four observers
    df = krippendorff_2011()
    listwise = iaa.pairwise(df, "cohen_kappa", missing="listwise")
    complete = iaa.pairwise(df[df.item.between(2, 9)], "cohen_kappa")
    np.testing.assert_allclose(listwise.to_numpy(), complete.to_numpy(), atol=1e-12)
    assert listwise.attrs["n_items"][0][1] == 8
    default = iaa.pairwise(df, "cohen_kappa")
    assert default.attrs["params"]["missing"] == "pairwise"
    assert default.attrs["n_items"][0][1] == 9  # A and B share units 1–9
    with pytest.raises(AgreementError, match="lack a rating"):
        iaa.pairwise(df, "cohen_kappa", missing="raise")
    with pytest.raises(AgreementError, match="missing must be one of"):
        iaa.pairwise(df, "cohen_kappa", missing="available")
