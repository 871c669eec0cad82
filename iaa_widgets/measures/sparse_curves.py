"""The subsampling experiments of Nørregaard & Derczynski §6.3–6.4 (Figures 6, 7):
how the variance of SPA falls as annotations are added, per weighting scheme.

Every round of a block of rounds is drawn at once (no loop over items). Items are
grouped by their number of annotations m and held slot-major (m × items), so that the
few per-slot steps below are whole-array operations. Along an item's arrival order,
the q-th arrival finds q earlier annotations, s_q of them with its label, and
A_q = Σ_{q' < q} s_q' agreeing pairs among them: all that eq. 7 needs.

mode="per_item" (§6.3, coloured lines of Figure 6): each item's annotations get a
uniformly random order (a row of the table of all m! permutations for m ≤ 8, random
keys sorted by a sorting network above); for each a = 2 … max m, every item with at
least a annotations keeps its first a arrivals (a uniform a-subset, P̂_i(a) =
A_{a}/C(a, 2)). Items are added in a random order (one permutation per round) and SPA
is read after t items, at n_usable = a·t annotations. With equal n_i every weighting
is the flat mean, so all schemes coincide in this mode.

mode="random" (§6.3–6.4, Figures 6 and 7): single annotations arrive in a uniformly
random order, each at a time uniform on (0, 1), independently; SPA is read at
τ = g/G, g = 1 … G (G = ``n_points``), over items with two or more annotations so far.
Only the time bin ⌊G·time⌋ of an annotation matters: the state at τ depends on which
annotations are present, not on their order within a bin, so each annotation draws
its bin and a sorting network orders every item's annotations by bin. Each arrival
changes the numerator and denominator of eq. 7 by an amount fixed by (q, s_q, A_q);
one bincount of those states per (round, bin) and a matrix product give every scheme
at every τ. The curve reports per τ the mean number of usable annotations over
rounds (x of Figure 6) and the variance of SPA over the rounds where it is defined.
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

_BLOCK_ELEMENTS = 1 << 22          # annotations × rounds per block: bounded memory
_PERM_TABLE_MAX = 8                # m! permutations tabulated up to 40,320


def _groups(ann) -> dict[int, np.ndarray]:
    """Labels of the items with m ≥ 2 annotations, slot-major per m: {m: m × I_m}."""
    prim = ann.primary()
    order = np.argsort(prim.item, kind="stable")
    item, label = prim.item[order], prim.label[order]
    m_i = np.bincount(item, minlength=ann.n_items)
    dtype = np.int16 if ann.n_categories < 2 ** 15 else np.int64
    out = {}
    for m in np.unique(m_i[m_i >= 2]):
        sel = m_i[item] == m
        out[int(m)] = np.ascontiguousarray(label[sel].reshape(-1, m).T.astype(dtype))
    return out


def _sort_columns(x: np.ndarray) -> None:
    """Sort every column of ``x`` (m × …) in place: odd–even transposition network,
    m passes of compare-exchange between neighbouring slots (whole-array min/max)."""
    m = x.shape[0]
    for step in range(m):
        for i in range(step % 2, m - 1, 2):
            low = np.minimum(x[i], x[i + 1])
            np.maximum(x[i], x[i + 1], out=x[i + 1])
            x[i] = low


def _same_before(seq: np.ndarray) -> np.ndarray:
    """s_q: earlier arrivals with the label of the q-th (seq: labels in arrival
    order, m × …)."""
    m = seq.shape[0]
    s = np.zeros(seq.shape, np.int8 if m < 128 else np.int32)
    for q in range(1, m):
        for p in range(q):
            s[q] += seq[p] == seq[q]
    return s


def _packed(keys: np.ndarray, top: int, labels: np.ndarray,
            n_labels: int) -> tuple[np.ndarray, int]:
    """key · 2^b + label in one integer (b bits hold a label; 0 ≤ keys < ``top``), so
    that sorting the packed values orders the labels by key. Reuses ``keys``' memory
    when its integer type is wide enough."""
    bits = max(1, int(n_labels - 1).bit_length())
    dtype = next(t for t in (np.int16, np.int32, np.int64)
                 if top << bits <= np.iinfo(t).max)
    packed = keys if keys.dtype == dtype else keys.astype(dtype)
    np.left_shift(packed, bits, out=packed)
    packed |= labels
    return packed, bits


def _shuffled(rng, labels: np.ndarray, n_rounds: int, n_labels: int) -> np.ndarray:
    """Every item's labels in a uniformly random order, per round: m × R × I."""
    m, n_items = labels.shape
    if m <= _PERM_TABLE_MAX:
        table = np.array(list(itertools.permutations(range(m))), dtype=np.intp).T
        sigma = table[:, rng.integers(table.shape[1], size=(n_rounds, n_items))]
        return labels[sigma, np.arange(n_items)]
    keys = rng.integers(0, 2 ** 40, size=(m, n_rounds, n_items))   # ties: p < 1e-10
    packed, bits = _packed(keys, 2 ** 40, np.broadcast_to(labels[:, None, :], keys.shape),
                           n_labels)
    _sort_columns(packed)
    return packed & ((1 << bits) - 1)


def _scheme_table(schemes, m_max, n_classes, p):
    """w(n) for n = 0 … m_max + 1 per scheme (zero below 2), h(n) = w(n)/C(n, 2), and
    the notes of schemes that fell back to a limit (degenerate class distribution)."""
    n = np.arange(m_max + 2)
    made = [spa_scheme_weights(sc, n, n_classes, p) for sc in schemes]
    w = np.stack([weights for weights, _ in made], axis=1)
    pairs = n * (n - 1) / 2.0
    h = np.divide(w, pairs[:, None], out=np.zeros_like(w), where=pairs[:, None] > 0)
    return w, h, [note for _, note in made if note]


def _states(m: int):
    """The reachable states (q, s, A) of an arrival at an item of m annotations —
    q earlier arrivals, s of them with its label, A agreeing pairs among them — and
    a lookup from the dense code (q·m + s)·(A_max + 1) + A to the state's number."""
    a_max = (m - 1) * (m - 2) // 2
    qq, ss, aa = np.unravel_index(np.arange(m * m * (a_max + 1)), (m, m, a_max + 1))
    ok = (ss <= qq) & (aa <= qq * (qq - 1) // 2)
    lookup = np.full(qq.size, -1, np.int32)
    lookup[ok] = np.arange(ok.sum())
    return qq[ok], ss[ok], aa[ok], lookup, a_max


def _state_table(qq, ss, aa, w: np.ndarray, h: np.ndarray) -> np.ndarray:
    """For every state: the change an arrival brings to the numerator of eq. 7 per
    scheme, to its denominator per scheme and to the usable annotations."""
    d_num = (aa + ss)[:, None] * h[qq + 1] - aa[:, None] * h[qq]   # Δ(A·h(n)), k = w
    d_den = w[qq + 1] - w[qq]
    usable = np.where(np.arange(len(w)) >= 2, np.arange(len(w)), 0)
    d_use = (usable[qq + 1] - usable[qq])[:, None]
    return np.concatenate([d_num, d_den, d_use], axis=1)


def _random_block(rng, groups, n_rounds, n_points, w, h, n_labels):
    """Per round and time τ_g: SPA numerator and denominator per scheme and the number
    of usable annotations, cumulated over arrivals up to τ_g: (R × G × (2S + 1))."""
    total = np.zeros((n_rounds, n_points, 2 * w.shape[1] + 1))
    rounds = (np.arange(n_rounds)[:, None] * n_points).astype(np.int32)
    for m, labels in groups.items():
        shape = (m, n_rounds, labels.shape[1])
        bins = rng.integers(0, n_points, size=shape, dtype=np.int16)  # ⌊G·time⌋
        packed, bits = _packed(bins, n_points, np.broadcast_to(labels[:, None, :], shape),
                               n_labels)
        _sort_columns(packed)                                   # arrival order
        bins = packed >> bits
        s = _same_before(packed & ((1 << bits) - 1))
        qq, ss, aa, lookup, a_max = _states(m)
        n_states = len(qq)
        idx = np.empty(shape, np.int64 if n_rounds * n_points * n_states >= 2 ** 31
                       else np.int32)
        a_before = np.zeros(shape[1:], np.int32)                # A_q
        for q in range(m):
            code = lookup[(q * m + s[q].astype(np.int32)) * (a_max + 1) + a_before]
            idx[q] = (rounds + bins[q]) * n_states + code       # (round, bin, state)
            a_before += s[q]
        counts = np.bincount(idx.ravel(), minlength=n_rounds * n_points * n_states)
        counts = counts.reshape(n_rounds * n_points, n_states).astype(float)
        total += (counts @ _state_table(qq, ss, aa, w, h)).reshape(total.shape)
    return np.cumsum(total, axis=1)


def _per_item_block(rng, groups, n_rounds, checkpoints, n_labels):
    """Per round, a = 2 … max m and t in ``checkpoints[a]``: the mean P̂_i(a) of the
    first t items, in a random order, of the items with m_i ≥ a."""
    m_max = max(groups)
    parts = []
    for m, labels in groups.items():
        s = _same_before(_shuffled(rng, labels, n_rounds, n_labels))
        p_hat = np.full((m_max,) + s.shape[1:], np.nan)         # row a − 1: P̂_i(a)
        agree = np.zeros(s.shape[1:], np.int32)
        for q in range(m):
            agree += s[q]                                       # A after q + 1 arrivals
            if q:
                p_hat[q] = agree / (q * (q + 1) / 2.0)          # P̂_i(q + 1), eq. 1
        parts.append(p_hat)
    p_hat = parts[0] if len(parts) == 1 else np.concatenate(parts, axis=2)  # a × R × items
    order = np.broadcast_to(np.arange(p_hat.shape[2]), p_hat.shape[1:]).copy()
    rng.permuted(order, axis=1, out=order)                      # item order per round
    out = {}
    for a, ts in checkpoints.items():
        vals = np.take_along_axis(p_hat[a - 1], order, axis=1)
        if len(ts) and ts[-1] < vals.shape[1]:
            vals = vals[~np.isnan(vals)].reshape(n_rounds, -1)  # items with m_i ≥ a
        seg = np.add.reduceat(vals, np.r_[0, ts[:-1]], axis=1)  # sums between checkpoints
        out[a] = np.cumsum(seg, axis=1) / ts
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
    each scheme minus that of "flat" at equal ``fraction``. ``attrs["notes"]`` names
    schemes that used a limit (see :func:`sparse_agreement`). See the module docstring
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
    per_round = sum(lab.size for lab in groups.values())
    block = max(1, min(int(n_rounds), _BLOCK_ELEMENTS // per_round))
    sizes = [block] * (int(n_rounds) // block)
    sizes += [int(n_rounds) % block] if n_rounds % block else []
    if mode == "random":
        p = _resolve_class_probs(class_probs, ann, item_counts(ann))
        w, h, notes = _scheme_table(schemes, max(groups), ann.n_categories, p)
        cum = np.concatenate([_random_block(rng, groups, r, int(n_points), w, h,
                                            ann.n_categories)
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
        out = pd.concat(frames, ignore_index=True)
        out.attrs["notes"] = notes                               # degenerate-limit notes
        return out
    checkpoints = {}
    for a in range(2, max(groups) + 1):
        n_a = sum(lab.shape[1] for m, lab in groups.items() if m >= a)
        checkpoints[a] = np.unique(np.linspace(1, n_a, int(n_points)).round().astype(np.int64))
    parts = [_per_item_block(rng, groups, r, checkpoints, ann.n_categories) for r in sizes]
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
