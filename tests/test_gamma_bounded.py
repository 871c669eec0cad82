"""γ never hangs (issue 19): identical units solved as one type with a supply, the
set partition solved by LP + reduced-cost fixing + small MIPs, progress bars, Ctrl-C
and the GammaExplorer's close.

References: an exhaustive enumeration of partitions written here with exact fractions
(Mathet, Widlöcher & Métivier 2015, eq. 4–5: δ(ă) = mean over the C(n, 2) annotator
pairs of d, Δ∅ for a pair with an empty unit; δ(â) = Σ δ(ă) / (units / annotators);
d = α·((|Δstart| + |Δend|) / (len_u + len_v))²·Δ∅ + β·[cat_u ≠ cat_v]·Δ∅), hand
computations, and one HiGHS MIP over every unit-level candidate (no collapsing, no
LP, no reduced-cost fixing). No timing is asserted except that Ctrl-C ends a run and
that the solver's time limit stops a program without end.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

import iaa_widgets as iaa
from iaa_widgets.continuum import Continuum, random_continuum
from iaa_widgets.measures.continuum.gamma.alignment import (_cover_matrix, _milp, best_alignment,
                                                  candidate_alignments)
from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity
from iaa_widgets.measures.continuum.gamma.sampling import shuffle_sample


# ---------------------------------------------------------------- references
def _partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in _partitions(rest):
        yield [[first]] + p
        for i in range(len(p)):
            yield p[:i] + [[first] + p[i]] + p[i + 1:]


def brute_force(units, n, alpha=1, beta=1, empty=1):
    """Exact min disorder over all partitions into unitary alignments; ``units`` are
    (annotator, category, start, end) with integer bounds, computed in fractions."""
    alpha, beta, empty = Fraction(alpha), Fraction(beta), Fraction(empty)

    def d(u, v):
        (_, cu, su, eu), (_, cv, sv, ev) = units[u], units[v]
        pos = Fraction(abs(su - sv) + abs(eu - ev), (eu - su) + (ev - sv)) ** 2 * empty
        return alpha * pos + beta * (cu != cv) * empty

    K = n * (n - 1) // 2
    best = None
    for p in _partitions(list(range(len(units)))):
        if any(len({units[u][0] for u in g}) < len(g) for g in p):
            continue  # two units of one annotator
        total = sum((sum((d(u, v) for u, v in combinations(g, 2)), Fraction(0))
                     + (K - len(g) * (len(g) - 1) // 2) * empty) / K for g in p)
        best = total if best is None or total < best else best
    return best / Fraction(len(units), n)


def continuum(units, n):
    a, c, s, e = map(np.array, zip(*units))
    return Continuum.from_codes(a, c, s, e, [f"a{i}" for i in range(n)], ["x", "y"])


def one_mip_disorder(c, dis=Dissimilarity()):
    """One HiGHS MIP over every unit-level candidate of ``c`` (identical units kept
    apart): the exact set partition without any of the solver's shortcuts."""
    members, weights = candidate_alignments(c, dis)
    K = c.n_annotators * (c.n_annotators - 1) / 2
    _, total = _milp(K * dis.delta_empty + weights, _cover_matrix(members))
    return total / K / (c.n_units / c.n_annotators)


# ---------------------------------------------------------------- exactness
@pytest.mark.parametrize("seed", range(8))
def test_stacked_units_equal_brute_force(seed):
    # tiny continua drawn from 3 places × 2 categories, so that identical units
    # (same annotator, place and category) are frequent
    rng = np.random.default_rng(seed)
    places = [(0, 10), (2, 10), (30, 34)]
    stacked = 0
    for _ in range(12):
        n = int(rng.integers(2, 4))
        size = int(rng.integers(n, 7 if n == 3 else 6))
        ann = np.r_[np.arange(n), rng.integers(0, n, size - n)]
        units = [(int(a), int(rng.random() < .2), *places[int(rng.choice(3, p=[.6, .2, .2]))])
                 for a in ann]
        stacked += len(set(units)) < len(units)
        alpha, empty = [(1, 1), (2, 1), (1, Fraction(1, 2))][int(rng.integers(0, 3))]
        dis = Dissimilarity(alpha=float(alpha), delta_empty=float(empty))
        al = best_alignment(continuum(units, n), dis)
        assert al.disorder == pytest.approx(float(brute_force(units, n, alpha, 1, empty)),
                                            abs=1e-12)
        used = np.sort(al.members[al.members >= 0])
        assert np.array_equal(used, np.arange(len(units)))  # a partition of the units
    assert stacked > 0


def test_identical_stacks_align_completely():
    # 3 annotators × 100 identical units: 100 unitary alignments of 3 units, d = 0:
    # disorder 0 (2015, eq. 4–5); before issue 19 this ran past 300 s
    n, k = 3, 100
    c = Continuum.from_codes(np.repeat(np.arange(n), k), np.zeros(n * k), np.zeros(n * k),
                             np.full(n * k, 10.0), ["a", "b", "c"], ["x"])
    al = best_alignment(c)
    assert al.disorder == 0 and len(al) == k and np.all(al.members >= 0)
    assert np.array_equal(np.sort(al.members.ravel()), np.arange(n * k))
    assert al.n_candidates == 7  # 3 singletons, 3 pairs, 1 triple of unit types


def test_uneven_stacks_by_hand():
    # a and b: 100 identical units each, c: 60 of them. K·δ(ă) = 3 − C(r, 2) for r real
    # units (real pairs cost 0, pairs with an empty unit Δ∅ = 1): 60 triples (0) and 40
    # pairs (2 each) beat every other partition, Σδ = 80/3 over 260/3 units per
    # annotator: disorder 4/13
    sizes = [100, 100, 60]
    ann = np.repeat(np.arange(3), sizes)
    c = Continuum.from_codes(ann, np.zeros(len(ann)), np.zeros(len(ann)),
                             np.full(len(ann), 10.0), ["a", "b", "c"], ["x"])
    al = best_alignment(c)
    assert al.disorder == pytest.approx(4 / 13, abs=1e-12)
    assert sorted(np.bincount((al.members >= 0).sum(axis=1))[2:].tolist()) == [40, 60]


def test_stack_with_another_category_by_hand():
    # a: 2 × x[0, 10], b: 2 × x[0, 10], c: 1 × y[0, 10]; K = 3, Δ∅ = β = 1.
    # (a, b, c) costs d(a, c) + d(b, c) = 2, (a, b) costs 2 empty pairs = 2: Σδ = 4/3;
    # the alternative (a, b) twice and c alone costs (2 + 2 + 3)/3 = 7/3.
    # Units per annotator 5/3: disorder 4/5
    units = [(0, 0, 0, 10)] * 2 + [(1, 0, 0, 10)] * 2 + [(2, 1, 0, 10)]
    assert brute_force(units, 3) == Fraction(4, 5)
    assert best_alignment(continuum(units, 3)).disorder == pytest.approx(0.8, abs=1e-12)


@pytest.fixture(params=["search", "mip"])
def fractional_path(request, monkeypatch):
    """Records the covers searched on the solver's fractional path (the LP alone
    settles integral components): "search" leaves the small ones to the exhaustive
    search (a MIP only for a large one or past SEARCH_NODES nodes), "mip" stops every
    search at its first cover, so that HiGHS's MIP solves them all."""
    from iaa_widgets.measures.continuum.gamma import alignment
    searched, mips = [], []

    def cover(*args):
        x, complete = cheapest(*args)
        searched.append(complete)
        return x, complete

    def mip(*args, **kwargs):
        mips.append(len(args[0]))
        return _milp(*args, **kwargs)

    cheapest = alignment._cheapest_cover
    monkeypatch.setattr(alignment, "_cheapest_cover", cover)
    monkeypatch.setattr(alignment, "_milp", mip)
    if request.param == "mip":
        monkeypatch.setattr(alignment, "SEARCH_NODES", 0)
    yield searched
    if request.param == "mip":
        assert mips and not any(searched)
    else:  # some searches finished; a MIP for each that did not, and for large ones
        assert any(searched) and len(mips) >= searched.count(False)


@pytest.mark.parametrize("seed", [11, 13, 16, 25])
def test_partly_duplicated_shuffles_equal_one_mip_over_every_unit(seed, fractional_path):
    # half the units of a shuffled 4 × 30 continuum placed twice by their annotator:
    # the collapsed solver (supplies 1 and 2; seeds whose LP is fractional, so the
    # reduced-cost fixing and the MIPs run) against one MIP over the unit-level
    # candidates, duplicates kept apart
    base = shuffle_sample(random_continuum(4, 30, seed=seed), np.random.default_rng(seed))
    dup = np.random.default_rng(seed).random(base.n_units) < 0.5
    idx = np.r_[np.arange(base.n_units), np.flatnonzero(dup)]
    c = Continuum.from_codes(base.annotator[idx], base.category[idx], base.start[idx],
                             base.end[idx], base.annotators, base.categories)
    ours = best_alignment(c).disorder
    assert fractional_path  # the fractional path ran
    assert ours == pytest.approx(one_mip_disorder(c), abs=1e-12)


@pytest.mark.parametrize("seed", [1, 12, 17, 22])
def test_fractional_components_equal_one_mip(seed, fractional_path):
    # shuffled 5 × 40 continua with fractional LP optima (these seeds), so the
    # reduced-cost fixing and the per-component search (or MIPs) run; reference: one
    # MIP over every candidate
    c = shuffle_sample(random_continuum(5, 40, seed=seed), np.random.default_rng(seed))
    ours = best_alignment(c).disorder
    assert fractional_path
    assert ours == pytest.approx(one_mip_disorder(c), abs=1e-12)


@pytest.mark.parametrize("seed", range(40))
def test_cheapest_cover_equals_enumeration(seed):
    # random exact covers with supplies 1–2 (every type with a candidate of its own, as
    # in the solver) against every x in {0, 1, 2}^candidates, enumerated with numpy
    from scipy.sparse import csc_matrix
    from iaa_widgets.measures.continuum.gamma.alignment import _cheapest_cover
    rng = np.random.default_rng(seed)
    n_types = int(rng.integers(1, 6))
    extra = (rng.random((int(rng.integers(0, 6)), n_types)) < 0.5).astype(int)
    A = np.vstack([np.eye(n_types, dtype=int), extra[extra.sum(axis=1) > 0]]).T
    supply = rng.integers(1, 3, n_types)
    cost = rng.choice([0.0, 0.5, 1.0, 1.5], A.shape[1])  # ties included
    x, complete = _cheapest_cover(csc_matrix(A.astype(float)), supply, cost)
    assert complete and np.array_equal(A @ x, supply)
    grid = np.stack(np.meshgrid(*[range(3)] * A.shape[1], indexing="ij"), -1).reshape(-1, A.shape[1])
    covers = grid[(grid @ A.T == supply).all(axis=1)]
    assert cost @ x == pytest.approx((covers @ cost).min(), abs=1e-12)


def test_cheapest_cover_past_its_limit_returns_a_cover(monkeypatch):
    # stopped after its first cover (SEARCH_NODES 0): a cover all the same, not the best
    from scipy.sparse import csc_matrix
    from iaa_widgets.measures.continuum.gamma import alignment
    monkeypatch.setattr(alignment, "SEARCH_NODES", 0)
    A = np.array([[1, 0, 1], [0, 1, 1]])  # two singletons and the pair
    x, complete = alignment._cheapest_cover(csc_matrix(A.astype(float)), np.array([1, 1]),
                                            np.array([0.0, 1.0, 0.5]))
    assert np.array_equal(A @ x, [1, 1]) and not complete


def test_least_cover_of_many_units_is_a_mip_not_a_deep_search():
    # 2 types of 5,000 identical units each and the pair of them: a search would recurse
    # 5,000 deep; the MIP covers them with 5,000 pairs (cost 1 each, against 2 × 5,000
    # singletons at 0.75 each)
    import time as _time
    from scipy.sparse import csc_matrix
    from iaa_widgets.measures.continuum.gamma.alignment import _least_cover
    A = csc_matrix(np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]))
    cost = np.array([0.75, 0.75, 1.0])
    x = _least_cover(A, np.array([5000, 5000]), cost, cost, _time.monotonic() + 60)
    assert x.tolist() == [0, 0, 5000]


# ---------------------------------------------------------------- progress
def test_progress_true_draws_a_tqdm_bar(capsys):
    pytest.importorskip("tqdm")
    c = random_continuum(3, 10, seed=1)
    plain = iaa.gamma(c, n_samples=4, seed=0, progress=False)
    shown = iaa.gamma(c, n_samples=4, seed=0, progress=True)
    err = capsys.readouterr().err
    assert "4/4" in err and "γ" in err
    assert shown.value == plain.value


def test_progress_false_and_auto_on_a_short_run_print_nothing(capsys):
    c = random_continuum(3, 10, seed=1)
    iaa.gamma(c, n_samples=3, seed=0, progress=False)
    iaa.gamma(c, n_samples=3, seed=0)  # "auto": a bar only after a second
    assert capsys.readouterr().err == ""


def test_bad_progress_is_named():
    with pytest.raises(iaa.AgreementError, match=r"progress.*'auto'.*'yes'") as err:
        iaa.gamma(random_continuum(2, 5, seed=1), n_samples=2, progress="yes")
    assert "True" in str(err.value) and "False" in str(err.value)
    from iaa_widgets.measures.continuum.gamma.progress import progress_reporter
    with pytest.raises(iaa.AgreementError, match=r"progress.*'auto'.*callable"):
        progress_reporter(3)


# ---------------------------------------------------------------- Ctrl-C
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_ctrl_c_stops_gamma_promptly(n_jobs):
    code = textwrap.dedent(f"""
        import sys
        import iaa_widgets as iaa
        from iaa_widgets.continuum import random_continuum
        c = random_continuum(5, 300, seed=1)
        iaa.gamma(c, n_samples=2, seed=0, progress=False)   # imports warm
        print("ready", flush=True)
        iaa.gamma(c, n_samples=10_000, seed=0, n_jobs={n_jobs}, progress=False)
        print("finished", flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            cwd=os.path.dirname(os.path.dirname(__file__)))
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        t0 = time.perf_counter()
        out, err = proc.communicate(timeout=30)
        waited = time.perf_counter() - t0
    finally:
        proc.kill()
    assert "KeyboardInterrupt" in err and "finished" not in out
    assert waited < 10, f"{waited:.1f} s between Ctrl-C and exit"


# ---------------------------------------------------------------- widget
def _in_thread(fn, timeout):
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("value", fn()), daemon=True)
    t.start()
    t.join(timeout)
    assert not t.is_alive(), f"still blocked after {timeout} s"
    return box.get("value")


def test_wait_after_close_returns_and_close_cancels():
    w = iaa.GammaExplorer(random_continuum(4, 60, seed=1), n_samples=500, seed=0)
    deadline = time.time() + 60
    while w.status.get("state") != "sampling" and time.time() < deadline:
        time.sleep(0.02)
    assert w.status["state"] == "sampling"
    w.close()                                   # cancels the 500-sample run
    assert _in_thread(w.wait, 10) is None       # no finished result: None, at once
    w._worker.join(30)
    assert not w._worker.is_alive()


def test_wait_after_close_returns_the_newest_result():
    c = random_continuum(3, 10, seed=2)
    w = iaa.GammaExplorer(c, n_samples=3, seed=1)
    first = w.wait(60)
    w.close()
    assert _in_thread(w.wait, 10) is first


def test_positional_weight_zero_stops_with_its_reason(monkeypatch):
    # α = 0 on the example continuum (84 units, 3 annotators): units of a category
    # align at equal cost wherever they are, and the exact program ran past 10 min
    # before (α = 1e-9: 31 s). The solver now has SOLVE_SECONDS for one best
    # alignment (lowered here to keep the test short) and says why it stopped
    from iaa_widgets.measures.continuum.gamma import alignment
    monkeypatch.setattr(alignment, "SOLVE_SECONDS", 1.0)
    units = Continuum.from_frame(__import__("pandas").read_csv(
        os.path.join(os.path.dirname(__file__), os.pardir, "examples", "units.csv")))
    t = time.monotonic()
    with pytest.raises(iaa.AgreementError, match=r"within 1 s .*positional weight \(alpha\) of 0,"):
        iaa.gamma_family(units, alpha=0, n_samples=2, seed=0, progress=False)
    assert time.monotonic() - t < 60  # candidates and the LP, then at most 1 s of programs
    # (small continua at α = 0 are still solved exactly: test_gamma_alignment's brute force)
