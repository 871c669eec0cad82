"""The subsampling experiments of Nørregaard & Derczynski §6.3–6.4 (Figures 6, 7):
how the variance of SPA falls as annotations are added, per weighting scheme.

Every round of a block of rounds is drawn at once (no loop over items). Items are
grouped by their number of annotations m and held slot-major (m × items), so that the
few per-slot steps below are whole-array operations. Along an item's arrival order,
the q-th arrival finds q earlier annotations, s_q of them with its label, and
A_q = Σ_{q' < q} s_q' agreeing pairs among them: all that eq. 7 needs.

mode="per_item" (§6.3, coloured lines of Figure 6): each item's annotations get a
uniformly random order (a row of the table of all m! permutations for m ≤ 8, random
62-bit keys sorted above); for each a = 2 … max m, every item with at least a
annotations keeps its first a arrivals (a uniform a-subset, P̂_i(a) = A_{a}/C(a, 2)).
Items are added in a random order (one permutation per round) and SPA is read after t
items, at n_usable = a·t annotations. With equal n_i every weighting is the flat mean,
so all schemes coincide in this mode.

mode="random" (§6.3–6.4, Figures 6 and 7): single annotations arrive in a uniformly
random order, each at a time uniform on (0, 1), independently; SPA is read at
τ = g/G, g = 1 … G (G = ``n_points``), over items with two or more annotations so far.
Only the time bin ⌊G·time⌋ of an annotation matters: the state at τ depends on which
annotations are present, not on their order within a bin, so each annotation draws
its bin and every item's annotations are sorted by bin. The q-th arrival changes the
numerator of eq. 7 by (A_q + s_q)·h(q + 1) − A_q·h(q), h(n) = k(n)/C(n, 2), and its
denominator by k(q + 1) − k(q): linear in (1, A_q, s_q) for a given q. Three
bincounts over (round, bin, q) and products with the per-q tables of the schemes give
every scheme at every τ, in memory R·G·m whatever m (a table over the states
(q, s_q, A_q), as before, grew as m⁴ and overflowed its int32 indices). Items with
m ≥ G·C/2 annotations skip the ordering: their kept counts at the end of every bin come
from one bincount per (item, label, bin) and a cumulative sum over the bins, and eq. 7's
parts from (k, P = Σ_c m_c(m_c − 1)) looked up per item and bin, summed over items. The curve
reports per τ the mean number of usable annotations over rounds (x of Figure 6) and the
variance of SPA over the rounds where it is defined.

Both modes are exact simulations (no approximation) for any number of annotations per
item; counts and cell indices are int64. Cost per item and round: O(m²) up to 16
annotations (a sorting network, fastest there), O(m log m) above (numpy's sort), and
O(m + G·C) for the binned items.
"""
from __future__ import annotations

import itertools
from typing import Sequence

import numpy as np
import pandas as pd

from ... import validate
from ...data import as_annotations
from ...errors import AgreementError
from ...stats import item_counts
from .agreement import _resolve_class_probs
from .variance import SPA_SCHEMES, spa_scheme_weights

__all__ = ["spa_variance_curve"]

_BLOCK = 1 << 22            # rounds × (cells or non-zero counts) per block of draws
_PERM_TABLE_MAX = 8                # m! permutations tabulated up to 40,320
_NETWORK_MAX = 16                  # sorting network and pairwise s_q up to 16 slots


def _groups(ann) -> dict[int, np.ndarray]:
    """Labels of the items with m ≥ 2 annotations, slot-major per m: {m: m × I_m}, from
    one sort of the annotations by (m, item)."""
    prim = ann.primary()
    m_i = np.bincount(prim.item, minlength=ann.n_items)
    order = np.lexsort((prim.item, m_i[prim.item]))              # by m, then item (stable)
    label = prim.label[order]
    dtype = np.int16 if ann.n_categories < 2 ** 15 else np.int64
    sizes = np.bincount(m_i) * np.arange(m_i.max() + 1)           # annotations per m
    ends = np.cumsum(sizes)
    return {int(m): np.ascontiguousarray(label[ends[m] - sizes[m]:ends[m]].reshape(-1, m)
                                         .T.astype(dtype))
            for m in np.flatnonzero(sizes) if m >= 2}


def _sort_columns(x: np.ndarray) -> None:
    """Sort every column of ``x`` (m × …) in place. Up to ``_NETWORK_MAX`` slots an
    odd–even transposition network (m passes of whole-array compare-exchange between
    neighbouring slots, faster than numpy's sort along a short axis); above, numpy's
    sort along a contiguous last axis (m log m instead of m²)."""
    m = x.shape[0]
    if m > _NETWORK_MAX:
        rows = np.ascontiguousarray(np.moveaxis(x, 0, -1))      # one column per row
        rows.sort(axis=-1)
        x[...] = np.moveaxis(rows, -1, 0)
        return
    for step in range(m):
        for i in range(step % 2, m - 1, 2):
            low = np.minimum(x[i], x[i + 1])
            np.maximum(x[i], x[i + 1], out=x[i + 1])
            x[i] = low


def _same_before(seq: np.ndarray) -> np.ndarray:
    """s_q: earlier arrivals with the label of the q-th (seq: labels in arrival
    order, m × …; int64 when m ≥ 128). Up to ``_NETWORK_MAX`` slots by comparing
    every earlier slot (m²/2 whole-array steps); above, as the rank of slot q among
    the slots with its label, from one sort of label·m + q along each column."""
    m = seq.shape[0]
    s = np.zeros(seq.shape, np.int8 if m < 128 else np.int64)
    if m <= _NETWORK_MAX:
        for q in range(1, m):
            for p in range(q):
                s[q] += seq[p] == seq[q]
        return s
    slot = np.arange(m)
    key = np.moveaxis(seq, 0, -1).astype(np.int64) * m + slot   # one column per row
    key.sort(axis=-1)                                           # by label, then slot
    label, origin = np.divmod(key, m)
    starts = np.zeros(key.shape, np.int64)
    starts[..., 1:] = np.where(label[..., 1:] != label[..., :-1], slot[1:], 0)
    np.maximum.accumulate(starts, axis=-1, out=starts)          # first slot of the run
    rank = np.empty_like(starts)
    np.put_along_axis(rank, origin, slot - starts, axis=-1)     # rank within the run
    s[...] = np.moveaxis(rank, -1, 0)
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
    top = 2 ** (62 - max(1, int(n_labels - 1).bit_length()))     # ties: p < m²/2^53
    keys = rng.integers(0, top, size=(m, n_rounds, n_items))
    packed, bits = _packed(keys, top, np.broadcast_to(labels[:, None, :], keys.shape),
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


def _random_sums(rng, groups, n_rounds, n_points, w, h, n_labels):
    """Per round and time τ_g: SPA numerator and denominator per scheme and the number
    of usable annotations, cumulated over arrivals up to τ_g: (R × G × (2S + 1)). Each
    group of items draws its rounds in blocks of its own size (bounded memory).

    The q-th arrival at an item (q earlier, s of them agreeing, A agreeing pairs among
    them) changes Σ k·P̂ by (A + s)·h(q + 1) − A·h(q), h(n) = k(n)/C(n, 2) (eq. 7 with
    P̂ = A/C(n, 2)), Σ k by k(q + 1) − k(q), and the usable annotations likewise: linear
    in (1, A, A + s) given q. So three bincounts per (round, bin, q) — arrivals, Σ A,
    Σ (A + s) — and products with the m × S tables give every scheme: memory R·G·m,
    any m. Items
    with m ≥ G·C/2 take :func:`_binned_levels` instead: their eq. 7 parts at the end of
    every bin, summed over the items."""
    s_n = w.shape[1]
    steps = np.zeros((n_rounds * n_points, 2 * s_n + 1))    # changes per (round, bin)
    levels = np.zeros_like(steps)
    n = np.arange(len(w))
    usable = np.where(n >= 2, n, 0).astype(float)
    for m, labels, start, r in _group_blocks(groups, n_rounds, n_points, n_labels,
                                             steps.shape[1]):
        rows = slice(start * n_points, (start + r) * n_points)
        shape = (m, r, labels.shape[1])
        bins = rng.integers(0, n_points, size=shape, dtype=np.int16)  # ⌊G·time⌋
        if _binned(m, n_points, n_labels):
            kept, pairs = _binned_levels(bins, labels, n_points, n_labels)  # R × I × G
            part = np.concatenate([pairs[..., None] * h[kept] / 2.0,  # P = 2A ordered pairs
                                   w[kept], usable[kept][..., None]], axis=-1)
            levels[rows] += part.sum(axis=1).reshape(r * n_points, -1)  # Σ over items
            continue
        packed, bits = _packed(bins, n_points, np.broadcast_to(labels[:, None, :], shape),
                               n_labels)
        _sort_columns(packed)                                   # arrival order
        s = _same_before(packed & ((1 << bits) - 1))
        pairs = np.zeros((m + 1,) + shape[1:])                  # A_q = Σ_{q' < q} s_q'
        for q in range(m):
            np.add(pairs[q], s[q], out=pairs[q + 1])            # A_{q+1} = A_q + s_q
        size = r * n_points * m
        index = np.int32 if size < 2 ** 31 else np.int64        # cells below size
        cell = (np.arange(r, dtype=index)[:, None] * n_points + (packed >> bits)) * m \
            + np.arange(m, dtype=index).reshape(m, 1, 1)        # (round, bin, q)
        arrivals = np.bincount(cell.ravel(), minlength=size).reshape(-1, m).astype(float)
        before = np.bincount(cell.ravel(), pairs[:m].ravel(), size).reshape(-1, m)  # Σ A
        after = np.bincount(cell.ravel(), pairs[1:].ravel(), size).reshape(-1, m)  # Σ A + s
        steps[rows, :s_n] += _dot(after, h[1:m + 1]) - _dot(before, h[:m])
        steps[rows, s_n:2 * s_n] += _dot(arrivals, w[1:m + 1] - w[:m])
        steps[rows, -1] += arrivals @ (usable[1:m + 1] - usable[:m])
    shape = (-1, n_points, steps.shape[1])
    return np.cumsum(steps.reshape(shape), axis=1) + levels.reshape(shape)


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b by numpy's own loops: the tables are thin (≤ 2S + 1 columns), and BLAS
    threads cost more than they save on hundreds of such small products."""
    return np.einsum("ij,jk->ik", a, b)


def _group_blocks(groups, n_rounds, n_points, n_labels, n_parts):
    """(m, labels, first round, rounds) per group and block of rounds: a block holds at
    most ``_BLOCK`` of the group's annotations, of its (bin, q) cells
    and, when binned, of its (item, label or part, bin) counts and parts."""
    for m, labels in groups.items():
        binned = _binned(m, n_points, n_labels)
        per_round = max(labels.size, n_points * m,
                        labels.shape[1] * max(n_labels, n_parts) * n_points if binned else 0)
        for start, r in _blocks(n_rounds, per_round):
            yield m, labels, start, r


def _binned(m: int, n_points: int, n_labels: int) -> bool:
    """Whether items with m annotations are counted per (time bin, label) rather than
    followed arrival by arrival: when the G·C counts are fewer than 2m."""
    return m > _NETWORK_MAX and n_points * n_labels <= 2 * m


def _binned_levels(bins, labels, n_points, n_labels):
    """Kept total k and agreeing ordered pairs P = Σ_c m_c(m_c − 1) of every item at the
    end of every time bin (R × items × G), from one bincount per (item, label, bin) and
    a cumulative sum over the bins: O(m + G·C) per item and round, no sort."""
    m, n_rounds, n_items = bins.shape
    column = np.arange(n_rounds * n_items, dtype=np.int64).reshape(n_rounds, n_items)
    cell = ((column * n_labels + labels[:, None, :]) * n_points + bins).ravel()
    kept = np.bincount(cell, minlength=column.size * n_labels * n_points)
    kept = np.cumsum(kept.reshape(n_rounds, n_items, n_labels, n_points), axis=-1)
    return kept.sum(axis=2), np.einsum("rilg,rilg->rig", kept, kept - 1)


def _per_item_block(rng, groups, n_rounds, checkpoints, n_labels):
    """Per round, a = 2 … max m and t in ``checkpoints[a]``: the mean P̂_i(a) of the
    first t items, in a random order, of the items with m_i ≥ a. Groups come in
    increasing m, so the items with m_i ≥ a are a suffix of their concatenation; one
    item order per round serves every a (restricted to that suffix, still uniform)."""
    agree = {}                                                  # m: A after q + 1 arrivals
    for m, labels in groups.items():
        s = _same_before(_shuffled(rng, labels, n_rounds, n_labels))
        agree[m] = np.cumsum(s, axis=0, dtype=np.int64)
    sizes = np.array([lab.shape[1] for lab in groups.values()])
    first = dict(zip(groups, np.cumsum(sizes) - sizes))         # m: its first item
    order = np.broadcast_to(np.arange(sizes.sum()), (n_rounds, sizes.sum())).copy()
    rng.permuted(order, axis=1, out=order)                      # item order per round
    out = {}
    for a, ts in checkpoints.items():
        start = min(first[m] for m in groups if m >= a)
        if order.shape[1] > sizes.sum() - start:                # items with m_i ≥ a only:
            order = order[order >= start].reshape(n_rounds, -1)  # shrinks as a grows
        p_hat = np.concatenate([agree[m][a - 1] for m in groups if m >= a], axis=1)
        p_hat = p_hat / (a * (a - 1) / 2.0)                     # P̂_i(a), eq. 1
        vals = np.take_along_axis(p_hat, order - start, axis=1)
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
    schemes that used a limit (see `sparse_agreement`). See the module docstring
    for the vectorised sampling scheme.

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Categorical labels (item, annotator, label).
    schemes : sequence of str, default all six
        Names of §5: "flat", "annotations", "annotations_m1", "edges", "inv_var",
        "inv_var_class".
    n_rounds : int, default 3000
        Rounds of the experiment.
    seed : int or numpy.random.Generator, optional
        Seed of the random orders.
    mode : {"random", "per_item"}, default "random"
        Annotations added one at a time, or items added with a fixed number each.
    n_points : int, default 50
        Points on the curve.
    class_probs : array_like or mapping, optional
        The class distribution of "inv_var_class"; by default the class shares of all
        annotations of the full data.

    Returns
    -------
    pandas.DataFrame
        One row per scheme and point: scheme, fraction, n_usable, n_usable_sd, mean,
        variance, n_rounds (per_item: annotations_per_item and n_items instead of
        fraction); ``attrs["notes"]``.

    Raises
    ------
    AgreementError
        When no item has two annotations, a scheme is unknown, or ``n_rounds``,
        ``n_points``, ``mode`` or ``seed`` is not valid.

    See Also
    --------
    spa_missingness : the spread at one missing rate.
    sparse_agreement : SPA on the data as given.

    Notes
    -----
    At each point SPA is eq. 7 on the annotations present, and the variance is over
    rounds (ddof = 1).

    References
    ----------
    Nørregaard, J. & Derczynski, L. (2022). Sparse Probability of Agreement. arXiv:2208.06161.
    https://doi.org/10.48550/arXiv.2208.06161

    Examples
    --------
    At fraction 1 every annotation is present: the mean is SPA of the full data (1/6 flat,
    1/4 edges, eq. 7), with no spread:

    >>> wide = pd.DataFrame({"a": ["x", "x", None], "b": ["x", "y", None],
    ...                      "c": ["y", None, "y"]})
    >>> data = iaa.Annotations.from_wide(wide)
    >>> curve = iaa.spa_variance_curve(data, schemes=("flat", "edges"), n_rounds=50,
    ...                                n_points=2, seed=0)
    >>> full = curve[curve["fraction"] == 1]
    >>> full["mean"].round(4).tolist(), full["variance"].round(12).tolist()
    ([0.1667, 0.25], [0.0, 0.0])
    """
    where = "spa_variance_curve"
    validate.choice(where, "mode", mode, ("random", "per_item"))
    schemes = validate.choices(where, "schemes", schemes, SPA_SCHEMES)
    n_rounds = validate.integer(where, "n_rounds", n_rounds, minimum=2)
    n_points = validate.integer(where, "n_points", n_points, minimum=1)
    validate.seed(where, "seed", seed)
    ann = as_annotations(data).expanded("spa_variance_curve")  # reads single ratings
    groups = _groups(ann)
    if not groups:
        raise AgreementError("no item has two or more annotations, so SPA is never defined")
    rng = np.random.default_rng(seed)
    if mode == "random":
        p = _resolve_class_probs(class_probs, ann, item_counts(ann))
        w, h, notes = _scheme_table(schemes, max(groups), ann.n_categories, p)
        cum = _random_sums(rng, groups, int(n_rounds), int(n_points), w, h, ann.n_categories)
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
    per_round = sum(lab.size for lab in groups.values())         # annotations
    parts = [_per_item_block(rng, groups, r, checkpoints, ann.n_categories)
             for _, r in _blocks(int(n_rounds), per_round)]
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


def _blocks(n_rounds: int, per_round: int):
    """(first round, rounds) of blocks holding at most ``_BLOCK`` elements."""
    step = max(1, min(n_rounds, _BLOCK // max(per_round, 1)))
    return [(start, min(step, n_rounds - start)) for start in range(0, n_rounds, step)]
