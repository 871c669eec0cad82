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
from ._common import counted, per_annotator, read_text, spans

__all__ = ["read_brat"]

_OTHER = {"A": "attribute", "M": "attribute", "R": "relation", "E": "event",
          "N": "normalisation", "*": "equivalence", "#": "note"}


def read_brat(source, categories=None):
    """Read brat standoff annotations as :class:`Spans`: each ``T`` line gives one unit
    per fragment (a discontinuous annotation ``0 5;9 12`` gives two units of its type,
    counted in ``notes``), in character offsets.

    ``source``: a folder holding one subfolder per annotator, or a mapping
    ``{annotator: folder}``. The item is the ``.ann`` file's path inside its annotator's
    folder, without ``.ann``; an annotator who has the file annotated that document, even
    with no ``T`` line. Attributes, relations, events, normalisations, equivalences and
    notes are not read: ``notes`` count them by kind.
    """
    folders = per_annotator(source, (), "brat folders (one per annotator)")
    units, where, annotated = [], [], []
    skipped = {f"{kind}(s) not read": 0 for kind in dict.fromkeys(_OTHER.values())}
    split = 0
    for who, folder in folders.items():
        if not os.path.isdir(folder):
            raise AgreementError(f"{folder}: expected a folder of .ann files for annotator "
                                 f"{who!r}")
        files = sorted(Path(folder).rglob("*.ann"))
        if not files:
            raise AgreementError(f"{folder}: no .ann file for annotator {who!r}")
        for path in files:
            item = path.relative_to(folder).with_suffix("").as_posix()
            annotated.append((item, who))
            for number, line in enumerate(read_text(path, "a brat .ann file").splitlines(), 1):
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
                fragments = _text_bound(line, place)
                split += len(fragments) > 1
                for label, start, end in fragments:
                    units.append((item, who, label, start, end))
                    where.append(place)
    notes = ([f"{split} discontinuous annotation(s) split into one unit per fragment"]
             if split else []) + counted(skipped)
    return spans(units, annotated, where, notes, categories)


def _text_bound(line: str, place: str) -> list[tuple]:
    """(type, start, end) of each fragment of a ``T`` line."""
    fields = line.split("\t")
    head = fields[1].split(" ", 1) if len(fields) >= 2 else []
    try:
        label, offsets = head
        pieces = [tuple(int(x) for x in part.split()) for part in offsets.split(";")]
        if any(len(p) != 2 or p[1] < p[0] for p in pieces):
            raise ValueError
    except ValueError:
        raise AgreementError(f"{place}: {line!r} is not a text-bound annotation; expected "
                             "'T<n><TAB><type> <start> <end>[;<start> <end>…]<TAB><text>' "
                             "with start ≤ end") from None
    return [(label, start, end) for start, end in pieces]
