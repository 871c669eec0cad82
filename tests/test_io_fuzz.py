"""Fuzzing the readers (issue 27): hypothesis writes records of each format, valid ones as
the tool writes them (see test_io_variants.py for each format's source) and ones with a
value swapped for an odd one (a JSON object, an array, null, a blank text, infinity, a
number of thousands of digits, a line of junk). Every outcome is the data that was
written, or an AgreementError: never another exception, never partial data.

Kept fast for CI: few examples per format, no deadline (the machine is shared)."""
import json
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import iaa_widgets as iaa
from iaa_widgets.errors import AgreementError

from fuzz_guard import limited

FAST = settings(max_examples=15, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])

# labels: non-blank texts, with the separators that used to break line splitting
LABEL = st.text(st.sampled_from("abcXYZé \u2028\u0085\x0c-_1"), min_size=1, max_size=6) \
    .filter(lambda s: s.strip() and s == s.strip())
WHO = st.sampled_from(["ann1", "ann2", "ann3"])
ODD = st.sampled_from([None, [], {}, [1], {"a": 1}, "", "  ", float("inf"), -1, 10 ** 30,
                       True, "x", [[0, 1, "X"]], [None], 0.5])


@st.composite
def ratings(draw):
    """{(item, annotator): label}, two annotators or more rating one item or more."""
    out = draw(st.dictionaries(st.tuples(st.integers(1, 6), WHO), LABEL, min_size=1,
                               max_size=12))
    out[(0, "ann1")], out[(0, "ann2")] = draw(LABEL), draw(LABEL)
    return out


@st.composite
def units(draw):
    """{(document, annotator): [(label, start, end), …]}, two annotators on document 0."""
    out = draw(st.dictionaries(
        st.tuples(st.integers(0, 3), WHO),
        st.lists(st.tuples(LABEL, st.integers(0, 40), st.integers(0, 10)), max_size=4),
        min_size=1, max_size=6))
    out[(0, "ann1")] = out.get((0, "ann1"), []) + [("A", 0, 1)]  # a unit names the control
    out.setdefault((0, "ann2"), [])
    return {k: [(label, s, s + d) for label, s, d in v] for k, v in out.items()}


def fresh(tmp_path) -> Path:
    """A new folder per example (pytest's tmp_path is shared by hypothesis' examples)."""
    return Path(tempfile.mkdtemp(dir=tmp_path))


def read_quietly(reader, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # look-alike labels are named, not an error
        return reader(*args, **kwargs)


def as_long(ann) -> dict:
    return {(r.item, r.annotator): r.label for r in ann.to_long().itertuples()}


def as_units(spans) -> dict:
    out = {k: [] for k in map(tuple, spans.annotated[["item", "annotator"]].values.tolist())}
    for r in spans.units.itertuples():
        out[(r.item, r.annotator)].append((r.category, int(r.start), int(r.end)))
    return {k: sorted(v) for k, v in out.items()}


def mutate(records, data) -> list:
    """The records with one value, somewhere inside, swapped for an odd one."""
    records = json.loads(json.dumps(records))
    node = records
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = data.draw(st.sampled_from(keys))
        if isinstance(node[key], (dict, list)) and node[key] and data.draw(st.booleans()):
            node = node[key]
            continue
        node[key] = data.draw(ODD)
        break
    return records


def outcome_is_data_or_refusal(read, expected=None):
    """``read()`` gives ``expected`` (when given) or raises AgreementError."""
    try:
        got = read()
    except AgreementError:
        return None
    if expected is not None:
        assert got == expected
    return got


# ------------------------------------------------------------------------ Label Studio
def label_studio(marks: dict) -> list:
    tasks = {}
    for (item, who), label in marks.items():
        tasks.setdefault(item, []).append(
            {"id": len(tasks.get(item, ())), "completed_by": who, "was_cancelled": False,
             "result": [{"id": "r", "from_name": "c", "to_name": "text", "type": "choices",
                         "value": {"choices": [label]}, "origin": "manual"}]})
    return [{"id": item, "data": {"text": f"t{item}"}, "annotations": a, "predictions": []}
            for item, a in tasks.items()]


def label_studio_spans(marks: dict) -> list:
    tasks = {}
    for (item, who), found in marks.items():
        tasks.setdefault(item, []).append(
            {"id": 0, "completed_by": who, "result": [
                {"id": f"r{i}", "from_name": "ner", "to_name": "text", "type": "labels",
                 "value": {"start": s, "end": e, "labels": [label]}}
                for i, (label, s, e) in enumerate(found)]})
    return [{"id": item, "data": {"text": "x" * 60}, "annotations": a}
            for item, a in tasks.items()]


@FAST
@given(ratings(), st.data())
def test_label_studio_choices(marks, data):
    tasks = label_studio(marks)
    assert as_long(read_quietly(iaa.read_label_studio, tasks)) == marks
    outcome_is_data_or_refusal(lambda: read_quietly(iaa.read_label_studio, mutate(tasks, data)))


@FAST
@given(units(), st.data())
def test_label_studio_spans(marks, data):
    tasks = label_studio_spans(marks)
    assert as_units(read_quietly(iaa.read_label_studio, tasks)) == \
        {k: sorted(v) for k, v in marks.items()}
    spans = outcome_is_data_or_refusal(
        lambda: read_quietly(iaa.read_label_studio, mutate(tasks, data), from_name="ner"))
    if spans is not None:
        dict(spans.items())  # every document's continuum builds


# ------------------------------------------------------------------------ Prodigy
def prodigy(marks: dict) -> list:
    return [{"text": f"t{item}", "label": "L", "_input_hash": item, "_task_hash": item,
             "_view_id": "choice", "options": [{"id": label, "text": label}],
             "accept": [label], "answer": "accept", "_annotator_id": f"ds-{who}",
             "_session_id": f"ds-{who}"} for (item, who), label in marks.items()]


@FAST
@given(ratings(), st.data())
def test_prodigy_choice(marks, data):
    rows = prodigy(marks)
    got = read_quietly(iaa.read_prodigy, rows, dataset="ds")
    assert as_long(got) == marks
    outcome_is_data_or_refusal(lambda: read_quietly(iaa.read_prodigy, mutate(rows, data)))


@FAST
@given(units(), st.data())
def test_prodigy_spans(tmp_path, marks, data):
    tmp_path = fresh(tmp_path)
    rows = [{"text": "x" * 60, "_input_hash": item, "_task_hash": item,
             "_view_id": "ner_manual", "answer": "accept", "_annotator_id": who,
             "spans": [{"start": s, "end": e, "label": label} for label, s, e in found]}
            for (item, who), found in marks.items()]
    path = tmp_path / "db.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert as_units(iaa.read_prodigy(path)) == {k: sorted(v) for k, v in marks.items()}
    path.write_text("".join(json.dumps(r) + "\n" for r in mutate(rows, data)),
                    encoding="utf-8")
    outcome_is_data_or_refusal(lambda: read_quietly(iaa.read_prodigy, path))


# ------------------------------------------------------------------------ doccano
@FAST
@given(units(), st.data())
def test_doccano_triples(marks, data):
    files = {}
    for (item, who), found in marks.items():
        files.setdefault(who, []).append({"id": item, "text": "x" * 60, "label": [
            [s, e, label] for label, s, e in found], "Comments": []})
    assert as_units(iaa.read_doccano(files)) == {k: sorted(v) for k, v in marks.items()}
    outcome_is_data_or_refusal(lambda: read_quietly(iaa.read_doccano, mutate(files, data)))


@FAST
@given(ratings(), st.data())
def test_doccano_1x_classification(tmp_path, marks, data):
    tmp_path = fresh(tmp_path)
    records = {}
    for (item, who), label in marks.items():
        records.setdefault(item, []).append({"label": label, "user": who})
    path = tmp_path / "project.jsonl"
    rows = [{"id": item, "text": "t", "annotations": a, "meta": {},
             "annotation_approver": None} for item, a in records.items()]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert as_long(read_quietly(iaa.read_doccano, path)) == marks
    path.write_text("".join(json.dumps(r) + "\n" for r in mutate(rows, data)),
                    encoding="utf-8")
    outcome_is_data_or_refusal(lambda: read_quietly(iaa.read_doccano, path))


# ------------------------------------------------------------------------ text formats
JUNK = st.text(st.sampled_from("T1\t ;:#-A09x\u2028\x0c\x85"), max_size=20)


def junk_line(text: str, data) -> str:
    """``text`` with one line replaced by junk, or junk inserted."""
    lines = text.split("\n")
    at = data.draw(st.integers(0, len(lines)))
    lines[at:at + data.draw(st.integers(0, 1))] = [data.draw(JUNK)]
    return "\n".join(lines)


@FAST
@given(units(), st.data())
def test_brat(tmp_path, marks, data):
    tmp_path = fresh(tmp_path)
    text = "".join(chr(ord("a") + i % 26) for i in range(60))
    root = tmp_path / "brat"
    for (item, who), found in marks.items():
        folder = root / who
        folder.mkdir(parents=True, exist_ok=True)
        clean = [(label.replace(" ", "_").replace("\u2028", "_").replace("\x85", "_")
                  .replace("\x0c", "_"), s, e) for label, s, e in found]
        marks[(item, who)] = clean
        (folder / f"d{item}.txt").write_text(text, encoding="utf-8")
        (folder / f"d{item}.ann").write_text("".join(
            f"T{i + 1}\t{label} {s} {e}\t{text[s:e]}\n" for i, (label, s, e) in
            enumerate(clean)), encoding="utf-8")
    got = iaa.read_brat(root)
    assert as_units(got) == {(f"d{i}", w): sorted(v) for (i, w), v in marks.items()}
    ann = next(root.rglob("*.ann"))
    ann.write_text(junk_line(ann.read_text(encoding="utf-8"), data), encoding="utf-8")
    outcome_is_data_or_refusal(lambda: iaa.read_brat(root))


@FAST
@given(st.lists(st.tuples(st.sampled_from(["spk1", "spk2"]), st.integers(0, 500),
                          st.integers(0, 300)), min_size=1, max_size=8, unique=True),
       st.data())
def test_rttm(tmp_path, segments, data):
    tmp_path = fresh(tmp_path)
    for who in ("a", "b"):
        (tmp_path / f"{who}.rttm").write_text("".join(
            f"SPEAKER rec 1 {s / 100:.2f} {d / 100:.2f} <NA> <NA> {spk} <NA> <NA>\n"
            for spk, s, d in segments))
    got = iaa.read_rttm(tmp_path)
    rows = sorted((r.annotator, r.category, round(r.start * 100), round(r.end * 100))
                  for r in got.units.itertuples())
    assert rows == sorted((w, spk, s, s + d) for w in ("a", "b") for spk, s, d in segments)
    path = tmp_path / "a.rttm"
    path.write_text(junk_line(path.read_text(), data))
    outcome_is_data_or_refusal(lambda: iaa.read_rttm(tmp_path))


@FAST
@given(st.lists(st.lists(st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]),
                         min_size=1, max_size=5), min_size=1, max_size=3), st.data())
def test_conll(tmp_path, sentences, data):
    tmp_path = fresh(tmp_path)
    text = "\n\n".join("\n".join(f"w{i}\u00a0x NN {tag}" for i, tag in enumerate(s))
                       for s in sentences) + "\n"
    for who in ("a", "b"):
        (tmp_path / f"{who}.conll").write_text(text, encoding="utf-8")
    tokens = iaa.read_conll(tmp_path).tokens
    assert as_long(tokens) == {((1, s + 1, t + 1), w): tag for w in ("a", "b")
                               for s, tags in enumerate(sentences)
                               for t, tag in enumerate(tags)}
    path = tmp_path / "a.conll"
    path.write_text(junk_line(text, data), encoding="utf-8")
    outcome_is_data_or_refusal(lambda: iaa.read_conll(tmp_path))


@pytest.mark.parametrize("odd", ["abc", "1.5", "-3", ""])
def test_elan_time_values(odd, tmp_path):
    slot = f'<TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="{odd}"/>'
    path = tmp_path / "x.eaf"
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT AUTHOR="" DATE="2024-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">
<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>
<TIME_ORDER><TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="0"/>{slot}</TIME_ORDER>
<TIER LINGUISTIC_TYPE_REF="default-lt" TIER_ID="A"><ANNOTATION><ALIGNABLE_ANNOTATION
 ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2"><ANNOTATION_VALUE>x</ANNOTATION_VALUE>
</ALIGNABLE_ANNOTATION></ANNOTATION></TIER>
<TIER LINGUISTIC_TYPE_REF="default-lt" TIER_ID="B"><ANNOTATION><ALIGNABLE_ANNOTATION
 ANNOTATION_ID="a2" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2"><ANNOTATION_VALUE>x</ANNOTATION_VALUE>
</ALIGNABLE_ANNOTATION></ANNOTATION></TIER>
<LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="default-lt" TIME_ALIGNABLE="true"/>
</ANNOTATION_DOCUMENT>""")
    with pytest.raises(AgreementError, match="x.eaf: .*time slot 'ts2'"):
        iaa.read_elan(path)


@FAST
@given(st.lists(LABEL.filter(lambda s: '"' not in s), min_size=1, max_size=5), st.data())
def test_textgrid_short(tmp_path, intervals, data):
    tmp_path = fresh(tmp_path)
    # the short text format (Praat's "Save as short text file"): values in order
    bounds = [float(i) for i in range(len(intervals) + 1)]
    tier = "\n".join(f"{bounds[i]}\n{bounds[i + 1]}\n\"{text}\""
                     for i, text in enumerate(intervals))
    one = f'"IntervalTier"\n"{{}}"\n0\n{bounds[-1]}\n{len(intervals)}\n{tier}'
    text = (f'File type = "ooTextFile"\nObject class = "TextGrid"\n\n0\n{bounds[-1]}\n'
            f"<exists>\n2\n{one.format('a')}\n{one.format('b')}\n")
    path = tmp_path / "x.TextGrid"
    path.write_text(text, encoding="utf-8")
    got = iaa.read_textgrid(path).to_frame()
    assert sorted(map(tuple, got.values.tolist())) == sorted(
        (who, label, bounds[i], bounds[i + 1]) for who in ("a", "b")
        for i, label in enumerate(intervals))
    path.write_text(junk_line(text, data), encoding="utf-8")
    outcome_is_data_or_refusal(lambda: iaa.read_textgrid(path))


HERE = Path(__file__).parent / "fixtures" / "io"
# each reader on its fixture, with the keyword arguments it takes
READERS = [(iaa.read_label_studio, HERE / "label_studio_export.json",
            ("from_name", "sets", "categories")),
           (iaa.read_prodigy, HERE / "prodigy_db_out.jsonl",
            ("view_id", "label", "item", "sets", "categories", "block", "dataset")),
           (iaa.read_doccano, HERE / "doccano_textcat",
            ("item", "sets", "categories", "labels", "field")),
           (iaa.read_brat, HERE / "brat", ("categories",)),
           (iaa.read_conll, HERE / "conll", ("column", "docstart", "spans_by")),
           (iaa.read_rttm, HERE / "rttm", ("categories",)),
           (iaa.read_textgrid, HERE / "textgrid" / "two_annotators_short.TextGrid",
            ("tiers", "categories")),
           (iaa.read_elan, HERE / "elan" / "gestures.eaf", ("tiers", "annotator", "categories")),
           (iaa.read, HERE / "rttm", ("format",))]


@pytest.mark.parametrize("reader, path, names", READERS, ids=lambda r: getattr(r, "__name__", ""))
@FAST
@given(data=st.data())
def test_odd_arguments_are_refused_clearly(reader, path, names, data):
    arg = data.draw(st.sampled_from(names))
    value = data.draw(st.one_of(ODD, st.just(5), st.just(["x"]), st.just("nope")))
    outcome_is_data_or_refusal(lambda: read_quietly(reader, path, **{arg: value}))


# ------------------------------------------------------------ iaa.read on streams (44)
def _export(kind: str, marks: dict) -> bytes:
    """The bytes of an export of ``marks``, as the tool writes it."""
    if kind == "label_studio":
        return json.dumps(label_studio(marks)).encode()
    if kind == "prodigy":
        return "".join(json.dumps({"text": f"t{item}", "_input_hash": item,
                                   "_task_hash": item, "label": "L", "_view_id":
                                   "classification", "answer": "accept" if len(label) % 2
                                   else "reject", "_annotator_id": who}) + "\n"
                       for (item, who), label in marks.items()).encode()
    return ("item,annotator,label\n" + "".join(
        f"{item},{who},\"{label}\"\n" for (item, who), label in marks.items())).encode()


def _through(how: str, data: bytes, folder: Path):
    """``data`` as iaa.read gets it: an open binary stream, gzip bytes in a stream, a
    gzip file, or a pipe (a thread writes it)."""
    import gzip
    import io
    import os
    import threading
    if how == "stream":
        return io.BytesIO(data)
    if how == "gzip stream":
        return io.BytesIO(gzip.compress(data))
    if how == "gzip file":
        path = folder / "export.gz"
        path.write_bytes(gzip.compress(data))
        return path
    r, w = os.pipe()
    threading.Thread(target=lambda: os.fdopen(w, "wb").write(data) and None,
                     daemon=True).start()
    return f"/dev/fd/{r}"


@limited
@FAST
@given(st.sampled_from(["label_studio", "prodigy", "csv"]), ratings(),
       st.sampled_from(["stream", "gzip stream", "gzip file", "pipe"]),
       st.one_of(st.none(), st.integers(0, 400), st.binary(max_size=8)), st.data())
def test_read_on_streams_gives_the_file_or_a_refusal(tmp_path, kind, marks, how, odd, data):
    """What iaa.read gets through a stream, compressed or a pipe is what it gets from
    the plain file; a cut or a junk-prefixed stream is read or refused, never another
    exception, never a hang (the guard's time limit)."""
    import os
    folder = fresh(tmp_path)
    written = _export(kind, marks)
    plain = folder / "export.data"
    plain.write_bytes(written)
    expected = as_long(read_quietly(iaa.read, plain))
    if isinstance(odd, int):
        written = written[:odd]  # cut short
    elif isinstance(odd, bytes):
        written = odd + written  # junk before it
    source = _through(how, written, folder)
    try:
        got = outcome_is_data_or_refusal(lambda: read_quietly(iaa.read, source, wait=5))
    finally:
        if how == "pipe":
            os.close(int(source.rsplit("/", 1)[1]))
    if odd is None:
        assert got is not None and as_long(got) == expected


# ------------------------------------------------------------ adjudication sheets (44)
SHEET_ODD = st.sampled_from(["", " ", "1", "1.0", "-1", "x", "2026-11-28 00:00:00", "nan",
                             "=A1", "'=A1", "\u202eevil", "9" * 40, "inf", "None"])


@FAST
@given(ratings(), st.data())
@limited
def test_adjudication_sheet_read_back_or_refused(marks, data):
    """A sheet write_adjudication wrote, then edited as a person would in a spreadsheet
    (any cell, the header or whole rows changed, blank or odd), is read into gold labels
    that are the data's own labels, or refused with an AgreementError; never another
    exception, under the memory cap and time limit."""
    import io as _io
    import pandas as pd
    df = pd.DataFrame([{"item": item, "annotator": who, "label": label}
                       for (item, who), label in marks.items()])
    try:
        selection = iaa.disagreements(df)
    except AgreementError:
        return
    sheet = pd.read_csv(_io.StringIO(iaa.write_adjudication(selection)), dtype=str,
                        keep_default_na=False)
    if len(sheet):
        sheet["adjudicated"] = [data.draw(st.sampled_from(sorted(set(df["label"])) + [""]))
                                for _ in range(len(sheet))]
    for _ in range(data.draw(st.integers(0, 3))):
        if not len(sheet):
            break
        row = data.draw(st.integers(0, len(sheet) - 1))
        column = data.draw(st.sampled_from(list(sheet.columns)))
        sheet.loc[row, column] = data.draw(SHEET_ODD)
    if data.draw(st.booleans()) and len(sheet.columns):  # a header renamed or dropped
        sheet = sheet.drop(columns=[data.draw(st.sampled_from(list(sheet.columns)))])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sheet.csv"
        sheet.to_csv(path, index=False)
        gold = outcome_is_data_or_refusal(lambda: iaa.read_adjudication(path, df))
    if gold is not None:
        assert set(gold["label"]) <= set(df["label"])
        assert set(gold["item"]) <= set(df["item"])
