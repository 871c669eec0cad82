"""One door for any export: :func:`read` recognises the format of a file, folder or
stream by its content (not only its extension) and calls that format's reader.

Recognition looks at a bounded prefix (:data:`~._source.HEAD`, 1 MiB) and no further:
a huge one-line file costs no more than a small one. A stream is read once, whole,
and recognised on what was read (:mod:`._source`)."""
from __future__ import annotations

import csv
import inspect
import json
import re
import zipfile
from dataclasses import replace
from importlib import import_module
from pathlib import Path

from ..errors import AgreementError
from ._source import HEAD, WAIT, Source, open_source

__all__ = ["FORMATS", "detect_format", "read"]

# format -> (module, reader) of iaa_widgets; "tsv" is read_csv with sep="\t",
# "continuum" a CSV of units (annotator, category, start, end)
FORMATS = {"csv": (".csv", "read_csv"), "tsv": (".csv", "read_csv"),
           "continuum": ("..continuum", "read_continuum_csv"),
           "label_studio": (".label_studio", "read_label_studio"),
           "prodigy": (".prodigy", "read_prodigy"), "doccano": (".doccano", "read_doccano"),
           "brat": (".brat", "read_brat"), "conll": (".conll", "read_conll"),
           "rttm": (".rttm", "read_rttm"), "textgrid": (".textgrid", "read_textgrid"),
           "elan": (".elan", "read_elan")}
_CONLL = (".conll", ".bio", ".iob")
_PASS = "pass format= in Python, or pass --format to iaa report"
# the line types of RTTM (NIST RT-09 evaluation plan, appendix A) and its comments
_RTTM = {"SPEAKER", "SPKR-INFO", "SEGMENT", "LEXEME", "NON-LEX", "NON-SPEECH", "NOSCORE",
         "NO_RT_METADATA", "IP", "SU", "EDIT", "FILLER", "A/P", "CB"}
_LINES = 200  # lines of a text format checked line by line


def read(source, format: str | None = None, *, wait: float = WAIT, **options):
    """Read an annotation tool's export, recognising its format by its content.

    One entry for every reader: the format is recognised on the first bytes, which are
    kept for the reader, so that a pipe or a compressed file is read once.

    Parameters
    ----------
    source : path-like or file-like
        A file, a folder (brat annotators; RTTM, CoNLL, doccano, ELAN or TextGrid files,
        one per annotator), a pipe or named pipe (``<(zcat export.jsonl.gz)``), an open
        file, a gzip, bzip2 or xz file, doccano's export zip or a zip of one file.
    format : str, optional
        One of ``"csv"``, ``"tsv"``, ``"continuum"``, ``"label_studio"``,
        ``"prodigy"``, ``"doccano"``, ``"brat"``, ``"conll"``, ``"rttm"``,
        ``"textgrid"``, ``"elan"``; skips the recognition. None (the default): the
        format is recognised from the content.
    wait : float, default 60.0
        Seconds a pipe may stay silent before it is refused (a named pipe that no
        program writes to).
    **options
        Passed to the format's reader (``from_name=``, ``view_id=``, ``layout=`` …).

    Returns
    -------
    Annotations, Spans, Continuum or Tagged
        What the reader returns; its ``notes`` (for CoNLL, those of ``.tokens`` and
        ``.spans``) say which reader read it and how (a stream read once, decompressed).

    Raises
    ------
    AgreementError
        When the content fits several formats or none (naming the candidates and
        ``format=``), when an option is not one of the reader's, when a pipe stays
        silent ``wait`` seconds, or as the reader refuses the content.

    See Also
    --------
    iaa_widgets.read_csv : Ratings in a CSV table.
    iaa_widgets.read_label_studio : Label Studio's JSON export.
    iaa_widgets.read_prodigy : Prodigy's db-out JSON lines.
    iaa_widgets.read_doccano : doccano's JSON lines and zips.
    iaa_widgets.read_brat : brat standoff folders.
    iaa_widgets.read_conll : CoNLL/BIO token tags.
    iaa_widgets.read_rttm : RTTM diarization.
    iaa_widgets.read_textgrid : Praat TextGrids.
    iaa_widgets.read_elan : ELAN files.
    iaa_widgets.read_continuum_csv : Units in a CSV table.

    Notes
    -----
    Recognition reads the first 1 MiB of a file (a stream: of what was read): a Label
    Studio export (a JSON array of tasks, or one task), Prodigy or doccano JSON lines
    (by the first record's fields), ELAN XML, a Praat TextGrid, RTTM (every line ten
    fields of an RTTM type), CoNLL (token and BIO tag columns), CSV or TSV (a header and
    rows of as many cells; a header ``annotator,category,start,end`` is a continuum).
    A CSV with a ``rank`` column is read with ``rank="rank"`` unless ``rank=`` is given.

    References
    ----------
    NIST (2009). The 2009 (RT-09) Rich Transcription Meeting Recognition Evaluation
    Plan, appendix A (RTTM).

    Examples
    --------
    >>> import iaa_widgets as iaa
    >>> ann = iaa.read("examples/labels.csv")
    >>> ann.notes[-1]
    'read as csv by iaa.read_csv (format recognised from the content; format= overrides)'
    """
    given = format is not None
    if given and (not isinstance(format, str) or format not in FORMATS):
        raise AgreementError(f"read: format={format!r}; expected one of {sorted(FORMATS)}")
    src = open_source(source, wait)
    chosen = format if given else _detect(src)
    module, name = FORMATS[chosen]
    reader = getattr(import_module(module, __package__), name)
    _check_options(reader, name, options)
    told = _defaults(src, chosen, options)
    out = reader(_argument(src, chosen), **told)
    note = (f"read as {chosen} by iaa.{name}" +
            ("" if given else " (format recognised from the content; format= overrides)") +
            (f"; {src.how}" if src.how else "") +
            ("; its rank column read as the labels' ranks (rank=None reads no rank)"
             if "rank" in told and "rank" not in options else ""),)
    if chosen == "conll":
        return replace(out, tokens=replace(out.tokens, notes=out.tokens.notes + note),
                       spans=replace(out.spans, notes=out.spans.notes + note))
    return replace(out, notes=tuple(out.notes) + note)


def _check_options(reader, name: str, options: dict) -> None:
    """Options the reader does not take are refused, naming those it takes (read_csv
    passes its others to pandas)."""
    params = list(inspect.signature(reader).parameters.values())[1:]
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return
    known = [p.name for p in params]
    odd = [k for k in options if k not in known]
    if odd:
        raise AgreementError(f"read: {', '.join(f'{k}=' for k in odd)} is not an option of "
                             f"iaa.{name}; it takes {', '.join(f'{k}=' for k in known)}")


def _argument(src: Source, chosen: str):
    """What the reader reads: the path or the bytes read once; the readers of one file
    per annotator get ``{annotator: file}`` for one file."""
    if chosen == "conll" and not src.is_dir:
        raise AgreementError(f"read: {src.name} is one CoNLL file; CoNLL agreement needs one "
                             "file per annotator, holding the same tokens: pass a folder of "
                             ".conll files, or iaa.read_conll({annotator: path, …})")
    if chosen == "rttm" and not src.is_dir:
        return {src.stem: src.opened()}  # one file: one annotator (its name)
    if chosen == "doccano" and src.data is not None and not src.data.startswith(b"PK"):
        return {src.stem: src.opened()}  # one file read once (a zip: its members)
    return src.opened()


def _defaults(src: Source, chosen: str, options: dict) -> dict:
    """A TSV's separator; a CSV's ``rank`` column, read as the rank of each label."""
    if chosen == "tsv":
        return {"sep": "\t", **options}
    if chosen == "csv" and "rank" not in options and options.get("layout", "long") == "long" \
            and "rank" in _header(_text(src.head()), options.get("sep", ",")):
        return {"rank": "rank", **options}
    return options


def detect_format(path) -> str:
    """The format of ``path`` (a file, a folder or an open file) told by its content;
    an AgreementError names the candidates when there are several or none. A stream is
    read by this call: read it with :func:`read`, which recognises it once."""
    return _detect(open_source(path))


def _detect(src: Source) -> str:
    if src.is_dir:
        found, why = _folder(Path(src.path)), ""
    elif zipfile.is_zipfile(src.path if src.data is None else src.opened()):
        found, why = ["doccano"], ""  # the only zip kept whole (._source._zip)
    else:
        found, why = _file(src)
    if len(found) == 1:
        return found[0]
    raise AgreementError(
        f"read: {src.name!r} " + (f"could be {' or '.join(found)}" if found else
                                  f"is in no format iaa_widgets reads{why}") +
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
        found = ["doccano"] if _json(_text(Source(str(first), path=str(first)).head()),
                                     True)[0] == ["doccano"] else []
    return found


def _text(head: bytes) -> str:
    encoding = "utf-16" if head[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
    return head.decode(encoding, errors="ignore")


def _file(src: Source) -> tuple[list[str], str]:
    """Formats of one file (or stream) by its first :data:`HEAD` bytes, and why none
    when none."""
    raw = src.head()
    head = _text(raw)
    whole = len(raw) < HEAD  # the prefix is the whole file
    start = head.lstrip()
    if start.startswith("<"):
        return (["elan"] if "<ANNOTATION_DOCUMENT" in head else []), ""
    if start.startswith("File type") and '"ooTextFile"' in head and "TextGrid" in head:
        return ["textgrid"], ""
    lines = head.split("\n") if whole else head.split("\n")[:-1]  # complete lines only
    if start[:1] in "[{" and start:
        found, why = _json(head, whole)
        if found or why or _is_json(next((x for x in lines if x.strip()), "")):
            return found, why  # JSON (not a CSV whose header starts with a brace)
    if _is_rttm(lines):
        return ["rttm"], ""
    if src.suffix in _CONLL or _is_conll(lines):
        return ["conll"], ""
    table = _table(lines, src.suffix)
    return ([table], "") if table else ([], "")


def _is_json(line: str) -> bool:
    """A line that is one JSON value (a JSON lines record, a one-line document)."""
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True


def _is_rttm(lines: list[str]) -> bool:
    """Every line (of the first :data:`_LINES`) an RTTM line: a type of RTTM and at
    least eight fields separated by spaces, a SPEAKER line's onset and duration numbers
    (or a ``;;`` comment)."""
    rows = [x.split() for x in lines if x.strip() and not x.lstrip().startswith(";;")]
    if not rows:
        return False
    for fields in rows[:_LINES]:
        if fields[0] not in _RTTM or len(fields) < 8:
            return False
        if fields[0] == "SPEAKER" and not (_number(fields[3]) and _number(fields[4])):
            return False
    return True


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# a BIO tag (IOB1, IOB2, BIOES, also BILOU's L- and U-)
_TAG = re.compile(r"O|[BIESLU]-\S+")


def _is_conll(lines: list[str]) -> bool:
    """Lines of a token and its columns separated by spaces or tabs, the last a BIO tag
    (blank lines between sentences, ``-DOCSTART-`` lines between documents)."""
    rows = [re.split(r"[ \t]+", x.strip(" \t\r")) for x in lines if x.strip()]
    rows = [r for r in rows if r[0] != "-DOCSTART-"]
    return bool(rows) and all(len(r) >= 2 and _TAG.fullmatch(r[-1]) for r in rows[:_LINES])


def _header(head: str, sep: str) -> list[str]:
    """The names of a CSV's first line."""
    first = next((x for x in head.split("\n") if x.strip()), "")
    try:
        return [c.strip() for c in next(csv.reader([first], delimiter=sep))]
    except (csv.Error, StopIteration, TypeError):
        return []


def _table(lines: list[str], suffix: str) -> str | None:
    """``csv``, ``tsv`` or ``continuum`` when the lines are a table: a header of two
    names or more and rows of as many cells (by a ``.csv`` or ``.tsv`` name, any
    content: read_csv names what is wrong)."""
    rows = [x.rstrip("\r") for x in lines if x.strip()][:_LINES]
    kind = None
    for sep, name in ((",", "csv"), ("\t", "tsv")):
        try:
            cells = [len(r) for r in csv.reader(rows, delimiter=sep)]
        except csv.Error:
            continue
        if cells and cells[0] >= 2 and all(n == cells[0] for n in cells):
            kind = name
            break
    if kind is None:
        kind = {".csv": "csv", ".tsv": "tsv"}.get(suffix)
    if kind == "csv" and [c.lower() for c in _header("\n".join(rows), ",")] == \
            ["annotator", "category", "start", "end"]:
        return "continuum"
    return kind


# -------------------------------------------------------------- JSON, by its outline
# a text (its first run of plain characters taken whole, atomically: no backtracking
# over a text cut by the end of the prefix), a lone quote (that cut), a punctuation, a word
_JSON_TOKEN = re.compile(r'"(?=([^"\\]*))\1(?:\\.[^"\\]*)*"|"|[{}\[\]:,]|[^\s{}\[\]:,"]+')
_LITERAL = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")


def _outline(head: str, record: int):
    """The outline of the first object at depth ``record`` (1: a JSON lines record or a
    single document, 2: the first element of an array): its own keys, the keys of
    everything inside it, and whether it ends within ``head``. None when ``head`` is not
    the start of JSON (a CSV header such as ``{x},annotator,label``)."""
    stack, expect, own, inner = [], "value", [], set()
    for m in _JSON_TOKEN.finditer(head):
        tok = m.group()
        if tok == '"':  # a text cut by the end of the prefix
            return own, inner, False
        if expect == "colon":
            if tok != ":":
                return None
            expect = "value"
        elif expect in ("key", "key or close") and tok[0] == '"':
            if len(stack) == record:
                own.append(tok[1:-1])
            elif len(stack) > record:
                inner.add(tok[1:-1])
            expect = "colon"
        elif expect in ("value", "value or close") and tok in ("{", "["):
            if len(stack) == record - 1 and tok == "[":
                return [], set(), True  # the first record is no object
            stack.append(tok)
            expect = "key or close" if tok == "{" else "value or close"
        elif expect in ("value", "value or close") and (tok[0] == '"' or
                                                        _LITERAL.fullmatch(tok)):
            if len(stack) == record - 1:
                return [], set(), True  # the first record is no object
            expect = "comma or close"
        elif tok in ("}", "]") and (expect == "comma or close" or expect ==
                                     ("key or close" if tok == "}" else "value or close")):
            if stack.pop() != ("{" if tok == "}" else "["):
                return None
            if len(stack) < record:
                return own, inner, True
            expect = "comma or close"
        elif tok == "," and expect == "comma or close":
            expect = "key" if stack[-1] == "{" else "value"
        else:
            return None
    return own, inner, False


def _json(head: str, whole: bool) -> tuple[list[str], str]:
    """A Label Studio export (an array of tasks, each with ``data`` and ``annotations``,
    or one task), or JSON lines of Prodigy or doccano told by the first record's keys;
    ([], '') when the start is not JSON (a CSV whose header starts with ``{``)."""
    start = head.lstrip()
    outline = _outline(start, 2 if start.startswith("[") else 1)
    if outline is None:
        return [], ""
    own, inner, complete = outline
    keys = set(own)
    cut = "" if complete else (f" (its first record is longer than the first "
                               f"{HEAD >> 20} MiB looked at)")
    if start.startswith("["):  # read_label_studio names what a task lacks
        return (["label_studio"], "") if keys & {"data", "annotations"} else ([], cut)
    if {"data", "annotations"} <= keys or (not complete and "data" in keys):
        return ["label_studio"], ""  # one task (its data may fill the prefix)
    # Prodigy's own fields start with '_' (prodi.gy/docs "Annotation task format");
    # doccano writes none
    if {"_input_hash", "_task_hash", "_view_id", "_annotator_id", "_session_id"} & keys:
        return ["prodigy"], ""
    if {"label", "entities", "cats", "annotations"} & keys:
        return ["doccano"], ""
    if "answer" in keys and ({"spans", "accept"} & keys):
        return ["prodigy"], ""  # a task without Prodigy's hashes, as some scripts write
    return [], cut
