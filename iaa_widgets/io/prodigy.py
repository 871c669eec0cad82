"""Prodigy's JSON lines (``prodigy db-out``): one annotated task per line.

A task holds ``_input_hash`` (the same input seen by several annotators shares it),
``_annotator_id`` (``dataset-name`` per annotator session; older versions only
``_session_id``), ``_view_id`` (the interface), ``answer`` (``accept``, ``reject`` or
``ignore``) and, by interface, ``label`` (binary ``classification``), ``accept`` (the
chosen option ids of ``choice``) or ``spans`` (``{"start", "end", "label"}``, character
offsets, of ``ner_manual`` and ``spans_manual``).
"""
from __future__ import annotations

from ..errors import AgreementError
from ._common import annotations, as_set, counted, json_lines, name_of, no_gc, spans

__all__ = ["read_prodigy"]

# interface -> what the reader takes from its tasks
_VIEWS = {"classification": "answer", "binary": "answer", "ner": "answer",
          "choice": "choice", "ner_manual": "spans", "spans_manual": "spans"}


def read_prodigy(source, view_id: str | None = None, label: str | None = None,
                 item: str = "_input_hash", sets: bool | None = None, categories=None):
    """Read Prodigy's ``db-out`` JSON lines: answers or choices as :class:`Annotations`,
    manual spans as :class:`Spans`.

    ``source``: a path, an open file or a list of task dicts. The item is ``item``
    (``_input_hash``: the input; ``"_task_hash"`` tells apart the questions of binary
    ``ner``, one per suggested span of an input), the annotator ``_annotator_id`` (else
    ``_session_id``).
    ``view_id`` keeps the tasks of one interface (needed when the file mixes several;
    the others are counted in ``notes``): ``classification``/``binary``/``ner`` give
    the binary ``answer`` ('accept' or 'reject'; ``label=`` picks the question when
    tasks ask about several labels), ``choice`` the ``accept`` list of option ids (one
    id, or a frozenset of ids when an annotator chose several: ``sets`` as in
    :func:`~iaa_widgets.read_label_studio`), ``ner_manual``/``spans_manual`` the
    ``spans``. ``ignore`` answers are not read; in ``choice`` and span interfaces neither
    are ``reject`` answers (the task was refused, not labelled): ``notes`` count both.
    """
    name = name_of(source, "the Prodigy export")
    with no_gc():
        return _read(list(json_lines(source, "Prodigy db-out JSON lines")), name, view_id,
                     label, item, sets, categories)


def _read(records: list, name: str, view_id, label, key, sets, categories):
    views = {}
    for number, task in records:
        views.setdefault(task.get("_view_id"), number)
    if view_id is None:
        if len(views) != 1:
            raise AgreementError(f"{name}: tasks of several interfaces {sorted(map(str, views))}; "
                                 "pick one with view_id=")
        view_id = next(iter(views))
    if view_id not in _VIEWS:
        raise AgreementError(f"{name}: interface (_view_id) {view_id!r} is not read; read are "
                             f"{sorted(_VIEWS)}")
    what = _VIEWS[view_id]
    skip = {f"task(s) of other interfaces than {view_id!r} not read": 0,
            "'ignore' answer(s) not read": 0, "'reject' answer(s) not read": 0,
            f"task(s) about other labels than {label!r} not read": 0}
    items, annotators, values, where, annotated = [], [], [], [], []
    for number, task in records:
        place = f"{name}, line {number}"
        if task.get("_view_id") != view_id:
            skip[f"task(s) of other interfaces than {view_id!r} not read"] += 1
            continue
        answer = task.get("answer")
        if answer not in ("accept", "reject", "ignore"):
            raise AgreementError(f"{place}: answer {answer!r}; expected 'accept', 'reject' or "
                                 "'ignore'")
        if answer == "ignore" or (answer == "reject" and what != "answer"):
            skip[f"'{answer}' answer(s) not read"] += 1
            continue
        if label is not None and what == "answer" and task.get("label") != label:
            skip[f"task(s) about other labels than {label!r} not read"] += 1
            continue
        item, who = _field(task, (key,), place), \
            _field(task, ("_annotator_id", "_session_id"), place)
        if what == "spans":
            annotated.append((item, who))
            for span in task.get("spans") or ():
                if not all(k in span for k in ("start", "end", "label")):
                    raise AgreementError(f"{place}: a span without start, end and label: "
                                         f"{span!r}")
                items.append((item, who, span["label"], span["start"], span["end"]))
                where.append(place)
            continue
        items.append(item)
        annotators.append(who)
        where.append(place)
        values.append(answer if what == "answer" else _accepted(task, place))
    notes = counted(skip)
    if what == "spans":
        return spans(items, annotated, where, notes, categories)
    if what == "answer":
        asked = {r.get("label") for _, r in records if r.get("_view_id") == view_id}
        if label is None and key == "_input_hash" and len(asked) > 1:
            raise AgreementError(f"{name}: the {view_id!r} tasks ask about several labels "
                                 f"{sorted(map(str, asked))}; pick one with label= (or tell "
                                 "the questions apart with item='_task_hash')")
        return annotations(items, annotators, values, where, notes, categories)
    several = [i for i, v in enumerate(values) if len(v) > 1]
    if sets is False and several:
        raise AgreementError(f"{where[several[0]]}: {len(values[several[0]])} options chosen; "
                             "sets=False reads one per task (sets=None or True reads a set)")
    values = [as_set(v) for v in values] if sets or several else \
        [v[0] if v else None for v in values]
    return annotations(items, annotators, values, where, notes, categories)


def _accepted(task: dict, place: str) -> list:
    """The option ids a ``choice`` task's annotator chose."""
    chosen = _field(task, ("accept",), place)
    if not isinstance(chosen, list):
        raise AgreementError(f"{place}: accept is {chosen!r}; expected the list of chosen "
                             "option ids")
    return chosen


def _field(task: dict, keys: tuple, place: str):
    """The first of ``keys`` the task holds."""
    for key in keys:
        if task.get(key) is not None:
            return task[key]
    raise AgreementError(f"{place}: no {' or '.join(keys)}; expected a task saved by Prodigy "
                         "(prodigy db-out)")
