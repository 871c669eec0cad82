"""The API under :class:`~iaa_widgets.ProjectExplorer`: from an agreement number to the
items, annotators and labels behind it.

- :func:`disagreements`: the items whose ratings differ, most disagreement first, with
  each annotator's label and the consensus; narrowed to a pair of annotators, one
  annotator against the consensus, a label, or a confusion of two labels;
- :func:`annotator_profile`, :func:`label_usage`, :func:`consensus_confusion`: each
  annotator against the consensus (majority vote of the others, or an annotator model:
  ``consensus=``), label usage against the pooled shares,
  and with ``reference=`` accuracy, κ and F1 against a gold annotator;

One consensus everywhere: an annotator is compared with the majority of the *other*
annotators (with two annotators, the other one; a tie has no majority), in their profile,
their confusion against the consensus and the items a click on either lists
(``disagreements(annotators=a)``), so that every count equals the length of its list.
``reference=`` names a yardstick, not a rater: it is left out of the raters (their
consensus, agreement and pair tables) and each rater is compared with it.
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
    if labels.index.has_duplicates:
        twice = labels.index[labels.index.duplicated()].unique()
        raise AgreementError(f"explore: the consensus gives item(s) {list(twice[:5])!r} "
                             "more than once; pass a Series with one label per item (its "
                             "index: the items)")
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
    data's order). Primary labels; counts are expanded into items.

    ``reference``: the name of a gold annotator (e.g. adjudicated labels, "gold"): the
    yardstick, not a rater. ``ann`` and every table above hold the raters only (so the
    consensus, agreement, pair tables and any measure of ``ann`` leave it out), and
    ``gold`` holds its label codes per item (-1: not rated). ``where`` names the function
    in messages."""

    def __init__(self, data, consensus="majority", reference=None, *,
                 where: str = "the explorer"):
        refuse_spans(data, where)
        ann = _named(as_annotations(data), where).expanded(where).primary()
        self.reference, self.gold = None, None
        if reference is not None:
            ann, self.gold, self.reference = _raters(ann, reference, where)
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
            if _is_majority(self._model):
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
    def annotator_codes(self, annotators, where: str = "disagreements") -> list[int]:
        """Codes of one annotator name or a list of one or two (``annotators=``)."""
        return _codes(annotators, self.ann.annotators, "annotator", where)

    def label_codes(self, labels, where: str = "disagreements") -> list[int]:
        """Codes of one label or a list of one or two (``labels=``), by identity."""
        return _codes(labels, self.ann.categories, "label", where)

    # ------------------------------------------------------------ selections
    def mask(self, annotators=(), labels=()) -> np.ndarray:
        """Items whose ratings differ, narrowed by annotator and label codes: two
        annotators → both rated and differ ({their labels} = the labels, if given); one
        annotator → their label differs from the consensus they are compared with,
        :meth:`others` (their label, then the consensus's, if labels are given; one label:
        either is it): the items :func:`confusion_cube` counts off its diagonal; two labels
        → both given to the item; one label → given to the item."""
        keep = self.n_labels >= 2
        x = self.grid
        if len(annotators) == 2:
            a, b = x[:, annotators[0]], x[:, annotators[1]]
            keep &= (a >= 0) & (b >= 0) & (a != b)
            if len(labels) == 2:
                p, q = labels
                keep &= ((a == p) & (b == q)) | ((a == q) & (b == p))
            elif len(labels) == 1:
                keep &= (a == labels[0]) | (b == labels[0])
        elif len(annotators) == 1:  # a model's label may differ where all ratings agree
            a, c = x[:, annotators[0]], self.others()[:, annotators[0]]
            keep = (a >= 0) & (c >= 0) & (a != c)
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

    def frame(self, rows: np.ndarray, annotators=()) -> pd.DataFrame:
        """One row per item of ``rows``: item, agreement, n_ratings, each annotator's
        label (a Categorical over the data's categories, NaN where not rated), the
        reference's label (a column named after it, with ``reference=``) and the
        consensus: with one annotator code in ``annotators``, the consensus that annotator
        is compared with (:meth:`others`: the majority of the others)."""
        ann = self.ann
        names = list(ann.annotators) + ([] if self.reference is None else [self.reference])
        clash = [str(a) for a in names if str(a) in FIXED_COLUMNS]
        if clash:
            raise AgreementError(f"explore: annotator(s) {clash!r} share a name with the "
                                 f"columns {list(FIXED_COLUMNS)!r}; rename them")
        cats = ann.categories
        out = {"item": ann.items.take(rows), "agreement": self.agreement[rows],
               "n_ratings": self.m[rows].astype(np.int64)}
        for j, name in enumerate(ann.annotators):
            out[name] = pd.Categorical.from_codes(self.grid[rows, j], cats)
        if self.reference is not None:
            out[self.reference] = pd.Categorical.from_codes(self.gold[rows], cats)
        consensus = self.others()[:, annotators[0]] if len(annotators) == 1 else self.consensus
        out["consensus"] = pd.Categorical.from_codes(consensus[rows], cats)
        frame = pd.DataFrame(out)
        frame.attrs["reference"] = self.reference
        return frame


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


def _codes(values, known: pd.Index, what: str, where: str = "disagreements",
           name: str | None = None) -> list[int]:
    """Positions in ``known`` of one name or a list of one or two distinct ones (None:
    none), matched by identity; refuses unknown names, naming the function ``where``, the
    parameter (``name``, default ``what`` + "s") and the known names."""
    if values is None:
        return []
    name = name or f"{what}s"
    names = list(values) if _many(values) else [values]
    if not 1 <= len(names) <= 2 or len(set(map(repr, names))) != len(names):
        validate.fail(where, name, f"one {what} or two different ones", values)
    codes = known.get_indexer(names)
    if np.any(codes < 0):
        raise AgreementError(f"{where}: unknown {what}(s) "
                             f"{[n for n, c in zip(names, codes) if c < 0]!r} in {name}=; "
                             f"the data have {list(known)[:20]!r}")
    return codes.tolist()


def _many(value) -> bool:
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes))


def _raters(ann: Annotations, reference, where: str):
    """The raters of ``ann`` without the annotator named ``reference``, that annotator's
    primary label codes per item (-1: not rated) and its name as the data have it."""
    if _many(reference):
        validate.fail(where, "reference", "one annotator name", reference)
    j = _codes(reference, ann.annotators, "annotator", where, "reference")[0]
    prim = ann.primary()
    own = prim.annotator == j
    gold = np.full(ann.n_items, -1, dtype=np.int64)
    gold[prim.item[own]] = prim.label[own]
    return ann.select_annotators(list(ann.annotators.delete(j))), gold, ann.annotators[j]


def _is_majority(consensus) -> bool:
    return isinstance(consensus, str) and consensus == "majority"


def _named(ann: Annotations, where: str) -> Annotations:
    """``ann``, refused if built from per-item counts (no annotator is known)."""
    if ann.anonymous:
        raise AgreementError(f"{where} needs to know which annotator gave each label, but "
                             "this data was built from per-item counts "
                             "(Annotations.from_counts); load the ratings with from_long or "
                             "from_wide")
    return ann


def _project(data, consensus, reference=None, where: str = "the explorer") -> Project:
    """``data`` as a :class:`Project`: made here, or given. A given Project is used as it
    is; ``reference=`` then names its reference, or one of its raters (a Project made
    without ``reference=``, whose raters and consensus include that annotator)."""
    if not isinstance(data, Project):
        return Project(data, consensus, reference, where=where)
    if reference is not None and data.reference is not None and reference != data.reference:
        validate.fail(where, "reference", f"this Project's reference, {data.reference!r}",
                      reference)
    return data


@validate.takes()  # a misspelt keyword is refused, never its default
def disagreements(data, annotators=None, labels=None, *, consensus="majority",
                  reference=None) -> pd.DataFrame:
    """The items whose ratings differ, lowest per-item agreement first.

    The list an adjudicator works through: every item on which the ratings are not
    unanimous, narrowed to a pair of annotators, to one annotator against their
    consensus, or to a pair of confused labels. The API under the explorer's tables;
    `write_adjudication` writes it as a sheet.

    Parameters
    ----------
    data : Annotations, a tidy table (item, annotator, label) or a `Project`
        Categorical ratings with named annotators (not ``Annotations.from_counts``).
        Span data (a reader's Spans, a Continuum, a table of units with start and end)
        lists the documents with unmatched or mismatched units instead:
        `span_disagreements` (``annotators=`` narrows
        them; ``labels=`` and ``reference=`` are refused).
    annotators : name, or a list of one or two names, optional
        ``(a, b)``: the items both rated on which they differ. ``a``: the items where a's
        label differs from the consensus a is compared with: the majority of the *other*
        annotators (with two annotators, the other one), or a model's label.
    labels : label, or a list of one or two labels, optional
        ``(x, y)``: the items where x and y were confused (both given; with two
        annotators, one gave x and the other y; with one annotator, they gave x where
        their consensus is y); ``x``: the items that involve x. Matched by identity (1 is
        not "1").
    consensus : "majority", "dawid_skene", "mace", a model result, a model function or a Series
        ``"majority"``: majority vote, none on a tie; ``"dawid_skene"``, ``"mace"``: the
        annotator models fitted on the raters; a fitted model's result (its ``labels``);
        a function data → result; a Series item → label (one label per item).
    reference : annotator name, optional
        A gold annotator (e.g. adjudicated labels): the yardstick, not a rater. It takes
        no part in the ratings, agreement or consensus above; its labels are shown in a
        column of its name.

    Returns
    -------
    pandas.DataFrame
        ``item``, ``agreement`` (the share of agreeing pairs of the item's ratings,
        Fleiss 1971 P_i), ``n_ratings``, one column per annotator (their label, NaN where
        they did not rate the item), the reference's column, and ``consensus`` (with one
        annotator: the consensus they are compared with). ``attrs``: ``n_items`` (every
        item) and ``reference``.

    Raises
    ------
    AgreementError
        Unknown annotators or labels (named with the known ones), more than two of
        either, a consensus Series that gives an item twice or a label the data do not
        have, per-item counts without annotators, an annotator named like a fixed column.

    See Also
    --------
    annotator_profile : each annotator's agreement with the same consensus; its
        ``n_consensus − consensus_agreement · n_consensus`` is the length of
        ``disagreements(data, annotators=a)``.
    consensus_confusion : the counts of ``disagreements(data, a, (x, y))`` for x ≠ y.

    Notes
    -----
    P_i = Σ_c n_ic (n_ic − 1) / (m_i (m_i − 1)) (Fleiss 1971, eq. 2). The majority of the
    others for annotator j on item i is the unique largest count of n_ic − [x_ij = c].

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    Psychological Bulletin, 76(5), 378–382. https://doi.org/10.1037/h0031619

    Examples
    --------
    >>> import iaa_widgets as iaa
    >>> df = iaa.datasets.product_reviews().drop(columns="text")
    >>> dev = iaa.disagreements(df, annotators="dev")
    >>> profile = iaa.annotator_profile(df)
    >>> n = profile.loc["dev", "n_consensus"]
    >>> len(dev) == round(n * (1 - profile.loc["dev", "consensus_agreement"]))
    True
    """
    from .explore_spans import is_spans, span_disagreements
    if is_spans(data):
        if labels is not None or reference is not None:
            raise AgreementError("disagreements: labels= and reference= narrow labels of "
                                 "items; for spans they are not available: use "
                                 "span_disagreements(spans) and the documents' units "
                                 "(spans[document])")
        return span_disagreements(data, annotators=annotators)
    p = _project(data, consensus, reference, "disagreements")
    who = p.annotator_codes(annotators)
    out = p.frame(p.rows(p.mask(who, p.label_codes(labels))), who)
    out.attrs["n_items"] = p.ann.n_items
    return out


# ---------------------------------------------------------------- annotators
@validate.takes()  # a misspelt keyword is refused, never its default
def consensus_confusion(data, annotator=None, *, consensus="majority",
                        reference=None) -> pd.DataFrame:
    """Each annotator's labels against the consensus they are compared with.

    The table behind each row of `annotator_profile`: its diagonal counts agreement
    with the consensus, an off-diagonal cell (x, y) the items where the annotator said
    x and the consensus y.

    Parameters
    ----------
    data : Annotations, a tidy table (item, annotator, label) or a `Project`
        Categorical ratings with named annotators.
    annotator : annotator name, optional
        One annotator: their matrix. None: every annotator's cells, long.
    consensus, reference :
        As in `disagreements` (the majority vote is that of the others,
        `Project.others`; a reference is left out of the raters).

    Returns
    -------
    pandas.DataFrame
        With ``annotator``: the label × consensus counts (rows: their label, columns: the
        consensus; items without a consensus left out). Else: annotator, label,
        consensus, count of every non-zero cell.

    Raises
    ------
    AgreementError
        An unknown annotator (named with the known ones), or the refusals of
        `disagreements`.

    See Also
    --------
    disagreements : an off-diagonal cell (x, y) counts the items of
        ``disagreements(data, annotator, (x, y))``.
    annotator_profile : the agreement and κ of these tables.

    Notes
    -----
    Cell (x, y) of annotator j: #{i : x_ij = x, c_ij = y}, with c_ij the majority of
    n_ic − [x_ij = c] (or a model's label of item i).

    Examples
    --------
    >>> import pandas as pd, iaa_widgets as iaa
    >>> df = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2], "annotator": list("abc") * 2,
    ...                    "label": ["x", "x", "y", "y", "y", "y"]})
    >>> iaa.consensus_confusion(df, "c")  # doctest: +NORMALIZE_WHITESPACE
    consensus  x  y
    label
    x          0  0
    y          1  1
    """
    where = "consensus_confusion"
    p = _project(data, consensus, reference, where)
    cube = confusion_cube(p)
    cats = p.ann.categories
    if annotator is not None:
        if _many(annotator):
            validate.fail(where, "annotator", "one annotator name", annotator)
        j = _codes(annotator, p.ann.annotators, "annotator", where, "annotator")[0]
        return pd.DataFrame(cube[j], index=pd.Index(cats, name="label"),
                            columns=pd.Index(cats, name="consensus"))
    a, x, c = np.nonzero(cube)
    return pd.DataFrame({"annotator": p.ann.annotators.take(a), "label": cats.take(x),
                         "consensus": cats.take(c), "count": cube[a, x, c]})


def confusion_cube(p: Project) -> np.ndarray:
    """annotators × K × K counts of (annotator, their label, the others' consensus)."""
    return _cube(p.grid, p.others(), p.ann.n_categories)


def _cube(grid: np.ndarray, against: np.ndarray, k: int) -> np.ndarray:
    """annotators × K × K counts of (annotator j, x_ij, against_ij) over the items where
    both are given (``against``: items × annotators codes, or items × 1 for every j)."""
    against = np.broadcast_to(against, grid.shape)
    n_ann = grid.shape[1]
    ok = (grid >= 0) & (against >= 0)
    who = np.broadcast_to(np.arange(n_ann), grid.shape)[ok]
    cells = (who * k + grid[ok]) * k + against[ok]
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


@validate.takes()  # a misspelt keyword is refused, never its default
def annotator_profile(data, reference=None, *, consensus="majority") -> pd.DataFrame:
    """Each annotator against the consensus and, with ``reference=``, against a gold
    annotator.

    One row per rater: how often their label equals the consensus of the others (and
    Cohen's κ against it), and with a reference their accuracy, κ and macro F1 against
    it: who drifts from the group, and who from the gold labels.

    Parameters
    ----------
    data : Annotations, a tidy table (item, annotator, label) or a `Project`
        Categorical ratings with named annotators.
    reference : annotator name, optional
        A gold annotator (adjudicated labels, or a model's predictions added as an
        annotator): the yardstick, not a rater. It is left out of the rows and of the
        consensus, as in `disagreements`. (A `Project` made without
        ``reference=`` keeps it among its raters: its row is NaN.)
    consensus : as in `disagreements`
        The majority vote is that of the *other* annotators (`Project.others`).

    Returns
    -------
    pandas.DataFrame
        One row per rater: ``n_ratings``; ``n_consensus`` (items compared with the
        consensus), ``consensus_agreement`` (their share of labels equal to it),
        ``consensus_kappa`` (Cohen's κ against it); with ``reference=``:
        ``n_reference``, ``accuracy``, ``kappa`` and ``f1`` (macro) against it.
        ``attrs["reference"]``: its name.

    Raises
    ------
    AgreementError
        An unknown ``reference`` (named with the known annotators), or the refusals of
        `disagreements`.

    See Also
    --------
    disagreements : ``disagreements(data, annotators=a)`` lists the
        n_consensus × (1 − consensus_agreement) items where a differs from it.
    consensus_confusion : the label × consensus counts behind each row.

    Notes
    -----
    Against a table t (their label × the consensus, or × the reference):
    accuracy = Σ_c t_cc / n; κ = (p_o − p_e) / (1 − p_e) with
    p_e = Σ_c t_c· t_·c / n² (Cohen 1960); F1_c = 2 t_cc / (t_c· + t_·c), averaged over
    the labels either side used.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement, 20(1), 37–46. https://doi.org/10.1177/001316446002000104

    Examples
    --------
    >>> import pandas as pd, iaa_widgets as iaa
    >>> df = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2], "annotator": list("abg") * 2,
    ...                    "label": ["x", "x", "x", "x", "y", "y"]})
    >>> profile = iaa.annotator_profile(df, reference="g")
    >>> profile[["n_reference", "accuracy"]]  # doctest: +NORMALIZE_WHITESPACE
               n_reference  accuracy
    annotator
    a                    2       0.5
    b                    2       1.0
    """
    where = "annotator_profile"
    p = _project(data, consensus, reference, where)
    ann = p.ann
    mine = _against(confusion_cube(p))
    out = pd.DataFrame({"n_ratings": np.count_nonzero(p.grid >= 0, axis=0),
                        "n_consensus": mine["n"].astype(np.int64),
                        "consensus_agreement": mine["accuracy"],
                        "consensus_kappa": mine["kappa"]},
                       index=pd.Index(ann.annotators, name="annotator"))
    if reference is None and p.reference is None:
        return out
    own = None
    if p.reference is not None:  # the yardstick, apart from the raters
        gold, name = p.gold, p.reference
    else:  # one of the raters of a Project made without reference=
        if _many(reference):
            validate.fail(where, "reference", "one annotator name", reference)
        own = _codes(reference, ann.annotators, "annotator", where, "reference")[0]
        gold, name = p.grid[:, own], ann.annotators[own]
    against = _against(_cube(p.grid, gold[:, None], ann.n_categories))
    if own is not None:
        against["n"][own] = 0
        for key in ("accuracy", "kappa", "f1"):
            against[key][own] = np.nan
    out["n_reference"] = against["n"].astype(np.int64)
    for key in ("accuracy", "kappa", "f1"):
        out[key] = against[key]
    out.attrs["reference"] = name
    return out


@validate.takes()  # a misspelt keyword is refused, never its default
def label_usage(data, *, reference=None) -> pd.DataFrame:
    """Each annotator's share of each label, beside the pooled shares.

    Who over- or under-uses a label: an annotator's shares against everyone's show the
    bias that separates Cohen's κ (each annotator's own shares) from Scott's π (the
    pooled shares).

    Parameters
    ----------
    data : Annotations, a tidy table (item, annotator, label) or a `Project`
        Ratings with named annotators.
    reference : annotator name, optional
        A gold annotator, left out (as in `disagreements`).

    Returns
    -------
    pandas.DataFrame
        Rows: annotators; columns: the labels in the data's order; values n_jc / n_j·.
        ``attrs["pooled"]``: every rating's shares n_·c / n_··, aligned with the columns,
        so that share − pooled says who over- or under-uses which label.

    Raises
    ------
    AgreementError
        Data from per-item counts (``Annotations.from_counts``: no annotator is named),
        span data, an unknown reference.

    See Also
    --------
    annotator_profile : each annotator against the consensus.

    Notes
    -----
    n_jc: the ratings of annotator j with label c (primary labels).

    Examples
    --------
    >>> import pandas as pd, iaa_widgets as iaa
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2,
    ...                    "label": ["x", "x", "x", "y"]})
    >>> iaa.label_usage(df)  # doctest: +NORMALIZE_WHITESPACE
    label        x    y
    annotator
    a          1.0  0.0
    b          0.5  0.5
    """
    where = "label_usage"
    if isinstance(data, Project):
        ann = _project(data, None, reference, where).ann
    else:
        refuse_spans(data, where)
        ann = _named(as_annotations(data), where)
        if reference is not None:
            ann = _raters(ann, reference, where)[0]
    n_rc = stats.annotator_counts(ann).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = n_rc / n_rc.sum(axis=1, keepdims=True)
    out = pd.DataFrame(shares, index=pd.Index(ann.annotators, name="annotator"),
                       columns=pd.Index(ann.categories, name="label"))
    out.attrs["pooled"] = (n_rc.sum(axis=0) / n_rc.sum()).tolist()
    return out


# ---------------------------------------------------------------- labels
@validate.takes()  # a misspelt keyword is refused, never its default
def label_confusion(data, *, reference=None) -> pd.DataFrame:
    """The label × label matrix of pairs of ratings of one item by two annotators.

    Which labels are confused with which: every ordered pair of ratings of an item
    counted in its cell, so that the diagonal holds the agreeing pairs, with each
    label's specific agreement beside it.

    Parameters
    ----------
    data : Annotations, a tidy table (item, annotator, label) or a `Project`
        Categorical ratings with named annotators.
    reference : annotator name, optional
        A gold annotator, left out (as in `disagreements`).

    Returns
    -------
    pandas.DataFrame
        Labels × labels, Σ_i n_ic (n_ik − [c = k]): ordered pairs of ratings (symmetric).
        ``attrs["agreement"]``: each label's specific agreement, aligned with the labels;
        ``attrs["n_items"]``: the items given both labels (labels × labels, lists): the
        number of items ``disagreements(data, labels=(x, y))`` lists for x ≠ y (a cell
        of the matrix counts pairs of ratings, not items).

    Raises
    ------
    AgreementError
        The refusals of `disagreements` (per-item counts, span data, an unknown
        reference).

    See Also
    --------
    disagreements : the items behind a cell, ``labels=(x, y)``.
    specific_agreement : one label's specific agreement with its interval.

    Notes
    -----
    The matrix is Krippendorff's coincidences before the division by m_i − 1; specific
    agreement of c is Σ_i n_ic (n_ic − 1) / Σ_i n_ic (m_i − 1) (Uebersax 1982).

    References
    ----------
    Uebersax, J. S. (1982). A design-independent method for measuring the reliability
    of psychiatric diagnosis. Journal of Psychiatric Research, 17(4), 335–342.
    https://doi.org/10.1016/0022-3956(82)90039-5

    Examples
    --------
    >>> import pandas as pd, iaa_widgets as iaa
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2,
    ...                    "label": ["x", "x", "x", "y"]})
    >>> iaa.label_confusion(df)  # doctest: +NORMALIZE_WHITESPACE
    label  x  y
    label
    x      2  1
    y      1  0
    """
    p = _project(data, None, reference, "label_confusion")
    ann, n = p.ann, p.counts.astype(float)
    o = n.T @ n
    o[np.diag_indices_from(o)] -= n.sum(axis=0)
    given = (p.counts > 0).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        specific = np.diagonal(o) / o.sum(axis=1)
    out = pd.DataFrame(o.astype(np.int64), index=pd.Index(ann.categories, name="label"),
                       columns=pd.Index(ann.categories, name="label"))
    out.attrs["agreement"] = specific.tolist()
    out.attrs["n_items"] = np.rint(given.T @ given).astype(np.int64).tolist()
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
