"""γ_cat and γ_k by Mathet (2017) and by pygamma-agreement 0.5.9 (issue 17).

Hand computations on one alignment (Mathet 2017, §4.2, Algorithm 1: in a unitary
alignment with n_v real units every pair of real units has weight 1/(n_v − 1) ×
max(0, 1 − d_pos); pygamma-agreement's ``Alignment.gamma_k_disorder``, read: the
confidence from α·d_pos, dist_cat·Δ∅, and Δ∅² with weight Δ∅ for every (real, empty)
pair). Against pygamma-agreement itself: tests/test_gamma_pygamma.py.
"""
from __future__ import annotations

import pytest

from iaa_widgets.continuum import Continuum
from iaa_widgets.errors import AgreementError
from iaa_widgets.measures.continuum.gamma.alignment import best_alignment
from iaa_widgets.measures.continuum.gamma.coefficients import (_pygamma_ratios, category_disorder,
                                                     gamma_family)
from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity


def two_pairs_and_a_lone_unit() -> Continuum:
    # a: [0, 10] x, [20, 30] y      b: [0, 10] x, [21, 30] x, [50, 60] x (alone)
    return Continuum.from_codes([0, 0, 1, 1, 1], [0, 1, 0, 0, 0], [0, 20, 0, 21, 50],
                                [10, 30, 10, 30, 60], ["a", "b"], ["x", "y", "z"], True)


@pytest.mark.parametrize("alpha", [1.0, 2.0])
def test_both_definitions_by_hand(alpha):
    c = two_pairs_and_a_lone_unit()
    dis = Dissimilarity(alpha=alpha)
    al = best_alignment(c, dis)
    assert sorted(map(tuple, al.members.tolist())) == [(-1, 4), (0, 2), (1, 3)]
    d_pos = (1 / 19) ** 2  # ([20, 30] vs [21, 30]): (1 + 0) / (10 + 9), squared
    w_m, w_p = 1 - d_pos, 1 - alpha * d_pos  # confidences: Mathet d_pos, pygamma α·d_pos
    # Mathet: pairs (x, x) weight 1 dist 0 and (y, x) weight w dist 1
    num, den, num_k, den_k = category_disorder(al, dis)
    assert num / den == pytest.approx(w_m / (1 + w_m))
    assert num_k[:2] / den_k[:2] == pytest.approx([w_m / (1 + w_m), 1.0])
    assert den_k[2] == 0  # z never occurs: undefined
    # pygamma: the lone x adds Δ∅² = 1 to the numerator and Δ∅ = 1 to the weight, for
    # γ_cat and for x's γ_k; z never occurs: 1 by its convention
    r_cat, r_k = _pygamma_ratios(al, dis)
    assert r_cat == pytest.approx((w_p + 1) / (1 + w_p + 1))
    assert r_k == pytest.approx([(w_p + 1) / (1 + w_p + 1), 1.0, 1.0])


def test_pygamma_definition_scales_with_delta_empty():
    # Δ∅ = 2: dist_cat·Δ∅ = 2 for (y, x); the lone x adds Δ∅² = 4 with weight 2;
    # d_pos = (1/19)²·Δ∅
    c = two_pairs_and_a_lone_unit()
    dis = Dissimilarity(delta_empty=2.0)
    w = 1 - 2 * (1 / 19) ** 2
    r_cat, _ = _pygamma_ratios(best_alignment(c, dis), dis)
    assert r_cat == pytest.approx((2 * w + 4) / (1 + w + 2))


def test_pygamma_conventions_without_pairs_of_real_units():
    # two units far apart: two lone units, no pair of real units
    c = Continuum.from_codes([0, 1], [0, 1], [0, 100], [10, 110], ["a", "b"],
                             ["x", "y", "z"], True)
    al = best_alignment(c)
    r_cat, r_k = _pygamma_ratios(al, Dissimilarity())
    assert r_cat == 0.0 and list(r_k) == [0.0, 0.0, 1.0]
    num, den, _, _ = category_disorder(al)
    assert den == 0  # Mathet: undefined (NaN in the results)


def test_gamma_family_offers_both_and_keeps_gamma():
    c = two_pairs_and_a_lone_unit()
    m = gamma_family(c, n_samples=20, seed=3, progress=False)
    p = gamma_family(c, n_samples=20, seed=3, progress=False, cat_variant="pygamma")
    assert m.gamma.value == p.gamma.value  # γ does not depend on the variant
    w = 1 - (1 / 19) ** 2
    assert m.gamma_cat.observed == pytest.approx(w / (1 + w))
    assert p.gamma_cat.observed == pytest.approx((w + 1) / (2 + w))
    assert p.gamma_cat.params["cat_variant"] == "pygamma"
    with pytest.raises(AgreementError, match="cat_variant"):
        gamma_family(c, n_samples=3, cat_variant="java")
