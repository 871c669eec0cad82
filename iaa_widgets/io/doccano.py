"""doccano's JSONL export: one file per annotator (the zip doccano writes when
annotations are not shared), one example per line.

Text classification: ``{"id", "text", "label": ["positive", …]}``. Sequence labelling:
``"label": [[start, end, "TAG"], …]`` or, with relations enabled,
``"entities": [{"id", "label", "start_offset", "end_offset"}, …]`` (character offsets).
"""
from __future__ import annotations

from ..errors import AgreementError
from ._common import annotations, as_set, counted, json_lines, no_gc, per_annotator, spans

__all__ = ["read_doccano"]


def read_doccano(source, item: str = "id", sets: bool | None = None, categories=None):
    """Read doccano JSONL exports: classification as :class:`Annotations`, sequence
    labelling as :class:`Spans`.

    ``source``: doccano's export zip, a folder of ``<annotator>.jsonl`` files, a list of
    them or a mapping ``{annotator: path or list of records}``. ``item`` names the field
    identifying an example across files (doccano's ``id``). A classification example
    with several labels is a set-valued label (``sets`` as in
    :func:`~iaa_widgets.read_label_studio`); one with none is a missing label (counted in
    ``n_blank``), or the empty set when labels are sets. ``relations`` are not read and
    are counted in ``notes``.
    """
    files = per_annotator(source, (".jsonl",), "doccano JSONL exports")
    with no_gc():
        return _read(files, item, sets, categories)


def _read(files: dict, item: str, sets, categories):
    items, annotators, values, where, units, annotated = [], [], [], [], [], []
    unit_where = []
    kinds = set()
    skipped = {"relation(s) not read": 0}
    for who, path in files.items():
        for number, record in json_lines(path, "doccano JSONL, one example per line"):
            place = f"{getattr(path, 'name', path)}, line {number}"
            if item not in record:
                raise AgreementError(f"{place}: no {item!r} field naming the example; "
                                     f"the record has {sorted(record)!r} (pass item=)")
            key = record[item]
            skipped["relation(s) not read"] += len(record.get("relations") or ())
            if "entities" in record:
                kinds.add("spans")
                annotated.append((key, who))
                for e in record["entities"]:
                    if not all(k in e for k in ("label", "start_offset", "end_offset")):
                        raise AgreementError(f"{place}: an entity without label, start_offset "
                                             f"and end_offset: {e!r}")
                    units.append((key, who, e["label"], e["start_offset"], e["end_offset"]))
                    unit_where.append(place)
                continue
            labels = record.get("label", record.get("labels"))
            if not isinstance(labels, list):
                raise AgreementError(f"{place}: expected 'label' as a list of labels or of "
                                     f"[start, end, label] spans, got {labels!r}")
            if labels and all(isinstance(x, list) for x in labels):
                kinds.add("spans")
                annotated.append((key, who))
                for x in labels:
                    if len(x) != 3:
                        raise AgreementError(f"{place}: a span {x!r}; expected "
                                             "[start, end, label]")
                    units.append((key, who, x[2], x[0], x[1]))
                    unit_where.append(place)
                continue
            if any(isinstance(x, list) for x in labels):
                raise AgreementError(f"{place}: 'label' mixes spans and labels: {labels!r}")
            kinds.add("labels" if labels else "empty")
            annotated.append((key, who))
            items.append(key)
            annotators.append(who)
            values.append(labels)
            where.append(place)
    if "spans" in kinds and "labels" in kinds:
        raise AgreementError("the files mix classification labels and spans; read each "
                             "project's export on its own")
    if "spans" in kinds or ("empty" in kinds and not values):
        return spans(units, annotated, unit_where, counted(skipped), categories)
    several = [i for i, v in enumerate(values) if len(v) > 1]
    if sets is False and several:
        raise AgreementError(f"{where[several[0]]}: {len(values[several[0]])} labels; "
                             "sets=False reads one per example (sets=None or True reads a set)")
    values = [as_set(v) for v in values] if sets or several else \
        [v[0] if v else None for v in values]
    return annotations(items, annotators, values, where, counted(skipped), categories)
