"""brat standoff: one folder per annotator, one ``<document>.ann`` file per document.

A text-bound annotation is a line ``T<n> <TAB> <type> <start> <end>[;<start> <end>…]
<TAB> <text>`` (character offsets into ``<document>.txt``; ``;`` separates the fragments
of a discontinuous annotation). Other lines are attributes (``A``, ``M``), relations
(``R``), events (``E``), normalisations (``N``), equivalences (``*``) and notes (``#``).
"""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import AgreementError
from ._common import counted, lines_of, per_annotator, read_text, spans

__all__ = ["read_brat"]

_OTHER = {"A": "attribute", "M": "attribute", "R": "relation", "E": "event",
          "N": "normalisation", "*": "equivalence", "#": "note"}


def read_brat(source, categories=None):
    r"""Read brat standoff annotations, one folder per annotator, as `Spans`.

    Each text-bound ``T`` line gives one unit per fragment, in character offsets: a
    discontinuous annotation ``0 5;9 12`` gives two units of its type, counted in
    ``notes``. The item is the ``.ann`` file's path inside its annotator's folder, without
    ``.ann``; an annotator who has the file annotated that document, even with no ``T``
    line (so that γ counts every unit of the others as unmatched).

    Parameters
    ----------
    source : path-like or mapping
        A folder holding one subfolder per annotator (the subfolder's name is the
        annotator), or a mapping ``{annotator: folder}``. ``.ann`` files are found in
        subfolders too.
    categories : sequence of str, optional
        The entity types that may occur, in the order charts and tables show them. By
        default (None), those the files use. A type not declared is refused.

    Returns
    -------
    Spans
        A mapping ``{document: Continuum}`` with ``.units`` (one row per fragment: item,
        annotator, category, start, end; the index names the file and line),
        ``.annotated`` (who submitted which document) and ``.notes`` (what was split or not
        read).

    Raises
    ------
    AgreementError
        When a folder is missing or holds no ``.ann`` file; when a line is not one brat
        writes or a ``T`` line is malformed (naming file and line); when a ``T`` id is used
        twice in one file; when the document's ``.txt`` sits beside the ``.ann`` and an
        offset lies beyond its end or the text there is not the line's; when a type is
        not among ``categories``.

    See Also
    --------
    iaa_widgets.read : Recognises a brat folder and calls this reader.
    iaa_widgets.gamma : Agreement on the units of each document.
    iaa_widgets.span_disagreements : The units on which annotators differ.
    iaa_widgets.read_conll : Token-level BIO tags, another span format.

    Notes
    -----
    A text-bound annotation is ``T<n> <TAB> <type> <start> <end>[;<start> <end>…] <TAB>
    <text>``, offsets $0 \le \text{start} \le \text{end}$ into ``<document>.txt``. Without
    the ``.txt``, offsets are not checked and ``notes`` say how many documents were not.
    Attributes (``A``, ``M``), relations (``R``), events (``E``), normalisations (``N``),
    equivalences (``*``) and annotator notes (``#``) are not read: ``notes`` count them by
    kind.

    References
    ----------
    Stenetorp, P., Pyysalo, S., Topić, G., Ohta, T., Ananiadou, S., & Tsujii, J. (2012).
    brat: a Web-based Tool for NLP-Assisted Text Annotation. In Proceedings of the
    Demonstrations at the 13th Conference of the European Chapter of the Association
    for Computational Linguistics (pp. 102–107). https://aclanthology.org/E12-2021

    Examples
    --------
    >>> # examples/exports/brat: alice/ and bob/, each with review_01.ann and .txt
    >>> spans = iaa.read_brat("examples/exports/brat")
    >>> spans
    Spans(11 units in 1 documents, 2 annotators)
    >>> spans.documents
    ['review_01']
    >>> spans.notes[:2]
    ('1 discontinuous annotation(s) split into one unit per fragment', '1 attribute(s) not read')
    >>> spans.continuum()
    Continuum(11 units, 2 annotators, 4 categories)
    """
    folders = per_annotator(source, (), "brat folders (one per annotator)")
    units, where, annotated = [], [], []
    skipped = {f"{kind}(s) not read": 0 for kind in dict.fromkeys(_OTHER.values())}
    split = unchecked = 0
    for who, folder in folders.items():
        if not os.path.isdir(folder):
            raise AgreementError(f"{folder}: expected a folder of .ann files for annotator "
                                 f"{who!r}")
        files = sorted(Path(folder).rglob("*.ann"))
        if not files:
            raise AgreementError(f"{folder}: no .ann file for annotator {who!r}")
        for path in files:
            item = path.relative_to(folder).with_suffix("").as_posix()
            annotated.append((item, who, str(path)))
            txt = path.with_suffix(".txt")
            text = read_text(txt, "a brat .txt file") if txt.is_file() else None
            unchecked += text is None
            ids: dict = {}
            for number, line in enumerate(lines_of(read_text(path, "a brat .ann file")), 1):
                if not line.strip():
                    continue
                place = f"{path}, line {number}"
                if line[0] != "T":
                    kind = _OTHER.get(line[0])
                    if kind is None:
                        raise AgreementError(f"{place}: a line starting with {line[0]!r}; "
                                             "expected an annotation id T, A, M, R, E, N, * "
                                             "or # followed by a tab")
                    skipped[f"{kind}(s) not read"] += 1
                    continue
                tid = line.split("\t", 1)[0]
                if tid in ids:
                    raise AgreementError(f"{place}: annotation id {tid!r} is used again (first "
                                         f"on line {ids[tid]}); expected one line per id")
                ids[tid] = number
                fragments = _text_bound(line, place)
                if text is not None:
                    _check_offsets(line, fragments, text, place)
                split += len(fragments) > 1
                for label, start, end in fragments:
                    units.append((item, who, label, start, end))
                    where.append(place)
    notes = ([f"{split} discontinuous annotation(s) split into one unit per fragment"]
             if split else []) + counted(skipped) + (
        [f"{unchecked} .ann file(s) without their .txt: offsets not checked against the "
         "text"] if unchecked else [])
    return spans(units, annotated, where, notes, categories)


def _text_bound(line: str, place: str) -> list[tuple]:
    """(type, start, end) of each fragment of a ``T`` line."""
    fields = line.split("\t")
    head = fields[1].split(" ", 1) if len(fields) >= 2 else []
    try:
        label, offsets = head
        pieces = [tuple(int(x) for x in part.split()) for part in offsets.split(";")]
        if any(len(p) != 2 or p[1] < p[0] or p[0] < 0 for p in pieces):
            raise ValueError
    except ValueError:
        raise AgreementError(f"{place}: {line!r} is not a text-bound annotation; expected "
                             "'T<n><TAB><type> <start> <end>[;<start> <end>…]<TAB><text>' "
                             "with 0 ≤ start ≤ end") from None
    return [(label, start, end) for start, end in pieces]


_SPACES = str.maketrans("\n\r\t", "   ")  # brat writes a span's line breaks as spaces


def _check_offsets(line: str, fragments: list, text: str, place: str) -> None:
    """Every fragment lies in the text, and the text there is the line's (its fragments
    joined by a space, as brat writes a discontinuous annotation)."""
    offsets = ";".join(f"{s} {e}" for _, s, e in fragments)
    beyond = [e for _, _, e in fragments if e > len(text)]
    if beyond:
        raise AgreementError(f"{place}: offsets {offsets} go beyond the end of the text "
                             f"({len(text)} characters in the .txt)")
    fields = line.split("\t")
    if len(fields) < 3:
        return  # no text written after the offsets: nothing to compare
    found = " ".join(text[s:e] for _, s, e in fragments)
    if found.translate(_SPACES) != fields[2].translate(_SPACES):
        raise AgreementError(f"{place}: the text at offsets {offsets} is {found!r:.60}, the "
                             f"line says {fields[2]!r:.60}; the .ann and .txt do not match")
