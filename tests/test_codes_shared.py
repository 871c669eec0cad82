"""Codes of object columns whose rows share their objects (issue 43 §1: list-built frames,
pandas' CSV parser with dtype=object) coded by address (``codes._address_codes``), and of
annotator names grouped by annotator (§2: ``codes._first_seen``). Every expected result is
``pd.factorize`` of the same values (pandas 3.1.1, ``pandas.factorize(values)``): codes
in order of first appearance, −1 for None/NaN, the distinct values named by the object
where each first appears."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.data import codes as C


def _names(k: int) -> np.ndarray:
    return np.array([f"doc-{i:06d}" for i in range(k)], dtype=object)  # made one after another


def _pointers(values: np.ndarray) -> np.ndarray:
    return np.frombuffer(memoryview(np.ascontiguousarray(values)), dtype=np.intp)


def _same_as_factorize(values: np.ndarray) -> None:
    codes, uniques = C._object_codes(values)
    expected_codes, expected_uniques = pd.factorize(values)
    np.testing.assert_array_equal(codes, expected_codes)
    uniques = list(uniques) if isinstance(uniques, np.ndarray) else uniques.to_pylist()
    assert [(type(u), u) for u in uniques] == [(type(u), u) for u in expected_uniques]


@pytest.fixture
def shared():
    rng = np.random.default_rng(0)
    column = _names(3_000)[rng.integers(0, 3_000, 40_000)]
    assert C._address_codes(_pointers(column)) is not None  # the path under test is taken
    return column


def test_shared_ids_coded_by_address(shared):
    _same_as_factorize(shared)


def test_none_and_nan_in_a_shared_column(shared):
    column = shared.copy()
    column[5::7] = None
    column[3::11] = np.nan
    column[0] = None  # missing in the first row too
    _same_as_factorize(column)
    assert (C._object_codes(column)[0][5::7] == -1).all()


def test_equal_strings_at_other_addresses_merge_with_shared_ones(shared):
    column = shared.copy()
    copies = np.array(["".join(list(s)) for s in column[::3]], dtype=object)  # new objects
    assert not np.array_equal(_pointers(copies), _pointers(column[::3]))
    column[::3] = copies
    _same_as_factorize(column)


def test_look_alike_values_kept_apart():
    rng = np.random.default_rng(1)
    pool = np.concatenate([_names(200), np.array([1, "1", b"1", 1.5, ("t", 1)], dtype=object)])
    column = pool[rng.integers(0, len(pool), 30_000)]
    assert C._address_codes(_pointers(column)) is not None
    _same_as_factorize(column)
    codes, uniques = C._object_codes(column)
    assert {repr(u) for u in uniques} >= {"1", "'1'", "b'1'"}


def test_non_string_objects():
    rng = np.random.default_rng(2)
    pool = np.array([float(i) + 0.5 for i in range(400)] + [(i,) for i in range(100)],
                    dtype=object)
    column = pool[rng.integers(0, len(pool), 20_000)]
    assert C._address_codes(_pointers(column)) is not None
    _same_as_factorize(column)


def test_scattered_addresses_fall_back_to_hashing():
    # strings of 5,000 characters: one object per 4 KiB block or more, too many places
    rng = np.random.default_rng(3)
    pool = np.array([f"{i:05d}" + "x" * 5_000 for i in range(200)], dtype=object)
    column = pool[rng.integers(0, 200, 2_000)]
    assert C._address_codes(_pointers(column)) is None
    _same_as_factorize(column)


def test_first_rows_is_where_each_code_first_appears():
    codes = np.random.default_rng(4).integers(0, 1_000, 50_000)
    found, where = np.unique(codes, return_index=True)
    np.testing.assert_array_equal(C._first_rows(codes, 1_000)[found], where)


def test_csv_read_with_object_dtype_loads_as_the_arrow_frame():
    rng = np.random.default_rng(5)
    n = 30_000
    frame = pd.DataFrame({"item": _names(4_000)[rng.integers(0, 4_000, n)],
                          "annotator": np.array([f"w{i}" for i in range(8)])[rng.integers(0, 8, n)],
                          "label": np.array(["PER", "LOC", "ORG"])[rng.integers(0, 3, n)]},
                         dtype=object).drop_duplicates(["item", "annotator"])
    text = frame.to_csv(index=False)
    read = pd.read_csv(io.StringIO(text), dtype=object)
    arrow = pd.read_csv(io.StringIO(text))
    for data in (read, frame):
        ours, theirs = iaa.Annotations.from_long(data), iaa.Annotations.from_long(arrow)
        assert list(ours.items) == list(theirs.items)
        assert iaa.krippendorff_alpha(data).value == iaa.krippendorff_alpha(arrow).value


def test_annotator_names_grouped_by_annotator():
    import pyarrow as pa
    names = np.repeat([f"rater_{i}" for i in (3, 0, 7, 1, 9, 2, 5, 4, 8, 6)], 9_000)
    strings = pa.array(names, type=pa.large_string())
    coded = C._fixed_width_codes(strings)
    assert coded is not None  # read in place although the first rows hold one name
    expected_codes, expected_uniques = pd.factorize(names)
    np.testing.assert_array_equal(coded[0], expected_codes)
    assert list(coded[1]) == list(expected_uniques)


def test_a_name_between_the_sampled_rows_is_not_missed():
    import pyarrow as pa
    names = np.repeat(["rater_0", "rater_1"], 50_000)
    names[70_001] = "rater_2"  # in no row of either sample
    coded = C._fixed_width_codes(pa.array(names, type=pa.large_string()))
    assert coded is None or np.array_equal(coded[0], pd.factorize(names)[0])
    codes, _ = C._coded(pd.Series(names, dtype="str"))
    np.testing.assert_array_equal(codes, pd.factorize(names)[0])


def test_objects_shared_in_the_head_only():
    # the CSV parser shares objects within a chunk: most objects are copies beyond it
    rng = np.random.default_rng(6)
    head = _names(1_000)[rng.integers(0, 1_000, 1 << 16)]
    rest = np.array(["".join(list(s)) for s in _names(1_500)[rng.integers(0, 1_500, 100_000)]],
                    dtype=object)
    column = np.concatenate([head, rest])
    coded = C._address_codes(_pointers(column))
    assert coded is not None and 2 * len(coded[1]) > len(column)  # Arrow hashes the objects
    _same_as_factorize(column)
    column[7::13] = None  # missing values: pandas hashes them
    _same_as_factorize(column)
