"""RTTM (NIST Rich Transcription Time Marked), the diarization format: one segment per
line, ten fields separated by spaces,
``SPEAKER <file> <channel> <onset> <duration> <NA> <NA> <speaker> <NA> <NA>``
(onset and duration in seconds)."""
from __future__ import annotations

from ..errors import AgreementError
from ._common import counted, lines_of, per_annotator, read_text, spans

__all__ = ["read_rttm"]


def read_rttm(source, categories=None):
    """Read RTTM files, one per annotator, as :class:`Spans`: the item is the file id
    (field 2), a unit ``[onset, onset + duration)`` of category the speaker name (field
    8).

    ``source``: a mapping ``{annotator: path}``, a list of paths (annotator: the file
    name without ``.rttm``) or a folder of ``.rttm`` files. Lines of other types than
    ``SPEAKER`` (``SPKR-INFO``, ``LEXEME``, ``NOISE`` …) are not read and are counted in
    ``notes``; ``;;`` comment lines are skipped. Speaker names are compared as written:
    two diarizations that name the same voice differently disagree on its category.
    """
    files = per_annotator(source, (".rttm",), "RTTM files (one per annotator)")
    units, where, annotated, other, silent = [], [], [], {}, []
    for who, path in files.items():
        name = getattr(path, "name", path)
        seen: dict = {}  # a segment -> the line that gave it
        for number, line in enumerate(lines_of(read_text(path, "an RTTM file")), 1):
            fields = line.split()
            if not fields or fields[0].startswith(";;"):
                continue
            place = f"{name}, line {number}"
            if fields[0] != "SPEAKER":
                other[fields[0]] = other.get(fields[0], 0) + 1
                continue
            if len(fields) < 8:
                raise AgreementError(f"{place}: {len(fields)} fields; expected 'SPEAKER <file> "
                                     "<channel> <onset> <duration> <NA> <NA> <speaker> <NA> "
                                     "<NA>'")
            try:
                onset, duration = float(fields[3]), float(fields[4])
            except ValueError:
                raise AgreementError(f"{place}: onset {fields[3]!r} and duration "
                                     f"{fields[4]!r}; expected numbers of seconds") from None
            if not duration >= 0:
                raise AgreementError(f"{place}: duration {fields[4]}; expected a duration "
                                     "≥ 0 in seconds")
            segment = (fields[1], fields[2], fields[7], onset, duration)
            if segment in seen:
                raise AgreementError(f"{place}: the segment of line {seen[segment]} again "
                                     f"(file {fields[1]!r}, speaker {fields[7]!r}, onset "
                                     f"{fields[3]}, duration {fields[4]}); expected each "
                                     "segment once")
            seen[segment] = number
            units.append((fields[1], who, fields[7], onset, onset + duration))
            where.append(place)
        annotated += [(item, who, str(name)) for item in dict.fromkeys(s[0] for s in seen)]
        if not seen:
            silent.append(who)
    notes = counted({f"{kind} line(s) not read (only SPEAKER lines are)": n
                     for kind, n in other.items()})
    if silent:
        notes.append(f"{len(silent)} file(s) with no SPEAKER line, their annotator(s) "
                     f"{silent!r} left out (an RTTM file names its recordings only on "
                     "SPEAKER lines)")
    return spans(units, annotated, where, notes, categories)
