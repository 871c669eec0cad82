"""Adjudication sheets out and back (iaa_widgets/io/adjudication.py), checked against the
CSV text itself and pandas."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.io.adjudication import adjudication_sheet


def ratings():
    return pd.DataFrame({
        "item": [7, 7, 7, 8, 8, 8, 9, 9, 9],
        "annotator": ["a", "b", "c"] * 3,
        "label": [1, 2, 2, -1, 1, 1, 2, 2, 2],
    })


def test_sheet_columns_and_text():
    df = ratings()
    sel = iaa.disagreements(df)
    sheet = adjudication_sheet(sel, text={7: "=HYPERLINK(\"x\")", 8: "plain"})
    order = list(iaa.as_annotations(df).annotators)
    assert list(sheet.columns) == ["item", "text", *order, "consensus", "adjudicated"]
    assert sheet["item"].tolist() == [7, 8] and (sheet["adjudicated"] == "").all()
    csv = iaa.write_adjudication(sel, text={7: "=HYPERLINK(\"x\")", 8: "plain"})
    first = pd.read_csv(io.StringIO(csv), dtype=str, keep_default_na=False)
    assert first.loc[0, "text"] == "'=HYPERLINK(\"x\")"  # kept as text in a spreadsheet
    assert first.loc[1, "a"] == "-1"  # a number label is no formula: written as it is


def test_round_trip_keeps_identity(tmp_path):
    df = ratings()
    path = tmp_path / "sheet.csv"
    iaa.write_adjudication(iaa.disagreements(df), path)
    sheet = pd.read_csv(path, dtype=str, keep_default_na=False)
    sheet["adjudicated"] = ["2", ""]  # item 7 decided, item 8 left open
    sheet.to_csv(path, index=False)
    gold = iaa.read_adjudication(path, df)
    assert gold.to_dict("list") == {"item": [7], "annotator": ["gold"], "label": [2]}
    assert type(gold["item"][0]) is not str and type(gold["label"][0]) is not str
    assert gold.attrs["n_blank"] == 1
    both = pd.concat([df, gold], ignore_index=True)
    profile = iaa.annotator_profile(both, reference="gold")
    # on item 7 alone: a said 1, b and c said 2 (pandas: the one decided item)
    assert profile.loc["a", "accuracy"] == 0 and profile.loc["b", "accuracy"] == 1
    without = iaa.read_adjudication(path)  # no data: text as written
    assert without.to_dict("list") == {"item": ["7"], "annotator": ["gold"], "label": ["2"]}


def test_refusals(tmp_path):
    df = ratings()
    path = tmp_path / "s.csv"
    pd.DataFrame({"item": ["7"], "adjudicated": ["maybe"]}).to_csv(path, index=False)
    with pytest.raises(iaa.AgreementError, match="label.*maybe"):
        iaa.read_adjudication(path, df)
    pd.DataFrame({"item": ["70"], "adjudicated": ["2"]}).to_csv(path, index=False)
    with pytest.raises(iaa.AgreementError, match="item.*70"):
        iaa.read_adjudication(path, df)
    pd.DataFrame({"item": ["7"], "label": ["2"]}).to_csv(path, index=False)
    with pytest.raises(iaa.AgreementError, match="no 'adjudicated' column"):
        iaa.read_adjudication(path, df)
    alike = pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": [1, "1"]})
    pd.DataFrame({"item": ["1"], "adjudicated": ["1"]}).to_csv(path, index=False)
    with pytest.warns(iaa.LookAlikeLabelsWarning), \
            pytest.raises(iaa.AgreementError, match="written alike"):
        iaa.read_adjudication(path, alike)
    with pytest.raises(iaa.AgreementError, match="path must be"):
        iaa.read_adjudication(df)  # a table is no path
    with pytest.raises(iaa.AgreementError, match="cannot read"):
        iaa.read_adjudication(tmp_path / "absent.csv")
    with pytest.raises(iaa.AgreementError, match="'item' column"):
        iaa.write_adjudication(np.zeros(3))


def test_empty_sheet_and_blank_item_are_refused(tmp_path):
    # issue 44: an empty file raised pandas' EmptyDataError; a blank item cell became an
    # item named '' (refused as unknown, or kept without data)
    path = tmp_path / "empty.csv"
    path.write_text("")
    with pytest.raises(iaa.AgreementError, match="empty.csv is empty; an adjudication sheet "
                                                 "has a header row"):
        iaa.read_adjudication(path, ratings())
    path = tmp_path / "blank.csv"
    path.write_text("item,adjudicated\r\n7,2\r\n8,\r\n ,1\r\n")
    for data in (ratings(), None):
        with pytest.raises(iaa.AgreementError, match=r"blank item cell \(rows 4\)"):
            iaa.read_adjudication(path, data)


def test_datetime_items_round_trip_with_their_time(tmp_path):
    # issue 44: pandas writes a datetime column of midnights as dates (2024-03-01), and
    # the items (Timestamp 2024-03-01 00:00:00) could not be read back
    when = pd.to_datetime(["2024-03-01", "2024-03-02", "2024-03-03"])  # every one midnight
    df = pd.DataFrame({"item": np.repeat(when, 3), "annotator": ["a", "b", "c"] * 3,
                       "label": ["x", "y", "y", "x", "x", "y", "y", "x", "x"]})
    path = tmp_path / "sheet.csv"
    iaa.write_adjudication(iaa.disagreements(df), path)
    sheet = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert sorted(sheet["item"]) == ["2024-03-01 00:00:00", "2024-03-02 00:00:00",
                                     "2024-03-03 00:00:00"]  # the CSV text, time kept
    sheet["adjudicated"] = "y"
    sheet.to_csv(path, index=False)
    gold = iaa.read_adjudication(path, df)
    assert sorted(gold["item"]) == list(when)
    assert all(isinstance(t, pd.Timestamp) for t in gold["item"])


def test_numeric_labels_match_by_value(tmp_path):
    # issue 44: a spreadsheet saves the label 1.0 as 1 (and the item 2.0 as 2); the sheet's
    # cells are matched by value to the data's numbers, keeping the data's type
    df = pd.DataFrame({"item": [1.0, 1.0, 2.0, 2.0], "annotator": ["a", "b"] * 2,
                       "label": [1.0, 2.5, 1.0, 2.5]})
    path = tmp_path / "sheet.csv"
    pd.DataFrame({"item": ["1", "2.0"], "adjudicated": ["1", "2.50"]}).to_csv(path,
                                                                             index=False)
    gold = iaa.read_adjudication(path, df)
    assert gold["item"].tolist() == [1.0, 2.0] and gold["label"].tolist() == [1.0, 2.5]
    assert all(type(v) is float for v in gold["label"])
    pd.DataFrame({"item": ["1", "1.0"], "adjudicated": ["1", "1"]}).to_csv(path, index=False)
    with pytest.raises(iaa.AgreementError, match="more than once"):  # one item, twice
        iaa.read_adjudication(path, df)
    pd.DataFrame({"item": ["1"], "adjudicated": ["3"]}).to_csv(path, index=False)
    with pytest.raises(iaa.AgreementError, match=r"label\(s\) the data do not have: \['3'\] "
                                                 r"\(rows 2\)"):
        iaa.read_adjudication(path, df)
