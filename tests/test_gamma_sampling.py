"""The samplers of γ's expected disorder (issue 17), each checked against its own
definition (module doc of iaa_widgets/measures/continuum/gamma/sampling.py): the sampled
counts, lengths, gaps, categories, pivots and phases, by their moments and a
goodness-of-fit test (scipy.stats: chi-square over exact probabilities written here,
Kolmogorov–Smirnov against the defined continuous law), seeded.

References for the definitions: Mathet, Widlöcher & Métivier (2015) §5.2 (shuffle);
pygamma-agreement 0.5.9 ``sampler.py`` (read, not copied: ``ShuffleContinuumSampler``
with integer pivots, "to match the java implementation", and
``StatisticalContinuumSampler``). γ against pygamma-agreement itself is in
tests/test_gamma_pygamma.py (its own environment).

Significance: every goodness-of-fit test rejects at p < 1e-3 (seeded, so a pass is
reproducible); where a plausible misreading of a definition is named (round() for
trunc() in pygamma's counts), the test also shows that the misreading is rejected.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from iaa_widgets.continuum import Continuum
from iaa_widgets.measures.continuum.gamma.coefficients import gamma_family
from iaa_widgets.measures.continuum.gamma.sampling import (SAMPLERS, free_pivots,
                                                 gamma_software_sample, pygamma_parameters,
                                                 pygamma_sample, shuffle_sample,
                                                 statistical_sample)

P_MIN = 1e-3


def chi2_p(observed_counts, probabilities):
    """p-value of Pearson's chi-square, cells with expectation < 5 pooled into one."""
    observed_counts = np.asarray(observed_counts, float)
    expected = np.asarray(probabilities, float) * observed_counts.sum()
    small = expected < 5
    obs = np.r_[observed_counts[~small], observed_counts[small].sum()]
    exp = np.r_[expected[~small], expected[small].sum()]
    keep = exp > 0
    assert keep.sum() >= 2, "too few cells for a chi-square test"
    assert np.all(obs[~keep] == 0), "a count where the definition gives probability 0"
    return stats.chisquare(obs[keep], exp[keep]).pvalue


def reference(layout=((4, 0.0), (5, 303.0), (6, 606.0)), gap=(6.0, 14.0)) -> Continuum:
    """3 annotators with (units, first start) ``layout``; distinct lengths (9.1 …) so
    that a unit's length names it; gaps uniform in ``gap``. By default b starts at
    303 and c at 606, so the span (about 730) is several times any annotator's
    extent."""
    rows = []
    rng = np.random.default_rng(2015)
    for a, (n, origin) in enumerate(layout):
        pos = origin
        for k in range(n):
            length = 9.0 + 0.1 * (len(rows) + 1) + (3 if k % 2 else 0)
            rows.append((a, int(rng.integers(0, 3)), pos, pos + length))
            pos += length + gap[0] + (gap[1] - gap[0]) * rng.random()
    a, k, s, e = map(np.array, zip(*rows))
    return Continuum.from_codes(a, k, s, e, ["a", "b", "c"], ["x", "y", "z"], True)


def regular(n=3, m=8, length=10.0, gap=5.0) -> Continuum:
    """Every annotator starts at 0 with constant lengths and gaps: the continuum on
    which resampling observed values without a phase collapses (issue 17)."""
    ann = np.repeat(np.arange(n), m)
    start = np.tile(np.arange(m) * (length + gap), n)
    cat = np.random.default_rng(0).integers(0, 3, n * m)
    return Continuum.from_codes(ann, cat, start, start + length, [f"a{i}" for i in range(n)],
                                ["c0", "c1", "c2"], True)


def samples(sampler, c, count, seed=0):
    rng = np.random.default_rng(seed)
    return [sampler(c, rng) for _ in range(count)]


def by_length(c: Continuum) -> dict:
    return {round(float(v), 6): i for i, v in enumerate(c.end - c.start)}


# ---------------------------------------------------------------- "pygamma"
def test_pygamma_parameters_by_hand():
    # a: [2, 5], [7, 8]  b: [0, 4]  c: nothing. Gaps: pygamma's leading 0, a's 7 − 5 = 2,
    # a's first start 2 (> 0); b's first start 0 is not > 0. Counts 2, 1, 0.
    c = Continuum.from_codes([0, 0, 1], [0, 1, 1], [2, 7, 0], [5, 8, 4], ["a", "b", "c"],
                             ["x", "y"])
    p = pygamma_parameters(c)
    assert p["gap"] == pytest.approx((4 / 3, np.std([0, 2, 2])))
    assert p["count"] == pytest.approx((1.0, np.sqrt(2 / 3)))
    assert p["length"] == pytest.approx((8 / 3, np.std([3, 1, 4])))
    assert p["category_p"] == pytest.approx([1 / 3, 2 / 3])


def folded_trunc_pmf(mu, sd, kmax):
    """P(|trunc(X)| = k), X ~ N(mu, sd), k = 0 … kmax (pygamma's unit count)."""
    cdf = stats.norm(mu, sd).cdf
    k = np.arange(kmax + 1)
    pos = cdf(k + 1) - cdf(k)            # k ≤ X < k + 1
    neg = cdf(-k) - cdf(-k - 1)          # −k − 1 < X ≤ −k
    pmf = pos + np.where(k > 0, neg, cdf(0) - cdf(-1))  # trunc(X) = 0 on (−1, 1)
    return pmf


def test_pygamma_sampler_follows_its_normal_models():
    # 8, 9, 10 units, first starts 0, 20, 22, gaps 20–24: the fitted gap model
    # (pygamma's 0, 20, 22 and the 24 gaps) stays far above minus a unit length
    c = reference(layout=((8, 0.0), (9, 20.0), (10, 22.0)), gap=(20.0, 24.0))
    p = pygamma_parameters(c)
    runs = samples(pygamma_sample, c, 3000, seed=1)
    counts = np.array([s.units_per_annotator() for s in runs])
    # counts: |trunc(N(μ_n, σ_n))|, the first annotator at least 1
    mu_n, sd_n = p["count"]
    pmf = folded_trunc_pmf(mu_n, sd_n, 30)
    for a in (1, 2):
        assert chi2_p(np.bincount(counts[:, a], minlength=31)[:31], pmf) > P_MIN
    first = pmf.copy()
    first[1] += first[0]
    first[0] = 0
    assert chi2_p(np.bincount(counts[:, 0], minlength=31)[:31], first) > P_MIN
    # departure: round() in place of trunc() is rejected
    rounded = stats.norm(mu_n, sd_n).cdf(np.arange(31) + 0.5) - stats.norm(
        mu_n, sd_n).cdf(np.arange(31) - 0.5)
    assert chi2_p(np.bincount(counts[:, 1], minlength=31)[:31], rounded) < 1e-10
    # gaps (first start from 0, then start − previous end) ~ N(μ_g, σ_g); lengths ~
    # |N(μ_l, σ_l)| (the 1e-6 floor is far in the tail here); categories by frequency
    mu_g, sd_g = p["gap"]
    mu_l, sd_l = p["length"]
    gaps, lengths, cats = [], [], []
    for s in runs:
        same = s.annotator[1:] == s.annotator[:-1]
        firsts = np.r_[True, ~same]
        gaps += [s.start[firsts], (s.start[1:] - s.end[:-1])[same]]
        lengths.append(s.end - s.start)
        cats.append(s.category)
    gaps, lengths, cats = map(np.concatenate, (gaps, lengths, cats))
    # sorting by start keeps generation order here: a gap below −length has
    # probability Φ((−μ_l − μ_g)/σ_g) < 1e-9 for these parameters
    assert stats.norm.cdf((-mu_l - mu_g) / sd_g) < 1e-9
    assert stats.kstest(gaps, stats.norm(mu_g, sd_g).cdf).pvalue > P_MIN
    assert stats.kstest(lengths, stats.foldnorm(mu_l / sd_l, scale=sd_l).cdf).pvalue > P_MIN
    assert chi2_p(np.bincount(cats, minlength=3), p["category_p"]) > P_MIN
    # moments: within 4 standard errors of the model's
    assert abs(gaps.mean() - mu_g) < 4 * sd_g / np.sqrt(len(gaps))
    assert abs(gaps.std() - sd_g) < 4 * sd_g / np.sqrt(2 * len(gaps))
    # counts: the law's mean Σ k·P(k) (trunc lowers it by about ½ from μ_n)
    k = np.arange(31)
    law_mean = np.sum(k * pmf)
    law_sd = np.sqrt(np.sum((k - law_mean) ** 2 * pmf))
    assert abs(counts[:, 1:].mean() - law_mean) < 4 * law_sd / np.sqrt(counts[:, 1:].size)


def test_pygamma_sampler_lengths_fold_and_floor():
    # μ_l small against σ_l: lengths are |N| (about 40 % folded), never below 1e-6
    c = Continuum.from_codes([0, 0, 1, 1], [0, 0, 0, 0], [0, 10, 0, 12],
                             [0.1, 14, 0.2, 12.3], ["a", "b"], ["x"])
    mu_l, sd_l = pygamma_parameters(c)["length"]
    runs = samples(pygamma_sample, c, 1500, seed=2)
    lengths = np.concatenate([s.end - s.start for s in runs])
    assert lengths.min() >= 1e-6
    assert stats.kstest(lengths, stats.foldnorm(mu_l / sd_l, scale=sd_l).cdf).pvalue > P_MIN


# ---------------------------------------------------------------- "statistical" (ours)
def test_statistical_sampler_resamples_observed_values_with_a_uniform_phase():
    c = reference()
    lo, hi = c.bounds
    span = hi - lo
    unit_of = by_length(c)
    same = c.annotator[1:] == c.annotator[:-1]
    observed_gaps = np.round((c.start[1:] - c.end[:-1])[same], 6)
    runs = samples(statistical_sample, c, 2000, seed=3)
    sizes, units, gap_hits, phases = [], [], [], []
    for s in runs:
        sizes.append(s.units_per_annotator())
        units += [unit_of[round(float(v), 6)] for v in s.end - s.start]
        for a in range(3):
            idx = np.flatnonzero(s.annotator == a)
            st, en = s.start[idx], s.end[idx]
            # circular gaps: each unit to the next, the last to the first across the wrap
            g = np.round(np.r_[st[1:], st[0] + span] - en, 6)
            known = np.isin(g, observed_gaps)
            assert (~known).sum() <= 1  # only the gap that closes the circle is new
            gap_hits.append(g[known])
            # the sequence begins after the closing gap: its start is lo + U·span
            begin = (int(np.flatnonzero(~known)[0]) + 1) % len(g) if (~known).any() else 0
            phases.append((st[begin] - lo) / span)
    sizes = np.concatenate(sizes)
    # counts drawn from the observed (4, 5, 6): 1/3 each
    assert chi2_p(np.bincount(sizes, minlength=7)[4:7], [1 / 3] * 3) > P_MIN
    # (length, category) pairs: uniform over the 15 observed units (category travels
    # with its unit: checked exactly on one sample)
    assert chi2_p(np.bincount(units, minlength=c.n_units), [1 / c.n_units] * c.n_units) > P_MIN
    s0 = runs[0]
    assert all(s0.category[i] == c.category[unit_of[round(float(v), 6)]]
               for i, v in enumerate(s0.end - s0.start))
    # gaps: uniform over the 12 observed gaps
    hits = np.concatenate(gap_hits)
    _, idx = np.unique(observed_gaps, return_inverse=True)
    ref_p = np.bincount(idx) / len(observed_gaps)
    cells = np.searchsorted(np.unique(observed_gaps), hits)
    assert chi2_p(np.bincount(cells, minlength=len(ref_p)), ref_p) > P_MIN
    # phases uniform on [0, 1) (without the rotation every sequence began at an
    # observed first offset: 0, 0.42 or 0.83 of the span)
    assert stats.kstest(phases, "uniform").pvalue > P_MIN


def test_statistical_sampler_does_not_collapse_on_a_regular_continuum():
    # before the phase, every sampled annotator of this continuum began at 0 with the
    # one gap and the one length: δ_e was 0.668 (100 samples, seed 1) for δ_o = 2/3,
    # γ ≈ 0 for annotators who place the same units; the shuffle gives δ_e ≈ 0.94
    c = regular()
    ours = gamma_family(c, sampler="statistical", n_samples=60, seed=1, progress=False).gamma
    shuffle = gamma_family(c, sampler="shuffle", n_samples=60, seed=1, progress=False).gamma
    assert ours.observed == pytest.approx(2 / 3)
    assert ours.ci[0] > 0.15  # γ clearly above chance-level 0
    assert abs(ours.expected - shuffle.expected) < 0.1
    # the phase mod the period (15) is uniform: no two sampled annotators are tied
    period = 15.0
    phases = [np.mod(s.start[s.annotator == a].min(), period) / period
              for s in samples(statistical_sample, c, 500, seed=5) for a in range(3)]
    assert stats.kstest(phases, "uniform").pvalue > P_MIN


# ---------------------------------------------------------------- shuffles
def identify(c: Continuum, s: Continuum, a: int):
    """(source annotator, shifts) of sampled annotator a: its lengths name the units."""
    unit_of = by_length(c)
    idx = np.flatnonzero(s.annotator == a)
    src = np.array([unit_of[round(float(v), 6)] for v in s.end[idx] - s.start[idx]])
    sources = set(c.annotator[src])
    assert len(sources) == 1 and len(src) == c.units_per_annotator()[c.annotator[src[0]]]
    return sources.pop(), s.start[idx] - c.start[src]


def test_gamma_software_shuffle_has_integer_pivots_from_zero():
    c = reference()
    hi = c.bounds[1]  # the span runs from min(0, first start) = 0 to hi
    first_pivots, sources = [], []
    for s in samples(gamma_software_sample, c, 3000, seed=6):
        for a in range(3):
            src, shift = identify(c, s, a)
            sources.append(src)
            # a unit moves by the pivot p ∈ [0, hi), or by p − hi (< 0) if it wrapped
            pivot = shift.max() if shift.max() >= 0 else shift.max() + hi
            assert pivot == pytest.approx(np.round(pivot), abs=1e-9) and 0 <= pivot < hi
            wrapped = ~np.isclose(shift, pivot)
            assert np.allclose(shift[wrapped], pivot - hi)
            # wrapped exactly the units whose start passed the end
            origin = s.start[s.annotator == a] - shift
            assert np.array_equal(wrapped, origin + pivot > hi + 1e-9)
            pivot = int(np.round(pivot))
            if a == 0:
                first_pivots.append(int(pivot))
    assert chi2_p(np.bincount(sources, minlength=3), [1 / 3] * 3) > P_MIN
    # the first pivot is floor(U(0, hi)): 1/hi per integer, the last one hi − floor(hi)
    cells = int(np.ceil(hi))
    p = np.full(cells, 1 / hi)
    p[-1] = (hi - np.floor(hi)) / hi if hi % 1 else 1 / hi
    groups = np.linspace(0, cells, 21).astype(int)[:-1]  # 20 groups of integers
    observed = np.add.reduceat(np.bincount(first_pivots, minlength=cells), groups)
    assert chi2_p(observed, np.add.reduceat(p, groups)) > P_MIN


def test_free_pivots_keep_their_distance_while_space_is_free():
    rng = np.random.default_rng(7)
    for _ in range(300):
        p = free_pivots(4, 0.0, 100.0, 5.0, rng)  # 4 × 10 < 100: always room
        d = np.abs(p[:, None] - p[None, :])[np.triu_indices(4, 1)]
        assert np.all(d >= 5.0)
    # second pivot: uniform over [0, 100) minus the first one's ±5 (density 1/90 there)
    seconds, firsts = [], []
    for _ in range(3000):
        p = free_pivots(2, 0.0, 100.0, 5.0, rng)
        firsts.append(p[0])
        seconds.append(p[1])
    assert stats.kstest(firsts, stats.uniform(0, 100).cdf).pvalue > P_MIN
    # given the first pivot x, P(second < t) = |[0, t) \ (x − 5, x + 5)| / |[0, 100) \ …|
    firsts, seconds = np.array(firsts), np.array(seconds)
    free_total = 100 - (np.minimum(firsts + 5, 100) - np.maximum(firsts - 5, 0))
    cut = np.clip(np.minimum(seconds, firsts + 5) - np.maximum(firsts - 5, 0), 0, None)
    u = (seconds - cut) / free_total  # probability integral transform: U(0, 1)
    assert stats.kstest(u, "uniform").pvalue > P_MIN
    # no room at all: uniform over the span
    q = free_pivots(3, 0.0, 10.0, 20.0, rng)
    assert np.all((q >= 0) & (q < 10))


def test_shuffle_rotates_observed_annotators_by_real_pivots():
    c = reference()
    lo, hi = c.bounds
    span = hi - lo
    shifts, sources = [], []
    for s in samples(shuffle_sample, c, 2000, seed=8):
        src, shift = identify(c, s, 0)
        sources.append(src)
        offset = np.mod(shift, span)
        assert np.allclose(offset, offset[0])  # one circular rotation per annotator
        shifts.append(offset[0] / span)
    assert chi2_p(np.bincount(sources, minlength=3), [1 / 3] * 3) > P_MIN
    assert stats.kstest(shifts, "uniform").pvalue > P_MIN


@pytest.mark.parametrize("sampler", sorted(SAMPLERS))
def test_every_sampler_keeps_annotators_and_categories(sampler):
    c = reference()
    for s in samples(SAMPLERS[sampler], c, 20, seed=9):
        assert list(s.annotators) == list(c.annotators)
        assert list(s.categories) == list(c.categories)
        assert s.n_units > 0 and np.all(s.end > s.start)


@pytest.mark.parametrize("sampler", ["gamma-software", "pygamma"])
def test_annotator_without_units_never_gives_an_empty_sample(sampler):
    # c places nothing; gamma-software draws again when every sampled annotator took
    # c's units (probability 1/27), pygamma gives its first annotator at least 1 unit
    c = Continuum.from_codes([0, 0, 0, 1, 1], [0, 1, 0, 0, 1], [0, 20, 40, 1, 21],
                             [10, 30, 50, 10, 30], ["a", "b", "c"], ["x", "y"])
    runs = samples(SAMPLERS[sampler], c, 300, seed=10)
    assert all(s.n_units > 0 and s.n_annotators == 3 for s in runs)
    assert any(0 in s.units_per_annotator() for s in runs)  # c's 0 is drawn


def test_pygamma_sampler_refuses_point_units_instead_of_looping():
    # pygamma redraws lengths below 1e-6; with only zero-length units it never ends
    from iaa_widgets.errors import AgreementError
    c = Continuum.from_codes([0, 1], [0, 0], [1, 1], [1, 1], ["a", "b"], ["x"])
    with pytest.raises(AgreementError, match="length 0"):
        pygamma_sample(c, np.random.default_rng(0))
