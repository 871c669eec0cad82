"""Rosenberg & Binkowski (2004) augmented κ′: the paper's tables, exactness, properties.

Sources of expected numbers: the paper's Tables 1–3 (§5.1, §5.2); Cohen's κ from
scikit-learn (κ′ at p = 1 ignores secondary labels, §5); a literal §5 implementation
with exact fractions written below in the test (``exact_kappa``); per-item agreement
formulas for the §4 cases derived by hand from §5.1 (given next to each case).
"""
from fractions import Fraction
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import cohen_kappa_score

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets.measures.augmented import DEFAULT_PS, annotation_matrix


# ------------------------------------------------------- a literal reference
def exact_kappa(table: pd.DataFrame, p: Fraction, categories) -> dict:
    """§5 step by step with Fractions, loops and dense matrices (test oracle).

    ``table``: tidy rows (item, annotator, label) where label is one label or a
    (primary, secondary) tuple. Returns κ′ (average over pairs), per-pair p(A), p(E).
    """
    cells = {(r.item, r.annotator): r.label if isinstance(r.label, tuple) else (r.label,)
             for r in table.itertuples()}
    annotators = list(dict.fromkeys(table["annotator"]))

    def matrix(ann, items):  # §5.1: 1, p, 1 − p or 0
        m = {}
        for x in items:
            labels = cells[(x, ann)]
            for y in categories:
                if labels == (y,):
                    m[x, y] = Fraction(1)
                elif len(labels) == 2 and labels[0] == y:
                    m[x, y] = p
                elif len(labels) == 2 and labels[1] == y:
                    m[x, y] = 1 - p
                else:
                    m[x, y] = Fraction(0)
        return m

    out = {"pairs": []}
    for a, b in combinations(annotators, 2):
        items = [x for x in dict.fromkeys(table["item"]) if (x, a) in cells and (x, b) in cells]
        if not items:
            continue
        n = len(items)
        ma, mb = matrix(a, items), matrix(b, items)
        alpha = sum(ma[x, y] * mb[x, y] for x in items for y in categories)  # Σ Ag
        p_a = alpha / n
        freq_a = {y: sum(ma[x, y] for x in items) / n for y in categories}  # Table 3
        freq_b = {y: sum(mb[x, y] for x in items) / n for y in categories}
        p_e = sum(freq_a[y] * freq_b[y] for y in categories)
        kappa = (p_a - p_e) / (1 - p_e) if p_e != 1 else None
        out["pairs"].append((p_a, p_e, kappa))
        out.setdefault("freq", []).append((freq_a, freq_b))
    kappas = [k for _, _, k in out["pairs"]]
    out["kappa"] = None if None in kappas else sum(kappas) / len(kappas)
    return out


# ------------------------------------------------------------- Tables 1–3
TABLE_1 = [("a", "b"), ("b", "a"), "b", "c", ("c", "b")]  # annotator A, Msg1–Msg5
CATEGORIES = ["a", "b", "c", "d"]


def table_1_data(b_labels=("a", "b", "b", "c", "c")):
    """Table 1 as annotator A; B (not in the paper) labels all five messages."""
    return pd.DataFrame({"item": [1, 2, 3, 4, 5] * 2, "annotator": ["A"] * 5 + ["B"] * 5,
                         "label": TABLE_1 + list(b_labels)})


def test_table_2_annotation_matrix():
    ann = Annotations.from_long(table_1_data(), categories=CATEGORIES)
    m = annotation_matrix(ann, "A", p=0.6)
    # Table 2 (p = 0.6, N = 5), rows Msg1–Msg5, columns a–d
    table_2 = [[0.6, 0.4, 0, 0], [0.4, 0.6, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0],
               [0, 0.4, 0.6, 0]]
    np.testing.assert_allclose(m.to_numpy(), table_2, rtol=0, atol=1e-15)
    # Table 2, row "Total": 1, 2.4, 1.6, 0 and N = 5
    np.testing.assert_allclose(m.sum().to_numpy(), [1, 2.4, 1.6, 0], rtol=0, atol=1e-15)
    assert len(m) == 5 and list(m.columns) == CATEGORIES


def test_table_3_frequency_vector():
    res = iaa.augmented_kappa(Annotations.from_long(table_1_data(), categories=CATEGORIES),
                              p=0.6)
    # Table 3: Freq_A = 0.2, 0.48, 0.32, 0 (p = 0.6, N = 5)
    np.testing.assert_allclose(res.freq.loc[("A", "B", "A")].to_numpy(),
                               [0.2, 0.48, 0.32, 0], rtol=0, atol=1e-15)


def test_tables_with_exact_fractions():
    # the same Table 2 totals / N as exact fractions: Freq_A = (1, 12/5, 8/5, 0) / 5
    df = table_1_data(b_labels=("a", ("b", "a"), "b", "d", ("c", "b")))
    ref = exact_kappa(df, Fraction(3, 5), CATEGORIES)
    res = iaa.augmented_kappa(Annotations.from_long(df, categories=CATEGORIES), p=0.6)
    # the oracle reproduces Table 3 exactly: Freq_A = 0.2, 0.48, 0.32, 0 (p = 3/5, N = 5)
    assert [ref["freq"][0][0][y] for y in CATEGORIES] == \
        [Fraction(1, 5), Fraction(12, 25), Fraction(8, 25), 0]
    p_a, p_e, kappa = ref["pairs"][0]
    assert res.observed == pytest.approx(float(p_a), abs=1e-15)
    assert res.expected == pytest.approx(float(p_e), abs=1e-15)
    assert res.value == pytest.approx(float(kappa), abs=1e-15)


# ------------------------------------------------ p = 1 is Cohen's κ (primary)
def random_table(rng, n_items=60, n_annotators=2, k=5, p_second=0.4, p_missing=0.0):
    cats = [f"c{i}" for i in range(k)]
    rows = []
    for x in range(n_items):
        for r in range(n_annotators):
            if rng.random() < p_missing:
                continue
            first, second = rng.choice(k, size=2, replace=False)
            label = (cats[first], cats[second]) if rng.random() < p_second else cats[first]
            rows.append((x, f"r{r}", label))
    return pd.DataFrame(rows, columns=["item", "annotator", "label"]), cats


@pytest.mark.parametrize("seed", range(5))
def test_p1_is_cohens_kappa_on_primary_labels(seed):
    df, cats = random_table(np.random.default_rng(seed))
    primary = df.assign(label=[v[0] if isinstance(v, tuple) else v for v in df["label"]])
    wide = primary.pivot(index="item", columns="annotator", values="label")
    expected = cohen_kappa_score(wide["r0"], wide["r1"])  # scikit-learn, independent
    assert iaa.augmented_kappa(df, p=1.0).value == pytest.approx(expected, abs=1e-12)
    assert iaa.augmented_kappa_sweep(df).curve["kappa"].iloc[-1] == \
        pytest.approx(expected, abs=1e-12)


# ------------------------------------------------------------ exactness
@pytest.mark.parametrize("seed, n_annotators, p_missing", [(0, 2, 0), (1, 3, 0),
                                                           (2, 4, 0.3)])
def test_sweep_equals_direct_computation_on_the_grid(seed, n_annotators, p_missing):
    df, _ = random_table(np.random.default_rng(seed), n_items=200,
                         n_annotators=n_annotators, p_missing=p_missing)
    sweep = iaa.augmented_kappa_sweep(df)
    assert np.allclose(sweep.curve["p"], np.arange(50, 101) / 100, rtol=0, atol=1e-15)
    for p in DEFAULT_PS:
        direct = iaa.augmented_kappa(df, p=p)
        row = sweep.curve.loc[sweep.curve["p"] == p].iloc[0]
        assert abs(row["kappa"] - direct.value) < 1e-12
        assert abs(row["p_a"] - direct.observed) < 1e-12
        assert abs(row["p_e"] - direct.expected) < 1e-12
        np.testing.assert_allclose(sweep.item_kappa(p).to_numpy(),
                                   direct.items["kappa"].to_numpy(), rtol=0, atol=1e-12)
    for col, p in (("kappa_0.5", 0.5), ("kappa_1.0", 1.0)):
        np.testing.assert_allclose(sweep.items[col], iaa.augmented_kappa(df, p=p).items["kappa"],
                                   rtol=0, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n_items=st.integers(1, 8), n_annotators=st.integers(2, 3))
def test_sweep_equals_exact_fractions(seed, n_items, n_annotators):
    df, cats = random_table(np.random.default_rng(seed), n_items=n_items,
                            n_annotators=n_annotators, k=3, p_second=0.5)
    ps = np.array([0.5, 0.55, 0.6, 0.73, 0.9, 1.0])
    sweep = iaa.augmented_kappa_sweep(df, ps=ps)
    for p, got in zip(ps, sweep.curve["kappa"]):
        ref = exact_kappa(df, Fraction(p), cats)["kappa"]  # Fraction(p): the float's exact value
        if ref is None:
            assert np.isnan(got)
        else:
            assert abs(got - float(ref)) < 1e-12
    # the quadratic coefficients themselves, exactly: interpolate the oracle at 0, 1/2, 1
    for (p_a0, p_e0, _), (p_ah, p_eh, _), (p_a1, p_e1, _), (_, row) in zip(
            *(exact_kappa(df, Fraction(v), cats)["pairs"] for v in (0, Fraction(1, 2), 1)),
            sweep.pairs.iterrows()):
        for name, f0, fh, f1 in (("p_a", p_a0, p_ah, p_a1), ("p_e", p_e0, p_eh, p_e1)):
            c2 = 2 * f1 - 4 * fh + 2 * f0
            c1 = f1 - f0 - c2
            for j, c in enumerate((f0, c1, c2)):
                assert abs(row[f"{name}_c{j}"] - float(c)) < 1e-12


def test_mean_of_item_kappas_is_kappa_for_two_annotators():
    # the decision: κ_x uses the pair's corpus p(E), so mean_x κ_x = κ′
    df, _ = random_table(np.random.default_rng(7), n_items=100)
    for p in (0.5, 0.65, 1.0):
        res = iaa.augmented_kappa(df, p=p)
        assert res.items["kappa"].mean() == pytest.approx(res.value, abs=1e-12)
        assert res.items["p_a"].mean() == pytest.approx(res.observed, abs=1e-12)


def test_item_curve_matches_direct_item_kappa():
    df, _ = random_table(np.random.default_rng(8), n_items=30, n_annotators=3)
    sweep = iaa.augmented_kappa_sweep(df)
    for item in (0, 13, 29):
        curve = sweep.item_curve(item)
        for p in (0.5, 0.77, 1.0):
            direct = iaa.augmented_kappa(df, p=p).items.set_index("item").loc[item, "kappa"]
            got = curve.loc[np.isclose(curve["p"], p), "kappa"].iloc[0]
            assert abs(got - direct) < 1e-12


# ------------------------------------------------------ more than two annotators
def test_several_annotators_average_pairs_each_with_its_own_expectation():
    df, _ = random_table(np.random.default_rng(11), n_items=80, n_annotators=3,
                         p_missing=0.2)
    ann = Annotations.from_long(df)
    res = iaa.augmented_kappa(ann, p=0.7)
    # each pair separately, on the items both rated (the decision)
    per_pair = []
    for a, b in combinations(ann.annotators, 2):
        pair = df[df["annotator"].isin([a, b])]
        both = pair.groupby("item")["annotator"].transform("size") == 2
        per_pair.append(iaa.augmented_kappa(pair[both], p=0.7))
    assert res.value == pytest.approx(np.mean([r.value for r in per_pair]), abs=1e-12)
    assert res.expected == pytest.approx(np.mean([r.expected for r in per_pair]), abs=1e-12)
    np.testing.assert_allclose(res.pairs["kappa"], [r.value for r in per_pair], atol=1e-12)
    np.testing.assert_array_equal(res.pairs["n_items"], [r.n_items for r in per_pair])
    np.testing.assert_array_equal(res.pairs["n_left_out"],
                                  [ann.n_items - r.n_items for r in per_pair])
    # items rated by fewer than two annotators are excluded and counted
    rated = df.groupby("item")["annotator"].size()
    lone = int((rated < 2).sum()) + (ann.n_items - len(rated))
    assert res.excluded.get("rated by fewer than two annotators", 0) == lone
    assert res.n_items == ann.n_items - lone == len(res.items)


def test_lone_item_is_excluded_and_counted():
    df = table_1_data()
    df = pd.concat([df, pd.DataFrame({"item": [6], "annotator": ["A"], "label": ["a"]})])
    res = iaa.augmented_kappa_sweep(df)
    assert res.excluded == {"rated by fewer than two annotators": 1}
    assert res.n_items == 5 and 6 not in set(res.items["item"])
    with pytest.raises(AgreementError, match="fewer than two annotators"):
        res.item_curve(6)


# ------------------------------------------------------ the §4 cases and classes
# Per-item agreement from §5.1 for each case of §4 ({A's labels, B's labels}):
# pA_x(p) = Σ_y M_A[x, y] M_B[x, y]. With a large single-label background p(E) barely
# moves with p, so κ_x follows pA_x: its change from p = 0.5 to 1 sets the class.
CASES = [
    ("a", "a", "{a,a}", "constant_high"),                   # pA = 1
    ("a", "b", "{a,b}", "constant_low"),                    # pA = 0
    (("a", "b"), "a", "{ab,a}", "higher_at_p1"),            # pA = p: 0.5 → 1
    (("a", "b"), "b", "{ab,b}", "higher_at_p05"),           # pA = 1 − p: 0.5 → 0
    (("a", "b"), "c", "{ab,c}", "constant_low"),            # pA = 0
    (("a", "b"), ("a", "b"), "{ab,ab}", "higher_at_p1"),    # pA = p² + (1−p)²: 0.5 → 1
    (("a", "b"), ("b", "a"), "{ab,ba}", "higher_at_p05"),   # pA = 2p(1−p): 0.5 → 0 (§6 class 4)
    (("a", "b"), ("a", "c"), "{ab,ac}", "higher_at_p1"),    # pA = p²: 0.25 → 1
    (("a", "b"), ("b", "c"), "{ab,bc}", "higher_at_p05"),   # pA = p(1−p): 0.25 → 0
    (("a", "b"), ("c", "d"), "{ab,cd}", "constant_low"),    # pA = 0
    ("a", ("a", "b"), "{a,ab}", "higher_at_p1"),            # mirror of {ab,a}
    ("a", ("b", "a"), "{a,ba}", "higher_at_p05"),           # mirror of {ab,b}
]


@pytest.mark.parametrize("label_a, label_b, case, klass", CASES)
def test_class_of_each_case(label_a, label_b, case, klass):
    background = [f"k{i % 10}" for i in range(200)]  # agreed single labels: κ_x = 1
    df = pd.DataFrame({"item": list(range(201)) * 2, "annotator": ["A"] * 201 + ["B"] * 201,
                       "label": [label_a] + background + [label_b] + background})
    items = iaa.augmented_kappa_sweep(df).items.set_index("item")
    assert items.loc[0, "case"] == case
    assert items.loc[0, "class"] == klass
    assert (items.loc[1:, "class"] == "constant_high").all()


def test_class_thresholds_are_parameters():
    df = table_1_data()
    loose = iaa.augmented_kappa_sweep(df, delta=10.0, tau=-10.0).items
    assert (loose["class"] == "constant_high").all()  # |d| ≤ 10, mean ≥ −10
    strict = iaa.augmented_kappa_sweep(df, delta=10.0, tau=10.0).items
    assert (strict["class"] == "constant_low").all()


# ------------------------------------------------------------ properties
tables = st.integers(0, 10**6).map(lambda s: random_table(np.random.default_rng(s),
                                                          n_items=25, k=4)[0])
several = st.tuples(st.integers(0, 10**6), st.integers(2, 4)).map(
    lambda a: random_table(np.random.default_rng(a[0]), n_items=25, n_annotators=a[1], k=4,
                           p_missing=0.15)[0])


@settings(max_examples=30, deadline=None)
@given(df=several)
def test_symmetric_between_annotators(df):
    swapped = df.iloc[::-1].copy()  # annotators now appear in reverse order: (B, A)
    x, y = iaa.augmented_kappa_sweep(df), iaa.augmented_kappa_sweep(swapped)
    np.testing.assert_allclose(x.curve[["kappa", "p_a", "p_e"]], y.curve[["kappa", "p_a", "p_e"]],
                               rtol=0, atol=1e-12)
    xi, yi = x.items.set_index("item").sort_index(), y.items.set_index("item").sort_index()
    np.testing.assert_allclose(xi[["kappa_0.5", "kappa_1.0"]], yi[["kappa_0.5", "kappa_1.0"]],
                               rtol=0, atol=1e-12)
    assert (xi["class"] == yi["class"]).all()


@settings(max_examples=30, deadline=None)
@given(df=tables, perm=st.permutations(range(4)))
def test_invariant_to_relabelling_categories(df, perm):
    rename = {f"c{i}": f"new{j}" for i, j in enumerate(perm)}
    relabelled = df.assign(label=[tuple(rename[v] for v in lab) if isinstance(lab, tuple)
                                  else rename[lab] for lab in df["label"]])
    x, y = iaa.augmented_kappa_sweep(df), iaa.augmented_kappa_sweep(relabelled)
    np.testing.assert_allclose(x.curve[["kappa", "p_a", "p_e"]], y.curve[["kappa", "p_a", "p_e"]],
                               rtol=0, atol=1e-12)
    assert (x.items["class"] == y.items["class"]).all()
    assert (x.items["case"].astype(str) == y.items["case"].astype(str)).all()


# ------------------------------------------------------------ bad input
@pytest.mark.parametrize("p", [0.49, 1.01, -1, float("nan"), "high"])
def test_p_outside_range_is_refused(p):
    with pytest.raises(AgreementError, match=r"\[0.5, 1\]"):
        iaa.augmented_kappa(table_1_data(), p=p)


def test_sweep_grid_is_checked():
    with pytest.raises(AgreementError,
                       match=r"ps must be a finite number in \[0.5, 1\], got 0.4"):
        iaa.augmented_kappa_sweep(table_1_data(), ps=[0.5, 0.4])
    with pytest.raises(AgreementError, match="at least one"):
        iaa.augmented_kappa_sweep(table_1_data(), ps=[])
    with pytest.raises(AgreementError, match="delta"):
        iaa.augmented_kappa_sweep(table_1_data(), delta=-0.1)
    with pytest.raises(AgreementError, match="one p"):
        iaa.augmented_kappa(table_1_data(), p=[0.5, 0.6])


def test_anonymous_counts_are_refused():
    with pytest.raises(AgreementError, match="annotator identities"):
        iaa.augmented_kappa(Annotations.from_counts([[2, 0], [1, 1]]))


def test_degenerate_expected_agreement_is_nan_with_a_note():
    df = pd.DataFrame({"item": [1, 2, 1, 2], "annotator": list("AABB"),
                       "label": ["x", "x", "x", ("x", "y")]})
    res = iaa.augmented_kappa(df, p=1.0)  # at p = 1 everything is "x": p(E) = 1
    assert np.isnan(res.value) and "p(E) = 1" in res.note
    items = iaa.augmented_kappa_sweep(df).items
    assert (items["class"] == "undefined").all()


# ------------------------------------------------------------ presentation
def test_results_render_labels_as_text():
    df = pd.DataFrame({"item": [1, 2, 1, 2], "annotator": ["<b>A</b>"] * 2 + ["B"] * 2,
                       "label": ["<i>x</i>", "y", ("<i>x</i>", "y"), "y"]})
    res, sweep = iaa.augmented_kappa(df), iaa.augmented_kappa_sweep(df)
    for page in (res._repr_html_(), sweep._repr_html_()):
        assert "<b>A</b>" not in page and "<i>" not in page
    assert "&lt;b&gt;A&lt;/b&gt;" in res._repr_html_()
    assert list(sweep.to_frame().columns) == ["p", "kappa", "p_a", "p_e"]
    assert res.to_frame().loc["augmented kappa", "value"] == res.value
    assert list(sweep.items.columns) == ["item", "kappa_0.5", "kappa_1.0", "case", "class"]


def test_pair_without_shared_items_is_left_out_of_the_average():
    # C rates only items A did not rate: pair (A, C) has N = 0 and no κ′ of its own
    df = pd.concat([table_1_data(),
                    pd.DataFrame({"item": [6, 7, 6, 7], "annotator": ["B", "B", "C", "C"],
                                  "label": ["a", "b", "a", "c"]})])
    res = iaa.augmented_kappa(df, p=0.6)
    pairs = res.pairs.set_index(["annotator_a", "annotator_b"])
    assert pairs.loc[("A", "C"), "n_items"] == 0 and np.isnan(pairs.loc[("A", "C"), "kappa"])
    valid = pairs.loc[[("A", "B"), ("B", "C")], "kappa"]
    assert res.value == pytest.approx(valid.mean(), abs=1e-15)
    assert "1 annotator pair(s) share no item and are left out of the averages: (A, C)" \
        in res.note
    sweep = iaa.augmented_kappa_sweep(df, ps=[0.6])
    assert sweep.curve["kappa"].iloc[0] == pytest.approx(res.value, abs=1e-12)
    assert sweep.note == res.note == sweep.at(0.6).note


@pytest.mark.parametrize("n_annotators", [3, 4])  # 3: lookup table of cases; 4: np.unique
def test_case_notation_with_more_annotators(n_annotators):
    # §4 notation extended: one entry per annotator in order, "-" where one did not rate
    cells = {("x", "A"): ("q", "s"), ("x", "B"): ("s", "q"), ("x", "C"): "q",
             ("y", "A"): "s", ("y", "B"): ("t", "s"), ("y", "C"): ("u", "t")}
    expected = {"x": "{ab,ba,a}", "y": "{a,ba,cb}"}
    if n_annotators == 4:
        cells[("y", "D")] = "u"
        expected = {"x": "{ab,ba,a,-}", "y": "{a,ba,cb,c}"}
    df = pd.DataFrame([(i, a, lab) for (i, a), lab in cells.items()],
                      columns=["item", "annotator", "label"])
    items = iaa.augmented_kappa_sweep(df).items.set_index("item")
    assert items["case"].astype(str).to_dict() == expected


def test_sweep_views_match_direct_computation():
    df, _ = random_table(np.random.default_rng(12), n_items=40, n_annotators=3, p_missing=0.2)
    sweep = iaa.augmented_kappa_sweep(df)
    pair_curves = sweep.pair_curves(ps=[0.5, 0.83, 1.0])
    assert len(pair_curves) == 3 * 3  # 3 pairs × 3 values of p
    for p in (0.5, 0.83, 1.0):
        direct = iaa.augmented_kappa(df, p=p)
        at = sweep.at(p)
        for field in ("value", "observed", "expected"):
            assert abs(getattr(at, field) - getattr(direct, field)) < 1e-12
        assert at.excluded == direct.excluded and at.params == {"p": p}
        assert at.note == direct.note
        here = pair_curves[pair_curves["p"] == p]
        for col in ("kappa", "p_a", "p_e"):
            np.testing.assert_allclose(here[col], direct.pairs[col], rtol=0, atol=1e-12)
    # all items at once, one item, one p: the same numbers
    curves = sweep.item_curves()
    assert curves.shape == (sweep.n_items, 51)
    some = list(sweep.items["item"].iloc[[3, 0, 3]])
    np.testing.assert_allclose(sweep.item_curves(some, ps=[0.6, 0.9]),
                               curves.loc[some, [0.6, 0.9]], rtol=0, atol=1e-15)
    np.testing.assert_allclose(sweep.item_curve(some[0])["kappa"], curves.loc[some[0]],
                               rtol=0, atol=1e-15)
    np.testing.assert_allclose(sweep.item_kappa(0.6), curves[0.6], rtol=0, atol=1e-15)
    np.testing.assert_allclose(curves[0.5], sweep.items["kappa_0.5"], rtol=0, atol=1e-12)
    assert sweep.item_curves([]).shape == (0, 51)
    with pytest.raises(AgreementError, match="unknown item"):
        sweep.item_curves(["nope"])


@pytest.mark.parametrize("seed", range(3))
def test_without_secondary_labels_the_curve_is_flat_cohen_kappa(seed):
    # no secondary label: every weight is 1 whatever p (§5.1), so κ′(p) is Cohen's κ
    table = np.random.default_rng(seed).integers(0, 6, size=(4, 4))
    ann = Annotations.from_contingency(table)
    first, second = ann.label_matrix().T
    expected = cohen_kappa_score(first, second)  # scikit-learn, independent
    np.testing.assert_allclose(iaa.augmented_kappa_sweep(ann).curve["kappa"], expected,
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("n, k_a, k_b", [(5, 1, 1), (5, 4, 4), (6, 2, 3), (7, 3, 4),
                                         (7, 1, 1), (3, 1, 2)])
def test_expected_agreement_of_one_at_p1_is_not_lost_to_rounding(n, k_a, k_b):
    # every primary is "x"; A adds a secondary to k_a items, B to k_b: by §5.1 at p = 1
    # both Freq vectors are exactly (1, 0, …), so p(E) = 1 and κ′ is undefined, while
    # below p = 1 the secondaries make p(E) < 1. Summing the quadratic's coefficients at
    # p = 1 rounds to 1 ± 2⁻⁵² for these (n, k_a, k_b) (found by search), which once gave
    # κ′ = 1 and every item "higher_at_p1"; the direct §5 path is exact (weights 1 and 0).
    df = pd.DataFrame({"item": list(range(n)) * 2, "annotator": ["A"] * n + ["B"] * n,
                       "label": [("x", "y")] * k_a + ["x"] * (n - k_a)
                       + [("x", "z")] * k_b + ["x"] * (n - k_b)})
    sweep = iaa.augmented_kappa_sweep(df)
    assert sweep.curve["p_e"].iloc[-1] == 1.0 and np.isnan(sweep.curve["kappa"].iloc[-1])
    assert np.isnan(iaa.augmented_kappa(df, p=1.0).value)
    assert np.isnan(sweep.at(1.0).value) and sweep.item_kappa(1.0).isna().all()
    assert sweep.pair_curves([1.0])["p_e"].iloc[0] == 1.0
    assert (sweep.items["class"] == "undefined").all()
    direct = iaa.augmented_kappa(df, p=0.99)   # p(E) < 1 below p = 1: defined, as direct
    assert direct.expected < 1 and abs(sweep.at(0.99).value - direct.value) < 1e-12


@pytest.mark.parametrize("delta, tau", [(0.1, 0.5), (0.0, 0.0), (0.3, 0.8), (0.05, -0.2)])
def test_classes_follow_the_documented_rule(delta, tau):
    # the rule, written out here: d = κ_x(1) − κ_x(0.5); d > δ → higher_at_p1,
    # d < −δ → higher_at_p05, else mean ≥ τ → constant_high, else constant_low
    df, _ = random_table(np.random.default_rng(21), n_items=300, n_annotators=3, k=4,
                         p_second=0.6, p_missing=0.2)
    sweep = iaa.augmented_kappa_sweep(df, delta=delta, tau=tau)
    k05, k1 = sweep.items["kappa_0.5"], sweep.items["kappa_1.0"]
    d = k1 - k05
    rule = np.where(d > delta, "higher_at_p1", np.where(
        d < -delta, "higher_at_p05", np.where((k05 + k1) / 2 >= tau, "constant_high",
                                              "constant_low")))
    assert (sweep.items["class"].astype(str) == rule).all()
    assert len(set(rule)) >= 3                       # the data reach several classes
    assert sweep.params == {"delta": delta, "tau": tau}
    redrawn = iaa.augmented_kappa_sweep(df).with_classes(delta, tau)
    assert (redrawn.items["class"] == sweep.items["class"]).all()
    defaults = iaa.augmented_kappa_sweep(df).params    # the defaults δ = 0.1, τ = 0.5
    assert defaults == {"delta": 0.1, "tau": 0.5}
