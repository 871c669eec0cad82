"""read_textgrid on Praat TextGrids in the long and short text formats (Praat manual,
"TextGrid file formats"), checked against praatio (test-only peer) reading the same
files, and on TextGrids praatio writes (round trip through another implementation)."""
from pathlib import Path

import pytest

from iaa_widgets.errors import AgreementError
from iaa_widgets.io.textgrid import read_textgrid

HERE = Path(__file__).parent / "fixtures" / "io" / "textgrid"
LONG, SHORT = HERE / "two_annotators_long.TextGrid", HERE / "two_annotators_short.TextGrid"
EXPECTED = [  # the fixture's non-blank intervals; '""' in a text is a quote
    ["alice", "speech", 0.8, 1.6], ["alice", 'laugh "ha"', 1.6, 2.25],
    ["alice", "café", 2.25, 3.5], ["bob", "speech", 0.75, 2.3], ["bob", "café", 2.3, 3.5]]


@pytest.mark.parametrize("path", [LONG, SHORT])
def test_tiers_are_annotators_and_texts_categories(path):
    cont = read_textgrid(path)
    assert cont.to_frame().values.tolist() == EXPECTED
    assert cont.notes == ("1 point tier(s) not read",)  # tier 'events'


@pytest.mark.parametrize("path", [LONG, SHORT])
def test_agrees_with_praatio(path):
    textgrid = pytest.importorskip("praatio.textgrid")
    tg = textgrid.openTextgrid(str(path), includeEmptyIntervals=False)
    theirs = [[name, e.label, e.start, e.end] for name in ("alice", "bob")
              for e in tg.getTier(name).entries]
    assert read_textgrid(path).to_frame().values.tolist() == theirs


@pytest.mark.parametrize("fmt", ["long_textgrid", "short_textgrid"])
def test_reads_what_praatio_writes(tmp_path, fmt):
    textgrid = pytest.importorskip("praatio.textgrid")
    tg = textgrid.Textgrid()
    tg.addTier(textgrid.IntervalTier("r1", [(0.0, 1.0, "a"), (1.5, 2.0, "b é")], 0, 3))
    tg.addTier(textgrid.IntervalTier("r2", [(0.1, 1.1, "a")], 0, 3))
    path = tmp_path / "w.TextGrid"
    tg.save(str(path), format=fmt, includeBlankSpaces=True)
    assert read_textgrid(path).to_frame().values.tolist() == [
        ["r1", "a", 0.0, 1.0], ["r1", "b é", 1.5, 2.0], ["r2", "a", 0.1, 1.1]]


def test_one_file_per_annotator_and_tier_selection(tmp_path):
    cont = read_textgrid({"x": LONG, "y": SHORT}, tiers="bob")
    assert cont.to_frame().values.tolist() == [
        ["x", "speech", 0.75, 2.3], ["x", "café", 2.3, 3.5],
        ["y", "speech", 0.75, 2.3], ["y", "café", 2.3, 3.5]]
    assert "4 tier(s) not selected by tiers=" in cont.notes  # alice and events, twice
    with pytest.raises(AgreementError, match="2 interval tiers \\['alice', 'bob'\\] for "
                                             "annotator 'x'"):
        read_textgrid({"x": LONG, "y": SHORT})
    with pytest.raises(AgreementError, match="no tier \\['carol'\\]"):
        read_textgrid(LONG, tiers=["carol"])


def test_utf16_and_bad_files_are_named(tmp_path):
    utf16 = tmp_path / "u.TextGrid"
    utf16.write_bytes(SHORT.read_text(encoding="utf-8").encode("utf-16"))  # as Praat saves
    assert read_textgrid(utf16).to_frame().values.tolist() == EXPECTED
    bad = tmp_path / "bad.TextGrid"
    lines = SHORT.read_text(encoding="utf-8").splitlines()
    lines[12] = "zero"  # the first interval's xmin
    bad.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(AgreementError, match="bad.TextGrid, line 13: 'zero' is neither a "
                                             "number nor a quoted text"):
        read_textgrid(bad)
    bad.write_text("\n".join(SHORT.read_text(encoding="utf-8").splitlines()[:20]))
    with pytest.raises(AgreementError, match="bad.TextGrid: the file ends early"):
        read_textgrid(bad)
    bad.write_text('File type = "ooTextFile"\nObject class = "Sound"\n')
    with pytest.raises(AgreementError, match="not a Praat TextGrid in text format"):
        read_textgrid(bad)


hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies


@hypothesis.settings(max_examples=40, deadline=None)
@hypothesis.given(texts=st.lists(st.text(st.characters(blacklist_categories=("Cs", "Cc")),
                                         min_size=1, max_size=12).filter(str.strip),
                                 min_size=1, max_size=5),
                  fmt=st.sampled_from(["long_textgrid", "short_textgrid"]))
def test_any_text_survives_a_praatio_round_trip(tmp_path_factory, texts, fmt):
    # quotes, '!' (a comment outside texts), brackets, digits and non-ASCII inside texts
    textgrid = pytest.importorskip("praatio.textgrid")
    entries = [(float(i), i + 0.5, t) for i, t in enumerate(texts)]
    tg = textgrid.Textgrid()
    tg.addTier(textgrid.IntervalTier("r1", entries, 0, len(texts)))
    tg.addTier(textgrid.IntervalTier("r2", entries[:1], 0, len(texts)))
    path = tmp_path_factory.mktemp("tg") / "h.TextGrid"
    tg.save(str(path), format=fmt, includeBlankSpaces=True)
    got = read_textgrid(path).to_frame()
    # the oracle is praatio reading what it wrote (it strips the texts it writes)
    theirs = textgrid.openTextgrid(str(path), includeEmptyIntervals=False).getTier("r1")
    assert got[got.annotator == "r1"][["category", "start", "end"]].values.tolist() == \
        [[e.label, e.start, e.end] for e in theirs.entries]
    assert len(theirs.entries) == len(texts)
