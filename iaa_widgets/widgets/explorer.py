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
5. items: the selected items, lowest agreement first or sorted by any column (the whole
   selection, in Python), one page at a time (never more than ``page_size`` rows go to the
   browser), with each annotator's label, the text and the consensus; a jump to an item id
   opens its page.

A click on a matrix cell, a confusion cell, an annotator or a label sets ``query``;
Python answers with the first page of :func:`~iaa_widgets.disagreements` for it.
The panels open with their values; the bootstrap intervals (leave-one-out Δ, the pairs,
and the headline's when the measure has no standard error) follow from a worker thread,
a newer measure making an older run's intervals stale (:meth:`ProjectExplorer.wait`).
When no item's ratings differ there is nothing to resample: no interval is computed and
the page says so. With no data to compare (an empty table, one annotator) the widget
shows a message instead of the panels (``message``).
Every number comes from :mod:`iaa_widgets.explore` and the measures; the widget only
arranges them. Labels from the data travel as text and are shown as text.
"""
from __future__ import annotations

import inspect
import re
import threading
import time
from pathlib import Path
from importlib import import_module
from typing import Any

import numpy as np
import pandas as pd
import traitlets

from .. import explore, validate
from ..data import Annotations, as_annotations
from ..errors import AgreementError
from ..inference.bootstrap import bootstrap
from ..inference.compare import compare
from ..inference.sample_size import items_for_half_width
from ..inference.leave_one_out import leave_one_out
from ..measures import _registry
from ..measures.categorical.pairwise import KERNELS, pairwise
from ._base import IAAWidget, guarded
from ._json import json_safe
from .explorer_export import explorer_data, selection_csv

# the matrix's similarity order (explore.similarity_order) clusters with scipy: loaded with
# the widget, once per process (1.2 s under load, measured), rather than on first opening
import_module("scipy.cluster.hierarchy")

__all__ = ["ProjectExplorer", "MEASURES"]

# the headline's and leave-one-out's measures, from the registry: the report's coefficients
# of categorical labels by many annotators that have a Statistic (paired bootstrap)
MEASURES = tuple(m.name for m in _registry.measures(report=True, data="categorical",
                                                     annotators="many") if m.statistic)
# the headline's decision figures: q(0.8), the share of replicates below Krippendorff's
# threshold for drawing conclusions (Content Analysis, 2004), and the items for ±0.05
ALPHA_MIN, HALF_WIDTH = 0.8, 0.05


class ProjectExplorer(IAAWidget):
    r"""Explore an annotation project: who disagrees with whom, on which labels and items.

    ``data``: categorical ratings (:class:`~iaa_widgets.Annotations` or a tidy table).
    ``text``: each item's text, as the name of a column of the tidy table (one text per
    item) or a Series / mapping item → text. ``reference``: the name of a gold annotator
    (or a model's predictions added as one): every annotator also gets accuracy, κ and
    F1 against it. ``measure``: the headline's measure, one of :data:`MEASURES`;
    ``pair_measure``: the matrix's, one of ``pairwise``'s. ``consensus``: "majority"
    (each annotator against the majority vote of the others), "dawid_skene", "mace", or a
    fitted model's result (``iaa.dawid_skene(data)``; then "given" in the consensus
    control, beside the three others). ``n_resamples`` and ``seed``: the bootstrap of the
    intervals. ``page_size``: rows per page of the items table. ``relevant_delta``: the
    smallest change of the measure taken as relevant; an annotator gets a verdict ("drags
    agreement down", "lifts agreement") only when the whole interval of their leave-one-out
    Δ lies beyond ±relevant_delta, and the panel states the threshold. Span data (Spans, a
    Continuum, a table of units) open the span explorer instead
    (:class:`~iaa_widgets.widgets.span_explorer.SpanExplorer`: ``text=``, ``match=``,
    ``page_size=``), which lists the documents with unmatched or mismatched units.
    ``group``: a column of the tidy table (one group per item: a round, batch or domain) or
    a Series item → group; a panel then compares the headline measure across the groups
    (:func:`~iaa_widgets.compare` with ``by=``: each group's value and interval, Fleiss'
    (1981) homogeneity χ²), ``groups_panel`` from Python.

    With an empty table or one annotator there is nothing to compare: the widget shows
    that as a message (``message``) instead of raising.

    From Python: ``explorer.selection`` (every selected item, a DataFrame, in the table's
    order: ``sort_by``, ``sort_descending``), :meth:`select`, :meth:`jump`,
    :meth:`export_csv`, :meth:`export_adjudication` (a download from the page larger than
    ``download_limit`` bytes is written by Python to the working directory); ``leave_one_out``,
    ``profile`` and ``pairs`` hold the panels' tables (``leave_one_out`` once the worker
    has made it: :meth:`wait`).

    Parameters
    ----------
    data : Annotations or tidy DataFrame (item, annotator, label)
        Categorical ratings; span data open the span explorer instead.
    text : str, pandas.Series or mapping, optional
        Each item's text: a column of the tidy table, or item → text.
    reference : str, optional
        A gold annotator (or a model added as one): accuracy, κ and F1 against it.
    measure : str, default "fleiss_kappa"
        The headline's measure, one of ``MEASURES``.
    pair_measure : str, default "cohen_kappa"
        The matrix's measure, one of `pairwise`'s.
    consensus : {"majority", "dawid_skene", "mace"} or a model's result, default "majority"
        What each annotator is compared with.
    n_resamples : int, default 200
        Bootstrap replicates of the intervals.
    seed : int, default 0
        Seed of the bootstrap.
    page_size : int, default 25
        Rows per page of the items table.
    relevant_delta : float, default 0.02
        The smallest change of the measure taken as relevant in leave-one-out verdicts.
    group : str or pandas.Series, optional
        Each item's group (round, batch, domain): adds a panel comparing the groups.
    **loader_args
        Column names and options of ``Annotations.from_long``.

    Attributes
    ----------
    selection : pandas.DataFrame
        The selected items, in the table's order.
    leave_one_out : pandas.DataFrame or None
        The annotators' panel (`leave_one_out` of the headline measure), once computed.
    headline : dict
        The headline's value, interval, band and source.

    Raises
    ------
    AgreementError
        For a measure, pair measure or consensus that is not offered, a bad seed or
        number of resamples, or a ``text``/``group`` column that does not fit the items.

    See Also
    --------
    disagreements : the items table, from Python.
    leave_one_out : the annotators' panel.
    compare : the groups' panel.

    Notes
    -----
    An annotator's verdict rests on the paired bootstrap interval of
    $\Delta_j = M(X_{-j}) - M(X)$: only an interval wholly beyond
    $\pm$``relevant_delta`` gives one (Efron & Tibshirani 1993, ch. 13).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. University of
    Pennsylvania. https://repository.upenn.edu/asc_papers/43

    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman &
    Hall/CRC. https://doi.org/10.1201/9780429246593

    Examples
    --------
    Krippendorff's (2011) data, α nominal .743 as published:

    >>> import iaa_widgets as iaa
    >>> e = iaa.ProjectExplorer(iaa.datasets.krippendorff_2011(), measure="krippendorff_alpha")
    >>> _ = e.wait(60)
    >>> round(e.headline["value"], 3)
    0.743
    >>> e.leave_one_out["value"].round(3).tolist()
    [0.715, 0.704, 0.868, 0.675]
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
                                  "intervals are made, then 'ready', 'none' (no item's "
                                  "ratings differ) or 'failed'").tag(sync=True)
    sort_by = traitlets.Unicode("agreement", help="the items table's sort column: item, text, "
                                "agreement, n_ratings, an annotator or consensus").tag(sync=True)
    sort_descending = traitlets.Bool(False).tag(sync=True)
    message = traitlets.Unicode("", help="what the widget shows instead of its panels when "
                                "there is nothing to compare ('' otherwise)").tag(sync=True)
    groups_panel = traitlets.Dict(read_only=True, help="the headline measure by group "
                                  "(group=): compare(by=)'s rows and test").tag(sync=True)

    #: a download larger than this (bytes of CSV) is written by Python to the working
    #: directory instead of travelling through the page
    download_limit = 5_000_000

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
                 n_resamples: int = 200, seed=0, page_size: int = 25,
                 relevant_delta: float = 0.02, group=None, **loader_args):
        where = "ProjectExplorer"
        validate.choice(where, "measure", measure, MEASURES)
        validate.choice(where, "pair_measure", pair_measure, tuple(KERNELS))
        self._n_resamples = validate.integer(where, "n_resamples", n_resamples, minimum=2)
        validate.seed(where, "seed", seed)
        validate.integer(where, "page_size", page_size, minimum=1, maximum=1000)
        self._relevant = validate.real(where, "relevant_delta", relevant_delta, minimum=0)
        self._seed = seed
        self._design: dict = {}  # q(α_min) and items for ±HALF_WIDTH, from the bootstrap
        self._highlight, self._notice = "", ""
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()  # the run of the worker whose intervals are current
        self._generation = 0
        self._failure = ""
        nothing = _nothing_to_compare(data, loader_args)
        if not nothing:
            self._text = explore.item_texts(data, text, loader_args)
            self._group = _item_groups(data, group, loader_args)
            named = [c for c in (text, group) if isinstance(c, str)]  # columns: a table
            data = data.drop(columns=named) if named else data
            # the reference is the yardstick, not a rater: the project's raters leave it out
            self._project = explore.Project(as_annotations(data, **loader_args), consensus,
                                            reference)
            ann = self._project.ann
            if ann.n_annotators < 2:
                nothing = (f"Only one annotator ({ann.annotators[0]}) besides the reference "
                           f"{reference}: there is no one to agree or disagree with. "
                           "ProjectExplorer compares the labels that two or more annotators "
                           "gave to the same items.")
        if nothing:  # shown in the widget, not raised: the notebook shows the message
            super().__init__(page_size=page_size)
            self.message = nothing
            return
        self._reference = reference
        given = not isinstance(consensus, str)  # a model's result, function or a Series
        self._given = consensus if given else None
        self._consensus_tables()
        self._usage = explore.label_usage(ann)
        self._confusion = explore.label_confusion(self._project)
        self._rows = None
        self._pair_intervals: tuple = (None, None)  # (pair measure, pairwise with intervals)
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
        self.observe(self._on_sort, ["sort_by", "sort_descending"])
        self.on_msg(self._on_message)

    # ------------------------------------------------------------ public
    @property
    def selection(self) -> pd.DataFrame:
        """Every item of the current selection (not one page), in the items table's order:
        the columns of :func:`~iaa_widgets.disagreements`, with ``text`` after ``item``
        when given."""
        return self._frame(self._selected())

    def jump(self, item) -> int | None:
        """Open the page of the items table that holds ``item`` (matched by its text, as
        typed in the page's "go to item" box) and mark its row; returns its position in
        the selection, or None (the table then says whether the item is outside the
        selection or not in the data)."""
        rows = self._selected()
        items = self._project.ann.items
        hit = np.flatnonzero(items.take(rows).astype(str) == str(item))
        if hit.size:
            self._highlight, self._notice = str(items[rows[hit[0]]]), ""
            page = int(hit[0]) // self.page_size
        else:
            known = bool(np.any(items.astype(str) == str(item)))
            self._highlight, page = "", self.page
            self._notice = (f"item {item} is not among these {len(rows):,} items: its ratings "
                            "agree, or the filters leave it out" if known else
                            f"there is no item {item} in the data")
        if page != self.page:
            self.page = page  # → _on_page sends it
        else:
            self._send_items()
        return int(hit[0]) if hit.size else None

    def select(self, annotators=None, labels=None) -> pd.DataFrame:
        """Narrow the items as a click would (see :func:`~iaa_widgets.disagreements` for
        ``annotators=`` and ``labels=``, given by name) and return the selection."""
        p = self._project
        self.query = {"annotators": p.annotator_codes(annotators),
                      "labels": p.label_codes(labels)}
        return self.selection

    def export_csv(self, path=None):
        """The selection as CSV (to ``path``, or returned as a string)."""
        csv = selection_csv(self.selection)
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
        """Block until the bootstrap intervals of the current measures are shown: the
        worker of the latest run has set every panel (a run started while waiting is
        waited for too)."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                worker = self._worker
            if worker is None:
                break
            worker.join(None if end is None else max(0.0, end - time.monotonic()))
            if worker.is_alive():
                raise TimeoutError(f"intervals not computed within {timeout} s")
            with self._lock:
                if self._worker is worker:  # no newer run started meanwhile
                    break
        if self.intervals == "computing" and self._worker is not None:
            # the latest run ended for measures the widget no longer shows (a change of
            # measure whose values failed: the banner says why), not for the current ones
            raise AgreementError(f"ProjectExplorer: no intervals for {self.measure} and "
                                 f"{self.pair_measure}: {self.error or 'their values failed'}")
        if self.intervals == "failed":
            raise AgreementError(self._failure or self.error)

    # ------------------------------------------------------------ internals
    def _export_data(self, budget: int) -> tuple[dict | None, list[dict]]:
        """What a static page embeds for its clicks, within ``budget`` bytes, and what it
        leaves out (:func:`.explorer_export.explorer_data`)."""
        return explorer_data(self, budget)

    def _selected(self) -> np.ndarray:
        if self.message:
            raise AgreementError(f"ProjectExplorer: nothing to explore: {self.message}")
        if self._rows is None:
            self._rows = self._query_rows(self.query or {})
        return self._rows

    def _query_rows(self, q: dict) -> np.ndarray:
        """The items the query ``q`` selects, in the items table's order (``_selected``,
        and each click's list in a static page: explorer_export)."""
        p = self._project
        a = _codes(q.get("annotators", []), p.ann.n_annotators, "annotators", 2)
        k = _codes(q.get("labels", []), p.ann.n_categories, "labels", 2)
        return self._sorted(p.rows(p.mask(a, k)))

    def _columns(self) -> list[str]:
        """The items table's columns, each a ``sort_by`` the table accepts."""
        p = self._project
        return ["item"] + (["text"] if self._text is not None else []) + [
            "agreement", "n_ratings", *map(str, p.ann.annotators), "consensus"] + (
            [] if p.reference is None else [str(p.reference)])

    def _sorted(self, rows: np.ndarray) -> np.ndarray:
        """``rows`` (lowest agreement first) by ``sort_by``: a stable sort, so that rows
        of equal keys keep that order; missing values (no rating, no consensus, no text)
        last either way. Labels sort in the data's order of the categories, never as
        strings."""
        by, p = self.sort_by, self._project
        validate.choice("ProjectExplorer", "sort_by", by, tuple(self._columns()))
        if by == "agreement" and not self.sort_descending:
            return rows  # the project's own order
        if by in ("agreement", "n_ratings"):
            key = (p.agreement if by == "agreement" else p.m)[rows].astype(float)
        elif by == "item":
            key = self._item_ranks()[rows].astype(float)
        elif by == "text":
            text = self._text.reindex(p.ann.items.take(rows))
            missing = text.isna().to_numpy()
            key = np.unique(text.astype(str).to_numpy(), return_inverse=True)[1].astype(float)
            key[missing] = np.nan
        else:  # a label code: an annotator's column, the consensus or the reference
            codes = (p.consensus[rows] if by == "consensus" else p.gold[rows]
                     if p.reference is not None and by == str(p.reference) else
                     p.grid[rows, p.ann.annotators.astype(str).get_loc(by)])
            key = np.where(codes >= 0, codes, np.nan)
        missing = np.isnan(key)
        key = np.where(missing, 0.0, key)
        return rows[np.lexsort((-key if self.sort_descending else key, missing))]

    def _item_ranks(self) -> np.ndarray:
        """Each item's rank among the item ids (their data order where the ids do not
        compare, e.g. numbers mixed with text)."""
        items = self._project.ann.items
        try:
            order = items.argsort()
        except TypeError:
            order = np.arange(len(items))
        ranks = np.empty(len(items), dtype=np.int64)
        ranks[order] = np.arange(len(items))
        return ranks

    def _frame(self, rows, text: bool = True, annotators=None) -> pd.DataFrame:
        """The items ``rows`` as :meth:`Project.frame` gives them (with one annotator
        clicked, or given in ``annotators``, the consensus they are compared with),
        ``text`` after ``item``."""
        if annotators is None:
            annotators = (self.query or {}).get("annotators", [])
        out = self._project.frame(rows, annotators)
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
        self._design = {}
        ci = getattr(result, "ci", None)
        se = getattr(result, "se", None)
        # the measure's own interval kind ("Wald", "Student-t (379 df)" …); the panel says 95 %
        method = re.sub(r"\s*\d+(\.\d+)?\s*%", "", getattr(result, "ci_method", "") or "")
        self._send_headline(ci, se, method if ci is not None else "")
        self.leave_one_out = None  # with its intervals (none without variation), from the worker
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
        value = float(result.value)
        self.set_trait("headline", json_safe({
            "measure": self.measure, "value": value, "ci_low": low, "ci_high": high,
            "ci_method": method, "band": band or "", "scale": "Landis & Koch",
            "source": _registry.get(self.measure).source,
            "reference": "" if self._reference is None else str(self._reference),
            "n_items": ann.n_items, "n_annotators": ann.n_annotators,
            "n_ratings": ann.n_ratings, "coverage": ann.n_ratings / max(n_cells, 1),
            "n_disagreements": self._n_varied(), **self._design,
            # a note only where it explains the value (NaN: why); z and p are not shown
            "note": "" if np.isfinite(value) else getattr(result, "note", "") or "",
            "interval_note": self._failure}))

    def _n_varied(self) -> int:
        """Items whose ratings differ: 0 leaves nothing to resample or adjudicate."""
        return int(np.count_nonzero(self._project.n_labels >= 2))

    def _start_intervals(self) -> None:
        """Compute the bootstrap intervals of the current measures in a worker thread;
        a later call makes this run's results stale (they are dropped). The run is
        current (``_generation``, ``_worker``) from the moment it is made, so that
        :meth:`wait` never joins an older one only."""
        self.intervals = "computing"
        ann, (fn, kwargs) = self._project.ann, self._measure()
        measure, pair_measure, result = self.measure, self.pair_measure, self._result
        # no item varies: nothing to resample (leave-one-out's values only)
        resamples = self._n_resamples if self._n_varied() else None
        # the pairs' intervals of the same pair measure (a change of the headline measure
        # keeps them: they are most of a run's time, issue 43 §3)
        kept = self._pair_intervals if self._pair_intervals[0] == pair_measure else None

        def publish(out, last: bool) -> bool:
            """Set the panels of ``out`` if this run is still current (the headline
            and leave-one-out first, the pairs' intervals last); False if it is not."""
            with self._lock:
                if gen != self._generation or (measure, pair_measure) != (
                        self.measure, self.pair_measure):
                    return False
                try:
                    self._publish(out, result, resamples, last)
                except Exception as exc:  # never a run that ends with its panels unset
                    self._fail(exc)
                    return False
                return True

        def run():
            try:
                out = {}
                if resamples:  # its interval where the measure has none; q and the design
                    out["boot"] = bootstrap(ann, fn, n_resamples=resamples,
                                            seed=self._seed, **kwargs)
                if ann.n_annotators >= 3:
                    out["loo"] = leave_one_out(ann, fn, n_resamples=resamples,
                                               seed=self._seed, **kwargs)
                if self._group is not None:
                    out["groups"] = compare(ann, measure=measure, by=self._group,
                                            n_resamples=self._n_resamples, seed=self._seed,
                                            **kwargs)
                if not publish(out, last=False):
                    return
                out = {}
                if resamples:
                    out["pairs"] = kept[1] if kept else pairwise(
                        ann, pair_measure, ci="percentile", n_resamples=resamples,
                        seed=self._seed, **self._pair_kwargs())
            except Exception as exc:
                with self._lock:
                    if gen == self._generation:
                        self._fail(exc)
                return
            publish(out, last=True)
        self._failure = ""
        with self._lock:
            self._generation += 1
            gen = self._generation
            self._worker = threading.Thread(target=run, name="ProjectExplorer", daemon=True)
            self._worker.start()

    def _fail(self, exc: Exception) -> None:
        """The current run failed: its error in the headline (and, for a fault rather
        than refused data, in the banner) and ``intervals`` 'failed', which :meth:`wait`
        raises."""
        self._failure = f"{type(exc).__name__}: {exc}"
        if not isinstance(exc, AgreementError):  # a fault: the banner
            self.error = self._failure
        self.set_trait("headline", {**self.headline, "interval_note": self._failure})
        self.intervals = "failed"

    def _publish(self, out: dict, result, resamples, last: bool = True) -> None:
        """Set the panels from a worker's run (``out``): the headline's interval and
        decision figures, leave-one-out, the pairs' intervals and the groups; ``last``:
        the run's last part, after which ``intervals`` is 'ready' (or 'none')."""
        ann = self._project.ann
        with self.hold_sync():
            if "boot" in out:
                b = out["boot"]
                self._design = _design(b, ann.n_items)
                ci, se = getattr(result, "ci", None), getattr(result, "se", None)
                if ci is None or se is None:
                    self._send_headline(ci or b.ci, se if se is not None else b.se,
                                        f"bootstrap percentile, {self._n_resamples} "
                                        "resamples")
                else:
                    self._send_headline(ci, se, self.headline.get("ci_method", ""))
            if "loo" in out:
                self.leave_one_out = out["loo"]
                self._send_annotators()
            if "pairs" in out:
                self._pair_intervals = (self.pair_measure, out["pairs"])
                self._send_pairs(out["pairs"])
            if "groups" in out:
                self.set_trait("groups_panel", _groups_panel(out["groups"],
                                                             self._group.name))
            if last:
                self.intervals = "ready" if resamples else "none"

    def _send_annotators(self) -> None:
        prof, loo, usage = self.profile, self.leave_one_out, self._usage
        # the items where each one's label differs from the consensus: what a click lists
        cube = self._cube
        differ = cube.sum(axis=(1, 2)) - np.trace(cube, axis1=1, axis2=2)
        rows = []
        for j, name in enumerate(self._project.ann.annotators):
            row = {"code": j, "n_ratings": prof["n_ratings"].iloc[j], "n_differ": differ[j],
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
            "consensus": self.consensus, "measure": self.measure,
            "relevant": self._relevant}))

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
        self.set_trait("labels_panel", self._labels_payload(self.query or {}))

    def _labels_payload(self, q: dict) -> dict:
        """The labels panel for the query ``q``: the pooled confusion matrix, or with one
        annotator in it their labels against the consensus of the others."""
        who = q.get("annotators", [])
        conf = self._confusion
        payload = {"agreement": conf.attrs["agreement"], "pooled": self._usage.attrs["pooled"]}
        if len(who) == 1:
            payload.update(kind="annotator", annotator=int(who[0]),
                           counts=self._cube[int(who[0])], consensus=self.consensus)
        else:  # items (what a click lists), and the pairs of ratings behind them
            payload.update(kind="pooled", counts=self._label_items(), pairs=conf.to_numpy())
        return json_safe(payload)

    def _label_items(self) -> np.ndarray:
        """K × K: the items a click on a cell lists (:meth:`Project.mask`): those given
        both labels (``label_confusion``'s ``n_items``) and, on the diagonal, those whose
        ratings differ and hold the label."""
        p = self._project
        items = np.array(self._confusion.attrs["n_items"], dtype=np.int64)
        np.fill_diagonal(items, np.count_nonzero((p.counts > 0) & (p.n_labels >= 2)[:, None],
                                                 axis=0))
        return items

    def _send_items(self) -> None:
        rows = self._selected()
        size = validate.integer("ProjectExplorer", "page_size", self.page_size, minimum=1,
                                maximum=1000)
        pages = max(1, -(-len(rows) // size))
        page = min(max(0, self.page), pages - 1)
        shown = self._frame(rows[page * size:(page + 1) * size])
        p = self._project
        names = list(p.ann.annotators)
        picked = [names[c] for c in (self.query or {}).get("annotators", [])]
        lead = [c for c in shown.columns if c in ("item", "text", "agreement", "n_ratings")]
        shown = shown[lead + picked + ["consensus"] +  # the clicked annotators first
                      ([] if p.reference is None else [p.reference]) +
                      [c for c in names if c not in picked]]
        columns = [shown[c].tolist() if c in ("agreement", "n_ratings") else
                   ["" if pd.isna(v) else str(v) for v in shown[c].astype(object)]
                   for c in shown.columns]  # labels and texts as text
        cells = [list(row) for row in zip(*columns)]
        self.set_trait("items_page", json_safe({
            "total": len(rows), "page": page, "pages": pages, "offset": page * size,
            "page_size": size, "columns": [str(c) for c in shown.columns], "rows": cells,
            "query": self.query or {},
            "sort": {"by": self.sort_by, "descending": self.sort_descending},
            "highlight": self._highlight, "notice": self._notice,
            "reference": "" if p.reference is None else str(p.reference),
            # what a blank consensus means: a tie of the majority vote, or a model's none
            "consensus_kind": "majority" if self.consensus == "majority" else "model"}))
        self._notice = ""  # said once

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
        self._rows, self._highlight = None, ""
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
    def _on_sort(self, change) -> None:
        self._rows, self._highlight = None, ""
        self._selected()  # validates sort_by
        with self.hold_sync():
            if self.page:
                self.page = 0  # → _on_page sends the first page
            else:
                self._send_items()

    @guarded
    def _on_message(self, widget, content: Any, buffers) -> None:
        """The page asks for a download (the whole selection as CSV or as an adjudication
        sheet, sent back as the bytes of one message, never as rows of the table; larger
        than ``download_limit``: written by Python to the working directory) or for the
        page of an item (``jump``)."""
        if not isinstance(content, dict):
            return
        if "jump" in content:
            self.jump(str(content["jump"]))
            return
        kind = content.get("export")
        if kind not in ("csv", "adjudication"):
            return
        name = "selection.csv" if kind == "csv" else "adjudication.csv"
        try:
            data = (self.export_csv() if kind == "csv" else self.export_adjudication()
                    ).encode("utf-8")
        except Exception as exc:  # the page stops saying "preparing…"; the banner shows it
            self.send({"export_error": f"{type(exc).__name__}: {exc}"})
            raise
        rows = len(self._selected())
        if len(data) > self.download_limit:
            path = _free_path(Path.cwd() / name)
            path.write_bytes(data)
            self.send({"written": str(path), "rows": rows, "bytes": len(data)})
        else:
            self.send({"download": name, "rows": rows, "bytes": len(data)}, buffers=[data])


# help() and inspect show __init__'s parameters, not __new__'s (data, *args, **kwargs)
ProjectExplorer.__signature__ = inspect.signature(ProjectExplorer.__init__).replace(
    parameters=list(inspect.signature(ProjectExplorer.__init__).parameters.values())[1:])


def _item_groups(data, group, loader_args) -> pd.Series | None:
    """Item → group for the groups panel, from a column of the tidy table (one group per
    item) or a Series; None without ``group``."""
    if group is None:
        return None
    if isinstance(group, pd.Series):
        return group.rename(group.name if group.name is not None else "group")
    if not isinstance(group, str) or not isinstance(data, pd.DataFrame) \
            or group not in data.columns:
        validate.fail("ProjectExplorer", "group", "the name of a column of the tidy table "
                      "(a round, batch or domain per item) or a Series item → group", group)
    item = loader_args.get("item", "item")
    per_item = data.groupby(item, sort=False)[group]
    mixed = per_item.nunique(dropna=False)
    if (mixed > 1).any():
        raise AgreementError(f"ProjectExplorer: group={group!r} gives item "
                             f"{mixed.index[(mixed > 1).argmax()]!r} more than one group; "
                             "a group holds whole items (one value of the column per item)")
    return per_item.first().rename(group)


def _groups_panel(result, column) -> dict:
    """compare(by=)'s groups and homogeneity test, for the page."""
    rows = [{"group": str(g), "estimate": e, "ci_low": c[0], "ci_high": c[1], "n_items": n}
            for g, e, c, n in zip(result.groups, result.estimates, result.estimate_ci,
                                  result.n_items)]
    return json_safe({"column": str(column), "rows": rows, "statistic": result.statistic,
                      "statistic_name": result.statistic_name, "df": result.df,
                      "p_value": result.p_value, "method": result.method})


def _design(boot, n_items: int) -> dict:
    """The headline's decision figures from its bootstrap (issue 45 §5): Krippendorff's
    q(ALPHA_MIN), the share of replicates below ALPHA_MIN, and the items a 95 % interval of
    half-width HALF_WIDTH needs, its SE scaled by √(n_items / n) (sample_size's pilot rule)."""
    if not np.isfinite(boot.se) or boot.distribution.size < 2:
        return {}
    return {"alpha_min": ALPHA_MIN, "q_min": boot.prob_below(ALPHA_MIN),
            "half_width": HALF_WIDTH,
            "items_for_half_width": items_for_half_width(boot.se, n_items, HALF_WIDTH)}


def _nothing_to_compare(data, loader_args) -> str:
    """What the widget says instead of its panels when the data hold nothing to compare
    (an empty table, one annotator); '' otherwise (other input is loaded and checked as
    usual, and refused with an AgreementError)."""
    ask = ("ProjectExplorer compares the labels that two or more annotators gave to the "
           "same items (a table with columns item, annotator and label)")
    if isinstance(data, pd.DataFrame):
        if len(data) == 0:
            return f"The table is empty: there are no ratings to explore. {ask}."
        column = loader_args.get("annotator", "annotator")
        who = data[column].dropna().unique() if column in data.columns else []
        if len(who) == 1:
            return (f"Only one annotator ({who[0]}) rated these items: there is no one to "
                    f"agree or disagree with. {ask}.")
    elif isinstance(data, Annotations) and data.n_annotators < 2:
        return (f"Only one annotator ({data.annotators[0]}) rated these items: there is no "
                f"one to agree or disagree with. {ask}." if data.n_annotators else
                f"There are no ratings to explore. {ask}.")
    return ""


def _free_path(path: Path) -> Path:
    """``path``, or with -1, -2 … before its suffix where a file of that name exists."""
    k, out = 0, path
    while out.exists():
        k += 1
        out = path.with_name(f"{path.stem}-{k}{path.suffix}")
    return out


def _codes(values, n: int, what: str, most: int) -> list[int]:
    """Codes of the query, each in 0 … n − 1, at most ``most`` of them."""
    if not isinstance(values, list) or len(values) > most or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n for v in values):
        validate.fail("ProjectExplorer", f"query[{what!r}]", f"a list of at most {most} "
                      f"positions in 0 … {n - 1}", values)
    return values
