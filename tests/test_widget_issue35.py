"""Issue 35, the Python side of the widgets' front-end behaviour: a ContingencyMatrix
keeps each pair's edits across pair switches; AugmentedKappaSweep's ``tau_marks`` are
exactly the values of τ where the item classes change; SparseAgreementExplorer counts
its answers (the page shows it is working until one arrives), failed ones too;
GammaExplorer shows a quick estimate before the result of all its samples.

Expected values come from the measure functions in this process
(``pair_contingencies``, ``augmented_kappa_sweep`` with the thresholds, ``gamma_family``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.stats import pair_contingencies

DF = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],
                   "annotator": ["ann", "bob", "cat"] * 4,
                   "label": list("aabbbbabacca")})


def test_contingency_edits_stay_with_their_pair():
    w = iaa.ContingencyMatrix(DF, editable=True)
    ann = iaa.Annotations.from_long(DF)
    edited = np.array(w.matrix)
    edited[0, 0] += 5
    w.matrix = edited
    w.pair = [0, 2]  # the other pair's own table
    assert w.matrix == pair_contingencies(ann, pairs=[[0, 2]])[0].tolist()
    w.pair = [0, 1]  # the edit comes back with its pair, and so does its κ
    assert w.matrix == edited.tolist()
    assert w.result["cohen_kappa"].value == iaa.cohen_kappa(
        iaa.Annotations.from_contingency(edited)).value
    w.pair = [1, 1]  # refused: the pair and its edit stay as they were
    assert "two different annotators" in w.error
    w.pair = [0, 1]
    assert w.error == "" and w.matrix == edited.tolist()


def test_sweep_tau_marks_are_where_the_classes_change():
    from iaa_widgets.datasets import email_types
    data = email_types()
    w = iaa.AugmentedKappaSweep(data, rank="rank")
    marks = w.tau_marks
    assert marks == sorted(marks) and len(marks) >= 2
    ann = iaa.Annotations.from_long(data, rank="rank")

    def counts(tau):  # the measure function's classes at this τ
        return augmented(tau).value_counts().to_dict()

    def augmented(tau):
        return iaa.augmented_kappa_sweep(ann, delta=w.delta, tau=tau).items["class"]

    bounds = [-1.0, *[m for m in marks if -1 < m < 1], 1.0]
    for lo, hi in zip(bounds, bounds[1:]):  # between two marks nothing changes
        a, b = lo + (hi - lo) * 0.25, lo + (hi - lo) * 0.75
        if lo < a < b < hi:
            assert counts(a) == counts(b), (lo, hi)
    for m in marks:  # across each mark (inside [-1, 1]; marks are rounded to 1e-12)
        if -1 < m < 1:  # some item changes class
            assert counts(m - 1e-9) != counts(m + 1e-9), m


def test_sparse_answers_counted_failures_too():
    from iaa_widgets.datasets import crowd_labels
    w = iaa.SparseAgreementExplorer(crowd_labels(), n_rounds=10)
    start = w.answered
    w.drop = 0.3
    assert w.answered == start + 1 and w.error == ""
    w.drop = 1.5  # not a probability: refused, but answered
    assert w.error and w.answered == start + 2


def test_gamma_quick_estimate_then_all_samples(monkeypatch):
    from iaa_widgets.continuum import random_continuum
    from iaa_widgets.widgets import gamma
    from iaa_widgets.widgets.gamma import QUICK_SAMPLES
    monkeypatch.setattr(gamma, "QUICK_AFTER_SECONDS", 0)  # however fast the computation
    c = random_continuum(3, 12, seed=1)
    w = iaa.GammaExplorer(c, n_samples=QUICK_SAMPLES + 4, seed=1)
    seen = []
    w.observe(lambda ch: seen.append(ch["new"]["n_samples"]), "summary")
    try:
        w.wait(120)
        seen.clear()
        w.alpha = 2.0
        res = w.wait(120)
        assert seen[0] == QUICK_SAMPLES and seen[-1] == QUICK_SAMPLES + 4
        full = iaa.gamma_family(c, alpha=2.0, n_samples=QUICK_SAMPLES + 4, seed=1,
                                progress=False)
        assert res.gamma.value == pytest.approx(full.gamma.value, abs=1e-12)
        assert w.status["state"] == "done" and "estimate" not in w.status
    finally:
        w.close()


def test_gamma_no_quick_estimate_when_the_full_result_comes_soon(monkeypatch):
    # the first computation has no pace to go by: estimate, then all samples; the next
    # one is expected within QUICK_AFTER_SECONDS (an hour here): all samples at once
    from iaa_widgets.continuum import random_continuum
    from iaa_widgets.widgets import gamma
    monkeypatch.setattr(gamma, "QUICK_AFTER_SECONDS", 3600)
    w = iaa.GammaExplorer(random_continuum(3, 12, seed=1), n_samples=8, seed=1)
    seen = []
    w.observe(lambda ch: seen.append(ch["new"]["n_samples"]), "summary")
    try:
        w.wait(120)
        assert seen == [gamma.QUICK_SAMPLES, 8]
        seen.clear()
        w.alpha = 2.0
        w.wait(120)
        assert seen == [8]
    finally:
        w.close()
