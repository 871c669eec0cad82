"""Krippendorff's α: published values, worked examples, peer libraries, properties."""
import itertools
import random
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets.datasets import datasaur_spans, krippendorff_2011
from iaa_widgets.measures.continuous.alpha import alpha_from_coincidences, krippendorff_alpha, set_distances
from iaa_widgets.stats import item_counts, pair_contingencies


# ---------------------------------------------------------------- published values
@pytest.mark.parametrize("metric, published", [
    # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the 4 observers ×
    # 12 units example with missing values: α nominal .743, ordinal .815, interval .849,
    # ratio .797 (printed to three decimals).
    ("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)])
def test_krippendorff_2011_published(metric, published):
    res = iaa.krippendorff_alpha(krippendorff_2011(), metric)
    assert round(res.value, 3) == published
    assert res.scale == "disagreement"
    # unit 12 has a single value (observer B's 3): unpairable, excluded and counted
    assert res.excluded == {"items with a single rating (unpairable)": 1}
    assert res.n_items == 11 and res.n_ratings == 40  # 41 values, 40 pairable


def test_krippendorff_2011_nominal_exact():
    # Krippendorff (2011), nominal example: n = 40 pairable values,
    # α = 1 − (n−1) Σ_{c≠k} o_ck / (n² − Σ n_c²) with Σ_{c≠k} o_ck = 8 (D_o = 8/40) and
    # n_c = 9, 13, 10, 5, 3 ⇒ α = 1 − 39·8/(1600−384).
    res = iaa.krippendorff_alpha(krippendorff_2011())
    np.testing.assert_allclose(res.per_category["n_c"], [9, 13, 10, 5, 3])
    assert res.value == pytest.approx(float(1 - Fraction(39 * 8, 1600 - 384)), abs=1e-15)
    assert res.observed == pytest.approx(8 / 40)


# ---------------------------------------------------------------- Meyer's tutorial
MEYER_TABLE = np.array([[46, 0, 6],   # Meyer's tutorial, slide "Krippendorff's α — Example":
                        [0, 10, 6],   # rows r2 (+, •, −), columns r1
                        [0, 0, 32]])
MEYER_DISTANCE = [[0, .5, 1], [.5, 0, .5], [1, .5, 0]]


def test_meyer_example():
    ann = Annotations.from_contingency(MEYER_TABLE.T, ["+", "•", "-"], annotators=("r1", "r2"))
    res = iaa.krippendorff_alpha(ann, metric=MEYER_DISTANCE)
    # Meyer prints n_c = 98, 26, 76 and D_e = 0.4879, α = 0.8155.
    np.testing.assert_array_equal(res.per_category["n_c"], [98, 26, 76])
    assert round(res.expected, 4) == 0.4879
    # α = 0.81555098, which rounds to 0.8156: the printed 0.8155 is 1 − 0.09/0.4879, made
    # from the rounded D_e (= 0.815536...). We trust the exact value (fractions below).
    assert res.value == pytest.approx(0.8155, abs=1e-4)
    assert round(1 - 0.09 / 0.4879, 4) == 0.8155 and round(res.value, 4) == 0.8156
    # D_o: Meyer prints (46·0 + 10·0 + 6·1 + 6·0.5 + 32·0) / (100·2·(2−1)) = 0.09, but that
    # numerator is 9, and 9/200 = 0.045. The formula above it, Σ_i Σ_c1 Σ_c2 n_ic1 n_ic2 d,
    # runs over ORDERED pairs (c1, c2), so each disagreeing item counts twice: 2·9/200 = 0.09.
    # The printed result (and α = 0.8155, which needs it) is right; the printed numerator
    # drops the factor 2. Brute force over the 100 items, exactly as Meyer's formula reads:
    x = ann.label_matrix()
    d = np.array(MEYER_DISTANCE)
    brute = sum(Fraction(d[a, b]).limit_denominator() for row in x for a in row for b in row)
    assert brute / 200 == Fraction(9, 100)
    assert res.observed == pytest.approx(0.09, abs=1e-15)
    assert Fraction(9, 200) != Fraction(9, 100)  # the printed numerator's quotient, 0.045
    # α from exact fractions: D_e = 2(1274 + 7448 + 988) / (200·199)
    exact = 1 - Fraction(9, 100) / Fraction(2 * (1274 + 7448 + 988), 200 * 199)
    assert res.value == pytest.approx(float(exact), abs=1e-15)


# ---------------------------------------------------------------- Datasaur's note
def test_datasaur_labeler_a_reviewer():
    res = iaa.krippendorff_alpha(datasaur_spans())
    # Datasaur, "Krippendorff's Alpha Calculation", step 7: α = 0.56
    assert res.value == pytest.approx(0.56, abs=1e-12)
    # step 2: "Prince of Denmark" and "30557" carry one label each and are removed
    assert res.excluded == {"items with a single rating (unpairable)": 2}
    # Datasaur's intermediates, recomputed with its own formulas (7)–(12) from the counts
    counts = item_counts(iaa.as_annotations(datasaur_spans()))
    r_ik = counts[counts.sum(1) >= 2]
    r_i = r_ik.sum(1)
    n_spans, r = len(r_ik), r_ik.sum()
    r_mean = r / n_spans                                                   # (4) r' = 2
    p_a_prime = (r_ik * (r_ik - 1) / (r_mean * (r_i - 1))[:, None]).sum() / n_spans  # (7)–(9)
    p_a = p_a_prime * (1 - 1 / (n_spans * r_mean)) + 1 / (n_spans * r_mean)       # (10)
    p_e = ((r_ik.sum(0) / r) ** 2).sum()                                   # (11)–(12)
    assert (n_spans, r, r_mean) == (6, 12, 2)        # step 3: n = 6, r = 12, r' = 2
    assert r_i.tolist() == [2] * 6                     # step 3: r_1 … r_6 = 2
    # step 3, r_k: EVE 1, ORG 1, PER 5, TITLE 1, YEAR 4 (QTY only on an unpairable span);
    # step 6, π_k = r_k / r printed 0.0833, 0.0833, 0.4166, 0.0833, 0.3333 (truncated)
    shown = res.per_category.loc[["EVE", "ORG", "PER", "TITLE", "YEAR"]]
    assert shown["n_c"].tolist() == [1, 1, 5, 1, 4] and res.per_category.loc["QTY", "n_c"] == 0
    assert [int(s * 1e4) / 1e4 for s in shown["share"]] == [0.0833, 0.0833, 0.4166, 0.0833,
                                                             0.3333]
    # step 5, Table 6: p_a|i = 0, 1, 1, 1, 1, 0, and p_a' = 4/6 printed 0.6666 (truncated)
    p_a_i = (r_ik * (r_ik - 1) / (r_mean * (r_i - 1))[:, None]).sum(axis=1)
    assert p_a_i.tolist() == [0, 1, 1, 1, 1, 0]
    assert int(p_a_prime * 1e4) / 1e4 == 0.6666
    assert round(p_a, 4) == 0.6944  # printed p_a = 0.6944 (= 25/36)
    assert str(p_e)[:6] == "0.3055"  # printed p_e = 0.3055: truncated, exactly 44/144 = 0.30556
    assert p_e == pytest.approx(44 / 144, abs=1e-15)
    # They are Krippendorff's form: with n = n·r' = 12 pairable values,
    # 1 − p_a = D_o (n−1)/n and 1 − p_e = D_e (n−1)/n,
    # so (p_a − p_e)/(1 − p_e) = 1 − D_o/D_e.
    n = res.n_ratings
    assert 1 - p_a == pytest.approx(res.observed * (n - 1) / n, abs=1e-15)
    assert 1 - p_e == pytest.approx(res.expected * (n - 1) / n, abs=1e-15)
    assert (p_a - p_e) / (1 - p_e) == pytest.approx(res.value, abs=1e-15)


# ---------------------------------------------------------------- peer libraries
def random_long(rng, n_items, n_annotators, k, missing=0.3):
    """Random ratings with missing cells; labels are the numbers 1..k (ratio-safe)."""
    x = rng.integers(1, k + 1, size=(n_items, n_annotators)).astype(float)
    x[rng.random(x.shape) < missing] = np.nan
    r, c = np.nonzero(~np.isnan(x))
    return pd.DataFrame({"item": r, "annotator": c, "label": x[r, c].astype(int)}), x


def nltk_alpha(df, distance):
    from nltk.metrics.agreement import AnnotationTask
    task = AnnotationTask([(str(a), str(i), v) for i, a, v in df.itertuples(index=False)],
                          distance=distance)
    return task.alpha()


def ordinal_delta_from_definition(df):
    """Krippendorff's ordinal δ²_ck = (Σ_{g=c..k} n_g − (n_c + n_k)/2)², written from the
    definition with n_g counted over pairable values by pandas (independent of ours)."""
    m = df.groupby("item")["label"].transform("size")
    n_g = df.loc[m >= 2, "label"].value_counts()

    def delta(c, k):
        lo, hi = min(c, k), max(c, k)
        s = sum(n_g.get(g, 0) for g in range(lo, hi + 1))
        return (s - (n_g.get(c, 0) + n_g.get(k, 0)) / 2) ** 2
    return delta


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("metric", ["nominal", "ordinal", "interval", "ratio"])
def test_against_krippendorff_package(seed, metric):
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(seed)
    df, x = random_long(rng, n_items=int(rng.integers(5, 60)),
                        n_annotators=int(rng.integers(2, 7)), k=int(rng.integers(2, 7)))
    ours = iaa.krippendorff_alpha(df, metric).value
    domain = sorted(df["label"].unique())
    theirs = krippendorff.alpha(reliability_data=x.T, level_of_measurement=metric,
                                value_domain=domain)
    assert ours == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("metric", ["nominal", "ordinal", "interval", "ratio", "matrix",
                                    "callable"])
def test_against_nltk(seed, metric):
    pytest.importorskip("nltk")
    rng = np.random.default_rng(100 + seed)
    k = int(rng.integers(2, 6))
    df, _ = random_long(rng, n_items=int(rng.integers(5, 40)),
                        n_annotators=int(rng.integers(2, 6)), k=k)
    cats = sorted(df["label"].unique())
    matrix = rng.random((len(cats), len(cats)))
    matrix = np.triu(matrix, 1) + np.triu(matrix, 1).T
    distances = {
        "nominal": lambda a, b: float(a != b),
        "ordinal": ordinal_delta_from_definition(df),
        "interval": lambda a, b: float(a - b) ** 2,
        "ratio": lambda a, b: ((a - b) / (a + b)) ** 2,
        "matrix": lambda a, b: matrix[cats.index(a), cats.index(b)],
        "callable": lambda a, b: abs(a - b) ** 1.5,
    }
    ours_metric = {"matrix": matrix, "callable": distances["callable"]}.get(metric, metric)
    ours = iaa.krippendorff_alpha(df, ours_metric).value
    assert ours == pytest.approx(nltk_alpha(df, distances[metric]), abs=1e-9)


# ---------------------------------------------------------------- coincidences API
def test_alpha_from_coincidences_is_vectorised_and_matches_pairs():
    # the classic engineer's pairwise α: each pair's coincidences are t + tᵀ of its table
    ann = iaa.as_annotations(krippendorff_2011())
    t = pair_contingencies(ann)
    for metric in ("nominal", "ordinal", "interval", "ratio"):
        values, d_o, d_e = alpha_from_coincidences(t + t.transpose(0, 2, 1), metric,
                                                   ann.category_values())
        assert values.shape == d_o.shape == d_e.shape == (6,)
        pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        for p, (a, b) in enumerate(pairs):
            two = ann.select_annotators([ann.annotators[a], ann.annotators[b]])
            assert values[p] == pytest.approx(iaa.krippendorff_alpha(two, metric).value,
                                              abs=1e-12)
    # a pair with no common item has no pairable values: NaN, without warnings
    with np.errstate(all="raise"):
        v, d_o, d_e = alpha_from_coincidences(np.zeros((2, 3, 3)))
    assert np.isnan(v).all() and np.isnan(d_o).all()


def test_coincidences_of_2011_data():
    # By hand from Krippendorff's (2011) data, o_ck = Σ_u (pairs c–k in unit u)/(m_u − 1):
    # o_11 = 3·2/2 (unit 1) + 3·2/3 (unit 8) + 2·1/1 (unit 11) = 7;
    # o_12 = 3/3 (unit 8: 1,1,2,1) + 1/3 (unit 6: 1,2,3,4) = 4/3; o_13 = 1/3 (unit 6);
    # o_23 = 3/3 (unit 2: 2,2,3,2) + 1/3 (unit 6) = 4/3; o_15 = 0.
    o = iaa.krippendorff_alpha(krippendorff_2011()).params["coincidences"].to_numpy()
    assert o[0, 0] == pytest.approx(7)
    assert o[0, 1] == pytest.approx(4 / 3) and o[0, 2] == pytest.approx(1 / 3)
    assert o[1, 2] == pytest.approx(4 / 3) and o[0, 4] == 0
    np.testing.assert_allclose(o, o.T)


# ---------------------------------------------------------------- degenerate and bad input
def test_no_variation_is_nan_with_note():
    df = pd.DataFrame({"item": [1, 1, 2, 2, 3], "annotator": ["a", "b", "a", "b", "a"],
                       "label": ["x", "x", "x", "x", "y"]})
    res = iaa.krippendorff_alpha(df)
    assert np.isnan(res.value) and res.expected == 0 and res.observed == 0
    assert "undefined" in res.note and "D_e = 0" in res.note
    assert res.excluded == {"items with a single rating (unpairable)": 1}


def test_bad_input():
    no_pairs = pd.DataFrame({"item": [1, 2], "annotator": ["a", "b"], "label": [1, 2]})
    with pytest.raises(AgreementError, match="no item has two or more"):
        iaa.krippendorff_alpha(no_pairs)
    df = krippendorff_2011()
    with pytest.raises(AgreementError, match="metric must be one of"):
        iaa.krippendorff_alpha(df, "cosine")
    with pytest.raises(AgreementError, match="must be 5×5"):
        iaa.krippendorff_alpha(df, np.ones((3, 3)))
    with pytest.raises(AgreementError, match="zero diagonal"):
        iaa.krippendorff_alpha(df, np.ones((5, 5)))
    with pytest.raises(AgreementError, match="non-negative"):
        iaa.krippendorff_alpha(df.assign(label=df["label"] - 3), "ratio")
    words = df.assign(label=df["label"].map(lambda v: "abcde"[v - 1]))
    with pytest.raises(AgreementError, match="numeric categories"):
        iaa.krippendorff_alpha(words, "interval")
    # a callable receives the category labels themselves
    assert iaa.krippendorff_alpha(words, lambda a, b: float(a != b)).value == pytest.approx(
        iaa.krippendorff_alpha(df).value, abs=1e-15)


def test_ordinal_uses_declared_order():
    # reversing the declared order of ordinal categories is a relabelling that keeps
    # ranks adjacent: α unchanged; a non-monotone order changes it.
    df = krippendorff_2011()
    base = iaa.krippendorff_alpha(df, "ordinal").value
    rev = iaa.krippendorff_alpha(Annotations.from_long(df, categories=[5, 4, 3, 2, 1]),
                                 "ordinal").value
    shuffled = iaa.krippendorff_alpha(Annotations.from_long(df, categories=[3, 1, 5, 2, 4]),
                                      "ordinal").value
    assert rev == pytest.approx(base, abs=1e-12)
    assert shuffled != pytest.approx(base, abs=1e-3)


# ---------------------------------------------------------------- properties
ratings = st.integers(2, 12).flatmap(lambda n: st.integers(2, 5).flatmap(
    lambda m: st.lists(st.lists(st.one_of(st.none(), st.integers(1, 4)), min_size=m,
                                max_size=m), min_size=n, max_size=n)))


def to_long(rows):
    recs = [(i, f"r{j}", v) for i, row in enumerate(rows) for j, v in enumerate(row)
            if v is not None]
    return pd.DataFrame(recs, columns=["item", "annotator", "label"])


def alpha_or_none(df, metric="nominal", **kw):
    try:
        return iaa.krippendorff_alpha(Annotations.from_long(df, **kw), metric).value
    except AgreementError:
        return None


@settings(max_examples=60, deadline=None)
@given(ratings, st.permutations([1, 2, 3, 4]))
def test_nominal_relabelling_invariant(rows, perm):
    df = to_long(rows)
    if df["annotator"].nunique() < 2:
        return
    relabelled = df.assign(label=df["label"].map(dict(zip([1, 2, 3, 4], perm))))
    a, b = alpha_or_none(df), alpha_or_none(relabelled)
    assert (a is None) == (b is None)
    if a is not None:
        assert (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(ratings, st.randoms(use_true_random=False),
       st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_permuting_items_and_annotators_invariant(rows, rnd, metric):
    df = to_long(rows)
    if df["annotator"].nunique() < 2:
        return
    order = list(range(len(df)))
    rnd.shuffle(order)
    names = sorted(df["annotator"].unique())
    renamed = dict(zip(names, rnd.sample(names, len(names))))
    shuffled = df.iloc[order].assign(annotator=lambda d: d["annotator"].map(renamed),
                                     item=lambda d: -d["item"])
    cats = [1, 2, 3, 4]  # declared, so both tables code categories alike
    a, b = alpha_or_none(df, metric, categories=cats), alpha_or_none(shuffled, metric,
                                                                       categories=cats)
    assert (a is None) == (b is None)
    if a is not None:
        assert (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=15), st.integers(2, 5),
       st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_perfect_agreement_is_one(truth, m, metric):
    df = to_long([[v] * m for v in truth])
    res = iaa.krippendorff_alpha(df, metric)
    if len(set(truth)) > 1:
        assert res.value == pytest.approx(1.0, abs=1e-12) and res.observed == 0
    else:  # a single category: no variation, α undefined and explained
        assert np.isnan(res.value) and res.note


def test_items_without_ratings_are_counted():
    # Fleiss layout with an all-zero row: that item has no value at all; one row has a
    # single value. Both are excluded and counted; α equals that of the other rows alone.
    table = np.array([[2, 0], [0, 0], [1, 1], [0, 2], [1, 0], [0, 3]])
    res = iaa.krippendorff_alpha(Annotations.from_counts(table))
    assert res.excluded == {"items with a single rating (unpairable)": 1,
                            "items with no rating": 1}
    kept = iaa.krippendorff_alpha(Annotations.from_counts(table[[0, 2, 3, 5]]))
    assert res.value == kept.value and res.n_items == 4


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("metric", ["nominal", "ordinal", "interval", "ratio", "matrix"])
def test_jackknife_equals_leaving_each_item_out(seed, metric):
    rng = np.random.default_rng(300 + seed)
    df, _ = random_long(rng, n_items=25, n_annotators=4, k=4)
    ann = iaa.as_annotations(df)
    if metric == "matrix":
        k = ann.n_categories
        metric = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) ** 0.7
    jack = iaa.krippendorff_alpha.statistic(ann, metric).jackknife()  # its Statistic's
    # brute force: rebuild the data without item i and recompute α from scratch
    for i in range(ann.n_items):
        keep = ann.item != i
        rest = Annotations(ann.item[keep], ann.annotator[keep], ann.label[keep],
                           ann.rank[keep], ann.items, ann.annotators, ann.categories,
                           ordered=ann.ordered)
        assert jack[i] == pytest.approx(iaa.krippendorff_alpha(rest, metric).value, abs=1e-12)


# ---------------------------------------------------- set-valued labels: MASI, Jaccard
SUBSETS = [frozenset(s) for r in range(0, 4) for s in itertools.combinations("abcd", r)]


@pytest.mark.parametrize("metric", ["masi", "jaccard"])
def test_set_distances_match_nltk(metric):
    # nltk.metrics.distance.masi_distance / jaccard_distance (nltk 3.x), every pair of
    # subsets of {a, b, c, d}; nltk divides by zero for two empty sets (our convention:
    # d(∅, ∅) = 0, tested below), so that pair is left out here.
    dist = pytest.importorskip("nltk.metrics.distance")
    peer = dist.masi_distance if metric == "masi" else dist.jaccard_distance
    ours = set_distances(SUBSETS, metric)
    for (i, a), (j, b) in itertools.product(enumerate(SUBSETS), repeat=2):
        if a or b:
            assert ours[i, j] == pytest.approx(peer(set(a), set(b)), abs=1e-12)
    empty = SUBSETS.index(frozenset())
    assert ours[empty, empty] == 0.0


def test_masi_monotonicity_by_hand():
    # Passonneau (2006): MASI = J·M, M = 1 (equal), 2/3 (subset), 1/3 (overlap), 0
    # (disjoint). {a,b} ⊂ {a,b,c,d}: J = 2/4, M = 2/3, d = 1 − 1/3 = 2/3 (also nltk's
    # doctest masi_distance({1,2},{1,2,3,4}) = 0.6667); {a,b} vs {b,c}: J = 1/3,
    # M = 1/3, d = 8/9; {a} vs {b}: d = 1.
    d = set_distances([frozenset("ab"), frozenset("abcd"), frozenset("bc"),
                       frozenset("a"), frozenset("b")], "masi")
    assert d[0, 1] == pytest.approx(float(1 - Fraction(1, 2) * Fraction(2, 3)), abs=1e-15)
    assert d[0, 2] == pytest.approx(float(1 - Fraction(1, 3) * Fraction(1, 3)), abs=1e-15)
    assert d[3, 4] == 1.0 and d[0, 0] == 0.0
    j = set_distances([frozenset("ab"), frozenset("bc")], "jaccard")
    assert j[0, 1] == pytest.approx(2 / 3, abs=1e-15)  # 1 − |{b}| / |{a,b,c}|


def test_alpha_masi_exact_fractions():
    # Two annotators, item 1: {a,b} vs {a}; item 2: {c} vs {c}. n = 4 pairable values,
    # o({a,b},{a}) = o({a},{a,b}) = 1, o({c},{c}) = 2; δ({a,b},{a}) = 1 − (1/2)(2/3) = 2/3,
    # δ to {c} = 1. D_o = (2·2/3)/4 = 1/3; D_e = (2·1·1·2/3 + 2·1·2·1 + 2·1·2·1)/(4·3)
    # = (28/3)/12 = 7/9; α = 1 − (1/3)/(7/9) = 4/7 (Krippendorff 2011, by hand).
    df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["x", "y"] * 2,
                       "label": [frozenset("ab"), frozenset("a"), frozenset("c"),
                                 frozenset("c")]})
    res = krippendorff_alpha(df, metric="masi")
    assert res.value == pytest.approx(float(Fraction(4, 7)), abs=1e-15)
    assert res.observed == pytest.approx(1 / 3, abs=1e-15)
    assert res.expected == pytest.approx(7 / 9, abs=1e-15)
    # Jaccard: δ({a,b},{a}) = 1/2 ⇒ D_o = 1/4, D_e = (1 + 8)/12 = 3/4, α = 2/3
    assert krippendorff_alpha(df, metric="jaccard").value == pytest.approx(2 / 3, abs=1e-15)


def _random_sets(seed, n_items=40, annotators="xyz", p_missing=0.2):
    rng = random.Random(seed)
    rows = []
    for i in range(n_items):
        base = rng.choice(SUBSETS[1:])
        for who in annotators:
            if rng.random() < p_missing:
                continue
            rows.append((who, f"i{i}", base if rng.random() < 0.6 else rng.choice(SUBSETS)))
    return rows


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("metric", ["masi", "jaccard"])
def test_alpha_sets_match_nltk(seed, metric):
    # nltk.metrics.agreement.AnnotationTask(distance=...).alpha(), with missing ratings
    # (nltk skips items with fewer than two values, as Krippendorff does). Empty sets
    # only where nltk would not meet two of them: drop them from this comparison.
    dist = pytest.importorskip("nltk.metrics.distance")
    agreement = pytest.importorskip("nltk.metrics.agreement")
    rows = [r for r in _random_sets(seed) if r[2]]
    peer = agreement.AnnotationTask(
        data=rows, distance=dist.masi_distance if metric == "masi" else dist.jaccard_distance)
    df = pd.DataFrame(rows, columns=["annotator", "item", "label"])
    assert krippendorff_alpha(df, metric=metric).value == pytest.approx(peer.alpha(),
                                                                        abs=1e-12)


def test_alpha_sets_align_by_label():
    # Identity, not position: declaring the categories in another order leaves α as is.
    df = pd.DataFrame(_random_sets(5), columns=["annotator", "item", "label"])
    cats = list(pd.unique(df["label"]))
    a = krippendorff_alpha(Annotations.from_long(df, categories=cats), "masi").value
    b = krippendorff_alpha(Annotations.from_long(df, categories=cats[::-1]), "masi").value
    assert a == pytest.approx(b, abs=1e-14)


def test_alpha_sets_bootstrap_statistic():
    # the Statistic's finish on the data's totals is the value itself
    df = pd.DataFrame(_random_sets(3), columns=["annotator", "item", "label"])
    stat = krippendorff_alpha.statistic(df, metric="masi")
    value = stat.finish({k: v[None] for k, v in stat.total().items()})[0][0]
    assert value == pytest.approx(krippendorff_alpha(df, metric="masi").value, abs=1e-14)


def test_alpha_sets_refuse_plain_labels():
    df = pd.DataFrame({"item": [1, 1], "annotator": ["x", "y"],
                       "label": [frozenset("a"), "a"]})
    with pytest.warns(UserWarning, match="mixes types"), \
            pytest.raises(AgreementError, match="not a set"):
        krippendorff_alpha(df, metric="masi")


def test_alpha_from_labelled_set_coincidences():
    # o as a DataFrame labelled by the sets: the MASI distances align by label, so the
    # rows in another order give the same α (worked example above: α = 4/7).
    sets = [frozenset("ab"), frozenset("a"), frozenset("c")]
    o = pd.DataFrame([[0, 1, 0], [1, 0, 0], [0, 0, 2]], index=sets, columns=sets)
    value = alpha_from_coincidences(o, "masi")[0]
    shuffled = o.iloc[[2, 0, 1], [2, 0, 1]]
    assert value == pytest.approx(float(Fraction(4, 7)), abs=1e-15)
    assert alpha_from_coincidences(shuffled, "masi")[0] == pytest.approx(value, abs=1e-15)
    with pytest.raises(AgreementError, match="category_values"):
        alpha_from_coincidences(o.to_numpy(), "masi")
