"""Exactness of the best alignment: equal to brute force over all partitions."""
import numpy as np
import pytest

from iaa_widgets.continuum import Continuum, random_continuum
from iaa_widgets.measures.continuum.gamma.alignment import (best_alignment, candidate_alignments,
                                                  unitary_disorders)
from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity


def partitions(items):
    """Every set partition of ``items``."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in partitions(rest):
        yield [[first]] + p
        for i in range(len(p)):
            yield p[:i] + [[first] + p[i]] + p[i + 1:]


def brute_force_disorder(c, dis):
    """Min over every partition into unitary alignments (one unit per annotator)."""
    n, best = c.n_annotators, np.inf
    for p in partitions(list(range(c.n_units))):
        if any(len(set(c.annotator[g])) < len(g) for g in p):
            continue
        members = np.full((len(p), n), -1)
        for r, g in enumerate(p):
            members[r, c.annotator[g]] = g
        best = min(best, unitary_disorders(c, members, dis).sum())
    return best / (c.n_units / n)


def small_continuum(rng):
    n = int(rng.integers(2, 5))
    size = int(rng.integers(n, 9))
    ann = np.r_[np.arange(n), rng.integers(0, n, size - n)]
    s = rng.uniform(0, 30, size).round(1)
    e = s + rng.uniform(0, 12, size).round(1)
    if rng.random() < 0.2:
        e[0] = s[0]  # a zero-length unit
    return Continuum.from_codes(ann, rng.integers(0, 3, size), s, e, list("abcd")[:n],
                                list("xyz"), ordered=True)  # codes 0, 1, 2 are x, y, z


@pytest.mark.parametrize("seed", range(6))
def test_equals_brute_force_on_small_continua(seed):
    # reference: exhaustive enumeration of all set partitions (Bell(8) = 4140)
    rng = np.random.default_rng(seed)
    for _ in range(25):
        c = small_continuum(rng)
        matrix = None
        if rng.random() < 0.3:  # a category distance matrix instead of nominal
            m = rng.uniform(0, 1, (3, 3))
            matrix = np.triu(m, 1) + np.triu(m, 1).T
        dis = Dissimilarity(alpha=float(rng.choice([1, 0.5, 3])),
                            beta=float(rng.choice([1, 0, 2])),
                            delta_empty=float(rng.choice([1, 0.5, 2])),
                            category_distance=matrix)
        assert best_alignment(c, dis).disorder == pytest.approx(brute_force_disorder(c, dis),
                                                                abs=1e-12)


def test_alignment_is_a_partition_and_disorder_adds_up():
    c = random_continuum(4, 60, seed=3)
    al = best_alignment(c)
    used = al.members[al.members >= 0]
    assert np.array_equal(np.sort(used), np.arange(c.n_units))
    assert al.disorder == pytest.approx(al.disorders.sum() / (c.n_units / 4))
    df = al.to_frame()
    assert len(df) == len(al) and list(df.columns[:2]) == ["disorder", "n_units"]


def test_identical_annotators_have_zero_disorder():
    c0 = random_continuum(1, 30, seed=2, miss=0)
    c = Continuum.from_codes(np.r_[c0.annotator, c0.annotator + 1, c0.annotator + 2],
                             np.tile(c0.category, 3), np.tile(c0.start, 3),
                             np.tile(c0.end, 3), ["a", "b", "c"], c0.categories)
    al = best_alignment(c)
    assert al.disorder == 0 and len(al) == 30


def test_lone_unit_costs_delta_empty():
    # 2015 paper: a unit aligned with empty units only; each empty pair costs Δ∅
    c = Continuum.from_codes([0, 1], [0, 0], [0, 100], [1, 101], ["a", "b"], ["x"])
    al = best_alignment(c, Dissimilarity(delta_empty=0.5))
    assert len(al) == 2 and np.allclose(al.disorders, 0.5)


def test_candidates_never_scan_the_full_product():
    # 5 × 200 units: the full product has 201^5 ≈ 3e11 tuples
    c = random_continuum(5, 200, seed=1)
    members, _ = candidate_alignments(c)
    assert len(members) < 100_000


@pytest.mark.parametrize("seed", range(3))
def test_reduced_cost_solver_equals_mip_over_all_candidates(seed):
    # reference: one HiGHS MIP over every candidate (no LP shortcut, no components),
    # on observed and resampled continua (shuffles make fractional LPs likely)
    from iaa_widgets.measures.continuum.gamma.alignment import _cover_matrix, _milp
    from iaa_widgets.measures.continuum.gamma.sampling import shuffle_sample
    c = random_continuum(4, 40, seed=seed)
    for cc in [c] + [shuffle_sample(c, np.random.default_rng(seed * 10 + i)) for i in range(4)]:
        members, weights = candidate_alignments(cc)
        _, total = _milp(6 + weights, _cover_matrix(members))  # K = C(4, 2) = 6, Δ∅ = 1
        assert best_alignment(cc).disorder == pytest.approx(total / 6 / (cc.n_units / 4),
                                                            abs=1e-12)


def test_fractional_lp_components_are_solved_exactly():
    # shuffled 5 × 60 continua: many components, some with fractional LP optima
    # (counted below); reference: one MIP over every candidate
    from iaa_widgets.measures.continuum.gamma.alignment import _cover_matrix, _milp
    from iaa_widgets.measures.continuum.gamma.sampling import shuffle_sample
    from scipy.optimize import linprog
    c = random_continuum(5, 60, seed=21)
    fractional = 0
    for i in range(8):
        cc = shuffle_sample(c, np.random.default_rng(i))
        members, weights = candidate_alignments(cc)
        A = _cover_matrix(members)
        lp = linprog(10 + weights, A_eq=A, b_eq=np.ones(A.shape[0]), method="highs-ds")
        fractional += np.any((lp.x > 1e-9) & (lp.x < 1 - 1e-9))
        _, total = _milp(10 + weights, A)  # K = C(5, 2) = 10, Δ∅ = 1
        assert best_alignment(cc).disorder == pytest.approx(total / 10 / (cc.n_units / 5),
                                                            abs=1e-12)
    assert fractional > 0  # the MIP path was exercised


def test_alpha_zero_ignores_positions_of_zero_length_units():
    # d = α·d_pos + β·d_cat (2015, §4.2.4): with α = 0 two same-category points at
    # different places are identical (d = 0), though their d_pos is ∞ (0/0 length);
    # by hand: pairs (x, x) and (y, y) give disorder 0 — and brute force agrees
    c = Continuum.from_codes([0, 0, 1, 1], [0, 1, 0, 1], [0, 10, 5, 10], [0, 12, 5, 12],
                             ["a", "b"], ["x", "y"])
    dis = Dissimilarity(alpha=0)
    assert np.all(np.isfinite(dis.combined(c, np.array([0, 0]), np.array([2, 3]))))
    assert best_alignment(c, dis).disorder == 0 == brute_force_disorder(c, dis)
    # with α = 1 the two points stay apart (d_pos = ∞): two lone units, Σδ = 2 over 2
    assert best_alignment(c).disorder == pytest.approx(brute_force_disorder(c, Dissimilarity()))
    assert best_alignment(c).disorder == 1.0
