"""Ratings read as numeric scores, and the analysis of variance of items × annotators:
the one core under the ICC (:mod:`.icc`), Finn's coefficient, Robinson's A and
Janson & Olsson's ι (:mod:`.anova`) and the mean correlations (:mod:`.correlation`).

**Scores.** A category's score is its value when the labels are numbers, else (where
the measure allows it) its position 1 … K in an order the user declared
(``weights.category_scores``); text without a declared order is refused, never sorted.
The ratings used are kept in long form, one entry per rating (item row, annotator,
category code): no items × categories table is made, so continuous ratings (one
category per distinct value) cost what their ratings cost. Scores are centred on the
midrange of the category scores, which leaves every sum of squares below unchanged and
keeps the subtraction of large, nearly equal sums out of the arithmetic; the centre is a
constant of the categories (not of the items), so the per-item tables stay additive:
the tables of a union of items are the sums of the parts' tables.

**Sums of squares** (Searle 1971; McGraw & Wong 1996). Each rating is a vector of V
scores: V = 1 for a quantitative rating; V = K indicators [x = c] for a nominal one
(Janson & Olsson 2001). Per item i, with m_i ratings x_ij (j over its annotators):
S_iv = Σ_j x_ijv and Q_i = Σ_j Σ_v x_ijv². With n items (Σ w_i under item weights w,
so that a bootstrap resample is the same formula), N = Σ m_i, G_v = Σ_i S_iv and
C_jv = Σ_i x_ijv (annotator j's sum over the items used):

- correction term  CT = Σ_v G_v² / N
- SS_total    = Σ_i Q_i − CT
- SS_items    = Σ_i Σ_v S_iv² / m_i − CT           (between items; MSR = SS_items / (n − 1))
- SS_within   = Σ_i Q_i − Σ_i Σ_v S_iv² / m_i       (MSW = SS_within / (N − n))
- SS_raters   = Σ_j Σ_v C_jv² / n − CT             (between annotators, complete design;
  MSC = SS_raters / (k − 1))
- SS_residual = SS_within − SS_raters              (MSE = SS_residual / ((n − 1)(k − 1)))

Each is a function of additive per-item tables (:func:`anova_tables`), so every measure
built on them has a Statistic and the bootstrap works for it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ... import validate
from ...data import Annotations, as_annotations, noted
from ...errors import AgreementError, rows_text
from ...results import AgreementResult
from ...stats import Statistic, per_item
from .._prepare import select
from ..weights import category_scores

__all__ = ["Scores", "scores", "anova_tables", "sums_of_squares", "mid_ranks"]

COMPLETE = ("listwise", "raise")
NOISE = 1e-12  # relative size of a sum of squares taken for rounding error (see _floor)


@dataclass(frozen=True)
class Scores:
    """The ratings used, in long form: per rating its item row (of ``ann.items``), its
    annotator and category code; ``points`` the categories' scores and ``value`` each
    rating's score centred on the midrange of ``points``. ``used`` marks
    the item rows used; ``excluded`` counts the others, by reason."""

    ann: Annotations
    item: np.ndarray
    rater: np.ndarray
    label: np.ndarray
    points: np.ndarray
    value: np.ndarray
    used: np.ndarray
    excluded: dict
    params: dict
    unit: float = 1.0  # ``value`` is in units of √unit (:meth:`scaled`)

    @property
    def n_items(self) -> int:
        return int(self.used.sum())

    @property
    def k(self) -> int:
        return self.ann.n_annotators

    @property
    def n_rows(self) -> int:
        return self.ann.n_items

    @property
    def balanced(self) -> bool:
        """Every item used is rated by all k annotators."""
        return len(self.value) == self.n_items * self.k

    def grid(self, centred: bool = False) -> np.ndarray:
        """The n × k grid of the scores of a complete design, items in data order (n × k
        is the size of the ratings themselves): as given, or ``centred``."""
        out = np.empty((self.n_rows, self.k))
        out[self.item, self.rater] = self.value if centred else self.points[self.label]
        return out[self.used]

    def scaled(self) -> "Scores":
        """The same scores divided by their largest centred magnitude s, with ``unit`` s²
        (a sum of squares times ``unit`` is in the data's units): for a measure that is a
        ratio of sums of squares (the ICC), whose squares then neither overflow (1e160)
        nor underflow (1e-170)."""
        top = np.float64(np.max(np.abs(self.value))) if len(self.value) else np.float64(0)
        top = top if top > 0 else np.float64(1.0)
        with np.errstate(over="ignore", under="ignore"):  # the unit may leave the range
            return replace(self, value=self.value / top, unit=top * top * self.unit)

    def tables(self, twoway: bool = True, summed: bool = False) -> tuple[dict, dict]:
        """:func:`anova_tables` of the (centred) scores."""
        return anova_tables(self.item, self.rater, None, self.value, self.n_rows, self.k,
                            1, twoway, summed)

    def padded(self, table: np.ndarray) -> np.ndarray:
        """A table over the items used (rows in data order) as one over every item row
        of the data, zeros for the rows not used."""
        out = np.zeros((self.n_rows,) + table.shape[1:])
        out[self.used] = table
        return out

    def statistic(self, tables: dict, shapes: dict, finish) -> Statistic:
        """A Statistic over the data's item rows (tables already one row per item row;
        counts were expanded, so each row is one item)."""
        return Statistic(tables, shapes, finish)

    def result(self, measure: str, value, observed, expected, note: str = "",
               **fields) -> AgreementResult:
        """The AgreementResult of these ratings (counts, exclusions, the data's notes)."""
        params = {**self.params, **fields.pop("params", {})}
        note, params = noted(self.ann, note, params)
        out = {"n_items": self.n_items, "n_annotators": self.k,
               "n_ratings": len(self.value), "excluded": self.excluded, **fields}
        return AgreementResult(measure=measure, value=float(value), observed=float(observed),
                               expected=float(expected), params=params, note=note, **out)


def scores(data, measure: str, *, missing: str, annotators=None, policies=COMPLETE,
           noun: str = "annotators", points: str = "scores", identity: bool = True,
           hint: str = "", min_items: int = 2) -> Scores:
    """Validated :class:`Scores` of ``data`` for ``measure``.

    ``missing``: "listwise" keeps the items rated by all the annotators (the others
    excluded, counted), "available" every item with a rating, "pairable" every item
    with two ratings or more (items rated once excluded, counted), "raise" refuses any
    missing rating (``policies`` names those the measure accepts). ``annotators``
    selects and orders annotators by name. ``points``: "scores" (numeric labels, or
    positions in a declared order), "values" (the labels must be numbers), "codes" (the
    category codes 0 … K − 1: equal scores mean equal labels, and nothing else holds
    without an order) or "none" (nominal ratings: the codes only, every score 0). ``identity``: refuse anonymous per-item counts
    (``Annotations.from_counts``), whose raters are not known; ``hint`` is added to
    that message. ``noun`` names the annotators in messages ("raters", "judges");
    fewer than ``min_items`` items used is refused (an analysis of variance needs two)."""
    validate.choice(measure, "missing", missing, policies)
    ann = as_annotations(data)
    if ann.anonymous and (identity or annotators is not None):
        raise AgreementError(
            f"{measure} needs to know which {noun[:-1]} gave each rating, but this data was "
            "built from per-item counts (Annotations.from_counts), where they are "
            f"anonymous; load the ratings with from_long/from_wide{hint}")
    ann = ann.expanded(measure)
    if annotators is not None:
        ann = select(ann, annotators, measure)
    k = ann.n_annotators
    if k < 2:
        raise AgreementError(f"{measure}: needs at least two {noun}, got {k}")
    points = {"values": lambda: ann.category_values(measure),
              "scores": lambda: category_scores(ann.categories, ann.ordered, measure,
                                                ann.rating_of),
              "codes": lambda: np.arange(ann.n_categories, dtype=float),
              "none": lambda: np.zeros(ann.n_categories)}[points]()
    prim = ann.primary()
    m = np.bincount(prim.item, minlength=ann.n_items)
    excluded: dict[str, int] = {}
    if np.any(m == 0):
        excluded["not rated" if annotators is None else "not rated by these annotators"] = \
            int(np.count_nonzero(m == 0))
    short = (m > 0) & (m < k)
    if missing == "raise" and short.any():
        bad = np.flatnonzero(short)
        raise AgreementError(
            f"{measure}: {len(bad)} item(s) lack a rating by some of the {k} {noun} (items "
            f"{rows_text(ann.items[bad])}); pass missing='listwise' to drop them"
            + (" or missing='available'" if "available" in policies else ""))
    if missing == "available":
        used = m >= 1
    elif missing == "pairable":
        used = m >= 2
        if np.any(m == 1):
            excluded["only one rating"] = int(np.count_nonzero(m == 1))
    else:
        used = m == k
        if short.any():
            what = "rated by one annotator only" if k == 2 and noun == "annotators" else \
                f"rated by fewer than all {k} {noun}"
            excluded[what] = int(np.count_nonzero(short))
    n = int(used.sum())
    if n < min_items:
        raise AgreementError(
            f"{measure}: needs at least {'two items' if min_items == 2 else 'one item'} "
            f"rated under missing={missing!r}, got {n}"
            + (f" ({', '.join(f'{v} {r}' for r, v in excluded.items())})" if excluded else ""))
    item, rater, label = prim.item, prim.annotator, prim.label
    if n < len(used):  # only the ratings of the items used
        keep = used[item]
        item, rater, label = item[keep], rater[keep], label[keep]
    # centred on the midrange of the category scores: a constant of the categories, not
    # of the items, so that every per-item table stays additive over items
    centre = float(points.max() / 2 + points.min() / 2) if len(points) else 0.0  # no overflow
    params = {"missing": missing,
              "annotators": "anonymous" if ann.anonymous else list(ann.annotators)}
    if ann.has_secondary:
        params["labels"] = "primary (secondary labels ignored)"
    return Scores(ann, item, rater, label, points, (points - centre)[label], used,
                  excluded, params)


def mid_ranks(counts: np.ndarray) -> np.ndarray:
    """Ranks as scores: per row of ``counts`` (how many items got each category, in the
    declared order), each category's mid-rank Σ_{c' < c} t_c' + (t_c + 1)/2, the mean
    rank its tied items share (no sort of the items)."""
    return np.cumsum(counts, axis=-1) - counts + (counts + 1) / 2


# ------------------------------------------------------------- per-item tables
def anova_tables(item, rater, cell, value, n_rows: int, k: int, v: int,
                 twoway: bool = True, summed: bool = False) -> tuple[dict, dict]:
    """The additive per-item tables of the sums of squares (module docstring), one row
    per item row (zeros for rows without ratings), and the shapes of their totals.

    Ratings: item row, annotator, score column ``cell`` (None: the single column of a
    quantitative score) and score ``value``. Tables: "items" = [1 if rated, m_i, m_i²,
    Q_i, Σ_v S_iv²/m_i]; "sums" = S_iv (its total is G_v); with ``twoway``, "columns"
    = x_ijv (its total is C_jv), items × (k·V). ``summed``: their totals instead (one
    weight per item, a leading axis of one), without the items × (k·V) table: what a
    point estimate needs."""
    m = np.bincount(item, minlength=n_rows).astype(float)
    q = np.bincount(item, weights=value * value, minlength=n_rows)
    if cell is None:  # one score column: S_i by one bincount
        s = np.bincount(item, weights=value, minlength=n_rows)
        s2, sums = s * s, s[:, None]
    else:  # S_iv over the (item, v) cells present only: memory follows the ratings
        code, at = np.unique(item * v + cell, return_inverse=True)
        s_cell = np.bincount(at.ravel(), weights=value)
        s2 = np.bincount(code // v, weights=s_cell * s_cell, minlength=n_rows)
        sums = per_item(code // v, code % v, n_rows, v, s_cell)
    with np.errstate(divide="ignore", invalid="ignore"):
        row2 = np.where(m > 0, s2 / m, 0.0)
    tables = {"items": np.column_stack([(m > 0).astype(float), m, m * m, q, row2]),
              "sums": sums}
    shapes = {"items": (5,), "sums": (v,)}
    if summed:
        tables = {name: np.asarray(t.sum(axis=0)).reshape(1, -1)
                  for name, t in tables.items()}
    if twoway:
        cells = rater if cell is None else rater * v + cell
        tables["columns"] = np.bincount(cells, weights=value, minlength=k * v)[None] \
            if summed else per_item(item, cells, n_rows, k * v, value)
        shapes["columns"] = (k * v,)
    return tables, shapes


def sums_of_squares(tot: dict, k: int) -> dict:
    """The sums and mean squares of the module docstring from the totals of
    :func:`anova_tables` (each with a leading resample axis): n, N, SS_total, SS_items,
    SS_within, MSR, MSW, n0 = (N − Σ m_i²/N)/(n − 1) (the mean group size of the
    unbalanced one-way design; Searle 1971, Donner 1986) and, with "columns", SS_raters,
    SS_residual, MSC, MSE. A difference of sums is exact to ~1e-16 of SS_total only:
    SS_within, SS_raters and SS_residual below NOISE · SS_total are rounding and read 0."""
    n, big_n, m2, q, row2 = (tot["items"][:, c] for c in range(5))
    g = tot["sums"]
    with np.errstate(divide="ignore", invalid="ignore"):
        ct = np.sum(g * g, axis=-1) / big_n  # CT = Σ_v G_v² / N
        total = q - ct
        noise = NOISE * total
        within = _floor(q - row2, noise)
        out = {"n": n, "N": big_n, "total": total, "items": row2 - ct, "within": within,
               "n0": (big_n - m2 / big_n) / (n - 1)}
        out["MSR"] = out["items"] / (n - 1)
        out["MSW"] = within / (big_n - n)
        if "columns" in tot:
            c = tot["columns"]
            raters = _floor(np.sum(c * c, axis=-1) / n - ct, noise)
            residual = _floor(within - raters, noise)
            out.update(raters=raters, residual=residual, MSC=raters / (k - 1),
                       MSE=residual / ((n - 1) * (k - 1)))
    return out


def _floor(ss: np.ndarray, noise: np.ndarray) -> np.ndarray:
    """A sum of squares computed as a difference: 0 where within rounding of 0."""
    return np.where(ss > noise, ss, 0.0)
