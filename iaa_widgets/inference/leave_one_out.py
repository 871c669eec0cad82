"""A measure without each annotator in turn, and a paired bootstrap interval of the
difference over items, through the measure's Statistic (the explorer's annotators panel)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import stats, validate
from ..data import Annotations, as_annotations
from ..errors import AgreementError
from ..measures import _registry
from ..stats.resampling import (_draws, _generic, _one_blas_thread, cluster_draws,
                                intervals, resampled)
from ._clusters import cluster_codes
from ._measure import MAX_RESAMPLES, check_keywords, resolve

__all__ = ["leave_one_out"]


def leave_one_out(data, measure, confidence: float = 0.95, *, n_resamples: int | None = 1000,
                  seed=None, cluster=None, **measure_kwargs) -> pd.DataFrame:
    r"""The measure without each annotator in turn, with a paired bootstrap interval of
    the change.

    Indexed by annotator: ``value`` (the measure without them), ``delta`` (value − the
    measure on all annotators; negative: they raise agreement, positive: they drag it
    down) and a paired bootstrap interval of delta over items (``ci_low``, ``ci_high``,
    ``se``; percentile, Efron & Tibshirani 1993 ch. 13): each resample draws items once
    and evaluates every version of the measure on the same draw.

    Parameters
    ----------
    data : Annotations or tidy DataFrame (item, annotator, label)
        The ratings, with at least three annotators (two remain without each).
    measure : str or callable
        A coefficient's name (``iaa.coefficients()``) or a function of the data returning
        a result with ``.value`` or a number.
    confidence : float, default 0.95
        Level of the intervals, in (0, 1).
    n_resamples : int or None, default 1000
        Paired bootstrap replicates, 2 … ``MAX_RESAMPLES`` (10⁶); None gives the values
        only (the interval columns NaN).
    seed : None, int or numpy Generator, default None
        Makes the replicates reproducible.
    cluster : str, pandas.Series or None, default None
        Each item's cluster (a column of the tidy table, or a Series item → cluster): a
        resample then draws whole clusters, as in `bootstrap`.
    **measure_kwargs
        Passed to the measure (e.g. ``level="interval"``); a keyword it does not take is
        refused, naming the closest it takes.

    Returns
    -------
    pandas.DataFrame
        One row per annotator: ``value``, ``delta``, ``ci_low``, ``ci_high``, ``se`` and
        ``n_undefined`` (replicates where a version was undefined). ``attrs``: ``measure``,
        ``value`` (on all annotators), ``confidence``, ``n_resamples``, ``seed`` and
        ``resampled`` ("items" or "clusters").

    Raises
    ------
    AgreementError
        For an unknown measure or keyword, fewer than three annotators, a confidence
        outside (0, 1), or ``n_resamples`` outside its range.

    See Also
    --------
    bootstrap : the interval of the measure itself.
    compare : two measures, groups or rounds compared with a paired test.
    ProjectExplorer : shows this table as the annotators' panel.

    Notes
    -----
    For annotator $j$, $\Delta_j = M(X_{-j}) - M(X)$, and replicate $b$ draws items
    $I_b$ with replacement and gives $\Delta_j^{(b)} = M(X_{-j}[I_b]) - M(X[I_b])$: the
    versions share each draw, so the interval is of the paired difference.

    For a measure with a Statistic (``measure.statistic``, every categorical one) the
    versions are one Statistic, resampled once (`iaa_widgets.stats.resampling.resampled`).
    A measure that takes per-item counts (``Annotations.from_counts``; it does not ask who
    gave each label: Fleiss' κ, α, AC1, S, percent agreement …) gets each version's
    tables from the item's counts minus the annotator's label (`_versions_of_counts`),
    never from a copy of the ratings; one that reads who gave each label (Conger's κ …)
    from each version's ratings, or, for the values alone, from the measure's own
    ``without_each`` in the registry (Conger's κ: one pass over the ratings); any other
    function is recomputed on each rebuilt resample.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman &
    Hall/CRC. https://doi.org/10.1201/9780429246593

    Examples
    --------
    Krippendorff's (2011) reliability data, α nominal .743 on all four coders:

    >>> import iaa_widgets as iaa
    >>> d = iaa.datasets.krippendorff_2011()
    >>> t = iaa.leave_one_out(d, "krippendorff_alpha", n_resamples=200, seed=0)
    >>> t[["value", "delta"]].round(3)
               value  delta
    annotator
    A          0.715 -0.029
    B          0.704 -0.039
    C          0.868  0.125
    D          0.675 -0.068

    Each value is the measure recomputed without that coder:

    >>> round(iaa.krippendorff_alpha(d[d.annotator != "C"]).value, 3)
    0.868
    """
    fn, name = resolve(measure, "leave_one_out")
    check_keywords("leave_one_out", name, fn, measure_kwargs)
    confidence = validate.confidence("leave_one_out", "confidence", confidence)
    if n_resamples is not None:
        n_resamples = validate.integer("leave_one_out", "n_resamples", n_resamples, minimum=2,
                                       maximum=MAX_RESAMPLES)
    validate.seed("leave_one_out", "seed", seed)
    ann = as_annotations(data)
    clusters = cluster_codes(data, ann, cluster, "leave_one_out")
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
        if joined is None and n_resamples is not None:  # Conger's κ: one Statistic
            joined = _versions_of_raters(make, ann, measure_kwargs)
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
            resampled(joined, n_resamples, np.random.default_rng(seed), clusters)
    elif parts is not None and n_resamples is None:  # the values: each finish of its totals
        values = np.array([p.values(p.base[None])[0] for p in parts], dtype=float)
        boot = None
    else:  # the same seed draws the same items for every version: paired
        versions = [v.expanded("leave_one_out") for v in [ann, *_without_each(ann)]]
        values = np.array([float(getattr(r, "value", r)) for r in
                           (fn(v, **measure_kwargs) for v in versions)])
        boot = None if n_resamples is None else np.column_stack([
            _generic(fn, v, _item_draws(np.random.default_rng(seed), v.n_items, n_resamples,
                                        clusters), measure_kwargs) for v in versions])
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
                     n_resamples=n_resamples, seed=seed,
                     resampled="items" if clusters is None else "clusters")
    return out


def _item_draws(rng, n_items: int, n_resamples: int, clusters):
    """The item codes of each resample: single items, or whole clusters."""
    return _draws(rng, n_items, n_resamples) if clusters is None else \
        cluster_draws(rng, clusters, n_resamples)


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
    from ..stats.statistic import DENSE_CELLS, RowBlocks, per_item
    prim = ann.primary()  # one primary label per item and annotator (the loaders see to it)
    counts = stats.item_counts(ann)
    n, n_ann = ann.n_items, ann.n_annotators
    item, who = prim.item, prim.annotator
    rows, codes = _distinct_rows(counts, item, prim.label)
    try:
        # an item rated by all J annotators is rated by J − 1 in every version: its base
        # row cancels against each version's (base + delta), so it is made as an empty row
        # (a row of J ratings is no row of data with J − 1 annotators)
        stat = make(_counts_data(ann, np.where(rows.sum(axis=1, keepdims=True) < n_ann, rows, 0),
                                 n_ann - 1), **kwargs)
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


def _versions_of_raters(make, ann: Annotations, kwargs: dict):
    """The Statistic of every version (all annotators, then without each in turn) of
    Conger's κ (a Statistic of A'_o's item terms ``agree``, ``pairable`` and each rater's
    category counts ``n_rc``) under ``missing="available"``, or under any policy when
    every item is rated by every annotator (then every policy keeps every item in every
    version); None otherwise.

    Then every rated item counts in every version, so version j's n_rc
    (Conger 1980's p_rc = n_rc / n_r) is the whole's without rater j's row, and its
    A'_o's item terms (Fleiss 1971's P_i [m_i ≥ 2] and [m_i ≥ 2]) differ from the whole's
    only on the items j rated, where they are those of n_i − e(x_ij). So the tables are
    the whole's and, per item and annotator, the change of ``agree`` and ``pairable``
    when their rating is taken out (zero where they gave none): one product of the item
    weights for every version, and each version finished by the measure's own finish of
    J − 1 raters, all versions in one call."""
    from ..measures import _formulas as F
    from ..stats.statistic import per_item
    n, n_ann, k = ann.n_items, ann.n_annotators, ann.n_categories
    if not set(kwargs) <= {"missing"} or ann.rating_count is not None or \
            n * k > stats.MAX_CELLS:
        return None
    prim = ann.primary()
    rated = prim.label >= 0  # a blank label: no rating
    item, who, label = prim.item[rated], prim.annotator[rated], prim.label[rated]
    counts = np.bincount(item * k + label, minlength=n * k).reshape(n, k).astype(float)
    m = counts.sum(axis=1)
    if kwargs.get("missing") != "available" and not np.all(m == n_ann):
        return None
    full = make(ann, **kwargs)
    if set(full.tables) != {"agree", "pairable", "n_rc"} or full.rows is not None or \
            full.weights is not None or full.n_items != n:
        return None
    version = make(next(_without_each(ann)), **kwargs)  # J − 1 raters: each version's finish
    rows = counts[item]
    rows[np.arange(len(item)), label] -= 1  # each rating's item without it
    less = np.where(m[item] >= 3, F.item_agreement(rows), 0.0)  # P_i [m_i − 1 ≥ 2]
    whole = np.asarray(full.tables["agree"], dtype=float)[item, 0]
    tables = {**full.tables,
              "d_agree": per_item(item, who, n, n_ann, less - whole),
              "d_pairable": per_item(item, who, n, n_ann,
                                     (m[item] >= 3).astype(float) - (m[item] >= 2))}
    shapes = {**full.shapes, "d_agree": (n_ann,), "d_pairable": (n_ann,)}
    # version j's raters: every one but j, in their order (J × (J − 1))
    others = np.arange(n_ann - 1)[None, :] + (np.arange(n_ann - 1)[None, :] >=
                                              np.arange(n_ann)[:, None])

    def finish(tot):  # the whole's value, then each version's
        first = np.asarray(full.finish({name: tot[name] for name in full.tables})[0],
                           dtype=float).reshape(-1)
        b = len(first)
        each = {"agree": tot["agree"].reshape(b, 1) + tot["d_agree"],
                "pairable": tot["pairable"].reshape(b, 1) + tot["d_pairable"],
                "n_rc": tot["n_rc"].reshape(b, n_ann, k)[:, others, :]}
        rest = version.finish({name: t.reshape((b * n_ann,) + tuple(version.shapes[name]))
                               for name, t in each.items()})[0]
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
    from ..data.annotations import _raters
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
    from ..stats import Statistic
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
