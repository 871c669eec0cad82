"""ContingencyMatrix and the widget base, Python side (the browser side is in
tests/browser/). Expected coefficients come from Meyer's tutorial (seeds/meyer-tutorial-
inter-rater-agreement.txt, "Chance-corrected Measures: Example" and "Agreement by
Chance") as exact fractions, or from the measure functions on the same table."""
from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
import traitlets

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets.stats import pair_contingencies
from iaa_widgets.widgets._base import IAAWidget, chart_spec, guarded, json_safe

MEYER = [[2, 2], [1, 5]]  # rows r2 (high, low), columns r1


def test_meyer_example_coefficients():
    w = iaa.ContingencyMatrix(MEYER, categories=["high", "low"])
    r = w.result
    # Meyer: A_o = 7/10; S = (0.7 − 0.5)/(1 − 0.5) = 0.4
    assert r["percent_agreement"].value == pytest.approx(0.7, abs=1e-15)
    assert r["bennett_s"].value == pytest.approx(0.4, abs=1e-15)
    # Meyer: A_e^π = ((3+4)² + (6+7)²)/(4·10²) = 218/400, π = 0.341 (printed, rounded)
    pi = (Fraction(7, 10) - Fraction(218, 400)) / (1 - Fraction(218, 400))
    assert r["scott_pi"].value == pytest.approx(float(pi), abs=1e-15)
    # Meyer: A_e^κ = (3·4 + 6·7)/10² = 0.54, κ = 0.16/0.46 = 0.348 (printed, rounded)
    assert r["cohen_kappa"].value == pytest.approx(float(Fraction(16, 46)), abs=1e-15)
    assert r["krippendorff_alpha"].value == iaa.krippendorff_alpha(
        Annotations.from_contingency(MEYER)).value
    assert list(r["specific_agreement"].per_category.index) == ["high", "low"]
    keys = [row["key"] for row in w.coefficients]
    assert keys == ["percent_agreement", "bennett_s", "scott_pi", "cohen_kappa",
                    "krippendorff_alpha"]
    assert w.coefficients[0]["ci"] == list(r["percent_agreement"].ci)


def test_chance_table_gives_zero():
    # Meyer, "Agreement by Chance": 45 in every cell → A_o = 0.5, S = π = κ = 0
    w = iaa.ContingencyMatrix([[45, 45], [45, 45]])
    assert w.result["percent_agreement"].value == pytest.approx(0.5)
    for key in ("bennett_s", "scott_pi", "cohen_kappa"):
        assert w.result[key].value == pytest.approx(0.0, abs=1e-15)


def test_matrix_set_from_python_recomputes():
    w = iaa.ContingencyMatrix(MEYER, categories=["high", "low"], editable=True)
    new = np.array([[2, 2], [1, 9]])
    w.matrix = new
    assert w.matrix == new.tolist()
    assert w.result["cohen_kappa"].value == iaa.cohen_kappa(
        Annotations.from_contingency(new)).value
    cells = pd.DataFrame(w._datasets["cells"])
    assert cells.query("kind == 'cell'")["count"].tolist() == [2, 2, 1, 9]
    assert cells.query("kind == 'total'")["count"].tolist() == [14]
    assert w.table.loc["low", "low"] == 9


def test_set_table_changes_categories():
    w = iaa.ContingencyMatrix(MEYER, categories=["high", "low"])
    w.set_table(pd.DataFrame([[3, 0, 1], [0, 2, 0], [1, 0, 4]], index=list("xyz")))
    assert w.categories == ["x", "y", "z"]
    assert w.result["cohen_kappa"].value == iaa.cohen_kappa(
        Annotations.from_contingency([[3, 0, 1], [0, 2, 0], [1, 0, 4]])).value


def test_bad_matrix_from_python_raises():
    w = iaa.ContingencyMatrix(MEYER)
    with pytest.raises(AgreementError, match="non-negative"):
        w.matrix = [[1, -1], [0, 2]]
    with pytest.raises(AgreementError, match="square"):
        w.matrix = [[1, 2, 3]]


def test_observer_error_is_shown_then_cleared():
    w = iaa.ContingencyMatrix(MEYER)
    w.matrix = [[0, 0], [0, 0]]
    assert "holds no items" in w.error and "AgreementError" in w.error
    assert "Traceback" in w.error_traceback
    assert w.result["cohen_kappa"].value == pytest.approx(16 / 46)  # last valid state kept
    w.matrix = MEYER
    assert w.error == "" and w.error_traceback == ""


def test_construction_errors_raise():
    with pytest.raises(AgreementError, match="square"):
        iaa.ContingencyMatrix([[1, 2, 3]])
    with pytest.raises(AgreementError, match="annotator identities"):
        iaa.ContingencyMatrix(Annotations.from_counts([[2, 1], [0, 3]]))
    with pytest.raises(AgreementError, match="tidy table"):
        iaa.ContingencyMatrix(pd.DataFrame({"rater": ["a", "b"], "value": [1, 2],
                                            "x": [0, 1]}))


LONG = pd.DataFrame({
    "item": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5],
    "annotator": ["ann", "bob", "cat"] * 4 + ["ann", "cat"],
    "label": ["a", "a", "b", "b", "b", "b", "a", "b", "a", "c", "c", "a", "c", "c"],
})


def test_long_dataframe_and_pair_selection():
    ann = Annotations.from_long(LONG)
    w = iaa.ContingencyMatrix(LONG)
    assert w.annotators == ["ann", "bob", "cat"] and w.pair == [0, 1]
    assert w.matrix == pair_contingencies(ann, pairs=[[0, 1]])[0].tolist()
    w.pair = [0, 2]  # what the selector in the widget does
    assert w.matrix == pair_contingencies(ann, pairs=[[0, 2]])[0].tolist()
    assert w.result["cohen_kappa"].value == iaa.cohen_kappa(
        ann.select_annotators(["ann", "cat"])).value
    w.pair = [1, 1]
    assert "two different annotators" in w.error
    by_name = iaa.ContingencyMatrix(ann, pair=("bob", "cat"))
    assert by_name.pair == [1, 2]


def test_state_is_plain_json():
    w = iaa.ContingencyMatrix([[5, 0], [0, 0]], categories=["x", "y"])  # κ is NaN here
    state = w.get_state()
    json.dumps({k: v for k, v in state.items() if k not in ("_esm", "_css")},
               allow_nan=False)
    kappa = next(r for r in w.coefficients if r["key"] == "cohen_kappa")
    assert kappa["value"] is None
    assert any("κ (Cohen)" in note for note in w.notes)


def test_labels_travel_as_given_text():
    xss = '<img src=x onerror="window.__pwned=1">'
    w = iaa.ContingencyMatrix([[3, 1], [2, 4]], categories=[xss, "ok"])
    assert w.categories == [xss, "ok"]
    assert w.per_category["rows"][0][0] == xss
    assert {row["row"] for row in w._datasets["cells"]} >= {xss, "ok"}


def test_spec_declares_named_datasets_without_rows():
    w = iaa.ContingencyMatrix(MEYER)
    spec = w._specs["heatmap"]
    assert spec["datasets"] == {"cells": []}
    assert len(w._datasets["cells"]) == 9  # 2×2 cells + 2 + 2 marginals + total


def test_guarded_and_json_safe_helpers():
    class Probe(IAAWidget):
        x = traitlets.Int(0).tag(sync=True)

        @traitlets.observe("x")
        @guarded
        def _on_x(self, change):
            if change["new"] < 0:
                raise ValueError("x must be ≥ 0")

    p = Probe()
    p.x = -1
    assert p.error == "ValueError: x must be ≥ 0"
    p.x = 2
    assert p.error == ""
    assert json_safe({"a": np.float64("nan"), "b": np.int64(3), 4: (np.bool_(True),)}) == \
        {"a": None, "b": 3, "4": [True]}
    import altair as alt
    spec = chart_spec(alt.Chart(alt.NamedData("rows")).mark_point().encode(x="v:Q"))
    assert spec["datasets"] == {"rows": []}


def fresh_python(code: str) -> str:
    """What ``code`` prints in a new interpreter (nothing imported by other tests)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_import_stays_light():
    assert fresh_python("import sys, iaa_widgets; print(sorted(m for m in ('anywidget', "
                        "'altair', 'ipywidgets') if m in sys.modules))") == "[]"


def test_lazy_names_resolve_and_are_listed():
    import iaa_widgets as iaa
    for name in iaa._LAZY:
        assert getattr(iaa, name).__name__ == name
        assert name in dir(iaa)
    with pytest.raises(AttributeError, match="no_such_measure"):
        iaa.no_such_measure


def test_submodules_are_attributes_without_an_import():
    assert fresh_python("import iaa_widgets as iaa; print(callable(iaa.datasets.email_types), "
                        "callable(iaa.charts.chart_for), 'datasets' in dir(iaa))") == \
        "True True True"
