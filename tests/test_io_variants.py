"""The variants annotation tools really write (issue 27), each on a fixture written the way
the tool writes it. Where each format comes from:

- doccano 1.x project export: doccano 1.x ``app/api/utils.py`` ``JSONPainter.paint``
  (DocumentSerializer: ``id``, ``text``, ``annotations``, ``meta``,
  ``annotation_approver``; each annotation keeps ``label`` (an id), ``start_offset``,
  ``end_offset``, ``user``, ``created_at``, ``updated_at``) and its label export
  (``[{"id", "text", "prefix_key", "suffix_key", "background_color", "text_color"}]``).
- doccano today: ``backend/data_export/pipeline/factories.py`` (sequence labelling
  ``label`` as [start, end, tag] triples; intent detection ``cats`` beside the spans) and
  the export example ``backend/data_export/pipeline/examples/sequence_labeling/
  example.jsonl`` (records with no ``id``), copied into tests/fixtures/io/doccano_noid.
- Prodigy: prodi.gy/docs ("Annotation interfaces", "Custom Interfaces: combining
  interfaces with blocks"): a blocks task holds ``spans`` of ``ner_manual`` and
  ``options``/``accept`` of ``choice``; older binary textcat db-out has no ``_view_id``
  and only ``_session_id``.
- brat: brat's standoff format documentation ("Text-bound annotations": offsets into the
  .txt in characters; the text of a discontinuous annotation is its fragments' texts
  joined by a space).
- CoNLL-2003: ``-DOCSTART-`` lines separate documents, blank lines sentences.
- ELAN: the EAF schema (TIME_ORDER / TIME_SLOT, TIER / ALIGNABLE_ANNOTATION).

Expected values are read off the fixture files by hand (line numbers in the comments).
"""
import json
import shutil
from pathlib import Path

import pytest

import iaa_widgets as iaa
from iaa_widgets.errors import AgreementError

HERE = Path(__file__).parent / "fixtures" / "io"


def units(cont):
    return cont.to_frame().values.tolist()


def long(ann):
    return {(r.item, r.annotator): r.label for r in ann.to_long().itertuples()}


# ------------------------------------------------------------------------------ doccano
def test_doccano_1x_project_export_users_are_annotators_and_labels_map():
    spans = iaa.read_doccano(HERE / "doccano_v1" / "project_ner.jsonl",
                             labels=HERE / "doccano_v1" / "labels.json")
    # line 1: user 1 PER 0-12 and LOC 28-34, user 2 PER 0-3 and PER 17-24
    assert units(spans[1]) == [[1, "PER", 0.0, 12.0], [1, "LOC", 28.0, 34.0],
                               [2, "PER", 0.0, 3.0], [2, "PER", 17.0, 24.0]]
    assert sorted(units(spans[2])) == [[1, "LOC", 12.0, 17.0], [2, "LOC", 12.0, 17.0]]
    assert spans.notes == ()


def test_doccano_1x_without_labels_keeps_ids_as_text_and_says_so():
    spans = iaa.read_doccano(HERE / "doccano_v1" / "project_ner.jsonl")
    assert list(spans[1].categories) == ["1", "2"]
    assert spans.notes == ("6 label id(s) kept as ids (pass labels=, the project's label "
                           "file, to read their names)",)
    with pytest.raises(AgreementError, match="line 1: label id 2 is not in labels="):
        iaa.read_doccano(HERE / "doccano_v1" / "project_ner.jsonl", labels={1: "PER"})


def test_doccano_1x_classification():
    ann = iaa.read_doccano(HERE / "doccano_v1" / "project_textcat.jsonl",
                           labels=HERE / "doccano_v1" / "labels.json")
    assert long(ann) == {(11, 1): "positive", (11, 2): "positive", (12, 1): "negative",
                         (12, 2): "positive"}
    assert ann.notes[0].startswith("1 example(s) of the project export with no annotation")


def test_doccano_records_without_id_are_their_line_numbers_or_their_text():
    spans = iaa.read_doccano(HERE / "doccano_noid")
    assert spans.documents == [1, 2, 3]
    assert units(spans[2]) == [["admin", "PERSON", 0.0, 15.0],
                               ["annotator1", "PERSON", 0.0, 5.0]]
    assert units(spans[3]) == [["admin", "PERSON", 10.0, 15.0]]  # annotator1: []
    assert spans.notes == ("2 file(s) without 'id': each example is its line number "
                           "(item='text' matches examples by their text)",)
    by_text = iaa.read_doccano(HERE / "doccano_noid", item="text")
    assert by_text.documents == ["EU rejects German call to boycott British lamb.",
                                 "Peter Blackburn", "President Obama"]
    assert units(by_text["Peter Blackburn"]) == units(spans[2])


def test_doccano_intent_detection_cats_beside_spans():
    rows = {"alice": [{"id": 1, "text": "book a flight to Paris", "entities": [[17, 22, "LOC"]],
                       "cats": ["flight"], "Comments": []}],
            "bob": [{"id": 1, "text": "book a flight to Paris", "entities": [[17, 22, "GPE"]],
                     "cats": ["flight", "booking"], "Comments": []}]}
    spans = iaa.read_doccano(rows)
    assert units(spans[1]) == [["alice", "LOC", 17.0, 22.0], ["bob", "GPE", 17.0, 22.0]]
    assert "2 'cats' list(s) not read (field='cats' reads them)" in spans.notes
    assert long(iaa.read_doccano(rows, field="cats")) == {
        (1, "alice"): frozenset({"flight"}), (1, "bob"): frozenset({"flight", "booking"})}


def test_doccano_span_ending_before_its_start_names_file_line_and_record(tmp_path):
    (tmp_path / "a.jsonl").write_text('{"id": 1, "label": []}\n'
                                      '{"id": 7, "label": [[5, 2, "PER"]]}\n')
    (tmp_path / "b.jsonl").write_text('{"id": 1, "label": []}\n')
    with pytest.raises(AgreementError, match=r"a.jsonl, line 2 \(record 7\): a unit ends "
                                             r"before it starts"):
        iaa.read_doccano(tmp_path)
    (tmp_path / "a.jsonl").write_text('{"id": 1, "label": []}\n{"id": 7, "label": [\n')
    with pytest.raises(AgreementError, match="a.jsonl, line 2: not a JSON record"):
        iaa.read_doccano(tmp_path)


# ------------------------------------------------------------------------------ Prodigy
def test_prodigy_without_view_id_infers_binary_and_says_so():
    ann = iaa.read_prodigy(HERE / "prodigy_no_view_id.jsonl")
    # lines 1-2 alice accept/reject (3: ignore), lines 4-6 bob accept ×3
    assert long(ann) == {(-1288463385, "news-alice"): "accept",
                         (511202331, "news-alice"): "reject",
                         (-1288463385, "news-bob"): "accept", (511202331, "news-bob"): "accept",
                         (1963327040, "news-bob"): "accept"}
    assert ann.notes == ("1 'ignore' answer(s) not read",
                         "5 task(s) without _annotator_id: the annotator is their _session_id",
                         "6 task(s) without _view_id: interface inferred from their fields "
                         "('classification' read)")


def test_prodigy_blocks_choice_and_spans_parts_and_dataset_prefix():
    path = HERE / "prodigy_blocks.jsonl"
    with pytest.raises(AgreementError, match="both a choice .* block='choice' or block='spans'"):
        iaa.read_prodigy(path)
    # line 3's _annotator_id is the plain 'alice'; dataset='trips' reads 'trips-alice' as it
    choice = iaa.read_prodigy(path, block="choice", dataset="trips")
    assert long(choice) == {(401, "alice"): frozenset({"TRAVEL"}),
                            (401, "bob"): frozenset({"TRAVEL", "OTHER"}),
                            (402, "alice"): frozenset({"OTHER"})}
    assert "1 'ignore' answer(s) not read" in choice.notes  # line 4
    spans = iaa.read_prodigy(path, block="spans", dataset="trips")
    assert units(spans[401]) == [["alice", "PER", 0.0, 4.0], ["alice", "LOC", 13.0, 18.0],
                                 ["bob", "GPE", 13.0, 18.0]]
    assert spans[402].n_units == 0  # alice's empty spans list
    plain = iaa.read_prodigy(path, block="spans")
    assert set(plain.annotated["annotator"]) == {"trips-alice", "trips-bob", "alice"}


# ------------------------------------------------------------------------------ brat
def test_brat_offsets_are_checked_against_the_text(tmp_path):
    for who in ("alice", "bob"):
        shutil.copytree(HERE / "brat" / who, tmp_path / who)
    ann = tmp_path / "alice" / "news" / "d1.ann"
    good = ann.read_text()
    ann.write_text(good.replace("T3\tLocation 36 42\tLondon", "T3\tLocation 36 42\tParis"))
    with pytest.raises(AgreementError, match=r"d1.ann, line 3: the text at offsets 36 42 is "
                                             r"'London', the line says 'Paris'"):
        iaa.read_brat(tmp_path)
    ann.write_text(good.replace("T3\tLocation 36 42\tLondon", "T3\tLocation 36 420\tLondon"))
    with pytest.raises(AgreementError, match=r"d1.ann, line 3: offsets 36 420 go beyond the "
                                             r"end of the text \(44 characters"):
        iaa.read_brat(tmp_path)
    ann.write_text(good)
    (tmp_path / "bob" / "d2.txt").unlink()
    assert iaa.read_brat(tmp_path).notes[-1] == ("1 .ann file(s) without their .txt: offsets "
                                                 "not checked against the text")


def test_brat_discontinuous_text_is_joined_by_a_space(tmp_path):
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        (tmp_path / who / "d.txt").write_text("New and\nYork\u2028x")
        (tmp_path / who / "d.ann").write_text("T1\tCity 0 3;8 12\tNew York\n")
    spans = iaa.read_brat(tmp_path)
    assert units(spans["d"]) == [["a", "City", 0.0, 3.0], ["a", "City", 8.0, 12.0],
                                 ["b", "City", 0.0, 3.0], ["b", "City", 8.0, 12.0]]


# ------------------------------------------------------------------------------ CoNLL
def test_conll_token_items_and_spans_per_sentence():
    tagged = iaa.read_conll(HERE / "conll", spans_by="sentence")
    assert set(tagged.tokens.to_long()["item"]) >= {(1, 1, 1), (1, 2, 3), (2, 1, 1)}
    assert set(tagged.spans.documents) == {(1, 1), (1, 2), (2, 1)}
    # alice.conll: sentence 1 'Ada Lovelace met Charles Babbage .' B-PER I-PER O B-PER
    # I-PER O; sentence 2 'In London .' O B-LOC O; bob tags Lovelace B-PER, London B-GPE
    assert units(tagged.spans[(1, 2)]) == [["alice", "LOC", 1.0, 2.0],
                                           ["bob", "GPE", 1.0, 2.0]]
    by_doc = iaa.read_conll(HERE / "conll")  # positions from the document's first token:
    assert units(by_doc.spans[1])[2] == ["alice", "LOC", 7.0, 8.0]  # 6 + 1
    with pytest.raises(AgreementError, match="spans_by='token'"):
        iaa.read_conll(HERE / "conll", spans_by="token")


# ------------------------------------------------------------------------------ ELAN
def test_elan_errors_name_file_annotation_and_time_slots(tmp_path):
    text = (HERE / "elan" / "gestures.eaf").read_text()
    bad = tmp_path / "bad.eaf"
    bad.write_text(text.replace('TIME_VALUE="', 'TIME_VALUE="abc', 1))
    with pytest.raises(AgreementError, match="bad.eaf: time slot 'ts1' has TIME_VALUE 'abc"):
        iaa.read_elan(bad)
    bad.write_text(text.replace('TIME_SLOT_ID="ts2"', 'TIME_SLOT_ID="ts1"', 1))
    with pytest.raises(AgreementError, match="bad.eaf: TIME_SLOT_ID 'ts1' is defined twice"):
        iaa.read_elan(bad)
    bad.write_text(text.replace('TIER_ID="Gesture-B"', 'TIER_ID="Gesture-A"'))
    with pytest.raises(AgreementError, match="bad.eaf: TIER_ID 'Gesture-A' names 2 tiers"):
        iaa.read_elan(bad)


# ------------------------------------------------------------------------------ Spans
def test_spans_is_a_mapping_of_every_submitted_document():
    spans = iaa.read_label_studio(HERE / "label_studio_export.json", from_name="ner")
    got = dict(spans.items())  # never raises, also on task 3 where nobody placed a unit
    assert list(got) == spans.documents == [1, 2, 3]
    assert got[3].n_units == 0 and got[3].n_annotators == 2
    with pytest.raises(AgreementError, match="γ of an empty continuum"):
        iaa.gamma(got[3])
    with pytest.raises(AgreementError, match="the continuum is empty"):  # not numpy's error
        iaa.unitizing_alpha(got[3])
    assert 3 in spans and 99 not in spans and [1] not in spans
    assert spans.get(99) is None
    with pytest.raises(KeyError):
        spans[99]
    assert list(spans.continua()) == [1, 2]


def test_doccano_fixture_zip_is_read_line_by_line_as_written():
    # the zip doccano writes holds one JSONL per user: records as in factories.py
    spans = iaa.read_doccano(HERE / "doccano_ner.zip")
    assert json.loads(json.dumps(spans.documents)) == [7, 8]
