"""Sufficient statistics on the user's engine: DuckDB, Dask, PySpark, polars (eager or
lazy), pandas, Arrow, through narwhals.

A tidy table (item, annotator, label) that may be larger than memory is reduced where
it lives, by long-form group-bys and self-joins on the item (no pivot), to tables whose
size follows the number of categories K, annotators R and ratings per item m (at most
R), never the number of items:

- ``sizes[m]``: the items with m ratings (N_m; m = 0 for an item whose labels are all
  blank);
- ``totals[m, c]`` = Σ_{i: m_i = m} n_ic;
- ``products[m, c, k]`` = Σ_{i: m_i = m} n_ic n_ik (a self-join of the item × category
  counts on the item);
- ``annotator_counts[m, r, c]``: the ratings c of annotator r on items with m ratings;
- ``pair_tables[p, c, k]``: the items annotator a_p put in c and b_p in k (a self-join
  of the ratings on the item), the two-annotator contingency tables.

Grouping by m is what lets every missing-data policy of the in-memory measures
(``listwise``: m = R; ``pairable``: m ≥ 2; ``available``: m ≥ 1 for the chance terms)
select its items after the fact. From them, each measure's totals are sums over m
(e.g. Krippendorff's coincidences o = Σ_{m ≥ 2} (P_m − diag(S_m)) / (m − 1)), and the
measure's own ``finish`` (from its Statistic, see :mod:`.statistic`) makes the value:
the same value as the in-memory path. Standard errors need per-item sums, which do not
come back: results carry the value (``observed``, ``expected``) and say so in ``note``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np
import pandas as pd

from ..data import Annotations
from ..data.categories import _declared_categories, _label_notes
from ..errors import AgreementError
from ..results import AgreementResult, PairwiseMatrix
from .tables import all_pairs

__all__ = ["SufficientStatistics", "sufficient_statistics"]

NOTE = ("computed from sufficient statistics on the data's engine: value only, the "
        "standard error needs per-item sums")


@dataclass(frozen=True, eq=False)
class SufficientStatistics:
    """The small tables every categorical measure finishes from (see the module
    docstring): ``sizes`` (M+1), ``totals`` (M+1 × K), ``products`` (M+1 × K × K),
    ``annotator_counts`` (M+1 × R × K) and, if made, ``pairs`` (P × 2 annotator codes,
    a < b) with their ``pair_tables`` (P × K × K). Categories and annotators keep
    their labels; ``n_blank`` rows had a blank label (missing ratings, counted)."""

    categories: pd.Index
    annotators: pd.Index
    ordered: bool
    sizes: np.ndarray
    totals: np.ndarray
    products: np.ndarray
    annotator_counts: np.ndarray
    pairs: np.ndarray | None = None
    pair_tables: np.ndarray | None = None
    notes: tuple[str, ...] = ()
    n_blank: int = 0

    @property
    def n_items(self) -> int:
        return int(self.sizes.sum())

    @property
    def n_annotators(self) -> int:
        return len(self.annotators)

    def __repr__(self) -> str:
        m = np.arange(len(self.sizes))
        return (f"SufficientStatistics({self.n_items} items, {self.n_annotators} annotators, "
                f"{len(self.categories)} categories, {int(m @ self.sizes)} ratings)")

    # -------------------------------------------------------------- measures
    def krippendorff_alpha(self, metric="nominal") -> AgreementResult:
        """:func:`~iaa_widgets.krippendorff_alpha` (any metric) from the coincidences
        o_ck = Σ_{m ≥ 2} (Σ_{m_i = m} n_ic n_ik − [c = k] Σ_{m_i = m} n_ic) / (m − 1)
        (Krippendorff 2011)."""
        from ..measures.alpha import _metric_name, krippendorff_alpha
        m = np.arange(len(self.sizes))
        two = m >= 2
        k = len(self.categories)
        o = np.zeros((k, k))
        for size in np.flatnonzero(two):  # one term per number of ratings m (≤ R)
            o += (self.products[size] - np.diag(self.totals[size])) / (size - 1)
        finish = krippendorff_alpha.statistic(self._stand_in(), metric=metric).finish
        value, d_o, d_e = (float(x[0]) for x in finish({"o": o[None]}))
        excluded = {"items with a single rating (unpairable)": int(self.sizes[1:2].sum()),
                    "items with no rating": int(self.sizes[0])}
        return self._result("krippendorff_alpha", value, d_o, d_e, two,
                            excluded, {"metric": _metric_name(metric)},
                            scale="disagreement")

    def percent_agreement(self, *, missing: str = "listwise") -> AgreementResult:
        """:func:`~iaa_widgets.percent_agreement` (value only)."""
        return self._classic("percent_agreement", missing)

    def bennett_s(self, *, weights=None, missing: str = "listwise") -> AgreementResult:
        """:func:`~iaa_widgets.bennett_s`, Brennan–Prediger (value only)."""
        return self._classic("bennett_s", missing, weights=weights)

    def fleiss_kappa(self, *, weights=None, missing: str = "listwise") -> AgreementResult:
        """:func:`~iaa_widgets.fleiss_kappa` (value only)."""
        return self._classic("fleiss_kappa", missing, weights=weights)

    def davies_fleiss_kappa(self, *, weights=None,
                            missing: str = "listwise") -> AgreementResult:
        """:func:`~iaa_widgets.davies_fleiss_kappa`, Conger's κ (value only)."""
        return self._classic("davies_fleiss_kappa", missing, weights=weights)

    def specific_agreement(self, *, positive=None, missing: str = "listwise") -> AgreementResult:
        """:func:`~iaa_widgets.specific_agreement` of ``positive`` (value only)."""
        return self._classic("specific_agreement", missing, positive=positive)

    def sparse_agreement(self, weights="annotations_m1", class_probs=None) -> AgreementResult:
        """:func:`~iaa_widgets.sparse_agreement` (SPA, eq. 7) for a weighting scheme
        k(n_i) of §5: Σ_{i: n_i = m} P̂_i = (Σ_c Σ_{n_i = m} n_ic² − m N_m) / (m(m − 1))
        per number of annotations m, and the class counts (eq. 4). Per-item weights
        (an array) need the items: in memory only."""
        return self._sparse("sparse_agreement", weights, class_probs)

    def sparse_kappa(self, weights="annotations_m1", class_probs=None) -> AgreementResult:
        """:func:`~iaa_widgets.sparse_kappa` (eq. 3–4), see :meth:`sparse_agreement`."""
        return self._sparse("sparse_kappa", weights, class_probs)

    def cohen_kappa(self, *, weights=None, annotators=None) -> AgreementResult:
        """:func:`~iaa_widgets.cohen_kappa` of two annotators (``annotators=(a, b)``
        when there are more) over the items both rated, with its standard errors (they
        need only the pair's table)."""
        return self._two("cohen_kappa", annotators, weights=weights)

    def scott_pi(self, *, weights=None, annotators=None) -> AgreementResult:
        """:func:`~iaa_widgets.scott_pi` of two annotators, with its standard error (it
        needs only the pair's table)."""
        return self._two("scott_pi", annotators, weights=weights)

    def pairwise(self, measure: str = "cohen_kappa", **kwargs) -> PairwiseMatrix:
        """:func:`~iaa_widgets.pairwise` with ``missing="pairwise"`` (each pair over the
        items both rated), computed by it from the pair tables kept as counts."""
        from ..measures.pairwise import pairwise
        t = self._pair_tables()
        frame = pairwise(self._counted(self.pairs, t, self.annotators), measure,
                         missing="pairwise", **kwargs)
        frame.attrs["note"] = "; ".join(filter(None, (*self.notes, frame.attrs["note"])))
        return frame

    # -------------------------------------------------------------- internals
    def _counted(self, pairs: np.ndarray, tables: np.ndarray, names) -> Annotations:
        """Pair tables as Annotations kept as counts: one item row per non-zero cell
        (p, c, k), rated c by annotator ``pairs[p, 0]`` and k by ``pairs[p, 1]``, standing
        for ``tables[p, c, k]`` items (as :meth:`Annotations.from_contingency`, with the
        data's categories and their order)."""
        p, c, k = np.nonzero(tables)
        n = len(p)
        return Annotations(np.tile(np.arange(n), 2), np.concatenate([pairs[p, 0], pairs[p, 1]]),
                           np.concatenate([c, k]).astype(np.int64), np.ones(2 * n, np.int8),
                           pd.RangeIndex(n, name="item"), pd.Index(names, name="annotator"),
                           self.categories, ordered=self.ordered,
                           item_weight=tables[p, c, k].astype(np.int64))

    def _stand_in(self, annotators=None) -> Annotations:
        """One item rated by every annotator (category 0), with the data's categories,
        their order and its annotators: what a measure's Statistic needs to build its
        ``finish``, which reads only these (weights, K, R, the positive category)."""
        names = self.annotators if annotators is None else pd.Index(list(annotators))
        r = len(names)
        return Annotations(np.zeros(r, np.int64), np.arange(r), np.zeros(r, np.int64),
                           np.ones(r, np.int8), pd.RangeIndex(1, name="item"),
                           pd.Index(names, name="annotator"), self.categories,
                           ordered=self.ordered)

    def _policy(self, measure: str, missing: str, singles: bool):
        """The item sizes m a missing-data policy keeps (as ``_prepare.prepare``), and
        what it excludes."""
        from ..measures._prepare import POLICIES, kept
        if missing not in POLICIES:
            raise AgreementError(f"{measure}: missing must be one of {list(POLICIES)!r}, "
                                 f"got {missing!r}")
        m = np.arange(len(self.sizes))
        full = self.n_annotators

        def count(mask) -> int:  # items of the sizes m in mask
            return int(self.sizes[mask].sum())
        if missing == "raise" and count(m < full):
            raise AgreementError(f"{measure}: {count(m < full)} item(s) lack a rating by "
                                 f"some of the {full} annotators; pass missing='listwise'")
        return kept(m, full, missing, singles, self.sizes, measure)

    def _classic(self, measure: str, missing: str, **kwargs) -> AgreementResult:
        """A multi-annotator coefficient: its totals (tables named as in its Statistic)
        summed over the item sizes its policy keeps, then its own ``finish``."""
        from ..measures import classic
        from ..measures.weights import agreement_weights
        # the measures whose chance terms take items rated once under "available"
        # (prepare(..., singles=True) in classic.py)
        singles = measure in ("fleiss_kappa", "davies_fleiss_kappa", "bennett_s")
        used, excluded = self._policy(measure, missing, singles)
        m = np.arange(len(self.sizes))
        pairable = used & (m >= 2)
        w = agreement_weights(kwargs.get("weights"), self.categories, self.ordered)[0]
        # Σ_i a_i over pairable items, a_i = (Σ_kl w_kl n_ik n_il − m_i) / (m_i(m_i − 1))
        # (Fleiss 1971 P_i; Gwet 2014 weighted p_a), grouped by m
        weighted = np.einsum("mkl,kl->m", self.products, w) - m * self.sizes
        with np.errstate(divide="ignore", invalid="ignore"):
            agree = np.where(pairable, weighted / (m * (m - 1)), 0.0).sum()
            shares = (self.totals[used] / m[used, None]).sum(axis=0)  # Σ_i n_ic / m_i
        diag = np.diagonal(self.products, axis1=1, axis2=2)
        tot = {"agree": [[agree]], "pairable": [[self.sizes[pairable].sum()]],
               "shares": [shares], "items": [[self.sizes[used].sum()]],
               "n_rc": [self.annotator_counts[used].sum(axis=0)],
               # Σ_i n_ic(n_ic − 1) and Σ_i n_ic(m_i − 1) (Uebersax 1982)
               "agree_c": [(diag - self.totals)[used].sum(axis=0)],
               "chances_c": [((m[:, None] - 1) * self.totals)[used].sum(axis=0)]}
        stat = getattr(classic, measure).statistic(self._stand_in(), missing=missing,
                                                   **kwargs)
        needed = {name: np.asarray(tot[name], dtype=float) for name in stat.shapes}
        value, a_o, a_e = (float(np.asarray(x)[0]) for x in stat.finish(needed))
        params = {"missing": missing, "annotators": list(self.annotators), **kwargs}
        return self._result(measure, value, a_o, a_e, used, excluded, params)

    def _sparse(self, measure: str, weights, class_probs) -> AgreementResult:
        """SPA's totals (tables named as in its Statistic: "pairs" and "items" by the
        number of annotations n = 0 … R, "n_c"), then its own ``finish``."""
        from ..measures import sparse
        if not isinstance(weights, str):
            raise AgreementError(f"{measure} on sufficient statistics takes a weighting "
                                 "scheme by name; per-item weights need the items (load the "
                                 "data in memory)")
        m = np.arange(len(self.sizes))
        usable = m >= 2
        with np.errstate(divide="ignore", invalid="ignore"):
            pairs = (np.einsum("mcc->m", self.products) - m * self.sizes) / (m * (m - 1))
        size = self.n_annotators + 1  # the Statistic's axis over n_i = 0 … R
        tot = {"pairs": np.zeros((1, size)), "items": np.zeros((1, size)),
               "n_c": self.totals.sum(axis=0)[None]}
        tot["pairs"][0, m[usable]] = pairs[usable]
        tot["items"][0, m[usable]] = self.sizes[usable]
        stat = getattr(sparse, measure).statistic(self._stand_in(), weights=weights,
                                                  class_probs=class_probs)
        value, observed, chance = (float(x[0]) for x in stat.finish(tot))
        excluded = {"items with fewer than two annotations": int(self.sizes[~usable].sum())}
        return self._result({"sparse_agreement": "sparse probability of agreement",
                             "sparse_kappa": "sparse kappa"}[measure], value, observed,
                            chance, usable, excluded, {"weights": weights})

    def _two(self, measure: str, annotators, **kwargs) -> AgreementResult:
        """A two-annotator coefficient, computed by the measure itself from the pair
        table of ``annotators`` kept as counts (its standard error needs only that
        table); the items the pair did not share are counted in ``excluded``."""
        from ..measures import classic
        t = self._pair_tables()
        names = list(self.annotators) if annotators is None else list(annotators)
        if len(names) != 2:
            raise AgreementError(f"{measure} compares two annotators but the data has "
                                 f"{self.n_annotators}; pick two with annotators=(a, b)")
        a, b = self.annotators.get_indexer(names)
        if a < 0 or b < 0 or a == b:
            raise AgreementError(f"{measure}: annotators must name two different annotators "
                                 f"of {list(self.annotators)!r}, got {names!r}")
        p = np.flatnonzero((self.pairs[:, 0] == min(a, b)) & (self.pairs[:, 1] == max(a, b)))
        table = t[p] if a < b else np.swapaxes(t[p], 1, 2)  # rows: the first one named
        both = int(table.sum())
        if both == 0:
            raise AgreementError(f"{measure}: {names[0]!r} and {names[1]!r} rated no item "
                                 "in common")
        result = getattr(classic, measure)(self._counted(np.array([[0, 1]]), table, names),
                                           **kwargs)
        rated = self.annotator_counts.sum(axis=(0, 2))  # items each annotator rated
        excluded = {"not rated by these annotators":
                    self.n_items - int(rated[a] + rated[b]) + both,
                    "rated by one annotator only": int(rated[a] + rated[b]) - 2 * both}
        params = {**result.params, "blank_labels": self.n_blank} if self.n_blank \
            else result.params
        return replace(result, excluded={k: v for k, v in excluded.items() if v},
                       params=params, note="; ".join(filter(None, (*self.notes, result.note))))

    def _pair_tables(self) -> np.ndarray:
        if self.pair_tables is None:
            raise AgreementError("these statistics were made without pair tables; call "
                                 "sufficient_statistics(..., pairs=True)")
        return self.pair_tables

    def _result(self, measure, value, observed, expected, used, excluded, params,
                scale="agreement") -> AgreementResult:
        m = np.arange(len(self.sizes))
        params = {**params, "blank_labels": self.n_blank} if self.n_blank else params
        return AgreementResult(
            measure=measure, value=value, observed=observed, expected=expected,
            n_items=int(self.sizes[used].sum()), n_annotators=self.n_annotators,
            n_ratings=int((m * self.sizes)[used].sum()), scale=scale,
            excluded={k: v for k, v in excluded.items() if v}, params=params,
            note="; ".join((*self.notes, NOTE)))


def sufficient_statistics(frame, *, item: str = "item", annotator: str = "annotator",
                          label: str = "label", categories: Sequence | None = None,
                          annotators: Sequence | None = None,
                          pairs: bool = True) -> SufficientStatistics:
    """The sufficient statistics of a tidy table (one row per rating), computed by the
    frame's own engine through narwhals: a DuckDB relation, a Dask or PySpark
    DataFrame, a polars LazyFrame or DataFrame, pandas, pyarrow (see the module
    docstring for the tables). Only tables of size ~ R·K·max m and R²·K² come back.

    A label that is null, NaN, '' or whitespace only is a missing rating (counted in
    ``n_blank``; its item stays known). ``categories``: the declared categories and
    their order (labels outside them are refused); by default the sorted distinct
    labels, ordered when they are numbers, as :meth:`Annotations.from_long`.
    ``annotators``: keep only these annotators' ratings (in this order; by default
    every annotator, sorted). ``pairs``: also make the annotator-pair contingency
    tables (Cohen, Scott, pairwise), a self-join of the ratings on the item.
    """
    import narwhals as nw
    from ..data.frames import _narwhals_frame
    native = _narwhals_frame(frame)
    if native is None:
        raise AgreementError(f"sufficient_statistics takes a dataframe (DuckDB, Dask, "
                             f"PySpark, polars, pandas, Arrow), got {type(frame).__name__}")
    lf = native.lazy() if isinstance(native, nw.DataFrame) else native
    missing = [c for c in (item, annotator, label) if c not in lf.columns]
    if missing:
        raise AgreementError(f"column(s) {missing!r} not found; the table has columns "
                             f"{list(lf.columns)!r} (name them with item=, annotator=, "
                             "label=)")
    rows = lf.select(nw.col(item).alias("i"), nw.col(annotator).alias("a"),
                     nw.col(label).alias("l"))
    if annotators is not None:
        annotators = list(annotators)
        rows = rows.filter(nw.col("a").is_in(annotators))
    blank = _blank(rows.collect_schema()["l"])
    head = _collect(rows.select(  # booleans summed as integers (Spark adds no booleans)
        nw.col("i").n_unique().alias("items"), nw.len().alias("rows"),
        nw.col("i").is_null().cast(nw.Int64).sum().alias("null_items"),
        nw.col("a").is_null().cast(nw.Int64).sum().alias("null_annotators"),
        blank.cast(nw.Int64).sum().alias("blank"))).iloc[0]
    for col, what in ((item, "null_items"), (annotator, "null_annotators")):
        if head[what]:
            raise AgreementError(f"column {col!r} is missing (null) in {int(head[what])} "
                                 "row(s); every rating needs its item and annotator")
    if head["rows"] == 0:
        raise AgreementError("the table is empty: at least two annotators must rate an item")
    names = _collect(rows.select(nw.col("a")).unique())["a"]
    names = pd.Index(annotators if annotators is not None else np.sort(names.to_numpy()),
                     name=annotator)
    if len(names) < 2:
        raise AgreementError(f"only one annotator ({names[0]!r}); agreement needs at least two")

    rated = rows.filter(~blank)
    twice = _collect(rated.group_by("i", "a").agg(nw.len().alias("n"))
                     .filter(nw.col("n") > 1).select(nw.len().alias("pairs")))["pairs"][0]
    if twice:
        raise AgreementError(f"{int(twice)} (item, annotator) pair(s) rated more than once; "
                             "keep one rating per pair")
    per_item = rated.group_by("i").agg(nw.len().alias("m"))  # m_i ratings
    raters_t = _collect(rated.join(per_item, on="i").group_by("m", "a", "l")
                        .agg(nw.len().alias("n")))
    by_label = rated.group_by("i", "l").agg(nw.len().alias("n"))  # n_ic
    counts = by_label.join(per_item, on="i")
    other = by_label.select(nw.col("i"), nw.col("l").alias("l2"), nw.col("n").alias("n2"))
    products_t = _collect(counts.join(other, on="i")  # Σ_i n_ic n_ik by m, c, k
                          .with_columns((nw.col("n") * nw.col("n2")).alias("nn"))
                          .group_by("m", "l", "l2").agg(nw.col("nn").sum()))

    uniques = raters_t["l"].drop_duplicates().to_numpy(dtype=object)
    if len(uniques) == 0:
        raise AgreementError(f"column {label!r} holds no label: all are missing")
    cats, ordered = _declared_categories(pd.Series(uniques, dtype=object), categories,
                                         uniques)
    outside = uniques[cats.get_indexer(uniques) < 0]
    if len(outside):
        raise AgreementError(f"column {label!r} holds label(s) {outside[:5].tolist()!r} "
                             f"outside the declared categories {list(cats)!r}")
    k, r = len(cats), len(names)
    top = int(raters_t["m"].max())
    products = np.zeros((top + 1, k, k))
    np.add.at(products, (products_t["m"].to_numpy(int), _codes(cats, products_t["l"]),
                         _codes(cats, products_t["l2"])), products_t["nn"].to_numpy(float))
    raters = np.zeros((top + 1, r, k))
    np.add.at(raters, (raters_t["m"].to_numpy(int), _codes(names, raters_t["a"]),
                       _codes(cats, raters_t["l"])), raters_t["n"].to_numpy(float))
    totals = raters.sum(axis=1)  # S_mc = Σ_r n_mrc = Σ_{i: m_i = m} n_ic
    sizes = np.zeros(top + 1, np.int64)  # N_m = Σ_c S_mc / m
    sizes[1:] = np.rint(totals[1:].sum(axis=1) / np.arange(1, top + 1))
    sizes[0] = int(head["items"]) - sizes[1:].sum()  # items whose labels are all blank
    pair_codes = pair_tables = None
    if pairs:
        pair_codes, pair_tables = _pair_tables(rated, names, cats)
    notes = _label_notes(cats, f"column {label!r}", int(head["blank"]), [])
    return SufficientStatistics(cats, names, ordered, sizes, totals, products, raters,
                                pair_codes, pair_tables, notes, int(head["blank"]))


def _pair_tables(rated, names: pd.Index, cats: pd.Index):
    """Every annotator pair a < b (codes) and its K × K table over the items both rated:
    a self-join of the ratings on the item, grouped by the two annotators and labels."""
    import narwhals as nw
    other = rated.select(nw.col("i"), nw.col("a").alias("a2"), nw.col("l").alias("l2"))
    t = _collect(rated.join(other, on="i").filter(nw.col("a") != nw.col("a2"))
                 .group_by("a", "a2", "l", "l2").agg(nw.len().alias("n")))
    r, k = len(names), len(cats)
    a, b = _codes(names, t["a"]), _codes(names, t["a2"])
    first = a < b  # each unordered pair once, the lower code first
    pairs = all_pairs(r)
    index = np.full((r, r), -1)
    index[pairs[:, 0], pairs[:, 1]] = np.arange(len(pairs))
    tables = np.zeros((len(pairs), k, k), np.int64)
    np.add.at(tables, (index[a[first], b[first]], _codes(cats, t["l"])[first],
                       _codes(cats, t["l2"])[first]), t["n"].to_numpy(np.int64)[first])
    return pairs, tables


def _blank(dtype):
    """The expression of a missing label: null, NaN (floats), '' or whitespace (text)."""
    import narwhals as nw
    col = nw.col("l")
    if dtype.is_float():
        return col.is_null() | col.is_nan()
    if dtype == nw.String:
        return col.is_null() | (col.str.strip_chars() == "")
    return col.is_null()


def _collect(lazy) -> pd.DataFrame:
    """A small aggregate, run on its engine, as pandas."""
    return lazy.collect().to_pandas()


def _codes(index: pd.Index, values: pd.Series) -> np.ndarray:
    """Positions of ``values`` in ``index`` (the labels of a small aggregate)."""
    return index.get_indexer(pd.Index(values.to_numpy(dtype=object)))
