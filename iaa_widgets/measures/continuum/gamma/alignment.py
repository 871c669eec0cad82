"""Best alignment of a continuum, exact (Mathet, Widlöcher & Métivier 2015, §4.4–4.6).

A unitary alignment ă holds at most one unit per annotator, the others being
empty units; its disorder is the mean dissimilarity over its C(n, 2) annotator
pairs, a pair with an empty unit costing Δ∅ (so a lone unit costs exactly Δ∅, as
in the gamma software and pygamma-agreement). An alignment is a partition of the
units into unitary alignments; its disorder is Σ δ(ă) divided by the mean number
of units per annotator, and the best alignment minimises it.

With w(u, v) = d(u, v) − Δ∅ and K = C(n, 2), K·δ(ă) = K·Δ∅ + Σ_{pairs in ă} w,
so splitting ă into two parts A, B changes K·Σδ by K·Δ∅ − Σ_{u∈A, v∈B} w(u, v).
Hence an optimal partition exists whose every part S satisfies, for every
bipartition (A, B) of S, Σ_{A×B} w < K·Δ∅ (split while it does not cost more; on
ties the split is kept). Candidates are generated only among such sets:

1. neighbour pairs from sorted starts (|Δstart| bounded by the positional reach of
   the largest admissible d), never the full product of units;
2. per unit u and annotator b, m(u, b) = min(0, min_v w(u, v)) bounds what a unit
   of b can still subtract; pairs that cannot satisfy the one-unit split bound
   are dropped;
3. sets grown annotator by annotator along neighbour lists, pruned as soon as a
   member's Σ w plus the best that later annotators can subtract reaches K·Δ∅;
4. the full bipartition condition on the finished sets.

Identical units (same annotator, category, start, end) are interchangeable: they
are one unit type with a supply, candidates are generated over types, and the set
partition becomes an integer program with right-hand side the supplies. It is
solved exactly (``_solve_partition``): one LP relaxation (HiGHS), reduced-cost
fixing against a feasible solution built from the LP, and a MIP
(``scipy.optimize.milp``) only on the small components where the LP is
fractional.

Work: with T unit types, at most r types of other annotators within the
positional reach of a type (step 1) and n annotators, there are at most
T·(1 + r)^(n−1) candidates, whatever the number of identical units; the LP
has T rows; the MIPs cover only the components of candidates within the LP gap
(set partitioning is NP-hard, so their worst case stays exponential in the size
of such a component, but each HiGHS call returns to Python, where Ctrl-C stops).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ....continuum import Continuum
from ....errors import AgreementError
from ....stats.tables import ALIGNMENT_CELL_BYTES, MAX_ALIGNMENT_CELLS
from .dissimilarity import Dissimilarity

__all__ = ["Alignment", "best_alignment", "best_alignments", "candidate_alignments",
           "unitary_disorders", "alignment_from_members"]


@dataclass(frozen=True, eq=False)
class Alignment:
    """A partition of a continuum's units into unitary alignments.

    ``members`` is m × n_annotators: the unit index of each annotator in each
    unitary alignment, −1 for an empty unit. ``disorders`` holds δ(ă) per row and
    ``disorder`` is δ(â) = Σ δ(ă) / (n_units / n_annotators) (2015, eq. 4–5).
    ``n_candidates`` counts the unitary alignments the solver chose from.
    """

    continuum: Continuum
    members: np.ndarray
    disorders: np.ndarray
    disorder: float
    n_candidates: int = 0

    def __len__(self) -> int:
        return len(self.members)

    def to_frame(self) -> pd.DataFrame:
        """One row per unitary alignment: its disorder and, per annotator, the unit
        (``category [start, end]``, empty for an empty unit)."""
        c = self.continuum
        cols = {}
        for a, name in enumerate(c.annotators):
            idx = self.members[:, a]
            real = idx >= 0
            text = np.full(len(idx), "", dtype=object)
            safe = np.where(real, idx, 0)
            text[real] = [f"{cat} [{s:g}, {e:g}]" for cat, s, e in zip(
                c.categories.take(c.category[safe[real]]), c.start[safe[real]],
                c.end[safe[real]])]
            cols[str(name)] = text
        df = pd.DataFrame(cols)
        df.insert(0, "n_units", (self.members >= 0).sum(axis=1))
        df.insert(0, "disorder", self.disorders)
        df.index.name = "unitary_alignment"
        return df


def unitary_disorders(continuum: Continuum, members: np.ndarray,
                      dissimilarity: Dissimilarity = Dissimilarity()) -> np.ndarray:
    """δ(ă) of each row of ``members`` (m × n, −1 = empty): the mean of d over
    its C(n, 2) pairs, Δ∅ for a pair with an empty unit (2015, eq. 4)."""
    members = np.asarray(members)
    n = members.shape[1]
    a, b = np.triu_indices(n, 1)
    u, v = members[:, a], members[:, b]  # m × C(n, 2) unit pairs
    both = (u >= 0) & (v >= 0)
    d = np.full(u.shape, float(dissimilarity.delta_empty))
    d[both] = dissimilarity.combined(continuum, u[both], v[both],
                                     dissimilarity.category_matrix(continuum))
    return d.sum(axis=1) / len(a)


def alignment_from_members(continuum: Continuum, members: np.ndarray,
                           dissimilarity: Dissimilarity = Dissimilarity(),
                           n_candidates: int = 0) -> Alignment:
    """An :class:`Alignment` from its m × n unit indices (−1 = empty), any partition."""
    members = np.asarray(members, dtype=np.int64)
    disorders = unitary_disorders(continuum, members, dissimilarity)
    mean_units = continuum.n_units / continuum.n_annotators
    return Alignment(continuum, members, disorders, float(disorders.sum() / mean_units),
                     n_candidates)


# ---------------------------------------------------------------- candidates
def _neighbour_pairs(c: Continuum, dis: Dissimilarity, matrix, bound: float, group=None):
    """Unit pairs (u, v) of different annotators (and of one ``group``, when given)
    with d(u, v) < bound, found in windows of sorted starts: d < bound ⇒
    |Δstart| < reach·(len_u + max len)."""
    n_units = c.n_units
    group = np.zeros(n_units, dtype=np.int64) if group is None else group
    order = np.lexsort((c.start, group))  # by group, then start (stable)
    s, g = c.start[order], group[order]
    lens = (c.end - c.start)[order]
    reach = dis.position_reach(bound)
    reach_to = s + reach * (lens + lens.max()) if np.isfinite(reach) else np.full(n_units, np.inf)
    # hi: the sorted units up to (group, reach_to), i.e. the window's end in its group
    merged = np.lexsort((np.r_[np.zeros(n_units), np.ones(n_units)], np.r_[s, reach_to],
                         np.r_[g, g]))
    starts_before = np.cumsum(merged < n_units)
    hi = np.empty(n_units, dtype=np.int64)
    at_end = merged >= n_units
    hi[merged[at_end] - n_units] = starts_before[at_end]
    lo = np.arange(1, n_units + 1)
    cnt = np.maximum(hi - lo, 0)
    first = np.repeat(np.arange(n_units), cnt)
    offset = np.arange(cnt.sum()) - np.repeat(np.cumsum(cnt) - cnt, cnt)
    u, v = order[first], order[lo[first] + offset]
    keep = c.annotator[u] != c.annotator[v]
    u, v = u[keep], v[keep]
    d = dis.combined(c, u, v, matrix)
    keep = d < bound
    return u[keep], v[keep], d[keep]


def candidate_alignments(c: Continuum, dis: Dissimilarity = Dissimilarity(), group=None):
    """The unitary alignments that can belong to a best alignment (module doc).

    Returns ``members`` (m × n, −1 = empty) and ``weights`` Σ_{pairs} w per row,
    singletons included. ``group``, an int per unit, keeps units of different groups
    apart (several continua at once: each group's rows, in order, are those of that
    continuum alone).
    """
    n, n_units, de = c.n_annotators, c.n_units, dis.delta_empty
    K = n * (n - 1) / 2
    limit = K * de  # a bipartition's Σ w must stay below K·Δ∅
    matrix = dis.category_matrix(c)
    u, v, d = _neighbour_pairs(c, dis, matrix, (K + n - 1) * de, group)
    w = d - de
    ann = c.annotator
    for _ in range(4):  # step 2: drop pairs that the one-unit split bound excludes
        best = np.zeros((n_units, n))
        np.minimum.at(best, (np.r_[u, v], ann[np.r_[v, u]]), np.r_[w, w])
        total = best.sum(axis=1)
        keep = ((w + total[u] - best[u, ann[v]] < limit)
                & (w + total[v] - best[v, ann[u]] < limit))
        if keep.all():
            break
        u, v, w = u[keep], v[keep], w[keep]
    # both directions, so that each unit sees its partners
    src, dst, w = np.r_[u, v], np.r_[v, u], np.r_[w, w]
    best = np.zeros((n_units, n))
    np.minimum.at(best, (src, c.annotator[dst]), w)
    best[np.arange(n_units), c.annotator] = 0.0
    # future[u, j]: the most that annotators after j can subtract from u's Σ w
    future = np.zeros((n_units, n + 1))
    future[:, :n] = np.cumsum(best[:, ::-1], axis=1)[:, ::-1]
    future = future[:, 1:]
    # neighbour lists by (unit, partner's annotator)
    key = src * n + c.annotator[dst]
    order = np.argsort(key, kind="stable")
    nbr = dst[order]
    offsets = np.r_[0, np.cumsum(np.bincount(key, minlength=n_units * n))]

    members = np.full((0, n), -1, dtype=np.int64)
    excess = np.zeros((0, n))
    anchor = np.zeros(0, dtype=np.int64)
    for j in range(n):  # step 3: grow sets annotator by annotator
        k0 = anchor * n + j
        cnt = offsets[k0 + 1] - offsets[k0]
        _check_growth(int(cnt.sum()) + len(members), n, j, c)
        rows = np.repeat(np.arange(len(anchor)), cnt)
        pos = np.repeat(offsets[k0], cnt) + np.arange(cnt.sum()) - np.repeat(
            np.cumsum(cnt) - cnt, cnt)
        new_v = nbr[pos]
        new_m = members[rows].copy()
        new_e = excess[rows].copy()
        prev = new_m[:, :j]  # members of earlier annotators
        r, col = np.nonzero(prev >= 0)
        ww = np.zeros(prev.shape)
        ww[r, col] = dis.combined(c, prev[r, col], new_v[r], matrix) - de
        new_e[:, :j] += ww
        new_e[:, j] += ww.sum(axis=1)
        new_m[:, j] = new_v
        real = new_m >= 0
        fut = np.where(real, future[np.where(real, new_m, 0), j], 0.0)
        ok = np.all(~real | (new_e + fut < limit), axis=1)
        own = np.flatnonzero(c.annotator == j)
        single = np.full((len(own), n), -1, dtype=np.int64)
        single[:, j] = own
        members = np.vstack([members, new_m[ok], single])
        excess = np.vstack([excess, new_e[ok], np.zeros((len(own), n))])
        anchor = np.r_[anchor, anchor[rows[ok]], own]
    # step 4: every bipartition of the finished set
    size = (members >= 0).sum(axis=1)
    ok = (size == 1) | np.all(excess < limit, axis=1)
    big = np.flatnonzero(ok & (size >= 3))
    side = _bipartitions(n)
    step = max(1, BLOCK // (len(side) * n * n))  # sets per block: bounded memory
    for lo in range(0, len(big), step):
        rows = big[lo:lo + step]
        W = _pair_weights(c, dis, matrix, members[rows])
        cross = np.einsum("sa,mab,sb->ms", side, W, 1 - side)
        ok[rows] = np.all(cross < limit, axis=1)
    members, excess = members[ok], excess[ok]
    return members, excess.sum(axis=1) / 2


# the most bipartitions of a set checked in step 4: all 2^(n−1) − 1 up to n = 13
# annotators; beyond, the n that split off one annotator (a weaker pruning: the
# candidates kept are still unitary alignments, so the solver's optimum is the same)
MAX_BIPARTITIONS = 1 << 12
BLOCK = 1 << 22  # entries of step 4's sets × bipartitions × n × n block


def _bipartitions(n: int) -> np.ndarray:
    """The sides A (0/1 over the n annotators) of the bipartitions step 4 checks."""
    if 2 ** (n - 1) - 1 <= MAX_BIPARTITIONS:
        return ((np.arange(1, 2 ** (n - 1))[:, None] >> np.arange(n)) & 1).astype(float)
    return np.eye(n)


def _check_growth(rows: int, n: int, j: int, c: Continuum) -> None:
    """Refuse, with its size, a growth of candidates beyond ``MAX_ALIGNMENT_CELLS``
    (before it is allocated: never a MemoryError)."""
    if rows * n > MAX_ALIGNMENT_CELLS:
        raise AgreementError(
            f"γ: the best alignment of these {c.n_units:,} units would weigh at least "
            f"{rows:,} candidate unitary alignments of {n} annotators by annotator "
            f"{j + 1} of {n} (about {rows * n * ALIGNMENT_CELL_BYTES / 2 ** 30:,.1f} GiB, "
            "more than "
            f"{MAX_ALIGNMENT_CELLS:,} cells): many annotators' units overlap within reach "
            "of each other. Compute γ on shorter stretches of the continuum (one per "
            "document or section), or on smaller groups of annotators")


def _pair_weights(c, dis, matrix, members):
    """m × n × n array of w(u, v) = d − Δ∅ between members (0 where empty)."""
    m, n = members.shape
    a, b = np.triu_indices(n, 1)
    u, v = members[:, a], members[:, b]
    both = (u >= 0) & (v >= 0)
    ww = np.zeros(u.shape)
    ww[both] = dis.combined(c, u[both], v[both], matrix) - dis.delta_empty
    W = np.zeros((m, n, n))
    W[:, a, b] = ww
    W[:, b, a] = ww
    return W


# ---------------------------------------------------------------- solver
def _unit_types(continua):
    """Identical units (same annotator, category, start and end) of one continuum are
    interchangeable: one representative each. Returns the continuum of the
    representatives of all ``continua`` (of the same annotators and categories), in
    order of continuum, the type of every unit, the number of units of each type (its
    supply) and the continuum of each type."""
    c = continua[0]
    group = np.repeat(np.arange(len(continua)), [x.n_units for x in continua])
    keys = np.column_stack([group, *(np.concatenate([getattr(x, a) for x in continua])
                                     for a in ("annotator", "start", "end", "category"))])
    uniq, kind, supply = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    reps = Continuum(uniq[:, 1].astype(np.int64), uniq[:, 4].astype(np.int64),
                     uniq[:, 2], uniq[:, 3], c.annotators, c.categories, c.ordered)
    return reps, kind.ravel(), supply, uniq[:, 0].astype(np.int64)


def best_alignment(continuum: Continuum,
                   dissimilarity: Dissimilarity = Dissimilarity()) -> Alignment:
    """The alignment of minimal disorder, exact (module doc).

    Identical units are solved as one type with a supply: the set partition
    becomes min Σ cost·x, Σ_{S ∋ t} x_S = supply_t, x ∈ ℕ (each integer solution
    is a partition, units of a type being interchangeable), so k identical units
    per annotator cost one candidate per type set, not k^n."""
    return best_alignments([continuum], dissimilarity)[0]


def best_alignments(continua, dissimilarity: Dissimilarity = Dissimilarity()) -> list:
    """The best alignment of each continuum in ``continua`` (of the same annotators;
    :func:`best_alignment`), from one set-partition program: their unit types are
    disjoint rows, so the program is block diagonal and its optimum is each block's
    optimum (one solver call for a batch of random continua instead of one each). The
    candidates of all of them are generated at once, each continuum's apart."""
    dis = dissimilarity
    reps, kind, supply, group = _unit_types(continua)
    n = reps.n_annotators
    members, weights = candidate_alignments(reps, dis, group)
    block = np.argsort(group[members.max(axis=1)], kind="stable")  # rows by continuum
    members, weights = members[block], weights[block]
    try:
        count = _solve_partition(members, n * (n - 1) / 2 * dis.delta_empty + weights,
                                 supply)  # K·δ(ă) = K·Δ∅ + Σ w
    except _OutOfTime as exc:
        raise AgreementError(
            f"γ: the exact best alignment did not finish within {SOLVE_SECONDS:.0f} s (an "
            f"integer program over {exc.shape[0]:,} unit types and {exc.shape[1]:,} "
            "candidate unitary alignments). This happens when many alignments cost the "
            "same: with a positional weight (alpha) of "
            f"{dis.alpha:g}, units of one category align at almost the same cost wherever "
            "they are. Use a positional weight of 0.01 or more (GammaExplorer's smallest "
            "is 0.1), or compute γ on shorter stretches of the continuum") from None
    first = np.searchsorted(group, np.arange(len(continua)))  # each continuum's first type
    rows = np.cumsum(np.bincount(group[members.max(axis=1)], minlength=len(continua)))[:-1]
    out = []
    for c, f, m, x, k, t in zip(continua, first, np.split(members, rows), np.split(count, rows),
                                np.split(kind, np.cumsum([c.n_units for c in continua])[:-1]),
                                np.split(supply, first[1:])):  # a batch: a short loop
        out.append(_assemble(c, k - f, t, np.where(m >= 0, m - f, -1), x, dis))
    return out


def _assemble(c: Continuum, kind, supply, members, count, dis: Dissimilarity) -> Alignment:
    """The alignment that uses candidate ``members[i]`` (in unit types) ``count[i]``
    times, the k-th use of a type taking its k-th unit."""
    chosen = np.flatnonzero(count)
    rows = members[np.repeat(chosen, count[chosen])]
    # the k-th use of a type takes its k-th unit
    real = rows >= 0
    t = rows[real]
    order = np.argsort(t, kind="stable")
    rank = np.empty(len(t), dtype=np.int64)
    first = np.cumsum(supply) - supply
    rank[order] = np.arange(len(t)) - first[t[order]]
    units = np.argsort(kind, kind="stable")  # units grouped by type
    rows[real] = units[first[t] + rank]
    return alignment_from_members(c, rows, dis, len(members))


def _cover_matrix(members, n_rows: int | None = None):
    """Units × candidates 0/1 matrix (CSC); rows are unit indices when ``n_rows`` is
    given, else the units present, in increasing order."""
    from scipy.sparse import csc_matrix

    m, n = members.shape
    flat = members.ravel()
    real = flat >= 0
    if n_rows is None:
        _, row = np.unique(flat[real], return_inverse=True)
        n_rows = int(row.max()) + 1
    else:
        row = flat[real]
    col = np.repeat(np.arange(m), n)[real]
    return csc_matrix((np.ones(len(row)), (row, col)), shape=(n_rows, m))


def _milp(cost, A, b=1, upper=1, seconds: float = None):
    """min cost·x subject to A x = b, 0 ≤ x ≤ upper integer (HiGHS branch and cut),
    within ``seconds`` (default ``SOLVE_SECONDS``; past it, :class:`_OutOfTime`).
    HiGHS's presolve in SciPy 1.12 can call a feasible set-partition model
    infeasible; it is then solved again without presolve."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    deadline = time.monotonic() + (SOLVE_SECONDS if seconds is None else seconds)
    for options in ({}, {"presolve": False}):
        left = deadline - time.monotonic()
        if left <= 0:
            raise _OutOfTime(A.shape)
        res = milp(cost, constraints=LinearConstraint(A, b, b), integrality=np.ones(len(cost)),
                   bounds=Bounds(0, upper), options={**options, "time_limit": left})
        if res.status == 0 and res.x is not None:
            return np.rint(res.x).astype(np.int64), float(res.fun)
        if res.status == 1:  # HiGHS stopped at the time limit: no proven optimum
            raise _OutOfTime(A.shape)
    raise RuntimeError(f"the MIP solver failed on the alignment: {res.message}")


# the most seconds the solver may spend on one best alignment: the set partition is
# NP-hard, and where many unitary alignments cost the same (a positional weight at or
# near 0) its programs grow without a useful bound (units.csv: α = 1e-9 31 s, 0 ≫ 10 min)
SOLVE_SECONDS = 120.0


class _OutOfTime(Exception):
    """A program of the best alignment did not finish within ``SOLVE_SECONDS``."""

    def __init__(self, shape):
        super().__init__(shape)
        self.shape = shape


def _upper(A, b):
    """Per candidate (column of A), the most times it fits in b: min of b over its rows."""
    return np.minimum.reduceat(b[A.indices], A.indptr[:-1])


def _components(A, cols):
    """Connected components of the unit types linked by the candidates ``cols``
    (columns of A, each non-empty): the label of every type and of every candidate."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    sub = A[:, cols]
    head = sub.indices[sub.indptr[:-1]]  # a unit type of each candidate
    graph = csr_matrix((np.ones(sub.nnz), (np.repeat(head, np.diff(sub.indptr)),
                                            sub.indices)), shape=(A.shape[0],) * 2)
    _, label = connected_components(graph, directed=False)
    return label, label[head]


def _solve_partition(members, cost, supply):
    """Exact min Σ cost·x, A x = supply, x ∈ ℕ over the candidates (``members`` in
    unit types; A: types × candidates, every type with its singleton). Returns x.

    1. The LP relaxation (HiGHS dual simplex) gives x*, duals y and reduced costs
       rc = cost − Aᵀy ≥ 0; every feasible x costs y·supply + rc·x, so the LP bound
       of a connected component g is LB_g = Σ_{t∈g} y_t·supply_t.
    2. A feasible solution: ⌊x*⌋ plus the cheapest cover of what it leaves uncovered
       by the candidates that fit there (singletons always fit; :func:`_least_cover`);
       UB_g is its cost on g.
    3. An optimal x has rc·x ≤ UB_g − LB_g on g, so a candidate with larger rc is
       never used (reduced-cost fixing).
    4. The kept candidates split the types into small components. Where x* is
       integral there it is optimal (rc = 0 on its support); elsewhere the cheapest
       cover is found exactly (:func:`_least_cover`: a search on a small component,
       a MIP on a large one).
    Every HiGHS call returns to Python, so a KeyboardInterrupt stops between them.
    """
    from scipy.optimize import linprog

    A = _cover_matrix(members, len(supply))
    deadline = time.monotonic() + SOLVE_SECONDS
    lp = linprog(cost, A_eq=A, b_eq=supply, bounds=(0, None), method="highs-ds",
                 options={"presolve": False,  # presolve removes nothing here, costs 1/3
                          "time_limit": SOLVE_SECONDS})
    if lp.status == 1:  # the time limit
        raise _OutOfTime(A.shape)
    if lp.status != 0:  # no LP: one MIP
        return _milp(cost, A, supply, _upper(A, supply), deadline - time.monotonic())[0]
    xs, y = lp.x, lp.eqlin.marginals
    frac = np.abs(xs - np.rint(xs)) > 1e-9
    x = np.rint(xs).astype(np.int64)
    if not frac.any():
        return x
    tol = 1e-9 * max(1.0, float(np.abs(cost).max())) * A.shape[0]
    rc = cost - A.T @ y
    # step 2: ⌊x*⌋, then a cover of what it leaves by the candidates that fit there
    feasible = np.floor(xs + 1e-9).astype(np.int64)
    left = supply - A @ feasible
    rows = np.flatnonzero(left > 0)
    fits = np.flatnonzero(np.asarray(A[left <= 0].sum(axis=0)).ravel() == 0)
    feasible[fits] += _least_cover(A[rows][:, fits].tocsc(), left[rows], cost[fits], rc[fits],
                                   deadline)
    # step 3: per component, keep the candidates with rc ≤ UB_g − LB_g
    type_group, group = _components(A, np.arange(len(cost)))
    size = type_group.max() + 1
    gap = (np.bincount(group, cost * feasible, size)
           - np.bincount(type_group, y * supply, size))
    single = np.diff(A.indptr) == 1  # kept too: every component stays coverable
    kept = np.flatnonzero((rc <= gap[group] + tol) | (xs > 1e-9) | single)
    # step 4: exactly, on the components of kept candidates where x* is fractional
    type_part, part = _components(A, kept)
    for p in np.unique(part[frac[kept]]):  # the few fractional components
        cols = kept[part == p]
        rows = np.flatnonzero(type_part == p)
        x[cols] = _least_cover(A[rows][:, cols].tocsc(), supply[rows], cost[cols], rc[cols],
                               deadline)
    return x


# HiGHS's MIP has a fixed cost of about 8 ms even on 7 candidates: programs of up to
# SEARCH_CANDIDATES candidates and units are searched (_cheapest_cover), for up to
# SEARCH_NODES nodes, before a MIP is made (on 5 × 200 units, searching every fractional
# component and leftover, up to 28,731 candidates, cost 3.4 → 7.8 s: a search that
# stops early leaves a loose upper bound and large MIPs)
SEARCH_CANDIDATES = 300
SEARCH_NODES = 2000


def _least_cover(A, b, cost, rc, deadline: float):
    """The x ∈ ℕ of least cost·x with A x = b, where A's candidates cover only these
    types (so cost·x = y·b + rc·x, and the least rc·x, with candidates of rc 0 first, is
    the cheapest): searched when small (its depth is at most Σ b), else, or where the
    search stops, a MIP."""
    if A.shape[1] <= SEARCH_CANDIDATES and b.sum() <= SEARCH_CANDIDATES:
        x, complete = _cheapest_cover(A, b, np.maximum(rc, 0.0))
        if complete:
            return x
    return _milp(cost, A, b, _upper(A, b), deadline - time.monotonic())[0]


def _cheapest_cover(A, b, cost):
    """The x ∈ ℕ of least cost·x with A x = b (A: types × candidates, CSC, 0/1, every
    type with a candidate of its own; cost ≥ 0), by depth-first search: the first type
    still to cover is covered by each candidate that fits, cheapest first, while the
    cost so far stays below the best cover found. Returns (x, complete): complete is
    False when the search stopped after ``SEARCH_NODES`` nodes, x then the best cover
    found (the first dive always ends in one: a type's own candidate fits)."""
    n_types, n_cand = A.shape
    by_type = A.tocsr()
    # types with the fewest candidates first: dead ends show early
    order = np.argsort(np.diff(by_type.indptr), kind="stable")
    rank = np.empty(n_types, dtype=np.int64)
    rank[order] = np.arange(n_types)
    col_types = np.split(rank[A.indices], A.indptr[1:-1])  # the types of each candidate
    covers = [sorted(by_type.indices[by_type.indptr[t]:by_type.indptr[t + 1]],
                     key=cost.__getitem__) for t in order]
    cost = cost.tolist()
    need = [int(v) for v in b[order]]
    chosen, best = [], [np.inf, None]
    nodes = [0]

    def search(acc, t, first):
        # types before t are covered; candidates of t from index ``first`` (t's earlier
        # ones were tried at this depth already: no cover twice in another order)
        while t < n_types and need[t] == 0:
            t, first = t + 1, 0
        if t == n_types:
            best[:] = [acc, list(chosen)]
            return True
        for k in range(first, len(covers[t])):
            j = covers[t][k]
            if acc + cost[j] >= best[0]:
                break  # cheapest first: no later candidate does better
            types = col_types[j]
            if all(need[i] for i in types):
                nodes[0] += 1
                if nodes[0] > SEARCH_NODES and best[1] is not None:
                    return False
                for i in types:
                    need[i] -= 1
                chosen.append(j)
                going = search(acc + cost[j], t, k)
                chosen.pop()
                for i in types:
                    need[i] += 1
                if not going:
                    return False
        return True

    complete = search(0.0, 0, 0)
    x = np.zeros(n_cand, dtype=np.int64)
    np.add.at(x, np.asarray(best[1], dtype=np.int64), 1)
    return x, complete
