"""The loaders' faster paths (issue 14/15 benchmarks) give exactly what the general ones
give: the reference in each test is pandas' or Arrow's own coding, or the tidy loader on
the tidy form of the same table (the path every other data test checks)."""
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from iaa_widgets import AgreementError, Annotations
from iaa_widgets.data.codes import _column_codes, _factorize, _few_strings, \
    _fixed_width_codes, _inline_view_codes
from iaa_widgets.measures._prepare import prepare

pa = pytest.importorskip("pyarrow")

N = 1 << 17  # the Arrow fast paths start at 2¹⁶ rows


def arrow_reference(col: pd.Series):
    """Arrow's dictionary encoding: codes (−1 for nulls) and values, first appearance."""
    encoded = pa.chunked_array(pa.array(col.array)).dictionary_encode()
    codes = pa.chunked_array([c.indices for c in encoded.chunks]).fill_null(-1).to_numpy()
    return codes, encoded.chunk(encoded.num_chunks - 1).dictionary.to_pylist()


def strings(values, n=N, seed=0) -> pd.Series:
    rng = np.random.default_rng(seed)
    return pd.Series(np.array(values, dtype=object)[rng.integers(0, len(values), n)],
                     dtype="str")


def assert_as_arrow(col: pd.Series):
    codes, uniques = _column_codes(col)
    ref_codes, ref_uniques = arrow_reference(col)
    np.testing.assert_array_equal(codes, ref_codes)
    assert list(uniques) == ref_uniques


@pytest.mark.parametrize("values, fixed", [
    ([f"rater_{i}" for i in range(10)], True),           # one byte varies
    ([f"r{i:02d}" for i in range(100)], True),           # two bytes vary
    ([f"r{i:03d}" for i in range(1000)], False),         # three: hashed
    (["same"], True),                                    # one string
    (["é1", "é2", "ü1"], True),                          # UTF-8, two-byte characters
    (["a", "bb"], False),                                # widths differ
    (["abcdefgh1", "abcdefgh2"], False),                 # wider than 8 bytes
])
def test_fixed_width_strings_coded_as_arrow(values, fixed):
    col = strings(values)
    assert (_fixed_width_codes(pa.array(col.array)) is not None) == fixed
    assert_as_arrow(col)


@pytest.mark.parametrize("values, fixed", [
    ([f"rater_{i}" for i in range(10)], True),           # one byte varies
    ([f"r{i:02d}" for i in range(100)], True),           # two bytes vary
    ([f"r{i:03d}" for i in range(1000)], False),         # three: hashed
    (["é1", "é2", "ü1"], True),                          # UTF-8, two-byte characters
    (["a", "bb"], False),                                # widths differ (length bytes)
    (["abcdefghijklm1", "abcdefghijklm2"], False),       # not inline in the view
])
def test_string_views_coded_as_arrow(values, fixed):
    # polars' strings arrive as Arrow string_view (frames.tidy_columns: no copy); the
    # reference is Arrow's dictionary encoding of the same strings as plain strings
    col = strings(values)
    view = pd.Series(pd.arrays.ArrowExtensionArray(
        pa.chunked_array([pa.array(col.array).cast(pa.string_view())])))
    assert (_fixed_width_codes(pa.array(view.array)) is not None) == fixed
    codes, uniques = _column_codes(view)
    ref_codes, ref_uniques = arrow_reference(col)
    np.testing.assert_array_equal(codes, ref_codes)
    assert list(uniques) == ref_uniques


def as_view(col: pd.Series) -> pd.Series:
    """The same strings as Arrow string_view, polars' strings."""
    return pd.Series(pd.arrays.ArrowExtensionArray(
        pa.chunked_array([pa.array(col.array).cast(pa.string_view())])))


@pytest.mark.parametrize("col, inline", [
    (strings(["PER", "LOC", "ORG", "MISC"]), True),             # labels: one byte tells
    (strings(["B-PER", "B-LOC", "I-PER", "I-LOC", "O"]), True),  # two bytes tell
    (strings([f"l{i}" for i in range(300)]), False),            # too many values
    (strings(["short", "twelve_bytes"]), True),                 # 12 bytes: still inline
    (strings(["short", "thirteen_byte"]), False),               # 13: not in the view
    (pd.Series(["PER", "LOC"] * (N // 2) + ["ORG"], dtype="str"), False),  # seen late
    (pd.Series(["PER", "LOC"] * (N // 2) + ["PERSON_LONG_NAME"], dtype="str"), False),
    (pd.Series(["PER", "LOC"] * (N // 2) + ["PEX"], dtype="str"), False),  # same byte 4
    (strings(["PER", "LOC", "ORG", "MISC"]).iloc[9:], True),   # a slice: Arrow's offset
    (pd.Series(list(strings(["PER", "LOC"]))[:-1] + [None], dtype="str"), False),  # a null
])
def test_short_string_views_coded_as_arrow(col, inline):
    # the reference is Arrow's dictionary encoding of the same strings as plain strings
    view = as_view(col)
    assert (_inline_view_codes(pa.array(view.array)) is not None) == inline
    codes, uniques = _column_codes(view)
    ref_codes, ref_uniques = arrow_reference(col)
    np.testing.assert_array_equal(codes, ref_codes)
    assert list(uniques) == ref_uniques


def test_string_views_with_padding_that_is_not_zero_are_hashed():
    # Arrow asks inline strings to be zero padded; equal strings whose views differ in
    # their padding must still be one value (the look-up of views steps aside)
    col = strings(["PER", "LOC"])
    view = pa.array(col.array).cast(pa.string_view())
    raw = np.frombuffer(view.buffers()[1], np.uint8).copy().reshape(-1, 16)
    raw[1::2, 15] = 7  # garbage after every other string
    dirty = pa.Array.from_buffers(pa.string_view(), len(view),
                                  [None, pa.py_buffer(raw.tobytes())] + view.buffers()[2:])
    assert _inline_view_codes(dirty) is None
    codes, uniques = _column_codes(pd.Series(pd.arrays.ArrowExtensionArray(dirty)))
    ref_codes, ref_uniques = arrow_reference(col)
    np.testing.assert_array_equal(codes, ref_codes)
    assert list(uniques) == ref_uniques


def test_a_string_view_whose_width_changes_late_is_hashed():
    col = pd.Series(["ab"] * (N - 1) + ["abc"], dtype="str")
    view = pa.array(col.array).cast(pa.string_view())
    assert _fixed_width_codes(view) is None


def test_polars_strings_load_as_pandas_strings():
    pl = pytest.importorskip("polars")
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"item": np.repeat(np.arange(N // 2), 2),
                       "annotator": ["r_1", "r_2"] * (N // 2),
                       "label": np.array(["neg", "pos", "neu"])[rng.integers(0, 3, N)]})
    ours, theirs = Annotations.from_long(df), Annotations.from_long(pl.from_pandas(df))
    assert list(ours.categories) == list(theirs.categories)
    assert list(ours.annotators) == list(theirs.annotators)
    np.testing.assert_array_equal(ours.primary().label, theirs.primary().label)
    np.testing.assert_array_equal(ours.primary().annotator, theirs.primary().annotator)


@pytest.mark.parametrize("col", [
    pd.Series(["ab"] * (N - 1) + ["xb"], dtype="str"),    # a constant byte changes late
    pd.Series(["a1"] * (N - 1) + ["a9"], dtype="str"),    # nothing varies in the head
    pd.Series(["a1", "a2"] * (N // 2) + ["a9"], dtype="str"),  # a value first seen late
    pd.Series(["a1", "a2"] * (N // 2) + ["a9"] * N, dtype="str"),  # … in the first eighth
    pd.Series(["a1", "a2"] * 3000 + ["a9"] + ["a1"] * N, dtype="str"),
    strings([f"rater_{i}" for i in range(10)]).iloc[7:],  # a slice: Arrow's offset
    pd.Series(list(strings(["x1", "x2"]))[:-1] + [None], dtype="str"),  # a null
])
def test_fixed_width_strings_edge_cases(col):
    assert_as_arrow(col)


@pytest.mark.parametrize("values", [["PER", "LOC", "ORG", "MISC"], ["a", None, "bb"]])
def test_few_strings_coded_as_arrow(values):
    col = strings(values)
    assert _few_strings(pa.chunked_array(pa.array(col.array))) is not None
    assert_as_arrow(col)


def test_few_strings_refuse_a_value_first_seen_late():
    col = pd.Series(["x"] * N + ["yy"], dtype="str")
    assert _few_strings(pa.chunked_array(pa.array(col.array))) is None
    assert_as_arrow(col)


def test_arrow_chunks_and_slices():
    chunked = pd.Series(pa.chunked_array([list(strings(["ab", "cd"], n=N // 2)),
                                          list(strings(["cd", "ef"], n=N // 2, seed=1))]),
                        dtype=pd.ArrowDtype(pa.string()))
    assert_as_arrow(chunked)
    sliced = pd.Series(pa.array(list(strings(["PER", "LOC"]))).slice(5),
                       dtype=pd.ArrowDtype(pa.string()))
    assert_as_arrow(sliced)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(["w0", "w1", "w7", "x0", "é", "ab", ""]), min_size=1,
                max_size=6), st.integers(0, 2**31))
def test_arrow_fast_paths_property(alphabet, seed):
    assert_as_arrow(strings(alphabet, seed=seed))


def test_factorize_few_ints_first_seen_in_any_order():
    # dense integer ids whose first appearances are not in increasing order: renumbered
    rng = np.random.default_rng(3)
    for values in (rng.integers(0, 7, N), np.r_[rng.integers(3, 9, N), [0]],
                   np.r_[np.tile([4, 2], N // 2), rng.integers(0, 6, N)]):
        codes, uniques = _factorize(values)
        ref_codes, ref_uniques = pd.factorize(values)
        np.testing.assert_array_equal(codes, ref_codes)
        np.testing.assert_array_equal(uniques, ref_uniques)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 1.0, 2.0, 5.0, -3.0, 2.5, np.nan, np.inf,
                                 1e300]), min_size=2, max_size=30))
def test_float_labels_as_pandas(labels):
    # whole floats take a look-up table; the categories and codes stay pandas' (NaN a
    # blank label; −0.0 kept when it comes first, as pd.factorize keeps it)
    n = len(labels)
    df = pd.DataFrame({"item": np.arange(n) // 2, "annotator": np.arange(n) % 2,
                       "label": np.array(labels)})
    present = df["label"].notna()
    if present.sum() == 0:
        with pytest.raises(AgreementError, match="holds no label"):
            Annotations.from_long(df)
        return
    ann = Annotations.from_long(df)
    uniques = pd.factorize(df["label"].to_numpy())[1]
    expected = pd.Index(np.sort(uniques))
    assert [repr(v) for v in ann.categories] == [repr(v) for v in expected]
    np.testing.assert_array_equal(ann.label, expected.get_indexer(df["label"][present]))


def tidy_reference(frame: pd.DataFrame, **kwargs) -> Annotations:
    """from_wide as the tidy table of the rated cells (row-major) would load it, the rows
    nobody rated kept as items (cells of one numeric dtype stay numbers, others are
    objects; the notes call the labels "the table's cells")."""
    numeric = len(set(frame.dtypes)) == 1 and frame.dtypes.iloc[0].kind in "iuf"
    values = frame.to_numpy() if numeric else frame.astype(object).to_numpy()
    r, c = np.nonzero(~pd.isna(values))
    long = pd.DataFrame({"item": frame.index.to_numpy()[r],
                         "annotator": frame.columns.to_numpy()[c], "label": values[r, c]})
    ann = Annotations.from_long(long, **kwargs)
    if ann.n_items < len(frame):
        rows = frame.index.get_indexer(ann.items)
        ann = replace(ann, item=rows[ann.item], items=pd.Index(frame.index, name="item"))
    return replace(ann, notes=tuple(n.replace("column 'label'", "the table's cells")
                                    for n in ann.notes))


def assert_same(a: Annotations, b: Annotations):
    for field in ("item", "annotator", "label", "rank"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
        assert getattr(a, field).dtype == getattr(b, field).dtype
    for axis in ("items", "annotators", "categories"):
        x, y = getattr(a, axis), getattr(b, axis)
        assert x.equals(y) and x.dtype == y.dtype and x.name == y.name
    assert (a.ordered, a.notes, a.n_blank) == (b.ordered, b.notes, b.n_blank)


def wide_frames():
    rng = np.random.default_rng(5)
    floats = pd.DataFrame(rng.integers(1, 6, (300, 5)).astype(float),
                          columns=[f"rater_{i}" for i in range(5)])
    yield floats.mask(rng.random(floats.shape) < 0.3)              # pivot: NaN, floats
    yield pd.DataFrame({"a": [np.nan, 2, 3], "b": [1, 2, 3], "c": [np.nan, np.nan, 1.0]})
    yield pd.DataFrame({"a": [1, np.nan, 3], "b": [1, np.nan, 3]}, index=list("xyz"))
    yield pd.DataFrame({"a": [1, 2], "b": [1, 2], "c": [np.nan, np.nan]})  # unrated column
    yield pd.DataFrame({0: [1, 2], 5: [2, 2], 2: [np.nan, 1]})
    yield pd.DataFrame({"r1": ["x", "y", None], "r2": ["x", " ", "y"], "r3": ["", "y", "y"]})
    yield pd.DataFrame({"r1": [("x", "y"), "y"], "r2": ["x", ("y", "x")]})
    yield pd.DataFrame({"a": [1, 2], "b": [1, 2]},
                       index=pd.to_datetime(["2020-01-01", "2020-01-02"]))
    yield pd.DataFrame({"a": [-0.0, 1.0], "b": [0.0, 1.0]})
    yield pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": [1.0, np.nan, 3.0]},
                       index=[1.0, np.nan, 3.0])               # NaN names an unrated row
    strings_ = rng.choice(np.array(["PER", "LOC", None], dtype=object), (200, 4))
    yield pd.DataFrame(strings_, index=[f"doc{i}" for i in range(200)])


@pytest.mark.parametrize("frame", list(wide_frames()))
def test_wide_loader_equals_its_tidy_form(frame):
    assert_same(Annotations.from_wide(frame), tidy_reference(frame))


def test_wide_loader_errors_name_cells():
    with pytest.raises(AgreementError, match=r"column 'item' is missing at row\(s\) "
                                             r"\(nan, 'a'\), \(nan, 'b'\)"):
        Annotations.from_wide(pd.DataFrame({"a": [1, 2], "b": [1, 2]}, index=[1.0, np.nan]))
    with pytest.raises(AgreementError, match="the table is empty: at least two"):
        Annotations.from_wide(pd.DataFrame({"a": [np.nan], "b": [np.nan]}))
    with pytest.raises(AgreementError, match=r"secondary label equal to its primary at "
                                             r"row\(s\) \(0, 'r1'\)"):
        Annotations.from_wide(pd.DataFrame({"r1": [("x", "x")], "r2": ["x"]}))


def test_prepared_counts_and_ratings():
    # every item kept: the counts are item_counts' own table; n_ratings their total
    df = pd.DataFrame({"item": [0, 0, 1, 1, 2], "annotator": list("ababa"),
                       "label": [1, 2, 1, 1, 2]})
    ann = Annotations.from_long(df)
    every = prepare(ann, "m", missing="available", singles=True)
    assert every.used.all() and every.n_ratings == 5 and every.counts.shape == (3, 2)
    some = prepare(ann, "m", missing="listwise")
    assert some.n_ratings == 4 and some.counts.tolist() == [[1, 1], [2, 0]]
    counts = Annotations.from_contingency([[3, 1], [0, 2]])
    weighted = prepare(counts, "m", missing="listwise", item_weights=True)
    assert weighted.n_ratings == 12 and weighted.n_items == 6


def test_string_view_columns_take_arrow_encoding():
    # string_view (polars' strings) has no kernel for index_in and no single data
    # buffer: the fast paths step aside and Arrow's dictionary encoding codes it
    plain = strings(["PER", "LOC", None, "rater_1"])
    view = pd.Series(pa.array(plain.array).cast(pa.string_view()),
                     dtype=pd.ArrowDtype(pa.string_view()))
    codes, uniques = _column_codes(view)
    ref_codes, ref_uniques = arrow_reference(plain)
    np.testing.assert_array_equal(codes, ref_codes)
    assert list(uniques) == ref_uniques


@pytest.mark.parametrize("shared", [True, False])
def test_object_strings_coded_as_pandas(shared):
    # Python string objects, shared by the rows (a column made from a list of labels:
    # the pointers are hashed) or one object per row (strings read from a file: hashed
    # directly); the reference is pd.factorize of the same objects
    rng = np.random.default_rng(4)
    words = np.array([f"doc-{i}" for i in range(3000)] + [None, np.nan], dtype=object)
    values = words[rng.integers(0, len(words), N)]
    if not shared:
        values = np.array([None if v is None else v if isinstance(v, float) else
                           "".join(v) for v in values], dtype=object)
    ids = {id(v) for v in values[:1 << 12]}
    assert (len(ids) <= len(words)) == shared  # None and NaN are shared objects anyway
    codes, uniques = _factorize(values)
    ref_codes, ref_uniques = pd.factorize(values)
    np.testing.assert_array_equal(codes, ref_codes)
    assert list(uniques) == list(ref_uniques)
