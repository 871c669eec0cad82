"""ProjectExplorer's static page (issue 42): the items of every click, embedded.

A static page has no kernel to answer a click, so :func:`explorer_data` embeds, at export
time, one table of the items that clicks can list (the project's order: lowest agreement
first) and, for each selection a click or a filter can make, the ordered list of its rows
in that table, as the widget's own :meth:`ProjectExplorer._query_rows` gives them (its
saved sort). The labels panel of each one-annotator selection and the pooled one are the
widget's own payloads. Downloads are Python's text: each row's CSV record and
adjudication-sheet record, written by ``export_csv``'s and ``write_adjudication``'s own
code with the consensus left blank, and each label's field as those write it; the page
joins a record with its consensus field (the majority of the others with one annotator
clicked). The page's script (``js/src/explorer_static.js``) only picks a list, pages it
and joins records; it computes no measure.

Priority within the page's budget: the selections of clicks (show all, each annotator,
each label; the matrix's pairs; the pooled confusion cells; each annotator's confusion
cells) over the items lowest agreement first, then the label filter over a pair. When
not every item fits, the page keeps the lowest-agreement items that do, each selection
lists those of its items among them and the page says how many it leaves out.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import AgreementError
from ..html import script_json
from ._json import json_safe

# a group of selections: its label, and its queries as (annotator codes, label codes)
Group = tuple[str, list[tuple[tuple[int, ...], tuple[int, ...]]]]

# the explorer's elements that switch among the embedded selections (left enabled)
SELECTOR = (".iaa-pair-matrix .iaa-cell, .iaa-annotators .iaa-name, .iaa-confusion .iaa-cell, "
            ".iaa-confusion .iaa-name, .iaa-filter-annotator, .iaa-filter-label, .iaa-clear, "
            ".iaa-page-prev, .iaa-page-next, .iaa-page-size, .iaa-export-csv, "
            ".iaa-export-adjudication")
# more selections than this are not computed at export (a mask over the items each)
MAX_QUERIES = 10_000


def query_key(annotators, labels) -> str:
    """A selection's key in the page: "0,3|1" (annotator codes | label codes)."""
    return ",".join(map(str, annotators)) + "|" + ",".join(map(str, labels))


def groups(n_annotators: int, n_labels: int) -> list[Group]:
    """The selections a click or a filter can make, in groups, in order of priority."""
    A, K = range(n_annotators), range(n_labels)
    return [
        ("show all, each annotator, each label",
         [((), ())] + [((a,), ()) for a in A] + [((), (k,)) for k in K]),
        ("pairs of annotators (matrix cells)",
         [((a, b), ()) for a in A for b in A if a != b]),
        ("pairs of labels (confusion cells)",
         [((), (r, c)) for r in K for c in K if r != c]),
        ("an annotator's confusion cells",
         [((a,), (r, c) if r != c else (r,)) for a in A for r in K for c in K]),
        ("the label filter with a pair of annotators",
         [((a, b), (k,)) for a in A for b in A if a != b for k in K]),
    ]


def selection_csv(frame: pd.DataFrame) -> str:
    """A selection as :meth:`ProjectExplorer.export_csv` writes it (CRLF line ends); a
    date-time whole (``str(Timestamp)``, as ``write_adjudication`` writes it), whatever
    the other rows (pandas drops the time of a column all at midnight)."""
    whole = {c: np.frompyfunc(lambda v: "" if pd.isna(v) else str(v), 1, 1)(
        frame[c].astype(object).to_numpy()) for c in frame.columns
        if pd.api.types.is_datetime64_any_dtype(frame[c])}
    return (frame.assign(**whole) if whole else frame).to_csv(index=False,
                                                               lineterminator="\r\n")


def records(csv: str) -> list[str]:
    """The records of CSV text with CRLF line ends: a CRLF outside quotes ends one (in
    a quoted field each quote is doubled, so the quotes before a record's end are even)."""
    code = np.frombuffer(csv.encode("utf-32-le"), dtype=np.uint32)
    even = np.cumsum(code == ord('"')) % 2 == 0
    ends = np.flatnonzero((code[:-1] == 13) & (code[1:] == 10) & even[:-1])
    starts = np.r_[0, ends[:-1] + 2]
    return [csv[s:e] for s, e in zip(starts, ends)]


def _texts(values) -> list[str]:
    """Item ids and texts as the items table shows them (empty where missing)."""
    return ["" if pd.isna(v) else str(v) for v in pd.Series(values, dtype=object)]


def _sheets(widget, rows: np.ndarray) -> dict:
    """Each row's CSV and adjudication records with the consensus left blank, their
    headers, and each label's consensus field as the two write it (the last and one but
    last field of a record): the widget's own writers on the rows."""
    from ..io.adjudication import write_adjudication

    p = widget._project
    cats = p.ann.categories
    k = len(cats)
    # rows: the table's, then a row per label with that label as consensus, then blank
    probe = np.r_[rows, np.full(k + 1, rows[0] if len(rows) else 0)]
    consensus = np.r_[np.full(len(rows), -1), np.arange(k), -1]
    out = {}
    for kind in ("csv", "adjudication"):
        frame = widget._frame(probe, text=kind == "csv", annotators=[])
        frame["consensus"] = pd.Categorical.from_codes(consensus, cats)
        text = (selection_csv(frame) if kind == "csv" else
                write_adjudication(frame, text=widget._text))
        rec = records(text)
        tail = "," if kind == "csv" else ",,"  # (the sheet ends with an empty adjudicated)
        blank = rec[-1][:-len(tail)]
        fields = [r[len(blank) + 1:len(r) - len(tail) + 1] for r in rec[1 + len(rows):-1]]
        if len(rec) != len(probe) + 1 or not all(r.endswith(tail) for r in
                                                  rec[1:1 + len(rows)] + rec[-1:]):
            raise AgreementError(f"ProjectExplorer.to_html: the {kind} of the items did not "
                                 "split into one record per item")
        out[kind] = {"header": rec[0], "rows": [r[:-len(tail)] for r in rec[1:1 + len(rows)]],
                     "labels": fields, "tail": tail[1:]}
    return out


def explorer_data(widget, budget: int) -> tuple[dict | None, list[dict]]:
    """What a static page of ``widget`` (a ProjectExplorer) embeds for its clicks within
    ``budget`` bytes, and the groups of selections it leaves out (as
    :func:`~iaa_widgets.widgets.export.precomputed_states` names them); None when not
    even the page's frame fits.

    Parameters
    ----------
    widget : ProjectExplorer
        The widget, in the state the page saves (its sort and consensus).
    budget : int
        Bytes the embedded data may take in the page.

    Returns
    -------
    tuple
        The data (``queries``: key → [position in ``lists``, items the widget lists],
        ``lists``, the table's columns, ``panels``, ``csv`` and ``adjudication``) and the
        groups left out.
    """
    from .export import _budget_text

    if widget.message:
        return None, []
    p = widget._project
    n_annotators, n_labels = p.ann.n_annotators, p.ann.n_categories
    everyone = groups(n_annotators, n_labels)
    listed: list[tuple[str, list[tuple[str, np.ndarray]]]] = []
    dropped: list[dict] = []
    computed = 0
    for label, queries in everyone:
        computed += len(queries)
        if computed > MAX_QUERIES:
            dropped.append({"controls": label, "n_states": len(queries),
                            "text": f"{label} ({len(queries):,} selections: more than "
                                    f"{MAX_QUERIES:,} are not computed for a page)"})
            continue
        listed.append((label, [(query_key(a, k), widget._query_rows(
            {"annotators": list(a), "labels": list(k)})) for a, k in queries]))
    # the table: every row some selection lists, lowest agreement first (the project's order)
    used = np.zeros(p.ann.n_items, dtype=bool)
    for _, lists in listed:
        for _, rows in lists:
            used[rows] = True
    table = p.order[used[p.order]]
    position = np.full(p.ann.n_items, -1, dtype=np.int64)
    position[table] = np.arange(len(table))
    written: dict = {"n": -1}  # the records of the first rows, written as the budget asks

    def sheets(n: int) -> dict:
        if written["n"] < n:
            written.update(n=n, sheets=_sheets(widget, table[:n]))
        return {kind: {**s, "rows": s["rows"][:n]} for kind, s in written["sheets"].items()}

    reference = p.reference is not None
    columns = {
        "item": _texts(p.ann.items.take(table)),
        "text": None if widget._text is None else
        _texts(widget._text.reindex(p.ann.items.take(table)).to_numpy()),
        "agreement": json_safe(p.agreement[table]),
        "n_ratings": p.m[table].astype(np.int64).tolist(),
        "grid": p.grid[table].T.tolist(),
        "others": p.others()[table].T.tolist(),
        "consensus": p.consensus[table].tolist(),
        "reference": p.gold[table].tolist() if reference else None,
    }
    panels = {"pooled": widget._labels_payload({}),
              "annotators": [widget._labels_payload({"annotators": [a]})
                             for a in range(n_annotators)]}

    def build(n: int, kept: list) -> dict:
        """The data with the first ``n`` rows of the table and the selections of ``kept``."""
        lists: dict[bytes, int] = {}
        queries = {}
        for _, group in kept:
            for key, rows in group:
                at = position[rows]
                at = at[at < n]
                queries[key] = [lists.setdefault(at.tobytes(), len(lists)), len(rows)]
        cut = {k: (None if v is None else
                   [c[:n] for c in v] if k in ("grid", "others") else v[:n])
               for k, v in columns.items()}
        return {"kind": "explorer", "n_items": n, "n_listed": len(table),
                "controls": [{"label": g[0], "n": len(g[1]), "selector": SELECTOR}
                             for g in kept],
                "queries": queries,
                "lists": [np.frombuffer(b, dtype=np.int64).tolist() for b in lists],
                **cut, **sheets(n), "panels": panels}

    def size(data: dict) -> int:
        return len(script_json(data).encode("utf-8"))

    def rate(kept: list) -> tuple[int, float]:
        """Bytes of the data with no row, and per row (from the first rows: an estimate
        that tells whether every row may fit without writing them all)."""
        first = min(len(table), 1_000)
        none = size(build(0, kept))
        return none, (size(build(first, kept)) - none) / first if first else 0.0

    n, kept = len(table), listed
    none, per_row = rate(kept)
    data = used = None
    if none + per_row * n <= 1.1 * budget:  # (near the budget: written to know)
        data = build(n, kept)
        used = size(data)
    if (used is None or used > budget) and len(listed) == len(everyone):
        kept = listed[:-1]  # the filter over a pair first
        none, per_row = rate(kept)
        left = budget - int(none + per_row * n)
        label, queries = listed[-1]
        dropped.append({"controls": label, "n_states": len(queries), "text": (
            f"{label} ({len(queries):,} selections, more than the {_budget_text(left)} left)"
            if left > 0 else f"{label} ({len(queries):,} selections: the clicks' "
            "selections fill the budget)")})
        data = used = None
    if used is None:
        n = min(n, int(max(budget - none, 0) / per_row) if per_row else n)
        data = build(n, kept)
        used = size(data)
    while used > budget and n > 0:  # then the rows: the lowest agreement that fit
        n = int(n * budget / used * 0.98)
        data = build(n, kept)
        used = size(data)
    if used > budget:  # (in the groups' order)
        return None, [{"controls": g[0], "n_states": len(g[1]),
                       "left": _budget_text(max(budget, 0))} for g in kept] + dropped
    if n < len(table):
        dropped.append({"controls": "items", "n_states": len(table) - n,
                        "text": f"{len(table) - n:,} of the {len(table):,} items the clicks "
                                f"list, those of highest agreement (the page keeps the "
                                f"{n:,} lowest first; each list shows its items among them)"})
    return data, dropped
