"""The ``iaa`` command (also ``python -m iaa_widgets``).

``iaa report labels.csv -o report.html`` reads the ratings through
:func:`iaa_widgets.read` (the format told by the content, or ``--format``; a pipe such
as ``<(zcat export.jsonl.gz)``, a compressed file or a zip of one file are read too)
and writes :func:`iaa_widgets.report.report_html` to one self-contained HTML file. The
readers' options are options here under the same names (``from_name=`` is
``--from-name``), so that every option a reader's message suggests can be given.

Exit codes: 0 written; 2 the input or an option was refused (an AgreementError, a file
that cannot be read or written, or a usage error), with a one-line message on stderr
and no traceback.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from .data import Annotations
from .errors import AgreementError
from .io.detect import FORMATS as _READERS, read

__all__ = ["main", "read_ratings", "FORMATS"]

# what --format accepts: the formats of iaa.read
FORMATS = tuple(_READERS)
# the readers' options given on the command line (argparse dest = the reader's name)
_READER_OPTIONS = ("item", "annotator", "label", "rank", "layout", "categories", "sep", "encoding",
                   "dtype", "na_values", "from_name", "sets", "view_id", "block", "dataset",
                   "field", "labels", "tiers", "column", "spans_by")


def read_ratings(path: str, fmt: str | None = None, *, wait: float | None = None,
                 **options) -> Annotations:
    """The categorical ratings in ``path``: ``fmt`` (one of :data:`FORMATS`, by default
    told by the content, see :func:`iaa_widgets.read`); ``options`` go to the reader
    (for a CSV: the column names, ``layout`` and ``categories``). A reader that gives
    spans or a continuum (brat, RTTM, ELAN, TextGrid, span exports) is refused: the
    report covers labels of items; CoNLL gives its per-token tags."""
    out = read(path, fmt, **({} if wait is None else {"wait": wait}), **options)
    if hasattr(out, "tokens"):
        out = out.tokens  # CoNLL: one label per token
    if not isinstance(out, Annotations):
        raise AgreementError(
            f"{path!r} read as {out.notes[-1].split()[2]} holds {type(out).__name__} "
            "(units placed on a continuum), not labels of items; the report covers "
            "categorical labels: use gamma_family or span_f1 in Python for units")
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
                                  "tool's export (a file or folder), also through a pipe "
                                  "(<(zcat x.jsonl.gz)) or compressed (.gz, .bz2, .xz, a "
                                  ".zip of one file)")
    rep.add_argument("-o", "--output", required=True, help="the HTML file to write")
    rep.add_argument("--format", choices=FORMATS, default=None,
                     help="the input's format (default: told by its content)")
    rep.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                     help="seconds a pipe may stay silent before it is refused (default 60)")
    rd = rep.add_argument_group(
        "reader options", "passed to the format's reader under the same name (--from-name "
        "is from_name=); an option the reader does not take is refused")
    rd.add_argument("--item", help="CSV: the column of the items (default item); Prodigy, "
                                   "doccano: the field naming an item")
    rd.add_argument("--annotator", help="CSV: the column of the annotators (default "
                                        "annotator); ELAN: tier, ANNOTATOR or PARTICIPANT")
    rd.add_argument("--label", help="CSV: the column of the labels (default label); "
                                    "Prodigy: the label whose binary answers are read")
    rd.add_argument("--rank", metavar="COLUMN",
                    help="CSV: the column of each label's rank, 1 primary, 2 secondary "
                         "(default: a column named rank, if any; \"\" reads no rank)")
    rd.add_argument("--wide", dest="layout", action="store_const", const="wide",
                    help="CSV in wide layout: first column items, one column per annotator")
    rd.add_argument("--categories", nargs="+", metavar="LABEL", default=None,
                    help="the categories in their order (declares an order: ordinal α); "
                         "numbers are read as numbers, like the CSV's labels")
    rd.add_argument("--sep", help="CSV: the separator of the cells (default ,)")
    rd.add_argument("--encoding", help="CSV: the text encoding (default UTF-8), for "
                                       "example latin-1, cp1252, utf-16")
    rd.add_argument("--dtype", choices=("float", "str"),
                    help="CSV: read the label column as numbers (1, 1.0 and 01 one label) "
                         "or as the texts written")
    rd.add_argument("--na-values", nargs="*", metavar="TEXT",
                    help="CSV: the cell texts read as missing (default: the empty cell)")
    rd.add_argument("--from-name", help="Label Studio: the control to read")
    rd.add_argument("--sets", action=argparse.BooleanOptionalAction, default=None,
                    help="several choices of a task as one set-valued label (--no-sets: "
                         "refuse them); default: sets once a task has several")
    rd.add_argument("--view-id", help="Prodigy: the interface whose tasks are read")
    rd.add_argument("--block", choices=("choice", "spans"),
                    help="Prodigy: the part of 'blocks' tasks to read")
    rd.add_argument("--dataset", help="Prodigy: the dataset name prefixed to annotator ids")
    rd.add_argument("--field", choices=("label", "entities", "cats", "annotations"),
                    help="doccano: the field to read when a record holds several")
    rd.add_argument("--labels", metavar="PATH",
                    help="doccano 1.x: the project's label file (label ids to names)")
    rd.add_argument("--tiers", nargs="+", metavar="TIER",
                    help="TextGrid, ELAN: the tiers to read")
    rd.add_argument("--column", type=int, help="CoNLL: the tag's column (default -1, the "
                                               "last)")
    rd.add_argument("--spans-by", choices=("document", "sentence"),
                    help="CoNLL: spans counted within each document or sentence")
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
    rep.add_argument("--budget", type=int, default=5_000_000, metavar="BYTES",
                     help="size of the page in bytes (default 5000000): the widgets' "
                          "controls (the pair selectors, the augmented-κ sweep's p …) work "
                          "in the page from states computed now, as many as fit; each "
                          "widget names the controls left out (0: none work)")
    rep.add_argument("--title", default=None, help="page title (default: the file's name)")
    return parser


def _report(args) -> None:
    from .report import write_report  # altair loads only for this command
    options = {k: getattr(args, k) for k in _READER_OPTIONS if getattr(args, k) is not None}
    if "categories" in options:
        options["categories"] = _typed(options["categories"])
    if options.get("rank") == "":  # no rank column, even one named rank
        options["rank"] = None
    if "dtype" in options:  # the label column's type
        options["dtype"] = {args.label or "label": float if args.dtype == "float" else str}
    ann = read_ratings(args.path, args.format, wait=args.wait, **options)
    title = args.title or f"agreement report: {os.path.basename(args.path)}"
    write_report(ann, args.output, title=title, metric=args.metric,
                 confidence=args.confidence, n_resamples=args.bootstrap, seed=args.seed,
                 max_items=args.max_items, budget=args.budget)


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
