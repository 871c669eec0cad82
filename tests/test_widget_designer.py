"""StudyDesigner (issue 45 §5) without a browser: its designs are sample_size's numbers,
a slider out of range shows an error and keeps the last good numbers, and the pilot's
projection is se·√(n₀/n) (tests/browser/test_designer_browser.py runs it in JupyterLab)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.errors import AgreementError


def test_designs_follow_the_sliders():
    w = iaa.StudyDesigner(raters=2)
    assert [d["items"] for d in w.designs] == [
        iaa.sample_size(method="rotondi-ci", kappa0=0.6, kappa_low=0.5, kappa_high=0.7,
                        prevalence=0.3).n_items,
        iaa.sample_size(method="rotondi-power", kappa0=0.6, kappa1=0.8, prevalence=0.3).n_items,
        iaa.sample_size(method="percent", agreement=0.6 * 0.42 + 0.58, half_width=0.1).n_items,
        iaa.sample_size(method="cantor", kappa0=0.6, kappa1=0.8, prevalence=(0.3, 0.3)).n_items]
    w.kappa1 = 0.6  # κ₁ = κ₀: the power designs cannot say, and say why
    assert w.designs[1]["items"] is None and "differ" in w.designs[1]["why"]
    w.raters = 9
    assert "raters" in w.error and len(w.designs) == 4  # the last good numbers stay
    w.raters = 3
    assert w.error == "" and len(w.designs) == 3


def test_pilot_projection():
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 3, 120)
    labels = np.where(rng.random((120, 3)) < 0.7, truth[:, None], rng.integers(0, 3, (120, 3)))
    frame = pd.DataFrame(labels, columns=["a", "b", "c"]).rename_axis("item").reset_index() \
        .melt(id_vars="item", var_name="annotator", value_name="label")
    w = iaa.StudyDesigner(frame, "fleiss_kappa", n_resamples=200, half_width=0.05)
    p = w.pilot
    curve = w.curve()
    z = 1.959963984540054
    assert curve["half_width"].to_numpy() == pytest.approx(
        z * p["se"] * np.sqrt(120 / curve["items"].to_numpy()))
    assert w.designs[-1]["items"] == math.ceil(120 * (z * p["se"] / 0.05) ** 2)
    with pytest.raises(AgreementError, match="pilot data"):
        iaa.StudyDesigner().curve()
