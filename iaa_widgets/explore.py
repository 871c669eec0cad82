"""The API under :class:`~iaa_widgets.ProjectExplorer`: from an agreement number to the
items, annotators and labels behind it.

- :func:`disagreements`: the items whose ratings differ, most disagreement first, with
  each annotator's label and the consensus; narrowed to a pair of annotators, one
  annotator against the consensus, a label, or a confusion of two labels;
- :func:`leave_one_out`: a measure without each annotator in turn, and a paired
  bootstrap interval of the difference over items, through the measure's Statistic;
- :func:`annotator_profile`, :func:`label_usage`, :func:`consensus_confusion`: each
  annotator against the consensus of the others, label usage against the pooled shares,
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

__all__ = ["Project", "disagreements", "leave_one_out", "annotator_profile", "label_usage",
           "consensus_confusion", "confusion_cube", "label_confusion", "similarity_order"]

# the columns of a disagreements table besides one column per annotator
FIXED_COLUMNS = ("item", "agreement", "n_ratings", "consensus")


def _consensus_codes(ann: Annotations, consensus) -> np.ndarray:
    """Each item's consensus as a category code (-1: none). ``consensus``:
    "majority_vote" (ties give no consensus), a callable model (data → a result with
    ``labels``) or such a result (e.g. from Dawid–Skene), or a Series item → label."""
    if consensus is None:
        return np.full(ann.n_items, -1, dtype=np.int64)
    if isinstance(consensus, str):
        validate.choice("explore", "consensus", consensus, ("majority_vote",))
        from .models import majority_vote
        consensus = majority_vote(ann, ties="none")
    elif callable(consensus):
        consensus = consensus(ann)
    labels = getattr(consensus, "labels", consensus)
    if not isinstance(labels, pd.Series):
        validate.fail("explore", "consensus", "'majority_vote', a model function, a model "
                      "result with .labels or a Series item → label", consensus)
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


class Project:
    """One integer view of categorical ratings, made once: ``grid`` (items × annotators
    label codes, -1 where not rated), ``counts`` (n_ic), ``agreement`` (per item
    Σ_c n_ic(n_ic − 1) / (m_i(m_i − 1)), Fleiss 1971 P_i; NaN below two ratings),
    ``consensus`` (codes, -1 none; ``consensus=None``: none computed) and ``order`` (items by agreement, lowest first, then
    in the data's order). Primary labels; counts are expanded into items."""

    def __init__(self, data, consensus="majority_vote"):
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
        self._model = consensus
        self._others = None
        self.consensus = _consensus_codes(ann, consensus)
        key = np.where(np.isnan(self.agreement), np.inf, self.agreement)
        self.order = np.lexsort((np.arange(ann.n_items), key))

    def others(self) -> np.ndarray:
        """Items × annotators: the consensus of the other annotators on each item (-1:
        none), the same model on the data without each annotator in turn (made once)."""
        if self._others is None:
            ann = self.ann
            names = list(ann.annotators)
            out = np.full(self.grid.shape, -1, dtype=np.int64)
            for j in range(len(names)):  # one vectorised model per annotator
                if isinstance(self._model, str):  # majority vote of n_ic − [x_ij = c]
                    out[:, j] = _majority_without(self.counts, self.grid[:, j])
                else:
                    out[:, j] = _consensus_codes(
                        ann.select_annotators(names[:j] + names[j + 1:]), self._model)
            self._others = out
        return self._others

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


def _majority_without(counts: np.ndarray, own: np.ndarray) -> np.ndarray:
    """The majority vote of each item without one annotator's label ``own`` (-1: none):
    the category with the most of the votes n_ic − [own_i = c], none on a tie or without
    votes (``models.majority_vote(..., ties="none")`` on the data without them; the tests
    check that they agree)."""
    votes = counts.astype(np.int64, copy=True)
    rated = np.flatnonzero(own >= 0)
    votes[rated, own[rated]] -= 1
    top = votes.max(axis=1)
    unique = (np.count_nonzero(votes == top[:, None], axis=1) == 1) & (top > 0)
    return np.where(unique, np.argmax(votes, axis=1), -1)


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
                  consensus="majority_vote") -> pd.DataFrame:
    """The items whose ratings differ, lowest per-item agreement first.

    Columns: ``item``, ``agreement`` (the share of agreeing pairs of the item's ratings,
    Fleiss 1971 P_i), ``n_ratings``, one column per annotator (their label, NaN where
    they did not rate the item) and ``consensus`` (majority vote, none on a tie; or
    ``consensus=`` a model function such as Dawid–Skene, or its result).

    ``annotators=(a, b)``: the items both rated on which they differ; ``annotators=a``:
    the items where a's label differs from the consensus. ``labels=(x, y)``: the items
    where x and y were confused (both given; with two annotators, one gave x and the
    other y; with one annotator, they gave x where the consensus is y); ``labels=x``: the
    items that involve x. Labels are matched by identity (1 is not "1").
    """
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
    versions are one Statistic whose tables are those of each version side by side,
    resampled once (:func:`iaa_widgets.resampling.resampled`); any other function is
    recomputed on each rebuilt resample. ``attrs``: ``measure``, ``value`` (on all
    annotators), ``confidence``, ``n_resamples``, ``seed``. ``n_resamples=None``: the
    values only (the interval columns NaN).
    """
    from .resampling import _generic, _draws, _resolve, intervals, resampled
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
    versions = [ann, *_without_each(ann)]
    make = getattr(fn, "statistic", None)
    parts = joined = None
    if make is not None:
        parts = [make(v, **measure_kwargs) for v in versions]
        joined = _side_by_side(parts) if n_resamples is not None else None
    if parts is not None and n_resamples is None:  # the values: each finish of its totals
        values = np.array([p.values(p.base[None])[0] for p in parts], dtype=float)
        boot = None
    elif joined is not None:
        values = joined.values(joined.base[None])[0]
        boot = resampled(joined, n_resamples, np.random.default_rng(seed))
    else:  # the same seed draws the same items for every version: paired
        versions = [v.expanded("leave_one_out") for v in versions]
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
def consensus_confusion(data, annotator=None, *, consensus="majority_vote") -> pd.DataFrame:
    """Each annotator's labels against the consensus of the others (majority vote on the
    data without them; items without such a consensus left out): with ``annotator``, its
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


def annotator_profile(data, reference=None, *, consensus="majority_vote") -> pd.DataFrame:
    """One row per annotator: ``n_ratings``; against the consensus of the others
    (majority vote on the data without them): ``n_consensus`` (items compared),
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
