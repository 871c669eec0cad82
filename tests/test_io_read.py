"""iaa.read: one door for any export, the format told by the content (the fixtures of
tests/fixtures/io, each written as its tool writes it; see test_io_variants.py for the
sources), the reader named in the notes; ambiguous or unknown content refused naming the
candidates and format=."""
import json
import shutil
from pathlib import Path

import pytest

import iaa_widgets as iaa
from iaa_widgets.cli import main
from iaa_widgets.errors import AgreementError
from iaa_widgets.io.detect import detect_format

HERE = Path(__file__).parent / "fixtures" / "io"


@pytest.mark.parametrize("path, fmt", [
    ("label_studio_export.json", "label_studio"), ("prodigy_db_out.jsonl", "prodigy"),
    ("prodigy_no_view_id.jsonl", "prodigy"), ("prodigy_blocks.jsonl", "prodigy"),
    ("doccano_ner.zip", "doccano"), ("doccano_textcat", "doccano"),
    ("doccano_noid", "doccano"), ("doccano_v1/project_ner.jsonl", "doccano"),
    ("brat", "brat"), ("rttm", "rttm"), ("rttm/alice.rttm", "rttm"), ("conll", "conll"),
    ("elan/gestures.eaf", "elan"), ("textgrid", "textgrid"),
    ("textgrid/two_annotators_short.TextGrid", "textgrid"),
])
def test_formats_are_told_by_content(path, fmt, tmp_path):
    assert detect_format(HERE / path) == fmt
    if (HERE / path).is_file():  # not by the extension: the same bytes under another name
        renamed = tmp_path / "export.data"
        shutil.copy(HERE / path, renamed)
        assert detect_format(renamed) == fmt


def test_read_calls_the_reader_and_says_which():
    ann = iaa.read(HERE / "prodigy_no_view_id.jsonl")
    assert ann.to_long().equals(iaa.read_prodigy(HERE / "prodigy_no_view_id.jsonl").to_long())
    assert ann.notes[-1] == ("read as prodigy by iaa.read_prodigy (format recognised from "
                             "the content; format= overrides)")
    spans = iaa.read(HERE / "label_studio_export.json", from_name="ner")
    assert spans.notes[-1].startswith("read as label_studio by iaa.read_label_studio")
    tagged = iaa.read(HERE / "conll")
    assert tagged.tokens.notes[-1].startswith("read as conll") and \
        tagged.spans.notes[-1].startswith("read as conll")
    told = iaa.read(HERE / "rttm", format="rttm")
    assert told.notes[-1] == "read as rttm by iaa.read_rttm"


def test_ambiguous_or_unknown_content_names_candidates_and_format(tmp_path):
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    shutil.copy(HERE / "rttm" / "alice.rttm", mixed)
    shutil.copy(HERE / "conll" / "alice.conll", mixed)
    with pytest.raises(AgreementError, match="could be rttm or conll; pass format= in "
                                             "Python, or pass --format to iaa report"):
        iaa.read(mixed)
    other = tmp_path / "other.json"
    other.write_text(json.dumps([{"a": 1}]))
    with pytest.raises(AgreementError, match="is in no format iaa_widgets reads; pass format="):
        iaa.read(other)
    with pytest.raises(AgreementError, match="format='excel'; expected one of"):
        iaa.read(other, format="excel")


def test_iaa_report_recognises_a_json_export(tmp_path):
    out = tmp_path / "r.html"
    rows = [json.loads(x) for x in (HERE / "prodigy_db_out.jsonl").read_text().splitlines()]
    export = tmp_path / "export.jsonl"
    export.write_text("".join(json.dumps(r) + "\n" for r in rows
                              if r["_view_id"] == "classification"))
    assert main(["report", str(export), "-o", str(out), "--bootstrap", "0"]) == 0
    assert out.exists()
