"""How much SPA moves when annotations go missing at random (Nørregaard & Derczynski §4.2,
§6.3): every annotation is dropped independently with probability ``drop``, and P̄_spa
(eq. 7) is recomputed under each weighting scheme, ``n_rounds`` times.

This is the thinning of ``spa_variance_curve(mode="random")`` at one time τ = 1 − drop
(there an annotation is present at τ with probability τ, independently), drawn fast
enough for a slider, exactly (no approximation) for any number of annotations per item.

Eq. 7 sees an item's kept counts m only through its kept total k = Σ_c m_c and its
agreeing ordered pairs P = Σ_c m_c(m_c − 1): the item adds P·h(k) to the numerator,
h(k) = k(k)/(k(k − 1)), and k(k) to the denominator (0 below k = 2). Items are grouped
by their count vector n (a pattern); the kept counts are independent binomials
Bin(n_c, 1 − drop), so every item of a pattern lands on a cell (k, P) with

    Pr(k, P) = N_n(k, P) · (1 − drop)^k · drop^(|n| − k),
    N_n(k, P) = Σ_{m ≤ n, Σ m_c = k, Σ m_c(m_c − 1) = P} Π_c C(n_c, m_c),

and N_n is built once per pattern by convolving the categories' generating functions
Σ_j C(n_c, j) x^j y^(j(j − 1)) over the states (k, P): polynomial in |n| (at most
Σ_{k ≤ |n|} (C(k, 2) + 1) states), however many categories. The w items of a pattern
then fall on its cells by one multinomial draw of w per round ("patterns"). A pattern
whose cells outnumber twice its items' non-zero counts is cheaper to thin item by item
("direct": one binomial per non-zero count, then one bincount over k of P and of the
items): both draw the same law, and "auto" picks per pattern. Cost per round: the
tabled cells plus the non-zero counts of the directly thinned items, never items ×
categories; memory follows the tables, rounds are drawn in blocks.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import pandas as pd
from scipy.special import comb, xlogy

from ... import validate
from ...data import as_annotations
from ...errors import AgreementError
from ...results import Charted
from ...stats import item_counts
from .agreement import _resolve_class_probs
from .curves import _blocks
from .variance import SPA_SCHEMES, spa_scheme_weights

__all__ = ["SpaMissingness", "SpaMissingnessResult", "spa_missingness"]

_TABLE_MAX = 1 << 21        # cells of the tabled patterns (bound before building)
_TABLE_N_MAX = 1000         # tabled patterns have |n| ≤ 1,000: N_n(k, P) ≤ 2^1000 < 1e308


@dataclass(frozen=True, eq=False)
class SpaMissingnessResult(Charted):
    """SPA per round (``values``: rounds × schemes, NaN where no item kept two
    annotations), the annotations kept on usable items per round (``n_usable``) and
    the full-data SPA of each scheme (``full``)."""

    values: pd.DataFrame
    n_usable: np.ndarray
    full: pd.Series
    params: dict = field(default_factory=dict)

    def summary(self) -> pd.DataFrame:
        """Per scheme: full-data SPA, mean, sd (ddof = 1), 2.5 % and 97.5 % quantiles
        over the rounds where SPA is defined, and how many rounds that is."""
        v = self.values
        ok = v.notna().sum()
        return pd.DataFrame({"full": self.full, "mean": v.mean(), "sd": v.std(ddof=1),
                             "q025": v.quantile(0.025), "q975": v.quantile(0.975),
                             "n_rounds": ok})


class SpaMissingness:
    r"""Prepared data for `sample`: the items' count patterns, the law of the kept
    cell (k, P) of every tabled pattern, the non-zero counts of the items thinned one
    by one, and eq. 7's per-item numerator P·h(k) and denominator k(k) per scheme as
    tables over k (see the module docstring).

    ``schemes``: names of §5. "inv_var" uses the data's number of categories;
    "inv_var_class" uses ``class_probs`` (default: class shares of all annotations of
    the full data, fixed across rounds, as in `spa_variance_curve`).
    ``method``: "auto" (per pattern, whichever is cheaper), "patterns" (every pattern
    tabled) or "direct" (every item thinned); all three draw the same law.

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Categorical labels (item, annotator, label).
    schemes : sequence of str, default all six
        Names of §5: "flat", "annotations", "annotations_m1", "edges", "inv_var",
        "inv_var_class".
    class_probs : array_like or mapping, optional
        The class distribution of "inv_var_class"; by default the class shares of all
        annotations of the full data.
    method : {"auto", "patterns", "direct"}, default "auto"
        How the kept counts are drawn; all three draw the same law.

    Attributes
    ----------
    full : pandas.Series
        Each scheme's SPA on the full data.
    notes : list of str
        Schemes that used a limit weight.

    Raises
    ------
    AgreementError
        When no item has two annotations, or a scheme or ``method`` is not valid.

    See Also
    --------
    spa_missingness : prepare and sample once.
    spa_variance_curve : the curve over missing rates.

    Notes
    -----
    An item with counts n keeps (k, P) with probability
    $N_n(k, P)\,(1 - \mathrm{drop})^k\,\mathrm{drop}^{|n| - k}$, N_n counting the kept
    count vectors with total k and P agreeing ordered pairs (module docstring); SPA is eq. 7.

    References
    ----------
    Nørregaard, J. & Derczynski, L. (2022). Sparse Probability of Agreement. arXiv:2208.06161.
    https://doi.org/10.48550/arXiv.2208.06161

    Examples
    --------
    >>> wide = pd.DataFrame({"a": ["x", "x", None], "b": ["x", "y", None],
    ...                      "c": ["y", None, "y"]})
    >>> data = iaa.Annotations.from_wide(wide)
    >>> prepared = iaa.SpaMissingness(data, schemes=("flat", "edges"))
    >>> prepared.full.round(4).tolist()
    [0.1667, 0.25]
    >>> prepared.sample(0.0, n_rounds=2, seed=0).values.round(4).values.tolist()
    [[0.1667, 0.25], [0.1667, 0.25]]
    """

    def __init__(self, data, schemes: Sequence[str] = SPA_SCHEMES, class_probs=None,
                 method: str = "auto"):
        schemes = validate.choices("SpaMissingness", "schemes", schemes, SPA_SCHEMES)
        validate.choice("SpaMissingness", "method", method, ("auto", "patterns", "direct"))
        ann = as_annotations(data)
        if ann.item_weight is not None:  # one row of counts per item
            ann = ann.expanded("SpaMissingness")
        counts = item_counts(ann)                                  # n_ic
        n = counts.sum(axis=1)
        if not np.any(n >= 2):
            raise AgreementError("no item has two or more annotations, so SPA is never defined")
        counts = counts[n >= 1]
        self.schemes = schemes
        self.n_categories = ann.n_categories
        self.class_probs = _resolve_class_probs(class_probs, ann, item_counts(ann))
        # schemes that fall back to a limit (a degenerate class distribution) say so
        self.notes = [note for s in schemes if (note := spa_scheme_weights(
            s, n[n >= 2], self.n_categories, self.class_probs)[1])]
        self._per_total(int(n.max()))
        totals = self._totals(counts.sum(axis=1)[None], _pairs(counts)[None])
        self.full = pd.Series(_ratio(totals, len(schemes))[0], index=schemes, name="spa")
        radix = int(counts.max()) + 1
        if radix ** counts.shape[1] < 2 ** 62:                     # one int per count vector
            keys = counts @ radix ** np.arange(counts.shape[1], dtype=np.int64)
            _, first, inverse, mult = np.unique(keys, return_index=True, return_inverse=True,
                                                return_counts=True)
        else:
            _, first, inverse, mult = np.unique(counts, axis=0, return_index=True,
                                                return_inverse=True, return_counts=True)
        self.patterns, self.multiplicity = counts[first], mult
        tabled = self._choose(method)
        self.method = {0: "direct", len(tabled): "patterns"}.get(int(tabled.sum()), "mixed")
        self._buckets = self._tables(np.flatnonzero(tabled))
        thinned = counts[~tabled[inverse.ravel()]]                 # items thinned one by one
        self._nonzero = thinned[thinned > 0]                       # row-major: item by item
        self._starts = np.r_[0, np.cumsum((thinned > 0).sum(axis=1))[:-1]]

    # ------------------------------------------------------------ eq. 7 parts
    def _per_total(self, n_max: int) -> None:
        """Per kept total k = 0 … n_max: eq. 7's numerator per agreeing ordered pair,
        h(k) = k(k)/(k(k − 1)), and its denominator k(k) per scheme, and the annotations
        used (k if k ≥ 2): (n_max + 1) × (2S + 1) tables to multiply by Σ P and by the
        number of items."""
        k = np.arange(n_max + 1)
        w = np.stack([spa_scheme_weights(s, k, self.n_categories, self.class_probs)[0]
                      for s in self.schemes], axis=1)              # k(k), 0 below 2
        ordered = (k * (k - 1.0))[:, None]
        h = np.divide(w, ordered, out=np.zeros_like(w), where=ordered > 0)
        used = np.where(k >= 2, k, 0.0)[:, None]
        self._per_pair = np.hstack([h, np.zeros_like(w), np.zeros_like(used)])
        self._per_item = np.hstack([np.zeros_like(w), w, used])

    def _totals(self, kept_total: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        """Σ_i P_i·h(k_i), Σ_i k(k_i) per scheme and the annotations used, per round,
        for kept totals k and pairs P (rounds × items): one bincount over (round, k)."""
        rounds, width = kept_total.shape[0], len(self._per_pair)
        cell = (np.arange(rounds, dtype=np.int64)[:, None] * width + kept_total).ravel()
        items = np.bincount(cell, minlength=rounds * width).reshape(rounds, width)
        agree = np.bincount(cell, pairs.ravel().astype(float), rounds * width)
        return agree.reshape(rounds, width) @ self._per_pair + items @ self._per_item

    def _choose(self, method: str) -> np.ndarray:
        """Which patterns are tabled: a pattern has at most min(Π_c (n_c + 1),
        Σ_{k ≤ |n|} (C(k, 2) + 1)) cells, and a multinomial over them costs about one
        binomial per cell; thinning its w items costs w·(non-zero counts) binomials.
        Tables also stay below ``_TABLE_MAX`` cells and |n| ≤ ``_TABLE_N_MAX``."""
        pat = self.patterns
        total = pat.sum(axis=1).astype(float)
        grid = np.exp(np.log1p(pat.astype(float)).sum(axis=1))
        states = total * (total + 1) * (total - 1) / 6 + total + 1  # C(|n|+1, 3) + |n| + 1
        bound = np.minimum(grid, states)
        if method == "direct":
            return np.zeros(len(pat), bool)
        if method == "patterns":
            if total.max() > _TABLE_N_MAX or bound.sum() > _TABLE_MAX:
                raise AgreementError(
                    f"method='patterns' would tabulate up to {bound.sum():,.0f} cells for "
                    f"items of up to {total.max():,.0f} annotations (limits {_TABLE_MAX:,} "
                    f"and {_TABLE_N_MAX:,}); use method='auto' or 'direct'")
            return np.ones(len(pat), bool)
        cheap = (bound <= 2 * self.multiplicity * (pat > 0).sum(axis=1)) & \
            (total <= _TABLE_N_MAX)
        order = np.argsort(np.where(cheap, bound, np.inf), kind="stable")
        fits = np.cumsum(bound[order]) <= _TABLE_MAX
        tabled = np.zeros(len(pat), bool)
        tabled[order[fits & cheap[order]]] = True
        return tabled

    def _tables(self, which: np.ndarray) -> list:
        """Per bucket of tabled patterns with up to 2^b cells: the multiplicities w,
        totals |n|, each cell's k and log N_n(k, P) (padded with N = 0); and eq. 7's
        parts per cell of every bucket (``_rows``), so that a round's sums are its
        draws @ ``_rows``."""
        laws = [_kept_law(self.patterns[j][self.patterns[j] > 0]) for j in which]
        sizes = np.array([len(law[0]) for law in laws], dtype=np.int64)
        bucket = np.ceil(np.log2(np.maximum(sizes, 1))).astype(int)
        out, rows = [], []
        for b in np.unique(bucket):
            members = np.flatnonzero(bucket == b)
            width = int(sizes[members].max())
            kept = np.zeros((len(members), width), np.int64)
            pairs = np.zeros((len(members), width), np.int64)
            log_n = np.full((len(members), width), -np.inf)
            for row, j in enumerate(members):
                k, p, ln = laws[j]
                kept[row, :len(k)], pairs[row, :len(k)], log_n[row, :len(k)] = k, p, ln
            rows.append(pairs.reshape(-1, 1) * self._per_pair[kept.ravel()]
                        + np.isfinite(log_n).reshape(-1, 1) * self._per_item[kept.ravel()])
            pat = which[members]
            out.append(dict(w=self.multiplicity[pat], total=self.patterns[pat].sum(axis=1),
                            kept=kept, log_n=log_n))
        self._rows = np.vstack(rows) if rows else np.zeros((0, self._per_pair.shape[1]))
        return out

    # ------------------------------------------------------------ sampling
    def sample(self, drop: float, n_rounds: int = 200, seed=None) -> SpaMissingnessResult:
        """SPA in ``n_rounds`` rounds, each dropping every annotation independently
        with probability ``drop`` (0 ≤ drop < 1)."""
        drop, n_rounds = _check_sampling("SpaMissingness.sample", drop, n_rounds, seed)
        rng = np.random.default_rng(seed)
        keep = 1.0 - drop
        sums = np.zeros((n_rounds, self._per_pair.shape[1]))
        probs = []
        for table in self._buckets:                                # Pr(k, P) per pattern
            log_p = (table["log_n"] + xlogy(table["kept"], keep)
                     + xlogy(table["total"][:, None] - table["kept"], float(drop)))
            prob = np.exp(log_p - log_p.max(axis=1, keepdims=True))
            probs.append(prob / prob.sum(axis=1, keepdims=True))
        for start, r in _blocks(n_rounds, len(self._rows)):        # tabled patterns
            draws = [rng.multinomial(table["w"], prob, size=(r, len(prob))).reshape(r, -1)
                     for table, prob in zip(self._buckets, probs)]
            if draws:
                sums[start:start + r] += np.hstack(draws).astype(float) @ self._rows
        if len(self._nonzero):                                     # items thinned directly
            for start, r in _blocks(n_rounds, max(len(self._nonzero), len(self._per_pair))):
                # count-major: numpy reuses a binomial's set-up while n repeats (2× faster)
                kept = rng.binomial(self._nonzero[:, None], keep, size=(len(self._nonzero), r))
                sums[start:start + r] += self._totals(
                    np.add.reduceat(kept, self._starts, axis=0).T,
                    np.add.reduceat(kept * (kept - 1), self._starts, axis=0).T)
        values = _ratio(sums, len(self.schemes))                   # eq. 7 per round
        frame = pd.DataFrame(values, columns=pd.Index(self.schemes, name="scheme"))
        frame.index.name = "round"
        return SpaMissingnessResult(frame, sums[:, -1], self.full,
                                    dict(drop=float(drop), n_rounds=n_rounds, seed=seed,
                                         method=self.method, notes=list(self.notes)))


def _pairs(counts: np.ndarray) -> np.ndarray:
    """Agreeing ordered pairs Σ_c n_c(n_c − 1) per row of counts."""
    return np.einsum("ic,ic->i", counts, counts) - counts.sum(axis=1)


def _ratio(sums: np.ndarray, n_schemes: int) -> np.ndarray:
    """P̄_spa = Σ k·P̂ / Σ k per row and scheme (eq. 7), NaN where no item is usable."""
    num, den = sums[:, :n_schemes], sums[:, n_schemes:2 * n_schemes]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / den, np.nan)


def _kept_law(counts: np.ndarray):
    """Cells (k, P) of one pattern's kept counts and log N_n(k, P): the generating
    functions Σ_j C(n_c, j) x^j y^(j(j − 1)) of its non-zero counts n_c, multiplied out
    over the states (k, A = P/2) one category at a time. N_n ≤ 2^|n| stays finite for
    |n| ≤ 1,000."""
    total = int(counts.sum())
    width = total * (total - 1) // 2 + 1                           # A = 0 … C(|n|, 2)
    kept, agree, ways = np.zeros(1, np.int64), np.zeros(1, np.int64), np.ones(1)
    for n_c in counts:
        j = np.arange(n_c + 1)
        code = ((kept[:, None] + j) * width + agree[:, None] + j * (j - 1) // 2).ravel()
        code, cell = np.unique(code, return_inverse=True)
        ways = np.bincount(cell.ravel(), (ways[:, None] * comb(n_c, j)).ravel())
        kept, agree = np.divmod(code, width)
    return kept, 2 * agree, np.log(ways)


def spa_missingness(data, drop: float, schemes: Sequence[str] = SPA_SCHEMES,
                    n_rounds: int = 200, seed=None, class_probs=None) -> SpaMissingnessResult:
    """SPA under each scheme over ``n_rounds`` rounds that drop every annotation
    independently with probability ``drop``: the spread of the estimate under
    missingness at random. Prepare once with `SpaMissingness` to sample many
    values of ``drop`` (a slider).

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Categorical labels (item, annotator, label).
    drop : float
        The probability in [0, 1) that an annotation goes missing.
    schemes : sequence of str, default all six
        Names of §5: "flat", "annotations", "annotations_m1", "edges", "inv_var",
        "inv_var_class".
    n_rounds : int, default 200
        Rounds drawn.
    seed : int or numpy.random.Generator, optional
        Seed of the draws.
    class_probs : array_like or mapping, optional
        The class distribution of "inv_var_class"; by default the class shares of all
        annotations of the full data.

    Returns
    -------
    SpaMissingnessResult
        ``values`` (rounds × schemes, NaN where no item kept two annotations),
        ``n_usable``, ``full`` (each scheme's SPA on the full data), ``summary()``.

    Raises
    ------
    AgreementError
        When no item has two annotations, ``drop`` is outside [0, 1), or a scheme,
        ``n_rounds`` or ``seed`` is not valid.

    See Also
    --------
    SpaMissingness : prepare once, sample many drop rates.
    spa_variance_curve : the whole curve over missing rates.
    sparse_agreement : SPA on the data as given.

    Notes
    -----
    Each annotation is kept independently with probability 1 − drop; SPA is eq. 7 on
    what is kept. Under missingness at random with weights depending on n_i only, its
    mean is the complete-data agreement (§4.2).

    References
    ----------
    Nørregaard, J. & Derczynski, L. (2022). Sparse Probability of Agreement. arXiv:2208.06161.
    https://doi.org/10.48550/arXiv.2208.06161

    Examples
    --------
    With ``drop=0`` nothing goes missing: every round is the full-data SPA (1/6 with flat
    weights, eq. 7):

    >>> wide = pd.DataFrame({"a": ["x", "x", None], "b": ["x", "y", None],
    ...                      "c": ["y", None, "y"]})
    >>> data = iaa.Annotations.from_wide(wide)
    >>> r = iaa.spa_missingness(data, 0.0, schemes=("flat",), n_rounds=3, seed=0)
    >>> r.values["flat"].round(4).tolist()
    [0.1667, 0.1667, 0.1667]
    """
    _check_sampling("spa_missingness", drop, n_rounds, seed)  # before the preparation
    validate.choices("spa_missingness", "schemes", schemes, SPA_SCHEMES)
    return SpaMissingness(data, schemes, class_probs).sample(drop, n_rounds, seed)


def _check_sampling(where: str, drop, n_rounds, seed) -> tuple[float, int]:
    """drop a probability in [0, 1), n_rounds an integer ≥ 1, seed a seed."""
    validate.seed(where, "seed", seed)
    return (validate.probability(where, "drop", drop, open_high=True),
            validate.integer(where, "n_rounds", n_rounds, minimum=1))
