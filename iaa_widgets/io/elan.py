"""ELAN annotation files (``.eaf``, XML).

``TIME_ORDER`` lists ``TIME_SLOT``s (``TIME_SLOT_ID``, ``TIME_VALUE`` in milliseconds,
absent for a slot not yet aligned); each ``TIER`` (``TIER_ID``, optional ``ANNOTATOR``
and ``PARTICIPANT``) holds ``ANNOTATION``s: ``ALIGNABLE_ANNOTATION`` between
``TIME_SLOT_REF1`` and ``TIME_SLOT_REF2``, or ``REF_ANNOTATION`` pointing at an
annotation of the parent tier; the text is in ``ANNOTATION_VALUE``.
"""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import replace

import pandas as pd

from ..continuum import Continuum
from ..errors import AgreementError
from ._common import counted, declared, name_of, per_annotator, read_text, tier_names

__all__ = ["read_elan"]

_WHO = ("tier", "ANNOTATOR", "PARTICIPANT")


def read_elan(source, tiers=None, annotator: str = "tier", categories=None) -> Continuum:
    """Read the time-aligned annotations of ELAN files as a `Continuum`.

    Each ``ALIGNABLE_ANNOTATION`` with a non-blank value is a unit of that category, in
    seconds (ELAN's time slots are in milliseconds). One file's tiers are the annotators,
    or each file holds one annotator's tier of the same media.

    Parameters
    ----------
    source : path-like, file-like, mapping, or list of path-like
        One ``.eaf`` (path or open file), whose tiers hold the annotators' annotations; or
        a mapping ``{annotator: path}``, a list of paths (the annotator is the file name
        without ``.eaf``) or a folder, one file per annotator of the same media, each with
        one time-alignable tier or naming it in ``tiers``.
    tiers : str or list of str, optional
        The ``TIER_ID``s to read; the others are counted in ``notes``. None: every
        time-alignable tier.
    annotator : {"tier", "ANNOTATOR", "PARTICIPANT"}, default "tier"
        With one file: whom a tier's annotations are by, its ``TIER_ID`` or its
        ``ANNOTATOR`` or ``PARTICIPANT`` attribute.
    categories : sequence of str, optional
        The annotation values that may occur, in their order. By default (None), those the
        files use. A value not declared is refused.

    Returns
    -------
    Continuum
        The units (annotator, category, start, end) of the media; ``notes`` count what
        was not read.

    Raises
    ------
    AgreementError
        When ``annotator`` is not an accepted value, or a tier lacks that attribute; when
        a file is not well-formed ELAN XML (naming the line), a ``TIER_ID`` or
        ``TIME_SLOT_ID`` is defined twice or a time value is not a non-negative number;
        when an annotation refers to a missing time slot or ends before it starts; when a
        tier named in ``tiers`` is missing, or a per-annotator file holds several tiers and
        ``tiers`` names none; when no aligned annotation has a value.

    See Also
    --------
    iaa_widgets.read : Recognises ELAN XML by its content and calls this reader.
    iaa_widgets.read_textgrid : Praat's interval tiers.
    iaa_widgets.gamma : Agreement on a Continuum.

    Notes
    -----
    ``notes`` count what is not read: tiers left out by ``tiers``, ``REF_ANNOTATION``s
    (symbolic, no time of their own), annotations on a time slot not aligned, annotations
    with a blank value, and tiers of a linguistic type that is not time-alignable
    (symbolic subdivisions and associations).

    References
    ----------
    Wittenburg, P., Brugman, H., Russel, A., Klassmann, A., & Sloetjes, H. (2006). ELAN:
    a Professional Framework for Multimodality Research. In Proceedings of the Fifth
    International Conference on Language Resources and Evaluation (LREC 2006).

    Examples
    --------
    >>> # examples/exports/tour_guide.eaf: tiers gestures_alice and gestures_bob
    >>> cont = iaa.read_elan("examples/exports/tour_guide.eaf", annotator="ANNOTATOR")
    >>> cont
    Continuum(8 units, 2 annotators, 4 categories)
    >>> cont.annotators.tolist()
    ['alice', 'bob']
    >>> cont.notes[-1]
    '2 REF_ANNOTATION(s) (symbolic, without time) not read'
    """
    if annotator not in _WHO:
        raise AgreementError(f"read_elan: annotator={annotator!r}; expected one of {_WHO}")
    one = hasattr(source, "read") or (isinstance(source, (str, os.PathLike))
                                      and os.path.isfile(source))
    files = {None: source} if one else per_annotator(source, (".eaf",),
                                                     "ELAN files (one per annotator)")
    wanted = tier_names(tiers, "read_elan")
    categories = declared(categories, "read_elan")
    skipped = {"tier(s) not selected by tiers=": 0,
               "symbolic tier(s) (a linguistic type not time-alignable) not read": 0,
               "REF_ANNOTATION(s) (symbolic, without time) not read": 0,
               "annotation(s) on a time slot not aligned not read": 0,
               "annotation(s) with a blank value not read": 0}
    rows, annotators = [], []
    for who, path in files.items():
        name = name_of(path, "the ELAN file")
        root = _root(path, name)
        slots = _slots(root, name)
        aligned = {t.get("LINGUISTIC_TYPE_ID"): t.get("TIME_ALIGNABLE", "true") != "false"
                   for t in root.iter("LINGUISTIC_TYPE")}
        found = root.findall("TIER")
        ids = [t.get("TIER_ID") for t in found]
        twice = [t for t in dict.fromkeys(ids) if ids.count(t) > 1]
        if twice:
            raise AgreementError(f"{name}: TIER_ID {twice[0]!r} names {ids.count(twice[0])} "
                                 "tiers; expected one tier per id (ELAN refuses the file too)")
        unknown = [t for t in wanted or () if t not in ids]
        if unknown:
            raise AgreementError(f"{name}: no tier {unknown!r}; it has {ids!r}")
        chosen = [t for t in found if wanted is None or t.get("TIER_ID") in wanted]
        skipped["tier(s) not selected by tiers="] += len(found) - len(chosen)
        symbolic = [t for t in chosen if not aligned.get(t.get("LINGUISTIC_TYPE_REF"), True)]
        skipped["symbolic tier(s) (a linguistic type not time-alignable) not read"] += \
            len(symbolic)
        skipped["REF_ANNOTATION(s) (symbolic, without time) not read"] += sum(
            len(t.findall("ANNOTATION/REF_ANNOTATION")) for t in chosen)
        chosen = [t for t in chosen if t not in symbolic]
        if who is not None and len(chosen) != 1:
            raise AgreementError(f"{name}: {len(chosen)} tiers "
                                 f"{[t.get('TIER_ID') for t in chosen]!r} for annotator "
                                 f"{who!r}; name the one to read with tiers=")
        for tier in chosen:
            by = who if who is not None else tier.get("TIER_ID") if annotator == "tier" \
                else tier.get(annotator)
            if by is None:
                raise AgreementError(f"{name}: tier {tier.get('TIER_ID')!r} has no {annotator} "
                                     "attribute; use annotator='tier' or fill it in ELAN")
            annotators.append(by)
            for a in tier.iter("ALIGNABLE_ANNOTATION"):
                refs = [a.get("TIME_SLOT_REF1"), a.get("TIME_SLOT_REF2")]
                where = (f"{name}: annotation {a.get('ANNOTATION_ID')!r} of tier "
                         f"{tier.get('TIER_ID')!r} (time slots {refs[0]!r} → {refs[1]!r})")
                if any(r not in slots for r in refs):
                    raise AgreementError(f"{where} refers to time slot(s) "
                                         f"{[r for r in refs if r not in slots]!r} that "
                                         "TIME_ORDER does not define")
                if any(slots[r] is None for r in refs):
                    skipped["annotation(s) on a time slot not aligned not read"] += 1
                    continue
                value = a.findtext("ANNOTATION_VALUE") or ""
                if not value.strip():
                    skipped["annotation(s) with a blank value not read"] += 1
                    continue
                start, end = slots[refs[0]], slots[refs[1]]
                if end < start:
                    raise AgreementError(f"{where} ends at {end} ms before its start at "
                                         f"{start} ms; expected TIME_SLOT_REF1 ≤ TIME_SLOT_REF2")
                rows.append((by, value, start / 1000, end / 1000))
    if not rows:
        raise AgreementError("the ELAN file(s) hold no aligned annotation with a value: the "
                             "continuum is empty")
    frame = pd.DataFrame(rows, columns=["annotator", "category", "start", "end"])
    cont = Continuum.from_frame(frame, annotators=list(dict.fromkeys(annotators)),
                                categories=categories)
    notes = counted(skipped)
    return replace(cont, notes=tuple(notes)) if notes else cont


def _slots(root: ET.Element, name: str) -> dict:
    """{TIME_SLOT_ID: milliseconds, None when not aligned}; an id given twice or a time
    that is not a whole number of milliseconds is refused, naming the slot."""
    slots: dict = {}
    for s in root.iter("TIME_SLOT"):
        sid, value = s.get("TIME_SLOT_ID"), s.get("TIME_VALUE")
        if sid in slots:
            raise AgreementError(f"{name}: TIME_SLOT_ID {sid!r} is defined twice; expected one "
                                 "TIME_SLOT per id")
        if value is not None:
            try:
                value = int(value)
            except ValueError:
                raise AgreementError(f"{name}: time slot {sid!r} has TIME_VALUE {value!r}; "
                                     "expected a whole number of milliseconds") from None
            if value < 0:
                raise AgreementError(f"{name}: time slot {sid!r} has TIME_VALUE {value}; "
                                     "expected milliseconds ≥ 0")
        slots[sid] = value
    return slots


def _root(path, name: str) -> ET.Element:
    """The ANNOTATION_DOCUMENT element; errors name the line of bad XML."""
    try:
        root = ET.fromstring(read_text(path, "an ELAN file"))
    except ET.ParseError as err:
        raise AgreementError(f"{name}, line {err.position[0]}: not well-formed XML "
                             f"({err}); expected an ELAN .eaf file") from None
    if root.tag != "ANNOTATION_DOCUMENT":
        raise AgreementError(f"{name}: the root element is <{root.tag}>; expected "
                             "<ANNOTATION_DOCUMENT> (an ELAN .eaf file)")
    return root
