"""Loaders: the right label in the right place, and files read as written (issue 19).

Every expected number here comes from Krippendorff (2011), from the `krippendorff`
package (test-only peer), or from the same data loaded in its plain int64 / pre-cleaned
form; every expected text is a label or a line of the file written by the test itself.
"""
import unicodedata
import warnings
from fractions import Fraction

import krippendorff
import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations, LookAlikeLabelsWarning
from iaa_widgets.datasets import krippendorff_2011

# Krippendorff (2011), nominal: α = 1 − (n−1)·Σ_{c≠k} o_ck / (n² − Σ n_c²)
# with n = 40, Σ_{c≠k} o_ck = 8, Σ n_c² = 384 (as in tests/test_alpha.py)
KRIPPENDORFF_2011_NOMINAL = float(1 - Fraction(39 * 8, 1600 - 384))


def full_grid() -> pd.DataFrame:
    """Krippendorff's 4 observers × 12 units as 48 rows; the 7 missing values as NaN."""
    wide = krippendorff_2011().pivot(index="item", columns="annotator", values="label")
    return wide.stack(future_stack=True).rename("label").reset_index()


# ------------------------------------------------------------ integer label codes
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint8, np.int32])
def test_small_integer_codes_at_their_extremes_give_the_int64_alpha(dtype):
    # labels at the type's minimum and maximum (int8: −128 … 127), items coded in the same
    # type, enough ratings for the dense (bincount) path over the whole int16 range
    info = np.iinfo(dtype)
    rng = np.random.default_rng(5)
    extremes = np.unique([info.min, info.min + 1, 0, info.max - 1, info.max])
    n_items = 12_000
    truth = rng.choice(extremes, n_items)
    wide = np.stack([np.where(rng.random(n_items) < 0.7, truth, rng.choice(extremes, n_items))
                     for _ in range(3)], axis=1)                     # items × 3 annotators
    item = np.repeat(np.arange(n_items), 3)
    small = pd.DataFrame({"item": (item % (int(info.max) - int(info.min) + 1) + info.min
                                   ).astype(dtype) if dtype != np.int32 else item,
                          "annotator": np.tile([0, 1, 2], n_items), "label": wide.ravel()})
    small = small.astype({"label": dtype})
    # item ids of a small type repeat (256 ids for 12 000 items): key items by position
    small["item"] = item if dtype in (np.int8, np.uint8) else small["item"]
    big = small.astype({"item": np.int64, "label": np.int64})
    got = iaa.krippendorff_alpha(small)
    assert list(iaa.as_annotations(small).categories) == sorted(extremes.tolist())
    assert got.value == iaa.krippendorff_alpha(big).value
    reference = krippendorff.alpha(reliability_data=wide.T.astype(float),
                                   level_of_measurement="nominal")
    assert got.value == pytest.approx(reference, abs=1e-12)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint8])
def test_sorted_small_integer_ids_spanning_their_type(dtype):
    # sorted item ids covering the whole type (int8: −128 … 127, no gap): their codes are
    # the ids shifted, which overflowed in the type itself before
    info = np.iinfo(dtype)
    ids = np.arange(int(info.min), int(info.max) + 1)[:1000]
    df = pd.DataFrame({"item": np.repeat(ids, 2).astype(dtype),
                       "annotator": np.tile(["a", "b"], len(ids)),
                       "label": np.tile(["x", "y"], len(ids))})
    ann = Annotations.from_long(df)
    assert ann.n_items == len(ids) and list(ann.items) == ids.tolist()
    np.testing.assert_array_equal(ann.item, np.repeat(np.arange(len(ids)), 2))


# ------------------------------------------------------------ blank labels
def test_blank_labels_are_missing_ratings_and_counted():
    # the 7 missing cells of Krippendorff's data given as rows with blank labels: NaN,
    # None, '' and whitespace (a tab, a no-break space). The item and annotator of such a
    # row stay known; α is the published one (n = 40 pairable values)
    grid = full_grid().astype({"label": object})
    blanks = np.flatnonzero(grid["label"].isna())
    assert len(blanks) == 7
    grid.loc[blanks, "label"] = [np.nan, None, "", " ", "\t", "\xa0", "  "]
    ann = Annotations.from_long(grid)
    assert ann.n_blank == 7 and ann.n_ratings == 41
    assert ann.n_items == 12 and ann.n_annotators == 4
    assert list(ann.categories) == [1, 2, 3, 4, 5]  # no '' category
    res = iaa.krippendorff_alpha(grid)
    assert res.value == pytest.approx(KRIPPENDORFF_2011_NOMINAL, abs=1e-15)
    assert res.params["blank_labels"] == 7
    assert "7 blank label(s) (NaN, None, '' or whitespace only) in column 'label'" in res.note
    assert res.value == iaa.krippendorff_alpha(krippendorff_2011()).value


def test_item_with_only_blank_labels_stays_an_item_and_is_excluded():
    df = pd.DataFrame({"item": ["i1", "i1", "i2", "i2", "i3", "i3"],
                       "annotator": ["a", "b"] * 3,
                       "label": ["x", "x", "", None, "x", "y"]})
    ann = Annotations.from_long(df)
    assert list(ann.items) == ["i1", "i2", "i3"] and ann.n_ratings == 4
    kappa = iaa.cohen_kappa(df)
    assert kappa.excluded == {"not rated by these annotators": 1} and kappa.n_items == 2
    assert kappa.params["blank_labels"] == 2 and "2 blank label(s)" in kappa.note
    # the same κ as with the blank rows absent
    assert kappa.value == iaa.cohen_kappa(df.dropna().query("label != ''")).value
    # the notes survive the views measures take
    assert ann.select_annotators(["b", "a"]).notes == ann.notes == ann.primary().notes


def test_blank_categorical_category_is_missing():
    labels = pd.Categorical(["lo", "", "hi", "lo"], categories=["lo", "", "hi"], ordered=True)
    ann = Annotations.from_long(pd.DataFrame({"item": [1, 1, 2, 2], "annotator": list("abab"),
                                              "label": labels}))
    assert list(ann.categories) == ["lo", "hi"] and ann.n_blank == 1
    with pytest.raises(AgreementError, match=r"\[' '\] cannot be a category"):
        Annotations.from_long(pd.DataFrame({"item": [1, 1], "annotator": list("ab"),
                                            "label": ["x", "y"]}), categories=["x", "y", " "])


# ------------------------------------------------------------ look-alike labels
NFC, NFD = unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café")


@pytest.mark.parametrize("pair, named", [
    ((1, "1"), "[1, '1'] (one value as number, text)"),
    ((True, "1.0"), "[True, '1.0'] (one value as bool, text)"),
    (("x", "x "), "['x', 'x '] (differ in whitespace)"),
    (("Yes", "yes"), "['Yes', 'yes'] (differ in case)"),
    ((NFC, NFD), "['cafe\\u0301', 'caf\\xe9'] (differ in Unicode form)"),  # sorted
])
def test_look_alike_labels_are_named_and_kept_apart(pair, named):
    df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": list("abab"),
                       "label": np.array([pair[0], pair[1], pair[0], pair[0]], dtype=object)})
    with pytest.warns(LookAlikeLabelsWarning) as caught:
        ann = Annotations.from_long(df)
    assert len(caught) == 1 and caught[0].filename == __file__  # the user's line
    assert named in str(caught[0].message)
    assert ann.n_categories == 2  # never merged
    assert ann.notes == (str(caught[0].message),)
    with pytest.warns(LookAlikeLabelsWarning):
        assert named in iaa.krippendorff_alpha(df).note
    with pytest.warns(LookAlikeLabelsWarning):
        assert named in iaa.cohen_kappa(df).note


def test_every_result_type_carries_the_data_notes():
    """Look-alike and blank labels reach the results of SPA, pairwise and augmented κ
    too, not only the classic coefficients and α."""
    df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": list("abababab"),
                       "label": ["x", "x ", "x", "y", "y", "y", None, "x"]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LookAlikeLabelsWarning)
        results = {"sparse_agreement": iaa.sparse_agreement(df),
                   "augmented_kappa": iaa.augmented_kappa(df),
                   "augmented_kappa_sweep": iaa.augmented_kappa_sweep(df)}
        frame = iaa.pairwise(df, "percent_agreement")
    for name, res in results.items():
        assert "['x', 'x ']" in res.note and "1 blank label(s)" in res.note, name
        assert res.params["blank_labels"] == 1, name
    assert "['x', 'x ']" in frame.attrs["note"] and frame.attrs["params"]["blank_labels"] == 1


def test_labels_python_calls_equal_are_named_where_they_merge():
    # True == 1 == 1.0 in Python, so a hash table gives them one category: said, not silent
    df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": list("ababab"),
                       "label": np.array([True, 1, 1.0, None, "x", True], dtype=object)})
    with pytest.warns(LookAlikeLabelsWarning, match=r"share one category: \[True, 1\.0, 1\] "
                                                    r"→ True"):
        ann = Annotations.from_long(df)
    assert list(ann.categories) == [True, "x"] and ann.n_blank == 1
    # numbers only (1 and 1.0): one number, nothing to say
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Annotations.from_long(df.assign(label=np.array([1, 1.0, 2, 2.0, 1, 2], dtype=object)))


def test_mixed_types_are_named():
    df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": list("abab"),
                       "label": np.array([2, "x", 2, 3], dtype=object)})
    with pytest.warns(LookAlikeLabelsWarning, match=r"mixes types: number \[2, 3\], "
                                                    r"text \['x'\]"):
        Annotations.from_long(df)


def test_clean_labels_raise_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for labels in (["yes", "no", "no", "maybe"], [1, 2, 2, 3], [1.5, 2.0, 2.0, 1.5]):
            ann = Annotations.from_long(pd.DataFrame({"item": [1, 1, 2, 2],
                                                      "annotator": list("abab"),
                                                      "label": labels}))
            assert ann.notes == ()


# ------------------------------------------------------------ objects that are not frames
class FakePolarsFrame:
    """Stands for a polars DataFrame (polars need not be installed)."""


FakePolarsFrame.__module__ = "polars.dataframe.frame"


@pytest.mark.parametrize("data, hint", [
    (FakePolarsFrame(), "got polars.dataframe.frame.FakePolarsFrame; convert it first: "
                        "df.to_pandas()"),
    ({"item": [1], "annotator": ["a"], "label": ["x"]}, "pd.DataFrame(data)"),
    ([(1, "a", "x")], "pd.DataFrame(rows, columns=['item', 'annotator', 'label'])"),
    (np.array([[1, 2], [1, 1]]), "Annotations.from_wide(array)"),
])
def test_other_objects_get_a_clear_message(data, hint):
    for load in (iaa.as_annotations, Annotations.from_long, iaa.cohen_kappa):
        with pytest.raises(AgreementError) as err:
            load(data)
        assert hint in str(err.value) and "expected" in str(err.value)
    if isinstance(data, FakePolarsFrame):
        with pytest.raises(AgreementError, match=r"df\.to_pandas\(\)"):
            Annotations.from_wide(data)


# ------------------------------------------------------------ read_csv
def write(tmp_path, text, name="ratings.csv"):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_read_csv_keeps_na_words_as_labels_and_counts_blank_cells(tmp_path):
    path = write(tmp_path, "item,annotator,label\n1,a,NA\n1,b,None\n2,a,null\n2,b,\n"
                           "3,a,NA\n3,b, \n4,a,x\n4,b,x\n")
    ann = iaa.read_csv(path)
    assert list(ann.categories) == ["NA", "None", "null", "x"]  # labels, not missing values
    assert ann.n_blank == 2 and ann.n_ratings == 6 and ann.n_items == 4
    assert f"{path}: 1 cell(s) of column 'label' matched na_values=[''] and were read " \
           "as missing" in ann.notes
    res = iaa.percent_agreement(ann, missing="listwise")
    assert res.params["blank_labels"] == 2 and "matched na_values" in res.note
    # asked for, "NA" is missing too; pandas' own list makes "None" and "null" missing
    assert list(iaa.read_csv(path, na_values=["", "NA"]).categories) == ["None", "null", "x"]
    assert iaa.read_csv(path, keep_default_na=True).n_blank == 6


def test_read_csv_blank_cells_in_both_layouts_load_alike(tmp_path):
    long = write(tmp_path, "item,annotator,label\n1,a,x\n1,b,x\n1,c,\n2,a,y\n2,b,\n2,c,y\n",
                 "long.csv")
    wide = write(tmp_path, "item,a,b,c\n1,x,x,\n2,y,,y\n", "wide.csv")
    a, b = iaa.read_csv(long), iaa.read_csv(wide, layout="wide")
    assert a.n_ratings == b.n_ratings == 4 and a.n_annotators == b.n_annotators == 3
    assert iaa.fleiss_kappa(a, missing="available").value == \
        iaa.fleiss_kappa(b, missing="available").value
    assert any("2 cell(s) of the table matched na_values" in n for n in b.notes)


def test_read_csv_errors_name_file_line_item_and_annotator(tmp_path):
    # line 1 header, 2–3 item 1, 4 blank, 5 a comment, 6–7 a quoted label over two lines,
    # 8 item 3 by a, 9 item 3 by a again
    path = write(tmp_path, 'item,annotator,label\n1,a,x\n1,b,x\n\n# checked\n2,a,"two\nlines"'
                           '\n3,a,x\n3,a,y\n')
    with pytest.raises(AgreementError) as err:
        iaa.read_csv(path, comment="#")
    assert f"rated more than once at {path}, line 8 (item 3, annotator 'a'), line 9 " \
           "(item 3, annotator 'a')" in str(err.value)
    with pytest.raises(AgreementError, match=r"line 10 \(item 3, annotator 'a'\), line 11"):
        iaa.read_csv(write(tmp_path, "exported by a tool\n\n" + path.read_text(), "skip.csv"),
                     comment="#", skiprows=2)  # two lines before the header
    # skipped lines unknown: the rows pandas read are named (1-based, header excluded)
    with pytest.raises(AgreementError, match=r"data row 4 \(item 3, annotator 'a'\), data "
                                             r"row 5"):
        iaa.read_csv(path, comment="#", skiprows=lambda n: False)
    outside = write(tmp_path, "item,annotator,label\n1,a,x\n1,b,z\n", "outside.csv")
    with pytest.raises(AgreementError, match=r"\['z'\] outside .* at .*outside\.csv, line 3 "
                                             r"\(item 1, annotator 'b'\)"):
        iaa.read_csv(outside, categories=["x", "y"])
    no_item = write(tmp_path, "item,annotator,label\n1,a,x\n,b,x\n", "no_item.csv")
    with pytest.raises(AgreementError, match=r"column 'item' is missing at .*no_item\.csv, "
                                             r"line 3 \(item nan, annotator 'b'\)"):
        iaa.read_csv(no_item)


def test_read_csv_wide_errors_name_the_line_of_the_cell(tmp_path):
    # line 1 header, line 2 a blank-lines-free row, line 4 item 2 after a blank line
    path = write(tmp_path, "item,ann,bob\n1,x,y\n\n2,y,z\n")
    with pytest.raises(AgreementError, match=r"\['z'\] outside .* at .*ratings\.csv, line 4 "
                                             r"\(item 2, annotator 'bob'\)"):
        iaa.read_csv(path, layout="wide", categories=["x", "y"])


def test_blank_secondary_in_a_pair_cell_is_no_secondary():
    pairs = pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": [("x", ""), "y"]})
    ann = Annotations.from_long(pairs)
    assert ann.n_ratings == 2 and not ann.has_secondary and ann.n_blank == 1


def test_read_csv_wraps_decoding_parsing_and_empty_files(tmp_path):
    latin = write(tmp_path, "item,annotator,label\n1,a,ete\n1,b,\xe9t\xe9\n".encode("latin-1"))
    with pytest.raises(AgreementError, match=r"not valid utf-8 text \(byte 0xe9 on line 3\); "
                                             r"pass the encoding .*encoding='latin-1'"):
        iaa.read_csv(latin)
    assert "été" in list(iaa.read_csv(latin, encoding="latin-1").categories)
    ragged = write(tmp_path, "item,annotator,label\n1,a,x\n1,b,x,extra\n", "ragged.csv")
    with pytest.raises(AgreementError, match=r"ragged\.csv is not a CSV table .*line 3"):
        iaa.read_csv(ragged)
    with pytest.raises(AgreementError, match=r"empty\.csv is empty"):
        iaa.read_csv(write(tmp_path, "", "empty.csv"))
    with pytest.raises(FileNotFoundError):  # the built-in error names the path already
        iaa.read_csv(tmp_path / "absent.csv")


@pytest.mark.parametrize("layout, text", [
    ("wide", "item,ann,bob,ann\n1,x,y,x\n2,y,y,y\n"),
    ("long", "item,annotator,label,label\n1,a,x,y\n1,b,x,y\n"),
])
def test_read_csv_refuses_duplicate_header_names(tmp_path, layout, text):
    path = write(tmp_path, text)
    name = "ann" if layout == "wide" else "label"
    with pytest.raises(AgreementError, match=rf"the header names \['{name}'\] more than once"):
        iaa.read_csv(path, layout=layout)
    # a real column named like pandas' renaming is no duplicate
    ok = write(tmp_path, "item,ann,ann.1\n1,x,y\n2,y,y\n", "ok.csv")
    assert list(iaa.read_csv(ok, layout="wide").annotators) == ["ann", "ann.1"]


@pytest.mark.parametrize("dtype", ["string[pyarrow]", "large_string"])
def test_arrow_strings_take_arrow_encoding_with_the_same_result(dtype):
    """Arrow-backed ids and labels (pandas 3 with pyarrow) are coded by Arrow's
    dictionary encoding: the same items, annotators, categories, blanks and α as the
    same table in Python strings (α checked against the krippendorff package)."""
    pa = pytest.importorskip("pyarrow")
    rng = np.random.default_rng(3)
    n = 3000
    plain = pd.DataFrame({"item": [f"doc{i}" for i in rng.integers(0, 600, n)],
                          "annotator": [f"w{a}" for a in rng.integers(0, 6, n)],
                          "label": [f"L{c}" for c in rng.integers(0, 4, n)]},
                         dtype=object).drop_duplicates(["item", "annotator"])
    plain.iloc[:3, 2] = [None, "", "  "]
    arrow = plain.astype(pd.ArrowDtype(pa.large_string()) if dtype.startswith("large")
                         else dtype)
    a, b = iaa.Annotations.from_long(plain), iaa.Annotations.from_long(arrow)
    assert list(a.items) == list(b.items) and list(a.annotators) == list(b.annotators)
    assert list(a.categories) == list(b.categories) and a.n_blank == b.n_blank == 3
    assert np.array_equal(a.label, b.label) and np.array_equal(a.item, b.item)
    wide = plain.pivot(index="item", columns="annotator", values="label")
    codes = wide.apply(lambda col: col.map({"L0": 0, "L1": 1, "L2": 2, "L3": 3}))
    reference = krippendorff.alpha(reliability_data=codes.to_numpy(dtype=float).T,
                                   level_of_measurement="nominal")
    assert iaa.krippendorff_alpha(arrow).value == pytest.approx(reference, abs=1e-12)
