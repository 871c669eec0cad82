"""The API under :class:`~iaa_widgets.ProjectExplorer`: from an agreement number to the
items, annotators and labels behind it.

- :func:`disagreements`: the items whose ratings differ, most disagreement first, with
  each annotator's label and the consensus; narrowed to a pair of annotators, one
  annotator against the consensus, a label, or a confusion of two labels;
- :func:`leave_one_out`: a measure without each annotator in turn, and a paired
  bootstrap interval of the difference over items, through the measure's Statistic;
- :func:`annotator_profile`, :func:`label_usage`, :func:`consensus_confusion`: each
  annotator against the consensus (majority vote of the others, or an annotator model:
  ``consensus=``), label usage against the pooled shares,
  and with ``reference=`` accuracy, κ and F1 against a gold annotator;
- :func:`label_confusion`: the label × label matrix of rating pairs and each label's
  specific agreement.

Everything is read from one integer view of the data (:class:`Project`: the items ×
annotators label codes, the item × category counts, the consensus codes), so that each
question is a vectorised mask over items, never a loop over items or pairs.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from . import stats, validate
from .data import Annotations, as_annotations
from .errors import AgreementError
from .measures import _formulas as F, _registry

__all__ = ["Project", "disagreements", "leave_one_out", "annotator_profile", "label_usage",
           "consensus_confusion", "confusion_cube", "label_confusion", "similarity_order",
           "item_texts"]

# the columns of a disagreements table besides one column per annotator
FIXED_COLUMNS = ("item", "agreement", "n_ratings", "consensus")


# the consensus models named by ``consensus=`` (besides a fitted model's result)
CONSENSUS = ("majority", "dawid_skene", "mace")


def _consensus_codes(ann: Annotations, counts: np.ndarray, consensus) -> np.ndarray:
    """Each item's consensus as a category code (-1: none). ``consensus``: "majority"
    (majority vote of the item × category ``counts``, ties give no consensus:
    :func:`_majority`), "dawid_skene" (Dawid & Skene 1979, the
    package's defaults), "mace" (Hovy et al. 2013, ``seed=0`` so that the explorer is
    reproducible), a model function (data → a result with ``labels``) or a fitted
    model's result (e.g. ``iaa.dawid_skene(data)``), or a Series item → label."""
    if consensus is None:
        return np.full(ann.n_items, -1, dtype=np.int64)
    if isinstance(consensus, str):
        validate.choice("explore", "consensus", consensus, CONSENSUS)
        if consensus == "majority":
            return _majority(counts)
        from . import models
        consensus = models.dawid_skene(ann) if consensus == "dawid_skene" else \
            models.mace(ann, seed=0)
    elif callable(consensus):
        consensus = consensus(ann)
    labels = getattr(consensus, "labels", consensus)
    if not isinstance(labels, pd.Series):
        validate.fail("explore", "consensus", f"one of {list(CONSENSUS)!r}, a model function, "
                      "a model result with .labels or a Series item → label", consensus)
    if isinstance(labels.dtype, pd.CategoricalDtype) and labels.index.equals(ann.items) \
            and labels.cat.categories.equals(ann.categories):  # a model's own labels
        return labels.cat.codes.to_numpy(dtype=np.int64)
    at = labels.reindex(ann.items)
    codes = ann.categories.get_indexer(at.astype(object).where(at.notna(), None))
    unknown = at.notna().to_numpy() & (codes < 0)
    if unknown.any():
        raise AgreementError(f"explore: the consensus gives labels the data do not have: "
                             f"{sorted(set(map(str, at[unknown])))[:5]!r}; the data have "
                             f"{list(ann.categories)[:8]!r}")
    return codes


def refuse_spans(data, where: str) -> None:
    """Refuse span data (Spans from the readers, a Continuum, a dict of them, a table of
    units with start and end) with what to use instead: this reads labels of items."""
    from .explore_spans import is_spans
    if is_spans(data):
        raise AgreementError(f"{where} explores labels of items (item, annotator, label); "
                             "these are spans (units with start and end): list the "
                             "documents behind their disagreements with "
                             "iaa.span_disagreements(spans) or iaa.ProjectExplorer(spans), "
                             "measure them with iaa.span_f1 or iaa.gamma, and look at one "
                             "document's units with iaa.GammaExplorer(spans[document])")


class Project:
    """One integer view of categorical ratings, made once: ``grid`` (items × annotators
    label codes, -1 where not rated), ``counts`` (n_ic), ``agreement`` (per item
    Σ_c n_ic(n_ic − 1) / (m_i(m_i − 1)), Fleiss 1971 P_i; NaN below two ratings),
    ``consensus`` (codes, -1 none; ``consensus=None``: none computed; see
    :func:`_consensus_codes`) and ``order`` (items by agreement, lowest first, then in the
    data's order). Primary labels; counts are expanded into items."""

    def __init__(self, data, consensus="majority"):
        refuse_spans(data, "the explorer")
        ann = as_annotations(data)
        if ann.anonymous:
            raise AgreementError("explore needs to know which annotator gave each label, "
                                 "but this data was built from per-item counts "
                                 "(Annotations.from_counts); load the ratings with "
                                 "from_long or from_wide")
        ann = ann.expanded("the explorer").primary()
        self.ann = ann
        self.grid = ann._label_grid()
        self.counts = stats.item_counts(ann)
        self.m = self.counts.sum(axis=1)
        self.agreement = F.item_agreement(self.counts)
        self.n_labels = np.count_nonzero(self.counts, axis=1)
        self.set_consensus(consensus)
        key = np.where(np.isnan(self.agreement), np.inf, self.agreement)
        self.order = np.lexsort((np.arange(ann.n_items), key))
        self._statistics = None

    def set_consensus(self, consensus) -> None:
        """Take another consensus (``consensus=`` of :func:`disagreements`)."""
        self.consensus = _consensus_codes(self.ann, self.counts, consensus)
        self._model = consensus
        self._others = None

    def others(self) -> np.ndarray:
        """Items × annotators: the consensus each annotator is compared with (-1: none).
        Majority vote: that of the other annotators, n_ic − [x_ij = c] (an annotator's own
        vote would count toward it); a model: its labels on all the annotators (a model
        weighs each annotator, as its own accuracies do; refitting it without each would
        cost one fit per annotator)."""
        if self._others is None:
            if isinstance(self._model, str) and self._model == "majority":
                self._others = _majority_of_others(self.counts, self.grid)
            else:
                self._others = np.broadcast_to(self.consensus[:, None], self.grid.shape)
        return self._others

    def statistics(self):
        """The project's :class:`~iaa_widgets.stats.lazy.SufficientStatistics` with their
        pair tables, made once from this integer view (no engine), so that ``pairwise``
        reads P · K² weighted cells instead of every item of every pair. The pair tables of
        all pairs at once are blocks of one product XᵀX of the items × (annotator, label)
        one-hot ratings, Σ_i [x_ia = c][x_ib = k] (float32 sums of ones: exact up to 2²⁴
        items a block; the blocks are summed in float64); the complete tables the same over
        the items every annotator rated. None when XᵀX would pass ``stats.MAX_CELLS``."""
        if self._statistics is None:
            from .resampling import _one_blas_thread
            from .stats.lazy import SufficientStatistics
            ann, grid, counts = self.ann, self.grid, self.counts
            n, r, k = ann.n_items, ann.n_annotators, ann.n_categories
            if (r * k) ** 2 > stats.MAX_CELLS or r < 2:
                return None
            m = self.m.astype(np.int64)
            top = int(m.max(initial=0))
            sizes = np.bincount(m, minlength=top + 1)
            raters = np.bincount((m[ann.item] * r + ann.annotator) * k + ann.label,
                                 minlength=(top + 1) * r * k).reshape(top + 1, r, k)
            products = np.zeros((top + 1) * k * k)
            both, complete = np.zeros((r * k, r * k)), np.zeros((r * k, r * k))
            step = max(1, (1 << 22) // (r * k))  # items per block: bounded memory
            with _one_blas_thread():  # a second BLAS thread spins on a loaded machine
                _one_hot_products(grid, counts, m, r, k, step, products, both, complete)
            pairs = stats.all_pairs(r)

            def tables(g):  # P × K × K: annotator a's label c (rows) by b's label k
                return np.rint(g.reshape(r, k, r, k)[pairs[:, 0], :, pairs[:, 1], :]).astype(
                    np.int64)
            self._statistics = SufficientStatistics(
                categories=ann.categories, annotators=ann.annotators, ordered=ann.ordered,
                sizes=sizes, totals=raters.sum(axis=1).astype(float),
                products=products.reshape(top + 1, k, k), annotator_counts=raters.astype(float),
                pairs=pairs, pair_tables=tables(both), notes=ann.notes, n_blank=ann.n_blank,
                complete_pair_tables=tables(complete))
        return self._statistics

    # ------------------------------------------------------------ names ↔ codes
    def annotator_codes(self, annotators) -> list[int]:
        """Codes of one annotator name or a list of one or two (``annotators=``)."""
        return _codes(annotators, self.ann.annotators, "annotator")

    def label_codes(self, labels) -> list[int]:
        """Codes of one label or a list of one or two (``labels=``), by identity."""
        return _codes(labels, self.ann.categories, "label")

    # ------------------------------------------------------------ selections
    def mask(self, annotators=(), labels=()) -> np.ndarray:
        """Items whose ratings differ, narrowed by annotator and label codes: two
        annotators → both rated and differ ({their labels} = the labels, if given); one
        annotator → their label differs from the consensus (their label, then the
        consensus's, if labels are given; one label: either is it); two labels → both
        given to the item; one label → given to the item."""
        keep = self.n_labels >= 2
        x, c = self.grid, self.consensus
        if len(annotators) == 2:
            a, b = x[:, annotators[0]], x[:, annotators[1]]
            keep &= (a >= 0) & (b >= 0) & (a != b)
            if len(labels) == 2:
                p, q = labels
                keep &= ((a == p) & (b == q)) | ((a == q) & (b == p))
            elif len(labels) == 1:
                keep &= (a == labels[0]) | (b == labels[0])
        elif len(annotators) == 1:
            a = x[:, annotators[0]]
            keep &= (a >= 0) & (c >= 0) & (a != c)
            if len(labels) == 2:
                keep &= (a == labels[0]) & (c == labels[1])
            elif len(labels) == 1:
                keep &= (a == labels[0]) | (c == labels[0])
        elif labels:
            for code in set(labels):
                keep &= self.counts[:, code] > 0
        return keep

    def rows(self, mask: np.ndarray) -> np.ndarray:
        """The items of ``mask`` in ``order`` (lowest agreement first)."""
        return self.order[mask[self.order]]

    def frame(self, rows: np.ndarray) -> pd.DataFrame:
        """One row per item of ``rows``: item, agreement, n_ratings, each annotator's
        label (a Categorical over the data's categories, NaN where not rated) and the
        consensus."""
        ann = self.ann
        clash = [str(a) for a in ann.annotators if str(a) in FIXED_COLUMNS]
        if clash:
            raise AgreementError(f"explore: annotator(s) {clash!r} share a name with the "
                                 f"columns {list(FIXED_COLUMNS)!r}; rename them")
        cats = ann.categories
        out = {"item": ann.items.take(rows), "agreement": self.agreement[rows],
               "n_ratings": self.m[rows].astype(np.int64)}
        for j, name in enumerate(ann.annotators):
            out[name] = pd.Categorical.from_codes(self.grid[rows, j], cats)
        out["consensus"] = pd.Categorical.from_codes(self.consensus[rows], cats)
        return pd.DataFrame(out)


def _one_hot_products(grid, counts, m, r, k, step, products, both, complete) -> None:
    """Add to ``products`` Σ_i n_ic n_ik by m_i, to ``both`` XᵀX and to ``complete`` the
    same over the items every annotator rated, in blocks of ``step`` items
    (:meth:`Project.statistics`)."""
    for s in range(0, len(grid), step):
        c, x = counts[s:s + step], grid[s:s + step]
        products += np.bincount((m[s:s + step, None] * k * k + np.arange(k * k)).ravel(),
                                weights=(c[:, :, None] * c[:, None, :]).ravel(),
                                minlength=len(products))
        one = np.zeros((len(x), r * k), dtype=np.float32)
        i, j = np.nonzero(x >= 0)
        one[i, j * k + x[i, j]] = 1
        both += one.T @ one
        full = one[m[s:s + step] == r]
        complete += full.T @ full


def _majority(votes: np.ndarray) -> np.ndarray:
    """The majority vote of each row of ``votes`` (… × K counts; -1: none): the category
    with the most votes, none on a tie or without votes (``models.majority_vote(...,
    ties="none")``; the tests check that they agree)."""
    top = votes.max(axis=-1)
    unique = (np.count_nonzero(votes == top[..., None], axis=-1) == 1) & (top > 0)
    return np.where(unique, np.argmax(votes, axis=-1), -1)


def _majority_of_others(counts: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Items × annotators: the majority vote of each item without the annotator's own
    label, of the votes n_ic − [x_ij = c] (-1: none); in blocks of items."""
    out = np.empty(grid.shape, dtype=np.int64)
    k = counts.shape[1]
    step = max(1, (1 << 22) // max(grid.shape[1] * k, 1))  # items per block: bounded memory
    for s in range(0, len(grid), step):
        x = grid[s:s + step]
        votes = np.repeat(counts[s:s + step, None, :], x.shape[1], axis=1)
        i, j = np.nonzero(x >= 0)
        votes[i, j, x[i, j]] -= 1
        out[s:s + step] = _majority(votes)
    return out


def _codes(values, known: pd.Index, what: str) -> list[int]:
    """Positions in ``known`` of one name or a list of one or two distinct ones (None:
    none), matched by identity; refuses unknown names, naming the known ones."""
    if values is None:
        return []
    names = list(values) if _many(values) else [values]
    if not 1 <= len(names) <= 2 or len(set(map(repr, names))) != len(names):
        validate.fail("disagreements", f"{what}s", f"one {what} or two different ones", values)
    codes = known.get_indexer(names)
    if np.any(codes < 0):
        raise AgreementError(f"disagreements: unknown {what}(s) "
                             f"{[n for n, c in zip(names, codes) if c < 0]!r}; the data have "
                             f"{list(known)!r}")
    return codes.tolist()


def _many(value) -> bool:
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes))


def _project(data, consensus) -> Project:
    return data if isinstance(data, Project) else Project(data, consensus)


def disagreements(data, annotators=None, labels=None, *,
                  consensus="majority") -> pd.DataFrame:
    """The items whose ratings differ, lowest per-item agreement first.

    Columns: ``item``, ``agreement`` (the share of agreeing pairs of the item's ratings,
    Fleiss 1971 P_i), ``n_ratings``, one column per annotator (their label, NaN where
    they did not rate the item) and ``consensus``: ``consensus="majority"`` (majority
    vote, none on a tie), ``"dawid_skene"`` or ``"mace"`` (the annotator models, fitted
    on the data), a fitted model's result (``iaa.dawid_skene(data)``: its ``labels``), a
    model function, or a Series item → label.

    ``annotators=(a, b)``: the items both rated on which they differ; ``annotators=a``:
    the items where a's label differs from the consensus. ``labels=(x, y)``: the items
    where x and y were confused (both given; with two annotators, one gave x and the
    other y; with one annotator, they gave x where the consensus is y); ``labels=x``: the
    items that involve x. Labels are matched by identity (1 is not "1").

    Span data (a reader's Spans, a Continuum, a table of units): the documents with
    unmatched or mismatched units, :func:`~iaa_widgets.explore_spans.span_disagreements`
    (``annotators=`` narrows them to those annotators; ``labels=`` is refused).
    """
    from .explore_spans import is_spans, span_disagreements
    if is_spans(data):
        if labels is not None:
            raise AgreementError("disagreements: labels= narrows labels of items; for spans "
                                 "it is not available: use span_disagreements(spans) and "
                                 "the documents' units (spans[document])")
        return span_disagreements(data, annotators=annotators)
    p = _project(data, consensus)
    mask = p.mask(p.annotator_codes(annotators), p.label_codes(labels))
    out = p.frame(p.rows(mask))
    out.attrs["n_items"] = p.ann.n_items
    return out


# ---------------------------------------------------------------- leave one out
def leave_one_out(data, measure, confidence: float = 0.95, *, n_resamples: int | None = 1000,
                  seed=None, **measure_kwargs) -> pd.DataFrame:
    """``measure`` without each annotator in turn, indexed by annotator: ``value`` (the
    measure without them), ``delta`` (value − the measure on all annotators; negative:
    they raise agreement, positive: they drag it down) and a paired bootstrap interval
    of delta over items (``ci_low``, ``ci_high``, ``se``; percentile, Efron & Tibshirani
    1993 ch. 13): each resample draws items once and evaluates every version of the
    measure on the same draw.

    For a measure with a Statistic (``measure.statistic``, every categorical one) the
    versions are one Statistic, resampled once (:func:`iaa_widgets.resampling.resampled`).
    A measure that takes per-item counts (``Annotations.from_counts``; it does not ask who
    gave each label: Fleiss' κ, α, AC1, S, percent agreement …) gets each version's
    tables from the item's counts minus the annotator's label (:func:`_versions_of_counts`),
    never from a copy of the ratings; one that reads who gave each label (Conger's κ …)
    from each version's ratings, or, for the values alone, from the measure's own
    ``without_each`` in the registry (Conger's κ: one pass over the ratings); any other
    function is recomputed on each rebuilt resample. ``attrs``: ``measure``, ``value`` (on all
    annotators), ``confidence``, ``n_resamples``, ``seed``. ``n_resamples=None``: the
    values only (the interval columns NaN).
    """
    from .resampling import _draws, _generic, _one_blas_thread, _resolve, intervals, resampled
    fn, name = _resolve(measure)
    confidence = validate.confidence("leave_one_out", "confidence", confidence)
    if n_resamples is not None:
        n_resamples = validate.integer("leave_one_out", "n_resamples", n_resamples, minimum=2)
    validate.seed("leave_one_out", "seed", seed)
    ann = as_annotations(data)
    if ann.anonymous or ann.n_annotators < 3:
        raise AgreementError(f"leave_one_out needs at least 3 named annotators (so that two "
                             f"remain), got {'anonymous counts' if ann.anonymous else ann.n_annotators}")
    names = list(ann.annotators)
    make = getattr(fn, "statistic", None)
    joined = parts = each = None
    described = _registry.find(name)
    if n_resamples is None and described is not None and described.without_each and \
            described.function is fn:  # the measure's own values without each annotator
        each = described.without_each(ann, **measure_kwargs)
    if each is None and make is not None:
        joined = _versions_of_counts(make, ann, measure_kwargs, summed=n_resamples is None)
        if joined is None:  # a measure that reads who gave each label: each version's data
            parts = [make(v, **measure_kwargs) for v in [ann, *_without_each(ann)]]
            joined = None if n_resamples is None else _side_by_side(parts)
    if each is not None:
        values = np.concatenate([[float(fn(ann, **measure_kwargs).value)], each])
        boot = None
    elif joined is not None:
        with _one_blas_thread():  # one product of the data's weights: no second thread spinning
            values = joined.values(joined.base[None])[0]
        boot = None if n_resamples is None else \
            resampled(joined, n_resamples, np.random.default_rng(seed))
    elif parts is not None and n_resamples is None:  # the values: each finish of its totals
        values = np.array([p.values(p.base[None])[0] for p in parts], dtype=float)
        boot = None
    else:  # the same seed draws the same items for every version: paired
        versions = [v.expanded("leave_one_out") for v in [ann, *_without_each(ann)]]
        values = np.array([float(getattr(r, "value", r)) for r in
                           (fn(v, **measure_kwargs) for v in versions)])
        boot = None if n_resamples is None else np.column_stack([
            _generic(fn, v, _draws(np.random.default_rng(seed), v.n_items, n_resamples),
                     measure_kwargs) for v in versions])
    delta = values[1:] - values[0]
    if boot is None:
        low = high = se = np.full(len(delta), np.nan)
        undefined = np.zeros(len(delta))
    else:
        low, high, se, undefined = intervals(boot[:, 1:] - boot[:, :1], delta, confidence)
    out = pd.DataFrame({"value": values[1:], "delta": delta, "ci_low": low, "ci_high": high,
                        "se": se, "n_undefined": undefined.astype(np.int64)},
                       index=pd.Index(names, name="annotator"))
    out.attrs.update(measure=name, value=float(values[0]), confidence=confidence,
                     n_resamples=n_resamples, seed=seed)
    return out


def _versions_of_counts(make, ann: Annotations, kwargs: dict, summed: bool = False):
    """The Statistic of every version (all annotators, then without each in turn) of a
    measure whose Statistic is a function of each item's category counts, or None for
    one that refuses per-item counts (it needs to know who gave each label; the package's
    measures then refuse ``Annotations.from_counts`` data) or groups its rows.

    Per-item tables are additive over items, each row a function of its item's own
    ratings (:mod:`iaa_widgets.stats`), so version j's tables differ from those of the
    counts n_i only on the items j rated, where they are the tables of n_i − e(x_ij).
    The measure's Statistic is made once, on anonymous counts (J − 1 annotators, as each
    version has) of the distinct rows among the items' counts n_i and the R rows
    n_i − e(x_ij) of the ratings (a few thousand among 1e6 rows of 5 labels). Version j's
    tables are ``base`` (each item's counts) plus ``delta`` (per item: the table of its
    rating by j minus the base row, in j's block of columns), so that its totals are
    Σ_i w_i base_i + Σ_i w_i delta_ij: one product of the item weights for every version.
    The data's own Statistic (J annotators, its missing-data policy over all of them) is
    the first version. ``summed``: the values only, as a Statistic of one row (the totals:
    Σ_i base_i and, per version, its deltas counted per distinct row), with no per-item
    table (memory follows the ratings, not items × annotators × cells)."""
    from .stats.statistic import DENSE_CELLS, RowBlocks, per_item
    prim = ann.primary()  # one primary label per item and annotator (the loaders see to it)
    counts = stats.item_counts(ann)
    n, n_ann = ann.n_items, ann.n_annotators
    item, who = prim.item, prim.annotator
    rows, codes = _distinct_rows(counts, item, prim.label)
    try:
        stat = make(_counts_data(ann, rows, n_ann - 1), **kwargs)
    except AgreementError:  # needs who gave each label, or a version the measure refuses
        return None
    full = make(ann, **kwargs)
    if any(s.rows is not None or s.weights is not None or s.n_items != k or
           any(isinstance(t, RowBlocks) for t in s.tables.values())
           for s, k in ((stat, len(rows)), (full, n))):
        return None
    names = list(stat.tables)
    widths = [stat.tables[name].shape[1] for name in names]
    if len(rows) * sum(widths) > stats.MAX_CELLS:
        return None  # too many distinct rows to hold their tables side by side
    t = np.hstack([np.asarray(stat.tables[name].toarray() if hasattr(stat.tables[name], "toarray")
                              else stat.tables[name], dtype=float) for name in names])
    bounds = np.cumsum([0] + widths)
    cells = bounds[-1]
    k = counts.shape[1]
    pair = codes[item] * k + prim.label  # each rating's (item's distinct row, label)
    if len(rows) * k <= 4 * len(item) + k:  # the rows minus e(label) of few distinct pairs
        version = np.zeros(len(rows) * k, dtype=np.int64)
        version[pair] = codes[n:]
        diff = t[version] - np.repeat(t, k, axis=0)
    else:
        diff, pair = t[codes[n:]] - t[codes[item]], np.arange(len(item))
    if summed:  # the totals only, as one row: Σ_i base_i and each version's Σ_i delta_ij
        from scipy import sparse
        tables = {f"all:{name}": np.asarray(table.sum(axis=0), dtype=float).reshape(1, -1)
                  for name, table in full.tables.items()}  # weights 1: column sums
        per_row = np.bincount(codes[:n], minlength=len(rows)).astype(float)
        used = sparse.csr_matrix((np.ones(len(who)), (who, pair)), shape=(n_ann, len(diff)))
        tables.update({"base": (per_row @ t)[None],  # how often each version adds each diff:
                       "delta": np.asarray(used @ diff).reshape(1, -1)})  # duplicates summed
    elif n * n_ann * cells <= max(DENSE_CELLS, 4 * np.count_nonzero(diff, axis=1)[pair].sum()):
        # dense (small, or a quarter of it nonzero: a complete design): per item and
        # annotator the diff row of their rating, a row of zeros where they did not rate
        at = np.full(n * n_ann, len(diff))
        at[item * n_ann + who] = pair
        delta = np.take(np.vstack([diff, np.zeros((1, cells))]), at, axis=0).reshape(
            n, n_ann * cells)
    else:  # large and sparse (a crowd): kept as per_item keeps a table (CSR of its entries)
        rating, cell = np.nonzero(diff[pair])
        delta = per_item(item[rating], who[rating] * cells + cell, n, n_ann * cells,
                         diff[pair[rating], cell])
    if not summed:
        tables = {f"all:{name}": t for name, t in full.tables.items()}
        tables.update({"base": t[codes[:n]], "delta": delta})
    shapes = {f"all:{name}": full.shapes[name] for name in full.tables}
    shapes.update({"base": (cells,), "delta": (n_ann, cells)})

    def finish(tot):  # the data's value, then each version's: base + its delta block
        first = np.asarray(full.finish({name: tot[f"all:{name}"] for name in full.tables})[0],
                           dtype=float).reshape(-1)
        b = len(first)
        each = (tot["base"][:, None, :] + tot["delta"]).reshape(b * n_ann, cells)
        rest = stat.finish({name: each[:, bounds[j]:bounds[j + 1]].reshape(
            (b * n_ann,) + tuple(stat.shapes[name])) for j, name in enumerate(names)})[0]
        out = np.column_stack([first, np.asarray(rest, dtype=float).reshape(b, n_ann)])
        return out, out, out
    return stats.Statistic(tables, shapes, finish)


def _distinct_rows(counts: np.ndarray, item: np.ndarray, label: np.ndarray):
    """The distinct rows among the items' counts n_i and each rating's n_i − e(x_ij)
    (``item``, ``label``: the ratings), and the row of each of those n + R (codes), as
    (distinct rows, codes). A row is keyed by its counts read as the digits of one integer
    (base max + 1), so a rating's key is its item's minus the digit of its label; where
    the key would pass 62 bits every row is its own."""
    n, k = counts.shape
    radix = int(counts.max(initial=0)) + 1
    if k * np.log2(max(radix, 2)) > 62:
        rows = np.concatenate([counts, counts[item]])
        rows[n + np.arange(len(item)), label] -= 1
        return rows, np.arange(len(rows))
    digit = radix ** np.arange(k, dtype=np.int64)
    of_item = counts @ digit
    key = np.concatenate([of_item, of_item[item] - digit[label]])
    space = radix ** k
    if space <= 4 * len(key):  # few possible keys: addressed directly, no sort
        seen = np.zeros(space, dtype=bool)
        seen[key] = True
        distinct = np.flatnonzero(seen)
        codes = (np.cumsum(seen) - 1)[key]
    else:
        distinct, codes = np.unique(key, return_inverse=True)
    return distinct[:, None] // digit % radix, codes.reshape(-1)


def _counts_data(ann: Annotations, counts: np.ndarray, n_annotators: int) -> Annotations:
    """Anonymous data of the items × categories ``counts`` (``Annotations.from_counts``)
    with ``ann``'s categories (their identity and order) and ``n_annotators`` annotators
    (what a missing-data policy counts as every annotator)."""
    from dataclasses import replace
    from .data.annotations import _raters
    out = Annotations.from_counts(counts)  # categories 0 … K − 1, replaced by ann's below
    return replace(out, categories=ann.categories, ordered=ann.ordered,
                   annotators=_raters(n_annotators))


def _without_each(ann: Annotations):
    """The data without annotator 0, 1, … in turn (as ``select_annotators`` of the
    others, in their order): the ratings sorted by annotator once, each version two
    slices of them, so that no version filters every rating again."""
    from dataclasses import replace
    order = np.argsort(ann.annotator, kind="stable")
    cols = {"item": ann.item[order], "annotator": ann.annotator[order],
            "label": ann.label[order], "rank": ann.rank[order]}
    if ann.rating_count is not None:
        cols["rating_count"] = ann.rating_count[order]
    ends = np.cumsum(np.bincount(ann.annotator, minlength=ann.n_annotators))
    for j in range(ann.n_annotators):
        lo, hi = (ends[j - 1] if j else 0), ends[j]
        part = {k: np.concatenate([v[:lo], v[hi:]]) for k, v in cols.items()}
        part["annotator"][lo:] -= 1  # the annotators after j move up one code
        yield replace(ann, **part, annotators=ann.annotators.delete(j))


def _side_by_side(parts):
    """One Statistic whose tables are those of each Statistic of ``parts`` (over the same
    item rows) and whose finish gives their values side by side (B × versions); dense
    tables are laid side by side in one array, so that a block of resamples is one
    matrix product. None when a part groups its rows (``rows``) or keeps different item
    weights."""
    from .stats import Statistic
    first = parts[0]
    if any(p.rows is not None or p.n_items != first.n_items for p in parts) or not all(
            (p.weights is None) == (first.weights is None) for p in parts):
        return None
    keys = [(j, name) for j, p in enumerate(parts) for name in p.tables]
    tables = {f"{j}:{name}": parts[j].tables[name] for j, name in keys}
    if all(isinstance(t, np.ndarray) for t in tables.values()):
        widths = [t.shape[1] for t in tables.values()]
        bounds = np.concatenate([[0], np.cumsum(widths)])
        merged = Statistic({"all": np.hstack(list(tables.values()))}, {"all": (bounds[-1],)},
                           None, first.weights)

        def split(tot):
            flat = tot["all"]
            return {key: flat[:, bounds[i]:bounds[i + 1]].reshape(
                (len(flat),) + tuple(parts[j].shapes[name]))
                for i, ((j, name), key) in enumerate(zip(keys, tables))}
    else:
        merged = Statistic(tables, {f"{j}:{name}": parts[j].shapes[name] for j, name in keys},
                           None, first.weights)

        def split(tot):
            return tot

    def finish(tot):
        tot = split(tot)
        values = [np.asarray(p.finish({name: tot[f"{j}:{name}"] for name in p.tables})[0],
                             dtype=float).reshape(-1) for j, p in enumerate(parts)]
        out = np.column_stack(values)
        return out, out, out
    return Statistic(merged.tables, merged.shapes, finish, first.weights)


# ---------------------------------------------------------------- annotators
def consensus_confusion(data, annotator=None, *, consensus="majority") -> pd.DataFrame:
    """Each annotator's labels against the consensus (``consensus=`` as in
    :func:`disagreements`; the majority vote is that of the others, on the data without
    them: :meth:`Project.others`; items without a consensus left out): with ``annotator``, its
    label × consensus count matrix (rows: its label, columns: the consensus); else a
    long table annotator, label, consensus, count of every non-zero cell."""
    p = _project(data, consensus)
    cube = confusion_cube(p)
    cats = p.ann.categories
    if annotator is not None:
        j = p.annotator_codes(annotator)
        if len(j) != 1:
            validate.fail("consensus_confusion", "annotator", "one annotator name", annotator)
        return pd.DataFrame(cube[j[0]], index=pd.Index(cats, name="label"),
                            columns=pd.Index(cats, name="consensus"))
    a, x, c = np.nonzero(cube)
    return pd.DataFrame({"annotator": p.ann.annotators.take(a), "label": cats.take(x),
                         "consensus": cats.take(c), "count": cube[a, x, c]})


def confusion_cube(p: Project) -> np.ndarray:
    """annotators × K × K counts of (annotator, their label, the others' consensus)."""
    others = p.others()
    k, n_ann = p.ann.n_categories, p.ann.n_annotators
    ok = (p.grid >= 0) & (others >= 0)
    who = np.broadcast_to(np.arange(n_ann), p.grid.shape)[ok]
    cells = (who * k + p.grid[ok]) * k + others[ok]
    return np.bincount(cells, minlength=n_ann * k * k).reshape(n_ann, k, k)


def _against(t: np.ndarray) -> dict:
    """Accuracy, Cohen's κ and macro F1 of P tables t[p, label, reference] (P × K × K):
    accuracy Σ_c t_cc / n; κ (Cohen 1960); F1_c = 2 t_cc / (t_c· + t_·c) averaged over
    the labels either side used (scikit-learn's macro average)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        n = t.sum(axis=(1, 2)).astype(float)
        diag = np.diagonal(t, axis1=1, axis2=2).astype(float)
        used = t.sum(axis=2) + t.sum(axis=1)
        f1 = np.where(used > 0, 2 * diag / np.where(used > 0, used, 1), 0.0)
        macro = f1.sum(axis=1) / np.count_nonzero(used, axis=1)
        kappa = F.chance_corrected(F.table_observed(t), F.cohen_expected(t))
        return {"n": n, "accuracy": diag.sum(axis=1) / n,
                "kappa": np.where(n > 0, kappa, np.nan), "f1": macro}


def annotator_profile(data, reference=None, *, consensus="majority") -> pd.DataFrame:
    """One row per annotator: ``n_ratings``; against the consensus (``consensus=`` as
    in :func:`disagreements`; the majority vote is that of the others, on the data without
    them: :meth:`Project.others`): ``n_consensus`` (items compared),
    ``consensus_agreement`` (their share of labels equal to it), ``consensus_kappa``
    (Cohen's κ of their labels against it). With ``reference=`` (the name of a gold
    annotator, or a model's predictions added as an annotator): ``n_reference``,
    ``accuracy``, ``kappa`` and ``f1`` (macro) against it, NaN on its own row."""
    p = _project(data, consensus)
    ann = p.ann
    cube = confusion_cube(p)
    mine = _against(cube)
    out = pd.DataFrame({"n_ratings": np.count_nonzero(p.grid >= 0, axis=0),
                        "n_consensus": mine["n"].astype(np.int64),
                        "consensus_agreement": mine["accuracy"],
                        "consensus_kappa": mine["kappa"]},
                       index=pd.Index(ann.annotators, name="annotator"))
    if reference is not None:
        r = p.annotator_codes(reference)
        if len(r) != 1:
            validate.fail("annotator_profile", "reference", "one annotator name", reference)
        pairs = np.column_stack([np.arange(ann.n_annotators),
                                 np.full(ann.n_annotators, r[0])])
        gold = _against(stats.pair_contingencies(ann, pairs))
        for key in ("accuracy", "kappa", "f1"):
            gold[key][r[0]] = np.nan
        out["n_reference"] = np.where(np.arange(ann.n_annotators) == r[0], 0,
                                      gold["n"]).astype(np.int64)
        for key in ("accuracy", "kappa", "f1"):
            out[key] = gold[key]
        out.attrs["reference"] = reference
    return out


def label_usage(data) -> pd.DataFrame:
    """Each annotator's share of each label (rows: annotators, columns: the labels in
    the data's order); ``attrs["pooled"]``: every rating's shares, aligned with the
    columns, so that share − pooled says who over- or under-uses which label."""
    ann = as_annotations(data)
    n_rc = stats.annotator_counts(ann).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = n_rc / n_rc.sum(axis=1, keepdims=True)
    out = pd.DataFrame(shares, index=pd.Index(ann.annotators, name="annotator"),
                       columns=pd.Index(ann.categories, name="label"))
    out.attrs["pooled"] = (n_rc.sum(axis=0) / n_rc.sum()).tolist()
    return out


# ---------------------------------------------------------------- labels
def label_confusion(data) -> pd.DataFrame:
    """The label × label matrix of ordered pairs of ratings of one item by two annotators,
    Σ_i n_ic (n_ik − [c = k]) (symmetric; Krippendorff's coincidences before the division
    by m_i − 1); ``attrs["agreement"]``: each label's specific agreement
    Σ_i n_ic(n_ic − 1) / Σ_i n_ic(m_i − 1) (Uebersax 1982), aligned with the labels."""
    p = _project(data, None)
    ann, n = p.ann, p.counts.astype(float)
    o = n.T @ n
    o[np.diag_indices_from(o)] -= n.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        specific = np.diagonal(o) / o.sum(axis=1)
    out = pd.DataFrame(o.astype(np.int64), index=pd.Index(ann.categories, name="label"),
                       columns=pd.Index(ann.categories, name="label"))
    out.attrs["agreement"] = specific.tolist()
    return out


def similarity_order(matrix: pd.DataFrame) -> list:
    """The annotators of a symmetric agreement matrix in an order that puts similar ones
    side by side: the leaves of an average-linkage clustering on 1 − value, optimally
    ordered (Bar-Joseph et al. 2001, scipy); an undefined cell counts as the farthest."""
    names = list(matrix.index)
    if len(names) < 3:
        return names
    from scipy.cluster import hierarchy
    from scipy.spatial.distance import squareform
    v = matrix.to_numpy(dtype=float)
    d = 1 - v
    finite = np.isfinite(d)
    d = np.where(finite, d, (np.nanmax(d[finite]) if finite.any() else 1) + 1)
    d = np.maximum((d + d.T) / 2, 0)
    np.fill_diagonal(d, 0)
    condensed = squareform(d, checks=False)
    tree = hierarchy.optimal_leaf_ordering(hierarchy.linkage(condensed, "average"), condensed)
    return [names[j] for j in hierarchy.leaves_list(tree)]


def item_texts(data, text, loader_args) -> pd.Series | None:
    """Item → text for the explorer, from a column of the tidy table (``loader_args``'
    ``item`` names the item column) or a Series / mapping; None without ``text``."""
    if text is None:
        return None
    if isinstance(text, str):
        if not isinstance(data, pd.DataFrame) or text not in data.columns:
            raise AgreementError(f"ProjectExplorer: text={text!r} names no column of the "
                                 "data; pass the name of a column of the tidy table or a "
                                 "Series item → text")
        item = loader_args.get("item", "item")
        return data.groupby(item, sort=False)[text].first()
    if isinstance(text, pd.Series):
        return text
    if isinstance(text, dict):
        return pd.Series(text, dtype=object)
    validate.fail("ProjectExplorer", "text", "a column name, a Series or a dict item → text",
                  text)
