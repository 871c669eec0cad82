"""How much SPA moves when annotations go missing at random (Nørregaard & Derczynski §4.2,
§6.3): every annotation is dropped independently with probability ``drop``, and P̄_spa
(eq. 7) is recomputed under each weighting scheme, ``n_rounds`` times.

This is the thinning of ``spa_variance_curve(mode="random")`` at one time τ = 1 − drop
(there an annotation is present at τ with probability τ, independently), drawn fast
enough for a slider. Items are grouped by their count vector (n_i1 … n_iC): the
kept counts of an item are independent binomials Bin(n_ic, 1 − drop), so all items of
one pattern share one distribution over the finitely many kept vectors m ≤ n_i, and
the numerator and denominator of eq. 7 summed over the w items of a pattern depend
only on how many of them land on each kept vector: one multinomial draw of w over
that distribution per pattern and round. The cost depends on the number of patterns
and rounds, not on the number of items. When the patterns' kept vectors are too many
(many annotations per item), the items are thinned one by one instead (same law).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import pandas as pd
from scipy.special import comb

from ..data import as_annotations
from ..errors import AgreementError
from ..results import Charted
from ..stats import item_counts
from .sparse import _resolve_class_probs
from .sparse_variance import SPA_SCHEMES, spa_scheme_weights

__all__ = ["SpaMissingness", "SpaMissingnessResult", "spa_missingness"]

_TABLE_MAX = 1 << 21        # patterns × kept vectors held as a table
_DIRECT_BLOCK = 1 << 22     # rounds × items × categories per block of direct thinning


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
    """Prepared data for :meth:`sample`: the items' count patterns and, per scheme,
    eq. 7's numerator k(m)·P̂(m) and denominator k(m) of every kept vector m.

    ``schemes``: names of §5. "inv_var" uses the data's number of categories;
    "inv_var_class" uses ``class_probs`` (default: class shares of all annotations of
    the full data, fixed across rounds, as in :func:`spa_variance_curve`).
    """

    def __init__(self, data, schemes: Sequence[str] = SPA_SCHEMES, class_probs=None,
                 method: str = "auto"):
        schemes = [schemes] if isinstance(schemes, str) else list(schemes)
        unknown = [s for s in schemes if s not in SPA_SCHEMES]
        if unknown or not schemes:
            raise AgreementError(f"schemes must be names from {list(SPA_SCHEMES)}, got "
                                 f"{unknown!r}")
        if method not in ("auto", "patterns", "direct"):
            raise AgreementError(f"method must be 'auto', 'patterns' or 'direct', got {method!r}")
        ann = as_annotations(data)
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
        self.counts = counts
        self.full = pd.Series(self._spa(counts[None].astype(float))[0], index=schemes,
                              name="spa")
        radix = int(counts.max()) + 1
        if radix ** counts.shape[1] < 2 ** 62:                     # one int per count vector
            keys = counts @ radix ** np.arange(counts.shape[1], dtype=np.int64)
            _, first, mult = np.unique(keys, return_index=True, return_counts=True)
        else:
            _, first, mult = np.unique(counts, axis=0, return_index=True, return_counts=True)
        self.patterns, self.multiplicity = counts[first], mult
        sizes = np.prod(self.patterns + 1, axis=1)
        size = len(self.patterns) * int(sizes.max())
        self.method = ("patterns" if size <= _TABLE_MAX else "direct") if method == "auto" \
            else method
        if self.method == "patterns":
            self._build_table(int(sizes.max()))

    # ------------------------------------------------------------ eq. 7 parts
    def _weights(self, m_tot: np.ndarray) -> np.ndarray:
        """k(m) per scheme (0 below two annotations): (schemes, ...)."""
        return np.stack([spa_scheme_weights(s, m_tot, self.n_categories, self.class_probs)[0]
                         for s in self.schemes])

    def _parts(self, kept: np.ndarray):
        """Numerator Σ k·P̂ and denominator Σ k of eq. 7 for kept counts (..., C)."""
        m_tot = kept.sum(axis=-1)
        pairs = np.einsum("...c,...c->...", kept, kept) - m_tot   # Σ_c m_c(m_c − 1)
        p_hat = pairs / np.maximum(m_tot * (m_tot - 1.0), 1.0)    # eq. 7, P̂ (0 below 2)
        k = self._weights(m_tot)
        return k * p_hat, k, np.where(m_tot >= 2, m_tot, 0.0)

    def _spa(self, kept: np.ndarray) -> np.ndarray:
        """P̄_spa per round and scheme for kept counts (rounds, items, C)."""
        num, den, _ = self._parts(kept)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (num.sum(axis=-1) / den.sum(axis=-1)).T          # eq. 7

    def _build_table(self, width: int) -> None:
        """All kept vectors m ≤ n of every pattern (padded to ``width``), the binomial
        coefficients Π_c C(n_c, m_c) and kept totals; the cell of the multinomial that
        each kept vector falls in, and eq. 7's parts per cell."""
        n_pat, c = self.patterns.shape
        kept = np.zeros((n_pat, width, c))
        valid = np.zeros((n_pat, width), bool)
        for j, pat in enumerate(self.patterns):                   # one pass per pattern
            grid = np.array(list(itertools.product(*[range(v + 1) for v in pat])))
            kept[j, :len(grid)] = grid
            valid[j, :len(grid)] = True
        self._kept_total = kept.sum(axis=-1)
        self._dropped_total = self.patterns.sum(axis=1)[:, None] - self._kept_total
        self._binom = np.where(valid, np.prod(comb(self.patterns[:, None, :], kept), axis=-1),
                               0.0)
        # eq. 7's parts depend on m only through (Σ m_c, Σ m_c(m_c − 1)), and are 0 below
        # two kept: kept vectors alike in these share one cell of the multinomial (a sum
        # of multinomial cells is the multinomial of the summed probabilities)
        pairs = np.einsum("pwc,pwc->pw", kept, kept) - self._kept_total
        usable = self._kept_total >= 2
        pattern = np.repeat(np.arange(n_pat), width)
        rows = np.column_stack([pattern, np.where(usable, self._kept_total, 0).ravel(),
                                np.where(usable, pairs, 0).ravel()])
        groups, group = np.unique(rows, axis=0, return_inverse=True)  # sorted by pattern
        local = group.ravel() - np.searchsorted(groups[:, 0], np.arange(n_pat))[pattern]
        self._n_groups = int(local.max()) + 1
        self._group = local + pattern * self._n_groups
        num, den, used = self._parts(kept)
        # per cell: k·P̂ and k of every scheme, then the annotations used (equal within a cell)
        self._cells = np.zeros((n_pat * self._n_groups, 2 * len(self.schemes) + 1))
        self._cells[self._group] = np.column_stack([num.reshape(len(self.schemes), -1).T,
                                                    den.reshape(len(self.schemes), -1).T,
                                                    used.ravel()])

    # ------------------------------------------------------------ sampling
    def sample(self, drop: float, n_rounds: int = 200, seed=None) -> SpaMissingnessResult:
        """SPA in ``n_rounds`` rounds, each dropping every annotation independently
        with probability ``drop`` (0 ≤ drop < 1)."""
        if not (np.isfinite(drop) and 0 <= drop < 1):
            raise AgreementError(f"drop is a probability in [0, 1), got {drop!r}")
        if int(n_rounds) != n_rounds or n_rounds < 1:
            raise AgreementError(f"n_rounds must be a positive integer, got {n_rounds!r}")
        rng = np.random.default_rng(seed)
        keep = 1.0 - float(drop)
        if self.method == "patterns":
            prob = self._binom * keep ** self._kept_total * float(drop) ** self._dropped_total
            prob /= prob.sum(axis=1, keepdims=True)
            cell = np.bincount(self._group, prob.ravel(), minlength=len(prob) * self._n_groups)
            draws = rng.multinomial(self.multiplicity, cell.reshape(len(prob), -1),
                                    size=(int(n_rounds), len(prob))).astype(float)
            sums = draws.reshape(int(n_rounds), -1) @ self._cells    # Σ over items, per round
            s = len(self.schemes)
            num, den, used = sums[:, :s], sums[:, s:2 * s], sums[:, -1]  # Σ k·P̂, Σ k, used
            with np.errstate(invalid="ignore", divide="ignore"):
                values = np.where(den > 0, num / den, np.nan)        # eq. 7 per round
        else:
            values, used = self._direct(rng, keep, int(n_rounds))
        frame = pd.DataFrame(values, columns=pd.Index(self.schemes, name="scheme"))
        frame.index.name = "round"
        return SpaMissingnessResult(frame, used, self.full,
                                    dict(drop=float(drop), n_rounds=int(n_rounds), seed=seed,
                                         method=self.method, notes=list(self.notes)))

    def _direct(self, rng, keep: float, n_rounds: int):
        """Thin every item's counts: Bin(n_ic, keep) per item, class and round."""
        per_round = self.counts.size
        block = max(1, min(n_rounds, _DIRECT_BLOCK // per_round))
        values, used = [], []
        for start in range(0, n_rounds, block):
            r = min(block, n_rounds - start)
            kept = rng.binomial(self.counts[None], keep, size=(r, *self.counts.shape))
            num, den, u = self._parts(kept.astype(float))
            num, den = num.sum(axis=-1), den.sum(axis=-1)
            with np.errstate(invalid="ignore", divide="ignore"):
                values.append(np.where(den > 0, num / den, np.nan).T)
            used.append(u.sum(axis=-1))
        return np.concatenate(values), np.concatenate(used)


def spa_missingness(data, drop: float, schemes: Sequence[str] = SPA_SCHEMES,
                    n_rounds: int = 200, seed=None, class_probs=None) -> SpaMissingnessResult:
    """SPA under each scheme over ``n_rounds`` rounds that drop every annotation
    independently with probability ``drop``: the spread of the estimate under
    missingness at random. Prepare once with :class:`SpaMissingness` to sample many
    values of ``drop`` (a slider)."""
    return SpaMissingness(data, schemes, class_probs).sample(drop, n_rounds, seed)
