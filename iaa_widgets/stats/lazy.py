"""Sufficient statistics on the user's engine: DuckDB, Dask, PySpark, polars (eager or
lazy), pandas, Arrow, through narwhals.

A tidy table (item, annotator, label) that may be larger than memory is reduced where
it lives, by long-form group-bys and self-joins on the item (no pivot), to tables whose
size follows the number of categories K, annotators R and ratings per item m (at most
R), never the number of items:

- ``sizes[m]``: the items with m ratings (N_m; m = 0 for an item whose labels are all
  blank);
- ``totals[m, c]`` = Σ_{i: m_i = m} n_ic;
- ``products[m, c, k]`` = Σ_{i: m_i = m} n_ic n_ik (a self-join of the item × category
  counts on the item);
- ``annotator_counts[m, r, c]``: the ratings c of annotator r on items with m ratings;
- ``pair_tables[p, c, k]``: the items annotator a_p put in c and b_p in k (a self-join
  of the ratings on the item), the two-annotator contingency tables, and
  ``complete_pair_tables``, the same over the items every annotator rated (m = R).

Grouping by m is what lets every missing-data policy of the in-memory measures
(``listwise``: m = R; ``pairable``: m ≥ 2; ``available``: m ≥ 1 for the chance terms)
select its items after the fact. From them, each measure's engine totals are sums over
m (e.g. Krippendorff's coincidences o = Σ_{m ≥ 2} (P_m − diag(S_m)) / (m − 1)), and the
measure's own ``finish`` (from its Statistic, see :mod:`.statistic`) makes the value:
the same value as the in-memory path. The measures compute them (``iaa.<measure>(s)``;
each measure's engine totals are registered beside it, measures/_engine.py): this
module only makes the tables and imports no measure. Standard errors need per-item
sums, which do not come back: results carry the value (``observed``, ``expected``) and
say so in ``note``; two-annotator coefficients, computed from their pair table, keep
theirs.

Where the work runs: DuckDB, PySpark and polars run the group-bys and joins as
narwhals expresses them (DuckDB keeps the per-item tables it reads twice in temporary
tables, made once). The ratings themselves are read once (:func:`_read_once`) and kept
on the engine for the later queries, so that a relation that changes on every read
(``random()``, a sample, the current time) gives the tables of one read. Dask would
bring a per-item group-by back as one partition holding every item, so there the
ratings are spilled to disk in buckets by a hash of the item and each bucket is reduced
alone, in memory, by the same ``bincount`` tables as the in-memory path
(:func:`_dask_tables`): peak memory follows the partitions' size, never the number of
items.
"""
from __future__ import annotations

import os
import warnings
from collections.abc import Hashable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Sequence
from uuid import uuid4

import numpy as np
import pandas as pd

from ..data import Annotations
from ..data.categories import _declared_categories, _label_notes, unhashable_labels
from ..errors import AgreementError
from .tables import MAX_CELLS, all_pairs, check_size, item_counts, pair_contingencies

__all__ = ["SufficientStatistics", "sufficient_statistics"]

# ratings per bucket the Dask path reduces at once (with its partitions' size, what
# its peak memory follows)
BUCKET_ROWS = 2_000_000

# the ratings' columns as the queries name them
ROLES = {"i": "the item column", "a": "the annotator column", "l": "the label column"}

# ``door(name)``: the public function ``iaa.<name>``, handed in by the measures' side
# (measures/_registry.py) when it loads, so that the former methods below forward to it
# without stats/ importing measures/ (imports point one way: measures read these tables)
_DOOR: Callable[[str], Callable] | None = None


def open_door(door: Callable[[str], Callable]) -> None:
    """Where the former measure methods of :class:`SufficientStatistics` forward."""
    global _DOOR
    _DOOR = door


def _former(name: str):
    """The former method ``statistics.<name>(...)``: ``iaa.<name>(statistics, ...)``
    with a DeprecationWarning (one more release)."""
    def method(self, *args, **kwargs):
        warnings.warn(f"SufficientStatistics.{name}() is deprecated and will be removed in "
                      f"the next release; call iaa.{name}(statistics, ...): every measure "
                      "with engine totals takes the sufficient statistics as its data",
                      DeprecationWarning, stacklevel=2)
        return _DOOR(name)(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Deprecated: ``iaa.{name}(statistics, ...)``."
    return method


@dataclass(frozen=True, eq=False)
class SufficientStatistics:
    r"""The small tables every categorical measure finishes from, made on the user's engine.

    Made by `sufficient_statistics`; a measure takes them as its data
    (``iaa.gwet_ac1(statistics)``): its engine totals are sums of these tables, which its
    own ``finish`` turns into the value, the same value as on the ratings in memory. Their
    size follows the number of categories K, annotators R and most ratings of an item M,
    never the number of items.

    Parameters
    ----------
    categories : pandas.Index
        The categories, in their order (labels keep their identity).
    annotators : pandas.Index
        The annotators, in their order.
    ordered : bool
        The order of ``categories`` was declared (numbers, an ordered Categorical, an
        ``ENUM``, ``categories=``), so that ordinal metrics may use it.
    sizes : numpy.ndarray, shape (M + 1,)
        ``sizes[m]``: the items with m ratings, $N_m$ (m = 0: an item whose labels are all
        blank).
    totals : numpy.ndarray, shape (M + 1, K)
        $\sum_{i: m_i = m} n_{ic}$, the category counts of the items with m ratings.
    products : numpy.ndarray, shape (M + 1, K, K)
        $\sum_{i: m_i = m} n_{ic} n_{ik}$.
    annotator_counts : numpy.ndarray, shape (M + 1, R, K)
        The ratings c of annotator r on items with m ratings.
    pairs : numpy.ndarray, shape (P, 2), optional
        Annotator codes $a < b$ of each pair (None: made with ``pairs=False``).
    pair_tables : numpy.ndarray, shape (P, K, K), optional
        The contingency table of each pair over the items both rated.
    notes : tuple of str, default ()
        What results computed from them report (blank labels, look-alike labels).
    n_blank : int, default 0
        Rows with a blank label: missing ratings, counted.
    complete_pair_tables : numpy.ndarray, shape (P, K, K), optional
        Each pair's table over the items every annotator rated (m = R).

    Attributes
    ----------
    n_items : int
        Items, $\sum_m N_m$.
    n_annotators : int
        Annotators, R.

    Methods
    -------
    pair_table(annotators, measure, complete=False)
        The K × K table of two annotators (rows: the first), over the items both rated
        (``complete``: every annotator rated).

    See Also
    --------
    iaa_widgets.sufficient_statistics : Makes them.
    iaa_widgets.Annotations : The ratings in memory.

    Notes
    -----
    Grouping by m lets each missing-data policy select its items after the fact
    (``listwise``: m = R; ``pairable``: m ≥ 2; ``available``: m ≥ 1 for the chance terms).
    Krippendorff's coincidences, for instance, are

    $$
    o = \sum_{m \ge 2} \frac{P_m - \operatorname{diag}(S_m)}{m - 1},
    $$

    with $P_m$ = ``products[m]`` and $S_m$ = ``totals[m]``. Standard errors need per-item
    sums, which do not come back: results carry the value and say so in ``note``;
    two-annotator coefficients, computed from their pair table, keep theirs.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": ["A", "B"] * 3,
    ...                    "label": ["yes", "yes", "no", "yes", "no", "no"]})
    >>> s = iaa.sufficient_statistics(df)
    >>> s
    SufficientStatistics(3 items, 2 annotators, 2 categories, 6 ratings)
    >>> s.sizes.tolist()  # three items, each with two ratings
    [0, 0, 3]
    >>> s.pair_table(["A", "B"], "example").tolist()  # rows: A (no, yes), columns: B
    [[1, 1], [0, 1]]
    """

    categories: pd.Index
    annotators: pd.Index
    ordered: bool
    sizes: np.ndarray
    totals: np.ndarray
    products: np.ndarray
    annotator_counts: np.ndarray
    pairs: np.ndarray | None = None
    pair_tables: np.ndarray | None = None
    notes: tuple[str, ...] = ()
    n_blank: int = 0
    complete_pair_tables: np.ndarray | None = None

    @property
    def n_items(self) -> int:
        return int(self.sizes.sum())

    @property
    def n_annotators(self) -> int:
        return len(self.annotators)

    def __repr__(self) -> str:
        m = np.arange(len(self.sizes))
        return (f"SufficientStatistics({self.n_items} items, {self.n_annotators} annotators, "
                f"{len(self.categories)} categories, {int(m @ self.sizes)} ratings)")

    # the former measure methods, one more release (issue 29: one door to the engines)
    krippendorff_alpha = _former("krippendorff_alpha")
    percent_agreement = _former("percent_agreement")
    bennett_s = _former("bennett_s")
    fleiss_kappa = _former("fleiss_kappa")
    davies_fleiss_kappa = _former("davies_fleiss_kappa")
    specific_agreement = _former("specific_agreement")
    sparse_agreement = _former("sparse_agreement")
    sparse_kappa = _former("sparse_kappa")
    cohen_kappa = _former("cohen_kappa")
    scott_pi = _former("scott_pi")
    pairwise = _former("pairwise")

    # ---------------------------------------------------- the tables as Annotations
    def counted(self, pairs: np.ndarray, tables: np.ndarray, names) -> Annotations:
        """Pair tables as Annotations kept as counts: one item row per non-zero cell
        (p, c, k), rated c by annotator ``pairs[p, 0]`` and k by ``pairs[p, 1]``, standing
        for ``tables[p, c, k]`` items (as :meth:`Annotations.from_contingency`, with the
        data's categories and their order)."""
        p, c, k = np.nonzero(tables)
        n = len(p)
        return Annotations(np.tile(np.arange(n), 2), np.concatenate([pairs[p, 0], pairs[p, 1]]),
                           np.concatenate([c, k]).astype(np.int64), np.ones(2 * n, np.int8),
                           pd.RangeIndex(n, name="item"), pd.Index(names, name="annotator"),
                           self.categories, ordered=self.ordered,
                           item_weight=tables[p, c, k].astype(np.int64))

    def stand_in(self) -> Annotations:
        """One item rated by every annotator (category 0), with the data's categories,
        their order and its annotators: what a measure's Statistic needs to build its
        ``finish``, which reads only these (weights, K, R, the positive category)."""
        r = self.n_annotators
        return Annotations(np.zeros(r, np.int64), np.arange(r), np.zeros(r, np.int64),
                           np.ones(r, np.int8), pd.RangeIndex(1, name="item"),
                           pd.Index(self.annotators, name="annotator"), self.categories,
                           ordered=self.ordered)

    def pair_table(self, annotators, measure: str, complete: bool = False) -> np.ndarray:
        """The K × K table of the two ``annotators`` (names; rows: the first), over the
        items both rated (``complete``: the items every annotator rated)."""
        tables = self.complete_pair_tables if complete else self.pair_tables
        if tables is None:
            raise AgreementError(f"{measure}: these statistics were made without pair "
                                 "tables; call sufficient_statistics(..., pairs=True)")
        names = list(annotators)
        a, b = self.annotators.get_indexer(names) if len(names) == 2 else (-1, -1)
        if a < 0 or b < 0 or a == b:
            raise AgreementError(f"{measure}: annotators must name two different annotators "
                                 f"of {list(self.annotators)!r}, got {names!r}")
        p = np.flatnonzero((self.pairs[:, 0] == min(a, b)) & (self.pairs[:, 1] == max(a, b)))
        return tables[p[0]] if a < b else tables[p[0]].T


def sufficient_statistics(frame, *, item: str = "item", annotator: str = "annotator",
                          label: str = "label", categories: Sequence | None = None,
                          annotators: Sequence | None = None,
                          pairs: bool = True) -> SufficientStatistics:
    r"""The sufficient statistics of a tidy table, computed by the frame's own engine.

    A DuckDB relation, a Dask or PySpark DataFrame, a polars LazyFrame or DataFrame, pandas
    or pyarrow is reduced where it lives, through narwhals, by long-form group-bys and
    self-joins on the item (no pivot): only tables of size about $R K M$ and $R^2 K^2$ come
    back, never one row per item. Every categorical measure then takes them as its data.

    Parameters
    ----------
    frame : DataFrame-like
        A tidy table, one row per rating, of any engine narwhals reads.
    item, annotator, label : str, default "item", "annotator", "label"
        The column names.
    categories : sequence, optional
        The declared categories and their order (labels outside them are refused). By
        default, those of the label column's type when it declares them in order (an
        ordered pandas Categorical, a polars ``Enum``, a DuckDB ``ENUM``), else the sorted
        distinct labels, ordered when they are numbers, as `Annotations.from_long`.
    annotators : sequence, optional
        Keep only these annotators' ratings, in this order. None: every annotator, sorted.
    pairs : bool, default True
        Also make the annotator-pair contingency tables (Cohen, Scott, pairwise), a
        self-join of the ratings on the item.

    Returns
    -------
    SufficientStatistics
        ``sizes``, ``totals``, ``products``, ``annotator_counts`` and, with ``pairs``,
        ``pair_tables`` and ``complete_pair_tables``; ``n_blank`` and ``notes``.

    Raises
    ------
    AgreementError
        When ``frame`` is not a dataframe narwhals reads, or a named column is missing;
        when an item or annotator is null, the table is empty, holds one annotator or
        no label; when an annotator rates an item twice; when a label is not among
        ``categories``; when the tables would exceed the memory cap.

    See Also
    --------
    iaa_widgets.SufficientStatistics : The result type.
    iaa_widgets.as_annotations : Loads the ratings into memory instead.
    iaa_widgets.fleiss_kappa : A measure that takes these tables as data.

    Notes
    -----
    With $n_{ic}$ the ratings of item i in category c and $m_i$ its ratings,

    $$
    N_m = |\{i : m_i = m\}|, \quad S_m = \sum_{i: m_i = m} n_{ic}, \quad
    P_m = \sum_{i: m_i = m} n_{ic} n_{ik}.
    $$

    A label that is null, NaN, '' or whitespace only is a missing rating (counted in
    ``n_blank``; its item stays known). DuckDB's ``ENUM`` is an ordered type, and DuckDB
    reads any pandas Categorical as one, unordered ones too: cast such a column to
    ``VARCHAR`` to declare no order. On Dask the ratings are spilled, coded, to a temporary
    parquet dataset in Dask's ``temporary-directory`` (a few bytes per rating) and reduced
    bucket by bucket: peak memory follows the partitions' size times the threads, not the
    number of items.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": ["A", "B"] * 3,
    ...                    "label": ["yes", "yes", "no", "yes", "no", "no"]})
    >>> s = iaa.sufficient_statistics(df)
    >>> # the same value as in memory: Cohen (1960) eq. 1, p_o = 2/3, p_e = 4/9
    >>> round(iaa.cohen_kappa(s).value, 4), round(iaa.cohen_kappa(df).value, 4)
    (0.4, 0.4)
    >>> s.totals[2].tolist()  # S_2: the category counts of the items with two ratings
    [3.0, 3.0]
    """
    import narwhals as nw
    from ..data.frames import _narwhals_frame
    native = _narwhals_frame(frame)
    if native is None:
        raise AgreementError(f"sufficient_statistics takes a dataframe (DuckDB, Dask, "
                             f"PySpark, polars, pandas, Arrow), got {type(frame).__name__}")
    lf = native.lazy() if isinstance(native, nw.DataFrame) else native
    missing = [c for c in (item, annotator, label) if c not in lf.columns]
    if missing:
        raise AgreementError(f"column(s) {missing!r} not found; the table has columns "
                             f"{list(lf.columns)!r} (name them with item=, annotator=, "
                             "label=)")
    rows = lf.select(nw.col(item).alias("i"), nw.col(annotator).alias("a"),
                     nw.col(label).alias("l"))
    if annotators is not None:
        annotators = list(annotators)
        rows = rows.filter(nw.col("a").is_in(annotators))
    with _read_once(rows, eager=isinstance(native, nw.DataFrame)) as rows:
        return _statistics(rows, (item, annotator, label), categories, annotators, pairs)


def _statistics(rows, columns, categories, annotators, pairs: bool) -> SufficientStatistics:
    """:func:`sufficient_statistics` of the ratings ``rows`` (columns i, a, l, named
    ``columns`` in the user's table), which read alike however often they are read
    (:func:`_read_once`)."""
    import narwhals as nw
    item, annotator, label = columns
    dtype = rows.collect_schema()["l"]
    blank = _blank(dtype)
    if categories is None and isinstance(dtype, nw.Enum):  # an ordered pandas Categorical,
        # a polars Enum or a DuckDB ENUM: its categories in their declared order
        categories = pd.CategoricalDtype(list(dtype.categories), ordered=True)
    dask = rows.implementation is nw.Implementation.DASK
    # Dask counts its items in the per-item pass (a distinct count here would come
    # back as one partition holding every item id)
    items = [] if dask else [nw.col("i").n_unique().alias("items")]
    head = _collect(rows.select(  # booleans summed as integers (Spark adds no booleans)
        *items, nw.len().alias("rows"),
        nw.col("i").is_null().cast(nw.Int64).sum().alias("null_items"),
        nw.col("a").is_null().cast(nw.Int64).sum().alias("null_annotators"),
        blank.cast(nw.Int64).sum().alias("blank"))).iloc[0]
    for col, what in ((item, "null_items"), (annotator, "null_annotators")):
        if head[what]:
            raise AgreementError(f"column {col!r} is missing (null) in {int(head[what])} "
                                 "row(s); every rating needs its item and annotator")
    if head["rows"] == 0:
        raise AgreementError("the table is empty: at least two annotators must rate an item")
    names = _collect(rows.select(nw.col("a")).unique())["a"]
    names = pd.Index(annotators if annotators is not None else np.sort(names.to_numpy()),
                     name=annotator)
    if len(names) < 2:
        raise AgreementError(f"only one annotator ({names[0]!r}); agreement needs at least two")

    rated = rows.filter(~blank)
    uniques = _collect(rated.select(nw.col("l")).unique())["l"].to_numpy(dtype=object)
    if len(uniques) == 0:
        raise AgreementError(f"column {label!r} holds no label: all are missing")
    cats, ordered = _declared_categories(pd.Series(uniques, dtype=object), categories,
                                         uniques)
    unhashable = [u for u in uniques if not isinstance(u, Hashable)]
    if unhashable:  # the engines group by the labels
        raise unhashable_labels(label, unhashable)
    outside = uniques[cats.get_indexer(uniques) < 0]
    if len(outside):
        raise AgreementError(f"column {label!r} holds label(s) {outside[:5].tolist()!r} "
                             f"outside the declared categories {list(cats)!r}")
    _check_tables(len(names), len(cats), pairs, label)
    if dask:
        n_items, twice, raters, products, pair_tables = _dask_tables(
            rows.with_columns(blank.alias("b")), names, cats, pairs, int(head["rows"]))
    else:
        n_items, twice = int(head["items"]), _twice(rated)
    if twice:
        raise AgreementError(f"{int(twice)} (item, annotator) pair(s) rated more than once; "
                             "keep one rating per pair")
    if not dask:
        raters, products, pair_tables = _grouped_tables(rated, names, cats, pairs)
    m = np.arange(len(raters))
    totals = raters.sum(axis=1)  # S_mc = Σ_r n_mrc = Σ_{i: m_i = m} n_ic
    top = int(m[totals.any(axis=1)].max())  # the most ratings an item has
    raters, totals, products = raters[:top + 1], totals[:top + 1], products[:top + 1]
    sizes = np.zeros(top + 1, np.int64)  # N_m = Σ_c S_mc / m
    sizes[1:] = np.rint(totals[1:].sum(axis=1) / np.arange(1, top + 1))
    sizes[0] = n_items - sizes[1:].sum()  # items whose labels are all blank
    pair_codes = all_pairs(len(names)) if pairs else None
    notes = _label_notes(cats, f"column {label!r}", int(head["blank"]), [])
    # pair_tables: [0] over the items both rated, [1] over the items every annotator rated
    both, complete = (None, None) if pair_tables is None else pair_tables
    return SufficientStatistics(cats, names, ordered, sizes, totals, products, raters,
                                pair_codes, both, notes, int(head["blank"]), complete)


def _check_tables(r: int, k: int, pairs: bool, label: str) -> None:
    """Refuse, before any query, tables whose K² layers (``products``: R + 1, pair tables:
    2 per annotator pair) pass ``MAX_CELLS`` together, saying what to do instead: many
    distinct numeric labels are scores, whose measures need no K × K table in memory."""
    layers = r + 1 + (2 * len(all_pairs(r)) if pairs else 0)
    advice = (f"column {label!r} holds {k:,} distinct labels. Many labels or numeric "
              "scores need no K × K table in memory: collect the ratings and call "
              "krippendorff_alpha (any metric but a distance matrix) or icc on them "
              "(per-item counts and moments); or merge rare categories, or declare fewer "
              "with categories=")
    if pairs and (r + 1) * k * k <= MAX_CELLS:
        advice += "; or pass pairs=False (no annotator-pair tables)"
    check_size((layers, k, k), "sufficient statistics' products and pair tables", advice)


@contextmanager
def _read_once(rows, eager: bool):
    """``rows`` as a frame that gives the same ratings however often it is read. The
    statistics read the ratings several times (counts, labels, per-item tables, pair
    tables); a query with ``random()``, a sample or the current time would give other
    rows on each read, and tables made from different rows (negative item counts, a
    value unrelated to the data). So the ratings are read once, where they live, and
    kept there for the later reads (removed on exit): DuckDB's into a temporary table
    of the relation's connection (spilled to disk beyond its memory limit), a polars
    LazyFrame's streamed to a temporary parquet file, Dask's partitions written one
    file each to its ``temporary-directory``, Spark's checkpointed on its executors
    (``localCheckpoint``: lost blocks fail the job rather than being recomputed).
    Frames in memory (pandas, Arrow, polars DataFrame) read alike already."""
    import narwhals as nw
    impl = rows.implementation
    if eager:
        yield rows
    elif impl is nw.Implementation.DUCKDB:
        with _kept() as keep:
            yield keep(rows)
    elif impl is nw.Implementation.POLARS:
        import tempfile

        import polars as pl
        with tempfile.TemporaryDirectory(prefix="iaa-ratings-") as spill:
            path = os.path.join(spill, "ratings.parquet")
            lazy = nw.to_native(rows)
            try:
                lazy.sink_parquet(path)
                once = pl.scan_parquet(path)
            except pl.exceptions.PolarsError:  # a column parquet cannot hold (Object)
                once = lazy.collect().lazy()
            yield nw.from_native(once)
    elif impl is nw.Implementation.DASK:
        yield from _dask_once(nw.to_native(rows))
    elif impl in (nw.Implementation.PYSPARK, nw.Implementation.PYSPARK_CONNECT):
        yield nw.from_native(nw.to_native(rows).localCheckpoint(eager=True))
    else:  # an engine narwhals may add: refused rather than read twice
        raise AgreementError(f"sufficient_statistics cannot read a {impl} frame once; "
                             "pass DuckDB, Dask, PySpark, polars, pandas or Arrow data")


def _dask_once(frame):
    """Dask's ratings, every partition computed once (in one run of the graph) and
    written as a pickle to a temporary directory in Dask's ``temporary-directory``
    (any label a partition holds, mixed types too), then read back partition by
    partition: memory follows the partitions, never the data."""
    import tempfile

    import dask
    import dask.dataframe as dd
    import narwhals as nw
    parts = frame.to_delayed()
    with tempfile.TemporaryDirectory(prefix="iaa-ratings-",
                                     dir=dask.config.get("temporary-directory", None)) as spill:
        paths = [os.path.join(spill, f"part-{n}.pkl") for n in range(len(parts))]
        dask.compute(*(dask.delayed(_pickled)(part, path) for part, path in zip(parts, paths)))
        yield nw.from_native(dd.from_delayed([dask.delayed(_unpickled)(path) for path in paths],
                                             meta=frame._meta, verify_meta=False))


def _pickled(part: pd.DataFrame, path: str) -> None:
    part.to_pickle(path)


def _unpickled(path: str) -> pd.DataFrame:
    if not os.path.exists(path):
        raise AgreementError(f"Dask wrote the ratings to {path} but this worker cannot read "
                             "it: set dask's temporary-directory to one the workers share")
    return pd.read_pickle(path)


def _twice(rated) -> int:
    """How many (item, annotator) pairs have more than one rating."""
    import narwhals as nw
    return int(_collect(rated.group_by("i", "a").agg(nw.len().alias("n"))
                        .filter(nw.col("n") > 1).select(nw.len().alias("pairs")))["pairs"][0])


def _grouped_tables(rated, names: pd.Index, cats: pd.Index, pairs: bool):
    """``annotator_counts`` and ``products`` (R+1 × R × K, R+1 × K × K) and, with
    ``pairs``, the pair tables (:func:`_pair_tables`) as narwhals group-bys and
    self-joins on the item, run by the frame's engine. The item × label counts n_ic and
    the items' numbers of ratings m_i are each used twice or more: on DuckDB they are
    made once, as temporary tables (:func:`_kept`), rather than recomputed from the
    ratings by every query that reads them."""
    import narwhals as nw
    with _kept() as keep:
        by_label = keep(rated.group_by("i", "l").agg(nw.len().alias("n")))  # n_ic
        per_item = keep(by_label.group_by("i").agg(nw.col("n").sum().alias("m")))  # m_i
        with_m = rated.join(per_item, on="i")
        raters_t = _collect(with_m.group_by("m", "a", "l").agg(nw.len().alias("n")))
        tables = _pair_tables(with_m, names, cats) if pairs else None
        counts = by_label.join(per_item, on="i")
        other = by_label.select(nw.col("i"), nw.col("l").alias("l2"), nw.col("n").alias("n2"))
        products_t = _collect(counts.join(other, on="i")  # Σ_i n_ic n_ik by m, c, k
                              .with_columns((nw.col("n") * nw.col("n2")).alias("nn"))
                              .group_by("m", "l", "l2").agg(nw.col("nn").sum()))
    k, r = len(cats), len(names)
    products = np.zeros((r + 1, k, k))
    np.add.at(products, (products_t["m"].to_numpy(int), _codes(cats, products_t["l"]),
                         _codes(cats, products_t["l2"])), products_t["nn"].to_numpy(float))
    raters = np.zeros((r + 1, r, k))
    np.add.at(raters, (raters_t["m"].to_numpy(int), _codes(names, raters_t["a"]),
                       _codes(cats, raters_t["l"])), raters_t["n"].to_numpy(float))
    return raters, products, tables


@contextmanager
def _kept():
    """``keep(lazy)``: on DuckDB, ``lazy`` computed once into a temporary table of its
    connection (dropped on exit; DuckDB spills it to disk beyond its memory limit) and
    read from there; other engines' frames as they are (polars plans shared subqueries
    once itself)."""
    import narwhals as nw
    made = []

    def keep(lazy):
        if lazy.implementation is not nw.Implementation.DUCKDB:
            return lazy
        rel, name = nw.to_native(lazy), f"iaa_kept_{uuid4().hex}"
        rel.query("kept", f'CREATE TEMPORARY TABLE "{name}" AS SELECT * FROM kept')
        made.append((rel, name))
        return nw.from_native(rel.query("kept", f'SELECT * FROM "{name}"'))
    try:
        yield keep
    finally:
        for rel, name in reversed(made):  # a later table's query reads the earlier ones
            rel.query("kept", f'DROP TABLE IF EXISTS "{name}"')


def _dask_tables(rows, names: pd.Index, cats: pd.Index, pairs: bool, n_rows: int):
    """The tables on Dask, partitioned until they are small. Each partition's ratings
    (with their blank flag ``b``) are coded against ``names`` and ``cats`` and written
    by Dask to a temporary parquet dataset split by a hash of the item into buckets of
    about ``BUCKET_ROWS`` ratings (every rating of an item then lies in one bucket; the
    spill costs a few bytes per rating on disk, as Dask's own disk shuffle, without its
    in-memory buffer); each bucket is then read alone and reduced to its small tables
    (:func:`_partition_tables`), which add up. Peak memory follows the partitions and
    the buckets, never the number of items. The directory is made in Dask's
    ``temporary-directory`` (set it to one the workers share on a cluster of several
    machines; ratings not read back are refused, never dropped). Returns (items,
    (item, annotator) pairs rated twice, annotator counts, products, pair tables or
    None)."""
    import tempfile

    import dask
    import narwhals as nw
    frame = nw.to_native(rows)
    buckets = max(1, -(-n_rows // BUCKET_ROWS))
    coded = frame.map_partitions(_coded, names, cats, buckets,
                                 meta=_coded(frame._meta, names, cats, buckets))
    with tempfile.TemporaryDirectory(prefix="iaa-sufficient-",
                                     dir=dask.config.get("temporary-directory", None)) as spill:
        coded.to_parquet(spill, partition_on=["bucket"], write_index=False)
        read, parts = zip(*dask.compute(*(dask.delayed(_bucket_tables)(
            os.path.join(spill, f"bucket={b}"), len(names), len(cats), pairs)
            for b in range(buckets))))
    if sum(read) != n_rows:
        raise AgreementError(f"Dask wrote {n_rows} ratings to {spill} but {sum(read)} were "
                             "read back: its workers must share that directory (set dask's "
                             "temporary-directory to one they share)")
    items, twice, raters, products, tables = zip(*parts)
    if sum(twice):
        return sum(items), sum(twice), None, None, None
    return sum(items), 0, sum(raters), sum(products), sum(tables) if pairs else None


def _coded(part: pd.DataFrame, names: pd.Index, cats: pd.Index, buckets: int) -> pd.DataFrame:
    """A partition's ratings as (item, annotator code, category code; -1 if blank) and
    the bucket of their item (a hash of its id: the same in every partition)."""
    small = np.int16 if max(len(names), len(cats)) < 2 ** 15 else np.int32
    label = np.where(part["b"].to_numpy(bool), -1, cats.get_indexer(part["l"]))
    bucket = pd.util.hash_pandas_object(part["i"], index=False).to_numpy() % buckets
    return pd.DataFrame({"i": part["i"], "a": names.get_indexer(part["a"]).astype(small),
                         "l": label.astype(small), "bucket": bucket.astype(np.int32)},
                        index=part.index)


def _bucket_tables(path: str, r: int, k: int, pairs: bool):
    """The number of ratings spilled to one bucket and their
    :func:`_partition_tables` (zeros if the bucket is empty)."""
    if not os.path.exists(path):
        return 0, (0, 0, 0.0, 0.0, 0 if pairs else None)
    part = pd.read_parquet(path, columns=["i", "a", "l"])
    return len(part), _partition_tables(part, r, k, pairs)


def _partition_tables(part: pd.DataFrame, r: int, k: int, pairs: bool):
    """The small tables of one partition holding every rating of its items (coded by
    :func:`_coded`): its number of items (those whose labels are all blank too), of
    (item, annotator) pairs rated twice, annotator counts (R+1 × R × K) and products
    (R+1 × K × K) by number of ratings m, pair tables (2 × P × K × K: over the items
    both annotators rated, over those every annotator rated) if ``pairs``."""
    item, distinct = pd.factorize(part["i"])
    n = len(distinct)
    rated = part["l"].to_numpy() >= 0
    item = item[rated]
    a, label = (part[c].to_numpy()[rated].astype(np.int64) for c in ("a", "l"))
    key = np.sort(item * r + a)
    twice = len(np.unique(key[1:][key[1:] == key[:-1]]))
    if twice:  # m_i may exceed R: no table (the caller refuses the data)
        return n, twice, 0, 0, None
    ann = Annotations(item, a, label, np.ones(len(item), np.int8), pd.RangeIndex(n),
                      pd.RangeIndex(r), pd.RangeIndex(k))
    x = item_counts(ann)  # n_ic
    m = x.sum(axis=1)
    raters = np.bincount((m[item] * r + a) * k + label, minlength=(r + 1) * r * k)
    order = np.argsort(m, kind="stable")
    x = x[order].astype(float)  # items by number of ratings (exact: integers < 2**53)
    bounds = np.searchsorted(m[order], np.arange(r + 2))
    products = np.stack([x[lo:hi].T @ x[lo:hi]  # Σ_{i: m_i = m} n_ic n_ik, one m ≤ R each
                         for lo, hi in zip(bounds[:-1], bounds[1:])])
    tables = np.stack([pair_contingencies(ann), pair_contingencies(ann, items=m == r)]) \
        if pairs else None
    return n, twice, raters.reshape(r + 1, r, k).astype(float), products, tables


def _pair_tables(rated, names: pd.Index, cats: pd.Index) -> np.ndarray:
    """The K × K table of every annotator pair a < b (codes, in the order of
    ``all_pairs``), [0] over the items both rated and [1] over the items every
    annotator rated (m_i = R, Light's κ): a self-join of the ratings (with their item's
    number of ratings ``m``) on the item, grouped by the two annotators, their labels
    and whether the item is complete."""
    import narwhals as nw
    r, k = len(names), len(cats)
    full = rated.with_columns((nw.col("m") == r).cast(nw.Int64).alias("f"))
    other = rated.select(nw.col("i"), nw.col("a").alias("a2"), nw.col("l").alias("l2"))
    t = _collect(full.join(other, on="i").filter(nw.col("a") != nw.col("a2"))
                 .group_by("a", "a2", "l", "l2", "f").agg(nw.len().alias("n")))
    a, b = _codes(names, t["a"]), _codes(names, t["a2"])
    first = a < b  # each unordered pair once, the lower code first
    pairs = all_pairs(r)
    index = np.full((r, r), -1)
    index[pairs[:, 0], pairs[:, 1]] = np.arange(len(pairs))
    at = (index[a[first], b[first]], _codes(cats, t["l"])[first],
          _codes(cats, t["l2"])[first])
    n = t["n"].to_numpy(np.int64)[first]
    tables = np.zeros((2, len(pairs), k, k), np.int64)
    np.add.at(tables[0], at, n)
    np.add.at(tables[1], at, n * t["f"].to_numpy(np.int64)[first])
    return tables


def _blank(dtype):
    """The expression of a missing label: null, NaN (floats), '' or whitespace (text)."""
    import narwhals as nw
    col = nw.col("l")
    if dtype.is_float():
        return col.is_null() | col.is_nan()
    if dtype == nw.String:
        return col.is_null() | (col.str.strip_chars() == "")
    return col.is_null()


def _collect(lazy) -> pd.DataFrame:
    """A small aggregate, run on its engine, as pandas (a column type pandas cannot
    hold, e.g. DuckDB's UNION, refused by name)."""
    from ..data.frames import unreadable_columns
    frame = lazy.collect()
    try:
        return frame.to_pandas()
    except (NotImplementedError, TypeError, ValueError) as e:  # pyarrow's
        raise unreadable_columns(frame.to_arrow().schema, e, ROLES) from None


def _codes(index: pd.Index, values: pd.Series) -> np.ndarray:
    """Positions of ``values`` in ``index`` (the labels of a small aggregate)."""
    return index.get_indexer(pd.Index(values.to_numpy(dtype=object)))
