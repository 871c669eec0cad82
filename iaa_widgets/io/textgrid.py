"""Praat TextGrid files, in the long ("full") and short text formats.

Both formats write the same sequence of values, the long one with a name before each
(``xmin = 0``, ``intervals [1]:``): the file type and class (``"ooTextFile"``,
``"TextGrid"``), xmin, xmax, ``<exists>``, the number of tiers, then per tier its class
(``"IntervalTier"`` or ``"TextTier"``), name, xmin, xmax and number of intervals
(xmin, xmax, text) or points (time, mark). Texts are quoted, ``""`` inside is a quote;
Praat writes UTF-16 when a text is not ASCII.
"""
from __future__ import annotations

import bisect
import os
import re
from dataclasses import replace

import pandas as pd

from ..continuum import Continuum
from ..errors import AgreementError
from ._common import counted, declared, name_of, per_annotator, read_text, tier_names

__all__ = ["read_textgrid"]

# a quoted text, a flag, a [bracketed] index, a number, a comment, any other word
_TOKEN = re.compile(r'"((?:[^"]|"")*)"|<(exists|absent)>|(\[[^\]\n]*\])|'
                    r'([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(?=\s|$)|(!.*)|(\S+)')
# the names the long format writes before its values (skipped, as brackets and comments)
_NAMES = {"File", "type", "Object", "class", "xmin", "xmax", "tiers?", "size", "item",
          "intervals", "intervals:", "points", "points:", "name", "text", "number", "time",
          "mark", "=", ":"}


def read_textgrid(source, tiers=None, categories=None) -> Continuum:
    """Read the interval tiers of Praat TextGrids as a `Continuum`.

    Each interval with a non-blank text is a unit of that category, in seconds; an
    interval with blank text is unannotated time, not a unit. One TextGrid's tiers are the
    annotators, or each TextGrid holds one annotator's tier of the same recording.

    Parameters
    ----------
    source : path-like, file-like, mapping, or list of path-like
        One TextGrid (path or open file), whose interval tiers are the annotators; or a
        mapping ``{annotator: path}``, a list of paths (the annotator is the file name
        without ``.TextGrid``) or a folder, one TextGrid per annotator, each holding one
        interval tier or naming it in ``tiers``.
    tiers : str or list of str, optional
        The tier names to read; the others are counted in ``notes``. None: every interval
        tier.
    categories : sequence of str, optional
        The interval texts that may occur, in their order. By default (None), those the
        files use. A text not declared is refused.

    Returns
    -------
    Continuum
        The units (annotator, category, start, end) of the recording; ``notes`` count what
        was not read (point tiers, tiers not selected).

    Raises
    ------
    AgreementError
        When a file is not a Praat TextGrid in text format (long or short), naming the
        line where it parts from one; when a tier named in ``tiers`` is missing; when a
        per-annotator file holds several interval tiers and ``tiers`` names none of them;
        when no interval has a text; when a category is not among ``categories``.

    See Also
    --------
    iaa_widgets.read : Recognises a TextGrid by its content and calls this reader.
    iaa_widgets.read_elan : ELAN's time-aligned tiers.
    iaa_widgets.gamma : Agreement on a Continuum.

    Notes
    -----
    Point tiers (``TextTier``) hold no intervals: they are not read and are counted in
    ``notes``. A file with a UTF-16 byte order mark (as Praat writes non-ASCII text) is
    read as UTF-16.

    References
    ----------
    Boersma, P., & Weenink, D. Praat: doing phonetics by computer. TextGrid file formats:
    https://www.fon.hum.uva.nl/praat/manual/TextGrid_file_formats.html

    Examples
    --------
    >>> # examples/exports/interview.TextGrid: tiers alice and bob, and one point tier
    >>> cont = iaa.read_textgrid("examples/exports/interview.TextGrid")
    >>> cont
    Continuum(9 units, 2 annotators, 2 categories)
    >>> cont.annotators.tolist(), cont.categories.tolist()
    (['alice', 'bob'], ['laugh', 'speech'])
    >>> cont.notes
    ('1 point tier(s) not read',)
    """
    one = hasattr(source, "read") or (isinstance(source, (str, os.PathLike))
                                      and os.path.isfile(source))
    files = {None: source} if one else per_annotator(source, (".TextGrid", ".textgrid"),
                                                     "TextGrid files (one per annotator)")
    wanted = tier_names(tiers, "read_textgrid")
    categories = declared(categories, "read_textgrid")
    rows, skipped = [], {"point tier(s) not read": 0, "tier(s) not selected by tiers=": 0}
    for who, path in files.items():
        name = name_of(path, "the TextGrid")
        read = _tiers(read_text(path, "a TextGrid"), name)
        unknown = [t for t in wanted or () if t not in {r[1] for r in read}]
        if unknown:
            raise AgreementError(f"{name}: no tier {unknown!r}; it has "
                                 f"{[r[1] for r in read]!r}")
        chosen = [r for r in read if wanted is None or r[1] in wanted]
        skipped["tier(s) not selected by tiers="] += len(read) - len(chosen)
        points = [r for r in chosen if r[0] == "TextTier"]
        skipped["point tier(s) not read"] += len(points)
        chosen = [r for r in chosen if r[0] != "TextTier"]
        if who is not None and len(chosen) != 1:
            raise AgreementError(f"{name}: {len(chosen)} interval tiers "
                                 f"{[r[1] for r in chosen]!r} for annotator {who!r}; name the "
                                 "one to read with tiers=")
        for _, tier, intervals in chosen:
            rows += [(tier if who is None else who, text, start, end)
                     for start, end, text in intervals if text.strip()]
    annotators = [r[1] for r in read if r[0] != "TextTier" and (
        wanted is None or r[1] in wanted)] if one else list(files)
    if not rows:
        raise AgreementError("the TextGrid(s) hold no interval with a text: the continuum "
                             "is empty")
    frame = pd.DataFrame(rows, columns=["annotator", "category", "start", "end"])
    cont = Continuum.from_frame(frame, annotators=annotators, categories=categories)
    notes = counted(skipped)
    return replace(cont, notes=tuple(notes)) if notes else cont


def _tiers(text: str, name: str) -> list[tuple[str, str, list]]:
    """(class, name, [(start, end, text) or (time, time, mark)]) of each tier."""
    lines = [m.start() for m in re.finditer("\n", text)]
    tokens = []
    for m in _TOKEN.finditer(text):
        if m.group(6) is not None and m.group(6) not in _NAMES:
            raise AgreementError(f"{name}, line {bisect.bisect(lines, m.start()) + 1}: "
                                 f"{m.group(6)!r} is neither a number nor a quoted text")
        if m.group(3) is None and m.group(5) is None and m.group(6) is None:
            tokens.append((m, bisect.bisect(lines, m.start()) + 1))
    position = 0

    def take(kind: str):
        nonlocal position
        if position >= len(tokens):
            raise AgreementError(f"{name}: the file ends early; expected {kind} after line "
                                 f"{tokens[-1][1] if tokens else 1}")
        match, line = tokens[position]
        position += 1
        if kind == "a text":
            if match.group(1) is None:
                raise AgreementError(f"{name}, line {line}: {match.group(0)!r}; expected "
                                     "a quoted text")
            return match.group(1).replace('""', '"')
        if kind == "a flag":
            return match.group(2)
        if match.group(4) is None:
            raise AgreementError(f"{name}, line {line}: {match.group(0)!r}; expected {kind}")
        return float(match.group(4))

    if take("a text") != "ooTextFile" or take("a text") != "TextGrid":
        raise AgreementError(f"{name}: not a Praat TextGrid in text format; expected "
                             "File type = \"ooTextFile\" and Object class = \"TextGrid\" "
                             "(save binary TextGrids as text in Praat)")
    take("xmin")
    take("xmax")
    if take("a flag") != "exists":
        return []
    def count(kind: str) -> int:
        value = take(kind)
        if value != int(value) or value < 0:
            raise AgreementError(f"{name}, line {tokens[position - 1][1]}: {kind} is "
                                 f"{tokens[position - 1][0].group(0)}; expected a whole "
                                 "number ≥ 0")
        return int(value)

    out = []
    for _ in range(count("the number of tiers")):
        kind, tier = take("a text"), take("a text")
        if kind not in ("IntervalTier", "TextTier"):
            raise AgreementError(f"{name}, line {tokens[position - 2][1]}: tier class "
                                 f"{kind!r}; expected \"IntervalTier\" or \"TextTier\"")
        take("xmin")
        take("xmax")
        entries = []
        for _ in range(count("the number of intervals or points")):
            if kind == "IntervalTier":
                start, end = take("an interval's xmin"), take("an interval's xmax")
                if end < start:
                    raise AgreementError(f"{name}, line {tokens[position - 1][1]}: interval "
                                         f"ends at {end} before its start {start}")
                entries.append((start, end, take("a text")))
            else:
                time = take("a point's time")
                entries.append((time, time, take("a text")))
        out.append((kind, tier, entries))
    if position < len(tokens):
        raise AgreementError(f"{name}, line {tokens[position][1]}: more after the "
                             f"{len(out)} tier(s) the file declares (size = {len(out)}); "
                             "expected the file to end (a tier beyond size is not read by "
                             "Praat either)")
    return out

