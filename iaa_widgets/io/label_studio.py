"""Label Studio's JSON export (the full "JSON" export, a list of tasks).

Each task holds ``id``, ``data`` and ``annotations``; each annotation ``completed_by``
(a user id, or a user object with ``id`` and ``email`` in older exports),
``was_cancelled`` and ``result``, a list of regions ``{"from_name", "to_name", "type",
"value"}``. ``from_name`` names the control of the labelling config that made the
region: ``choices`` (``value.choices``), ``rating`` (``value.rating``), ``number``
(``value.number``) or ``labels`` (``value.start``, ``value.end``, ``value.labels``:
characters of a text, seconds of audio).
"""
from __future__ import annotations

from ..errors import AgreementError
from ._common import (annotations, as_list, as_record, counted, field_name, load_json,
                      name_of, no_gc, set_labels, spans)

__all__ = ["read_label_studio"]

# region type -> the key of ``value`` that holds the label
_LABEL_KEYS = {"choices": "choices", "rating": "rating", "number": "number"}
# regions with numeric start and end (characters of a text, seconds of audio); those of
# HyperTextLabels and ParagraphLabels locate text by XPath or paragraph, not read here
_SPAN_TYPES = ("labels",)


def read_label_studio(source, from_name: str | None = None, sets: bool | None = None,
                      categories=None):
    """Read a Label Studio JSON export: one control's labels as `Annotations`, or its spans
    as `Spans`.

    The item is the task ``id``, the annotator ``completed_by`` (its ``email`` when it is
    a user object). ``choices``, ``rating`` and ``number`` controls give one label per
    annotation; ``labels`` controls give spans (a span with several labels gives one unit
    per label).

    Parameters
    ----------
    source : path-like, file-like, or list of dict
        The export: a path, an open file or the parsed list of tasks.
    from_name : str, optional
        The control to read (its ``from_name``); needed when the export has several.
    sets : bool, optional
        How a ``choices`` region with several choices is read. None (the default): every
        label of the control is a set (a frozenset of texts) once one region holds several
        choices, so that MASI and Jaccard compare like with like; True: always sets;
        False: several choices are refused.
    categories : sequence, optional
        The labels that may occur, in their order (an order ordinal and weighted measures
        use, e.g. for ``rating``). By default (None), those the export uses. A label not
        declared is refused.

    Returns
    -------
    Annotations or Spans
        `Annotations` for ``choices``, ``rating`` and ``number``; `Spans` (character
        offsets, one document per task) for ``labels``. ``notes`` count what was not read.

    Raises
    ------
    AgreementError
        When the source is not a list of tasks, a task has no ``annotations`` list or an
        annotation no ``completed_by``; when the export has several controls and
        ``from_name`` names none, or names a control with no region or of a type not read;
        when an annotation has several regions of a labelling control (one is
        expected), or a region's value is of the wrong type; when ``sets=False`` and a
        region has several choices.

    See Also
    --------
    iaa_widgets.read : Recognises a Label Studio export by its content and calls this
        reader.
    iaa_widgets.read_prodigy : Prodigy's db-out JSON lines.
    iaa_widgets.set_distances : MASI and Jaccard distances between set-valued labels.

    Notes
    -----
    An annotation with no region of the control is a missing label (counted in
    ``n_blank``). Cancelled annotations (``was_cancelled``) and model ``predictions`` are
    not read: ``notes`` count them.

    References
    ----------
    Label Studio documentation, "Export annotations" (JSON format).
    https://labelstud.io/guide/export

    Examples
    --------
    >>> # examples/exports/label_studio_reviews.json: controls sentiment and topics
    >>> path = "examples/exports/label_studio_reviews.json"
    >>> ann = iaa.read_label_studio(path, from_name="sentiment")
    >>> ann
    Annotations(8 items, 3 annotators, 3 categories, 23 ratings)
    >>> ann.notes
    ('1 cancelled annotation(s) (was_cancelled) not read', '2 model prediction(s) not read')
    >>> sets = iaa.read_label_studio(path, from_name="topics")
    >>> sets.categories[1] == frozenset({"Room", "Staff"})  # several choices: a set
    True
    """
    if from_name is not None:
        field_name(from_name, "read_label_studio", "from_name")
    name = name_of(source, "the Label Studio export")
    with no_gc():
        return _read(load_json(source, "a Label Studio JSON export (a list of tasks)"),
                     name, from_name, sets, categories)


def _read(tasks, name: str, from_name, sets, categories):
    if isinstance(tasks, dict):
        tasks = [tasks]
    if not isinstance(tasks, list):
        raise AgreementError(f"{name}: expected a list of tasks (Label Studio's JSON export), "
                             f"got a JSON {type(tasks).__name__}")
    control, kind = _control(tasks, from_name, name)
    skipped = {"cancelled annotation(s) (was_cancelled) not read": 0,
               "model prediction(s) not read": 0,
               "region(s) with no label (value.labels is []) not read": 0}
    items, annotators, values, where, annotated = [], [], [], [], []
    key = _LABEL_KEYS.get(kind)
    for t, task in enumerate(tasks):
        task_id = task.get("id", t)
        skipped["model prediction(s) not read"] += len(as_list(
            task.get("predictions"), "predictions", f"{name}: task {task_id!r}"))
        for a, annotation in enumerate(task["annotations"]):
            if annotation.get("was_cancelled"):
                skipped["cancelled annotation(s) (was_cancelled) not read"] += 1
                continue
            who = _annotator(annotation, name, task_id, a)
            mine = [r for r in annotation.get("result") or () if r.get("from_name") == control]
            place = f"{name}: task {task_id!r}, annotation {annotation.get('id', a)!r}"
            if kind in _SPAN_TYPES:
                annotated.append((task_id, who, place))  # with or without spans
                for region in mine:
                    value = _value(region, ("start", "end", kind), place)
                    if not isinstance(value[kind], list):
                        raise AgreementError(f"{place}: value.{kind} is {value[kind]!r:.60}; "
                                             "expected the list of the region's labels")
                    skipped["region(s) with no label (value.labels is []) not read"] += \
                        not value[kind]
                    for label in value[kind]:
                        items.append((task_id, who, label, value["start"], value["end"]))
                        where.append(place)
                continue
            if len(mine) > 1:
                raise AgreementError(f"{place}: {len(mine)} regions of control {control!r}; "
                                     "expected one per annotation")
            items.append(task_id)
            annotators.append(who)
            where.append(place)
            try:
                values.append(mine[0]["value"][key] if mine else None)
            except (KeyError, TypeError):
                _value(mine[0], (key,), place)  # names what is missing
                raise
    notes = counted(skipped)
    if kind in _SPAN_TYPES:
        return spans(items, annotated, where, notes, categories)
    if kind == "choices":
        values = _choices(values, sets, where, control)
    return annotations(items, annotators, values, where, notes, categories)


def _control(tasks: list, from_name: str | None, name: str) -> tuple[str, str]:
    """The control to read and its region type; with no ``from_name``, the only one."""
    found: dict[str, str] = {}
    for t, task in enumerate(tasks):
        if not isinstance(task, dict) or not isinstance(task.get("annotations"), list):
            raise AgreementError(f"{name}: task {t} has no 'annotations' list; expected "
                                 "Label Studio's full JSON export (not JSON-MIN or CSV)")
        for a, annotation in enumerate(task["annotations"]):
            # the checks call out only on a bad record (this loop sees every region)
            if type(annotation) is not dict:
                as_record(annotation, (), "an annotation", _place(name, task, t, a))
            result = annotation.get("result")
            if type(result) is not list:
                result = as_list(result, "result", _place(name, task, t, a))
            for region in result:
                if type(region) is not dict:
                    as_record(region, (), "a result region", _place(name, task, t, a))
                control, kind = region.get("from_name"), region.get("type")
                if control not in found and type(control) is str and type(kind) is str:
                    found[control] = kind.lower()
    if from_name is None:
        if len(found) != 1:
            raise AgreementError(f"{name}: " + (
                "no result region names a control (from_name); nothing to read" if not found
                else f"the export has several controls {found!r}; pick one with from_name="))
        from_name = next(iter(found))
    if from_name not in found:
        raise AgreementError(f"{name}: no region of control {from_name!r}; the export has "
                             f"{found!r} (from_name: type)")
    kind = found[from_name]
    if kind not in _LABEL_KEYS and kind not in _SPAN_TYPES:
        raise AgreementError(f"{name}: control {from_name!r} has regions of type {kind!r}; "
                             f"read are {sorted(_LABEL_KEYS)} (labels of the task) and "
                             f"{list(_SPAN_TYPES)} (spans with numeric start and end)")
    return from_name, kind


def _place(name: str, task: dict, t: int, a: int) -> str:
    return f"{name}: task {task.get('id', t)!r:.40}, annotation {a}"


def _annotator(annotation: dict, name: str, task_id, a: int):
    """``completed_by``: a user id, or a user object (its email, else its id)."""
    who = annotation.get("completed_by")
    if isinstance(who, dict):
        if who.get("email") is None and who.get("id") is None:
            raise AgreementError(f"{name}: task {task_id!r}, annotation {a}: completed_by is "
                                 f"{who!r:.60}, a user object with neither email nor id")
        who = who.get("email") or who.get("id")
    if who is None:
        raise AgreementError(f"{name}: task {task_id!r}, annotation {a} has no completed_by; "
                             "expected the id of the user who annotated")
    return who


def _value(region: dict, keys: tuple, place: str) -> dict:
    value = region.get("value")
    if not isinstance(value, dict) or any(k not in value for k in keys):
        raise AgreementError(f"{place}: a {region.get('type')!r} region without "
                             f"value.{' / value.'.join(keys)}: {value!r}")
    return value


def _choices(values: list, sets: bool | None, where: list, control: str) -> list:
    """Each annotation's choices: one text, or a frozenset when the control is read as
    set-valued (see :func:`read_label_studio`)."""
    bad = [i for i, v in enumerate(values) if v is not None and not isinstance(v, list)]
    if bad:
        raise AgreementError(f"{where[bad[0]]}: value.choices is {values[bad[0]]!r}; expected "
                             "a list of the chosen texts")
    several = [i for i, v in enumerate(values) if v is not None and len(v) > 1]
    if sets is False and several:
        raise AgreementError(f"{where[several[0]]}: {len(values[several[0]])} choices of "
                             f"{control!r}; sets=False reads one choice per annotation "
                             "(sets=None or True reads several as a set)")
    if sets or several:
        return set_labels(values, where)
    return [None if not v else v[0] for v in values]
