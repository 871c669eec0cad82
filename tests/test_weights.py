"""The weight families of Gwet (2014, Handbook of Inter-Rater Reliability, 4th ed.,
ch. 3). Expected matrices come from irrCAC's ``Weights`` (Gwet's own Python port,
test-only), over numeric categories (their values, unequally spaced here on purpose)
and over text categories (irrCAC numbers them 1 … q, as our declared order does), and
from hand computations with exact fractions where irrCAC is not needed.
"""
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from iaa_widgets import Annotations
from iaa_widgets.errors import AgreementError
from iaa_widgets.measures.categorical.classic import cohen_kappa
from iaa_widgets.measures.weights import FAMILIES, agreement_weights, weight_matrix

TOL = 1e-12
UNEVEN = [1, 2, 4, 7, 11]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("categories", [UNEVEN, [1, 2, 3, 4, 5], [3.5, 4.0, 9.0],
                                        [1, 2]])
def test_every_family_matches_irrcac_over_numeric_values(family, categories):
    from irrCAC.weights import Weights
    ours, name = agreement_weights(family, pd.Index(categories), ordered=True)
    np.testing.assert_allclose(ours, Weights(list(categories))[family], atol=TOL)
    assert name == family


@pytest.mark.parametrize("family", FAMILIES)
def test_text_labels_in_declared_order_score_1_to_q_as_irrcac(family):
    from irrCAC.weights import Weights
    cats = ["low", "medium", "high", "very high"]
    ours, _ = agreement_weights(family, pd.Index(cats), ordered=True)
    np.testing.assert_allclose(ours, Weights(cats)[family], atol=TOL)


def test_linear_and_quadratic_by_hand_on_unequal_values():
    # x = (1, 2, 5): span 4; linear 1 − |x_k − x_l|/4, quadratic 1 − (x_k − x_l)²/16
    lin, _ = agreement_weights("linear", pd.Index([1, 2, 5]), True)
    quad, _ = agreement_weights("quadratic", pd.Index([1, 2, 5]), True)
    assert lin[0, 1] == float(Fraction(3, 4)) and lin[1, 2] == float(Fraction(1, 4))
    assert quad[0, 1] == float(Fraction(15, 16)) and quad[1, 2] == float(Fraction(7, 16))
    assert quad[0, 2] == 0.0


def test_ordinal_uses_ranks_not_values():
    # M_kl = C(|r_k − r_l| + 1, 2): ranks 0, 1, 2 give M = 1 (adjacent) and 3 (ends)
    w = weight_matrix("ordinal", [1, 2, 50])
    assert w[0, 1] == pytest.approx(1 - 1 / 3) and w[0, 2] == 0.0


def test_unordered_text_is_refused_but_two_categories_need_no_order():
    with pytest.raises(AgreementError, match="no order was given"):
        agreement_weights("quadratic", pd.Index(["b", "a", "c"]), ordered=False)
    w, _ = agreement_weights("linear", pd.Index(["no", "yes"]), ordered=False)
    np.testing.assert_array_equal(w, [[1, 0], [0, 1]])
    # identity needs no order at all
    np.testing.assert_array_equal(agreement_weights("identity", pd.Index(list("bac")),
                                                    False)[0], np.eye(3))


def test_ratio_needs_positive_values():
    with pytest.raises(AgreementError, match="positive category values"):
        agreement_weights("ratio", pd.Index([0, 1, 2]), True)


def test_unknown_family_names_the_accepted_ones():
    with pytest.raises(AgreementError, match="'bipolar'"):
        agreement_weights("cubic", pd.Index([1, 2, 3]), True)


def test_a_labelled_matrix_aligns_by_label():
    cats = pd.Index(["a", "b", "c"])
    frame = pd.DataFrame([[1, .5, 0], [.5, 1, .2], [0, .2, 1]], index=list("abc"),
                         columns=list("abc"))
    shuffled = frame.loc[list("cab"), list("bca")]
    w, name = agreement_weights(shuffled, cats, ordered=False)
    np.testing.assert_array_equal(w, frame.to_numpy())
    assert name == "matrix"
    with pytest.raises(AgreementError, match="read by position"):
        agreement_weights(frame.to_numpy(), cats, ordered=False)


def test_cohen_kappa_linear_weights_follow_the_category_values():
    # numeric labels 1, 2, 5: Gwet's linear weights over the values (1 − |x − y|/4), so
    # weighted κ equals κ with that matrix given by label; positions would give
    # 1 − |i − j|/2 and another value
    rng = np.random.default_rng(3)
    x = rng.choice([1, 2, 5], size=(40, 2))
    ann = Annotations.from_wide(pd.DataFrame(x, columns=["a", "b"]))
    by_values = pd.DataFrame([[1, .75, 0], [.75, 1, .25], [0, .25, 1]],
                             index=[1, 2, 5], columns=[1, 2, 5])
    by_positions = pd.DataFrame([[1, .5, 0], [.5, 1, .5], [0, .5, 1]],
                                index=[1, 2, 5], columns=[1, 2, 5])
    ours = cohen_kappa(ann, weights="linear")
    assert ours.value == pytest.approx(cohen_kappa(ann, weights=by_values).value, abs=TOL)
    assert ours.value != pytest.approx(cohen_kappa(ann, weights=by_positions).value,
                                       abs=1e-6)


@pytest.mark.parametrize("name", ["cohen_kappa", "fleiss_kappa", "gwet_ac2", "light_kappa",
                                  "scott_pi", "bennett_s"])
def test_weights_on_a_non_finite_label_name_the_function(name):
    """Issue 28: a message names its function and what to do, here the measure that
    weighs by the labels' values and the label that is not finite."""
    import iaa_widgets as iaa
    df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2,
                       "label": [1.0, np.inf, 2.0, 2.0]})
    with pytest.raises(AgreementError, match=rf"^{name}: weights='linear' uses the "
                                                 r"labels' values, but label inf"):
        getattr(iaa, name)(df, weights="linear")
