"""The ``iaa`` command (also ``python -m iaa_widgets``).

``iaa report labels.csv -o report.html`` reads the ratings (CSV through
:func:`~iaa_widgets.read_csv`, the tools' exports through the readers of
:mod:`iaa_widgets.io`, chosen by the file's extension, else its content (see
:func:`iaa_widgets.read`), or ``--format``) and writes
:func:`iaa_widgets.report.report_html` to one self-contained HTML file.

Exit codes: 0 written; 2 the input or an option was refused (an AgreementError, a file
that cannot be read or written, or a usage error), with a one-line message on stderr
and no traceback.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from . import io
from .data import Annotations
from .io.csv import read_csv
from .errors import AgreementError

__all__ = ["main", "read_ratings", "FORMATS"]

# format name -> reader of iaa_widgets.io; "csv" and "tsv" read through read_csv
FORMATS = ("csv", "tsv") + tuple(sorted(name[len("read_"):] for name in io.__all__
                                        if name.startswith("read_")))
# extensions that name their format without doubt (.json and .jsonl are written by
# several tools: those need --format)
_BY_EXTENSION = {".csv": "csv", ".tsv": "tsv", ".conll": "conll", ".bio": "conll",
                 ".ann": "brat", ".rttm": "rttm", ".textgrid": "textgrid", ".eaf": "elan"}


def _format_of(path: str, given: str | None) -> str:
    if given is not None:
        return given
    ext = os.path.splitext(path)[1].lower()
    if ext in _BY_EXTENSION:
        return _BY_EXTENSION[ext]
    from .io.detect import detect_format  # by content: .json, .jsonl, folders, zips
    return detect_format(path)


def read_ratings(path: str, fmt: str | None = None, *, item: str = "item",
                 annotator: str = "annotator", label: str = "label", layout: str = "long",
                 categories: Sequence | None = None) -> Annotations:
    """The categorical ratings in ``path``: ``fmt`` (one of :data:`FORMATS`, by default
    from the extension). CSV/TSV take the column names, ``layout`` and ``categories``
    (declared order); the tools' readers take ``categories``. A reader that gives
    spans or a continuum (brat, RTTM, ELAN, TextGrid, span exports) is refused: the
    report covers labels of items; CoNLL gives its per-token tags."""
    fmt = _format_of(path, fmt)
    if fmt in ("csv", "tsv"):
        extra = {"sep": "\t"} if fmt == "tsv" else {}
        return read_csv(path, layout=layout, categories=categories, item=item,
                        annotator=annotator, label=label, **extra)
    reader = getattr(io, f"read_{fmt}")
    out = reader(path) if fmt == "conll" else reader(path, categories=categories)
    if fmt == "conll":
        out = out.tokens  # one label per token
    if not isinstance(out, Annotations):
        raise AgreementError(
            f"{path!r} read as {fmt} holds {type(out).__name__} (units placed on a "
            "continuum), not labels of items; the report covers categorical labels: use "
            "gamma_family or span_f1 in Python for units")
    return out


def _typed(categories: Sequence[str] | None) -> list | None:
    """``--categories`` as the CSV reader sees labels: all whole numbers → ints, all
    numbers → floats (pandas reads such a label column as numbers), else the texts."""
    if categories is None:
        return None
    for kind in (int, float):
        try:
            return [kind(c) for c in categories]
        except ValueError:
            continue
    return list(categories)


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error said in one line (status 2) instead of the usage
    block: "iaa report: error: …; see iaa report --help"."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {_one_line(message)} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="iaa", description="Inter-annotator agreement.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rep = commands.add_parser(
        "report", help="every applicable coefficient with intervals, in one HTML file",
        description="Write every applicable agreement coefficient with its intervals, the "
                    "pairwise matrix, per-category and per-item tables and their charts "
                    "into one self-contained HTML file (no network needed to open it).")
    rep.add_argument("path", help="the ratings: a CSV file (one row per rating) or a "
                                  "tool's export")
    rep.add_argument("-o", "--output", required=True, help="the HTML file to write")
    rep.add_argument("--format", choices=FORMATS, default=None,
                     help="the input's format (default: from its extension, else its content)")
    rep.add_argument("--item", default="item", help="CSV column of the items (default item)")
    rep.add_argument("--annotator", default="annotator",
                     help="CSV column of the annotators (default annotator)")
    rep.add_argument("--label", default="label", help="CSV column of the labels "
                                                      "(default label)")
    rep.add_argument("--wide", action="store_true",
                     help="CSV in wide layout: first column items, one column per annotator")
    rep.add_argument("--categories", nargs="+", metavar="LABEL", default=None,
                     help="the categories in their order (declares an order: ordinal α); "
                          "numbers are read as numbers, like the CSV's labels")
    rep.add_argument("--metric", default=None,
                     help="Krippendorff's α metric (nominal, ordinal, interval, ratio, …); "
                          "default: nominal, plus ordinal when an order is declared and "
                          "interval for numeric labels")
    rep.add_argument("--confidence", type=float, default=0.95,
                     help="level of every interval (default 0.95)")
    rep.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                     help="bootstrap resamples over items (default 1000; 0: none)")
    rep.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    rep.add_argument("--max-items", type=int, default=500,
                     help="rows of the per-item table, least agreement first (default 500)")
    rep.add_argument("--title", default=None, help="page title (default: the file's name)")
    return parser


def _report(args) -> None:
    from .report import write_report  # altair loads only for this command
    ann = read_ratings(args.path, args.format, item=args.item, annotator=args.annotator,
                       label=args.label, layout="wide" if args.wide else "long",
                       categories=_typed(args.categories))
    title = args.title or f"agreement report: {os.path.basename(args.path)}"
    write_report(ann, args.output, title=title, metric=args.metric,
                 confidence=args.confidence, n_resamples=args.bootstrap, seed=args.seed,
                 max_items=args.max_items)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    args = _parser().parse_args(argv)  # usage errors: one line, exit status 2
    try:
        if args.command == "report":
            _report(args)
    except AgreementError as err:
        print(f"iaa {args.command}: error: {_one_line(err)}", file=sys.stderr)
        return 2
    except OSError as err:  # a file that cannot be read or written
        print(f"iaa {args.command}: error: {_one_line(err)}", file=sys.stderr)
        return 2
    print(f"wrote {args.output}")
    return 0


def _one_line(err: Exception) -> str:
    return " ".join(str(err).split())
