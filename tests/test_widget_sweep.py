"""AugmentedKappaSweep without a browser: the widget's numbers are the measure
functions' (augmented_kappa at p, §5 computed directly; augmented_kappa_sweep with δ
and τ for the classes), and AugmentedSweepResult.with_classes redraws the classes
exactly as a fresh sweep with those thresholds does. Data: the seeded synthetic email
corpus (iaa_widgets.datasets.email_types), three annotators."""
from __future__ import annotations

import numpy as np
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
