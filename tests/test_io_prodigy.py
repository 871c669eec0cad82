"""read_prodigy on tests/fixtures/io/prodigy_db_out.jsonl, written in the shape of
`prodigy db-out` (prodi.gy/docs: one task per line with _input_hash, _task_hash,
_annotator_id/_session_id, _view_id, answer, and label / options+accept / spans).
Expected values are read off the fixture's lines (numbered in the comments)."""
import json
from pathlib import Path

import pytest

import iaa_widgets as iaa

from iaa_widgets.errors import AgreementError
from iaa_widgets.io.prodigy import read_prodigy

FILE = Path(__file__).parent / "fixtures" / "io" / "prodigy_db_out.jsonl"


def long(ann):
    return {(r.item, r.annotator): r.label for r in ann.to_long().itertuples()}


def test_binary_answers_item_is_input_hash():
    ann = read_prodigy(FILE, view_id="classification")
    # lines 1-3 alice, 4-6 bob (line 6: ignore)
    assert long(ann) == {(101, "news-alice"): "accept", (102, "news-alice"): "reject",
                         (103, "news-alice"): "accept", (101, "news-bob"): "accept",
                         (102, "news-bob"): "accept"}
    assert "1 'ignore' answer(s) not read" in ann.notes
    assert "10 task(s) of other interfaces than 'classification' not read" in ann.notes


def test_choice_accept_lists_and_session_id_fallback():
    ann = read_prodigy(FILE, view_id="choice")
    # line 8: bob chose POS and NEU -> every label a set; line 11: bob rejected (not read);
    # carol's lines 9 and 12 have only _session_id
    assert long(ann) == {(201, "news-alice"): frozenset({"POS"}),
                         (201, "news-bob"): frozenset({"POS", "NEU"}),
                         (201, "news-carol"): frozenset({"POS"}),
                         (202, "news-alice"): frozenset({"NEG"}),
                         (202, "news-carol"): frozenset({"NEG"})}
    assert "1 'reject' answer(s) not read" in ann.notes
    with pytest.raises(AgreementError, match="line 8: 2 options chosen"):
        read_prodigy(FILE, view_id="choice", sets=False)


def test_single_choices_stay_plain_labels():
    rows = [json.loads(x) for x in FILE.read_text().splitlines()]
    rows[7]["accept"] = ["POS"]
    ann = read_prodigy(rows, view_id="choice")
    assert long(ann)[(201, "news-bob")] == "POS"


def test_manual_spans_are_units_in_character_offsets():
    spans = read_prodigy(FILE, view_id="ner_manual")
    cont = spans[301]
    assert cont.to_frame().values.tolist() == [
        ["news-alice", "PER", 0.0, 4.0], ["news-alice", "LOC", 13.0, 18.0],
        ["news-bob", "PER", 0.0, 4.0], ["news-bob", "GPE", 13.0, 18.0]]
    assert "1 'ignore' answer(s) not read" in cont.notes
    # bob ignored 302 (line 16): its continuum has alice alone, which γ refuses
    assert list(spans[302].annotators) == ["news-alice"]
    with pytest.raises(AgreementError, match="at least two annotators"):
        iaa.gamma(spans[302])


def test_view_and_label_must_be_chosen():
    with pytest.raises(AgreementError, match="several interfaces.*view_id="):
        read_prodigy(FILE)
    rows = [json.loads(x) for x in FILE.read_text().splitlines()][:6]
    rows[0]["label"] = "POLITICS"
    with pytest.raises(AgreementError, match="several labels \\['POLITICS', 'SPORTS'\\]"):
        read_prodigy(rows)
    ann = read_prodigy(rows, label="SPORTS")
    assert (101, "news-alice") not in long(ann)
    assert "1 task(s) about other labels than 'SPORTS' not read" in ann.notes


def test_bad_lines_are_named(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(FILE.read_text().splitlines()[0] + "\n\n{not json\n")
    with pytest.raises(AgreementError, match="bad.jsonl, line 3: not a JSON record"):
        read_prodigy(bad)
    row = json.loads(FILE.read_text().splitlines()[0])
    with pytest.raises(AgreementError, match="line 1: answer 'maybe'"):
        read_prodigy([{**row, "answer": "maybe"}])
    del row["_annotator_id"], row["_session_id"]
    with pytest.raises(AgreementError, match="line 1: no _annotator_id or _session_id"):
        read_prodigy([row])
    with pytest.raises(AgreementError, match="'review' is not read"):
        read_prodigy([{**row, "_view_id": "review"}])


def test_line_separators_inside_texts_and_crlf(tmp_path):
    rows = [json.loads(x) for x in FILE.read_text().splitlines()][:6]
    rows[0]["text"] = "one\u2028two\u0085three"
    path = tmp_path / "u.jsonl"
    path.write_text("\r\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\r\n",
                    encoding="utf-8", newline="")
    assert read_prodigy(path).n_ratings == 5
    path.write_text("\n".join(json.dumps(r) for r in rows[:2]) + '\n{"a": 1} {"b": 2}\n')
    with pytest.raises(AgreementError, match="u.jsonl, line 3: not a JSON record"):
        read_prodigy(path)


def test_binary_ner_questions_by_task_hash():
    base = {"text": "Anna in Paris", "_input_hash": 9, "_view_id": "ner", "answer": "accept"}
    rows = [{**base, "_task_hash": 91, "spans": [{"start": 0, "end": 4, "label": "PER"}],
             "_annotator_id": who, "answer": a} for who, a in (("x", "accept"), ("y", "reject"))]
    rows += [{**base, "_task_hash": 92, "spans": [{"start": 8, "end": 13, "label": "LOC"}],
              "_annotator_id": who} for who in ("x", "y")]
    with pytest.raises(AgreementError, match="pair rated more than once .*line 1, .*line 3"):
        read_prodigy(rows)
    assert long(read_prodigy(rows, item="_task_hash")) == {
        (91, "x"): "accept", (91, "y"): "reject", (92, "x"): "accept", (92, "y"): "accept"}


def test_accept_must_be_a_list():
    row = json.loads(FILE.read_text().splitlines()[6])
    with pytest.raises(AgreementError, match="line 1: accept is 'POS'; expected the list"):
        read_prodigy([{**row, "accept": "POS"}])
