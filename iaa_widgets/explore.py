"""The API under :class:`~iaa_widgets.ProjectExplorer`: from an agreement number to the
items, annotators and labels behind it.

- :func:`disagreements`: the items whose ratings differ, most disagreement first, with
  each annotator's label and the consensus; narrowed to a pair of annotators, one
  annotator against the consensus, a label, or a confusion of two labels;
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
from .measures import _formulas as F

__all__ = ["Project", "disagreements", "annotator_profile", "label_usage",
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
            from .stats.resampling import _one_blas_thread
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
