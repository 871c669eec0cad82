"""read_elan on tests/fixtures/io/elan/gestures.eaf, written in the EAF 3.0 schema (ELAN
annotation format: TIME_ORDER/TIME_SLOT in ms, TIER with ALIGNABLE_ANNOTATION and
REF_ANNOTATION, LINGUISTIC_TYPE with TIME_ALIGNABLE), checked against pympi-ling (a
test-only peer) reading the same file and writing one for a round trip."""
from pathlib import Path

import pytest

from iaa_widgets.errors import AgreementError
from iaa_widgets.io.elan import read_elan

FILE = Path(__file__).parent / "fixtures" / "io" / "elan" / "gestures.eaf"


def test_aligned_annotations_are_units_in_seconds():
    cont = read_elan(FILE)
    # a3 sits on ts5 (no TIME_VALUE), a6's value is blank, Gloss-A is symbolic
    assert cont.to_frame().values.tolist() == [
        ["Gesture-A", "point", 0.0, 1.5], ["Gesture-A", "beat", 1.6, 2.95],
        ["Gesture-B", "point", 0.1, 1.45], ["Gesture-B", "wave", 3.0, 3.9]]
    assert cont.notes == (
        "1 symbolic tier(s) (a linguistic type not time-alignable) not read",
        "1 REF_ANNOTATION(s) (symbolic, without time) not read",
        "1 annotation(s) on a time slot not aligned not read",
        "1 annotation(s) with a blank value not read")


def test_annotator_attribute_and_tier_selection():
    cont = read_elan(FILE, tiers=["Gesture-A", "Gesture-B"], annotator="ANNOTATOR")
    assert list(cont.annotators) == ["ann_A", "ann_B"]
    assert "1 tier(s) not selected by tiers=" in cont.notes
    with pytest.raises(AgreementError, match="no tier \\['Gesture-C'\\]"):
        read_elan(FILE, tiers="Gesture-C")
    with pytest.raises(AgreementError, match="annotator='who'"):
        read_elan(FILE, annotator="who")


def test_agrees_with_pympi():
    pympi = pytest.importorskip("pympi")
    eaf = pympi.Elan.Eaf(str(FILE))
    theirs = [[tier, value, start / 1000, end / 1000] for tier in ("Gesture-A", "Gesture-B")
              for start, end, value in eaf.get_annotation_data_for_tier(tier)
              if start is not None and value.strip()]
    assert read_elan(FILE).to_frame().values.tolist() == theirs


def test_reads_what_pympi_writes_one_file_per_annotator(tmp_path):
    pympi = pytest.importorskip("pympi")
    paths = {}
    for who, spans in (("r1", [(0, 1000, "a"), (2000, 2500, "b")]), ("r2", [(100, 900, "a")])):
        eaf = pympi.Elan.Eaf()
        eaf.add_tier("gesture")
        for start, end, value in spans:
            eaf.add_annotation("gesture", start, end, value)
        paths[who] = tmp_path / f"{who}.eaf"
        eaf.to_file(str(paths[who]))
    cont = read_elan(paths, tiers="gesture")  # pympi also writes an empty 'default' tier
    assert cont.to_frame().values.tolist() == [
        ["r1", "a", 0.0, 1.0], ["r1", "b", 2.0, 2.5], ["r2", "a", 0.1, 0.9]]
    assert list(read_elan(tmp_path, tiers="gesture").annotators) == ["r1", "r2"]


def test_bad_files_are_named(tmp_path):
    bad = tmp_path / "bad.eaf"
    bad.write_text("<ANNOTATION_DOCUMENT>\n<TIER>\n</ANNOTATION_DOCUMENT>\n")
    with pytest.raises(AgreementError, match="bad.eaf, line 3: not well-formed XML"):
        read_elan(bad)
    bad.write_text("<TextGrid/>")
    with pytest.raises(AgreementError, match="root element is <TextGrid>"):
        read_elan(bad)
    bad.write_text(FILE.read_text().replace('TIME_SLOT_ID="ts4"', 'TIME_SLOT_ID="ts44"'))
    with pytest.raises(AgreementError, match="annotation 'a2' of tier 'Gesture-A' \\(time slots "
                                             "'ts3' → 'ts4'\\) refers to time "
                                             "slot\\(s\\) \\['ts4'\\]"):
        read_elan(bad)
