"""Precomputed states of the remaining widgets' static pages (issue 42): ParadoxExplorer,
StudyDesigner and SparseAgreementExplorer. Each saved state must hold what the measure
functions give at that control's value (called here directly, not through the widget),
and beyond the budget every group left out is named. The pages themselves are driven
in Chromium by tests/browser/test_export_browser.py."""
from __future__ import annotations

import json

import numpy as np
import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations
from iaa_widgets.datasets import email_types
from iaa_widgets.html import script_json
from iaa_widgets.widgets.export import precomputed_states, widget_state
from iaa_widgets.widgets.paradox import paradox_table


def _state(live, saved, **values):
    """The state saved for the controls at ``values`` (the others at their value in
    ``saved``, the widget's state), as the page shows it: the saved state with the
    state's diff and its controls' values over it."""
    names = live["names"]
    for key, k in live["states"]:
        if all(key[names.index(n)] == pytest.approx(v) for n, v in values.items()) and all(
                n in values or key[j] == saved[n] for j, n in enumerate(names)):
            return {**saved, **(live["diffs"][k] if k >= 0 else {}), **dict(zip(names, key))}
    raise KeyError(values)


def _live(widget, budget=5_000_000):
    widget.wait()
    before = widget_state(widget)
    live = precomputed_states(widget, budget)
    # the widget came back to its saved state (but its count of recomputations)
    volatile = set(getattr(widget, "_export_volatile", ()))
    assert {k: v for k, v in widget_state(widget).items() if k not in volatile} == \
        {k: v for k, v in before.items() if k not in volatile}
    return before, live


@pytest.fixture(scope="module")
def paradox():
    w = iaa.ParadoxExplorer(n=20)
    yield w, *_live(w)
    w.close()


def _kappa(table):
    # Cohen's κ of the table's own items (the measure function, not the widget)
    return iaa.cohen_kappa(Annotations.from_contingency(np.asarray(table), ["yes", "no"],
                                                        ["A", "B"])).value


@pytest.mark.parametrize("values", [{"prevalence": -0.4}, {"prevalence": 0.93},
                                    {"bias": 0.1}, {"bias": -1.0},
                                    {"prevalence": 0.2, "bias": -0.1}])
def test_paradox_states_are_the_tables_measures(paradox, values):
    w, before, live = paradox
    s = _state(live, before, **values)
    at = {"prevalence": w.prevalence, "bias": w.bias, **values}
    table, notes = paradox_table(w.observed, at["prevalence"], at["bias"], w.n)
    assert s["matrix"] == table.tolist() and s["notes"][:len(notes)] == notes
    kappa = next(r["value"] for r in s["coefficients"] if r["key"] == "cohen_kappa")
    assert kappa == pytest.approx(_kappa(table), abs=1e-12)


def test_paradox_grids(paradox):
    _, _, live = paradox
    assert [c["name"] for c in live["controls"]] == ["prevalence", "bias"]
    assert all(len(c["values"]) == 201 for c in live["controls"])  # every slider step
    assert live["dropped"] == []
    # tables that the rounding makes equal share a diff
    assert len(live["diffs"]) < len(live["states"])


def test_designer_states_are_sample_sizes():
    w = iaa.StudyDesigner()
    try:
        before, live = _live(w)
        assert [c["name"] for c in live["controls"]] == [
            "half_width", "kappa0", "kappa1", "prevalence", "raters", "confidence"]
        for values in ({"kappa0": 0.72}, {"raters": 4}, {"kappa0": 0.4, "kappa1": 0.65}):
            s = _state(live, before, **values)
            at = {n: getattr(w, n) for n in live["names"]} | values
            # Donner & Rotondi's interval design, from iaa.sample_size itself
            n = iaa.sample_size(method="rotondi-ci", kappa0=at["kappa0"],
                                kappa_low=at["kappa0"] - at["half_width"],
                                kappa_high=at["kappa0"] + at["half_width"],
                                prevalence=at["prevalence"], raters=at["raters"],
                                significance=1 - at["confidence"]).n_items
            assert s["designs"][0]["items"] == n
            test = iaa.sample_size(method="rotondi-power", kappa0=at["kappa0"],
                                   kappa1=at["kappa1"], prevalence=at["prevalence"],
                                   raters=at["raters"], significance=1 - at["confidence"])
            assert s["designs"][1]["items"] == test.n_items
    finally:
        w.close()


def test_sparse_drop_states_are_spa_missingness():
    long = email_types()
    long = long[(long["rank"] == 1) & long["item"].isin(long["item"].unique()[:40])]
    w = iaa.SparseAgreementExplorer(long, n_rounds=20, seed=3)
    try:
        before, live = _live(w)
        assert [c["name"] for c in live["controls"]] == ["drop"]
        assert len(live["controls"][0]["values"]) == 96  # 0 … 0.95 by 0.01
        for drop in (0.0, 0.37, 0.95):
            s = _state(live, before, drop=drop) if drop != w.drop else before
            ref = iaa.spa_missingness(Annotations.from_long(long), drop, n_rounds=20,
                                      seed=3).summary()
            for row in s["summary"]:
                assert row["mean"] == pytest.approx(ref.loc[row["scheme"], "mean"], abs=1e-12)
                assert row["sd"] == pytest.approx(ref.loc[row["scheme"], "sd"], abs=1e-12)
    finally:
        w.close()


@pytest.mark.parametrize("make, groups", [
    (lambda: iaa.ParadoxExplorer(n=20),
     ["prevalence index", "bias index", "prevalence index × bias index"]),
    (lambda: iaa.StudyDesigner(),
     ["target half-width", "κ₀", "κ₁", "prevalence", "raters", "confidence", "κ₀ × κ₁"]),
])
def test_beyond_the_budget_the_groups_left_out_are_named(make, groups):
    w = make()
    try:
        _, live = _live(w, budget=1)
        assert live["controls"] == [] and live["states"] == []
        assert [d["controls"] for d in live["dropped"]] == groups
    finally:
        w.close()


def test_a_budget_keeps_the_first_groups_whole(paradox):
    # a budget for PI's states (their keys and distinct diffs, as precomputed_states
    # counts them) and 100 bytes more: PI stays live, BI and PI × BI are named
    w, before, full = paradox
    pi = [(key, k) for key, k in full["states"] if key[1] == before["bias"]]
    assert len(pi) == 200  # the 201 steps but the saved one
    budget = sum(len(json.dumps(key)) + len(str(k)) + 4 for key, k in pi) + sum(
        len(script_json(full["diffs"][k]).encode()) + 1 for k in {k for _, k in pi}) + 100
    live = precomputed_states(w, budget + len(script_json({"states": [], "diffs": []})))
    assert [c["name"] for c in live["controls"]] == ["prevalence"]
    assert len(live["controls"][0]["values"]) == 201
    assert [d["controls"] for d in live["dropped"]] == ["bias index",
                                                        "prevalence index × bias index"]
