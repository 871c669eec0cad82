"""Integer codes of a column: one hash pass per column, Arrow's dictionary encoding for
Arrow-backed strings (or its result without a hash table of the column: few fixed-width
names, few values, few short values of polars' strings read in their views; ids in runs
encoded once per run) and for Python strings with many values, Python objects that rows
share coded by their address, a dense look-up table or
the steps of sorted ids for integers (and for floats that are whole numbers). Text ids
keep their names in Arrow (:func:`_names`)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..labels import blank_labels


def _owned(codes: np.ndarray, dtype) -> np.ndarray:
    """``codes`` as ``dtype``, never a view of the user's table (codes equal to the ids
    are the column itself): a later edit of the table must not change the ratings."""
    if codes.base is not None or not codes.flags.owndata:
        return np.array(codes, dtype=dtype)
    return codes.astype(dtype, copy=False)


def _blank_as_missing(codes: np.ndarray, uniques):
    """Blank distinct labels ('' or whitespace only) become missing (code −1)."""
    if getattr(uniques, "dtype", None) != object:
        return codes, uniques
    blank = blank_labels(uniques)
    if not blank.any():
        return codes, uniques
    remap = np.append(np.where(blank, -1, np.cumsum(~blank) - 1), -1)  # [-1]: missing stays
    return remap[codes], uniques[~blank]


def _dense_ints(values: np.ndarray):
    """(values − lowest, which values of the range occur, the distinct values) for
    integers in a compact range, else None: one bincount instead of a hash table."""
    if values.dtype.kind not in "iu" or values.dtype == np.uint64 or len(values) == 0:
        return None
    lowest, hi = int(values.min()), int(values.max())
    limit = 4 * len(values) + 1024
    if not _compact(lowest, hi, len(values)):
        return None
    lo = 0 if 0 < lowest and hi <= limit else lowest  # small positive ids need no shift
    # in intp: values − lo and the codes' running maximum + 1 overflow int8/int16/uint8
    shifted = np.subtract(values, lo, dtype=np.intp) if lo else values.astype(np.intp, copy=False)
    present = np.zeros(hi - lo + 1, dtype=bool)
    head = shifted[:1 << 14]  # a few labels: every one of them shows up early
    if hi - lowest < len(head) and np.all(np.bincount(head, minlength=hi - lo + 1)[lowest - lo:]):
        present[lowest - lo:] = True
    else:
        present = np.bincount(shifted, minlength=hi - lo + 1) > 0
    return shifted, present, (lo + np.flatnonzero(present)).astype(values.dtype)


def _compact(lowest: int, highest: int, n: int) -> bool:
    """Whether n integers from ``lowest`` to ``highest`` lie in a range small enough to be
    counted directly (a presence array of at most 4n + 1024 entries)."""
    return highest - lowest <= 4 * n + 1024


def _in_id_order(codes: np.ndarray, names: pd.Index, n: int):
    """(codes, names) renumbered in increasing order of the names where a column of n
    such ids would be coded by direct indexing (:func:`_id_codes`: integers in a compact
    range), so that an items × annotators table loads as its tidy form does."""
    if names.dtype.kind not in "iu" or names.dtype == np.uint64 or len(names) == 0 or \
            names.is_monotonic_increasing or not _compact(int(names.min()), int(names.max()), n):
        return codes, names
    order = np.argsort(names.to_numpy(), kind="stable")
    rank = np.empty(len(order), np.intp)
    rank[order] = np.arange(len(order))
    return rank[codes], names[order]


def _whole_floats(values: np.ndarray):
    """:func:`_dense_ints` of floats that are all whole numbers in a compact range (the
    distinct values as floats, as ``pd.factorize`` gives them), else None: NaN, ±inf,
    fractions or −0.0 (which pandas keeps apart from 0.0 when it comes first) go
    through pandas."""
    if values.dtype.kind != "f" or len(values) == 0:
        return None
    with np.errstate(invalid="ignore"):  # NaN, inf, huge: cast to anything, caught below
        whole = values.astype(np.int64)
    dense = _dense_ints(whole) if np.array_equal(whole, values) else None
    if dense is None:
        return None
    shifted, present, uniques = dense
    if uniques[0] <= 0 <= uniques[-1] and np.any(np.signbit(values[values == 0])):
        return None
    return shifted, present, uniques.astype(values.dtype)


def _arrow_strings(col: pd.Series) -> bool:
    """Strings that pandas keeps in Arrow (its default with pyarrow installed, pandas 3)."""
    return getattr(col.dtype, "storage", None) == "pyarrow" or (
        isinstance(col.dtype, pd.ArrowDtype) and col.dtype.kind in "OSU")


def _column_codes(col: pd.Series):
    """Codes (−1 where missing) and distinct values (an object array) of a column in one
    hash pass (:func:`_coded`)."""
    codes, uniques = _coded(col)
    return codes, _as_objects(uniques)


def _coded(col: pd.Series):
    """Codes (−1 where missing) and distinct values of a column in one hash pass:
    Arrow-backed strings take Arrow's dictionary encoding (one hash table across the
    chunks, no Python object per row; the distinct values stay an Arrow array), or,
    faster and with the same result, a look-up of few fixed-width names
    (:func:`_fixed_width_codes`) or in the few values of the first rows
    (:func:`_few_strings`); polars' strings (``string_view``) are read in place by the
    first or :func:`_inline_view_codes`, else converted to plain strings; Python objects
    go through :func:`_object_codes` (strings through Arrow too), any other column
    through :func:`_factorize`."""
    if _arrow_strings(col):
        import pyarrow as pa  # pandas keeps these strings in Arrow: pyarrow is installed
        return _arrow_codes(pa.chunked_array(pa.array(col.array)))
    values = col.to_numpy()
    if values.dtype == object and len(values):
        return _object_codes(values)
    return _factorize(values)


def _as_objects(uniques) -> np.ndarray:
    """Distinct values as an object array (from an Arrow array of strings: one Python
    string each)."""
    if isinstance(uniques, np.ndarray):
        return uniques
    return np.asarray(uniques.to_pylist(), dtype=object)


def _names(uniques, name) -> pd.Index:
    """The distinct ids as ``pd.Index(uniques)`` names them; from Arrow strings, pandas'
    text dtype (``str``) over the same Arrow memory, without the Python object per id
    that inferring it from objects would make and check (pandas 2: objects)."""
    if not isinstance(uniques, np.ndarray):
        text = pd.Index(np.array([""], dtype=object)).dtype  # what pandas infers for text
        if isinstance(text, pd.StringDtype) and text.storage == "pyarrow":
            return pd.Index(pd.array(uniques, dtype=text), name=name)
        uniques = _as_objects(uniques)
    return pd.Index(uniques, name=name)


def _id_codes(col: pd.Series):
    """Codes and distinct values of an item or annotator column. Integer ids within a
    small multiple of the row count of their minimum (:func:`_dense_ints`) are coded by
    direct indexing, a presence array and its cumulative sum, in increasing order of
    the ids: the same codes in any row order (grouped by item, by annotator, shuffled),
    with no hash table. Any other column: :func:`_coded` (order of first appearance).
    The names come as a ``pd.Index`` named as the column (:func:`_names`)."""
    values = col.to_numpy() if isinstance(col.dtype, np.dtype) else None
    dense = None if values is None or values.dtype.kind not in "iu" or \
        _is_sorted(values) else _dense_ints(values)
    if dense is None:
        codes, uniques = _coded(col)
        return codes, _names(uniques, col.name)
    shifted, present, uniques = dense
    if present.all():  # ids 0 … n − 1 (after the shift): the codes are the ids
        return shifted, pd.Index(uniques, name=col.name)
    rank = np.cumsum(present, dtype=np.int32 if len(present) < 1 << 31 else np.intp)
    rank -= 1
    return rank[shifted], pd.Index(uniques, name=col.name)


def _is_sorted(values: np.ndarray) -> bool:
    """Non-decreasing integers (checked on the first 17 first, then all): coded from
    their steps by :func:`_sorted_codes`, faster still."""
    return len(values) > 0 and bool(np.all(values[1:17] >= values[:16][:len(values) - 1])) \
        and bool(np.all(values[1:] >= values[:-1]))


def _arrow_codes(strings):
    """Codes (−1 for nulls) and distinct values of an Arrow string column (chunked): an
    object array from the look-ups below, else Arrow's dictionary (an Arrow array)."""
    import pyarrow as pa
    coded = None
    if strings.num_chunks == 1:  # one buffer of bytes, read as it is
        coded = _fixed_width_codes(strings.chunk(0)) or _inline_view_codes(strings.chunk(0))
    if coded is None and pa.types.is_string_view(strings.type):  # polars' strings
        strings = strings.cast(pa.large_string())
    coded = coded or _few_strings(strings) or _run_codes(strings) or _packed_codes(strings)
    if coded is not None:
        return coded
    encoded = strings.dictionary_encode()
    if encoded.num_chunks == 0:
        return np.empty(0, np.intp), np.empty(0, dtype=object)
    codes = pa.chunked_array([c.indices for c in encoded.chunks]).fill_null(-1)
    # the chunks share one dictionary, the last complete; kept in Arrow (:func:`_names`)
    return (np.asarray(codes.to_numpy(), dtype=np.intp),
            encoded.chunk(encoded.num_chunks - 1).dictionary)


def _run_codes(strings):
    """Codes and distinct values of a long Arrow string column whose rows come in runs of
    equal values, as ids grouped by item do (half its first 4096 rows or more repeat the
    row before): only the first row of each run is encoded (:func:`_arrow_codes`), each
    run takes its code, in the same order of first appearance; None otherwise. (9e6 ids
    in runs of 5: 0.31 s against 0.51 s for encoding every row.)"""
    import pyarrow as pa
    import pyarrow.compute as pc
    n = len(strings)
    if n < 1 << 16:
        return None
    head = strings.slice(0, 1 << 12)
    repeats = pc.sum(pc.equal(head.slice(1), head.slice(0, len(head) - 1))).as_py()
    if (repeats or 0) < len(head) // 2:  # (a null beside anything: never a repeat)
        return None
    same = pc.equal(strings.slice(1), strings.slice(0, n - 1)).fill_null(False)
    starts = np.flatnonzero(np.concatenate([[True], ~same.to_numpy()]))
    codes, uniques = _arrow_codes(strings.take(pa.array(starts)))  # runs: one row each
    return np.repeat(codes, np.diff(np.append(starts, n))), uniques


def _plain_strings(arrow_type) -> bool:
    """Arrow's string and large_string (offsets and one data buffer; not string_view)."""
    import pyarrow as pa
    return pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type)


def _few_strings(strings):
    """Codes (−1 for nulls) and distinct values of a long Arrow string column whose few
    distinct values (at most 256) all appear in its first 4096 rows, as labels and
    annotator names do: a look-up in those values (Arrow's ``index_in``) instead of
    building a hash table of the whole column; None otherwise."""
    import pyarrow.compute as pc
    if len(strings) < 1 << 16 or not _plain_strings(strings.type):  # index_in takes these
        return None
    head = strings.slice(0, 1 << 12).combine_chunks().dictionary_encode().dictionary
    if len(head) > 256:
        return None
    codes = pc.index_in(strings, value_set=head)  # null: a null, or a value not in the head
    if codes.null_count != strings.null_count:
        return None
    if codes.null_count:
        codes = codes.fill_null(-1)
    return (np.asarray(codes.to_numpy(), dtype=np.intp),
            np.asarray(head.to_pylist(), dtype=object))


def _equal_width_rows(strings, widest: int = 8):
    """The bytes of a long Arrow string column (no nulls) whose strings all have one width
    of at most ``widest`` bytes (8 for a ``string_view``), as (a rows × bytes uint8 view of
    its data, the slice of a row that holds its string); else None. ``string_view`` (polars' strings): each row is
    its 16-byte view, an int32 length then, up to 12 bytes, the string itself (zero
    padded), so that equal rows are equal strings."""
    import pyarrow as pa
    n = len(strings)
    if n < 1 << 16 or strings.null_count:
        return None
    if pa.types.is_string_view(strings.type):
        views = np.frombuffer(strings.buffers()[1], np.uint8, 16 * n, 16 * strings.offset)
        width = int(views[:4].view(np.int32)[0])  # the first row's (every row's: checked)
        return (views.reshape(n, 16), slice(4, 4 + width)) if 0 < width <= 8 else None
    if not _plain_strings(strings.type):
        return None
    _, offset_buffer, data_buffer = strings.buffers()
    offset_type = np.int64 if pa.types.is_large_string(strings.type) else np.int32
    offsets = np.frombuffer(offset_buffer, offset_type, n + 1, strings.offset *
                            np.dtype(offset_type).itemsize)
    start, width = int(offsets[0]), (int(offsets[-1]) - int(offsets[0])) // n
    if not 0 < width <= widest or int(offsets[-1]) - start != width * n:
        return None
    block = 1 << 16  # in blocks that stay in cache: offsets step by the width
    ramp = np.arange(0, (block + 1) * width, width, dtype=offset_type)
    for at in range(0, n, block):
        part = offsets[at:at + block + 1]
        if not np.array_equal(part - part[0], ramp[:len(part)]):
            return None
    rows = np.frombuffer(data_buffer, np.uint8, width * n, start).reshape(n, width)
    return rows, slice(0, width)


def _fixed_width_codes(strings):
    """Codes and distinct values of Arrow strings (no nulls) of one width of at most 8
    bytes that differ in at most two byte positions, such as annotator names "rater_0" …
    "rater_9": those bytes index a look-up table, with no hash per row; None for any other
    strings (a short column too). The other positions are checked to hold the same bytes
    in every row, so the bytes read determine each string."""
    equal = _equal_width_rows(strings)
    if equal is None:
        return None
    rows, name = equal
    varying = _varying_bytes(rows, name, 2)
    if varying is None:
        return None
    n, head = len(rows), rows[:1 << 12]
    if len(varying) == 0:  # one string
        return np.zeros(n, np.intp), np.array([bytes(head[0, name]).decode()], dtype=object)
    key = rows[:, varying[0]]  # the varying bytes, as one number below 2¹⁶
    if len(varying) == 2:
        key = (key.astype(np.intp) << 8) | rows[:, varying[1]]
    keys = _first_seen(key)
    renumber = np.full(1 << (8 * len(varying)), -1, np.intp)
    renumber[keys] = np.arange(len(keys))
    codes = renumber[key]
    if codes.min() < 0:  # a string in neither sample
        return None
    names = np.repeat(head[:1], len(keys), axis=0)
    for i, position in enumerate(varying[::-1]):  # the key's bytes back in their place
        names[:, position] = (keys >> (8 * i)) & 0xFF
    return codes, np.array([bytes(v[name]).decode() for v in names], dtype=object)


def _varying_bytes(rows: np.ndarray, name: slice, most: int):
    """The byte positions (at most ``most``, within ``name``) in which the rows of
    ``rows`` (uint8, one string each) differ, read on the first 4096 rows and 4096 at a
    stride; every other position is checked to hold the same byte in every row, so the
    bytes at these positions determine each string. None otherwise."""
    n, width = rows.shape
    head = rows[:1 << 12]
    spread = rows[::max(n >> 12, 1)]  # rows grouped by name: the head holds one of them
    varying = np.flatnonzero(np.any(head != head[0], axis=0) | np.any(spread != head[0], axis=0))
    if len(varying) > most or np.any((varying < name.start) | (varying >= name.stop)):
        return None  # (a string_view's length bytes stay constant: one width)
    data, block = rows.reshape(-1), 1 << 16
    constant = np.full(width, 0xFF, np.uint8)
    constant[varying] = 0
    template = np.tile(head[0] & constant, block)
    mask = np.tile(constant, block)
    for at in range(0, n * width, block * width):  # every row: the same constant bytes
        part = data[at:at + block * width]
        if not np.array_equal(part & mask[:len(part)], template[:len(part)]):
            return None
    return varying


def _packed_codes(strings):
    """Codes and distinct values (an Arrow array) of a long Arrow string column (one
    chunk, no nulls) whose strings all have one width of at most 16 bytes that differ in
    at most 8 byte positions, such as ids "doc-0000000" …: those bytes packed into one
    64-bit number per row and hashed as integers (``pd.factorize``), in the same order of
    first appearance as Arrow's dictionary encoding; None otherwise. (1e6 such ids in
    5.9e6 rows: 0.67 s against 1.10 s for Arrow's dictionary encoding.)"""
    import pyarrow as pa
    if strings.num_chunks != 1 or pa.types.is_string_view(strings.type):
        return None
    strings = strings.chunk(0)
    equal = _equal_width_rows(strings, widest=16)
    varying = None if equal is None else _varying_bytes(*equal, 8)
    if varying is None or len(varying) == 0:
        return None
    rows = equal[0]
    packed = np.zeros((len(rows), 8), np.uint8)
    packed[:, :len(varying)] = rows[:, varying[::-1]]  # the first byte the most significant
    keys = packed.view(np.uint64).ravel()  # little-endian: keys sort as the strings do
    # sorted ids (such as the first rows of ids in runs) from their steps, with no hash
    codes = _sorted_codes(keys)[0] if _is_sorted(keys) else pd.factorize(keys)[0]
    return codes, strings.take(pa.array(_first_positions(codes, int(codes.max()) + 1)))


def _inline_view_codes(strings):
    """Codes and distinct values of a long ``string_view`` column (polars' strings), no
    nulls, whose few distinct values (at most 256) all appear in its first 4096 rows and
    are at most 12 bytes long, as labels are: such a string lies whole in its 16-byte view
    (its length, then its bytes, zero padded), so equal views are equal strings. One or
    two bytes of the view that tell those values apart index a look-up table, and every
    row's view is checked equal to the view of the value it was given (a row that is
    another string, a longer one too, fails the check: None, as for any other column)."""
    import pyarrow as pa
    n = len(strings)
    if n < 1 << 16 or strings.null_count or not pa.types.is_string_view(strings.type):
        return None
    raw = strings.buffers()[1]
    words = np.frombuffer(raw, np.uint64, 2 * n, 16 * strings.offset).reshape(n, 2)
    head, first = np.unique(words[:1 << 12], axis=0, return_index=True)
    head = head[np.argsort(first)]  # in order of first appearance
    values = head.view(np.uint8).reshape(len(head), 16)
    lengths = values[:, :4].copy().view(np.int32)[:, 0]
    if len(head) > 256 or lengths.max() > 12:
        return None
    positions = _telling_bytes(values)
    if positions is None:
        return None
    rows = np.frombuffer(raw, np.uint8, 16 * n, 16 * strings.offset).reshape(n, 16)
    key, table = rows[:, positions[0]], np.full(1 << (8 * len(positions)), -1, np.intp)
    head_key = values[:, positions[0]].astype(np.intp)
    if len(positions) == 2:
        key = (key.astype(np.intp) << 8) | rows[:, positions[1]]
        head_key = (head_key << 8) | values[:, positions[1]]
    table[head_key] = np.arange(len(head))
    codes = table[key]
    if codes.min() < 0 or not (np.array_equal(head[:, 0][codes], words[:, 0]) and
                               np.array_equal(head[:, 1][codes], words[:, 1])):
        return None
    names = [bytes(v[4:4 + k]).decode() for v, k in zip(values, lengths)]
    if len(set(names)) < len(names):  # padding that is not zero: views differ, strings not
        return None
    return codes, np.array(names, dtype=object)


def _telling_bytes(values: np.ndarray):
    """One byte position, else two, at which the distinct rows of ``values`` (uint8, one
    row per value) all differ; None if no pair does."""
    k, width = values.shape
    for p in range(width):
        if len(np.unique(values[:, p])) == k:
            return (p,)
    for p in range(width):
        for q in range(p + 1, width):
            if len(np.unique(values[:, p].astype(np.intp) << 8 | values[:, q])) == k:
                return (p, q)
    return None


def _factorize(values: np.ndarray):
    """``pd.factorize`` (codes in order of first appearance); sorted integer ids are
    coded from their steps, and integer ids whose first appearances come in increasing
    order take a dense look-up table instead of hashing."""
    if values.dtype.kind in "iu" and _is_sorted(values):
        return _sorted_codes(values)
    dense = _dense_ints(values)
    if dense is not None:
        shifted, present, uniques = dense
        codes = shifted if present.all() else (np.cumsum(present) - 1)[shifted]  # 0..n−1: as is
        seen = _seen_early(codes, len(uniques))  # few distinct ids: found in a prefix
        if seen is None:  # (sorted ids were coded above) first appearances increase iff
            # every code exceeds the running maximum before it by at most 1
            if codes[0] == 0 and np.all(codes[1:] <= np.maximum.accumulate(codes)[:-1] + 1):
                return codes, uniques
        elif np.array_equal(seen, np.arange(len(seen))):
            return codes, uniques
        else:  # renumber the few codes by their first appearance
            renumber = np.empty(len(uniques), np.intp)
            renumber[seen] = np.arange(len(seen))
            return renumber[codes], uniques[seen]
    if values.dtype == object and len(values):
        codes, uniques = _object_codes(values)
        return codes, _as_objects(uniques)
    return pd.factorize(values)


def _object_codes(values: np.ndarray):
    """``pd.factorize`` of Python objects (the distinct values an object array, or for
    strings an Arrow array: :func:`_text_codes`). Where rows share their objects (a
    column made from a list of labels or ids, or read by pandas' CSV parser with
    dtype=object), the object pointers are coded (ints: fast; many values by their
    address, :func:`_address_codes`, without a hash table of the addresses), then the
    distinct objects are hashed (equal values at different addresses merge there;
    None/NaN become −1 as in pd.factorize: :func:`_renumbered`). Where each row holds its own copy of its
    value (strings converted one per row), hashing the pointers would double the work:
    the objects are hashed directly, strings with many distinct values (more than 64 in
    the first rows: ids) through Arrow (:func:`_text_codes`; few labels or names are
    hashed faster by pandas: 0.35 s against 0.55 s for 4 labels in 9e6 rows). Samples of
    the rows decide (:func:`_shares_objects`)."""
    values = np.ascontiguousarray(values)  # a sliced or reversed column is strided
    pointers = np.frombuffer(memoryview(values), dtype=np.intp)
    shared, distinct = _shares_objects(values, pointers)
    if not shared:  # rows hold their own copies, or about one object each
        coded = _text_codes(values) if distinct > 64 else None  # ids; labels: pandas
        return coded or pd.factorize(values)
    coded = _address_codes(pointers) if distinct > 64 else None  # ids; labels: pandas
    if coded is not None:
        return _renumbered(values, *coded)
    ptr_codes, ptrs = pd.factorize(pointers)
    value_codes, uniques = pd.factorize(values[_first_positions(ptr_codes, len(ptrs))])
    if np.array_equal(value_codes, np.arange(len(ptrs))):  # one object per value
        return ptr_codes, uniques
    return value_codes[ptr_codes], uniques


def _shares_objects(values: np.ndarray, pointers: np.ndarray) -> tuple[bool, int]:
    """Whether coding an object column by its objects first pays (rows share their
    objects: fewer objects than rows to hash), and the distinct values of its first 2¹⁶
    rows. It does where most rows there that repeat an earlier value are the same object
    as its first, and either those rows hold at most one object per two rows or rows far
    apart share their objects too (the same test on 2¹⁴ rows at a stride). pandas' CSV
    parser shares objects only within a chunk it reads: ids of many values then hold
    about one object per row (5.5e6 objects in 5.9e6 rows), and hashing the rows costs
    less than coding the objects and hashing them (1.1 s against 1.8 s)."""
    n_head = min(len(values), 1 << 16)
    distinct = len(pd.unique(values[:n_head]))
    objects = len(pd.unique(pointers[:n_head]))
    if 2 * (objects - distinct) > n_head - distinct:  # copies outnumber shared repeats
        return False, distinct
    if 2 * objects <= n_head:
        return True, distinct
    step = max(len(values) >> 14, 1)
    far, far_objects = len(pd.unique(values[::step])), len(pd.unique(pointers[::step]))
    repeats, copies = len(values[::step]) - far, far_objects - far
    return 2 * copies < repeats, distinct


def _address_codes(pointers: np.ndarray):
    """Codes of distinct object addresses (in no particular order) and the row where each
    first appears, by direct indexing with no hash table of the addresses: each address
    is its block of 4 KiB (the few blocks the objects lie in, hashed: cheap, the table
    stays in cache) and its place in the block (divided by the objects' common
    alignment, 16 bytes in CPython); None where the blocks' places outnumber the rows
    more than :func:`_compact` allows (objects scattered one per block)."""
    n = len(pointers)
    block_codes, blocks = pd.factorize(pointers >> 12)
    within = pointers & 4095
    low = int(np.bitwise_or.reduce(within))
    shift = (low & -low).bit_length() - 1 if low else 12  # the alignment's trailing zeros
    width = 1 << (12 - shift)  # places in a block
    if not _compact(0, len(blocks) * width - 1, n):
        return None
    offsets = block_codes * width + (within >> shift)
    present = np.zeros(len(blocks) * width, dtype=bool)
    present[offsets] = True
    rank = np.cumsum(present, dtype=np.int32 if len(present) < 1 << 31 else np.intp)
    codes = rank[offsets]
    codes -= 1
    return codes, _first_rows(codes, int(rank[-1]))


def _renumbered(values: np.ndarray, object_codes: np.ndarray, first: np.ndarray):
    """``pd.factorize`` of ``values`` from codes of its distinct objects (in any order)
    and the row where each first appears: the objects are hashed in that order (by
    address: memory read in sequence), equal values at different addresses merge,
    then the values are numbered by the row where each first appears, and named by the
    object in that row (as pd.factorize names them); None/NaN: −1. Python strings are
    hashed by Arrow (:func:`_text_codes`) and named by its copies of them: read in address
    order, not over the heap in order of first appearance, with no Python object per
    name (:func:`_names`; 1e6 ids: 0.5 s to name them from their objects)."""
    objects = values[first]
    coded = _text_codes(objects)
    value_codes, uniques = coded or pd.factorize(objects)
    if np.array_equal(value_codes, np.arange(len(first))):  # one object per value
        value_first = first
    else:
        value_first = np.full(len(uniques), len(values), dtype=np.intp)
        seen = value_codes >= 0
        np.minimum.at(value_first, value_codes[seen], first[seen])
    order = np.argsort(value_first)
    renumber = np.empty(len(order) + 1, dtype=np.intp)
    renumber[order] = np.arange(len(order))
    renumber[-1] = -1  # missing stays missing
    if coded is None:
        names = values[value_first[order]]
    else:  # an object array, or Arrow's dictionary (kept in Arrow)
        names = uniques[order] if isinstance(uniques, np.ndarray) else uniques.take(order)
    return renumber[value_codes][object_codes], names


def _first_rows(codes: np.ndarray, n_codes: int) -> np.ndarray:
    """The row where each code 0 … n_codes − 1 first appears: the rows written from the
    last to the first (numpy writes repeated indices in order, so the first row's
    stays), then checked against every row (``np.minimum.at`` if that order failed)."""
    rows = np.arange(len(codes))
    first = np.empty(n_codes, dtype=np.intp)
    first[codes[::-1]] = rows[::-1]
    if not np.all(first[codes] <= rows):
        first.fill(len(codes))
        np.minimum.at(first, codes, rows)
    return first


def _text_codes(values: np.ndarray):
    """Codes and distinct values of Python strings (``str`` only: never bytes, never a
    missing value) through Arrow when pyarrow is installed: copied into one buffer of
    UTF-8 (equal strings, equal bytes), then :func:`_arrow_codes`, in order of first
    appearance as ``pd.factorize``; faster than hashing the objects where the strings
    are many (1.8e6 distinct ids in 9e6 rows: 1.0 s against 1.7 s). None for any other
    column, or a string UTF-8 cannot hold (a lone surrogate)."""
    if pd.api.types.infer_dtype(values, skipna=False) != "string":
        return None
    try:
        import pyarrow as pa
        strings = pa.array(values, type=pa.string())  # checked above: bytes would pass
    except (ImportError, ValueError):  # ValueError: UnicodeEncodeError, ArrowInvalid
        return None
    return _arrow_codes(strings if isinstance(strings, pa.ChunkedArray)
                        else pa.chunked_array([strings]))  # chunked when over 2 GiB


def _sorted_codes(values: np.ndarray):
    """Codes and distinct values of sorted integers, from where consecutive ids differ."""
    new = np.empty(len(values), dtype=bool)
    new[:1] = True
    np.not_equal(values[1:], values[:-1], out=new[1:])
    n_distinct = np.count_nonzero(new)
    first, last = int(values[0]), int(values[-1])
    if last - first == n_distinct - 1:  # no gaps: the ids, shifted
        return (np.subtract(values, values[0], dtype=np.intp),  # intp: no int8 overflow
                np.arange(first, last + 1).astype(values.dtype))
    return np.cumsum(new) - 1, values[new]


def _seen_early(codes: np.ndarray, n_codes: int):
    """The codes 0 … n_codes − 1 in order of first appearance when all of them appear in
    the first eighth of ``codes`` (few distinct values show up early), else None."""
    if n_codes > max(len(codes) >> 3, 1 << 12):
        return None
    length = 1 << 12
    while length <= max(len(codes) >> 3, 1 << 12):
        found, where = np.unique(codes[:length], return_index=True)
        if len(found) == n_codes:
            return found[np.argsort(where)]
        length <<= 3
    return None


def _first_seen(key: np.ndarray) -> np.ndarray:
    """The values of ``key`` seen in its first 4,096 rows or in 4,096 rows at a stride
    (the caller checks that no other value occurs), in order of first appearance: a
    value first sampled at row s·step first appears after row (s − 1)·step, and only
    that stretch is searched (names grouped by annotator: each in one long run)."""
    head, step = min(len(key), 1 << 12), max(len(key) >> 12, 1)
    found, where = np.unique(np.concatenate([key[:head], key[::step]]), return_index=True)
    first = where.copy()  # exact where the head holds the value
    for i in np.flatnonzero(where >= head).tolist():
        at = int(where[i] - head) * step  # (never row 0: the head holds it)
        first[i] = at - step + int(np.argmax(key[at - step:at + 1] == found[i]))
    return found[np.argsort(first)]


def _first_positions(codes: np.ndarray, n_codes: int) -> np.ndarray:
    """Where each code first appears, for codes numbered in order of first appearance:
    where their running maximum steps up, read in blocks of 2¹⁶ rows that stay in cache
    (a block without a new code costs its maximum; none is read after the last code's)."""
    found, top, block = [], -1, 1 << 16
    for at in range(0, len(codes), block):
        part = codes[at:at + block]
        if part.max() > top:
            rising = np.maximum.accumulate(part)
            np.maximum(rising, top, out=rising)  # the maximum of the rows before the block
            found.append(at + np.flatnonzero(np.diff(rising, prepend=top)))
            top = int(rising[-1])
            if top == n_codes - 1:
                break
    return np.concatenate(found)
