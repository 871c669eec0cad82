"""The subsampling experiments of Nørregaard & Derczynski §6.3–6.4 (Figures 6, 7):
how the variance of SPA falls as annotations are added, per weighting scheme.

Both modes draw every round at once for a block of rounds (no loop over items):
items are grouped by their number of annotations m, and each item's annotations get
a uniformly random arrival order σ (a row of the table of all m! permutations for
m ≤ 8, an argsort of random keys above). Along σ, the q-th arrival finds q earlier
annotations, s_q of them with its label, and A_q = Σ_{q' < q} s_q' agreeing pairs
among them — all that SPA needs.

mode="per_item" (§6.3, coloured lines of Figure 6): for each a = 2 … max m, every
item with at least a annotations keeps its first a arrivals (a uniform a-subset,
P̂_i(a) = A_{a}/C(a, 2)); items are then added in a random order and SPA is computed
after t items, at n_usable = a·t annotations. With equal n_i every weighting is the
flat mean, so all schemes coincide in this mode.

mode="random" (§6.3–6.4, Figures 6 and 7): single annotations arrive in a uniformly
random order. Each annotation gets an arrival time, uniform on (0, 1) and independent
of the others (the sorted times of an item are drawn as uniform order statistics,
independent of σ); SPA is read at the times τ = g/G, g = 1 … G (G = ``n_points``),
counting only items with two or more annotations so far. Each arrival changes the
numerator and denominator of eq. 7 by an amount fixed by (q, s_q, A_q), so one
bincount of those states per (round, time bin) and a matrix product give every
scheme at every time. The curve reports, per τ, the mean number of usable
annotations over rounds (x of Figure 6) and the variance of SPA over the rounds in
which it is defined.
"""
from __future__ import annotations

import itertools
from typing import Sequence

import numpy as np
import pandas as pd

from ..data import as_annotations
from ..errors import AgreementError
from ..stats import item_counts
from .sparse import _resolve_class_probs
from .sparse_variance import SPA_SCHEMES, spa_scheme_weights

__all__ = ["spa_variance_curve"]

_BLOCK_ELEMENTS = 1 << 22          # pair comparisons per block of rounds: bounded memory
_PERM_TABLE_MAX = 8                # m! rows up to 40,320


def _groups(ann):
    """Label matrices of the items with m ≥ 2 annotations, one per m: {m: I_m × m}."""
    prim = ann.primary()
    order = np.argsort(prim.item, kind="stable")
    item, label = prim.item[order], prim.label[order]
    m_i = np.bincount(item, minlength=ann.n_items)
    out = {}
    for m in np.unique(m_i[m_i >= 2]):
        sel = m_i[item] == m
        out[int(m)] = label[sel].reshape(-1, m)   # rows: items of size m, slots in order
    return out


def _arrivals(rng, labels: np.ndarray, n_rounds: int):
    """A random arrival order of every item's annotations in each round, and s_q: the
    number of earlier arrivals sharing the label of the q-th (R × I × m)."""
    n_items, m = labels.shape
    if m <= _PERM_TABLE_MAX:
        table = np.array(list(itertools.permutations(range(m))), dtype=np.intp)
        sigma = table[rng.integers(len(table), size=(n_rounds, n_items))]
    else:
        sigma = np.argsort(rng.random((n_rounds, n_items, m)), axis=-1)
    seq = labels[np.arange(n_items)[None, :, None], sigma]
    p, q = np.triu_indices(m, k=1)
    equal = (seq[..., p] == seq[..., q]).astype(np.float32)      # pairs p < q
    incidence = np.zeros((len(p), m), np.float32)
    incidence[np.arange(len(p)), q] = 1.0
    s = (equal @ incidence).astype(np.int64)                     # s_q
    return s


def _scheme_table(schemes, m_max, n_classes, p):
    """w(n) for n = 0 … m_max + 1 per scheme (zero below 2) and h(n) = w(n)/C(n, 2)."""
    n = np.arange(m_max + 2)
    w = np.stack([spa_scheme_weights(sc, n, n_classes, p)[0] for sc in schemes], axis=1)
    pairs = n * (n - 1) / 2.0
    h = np.divide(w, pairs[:, None], out=np.zeros_like(w), where=pairs[:, None] > 0)
    return w, h


def _random_block(rng, groups, n_rounds, n_points, w, h):
    """Per round and time τ_g: SPA numerator and denominator per scheme and the number
    of usable annotations, cumulated over arrivals up to τ_g: (R × G × (2S + 1))."""
    n_s = w.shape[1]
    total = np.zeros((n_rounds, n_points, 2 * n_s + 1))
    for m, labels in groups.items():
        s = _arrivals(rng, labels, n_rounds)
        a_before = np.cumsum(s, axis=-1) - s                      # A_q
        gaps = rng.exponential(size=s.shape[:2] + (m + 1,))
        times = np.cumsum(gaps, axis=-1)
        times = times[..., :m] / times[..., m:]                   # uniform order statistics
        bins = (times * n_points).astype(np.int64)               # present from τ = (bin+1)/G
        a_max = (m - 1) * (m - 2) // 2
        q = np.arange(m)
        code = (q * m + s) * (a_max + 1) + a_before               # state (q, s_q, A_q)
        n_codes = m * m * (a_max + 1)
        rounds = np.arange(n_rounds)[:, None, None]
        idx = (rounds * n_points + bins) * n_codes + code
        counts = np.bincount(idx.ravel(), minlength=n_rounds * n_points * n_codes)
        counts = counts.reshape(n_rounds, n_points, n_codes)
        # the increment each state brings to the numerator and denominator of eq. 7
        qq, ss, aa = np.unravel_index(np.arange(n_codes), (m, m, a_max + 1))
        d_num = (aa + ss)[:, None] * h[qq + 1] - aa[:, None] * h[qq]
        d_den = w[qq + 1] - w[qq]
        usable = np.where(np.arange(m + 2) >= 2, np.arange(m + 2), 0)
        d_use = (usable[qq + 1] - usable[qq])[:, None]
        table = np.concatenate([d_num, d_den, d_use], axis=1)
        total += counts.astype(float) @ table
    return np.cumsum(total, axis=1)


def _per_item_block(rng, groups, n_rounds, checkpoints):
    """Per round, a = 2 … max m and t in ``checkpoints[a]``: the mean P̂_i(a) of the
    first t items of a random order of the items with m_i ≥ a."""
    p_hat = {}
    for m, labels in groups.items():
        s = _arrivals(rng, labels, n_rounds)
        agree = np.cumsum(s, axis=-1)                             # A after a arrivals
        a = np.arange(1, m + 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            p_hat[m] = agree / (a * (a - 1) / 2.0)                # P̂_i(a), eq. 1
    out = {}
    for a, ts in checkpoints.items():
        vals = np.concatenate([p_hat[m][..., a - 1] for m in p_hat if m >= a], axis=1)
        order = np.broadcast_to(np.arange(vals.shape[1]), vals.shape).copy()
        rng.permuted(order, axis=1, out=order)
        cum = np.cumsum(np.take_along_axis(vals, order, axis=1), axis=1)
        out[a] = cum[:, ts - 1] / ts
    return out


def spa_variance_curve(data, schemes: Sequence[str] = SPA_SCHEMES, n_rounds: int = 3000,
                       seed=None, mode: str = "random", n_points: int = 50,
                       class_probs=None) -> pd.DataFrame:
    """Variance of SPA against the number of usable annotations (Figures 6 and 7).

    ``mode="random"``: annotations are added one at a time in a random order; per
    scheme and per time τ = g/``n_points`` the result gives ``fraction`` (τ, the
    expected share of annotations added), ``n_usable`` (mean number of annotations on
    items with two or more, over rounds) and ``n_usable_sd``, the ``mean`` and
    ``variance`` (ddof = 1) of SPA, and ``n_rounds`` in which SPA was defined.
    ``mode="per_item"``: a fixed number a of annotations per item
    (``annotations_per_item``), items added in a random order (``n_items``), at
    ``n_usable`` = a · n_items; every scheme gives the same flat mean here.

    ``schemes`` are names of §5 (arrays of weights are not meaningful under
    resampling). "inv_var_class" uses ``class_probs``, by default the class shares of
    all annotations of the full data, fixed across rounds. Figure 7 is the variance of
    each scheme minus that of "flat" at equal ``fraction``. See the module docstring
    for the vectorised sampling scheme.
    """
    if mode not in ("random", "per_item"):
        raise AgreementError(f"mode must be 'random' or 'per_item', got {mode!r}")
    schemes = [schemes] if isinstance(schemes, str) else list(schemes)
    unknown = [sc for sc in schemes if sc not in SPA_SCHEMES]
    if unknown or not schemes:
        raise AgreementError(f"schemes must be names from {list(SPA_SCHEMES)}, got {unknown!r}")
    if int(n_rounds) != n_rounds or n_rounds < 2:
        raise AgreementError(f"n_rounds must be an integer ≥ 2, got {n_rounds!r}")
    if int(n_points) != n_points or n_points < 1:
        raise AgreementError(f"n_points must be a positive integer, got {n_points!r}")
    ann = as_annotations(data)
    groups = _groups(ann)
    if not groups:
        raise AgreementError("no item has two or more annotations, so SPA is never defined")
    rng = np.random.default_rng(seed)
    per_round = sum(len(lab) * m * m for m, lab in groups.items())
    block = max(1, min(int(n_rounds), _BLOCK_ELEMENTS // per_round))
    sizes = [block] * (int(n_rounds) // block) + ([int(n_rounds) % block] if n_rounds % block else [])
    if mode == "random":
        p = _resolve_class_probs(class_probs, ann, item_counts(ann))
        w, h = _scheme_table(schemes, max(groups), ann.n_categories, p)
        cum = np.concatenate([_random_block(rng, groups, r, int(n_points), w, h)
                              for r in sizes])
        n_s = len(schemes)
        with np.errstate(divide="ignore", invalid="ignore"):
            spa = cum[..., :n_s] / cum[..., n_s:2 * n_s]          # eq. 7 per round, τ
        defined = cum[..., n_s:2 * n_s] > 0
        spa = np.where(defined, spa, np.nan)
        used = cum[..., 2 * n_s]
        frac = np.arange(1, int(n_points) + 1) / n_points
        frames = [pd.DataFrame({
            "scheme": sc, "fraction": frac, "n_usable": used.mean(axis=0),
            "n_usable_sd": used.std(axis=0, ddof=1), **_moments(spa[..., j])})
            for j, sc in enumerate(schemes)]
        return pd.concat(frames, ignore_index=True)
    checkpoints = {}
    for a in range(2, max(groups) + 1):
        n_a = sum(len(lab) for m, lab in groups.items() if m >= a)
        checkpoints[a] = np.unique(np.linspace(1, n_a, int(n_points)).round().astype(np.int64))
    parts = [_per_item_block(rng, groups, r, checkpoints) for r in sizes]
    rows = []
    for a, ts in checkpoints.items():
        values = np.concatenate([part[a] for part in parts])
        stats = _moments(values)
        rows += [pd.DataFrame({"scheme": sc, "annotations_per_item": a, "n_items": ts,
                               "n_usable": a * ts, **stats}) for sc in schemes]
    return pd.concat(rows, ignore_index=True)


def _moments(values: np.ndarray) -> dict:
    """Mean, variance (ddof = 1) and count over rounds (axis 0), ignoring NaN rounds."""
    ok = ~np.isnan(values)
    count = ok.sum(axis=0)
    filled = np.where(ok, values, 0.0)
    mean = np.divide(filled.sum(axis=0), count, out=np.full(count.shape, np.nan),
                     where=count > 0)
    dev = np.where(ok, values - mean, 0.0)
    var = np.divide((dev ** 2).sum(axis=0), count - 1, out=np.full(count.shape, np.nan),
                    where=count > 1)
    return {"mean": mean, "variance": var, "n_rounds": count}
