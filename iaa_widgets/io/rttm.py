"""RTTM (NIST Rich Transcription Time Marked), the diarization format: one segment per
line, ten fields separated by spaces,
``SPEAKER <file> <channel> <onset> <duration> <NA> <NA> <speaker> <NA> <NA>``
(onset and duration in seconds)."""
from __future__ import annotations

from ..errors import AgreementError
from ._common import counted, lines_of, per_annotator, read_text, spans

__all__ = ["read_rttm"]


def read_rttm(source, categories=None):
    r"""Read RTTM files, one per annotator, as `Spans`.

    Each ``SPEAKER`` line is a unit ``[onset, onset + duration)`` (seconds) whose item is
    the file id (field 2) and whose category is the speaker name (field 8). Speaker names
    are compared as written: two diarizations that name the same voice differently
    disagree on its category.

    Parameters
    ----------
    source : mapping, list of path-like, or path-like
        A mapping ``{annotator: path or open text file}``, a list of paths (the annotator
        is the file name without ``.rttm``) or a folder of ``.rttm`` files.
    categories : sequence of str, optional
        The speaker names that may occur, in the order charts and tables show them. By
        default (None), those the files use. A speaker not declared is refused.

    Returns
    -------
    Spans
        A mapping ``{file id: Continuum}`` with ``.units`` (one row per segment: item,
        annotator, category, start, end), ``.annotated`` (who submitted which file) and
        ``.notes`` (what was not read).

    Raises
    ------
    AgreementError
        When a ``SPEAKER`` line has fewer than eight fields, an onset or duration that is
        not a number, a negative duration, or repeats a segment of the same file; when a
        path does not exist or two paths name the same annotator; when a speaker is
        not among ``categories``.

    See Also
    --------
    iaa_widgets.read : Recognises RTTM by its content and calls this reader.
    iaa_widgets.gamma : Agreement on the units of each recording.
    iaa_widgets.read_textgrid : Praat's interval tiers, another time-aligned format.

    Notes
    -----
    Lines of other types than ``SPEAKER`` (``SPKR-INFO``, ``LEXEME``, ``NOISE`` …) are not
    read and are counted in ``notes``; ``;;`` comment lines are skipped. A file with no
    ``SPEAKER`` line names no recording: its annotator is left out, and ``notes`` say so.

    References
    ----------
    NIST (2009). The 2009 (RT-09) Rich Transcription Meeting Recognition Evaluation Plan,
    appendix A (RTTM).

    Examples
    --------
    >>> import io
    >>> alice = io.StringIO("SPEAKER m1 1 0.0 4.2 <NA> <NA> spk_A <NA> <NA>\n"
    ...                     "SPEAKER m1 1 4.5 3.1 <NA> <NA> spk_B <NA> <NA>\n")
    >>> bob = io.StringIO("SPEAKER m1 1 0.0 4.0 <NA> <NA> spk_A <NA> <NA>\n"
    ...                   "SPKR-INFO m1 1 <NA> <NA> <NA> unknown spk_A <NA> <NA>\n")
    >>> spans = iaa.read_rttm({"alice": alice, "bob": bob})
    >>> spans
    Spans(3 units in 1 documents, 2 annotators)
    >>> spans.notes
    ('1 SPKR-INFO line(s) not read (only SPEAKER lines are)',)
    >>> spans.units[["annotator", "category", "start", "end"]].values.tolist()
    [['alice', 'spk_A', 0.0, 4.2], ['alice', 'spk_B', 4.5, 7.6], ['bob', 'spk_A', 0.0, 4.0]]
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
