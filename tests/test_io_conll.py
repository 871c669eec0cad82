"""read_conll on tests/fixtures/io/conll (CoNLL-2003 columns: token, POS, chunk, NER tag,
-DOCSTART- lines, blank lines between sentences). Spans follow conlleval's chunk rules
(a chunk starts at B-X, or at I-X after O or another type; IOB1 and IOB2 both read);
expected values are read off the two files."""
from pathlib import Path

import pytest

from iaa_widgets.errors import AgreementError
from iaa_widgets.io.conll import read_conll

HERE = Path(__file__).parent / "fixtures" / "io" / "conll"


def test_token_labels_one_item_per_token():
    tagged = read_conll(HERE)
    tokens = tagged.tokens.to_long()
    alice = tokens[tokens.annotator == "alice"].set_index("item")["label"].to_dict()
    bob = tokens[tokens.annotator == "bob"].set_index("item")["label"].to_dict()
    # document:sentence:token, from 1; -DOCSTART- starts document 2 before 'Paris'
    assert alice == {(1, 1, 1): "B-PER", (1, 1, 2): "I-PER", (1, 1, 3): "O", (1, 1, 4): "B-PER",
                     (1, 1, 5): "I-PER", (1, 1, 6): "O", (1, 2, 1): "O", (1, 2, 2): "B-LOC",
                     (1, 2, 3): "O", (2, 1, 1): "B-LOC"}
    assert bob[(1, 1, 2)] == "B-PER" and bob[(1, 1, 4)] == "I-PER" and bob[(2, 1, 1)] == "O"


def test_spans_in_token_positions_per_document():
    spans = read_conll(HERE).spans
    assert spans[1].to_frame().values.tolist() == [
        ["alice", "PER", 0.0, 2.0], ["alice", "PER", 3.0, 5.0], ["alice", "LOC", 7.0, 8.0],
        # bob: B-PER B-PER are two chunks; I-PER after O opens one (IOB1)
        ["bob", "PER", 0.0, 1.0], ["bob", "PER", 1.0, 2.0], ["bob", "PER", 3.0, 5.0],
        ["bob", "GPE", 7.0, 8.0]]
    doc2 = spans.units[spans.units["item"] == 2]
    assert doc2[["annotator", "category", "start", "end"]].values.tolist() == [
        ["alice", "LOC", 0.0, 1.0]]


def test_bioes_and_chunks_ending_at_sentence_ends(tmp_path):
    (tmp_path / "a.bio").write_text("x S-A\ny B-B\nz E-B\n\nw I-A\n")
    (tmp_path / "b.bio").write_text("x B-A\ny I-A\nz O\n\nw O\n")
    spans = read_conll(tmp_path).spans
    got = spans.units[["annotator", "category", "start", "end"]].values.tolist()
    assert got == [["a", "A", 0.0, 1.0], ["a", "B", 1.0, 3.0], ["a", "A", 3.0, 4.0],
                   ["b", "A", 0.0, 2.0]]


def test_files_must_hold_the_same_tokens(tmp_path):
    (tmp_path / "a.conll").write_text("x O\ny O\n")
    (tmp_path / "b.conll").write_text("x O\nz O\n")
    with pytest.raises(AgreementError, match="part at .*a.conll, line 2 \\('y'.*b.conll, "
                                             "line 2 \\('z'"):
        read_conll(tmp_path)
    (tmp_path / "b.conll").write_text("x O\n")
    with pytest.raises(AgreementError, match="'b' ends after 1 tokens"):
        read_conll(tmp_path)
    (tmp_path / "b.conll").write_text("x O\ny X-PER\n")
    with pytest.raises(AgreementError, match="b.conll, line 2: tag 'X-PER'"):
        read_conll(tmp_path)
    (tmp_path / "b.conll").write_text("x O\ny\n")
    with pytest.raises(AgreementError, match="b.conll, line 2: 'y' has 1 column"):
        read_conll(tmp_path)


def test_token_kappa_by_hand():
    from iaa_widgets.measures.categorical.classic import cohen_kappa
    # 10 tokens, 6 agree (po = 0.6); alice B-PER 2, I-PER 2, O 4, B-LOC 2 and bob B-PER 2,
    # I-PER 2, O 5, B-GPE 1 give pe = (4 + 4 + 20) / 100; κ = (0.6 − 0.28) / 0.72 = 4/9
    assert cohen_kappa(read_conll(HERE).tokens).value == pytest.approx(4 / 9, abs=1e-12)
