"""iaa_widgets.io: readers load on first use; Spans is a mapping of documents to
continua whose categories and notes are the export's."""
import subprocess
import sys
from pathlib import Path

import pytest

import iaa_widgets.io as io
from iaa_widgets.errors import AgreementError
from iaa_widgets.io.rttm import read_rttm

HERE = Path(__file__).parent / "fixtures" / "io"


def test_readers_are_reachable_and_load_lazily():
    assert io.read_rttm is read_rttm
    assert set(io.__all__) == {"Spans", "Tagged", "read", "read_brat", "read_conll", "read_doccano",
                               "read_elan", "read_label_studio", "read_prodigy", "read_rttm",
                               "read_textgrid"}
    with pytest.raises(AttributeError):
        io.read_excel
    code = ("import sys, iaa_widgets; print(sorted(m for m in sys.modules "
            "if m.startswith('iaa_widgets.io')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded in ("[]", "['iaa_widgets.io', 'iaa_widgets.io.csv']")  # csv: read_csv's


def test_spans_mapping():
    spans = read_rttm(HERE / "rttm")
    assert len(spans) == 2 and list(spans) == ["meeting1", "meeting2"]
    assert dict(spans.items())  # Mapping.items: (document, Continuum) pairs
    assert spans["meeting2"] is spans["meeting2"]  # built once
    with pytest.raises(AgreementError, match="2 documents"):
        spans.continuum()
    with pytest.raises(AgreementError, match="no document 'meeting3'"):
        spans["meeting3"]
    one = read_rttm({"a": HERE / "rttm" / "alice.rttm", "b": HERE / "rttm" / "bob.rttm"})
    assert one.continuum("meeting1").n_units == 4
    declared = read_rttm(HERE / "rttm", categories=["spk_B", "spk_A"])
    assert list(declared["meeting2"].categories) == ["spk_B", "spk_A"]
    assert declared["meeting2"].ordered


def test_sources_must_name_several_annotators(tmp_path):
    with pytest.raises(AgreementError, match="no RTTM files .* found"):
        read_rttm(tmp_path)
    with pytest.raises(AgreementError, match="a mapping \\{annotator: path\\}"):
        read_rttm(42)
    (tmp_path / "x").mkdir()
    with pytest.raises(AgreementError, match="cannot read an RTTM file"):
        read_rttm({"a": tmp_path / "missing.rttm"})


def test_continua_leave_out_documents_without_agreement_and_say_so():
    from iaa_widgets.io.label_studio import read_label_studio
    spans = read_label_studio(HERE / "label_studio_export.json", from_name="ner")
    continua = spans.continua()
    assert list(continua) == [1, 2]  # task 3: no unit
    assert continua[1].notes[-1] == ("1 document(s) of the export left out: annotated by "
                                     "fewer than two annotators or with no unit")
    assert len(read_rttm(HERE / "rttm").continua()) == 2
