"""ProjectExplorer on span data: the documents behind span disagreement.

``iaa.ProjectExplorer(spans)`` (a reader's Spans, a Continuum, a table of units) opens
this widget (:meth:`ProjectExplorer.__new__`). Its panels:

1. headline: span F1 (Hripcsak & Rothschild 2005; micro over annotator pairs and labels,
   :func:`~iaa_widgets.span_f1`), documents, annotators and units; γ is not computed for
   the whole project (it samples random continua per document: open one document in
   :class:`~iaa_widgets.GammaExplorer`);
2. pairs: span F1 of each annotator pair, from the same matching;
3. documents: :func:`~iaa_widgets.span_disagreements`, lowest F1 first, one page at a
   time (never more than ``page_size`` rows go to the browser);
4. document: a click on a document shows its units by annotator as GammaExplorer's lanes
   (:func:`~iaa_widgets.charts.gamma_continuum_chart`) and its text when given.

The panels of labels of items (annotator × annotator κ, leave-one-out, label confusion)
have no meaning here and are not shown. Every number comes from
:mod:`iaa_widgets.explore_spans` and :func:`~iaa_widgets.span_f1`; names, labels and
texts from the data travel as text and are shown as text.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import traitlets

from .. import charts, explore, validate
from ..continuum import Continuum
from ..errors import AgreementError
from ..explore_spans import disagreeing, span_documents
from ..measures.sets_spans.spans import MATCHES, span_f1
from ._base import IAAWidget, guarded
from ._json import json_safe
from .gamma import _named

__all__ = ["SpanExplorer"]


class SpanExplorer(IAAWidget):
    """The documents of a span project with unmatched or mismatched units, and each
    document's units by annotator. Made by ``iaa.ProjectExplorer(spans, text=...)``.

    ``spans``: a reader's Spans, a Continuum or a table of units (annotator, category,
    start, end, optionally item), as :func:`~iaa_widgets.span_f1` takes them. ``text``:
    each document's text, a Series or mapping document → text (or the name of a column of
    a table of units). ``match``: span F1's matching, "exact" or "overlap" (a control).
    ``page_size``: rows per page of the documents table.

    From Python: ``selection`` (every listed document, a DataFrame), ``documents`` (every
    document), :meth:`show` (a document's units, as a click does), ``result`` (the
    headline's span F1).
    """

    _kind = traitlets.Unicode("explorer").tag(sync=True)
    mode = traitlets.Unicode("spans", read_only=True).tag(sync=True)
    match = traitlets.Unicode("exact").tag(sync=True)
    matches = traitlets.List(read_only=True).tag(sync=True)
    page = traitlets.Int(0, help="the page of the documents table shown").tag(sync=True)
    page_size = traitlets.Int(25).tag(sync=True)
    document = traitlets.Int(-1, help="the document shown: its row in `documents` "
                             "(-1: none)").tag(sync=True)
    annotator_names = traitlets.List(read_only=True).tag(sync=True)
    headline = traitlets.Dict(read_only=True).tag(sync=True)
    pairs = traitlets.Dict(read_only=True).tag(sync=True)
    items_page = traitlets.Dict(read_only=True).tag(sync=True)
    document_panel = traitlets.Dict(read_only=True).tag(sync=True)

    def __init__(self, spans, text=None, *, match: str = "exact", page_size: int = 25,
                 **other):
        where = "ProjectExplorer"
        if other:  # ProjectExplorer's arguments for labels of items
            validate.fail(where, "arguments", "spans, text=, match= and page_size= for span "
                          "data (the headline is span F1; reference=, measure=, consensus= "
                          "and the resampling are for labels of items)", sorted(other))
        validate.choice(where, "match", match, MATCHES)
        validate.integer(where, "page_size", page_size, minimum=1, maximum=1000)
        self._text = explore.item_texts(spans, text, {})
        if isinstance(text, str):  # a column of the table of units
            spans = spans.drop(columns=[text])
        self._spans = spans
        super().__init__(page_size=page_size)
        self.set_trait("matches", list(MATCHES))
        with self.hold_sync():
            self.match = match
            self._compute()
            self.set_chart("continuum", charts.gamma_continuum_chart(
                _named("span_units"), _named("span_links"), _named("span_empty"),
                self.annotator_names))
            self.set_rows(span_units=[], span_links=[], span_empty=[])
            self._send_document()
        self.observe(self._on_match, "match")
        self.observe(self._on_page, ["page", "page_size"])
        self.observe(self._on_document, "document")

    # ------------------------------------------------------------ public
    @property
    def selection(self) -> pd.DataFrame:
        """Every listed document (not one page): :func:`~iaa_widgets.span_disagreements`."""
        return self._listed.copy()

    def show(self, item) -> pd.DataFrame:
        """Show document ``item`` as a click does; returns its units (the lanes' rows)."""
        at = np.flatnonzero(pd.Index(self.documents["item"]) == item)
        if not len(at):
            raise AgreementError(f"ProjectExplorer: no document {item!r}; the export holds "
                                 f"{self.documents['item'].tolist()[:5]!r} …")
        self.document = int(at[0])
        return self._units

    # ------------------------------------------------------------ internals
    def _compute(self) -> None:
        """The headline, pairs and documents for ``match``."""
        self.result = result = span_f1(self._spans, self.match, progress=False)
        self.documents = docs = span_documents(self._spans, self.match)
        self._listed = disagreeing(docs)
        self._rows = pd.Index(docs["item"]).get_indexer(self._listed["item"])
        names = docs.attrs["annotators"]
        self.set_trait("annotator_names", names)
        self.set_trait("headline", json_safe({
            "measure": "span_f1", "value": result.value, "macro": result.params["macro"],
            "match": self.match, "n_items": len(docs), "n_annotators": len(names),
            "n_units": int(docs["units"].sum()), "n_disagreements": len(self._listed),
            "note": result.note or ""}))
        s = result.params["pair_summary"]  # annotator, annotator, F1, matched, units
        pairs = pd.DataFrame({"a": s["annotator_a"].astype(str), "b": s["annotator_b"].astype(str),
                              "f1": s["micro_f1"], "matched": s["matched"].astype(np.int64),
                              "units": (s["n_a"] + s["n_b"]).astype(np.int64)})
        self.set_trait("pairs", json_safe({"rows": pairs.to_numpy(dtype=object).tolist()}))
        self._send_items()

    def _send_items(self) -> None:
        listed, size = self._listed, self.page_size
        pages = max(1, -(-len(listed) // size))
        page = min(max(0, self.page), pages - 1)
        shown = listed.iloc[page * size:(page + 1) * size]
        columns = [str(c) for c in shown.columns]
        cells = [[str(v) if c == "item" else (None if pd.isna(v) else v)
                  for c, v in zip(columns, row)] for row in shown.itertuples(index=False)]
        self.set_trait("items_page", json_safe({
            "total": len(listed), "page": page, "pages": pages, "offset": page * size,
            "columns": columns, "rows": cells,
            "codes": self._rows[page * size:(page + 1) * size]}))

    def _continuum(self, item) -> Continuum:
        """Document ``item``'s units as a Continuum."""
        s = self._spans
        if isinstance(s, Continuum):
            return s
        if isinstance(s, pd.DataFrame):
            units = s[s["item"] == item] if "item" in s.columns else s
            return Continuum.from_frame(units.drop(columns="item", errors="ignore"))
        return s[item]

    def _send_document(self) -> None:
        """The shown document's lanes (GammaExplorer's continuum chart; no alignment),
        its units per annotator and its text."""
        j = self.document
        if j < 0:
            self._units = None
            self.set_trait("document_panel", {})
            return
        if j >= len(self.documents):
            validate.fail("ProjectExplorer", "document", f"a row in 0 … "
                          f"{len(self.documents) - 1} of explorer.documents", j)
        row = {c: self.documents[c].iloc[j] for c in self.documents.columns}  # (no upcast)
        item = row["item"]
        c = self._continuum(item)
        self._units = units = charts.gamma_unit_rows(c)
        text = None if self._text is None else self._text.get(item)
        names = self.annotator_names
        self.set_rows(span_units=units, span_links=[], span_empty=[])
        self.set_trait("document_panel", json_safe({
            "item": str(item), "code": j, "f1": row["f1"], "unmatched": int(row["unmatched"]),
            "mismatched": int(row["mismatched"]),
            "counts": [[a, None if pd.isna(row[a]) else int(row[a])] for a in names],
            "text": None if text is None or pd.isna(text) else str(text)}))

    @guarded
    def _on_match(self, change) -> None:
        validate.choice("ProjectExplorer", "match", self.match, MATCHES)
        with self.hold_sync():
            self._compute()
            self._send_document()

    @guarded
    def _on_page(self, change) -> None:
        self._send_items()

    @guarded
    def _on_document(self, change) -> None:
        self._send_document()
