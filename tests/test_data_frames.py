"""Any dataframe in (iaa_widgets.data.frames): polars (eager and lazy), pyarrow Tables,
DuckDB, Dask and anything with ``__arrow_c_stream__`` load into the same Annotations as
the pandas table they hold (expected: the pandas path, whose loader tests are in
test_loaders.py), with Arrow strings coded by Arrow's dictionary encoding."""
from __future__ import annotations

import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.data import Annotations, as_annotations
from iaa_widgets.data.codes import _column_codes
from iaa_widgets.errors import AgreementError

pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")
dd = pytest.importorskip("dask.dataframe")

pytestmark = pytest.mark.filterwarnings("ignore:Dask support is moving:FutureWarning")

TABLE = pd.DataFrame({"item": ["d1", "d1", "d2", "d2", "d3", "d3", "d3", "d4"],
                      "annotator": ["x", "y", "x", "y", "x", "y", "z", "z"],
                      "label": ["PER", "LOC", "PER", "PER", None, "LOC", "LOC", " "]})


class Stream:
    """Only the Arrow PyCapsule stream interface, as a foreign library would offer."""

    def __init__(self, table):
        self.table = table

    def __arrow_c_stream__(self, requested_schema=None):
        return self.table.__arrow_c_stream__(requested_schema)


FRAMES = {
    "polars": lambda df: pl.from_pandas(df),
    "polars-lazy": lambda df: pl.from_pandas(df).lazy(),
    "arrow": lambda df: pa.Table.from_pandas(df, preserve_index=False),
    "arrow-stream": lambda df: Stream(pa.Table.from_pandas(df, preserve_index=False)),
    "duckdb": lambda df: duckdb.from_df(df),
    "dask": lambda df: dd.from_pandas(df, npartitions=2),
}


def same_annotations(a: Annotations, b: Annotations):
    """The same ratings: names of items, annotators and categories, codes, notes."""
    assert list(a.categories) == list(b.categories) and a.ordered == b.ordered
    for codes, names in (("item", "items"), ("annotator", "annotators"), ("label", "categories")):
        got = sorted(zip(getattr(a, names).take(getattr(a, codes)).tolist(),
                         a.annotators.take(a.annotator).tolist()))
        want = sorted(zip(getattr(b, names).take(getattr(b, codes)).tolist(),
                          b.annotators.take(b.annotator).tolist()))
        assert got == want
    assert a.n_blank == b.n_blank and a.notes == b.notes


@pytest.mark.parametrize("kind", list(FRAMES))
def test_any_frame_loads_like_pandas(kind):
    expected = Annotations.from_long(TABLE)
    same_annotations(as_annotations(FRAMES[kind](TABLE)), expected)
    assert iaa.krippendorff_alpha(FRAMES[kind](TABLE)).value == \
        iaa.krippendorff_alpha(TABLE).value


@pytest.mark.parametrize("kind", ["polars", "arrow", "duckdb"])
def test_numbers_and_categoricals_keep_their_order(kind):
    df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": ["a", "b"] * 3,
                       "label": [3, 1, 2, 2, 1, 3]})
    loaded = as_annotations(FRAMES[kind](df))
    assert list(loaded.categories) == [1, 2, 3] and loaded.ordered  # numbers: by value
    text = df.assign(label=df["label"].map({1: "low", 2: "mid", 3: "high"}))
    loaded = as_annotations(FRAMES[kind](text))
    assert list(loaded.categories) == ["high", "low", "mid"] and not loaded.ordered


def test_polars_enum_is_an_ordered_categorical():
    df = pl.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b", "a", "b"],
                       "label": ["low", "high", "high", "high"]},
                      schema_overrides={"label": pl.Enum(["low", "mid", "high"])})
    loaded = as_annotations(df)
    # polars' Enum reaches Arrow as a dictionary column, pandas as a Categorical
    assert list(loaded.categories) == ["low", "mid", "high"]


def test_missing_columns_and_non_frames_are_named():
    with pytest.raises(AgreementError, match=r"\['label'\] not found"):
        as_annotations(pl.from_pandas(TABLE).rename({"label": "tag"}))
    with pytest.raises(AgreementError, match="expected Annotations or a tidy DataFrame"):
        as_annotations({"item": [1]})


def test_arrow_dictionary_encoding_across_chunks():
    """Chunks share one dictionary (Arrow's hash encoding keeps its table across
    chunks): codes in order of first appearance, −1 for nulls."""
    col = pd.Series(pa.chunked_array([["b", "a"], ["c", None, "a"], []]),
                    dtype=pd.ArrowDtype(pa.string()))
    codes, uniques = _column_codes(col)
    assert codes.tolist() == [0, 1, 2, -1, 1] and uniques.tolist() == ["b", "a", "c"]
    assert pd.factorize(col)[0].tolist() == codes.tolist()  # pandas' own factorize agrees
