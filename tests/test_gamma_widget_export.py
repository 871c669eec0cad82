"""GammaExplorer's static page (issue 42): the positional and categorical weight sliders
switch among states that Python computed at export, each holding γ, γ_cat and every
category's γ_k; over the budget, a slider stays disabled and the page says why.
Expected values: gamma_family (Mathet et al. 2015; Mathet 2017) with the state's weights
and the widget's seed and samples, in this process. Data: a seeded synthetic continuum
(iaa_widgets.continuum.random_continuum). The grid is cut to three values per slider
to keep the test fast (the page's logic does not depend on its length)."""
from __future__ import annotations

import json
import re

import pytest

import iaa_widgets as iaa
from iaa_widgets.continuum import random_continuum
from iaa_widgets.widgets import gamma as gamma_widget


def _live(page: str) -> dict:
    return json.loads(re.search(r'id="iaa-states">(.*?)</script>', page, re.S).group(1))


def _summaries(value):
    """Every saved ``summary`` and the ``gamma_bars`` beside it, wherever the page keeps
    them (format of export.precomputed_states)."""
    if isinstance(value, dict):
        if "summary" in value:
            yield value["summary"], value.get("_datasets", {}).get("gamma_bars")
        for v in value.values():
            yield from _summaries(v)
    elif isinstance(value, list):
        for v in value:
            yield from _summaries(v)


@pytest.fixture(scope="module")
def small():
    return random_continuum(3, 8, seed=4)


def test_weight_sliders_switch_among_states_python_computed(small, monkeypatch):
    monkeypatch.setattr(gamma_widget, "EXPORT_GRID", (0.5, 1.0, 1.5))
    w = iaa.GammaExplorer(small, n_samples=4, seed=2)
    try:
        w.wait(60)
        live = _live(w.to_html())
        assert w.status["state"] == "done" and w.alpha == 1.0 and w.beta == 1.0
    finally:
        w.close()
    assert [c["name"] for c in live["controls"]] == ["alpha", "beta"]
    assert live["dropped"] == []
    seen = set()
    for summary, bars in _summaries(live):
        a, b = summary["params"]["alpha"], summary["params"]["beta"]
        expected = iaa.gamma_family(small, alpha=a, beta=b, n_samples=4, seed=2,
                                    progress=False)
        assert summary["gamma"] == pytest.approx(expected.gamma.value, abs=1e-12)
        assert summary["gamma_cat"] == pytest.approx(expected.gamma_cat.value, abs=1e-12)
        k = {r["name"]: r["value"] for r in bars}
        for cat, value in expected.gamma_k.values.items():  # every category's γ_k
            assert k[f"γ_k: {cat}"] == pytest.approx(value, abs=1e-12, nan_ok=True)
        seen.add((a, b))
    assert seen == {(0.5, 1.0), (1.5, 1.0), (1.0, 0.5), (1.0, 1.5)}


def test_over_the_budget_the_sliders_stay_disabled_and_the_page_says_why(small, monkeypatch):
    monkeypatch.setattr(gamma_widget, "EXPORT_GRID", (0.5, 1.0))
    w = iaa.GammaExplorer(small, n_samples=4, seed=2)
    try:
        w.wait(60)
        page = w.to_html(budget=len(w.to_html(budget=0)) + 100)
    finally:
        w.close()
    live = _live(page)
    assert live["controls"] == []
    assert [d["controls"] for d in live["dropped"]] == ["positional weight",
                                                        "categorical weight"]
    assert "Not saved, to keep the page within" in page
