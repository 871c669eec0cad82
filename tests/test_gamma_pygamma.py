"""Cross-check against pygamma-agreement 0.5.9 (test-only peer, optional).

Run with ``python -m pytest tests/test_gamma_pygamma.py -m pygamma`` after
``pip install -e .[pygamma]``; without ``-m pygamma`` these tests are skipped,
because importing pygamma-agreement takes 9–18 s (numba compilation).
"""
import numpy as np
import pytest

from iaa_widgets.continuum import random_continuum
from iaa_widgets.measures.continuum.gamma.alignment import best_alignment
from iaa_widgets.measures.continuum.gamma.coefficients import category_disorder, gamma_family

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
    from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity
    for c in cases(10, seed=12):
        theirs = to_pygamma(pa, c).get_best_alignment(dis).disorder
        ours = best_alignment(c, Dissimilarity(alpha=3, beta=0.5)).disorder
        assert ours == pytest.approx(float(theirs), abs=1e-5)


@pytest.mark.parametrize("seed", [1, 2])
def test_gamma_within_sampling_precision(pa, seed):
    # same model (Mathet's shuffle with float pivots), independent random streams:
    # the two γ may differ by the two 95 % half-widths of δ_e combined
    from iaa_widgets.measures.continuum.gamma.sampling import Z95
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


# ---------------------------------------------------------------- samplers (issue 17)
def from_pygamma(pa_continuum, like):
    """A pygamma-agreement continuum as ours, with ``like``'s categories."""
    names = list(pa_continuum.annotators)
    rows = [(names.index(a), like.categories.get_loc(u.annotation), u.segment.start,
             u.segment.end) for a, u in pa_continuum]
    a, k, s, e = map(np.array, zip(*rows))
    from iaa_widgets.continuum import Continuum
    return Continuum.from_codes(a, k, s, e, names, like.categories, like.ordered)


SAME_MODEL = {"pygamma": lambda pa: pa.StatisticalContinuumSampler(),
              "gamma-software": lambda pa: pa.ShuffleContinuumSampler()}  # int pivots


def sampler_cases(sampler):
    """The continua of ``cases``; for the int-pivot shuffle, two annotators only: from
    the third sampled annotator on, pygamma's bookkeeping of free pivot positions
    departs from its definition (test_pygamma_free_positions_quirk)."""
    if sampler == "pygamma":
        return list(cases(3, seed=21))
    return [random_continuum(2, m, seed=m, shift=0.6, flip=0.3, miss=0.2) for m in (4, 6, 8)]


@pytest.mark.parametrize("sampler", sorted(SAME_MODEL))
def test_expected_disorder_agrees_with_pygamma_under_the_same_sampler(pa, sampler):
    """γ with 1,000 samples, ours and pygamma-agreement's, under one sampler model.

    Their samples come from their sampler (``sample_from_continuum``, seeded through
    numpy's global stream); their best alignments are computed by our solver, whose
    disorder equals theirs on every continuum tried (tests above, and issue 17 on
    their own sampled continua), so that 1,000 samples take seconds, not minutes
    (their MIP takes about 0.25 s a sample). The two δ_e, from independent streams,
    must agree within the 99 % interval of their difference; so must γ."""
    from iaa_widgets.measures.continuum.gamma.sampling import Z95
    z99 = 2.5758293035489
    for i, c in enumerate(sampler_cases(sampler)):
        ours = gamma_family(c, sampler=sampler, n_samples=1000, seed=i, progress=False).gamma
        theirs_sampler = SAME_MODEL[sampler](pa)
        theirs_sampler.init_sampling(to_pygamma(pa, c))
        np.random.seed(i)
        chance = np.array([best_alignment(from_pygamma(theirs_sampler.sample_from_continuum,
                                                       c)).disorder for _ in range(1000)])
        hw_theirs = Z95 * chance.std(ddof=1) / np.sqrt(len(chance))
        hw_ours = ours.precision * ours.expected
        tol = z99 / Z95 * np.hypot(hw_ours, hw_theirs)
        assert abs(ours.expected - chance.mean()) <= tol, (i, ours.expected, chance.mean())
        g_theirs = 1 - ours.observed / chance.mean()
        assert abs(ours.value - g_theirs) <= ours.observed / chance.mean() ** 2 * tol * 1.01


def test_pygamma_free_positions_quirk(pa):
    """pygamma-agreement 0.5.9 keeps the free pivot positions as segments; removing
    [p − d, p + d] extends a free segment lying wholly before it up to p − d (and one
    wholly after it down to p + d), so an earlier pivot's excluded zone becomes free
    again: here (10, 20) around an earlier pivot 15. Our "gamma-software" keeps the
    definition (free_pivots), hence the two-annotator comparison above."""
    from pyannote.core import Segment
    free = pa.ShuffleContinuumSampler._remove_pivot_segment(
        25, [Segment(0, 10), Segment(20, 30)], 1)
    assert Segment(0, 24) in free  # (10, 20) free again, and (20, 24) counted twice
    from iaa_widgets.measures.continuum.gamma.sampling import free_pivots
    rng = np.random.default_rng(0)
    ours = [free_pivots(3, 0.0, 30.0, 5.0, rng) for _ in range(200)]
    assert all(np.abs(p[2] - p[:2]).min() >= 5.0 for p in ours)


def test_gamma_software_sampler_end_to_end_against_pygamma(pa):
    # one continuum through pygamma's own compute_gamma (its MIP, its int-pivot shuffle)
    from iaa_widgets.measures.continuum.gamma.sampling import Z95
    c = random_continuum(2, 5, seed=4)
    ours = gamma_family(c, sampler="gamma-software", n_samples=300, seed=4,
                        progress=False).gamma
    np.random.seed(4)
    res = to_pygamma(pa, c).compute_gamma(pa.CombinedCategoricalDissimilarity(),
                                          n_samples=60, sampler=pa.ShuffleContinuumSampler())
    chance = np.array([a.disorder for a in res.chance_alignments], dtype=float)
    hw = Z95 * chance.std(ddof=1) / np.sqrt(len(chance))
    assert ours.observed == pytest.approx(float(res.observed_disorder), abs=1e-5)
    tol = 2.5758293035489 / Z95 * np.hypot(ours.precision * ours.expected, hw)
    assert abs(ours.expected - chance.mean()) <= tol


@pytest.mark.parametrize("alpha", [1, 3])
def test_pygamma_cat_variant_equals_its_gamma_k_disorder(pa, alpha):
    # cat_variant="pygamma" on our best alignment = pygamma's gamma_k_disorder on its
    # own (the same alignment: equal disorders above), for γ_cat and every γ_k
    from iaa_widgets.measures.continuum.gamma.coefficients import _pygamma_ratios
    from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity
    dis = pa.CombinedCategoricalDissimilarity(alpha=alpha, beta=1, delta_empty=1)
    ours_dis = Dissimilarity(alpha=alpha)
    for c in cases(12, seed=14):
        r_cat, r_k = _pygamma_ratios(best_alignment(c, ours_dis), ours_dis)
        theirs = to_pygamma(pa, c).get_best_alignment(dis)
        assert r_cat == pytest.approx(float(theirs.gamma_k_disorder(dis, None)), abs=1e-5)
        for k, name in enumerate(c.categories):
            assert r_k[k] == pytest.approx(float(theirs.gamma_k_disorder(dis, str(name))),
                                           abs=1e-5)


def test_category_distances_equal_pygammas(pa):
    # our named distances = pygamma's matrices (float32 there), compared by label, and
    # the best-alignment disorders under them agree
    from iaa_widgets.continuum import Continuum
    from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity
    labels = ["LOC", "MISC", "ORG", "PER", "PERS"]  # sorted, as pygamma indexes them
    c = Continuum.from_codes([0, 0, 0, 1, 1, 1, 2, 2], [0, 3, 4, 0, 4, 2, 1, 3],
                             [0, 20, 40, 1, 21, 41, 2, 22], [10, 30, 50, 10, 30, 50, 9, 31],
                             ["a", "b", "c"], labels, True)
    theirs = {"levenshtein": pa.LevenshteinCategoricalDissimilarity(labels),
              "ordinal": pa.OrdinalCategoricalDissimilarity(labels),
              "numeric": pa.OrdinalCategoricalDissimilarity(labels, p=[0.5, 1, 2.5, 3, 7])}
    ours = {"levenshtein": "levenshtein", "ordinal": "ordinal",
            "numeric": dict(zip(labels, [0.5, 1, 2.5, 3, 7]))}
    for name, cat in theirs.items():
        dis = Dissimilarity(category_distance=ours[name])
        np.testing.assert_allclose(dis.category_matrix(c), cat._matrix, atol=1e-6)
        combined = pa.CombinedCategoricalDissimilarity(cat_dissim=cat)
        d = to_pygamma(pa, c).get_best_alignment(combined).disorder
        assert best_alignment(c, dis).disorder == pytest.approx(float(d), abs=1e-5)
    num = pa.NumericalCategoricalDissimilarity(["0.1", "0.3", "0.4"])
    n = Continuum.from_codes([0, 1], [0, 2], [0, 0], [1, 1], ["a", "b"], [0.1, 0.3, 0.4], True)
    np.testing.assert_allclose(Dissimilarity(category_distance="numeric").category_matrix(n),
                               num._matrix, atol=1e-6)
