"""The explorer's API for span data: which documents hold the disagreements.

For each document d and each pair of annotators (a, b) who both annotated it, with n_a
and n_b their units there, span F1's matching (:mod:`~iaa_widgets.measures.sets_spans.spans`:
a maximum one-to-one matching, ``match="exact"`` or ``"overlap"``) is run twice:

- m, units matched with the same label (span F1's own m);
- m_any, units matched whatever their labels.

Then, summed over the pairs of the document:

- ``f1`` = 2 Σ m / Σ (n_a + n_b), span F1 of the document alone (micro over its pairs
  and labels, as :func:`~iaa_widgets.span_f1`'s value);
- ``unmatched`` = Σ (n_a + n_b − 2 m_any): (unit, pair) entries with no partner at any
  label (a unit unmatched against two annotators counts twice);
- ``mismatched`` = Σ (m_any − m): pairs that match in position only when labels are
  ignored, i.e. the same stretch given different categories.

Both matchings are span F1's own (:func:`_matched`), counted per document by giving it
the document as the category it counts by; no second matcher.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from . import validate
from .errors import AgreementError
from .stats.tables import check_size
from .measures.sets_spans.spans import _matched, _units, _Units

__all__ = ["span_documents", "span_disagreements", "disagreeing", "is_spans"]

# the columns of a documents table besides one column per annotator
FIXED_COLUMNS = ("item", "f1", "units", "unmatched", "mismatched", "n_annotators")


def is_spans(data) -> bool:
    """Span data: a reader's Spans, a Continuum, a dict of Continua, or a table of units
    with start and end."""
    from .continuum import Continuum
    return isinstance(data, Continuum) or type(data).__name__ == "Spans" or (
        isinstance(data, dict) and any(isinstance(v, Continuum) for v in data.values())) or (
        isinstance(data, pd.DataFrame) and {"start", "end"} <= set(data.columns))


def _by_document(u: _Units, match: str, labels: bool) -> np.ndarray:
    """pairs × documents: span F1's maximum matching m (``labels``: within each label;
    else whatever the labels), counted per document. :func:`_matched` matches within
    groups of (document, category) and counts by category: here the group's
    "document" is the label (or one group) and its "category" the document."""
    n_ann, n_docs = len(u.annotators), u.n_docs
    group = u.cat if labels else np.zeros_like(u.doc)
    n_groups = int(group.max(initial=0)) + 1
    v = _Units(group, u.ann, u.doc, u.start, u.end, np.ones((n_groups, n_ann), bool),
               u.annotators, pd.RangeIndex(n_docs))
    return _matched(v, match, n_ann, n_docs)


@validate.takes()  # a misspelt keyword is refused, never its default
def span_documents(spans, match: str = "exact", *, annotators=None) -> pd.DataFrame:
    """One row per document, in the export's order: ``item``, ``f1`` (span F1 of the
    document, NaN without units or pairs), ``units`` (every unit of the document),
    ``unmatched``, ``mismatched`` (see the module), ``n_annotators`` (who annotated
    it) and one column per annotator: their number of units (NA where they did not
    annotate the document). ``spans``: the Spans of a reader, a Continuum (one
    document) or a table of units (as :func:`~iaa_widgets.span_f1` takes them);
    ``annotators=``: only these."""
    from .measures.sets_spans.spans import MATCHES
    validate.choice("span_disagreements", "match", match, MATCHES)
    u = _units(spans, annotators)
    names = [str(a) for a in u.annotators]
    clash = [a for a in names if a in FIXED_COLUMNS]
    if clash:
        raise AgreementError(f"span_disagreements: annotator(s) {clash!r} share a name with "
                             f"the columns {list(FIXED_COLUMNS)!r}; rename them")
    n_docs, n_ann = u.annotated.shape
    # the matchings count per pair × document: refused by size, never a MemoryError
    check_size((n_docs, n_ann * (n_ann - 1) // 2), "documents × annotator pairs",
               advice=f"{n_docs:,} documents by {n_ann:,} annotators are too many pairs to "
                      "match per document; pass fewer annotators with annotators=, or list "
                      "the documents in batches (a subset of documents each)")
    pa, pb = np.triu_indices(n_ann, k=1)
    count = np.bincount(u.doc * n_ann + u.ann, minlength=n_docs * n_ann).reshape(n_docs, n_ann)
    both = u.annotated[:, pa] & u.annotated[:, pb]                  # docs × pairs
    n_ab = ((count[:, pa] + count[:, pb]) * both).sum(axis=1)       # Σ_pairs n_a + n_b
    m = _by_document(u, match, labels=True).sum(axis=0)             # Σ_pairs m
    m_any = _by_document(u, match, labels=False).sum(axis=0)        # Σ_pairs m_any
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = 2 * m / n_ab                                           # F1 = 2m / (n_a + n_b)
    docs = _document_names(spans, u)
    out = {"item": docs, "f1": f1, "units": count.sum(axis=1),
           "unmatched": (n_ab - 2 * m_any).astype(np.int64),
           "mismatched": (m_any - m).astype(np.int64),
           "n_annotators": u.annotated.sum(axis=1)}
    for j, name in enumerate(names):
        out[name] = pd.array(count[:, j], dtype="Int64")
        out[name][~u.annotated[:, j]] = pd.NA                       # did not annotate it
    frame = pd.DataFrame(out)
    frame.attrs.update(match=match, annotators=names)
    return frame


def _document_names(spans, u: _Units):
    """The documents of ``u`` as :func:`_units` found them: those a reader's Spans
    records for the annotators kept, the items of a table of units, 0 for a Continuum."""
    if hasattr(spans, "annotated"):
        who = spans.annotated
        return pd.unique(who.loc[who["annotator"].isin(u.annotators), "item"])
    if isinstance(spans, pd.DataFrame) and "item" in spans.columns:
        return pd.unique(spans["item"])
    return np.arange(u.n_docs)


@validate.takes()  # a misspelt keyword is refused, never its default
def span_disagreements(spans, match: str = "exact", *, annotators=None) -> pd.DataFrame:
    r"""The documents on which annotators' spans disagree, lowest span F1 first.

    For each document, span F1's maximum one-to-one matching is run between every pair of
    annotators who annotated it, once within each label and once whatever the labels: a
    unit with no partner at any label is *unmatched*, a pair matched only when labels are
    ignored is *mismatched* (the same stretch given different categories). The documents
    with either are listed, the worst first: the explorer's API for span data.

    Parameters
    ----------
    spans : Spans, Continuum, or pandas.DataFrame
        The Spans of a reader, a Continuum (one document) or a table of units (``item``,
        ``annotator``, ``category``, ``start``, ``end``), as `span_f1` takes them.
    match : {"exact", "overlap"}, default "exact"
        When two units match: same start and end, or any overlap (span F1's rules).
    annotators : sequence, optional
        Keep only these annotators. None: every annotator.

    Returns
    -------
    pandas.DataFrame
        One row per document with ``unmatched + mismatched > 0``, lowest ``f1`` first
        (then the most unmatched and mismatched): ``item``, ``f1`` (span F1 of the document
        alone, NaN without units or pairs), ``units``, ``unmatched``, ``mismatched``,
        ``n_annotators`` and one column per annotator, their number of units (NA where they
        did not annotate the document). ``attrs["n_items"]`` counts every document,
        ``attrs["match"]`` and ``attrs["annotators"]`` say how it was made.

    Raises
    ------
    AgreementError
        When ``match`` is not an accepted value or a keyword is misspelt; when the units
        are not span data (as `span_f1` refuses them); when an annotator is named like one
        of the fixed columns; when there are too many documents × annotator pairs to match.

    See Also
    --------
    iaa_widgets.span_f1 : The agreement these documents lower.
    iaa_widgets.disagreements : The same list for categorical ratings.
    iaa_widgets.read_brat : Reads Spans from brat folders.

    Notes
    -----
    With $n_a$, $n_b$ the units of annotators a and b in the document, $m$ their matches
    with the same label and $m_{any}$ their matches whatever the labels, summed over the
    pairs of the document:

    $$
    F_1 = \frac{2 \sum m}{\sum (n_a + n_b)}, \quad
    \text{unmatched} = \sum (n_a + n_b - 2 m_{any}), \quad
    \text{mismatched} = \sum (m_{any} - m).
    $$

    A unit unmatched against two annotators counts twice.

    Examples
    --------
    >>> units = pd.DataFrame({
    ...     "item": ["d1", "d1", "d1", "d2", "d2", "d2"],
    ...     "annotator": ["A", "A", "B", "A", "B", "B"],
    ...     "category": ["PER", "LOC", "PER", "ORG", "ORG", "LOC"],
    ...     "start": [0, 10, 0, 5, 5, 20], "end": [4, 14, 4, 9, 9, 25]})
    >>> table = iaa.span_disagreements(units)
    >>> table[["item", "f1", "unmatched", "mismatched"]].round(4).values.tolist()
    [['d1', 0.6667, 1, 0], ['d2', 0.6667, 1, 0]]
    """
    return disagreeing(span_documents(spans, match, annotators=annotators))


def disagreeing(docs: pd.DataFrame) -> pd.DataFrame:
    """The rows of a :func:`span_documents` table with ``unmatched + mismatched > 0``,
    lowest ``f1`` first (then the most unmatched and mismatched, then the export's
    order). ``attrs["n_items"]``: every document."""
    off = (docs["unmatched"] + docs["mismatched"]).to_numpy()
    keep = np.flatnonzero(off > 0)
    f1 = docs["f1"].to_numpy(dtype=float)[keep]
    order = keep[np.lexsort((keep, -off[keep], np.where(np.isnan(f1), np.inf, f1)))]
    out = docs.iloc[order].reset_index(drop=True)
    out.attrs.update(docs.attrs, n_items=len(docs))
    return out
