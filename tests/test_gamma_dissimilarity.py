"""Category dissimilarities of γ beyond nominal (issue 17): ordinal, numeric,
Levenshtein, positions by label.

Expected matrices by hand from the definitions pygamma-agreement 0.5.9 documents
(``OrdinalCategoricalDissimilarity``: |p_i − p_j| / m; ``Numerical…``: the values as
positions; ``Levenshtein…``: lev(a, b) / max(len a + 1, len b + 1); each matrix divided
by max(1, its largest entry)); Levenshtein distances of textbook pairs (kitten/sitting
3, flaw/lawn 2). Against pygamma-agreement itself: tests/test_gamma_pygamma.py.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from iaa_widgets.continuum import Continuum
from iaa_widgets.errors import AgreementError
from iaa_widgets.measures.continuum.gamma.alignment import best_alignment
from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity, levenshtein


def with_categories(categories, declared=True) -> Continuum:
    k = len(categories)
    return Continuum.from_frame(pd.DataFrame({
        "annotator": ["a"] * k + ["b"] * k, "category": list(categories) * 2,
        "start": list(range(0, 20 * k, 20)) * 2, "end": list(range(10, 20 * k + 10, 20)) * 2}),
        categories=list(categories) if declared else None)


@pytest.mark.parametrize("a, b, d", [("kitten", "sitting", 3), ("flaw", "lawn", 2),
                                     ("", "abc", 3), ("abc", "", 3), ("same", "same", 0),
                                     ("ab", "ba", 2)])
def test_levenshtein_textbook_pairs(a, b, d):
    assert levenshtein(a, b) == d


def test_levenshtein_matrix_by_hand_and_by_label():
    # PER, PERS, LOC: lev(PER, PERS) = 1 → 1/5; lev(PER, LOC) = 3 → 3/4;
    # lev(PERS, LOC) = 4 → 4/5; the largest is below 1: no rescaling
    m = Dissimilarity(category_distance="levenshtein").category_matrix(
        with_categories(["PER", "PERS", "LOC"], declared=False))  # sorted: LOC, PER, PERS
    expected = pd.DataFrame([[0, 3 / 4, 4 / 5], [3 / 4, 0, 1 / 5], [4 / 5, 1 / 5, 0]],
                            index=["LOC", "PER", "PERS"], columns=["LOC", "PER", "PERS"])
    np.testing.assert_allclose(m, expected.to_numpy())


def test_ordinal_numeric_and_positions():
    c = with_categories(["low", "mid", "high"])  # declared order
    np.testing.assert_allclose(Dissimilarity(category_distance="ordinal").category_matrix(c),
                               [[0, .5, 1], [.5, 0, .5], [1, .5, 0]])  # ranks / 2
    # positions by label, whatever the dict's order; largest difference 4 → divided by 4
    pos = {"high": 5.0, "low": 1.0, "mid": 2.0}
    np.testing.assert_allclose(Dissimilarity(category_distance=pos).category_matrix(c),
                               [[0, .25, 1], [.25, 0, .75], [1, .75, 0]])
    # numeric categories 0.1, 0.3, 0.4: differences below 1 are not rescaled (max(1, ·))
    n = Continuum.from_frame(pd.DataFrame({"annotator": ["a", "a", "a", "b"],
                                           "category": [0.1, 0.3, 0.4, 0.1],
                                           "start": [0, 20, 40, 0], "end": [10, 30, 50, 10]}))
    np.testing.assert_allclose(Dissimilarity(category_distance="numeric").category_matrix(n),
                               [[0, .2, .3], [.2, 0, .1], [.3, .1, 0]], atol=1e-12)


def test_distances_change_the_alignment_disorder():
    # a: A [0, 10]   b: AB [0, 10]: nominal d_cat 1, Levenshtein 1/3
    c = Continuum.from_frame(pd.DataFrame({"annotator": ["a", "b"], "category": ["A", "AB"],
                                           "start": [0, 0], "end": [10, 10]}))
    assert best_alignment(c).disorder == pytest.approx(1.0)  # one pair, d = 1, / 1 unit
    lev = Dissimilarity(category_distance="levenshtein")
    assert best_alignment(c, lev).disorder == pytest.approx(1 / 3)


def test_bad_category_distances_name_what_is_accepted():
    unordered = with_categories(["x", "y"], declared=False)
    with pytest.raises(AgreementError, match="needs a category order"):
        Dissimilarity(category_distance="ordinal").category_matrix(unordered)
    with pytest.raises(AgreementError, match="numeric categories"):
        Dissimilarity(category_distance="numeric").category_matrix(unordered)
    with pytest.raises(AgreementError, match="one of .*'levenshtein'"):
        Dissimilarity(category_distance="jaccard").category_matrix(unordered)
    with pytest.raises(AgreementError, match=r"lack categories \['y'\]"):
        Dissimilarity(category_distance={"x": 0}).category_matrix(unordered)
