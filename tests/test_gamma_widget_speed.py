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


def test_widget_aligns_the_observed_continuum_once_per_request(small, monkeypatch):
    calls = []
    real = alignment.best_alignment

    def counted(c, dis=alignment.Dissimilarity()):
        calls.append(c.n_units)
        return real(c, dis)
    from iaa_widgets.measures.continuum.gamma import coefficients
    monkeypatch.setattr(coefficients, "best_alignment", counted)
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
