"""iaa.read on every shipped example, on streams, pipes and compressed files, and the
recognition of the files issue 44 found missed or mistaken. The expected values are
those of the format's own reader on the same bytes read from a plain file (the readers
are checked against each tool's documented format in test_io_variants.py)."""
from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
import threading
import time
import warnings
import zipfile
from pathlib import Path

import pytest

import iaa_widgets as iaa
from iaa_widgets.errors import AgreementError
from iaa_widgets.io.detect import detect_format

from fuzz_guard import run_limited

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
X = EX / "exports"

# every entry of examples/ and examples/exports/: (format, reader, the options its
# documentation passes); None: refused, with the message's words
EXAMPLES = {
    "labels.csv": ("csv", iaa.read_csv, {}),
    "emails.csv": ("csv", iaa.read_csv, {"rank": "rank"}),
    "units.csv": ("continuum", iaa.read_continuum_csv, {}),
    "exports/ratings_wide.csv": ("csv", iaa.read_csv, {"layout": "wide"}),
    "exports/label_studio_reviews.json": ("label_studio", iaa.read_label_studio,
                                          {"from_name": "sentiment"}),
    "exports/prodigy_hotel_ner.jsonl": ("prodigy", iaa.read_prodigy, {}),
    "exports/doccano_intents.zip": ("doccano", iaa.read_doccano, {}),
    "exports/doccano_intents_1x.jsonl": ("doccano", iaa.read_doccano,
                                         {"labels": X / "doccano_intents_labels.json"}),
    "exports/interview.TextGrid": ("textgrid", iaa.read_textgrid, {}),
    "exports/tour_guide.eaf": ("elan", iaa.read_elan, {}),
    "exports/brat": ("brat", iaa.read_brat, {}),
    "exports/conll": ("conll", iaa.read_conll, {}),
    "exports/rttm": ("rttm", iaa.read_rttm, {}),
}
# the label file doccano_intents_1x.jsonl's labels= takes: no export of its own
REFUSED = {"exports/doccano_intents_labels.json": "is in no format iaa_widgets reads"}


def _quiet(call, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # look-alike labels are named, not an error
        return call(*args, **kwargs)


def _content(out):
    """What was read, comparable across reads."""
    if isinstance(out, iaa.Annotations):
        return out.to_long().to_dict("list")
    if isinstance(out, iaa.Continuum):
        return out.to_frame().to_dict("list")
    if hasattr(out, "tokens"):
        return _content(out.tokens), _content(out.spans)
    return (out.units.reset_index(drop=True).to_dict("list"),
            out.annotated.to_dict("list"))


def test_the_table_lists_every_example():
    entries = {p.relative_to(EX).as_posix() for p in [*EX.iterdir(), *X.iterdir()]} - \
        {"exports"}
    assert entries == set(EXAMPLES) | set(REFUSED)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_by_content_and_by_format(name):
    fmt, reader, options = EXAMPLES[name]
    path = EX / name
    expected = _content(_quiet(reader, path, **options))
    by_content = _quiet(iaa.read, path, **options)
    told = _quiet(iaa.read, path, format=fmt, **options)
    assert _content(by_content) == expected and _content(told) == expected
    notes = by_content.tokens.notes if fmt == "conll" else by_content.notes
    assert notes[-1].startswith(f"read as {fmt} by iaa.{reader.__name__} (format recognised")
    if "rank" in options:  # told by the header when not given, and said
        assert _content(_quiet(iaa.read, path)) == expected
        assert _quiet(iaa.read, path).notes[-1].endswith(
            "; its rank column read as the labels' ranks (rank=None reads no rank)")
    assert detect_format(path) == fmt


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_file_that_is_no_export_is_refused_naming_format(name):
    with pytest.raises(AgreementError, match=REFUSED[name] + ".*pass format="):
        iaa.read(EX / name)


def test_one_conll_file_says_conll_needs_one_file_per_annotator():
    for fmt in (None, "conll"):
        with pytest.raises(AgreementError, match="one CoNLL file; CoNLL agreement needs one "
                                                 "file per annotator"):
            iaa.read(X / "conll" / "alice.conll", format=fmt)


def test_an_option_the_reader_does_not_take_is_refused_naming_its_options():
    with pytest.raises(AgreementError, match="form_name= is not an option of "
                                             "iaa.read_label_studio; it takes from_name="):
        iaa.read(X / "label_studio_reviews.json", form_name="sentiment")


# ------------------------------------------------------------------ streams, pipes
def _prodigy_lines(n: int) -> bytes:
    """n Prodigy ner_manual tasks (the shipped export's, each input given a new hash):
    several MiB, so that a reader given what detection left would lose documents."""
    rows = [json.loads(x) for x in (X / "prodigy_hotel_ner.jsonl").read_text().splitlines()
            if x.strip()]
    out = []
    for i in range(n):
        row = dict(rows[i % len(rows)], _input_hash=i // 2 + 1_000_000 * (i % len(rows)))
        out.append(json.dumps(row))
    return ("\n".join(out) + "\n").encode()


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("big") / "tasks.jsonl"
    data = _prodigy_lines(2000)
    assert len(data) > (1 << 20)  # beyond the 64 KiB detection ate, and the 1 MiB it reads
    path.write_bytes(data)
    return path


def _write_later(path: str, data: bytes, delay: float = 0.0) -> threading.Thread:
    def run():
        time.sleep(delay)
        with open(path, "wb") as fh:  # a FIFO: blocks until read opens it
            for i in range(0, len(data), 1 << 16):
                fh.write(data[i:i + (1 << 16)])

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_pipe_is_read_once_and_nothing_is_lost(big):
    expected = _content(iaa.read_prodigy(big))
    r, w = os.pipe()

    def feed():
        with os.fdopen(w, "wb") as fh:
            fh.write(big.read_bytes())

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    try:
        out = iaa.read(f"/dev/fd/{r}")  # what bash's <(…) gives
    finally:
        os.close(r)
    thread.join(5)
    assert _content(out) == expected
    assert out.notes[-1].endswith(f"; read once from the pipe /dev/fd/{r}")


def test_a_named_pipe_is_read_whole_and_refused_when_nobody_writes(big, tmp_path):
    fifo = str(tmp_path / "export")
    os.mkfifo(fifo)
    writer = _write_later(fifo, big.read_bytes(), delay=0.2)
    assert _content(iaa.read(fifo)) == _content(iaa.read_prodigy(big))
    writer.join(5)
    start = time.monotonic()
    with pytest.raises(AgreementError, match="nothing came from .* in 0.3 s \\(a named pipe "
                                             "that no program writes to yet\\).*wait="):
        iaa.read(fifo, wait=0.3)
    assert time.monotonic() - start < 5
    writer = _write_later(fifo, big.read_bytes(), delay=0.2)  # no bound: as cat waits
    assert _content(iaa.read(fifo, wait=float("inf"))) == _content(iaa.read_prodigy(big))
    writer.join(5)
    for odd in (0, -1, float("nan"), "10", True):
        with pytest.raises(AgreementError, match="wait=.*expected the seconds"):
            iaa.read(fifo, wait=odd)


def test_compressed_files_and_streams_are_read(big, tmp_path):
    expected = _content(iaa.read_prodigy(big))
    data = big.read_bytes()
    for suffix, compress in ((".gz", gzip.compress), (".bz2", bz2.compress),
                             (".xz", lzma.compress)):
        path = tmp_path / f"tasks.jsonl{suffix}"
        path.write_bytes(compress(data))
        out = iaa.read(path)
        assert _content(out) == expected and "decompressed from" in out.notes[-1]
    with gzip.open(tmp_path / "tasks.jsonl.gz") as stream:  # an open gzip stream
        assert _content(iaa.read(stream)) == expected
    # a gzip stream through a pipe, as <(cat export.jsonl.gz) gives it
    r, w = os.pipe()
    thread = threading.Thread(target=lambda: os.fdopen(w, "wb").write(gzip.compress(data)) and
                              None, daemon=True)
    thread.start()
    try:
        assert _content(iaa.read(f"/dev/fd/{r}")) == expected
    finally:
        os.close(r)
    csv_gz = tmp_path / "labels.csv.gz"
    csv_gz.write_bytes(gzip.compress((EX / "labels.csv").read_bytes()))
    assert _content(_quiet(iaa.read, csv_gz)) == _content(_quiet(iaa.read_csv,
                                                                  EX / "labels.csv"))


def test_a_zip_of_one_file_is_read_and_other_zips_refused(tmp_path):
    one = tmp_path / "export.zip"
    with zipfile.ZipFile(one, "w") as z:
        z.write(X / "label_studio_reviews.json", "project-1.json")
    expected = _content(iaa.read_label_studio(X / "label_studio_reviews.json",
                                              from_name="sentiment"))
    assert _content(iaa.read(one, from_name="sentiment")) == expected
    two = tmp_path / "two.zip"
    with zipfile.ZipFile(two, "w") as z:
        z.write(X / "label_studio_reviews.json", "a.json")
        z.write(X / "interview.TextGrid", "b.TextGrid")
    with pytest.raises(AgreementError, match="a zip of 2 files \\(a.json, b.TextGrid\\); "
                                             "read are doccano's export zip"):
        iaa.read(two)
    broken = tmp_path / "broken.gz"
    broken.write_bytes(gzip.compress(b"x" * 1000)[:15])
    with pytest.raises(AgreementError, match="starts as gzip but does not decompress"):
        iaa.read(broken)


def test_open_files_text_or_bytes_are_read():
    text = (EX / "labels.csv").read_text()
    expected = _content(_quiet(iaa.read_csv, EX / "labels.csv"))
    assert _content(_quiet(iaa.read, io.StringIO(text))) == expected
    assert _content(_quiet(iaa.read, io.BytesIO(text.encode()))) == expected
    with open(X / "tour_guide.eaf", "rb") as fh:
        assert _content(iaa.read(fh)) == _content(iaa.read_elan(X / "tour_guide.eaf"))
    with open(X / "rttm" / "alice.rttm", "rb") as fh:
        assert iaa.read(fh).annotated["annotator"].unique().tolist() == ["alice"]


# ------------------------------------------------------------------ recognition
def _task(i: int, text: str) -> dict:
    """A Label Studio task (labelstud.io/guide/export "Label Studio JSON format"), its
    data before its annotations."""
    return {"id": i, "data": {"text": text}, "annotations": [
        {"id": 10 * i + k, "completed_by": k, "was_cancelled": False,
         "result": [{"from_name": "sentiment", "to_name": "text", "type": "choices",
                     "value": {"choices": ["pos" if (i + k) % 3 else "neg"]}}]}
        for k in (1, 2)]}


@pytest.mark.parametrize("size", [100_000, 1_500_000])
def test_label_studio_export_with_a_long_first_task(tmp_path, size):
    tasks = [_task(1, "x" * size), _task(2, "short"), _task(3, "short")]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks))
    assert detect_format(path) == "label_studio"
    assert _content(iaa.read(path)) == _content(iaa.read_label_studio(tasks))


def test_a_single_pretty_printed_label_studio_task(tmp_path):
    path = tmp_path / "task.json"
    path.write_text(json.dumps(_task(7, "one text"), indent=2))
    assert detect_format(path) == "label_studio"
    assert _content(iaa.read(path)) == _content(iaa.read_label_studio([_task(7, "one text")]))


@pytest.mark.parametrize("first", ["{x}", "[x]", "[1]", "{1}"])
def test_a_csv_whose_header_starts_with_a_brace(tmp_path, first):
    path = tmp_path / "ratings.csv"
    text = (EX / "labels.csv").read_text().replace("item,", f"{first},", 1)
    path.write_text(text)
    assert detect_format(path) == "csv"
    renamed = tmp_path / "ratings.data"  # by content, not by the name
    renamed.write_text(text)
    assert detect_format(renamed) == "csv"
    ann = _quiet(iaa.read, renamed, item=next(iter(_csv_header(text))))
    assert ann.n_items == _quiet(iaa.read_csv, EX / "labels.csv").n_items


def _csv_header(text: str) -> list:
    import csv
    return next(csv.reader([text.split("\n", 1)[0]]))


def test_nothing_is_mistaken_for_rttm(tmp_path):
    ip = tmp_path / "hosts.csv"
    ip.write_text("IP address,annotator,label\n10.0.0.1,a,spam\n10.0.0.1,b,spam\n"
                  "10.0.0.2,a,ham\n10.0.0.2,b,spam\n")
    assert detect_format(ip) == "csv"
    assert iaa.read(ip, item="IP address").n_items == 2
    speaker = tmp_path / "turns.tsv"
    speaker.write_text("SPEAKER\tannotator\tlabel\nS1\ta\tyes\nS1\tb\tno\nS2\ta\tyes\n"
                       "S2\tb\tyes\n")
    assert detect_format(speaker) == "tsv"
    assert iaa.read(speaker, item="SPEAKER").n_items == 2
    plain = tmp_path / "turns"  # no name to go by: the tabs tell
    plain.write_bytes(speaker.read_bytes())
    assert detect_format(plain) == "tsv"
    rttm = tmp_path / "x"
    rttm.write_text("SPEAKER f1 1 0.00 1.50 <NA> <NA> spk1 <NA> <NA>\n")
    assert detect_format(rttm) == "rttm"


def test_detection_reads_a_bounded_prefix_of_a_huge_one_line_file(tmp_path):
    """2 GiB files that use no disk (sparse: a hole of zeros) and, under a 300 MiB
    memory cap, no memory: recognised, or refused, on their first MiB."""
    blank = tmp_path / "zeros.jsonl"
    with open(blank, "wb") as fh:
        fh.truncate(2 << 30)
    record = tmp_path / "huge.jsonl"  # one Prodigy record with a text of 2 GiB
    with open(record, "wb") as fh:
        fh.write(b'{"_input_hash": 1, "_view_id": "classification", "text": "')
        fh.seek(2 << 30)
        fh.write(b'", "answer": "accept"}\n')

    def check(step):
        step("detect_format on a 2 GiB file of zeros")
        try:
            detect_format(blank)
        except AgreementError as err:
            assert "is in no format iaa_widgets reads" in str(err)
        else:
            raise AssertionError("a file of zeros was recognised")
        step("detect_format on a 2 GiB Prodigy record")
        assert detect_format(record) == "prodigy"
    run_limited(check, memory=300 << 20, seconds=60)


def test_a_first_record_with_nothing_annotated_yet(tmp_path):
    """Label Studio lists tasks nobody annotated yet (``annotations: []``); doccano 1.x
    examples nobody labelled (``annotations: []``): the first record still tells."""
    tasks = [{"id": 0, "data": {"text": "none yet"}, "annotations": []},
             _task(1, "a"), _task(2, "b")]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks))
    assert detect_format(path) == "label_studio"
    assert _content(iaa.read(path)) == _content(iaa.read_label_studio(tasks))
    lines = (X / "doccano_intents_1x.jsonl").read_text()
    first = json.loads(lines.split("\n", 1)[0])
    project = tmp_path / "project.jsonl"
    project.write_text(json.dumps(dict(first, id=-1, annotations=[])) + "\n" + lines)
    assert detect_format(project) == "doccano"


def test_a_device_is_refused_not_read_forever():
    for device in ("/dev/zero", "/dev/null"):
        with pytest.raises(AgreementError, match="is a device or a socket, not a file"):
            iaa.read(device)


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="process substitution is bash's")
def test_iaa_report_reads_a_process_substitution(tmp_path):
    """``iaa report <(gzip -dc labels.csv.gz)``, as issue 44 ran it: the report of the
    plain file's ratings (the CSV's 380 items, read by iaa.read_csv)."""
    import subprocess
    import sys
    gz = tmp_path / "labels.csv.gz"
    gz.write_bytes(gzip.compress((EX / "labels.csv").read_bytes()))
    out = tmp_path / "r.html"
    done = subprocess.run(["/bin/bash", "-c", f"{sys.executable} -m iaa_widgets report "
                           f"<(gzip -dc {gz}) -o {out} --bootstrap 0 --wait 30"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    n = _quiet(iaa.read_csv, EX / "labels.csv").n_items
    assert n == 380 and f"{n} items" in out.read_text(encoding="utf-8")


def test_look_alike_numbers_stay_apart_from_a_stream_as_from_a_file(tmp_path):
    """'1' and '1.0' are two labels read from a file, with a warning
    (LookAlikeLabelsWarning, see read_csv); read from a gzip stream or a pipe, the
    same, not merged silently into the number 1."""
    text = b"item,annotator,label\n1,a,1\n1,b,1.0\n2,a,2\n2,b,2\n"
    path = tmp_path / "r.csv"
    path.write_bytes(text)
    r, w = os.pipe()
    threading.Thread(target=lambda: os.fdopen(w, "wb").write(text) and None,
                     daemon=True).start()
    try:
        for source in (path, io.BytesIO(gzip.compress(text)), f"/dev/fd/{r}"):
            with pytest.warns(iaa.LookAlikeLabelsWarning, match="'1', '1.0'"):
                out = iaa.read(source)
            assert out.to_long()["label"].tolist() == ["1", "1.0", "2", "2"]
    finally:
        os.close(r)


def test_a_refusal_names_the_stream_it_was_read_from(tmp_path):
    path = tmp_path / "twice.csv.gz"
    path.write_bytes(gzip.compress(b"item,annotator,label\n1,a,x\n1,a,y\n"))
    with pytest.raises(AgreementError, match=f"rated more than once at {path}, data row 1"):
        iaa.read(path)


def test_doccanos_zip_read_from_a_stream_or_gzipped():
    """doccano's export zip (one JSONL per annotator) is read whole from an open file,
    or compressed again, as from its path."""
    path = X / "doccano_intents.zip"
    expected = _content(iaa.read_doccano(path))
    with open(path, "rb") as fh:
        out = iaa.read(fh)
    assert _content(out) == expected and out.notes[-1].endswith(f"read once from {path}")
    assert _content(iaa.read(io.BytesIO(gzip.compress(path.read_bytes())))) == expected
