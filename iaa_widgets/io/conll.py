"""CoNLL token files with BIO tags (IOB2, IOB1 and BIOES), one file per annotator.

A line is a token and its columns separated by white space (the tag in the last column
by default), a blank line ends a sentence and a ``-DOCSTART-`` line starts a document
(CoNLL-2003). Tags are ``O`` or ``B-X`` / ``I-X`` (plus ``E-X``, ``S-X`` in BIOES).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import AgreementError
from ._common import (Spans, annotations, field_name, lines_of, per_annotator, read_text,
                      spans)

if TYPE_CHECKING:  # the data package imports io.csv: no import of it at load time
    from ..data import Annotations

__all__ = ["Tagged", "read_conll"]


@dataclass(frozen=True)
class Tagged:
    r"""Token tags of several annotators, read two ways by `read_conll`.

    ``tokens`` holds one label per token, for κ and α per token; ``spans`` the entities
    the tags spell, in token positions, for γ and span F1.

    Parameters
    ----------
    tokens : Annotations
        One label (the tag, e.g. ``B-PER``) per token; the item is ``(document, sentence,
        token)``, numbered from 1.
    spans : Spans
        The entities, a unit ``[i, j)`` covering tokens $i \ldots j - 1$, within each
        document (item: the document number) or each sentence (item ``(document,
        sentence)``), as ``spans_by=`` of `read_conll` chose.

    Attributes
    ----------
    tokens : Annotations
        As above.
    spans : Spans
        As above.

    See Also
    --------
    iaa_widgets.read_conll : Makes it.
    iaa_widgets.Annotations : The type of ``tokens``.
    iaa_widgets.Spans : The type of ``spans``.

    Examples
    --------
    >>> import io
    >>> tagged = iaa.read_conll({"alice": io.StringIO("Rome B-LOC\n. O\n"),
    ...                          "bob": io.StringIO("Rome B-ORG\n. O\n")})
    >>> tagged.tokens.items.tolist()
    [(1, 1, 1), (1, 1, 2)]
    >>> tagged.spans.units["category"].tolist()
    ['LOC', 'ORG']
    """

    tokens: Annotations
    spans: Spans


_BY = ("document", "sentence")
# columns are separated by spaces or tabs; other white space (no-break space, U+2028 …)
# belongs to a token, as str.split() would not keep it
_COLUMNS = re.compile("[ \t]+")


def read_conll(source, column: int = -1, docstart: str = "-DOCSTART-",
               spans_by: str = "document") -> Tagged:
    r"""Read CoNLL/BIO files, one per annotator, holding the same tokens.

    The tags are read two ways (a `Tagged`): one label per token, for κ and α per
    token, and the entities the tags spell, as `Spans` in token positions, for γ and
    span F1. The files keep their structure: a ``docstart`` line starts a document, a
    blank line ends a sentence. Every file must hold the same tokens in the same
    sentences: an error names the first line where they part.

    Parameters
    ----------
    source : mapping, list of path-like, or path-like
        A mapping ``{annotator: path or open text file}``, a list of paths (the annotator
        is the file name without its suffix) or a folder of ``.conll``, ``.bio``,
        ``.txt`` or ``.tsv`` files.
    column : int, default -1
        The tag's column, columns separated by spaces or tabs: 0 is the token, -1 the
        last column.
    docstart : str, default "-DOCSTART-"
        The first word of a line that starts a document (CoNLL-2003's ``-DOCSTART-``).
    spans_by : {"document", "sentence"}, default "document"
        ``"document"``: one continuum per document, positions counted from the document's
        first token (item: the document number); ``"sentence"``: one continuum per
        sentence, positions from its first token (item ``(document, sentence)``).

    Returns
    -------
    Tagged
        ``.tokens``, an `Annotations` with item ``(document, sentence, token)`` (numbered
        from 1) and the tags as labels; ``.spans``, a `Spans` whose unit ``[i, j)`` covers
        tokens $i \ldots j - 1$.

    Raises
    ------
    AgreementError
        When ``column``, ``docstart`` or ``spans_by`` is not one of the accepted values;
        when a line has no such column or a tag is not ``O``, ``B-X``, ``I-X``, ``E-X`` or
        ``S-X``; when the files' tokens or sentences differ (naming the first line where
        they part); when a path does not exist.

    See Also
    --------
    iaa_widgets.read : Recognises CoNLL by its content and calls this reader.
    iaa_widgets.cohen_kappa : Agreement on the tags of each token.
    iaa_widgets.gamma : Agreement on the spans.
    iaa_widgets.read_brat : Character-offset spans.

    Notes
    -----
    A span starts at ``B-X`` or ``S-X``, or at ``I-X`` or ``E-X`` after ``O`` or another
    type (as conlleval reads IOB1), and ends before the next token that does not continue
    it, at the latest at its sentence's end: IOB2, IOB1 and BIOES are read alike.

    References
    ----------
    Ramshaw, L. A., & Marcus, M. P. (1995). Text Chunking using Transformation-Based
    Learning. In Third Workshop on Very Large Corpora. https://aclanthology.org/W95-0107

    Tjong Kim Sang, E. F., & De Meulder, F. (2003). Introduction to the CoNLL-2003 Shared
    Task: Language-Independent Named Entity Recognition. In Proceedings of CoNLL-2003
    (pp. 142–147). https://aclanthology.org/W03-0419

    Examples
    --------
    >>> import io
    >>> alice = io.StringIO("Luca B-PER\nBianchi I-PER\nruns O\n")
    >>> bob = io.StringIO("Luca B-PER\nBianchi O\nruns O\n")
    >>> tagged = iaa.read_conll({"alice": alice, "bob": bob})
    >>> tagged
    Tagged(tokens=Annotations(3 items, 2 annotators, 3 categories, 6 ratings),
           spans=Spans(2 units in 1 documents, 2 annotators))
    >>> tagged.spans.units[["annotator", "category", "start", "end"]].values.tolist()
    [['alice', 'PER', 0.0, 2.0], ['bob', 'PER', 0.0, 1.0]]
    >>> round(iaa.cohen_kappa(tagged.tokens).value, 4)  # tokens 1 and 3 agree, 2 does not
    0.5
    """
    if isinstance(column, bool) or not isinstance(column, int):
        raise AgreementError(f"read_conll: column={column!r}; expected the tag's column "
                             "number (-1: the last; 0 is the token)")
    field_name(docstart, "read_conll", "docstart")
    if spans_by not in _BY:
        raise AgreementError(f"read_conll: spans_by={spans_by!r}; expected one of {_BY}")
    files = per_annotator(source, (".conll", ".bio", ".txt", ".tsv", ".iob"),
                          "CoNLL files (one per annotator)")
    grids = {who: _tokens(path, column, docstart, spans_by == "sentence")
             for who, path in files.items()}
    if len(grids) < 2:
        raise AgreementError(f"CoNLL files of {len(grids)} annotator(s); agreement needs at "
                             "least two")
    first, reference = next(iter(grids.items()))
    items, annotators, labels, where = [], [], [], []
    units, unit_where, annotated = [], [], []
    for who, rows in grids.items():
        _same_tokens(reference, rows, first, who)
        for unit in dict.fromkeys(r[0] if spans_by == "document" else r[:2] for r in rows):
            annotated.append((unit, who, f"{files[who]}"))
        previous = None  # (span item, sentence, type, start, end, place) of the open span
        for doc, sent, tok, position, token, tag, place in rows:
            key = doc if spans_by == "document" else (doc, sent)
            items.append((doc, sent, tok))
            annotators.append(who)
            labels.append(tag)
            where.append(place)
            kind, name = _parse(tag, place)
            opens = kind in "BS" or (kind in "IE" and (
                previous is None or tuple(previous[:3]) != (key, sent, name)))
            if previous is not None and (kind == "O" or opens or
                                         tuple(previous[:2]) != (key, sent)):
                units.append((previous[0], who, previous[2], previous[3], previous[4]))
                unit_where.append(previous[5])
                previous = None
            if opens:
                previous = [key, sent, name, position, position + 1, place]
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


def _tokens(path, column: int, docstart: str, by_sentence: bool) -> list[tuple]:
    """(document, sentence, token, position, token text, tag, 'file, line n') of each
    token line; documents, sentences and tokens numbered from 1; the position counts
    from the document's first token (``by_sentence``: from the sentence's)."""
    name = getattr(path, "name", path)
    rows, doc, sent, tok, position, in_sentence = [], 1, 0, 0, 0, False
    seen_docstart = False
    for number, line in enumerate(lines_of(read_text(path, "a CoNLL file")), 1):
        fields = _COLUMNS.split(line.strip(" \t"))
        fields = fields if fields != [""] else []
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
            position = 0 if by_sentence else position
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
