"""What every reader shares: opening a path or a file object, reading JSON and JSON
lines with errors that name the file and line, building :class:`Annotations` from
collected labels, and :class:`Spans`, the units of a multi-document export."""
from __future__ import annotations

import gc
import io
import json
import math
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
from .csv import MissingPath


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
            raise MissingPath(f"cannot read {what} {os.fspath(source)!r}: "
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
    except (ValueError, RecursionError) as err:  # an integer of > 4300 digits, deep nesting
        raise AgreementError(f"{name} is not JSON this reader can read: {_odd_json(err)}; "
                             f"expected {what}") from None


def _odd_json(err: Exception) -> str:
    """What a valid but unreadable JSON text holds (Python's limits)."""
    if isinstance(err, RecursionError):
        return "arrays or objects nested too deeply"
    return str(err).split(";")[0]


def json_lines(source, what: str) -> Iterator[tuple[int, dict]]:
    """(line number, record) of each non-blank line of a JSON lines file, or of a list
    of records already parsed (numbered from 1)."""
    if not isinstance(source, (str, os.PathLike)) and not hasattr(source, "read"):
        if not isinstance(source, (list, tuple)):
            raise AgreementError(f"expected a path, an open file or a list of records for "
                                 f"{what}, got {type(source).__name__}")
        for number, record in enumerate(source, 1):
            if not isinstance(record, dict):
                raise AgreementError(f"{what}: record {number} is a {type(record).__name__}, "
                                     "expected a dict (a JSON object)")
            yield number, record
        return
    name = name_of(source, what)
    lines = read_text(source, what).split("\n")  # not splitlines: U+2028 may sit in a text
    numbers = [n for n, line in enumerate(lines, 1) if line.strip()]
    try:  # one parse of all lines as an array: no per-line call
        records = json.loads("[" + ",".join([lines[n - 1] for n in numbers]) + "]")
    except (ValueError, RecursionError):  # named line by line below
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
    except (ValueError, RecursionError) as err:
        raise AgreementError(f"{name}, line {number}: a JSON record this reader cannot read "
                             f"({_odd_json(err)}); expected one JSON object per line "
                             f"({what})") from None


def lines_of(text: str) -> list[str]:
    """The lines of a text file, split at line feeds only (a CR before one is dropped):
    ``str.splitlines`` also splits at form feeds, U+0085 and U+2028, which may sit in a
    document's text and would shift every line number after them."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def per_annotator(source, suffixes: tuple[str, ...], what: str) -> dict:
    """{annotator: source} from a mapping, a list of paths (annotator: the file name
    without its suffix), a folder (one file ending in one of ``suffixes`` per annotator;
    no suffixes: one subfolder per annotator) or a zip file (one member per annotator,
    as doccano exports)."""
    if isinstance(source, Mapping):
        return dict(source)
    if isinstance(source, (list, tuple)):
        odd = [p for p in source if not isinstance(p, (str, os.PathLike))]
        if odd:
            raise AgreementError(f"expected {what} as a list of paths, got {odd[0]!r:.60} in "
                                 "it (a mapping {annotator: path or records} names others)")
        found = [(_stem(Path(p), suffixes), p) for p in source]
    elif _is_zip(source):
        found = []
        with zipfile.ZipFile(source) as archive:
            for member in sorted(archive.namelist()):
                if member.endswith(suffixes) and not member.startswith("__MACOSX"):
                    data = io.BytesIO(archive.read(member))
                    data.name = f"{name_of(source, 'the zip')}:{member}"  # errors name it
                    found.append((_stem(Path(member), suffixes), data))
    elif isinstance(source, (str, os.PathLike)) and os.path.isdir(source):
        found = [(_stem(p, suffixes), p) for p in sorted(Path(source).iterdir())
                 if (p.is_file() and p.name.endswith(suffixes) if suffixes else p.is_dir())]
    elif isinstance(source, (str, os.PathLike)) and not os.path.exists(source):
        raise MissingPath(f"{os.fspath(source)!r}: no such file or folder; expected {what}")
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


def _is_zip(source) -> bool:
    """A zip file: its path, or an open binary file (the bytes iaa.read read once)."""
    if isinstance(source, (str, os.PathLike)):
        return zipfile.is_zipfile(source)
    if not (hasattr(source, "read") and getattr(source, "seekable", lambda: False)()):
        return False
    start = source.tell()
    try:
        return zipfile.is_zipfile(source)
    finally:
        source.seek(start)


def field_name(value, where: str, arg: str) -> None:
    """An argument naming a field or a marker of the records (``item=``, ``from_name=``,
    ``docstart=`` …) is a text."""
    if not isinstance(value, str):
        raise AgreementError(f"{where}: {arg}={value!r:.60}; expected a text (a name as the "
                             "file writes it)")


def declared(categories, where: str, labels: bool = False) -> list | None:
    """``categories=`` of a reader: None, or distinct texts or numbers in the user's order
    (``labels``: any distinct labels, sets included)."""
    if categories is None:
        return None
    if isinstance(categories, (str, bytes, dict)) or not hasattr(categories, "__iter__"):
        raise AgreementError(f"{where}: categories={categories!r:.60}; expected a list of "
                             "the categories in their order")
    out = list(categories)
    check_values(out, "a declared category", [f"{where}: categories="] * len(out),
                 missing=labels)
    if len(set(out)) != len(out):
        raise AgreementError(f"{where}: declared categories must be distinct, got {out!r:.80}")
    return out


def tier_names(tiers, where: str) -> list | None:
    """``tiers=``: None (all), one tier name or a list of names."""
    if tiers is None:
        return None
    if isinstance(tiers, str):
        return [tiers]
    if isinstance(tiers, (list, tuple, set)) and all(isinstance(t, str) for t in tiers):
        return list(tiers)
    raise AgreementError(f"{where}: tiers={tiers!r}; expected a tier name or a list of tier "
                         "names")


def _stem(path: Path, suffixes: tuple[str, ...]) -> str:
    """An annotator's name from its folder or file: the name without the suffix."""
    if path.is_dir():
        return path.name
    for suffix in suffixes:
        if path.name.endswith(suffix):
            return path.name[:-len(suffix)]
    return path.stem


# what a value read from a file may be: a text or a number (labels: also a missing label
# or a set of texts); JSON's other types are named as JSON names them
# (a tuple: a reader's own composite id, such as CoNLL's (document, sentence, token))
_SCALARS = frozenset({str, int, float, bool, tuple})
_JSON_TYPES = {dict: "an object", list: "an array", type(None): "null"}


def check_values(values: list, what: str, where: list, missing: bool = False) -> None:
    """Refuse, naming the record, a value that is not a text or a finite number (with
    ``missing``: also None and frozensets, a missing or set-valued label): a JSON object
    or array where an id or a label belongs, and 1e400 or NaN, which JSON parsers read
    as infinite or not a number."""
    allowed = _SCALARS | {type(None), frozenset} if missing else _SCALARS
    kinds = set(map(type, values))
    odd = kinds - allowed
    bad = next((i for i, v in enumerate(values) if type(v) in odd), None) if odd else None
    if bad is None and float in kinds:
        bad = next((i for i, v in enumerate(values)
                    if type(v) is float and not math.isfinite(v)), None)
    if bad is not None:
        value = values[bad]
        shown = _JSON_TYPES.get(type(value), f"{value!r}")
        raise AgreementError(f"{where[bad]}: {what} is {shown}" +
                             (f" ({value!r:.60})" if type(value) in _JSON_TYPES else "") +
                             "; expected a text or a finite number")


def set_labels(values: list, where: list) -> list:
    """Each record's list of labels as a set-valued label (a frozenset of texts; None
    stays missing); a member that is not a text or a number is refused by its record."""
    out = []
    for value, place in zip(values, where):
        if value is not None:
            check_values(value, "a label in the list", [place] * len(value))
        out.append(None if value is None else frozenset(str(v) for v in value))
    return out


def annotations(item: list, annotator: list, label: list, where: list,
                notes: list[str], categories=None):
    """Annotations from parallel lists of one rating each; ``where`` names each rating's
    record (file and line, task …) so that a duplicate is named where it is; ``notes``:
    what the reader skipped, for every result to report.

    One rule for every reader, of labels or of spans: an annotator submits an item (a
    document) once. A second submission by the same annotator is refused, naming both
    records, never merged with the first nor silently kept instead of it."""
    from ..data import as_annotations
    if not item:
        raise AgreementError("the export holds no rating to read" +
                             (f" ({'; '.join(notes)})" if notes else ""))
    check_values(item, "the item id", where)
    check_values(annotator, "the annotator", where)
    check_values(label, "the label", where, missing=True)
    categories = declared(categories, "the reader", labels=True)
    df = pd.DataFrame({"item": item, "annotator": annotator, "label": label},
                      index=pd.Index(where, name="record"))
    ann = as_annotations(df, categories=categories)
    return replace(ann, notes=tuple(notes) + ann.notes) if notes else ann


def counted(counts: Mapping[str, int]) -> list[str]:
    """Notes from {what was skipped: how many}, leaving out zeros."""
    return [f"{n} {what}" for what, n in counts.items() if n]


def as_list(value, what: str, place: str) -> list:
    """A field that holds a JSON array (a missing one is empty); anything else is
    refused naming the record."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise AgreementError(f"{place}: {what} is {_JSON_TYPES.get(type(value), repr(value))}"
                             f"; expected an array")
    return value


def as_record(value, keys: tuple, what: str, place: str) -> dict:
    """A JSON object holding ``keys``; anything else is refused naming the record."""
    if not isinstance(value, dict) or any(k not in value for k in keys):
        raise AgreementError(f"{place}: {what} {value!r:.80}; expected an object" +
                             (f" with {', '.join(keys)}" if keys else ""))
    return value


_INDEX = object()  # the key of Spans' index of documents in its cache (no document's)


class NoDocument(AgreementError, KeyError):
    """``spans[item]`` of a document the export does not hold (a KeyError too, as a
    mapping's lookup raises, so that ``in`` and ``get`` work)."""

    __str__ = AgreementError.__str__


@dataclass(frozen=True, eq=False)
class Spans(Mapping):
    """Units that annotators placed in the documents of an export: one `Continuum` per
    document.

    A read-only mapping ``{document: Continuum}`` of every submitted document, made by the
    span readers (`read_brat`, `read_rttm`, `read_label_studio`, `read_prodigy`,
    `read_doccano`, `read_conll`). ``spans[item]`` is one document's Continuum,
    ``spans.continuum()`` the only one's, `continua` those agreement can be measured on.

    Parameters
    ----------
    units : pandas.DataFrame
        One row per unit, columns ``item``, ``annotator``, ``category``, ``start``,
        ``end``; its index names the record (file and line) each unit comes from.
    annotated : pandas.DataFrame
        One row per (``item``, ``annotator``) who submitted the document, with or without
        units, so that an annotator who marked nothing still counts in γ (every unit of
        the others is then unmatched).
    notes : tuple of str, default ()
        What the reader skipped or split; every Continuum carries them.
    categories : tuple, optional
        The declared categories in their order (``categories=`` of the reader); None: the
        export's, sorted, every document's Continuum having them all.

    Attributes
    ----------
    documents : list
        The documents (items) in order of first appearance.

    Methods
    -------
    continuum(item=None)
        One document's Continuum (``item=None``: the only document of the export).
    continua()
        ``{document: Continuum}`` of the documents with two annotators or more and one
        unit or more; each Continuum's ``notes`` say how many were left out.

    Raises
    ------
    AgreementError
        ``spans[item]`` of a document the export does not hold (a ``KeyError`` too, so
        that ``in`` and ``get`` work); ``continuum()`` without ``item`` when the export
        holds several documents.

    See Also
    --------
    iaa_widgets.Continuum : One document's units.
    iaa_widgets.gamma : Agreement on a Continuum.
    iaa_widgets.span_disagreements : Units on which annotators differ.

    Notes
    -----
    A document nobody placed a unit in gives an empty Continuum (which γ refuses), and one
    that a single annotator submitted gives a one-annotator Continuum: both are in the
    mapping, neither is in `continua`.

    Examples
    --------
    >>> spans = iaa.read_prodigy("examples/exports/prodigy_hotel_ner.jsonl")
    >>> spans
    Spans(11 units in 6 documents, 2 annotators)
    >>> len(spans.continua())  # one document has one annotator, one has no unit
    4
    >>> spans.units.columns.tolist()
    ['item', 'annotator', 'category', 'start', 'end']
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

    def __contains__(self, item) -> bool:
        try:
            return item in self._by_document()
        except TypeError:  # an unhashable key is no document
            return False

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
        documents were left out."""
        counts = self.annotated.groupby("item", sort=False)["annotator"].nunique()
        placed = set(self.units["item"])
        keep = [d for d in self.documents if counts[d] >= 2 and d in placed]
        left = len(self) - len(keep)
        note = (f"{left} document(s) of the export left out: annotated by fewer than two "
                "annotators or with no unit",) if left else ()
        return {d: replace(self[d], notes=self[d].notes + note) for d in keep}

    def _by_document(self) -> dict:
        """{document: (its annotators, positions of its units)}, built once."""
        if _INDEX not in self._cache:
            who = self.annotated.groupby("item", sort=False)["annotator"].unique()
            rows = pd.Series(np.arange(len(self.units))).groupby(
                self.units["item"].to_numpy(), sort=False).indices if len(self.units) else {}
            self._cache[_INDEX] = {d: (list(who[d]), rows.get(d, np.empty(0, dtype=np.intp)))
                                   for d in who.index}
        return self._cache[_INDEX]

    def _categories(self) -> list:
        """The export's categories: those declared, else all of the export's sorted (as
        Continuum sorts them), in order of first appearance when texts and numbers mix."""
        if self.categories is not None:
            return list(self.categories)
        try:
            return pd.factorize(self.units["category"], sort=True)[1].tolist()
        except TypeError:
            return pd.unique(self.units["category"]).tolist()

    def _continuum(self, item) -> Continuum:
        if item not in self:
            raise NoDocument(f"no document {item!r} in the export; it has "
                             f"{self.documents[:8]!r}")
        who, rows = self._by_document()[item]
        units = self.units.iloc[rows]
        # every document's continuum has the export's categories; ordered when declared
        # or numbers
        categories = self._categories()
        ordered = self.categories is not None or \
            pd.api.types.is_numeric_dtype(self.units["category"])
        cont = Continuum.from_codes(pd.Index(who).get_indexer(units["annotator"]),
                                    pd.Index(categories).get_indexer(units["category"]),
                                    units["start"].to_numpy(), units["end"].to_numpy(),
                                    who, categories, ordered)
        return replace(cont, notes=self.notes)

    def __repr__(self) -> str:
        return (f"Spans({len(self.units)} units in {len(self)} documents, "
                f"{self.annotated['annotator'].nunique()} annotators)")


def spans(rows: list[tuple], annotated: list[tuple], where: list, notes: list[str],
          categories=None) -> Spans:
    """Spans from (item, annotator, category, start, end) rows, the (item, annotator,
    record) of each submission of a document (see :func:`annotations` for the rule on a
    second submission; an (item, annotator) pair names no record), and the records the
    rows come from."""
    if not annotated:
        raise AgreementError("the export holds no annotated document" +
                             (f" ({'; '.join(notes)})" if notes else ""))
    if len(annotated[0]) == 2:
        annotated = [(i, a, f"document {i!r} of annotator {a!r}") for i, a in annotated]
    pairs = pd.DataFrame(annotated, columns=["item", "annotator", "record"])
    check_values(pairs["item"].tolist(), "the document id", pairs["record"].tolist())
    check_values(pairs["annotator"].tolist(), "the annotator", pairs["record"].tolist())
    twice = np.flatnonzero(pairs.duplicated(["item", "annotator"], keep=False).to_numpy())
    if len(twice):
        item, who, record = annotated[twice[0]]
        again = next(annotated[i][2] for i in twice[1:] if annotated[i][:2] == (item, who))
        raise AgreementError(f"annotator {who!r} submitted document {item!r} twice ({record} "
                             f"and {again}); a second submission is neither merged "
                             "nor dropped: remove one (the label readers refuse the same)")
    units = pd.DataFrame(rows, columns=["item", "annotator", "category", "start", "end"],
                         index=pd.Index(where, name="record"))
    check_values(units["category"].tolist(), "a unit's category", where)
    for col in ("start", "end"):
        if units[col].dtype == object:  # a text, an object … among the numbers
            check_values(units[col].tolist(), f"a unit's {col}", where)
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
    categories = declared(categories, "the reader")
    _check_categories(units, categories)
    return Spans(units, pairs[["item", "annotator"]], tuple(notes),
                 None if categories is None else tuple(categories))


def _check_categories(units: pd.DataFrame, categories) -> None:
    """A unit's category is not blank, and among the declared ones when declared."""
    cats = units["category"]
    blank = [c for c in pd.unique(cats) if isinstance(c, str) and not c.strip()]
    if blank:
        row = int(np.argmax(cats.isin(blank).to_numpy()))
        raise AgreementError(f"{cats.index[row]}: a unit's category is {cats.iloc[row]!r}, "
                             "blank; expected the name of a category")
    if categories is None:
        return
    bad = np.flatnonzero(~cats.isin(categories).to_numpy())
    if len(bad):
        raise AgreementError(f"{cats.index[bad[0]]}: category {cats.iloc[bad[0]]!r} is not "
                             f"among the declared categories {categories!r:.80}")
