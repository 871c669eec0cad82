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

The set partition over the candidates is then solved exactly per connected
component: ``scipy.optimize.linear_sum_assignment`` with two annotators, a MIP
(``scipy.optimize.milp``, HiGHS) otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...continuum import Continuum
from .dissimilarity import Dissimilarity

__all__ = ["Alignment", "best_alignment", "candidate_alignments", "unitary_disorders",
           "alignment_from_members"]


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
def _neighbour_pairs(c: Continuum, dis: Dissimilarity, matrix, bound: float):
    """Unit pairs (u, v) of different annotators with d(u, v) < bound, found in
    windows of sorted starts: d < bound ⇒ |Δstart| < reach·(len_u + max len)."""
    n_units = c.n_units
    order = np.argsort(c.start, kind="stable")
    s = c.start[order]
    lens = (c.end - c.start)[order]
    reach = dis.position_reach(bound)
    if np.isfinite(reach):
        hi = np.searchsorted(s, s + reach * (lens + lens.max()), side="right")
    else:
        hi = np.full(n_units, n_units)
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


def candidate_alignments(c: Continuum, dis: Dissimilarity = Dissimilarity()):
    """The unitary alignments that can belong to a best alignment (module doc).

    Returns ``members`` (m × n, −1 = empty) and ``weights`` Σ_{pairs} w per row,
    singletons included.
    """
    n, n_units, de = c.n_annotators, c.n_units, dis.delta_empty
    K = n * (n - 1) / 2
    limit = K * de  # a bipartition's Σ w must stay below K·Δ∅
    matrix = dis.category_matrix(c)
    u, v, d = _neighbour_pairs(c, dis, matrix, (K + n - 1) * de)
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
    if len(big):
        W = _pair_weights(c, dis, matrix, members[big])
        masks = (np.arange(1, 2 ** (n - 1))[:, None] >> np.arange(n)) & 1
        side = masks.astype(float)
        cross = np.einsum("sa,mab,sb->ms", side, W, 1 - side)
        ok[big] = np.all(cross < limit, axis=1)
    members, excess = members[ok], excess[ok]
    return members, excess.sum(axis=1) / 2


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
def best_alignment(continuum: Continuum,
                   dissimilarity: Dissimilarity = Dissimilarity()) -> Alignment:
    """The alignment of minimal disorder, exact (module doc)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    c, dis = continuum, dissimilarity
    n, n_units = c.n_annotators, c.n_units
    members, weights = candidate_alignments(c, dis)
    size = (members >= 0).sum(axis=1)
    first = members.max(axis=1)  # any member of the set: a unit of its component
    multi = np.flatnonzero(size >= 2)
    rows = np.repeat(first[multi], n)
    cols = members[multi].ravel()
    real = cols >= 0
    graph = csr_matrix((np.ones(real.sum()), (rows[real], cols[real])),
                       shape=(n_units, n_units))
    n_comp, comp = connected_components(graph, directed=False)
    comp_size = np.bincount(comp, minlength=n_comp)
    group = comp[first]  # component of each candidate
    alone = comp_size[group] == 1  # lone units with no possible partner
    K = n * (n - 1) / 2
    cost = K * dis.delta_empty + weights
    idx = np.flatnonzero(~alone)
    if n == 2:  # assignment problem per component
        order = idx[np.argsort(group[idx], kind="stable")]
        cuts = np.flatnonzero(np.diff(group[order])) + 1
        parts = [part[_solve_pairs(members[part], cost[part])]
                 for part in np.split(order, cuts) if len(part)]
    else:
        parts = [idx[_solve_partition(members[idx], cost[idx], group[idx])]] if len(idx) else []
    chosen = np.sort(np.concatenate([np.flatnonzero(alone), *parts]))
    return alignment_from_members(c, members[chosen], dis, len(members))


def _cover_matrix(members):
    """Units × candidates 0/1 matrix (CSC) of a component's candidates."""
    from scipy.sparse import csc_matrix

    m, n = members.shape
    flat = members.ravel()
    real = flat >= 0
    _, row = np.unique(flat[real], return_inverse=True)
    col = np.repeat(np.arange(m), n)[real]
    return csc_matrix((np.ones(len(row)), (row, col)), shape=(row.max() + 1, m))


def _milp(cost, A):
    """min cost·x subject to A x = 1, x binary (HiGHS branch and cut). HiGHS's
    presolve in SciPy 1.12 can call a feasible set-partition model infeasible;
    it is then solved again without presolve."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    for options in ({}, {"presolve": False}):
        res = milp(cost, constraints=LinearConstraint(A, 1, 1),
                   integrality=np.ones(len(cost)), bounds=Bounds(0, 1), options=options)
        if res.status == 0 and res.x is not None:
            return np.flatnonzero(res.x > 0.5), float(res.fun)
    raise RuntimeError(f"the MIP solver failed on the alignment: {res.message}")


def _solve_partition(members, cost, group):
    """Exact set partition min Σ cost·x, A x = 1, x binary, over the candidates of
    several connected components (``group``: component of each candidate).

    One LP relaxation (HiGHS dual simplex) covers all components: it separates by
    component, so its duals y give each component g a bound LB_g = Σ_{u∈g} y_u
    and reduced costs rc = cost − Aᵀy ≥ 0; a partition of g that uses candidate S
    costs at least LB_g + rc(S). A component whose LP solution is integral is
    solved. For the others, a MIP per component (``scipy.optimize.milp``) over the
    LP's support, the candidates with rc ≈ 0 and the lone units gives a partition
    of cost UB_g, and the MIP is solved again over every candidate of g with
    rc ≤ UB_g − LB_g if that adds any (reduced-cost fixing): exact.
    """
    from scipy.optimize import linprog

    A = _cover_matrix(members)
    tol = 1e-9 * max(1.0, float(np.abs(cost).max())) * A.shape[0]
    lp = linprog(cost, A_eq=A, b_eq=np.ones(A.shape[0]), bounds=(0, None),
                 method="highs-ds")
    unit_group = np.empty(A.shape[0], dtype=group.dtype)
    coo = A.tocoo()
    unit_group[coo.row] = group[coo.col]

    def mip(g, cols):  # the MIP of component g over candidates ``cols``
        part, value = _milp(cost[cols], A[np.flatnonzero(unit_group == g)][:, cols])
        return cols[part], value

    if lp.status != 0:  # no LP: one MIP per component
        return np.concatenate([mip(g, np.flatnonzero(group == g))[0]
                               for g in np.unique(group)])
    x, y = lp.x, lp.eqlin.marginals
    rc = cost - A.T @ y
    lower = np.bincount(unit_group, y)  # LB_g = Σ_{u∈g} y_u
    picked = x > 0.5
    covered = np.asarray(A[:, picked].sum(axis=1)).ravel()
    unsure = (x > 1e-9) & (x < 1 - 1e-9)
    bad = np.union1d(group[unsure], unit_group[covered != 1])
    spent = np.bincount(group[picked], cost[picked], minlength=len(lower))
    bad = np.union1d(bad, np.flatnonzero(spent > lower + tol))
    out = [np.flatnonzero(picked & ~np.isin(group, bad))]
    size = np.diff(A.indptr)
    for g in bad:  # fractional components: MIP with reduced-cost fixing
        in_g = group == g
        core = np.flatnonzero(in_g & ((x > 1e-9) | (rc <= tol) | (size == 1)))
        part, upper = mip(g, core)
        wide = np.flatnonzero(in_g & (rc <= upper - lower[g] + tol))
        out.append(part if np.isin(wide, core).all() else mip(g, np.union1d(wide, core))[0])
    return np.concatenate(out)


def _solve_pairs(members, cost):
    """Two annotators: pairs vs. lone units is an assignment problem; a pair
    saves 2K·Δ∅ − cost relative to two lone units (K = 1)."""
    from scipy.optimize import linear_sum_assignment

    single = (members >= 0).sum(axis=1) == 1
    unit_cost = np.zeros(int(members.max()) + 1)
    lone = members[single].max(axis=1)
    unit_cost[lone] = cost[single]
    pairs = np.flatnonzero(~single)
    a, b = members[pairs, 0], members[pairs, 1]
    ua, ia = np.unique(a, return_inverse=True)
    ub, ib = np.unique(b, return_inverse=True)
    gain = np.zeros((len(ua), len(ub)))
    gain[ia, ib] = cost[pairs] - unit_cost[a] - unit_cost[b]
    r, k = linear_sum_assignment(gain)
    keep = gain[r, k] < 0
    picked = np.full(gain.shape, -1)
    picked[ia, ib] = pairs
    chosen_pairs = picked[r[keep], k[keep]]
    used = np.zeros(len(unit_cost), bool)
    used[members[chosen_pairs].ravel()] = True
    lone_idx = np.flatnonzero(single)
    lone_idx = lone_idx[~used[members[lone_idx].max(axis=1)]]
    return np.r_[chosen_pairs, lone_idx]
