"""The loaders' fast paths give exactly what the plain pandas ways give."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from iaa_widgets import AgreementError, Annotations
from iaa_widgets.data.codes import _factorize


def same_as_pandas(values):
    codes, uniques = _factorize(values)
    ref_codes, ref_uniques = pd.factorize(values)  # the reference: order of first appearance
    np.testing.assert_array_equal(codes, ref_codes)
    assert list(uniques) == list(ref_uniques)


@pytest.mark.parametrize("values", [
    np.array([0, 0, 1, 1, 2, 5, 5]),               # sorted ids
    np.array([5, 3, 5, 9, 3, -2]),                  # unsorted, negative: appearance order
    np.array([1, 0, 1, 2]),                         # dense but first appearances not sorted
    np.array([10**12, 1, 10**12]),                  # huge range: hashed
    np.array([3, 3, 4], dtype=np.int32),
    np.array([2.5, 1.0, 2.5]),
    np.array([True, False, True]),
])
def test_factorize_numbers(values):
    same_as_pandas(values)


def test_factorize_objects():
    # equal strings that are different objects merge; None and NaN are missing (−1)
    a1, a2 = "".join(["ra", "ter"]), "".join(["rat", "er"])
    assert a1 == a2 and a1 is not a2
    same_as_pandas(np.array([a1, "b", a2, None, "b", np.nan, a2], dtype=object))
    same_as_pandas(np.array([1, "x", 1.5, "x"], dtype=object))
    # a value that first appears late (beyond the first prefixes searched)
    late = np.array(["a"] * 40_000 + ["b"] + ["a"] * 10, dtype=object)
    same_as_pandas(late)
    many = np.array([f"item {i % 50_000}" for i in range(120_000)], dtype=object)
    same_as_pandas(many)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-5, 30), min_size=1, max_size=60))
def test_factorize_ints_property(xs):
    same_as_pandas(np.array(xs))
    same_as_pandas(np.array([f"v{x}" for x in xs], dtype=object))


@pytest.mark.parametrize("n_items", [5, 2_000_000])  # dense bitmap check, and sorting
def test_duplicates_found_on_both_paths(n_items):
    # 2e6 items × 3 annotators with only 5 ratings: too sparse for the bitmap
    df = pd.DataFrame({"item": [0, 0, 1, 1, n_items - 1], "annotator": list("abaab"),
                       "label": [1, 2, 1, 2, 1]})
    with pytest.raises(AgreementError, match=r"rated more than once at row\(s\) 2, 3"):
        Annotations.from_long(df)
    ok = Annotations.from_long(df.drop(index=3))
    assert ok.n_ratings == 4


def test_integer_labels_with_declared_categories():
    df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": list("abab"), "label": [3, 1, 3, 7]})
    ann = Annotations.from_long(df, categories=[7, 3, 1, 0])
    np.testing.assert_array_equal(ann.label, [1, 2, 1, 0])
    with pytest.raises(AgreementError, match=r"label\(s\) \[7\] outside the declared"):
        Annotations.from_long(df, categories=[1, 3])


@pytest.mark.parametrize("values", [np.array([3, 1, 3], dtype=np.uint8),
                                    np.array([7, 5], dtype=np.uint64),
                                    np.array([1000, 1001, 1000])])  # shifted range
def test_factorize_other_integer_types(values):
    same_as_pandas(values)


@pytest.mark.parametrize("values", [np.array([1.5, 1.5, 2.0, 7.0]), np.array([4, 4, 4]),
                                    np.array([-3, 0, 0, 2**40]),
                                    np.array([1.0, np.nan, 2.0])])  # NaN: not sorted → pandas
def test_factorize_sorted(values):
    same_as_pandas(values)


@pytest.mark.parametrize("values", [np.array([0, 1, 1, 2]), np.array([2, 0, 1]),
                                    np.array([3, 4, 4, 5])])  # contiguous ids
def test_factorize_contiguous(values):
    same_as_pandas(values)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-3, 8), min_size=2, max_size=40),
       st.one_of(st.none(), st.permutations(list(range(-3, 9)))))
def test_label_codes_property(labels, declared):
    # codes must point at each label in the declared (or default sorted) categories
    n = len(labels)
    df = pd.DataFrame({"item": np.arange(n) // 2, "annotator": np.arange(n) % 2,
                       "label": labels})
    for frame in (df, df.assign(label=df["label"].map(lambda v: f"c{v:+d}"))):
        cats = None if declared is None else (
            declared if frame is df else [f"c{v:+d}" for v in declared])
        ann = Annotations.from_long(frame, categories=cats)
        expected = pd.Index(ann.categories).get_indexer(frame["label"])
        np.testing.assert_array_equal(ann.label, expected)
        assert cats is not None or list(ann.categories) == sorted(set(frame["label"]))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-2**62, 2**62), min_size=1, max_size=40),
       st.sampled_from([np.int64, np.int32, np.uint64, np.uint8]))
def test_factorize_sorted_ints_property(xs, dtype):
    # sorted ids (a table sorted by item) are coded from their steps: with and without gaps
    info = np.iinfo(dtype)
    values = np.sort(np.clip(np.array(xs, dtype=object), info.min, info.max).astype(dtype))
    same_as_pandas(values)
    same_as_pandas(np.repeat(np.arange(len(values), dtype=dtype), 2))


def test_label_first_seen_late_is_a_category():
    # a label that appears only after the first 2**14 rows is found by the full count
    labels = np.r_[np.tile([1, 2], 12_000), [3]]
    rows = np.arange(len(labels))
    df = pd.DataFrame({"item": rows // 2, "annotator": rows % 2, "label": labels})
    ann = Annotations.from_long(df)
    assert list(ann.categories) == [1, 2, 3]
    np.testing.assert_array_equal(ann.label, labels - 1)


def test_codes_are_not_views_of_the_table():
    # ids and labels equal to their codes must still be copied: editing the table later
    # cannot change the ratings already loaded
    df = pd.DataFrame({"item": [0, 0, 1, 1], "annotator": [0, 1, 0, 1], "label": [0, 1, 1, 1]})
    ann = Annotations.from_long(df)
    for column in ("item", "annotator", "label"):
        assert not np.shares_memory(getattr(ann, column), df[column].to_numpy())
