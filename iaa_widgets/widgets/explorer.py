"""ProjectExplorer: from an agreement number to the items, annotators and labels behind it.

Five panels share one selection (the ``query`` traitlet: annotator and label codes):

1. headline: the measure, its interval and benchmark band (Gwet 2014, ch. 6), and the
   items, annotators, ratings and coverage;
2. annotator × annotator matrix of a pairwise measure, the shared items in each cell and
   the bootstrap interval on hover, ordered so that similar annotators sit together;
3. annotators: leave-one-out Δ with its paired bootstrap interval, agreement with the
   consensus (the majority of the others, or an annotator model: the consensus control),
   label usage against the pooled shares (and accuracy, κ, F1 against ``reference=``);
4. labels: the label × label confusion matrix of rating pairs with each label's specific
   agreement; with one annotator selected, their labels against the consensus;
5. items: the selected items, lowest agreement first, one page at a time (never more
   than ``page_size`` rows go to the browser), with each annotator's label, the text
   and the consensus.

A click on a matrix cell, a confusion cell, an annotator or a label sets ``query``;
Python answers with the first page of :func:`~iaa_widgets.disagreements` for it.
The panels open with their values; the bootstrap intervals (leave-one-out Δ, the pairs,
and the headline's when the measure has no standard error) follow from a worker thread,
a newer measure making an older run's intervals stale (:meth:`ProjectExplorer.wait`).
Every number comes from :mod:`iaa_widgets.explore` and the measures; the widget only
arranges them. Labels from the data travel as text and are shown as text.
"""
from __future__ import annotations

import re
import threading
from importlib import import_module
from typing import Any

import numpy as np
import pandas as pd
import traitlets

from .. import explore, validate
from ..data import as_annotations
from ..errors import AgreementError
from ..inference.bootstrap import bootstrap
from ..inference.leave_one_out import leave_one_out
from ..measures import _registry
from ..measures.categorical.pairwise import KERNELS, pairwise
from ._base import IAAWidget, guarded
from ._json import json_safe

# the matrix's similarity order (explore.similarity_order) clusters with scipy: loaded with
# the widget, once per process (1.2 s under load, measured), rather than on first opening
import_module("scipy.cluster.hierarchy")

__all__ = ["ProjectExplorer", "MEASURES"]

# the headline's and leave-one-out's measures, from the registry: the report's coefficients
# of categorical labels by many annotators that have a Statistic (paired bootstrap)
MEASURES = tuple(m.name for m in _registry.measures(report=True, data="categorical",
                                                     annotators="many") if m.statistic)


class ProjectExplorer(IAAWidget):
    """Explore an annotation project: who disagrees with whom, on which labels and items.

    ``data``: categorical ratings (:class:`~iaa_widgets.Annotations` or a tidy table).
    ``text``: each item's text, as the name of a column of the tidy table (one text per
    item) or a Series / mapping item → text. ``reference``: the name of a gold annotator
    (or a model's predictions added as one): every annotator also gets accuracy, κ and
    F1 against it. ``measure``: the headline's measure, one of :data:`MEASURES`;
    ``pair_measure``: the matrix's, one of ``pairwise``'s. ``consensus``: "majority"
    (each annotator against the majority vote of the others), "dawid_skene", "mace", or a
    fitted model's result (``iaa.dawid_skene(data)``; then "given" in the consensus
    control, beside the three others). ``n_resamples`` and ``seed``: the bootstrap of the
    intervals. ``page_size``: rows per page of the items table. Span data (Spans, a
    Continuum, a table of units) open the span explorer instead
    (:class:`~iaa_widgets.widgets.span_explorer.SpanExplorer`: ``text=``, ``match=``,
    ``page_size=``), which lists the documents with unmatched or mismatched units.

    From Python: ``explorer.selection`` (every selected item, a DataFrame),
    :meth:`select`, :meth:`export_csv`, :meth:`export_adjudication`; ``leave_one_out``,
    ``profile`` and ``pairs`` hold the panels' tables (``leave_one_out`` once the worker
    has made it: :meth:`wait`).
    """

    _kind = traitlets.Unicode("explorer").tag(sync=True)
    measure = traitlets.Unicode("fleiss_kappa").tag(sync=True)
    pair_measure = traitlets.Unicode("cohen_kappa").tag(sync=True)
    query = traitlets.Dict(help="the selection: {'annotators': [codes], 'labels': [codes]} "
                           "(positions in annotator_names and label_names)").tag(sync=True)
    page = traitlets.Int(0, help="the page of the items table shown").tag(sync=True)
    page_size = traitlets.Int(25).tag(sync=True)
    consensus = traitlets.Unicode("majority", help="the consensus: one of "
                                  "consensus_options ('given': the one passed in)").tag(sync=True)
    consensus_options = traitlets.List(read_only=True).tag(sync=True)
    annotator_names = traitlets.List(read_only=True).tag(sync=True)
    label_names = traitlets.List(read_only=True).tag(sync=True)
    measures = traitlets.List(read_only=True).tag(sync=True)
    pair_measures = traitlets.List(read_only=True).tag(sync=True)
    headline = traitlets.Dict(read_only=True).tag(sync=True)
    matrix = traitlets.Dict(read_only=True).tag(sync=True)
    annotators_panel = traitlets.Dict(read_only=True).tag(sync=True)
    labels_panel = traitlets.Dict(read_only=True).tag(sync=True)
    items_page = traitlets.Dict(read_only=True).tag(sync=True)
    intervals = traitlets.Unicode("computing", help="'computing' while the bootstrap "
                                  "intervals are made, then 'ready' or 'failed'").tag(sync=True)

    def __new__(cls, data=None, *args, **kwargs):
        """Span data (a reader's Spans, a Continuum, a table of units) open the span
        explorer (:class:`~iaa_widgets.widgets.span_explorer.SpanExplorer`)."""
        from ..explore_spans import is_spans
        if cls is ProjectExplorer and is_spans(data):
            from .span_explorer import SpanExplorer
            return SpanExplorer(data, *args, **kwargs)
        return super().__new__(cls, data, *args, **kwargs)

    def __init__(self, data, text=None, reference=None, measure: str = "fleiss_kappa", *,
                 pair_measure: str = "cohen_kappa", consensus="majority",
                 n_resamples: int = 200, seed=0, page_size: int = 25, **loader_args):
        where = "ProjectExplorer"
        validate.choice(where, "measure", measure, MEASURES)
        validate.choice(where, "pair_measure", pair_measure, tuple(KERNELS))
        self._n_resamples = validate.integer(where, "n_resamples", n_resamples, minimum=2)
        validate.seed(where, "seed", seed)
        validate.integer(where, "page_size", page_size, minimum=1, maximum=1000)
        self._seed = seed
        self._text = explore.item_texts(data, text, loader_args)
        if isinstance(text, str):
            data = data.drop(columns=[text])
        ann = as_annotations(data, **loader_args)
        self._project = explore.Project(ann, consensus)
        ann = self._project.ann
        if ann.n_annotators < 2:
            raise AgreementError(f"ProjectExplorer needs at least 2 annotators, the data "
                                 f"have {ann.n_annotators}")
        self._reference = reference
        given = not isinstance(consensus, str)  # a model's result, function or a Series
        self._given = consensus if given else None
        self._consensus_tables()
        self._usage = explore.label_usage(ann)
        self._confusion = explore.label_confusion(self._project)
        self._rows = None
        self._lock = threading.Lock()
        self._generation = 0
        self._worker: threading.Thread | None = None
        super().__init__(page_size=page_size)
        self.set_trait("annotator_names", [str(a) for a in ann.annotators])
        self.set_trait("label_names", [str(c) for c in ann.categories])
        self.set_trait("measures", list(MEASURES))
        self.set_trait("pair_measures", list(KERNELS))
        self.set_trait("consensus_options", list(explore.CONSENSUS) + (["given"] if given else []))
        with self.hold_sync():
            self.measure, self.pair_measure = measure, pair_measure
            self.consensus = "given" if given else consensus
            self._send_measure()
            self._send_matrix()
            self._send_labels()
            self._send_items()
        self._start_intervals()
        self.observe(self._on_measure, "measure")
        self.observe(self._on_pair_measure, "pair_measure")
        self.observe(self._on_query, "query")
        self.observe(self._on_consensus, "consensus")
        self.observe(self._on_page, ["page", "page_size"])
        self.on_msg(self._on_message)

    # ------------------------------------------------------------ public
    @property
    def selection(self) -> pd.DataFrame:
        """Every item of the current selection (not one page): the columns of
        :func:`~iaa_widgets.disagreements`, with ``text`` after ``item`` when given."""
        return self._frame(self._selected())

    def select(self, annotators=None, labels=None) -> pd.DataFrame:
        """Narrow the items as a click would (see :func:`~iaa_widgets.disagreements` for
        ``annotators=`` and ``labels=``, given by name) and return the selection."""
        p = self._project
        self.query = {"annotators": p.annotator_codes(annotators),
                      "labels": p.label_codes(labels)}
        return self.selection

    def export_csv(self, path=None):
        """The selection as CSV (to ``path``, or returned as a string)."""
        csv = self.selection.to_csv(index=False, lineterminator="\r\n")
        if path is None:
            return csv
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(csv)
        return None

    def export_adjudication(self, path=None):
        """The selection as an adjudication sheet (item, text, each label, consensus and an
        empty ``adjudicated`` column; :func:`~iaa_widgets.write_adjudication`), to ``path``
        or returned as a string; read the decisions back with
        :func:`~iaa_widgets.read_adjudication`."""
        from ..io.adjudication import write_adjudication
        return write_adjudication(self._frame(self._selected(), text=False), path,
                                  text=self._text)

    def wait(self, timeout: float | None = None) -> None:
        """Block until the bootstrap intervals of the current measures are shown."""
        worker = self._worker
        if worker is not None:
            worker.join(timeout)
            if worker.is_alive():
                raise TimeoutError(f"intervals not computed within {timeout} s")
        if self.intervals == "failed":
            raise AgreementError(self.error)

    # ------------------------------------------------------------ internals
    def _selected(self) -> np.ndarray:
        if self._rows is None:
            p = self._project
            q = self.query or {}
            a = _codes(q.get("annotators", []), p.ann.n_annotators, "annotators", 2)
            k = _codes(q.get("labels", []), p.ann.n_categories, "labels", 2)
            self._rows = p.rows(p.mask(a, k))
        return self._rows

    def _frame(self, rows, text: bool = True) -> pd.DataFrame:
        out = self._project.frame(rows)
        if text and self._text is not None:
            out.insert(1, "text", self._text.reindex(out["item"]).to_numpy())
        return out

    def _consensus_tables(self) -> None:
        """The annotators' profile and label × consensus cube for the project's consensus."""
        self.profile = explore.annotator_profile(self._project, self._reference)
        self._cube = explore.confusion_cube(self._project)

    def _measure(self):
        """The headline measure's function and keyword arguments: every rating counts,
        under Gwet's available-case rule where the measure has it (α's default, pairable
        values, already does)."""
        measure = _registry.get(self.measure)
        kwargs = {"missing": "available"} if "available" in measure.missing else {}
        return measure.function, kwargs

    def _send_measure(self) -> None:
        """Headline and annotators panel for ``measure`` (the values; the measure's own
        interval where it has one, else the bootstrap's, and leave-one-out with its intervals
        follow from the worker)."""
        ann = self._project.ann
        fn, kwargs = self._measure()
        self._result = result = fn(ann, **kwargs)
        ci = getattr(result, "ci", None)
        se = getattr(result, "se", None)
        # the measure's own interval kind ("Wald", "Student-t (379 df)" …); the panel says 95 %
        method = re.sub(r"\s*\d+(\.\d+)?\s*%", "", getattr(result, "ci_method", "") or "")
        self._send_headline(ci, se, method if ci is not None else "")
        self.leave_one_out = None  # with its intervals, from the worker
        self._send_annotators()

    def _send_headline(self, ci, se, method: str) -> None:
        from ..measures.benchmarking import benchmark
        ann, result = self._project.ann, self._result
        band = None
        if se is not None and np.isfinite(se):
            try:
                band = benchmark(result, se=se).band
            except AgreementError:
                band = None
        n_cells = ann.n_items * ann.n_annotators
        low, high = (None, None) if ci is None else ci
        self.set_trait("headline", json_safe({
            "measure": self.measure, "value": result.value, "ci_low": low, "ci_high": high,
            "ci_method": method, "band": band or "", "scale": "Landis & Koch",
            "n_items": ann.n_items, "n_annotators": ann.n_annotators,
            "n_ratings": ann.n_ratings, "coverage": ann.n_ratings / max(n_cells, 1),
            "n_disagreements": int(np.count_nonzero(self._project.n_labels >= 2)),
            "note": getattr(result, "note", "") or ""}))

    def _start_intervals(self) -> None:
        """Compute the bootstrap intervals of the current measures in a worker thread;
        a later call makes this run's results stale (they are dropped)."""
        with self._lock:
            self._generation += 1
            gen = self._generation
        self.intervals = "computing"
        ann, (fn, kwargs) = self._project.ann, self._measure()
        measure, pair_measure, result = self.measure, self.pair_measure, self._result

        def run():
            try:
                out = {}
                if getattr(result, "ci", None) is None or getattr(result, "se", None) is None:
                    out["boot"] = bootstrap(ann, fn, n_resamples=self._n_resamples,
                                            seed=self._seed, **kwargs)
                if ann.n_annotators >= 3:
                    out["loo"] = leave_one_out(ann, fn, n_resamples=self._n_resamples,
                                               seed=self._seed, **kwargs)
                out["pairs"] = pairwise(ann, pair_measure, ci="percentile",
                                        n_resamples=self._n_resamples, seed=self._seed,
                                        **self._pair_kwargs())
            except Exception as exc:  # shown in the widget, as guarded() does
                with self._lock:
                    if gen == self._generation:
                        self.error = f"{type(exc).__name__}: {exc}"
                        self.intervals = "failed"
                return
            with self._lock:
                if gen != self._generation or (measure, pair_measure) != (
                        self.measure, self.pair_measure):
                    return
                with self.hold_sync():
                    if "boot" in out:
                        b = out["boot"]
                        se = getattr(result, "se", None)
                        self._send_headline(getattr(result, "ci", None) or b.ci,
                                            se if se is not None else b.se,
                                            f"bootstrap percentile, {self._n_resamples} "
                                            "resamples")
                    if "loo" in out:
                        self.leave_one_out = out["loo"]
                        self._send_annotators()
                    self._send_pairs(out["pairs"])
                    self.intervals = "ready"
        self._worker = threading.Thread(target=run, name="ProjectExplorer", daemon=True)
        self._worker.start()

    def _send_annotators(self) -> None:
        prof, loo, usage = self.profile, self.leave_one_out, self._usage
        rows = []
        for j, name in enumerate(self._project.ann.annotators):
            row = {"code": j, "n_ratings": prof["n_ratings"].iloc[j],
                   "consensus_agreement": prof["consensus_agreement"].iloc[j],
                   "consensus_kappa": prof["consensus_kappa"].iloc[j],
                   "usage": usage.iloc[j].to_numpy()}
            if loo is not None:
                row.update(value=loo["value"].iloc[j], delta=loo["delta"].iloc[j],
                           delta_low=loo["ci_low"].iloc[j], delta_high=loo["ci_high"].iloc[j])
            else:
                row.update(value=None, delta=None, delta_low=None, delta_high=None)
            if self._reference is not None:
                row.update(accuracy=prof["accuracy"].iloc[j], kappa=prof["kappa"].iloc[j],
                           f1=prof["f1"].iloc[j])
            rows.append(row)
        self.set_trait("annotators_panel", json_safe({
            "rows": rows, "pooled": usage.attrs["pooled"],
            "has_loo": self._project.ann.n_annotators >= 3, "loo_ready": loo is not None,
            "reference": "" if self._reference is None else str(self._reference),
            "consensus": self.consensus, "measure": self.measure}))

    def _pair_kwargs(self) -> dict:
        if self.pair_measure == "krippendorff_alpha":
            return {"metric": "ordinal" if self._project.ann.ordered else "nominal"}
        return {}

    def _send_matrix(self) -> None:
        """The pairs' values now, from the project's pair tables (their intervals, which
        resample items, follow from the worker)."""
        tables = self._project.statistics()
        self._send_pairs(pairwise(self._project.ann if tables is None else tables,
                                  self.pair_measure, **self._pair_kwargs()))

    def _send_pairs(self, m) -> None:
        ann = self._project.ann
        self.pairs = m
        codes = ann.annotators.get_indexer(explore.similarity_order(m))
        take = np.ix_(codes, codes)
        nan = np.full(m.shape, np.nan)
        self.set_trait("matrix", json_safe({
            "measure": m.attrs["measure"], "order": codes,
            "values": m.to_numpy()[take], "n_items": np.asarray(m.attrs["n_items"])[take],
            "ci_low": np.asarray(m.attrs.get("ci_low", nan), float)[take],
            "ci_high": np.asarray(m.attrs.get("ci_high", nan), float)[take],
            "ci_method": m.attrs.get("ci_method", "")}))

    def _send_labels(self) -> None:
        """The labels panel: the pooled confusion matrix, or with one annotator in the
        query their labels against the consensus of the others."""
        q = self.query or {}
        who = q.get("annotators", [])
        conf = self._confusion
        payload = {"agreement": conf.attrs["agreement"], "pooled": self._usage.attrs["pooled"]}
        if len(who) == 1:
            payload.update(kind="annotator", annotator=int(who[0]),
                           counts=self._cube[int(who[0])], consensus=self.consensus)
        else:
            payload.update(kind="pooled", counts=conf.to_numpy())
        self.set_trait("labels_panel", json_safe(payload))

    def _send_items(self) -> None:
        rows = self._selected()
        size = self.page_size
        pages = max(1, -(-len(rows) // size))
        page = min(max(0, self.page), pages - 1)
        shown = self._frame(rows[page * size:(page + 1) * size])
        names = list(self._project.ann.annotators)
        picked = [names[c] for c in (self.query or {}).get("annotators", [])]
        lead = [c for c in shown.columns if c in ("item", "text", "agreement", "n_ratings")]
        shown = shown[lead + picked + ["consensus"] +  # the clicked annotators first
                      [c for c in names if c not in picked]]
        columns = [shown[c].tolist() if c in ("agreement", "n_ratings") else
                   ["" if pd.isna(v) else str(v) for v in shown[c].astype(object)]
                   for c in shown.columns]  # labels and texts as text
        cells = [list(row) for row in zip(*columns)]
        self.set_trait("items_page", json_safe({
            "total": len(rows), "page": page, "pages": pages, "offset": page * size,
            "columns": [str(c) for c in shown.columns], "rows": cells,
            "query": self.query or {}}))

    @guarded
    def _on_measure(self, change) -> None:
        validate.choice("ProjectExplorer", "measure", self.measure, MEASURES)
        self._send_measure()
        self._start_intervals()

    @guarded
    def _on_pair_measure(self, change) -> None:
        validate.choice("ProjectExplorer", "pair_measure", self.pair_measure, tuple(KERNELS))
        self._send_matrix()
        self._start_intervals()

    @guarded
    def _on_query(self, change) -> None:
        self._rows = None
        self._selected()  # validates the query
        with self.hold_sync():
            self._send_labels()
            if self.page:
                self.page = 0  # → _on_page sends the first page
            else:
                self._send_items()

    @guarded
    def _on_consensus(self, change) -> None:
        """Another consensus: the items' consensus column, the annotators' agreement with
        it and their confusion against it follow (the selection stays)."""
        options = self.consensus_options
        validate.choice("ProjectExplorer", "consensus", self.consensus, tuple(options))
        self._project.set_consensus(self._given if self.consensus == "given" else self.consensus)
        self._rows = None
        self._consensus_tables()
        with self.hold_sync():
            self._send_annotators()
            self._send_labels()
            self._send_items()

    @guarded
    def _on_page(self, change) -> None:
        self._send_items()

    @guarded
    def _on_message(self, widget, content: Any, buffers) -> None:
        """The page asks for a download: the whole selection as CSV or as an
        adjudication sheet, sent back as one message (not as rows of the table)."""
        kind = content.get("export") if isinstance(content, dict) else None
        if kind not in ("csv", "adjudication"):
            return
        text = self.export_csv() if kind == "csv" else self.export_adjudication()
        name = "selection.csv" if kind == "csv" else "adjudication.csv"
        self.send({"download": name, "content": text})


def _codes(values, n: int, what: str, most: int) -> list[int]:
    """Codes of the query, each in 0 … n − 1, at most ``most`` of them."""
    if not isinstance(values, list) or len(values) > most or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n for v in values):
        validate.fail("ProjectExplorer", f"query[{what!r}]", f"a list of at most {most} "
                      f"positions in 0 … {n - 1}", values)
    return values
