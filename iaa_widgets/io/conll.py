"""CoNLL token files with BIO tags (IOB2, IOB1 and BIOES), one file per annotator.

A line is a token and its columns separated by white space (the tag in the last column
by default), a blank line ends a sentence and a ``-DOCSTART-`` line starts a document
(CoNLL-2003). Tags are ``O`` or ``B-X`` / ``I-X`` (plus ``E-X``, ``S-X`` in BIOES).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import AgreementError
from ._common import Spans, annotations, per_annotator, read_text, spans

if TYPE_CHECKING:  # the data package imports io.csv: no import of it at load time
    from ..data import Annotations

__all__ = ["Tagged", "read_conll"]


@dataclass(frozen=True)
class Tagged:
    """Token tags of several annotators, read two ways: ``tokens``, one label per token
    (item ``'<document>:<sentence>:<token>'``, numbered from 1), for κ and α per token;
    ``spans``, the entities the tags spell, in token positions within each document
    (a unit ``[i, j)`` covers tokens i … j − 1), for γ and span F1."""

    tokens: Annotations
    spans: Spans


def read_conll(source, column: int = -1, docstart: str = "-DOCSTART-") -> Tagged:
    """Read CoNLL/BIO files, one per annotator, holding the same tokens.

    ``source``: a mapping ``{annotator: path}``, a list of paths (annotator: the file
    name without its suffix) or a folder of ``.conll``/``.bio``/``.txt``/``.tsv`` files.
    ``column``: the tag's column (0 is the token). Every file must hold the same tokens
    in the same sentences: an error names the first line where they part. A span starts
    at ``B-X`` or ``S-X``, or at ``I-X``/``E-X`` after ``O`` or another type (as
    conlleval reads IOB1), and ends before the next token that does not continue it.
    """
    files = per_annotator(source, (".conll", ".bio", ".txt", ".tsv", ".iob"),
                          "CoNLL files (one per annotator)")
    grids = {who: _tokens(path, column, docstart) for who, path in files.items()}
    if len(grids) < 2:
        raise AgreementError(f"CoNLL files of {len(grids)} annotator(s); agreement needs at "
                             "least two")
    first, reference = next(iter(grids.items()))
    items, annotators, labels, where = [], [], [], []
    units, unit_where, annotated = [], [], []
    for who, rows in grids.items():
        _same_tokens(reference, rows, first, who)
        for doc in dict.fromkeys(r[0] for r in rows):
            annotated.append((doc, who))
        previous = None  # (document, sentence, type, start) of the open span
        for doc, sent, tok, position, token, tag, place in rows:
            items.append(f"{doc}:{sent}:{tok}")
            annotators.append(who)
            labels.append(tag)
            where.append(place)
            kind, name = _parse(tag, place)
            opens = kind in "BS" or (kind in "IE" and (
                previous is None or tuple(previous[:3]) != (doc, sent, name)))
            if previous is not None and (kind == "O" or opens or
                                         tuple(previous[:2]) != (doc, sent)):
                units.append((previous[0], who, previous[2], previous[3], previous[4]))
                unit_where.append(previous[5])
                previous = None
            if opens:
                previous = [doc, sent, name, position, position + 1, place]
            elif previous is not None:  # I-X / E-X continue the open span
                previous[4] = position + 1
            if kind in "ES" and previous is not None:
                units.append((previous[0], who, previous[2], previous[3], previous[4]))
                unit_where.append(previous[5])
                previous = None
        if previous is not None:
            units.append((previous[0], who, previous[2], previous[3], previous[4]))
            unit_where.append(previous[5])
    return Tagged(annotations(items, annotators, labels, where, []),
                  spans(units, annotated, unit_where, []))


def _tokens(path, column: int, docstart: str) -> list[tuple]:
    """(document, sentence, token, position in the document, token text, tag, 'file,
    line n') of each token line; documents, sentences and tokens numbered from 1."""
    name = getattr(path, "name", path)
    rows, doc, sent, tok, position, in_sentence = [], 1, 0, 0, 0, False
    seen_docstart = False
    for number, line in enumerate(read_text(path, "a CoNLL file").splitlines(), 1):
        fields = line.split()
        if not fields:
            in_sentence = False
            continue
        if fields[0] == docstart:
            if seen_docstart or rows:
                doc += 1
            seen_docstart, sent, position, in_sentence = True, 0, 0, False
            continue
        if not in_sentence:
            sent, tok, in_sentence = sent + 1, 0, True
        if len(fields) < 2 or not -len(fields) <= column < len(fields) or \
                column in (0, -len(fields)):
            raise AgreementError(f"{name}, line {number}: {line!r} has {len(fields)} "
                                 f"column(s); expected a token and its tag in column {column}")
        tok += 1
        rows.append((doc, sent, tok, position, fields[0], fields[column],
                     f"{name}, line {number}"))
        position += 1
    if not rows:
        raise AgreementError(f"{name}: no token line; expected 'token … tag' lines")
    return rows


def _same_tokens(reference: list, rows: list, first, who) -> None:
    """Both annotators' files hold the same tokens in the same sentences."""
    for a, b in zip(reference, rows):
        if a[:3] != b[:3] or a[4] != b[4]:
            raise AgreementError(f"the files of {first!r} and {who!r} part at {a[6]} "
                                 f"({a[4]!r}, sentence {a[1]}) and {b[6]} ({b[4]!r}, sentence "
                                 f"{b[1]}); annotators must tag the same tokens")
    if len(reference) != len(rows):
        short, long_ = (first, who) if len(reference) < len(rows) else (who, first)
        raise AgreementError(f"the file of {short!r} ends after {min(len(reference), len(rows))} "
                             f"tokens, that of {long_!r} holds {max(len(reference), len(rows))}; "
                             "annotators must tag the same tokens")


def _parse(tag: str, place: str) -> tuple[str, str | None]:
    """('B'|'I'|'E'|'S'|'O', type) of a tag."""
    if tag == "O":
        return "O", None
    prefix, _, name = tag.partition("-")
    if prefix not in ("B", "I", "E", "S") or not name:
        raise AgreementError(f"{place}: tag {tag!r}; expected O or B-, I-, E-, S- followed "
                             "by a type")
    return prefix, name
