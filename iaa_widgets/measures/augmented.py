"""Rosenberg & Binkowski's (2004) augmented κ for items with a primary and a secondary label.

An annotator gives an item one label (weight 1) or a primary and a secondary label
(weights p and 1 − p, 0.5 ≤ p ≤ 1). For two annotators A and B, §5 of the paper:

- annotation matrices ``M_A[x, y]`` (§5.1): 1, p, 1 − p or 0;
- agreement matrix ``Ag = M_A ∘ M_B`` and ``p(A) = ΣAg / N`` (§5.1);
- frequency vectors ``Freq_A[y] = Σ_x M_A[x, y] / N`` and
  ``p(E) = Σ_y Freq_A[y] Freq_B[y]`` (§5.2);
- ``κ′ = (p(A) − p(E)) / (1 − p(E))`` (§5.3).

Every weight is linear in p, so p(A) and p(E) are quadratics in p:
:func:`augmented_kappa_sweep` computes their coefficients once and evaluates the
curve exactly at any p; :func:`augmented_kappa` evaluates §5 directly at one p.

Definitions the paper leaves open (decided in issue 3)
------------------------------------------------------
- Per-item agreement of a pair is the row sum of Ag, ``pA_x = Σ_y Ag[x, y]``; the
  per-item κ is ``κ_x = (pA_x − p(E)) / (1 − p(E))`` with that pair's corpus-level
  p(E) at the same p, so that for two annotators the mean of κ_x over items is κ′.
- More than two annotators: κ′ and κ_x are averages over annotator pairs, each pair
  with its own p(E) (the paper's "average kappa across the three annotators", §6);
  ``observed`` and ``expected`` are the pair averages of p(A) and p(E). An item that
  an annotator did not label is left out of that annotator's pairs (each pair uses
  the N items both rated; ``pairs.n_left_out`` says how many it left out); κ_x
  averages the pairs that rated item x. Items rated by fewer than two annotators are
  excluded and counted in ``excluded``. With missing ratings the mean of κ_x over
  items need not equal κ′ (the pairs weigh items differently).
- The four item classes (§6) from the endpoints, with ``d = κ_x(1.0) − κ_x(0.5)``:
  ``d > δ`` → ``"higher_at_p1"`` (paper class 3); ``d < −δ`` → ``"higher_at_p05"``
  (class 4); otherwise ``mean(κ_x(0.5), κ_x(1.0)) ≥ τ`` → ``"constant_high"``
  (class 1), else ``"constant_low"`` (class 2). Defaults δ = 0.1, τ = 0.5. An item
  whose κ_x is undefined (p(E) = 1) is ``"undefined"``.
- The case type of an item writes each annotator's labels in the paper's §4 format,
  letters given in order of first appearance: ``{ab,ba}``, ``{a,a}``, ``{ab,c}``;
  with more annotators ``{ab,a,ba}``, and ``-`` for an annotator who did not rate it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

import numpy as np
import pandas as pd

from ..data import Annotations, as_annotations
from ..errors import AgreementError
from ..results import AgreementResult, Charted, provenance_html
from ..stats import all_pairs

__all__ = ["augmented_kappa", "augmented_kappa_sweep", "AugmentedKappaResult",
           "AugmentedSweepResult", "annotation_matrix", "ITEM_CLASSES"]

ITEM_CLASSES = ("constant_high", "constant_low", "higher_at_p1", "higher_at_p05",
                "undefined")
DEFAULT_PS = np.round(np.linspace(0.5, 1.0, 51), 2)


# ------------------------------------------------------------------ checks
def _check_p(ps) -> np.ndarray:
    """p (or a grid of them) as floats in [0.5, 1] (§5: 0.5 ≤ p ≤ 1.0)."""
    try:
        arr = np.asarray(ps, dtype=float).ravel()
    except (TypeError, ValueError):
        raise AgreementError(f"p must be a number in [0.5, 1], got {ps!r}") from None
    if arr.size == 0:
        raise AgreementError("give at least one value of p in [0.5, 1]")
    bad = arr[~((arr >= 0.5) & (arr <= 1.0))]
    if bad.size:
        raise AgreementError(f"p must lie in [0.5, 1] (0.5: primary and secondary weigh "
                             f"the same, 1: secondary labels ignored); got {bad[:5].tolist()}")
    return arr


def _check_annotations(data, loader_args) -> Annotations:
    ann = as_annotations(data, **loader_args)
    if ann.anonymous:
        raise AgreementError("augmented κ compares annotators pairwise, but these data came "
                             "from per-item counts without annotator identities; load them "
                             "with from_long or from_wide")
    return ann


# ----------------------------------------------------- stacked pair terms
@dataclass(frozen=True, eq=False)
class _Terms:
    """One row per (item, annotator pair) that both annotators rated, item-major.

    ``a1, a2, b1, b2``: primary and secondary category codes of the pair's first and
    second annotator (-1: no secondary). ``n[pair]``: items the pair shares (N of §5).
    ``first`` and ``second``: items × annotators primary and secondary codes.
    """

    item: np.ndarray
    pair: np.ndarray
    a1: np.ndarray
    a2: np.ndarray
    b1: np.ndarray
    b2: np.ndarray
    pairs: np.ndarray
    n: np.ndarray
    first: np.ndarray
    second: np.ndarray
    n_categories: int

    def matches(self):
        """Which of the four (A label, B label) combinations name the same category."""
        return (self.a1 == self.b1, self.a1 == self.b2, self.a2 == self.b1,
                (self.a2 == self.b2) & (self.a2 >= 0))

    def pe_one_from(self) -> np.ndarray:
        """Per pair, the least p at which p(E) is exactly 1 (inf: none). Σ_y M[x, y] = 1,
        so p(E) = 1 iff both Freq vectors are 1 on one category y, i.e. M_A[x, y] =
        M_B[x, y] = 1 for every shared item (§5.1): all primaries y and, below p = 1, no
        secondary label. Decided here exactly, not by rounding the quadratic."""
        k, n_pairs = self.n_categories, len(self.pairs)
        both = np.bincount(self.pair * k + self.a1, (self.a1 == self.b1).astype(float),
                           minlength=n_pairs * k).reshape(n_pairs, k)
        one = (both.max(axis=1) == self.n) & (self.n > 0)
        secondary = np.bincount(self.pair, ((self.a2 >= 0) | (self.b2 >= 0)).astype(float),
                                minlength=n_pairs) > 0
        return np.where(one, np.where(secondary, 1.0, 0.5), np.inf)

    def item_mean(self, values: np.ndarray) -> np.ndarray:
        """Mean over the pairs that rated each item (rows: items with ≥ 1 pair)."""
        n_items = len(self.first)
        counts = np.bincount(self.item, minlength=n_items)
        keep = counts > 0
        values = values.reshape(len(self.item), -1)
        if len(self.item) == np.count_nonzero(keep):   # one pair per item: nothing to average
            return values
        sums = np.stack([np.bincount(self.item, values[:, j], minlength=n_items)
                         for j in range(values.shape[1])], axis=1)
        return sums[keep] / counts[keep, None]


def _pair_terms(ann: Annotations) -> _Terms:
    m = ann.n_annotators
    first = np.full((ann.n_items, m), -1, dtype=np.int64)
    second = np.full((ann.n_items, m), -1, dtype=np.int64)
    prim = ann.rank == 1
    first[ann.item[prim], ann.annotator[prim]] = ann.label[prim]
    second[ann.item[~prim], ann.annotator[~prim]] = ann.label[~prim]
    pairs = all_pairs(m)
    a, b = pairs[:, 0], pairs[:, 1]
    it, pr = np.nonzero((first[:, a] >= 0) & (first[:, b] >= 0))  # row-major: item-major
    if len(it) == 0:
        raise AgreementError("no item is rated by two annotators, so no pair can agree")
    return _Terms(it, pr, first[it, a[pr]], second[it, a[pr]], first[it, b[pr]],
                  second[it, b[pr]], pairs, np.bincount(pr, minlength=len(pairs)),
                  first, second, ann.n_categories)


def _weights(second: np.ndarray, p: float):
    """Weights of the primary and secondary label at p (§5.1: 1 alone, else p and 1 − p)."""
    has = second >= 0
    return np.where(has, p, 1.0), np.where(has, 1.0 - p, 0.0)


def _weight_coefs(second: np.ndarray):
    """The same weights as linear polynomials c0 + c1·p: coefficients first, (2, T) each."""
    has = (second >= 0).astype(float)
    return np.stack([1.0 - has, has]), np.stack([has, -has])


def _poly_mul(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Product of linear polynomials (2, ...) × (2, ...) → quadratic (3, ...)."""
    return np.stack([u[0] * v[0], u[0] * v[1] + u[1] * v[0], u[1] * v[1]])


def _column_totals(t: _Terms, first, second, w1, w2) -> np.ndarray:
    """Σ_x M[x, y] per pair and category (§5.2 before dividing by N), for weights of
    shape (d, T): one bincount per coefficient over the stacked pairs → (d, P, K)."""
    k, n_pairs = t.n_categories, len(t.pairs)
    has = second >= 0
    keys = np.concatenate([t.pair * k + first, (t.pair * k + second)[has]])
    w = np.concatenate([w1, w2[:, has]], axis=1)
    return np.stack([np.bincount(keys, wj, minlength=n_pairs * k).reshape(n_pairs, k)
                     for wj in w])


def _expected(pe: np.ndarray, one_from: np.ndarray, ps: np.ndarray) -> np.ndarray:
    """p(E) of every pair at every p from its (3, P) coefficients, (P, G); exactly 1
    where it is 1 (``one_from``), which rounding of the quadratic could miss."""
    return np.where(ps[None, :] >= one_from[:, None], 1.0, pe.T @ _powers(ps))


def _kappa(p_a, p_e):
    """κ′ = (p(A) − p(E)) / (1 − p(E)) (§5.3); NaN where p(E) = 1."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p_e < 1.0, (p_a - p_e) / (1.0 - p_e), np.nan)


def _pairs_frame(ann: Annotations, t: _Terms) -> pd.DataFrame:
    names = ann.annotators
    return pd.DataFrame({"annotator_a": names.take(t.pairs[:, 0]),
                         "annotator_b": names.take(t.pairs[:, 1]),
                         "n_items": t.n, "n_left_out": ann.n_items - t.n})


def _pair_average(values: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Average over the pairs that share at least one item (§6: average across pairs)."""
    return values[n > 0].mean(axis=0)


def _excluded(t: _Terms) -> dict:
    n_out = int(np.sum((t.first >= 0).sum(axis=1) < 2))
    return {"rated by fewer than two annotators": n_out} if n_out else {}


def _note(kappa: np.ndarray, pairs: pd.DataFrame) -> str:
    """Say which pairs are left out of the averages and where κ′ is undefined."""
    n = pairs["n_items"].to_numpy()
    parts = []
    if np.any(n == 0):
        empty = pairs[n == 0]
        names = ", ".join(f"({a}, {b})" for a, b in
                          zip(empty["annotator_a"][:5], empty["annotator_b"][:5]))
        parts.append(f"{len(empty)} annotator pair(s) share no item and are left out of the "
                     f"averages: {names}{' …' if len(empty) > 5 else ''}.")
    if np.any(np.isnan(kappa[n > 0])):
        parts.append("κ′ is undefined (NaN) where p(E) = 1: both annotators of a pair put "
                     "all weight on one category.")
    return " ".join(parts)


# ------------------------------------------------------------ one value of p
@dataclass(frozen=True, eq=False, repr=False)
class AugmentedKappaResult(AgreementResult):
    """Augmented κ′ at one p (``params["p"]``): ``observed`` p(A), ``expected`` p(E).

    ``items``: per item ``p_a`` (row sum of Ag, averaged over pairs), ``kappa`` (κ_x)
    and ``n_pairs``. ``pairs``: per annotator pair N (``n_items``), ``n_left_out``,
    ``p_a``, ``p_e``, ``kappa``. ``freq``: the Freq vectors of §5.2, one row per
    (annotator_a, annotator_b, annotator).
    """

    items: pd.DataFrame | None = None
    pairs: pd.DataFrame | None = None
    freq: pd.DataFrame | None = None

    def _repr_html_(self) -> str:
        pairs = "" if self.pairs is None else self.pairs.to_html(
            index=False, float_format=lambda v: f"{v:.4f}")  # to_html escapes labels
        return super()._repr_html_() + pairs


def augmented_kappa(data, p: float = 0.6, **loader_args) -> AugmentedKappaResult:
    """Rosenberg & Binkowski's augmented κ′ at weight ``p`` (§5), computed directly.

    ``data``: :class:`~iaa_widgets.Annotations` or a tidy table (``rank`` column or
    ``(primary, secondary)`` label cells). See the module docstring for the
    definitions (per-item κ_x, more than two annotators).
    """
    if np.ndim(p) != 0:
        raise AgreementError("augmented_kappa takes one p; use augmented_kappa_sweep for many")
    p = float(_check_p(p)[0])
    ann = _check_annotations(data, loader_args)
    t = _pair_terms(ann)
    va1, va2 = _weights(t.a2, p)                                   # M_A[x, ·] (§5.1)
    vb1, vb2 = _weights(t.b2, p)                                   # M_B[x, ·]
    m11, m12, m21, m22 = t.matches()
    ag = m11 * va1 * vb1 + m12 * va1 * vb2 + m21 * va2 * vb1 + m22 * va2 * vb2  # Σ_y Ag[x, y]
    n_pairs = len(t.pairs)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_a = np.bincount(t.pair, ag, minlength=n_pairs) / t.n    # p(A) = ΣAg / N
        freq_a = _column_totals(t, t.a1, t.a2, va1[None], va2[None])[0] / t.n[:, None]
        freq_b = _column_totals(t, t.b1, t.b2, vb1[None], vb2[None])[0] / t.n[:, None]
    p_e = np.sum(freq_a * freq_b, axis=1)                          # p(E) = Σ Freq_A Freq_B
    kappa = _kappa(p_a, p_e)
    kappa_x = _kappa(ag, p_e[t.pair])
    per_item = t.item_mean(np.stack([ag, kappa_x], axis=1))
    included = np.flatnonzero(np.bincount(t.item, minlength=ann.n_items) > 0)
    items = pd.DataFrame({"item": ann.items.take(included), "p_a": per_item[:, 0],
                          "kappa": per_item[:, 1],
                          "n_pairs": np.bincount(t.item)[included]})
    pairs = _pairs_frame(ann, t).assign(p_a=p_a, p_e=p_e, kappa=kappa)
    names = ann.annotators
    freq_index = pd.MultiIndex.from_arrays(
        [np.repeat(names.take(t.pairs[:, 0]), 2), np.repeat(names.take(t.pairs[:, 1]), 2),
         names.take(t.pairs.ravel())], names=["annotator_a", "annotator_b", "annotator"])
    freq = pd.DataFrame(np.stack([freq_a, freq_b], axis=1).reshape(2 * n_pairs, -1),
                        index=freq_index, columns=ann.categories)
    value = _pair_average(kappa, t.n)
    return AugmentedKappaResult(
        measure="augmented kappa", value=float(value),
        observed=float(_pair_average(p_a, t.n)), expected=float(_pair_average(p_e, t.n)),
        n_items=len(included), n_annotators=ann.n_annotators, n_ratings=ann.n_ratings,
        excluded=_excluded(t), params={"p": p}, note=_note(kappa, pairs),
        items=items, pairs=pairs, freq=freq)


def annotation_matrix(data, annotator, p: float = 0.6, **loader_args) -> pd.DataFrame:
    """The annotation matrix M of one annotator (§5.1, the paper's Table 2): items it
    rated × categories, 1 for a single label, p and 1 − p for primary and secondary."""
    p = float(_check_p(p)[0])
    ann = _check_annotations(data, loader_args)
    if annotator not in ann.annotators:
        raise AgreementError(f"unknown annotator {annotator!r}; the data has "
                             f"{list(ann.annotators)!r}")
    own = ann.annotator == ann.annotators.get_loc(annotator)
    item, label, rank = ann.item[own], ann.label[own], ann.rank[own]
    two = np.zeros(ann.n_items, bool)
    two[item[rank == 2]] = True
    w = np.where(rank == 2, 1.0 - p, np.where(two[item], p, 1.0))
    rows, row_of = np.unique(item, return_inverse=True)
    m = np.zeros((len(rows), ann.n_categories))
    m[row_of, label] = w
    return pd.DataFrame(m, index=ann.items.take(rows), columns=ann.categories)


# ------------------------------------------------------------- sweep over p
def _powers(ps: np.ndarray) -> np.ndarray:
    """[1, p, p²] for each p, shape (3, G)."""
    return np.stack([np.ones_like(ps), ps, ps * ps])


@dataclass(frozen=True, eq=False)
class AugmentedSweepResult(Charted):
    """κ′ over a grid of p, with every item's κ_x curve and class.

    ``curve``: p, kappa (κ′, averaged over pairs), p_a, p_e (pair averages).
    ``items``: item, ``kappa_0.5``, ``kappa_1.0``, ``case`` (§4 notation), ``class``
    (see :data:`ITEM_CLASSES`). ``pairs``: per annotator pair N, ``n_left_out`` and the
    quadratic coefficients of p(A) (``p_a_c0`` + ``p_a_c1``·p + ``p_a_c2``·p²) and p(E).
    From the stored coefficients, at any p: :meth:`at` (the corpus values),
    :meth:`pair_curves`, :meth:`item_curves`, :meth:`item_curve` and :meth:`item_kappa`
    (κ_x, cheap enough for a slider).
    """

    curve: pd.DataFrame
    items: pd.DataFrame
    pairs: pd.DataFrame
    n_items: int
    n_annotators: int
    n_ratings: int
    excluded: Mapping[str, int] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""
    _item_names: pd.Index = field(default=None, repr=False)
    _term_item: np.ndarray = field(default=None, repr=False)   # item code per term, sorted
    _term_pair: np.ndarray = field(default=None, repr=False)
    _q: np.ndarray = field(default=None, repr=False)           # (3, T) pA_x coefficients
    _pe: np.ndarray = field(default=None, repr=False)          # (3, P) p(E) coefficients
    _pe_one_from: np.ndarray = field(default=None, repr=False)  # (P,) least p with p(E) = 1

    @property
    def n_excluded(self) -> int:
        return int(sum(self.excluded.values()))

    def _term_kappa(self, rows, ps: np.ndarray) -> np.ndarray:
        """κ_x of the pair terms ``rows`` at each p: (len(rows), G)."""
        p_e = _expected(self._pe, self._pe_one_from, ps)
        return _kappa(self._q[:, rows].T @ _powers(ps), p_e[self._term_pair[rows]])

    def _grid(self, ps) -> np.ndarray:
        return self.curve["p"].to_numpy() if ps is None else _check_p(ps)

    def _pair_curves(self, ps: np.ndarray):
        cols = self.pairs
        pa = cols[["p_a_c0", "p_a_c1", "p_a_c2"]].to_numpy().T
        return _pair_curves(pa, self._pe, self._pe_one_from, ps)

    def at(self, p: float) -> AgreementResult:
        """κ′, p(A) and p(E) at one p, from the closed form (pair averages)."""
        if np.ndim(p) != 0:
            raise AgreementError("at takes one p; pass a grid to augmented_kappa_sweep")
        grid = _check_p(p)
        p_a, p_e, kappa = self._pair_curves(grid)
        n = self.pairs["n_items"].to_numpy()
        return AgreementResult(
            measure="augmented kappa", value=float(_pair_average(kappa, n)[0]),
            observed=float(_pair_average(p_a, n)[0]),
            expected=float(_pair_average(p_e, n)[0]), n_items=self.n_items,
            n_annotators=self.n_annotators, n_ratings=self.n_ratings,
            excluded=self.excluded, params={"p": float(grid[0])},
            note=_note(kappa, self.pairs))

    def pair_curves(self, ps=None) -> pd.DataFrame:
        """Every annotator pair's curve (long): annotator_a, annotator_b, p, kappa, p_a, p_e."""
        grid = self._grid(ps)
        p_a, p_e, kappa = self._pair_curves(grid)
        reps = len(grid)
        return pd.DataFrame({"annotator_a": np.repeat(self.pairs["annotator_a"].to_numpy(), reps),
                             "annotator_b": np.repeat(self.pairs["annotator_b"].to_numpy(), reps),
                             "p": np.tile(grid, len(self.pairs)), "kappa": kappa.ravel(),
                             "p_a": p_a.ravel(), "p_e": p_e.ravel()})

    def item_curves(self, items=None, ps=None) -> pd.DataFrame:
        """κ_x(p) of ``items`` (default: all kept items) over ``ps`` (default: the sweep's
        grid), averaged over the pairs that rated each item: items × p."""
        grid = self._grid(ps)
        if items is None:
            items = self.items["item"]
        items = pd.Index(items)                                  # no per-item Python objects
        codes = self._item_names.get_indexer(items)
        if np.any(codes < 0):
            unknown = [i for i, c in zip(items, codes) if c < 0][:5]
            raise AgreementError(f"unknown item(s) {unknown!r}")
        lo = np.searchsorted(self._term_item, codes)            # terms are item-sorted
        counts = np.searchsorted(self._term_item, codes + 1) - lo
        if np.any(counts == 0):
            lone = [i for i, c in zip(items, counts) if c == 0][:5]
            raise AgreementError(f"item(s) {lone!r} are rated by fewer than two annotators")
        starts = np.cumsum(counts) - counts
        if len(items) == 0:
            return pd.DataFrame(index=pd.Index([], name="item"), columns=pd.Index(grid, name="p"),
                                dtype=float)
        rows = np.repeat(lo - starts, counts) + np.arange(counts.sum())
        sums = np.add.reduceat(self._term_kappa(rows, grid), starts, axis=0)
        return pd.DataFrame(sums / counts[:, None], index=pd.Index(items, name="item"),
                            columns=pd.Index(grid, name="p"))

    def item_curve(self, item, ps=None) -> pd.DataFrame:
        """κ_x(p) of one item over ``ps`` (default: the sweep's grid): columns p, kappa."""
        row = self.item_curves([item], ps).iloc[0]
        return pd.DataFrame({"p": row.index.to_numpy(), "kappa": row.to_numpy()})

    def item_kappa(self, p: float) -> pd.Series:
        """κ_x at one ``p`` for every kept item (averaged over the pairs that rated it)."""
        if np.ndim(p) != 0:
            raise AgreementError("item_kappa takes one p; use item_curves for curves")
        return self.item_curves(ps=[p]).iloc[:, 0].rename("kappa")

    def with_classes(self, delta: float = 0.1, tau: float = 0.5) -> "AugmentedSweepResult":
        """The same sweep with the item classes redrawn for thresholds ``delta`` (δ)
        and ``tau`` (τ), without recomputing any curve."""
        _check_thresholds(delta, tau)
        items = self.items.assign(**{"class": _classes(
            self.items["kappa_0.5"].to_numpy(), self.items["kappa_1.0"].to_numpy(),
            delta, tau)})
        return replace(self, items=items,
                       params={**self.params, "delta": float(delta), "tau": float(tau)})

    def to_frame(self) -> pd.DataFrame:
        """The corpus curve: p, kappa, p_a, p_e."""
        return self.curve

    def _repr_html_(self) -> str:
        ends = self.curve.iloc[[0, -1]].to_html(index=False,
                                               float_format=lambda v: f"{v:.4f}")
        counts = self.items["class"].value_counts(sort=False).to_frame("items").to_html()
        extra = provenance_html(self.excluded, self.note)
        return (f"<p>augmented κ′ sweep over {len(self.curve)} values of p, "
                f"{self.n_items} items, {self.n_annotators} annotators</p>"
                f"{ends}{counts}{extra}")

    def __repr__(self) -> str:
        k = self.curve["kappa"].to_numpy()
        return (f"AugmentedSweepResult({len(k)} values of p, κ′ from {k[0]:.4f} to "
                f"{k[-1]:.4f}, n_items={self.n_items})")


def _pair_curves(pa: np.ndarray, pe: np.ndarray, one_from: np.ndarray, ps: np.ndarray):
    """p(A), p(E) and κ′ of every pair at every p from the (3, P) coefficients: (P, G)."""
    p_a, p_e = pa.T @ _powers(ps), _expected(pe, one_from, ps)
    return p_a, p_e, _kappa(p_a, p_e)


def _check_thresholds(delta, tau) -> None:
    if not (np.isfinite(delta) and delta >= 0 and np.isfinite(tau)):
        raise AgreementError(f"delta must be a number ≥ 0 and tau a finite number, got "
                             f"delta={delta!r}, tau={tau!r}")


def _classes(k05: np.ndarray, k1: np.ndarray, delta: float, tau: float) -> pd.Categorical:
    """The four item classes of §6 from the endpoints (module docstring)."""
    d = k1 - k05
    code = np.select([np.isnan(d), d > delta, d < -delta, (k05 + k1) / 2 >= tau],
                     [4, 2, 3, 0], default=1)
    return pd.Categorical.from_codes(code, categories=list(ITEM_CLASSES))


def _letter(k: int) -> str:
    return chr(ord("a") + k - 1) if k <= 26 else f"[{k}]"


def _case_types(first: np.ndarray, second: np.ndarray) -> pd.Categorical:
    """§4 case of each item: every annotator's labels, letters by first appearance."""
    n, m = first.shape
    slots = np.empty((n, 2 * m), dtype=np.int64)
    slots[:, 0::2], slots[:, 1::2] = first, second
    letters = np.zeros((n, 2 * m), dtype=np.int64)   # 0: no label in this slot
    seen = np.zeros(n, dtype=np.int64)
    for j in range(2 * m):                            # loop over label slots, not items
        s = slots[:, j]
        lj = np.zeros(n, dtype=np.int64)
        for i in range(j - 1, -1, -1):                # the earliest equal slot wins
            lj = np.where(slots[:, i] == s, letters[:, i], lj)
        new = (s >= 0) & (lj == 0)
        seen += new
        letters[:, j] = np.where(new, seen, lj)
    base = 2 * m + 1
    if base ** (2 * m) <= 1 << 20:                     # few possible cases: a lookup table
        code = letters @ base ** np.arange(2 * m)
        present = np.flatnonzero(np.bincount(code))
        lookup = np.zeros(present[-1] + 1, dtype=np.int64)
        lookup[present] = np.arange(len(present))
        rows, inverse = (present[:, None] // base ** np.arange(2 * m)) % base, lookup[code]
    else:
        rows, inverse = np.unique(letters, axis=0, return_inverse=True)
    names = np.array([""] + [_letter(k) for k in range(1, 2 * m + 1)], dtype=object)
    parts = [np.where(rows[:, 2 * a] > 0, names[rows[:, 2 * a]] + names[rows[:, 2 * a + 1]],
                      "-") for a in range(m)]          # one annotator's labels, all cases
    cases = "{" + parts[0]
    for part in parts[1:]:
        cases = cases + "," + part
    return pd.Categorical.from_codes(inverse.ravel(), categories=list(cases + "}"))


def augmented_kappa_sweep(data, ps=None, delta: float = 0.1, tau: float = 0.5,
                          **loader_args) -> AugmentedSweepResult:
    """κ′ over a grid of p (default 0.50, 0.51, …, 1.00), exactly, from the quadratic
    coefficients of p(A) and p(E) in p; every item's κ_x, case type and class (§4, §6).

    ``delta`` (δ ≥ 0) and ``tau`` (τ) set the item classes; see the module docstring
    for every definition.
    """
    grid = DEFAULT_PS if ps is None else _check_p(ps)
    _check_thresholds(delta, tau)
    ann = _check_annotations(data, loader_args)
    t = _pair_terms(ann)
    ca1, ca2 = _weight_coefs(t.a2)                                 # M_A weights in p (§5.1)
    cb1, cb2 = _weight_coefs(t.b2)
    m11, m12, m21, m22 = t.matches()
    q = (m11 * _poly_mul(ca1, cb1) + m12 * _poly_mul(ca1, cb2)
         + m21 * _poly_mul(ca2, cb1) + m22 * _poly_mul(ca2, cb2))  # Σ_y Ag[x, y], (3, T)
    n_pairs = len(t.pairs)
    with np.errstate(divide="ignore", invalid="ignore"):
        pa = np.stack([np.bincount(t.pair, qj, minlength=n_pairs) for qj in q]) / t.n
        fa = _column_totals(t, t.a1, t.a2, ca1, ca2) / t.n[:, None]  # Freq_A (§5.2), (2, P, K)
        fb = _column_totals(t, t.b1, t.b2, cb1, cb2) / t.n[:, None]
    pe = _poly_mul(fa, fb).sum(axis=2)                             # p(E) = Σ Freq_A Freq_B
    one_from = t.pe_one_from()
    p_a, p_e, kappa = _pair_curves(pa, pe, one_from, grid)
    curve = pd.DataFrame({"p": grid, "kappa": _pair_average(kappa, t.n),
                          "p_a": _pair_average(p_a, t.n), "p_e": _pair_average(p_e, t.n)})
    ends = np.array([0.5, 1.0])
    k_ends = t.item_mean(_kappa(q.T @ _powers(ends),                 # κ_x at 0.5 and 1.0
                                _expected(pe, one_from, ends)[t.pair]))
    counts = np.bincount(t.item, minlength=ann.n_items)
    included = np.flatnonzero(counts > 0)
    items = pd.DataFrame({"item": ann.items.take(included), "kappa_0.5": k_ends[:, 0],
                          "kappa_1.0": k_ends[:, 1],
                          "case": _case_types(t.first[included], t.second[included]),
                          "class": _classes(k_ends[:, 0], k_ends[:, 1], delta, tau)})
    coefs = {f"{name}_c{j}": c[j] for name, c in (("p_a", pa), ("p_e", pe))
             for j in range(3)}
    pairs = _pairs_frame(ann, t).assign(**coefs)
    return AugmentedSweepResult(
        curve=curve, items=items, pairs=pairs,
        n_items=len(included), n_annotators=ann.n_annotators, n_ratings=ann.n_ratings,
        excluded=_excluded(t), params={"delta": float(delta), "tau": float(tau)},
        note=_note(kappa, pairs), _item_names=ann.items, _term_item=t.item,
        _term_pair=t.pair, _q=q, _pe=pe, _pe_one_from=one_from)
