"""Cross-check against pygamma-agreement 0.5.9 (test-only peer, optional).

Run with ``python -m pytest tests/test_gamma_pygamma.py -m pygamma`` after
``pip install -e .[pygamma]``; without ``-m pygamma`` these tests are skipped,
because importing pygamma-agreement takes 9–18 s (numba compilation).
"""
import numpy as np
import pytest

from iaa_widgets.continuum import random_continuum
from iaa_widgets.measures.gamma.alignment import best_alignment
from iaa_widgets.measures.gamma.coefficients import category_disorder, gamma_family

pytestmark = pytest.mark.pygamma


@pytest.fixture(scope="module")
def pa(request):
    if "pygamma" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("pygamma-agreement cross-checks run with -m pygamma")
    return pytest.importorskip("pygamma_agreement")


def to_pygamma(pa, c):
    from pyannote.core import Segment
    out = pa.Continuum()
    for a, k, s, e in zip(c.annotator, c.category, c.start, c.end):
        out.add(str(c.annotators[a]), Segment(float(s), float(e)), str(c.categories[k]))
    return out


def cases(count, seed):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n, m = int(rng.integers(2, 5)), int(rng.integers(3, 8))
        yield random_continuum(n, m, seed=int(rng.integers(2**31)), shift=0.6, flip=0.3,
                               miss=0.2)


def test_identical_best_alignment_disorder(pa):
    # pygamma-agreement enumerates every unitary alignment (full product) and solves
    # the MIP with GLPK; its disorders are float32, hence the 1e-5 tolerance
    dis = pa.CombinedCategoricalDissimilarity(alpha=1, beta=1, delta_empty=1)
    for c in cases(25, seed=11):
        theirs = to_pygamma(pa, c).get_best_alignment(dis).disorder
        assert best_alignment(c).disorder == pytest.approx(float(theirs), abs=1e-5)


def test_identical_disorder_with_other_parameters(pa):
    dis = pa.CombinedCategoricalDissimilarity(alpha=3, beta=0.5, delta_empty=1)
    from iaa_widgets.measures.gamma.dissimilarity import Dissimilarity
    for c in cases(10, seed=12):
        theirs = to_pygamma(pa, c).get_best_alignment(dis).disorder
        ours = best_alignment(c, Dissimilarity(alpha=3, beta=0.5)).disorder
        assert ours == pytest.approx(float(theirs), abs=1e-5)


@pytest.mark.parametrize("seed", [1, 2])
def test_gamma_within_sampling_precision(pa, seed):
    # same model (Mathet's shuffle with float pivots), independent random streams:
    # the two γ may differ by the two 95 % half-widths of δ_e combined
    from iaa_widgets.measures.gamma.sampling import Z95
    c = random_continuum(3, 6, seed=seed)
    ours = gamma_family(c, n_samples=200, seed=seed).gamma
    np.random.seed(seed)
    res = to_pygamma(pa, c).compute_gamma(
        pa.CombinedCategoricalDissimilarity(), n_samples=200,
        sampler=pa.ShuffleContinuumSampler(pivot_type="float_pivot"))
    chance = np.array([a.disorder for a in res.chance_alignments], dtype=float)
    rel_theirs = Z95 * chance.std(ddof=1) / np.sqrt(len(chance)) / chance.mean()
    assert ours.observed == pytest.approx(float(res.observed_disorder), abs=1e-5)
    tol = (1 - ours.value) * np.hypot(ours.precision, rel_theirs) * 1.5
    assert abs(ours.value - float(res.gamma)) <= tol


def test_gamma_cat_difference_is_the_empty_unit_term(pa):
    """pygamma's γ_cat disorder adds Δ∅² with weight Δ∅ for each (real, empty) pair
    (coefficients module docstring); removing it gives ours, on the same alignment."""
    dis = pa.CombinedCategoricalDissimilarity()
    for c in cases(15, seed=13):
        al = best_alignment(c)
        num, den, num_k, den_k = category_disorder(al)
        pg_alignment = to_pygamma(pa, c).get_best_alignment(dis)
        theirs = pg_alignment.gamma_k_disorder(dis, None)
        real = (al.members >= 0).sum(axis=1)
        n = al.members.shape[1]
        with_empty = int(np.sum(real * (n - real)))  # (real, empty) pairs
        if den == 0:
            continue  # pygamma returns 0 or 1 by convention there; we return NaN
        assert float(theirs) == pytest.approx((num + with_empty) / (den + with_empty),
                                              abs=1e-5)
        if with_empty == 0:
            assert float(theirs) == pytest.approx(num / den, abs=1e-5)


def test_identical_disorder_with_an_annotator_without_units(pa):
    # an annotator who placed nothing still counts (n = 3, mean units 5/3) in both
    from iaa_widgets.continuum import Continuum
    c = Continuum.from_codes([0, 0, 0, 1, 1], [0, 1, 0, 0, 1], [0, 20, 40, 1, 21],
                             [10, 30, 50, 10, 30], ["a", "b", "c"], ["x", "y"])
    theirs = to_pygamma(pa, c)
    theirs.add_annotator("c")
    d = theirs.get_best_alignment(pa.CombinedCategoricalDissimilarity()).disorder
    assert best_alignment(c).disorder == pytest.approx(float(d), abs=1e-5)
