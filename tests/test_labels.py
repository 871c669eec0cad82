"""The right label in the right place (issue 19): matrices over categories are aligned
by label, an order comes from the user, and α's inputs are validated and scaled.

Independent references: scikit-learn's ``cohen_kappa_score`` with ``labels=`` in the
declared order, the ``krippendorff`` package on numerically coded data, Krippendorff
(2011)'s published α values, and hand arguments stated beside each assertion."""
import math

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets.datasets import krippendorff_2011
from iaa_widgets.measures.continuous.alpha import alpha_from_coincidences

LEVELS = ["low", "medium", "high"]  # the order; sorted as text: high < low < medium
TOL = 1e-12


def codes(seed=19, n=40):
    """Two annotators' codes 0..2 (index into LEVELS), close to each other."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    return a, np.clip(a + rng.integers(-1, 2, n), 0, 2)


def tidy(a, b, labels=LEVELS):
    n = len(a)
    return pd.DataFrame({"item": np.tile(np.arange(n), 2),
                         "annotator": np.repeat(["ann", "bob"], n),
                         "label": np.asarray(labels, dtype=object)[np.concatenate([a, b])]})


def linear_weights(labels=LEVELS):
    """Cohen's (1968) linear agreement weights 1 − |i − j|/(K − 1), labelled."""
    i = np.arange(len(labels))
    return pd.DataFrame(1 - np.abs(i[:, None] - i) / (len(i) - 1), index=labels, columns=labels)


def interval_distances(labels=LEVELS):
    """Krippendorff's interval δ = (c − k)² on the codes 1, 2, 3, labelled."""
    i = np.arange(1, len(labels) + 1)
    return pd.DataFrame((i[:, None] - i) ** 2.0, index=labels, columns=labels)


def sk_kappa(a, b, weights):
    from sklearn.metrics import cohen_kappa_score
    return cohen_kappa_score(a, b, weights=weights, labels=[0, 1, 2])


def kd_alpha(a, b, level):
    import krippendorff
    return krippendorff.alpha(reliability_data=np.array([a, b], dtype=float),
                              level_of_measurement=level)


# ------------------------------------------------------------ matrices aligned by label
def test_weight_dataframe_is_aligned_by_label():
    a, b = codes()
    df = tidy(a, b)
    expected = sk_kappa(a, b, "linear")  # sklearn, labels in the declared order
    w = linear_weights()
    moved = w.iloc[[2, 0, 1], [1, 2, 0]]  # the same matrix, rows and columns reordered
    for m in (w, moved):
        assert iaa.cohen_kappa(df, weights=m).value == pytest.approx(expected, abs=TOL)
        assert iaa.pairwise(df, "cohen_kappa", weights=m).loc["ann", "bob"] == \
            pytest.approx(expected, abs=TOL)
        assert iaa.bootstrap(df, "cohen_kappa", n_resamples=20, seed=0,
                             weights=m).estimate == pytest.approx(expected, abs=TOL)
    # read by position, a reordered matrix is another weighting: the value would move
    swapped = w.iloc[[1, 0, 2], [1, 0, 2]]
    declared = Annotations.from_long(df, categories=LEVELS)
    assert abs(iaa.cohen_kappa(declared, weights=swapped.to_numpy()).value - expected) > 0.01
    assert iaa.cohen_kappa(declared, weights=swapped).value == pytest.approx(expected, abs=TOL)


def test_distance_dataframe_is_aligned_by_label():
    a, b = codes(7)
    df = tidy(a, b)
    expected = kd_alpha(a, b, "interval")  # the krippendorff package on the codes
    d = interval_distances()
    moved = d.iloc[[1, 2, 0], [2, 0, 1]]
    for m in (d, moved):
        assert iaa.krippendorff_alpha(df, m).value == pytest.approx(expected, abs=TOL)
        assert iaa.pairwise(df, "krippendorff_alpha", metric=m).loc["ann", "bob"] == \
            pytest.approx(expected, abs=TOL)
    # the bootstrap's fast path and BCa jackknife align it too: the same resamples as
    # the bare matrix in the declared order
    declared = Annotations.from_long(df, categories=LEVELS)
    bare = iaa.bootstrap(declared, "krippendorff_alpha", n_resamples=50, seed=3,
                         interval="bca", metric=d.to_numpy())
    labelled = iaa.bootstrap(df, "krippendorff_alpha", n_resamples=50, seed=3,
                             interval="bca", metric=moved)
    np.testing.assert_allclose(labelled.values, bare.values, atol=TOL, equal_nan=True)
    assert labelled.ci == pytest.approx(bare.ci, abs=TOL)
    # read by position, the reordered matrix is not even symmetric: refused
    with pytest.raises(AgreementError, match="symmetric"):
        iaa.krippendorff_alpha(declared, moved.to_numpy())


def test_bare_arrays_need_a_declared_order():
    a, b = codes()
    df = tidy(a, b)
    w, d = linear_weights().to_numpy(), interval_distances().to_numpy()
    for call in (lambda: iaa.cohen_kappa(df, weights=w),
                 lambda: iaa.pairwise(df, "cohen_kappa", weights=w),
                 lambda: iaa.krippendorff_alpha(df, d),
                 lambda: iaa.pairwise(df, "krippendorff_alpha", metric=d),
                 lambda: iaa.krippendorff_alpha(df, d.tolist())):
        with pytest.raises(AgreementError, match="bare array.*DataFrame.*categories="):
            call()
    declared = Annotations.from_long(df, categories=LEVELS)
    assert iaa.cohen_kappa(declared, weights=w.tolist()).value == pytest.approx(
        sk_kappa(a, b, "linear"), abs=TOL)
    assert iaa.krippendorff_alpha(declared, d).value == pytest.approx(
        kd_alpha(a, b, "interval"), abs=TOL)


def test_mismatched_labels_are_named():
    df = tidy(*codes())
    w = linear_weights().rename(index={"medium": "med"}, columns={"medium": "med"})
    with pytest.raises(AgreementError, match=r"lack the data's categories \['medium'\] "
                                             r"and name \['med'\] instead"):
        iaa.cohen_kappa(df, weights=w)
    d = interval_distances()
    d.columns = ["low", "medium", "High"]
    with pytest.raises(AgreementError, match=r"column labels .* \['high'\] .* \['High'\]"):
        iaa.krippendorff_alpha(df, d)
    twice = interval_distances().rename(index={"high": "low"})
    with pytest.raises(AgreementError, match=r"row labels .* repeat \['low'\]"):
        iaa.pairwise(df, "krippendorff_alpha", metric=twice)
    # look-alikes are different labels: the numbers 1, 2, 3 are not the text '1', '2', '3'
    text = tidy(*codes(), labels=["1", "2", "3"])
    with pytest.raises(AgreementError, match=r"\['1', '2', '3'\] and name \[1, 2, 3\]"):
        iaa.cohen_kappa(text, weights=linear_weights([1, 2, 3]))


def test_a_matrix_may_name_more_categories_than_the_data():
    # rows and columns of a category nobody used meet only zero counts, so they change
    # no sum: the same value as with that category declared and the full bare matrix
    a, b = codes(5)
    df = tidy(a, b)
    wider = LEVELS + ["extreme"]
    full = Annotations.from_long(df, categories=wider)
    w, d = linear_weights(wider), interval_distances(wider)
    assert iaa.cohen_kappa(df, weights=w.iloc[::-1, ::-1]).value == pytest.approx(
        iaa.cohen_kappa(full, weights=w.to_numpy()).value, abs=TOL)
    assert iaa.krippendorff_alpha(df, d.iloc[::-1, ::-1]).value == pytest.approx(
        iaa.krippendorff_alpha(full, d.to_numpy()).value, abs=TOL)
    assert iaa.krippendorff_alpha(df, d).value == pytest.approx(kd_alpha(a, b, "interval"),
                                                                abs=TOL)


# ------------------------------------------------------------ an order someone gave
ORDERED_CALLS = {
    "ordinal α": lambda d: iaa.krippendorff_alpha(d, "ordinal"),
    "linear κ": lambda d: iaa.cohen_kappa(d, weights="linear"),
    "quadratic κ": lambda d: iaa.cohen_kappa(d, weights="quadratic"),
    "pairwise ordinal α": lambda d: iaa.pairwise(d, "krippendorff_alpha", metric="ordinal"),
    "pairwise quadratic κ": lambda d: iaa.pairwise(d, "cohen_kappa", weights="quadratic"),
    "bootstrap ordinal α": lambda d: iaa.bootstrap(d, "krippendorff_alpha", n_resamples=5,
                                                   seed=0, metric="ordinal"),
    "bootstrap linear κ": lambda d: iaa.bootstrap(d, "cohen_kappa", n_resamples=5, seed=0,
                                                  weights="linear"),
}


@pytest.mark.parametrize("name", list(ORDERED_CALLS))
def test_text_labels_without_an_order_are_refused(name):
    df = tidy(*codes())
    unordered = df.assign(label=pd.Categorical(df["label"], categories=LEVELS))
    crosstab = Annotations.from_contingency(pd.crosstab(df["label"][:40].to_numpy(),
                                                        df["label"][40:].to_numpy()))
    for data in (df, unordered, crosstab):  # crosstab sorts its axes as text
        with pytest.raises(AgreementError, match=r"no order was given for \[.*'medium'.*\]"
                                                 r".*categories=\[\.\.\.\].*ordered pandas "
                                                 "Categorical.*numeric labels"):
            ORDERED_CALLS[name](data)


def declared_forms(a, b, tmp_path):
    """The same ratings, each with the order low < medium < high declared another way."""
    df = tidy(a, b)
    ordered = pd.CategoricalDtype(LEVELS, ordered=True)
    wide = df.pivot(index="item", columns="annotator", values="label")
    df.to_csv(tmp_path / "ratings.csv", index=False)
    table = pd.crosstab(df["label"][:len(a)].to_numpy(), df["label"][len(a):].to_numpy())
    table_ordered = table.reindex(index=LEVELS, columns=LEVELS, fill_value=0)
    table_ordered.index = pd.CategoricalIndex(LEVELS, dtype=ordered)
    table_ordered.columns = pd.CategoricalIndex(LEVELS, dtype=ordered)
    return {
        "from_long categories=": Annotations.from_long(df, categories=LEVELS),
        "ordered Categorical": df.assign(label=df["label"].astype(ordered)),
        "from_wide ordered Categorical": Annotations.from_wide(wide.astype(ordered)),
        "from_wide categories=": Annotations.from_wide(wide, categories=LEVELS),
        "read_csv categories=": iaa.read_csv(tmp_path / "ratings.csv", categories=LEVELS),
        "from_contingency categories=": Annotations.from_contingency(
            table.loc[LEVELS, LEVELS].to_numpy(), categories=LEVELS),
        "from_contingency ordered axes": Annotations.from_contingency(table_ordered),
        "numeric labels": tidy(a, b, labels=[1, 2, 3]),
    }


def test_a_declared_order_gives_the_value_of_the_numeric_codes(tmp_path):
    a, b = codes(11)
    expected = {"ordinal α": kd_alpha(a, b, "ordinal"),       # krippendorff package
                "linear κ": sk_kappa(a, b, "linear"),         # scikit-learn
                "quadratic κ": sk_kappa(a, b, "quadratic")}
    for form, data in declared_forms(a, b, tmp_path).items():
        for name, value in expected.items():
            assert ORDERED_CALLS[name](data).value == pytest.approx(value, abs=TOL), \
                (form, name)
    # as text sorted alphabetically (high < low < medium) the values would differ
    alphabetical = Annotations.from_long(tidy(a, b), categories=sorted(LEVELS))
    assert abs(iaa.krippendorff_alpha(alphabetical, "ordinal").value
               - expected["ordinal α"]) > 0.05


def test_counts_with_declared_categories_match_the_krippendorff_package():
    # Fleiss' layout: items × categories counts; the krippendorff package takes the same
    # table as value_counts, its columns in the order of the values
    rng = np.random.default_rng(4)
    counts = rng.integers(0, 3, size=(30, 3))
    counts[:, 1] += 1  # every item rated at least once
    import krippendorff
    expected = krippendorff.alpha(value_counts=counts, level_of_measurement="ordinal")
    table = pd.DataFrame(counts, columns=LEVELS)
    with pytest.raises(AgreementError, match="no order was given"):
        iaa.krippendorff_alpha(Annotations.from_counts(table), "ordinal")
    for data in (Annotations.from_counts(table, categories=LEVELS),
                 Annotations.from_counts(counts)):  # unnamed columns: their numbers 0, 1, 2
        assert iaa.krippendorff_alpha(data, "ordinal").value == pytest.approx(expected,
                                                                              abs=TOL)


def test_which_data_declare_an_order():
    base = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2})
    flags = {
        "integers": (base.assign(label=[3, 1, 2, 3]), True),
        "floats": (base.assign(label=[0.5, 1.5, 2.5, 0.5]), True),
        "booleans": (base.assign(label=[True, False, True, True]), True),
        "text": (base.assign(label=["b", "a", "c", "a"]), False),
        "unordered text Categorical": (
            base.assign(label=pd.Categorical(["b", "a", "c", "a"], categories=list("abc"))),
            False),
        "ordered text Categorical": (
            base.assign(label=pd.Categorical(["b", "a", "c", "a"], categories=list("cab"),
                                             ordered=True)), True),
    }
    for name, (df, ordered) in flags.items():
        assert Annotations.from_long(df).ordered is ordered, name
    assert Annotations.from_long(flags["text"][0], categories=list("cab")).ordered
    # unordered numbers: their order is their value, not the Categorical's listing
    num = Annotations.from_long(base.assign(label=pd.Categorical([3, 1, 2, 3],
                                                                 categories=[3, 1, 2])))
    assert num.ordered and list(num.categories) == [1, 2, 3]
    assert list(Annotations.from_long(flags["ordered text Categorical"][0]).categories) == \
        list("cab")


def test_the_order_survives_views_and_resamples():
    a, b = codes(3)
    c = np.clip(b + 1, 0, 2)
    n = len(a)
    three = pd.concat([tidy(a, b), pd.DataFrame({"item": np.arange(n), "annotator": "cy",
                                                 "label": np.array(LEVELS)[c]})])
    ann = Annotations.from_long(three, categories=LEVELS)
    assert ann.select_annotators(["bob", "ann"]).ordered and ann.primary().ordered
    kappa = iaa.cohen_kappa(ann, annotators=("ann", "bob"), weights="linear").value
    assert kappa == pytest.approx(sk_kappa(a, b, "linear"), abs=TOL)
    # the general bootstrap path rebuilds Annotations per resample: still ordered
    # (otherwise every resample is refused and the bootstrap reports all undefined)
    res = iaa.bootstrap(ann, lambda d: iaa.krippendorff_alpha(d, "ordinal"), n_resamples=20,
                        seed=1)
    assert res.n_undefined == 0


def test_two_categories_need_no_order():
    # any order of two categories is the order or its reverse, and neither linear or
    # quadratic weights (Cohen 1968) nor ordinal δ change under reversal; with K = 2 the
    # linear and quadratic weights are the identity, so κ_w = κ, and ordinal δ is the
    # same constant for both off-diagonal cells, so ordinal α = nominal α
    a, b = codes(2)
    a, b = np.minimum(a, 1), np.minimum(b, 1)
    df = tidy(a, b, labels=["yes", "no", "unused"])
    plain = iaa.cohen_kappa(df).value
    assert iaa.cohen_kappa(df, weights="linear").value == pytest.approx(plain, abs=TOL)
    assert iaa.krippendorff_alpha(df, "ordinal").value == pytest.approx(
        iaa.krippendorff_alpha(df).value, abs=TOL)


# ------------------------------------------------------------ pairwise and α's inputs
def test_listwise_pairwise_without_a_complete_item_says_why():
    df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": ["a", "b", "b", "c", "a", "c"],
                       "label": ["x", "y", "x", "x", "y", "y"]})
    with pytest.raises(AgreementError, match="no item is rated by all 3 annotators.*"
                                             "missing='pairwise'"):
        iaa.pairwise(df, "cohen_kappa", missing="listwise")
    # each pair shares one item under the default policy
    assert iaa.pairwise(df, "percent_agreement").attrs["n_items"] == [[0, 1, 1], [1, 0, 1],
                                                                       [1, 1, 0]]


@pytest.mark.parametrize("o, what", [
    ([[2.0, -1.0], [-1.0, 2.0]], "non-negative"),
    (np.ones((2, 3)), "square"),
    ([[2.0, 1.0], [0.0, 2.0]], "symmetric"),
    ([[np.nan, 1.0], [1.0, 2.0]], "finite"),
    ([[np.inf, 1.0], [1.0, 2.0]], "finite"),
    ([["a", "b"], ["b", "a"]], "numbers"),
])
def test_coincidence_matrix_is_validated(o, what):
    with pytest.raises(AgreementError, match=f"coincidence matrix o.*{what}"):
        alpha_from_coincidences(o)


def test_coincidences_as_a_labelled_dataframe():
    # Krippendorff (2011): interval α = .849 on his 4 × 12 example; o's labels are the
    # values, so reordering o's rows and columns together changes nothing
    o = iaa.krippendorff_alpha(krippendorff_2011()).params["coincidences"]
    value = float(alpha_from_coincidences(o, "interval")[0])
    assert round(value, 3) == 0.849
    moved = o.iloc[[4, 2, 0, 1, 3], [4, 2, 0, 1, 3]]
    assert float(alpha_from_coincidences(moved, "interval")[0]) == pytest.approx(value, abs=TOL)
    with pytest.raises(AgreementError, match="3 category values given for 5 categories"):
        alpha_from_coincidences(o, "interval", category_values=[1, 2, 3])


@pytest.mark.parametrize("metric, published", [("interval", 0.849), ("ratio", 0.797)])
@pytest.mark.parametrize("scale", [1e200, 1e-200, 1e300])
def test_interval_and_ratio_alpha_at_extreme_scales(metric, published, scale):
    # δ_interval scales by s² and δ_ratio not at all, so α = 1 − D_o/D_e is the same at
    # values s·(1..5) as at 1..5 (Krippendorff 2011: interval .849, ratio .797)
    df = krippendorff_2011()
    base = iaa.krippendorff_alpha(df, metric)
    big = iaa.krippendorff_alpha(df.assign(label=df["label"] * scale), metric)
    assert round(base.value, 3) == published
    assert big.value == pytest.approx(base.value, abs=TOL)
    assert "one category" not in big.note
    if metric == "interval":  # D_o, D_e themselves leave the float range: said so
        assert "float range" in big.note and "α is exact" in big.note
    else:
        assert big.observed == pytest.approx(base.observed, rel=1e-12) and big.note == ""
    # the pairwise matrix and the bootstrap take the same scaled path
    pair = iaa.pairwise(df.assign(label=df["label"] * scale), "krippendorff_alpha",
                        metric=metric)
    ref = iaa.pairwise(df, "krippendorff_alpha", metric=metric)
    np.testing.assert_allclose(pair.to_numpy(), ref.to_numpy(), atol=TOL)


def test_a_nan_alpha_names_its_cause():
    df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2,
                       "label": ["x", "y", "x", "x"]})
    # two categories used, but a distance matrix with δ = 0 between them: D_e = 0
    zero = pd.DataFrame(np.zeros((2, 2)), index=["x", "y"], columns=["x", "y"])
    res = iaa.krippendorff_alpha(df, zero)
    assert math.isnan(res.value)
    assert "distances δ between the categories used are all 0" in res.note
    assert "one category" not in res.note
