"""The data model: loaders agree with each other, and bad input is named."""
import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets.datasets import krippendorff_2011, meyer_relatedness
from iaa_widgets.stats import coincidences, item_counts, pair_contingencies


def canonical(ann: Annotations) -> pd.DataFrame:
    """The ratings as a sorted tidy table, for comparing loaders."""
    df = ann.to_long()
    return df.sort_values(list(df.columns[:2]) + list(df.columns[3:])).reset_index(drop=True)


def test_long_and_wide_agree():
    long = krippendorff_2011()
    wide = long.pivot(index="item", columns="annotator", values="label")
    a, b = Annotations.from_long(long), Annotations.from_wide(wide)
    pd.testing.assert_frame_equal(canonical(a), canonical(b), check_dtype=False)
    assert a.n_ratings == 41  # Krippendorff 2011 data: 48 cells, 7 missing


def test_categories_keep_declared_order_and_unused_categories():
    df = meyer_relatedness()
    ann = Annotations.from_long(df, categories=["low", "medium", "high"])
    assert list(ann.categories) == ["low", "medium", "high"]
    assert item_counts(ann)[:, 1].sum() == 0  # "medium" declared, never used
    # an ordered Categorical declares its order
    assert list(Annotations.from_long(df).categories) == ["high", "low"]


def test_contingency_roundtrip():
    # Meyer's tutorial, "Percentage of Agreement": rows r2, columns r1 → transpose for (r1, r2)
    table = np.array([[2, 2], [1, 5]]).T
    ann = Annotations.from_contingency(table, ["high", "low"], annotators=("r1", "r2"))
    np.testing.assert_array_equal(pair_contingencies(ann)[0], table)
    same = Annotations.from_long(meyer_relatedness()).select_annotators(["r1", "r2"])
    np.testing.assert_array_equal(pair_contingencies(same)[0], table)


def test_counts_roundtrip_and_anonymous():
    # Meyer's tutorial, agreement table of the three raters (high, low per item)
    counts = np.array([[3, 0], [2, 1], [2, 1], [2, 1], [1, 2], [0, 3], [0, 3], [1, 2],
                       [1, 2], [1, 2]])
    ann = Annotations.from_counts(pd.DataFrame(counts, columns=["high", "low"]))
    assert ann.anonymous
    np.testing.assert_array_equal(item_counts(ann), counts)
    np.testing.assert_array_equal(item_counts(Annotations.from_long(meyer_relatedness())),
                                  counts)


def test_coincidences_of_a_contingency_table_are_its_symmetrisation():
    rng = np.random.default_rng(1)
    table = rng.integers(0, 9, size=(4, 4))
    ann = Annotations.from_contingency(table)
    np.testing.assert_allclose(coincidences(item_counts(ann), weights=ann.item_weight),
                               table + table.T)  # one row per cell, counted item_weight times


def test_ranked_labels_in_both_forms():
    pairs = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b", "a", "b"],
                          "label": [("q", "a"), "q", "s", ("a", "q")]})
    ranked = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2], "annotator": list("aabab") + ["b"],
                           "label": ["q", "a", "q", "s", "a", "q"], "rank": [1, 2, 1, 1, 1, 2]})
    x, y = Annotations.from_long(pairs), Annotations.from_long(ranked, rank="rank")
    pd.testing.assert_frame_equal(canonical(x), canonical(y))
    assert x.primary().n_ratings == 4


@pytest.mark.parametrize("df, kwargs, message", [
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "a"], "label": ["x", "y"]}), {},
     "rated more than once at row(s) 0, 1"),
    # a missing label is a missing rating (tests/test_loaders.py); only none at all is refused
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": [None, " "]}), {},
     "holds no label: all 2 are missing"),
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": ["x", "z"]}),
     {"categories": ["x", "y"]}, "['z'] outside the declared categories"),
    (pd.DataFrame({"item": [1, 2], "annotator": ["a", "a"], "label": ["x", "y"]}), {},
     "only one annotator"),
    (pd.DataFrame({"item": [], "annotator": [], "label": []}), {}, "empty"),
    (pd.DataFrame({"it": [1], "annotator": ["a"], "label": ["x"]}), {}, "['item'] not found"),
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": ["x", ("y", "y")]}), {},
     "secondary label equal to its primary at row(s) 1"),
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": ["x", ("y", "z", "w")]}),
     {}, "hold 3"),
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": ["x", "y"],
                   "rank": [1, 2]}), {"rank": "rank"}, "secondary label without a primary"),
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": ["x", "y"],
                   "rank": [1, 3]}), {"rank": "rank"}, "rank must be 1"),
])
def test_bad_input_is_named(df, kwargs, message):
    with pytest.raises(AgreementError) as err:
        Annotations.from_long(df, **kwargs)
    assert message in str(err.value)


def test_agreement_error_is_a_value_error():
    assert issubclass(AgreementError, ValueError)
    with pytest.raises(AgreementError, match="expected Annotations or a tidy DataFrame"):
        iaa.as_annotations([1, 2, 3])


def test_read_csv_long_and_wide(tmp_path):
    long = krippendorff_2011()
    long.to_csv(tmp_path / "long.csv", index=False)
    long.pivot(index="item", columns="annotator", values="label").to_csv(tmp_path / "w.csv")
    a = iaa.read_csv(tmp_path / "long.csv")
    b = iaa.read_csv(tmp_path / "w.csv", layout="wide")
    pd.testing.assert_frame_equal(canonical(a), canonical(b), check_dtype=False)


def test_strided_columns_load_like_contiguous_ones():
    # a reversed or sliced table hands the loader strided object columns
    df = krippendorff_2011().astype({"item": str})
    for view in (df.iloc[::-1], df.iloc[::2]):
        pd.testing.assert_frame_equal(canonical(Annotations.from_long(view)),
                                      canonical(Annotations.from_long(view.copy())))


def test_wide_row_nobody_rated_stays_an_item_and_is_counted():
    # 4 items × 3 annotators; item "i2" has no rating at all. It must not vanish: the
    # measures count it as excluded (by definition it cannot enter any coefficient)
    w = pd.DataFrame({"a": [1, np.nan, 2, 1], "b": [1, np.nan, 2, 2], "c": [1, np.nan, np.nan, 1]},
                     index=["i1", "i2", "i3", "i4"])
    ann = Annotations.from_wide(w)
    assert list(ann.items) == ["i1", "i2", "i3", "i4"] and ann.n_ratings == 8
    assert item_counts(ann).sum(axis=1).tolist() == [3, 0, 2, 3]
    fleiss = iaa.fleiss_kappa(ann)
    assert fleiss.n_items == 2 and fleiss.excluded == {
        "not rated by these annotators": 1, "rated by fewer than all 3 annotators": 1}
    assert iaa.krippendorff_alpha(ann).excluded == {"items with no rating": 1}
    # the same coefficients as without that row
    rest = Annotations.from_wide(w.drop(index="i2"))
    assert fleiss.value == iaa.fleiss_kappa(rest).value
    assert iaa.krippendorff_alpha(ann).value == iaa.krippendorff_alpha(rest).value


def test_wide_errors_name_the_cell_and_duplicate_items():
    w = pd.DataFrame({"a": ["x", "z"], "b": ["x", "x"]}, index=["i1", "i2"])
    with pytest.raises(AgreementError, match=r"\['z'\] outside .* at row\(s\) \('i2', 'a'\)"):
        Annotations.from_wide(w, categories=["x", "y"])
    with pytest.raises(AgreementError, match=r"item row\(s\) \['i1'\] appear more than once"):
        Annotations.from_wide(w.set_axis(["i1", "i1"]))
    with pytest.raises(AgreementError, match=r"annotator column\(s\) \['a'\] appear more"):
        Annotations.from_wide(w.set_axis(["a", "a"], axis=1))


@pytest.mark.parametrize("dtype", ["float64", "Int64", "object", "category"])
def test_wide_column_dtypes_load_alike(dtype):
    # numeric columns take a path without Python objects; every dtype must code alike
    long = krippendorff_2011()
    w = long.pivot(index="item", columns="annotator", values="label")
    ann = Annotations.from_wide(w.astype(dtype))
    pd.testing.assert_frame_equal(
        canonical(ann).astype({"label": float}),
        canonical(Annotations.from_long(long)).astype({"label": float}), check_dtype=False)


def test_counts_and_contingency_refuse_what_is_not_a_table_of_counts():
    for bad in ([[1, np.inf], [2, 0]], [[1, -1], [2, 0]], [[1, 0.5], [2, 0]]):
        with pytest.raises(AgreementError, match="non-negative whole numbers"):
            Annotations.from_counts(bad)
        with pytest.raises(AgreementError, match="non-negative whole numbers"):
            Annotations.from_contingency(bad)
    with pytest.raises(AgreementError, match="at most one rating"):
        Annotations.from_counts([[1, 0], [0, 1]])  # one annotator per item: no pair
    for loader in (Annotations.from_counts, Annotations.from_contingency):
        with pytest.raises(AgreementError, match="distinct"):
            loader([[1, 2], [2, 0]], categories=["x", "x"])
        with pytest.raises(AgreementError, match="NaN cannot be a category"):
            loader([[1, 2], [2, 0]], categories=["x", np.nan])


def test_contingency_dataframe_columns_follow_their_labels():
    # Meyer's tutorial table (rows r2, columns r1; κ = 0.16/0.46) with its columns given in
    # the other order: the labels, not the positions, say which category a column is
    table = pd.DataFrame([[2, 2], [1, 5]], index=["high", "low"], columns=["high", "low"])
    swapped = table[["low", "high"]]
    assert iaa.cohen_kappa(Annotations.from_contingency(swapped)).value == pytest.approx(
        0.16 / 0.46, abs=1e-12)
    with pytest.raises(AgreementError, match="label both with the same categories"):
        Annotations.from_contingency(table.set_axis(["hi", "lo"], axis=1))
