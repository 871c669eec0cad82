"""Span agreement as practitioners report it: pairwise F1 between annotators.

For two annotators a and b and a label c, with n_a and n_b the units each placed and
m the units matched one-to-one between them,

    F1 = 2m / (n_a + n_b),   precision (of b, a the reference) = m / n_b,
                             recall = m / n_a.

F1 is symmetric in a and b and equals the positive specific agreement 2a/(2a + b + c)
of a 2 × 2 table whose cell a counts the matched units and b, c the unmatched units of
each annotator (Hripcsak & Rothschild 2005, "Agreement, the F-measure, and reliability
in information retrieval"); it is the specific agreement of
:func:`~iaa_widgets.measures.categorical.classic.specific_agreement` on the category "present",
and needs no count of true negatives (which spans have none). It is not
chance-corrected; γ (:mod:`~iaa_widgets.measures.continuum.gamma`) is, on the same continuum.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ... import validate
from ...continuum import Continuum
from ...errors import AgreementError
from ...results import AgreementResult
from ...stats.tables import MAX_SPAN_PAIRS
from ..continuum.gamma.progress import progress_reporter
from .._registry import register

__all__ = ["span_f1", "MATCHES"]

MATCHES = ("exact", "overlap")
PAIR_COLUMNS = ["annotator_a", "annotator_b", "label", "n_a", "n_b", "matched",
                "precision", "recall", "f1"]


@register(family='spans', data='spans', annotators='many',
          source='Hripcsak & Rothschild (2005)', symbol='span F1', range=(0.0, 1.0))
def span_f1(data, match: str = "exact", *, annotators: Sequence | None = None,
            progress="auto") -> AgreementResult:
    r"""Pairwise F1 between annotators over their spans, per label, micro and macro.

    ``data``: a `Continuum` (one document); the ``Spans`` of a
    reader (``read_label_studio``, ``read_conll`` …: one continuum per document, and
    who annotated which document); or a tidy table with columns annotator, category,
    start, end and optionally item (the document; every annotator of the table is then
    taken to have annotated every document). Units of annotators a and b match when
    they are in the same document, have the same label, and ``match="exact"``: the same
    start and end; ``match="overlap"``: they share a stretch of positive length
    (max(start) < min(end)), or have the same bounds (zero-length units).

    Matching is one-to-one: each unit is matched to at most one unit of the other
    annotator. Among the matching pairs, m is the size of a maximum matching: the
    largest number of pairs any one-to-one pairing gives, so no arbitrary tie-break
    (greedy by order or by largest overlap) can lower it. For exact matching it is
    Σ min(n_a, n_b) over identical units. It is found by components of overlapping
    units: the small ones by Hopcroft–Karp
    (``scipy.sparse.csgraph.maximum_bipartite_matching``, one call for many annotator
    pairs, documents and labels), one of more than ``MAX_COMPONENT_UNITS`` units by the
    greedy of least ends (exact for intervals, O(n log n); see
    `_interval_matching`), in O((n + overlapping pairs) log n) in all.

    Only documents both annotators of a pair annotated count for that pair; units of
    the others are counted in ``excluded``. The result's ``value`` and ``observed`` are
    the micro F1 over all pairs and labels, 2 Σ m / Σ (n_a + n_b) (no expected
    agreement: NaN); ``params["macro"]`` the mean over labels of their F1 (pooled over
    pairs; a label nobody used has none and is left out of the mean, named in
    ``note``); ``params["pairs"]`` the tidy table (annotator_a, annotator_b, label,
    n_a, n_b, matched, precision, recall, f1; precision and recall of b with a as the
    reference); ``params["pair_summary"]`` each pair's totals, micro F1 and macro F1
    (mean over the labels the pair used); ``per_category`` the F1 of each label pooled
    over pairs. ``n_items`` is the documents, ``n_ratings`` the units entering some pair.

    Bounded: the candidate pairs of small components are matched in blocks of at most
    about ``stats.tables.MAX_SPAN_PAIRS`` pairs; a component denser than that is matched
    without its pairs, by the greedy (overlap) or by counting identical units (exact).
    Ctrl-C stops it; ``progress``: as γ's (``"auto"``: a tqdm bar after a second,
    ``True``, ``False`` or a callable ``progress(done, wanted)`` over the units).

    Parameters
    ----------
    data : Continuum, Spans or a tidy DataFrame
        Spans with columns annotator, category, start, end and optionally item.
    match : {"exact", "overlap"}, default "exact"
        Same bounds, or a shared stretch of positive length.
    annotators : sequence, optional
        The annotators to compare, by name (default: all).
    progress : "auto", bool or callable, default "auto"
        A progress bar after a second ("auto"), always, never, or
        ``progress(done, wanted)``.

    Returns
    -------
    AgreementResult
        ``value`` and ``observed`` (micro F1), ``params["macro"]``, ``params["pairs"]``,
        ``params["pair_summary"]``, ``per_category`` (F1 per label), ``excluded``,
        ``note``; ``expected`` is NaN.

    Raises
    ------
    AgreementError
        When the spans lack a column or end before they start, fewer than two annotators
        remain, an annotator is unknown, or ``match`` is not one listed.

    See Also
    --------
    specific_agreement : F1 is positive specific agreement.
    gamma : agreement on units with an alignment and a chance correction.
    cu_alpha : Krippendorff's cu-α on the same spans.

    Notes
    -----
    With $m_{ab}$ the matched units of a maximum one-to-one matching (Hripcsak &
    Rothschild 2005):

    $$F_1 = \frac{2 \sum_{a<b} m_{ab}}{\sum_{a<b} (n_a + n_b)}.$$

    References
    ----------
    Hripcsak, G. & Rothschild, A. S. (2005). Agreement, the F-measure, and reliability
    in information retrieval. Journal of the American Medical Informatics Association,
    12(3), 296–298. https://doi.org/10.1197/jamia.M1733

    Examples
    --------
    a: [0, 10) and [9, 11); b: [1, 10) and [0, 1). No bounds are equal (exact F1 = 0);
    the maximum matching under overlap pairs both units (F1 = 2·2/4 = 1), where a greedy
    pairing by largest overlap would match only one:

    >>> df = pd.DataFrame({"annotator": list("aabb"), "category": "X",
    ...                    "start": [0, 9, 1, 0], "end": [10, 11, 10, 1]})
    >>> iaa.span_f1(df).value, iaa.span_f1(df, "overlap").value
    (0.0, 1.0)
    """
    validate.choice("span_f1", "match", match, MATCHES)
    u = _units(data, annotators)
    n_ann, n_cat = len(u.annotators), len(u.categories)
    pa, pb = np.triu_indices(n_ann, k=1)                   # pairs (a, b), a < b
    report, close = progress_reporter(progress, "span F1")
    try:
        matched = _matched(u, match, n_ann, n_cat, report)  # pairs × labels
    finally:
        close()
    n_a, n_b, excluded = _counts(u, pa, pb, n_cat)         # units of a, b per pair × label
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = 2 * matched / (n_a + n_b)                     # F1 = 2m/(n_a + n_b)
        cat_f1 = 2 * matched.sum(0) / (n_a + n_b).sum(0)   # per label, pooled over pairs
        pair_micro = 2 * matched.sum(1) / (n_a + n_b).sum(1)
        micro = 2 * matched.sum() / (n_a + n_b).sum()      # over all pairs and labels
    used = (n_a + n_b).sum(0) > 0
    macro = float(np.mean(cat_f1[used])) if used.any() else float("nan")
    defined = np.isfinite(f1)                              # labels a pair used
    with np.errstate(invalid="ignore", divide="ignore"):
        pair_macro = np.where(defined, f1, 0).sum(1) / defined.sum(1)  # mean over them
    pairs, summary = _tables(u, pa, pb, n_a, n_b, matched, f1, pair_micro, pair_macro)
    per_category = pd.DataFrame({"matched": matched.sum(0), "units": (n_a + n_b).sum(0),
                                 "f1": cat_f1}, index=pd.Index(u.categories, name="label"))
    notes = list(u.notes) + ["F1 is not chance-corrected: no expected agreement (NaN)"]
    if not used.all():
        notes.append(f"label(s) {list(u.categories[~used])!r} used by no pair: no F1, "
                     "left out of the macro mean")
    if not np.isfinite(micro):
        notes.append("no unit entered any pair: F1 is undefined (0/0)")
    return AgreementResult(
        measure="span_f1", value=float(micro), observed=float(micro),
        expected=float("nan"), n_items=u.n_docs, n_annotators=n_ann,
        n_ratings=int(u.in_pair.sum()), excluded=excluded,
        params={"match": match, "macro": macro, "pairs": pairs, "pair_summary": summary},
        per_category=per_category, note="; ".join(notes))


class _Units:
    """Units as integer codes: doc, annotator, category, start, end; ``annotated``
    (documents × annotators) says who annotated which document; ``in_pair`` marks the
    units whose document some other annotator annotated too."""

    def __init__(self, doc, ann, cat, start, end, annotated, annotators, categories,
                 notes=()):
        self.doc, self.ann, self.cat = doc, ann, cat
        self.start, self.end = start, end
        self.annotated, self.annotators, self.categories = annotated, annotators, categories
        self.notes = tuple(notes)
        self.n_docs = annotated.shape[0]
        self.in_pair = annotated[doc].sum(axis=1) >= 2


def _units(spans, annotators) -> _Units:
    """Any accepted input as :class:`_Units`, restricted to ``annotators`` if given."""
    if isinstance(spans, Continuum):
        frame = spans.to_frame().assign(item=0)
        annotated = pd.MultiIndex.from_product([[0], spans.annotators]).to_frame(
            index=False, name=["item", "annotator"])
        cats, notes = spans.categories, spans.notes
    elif hasattr(spans, "units") and hasattr(spans, "annotated"):  # a reader's Spans
        frame, annotated = spans.units.reset_index(drop=True), spans.annotated
        cats, notes = getattr(spans, "categories", None), getattr(spans, "notes", ())
    elif isinstance(spans, pd.DataFrame):
        missing = [c for c in ("annotator", "category", "start", "end")
                   if c not in spans.columns]
        if missing:
            raise AgreementError(
                f"span_f1: column(s) {missing!r} not found; the table has "
                f"{list(spans.columns)!r}. It reads columns annotator, category, start, "
                "end (and optionally item, the document): rename yours with "
                "df.rename(columns={...}), or pass Continuum.from_frame(df, annotator=..., "
                "category=..., start=..., end=...)")
        Continuum.from_frame(spans.drop(columns="item", errors="ignore"))  # validates
        frame = spans if "item" in spans.columns else spans.assign(item=0)
        frame = frame.reset_index(drop=True)
        annotated = pd.MultiIndex.from_product(
            [pd.unique(frame["item"]), pd.unique(frame["annotator"])]).to_frame(
            index=False, name=["item", "annotator"])
        cats, notes = None, ()
    else:
        raise AgreementError(f"span_f1: expected a Continuum, the Spans of a reader or a "
                             f"table with columns annotator, category, start, end (and "
                             f"optionally item), got {type(spans).__name__}")
    names = pd.Index(pd.unique(annotated["annotator"]))
    if annotators is not None:
        chosen = pd.Index(list(annotators))
        unknown = chosen[~chosen.isin(names)]
        if len(unknown) or not chosen.is_unique:
            raise AgreementError(f"span_f1: annotators= must be distinct annotators among "
                                 f"{list(names)!r}, got {list(annotators)!r}")
        names = chosen
        annotated = annotated[annotated["annotator"].isin(names)]
        frame = frame[frame["annotator"].isin(names)]
    if len(names) < 2:
        raise AgreementError(f"span_f1 compares annotators in pairs: give at least two, "
                             f"got {list(names)!r}")
    docs = pd.Index(pd.unique(annotated["item"]))
    grid = np.zeros((len(docs), len(names)), bool)
    grid[docs.get_indexer(annotated["item"]), names.get_indexer(annotated["annotator"])] = True
    doc = docs.get_indexer(frame["item"])
    if (doc < 0).any():
        raise AgreementError(f"span_f1: units in document(s) "
                             f"{list(pd.unique(frame['item'][doc < 0]))[:5]!r} that no "
                             "annotator is recorded to have annotated")
    cat_codes, categories = (pd.factorize(frame["category"]) if cats is None else
                             (pd.Index(cats).get_indexer(frame["category"]), pd.Index(cats)))
    return _Units(doc, names.get_indexer(frame["annotator"]), np.asarray(cat_codes),
                  frame["start"].to_numpy(float), frame["end"].to_numpy(float), grid,
                  names, pd.Index(categories), notes)


# a component of more overlapping units than this is matched by the interval greedy
# (exact, O(n log n)): scipy's Hopcroft–Karp took 60 s on one dense component of 2 × 1,000
# units (4.9e4 pairs) that the greedy matches in milliseconds
MAX_COMPONENT_UNITS = 256


class _Candidates:
    """The unordered pairs of units (i, j) in the same document and label where the
    later one starts within the earlier one's [start, end]: each overlapping or
    identical pair once. Sorted by (document, label, start), the unit at position p has
    as partners the ``count[p]`` positions after it, up to the last start ≤ its end
    (searchsorted; no loop). Counted first, made by :meth:`pairs` for some positions: the
    pairs of dense overlaps are never all held at once.

    Components: runs of positions in one document and label chained by their bounds
    (each starts at or before the greatest end before it), so that every pair lies
    within one run; ``bounds`` holds the runs' first positions and the end."""

    def __init__(self, u: _Units):
        group = u.doc.astype(np.int64) * (u.cat.max(initial=0) + 1) + u.cat
        starts, start_rank = np.unique(u.start, return_inverse=True)
        end_rank = np.searchsorted(starts, u.end, side="right") - 1   # last start ≤ end
        size = len(starts) + 1
        key = group * size + start_rank
        self.order = np.argsort(key, kind="stable")
        sorted_key = key[self.order]
        last = (group * size + end_rank)[self.order]
        hi = np.searchsorted(sorted_key, last, side="right")
        self.count = hi - np.arange(len(self.order)) - 1          # partners after position
        reach = np.maximum.accumulate(last) if len(last) else last  # within a group: max end
        fresh = np.r_[True, sorted_key[1:] > reach[:-1]]          # starts after all before
        self.bounds = np.r_[np.flatnonzero(fresh), len(self.order)]

    def pairs(self, positions: np.ndarray):
        """The pairs (i, j) whose first unit is at one of ``positions``."""
        count = self.count[positions]
        first = np.repeat(positions, count)
        offset = np.arange(len(first)) - np.repeat(np.cumsum(count) - count, count)
        return self.order[first], self.order[first + 1 + offset]

    def blocks(self, limit: int) -> tuple[list, int]:
        """Components matched alone by the interval greedy (more than
        ``MAX_COMPONENT_UNITS`` units, or more than ``limit`` pairs): (positions, True);
        the others in blocks of consecutive components holding at most about ``limit``
        pairs: (positions, False); and the number of units without a partner, in none."""
        lo, hi = self.bounds[:-1], self.bounds[1:]
        per = np.add.reduceat(self.count, lo) if len(lo) else np.zeros(0, np.int64)
        dense = ((hi - lo) > MAX_COMPONENT_UNITS) | (per > limit)
        small = np.flatnonzero(~dense & (per > 0))                # a lone unit has no pair
        block = (np.cumsum(per[small]) - per[small]) // max(limit, 1)  # by pairs before it
        cuts = np.flatnonzero(np.r_[True, block[1:] != block[:-1], True])
        out = [(_runs(lo[small[a:b]], hi[small[a:b]]), False)
               for a, b in zip(cuts[:-1], cuts[1:])]
        out += [(np.arange(lo[c], hi[c]), True) for c in np.flatnonzero(dense)]
        return out, int((hi - lo)[~dense & (per == 0)].sum())


def _runs(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The positions of the runs [lo, hi), concatenated."""
    length = hi - lo
    return np.repeat(lo - np.cumsum(length) + length, length) + np.arange(length.sum())


def _matched(u: _Units, match: str, n_ann: int, n_cat: int, report=None) -> np.ndarray:
    """m per pair × label: a maximum one-to-one matching of the matching units, by
    components of overlapping units (:class:`_Candidates`): small ones in blocks of at most
    about ``MAX_SPAN_PAIRS`` candidate pairs (one Hopcroft–Karp call each; Ctrl-C stops
    between them), a large or dense one alone by :func:`_dense_matching` (exact, no pairs
    held). O((n + pairs of the small components) log n). ``report(done, wanted)``:
    progress over the units."""
    out = np.zeros((n_ann * (n_ann - 1) // 2, n_cat))
    cand = _Candidates(u)
    blocks, done = cand.blocks(MAX_SPAN_PAIRS)
    for positions, dense in blocks:
        if dense:
            _dense_matching(u, match, cand.order[positions], n_ann, out)
        else:
            _block_matching(u, match, n_ann, cand, positions, out)
        done += len(positions)
        if report is not None:
            report(done, len(cand.order))
    return out


def _block_matching(u: _Units, match: str, n_ann: int, cand: _Candidates,
                    positions: np.ndarray, out: np.ndarray) -> None:
    """Add to ``out`` the maximum matching of the candidate pairs from ``positions``
    (Hopcroft–Karp, ``scipy.sparse.csgraph.maximum_bipartite_matching``)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching
    i, j = cand.pairs(positions)
    swap = u.ann[i] > u.ann[j]                                 # orient: annotator a < b
    i, j = np.where(swap, j, i), np.where(swap, i, j)
    same = (u.start[i] == u.start[j]) & (u.end[i] == u.end[j])
    if match == "exact":
        keep = same
    else:  # a shared stretch of positive length, or the same (zero-length) bounds
        keep = (np.maximum(u.start[i], u.start[j]) < np.minimum(u.end[i], u.end[j])) | same
    keep &= u.ann[i] != u.ann[j]
    i, j = i[keep], j[keep]
    if not len(i):
        return
    a, b = u.ann[i], u.ann[j]
    pair = a * n_ann - a * (a + 1) // 2 + (b - a - 1)          # index in triu_indices
    n = len(u.start)
    rows, row_id = np.unique(pair * n + i, return_inverse=True)  # node (pair, unit of a)
    cols, col_id = np.unique(pair * n + j, return_inverse=True)  # node (pair, unit of b)
    graph = csr_matrix((np.ones(len(i)), (row_id, col_id)), shape=(len(rows), len(cols)))
    partner = maximum_bipartite_matching(graph, perm_type="column")  # row → col or −1
    hit = partner >= 0
    unit = rows[hit] % n
    np.add.at(out, (rows[hit] // n, u.cat[unit]), 1)


def _dense_matching(u: _Units, match: str, units: np.ndarray, n_ann: int,
                    out: np.ndarray) -> None:
    """Add to ``out`` the maximum matching of each annotator pair's units of one
    component (``units``: one document and label), without their pairs: units with the same bounds
    (``match="exact"``: all; "overlap": the zero-length ones, which match nothing else)
    give Σ over bounds of the smaller count; under "overlap" the others are matched by
    :func:`_interval_matching`."""
    ann, start, end = u.ann[units], u.start[units], u.end[units]
    bounded = np.ones(len(units), bool) if match == "exact" else start == end
    kind = np.unique(np.column_stack([start, end]), axis=0, return_inverse=True)[1].ravel()
    cat = u.cat[units[0]]
    for a in range(n_ann):
        for b in range(a + 1, n_ann):
            pair = a * n_ann - a * (a + 1) // 2 + (b - a - 1)      # index in triu_indices
            on_a, on_b = ann == a, ann == b
            if not (on_a.any() and on_b.any()):
                continue
            same = np.minimum(np.bincount(kind[on_a & bounded], minlength=len(kind)),
                              np.bincount(kind[on_b & bounded], minlength=len(kind)))
            out[pair, cat] += same.sum()
            sa, sb = on_a & ~bounded, on_b & ~bounded
            out[pair, cat] += _interval_matching(start[sa], end[sa], start[sb], end[sb])


def _interval_matching(sa, ea, sb, eb) -> int:
    """The size of a maximum matching between intervals (sa, ea) and (sb, eb) of
    positive length, two matching when they share a stretch, max(start) < min(end):
    taking the interval x of least end among those left, matched to the interval of
    the other side of least end among those overlapping x, is optimal (exchange: any
    partner y' of x and x' of that y still overlap, since e_x ≤ e_x' and e_y ≤ e_y').
    O(n log n) with a heap; a Python loop over the units (Ctrl-C stops it)."""
    import heapq
    start = np.r_[sa, sb].tolist()
    end = np.r_[ea, eb].tolist()
    side = [0] * len(sa) + [1] * len(sb)
    by_start = [sorted(range(len(sa)), key=start.__getitem__),
                sorted(range(len(sa), len(start)), key=start.__getitem__)]
    at, heaps = [0, 0], [[], []]
    done = [False] * len(start)  # taken from the pool: processed or matched
    matched = 0
    for x in sorted(range(len(start)), key=end.__getitem__):
        if done[x]:
            continue
        done[x] = True
        o = 1 - side[x]
        order, heap = by_start[o], heaps[o]
        while at[o] < len(order) and start[order[at[o]]] < end[x]:  # started before x ends
            y = order[at[o]]
            heapq.heappush(heap, (end[y], y))
            at[o] += 1
        while heap and done[heap[0][1]]:
            heapq.heappop(heap)
        if heap:  # its end ≥ end[x] > start[x]: it overlaps x
            done[heapq.heappop(heap)[1]] = True
            matched += 1
    return matched


def _counts(u: _Units, pa: np.ndarray, pb: np.ndarray, n_cat: int):
    """n_a, n_b per pair × label over the documents both annotators of the pair
    annotated, and the units left out of a pair because its other annotator did not
    annotate their document, once per such pair."""
    n_docs, n_ann = u.annotated.shape
    cnt = np.bincount((u.doc * n_ann + u.ann) * n_cat + u.cat,
                      minlength=n_docs * n_ann * n_cat).reshape(n_docs, n_ann * n_cat)
    both = (u.annotated[:, pa] & u.annotated[:, pb]).astype(float)  # docs × pairs
    per = (both.T @ cnt).reshape(len(pa), n_ann, n_cat)      # Σ_d both_dp cnt_d,r,c
    n_a, n_b = per[np.arange(len(pa)), pa], per[np.arange(len(pa)), pb]
    total = cnt.sum(axis=0).reshape(n_ann, n_cat)
    left = int((total[pa] - n_a).sum() + (total[pb] - n_b).sum())
    reason = ("(unit, pair) entries: a unit left out of a pair because the pair's other "
              "annotator did not annotate its document")
    return n_a, n_b, ({reason: left} if left else {})


def _tables(u, pa, pb, n_a, n_b, matched, f1, pair_micro, pair_macro):
    """The tidy pairs × labels table and the per-pair summary (micro and macro F1)."""
    n_pairs, n_cat = matched.shape
    with np.errstate(invalid="ignore", divide="ignore"):
        precision, recall = matched / n_b, matched / n_a  # b against a as the reference
        pair_precision = matched.sum(1) / n_b.sum(1)
        pair_recall = matched.sum(1) / n_a.sum(1)
    first, second = u.annotators.take(pa), u.annotators.take(pb)
    pairs = pd.DataFrame({
        "annotator_a": np.repeat(first, n_cat), "annotator_b": np.repeat(second, n_cat),
        "label": np.tile(np.asarray(u.categories, dtype=object), n_pairs),
        "n_a": n_a.ravel(), "n_b": n_b.ravel(), "matched": matched.ravel(),
        "precision": precision.ravel(), "recall": recall.ravel(), "f1": f1.ravel()},
        columns=PAIR_COLUMNS)
    summary = pd.DataFrame({
        "annotator_a": first, "annotator_b": second, "n_a": n_a.sum(1), "n_b": n_b.sum(1),
        "matched": matched.sum(1), "precision": pair_precision, "recall": pair_recall,
        "micro_f1": pair_micro, "macro_f1": pair_macro})
    return pairs, summary
