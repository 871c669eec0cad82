"""read_rttm on tests/fixtures/io/rttm (NIST RTTM: 'SPEAKER file channel onset duration
<NA> <NA> speaker <NA> <NA>', ';;' comments, other line types such as SPKR-INFO).
Expected values are read off the two files (end = onset + duration)."""
from pathlib import Path

import pytest

from iaa_widgets.errors import AgreementError
from iaa_widgets.io.rttm import read_rttm

HERE = Path(__file__).parent / "fixtures" / "io" / "rttm"


def test_speaker_lines_are_units_per_file_id():
    spans = read_rttm(HERE)
    assert spans.documents == ["meeting1", "meeting2"]
    assert spans["meeting1"].to_frame().values.tolist() == [
        ["alice", "spk_A", 0.0, 2.5], ["alice", "spk_B", 2.5, 3.75],
        ["bob", "spk_A", 0.1, 2.4], ["bob", "spk_B", 2.4, 4.0]]
    assert spans["meeting2"].to_frame()[["start", "end"]].values.tolist() == [
        [10.5, 14.5], [11.0, 14.5]]
    assert spans.notes == ("1 SPKR-INFO line(s) not read (only SPEAKER lines are)",)


def test_list_and_mapping_sources_name_annotators():
    paths = sorted(HERE.glob("*.rttm"))
    assert list(read_rttm(paths)["meeting1"].annotators) == ["alice", "bob"]
    assert list(read_rttm({"x": paths[0], "y": paths[1]})["meeting1"].annotators) == ["x", "y"]


def test_bad_lines_are_named(tmp_path):
    (tmp_path / "a.rttm").write_text("SPEAKER m 1 0.0 1.0 <NA> <NA> s1 <NA> <NA>\n")
    (tmp_path / "b.rttm").write_text("SPEAKER m 1 zero 1.0 <NA> <NA> s1 <NA> <NA>\n")
    with pytest.raises(AgreementError, match="b.rttm, line 1: onset 'zero'"):
        read_rttm(tmp_path)
    (tmp_path / "b.rttm").write_text("\nSPEAKER m 1 0.0 -1 <NA> <NA> s1 <NA> <NA>\n")
    with pytest.raises(AgreementError,
                       match="b.rttm, line 2: duration -1; expected a duration ≥ 0"):
        read_rttm(tmp_path)
    (tmp_path / "b.rttm").write_text("SPEAKER m 1 0.0\n")
    with pytest.raises(AgreementError, match="b.rttm, line 1: 4 fields"):
        read_rttm(tmp_path)
