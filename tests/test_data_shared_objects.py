"""Object columns coded whatever their rows share (issue 43 §1): a property over columns
drawn from a pool of Python objects (text, integers, floats with NaN, None, booleans,
bytes, pd.NA), each row the pool's object itself (as list-built frames and pandas' CSV
parser with dtype=object give them) or a copy of it, in runs or shuffled. Every expected
result is ``pd.factorize`` of the same values (pandas 3.1.1): codes in order of first
appearance, −1 for None/NaN/pd.NA, each distinct value named by the object where it first
appears (its type and repr kept: 1, 1.0 and True merge under the first of them, as
pandas hashes them). The tests of the single paths are in tests/test_codes_shared.py."""
from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings, strategies as st

import iaa_widgets as iaa
from iaa_widgets.data import codes as C

SCALARS = st.one_of(st.text(max_size=12), st.integers(-1_000, 10 ** 9),
                    st.floats(allow_nan=True, allow_infinity=True), st.none(), st.booleans(),
                    st.binary(max_size=4), st.just(pd.NA))


def _copy(value):
    """An equal value in a new object where Python makes one (singletons, small ints and
    one-character strings stay themselves)."""
    if isinstance(value, str):
        return "".join(list(value))
    if isinstance(value, bytes):
        return bytes(bytearray(value))
    if isinstance(value, float):
        return float(repr(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return int(repr(value))
    return value


def _pointers(values: np.ndarray) -> np.ndarray:
    return np.frombuffer(memoryview(np.ascontiguousarray(values)), dtype=np.intp)


@st.composite
def columns(draw):
    """An object column of up to 3,000 rows from a pool of up to 600 values: many ids
    ("doc-…", made one after another, as a reader makes them) and drawn scalars; a share
    of rows (none, some, all) hold copies; rows shuffled or in runs of one value."""
    n_ids = draw(st.sampled_from([0, 3, 70, 500]))
    pool = [f"doc-{i:06d}" for i in range(n_ids)] + draw(st.lists(SCALARS, max_size=100))
    if not pool:
        pool = [draw(SCALARS)]
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    n = draw(st.integers(1, 3_000))
    picks = rng.integers(0, len(pool), n)
    if draw(st.booleans()):
        picks.sort()  # grouped: runs of one value
    copied = rng.random(n) < draw(st.sampled_from([0.0, 0.1, 0.6, 1.0]))
    values = np.empty(n, dtype=object)
    values[:] = [_copy(pool[p]) if c else pool[p] for p, c in zip(picks, copied)]
    return values


def _named(uniques) -> list:
    uniques = list(uniques) if isinstance(uniques, np.ndarray) else uniques.to_pylist()
    return [(type(u), repr(u)) for u in uniques]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(columns())
def test_object_column_codes_are_pandas_factorize(values):
    expected_codes, expected_uniques = pd.factorize(values)
    codes, uniques = C._column_codes(pd.Series(values, dtype=object))
    np.testing.assert_array_equal(codes, expected_codes)
    assert _named(uniques) == _named(expected_uniques)
    if not np.any(expected_codes < 0):  # ids: named by a pd.Index of the same values
        id_codes, names = C._id_codes(pd.Series(values, dtype=object, name="item"))
        np.testing.assert_array_equal(id_codes, expected_codes)
        assert names.equals(pd.Index(expected_uniques, name="item"))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from([1, 8, 300, 3_000]))
def test_address_codes_number_each_object_once(seed, n_objects):
    rng = np.random.default_rng(seed)
    pool = np.array([f"w{i}-" + "x" * int(rng.integers(0, 40)) for i in range(n_objects)],
                    dtype=object)
    column = pool[rng.integers(0, n_objects, 10_000)]
    pointers = _pointers(column)
    coded = C._address_codes(pointers)
    if coded is None:  # objects scattered over more places than the rows allow
        return
    codes, first = coded
    # codes 0 … k − 1 (in no particular order), one per address, and the row where each
    # code first appears
    n_pointers = len(np.unique(pointers))
    assert len(first) == n_pointers == len(np.unique(codes)) == int(codes.max()) + 1
    assert len(np.unique(np.stack([pointers, codes]), axis=1)[0]) == n_pointers
    found, where = np.unique(codes, return_index=True)
    np.testing.assert_array_equal(first[found], where)


def test_big_shared_and_copied_columns_are_pandas_factorize():
    # past the 2¹⁶-row head that decides shared or copies, through Arrow's fixed-width
    # look-up (one width, two varying bytes) and its dictionary encoding
    rng = np.random.default_rng(7)
    names = np.array([f"w-{i:04d}" for i in range(900)], dtype=object)
    shared = names[rng.integers(0, 900, 150_000)]
    copies = np.array([_copy(v) for v in shared], dtype=object)
    mixed = np.concatenate([shared[:70_000], copies[70_000:]])
    labels = np.array(["PER", "LOC", 3, 3.0, None], dtype=object)[rng.integers(0, 5, 150_000)]
    two_bytes = np.array([_copy(f"w-{i:02d}") for i in rng.integers(0, 90, 150_000)],
                         dtype=object)  # copies of 90 names that differ in two bytes
    for values in (shared, copies, mixed, labels, two_bytes,
                   names[np.repeat(np.arange(900), 170)]):
        codes, uniques = C._column_codes(pd.Series(values, dtype=object))
        expected_codes, expected_uniques = pd.factorize(values)
        np.testing.assert_array_equal(codes, expected_codes)
        assert _named(uniques) == _named(expected_uniques)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from([0.0, 0.5, 1.0]))
def test_a_frame_loads_the_same_shared_or_copied(seed, share):
    # the same ratings, their objects shared as built from lists, or copied per row
    rng = np.random.default_rng(seed)
    n = 4_000
    pool = {"item": np.array([f"doc-{i}" for i in range(300)], dtype=object),
            "annotator": np.array([f"w{i}" for i in range(6)], dtype=object),
            "label": np.array(["PER", "LOC", "ORG", None, " "], dtype=object)}
    built = pd.DataFrame({k: v[rng.integers(0, len(v), n)] for k, v in pool.items()},
                         dtype=object).drop_duplicates(["item", "annotator"], ignore_index=True)
    copied = built.copy()
    for col in copied:
        keep = rng.random(len(copied)) < share
        values = np.empty(len(copied), dtype=object)  # objects: never inferred as str
        values[:] = [v if k else _copy(v) for v, k in zip(copied[col], keep)]
        copied[col] = pd.Series(values, dtype=object)
    ours, theirs = iaa.Annotations.from_long(built), iaa.Annotations.from_long(copied)
    for name in ("item", "annotator", "label"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name))
    assert ours.items.equals(theirs.items) and ours.annotators.equals(theirs.annotators)
    assert list(ours.categories) == list(theirs.categories)
    assert ours.n_blank == theirs.n_blank and ours.notes == theirs.notes


def test_objects_shared_within_chunks_only_are_hashed_per_row():
    # pandas' C parser with dtype=object shares one object per value within each chunk
    # it reads (2¹⁹ rows, measured: 1e6 rows over 2e5 ids held 366,806 objects; here
    # chunks of 25,000 rows), so a column of many ids holds about one object per row and
    # hashing the rows pays (codes._shares_objects); a list-built column of the same ids
    # shares them all, and ids grouped in runs share them within each chunk
    rng = np.random.default_rng(8)
    n, k, chunk = 200_000, 50_000, 25_000
    pool = np.array([f"doc-{i:06d}" for i in range(k)], dtype=object)
    picks = rng.integers(0, k, n)

    def read_in_chunks(picks):
        values = np.empty(n, dtype=object)
        for at in range(0, n, chunk):  # each chunk its own objects of the ids it holds
            objects, held = pool.copy(), np.unique(picks[at:at + chunk])
            objects[held] = [_copy(v) for v in pool[held]]
            values[at:at + chunk] = objects[picks[at:at + chunk]]
        return values
    chunked, grouped = read_in_chunks(picks), read_in_chunks(np.sort(picks))  # grouped: runs
    unique = np.array([_copy(v) for v in pool], dtype=object)
    for values, shared in ((chunked, False), (pool[picks], True), (unique, False),
                           (grouped, True)):
        assert C._shares_objects(values, _pointers(values))[0] is shared
        codes, uniques = C._column_codes(pd.Series(values, dtype=object))
        expected_codes, expected_uniques = pd.factorize(values)
        np.testing.assert_array_equal(codes, expected_codes)
        assert list(uniques) == list(expected_uniques)  # strings only


def test_fixed_width_ids_coded_from_their_packed_bytes():
    # ids of one width up to 16 bytes that differ in up to 8 positions ("doc-0000000")
    # are hashed as 64-bit numbers (codes._packed_codes); expected: pd.factorize
    import pyarrow as pa
    rng = np.random.default_rng(9)
    ids = np.array([f"doc-{i:07d}" for i in rng.integers(0, 200_000, 90_000)], dtype=object)
    odd = ids.copy()
    odd[45_001] = "dox-" + odd[45_001][4:]  # a constant byte that differs in no sampled row
    wide = np.array([f"{i:08d}-document-x"[:16] for i in rng.integers(0, 10 ** 8, 70_000)],
                    dtype=object)  # 16 bytes, 8 varying
    many = np.array([f"{i:09d}" for i in rng.integers(0, 10 ** 9, 70_000)],
                    dtype=object)  # 9 varying positions: hashed by Arrow
    ordered = np.array([f"doc-{i:07d}" for i in range(0, 140_000, 2)], dtype=object)  # sorted
    for values, packed in ((ids, True), (odd, False), (wide, True), (many, False),
                           (ordered, True), (ordered[::-1].copy(), True)):
        strings = pa.chunked_array([pa.array(values, type=pa.string())])
        assert (C._packed_codes(strings) is not None) is packed
        for column in (pd.Series(values, dtype="str"), pd.Series(values, dtype=object),
                       pd.Series(values, dtype="str").iloc[7:]):  # an Arrow slice
            codes, uniques = C._column_codes(column)
            expected_codes, expected_uniques = pd.factorize(column.to_numpy(dtype=object))
            np.testing.assert_array_equal(codes, expected_codes)
            assert list(uniques) == list(expected_uniques)
