"""read_doccano on fixtures in doccano's JSONL export shapes (doccano docs, "Export"):
text classification {"id", "text", "label": [...]} one file per user, and sequence
labelling as [start, end, label] triples or {"entities": [...], "relations": [...]}, in
the zip doccano writes. Expected values are read off the fixtures."""
import json
from pathlib import Path

import pytest

import iaa_widgets as iaa

from iaa_widgets.errors import AgreementError
from iaa_widgets.io.doccano import read_doccano

HERE = Path(__file__).parent / "fixtures" / "io"


def long(ann):
    return {(r.item, r.annotator): r.label for r in ann.to_long().itertuples()}


def test_text_classification_one_file_per_annotator():
    ann = read_doccano(HERE / "doccano_textcat")
    # annotator1 gave example 2 two labels: every label is a set; admin's empty list on 3
    # is the empty set
    assert long(ann) == {(1, "admin"): frozenset({"positive"}),
                         (2, "admin"): frozenset({"negative"}), (3, "admin"): frozenset(),
                         (1, "annotator1"): frozenset({"positive"}),
                         (2, "annotator1"): frozenset({"negative", "angry"}),
                         (3, "annotator1"): frozenset({"neutral"})}


def test_single_labels_and_empty_lists_as_missing(tmp_path):
    files = {}
    for who in ("admin", "annotator1"):
        rows = [json.loads(x) for x in (HERE / "doccano_textcat" / f"{who}.jsonl")
                .read_text().splitlines()]
        files[who] = [{**r, "label": r["label"][:1]} for r in rows]
    ann = read_doccano(files)
    assert long(ann) == {(1, "admin"): "positive", (2, "admin"): "negative",
                         (1, "annotator1"): "positive", (2, "annotator1"): "negative",
                         (3, "annotator1"): "neutral"}
    assert ann.n_blank == 1  # admin's [] on example 3
    with pytest.raises(AgreementError, match="annotator1.jsonl, line 2: 2 labels"):
        read_doccano(HERE / "doccano_textcat", sets=False)


def test_sequence_labelling_zip_triples_and_entities():
    spans = read_doccano(HERE / "doccano_ner.zip")
    assert spans.documents == [7, 8]
    assert spans[7].to_frame().values.tolist() == [
        ["admin", "PER", 0.0, 12.0], ["admin", "PER", 17.0, 24.0], ["admin", "LOC", 28.0, 34.0],
        ["annotator1", "PER", 0.0, 3.0], ["annotator1", "PER", 17.0, 24.0],
        ["annotator1", "GPE", 28.0, 34.0]]
    assert spans.notes == ("1 relation(s) not read",)
    assert spans[8].n_units == 0 and list(spans[8].annotators) == ["admin", "annotator1"]
    with pytest.raises(AgreementError, match="γ of an empty continuum"):
        iaa.gamma(spans[8])


def test_bad_records_are_named(tmp_path):
    (tmp_path / "a.jsonl").write_text('{"id": 1, "label": ["x"]}\n{"text": "no id"}\n')
    (tmp_path / "b.jsonl").write_text('{"id": 1, "label": ["x"]}\n')
    with pytest.raises(AgreementError, match="a.jsonl, line 2: no 'id' field"):
        read_doccano(tmp_path)
    (tmp_path / "a.jsonl").write_text('{"id": 1, "label": [[0, 3]]}\n')
    with pytest.raises(AgreementError, match="a.jsonl, line 1: a span \\[0, 3\\]; expected"):
        read_doccano(tmp_path)
    (tmp_path / "a.jsonl").write_text('{"id": 1, "label": "x"}\n')
    with pytest.raises(AgreementError, match="a.jsonl, line 1: 'label' is 'x'; expected an array"):
        read_doccano(tmp_path)
