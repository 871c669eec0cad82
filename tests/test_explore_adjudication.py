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
