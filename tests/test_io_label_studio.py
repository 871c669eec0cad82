"""read_label_studio on tests/fixtures/io/label_studio_export.json, written in the schema of
Label Studio's "Label Studio JSON format of annotated tasks" (labelstud.io/guide/task_format):
tasks with id, data, annotations (completed_by, was_cancelled, result regions with
from_name/type/value) and predictions. Every expected value below is read off that file."""
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa

from iaa_widgets.errors import AgreementError
from iaa_widgets.io.label_studio import read_label_studio

FILE = Path(__file__).parent / "fixtures" / "io" / "label_studio_export.json"


def long(ann):
    return {(r.item, r.annotator): r.label for r in ann.to_long().itertuples()}


def test_choices_item_is_task_id_annotator_completed_by():
    ann = read_label_studio(FILE, from_name="sentiment")
    # tasks 1-3, users 1 and 2; user 3's annotation of task 1 was cancelled
    assert long(ann) == {(1, 1): "Positive", (1, 2): "Positive", (2, 1): "Negative",
                         (2, 2): "Neutral", (3, 1): "Positive", (3, 2): "Positive"}
    assert list(ann.annotators) == [1, 2] and ann.n_blank == 0
    assert "1 cancelled annotation(s) (was_cancelled) not read" in ann.notes
    assert "1 model prediction(s) not read" in ann.notes  # task 1's prediction "Negative"
    assert not ann.ordered  # text categories: no order from sorting


def test_several_choices_make_every_label_of_the_control_a_set():
    ann = read_label_studio(FILE, from_name="topic")
    # annotation 11 chose animals and home; 22 and 31 hold no topic region: missing
    assert long(ann) == {(1, 1): frozenset({"animals", "home"}), (1, 2): frozenset({"animals"}),
                         (2, 1): frozenset({"animals"}), (3, 2): frozenset({"home"})}
    assert ann.n_blank == 2
    with pytest.raises(AgreementError, match="task 1, annotation 11: 2 choices of 'topic'"):
        read_label_studio(FILE, from_name="topic", sets=False)
    as_sets = read_label_studio(FILE, from_name="sentiment", sets=True)
    assert long(as_sets)[(2, 2)] == frozenset({"Neutral"})


def test_rating_is_numeric_and_ordered():
    ann = read_label_studio(FILE, from_name="quality")
    assert long(ann) == {(1, 1): 4, (1, 2): 5, (2, 1): 2, (2, 2): 3, (3, 1): 1, (3, 2): 1}
    assert ann.ordered and list(ann.categories) == [1, 2, 3, 4, 5]


def test_labels_are_spans_one_continuum_per_task():
    spans = read_label_studio(FILE, from_name="ner")
    assert spans.documents == [1, 2, 3]
    one = spans[1].to_frame()
    assert one.values.tolist() == [[1, "ANIMAL", 4.0, 7.0], [1, "OBJECT", 19.0, 22.0],
                                   [2, "ANIMAL", 4.0, 7.0]]
    # region s4 carries two labels on "Dogs": one unit each; user 2 annotated task 2 with
    # no span and still counts as an annotator of it
    two = spans[2]
    assert two.to_frame().values.tolist() == [[1, "ANIMAL", 0.0, 4.0], [1, "PLURAL", 0.0, 4.0]]
    assert list(two.annotators) == [1, 2]
    # every document's continuum has the export's categories, not ordered
    assert list(two.categories) == ["ANIMAL", "OBJECT", "PLURAL"] and not two.ordered
    assert "1 cancelled annotation(s) (was_cancelled) not read" in two.notes
    assert spans[3].n_units == 0  # submitted, nobody placed a unit: an empty continuum
    with pytest.raises(AgreementError, match="γ of an empty continuum"):
        iaa.gamma(spans[3])
    with pytest.raises(AgreementError, match="3 documents"):
        spans.continuum()


def test_control_must_be_named_when_there_are_several():
    with pytest.raises(AgreementError, match="several controls.*'ner': 'labels'.*from_name="):
        read_label_studio(FILE)
    with pytest.raises(AgreementError, match="no region of control 'mood'"):
        read_label_studio(FILE, from_name="mood")


def test_parsed_tasks_user_objects_and_open_files():
    tasks = json.loads(FILE.read_text())
    for task in tasks:  # older exports: completed_by is a user object
        for a in task["annotations"]:
            a["completed_by"] = {"id": a["completed_by"], "email": f"u{a['completed_by']}@x.org"}
    ann = read_label_studio(tasks, from_name="sentiment")
    assert list(ann.annotators) == ["u1@x.org", "u2@x.org"]
    with open(FILE, "rb") as fh:
        assert long(read_label_studio(fh, from_name="quality"))[(1, 2)] == 5


def test_duplicates_and_bad_files_are_named(tmp_path):
    tasks = json.loads(FILE.read_text())
    tasks[0]["annotations"][1]["completed_by"] = 1  # user 1 annotated task 1 twice
    with pytest.raises(AgreementError, match="task 1, annotation 11.*task 1, annotation 12"):
        read_label_studio(tasks, from_name="sentiment")
    bad = tmp_path / "bad.json"
    bad.write_text('[{"id": 1,\n "annotations": [}\n]')
    with pytest.raises(AgreementError, match=r"bad.json is not valid JSON: .* line 2"):
        read_label_studio(bad)
    with pytest.raises(AgreementError, match="task 0 has no 'annotations' list"):
        read_label_studio([{"id": 1, "sentiment": "Positive"}], from_name="x")
    region = {"from_name": "s", "type": "choices", "value": {"text": "oops"}}
    with pytest.raises(AgreementError, match="task 4, annotation 0: a 'choices' region without "
                                             "value.choices"):
        read_label_studio([{"id": 4, "annotations": [{"completed_by": 1, "result": [region]}]}])
    tl = {"from_name": "t", "type": "textarea", "value": {"text": ["hi"]}}
    with pytest.raises(AgreementError, match="type 'textarea'"):
        read_label_studio([{"id": 4, "annotations": [{"completed_by": 1, "result": [tl]}]}])


def test_kappa_on_the_read_labels_equals_kappa_on_the_same_table():
    from iaa_widgets.measures.categorical.classic import cohen_kappa
    ann = read_label_studio(FILE, from_name="sentiment")
    table = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": [1, 2] * 3,
                          "label": ["Positive", "Positive", "Negative", "Neutral",
                                    "Positive", "Positive"]})
    assert np.isclose(cohen_kappa(ann).value, cohen_kappa(table).value)
    # and the notes travel into the result
    assert "cancelled" in cohen_kappa(ann).note


def test_choices_must_be_a_list():
    region = {"from_name": "s", "type": "choices", "value": {"choices": "Positive"}}
    with pytest.raises(AgreementError, match="task 4, annotation 0: value.choices is 'Positive'"):
        read_label_studio([{"id": 4, "annotations": [{"completed_by": 1, "result": [region]}]}])


def test_span_bounds_must_be_numbers():
    region = {"from_name": "n", "type": "labels",
              "value": {"start": "/p[1]/text()[1]", "end": 4, "labels": ["X"]}}
    tasks = [{"id": 4, "annotations": [{"completed_by": 1, "result": [region]},
                                       {"completed_by": 2, "result": []}]}]
    with pytest.raises(AgreementError, match="task 4, annotation 0: a unit's start is "
                                             "'/p\\[1\\]/text\\(\\)\\[1\\]'; expected a finite"):
        read_label_studio(tasks)
    region["value"]["start"] = 9
    with pytest.raises(AgreementError, match="task 4, annotation 0: a unit ends before it "
                                             "starts"):
        read_label_studio(tasks)
