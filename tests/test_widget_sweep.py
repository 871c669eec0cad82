"""AugmentedKappaSweep without a browser: the widget's numbers are the measure
functions' (augmented_kappa at p, §5 computed directly; augmented_kappa_sweep with δ
and τ for the classes), and AugmentedSweepResult.with_classes redraws the classes
exactly as a fresh sweep with those thresholds does. Data: the seeded synthetic email
corpus (iaa_widgets.datasets.email_types), three annotators."""
from __future__ import annotations

import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations, AgreementError
from iaa_widgets.datasets import email_types


@pytest.fixture(scope="module")
def emails() -> Annotations:
    return Annotations.from_long(email_types(), rank="rank")


@pytest.mark.parametrize("delta, tau", [(0.0, 0.5), (0.1, 0.5), (0.3, 0.2), (0.05, 0.9)])
def test_with_classes_equals_a_fresh_sweep(emails, delta, tau):
    base = iaa.augmented_kappa_sweep(emails)
    fresh = iaa.augmented_kappa_sweep(emails, delta=delta, tau=tau)
    moved = base.with_classes(delta, tau)
    pd.testing.assert_frame_equal(moved.items, fresh.items)
    assert moved.params["delta"] == delta and moved.params["tau"] == tau
    pd.testing.assert_frame_equal(moved.curve, base.curve)


def test_with_classes_rejects_bad_thresholds(emails):
    with pytest.raises(AgreementError, match="delta"):
        iaa.augmented_kappa_sweep(emails).with_classes(-0.1, 0.5)


def test_widget_numbers_are_the_measure_functions(emails):
    w = iaa.AugmentedKappaSweep(emails, p=0.7)
    direct = iaa.augmented_kappa(emails, p=0.7)                 # §5, step by step
    assert w.result.value == pytest.approx(direct.value, abs=1e-12)
    w.p = 0.93
    direct = iaa.augmented_kappa(emails, p=0.93)
    assert w.result.value == pytest.approx(direct.value, abs=1e-12)
    assert w.summary["p_e"] == pytest.approx(direct.expected, abs=1e-12)
    kx = direct.items.set_index("item")["kappa"]
    assert w.item_kappa.to_numpy() == pytest.approx(kx.to_numpy(), abs=1e-12)
    w.delta, w.tau = 0.25, 0.3
    fresh = iaa.augmented_kappa_sweep(emails, delta=0.25, tau=0.3)
    counts = {r["key"]: r["count"] for r in w.classes}
    assert counts == {k: int(v) for k, v in fresh.items["class"].value_counts().items() if v}
    w.selected_class = "constant_low"
    table = w.class_items()
    assert list(table["item"]) == list(fresh.items.loc[fresh.items["class"] == "constant_low",
                                                       "item"])
    assert w.class_table["total"] == len(table)
    w.pair = 2                                                   # B × C
    pair = iaa.augmented_kappa(emails.select_annotators(["B", "C"]), p=0.93)
    assert w.result.value == pytest.approx(pair.value, abs=1e-12)
    assert list(w.class_items().columns[-2:]) == ["B", "C"]


def test_widget_errors_are_shown_not_raised(emails):
    w = iaa.AugmentedKappaSweep(emails)
    w.p = 1.5
    assert "p must be a finite number in [0.5, 1]" in w.error
    w.p = 0.5
    assert w.error == ""
    w.selected_class = "nonsense"
    assert "selected_class" in w.error


def test_labels_are_text_per_annotator():
    df = pd.DataFrame({"item": [1, 1, 1, 2, 2], "annotator": ["a", "a", "b", "a", "b"],
                       "label": ["x", "y", "x", "y", "y"], "rank": [1, 2, 1, 1, 1]})
    w = iaa.AugmentedKappaSweep(df, rank="rank")
    table = pd.concat([w.class_items(c) for c in ("constant_high", "constant_low",
                                                  "higher_at_p1", "higher_at_p05")])
    row = table.set_index("item").loc[1]
    assert row["a"] == "x / y" and row["b"] == "x" and row["case"] == "{ab,a}"
