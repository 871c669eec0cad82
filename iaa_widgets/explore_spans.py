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
    """The documents with unmatched or mismatched units, lowest span F1 first:
    :func:`disagreeing` of :func:`span_documents` (its columns)."""
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
