"""doccano's JSONL exports.

Current doccano writes one file per annotator (the zip it writes when annotations are
not shared), one example per line (``backend/data_export/pipeline/factories.py``):
text classification ``{"id", "text", "label": ["positive", …]}``; sequence labelling
``"label": [[start, end, "TAG"], …]`` or, with relations enabled, ``"entities": [{"id",
"label", "start_offset", "end_offset"}, …]`` (character offsets); intent detection
``"cats": [...]`` beside ``"entities": [[start, end, "TAG"], …]``. The examples of its
documentation have no ``id``.

doccano 1.x wrote one file for the whole project (``JSONPainter``): each example holds
``annotations: [{"label": <label id>, "user": <user id>}]`` (classification) or with
``start_offset`` and ``end_offset`` (sequence labelling); the label names are in the
project's label file (``[{"id", "text", …}]``).
"""
from __future__ import annotations

import os

from ..errors import AgreementError
from ._common import (annotations, as_list, as_record, check_values, counted, field_name,
                      json_lines, load_json, name_of, no_gc, per_annotator, set_labels, spans)

__all__ = ["read_doccano"]

_FIELDS = ("label", "entities", "cats", "annotations")


def read_doccano(source, item: str = "id", sets: bool | None = None, categories=None,
                 labels=None, field: str | None = None):
    """Read doccano JSONL exports: classification as `Annotations`, sequence labelling as
    `Spans`.

    One file per annotator (doccano's export zip, or a folder of
    ``<annotator>.jsonl``), or a doccano 1.x project export whose ``annotations`` name
    each ``user``. A classification example with several labels is a set-valued label; one
    with none is a missing label (counted in ``n_blank``), or the empty set when labels are
    sets.

    Parameters
    ----------
    source : path-like, file-like, mapping, or list of path-like
        doccano's export zip, a folder of ``<annotator>.jsonl`` files, a list of them, a
        mapping ``{annotator: path or list of records}``, or one JSONL file of a doccano
        1.x project export (every ``user`` is an annotator).
    item : str, default "id"
        The field identifying an example across files (doccano's ``id``). When no record
        of a file has an ``id``, as in the exports of doccano's documentation, the item is
        the line number (the files list the examples in one order; ``notes`` say so);
        ``item="text"`` matches the examples by their text.
    sets : bool, optional
        As in `read_label_studio`: None (the default) reads every label as a frozenset once
        one example has several, True always, False refuses several.
    categories : sequence, optional
        The labels that may occur, in their order. By default (None), those the files
        use. A label not declared is refused.
    labels : path-like, list of dict, or mapping, optional
        doccano 1.x: the project's label file (path, or its parsed list of ``{"id",
        "text"}``) or a mapping ``{id: name}``. Without it, label ids stay as text ids and
        ``notes`` say so.
    field : {"label", "entities", "cats", "annotations"}, optional
        What to read when a record holds several: ``"label"``, ``"entities"`` (spans),
        ``"cats"`` (intent detection's categories) or ``"annotations"`` (1.x). By default
        the spans of a record that holds both, the other counted in ``notes``.

    Returns
    -------
    Annotations or Spans
        `Annotations` of classification labels; `Spans` (character offsets, one document
        per example) of sequence labels. ``notes`` count what was not read.

    Raises
    ------
    AgreementError
        When ``field`` is not an accepted value or ``labels`` is not a label file or
        mapping; when a record lacks the ``item`` field (while others have it) or any field
        to read, or mixes spans and labels; when a span is not ``[start, end, label]``; when
        a label id is not in ``labels``; when the files mix classification and spans; when
        ``sets=False`` and an example has several labels.

    See Also
    --------
    iaa_widgets.read : Recognises doccano JSON lines and zips and calls this reader.
    iaa_widgets.read_label_studio : Label Studio's JSON export.
    iaa_widgets.read_prodigy : Prodigy's db-out JSON lines.

    Notes
    -----
    ``relations`` are not read and are counted in ``notes``.

    References
    ----------
    Nakayama, H., Kubo, T., Kamura, J., Taniguchi, Y., & Liang, X. (2018). doccano: Text
    Annotation Tool for Human. https://github.com/doccano/doccano

    Examples
    --------
    >>> # examples/exports/doccano_intents.zip: alice.jsonl, bob.jsonl, carol.jsonl
    >>> ann = iaa.read_doccano("examples/exports/doccano_intents.zip")
    >>> ann
    Annotations(10 items, 3 annotators, 3 categories, 29 ratings)
    >>> ann.categories.tolist()
    ['complaint', 'praise', 'question']
    >>> one = iaa.read_doccano("examples/exports/doccano_intents_1x.jsonl",
    ...                        labels="examples/exports/doccano_intents_labels.json")
    >>> one.categories.tolist() == ann.categories.tolist()
    True
    """
    field_name(item, "read_doccano", "item")
    if field is not None and field not in _FIELDS:
        raise AgreementError(f"read_doccano: field={field!r}; expected one of {_FIELDS}")
    one = isinstance(source, (str, os.PathLike)) and os.path.isfile(source) and \
        not os.fspath(source).endswith(".zip")
    files = {os.path.basename(os.fspath(source)).removesuffix(".jsonl"): source} if one \
        else per_annotator(source, (".jsonl",), "doccano JSONL exports")
    names = _label_names(labels)
    with no_gc():
        return _Reader(item, names, field).read(files, sets, categories)


def _label_names(labels) -> dict | None:
    """{label id: name} from the project's label file, its parsed list or a mapping."""
    if labels is None or isinstance(labels, dict):
        return labels
    parsed = load_json(labels, "doccano's label file (a list of {\"id\", \"text\"})")
    where = name_of(labels, "labels=")
    if not isinstance(parsed, list) or not all(
            isinstance(x, dict) and "id" in x and "text" in x for x in parsed):
        raise AgreementError(f"{where}: expected doccano's label file, a list of "
                             "{\"id\": …, \"text\": …} (or pass labels={id: name})")
    return {x["id"]: x["text"] for x in parsed}


class _Reader:
    """Collects the ratings and units of every record of every file."""

    def __init__(self, item: str, names: dict | None, field: str | None):
        self.item, self.names, self.field = item, names, field
        self.items, self.annotators, self.values, self.where = [], [], [], []
        self.units, self.unit_where, self.annotated = [], [], []
        self.kinds: set = set()
        self.skipped = {"relation(s) not read": 0, "'cats' list(s) not read (field='cats' "
                        "reads them)": 0, "example(s) of the project export with no "
                        "annotation (whoever saw them is not in the file)": 0}
        self.by_line = self.ids_kept = 0

    def read(self, files: dict, sets, categories):
        for who, path in files.items():
            records = list(json_lines(path, "doccano JSONL, one example per line"))
            name = name_of(path, f"the records of {who!r}")
            numbered = self.item == "id" and records and not any(
                "id" in r for _, r in records)
            self.by_line += bool(numbered)
            for number, record in records:
                self.record(who, record, number, f"{name}, line {number}", numbered)
        return self.result(sets, categories)

    def record(self, who, record: dict, number: int, place: str, numbered: bool) -> None:
        if numbered:
            key = number
        elif self.item not in record:
            raise AgreementError(f"{place}: no {self.item!r} field naming the example; "
                                 f"the record has {sorted(record)!r} (pass item=)")
        else:
            key = record[self.item]
        self.skipped["relation(s) not read"] += len(as_list(record.get("relations"),
                                                            "'relations'", place))
        field = self.field or next((f for f in ("annotations", "entities", "label", "cats")
                                    if f in record), None)
        if field is None or field not in record:
            raise AgreementError(f"{place}: no {field or ' / '.join(_FIELDS)!r} field; the "
                                 f"record has {sorted(record)!r}")
        if field == "entities" and "cats" in record:
            self.skipped["'cats' list(s) not read (field='cats' reads them)"] += 1
        value = as_list(record[field], repr(field), place)
        unit_place = f"{place} (record {key!r})"
        if field == "annotations":
            self.project(key, value, place, unit_place)
        elif value and all(isinstance(x, (list, dict)) for x in value):
            self.spans(key, who, value, place, unit_place)
        elif any(isinstance(x, (list, dict)) for x in value):
            raise AgreementError(f"{place}: {field!r} mixes spans and labels: {value!r:.80}")
        else:
            self.label(key, who, value, place, "labels" if value else "empty")

    def spans(self, key, who, value: list, place: str, unit_place: str) -> None:
        """[start, end, tag] triples or {"label", "start_offset", "end_offset"} entities."""
        self.kinds.add("spans")
        self.annotated.append((key, who, place))
        for x in value:
            if isinstance(x, dict):
                as_record(x, ("label", "start_offset", "end_offset"), "an entity", place)
                x = (x["start_offset"], x["end_offset"], x["label"])
            elif len(x) != 3:
                raise AgreementError(f"{place}: a span {x!r:.80}; expected [start, end, label]")
            self.units.append((key, who, x[2], x[0], x[1]))
            self.unit_where.append(unit_place)

    def label(self, key, who, value: list, place: str, kind: str) -> None:
        self.kinds.add(kind)
        self.annotated.append((key, who, place))
        self.items.append(key)
        self.annotators.append(who)
        self.values.append(value)
        self.where.append(place)

    def project(self, key, value: list, place: str, unit_place: str) -> None:
        """A doccano 1.x record: every annotation names its user."""
        self.skipped["example(s) of the project export with no annotation (whoever saw "
                     "them is not in the file)"] += not value
        mine: dict = {}
        for a in value:
            as_record(a, ("label", "user"), "an annotation", place)
            check_values([a["user"], a["label"]], "an annotation's user or label",
                         [place, place])
            mine.setdefault(a["user"], []).append(a)
        for who, found in mine.items():
            if all("start_offset" in a for a in found):
                self.spans(key, who, [{**a, "label": self.name(a["label"], place)}
                                      for a in found], place, unit_place)
            elif any("start_offset" in a for a in found):
                raise AgreementError(f"{place}: user {who!r}'s annotations mix spans and "
                                     "labels")
            else:
                self.label(key, who, [self.name(a["label"], place) for a in found], place,
                           "labels")

    def name(self, label, place: str):
        """A 1.x label id's name (labels=), else the id as text."""
        if self.names is None:
            self.ids_kept += 1
            return str(label)
        if label not in self.names:
            raise AgreementError(f"{place}: label id {label!r} is not in labels= (ids "
                                 f"{sorted(self.names, key=str)[:10]!r})")
        return self.names[label]

    def result(self, sets, categories):
        if "spans" in self.kinds and "labels" in self.kinds:
            raise AgreementError("the files mix classification labels and spans; read each "
                                 "project's export on its own (or pick one with field=)")
        notes = counted(self.skipped)
        if self.by_line:
            notes.append(f"{self.by_line} file(s) without 'id': each example is its line "
                         "number (item='text' matches examples by their text)")
        if self.ids_kept:
            notes.append(f"{self.ids_kept} label id(s) kept as ids (pass labels=, the "
                         "project's label file, to read their names)")
        if "spans" in self.kinds or ("empty" in self.kinds and not self.values):
            return spans(self.units, self.annotated, self.unit_where, notes, categories)
        values, where = self.values, self.where
        several = [i for i, v in enumerate(values) if len(v) > 1]
        if sets is False and several:
            raise AgreementError(f"{where[several[0]]}: {len(values[several[0]])} labels; "
                                 "sets=False reads one per example (sets=None or True reads "
                                 "a set)")
        values = set_labels(values, where) if sets or several else \
            [v[0] if v else None for v in values]
        return annotations(self.items, self.annotators, values, where, notes, categories)
