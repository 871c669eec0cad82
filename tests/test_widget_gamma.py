"""GammaExplorer and the progress hook of gamma_family without a browser: the widget's
γ, γ_cat and γ_k are gamma_family's for the same parameters and seed (Mathet et al.
2015; Mathet 2017); a progress callback changes nothing in the result and can stop a
computation. Data: seeded synthetic continua (iaa_widgets.continuum.random_continuum)."""
from __future__ import annotations

import time

import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.continuum import random_continuum


class Stop(Exception):
    pass


@pytest.fixture(scope="module")
def small():
    return random_continuum(3, 12, seed=4)


def test_progress_reports_every_sample_and_changes_nothing(small):
    calls = []
    with_progress = iaa.gamma_family(small, n_samples=6, seed=3,
                                     progress=lambda d, n: calls.append((d, n)))
    plain = iaa.gamma_family(small, n_samples=6, seed=3)
    assert calls == [(0, 6)] + [(k, 6) for k in range(1, 7)]
    assert with_progress.gamma.value == plain.gamma.value
    assert with_progress.gamma_cat.value == plain.gamma_cat.value
    pd.testing.assert_frame_equal(with_progress.gamma_k.per_category,
                                  plain.gamma_k.per_category)


def test_an_exception_in_progress_stops_the_computation(small):
    seen = []

    def stop_after_two(done, wanted):
        seen.append(done)
        if done >= 2:
            raise Stop

    with pytest.raises(Stop):
        iaa.gamma_family(small, n_samples=30, seed=3, progress=stop_after_two)
    assert seen == [0, 1, 2]


def test_sampling_intervals_follow_the_expected_disorder(small):
    # 1 − δ_o / (δ_e ∓ 1.96 s/√N), s over the per-sample disorders (Mathet 2015, §5.3)
    res = iaa.gamma_family(small, n_samples=12, seed=5)
    g = res.gamma
    hw = g.precision * g.expected                       # relative half-width × δ_e
    assert g.ci == pytest.approx((1 - g.observed / (g.expected - hw),
                                  1 - g.observed / (g.expected + hw)), rel=1e-12)
    assert g.ci[0] <= g.value <= g.ci[1]
    assert res.gamma_cat.ci[0] <= res.gamma_cat.value <= res.gamma_cat.ci[1]
    per = res.gamma_k.per_category
    ok = per["value"].notna() & per["ci_low"].notna()
    assert ((per.loc[ok, "ci_low"] <= per.loc[ok, "value"])
            & (per.loc[ok, "value"] <= per.loc[ok, "ci_high"])).all()
    assert ok.any()


def test_family_result_carries_its_best_alignment(small):
    from iaa_widgets.measures.continuum.gamma.alignment import best_alignment
    res = iaa.gamma_family(small, n_samples=3, seed=1, alpha=2.0)
    from iaa_widgets.measures.continuum.gamma.dissimilarity import Dissimilarity
    again = best_alignment(small, Dissimilarity(2.0, 1.0, 1.0))
    assert res.alignment.disorder == pytest.approx(again.disorder, abs=1e-12)
    assert res.alignment.disorder == res.gamma.observed
    assert (res.alignment.members >= 0).sum() == small.n_units   # every unit placed once


def test_widget_result_is_gamma_family_and_requests_do_not_queue(small):
    w = iaa.GammaExplorer(small, n_samples=5, seed=2)
    try:
        first = w.wait(60)
        assert first.gamma.value == iaa.gamma_family(small, n_samples=5, seed=2).gamma.value
        for a in (1.5, 2.0, 2.5, 3.0):          # four requests in a row: only the newest counts
            w.alpha = a
        res = w.wait(60)
        expected = iaa.gamma_family(small, alpha=3.0, n_samples=5, seed=2)
        assert res.gamma.params["alpha"] == 3.0
        assert res.gamma.value == expected.gamma.value
        assert w.summary["gamma"] == expected.gamma.value
        assert w.status["state"] == "done" and w.status["generation"] == 5
        w.delta_empty = 0.0
        with pytest.raises(iaa.AgreementError, match="delta_empty"):
            w.wait(10)
        assert "delta_empty" in w.error
        w.delta_empty = 1.0
        assert w.wait(60).gamma.params["delta_empty"] == 1.0 and w.error == ""
    finally:
        w.close()


def test_a_newer_request_cancels_a_running_computation():
    c = random_continuum(4, 60, seed=1)
    w = iaa.GammaExplorer(c, n_samples=200, seed=0)
    try:
        deadline = time.time() + 60
        while w.status.get("state") != "sampling" and time.time() < deadline:
            time.sleep(0.02)
        w.n_samples = 3                          # the 200-sample run must stop
        t0 = time.perf_counter()
        res = w.wait(60)
        assert time.perf_counter() - t0 < 20
        assert res.gamma.n_samples == 3 and w.status["cancelled"] >= 1
    finally:
        w.close()


def test_widget_takes_a_sampler_and_a_precision_and_reports_the_reached_one(small):
    # precision 0.05: samples are drawn until the relative 95 % half-width of δ_e is at
    # most 5 % (Mathet et al. 2015, §5.3); the summary carries the reached value
    w = iaa.GammaExplorer(small, n_samples=5, seed=2, sampler="pygamma", precision=0.05)
    try:
        res = w.wait(120)
        expected = iaa.gamma_family(small, n_samples=5, seed=2, sampler="pygamma",
                                    precision=0.05)
        assert res.gamma.value == expected.gamma.value
        assert w.summary["precision"] == expected.gamma.precision <= 0.05
        assert w.summary["params"]["sampler"] == "pygamma"
        assert w.summary["params"]["precision_target"] == 0.05
    finally:
        w.close()
    with pytest.raises(iaa.AgreementError, match="sampler"):
        iaa.GammaExplorer(small, sampler="bootstrap")
    with pytest.raises(iaa.AgreementError, match="precision"):
        iaa.GammaExplorer(small, precision=2)


def _wait_for(predicate, timeout=60):
    deadline = time.time() + timeout
    while not predicate():
        assert time.time() < deadline, "timed out"
        time.sleep(0.01)


def test_the_note_on_stale_computations_clears_when_done():
    # status["stale"] counts the runs cancelled since the newest result (the page shows
    # "N stale computations cancelled" from it while busy); a finished result resets it,
    # while status["cancelled"] keeps counting since the widget was made
    w = iaa.GammaExplorer(random_continuum(4, 60, seed=1), n_samples=300, seed=0)
    try:
        _wait_for(lambda: w.status.get("state") == "sampling")
        assert w.status["stale"] == 0
        w.n_samples = 250                        # cancels the 300-sample run
        gen = w.status["generation"]
        _wait_for(lambda: w.status["state"] == "sampling" and w.status["generation"] == gen)
        assert w.status["stale"] == 1 and w.status["cancelled"] == 1
        w.n_samples = 3                          # cancels the 250-sample run, then finishes
        res = w.wait(60)
        assert res.gamma.n_samples == 3
        assert w.status["state"] == "done" and w.status["stale"] == 0
        assert w.status["cancelled"] == 2
    finally:
        w.close()


def test_the_status_after_a_result_is_done_however_slow_the_kernel_is(small):
    # "queued" is sent before the worker can take the request, so it can never arrive
    # after the "done" of the same request and leave the page saying "starting…".
    # The kernel's thread is made slow to send "queued" (0.2 s); before the fix the
    # worker finished meanwhile and the status stayed "queued".
    w = iaa.GammaExplorer(small, n_samples=2, seed=1)
    try:
        w.wait(60)
        send = w._set_status

        def slow_queued(state, *args, **kwargs):
            if state == "queued":
                time.sleep(0.2)
            send(state, *args, **kwargs)

        w._set_status = slow_queued
        for k in range(3):
            w.alpha = 1.5 + k
            w.wait(60)
            time.sleep(0.3)
            assert w.status["state"] == "done", (k, w.status)
            assert w.status["generation"] == k + 2
    finally:
        w.close()


def test_a_refused_value_marks_the_status_failed_not_busy():
    w = iaa.GammaExplorer(random_continuum(4, 60, seed=1), n_samples=300, seed=0)
    try:
        _wait_for(lambda: w.status.get("state") == "sampling")
        w.delta_empty = 0.0                      # refused: the running computation is stale
        assert w.status["state"] == "failed" and "delta_empty" in w.error
        time.sleep(1.0)                          # the stale run stops at its next sample
        assert w.status["state"] == "failed"     # … and reports nothing more
        w.n_samples, w.delta_empty = 3, 1.0
        assert w.wait(60).gamma.params["delta_empty"] == 1.0
        assert w.status["state"] == "done" and w.status["stale"] == 0 and w.error == ""
    finally:
        w.close()


def test_the_weights_are_named_for_what_they_do():
    # α and β of d = α·d_pos + β·d_cat (Mathet et al. 2015, §4.2.4): the traits keep the
    # names gamma_family takes; their help says which weight each is
    assert "positional weight" in iaa.GammaExplorer.alpha.help
    assert "categorical weight" in iaa.GammaExplorer.beta.help


def test_continuum_x_scale_spans_the_units_before_any_link_exists(small):
    # links and empty units have no rows until γ is computed: the x scale's domain is
    # explicit (first start, last end of the continuum), not the extent of layers that
    # may be empty (Vega warns "Infinite extent" for those, issue 35)
    from iaa_widgets.charts import gamma_continuum_chart, gamma_unit_rows
    w = iaa.GammaExplorer(small, n_samples=4, seed=1)
    try:
        x = w._specs["continuum"]["layer"][0]["encoding"]["x"]
        assert x["scale"]["domain"] == [float(small.start.min()), float(small.end.max())]
    finally:
        w.close()
    # a chart from rows takes its domain from the units' rows
    units = gamma_unit_rows(small)
    spec = gamma_continuum_chart(units, units.iloc[:0], units.iloc[:0], ["a"]).to_dict()
    assert spec["layer"][0]["encoding"]["x"]["scale"]["domain"] == \
        [units["start"].min(), units["end"].max()]


@pytest.mark.parametrize("interval", [0.0, 60.0])
def test_progress_messages_at_most_every_progress_seconds(small, monkeypatch, interval):
    # every sample is reported to gamma_family's progress hook; the page gets a message
    # for each only with PROGRESS_SECONDS = 0; with a minute, one for the start of the
    # sampling, one when the quick estimate is shown and the final "done"
    from iaa_widgets.widgets import gamma as gamma_widget
    monkeypatch.setattr(gamma_widget, "PROGRESS_SECONDS", interval)
    monkeypatch.setattr(gamma_widget, "QUICK_AFTER_SECONDS", 0)  # an estimate every time
    w = iaa.GammaExplorer(small, n_samples=12, seed=1)
    try:
        w.wait(60)
        seen = []
        w.observe(lambda ch: seen.append((ch["new"]["state"], ch["new"]["done"],
                                          ch["new"].get("estimate"))), "status")
        w.alpha = 1.5
        w.wait(60)
        sampling = [s for s in seen if s[0] == "sampling"]
        if interval:
            assert sampling == [("sampling", 0, None), ("sampling", 4, 4)]
        else:
            assert [d for _, d, _ in sampling] == list(range(13))
        assert seen[-1] == ("done", 12, None)
    finally:
        w.close()
