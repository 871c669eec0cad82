"""GammaExplorer's quick estimate and final result from one run (issue 39): the estimate
is the result of its first QUICK_SAMPLES samples, the final one gamma_family's for the
same parameters and seed, so no sample and no best alignment is computed twice.
Expected values: gamma_family itself (Mathet et al. 2015, γ = 1 − δ_o/δ_e) with
n_samples = QUICK_SAMPLES and with all samples, on a seeded synthetic continuum."""
from __future__ import annotations

import pytest

import iaa_widgets as iaa
from iaa_widgets.continuum import random_continuum
from iaa_widgets.measures.continuum.gamma import alignment
from iaa_widgets.widgets import gamma as gamma_widget


@pytest.fixture(scope="module")
def small():
    return random_continuum(3, 12, seed=4)


def test_estimate_is_the_result_of_the_first_samples_and_changes_nothing(small):
    seen = []
    full = iaa.gamma_family(small, alpha=1.5, n_samples=6, seed=3, progress=False,
                            estimate=(2, seen.append))
    two = iaa.gamma_family(small, alpha=1.5, n_samples=2, seed=3, progress=False)
    six = iaa.gamma_family(small, alpha=1.5, n_samples=6, seed=3, progress=False)
    assert len(seen) == 1
    assert seen[0].gamma.n_samples == 2
    assert seen[0].to_frame().equals(two.to_frame())
    assert full.to_frame().equals(six.to_frame())


@pytest.mark.parametrize("part", ["gamma", "gamma_cat", "gamma_k"])
def test_each_coefficient_passes_on_its_own_estimate(small, part):
    # gamma, gamma_cat and gamma_k take gamma_family's keywords (tests/test_registry.py):
    # their estimate is their own part of the family's, as with n_samples=2
    seen = []
    getattr(iaa, part)(small, n_samples=4, seed=3, progress=False, estimate=(2, seen.append))
    two = getattr(iaa, part)(small, n_samples=2, seed=3, progress=False)
    assert len(seen) == 1 and type(seen[0]) is type(two)
    assert seen[0].to_frame().equals(two.to_frame())


def test_widget_aligns_the_observed_continuum_once_per_request(small, monkeypatch):
    calls = []
    real = alignment._unit_types

    def counted(continua):  # every continuum aligned (best_alignment, best_alignments)
        calls.extend(c.n_units for c in continua)
        return real(continua)
    monkeypatch.setattr(alignment, "_unit_types", counted)
    monkeypatch.setattr(gamma_widget, "QUICK_AFTER_SECONDS", 0)  # an estimate every time
    w = gamma_widget.GammaExplorer(small, n_samples=8, seed=1)
    try:
        w.wait(60)
        shown, calls[:] = [], []
        w.observe(lambda ch: shown.append((ch["new"]["n_samples"], ch["new"]["gamma"])),
                  "summary")
        w.alpha = 1.5
        res = w.wait(60)
        # one observed alignment and one per sample (the estimate's 4 among the 8)
        assert len(calls) == 1 + 8
        quick = iaa.gamma_family(small, alpha=1.5, n_samples=4, seed=1, progress=False)
        full = iaa.gamma_family(small, alpha=1.5, n_samples=8, seed=1, progress=False)
        assert shown == [(4, quick.gamma.value), (8, full.gamma.value)]
        assert res.to_frame().equals(full.to_frame())
    finally:
        w.close()


def test_samples_aligned_together_give_each_sample_its_own_best_alignment(small):
    # best_alignments solves one block-diagonal program; each block's optimum is the
    # sample's own best alignment (best_alignment, exact: tests/test_gamma_alignment.py)
    from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity
    from iaa_widgets.measures.continuum.gamma.sampling import shuffle_sample
    import numpy as np
    dis = Dissimilarity(1.5, 1.0, 1.0)
    samples = [shuffle_sample(small, np.random.default_rng(s)) for s in range(8)]
    together = alignment.best_alignments(samples, dis)
    for sample, al in zip(samples, together):
        alone = alignment.best_alignment(sample, dis)
        assert al.disorder == pytest.approx(alone.disorder, rel=1e-12)
        assert np.array_equal(al.members, alone.members)


@pytest.mark.parametrize("alpha", [1.5, 0.0])  # 0: every window spans its whole continuum
def test_candidates_of_continua_at_once_are_each_continuums_own(small, alpha):
    # the samples overlap on the line; generated at once (group = sample), each sample's
    # candidate rows are exactly, and in the same order, those of that sample alone
    from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity
    from iaa_widgets.measures.continuum.gamma.sampling import shuffle_sample
    import numpy as np
    dis = Dissimilarity(alpha, 1.0, 1.0)
    samples = [shuffle_sample(small, np.random.default_rng(s)) for s in range(6)]
    reps, _, _, group = alignment._unit_types(samples)
    members, weights = alignment.candidate_alignments(reps, dis, group)
    row_group = group[members.max(axis=1)]
    first = np.searchsorted(group, np.arange(len(samples)))
    for g, sample in enumerate(samples):
        alone, _, _, _ = alignment._unit_types([sample])
        m, w = alignment.candidate_alignments(alone, dis)
        mine = row_group == g
        assert (members[mine] >= 0).sum() == (m >= 0).sum()
        assert np.array_equal(np.where(members[mine] >= 0, members[mine] - first[g], -1), m)
        assert np.array_equal(weights[mine], w)


def test_batches_do_not_change_the_rows(small, monkeypatch):
    # the same seeds give the same samples and rows, one at a time or in batches
    from iaa_widgets.measures.continuum.gamma import sampling
    one = iaa.gamma_family(small, n_samples=7, seed=5, progress=False)
    monkeypatch.setattr(sampling, "BATCH_UNITS", 50)   # several batches of a few samples
    few = iaa.gamma_family(small, n_samples=7, seed=5, progress=False,
                           estimate=(3, lambda first: None))
    monkeypatch.setattr(sampling, "BATCH_UNITS", 1)    # one sample per batch
    each = iaa.gamma_family(small, n_samples=7, seed=5, progress=False)
    assert one.to_frame().equals(few.to_frame()) and one.to_frame().equals(each.to_frame())


def test_one_solver_call_for_the_observed_continuum_and_the_first_samples(small, monkeypatch):
    # the observed continuum is aligned in the first batch's program (block diagonal, so
    # its own optimum: the same alignment as best_alignment alone), and a tail of less
    # than half a batch joins the batch before it: with batches of 100 units (a sample
    # of small has about 34), 8 samples make [observed + 4 for the estimate], then
    # 3 samples reach 100 units and the eighth (≈ 34 < 50) joins them: 2 solver calls,
    # not 3; gamma_family's result is unchanged
    from iaa_widgets.measures.continuum.gamma import sampling
    from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity
    calls = []
    real = alignment.best_alignments

    def counted(continua, dis=Dissimilarity()):
        calls.append(len(continua))
        return real(continua, dis)
    one = iaa.gamma_family(small, alpha=1.5, n_samples=8, seed=2, progress=False)
    monkeypatch.setattr(sampling, "BATCH_UNITS", 100)
    monkeypatch.setattr(alignment, "best_alignments", counted)
    from iaa_widgets.measures.continuum.gamma import coefficients
    monkeypatch.setattr(coefficients, "best_alignments", counted)
    res = iaa.gamma_family(small, alpha=1.5, n_samples=8, seed=2, progress=False,
                           estimate=(4, lambda first: None))
    assert calls == [1 + 4, 4]
    assert res.to_frame().equals(one.to_frame())
    alone = alignment.best_alignment(small, Dissimilarity(1.5))
    assert (res.alignment.members == alone.members).all()
