"""Sparse Probability of Agreement (Nørregaard & Derczynski, "Sparse Probability
of Agreement").

Sources of expected numbers: hand counts from eq. 1/7 (stated inline), Fleiss' P̄ by
its direct formula and through statsmodels' fleiss_kappa, Krippendorff's coincidences
through the `krippendorff` package, and brute-force enumeration of every labelling
for the item variances (the authority where the printed equations have typos).
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets.measures.sparse.variance import SPA_SCHEMES

SCHEMES = list(SPA_SCHEMES)


# ----------------------------------------------------------------- helpers
def enumerate_item(n: int, p: np.ndarray) -> tuple[float, float]:
    """E[P̂] and Var[P̂] of one item by brute force over all C^n labellings, each with
    probability Π_j p[x_j] (Appendix A/B, eq. 25/42, computed literally)."""
    c = len(p)
    labels = np.array(list(itertools.product(range(c), repeat=n)))        # C^n × n
    prob = np.prod(p[labels], axis=1)
    counts = np.stack([(labels == k).sum(axis=1) for k in range(c)], axis=1)
    p_hat = (counts * (counts - 1)).sum(axis=1) / (n * (n - 1))             # eq. 9
    mean = prob @ p_hat
    return float(mean), float(prob @ (p_hat - mean) ** 2)


def appendix_eq41(n: int, c: int) -> float:
    """Appendix A.3 eq. 41 exactly as printed (with K_sps eq. 31, K_csp eq. 37) and
    E[P̂] = 1/C."""
    big_n = n * (n - 1) / 2
    k_sps = lambda v: comb(n, v) * c * (c - 1) ** (n - v)                   # eq. 31
    k_csp = lambda a, b: comb(n, a) * comb(n - a, b) * c * (c - 1) * (c - 2) ** (n - a - b)
    cross = sum(2 ** (a != b) * k_csp(a, b) * a * b * (a - 1) * (b - 1)
                for a in range(n + 1) for b in range(min(a, n - a) + 1))
    self_ = sum(k_sps(v) * v ** 2 * (v - 1) ** 2 for v in range(n + 1))
    return (cross + self_) / (4 * big_n ** 2 * c ** n) - (1 / c) ** 2


def main_text_eq20(n: int, c: int) -> float:
    """Main-text eq. 20/21 as printed: K_csp carries 2^[n₀ = n₁] and the sum has no
    2^[n₀ ≠ n₁] factor."""
    big_n = n * (n - 1) / 2
    k_sps = lambda v: comb(n, v) * c * (c - 1) ** (n - v)
    k_csp = lambda a, b: (2 ** (a == b) * comb(n, a) * comb(n - a, b) * c * (c - 1)
                          * (c - 2) ** (n - a - b))
    cross = sum(k_csp(a, b) * a * b * (a - 1) * (b - 1)
                for a in range(n + 1) for b in range(min(a, n - a) + 1))
    self_ = sum(k_sps(v) * v ** 2 * (v - 1) ** 2 for v in range(n + 1))
    return (cross + self_) / (big_n ** 2 * c ** n * 4) - (1 / c) ** 2


def appendix_eq50(n: int, p: np.ndarray, with_n2: bool = True) -> float:
    """Appendix B.4 eq. 50 (probabilities eq. 45, 48) with E[P̂] = Σ p_c²; without the
    1/N² factor it is main-text eq. 22 as printed."""
    big_n = n * (n - 1) / 2 if with_n2 else 1.0
    c = len(p)
    cross = 0.0
    for i in range(c):
        for j in range(c):
            if i == j:
                continue
            for a in range(n + 1):
                for b in range(n - a + 1):
                    pr = (comb(n, a) * comb(n - a, b) * p[i] ** a * p[j] ** b
                          * (1 - p[i] - p[j]) ** (n - a - b))
                    cross += pr * a * b * (a - 1) * (b - 1)
    self_ = sum(comb(n, v) * p[i] ** v * (1 - p[i]) ** (n - v) * v ** 2 * (v - 1) ** 2
                for i in range(c) for v in range(n + 1))
    return (cross + self_) / (4 * big_n ** 2) - float(p @ p) ** 2


def wide(matrix, categories=None) -> Annotations:
    """Items × annotators matrix with None for a missing rating."""
    return Annotations.from_wide(pd.DataFrame(matrix), categories=categories)


def random_complete(rng, n_items, n_annotators, probs):
    """Complete data whose items have their own label distribution (so that item
    agreements differ), labels drawn independently per annotation."""
    c = len(probs)
    item_p = rng.dirichlet(np.asarray(probs) * 3.0, size=n_items)
    u = rng.random((n_items, n_annotators, 1))
    return (u > np.cumsum(item_p, axis=1)[:, None, :]).sum(axis=2).clip(max=c - 1)


SKEWED = [np.array(p) for p in ([0.7, 0.3], [0.6, 0.3, 0.1], [0.85, 0.05, 0.05, 0.05],
                                [0.4, 0.3, 0.15, 0.1, 0.05], [0.5, 0.5, 0.0])]


# ----------------------------------------------------------------- item variances
@pytest.mark.parametrize("c", [2, 3, 4, 5])
@pytest.mark.parametrize("n", range(2, 9))
def test_uniform_variance_equals_enumeration(n, c):
    # authority: enumeration of all C^n labellings (Appendix A, eq. 25)
    mean, var = enumerate_item(n, np.full(c, 1 / c))
    assert mean == pytest.approx(1 / c, abs=1e-12)        # E[P̂] = 1/C
    assert iaa.spa_item_variance(n, n_classes=c) == pytest.approx(var, rel=1e-10, abs=1e-15)
    # closed form 2(C − 1)/(C² n(n − 1)) (module docstring), and appendix eq. 41 as printed
    assert var == pytest.approx(2 * (c - 1) / (c ** 2 * n * (n - 1)), rel=1e-10)
    assert appendix_eq41(n, c) == pytest.approx(var, rel=1e-10, abs=1e-15)


@pytest.mark.parametrize("p", SKEWED, ids=lambda p: "-".join(map(str, p)))
@pytest.mark.parametrize("n", range(2, 9))
def test_class_variance_equals_enumeration(n, p):
    # authority: enumeration weighted by Π p[x_j] (Appendix B, eq. 42)
    mean, var = enumerate_item(n, p)
    assert mean == pytest.approx(p @ p, abs=1e-12)        # E[P̂] = Σ p_c²
    assert iaa.spa_item_variance(n, class_probs=p) == pytest.approx(var, rel=1e-10, abs=1e-15)
    assert appendix_eq50(n, p) == pytest.approx(var, rel=1e-9, abs=1e-15)   # eq. 50 holds


def test_exact_fraction_small_case():
    # n = 3, C = 2 by hand: 2 of 8 labellings agree fully (P̂ = 1), 6 have one agreeing
    # pair of 3 (P̂ = 1/3): E = 1/2, Var = 2/8 + 6/8·1/9 − 1/4 = 1/12 (eq. 25)
    e = Fraction(2, 8) + Fraction(6, 8) * Fraction(1, 3)
    v = Fraction(2, 8) + Fraction(6, 8) * Fraction(1, 9) - e ** 2
    assert v == Fraction(1, 12)
    assert iaa.spa_item_variance(3, n_classes=2) == pytest.approx(float(v), rel=1e-14)


def test_printed_main_text_equations_are_typos():
    # eq. 20 (2^[n₀ = n₁] inside K_csp) and eq. 22 (no 1/N²) do not reproduce the
    # enumeration; the appendix versions (eq. 41, 50) do — we trust enumeration.
    _, var = enumerate_item(4, np.full(2, 0.5))
    assert abs(main_text_eq20(4, 2) - var) > 1e-3
    p = SKEWED[1]
    _, var = enumerate_item(4, p)
    assert abs(appendix_eq50(4, p, with_n2=False) - var) > 1e-3


def test_variance_below_two_annotations_is_infinite():
    # §5.5: one annotation → infinite variance → weight 0
    v = iaa.spa_item_variance(np.array([0, 1, 2]), n_classes=3)
    assert np.isinf(v[0]) and np.isinf(v[1]) and np.isfinite(v[2])


def test_variance_argument_errors():
    with pytest.raises(AgreementError):
        iaa.spa_item_variance(3)
    with pytest.raises(AgreementError):
        iaa.spa_item_variance(3, n_classes=2, class_probs=[0.5, 0.5])
    with pytest.raises(AgreementError, match="sum to 1"):
        iaa.spa_item_variance(3, class_probs=[0.5, 0.6])


def test_degenerate_class_distribution_has_zero_variance():
    # all labels in one class: P̂ = 1 always (enumeration would have a single labelling)
    assert iaa.spa_item_variance(5, class_probs=[0.0, 1.0, 0.0]) == 0.0
    assert iaa.spa_item_variance(5, n_classes=1) == 0.0


# ----------------------------------------------------------------- weight curves
def test_weight_curves_figure4_inv_var_is_edges_for_every_c():
    # §6.1 observes inv_var ≈ edges and ≈ constant in C; the closed form makes both exact
    curves = [iaa.spa_weight_curves(10, ["edges", "inv_var"], n_classes=c) for c in range(2, 8)]
    for cur in curves:
        np.testing.assert_allclose(cur["inv_var"], cur["edges"], rtol=1e-12)
    # normalised: largest weight 1 (Figure 4 caption); n = 1 has weight 0 (§5.5)
    cur = iaa.spa_weight_curves(10)          # defaults: Figure 4 top, inv_var with C = 2
    assert list(cur.columns) == ["annotations", "annotations_m1", "edges", "inv_var"]
    assert (cur.max() == 1).all() and (cur.loc[1] == 0).all()
    assert cur.loc[5, "annotations"] == pytest.approx(0.5)       # 5/10
    assert cur.loc[5, "edges"] == pytest.approx(10 / 45)         # C(5,2)/C(10,2)


def test_weight_curves_figure5_inv_var_class_between_annotations_and_edges():
    # §6.1: inv_var_class runs from the annotations curve to the edges curve
    rng = np.random.default_rng(5)
    for c in range(2, 8):
        p = np.exp(rng.uniform(-2, 4, c))
        p /= p.sum()                                  # softmax of U(−2, 4) logits (§6.1)
        cur = iaa.spa_weight_curves(10, ["annotations", "edges", "inv_var_class"],
                                    class_probs=p)
        assert np.all(cur["inv_var_class"] >= cur["edges"] - 1e-12)
        assert np.all(cur["inv_var_class"] <= cur["annotations"] + 1e-12)


def test_unknown_scheme_rejected():
    with pytest.raises(AgreementError, match="spa_weight_curves: schemes must be"):
        iaa.spa_weight_curves(5, ["edge"])


# ----------------------------------------------------------------- SPA values
def test_hand_example_every_scheme():
    # item 1: x x y (P̂ = 2/6 = 1/3), item 2: x y (P̂ = 0), item 3: one label (excluded)
    data = wide({"a": ["x", "x", None], "b": ["x", "y", None], "c": ["y", None, "y"]})
    # k(n) for n = 3, 2 (§5.1, §5.2). inv_var: Var[P̂] for C = 2 by hand — n = 2:
    # P̂ ~ Bernoulli(1/2), Var = 1/4; n = 3: 1/12 (test_exact_fraction_small_case) —
    # so k = 12, 4. inv_var_class: the class shares are x 3/6, y 3/6 (uniform), so the
    # same weights (B.5).
    weights = {"flat": (1, 1), "annotations": (3, 2), "annotations_m1": (2, 1),
               "edges": (3, 1), "inv_var": (12, 4), "inv_var_class": (12, 4)}
    for scheme, (k1, k2) in weights.items():
        r = iaa.sparse_agreement(data, scheme)
        assert r.value == pytest.approx(k1 * (1 / 3) / (k1 + k2), rel=1e-12), scheme  # eq. 7
        assert r.excluded == {"items with fewer than two annotations": 1}
        assert r.n_items == 2 and r.n_ratings == 5
        frame = r.per_item
        assert list(frame["n_annotations"]) == [3, 2, 1]
        np.testing.assert_allclose(frame["agreement"].iloc[:2], [1 / 3, 0.0], rtol=1e-12)
        assert np.isnan(frame["agreement"].iloc[2])
        np.testing.assert_allclose(frame["weight"], [k1, k2, 0.0], rtol=1e-12, err_msg=scheme)
        assert list(frame["used"]) == [True, True, False]
    # inv_var_class with a skewed p = (0.8, 0.2): n = 2 has P̂ ~ Bernoulli(Σ p²) by hand,
    # Var = 0.68 · 0.32; n = 3 by enumeration of the 8 labellings (Appendix B, eq. 42)
    r = iaa.sparse_agreement(data, "inv_var_class", class_probs={"x": 0.8, "y": 0.2})
    k = np.array([1 / enumerate_item(3, np.array([0.8, 0.2]))[1], 1 / (0.68 * 0.32), 0.0])
    np.testing.assert_allclose(r.per_item["weight"], k, rtol=1e-12)
    assert r.value == pytest.approx(k[0] * (1 / 3) / (k[0] + k[1]), rel=1e-12)
    assert r.excluded == {"items with fewer than two annotations": 1}
    r = iaa.sparse_agreement(data, [2.0, 1.0, 5.0])       # custom: item 3 still excluded
    assert r.value == pytest.approx(2 * (1 / 3) / 3)
    assert r.scheme == "custom" and r.excluded == {"items with fewer than two annotations": 1}
    assert list(r.per_item["weight"]) == [2.0, 1.0, 0.0]


def test_inv_var_class_default_and_given_distribution():
    data = wide({"a": ["x", "x", "x", "y"], "b": ["x", "y", "x", None],
                 "c": ["x", None, "x", None], "d": [None, None, "y", None]})
    # class shares of all annotations: x 7, y 3 of 10 (§5.4 default)
    r = iaa.sparse_agreement(data, "inv_var_class")
    np.testing.assert_allclose(r.class_probs.to_numpy(), [0.7, 0.3])
    k = 1 / iaa.spa_item_variance(np.array([3, 2, 4]), class_probs=[0.7, 0.3])
    p_hat = np.array([1.0, 0.0, 0.5])                     # xxx, xy, xxxy (6 of 12 ordered pairs)
    assert r.value == pytest.approx(k @ p_hat / k.sum(), rel=1e-12)
    r2 = iaa.sparse_agreement(data, "inv_var_class", class_probs={"x": 0.5, "y": 0.5})
    # uniform distribution → inv_var_class = inv_var = edges (B.5)
    assert r2.value == pytest.approx(iaa.sparse_agreement(data, "edges").value, rel=1e-12)


def test_flat_weights_equal_fleiss_p_bar_on_complete_data():
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa
    rng = np.random.default_rng(1)
    x = random_complete(rng, 60, 5, [0.5, 0.3, 0.2])
    table = np.stack([(x == k).sum(axis=1) for k in range(3)], axis=1)
    m = 5
    p_bar = np.mean(((table ** 2).sum(axis=1) - m) / (m * (m - 1)))     # Fleiss 1971, P̄
    p_e = ((table.sum(axis=0) / table.sum()) ** 2).sum()
    # statsmodels' κ recovers the same P̄: P̄ = κ(1 − P̄_e) + P̄_e (eq. 3)
    assert sm_fleiss_kappa(table) * (1 - p_e) + p_e == pytest.approx(p_bar, rel=1e-12)
    data = wide(x)
    for scheme in SCHEMES:   # with equal n_i every scheme reduces to the flat mean
        assert iaa.sparse_agreement(data, scheme).value == pytest.approx(p_bar, rel=1e-12)
    kappa = iaa.sparse_kappa(data, "flat")
    assert kappa.value == pytest.approx(sm_fleiss_kappa(table), rel=1e-10)   # statsmodels


def test_annotations_weights_equal_krippendorff_observed_agreement():
    from krippendorff.krippendorff import _coincidences, _reliability_data_to_value_counts
    rng = np.random.default_rng(2)
    x = random_complete(rng, 80, 6, [0.4, 0.3, 0.2, 0.1]).astype(float)
    x[rng.random(x.shape) < 0.55] = np.nan            # sparse: many items with 0–2 labels
    value_counts = _reliability_data_to_value_counts(x.T, np.arange(4.0))
    o = _coincidences(value_counts)                   # krippendorff package's o_ck
    one_minus_d_o = np.trace(o) / o.sum()             # nominal: 1 − D_o = Σ_c o_cc / n..
    data = wide(pd.DataFrame(x).astype(object).where(~np.isnan(x), None))
    r = iaa.sparse_agreement(data, "annotations")
    assert r.excluded["items with fewer than two annotations"] > 0
    assert r.value == pytest.approx(one_minus_d_o, rel=1e-12)
    # the same through the package's public API: α = 1 − D_o / D_e, D_e nominal from the
    # pairable values n_c (items with two or more labels): 1 − Σ n_c(n_c − 1)/(n(n − 1))
    import krippendorff
    alpha = krippendorff.alpha(reliability_data=x.T, level_of_measurement="nominal")
    pairable = np.isfinite(x).sum(axis=1) >= 2
    n_c = np.array([(x[pairable] == c).sum() for c in range(4)], dtype=float)
    d_e = 1 - (n_c * (n_c - 1)).sum() / (n_c.sum() * (n_c.sum() - 1))
    assert r.value == pytest.approx(1 - (1 - alpha) * d_e, rel=1e-12)


# ----------------------------------------------------------------- edge cases
def test_no_item_with_two_annotations_raises():
    # decision: no pair of annotations exists, so SPA is undefined → AgreementError
    data = wide({"a": ["x", None], "b": [None, "y"]})
    with pytest.raises(AgreementError, match="no item has two or more annotations"):
        iaa.sparse_agreement(data)


def test_degenerate_class_distribution_uses_annotations_limit():
    # decision: p on one class → Var[P̂] ≡ 0; weights take their limit k ∝ n (documented)
    data = wide({"a": ["x", "x", "y"], "b": ["x", "y", "y"], "c": ["x", None, None]})
    r = iaa.sparse_agreement(data, "inv_var_class", class_probs=[1.0, 0.0])
    assert r.value == pytest.approx(iaa.sparse_agreement(data, "annotations").value)
    assert "degenerate class distribution" in r.note
    # the limit is continuous: a nearly degenerate p gives nearly the annotations weights
    near = iaa.spa_weight_curves(8, ["inv_var_class"], class_probs=[1 - 1e-9, 1e-9])
    ann = iaa.spa_weight_curves(8, ["annotations"])
    np.testing.assert_allclose(near.iloc[1:, 0], ann.iloc[1:, 0], rtol=1e-6)
    # data with one label only: every P̂_i = 1, so SPA is 1 under the default shares
    one = wide({"a": ["x", "x"], "b": ["x", "x"]})
    assert iaa.sparse_agreement(one, "inv_var_class").value == 1.0
    assert "one category only" in iaa.sparse_agreement(one, "inv_var").note   # C = 1
    assert np.isnan(iaa.sparse_kappa(one).value)
    curve = iaa.spa_variance_curve(data, ["inv_var_class"], n_rounds=20, seed=0,
                                   n_points=2, class_probs=[1.0, 0.0])
    assert "degenerate class distribution" in curve.attrs["notes"][0]


def test_annotator_labelling_an_item_twice_raises():
    # decision (sparse_agreement docstring): P̂_i counts pairs of distinct annotators
    # (§4.1), so a repeated (item, annotator) is refused rather than silently resolved
    df = pd.DataFrame({"item": [1, 1, 1], "annotator": ["a", "a", "b"],
                       "label": ["x", "y", "x"]})
    with pytest.raises(AgreementError, match="rated more than once"):
        iaa.sparse_agreement(df)
    # a secondary label (rank 2) is not a second annotation: SPA uses primary labels only
    ranked = pd.DataFrame({"item": [1, 1, 1, 2, 2], "annotator": ["a", "a", "b", "a", "b"],
                           "label": ["x", "y", "x", "x", "y"], "rank": [1, 2, 1, 1, 1]})
    with_secondary = Annotations.from_long(ranked, rank="rank")
    primary_only = Annotations.from_long(ranked[ranked["rank"] == 1].drop(columns="rank"))
    for scheme in SCHEMES:
        r = iaa.sparse_agreement(with_secondary, scheme)
        assert list(r.per_item["n_annotations"]) == [2, 2], scheme
        assert r.value == pytest.approx(iaa.sparse_agreement(primary_only, scheme).value)
    assert iaa.sparse_agreement(with_secondary, "flat").value == 0.5   # P̂ = 1, 0 (eq. 7)


def test_bad_weights_rejected():
    data = wide({"a": ["x", "x"], "b": ["x", "y"]})
    with pytest.raises(AgreementError, match="one entry per item"):
        iaa.sparse_agreement(data, [1.0, 2.0, 3.0])
    with pytest.raises(AgreementError, match="non-negative"):
        iaa.sparse_agreement(data, [1.0, -2.0])
    with pytest.raises(AgreementError, match="are 0"):
        iaa.sparse_agreement(data, [0.0, 0.0])
    with pytest.raises(AgreementError, match="no entry for item"):
        iaa.sparse_agreement(data, pd.Series([1.0], index=[0]))
    r = iaa.sparse_agreement(data, pd.Series([3.0, 1.0], index=[1, 0]))   # by item name
    assert list(r.per_item["weight"]) == [1.0, 3.0]
    assert r.value == pytest.approx((1 * 1.0 + 3 * 0.0) / 4)             # P̂ = 1, 0
    with pytest.raises(AgreementError, match="unknown categories"):
        iaa.sparse_agreement(data, "inv_var_class", class_probs={"z": 1.0})


def test_result_frame_and_html_escape_labels():
    data = wide({"a": ["<b>", "x"], "b": ["<b>", "x"]}, categories=["<b>", "x"])
    data = Annotations.from_long(pd.DataFrame({"item": ["<i>", "<i>", "j", "j"],
                                               "annotator": ["a", "b", "a", "b"],
                                               "label": ["<b>", "<b>", "x", "x"]}))
    r = iaa.sparse_agreement(data, "flat")
    assert r.to_frame().loc["sparse probability of agreement", "scheme"] == "flat"
    page = r._repr_html_()
    assert "&lt;i&gt;" in page and "<i>" not in page


# ----------------------------------------------------------------- unbiasedness (§4.2)
def _complete_example(seed=3, n_items=40, n_annotators=6):
    rng = np.random.default_rng(seed)
    x = random_complete(rng, n_items, n_annotators, [0.5, 0.3, 0.2])
    table = np.stack([(x == k).sum(axis=1) for k in range(3)], axis=1)
    m = n_annotators
    p_full = np.mean(((table ** 2).sum(axis=1) - m) / (m * (m - 1)))   # Fleiss' P̄, eq. 2
    return x, p_full


def test_random_sparsification_keeps_mean_spa_for_every_scheme():
    # §4.2: removing annotations at random leaves E[P̄_spa] = P̄ of the complete data
    # for weights that depend on n_i only. Each round removes every annotation with
    # probability 1/2 and calls sparse_agreement on what is left; the mean over rounds
    # must lie within 4 standard errors of P̄ (a seeded run: fails only for a bias).
    x, p_full = _complete_example()
    rng = np.random.default_rng(11)
    rounds = 250
    fixed_p = np.bincount(x.ravel(), minlength=3) / x.size     # fixed in advance
    values = {sc: [] for sc in SCHEMES + ["inv_var_class (estimated p)"]}
    biased = []
    items, annotators = np.nonzero(np.ones_like(x, dtype=bool))
    for _ in range(rounds):
        keep = rng.random(x.size) < 0.5
        df = pd.DataFrame({"item": items[keep], "annotator": annotators[keep],
                           "label": x.ravel()[keep]})
        data = Annotations.from_long(df, categories=[0, 1, 2])
        for sc in SCHEMES:
            cp = fixed_p if sc == "inv_var_class" else None
            values[sc].append(iaa.sparse_agreement(data, sc, class_probs=cp).value)
        values["inv_var_class (estimated p)"].append(
            iaa.sparse_agreement(data, "inv_var_class").value)
        own = iaa.sparse_agreement(data, "flat").per_item["agreement"].fillna(0.0)
        biased.append(iaa.sparse_agreement(data, (1.0 + own).to_numpy()).value)
    for sc, v in values.items():
        v = np.asarray(v)
        se = v.std(ddof=1) / np.sqrt(rounds)
        assert abs(v.mean() - p_full) < 4 * se, (sc, v.mean(), p_full, se)
    # negative control, so the check above can fail: weights k_i = 1 + P̂_i depend on
    # the item agreements (breaking k ⊥ P, §4.2) and the same test rejects them
    biased = np.asarray(biased)
    assert biased.mean() - p_full > 4 * biased.std(ddof=1) / np.sqrt(rounds)


# ----------------------------------------------------------------- variance curves
def _reference_random_curve(x, tau, rounds, rng, class_probs):
    """Figure 6/7 experiment by a plain loop over rounds: each annotation (x ≥ 0)
    present with probability τ (arrival time < τ), SPA per scheme by eq. 7 with the
    weights of §5."""
    m = x.shape[1]
    out = {sc: [] for sc in SCHEMES}
    var_c = iaa.spa_item_variance(np.arange(m + 1), class_probs=class_probs)
    var_u = iaa.spa_item_variance(np.arange(m + 1), n_classes=3)
    for _ in range(rounds):
        present = (rng.random(x.shape) < tau) & (x >= 0)
        counts = np.stack([((x == k) & present).sum(axis=1) for k in range(3)], axis=1)
        n = counts.sum(axis=1)
        ok = n >= 2
        if not ok.any():
            continue
        p_hat = (counts * (counts - 1)).sum(axis=1)[ok] / (n[ok] * (n[ok] - 1))
        nk = n[ok].astype(float)
        k = {"flat": np.ones_like(nk), "annotations": nk, "annotations_m1": nk - 1,
             "edges": nk * (nk - 1) / 2, "inv_var": 1 / var_u[n[ok]],
             "inv_var_class": 1 / var_c[n[ok]]}
        for sc in SCHEMES:
            out[sc].append(k[sc] @ p_hat / k[sc].sum())
    return {sc: (np.mean(v), np.var(v, ddof=1)) for sc, v in out.items()}


def test_variance_curve_random_mode_matches_a_plain_simulation():
    x, p_full = _complete_example(n_items=30, n_annotators=5)
    data = wide(x, categories=[0, 1, 2])
    shares = np.bincount(x.ravel(), minlength=3) / x.size
    curve = iaa.spa_variance_curve(data, SCHEMES, n_rounds=4000, seed=7, n_points=4)
    ref = _reference_random_curve(x, 0.5, 2000, np.random.default_rng(8), shares)
    half = curve[curve["fraction"] == 0.5].set_index("scheme")
    for sc in SCHEMES:
        mean, var = ref[sc]
        # variance estimates from 4000 and 2000 rounds: relative SE ≈ 3.9%; allow 20%
        assert half.loc[sc, "variance"] == pytest.approx(var, rel=0.2), sc
        # unbiasedness (§4.2) of the vectorised rounds, within 4 SE
        se = np.sqrt(half.loc[sc, "variance"] / half.loc[sc, "n_rounds"])
        assert abs(half.loc[sc, "mean"] - p_full) < 4 * se, sc
    # x of Figure 6: expected usable annotations at τ = 1/2 with m = 5 per item:
    # Σ_{j≥2} j·C(5,j)/32 per item = (5·16/32 − 5/32) = 75/32, times 30 items
    assert half["n_usable"].iloc[0] == pytest.approx(30 * 75 / 32, rel=0.02)
    # at τ = 1 every round holds the complete data: SPA = P̄ exactly, variance 0
    end = curve[curve["fraction"] == 1.0]
    np.testing.assert_allclose(end["mean"], p_full, rtol=1e-12)
    assert (end["variance"] < 1e-25).all() and (end["n_usable"] == x.size).all()


def test_variance_curve_per_item_mode():
    x, p_full = _complete_example(n_items=30, n_annotators=5)
    data = wide(x, categories=[0, 1, 2])
    curve = iaa.spa_variance_curve(data, ["flat", "edges"], n_rounds=3000, seed=4,
                                   mode="per_item", n_points=5)
    assert set(curve["annotations_per_item"]) == {2, 3, 4, 5}
    assert (curve["n_usable"] == curve["annotations_per_item"] * curve["n_items"]).all()
    flat = curve[curve["scheme"] == "flat"].reset_index(drop=True)
    edges = curve[curve["scheme"] == "edges"].reset_index(drop=True)
    np.testing.assert_array_equal(flat["variance"], edges["variance"])  # equal n_i (§6.3)
    # one item with a random pair: P̂ ∈ {0, 1}, so Var = P̄(1 − P̄) over items (eq. 1)
    one = flat[(flat["annotations_per_item"] == 2) & (flat["n_items"] == 1)].iloc[0]
    assert one["variance"] == pytest.approx(p_full * (1 - p_full), rel=0.1)  # 3000 rounds
    # all items with all annotations: SPA is the complete P̄ in every round
    full = flat[(flat["annotations_per_item"] == 5) & (flat["n_items"] == 30)].iloc[0]
    assert full["mean"] == pytest.approx(p_full, rel=1e-12) and full["variance"] < 1e-25
    # variance falls with more annotations per item at a fixed number of items (Fig. 6)
    last = flat.groupby("annotations_per_item")["variance"].apply(lambda v: v.iloc[1])
    assert np.all(np.diff(last.to_numpy()) < 0)


def test_variance_curve_errors():
    data = wide({"a": ["x", None], "b": [None, "y"]})
    with pytest.raises(AgreementError, match="no item has two"):
        iaa.spa_variance_curve(data, ["flat"], n_rounds=10, seed=0)
    ok = wide({"a": ["x", "y"], "b": ["x", "y"]})
    with pytest.raises(AgreementError, match="mode"):
        iaa.spa_variance_curve(ok, ["flat"], n_rounds=10, seed=0, mode="sometimes")
    with pytest.raises(AgreementError, match="schemes"):
        iaa.spa_variance_curve(ok, ["edge"], n_rounds=10, seed=0)


def test_variance_curve_random_mode_on_sparse_data():
    # items with 2 … 7 annotations (and some with 1, never usable): groups of unequal m
    rng = np.random.default_rng(21)
    x = random_complete(rng, 40, 7, [0.6, 0.3, 0.1])
    x[rng.random(x.shape) < 0.4] = -1
    data = Annotations.from_long(pd.DataFrame(
        {"item": np.nonzero(x >= 0)[0], "annotator": np.nonzero(x >= 0)[1],
         "label": x[x >= 0]}), categories=[0, 1, 2])
    shares = np.bincount(x[x >= 0], minlength=3) / (x >= 0).sum()
    curve = iaa.spa_variance_curve(data, SCHEMES, n_rounds=4000, seed=9, n_points=4)
    ref = _reference_random_curve(x, 0.75, 2000, np.random.default_rng(10), shares)
    at = curve[curve["fraction"] == 0.75].set_index("scheme")
    for sc in SCHEMES:
        mean, var = ref[sc]
        assert at.loc[sc, "variance"] == pytest.approx(var, rel=0.2), sc   # rel. SE ≈ 4%
        se = np.sqrt(var / 2000 + at.loc[sc, "variance"] / at.loc[sc, "n_rounds"])
        assert abs(at.loc[sc, "mean"] - mean) < 4 * se, sc
    # τ = 1: the data as given, SPA exactly as sparse_agreement computes it (eq. 7)
    end = curve[curve["fraction"] == 1.0].set_index("scheme")
    for sc in SCHEMES:
        assert end.loc[sc, "mean"] == pytest.approx(
            iaa.sparse_agreement(data, sc).value, rel=1e-12), sc


def test_variance_curve_per_item_mode_many_annotations():
    # m = 10 > 8 takes the sorting-network path for random orders; m = 3 the table path.
    # Every a-subset is uniform, so the mean SPA at each (a, t) is the mean of the
    # items' complete agreements P_i over the items with m_i ≥ a (§4.1, eq. 14).
    rng = np.random.default_rng(30)
    x = random_complete(rng, 16, 10, [0.5, 0.3, 0.2])
    x[8:, 3:] = -1                                            # items 8–15: 3 annotations
    data = Annotations.from_long(pd.DataFrame(
        {"item": np.nonzero(x >= 0)[0], "annotator": np.nonzero(x >= 0)[1],
         "label": x[x >= 0]}), categories=[0, 1, 2])
    counts = np.stack([(x == k).sum(axis=1) for k in range(3)], axis=1)
    n = counts.sum(axis=1)
    p_i = (counts * (counts - 1)).sum(axis=1) / (n * (n - 1))
    curve = iaa.spa_variance_curve(data, ["flat"], n_rounds=3000, seed=2,
                                   mode="per_item", n_points=3)
    for _, row in curve.iterrows():
        target = p_i[n >= row["annotations_per_item"]].mean()
        se = np.sqrt(row["variance"] / row["n_rounds"])
        assert abs(row["mean"] - target) <= 4 * se + 1e-12, row.to_dict()
    assert set(curve["annotations_per_item"]) == set(range(2, 11))
    full = curve[(curve["annotations_per_item"] == 10) & (curve["n_items"] == 8)].iloc[0]
    assert full["mean"] == pytest.approx(p_i[:8].mean(), rel=1e-12)


def test_sorting_network_sorts_every_column():
    from iaa_widgets.measures.sparse.curves import _sort_columns
    rng = np.random.default_rng(0)
    for m in (2, 3, 6, 9, 12):
        x = rng.integers(0, 50, size=(m, 7, 11))
        expected = np.sort(x, axis=0)                       # numpy's sort as reference
        _sort_columns(x)
        np.testing.assert_array_equal(x, expected)


# ----------------------------------------------------------------- properties
from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from([None, "a", "b", "c"]), min_size=4, max_size=4),
                min_size=2, max_size=12),
       st.sampled_from(SCHEMES))
def test_spa_properties(rows, scheme):
    # a probability; invariant under renaming categories and reordering items (eq. 7)
    frame = pd.DataFrame(rows)
    usable = frame.notna().sum(axis=1) >= 2
    if not usable.any() or frame.notna().sum().gt(0).sum() < 2:
        return
    try:
        data = Annotations.from_wide(frame)
    except AgreementError:
        return                                     # e.g. fewer than two annotators
    value = iaa.sparse_agreement(data, scheme).value
    assert -1e-12 <= value <= 1 + 1e-12
    renamed = frame.replace({"a": "z", "b": "a", "c": "b"}).iloc[::-1]
    other = iaa.sparse_agreement(Annotations.from_wide(renamed), scheme).value
    assert other == pytest.approx(value, rel=1e-12, abs=1e-15)
