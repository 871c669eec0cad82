"""Precomputed states of a static page (issue 42): the states a widget's page switches
among are the widget's own outputs for each control value, computed by Python at export
time; the page keeps them within its budget, in the widget's order of priority, and
names what it leaves out. The page itself is driven in Chromium by
tests/browser/test_export_browser.py."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets.datasets import email_types
from iaa_widgets.measures.augmented import augmented_kappa_sweep
from iaa_widgets.widgets.export import precomputed_states, widget_state

STATES = re.compile(r'<script type="application/json" id="iaa-states">(.*?)</script>', re.S)


def _small() -> Annotations:
    """The first 40 messages of the e-mail data (three annotators, secondary labels)."""
    long = email_types()
    return Annotations.from_long(long[long["item"].isin(long["item"].unique()[:40])],
                                 rank="rank")


@pytest.fixture(scope="module")
def sweep():
    w = iaa.AugmentedKappaSweep(_small())
    w.p = 0.8
    w.wait()  # (its charts are drawn on a thread)
    before = widget_state(w)
    page = w.to_html(budget=5_000_000)
    live = json.loads(STATES.search(page).group(1))
    live["saved"] = {n: before[n] for n in live["names"]}
    yield w, before, live, page
    w.close()


def _diff(live, key, k):
    """A saved state: its diff (shared with the states that show the same) and the
    values of its controls."""
    return {**(live["diffs"][k] if k >= 0 else {}), **dict(zip(live["names"], key))}


def _state(live, **values):
    """The state saved for the controls at ``values`` (the others at their saved value)."""
    names = live["names"]
    for key, k in live["states"]:
        if all(key[names.index(n)] == v for n, v in values.items()) and all(
                n in values or key[j] == live["saved"][n] for j, n in enumerate(names)):
            return _diff(live, key, k)
    raise KeyError(values)


def test_p_states_are_the_measure_at_each_p_of_the_grid(sweep):
    w, before, live, _ = sweep
    p = next(c for c in live["controls"] if c["name"] == "p")
    grid = augmented_kappa_sweep(_small()).curve["p"].tolist()  # the sweep's own grid
    assert p["values"] == grid and len(grid) == 51
    reference = augmented_kappa_sweep(_small())  # the measure itself, not the widget
    for value in (0.5, 0.65, 1.0):
        s = _state(live, p=value)["summary"]
        r = reference.at(value)
        assert s["p"] == value
        assert s["kappa"] == pytest.approx(r.value, abs=1e-12)
        assert s["p_a"] == pytest.approx(r.observed, abs=1e-12)
        assert s["p_e"] == pytest.approx(r.expected, abs=1e-12)
        # each class's mean κ_x at p: the mean of the measure's item κ_x over its items
        kx = reference.item_kappa(value).to_numpy()
        cls = reference.items["class"].to_numpy()
        for row in _state(live, p=value)["classes"]:
            assert row["mean_p"] == pytest.approx(np.nanmean(kx[cls == row["key"]]), abs=1e-12)


def test_pair_and_class_states(sweep):
    w, before, live, _ = sweep
    names = list(_small().annotators)
    pair0 = augmented_kappa_sweep(_small().select_annotators(names[:2])).at(0.8)
    assert _state(live, pair=0)["summary"]["kappa"] == pytest.approx(pair0.value, abs=1e-12)
    other = next(c["key"] for c in before["classes"] if c["key"] != before["selected_class"])
    table = _state(live, selected_class=other)["class_table"]
    assert table["class"] == other
    assert table["total"] == int((w.sweep.items["class"] == other).sum())
    # p with the class: both moved together
    both = _state(live, p=0.6, selected_class=other)
    assert both["summary"]["p"] == 0.6 and both["class_table"]["class"] == other


def test_the_widget_comes_back_to_its_saved_state(sweep):
    w, before, _, _ = sweep
    assert widget_state(w) == before and w.p == 0.8


def test_the_page_carries_its_states_within_its_budget(sweep):
    _, _, live, page = sweep
    assert len(page.encode("utf-8")) <= 5_000_000
    assert {c["name"] for c in live["controls"]} == {"p", "selected_class", "pair",
                                                      "delta", "tau"}
    assert live["dropped"] == [] and live["budget"] < 5_000_000  # (what the page left)


def test_beyond_a_tiny_budget_every_group_is_named():
    w = iaa.AugmentedKappaSweep(_small())
    try:
        live = precomputed_states(w, 1)
        assert live["controls"] == [] and live["states"] == []
        assert [d["controls"] for d in live["dropped"]] == [
            "p", "item class", "pair", "p × item class", "δ", "τ", "δ × τ"]
        # (one page of items: no pager)
    finally:
        w.close()


def test_a_group_is_kept_whole_in_order_of_priority(sweep):
    # a budget for the p slider's states but not for p with every class: p stays live,
    # "p × item class" is named among the groups left out
    w, _, full, _ = sweep
    saved = [full["saved"][n] for n in full["names"]]
    p_only = [s for s in full["states"] if sum(a != b for a, b in zip(s[0], saved)) == 1
              and s[0][0] != saved[0]]
    assert len(p_only) == 50  # the grid's 51 values but the saved one
    budget = sum(len(json.dumps(s, ensure_ascii=False).encode()) + 1 for s in p_only) + sum(
        len(json.dumps(full["diffs"][k], ensure_ascii=False).encode()) + 1
        for k in {k for _, k in p_only}) + 2_000
    live = precomputed_states(w, budget)
    assert "p" in {c["name"] for c in live["controls"]}
    assert "p × item class" in [d["controls"] for d in live["dropped"]]


def test_budget_is_checked():
    w = iaa.AugmentedKappaSweep(_small())
    try:
        for budget in ("5", -1, 2.5):
            with pytest.raises(AgreementError, match="to_html: budget must be"):
                w.to_html(budget=budget)
    finally:
        w.close()


def test_contingency_pair_states_are_each_pairs_measures():
    long = email_types()
    long = long[long["rank"] == 1]  # primary labels: one per annotator and item
    w = iaa.ContingencyMatrix(long)
    try:
        w.wait()  # (its charts are drawn on a thread)
        before = widget_state(w)
        live = precomputed_states(w, 5_000_000)
        assert widget_state(w) == before
        assert [c["name"] for c in live["controls"]] == ["pair"]
        assert len(live["states"]) == 5  # 3 × 2 ordered pairs but the saved one
        for (pair,), k in live["states"]:
            diff = _diff(live, [pair], k)
            names = [w.annotators[k] for k in pair]
            # Cohen's κ of that pair's own data (the measure function, not the widget)
            sub = Annotations.from_long(long[long["annotator"].isin(names)])
            kappa = iaa.cohen_kappa(sub.select_annotators(names)).value
            # (a pair and its swap share κ: the state then keeps the saved coefficients)
            shown = next(r for r in diff.get("coefficients", before["coefficients"])
                         if r["key"] == "cohen_kappa")
            assert shown["value"] == pytest.approx(kappa, abs=1e-12)
            assert diff["pair"] == pair
    finally:
        w.close()
