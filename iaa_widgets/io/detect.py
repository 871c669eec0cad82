"""One door for any export: :func:`read` recognises the format of a file or folder by
its content (not only its extension) and calls that format's reader."""
from __future__ import annotations

import json
import os
import zipfile
from dataclasses import replace
from importlib import import_module
from pathlib import Path

from ..errors import AgreementError

__all__ = ["FORMATS", "detect_format", "read"]

# format -> (module, reader) of iaa_widgets
FORMATS = {"csv": ("..data", "read_csv"), "label_studio": (".label_studio", "read_label_studio"),
           "prodigy": (".prodigy", "read_prodigy"), "doccano": (".doccano", "read_doccano"),
           "brat": (".brat", "read_brat"), "conll": (".conll", "read_conll"),
           "rttm": (".rttm", "read_rttm"), "textgrid": (".textgrid", "read_textgrid"),
           "elan": (".elan", "read_elan")}
_CONLL = (".conll", ".bio", ".iob")
_PASS = "pass format= in Python, or pass --format to iaa report"
_HEAD = 1 << 16  # the characters of a file looked at
# the line types of RTTM (NIST RT-09 evaluation plan, appendix A) and its comments
_RTTM = {"SPEAKER", "SPKR-INFO", "SEGMENT", "LEXEME", "NON-LEX", "NON-SPEECH", "NOSCORE",
         "NO_RT_METADATA", "IP", "SU", "EDIT", "FILLER", "A/P", "CB", ";;"}


def read(path, format: str | None = None, **options):
    """Read an annotation tool's export, recognising its format by content: a ``.json``
    from Label Studio, a ``.jsonl`` from doccano (per-user or 1.x project export) or
    Prodigy, an ELAN ``.eaf``, a Praat TextGrid, a CSV of ratings, a doccano zip, a folder
    of brat annotators, of RTTM, CoNLL, doccano, ELAN or TextGrid files.

    ``format`` (one of :data:`FORMATS`) skips the recognition; ``options`` go to the
    reader. The result's ``notes`` (for CoNLL, those of ``.tokens`` and ``.spans``) say
    which reader read it. When the content fits several formats, or none, an
    :class:`~iaa_widgets.AgreementError` names the candidates and ``format=``.
    """
    chosen = detect_format(path) if format is None else format
    if not isinstance(chosen, str) or chosen not in FORMATS:
        raise AgreementError(f"read: format={chosen!r}; expected one of {sorted(FORMATS)}")
    module, name = FORMATS[chosen]
    reader = getattr(import_module(module, __package__), name)
    source = path
    if chosen == "rttm" and os.path.isfile(path):
        source = [path]  # one file: one annotator (its name)
    out = reader(source, **options)
    note = (f"read as {chosen} by iaa.{name}" + ("" if format else " (format recognised "
                                                 "from the content; format= overrides)"),)
    if chosen == "conll":
        return replace(out, tokens=replace(out.tokens, notes=out.tokens.notes + note),
                       spans=replace(out.spans, notes=out.spans.notes + note))
    return replace(out, notes=tuple(out.notes) + note)


def detect_format(path) -> str:
    """The format of ``path`` told by its content; an AgreementError names the
    candidates when there are several or none."""
    if not isinstance(path, (str, os.PathLike)):
        raise AgreementError(f"read: expected a path to a file or folder, got "
                             f"{type(path).__name__}; pass format= with an open file")
    path = Path(path)
    if not path.exists():
        raise AgreementError(f"read: {os.fspath(path)!r}: no such file or folder, so no "
                             f"format to recognise; {_PASS} ({', '.join(sorted(FORMATS))})")
    found = _folder(path) if path.is_dir() else \
        _zip(path) if zipfile.is_zipfile(path) else _file(path)
    if len(found) == 1:
        return found[0]
    raise AgreementError(
        f"read: {os.fspath(path)!r} " + (f"could be {' or '.join(found)}" if found else
                                          "is in no format iaa_widgets reads") +
        f"; {_PASS} ({', '.join(found or sorted(FORMATS))})")


def _folder(path: Path) -> list[str]:
    """Formats of a folder: one subfolder of .ann files per annotator (brat), or files
    of one kind, one per annotator."""
    entries = list(path.iterdir())
    subfolders = [p for p in entries if p.is_dir()]
    if subfolders and all(any(p.rglob("*.ann")) for p in subfolders):
        return ["brat"]
    suffixes = {p.suffix.lower() for p in entries if p.is_file()}
    found = [f for f, hit in (("rttm", ".rttm" in suffixes), ("elan", ".eaf" in suffixes),
                              ("textgrid", ".textgrid" in suffixes),
                              ("conll", bool(suffixes & set(_CONLL))),
                              ("doccano", ".jsonl" in suffixes)) if hit]
    if found == ["doccano"]:  # one doccano file per annotator (Prodigy writes one file)
        first = sorted(p for p in entries if p.suffix.lower() == ".jsonl")[0]
        found = ["doccano"] if _jsonl(_head(first), first) == ["doccano"] else []
    return found


def _zip(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
    return ["doccano"] if any(n.endswith(".jsonl") for n in names) else []


def _head(path: Path) -> str:
    with open(path, "rb") as fh:
        data = fh.read(_HEAD)
    encoding = "utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
    return data.decode(encoding, errors="ignore")


def _file(path: Path) -> list[str]:
    """Formats of one file, by its first characters and, for JSON, its first record."""
    head = _head(path)
    start = head.lstrip()
    if start.startswith("<"):
        return ["elan"] if "<ANNOTATION_DOCUMENT" in head else []
    if start.startswith("File type") and '"ooTextFile"' in head and "TextGrid" in head:
        return ["textgrid"]
    if start.split(None, 1)[:1] and start.split(None, 1)[0] in _RTTM:
        return ["rttm"]
    if start.startswith("["):
        return _json_array(path, head)
    if start.startswith("{"):
        return _jsonl(head, path)
    if path.suffix.lower() in (".csv", ".tsv"):
        return ["csv"]
    return []


def _json_array(path: Path, head: str) -> list[str]:
    """A JSON array: Label Studio's tasks ("annotations" with "completed_by" or
    "result", beside "data")."""
    if '"annotations"' in head and ('"completed_by"' in head or '"result"' in head):
        return ["label_studio"]
    return []


def _jsonl(head: str, path: Path) -> list[str]:
    """JSON lines: Prodigy tasks (``_input_hash``, ``_task_hash``, ``_view_id`` …) or
    doccano examples (``label``, ``entities``, ``cats``, or 1.x ``annotations`` with
    ``user``), told by the first record."""
    lines = head.split("\n")
    line = next((x for x in lines[:-1] if x.strip()), None)
    if line is None:  # the first record is longer than the head: read it whole
        with open(path, encoding="utf-8-sig", errors="ignore") as fh:
            line = next((x for x in fh if x.strip()), "")
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return []
    if not isinstance(record, dict):
        return []
    # Prodigy's own fields start with '_' (prodi.gy/docs "Annotation task format");
    # doccano writes none
    if any(k in record for k in ("_input_hash", "_task_hash", "_view_id", "_annotator_id",
                                 "_session_id")):
        return ["prodigy"]
    annotations = record.get("annotations")
    if any(k in record for k in ("label", "entities", "cats")) or (
            isinstance(annotations, list) and all(isinstance(a, dict) and "user" in a
                                                  for a in annotations)):
        return ["doccano"]
    if "answer" in record and ("spans" in record or "accept" in record):
        return ["prodigy"]  # a task without Prodigy's hashes, as some scripts write
    return []
