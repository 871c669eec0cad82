"""Odd files that used to change data without a word (issue 27): each now reads correctly
or raises AgreementError naming the file and the line or record. The files are the
fixtures of tests/fixtures/io with one thing changed, so that the rest is as each tool
writes it.

The rule for a second submission, in every reader (labels and spans alike): an annotator
submits an item or document once; a second submission by the same annotator is refused,
naming both records (never merged, never silently kept instead of the first).
"""
import copy
import json
import warnings
from pathlib import Path

import pytest

import iaa_widgets as iaa
from iaa_widgets.errors import AgreementError
from iaa_widgets.labels import LookAlikeLabelsWarning

HERE = Path(__file__).parent / "fixtures" / "io"
LS = json.loads((HERE / "label_studio_export.json").read_text())
PRODIGY = [json.loads(x) for x in (HERE / "prodigy_db_out.jsonl").read_text().splitlines()]


def ner_regions(tasks):
    return [r for t in tasks for a in t["annotations"] for r in a["result"]
            if r["from_name"] == "ner"]


# ------------------------------------------------------------------------ Label Studio
def test_label_studio_labels_as_a_string_is_refused_not_split_into_letters():
    tasks = copy.deepcopy(LS)
    ner_regions(tasks)[0]["value"]["labels"] = "ANIMAL"
    with pytest.raises(AgreementError, match="task 1, annotation 11: value.labels is 'ANIMAL'; "
                                             "expected the list"):
        iaa.read_label_studio(tasks, from_name="ner")


def test_label_studio_region_without_label_is_counted():
    tasks = copy.deepcopy(LS)
    ner_regions(tasks)[0]["value"]["labels"] = []
    spans = iaa.read_label_studio(tasks, from_name="ner")
    assert "1 region(s) with no label (value.labels is []) not read" in spans.notes
    before = iaa.read_label_studio(LS, from_name="ner")
    assert len(spans.units) == len(before.units) - 1


# ------------------------------------------------------------------------ second submission
def test_span_readers_refuse_a_second_submission_like_the_label_readers():
    tasks = copy.deepcopy(LS)
    tasks[0]["annotations"].append(copy.deepcopy(tasks[0]["annotations"][0]))  # again by 1
    with pytest.raises(AgreementError, match="annotator 1 submitted document 1 twice "
                                             r"\(.*task 1, annotation 11 and .*annotation 11\)"):
        iaa.read_label_studio(tasks, from_name="ner")
    with pytest.raises(AgreementError, match="rated more than once"):  # labels: the same rule
        iaa.read_label_studio(tasks, from_name="sentiment")
    rows = [r for r in PRODIGY if r["_view_id"] == "ner_manual"]
    with pytest.raises(AgreementError, match="submitted document 301 twice .*line 1 and "
                                             ".*line 5"):
        iaa.read_prodigy(rows[:4] + [rows[0]])
    doc = {"a": [{"id": 1, "label": [[0, 3, "X"]]}, {"id": 1, "label": [[5, 6, "Y"]]}],
           "b": [{"id": 1, "label": []}]}
    with pytest.raises(AgreementError, match="annotator 'a' submitted document 1 twice \\(the "
                                             "records of 'a', line 1 and .*line 2\\)"):
        iaa.read_doccano(doc)


# ------------------------------------------------------------------------ TextGrid
def test_textgrid_tiers_beyond_size_and_non_integer_size_are_refused(tmp_path):
    text = (HERE / "textgrid" / "two_annotators_short.TextGrid").read_text()
    bad = tmp_path / "bad.TextGrid"
    head, rest = text.split("<exists>\n3\n", 1)
    bad.write_text(head + "<exists>\n2\n" + rest)  # declares 2 tiers, holds 3
    with pytest.raises(AgreementError, match="bad.TextGrid, line .*: more after the 2 tier"):
        iaa.read_textgrid(bad)
    bad.write_text(head + "<exists>\n2.5\n" + rest)
    with pytest.raises(AgreementError, match="the number of tiers is 2.5; expected a whole"):
        iaa.read_textgrid(bad)
    with pytest.raises(AgreementError, match="tiers=5; expected a tier name"):
        iaa.read_textgrid(HERE / "textgrid" / "two_annotators_short.TextGrid", tiers=5)


# ------------------------------------------------------------------------ brat, RTTM
def test_brat_repeated_t_id_is_refused(tmp_path):
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        (tmp_path / who / "d.ann").write_text("T1\tPER 0 3\tAda\n")
    (tmp_path / "a" / "d.ann").write_text("T1\tPER 0 3\tAda\nT1\tPER 4 7\tBob\n")
    with pytest.raises(AgreementError, match="d.ann, line 2: annotation id 'T1' is used again "
                                             r"\(first on line 1\)"):
        iaa.read_brat(tmp_path)


def test_brat_line_numbers_count_line_feeds_only(tmp_path):
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        # U+2028, U+0085 and a form feed inside a T line's text: still one line
        (tmp_path / who / "d.ann").write_text("T1\tPER 0 5\tA\u2028B\x85\x0cC\nT2\tPER 0 x\tA\n")
    with pytest.raises(AgreementError, match="d.ann, line 2: "):
        iaa.read_brat(tmp_path)
    for who in ("a", "b"):
        (tmp_path / who / "d.ann").write_text("T1\tPER 0 5\tA\u2028B\x85\x0cC\r\n")
    assert iaa.read_brat(tmp_path)["d"].n_units == 2


def test_conll_line_numbers_and_tokens_keep_unicode_separators(tmp_path):
    (tmp_path / "a.conll").write_text("Ada\u2028x B-PER\nLove\x85lace I-PER\n\nbad\n")
    (tmp_path / "b.conll").write_text("Ada\u2028x B-PER\nLove\x85lace I-PER\n")
    with pytest.raises(AgreementError, match="a.conll, line 4: 'bad' has 1 column"):
        iaa.read_conll(tmp_path)
    (tmp_path / "a.conll").write_text("Ada\u2028x B-PER\nLove\x85lace I-PER\n")
    tagged = iaa.read_conll(tmp_path)
    assert tagged.spans[1].to_frame().values.tolist() == [["a", "PER", 0.0, 2.0],
                                                          ["b", "PER", 0.0, 2.0]]


def test_rttm_repeated_segment_is_refused_and_silent_file_is_noted(tmp_path):
    line = "SPEAKER m1 1 0.50 1.25 <NA> <NA> spk1 <NA> <NA>\n"
    (tmp_path / "a.rttm").write_text(line + line)
    (tmp_path / "b.rttm").write_text(line)
    with pytest.raises(AgreementError, match="a.rttm, line 2: the segment of line 1 again"):
        iaa.read_rttm(tmp_path)
    (tmp_path / "a.rttm").write_text(line)
    (tmp_path / "c.rttm").write_text("SPKR-INFO m1 1 <NA> <NA> <NA> unknown spk1 <NA> <NA>\n")
    spans = iaa.read_rttm(tmp_path)
    assert spans.notes == ("1 SPKR-INFO line(s) not read (only SPEAKER lines are)",
                           "1 file(s) with no SPEAKER line, their annotator(s) ['c'] left out "
                           "(an RTTM file names its recordings only on SPEAKER lines)")


# ------------------------------------------------------------------------ categories
def test_blank_span_category_is_refused():
    rows = [r for r in PRODIGY if r["_view_id"] == "ner_manual"]
    rows = copy.deepcopy(rows)
    rows[0]["spans"][0]["label"] = "  "
    with pytest.raises(AgreementError, match="line 1: a unit's category is '  ', blank"):
        iaa.read_prodigy(rows)


def test_read_csv_numbers_written_differently_stay_separate_and_warn(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("item,annotator,label\n1,a,1\n1,b,1.0\n2,a,01\n2,b,2\n")
    with pytest.warns(LookAlikeLabelsWarning, match=r"\['1', '1.0', '01'\]"):
        ann = iaa.read_csv(path)
    assert sorted(ann.to_long()["label"]) == ["01", "1", "1.0", "2"]
    assert "dtype={'label': float}" in ann.notes[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        merged = iaa.read_csv(path, dtype={"label": float})  # the user says: numbers
        plain = tmp_path / "p.csv"
        plain.write_text("item,annotator,label\n1,a,1\n1,b,1\n2,a,2\n2,b,3\n")
        assert iaa.read_csv(plain).notes == ()
    assert sorted(merged.to_long()["label"]) == [1.0, 1.0, 1.0, 2.0]


# ------------------------------------------------------------------------ raw exceptions
@pytest.mark.parametrize("change, message", [
    (lambda t: t[0].update(id=[1]), "task \\[1\\], annotation 11: the item id is an array"),
    (lambda t: t[0]["annotations"][0]["result"][0]["value"].update(choices=[{"x": 1}]),
     "task 1, annotation 11: the label is an object"),
    (lambda t: t.append(5), "task 3 has no 'annotations' list"),
    (lambda t: t[0]["annotations"].append(7),
     "task 1, annotation 3: an annotation 7; expected an object"),
    (lambda t: t[0]["annotations"][0].update(result={"a": 1}), "result is an object"),
])
def test_wrong_json_types_are_named(change, message):
    tasks = copy.deepcopy(LS)
    change(tasks)
    with pytest.raises(AgreementError, match=message):
        iaa.read_label_studio(tasks, from_name="sentiment")


def test_deep_nesting_and_huge_numbers(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(AgreementError, match="deep.json .*nested too deeply"):
        iaa.read_label_studio(deep)
    lines = tmp_path / "deep.jsonl"
    lines.write_text(json.dumps(PRODIGY[0]) + "\n" + '{"a": ' + "[" * 100_000 + "]" * 100_000
                     + "}\n")
    with pytest.raises(AgreementError, match="deep.jsonl, line 2: .*nested too deeply"):
        iaa.read_prodigy(lines)
    lines.write_text("\n".join(json.dumps(r) for r in PRODIGY[:6]).replace(
        '"_input_hash": 102', '"_input_hash": 1e400'))
    with pytest.raises(AgreementError, match="line 2: the item id is inf"):
        iaa.read_prodigy(lines, view_id="classification")
    lines.write_text(json.dumps(PRODIGY[0]).replace("101", "1" * 5000))
    with pytest.raises(AgreementError, match="line 1: a JSON record this reader cannot read"):
        iaa.read_prodigy(lines)


def test_bad_arguments_and_paths(tmp_path):
    with pytest.raises(AgreementError, match="tiers=5; expected a tier name"):
        iaa.read_elan(HERE / "elan" / "gestures.eaf", tiers=5)
    with pytest.raises(AgreementError, match="column='x'; expected the tag's column"):
        iaa.read_conll(HERE / "conll", column="x")
    with pytest.raises(AgreementError, match="no such file or folder"):
        iaa.read_rttm(tmp_path / "absent")
    with pytest.raises(AgreementError, match="cannot read the CSV file .*absent.csv"):
        iaa.read_csv(tmp_path / "absent.csv")
    with pytest.raises(AgreementError, match="cannot read the CSV file"):
        iaa.read_csv(tmp_path)
    with pytest.raises(AgreementError, match="cannot read a Label Studio"):
        iaa.read_label_studio(tmp_path / "absent.json")
    with pytest.raises(AgreementError, match=r"read_doccano: item=\['id'\]; expected a text"):
        iaa.read_doccano(HERE / "doccano_textcat", item=["id"])
    with pytest.raises(AgreementError, match=r"from_name=\['ner'\]; expected a text"):
        iaa.read_label_studio(LS, from_name=["ner"])
    with pytest.raises(AgreementError, match="as a list of paths, got 1 in it"):
        iaa.read_rttm([1, 2])
    tasks = copy.deepcopy(LS)
    tasks[0]["annotations"][0]["completed_by"] = {"first_name": "Ann"}
    with pytest.raises(AgreementError, match="a user object with neither email nor id"):
        iaa.read_label_studio(tasks, from_name="sentiment")
