"""read_brat on tests/fixtures/io/brat: one folder per annotator, .ann files in brat's
standoff format (brat docs, "Standoff format": T lines 'T1<TAB>Type start end[;start
end]<TAB>text', and A, R, N, # lines). Expected values are read off the fixtures."""
from pathlib import Path

import pytest

from iaa_widgets.errors import AgreementError
from iaa_widgets.io.brat import read_brat

HERE = Path(__file__).parent / "fixtures" / "io" / "brat"


def test_text_bound_lines_are_units_and_fragments_split():
    spans = read_brat(HERE)
    assert sorted(spans.documents) == ["d2", "news/d1"]
    assert spans["news/d1"].to_frame().values.tolist() == [
        ["alice", "Person", 0.0, 12.0], ["alice", "Person", 17.0, 32.0],
        ["alice", "Location", 36.0, 42.0],
        ["bob", "Person", 0.0, 3.0], ["bob", "Person", 4.0, 12.0],  # 'T1 Person 0 3;4 12'
        ["bob", "Person", 17.0, 32.0]]
    assert spans.notes == ("1 discontinuous annotation(s) split into one unit per fragment",
                           "1 attribute(s) not read", "1 relation(s) not read",
                           "1 normalisation(s) not read", "1 note(s) not read")
    # both annotators hold d2.ann (empty): annotated, with no unit
    assert set(map(tuple, spans.annotated.values.tolist())) >= {("d2", "alice"), ("d2", "bob")}


def test_offsets_match_the_text_files():
    spans = read_brat({"alice": HERE / "alice"})
    text = (HERE / "alice" / "news" / "d1.txt").read_text()
    units = spans.units
    assert [text[int(s):int(e)] for s, e in zip(units["start"], units["end"])] == [
        "Ada Lovelace", "Charles Babbage", "London"]


def test_bad_lines_are_named(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.ann").write_text("T1\tPerson 0 x\tAda\n")
    with pytest.raises(AgreementError, match="x.ann, line 1: .* is not a text-bound annotation"):
        read_brat(tmp_path)
    (tmp_path / "a" / "x.ann").write_text("T1\tPerson 5 2\tAda\n")
    with pytest.raises(AgreementError, match="line 1: .*start ≤ end"):
        read_brat(tmp_path)
    (tmp_path / "a" / "x.ann").write_text("\nQ1\tsomething\n")
    with pytest.raises(AgreementError, match="x.ann, line 2: a line starting with 'Q'"):
        read_brat(tmp_path)
    (tmp_path / "empty").mkdir()
    with pytest.raises(AgreementError, match="no .ann file for annotator 'b'"):
        read_brat({"b": tmp_path / "empty"})
