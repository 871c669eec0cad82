"""Krippendorff's own bootstrap of α (Hayes & Krippendorff 2007): pairs of values drawn
from the coincidence cells, with the expected disagreement held fixed."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import AgreementError
from ..measures.continuous.alpha import _delta, category_values, krippendorff_alpha

# the draws of one block of replicates: b · cells ≤ 2²² counts
BLOCK = 1 << 22


@dataclass(frozen=True)
class PairDraws:
    """α* of each replicate and how it was drawn: ``n_draws`` pairs (M) per replicate
    from ``n_cells`` coincidence cells, ``n_pairable`` values (n..) by ``n_coders``
    annotators; ``n_indeterminate`` replicates drew every pair from one value."""

    values: np.ndarray
    n_draws: int
    n_cells: int
    n_pairable: int
    n_coders: int
    n_indeterminate: int
    result: object


def pair_draws(ann, n_resamples: int, rng: np.random.Generator, metric="nominal",
               missing: str = "pairable") -> PairDraws:
    """α* on ``n_resamples`` replicates of Hayes & Krippendorff (2007, *Communication
    Methods and Measures* 1:77–89, doi:10.1080/19312450709336664), vectorised.

    The coincidence matrix o_ck of the pairable values (n.. of them) gives each unordered
    cell c ≤ k the probability p_ck = 2 o_ck / n.. (c < k) or o_cc / n.. (c = k). A
    replicate draws M = ⌊(m − 1) n.. / 2⌋ pairs from these cells (m: the annotators of
    the data; M is every pair of values of m annotators on n../m units), as one
    Multinomial(M, p) over the cells (cells of equal δ merged, the diagonal's kept
    apart), and gives α* = 1 − Σ δ / (M · D_e) with D_e, the data's expected
    disagreement per pair, held fixed. No cap on M (kripp.boot's min(25·q, M) stops the
    interval from narrowing as items grow). A replicate that drew every pair from one
    value c (all in cell cc) has no variation: Krippendorff sets its α* to 0 instead of
    1 (alpha = 1 − 0/0 is indeterminate), as here; they are counted. The M pairs are
    drawn as independent, which they are with two coders (one pair a unit); with m ≥ 3
    the pairs of a unit share its values and the interval is too narrow (coverage 0.87
    for a nominal 95 % with 3 coders: benchmarks/bench_coverage.py)."""
    result = krippendorff_alpha(ann, metric, missing=missing)
    table = result.params.get("coincidences")
    if table is None:
        raise AgreementError("method='krippendorff' draws pairs from the coincidence matrix, "
                             f"and α on {ann.n_categories:,} distinct values is computed "
                             "without one; use the unit bootstrap (method='unit')")
    if not np.isfinite(result.value):
        raise AgreementError(f"α is undefined on these data ({result.note}); there is "
                             "nothing to bootstrap")
    o = table.to_numpy(dtype=float)
    n_c = o.sum(axis=1)
    n = n_c.sum()                                                     # n.. pairable values
    delta, _ = _delta(metric, n_c, category_values(ann, metric))
    d_e = (n_c @ delta @ n_c) / (n * (n - 1))                  # D_e per pair, in δ's unit
    coders = ann.n_annotators
    m_draws = (coders - 1) * int(round(n)) // 2                      # M = (m − 1)·n.. / 2
    upper = np.triu(np.ones_like(o, dtype=bool))
    p = np.where(np.eye(len(o), dtype=bool), o, 2 * o)[upper] / n    # p_ck over c ≤ k
    d = delta[upper]
    diagonal = np.eye(len(o), dtype=bool)[upper]
    used = p > 0
    # off-diagonal cells of equal δ merged (one multinomial cell each), diagonal kept
    off = used & ~diagonal
    levels, at = np.unique(d[off], return_inverse=True)
    probs = np.concatenate([p[used & diagonal], np.bincount(at, weights=p[off],
                                                            minlength=len(levels))])
    cost = np.concatenate([d[used & diagonal], levels])
    n_diag = int(np.count_nonzero(used & diagonal))
    probs = probs / probs.sum()
    values, stuck = [], 0
    step = max(1, BLOCK // len(probs))
    for start in range(0, n_resamples, step):
        counts = rng.multinomial(m_draws, probs, size=min(step, n_resamples - start))
        alpha = 1.0 - (counts @ cost) / (m_draws * d_e)          # α* = 1 − Σδ / (M·D_e)
        one = (counts[:, :n_diag] == m_draws).any(axis=1)   # every pair from one value
        stuck += int(one.sum())
        values.append(np.where(one, 0.0, alpha))
    return PairDraws(np.concatenate(values), m_draws, len(probs), int(round(n)), coders,
                     stuck, result)
