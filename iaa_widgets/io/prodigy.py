"""Prodigy's JSON lines (``prodigy db-out``): one annotated task per line.

A task holds ``_input_hash`` (the same input seen by several annotators shares it),
``_annotator_id`` (``dataset-name`` per annotator session; older versions only
``_session_id``), ``_view_id`` (the interface; absent in the binary text-classification
exports of older versions), ``answer`` (``accept``, ``reject`` or ``ignore``) and, by
interface, ``label`` (binary ``classification``), ``accept`` (the chosen option ids of
``choice``) or ``spans`` (``{"start", "end", "label"}``, character offsets, of
``ner_manual`` and ``spans_manual``). A ``blocks`` task (prodi.gy/docs/custom-interfaces,
"Combining interfaces with blocks") holds the fields of each of its blocks: the
``accept`` of a choice block beside the ``spans`` of a manual block.
"""
from __future__ import annotations

from ..errors import AgreementError
from ._common import (annotations, as_list, as_record, counted, field_name, json_lines,
                      name_of, no_gc, set_labels, spans)

__all__ = ["read_prodigy"]

# interface -> what the reader takes from its tasks
_VIEWS = {"classification": "answer", "binary": "answer", "ner": "answer",
          "choice": "choice", "ner_manual": "spans", "spans_manual": "spans",
          "blocks": None}
_PARTS = ("choice", "spans")  # the blocks read


def read_prodigy(source, view_id: str | None = None, label: str | None = None,
                 item: str = "_input_hash", sets: bool | None = None, categories=None,
                 block: str | None = None, dataset: str | None = None):
    """Read Prodigy's ``db-out`` JSON lines: answers or choices as `Annotations`, manual
    spans as `Spans`.

    The item is ``item`` (the input's hash by default), the annotator ``_annotator_id``
    (else ``_session_id``, counted in ``notes``). The interface (``_view_id``) decides
    what is read: the binary ``answer`` of ``classification``, ``binary`` and ``ner``; the
    ``accept`` list of option ids of ``choice``; the ``spans`` of ``ner_manual`` and
    ``spans_manual``; the part of ``blocks`` that ``block`` names.

    Parameters
    ----------
    source : path-like, file-like, or list of dict
        The ``prodigy db-out`` file: a path, an open file or a list of task dicts.
    view_id : str, optional
        Keep the tasks of one interface (needed when the file mixes several; the others
        are counted in ``notes``).
    label : str, optional
        The question to read when binary tasks ask about several labels.
    item : str, default "_input_hash"
        The task field naming the item: ``"_input_hash"`` (the input) or
        ``"_task_hash"`` (tells apart the questions of binary ``ner``, one per suggested
        span of an input), or any other field.
    sets : bool, optional
        How a ``choice`` task with several options chosen is read, as in
        `read_label_studio`: None (the default) reads every label as a frozenset once one
        task has several, True always, False refuses several.
    categories : sequence, optional
        The labels that may occur, in their order. By default (None), those the file
        uses. A label not declared is refused.
    block : {"choice", "spans"}, optional
        The part of ``blocks`` tasks to read; by default the only one its tasks hold.
    dataset : str, optional
        The dataset name Prodigy prefixes to annotator ids (``news-alice``): ids with the
        prefix are read as the plain name (``alice``), so that ``news-alice`` and
        ``alice`` are one annotator.

    Returns
    -------
    Annotations or Spans
        `Annotations` of answers ('accept' or 'reject') or chosen option ids; `Spans`
        (character offsets, one document per item) of manual spans. ``notes`` count what
        was not read and how ids were read.

    Raises
    ------
    AgreementError
        When ``block`` is not an accepted value; when the file mixes interfaces and
        ``view_id`` names none, or names one not read; when a task's answer, ``accept``
        or spans are malformed, or it lacks the fields its interface needs (naming the
        line); when tasks ask about several labels and ``label`` names none; when
        ``sets=False`` and a task has several options chosen.

    See Also
    --------
    iaa_widgets.read : Recognises Prodigy JSON lines by their content and calls this
        reader.
    iaa_widgets.read_label_studio : Label Studio's JSON export.
    iaa_widgets.read_doccano : doccano's JSON lines.

    Notes
    -----
    A task with no ``_view_id`` gets the interface its shape shows (``spans`` →
    ``ner_manual``, ``options`` and ``accept`` → ``choice``, ``label`` and ``answer`` →
    ``classification``), and ``notes`` say so. ``ignore`` answers are not read; in
    ``choice`` and span interfaces neither are ``reject`` answers (the task was refused,
    not labelled): ``notes`` count both.

    References
    ----------
    Prodigy documentation, "Annotation interfaces" and "prodigy db-out".
    https://prodi.gy/docs/api-interfaces

    Examples
    --------
    >>> tasks = [{"text": "Win cash now", "_input_hash": 1, "_view_id": "classification",
    ...           "label": "SPAM", "answer": answer, "_annotator_id": who}
    ...          for who, answer in [("news-alice", "accept"), ("news-bob", "reject")]]
    >>> ann = iaa.read_prodigy(tasks, dataset="news")
    >>> ann.annotators.tolist(), ann.categories.tolist()
    (['alice', 'bob'], ['accept', 'reject'])
    >>> spans = iaa.read_prodigy("examples/exports/prodigy_hotel_ner.jsonl")
    >>> spans
    Spans(11 units in 6 documents, 2 annotators)
    """
    field_name(item, "read_prodigy", "item")
    if block is not None and block not in _PARTS:
        raise AgreementError(f"read_prodigy: block={block!r}; expected one of {_PARTS}")
    name = name_of(source, "the Prodigy export")
    with no_gc():
        records = list(json_lines(source, "Prodigy db-out JSON lines"))
        return _read(records, name, view_id, label, item, sets, categories, block, dataset)


def _interface(task: dict, place: str) -> str:
    """A task's ``_view_id``, or the interface its shape shows."""
    view = task.get("_view_id")
    if view is not None:
        return view
    if "spans" in task and "label" not in task:
        return "ner_manual"
    if "options" in task and "accept" in task:
        return "choice"
    if "label" in task and "answer" in task:
        return "classification"
    raise AgreementError(f"{place}: a task with no _view_id, whose fields "
                         f"{sorted(task)[:12]!r} show no interface; expected label and answer "
                         "(binary), options and accept (choice) or spans (manual spans)")


def _read(records: list, name: str, view_id, label, key, sets, categories, block, dataset):
    views = [task.get("_view_id") for _, task in records]
    if set(map(type, views)) - {str, type(None)}:
        odd = next(i for i, v in enumerate(views) if v is not None and type(v) is not str)
        raise AgreementError(f"{name}, line {records[odd][0]}: _view_id is "
                             f"{views[odd]!r:.40}; expected the name of an interface")
    inferred = views.count(None)
    if inferred:
        views = [view if view is not None else _interface(task, f"{name}, line {number}")
                 for view, (number, task) in zip(views, records)]
    found = list(dict.fromkeys(views))
    if view_id is None:
        if len(found) != 1:
            raise AgreementError(f"{name}: tasks of several interfaces {sorted(map(str, found))}; "
                                 "pick one with view_id=")
        view_id = found[0]
    if not isinstance(view_id, str) or view_id not in _VIEWS:
        raise AgreementError(f"{name}: interface (_view_id) {view_id!r} is not read; read are "
                             f"{sorted(_VIEWS)}")
    what = _VIEWS[view_id] or _block(records, views, block, name)
    prefixed = f"task(s) whose annotator id '{dataset}-<name>' is read as '<name>' (dataset=)"
    skip = {f"task(s) of other interfaces than {view_id!r} not read": 0,
            "'ignore' answer(s) not read": 0, "'reject' answer(s) not read": 0,
            f"task(s) about other labels than {label!r} not read": 0,
            "task(s) without _annotator_id: the annotator is their _session_id": 0,
            prefixed: 0}
    items, annotators, values, where, annotated = [], [], [], [], []
    for (number, task), view in zip(records, views):
        place = f"{name}, line {number}"
        if view != view_id:
            skip[f"task(s) of other interfaces than {view_id!r} not read"] += 1
            continue
        answer = task.get("answer")
        if answer not in ("accept", "reject", "ignore"):
            raise AgreementError(f"{place}: answer {answer!r:.40}; expected 'accept', "
                                 "'reject' or 'ignore'")
        if answer == "ignore" or (answer == "reject" and what != "answer"):
            skip[f"'{answer}' answer(s) not read"] += 1
            continue
        if label is not None and what == "answer" and task.get("label") != label:
            skip[f"task(s) about other labels than {label!r} not read"] += 1
            continue
        item, who = task.get(key), task.get("_annotator_id")
        if item is None:
            _field(task, (key,), place)  # names what is missing
        if who is None:
            who = _field(task, ("_annotator_id", "_session_id"), place)
            skip["task(s) without _annotator_id: the annotator is their _session_id"] += 1
        if dataset and isinstance(who, str) and who.startswith(f"{dataset}-"):
            who = who[len(dataset) + 1:]
            skip[prefixed] += 1
        if what == "spans":
            annotated.append((item, who, place))
            for span in as_list(task.get("spans"), "spans", place):
                as_record(span, ("start", "end", "label"), "a span", place)
                items.append((item, who, span["label"], span["start"], span["end"]))
                where.append(place)
            continue
        items.append(item)
        annotators.append(who)
        where.append(place)
        values.append(answer if what == "answer" else _accepted(task, place))
    notes = counted(skip)
    if inferred:
        notes.append(f"{inferred} task(s) without _view_id: interface inferred from their "
                     f"fields ({view_id!r} read)")
    if what == "spans":
        return spans(items, annotated, where, notes, categories)
    if what == "answer":
        asked = {str(r.get("label")) for (_, r), v in zip(records, views) if v == view_id}
        if label is None and key == "_input_hash" and len(asked) > 1:
            raise AgreementError(f"{name}: the {view_id!r} tasks ask about several labels "
                                 f"{sorted(asked)}; pick one with label= (or tell "
                                 "the questions apart with item='_task_hash')")
        return annotations(items, annotators, values, where, notes, categories)
    several = [i for i, v in enumerate(values) if len(v) > 1]
    if sets is False and several:
        raise AgreementError(f"{where[several[0]]}: {len(values[several[0]])} options chosen; "
                             "sets=False reads one per task (sets=None or True reads a set)")
    values = set_labels(values, where) if sets or several else \
        [v[0] if v else None for v in values]
    return annotations(items, annotators, values, where, notes, categories)


def _block(records: list, views: list, block, name: str) -> str:
    """What to read of ``blocks`` tasks: ``block=``, else the one part they hold."""
    if block is not None:
        return block
    parts = set()
    for (_, task), view in zip(records, views):
        if view == "blocks":
            parts |= {"choice"} if "accept" in task else set()
            parts |= {"spans"} if "spans" in task else set()
    if len(parts) != 1:
        raise AgreementError(f"{name}: the 'blocks' tasks hold " + (
            "both a choice (accept) and spans; pick one with block='choice' or "
            "block='spans'" if parts else "neither a choice (accept) nor spans; nothing "
            "to read"))
    return parts.pop()


def _accepted(task: dict, place: str) -> list:
    """The option ids a ``choice`` task's annotator chose."""
    chosen = _field(task, ("accept",), place)
    if not isinstance(chosen, list):
        raise AgreementError(f"{place}: accept is {chosen!r:.60}; expected the list of "
                             "chosen option ids")
    return chosen


def _field(task: dict, keys: tuple, place: str):
    """The first of ``keys`` the task holds."""
    for key in keys:
        if task.get(key) is not None:
            return task[key]
    raise AgreementError(f"{place}: no {' or '.join(keys)}; expected a task saved by Prodigy "
                         "(prodigy db-out)")
