"""What every reader shares: opening a path or a file object, reading JSON and JSON
lines with errors that name the file and line, building :class:`Annotations` from
collected labels, and :class:`Spans`, the units of a multi-document export."""
from __future__ import annotations

import gc
import io
import json
import os
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator, Mapping

import numpy as np
import pandas as pd

from ..continuum import Continuum
from ..errors import AgreementError


def name_of(source, default: str) -> str:
    """How a message names ``source``: its path, a file object's name, or ``default``."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return str(getattr(source, "name", default))


def read_text(source, what: str) -> str:
    """The text of a path or of an open file (text or bytes), decoded as UTF-8 (a byte
    order mark says UTF-16 or UTF-8-sig, as Praat and Windows tools write)."""
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as fh:
                data = fh.read()
        except OSError as err:
            raise AgreementError(f"cannot read {what} {os.fspath(source)!r}: "
                                 f"{err.strerror}") from None
    elif hasattr(source, "read"):
        data = source.read()
    else:
        raise AgreementError(f"expected a path or an open file for {what}, got "
                             f"{type(source).__name__}")
    if isinstance(data, str):
        return data
    return decode(data, name_of(source, what))


def decode(data: bytes, name: str) -> str:
    """Bytes as text: UTF-16 or UTF-8 by byte order mark, else UTF-8."""
    encoding = "utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise AgreementError(f"{name} is not valid {encoding} text (byte "
                             f"0x{data[err.start]:02x} on line {line}); save it as UTF-8"
                             ) from None


@contextmanager
def no_gc():
    """Parsing makes millions of small dicts and lists that the cyclic garbage collector
    scans again and again (3-4× the parse time); none of them forms a cycle, so the
    collector pauses while a reader parses and walks them."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_json(source, what: str):
    """A JSON document from a path, an open file or the parsed object itself."""
    if not isinstance(source, (str, os.PathLike)) and not hasattr(source, "read"):
        return source  # already parsed (a list or dict from json.load)
    name = name_of(source, what)
    text = read_text(source, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise AgreementError(f"{name} is not valid JSON: {err.msg} on line {err.lineno}, "
                             f"column {err.colno}; expected {what}") from None


def json_lines(source, what: str) -> Iterator[tuple[int, dict]]:
    """(line number, record) of each non-blank line of a JSON lines file, or of a list
    of records already parsed (numbered from 1)."""
    if not isinstance(source, (str, os.PathLike)) and not hasattr(source, "read"):
        if not isinstance(source, (list, tuple)):
            raise AgreementError(f"expected a path, an open file or a list of records for "
                                 f"{what}, got {type(source).__name__}")
        yield from enumerate(source, 1)
        return
    name = name_of(source, what)
    lines = read_text(source, what).split("\n")  # not splitlines: U+2028 may sit in a text
    numbers = [n for n, line in enumerate(lines, 1) if line.strip()]
    try:  # one parse of all lines as an array: no per-line call
        records = json.loads("[" + ",".join([lines[n - 1] for n in numbers]) + "]")
    except json.JSONDecodeError:
        records = None
    if records is None or len(records) != len(numbers):  # a bad line (or two records on one)
        records = [_record(lines[n - 1], name, n, what) for n in numbers]
    for number, record in zip(numbers, records):
        if not isinstance(record, dict):
            raise AgreementError(f"{name}, line {number}: a JSON {type(record).__name__}, "
                                 f"expected one JSON object per line ({what})")
        yield number, record


def _record(line: str, name: str, number: int, what: str):
    """One line's JSON value; the error names the line."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as err:
        raise AgreementError(f"{name}, line {number}: not a JSON record ({err}); expected "
                             f"one JSON object per line ({what})") from None


def per_annotator(source, suffixes: tuple[str, ...], what: str) -> dict:
    """{annotator: source} from a mapping, a list of paths (annotator: the file name
    without its suffix), a folder (one file ending in one of ``suffixes`` per annotator;
    no suffixes: one subfolder per annotator) or a zip file (one member per annotator,
    as doccano exports)."""
    if isinstance(source, Mapping):
        return dict(source)
    if isinstance(source, (list, tuple)):
        found = [(_stem(Path(p), suffixes), p) for p in source]
    elif isinstance(source, (str, os.PathLike)) and zipfile.is_zipfile(source):
        found = []
        with zipfile.ZipFile(source) as archive:
            for member in sorted(archive.namelist()):
                if member.endswith(suffixes) and not member.startswith("__MACOSX"):
                    data = io.BytesIO(archive.read(member))
                    data.name = f"{os.fspath(source)}:{member}"  # errors name the member
                    found.append((_stem(Path(member), suffixes), data))
    elif isinstance(source, (str, os.PathLike)) and os.path.isdir(source):
        found = [(_stem(p, suffixes), p) for p in sorted(Path(source).iterdir())
                 if (p.is_file() and p.name.endswith(suffixes) if suffixes else p.is_dir())]
    else:
        raise AgreementError(f"expected {what} from several annotators: a mapping "
                             "{annotator: path}, a list of paths, a folder or a zip file, got "
                             f"{source!r}")
    out = {}
    for stem, p in found:
        if stem in out:
            raise AgreementError(f"two sources name annotator {stem!r}: {out[stem]} and {p}; "
                                 "pass a mapping {annotator: path}")
        out[stem] = p
    if not out:
        raise AgreementError(f"no {what} found in {source!r}" + (
            f" (files ending in {', '.join(suffixes)})" if suffixes else ""))
    return out


def _stem(path: Path, suffixes: tuple[str, ...]) -> str:
    """An annotator's name from its folder or file: the name without the suffix."""
    if path.is_dir():
        return path.name
    for suffix in suffixes:
        if path.name.endswith(suffix):
            return path.name[:-len(suffix)]
    return path.stem


def annotations(item: list, annotator: list, label: list, where: list,
                notes: list[str], categories=None):
    """Annotations from parallel lists of one rating each; ``where`` names each rating's
    record (file and line, task …) so that a duplicate is named where it is; ``notes``:
    what the reader skipped, for every result to report."""
    from ..data import as_annotations
    if not item:
        raise AgreementError("the export holds no rating to read" +
                             (f" ({'; '.join(notes)})" if notes else ""))
    df = pd.DataFrame({"item": item, "annotator": annotator, "label": label},
                      index=pd.Index(where, name="record"))
    ann = as_annotations(df, categories=categories)
    return replace(ann, notes=tuple(notes) + ann.notes) if notes else ann


def counted(counts: Mapping[str, int]) -> list[str]:
    """Notes from {what was skipped: how many}, leaving out zeros."""
    return [f"{n} {what}" for what, n in counts.items() if n]


def as_set(values) -> frozenset:
    """A set-valued label: a frozenset of texts."""
    return frozenset(str(v) for v in values)


@dataclass(frozen=True, eq=False)
class Spans(Mapping):
    """Units that annotators placed in the documents of an export: one
    :class:`~iaa_widgets.Continuum` per document (``spans[item]``; ``spans.continuum()``
    when there is one document).

    ``units`` holds one row per unit (item, annotator, category, start, end; its index
    names the record each unit comes from); ``annotated`` one row per (item, annotator)
    who submitted the document, with or without units, so that an annotator who marked
    nothing still counts in γ (every unit of the others is then unmatched). ``notes``
    say what the reader skipped or split; every Continuum carries them.
    :meth:`continua` gives the documents agreement can be measured on.
    """

    units: pd.DataFrame
    annotated: pd.DataFrame
    notes: tuple[str, ...] = ()
    categories: tuple | None = None
    _cache: dict = field(default_factory=dict, init=False, repr=False)

    __eq__ = object.__eq__  # one export is itself: no continuum built to compare
    __hash__ = object.__hash__

    @property
    def documents(self) -> list:
        """The documents (items), in order of first appearance; ``spans.items()`` gives
        (document, Continuum) pairs, as a mapping does."""
        return pd.unique(self.annotated["item"]).tolist()

    def __getitem__(self, item) -> Continuum:
        if item not in self._cache:
            self._cache[item] = self._continuum(item)
        return self._cache[item]

    def __iter__(self):
        return iter(self.documents)

    def __len__(self) -> int:
        return len(self.documents)

    def continuum(self, item=None) -> Continuum:
        """One document's units (``item=None``: the only document of the export)."""
        if item is None:
            if len(self) != 1:
                raise AgreementError(f"the export holds {len(self)} documents "
                                     f"({self.documents[:5]!r} …); name one: "
                                     "spans.continuum(item), or iterate over spans.items()")
            item = self.documents[0]
        return self[item]

    def continua(self) -> dict:
        """{document: Continuum} of the documents agreement can be measured on (two
        annotators or more, one unit or more); each Continuum's ``notes`` say how many
        documents were left out. ``spans.items()`` raises on such a document instead."""
        counts = self.annotated.groupby("item", sort=False)["annotator"].nunique()
        placed = set(self.units["item"])
        keep = [d for d in self.documents if counts[d] >= 2 and d in placed]
        left = len(self) - len(keep)
        note = (f"{left} document(s) of the export left out: annotated by fewer than two "
                "annotators or with no unit",) if left else ()
        return {d: replace(self[d], notes=self[d].notes + note) for d in keep}

    def _continuum(self, item) -> Continuum:
        if item not in set(self.annotated["item"]):
            raise AgreementError(f"no document {item!r} in the export; it has "
                                 f"{self.documents[:8]!r}")
        who = pd.unique(self.annotated.loc[self.annotated["item"] == item,
                                           "annotator"]).tolist()
        units = self.units[self.units["item"] == item]
        if len(who) < 2:
            raise AgreementError(f"document {item!r} was annotated by {who!r} only; "
                                 "agreement on it needs at least two annotators")
        if len(units) == 0:
            raise AgreementError(f"nobody placed a unit in document {item!r} "
                                 f"(annotators {who!r}): its continuum is empty")
        # every document's continuum has the export's categories: those declared, else
        # all of the export sorted as Continuum sorts them (ordered only if numbers)
        declared = self.categories is not None
        categories = list(self.categories) if declared else \
            pd.factorize(self.units["category"], sort=True)[1].tolist()
        cont = Continuum.from_frame(units.reset_index(drop=True), annotators=who,
                                    categories=categories)
        ordered = declared or pd.api.types.is_numeric_dtype(self.units["category"])
        return replace(cont, ordered=ordered, notes=self.notes)

    def __repr__(self) -> str:
        return (f"Spans({len(self.units)} units in {len(self)} documents, "
                f"{self.annotated['annotator'].nunique()} annotators)")


def spans(rows: list[tuple], annotated: list[tuple], where: list, notes: list[str],
          categories=None) -> Spans:
    """Spans from (item, annotator, category, start, end) rows, the (item, annotator)
    pairs that submitted a document, and the records the rows come from."""
    if not annotated:
        raise AgreementError("the export holds no annotated document" +
                             (f" ({'; '.join(notes)})" if notes else ""))
    units = pd.DataFrame(rows, columns=["item", "annotator", "category", "start", "end"],
                         index=pd.Index(where, name="record"))
    for col in ("start", "end"):
        values = pd.to_numeric(units[col], errors="coerce").to_numpy(dtype=float)
        bad = np.flatnonzero(~np.isfinite(values))
        if len(bad):
            raise AgreementError(f"{units.index[bad[0]]}: a unit's {col} is "
                                 f"{units[col].iloc[bad[0]]!r}; expected a finite number "
                                 "(a character offset or a time in seconds)")
        units[col] = values
    bad = np.flatnonzero(~(units["end"].to_numpy() >= units["start"].to_numpy()))
    if len(bad):
        raise AgreementError(f"{units.index[bad[0]]}: a unit ends before it starts "
                             f"({units['start'].iloc[bad[0]]} → {units['end'].iloc[bad[0]]}); "
                             "expected start ≤ end")
    pairs = pd.DataFrame(annotated, columns=["item", "annotator"]).drop_duplicates()
    return Spans(units, pairs.reset_index(drop=True), tuple(notes),
                 None if categories is None else tuple(categories))
