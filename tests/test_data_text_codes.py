"""Issue 32's loading of text ids and of sparse crowds (data/codes.py, data/checks.py):
Python string ids go through Arrow, Arrow string ids keep their names in Arrow, and the
duplicate check of a sparse (item, annotator) grid hashes instead of sorting. The
reference for codes and names is pandas itself (pd.factorize, pd.Index of the same
strings as objects: what the loaders gave before), for duplicates a sort of the pairs."""
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets.data.checks import _distinct_cells
from iaa_widgets.data.codes import _coded, _id_codes, _object_codes

pa = pytest.importorskip("pyarrow")

N = 1 << 15


def own_objects(words) -> np.ndarray:
    """Each row its own str object, as strings read from a file are."""
    return np.array(["".join(w) for w in words], dtype=object)


def ids(n=N, distinct=5000, seed=0, extra=()) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pool = [f"doc-{i}" for i in range(distinct)] + ["é", "e\u0301", "Doc-1", "doc-1 "] + \
        list(extra)
    return own_objects(np.array(pool, dtype=object)[rng.integers(0, len(pool), n)])


def test_many_python_strings_take_arrow_and_equal_pandas():
    values = ids()
    codes, uniques = _object_codes(values)
    assert isinstance(uniques, pa.Array)  # the route under test was taken
    ref_codes, ref_uniques = pd.factorize(values)
    np.testing.assert_array_equal(codes, ref_codes)
    assert uniques.to_pylist() == list(ref_uniques)  # NFC/NFD, case, space: all apart


@pytest.mark.parametrize("odd", [b"doc-1", 1, None, np.nan, "\ud800"])
def test_python_strings_with_anything_else_are_hashed_by_pandas(odd):
    # bytes (Arrow would take b"doc-1" as "doc-1"), numbers, missing values and a lone
    # surrogate (no UTF-8) leave the Arrow route: pd.factorize's codes, unchanged
    values = ids()
    values[N // 2] = odd
    codes, uniques = _object_codes(values)
    assert isinstance(uniques, np.ndarray)
    ref_codes, ref_uniques = pd.factorize(values)
    np.testing.assert_array_equal(codes, ref_codes)
    assert [type(u) for u in uniques] == [type(u) for u in ref_uniques]
    assert list(uniques) == list(ref_uniques)


def test_few_python_strings_stay_with_pandas():
    labels = own_objects(np.array(["PER", "LOC", "ORG"], dtype=object)[
        np.random.default_rng(1).integers(0, 3, N)])
    codes, uniques = _object_codes(labels)
    assert isinstance(uniques, np.ndarray)
    np.testing.assert_array_equal(codes, pd.factorize(labels)[0])


@pytest.mark.parametrize("dtype", [object, "str", pd.StringDtype("pyarrow"),
                                   pd.ArrowDtype(pa.large_string())])
def test_text_ids_named_as_pandas_names_them(dtype):
    # the names Index equals pd.Index of the distinct ids as Python strings, dtype too
    # (pandas 3: "str" in Arrow), whichever way the column holds them
    col = pd.Series(ids(), name="item").astype(dtype)
    codes, names = _id_codes(col)
    ref_codes, ref_uniques = pd.factorize(col.to_numpy(dtype=object))
    np.testing.assert_array_equal(codes, ref_codes)
    ref = pd.Index(np.asarray(ref_uniques, dtype=object), name="item")
    pd.testing.assert_index_equal(names, ref, exact=True)


def test_tidy_table_of_python_strings_equals_its_arrow_form():
    rng = np.random.default_rng(2)
    n_items = N // 4
    frame = pd.DataFrame({
        "item": own_objects([f"doc-{i}" for i in rng.permutation(np.repeat(
            np.arange(n_items), 4))]),
        "annotator": own_objects([f"w{i}" for i in np.tile(np.arange(4), n_items)]),
        "label": own_objects(np.array(["a", "b", "c"], dtype=object)[
            rng.integers(0, 3, N)])})
    frame["annotator"] = frame.groupby("item").cumcount().map("w{}".format).astype(object)
    frame = frame.astype(object)
    got = Annotations.from_long(frame)
    ref = Annotations.from_long(frame.astype("str"))
    for a, b in ((got.item, ref.item), (got.annotator, ref.annotator),
                 (got.label, ref.label)):
        np.testing.assert_array_equal(a, b)
    pd.testing.assert_index_equal(got.items, ref.items)
    pd.testing.assert_index_equal(got.annotators, ref.annotators)
    assert list(got.categories) == ["a", "b", "c"]


def crowd(n_items, per_item, width, seed=0):
    """Sparse (item, annotator) pairs: per_item distinct annotators of width per item."""
    rng = np.random.default_rng(seed)
    item = np.repeat(np.arange(n_items), per_item)
    ann = (rng.integers(0, width, n_items)[:, None] + np.arange(per_item) *
           (width // per_item)) % width
    order = rng.permutation(len(item))
    return item[order].astype(np.int64), ann.ravel()[order].astype(np.int64)


def pairs_distinct(item, ann, width) -> bool:
    cell = np.sort(item * width + ann)
    return not np.any(cell[1:] == cell[:-1])


@pytest.mark.parametrize("seed", range(4))
def test_hashed_duplicate_check_equals_a_sort(seed):
    # 20,000 items × 1,000 annotators: a grid of 2e7 cells for 1e5 ratings, too sparse
    # for the dense grid; the hashed places are checked against sorting every pair
    item, ann = crowd(20_000, 5, 1000, seed)
    rng = np.random.default_rng(seed)
    for twice in (0, 1, 7):
        a = ann.copy()
        for r in rng.choice(len(item), twice, replace=False):  # r repeats a pair of its item
            others = np.flatnonzero((item == item[r]) & (np.arange(len(item)) != r))
            a[r] = a[others[0]]
        data = SimpleNamespace(n_ratings=len(item), n_items=20_000, n_annotators=1000,
                               item=item, annotator=a)
        assert data.n_items * data.n_annotators > 8 * data.n_ratings + (1 << 20)
        assert _distinct_cells(data) == pairs_distinct(item, a, 1000) == (twice == 0)


def test_sparse_crowd_duplicate_named_at_its_rows():
    item, ann = crowd(20_000, 5, 1000, seed=5)
    other = next(j for j in np.flatnonzero(item == item[9]) if j != 9)
    ann[9] = ann[other]  # row 9 repeats the pair of another row of its item
    frame = pd.DataFrame({"item": item, "annotator": ann, "label": np.arange(len(item)) % 3})
    low, high = sorted((9, int(other)))
    with pytest.raises(AgreementError,
                       match=rf"rated more than once at row\(s\) {low}, {high};"):
        Annotations.from_long(frame)
    frame.loc[9, "annotator"] = 10_000  # a pair nobody else has: accepted
    assert Annotations.from_long(frame).n_ratings == len(item)


@pytest.mark.parametrize("layout", ["runs", "runs then shuffled", "chunked with nulls"])
def test_ids_in_runs_coded_as_pandas(layout):
    # ids grouped by item come in runs: only each run's first row is encoded; a value
    # coming back in a later run, nulls (each its own run) and chunks keep pandas' codes
    rng = np.random.default_rng(3)
    values = np.repeat(np.array([f"doc-{i}" for i in rng.integers(0, 20_000, 30_000)],
                                dtype=object), 3)
    if layout == "runs then shuffled":
        values[len(values) // 2:] = rng.permutation(values[len(values) // 2:])
    if layout == "chunked with nulls":
        values[rng.choice(len(values), 500, replace=False)] = None
    chunks = np.array_split(values, 3 if layout == "chunked with nulls" else 1)
    col = pd.Series(pd.arrays.ArrowExtensionArray(pa.chunked_array(
        [pa.array(c, type=pa.large_string()) for c in chunks])), name="item")
    codes, uniques = _coded(col)
    ref_codes, ref_uniques = pd.factorize(values)
    np.testing.assert_array_equal(codes, ref_codes)
    assert uniques.to_pylist() == list(ref_uniques)


@pytest.mark.parametrize("column", ["item", "annotator", "label"])
def test_text_that_is_not_unicode_is_refused_by_column(column):
    """A lone surrogate (bytes decoded with errors="surrogateescape") cannot be UTF-8:
    Arrow and pandas' text dtype raise UnicodeEncodeError; we name the column instead."""
    df = pd.DataFrame({"item": ["a", "b", "a", "b"], "annotator": ["x", "x", "y", "y"],
                       "label": ["p", "q", "p", "p"]}).astype(object)
    df[column] = pd.Series(np.array(["v\ud800", "w", "v\ud800", "w"], dtype=object), dtype=object)
    with pytest.raises(AgreementError, match=f"column '{column}' holds text that is not valid"):
        iaa.fleiss_kappa(df)
