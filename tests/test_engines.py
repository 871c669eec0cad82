"""Sufficient statistics on the user's engine (iaa_widgets.stats.lazy): DuckDB, Dask,
polars lazy, pandas and Arrow in the ordinary run, PySpark in local mode (needs Java;
skipped with a reason when it is missing, except under CI=true). One door: every
measure with engine totals takes the statistics as its data, ``iaa.gwet_ac1(stats)``;
the former methods (``stats.fleiss_kappa()``) forward to it with a DeprecationWarning.

Expected values: the in-memory path of this package on the same table (krippendorff_alpha,
fleiss_kappa, … themselves checked against the krippendorff package, irrCAC and
statsmodels in test_alpha.py and test_classic_peers.py), to 1e-12, with the counts of
items, ratings and exclusions equal; α nominal also against the krippendorff package
directly (its reliability_data matrix built here by hand).
"""
from __future__ import annotations

import os
import shutil
import warnings

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.errors import AgreementError
from iaa_widgets.stats.lazy import sufficient_statistics

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")
dd = pytest.importorskip("dask.dataframe")
pa = pytest.importorskip("pyarrow")

TOL = 1e-12
# narwhals 2.x announces that Dask support moves to a plugin (not on PyPI yet)
pytestmark = pytest.mark.filterwarnings("ignore:Dask support is moving:FutureWarning")


def ratings(seed: int, n_items: int = 200, raters=("ann", "bob", "cy", "dee"),
            labels=("alpha", "beta", "gamma", "delta"), missing: float = 0.25) -> pd.DataFrame:
    """A tidy table with string ids, missing ratings (absent rows) and blank labels
    (None, '' and whitespace: missing ratings whose item stays known)."""
    rng = np.random.default_rng(seed)
    r, k = len(raters), len(labels)
    truth = rng.integers(0, k, n_items)
    x = np.where(rng.random((n_items, r)) < 0.6, truth[:, None], rng.integers(0, k, (n_items, r)))
    i, j = np.nonzero(rng.random((n_items, r)) >= missing)
    label = np.array(labels, dtype=object)[x[i, j]]
    blank = rng.random(len(i))
    label[blank < 0.03] = None
    if isinstance(labels[0], str):
        label[(blank >= 0.03) & (blank < 0.04)] = " "
    return pd.DataFrame({"item": [f"doc-{v:04d}" for v in i],
                         "annotator": np.array(raters, dtype=object)[j], "label": label})


def numeric(seed: int) -> pd.DataFrame:
    """Ratings 1 … 5 (numbers: ordered categories) with NaN as missing labels."""
    df = ratings(seed, labels=(1.0, 2.0, 3.0, 4.0, 5.0))
    df["label"] = df["label"].astype(float)
    return df


ENGINES = {
    "pandas": lambda df: df,
    "arrow": lambda df: pa.Table.from_pandas(df, preserve_index=False),
    "polars": lambda df: pl.from_pandas(df),
    "polars-lazy": lambda df: pl.from_pandas(df).lazy(),
    "duckdb": lambda df: duckdb.from_df(df),
    "dask": lambda df: dd.from_pandas(df, npartitions=3),
}


def same(lazy, memory):
    """Equal values (1e-12, relative for D_o and D_e, which the ordinal metric puts in
    the ten thousands), equal counts and the same measure and scale of an engine result
    and the in-memory one."""
    for field in ("value", "observed", "expected"):
        a, b = getattr(lazy, field), getattr(memory, field)
        assert (np.isnan(a) and np.isnan(b)) or abs(a - b) <= TOL * max(1.0, abs(b)), \
            (field, a, b)
    assert (lazy.n_items, lazy.n_ratings, lazy.n_annotators) == \
        (memory.n_items, memory.n_ratings, memory.n_annotators)
    assert dict(lazy.excluded) == dict(memory.excluded)
    assert (lazy.measure, lazy.scale) == (memory.measure, memory.scale)


CLASSIC = [("percent_agreement", {}), ("percent_agreement", {"missing": "pairable"}),
           ("bennett_s", {}), ("bennett_s", {"missing": "available"}),
           ("fleiss_kappa", {}), ("fleiss_kappa", {"missing": "available"}),
           ("fleiss_kappa", {"missing": "pairable"}),
           ("davies_fleiss_kappa", {}), ("davies_fleiss_kappa", {"missing": "available"}),
           ("davies_fleiss_kappa", {"missing": "pairable"}),
           ("specific_agreement", {"positive": "beta"}),
           ("specific_agreement", {"positive": "delta", "missing": "available"})]


@pytest.fixture(scope="module", params=list(ENGINES))
def engine(request):
    return request.param


@pytest.fixture(scope="module")
def text_case(engine):
    df = ratings(0)
    return df, sufficient_statistics(ENGINES[engine](df))


@pytest.fixture(scope="module")
def number_case(engine):
    df = numeric(1)
    return df, sufficient_statistics(ENGINES[engine](df))


@pytest.mark.parametrize("measure,kwargs", CLASSIC)
def test_classic_equals_in_memory(text_case, measure, kwargs):
    df, stats = text_case
    same(getattr(iaa, measure)(stats, **kwargs), getattr(iaa, measure)(df, **kwargs))


@pytest.mark.parametrize("metric", ["nominal", "ordinal", "interval", "ratio",
                                    lambda a, b: abs(a - b) ** 0.5])
def test_alpha_every_metric(number_case, metric):
    df, stats = number_case
    same(iaa.krippendorff_alpha(stats, metric), iaa.krippendorff_alpha(df, metric=metric))


def test_alpha_text_labels(text_case):
    df, stats = text_case
    same(iaa.krippendorff_alpha(stats), iaa.krippendorff_alpha(df))


def test_alpha_nominal_against_the_krippendorff_package(text_case):
    kd = pytest.importorskip("krippendorff")
    df, stats = text_case
    kept = df[df["label"].notna() & (df["label"].astype(str).str.strip() != "")]
    grid = kept.pivot(index="annotator", columns="item", values="label")
    codes = {v: i for i, v in enumerate(sorted(kept["label"].unique()))}
    matrix = grid.apply(lambda col: col.map(codes)).to_numpy(dtype=float)
    expected = kd.alpha(reliability_data=matrix, level_of_measurement="nominal")
    assert abs(iaa.krippendorff_alpha(stats).value - expected) <= TOL


@pytest.mark.parametrize("scheme", ["flat", "annotations", "annotations_m1", "edges",
                                    "inv_var", "inv_var_class"])
def test_sparse_agreement(text_case, scheme):
    df, stats = text_case
    same(iaa.sparse_agreement(stats, scheme), iaa.sparse_agreement(df, scheme))
    same(iaa.sparse_kappa(stats, scheme), iaa.sparse_kappa(df, scheme))


def test_sparse_agreement_given_class_probs(text_case):
    df, stats = text_case
    probs = {"alpha": 0.4, "beta": 0.3, "gamma": 0.2, "delta": 0.1}
    same(iaa.sparse_agreement(stats, "inv_var_class", probs),
         iaa.sparse_agreement(df, "inv_var_class", probs))
    with pytest.raises(AgreementError, match="per-item weights"):
        iaa.sparse_agreement(stats, np.ones(5))


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_weighted_multi_rater(number_case, weights):
    df, stats = number_case
    for measure in ("fleiss_kappa", "bennett_s", "davies_fleiss_kappa"):
        same(getattr(iaa, measure)(stats, weights=weights, missing="available"),
             getattr(iaa, measure)(df, weights=weights, missing="available"))


@pytest.mark.parametrize("pair", [("ann", "cy"), ("dee", "bob")])
def test_two_annotators(text_case, pair):
    df, stats = text_case
    for measure in ("cohen_kappa", "scott_pi"):
        lazy = getattr(iaa, measure)(stats, annotators=pair)
        memory = getattr(iaa, measure)(df, annotators=pair)
        same(lazy, memory)
        assert abs(lazy.se - memory.se) <= TOL  # needs only the pair's table


# the measures the engines gained with the one door (issue 29): Gwet's AC1/AC2, Conger's,
# Hubert's and Light's κ, under every missing-data policy they take
MORE = [("gwet_ac1", {}), ("gwet_ac1", {"missing": "listwise"}),
        ("gwet_ac1", {"missing": "pairable"}), ("gwet_ac2", {"weights": "identity"}),
        ("davies_fleiss_kappa", {"missing": "listwise"}), ("conger_kappa", {}),
        ("hubert_kappa", {}), ("light_kappa", {}), ("percent_agreement", {"missing": "available"}),
        ("specific_agreement", {"positive": "gamma", "missing": "pairable"})]


@pytest.mark.parametrize("measure,kwargs", MORE)
def test_more_measures_equal_in_memory(text_case, measure, kwargs):
    df, stats = text_case
    lazy = getattr(iaa, measure)(stats, **kwargs)
    same(lazy, getattr(iaa, measure)(df, **kwargs))
    assert "value only" in lazy.note and lazy.se is None  # the SE needs per-item sums


# weights on ordered numeric ratings: AC2's families, weighted Light, Conger and κ_max
WEIGHTED = [("gwet_ac2", {}), ("gwet_ac2", {"weights": "linear", "missing": "listwise"}),
            ("gwet_ac2", {"weights": "ordinal", "missing": "pairable"}),
            ("light_kappa", {"weights": "quadratic"}),
            ("davies_fleiss_kappa", {"weights": "linear", "missing": "pairable"}),
            ("kappa_max", {"annotators": ("cy", "dee"), "weights": "linear"}),
            ("kappa_max", {"annotators": ("dee", "ann")})]


@pytest.mark.parametrize("measure,kwargs", WEIGHTED)
def test_weighted_measures_equal_in_memory(number_case, measure, kwargs):
    df, stats = number_case
    same(getattr(iaa, measure)(stats, **kwargs), getattr(iaa, measure)(df, **kwargs))


def test_maxwell_on_binary_ratings(engine):
    df = ratings(15, labels=("no", "yes"))
    stats = sufficient_statistics(ENGINES[engine](df))
    lazy = iaa.maxwell_re(stats, annotators=("bob", "dee"))
    same(lazy, iaa.maxwell_re(df, annotators=("bob", "dee")))
    assert dict(lazy.excluded)  # the items the pair did not share, counted


def test_former_methods_warn_and_forward(text_case):
    """The former methods work one more release, each with a DeprecationWarning naming
    the new spelling, and give what the measure gives."""
    df, stats = text_case
    calls = [("krippendorff_alpha", ("nominal",), {}), ("percent_agreement", (), {}),
             ("bennett_s", (), {"missing": "available"}), ("fleiss_kappa", (), {}),
             ("davies_fleiss_kappa", (), {}), ("specific_agreement", (), {"positive": "beta"}),
             ("sparse_agreement", ("edges",), {}), ("sparse_kappa", (), {}),
             ("cohen_kappa", (), {"annotators": ("ann", "bob")}),
             ("scott_pi", (), {"annotators": ("cy", "bob")})]
    for name, args, kwargs in calls:
        with pytest.warns(DeprecationWarning, match=rf"iaa\.{name}\(statistics"):
            former = getattr(stats, name)(*args, **kwargs)
        same(former, getattr(iaa, name)(stats, *args, **kwargs))
    with pytest.warns(DeprecationWarning, match=r"iaa\.pairwise\(statistics"):
        former = stats.pairwise("scott_pi")
    assert former.equals(iaa.pairwise(stats, "scott_pi"))


def test_measures_without_engine_totals_are_refused_by_name(text_case):
    """A measure whose terms are not sums of the engine's tables says so and names the
    ones that take sufficient statistics; which measures those are is the registry's."""
    from iaa_widgets.measures import _registry
    _, stats = text_case
    without = {m.name for m in _registry.measures() if m.statistic and m.engine is None}
    # per-item terms beyond the engine's tables: tolerance windows, secondary labels,
    # item means and ranks (ANOVA, ICC, correlations, Kendall's W)
    assert without == {"tolerance_agreement", "augmented_kappa", "finn_coefficient",
                       "robinson_a", "janson_olsson_iota", "mean_pearson_r", "icc",
                       "kendall_w"}
    with pytest.raises(AgreementError, match="icc cannot be computed from sufficient "
                                             "statistics.*gwet_ac1"):
        iaa.icc(stats)


def test_annotators_and_policies_on_statistics(text_case):
    df, stats = text_case
    same(iaa.fleiss_kappa(stats, annotators=list(stats.annotators)), iaa.fleiss_kappa(df))
    with pytest.raises(AgreementError, match=r"sufficient_statistics\(frame, annotators"):
        iaa.gwet_ac1(stats, annotators=["ann", "bob", "cy"])
    for measure in ("fleiss_kappa", "gwet_ac1", "light_kappa", "krippendorff_alpha"):
        with pytest.raises(AgreementError, match="lack a rating"):
            getattr(iaa, measure)(stats, missing="raise")
        with pytest.raises(AgreementError, match="lack a rating"):
            getattr(iaa, measure)(df, missing="raise")  # as in memory
    with pytest.raises(AgreementError, match="missing"):
        iaa.light_kappa(stats, missing="available")  # a policy Light does not take
    with pytest.raises(AgreementError, match="light_kappa does not take population="):
        iaa.light_kappa(stats, population=10)  # refused as in memory (issue 44)
    complete = ratings(16, missing=0.0)
    blank = complete["label"].isna() | (complete["label"].astype(str).str.strip() == "")
    complete.loc[blank, "label"] = "alpha"  # every annotator rated every item
    whole = sufficient_statistics(duckdb.from_df(complete))
    for measure in ("fleiss_kappa", "light_kappa", "krippendorff_alpha", "hubert_kappa"):
        same(getattr(iaa, measure)(whole, missing="raise"),
             getattr(iaa, measure)(complete, missing="raise"))


@pytest.mark.parametrize("missing", ["listwise", "pairwise"])
def test_pairwise_policies(number_case, missing):
    df, stats = number_case
    lazy = iaa.pairwise(stats, "cohen_kappa", missing=missing, weights="linear")
    memory = iaa.pairwise(df, "cohen_kappa", missing=missing, weights="linear")
    np.testing.assert_allclose(lazy.to_numpy(), memory.to_numpy(), rtol=0, atol=TOL)
    assert lazy.attrs["n_items"] == memory.attrs["n_items"]
    with pytest.raises(AgreementError, match="lack a rating"):
        iaa.pairwise(stats, missing="raise")
    with pytest.raises(AgreementError, match="resamples the items"):
        iaa.pairwise(stats, ci="percentile")


def test_weighted_cohen(number_case):
    df, stats = number_case
    same(iaa.cohen_kappa(stats, annotators=("bob", "ann"), weights="quadratic"),
         iaa.cohen_kappa(df, annotators=("bob", "ann"), weights="quadratic"))


@pytest.mark.parametrize("measure,kwargs", [("cohen_kappa", {}), ("scott_pi", {}),
                                            ("krippendorff_alpha", {}),
                                            ("cohen_kappa", {"weights": "linear"})])
def test_pairwise(number_case, measure, kwargs):
    df, stats = number_case
    lazy = iaa.pairwise(stats, measure, **kwargs)
    memory = iaa.pairwise(df, measure, **kwargs).loc[lazy.index, lazy.columns]
    np.testing.assert_allclose(lazy.to_numpy(), memory.to_numpy(), rtol=0, atol=TOL)
    order = [list(memory.index).index(a) for a in lazy.index]
    assert np.array_equal(np.array(lazy.attrs["n_items"]),
                          np.array(memory.attrs["n_items"])[np.ix_(order, order)])


def test_labels_keep_their_identity(text_case):
    df, stats = text_case
    assert list(stats.categories) == sorted({"alpha", "beta", "gamma", "delta"})
    assert not stats.ordered  # text sorted here gives no order
    assert list(stats.annotators) == ["ann", "bob", "cy", "dee"]
    assert stats.n_blank == int(df["label"].isna().sum() + (df["label"] == " ").sum())
    assert "blank label" in iaa.krippendorff_alpha(stats).note
    assert "value only" in iaa.fleiss_kappa(stats).note
    with pytest.raises(AgreementError, match="order"):
        iaa.krippendorff_alpha(stats, "ordinal")  # refused as in memory: no declared order


def test_declared_categories_and_annotator_subset():
    df = ratings(2)
    cats = ["delta", "gamma", "beta", "alpha", "unused"]
    stats = sufficient_statistics(pl.from_pandas(df).lazy(), categories=cats,
                                  annotators=["cy", "ann", "bob"])
    assert list(stats.categories) == cats and stats.ordered
    sub = df[df["annotator"].isin(["cy", "ann", "bob"])]
    memory = iaa.Annotations.from_long(sub, categories=cats)
    same(iaa.krippendorff_alpha(stats, "ordinal"), iaa.krippendorff_alpha(memory, "ordinal"))
    same(iaa.bennett_s(stats), iaa.bennett_s(memory))  # k = 5: the unused category counts
    on_dask = sufficient_statistics(dd.from_pandas(df, npartitions=3), categories=cats,
                                    annotators=["cy", "ann", "bob"])
    for name in ("sizes", "products", "annotator_counts", "pair_tables",
                 "complete_pair_tables"):
        np.testing.assert_array_equal(getattr(on_dask, name), getattr(stats, name))
    with pytest.raises(AgreementError, match="outside the declared categories"):
        sufficient_statistics(duckdb.from_df(df), categories=["alpha", "beta"])


def test_refusals():
    df = ratings(3)
    twice = pd.concat([df, df.iloc[:2]], ignore_index=True)
    with pytest.raises(AgreementError, match="more than once"):
        sufficient_statistics(duckdb.from_df(twice))
    null_item = df.copy()
    null_item.loc[5, "item"] = None
    with pytest.raises(AgreementError, match="'item' is missing"):
        sufficient_statistics(pl.from_pandas(null_item).lazy())
    with pytest.raises(AgreementError, match="not found"):
        sufficient_statistics(pl.from_pandas(df).lazy(), label="tag")
    with pytest.raises(AgreementError, match="dataframe"):
        sufficient_statistics([1, 2, 3])
    stats = sufficient_statistics(pl.from_pandas(df), pairs=False)
    with pytest.raises(AgreementError, match="pairs=True"):
        iaa.cohen_kappa(stats, annotators=("ann", "bob"))
    with pytest.raises(AgreementError, match="pairs=True"):
        iaa.light_kappa(stats)  # Light's κ reads the pair tables of the complete items
    with pytest.raises(AgreementError, match="pairs=True"):
        iaa.pairwise(stats)
    with pytest.raises(AgreementError, match="two annotators"):
        iaa.cohen_kappa(sufficient_statistics(pl.from_pandas(df)))


def test_concatenation_adds_up():
    """The tables are sums over items: those of two halves of the items add up to the
    whole's (the property every engine's group-by relies on)."""
    df = ratings(4)
    first = df["item"] < "doc-0100"
    whole, a, b = (sufficient_statistics(pl.from_pandas(d)) for d in (df, df[first], df[~first]))
    for name in ("totals", "products", "annotator_counts"):
        x, y = getattr(a, name), getattr(b, name)
        top = max(len(x), len(y))
        pad = lambda t: np.concatenate([t, np.zeros((top - len(t),) + t.shape[1:])])  # noqa
        np.testing.assert_array_equal(pad(x) + pad(y), getattr(whole, name)[:top])
    np.testing.assert_array_equal(a.pair_tables + b.pair_tables, whole.pair_tables)
    np.testing.assert_array_equal(a.complete_pair_tables + b.complete_pair_tables,
                                  whole.complete_pair_tables)


def test_dask_items_spread_over_partitions_and_buckets(monkeypatch):
    """Dask reduces the ratings bucket by bucket (items hashed to buckets of
    BUCKET_ROWS ratings): with the rows shuffled over 7 partitions (every item's ratings
    in several of them) and buckets of 50 ratings, every table equals the one polars
    computes by group-bys, and the values the in-memory ones."""
    from iaa_widgets.stats import lazy
    df = ratings(7).sample(frac=1.0, random_state=1).reset_index(drop=True)
    df.loc[df["item"] == df["item"].iloc[0], "label"] = None  # an item whose labels are all blank
    monkeypatch.setattr(lazy, "BUCKET_ROWS", 50)
    stats = sufficient_statistics(dd.from_pandas(df, npartitions=7))
    reference = sufficient_statistics(pl.from_pandas(df).lazy())
    for name in ("sizes", "totals", "products", "annotator_counts", "pair_tables",
                 "complete_pair_tables"):
        np.testing.assert_array_equal(getattr(stats, name), getattr(reference, name))
    assert stats.sizes[0] >= 1 and stats.n_items == df["item"].nunique()
    same(iaa.krippendorff_alpha(stats), iaa.krippendorff_alpha(df))
    same(iaa.fleiss_kappa(stats, missing="available"), iaa.fleiss_kappa(df, missing="available"))


def test_dask_refuses_ratings_not_read_back(monkeypatch):
    """A bucket the reading task cannot see (a worker on another machine than the
    spill directory) is refused, not dropped."""
    from iaa_widgets.stats import lazy
    real = lazy._bucket_tables

    def elsewhere(path, *args):  # bucket 0 written where this reader does not look
        return real(path + "-elsewhere" if path.endswith("bucket=0") else path, *args)
    monkeypatch.setattr(lazy, "BUCKET_ROWS", 50)
    monkeypatch.setattr(lazy, "_bucket_tables", elsewhere)
    with pytest.raises(AgreementError, match="were read back"):
        sufficient_statistics(dd.from_pandas(ratings(10), npartitions=3))


@pytest.mark.parametrize("kind", ["dask", "duckdb", "polars-lazy"])
def test_rated_twice_counted_alike(kind, monkeypatch):
    """Each (item, annotator) pair rated more than once is counted once, on every path
    (Dask's buckets included): here 3 pairs, one of them rated three times."""
    from iaa_widgets.stats import lazy
    monkeypatch.setattr(lazy, "BUCKET_ROWS", 40)
    df = ratings(8)
    twice = pd.concat([df, df.iloc[[3, 3, 50, 120]]], ignore_index=True)
    with pytest.raises(AgreementError, match="^3 \\(item, annotator\\) pair"):
        sufficient_statistics(ENGINES[kind](twice))


def test_duckdb_leaves_no_table_behind():
    """The temporary tables DuckDB's per-item counts are kept in are dropped."""
    con = duckdb.connect()
    df = ratings(9)
    stats = sufficient_statistics(con.from_df(df))
    same(iaa.fleiss_kappa(stats), iaa.fleiss_kappa(df))
    assert con.sql("SELECT count(*) FROM duckdb_tables()").fetchall() == [(0,)]


# ------------------------------------------------------------------ PySpark
def _java() -> bool:
    return shutil.which("java") is not None or bool(os.environ.get("JAVA_HOME"))


spark_needed = pytest.mark.skipif(
    os.environ.get("CI") != "true" and (not _java() or
                                         __import__("importlib").util.find_spec("pyspark")
                                         is None),
    reason="PySpark needs Java (apt-get install -y default-jre-headless) and pyspark; "
           "under CI=true these tests run")


@pytest.fixture(scope="module")
def spark():
    import sys

    from pyspark.sql import SparkSession
    # Python UDFs run in worker processes: this interpreter, not the first python on PATH
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        session = (SparkSession.builder.master("local[1]").appName("iaa-engines")
                   .config("spark.ui.enabled", "false")
                   .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    yield session
    session.stop()


@spark_needed
@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
def test_spark_local(spark):
    df = ratings(5)
    stats = sufficient_statistics(spark.createDataFrame(df))
    same(iaa.krippendorff_alpha(stats), iaa.krippendorff_alpha(df))
    for measure, kwargs in CLASSIC:
        same(getattr(iaa, measure)(stats, **kwargs), getattr(iaa, measure)(df, **kwargs))
    same(iaa.cohen_kappa(stats, annotators=("bob", "cy")), iaa.cohen_kappa(df, annotators=("bob", "cy")))
    num = numeric(6)
    stats = sufficient_statistics(spark.createDataFrame(num))
    for metric in ("ordinal", "interval"):
        same(iaa.krippendorff_alpha(stats, metric), iaa.krippendorff_alpha(num, metric=metric))


def test_unhashable_labels_are_refused_by_name():
    # lists cannot be grouped by an engine: an AgreementError naming them, not pandas'
    # "unhashable type" from inside the group-by
    df = pd.DataFrame({"item": [0, 0, 1, 1], "annotator": ["a", "b"] * 2,
                       "label": [["x"], ["x"], ["y"], ["x"]]})
    with pytest.raises(AgreementError, match=r"label\(s\) \[\['x'\]"):
        iaa.sufficient_statistics(df)


# ------------------------------------------------ relations that differ on each read
def consistent(stats) -> None:
    """The tables of one set of rows: no negative count, and per number of ratings m,
    Σ_k products[m, c, k] = Σ_i n_ic m_i = m · totals[m, c] and the annotators'
    counts add up to the totals (tables made from two different reads break these)."""
    m = np.arange(len(stats.sizes))
    assert np.all(stats.sizes >= 0), stats.sizes
    np.testing.assert_array_equal(stats.products.sum(axis=2), m[:, None] * stats.totals)
    np.testing.assert_array_equal(stats.annotator_counts.sum(axis=1), stats.totals)


def drawing(kind: str, df: pd.DataFrame):
    """``df`` on an engine whose label column is drawn at random by a Python function on
    every read (as random() or a sample would change rows), and the labels it drew last,
    by (item, annotator): what one read of the frame holds."""
    import random
    drawn = {}
    rng = random.Random(11)

    def draw(item, annotator) -> str:
        drawn[(item, annotator)] = label = rng.choice(("x", "y", "z"))
        return label
    if kind == "duckdb":
        from duckdb.sqltypes import VARCHAR
        con = duckdb.connect()
        con.create_function("draw", draw, [VARCHAR, VARCHAR], VARCHAR, side_effects=True)
        con.register("ratings", df[["item", "annotator"]])
        return con.sql("SELECT item, annotator, draw(item, annotator) AS label "
                       "FROM ratings"), drawn
    if kind == "polars-lazy":
        def batch(s):
            return pl.Series([draw(i, a) for i, a in zip(s.struct.field("item"),
                                                         s.struct.field("annotator"))])
        return pl.from_pandas(df[["item", "annotator"]]).lazy().with_columns(
            pl.struct("item", "annotator").map_batches(batch, return_dtype=pl.String)
            .alias("label")), drawn

    def part(p):
        return p.assign(label=[draw(i, a) for i, a in zip(p["item"], p["annotator"])])
    frame = dd.from_pandas(df[["item", "annotator"]], npartitions=3)
    return frame.map_partitions(part, meta={"item": object, "annotator": object,
                                            "label": object}), drawn


@pytest.mark.parametrize("kind", ["duckdb", "polars-lazy", "dask"])
def test_relation_read_once(kind):
    """A frame whose labels change on every read is read once: the tables are those of
    the labels drawn (as the in-memory measures compute them on that draw), where
    reading it once per query gave tables of different draws (a coincidence matrix
    with negative cells, α unrelated to any draw)."""
    frame, drawn = drawing(kind, ratings(12, missing=0.3))
    stats = sufficient_statistics(frame)
    consistent(stats)
    one = pd.DataFrame([(i, a, label) for (i, a), label in drawn.items()],
                       columns=["item", "annotator", "label"])
    same(iaa.krippendorff_alpha(stats), iaa.krippendorff_alpha(one))
    same(iaa.fleiss_kappa(stats, missing="available"), iaa.fleiss_kappa(one, missing="available"))


@pytest.mark.parametrize("query", ["SELECT * FROM ratings WHERE random() < 0.6",
                                   "SELECT * FROM ratings USING SAMPLE 60 PERCENT (bernoulli)",
                                   "SELECT item, annotator, CASE WHEN (epoch_us(now()) + "
                                   "hash(item, annotator)) % 3 = 0 THEN 'x' ELSE label END "
                                   "AS label FROM ratings"])
def test_duckdb_random_sample_and_time(query):
    """random(), USING SAMPLE and now() give other rows on every query: the statistics
    are those of one read (negative item counts and a false 'the table is empty' came
    from mixing reads); the temporary table is dropped afterwards."""
    con = duckdb.connect()
    con.register("ratings", ratings(13, n_items=600))
    for _ in range(3):
        consistent(sufficient_statistics(con.sql(query)))
    assert con.sql("SELECT count(*) FROM duckdb_tables()").fetchall() == [(0,)]


@spark_needed
@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
def test_spark_nondeterministic_read_once(spark):
    """A non-deterministic Spark column (a UDF drawing labels, marked so) is read once
    (checkpointed on the executors): the tables agree with each other."""
    import random

    from pyspark.sql import functions as F
    draw = F.udf(lambda: random.choice("xyz")).asNondeterministic()
    frame = spark.createDataFrame(ratings(14, missing=0.3)).withColumn("label", draw())
    stats = sufficient_statistics(frame)
    consistent(stats)
    assert stats.n_items == ratings(14, missing=0.3)["item"].nunique()


def test_bootstrap_of_statistics_is_refused_by_name():
    """Sufficient statistics keep no per-item sums, so the bootstrap cannot resample their
    items: a clear AgreementError naming the way that works, not the loaders' generic one."""
    stats = sufficient_statistics(pd.DataFrame({"item": [1, 1, 2, 2], "annotator": list("abab"),
                                                "label": list("xxxy")}))
    with pytest.raises(AgreementError, match="per-item sums.*iaa.fleiss_kappa"):
        iaa.bootstrap(stats, "fleiss_kappa")


# ------------------------------------------------------ declared orders and large tables
ORDERED = {  # the label column typed with its order (issue 44)
    "pandas-ordered": lambda df: df,
    "duckdb-enum": lambda df: duckdb.from_df(df),  # DuckDB reads it as ENUM('low', …)
    "polars-lazy-enum": lambda df: pl.from_pandas(df).with_columns(
        pl.col("label").cast(pl.Enum(["low", "mid", "high", "top"]))).lazy(),
    "polars-enum": lambda df: pl.from_pandas(df).with_columns(
        pl.col("label").cast(pl.Enum(["low", "mid", "high", "top"]))),
}


@pytest.mark.parametrize("kind", list(ORDERED))
def test_ordered_categorical_and_enum_keep_their_order(kind):
    """An ordered pandas Categorical, a DuckDB ENUM or a polars Enum declares its
    categories in order (not by spelling: 'high' < 'low' < 'mid'), with 'top' unused:
    AC2 with quadratic weights and ordinal α equal the in-memory values on the same
    Categorical, where they were refused for want of an order."""
    df = ratings(3, labels=("low", "mid", "high"), missing=0.1).dropna()
    df = df[df["label"].str.strip() != ""].copy()
    df["label"] = pd.Categorical(df["label"], categories=["low", "mid", "high", "top"],
                                 ordered=True)
    stats = sufficient_statistics(ORDERED[kind](df))
    assert list(stats.categories) == ["low", "mid", "high", "top"] and stats.ordered
    same(iaa.gwet_ac2(stats, weights="quadratic"), iaa.gwet_ac2(df, weights="quadratic"))
    same(iaa.krippendorff_alpha(stats, "ordinal"), iaa.krippendorff_alpha(df, "ordinal"))
    unordered = df.assign(label=df["label"].cat.as_unordered())  # declares no order
    assert not sufficient_statistics(unordered).ordered
    assert not sufficient_statistics(pl.from_pandas(unordered).lazy()).ordered


@pytest.mark.parametrize("kind", ["duckdb", "polars-lazy", "pandas"])
def test_many_distinct_numbers_are_refused_by_size_before_any_table(kind):
    """9,000 distinct float labels would make (R + 1 + 2P) dense K × K tables (10 × 9,000²
    cells, 6 GiB, for 3 annotators): an AgreementError naming the size and the way that
    works (interval α or the ICC in memory, per-item moments), never a MemoryError."""
    rng = np.random.default_rng(4)
    df = pd.DataFrame({"item": np.repeat(np.arange(3000), 3),
                       "annotator": np.tile(["a", "b", "c"], 3000),
                       "label": np.arange(9000) + rng.random(9000)})
    with pytest.raises(AgreementError, match=r"10 × 9,000 × 9,000.*9,000 distinct labels"
                                             r".*krippendorff_alpha.*icc"):
        sufficient_statistics(ENGINES[kind](df))
    # the way it names: interval α in memory, without a K × K table
    assert np.isfinite(iaa.krippendorff_alpha(df, "interval").value)
