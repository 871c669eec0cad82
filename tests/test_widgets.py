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
from iaa_widgets.measures.benchmarking import benchmark
from iaa_widgets.measures.categorical.gwet import gwet_ac1
from iaa_widgets.stats import pair_contingencies
from iaa_widgets.widgets._base import IAAWidget, chart_spec, guarded
from iaa_widgets.widgets._json import json_safe

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
    assert keys == ["percent_agreement", "bennett_s", "scott_pi", "cohen_kappa", "gwet_ac1",
                    "krippendorff_alpha"]
    # Gwet's AC1 (2008): π_high = (3/10 + 4/10)/2 = 7/20, p_e = 2·(7/20)(13/20) = 182/400,
    # AC1 = (7/10 − 182/400)/(1 − 182/400) = 98/218
    assert r["gwet_ac1"].value == pytest.approx(float(Fraction(98, 218)), abs=1e-15)
    panel = {row["key"]: row for row in w.coefficients}
    assert panel["gwet_ac1"]["value"] == pytest.approx(float(Fraction(98, 218)), abs=1e-15)
    assert panel["gwet_ac1"]["expected"] == pytest.approx(182 / 400, abs=1e-15)


def brute_jackknife_se(measure, table) -> float:
    """The delete-one jackknife se by brute force: the table expanded into one row per
    item, each item left out in turn, the public measure function on the n − 1 rows."""
    first, second = np.nonzero(np.ones_like(table))
    cells = np.repeat(np.arange(len(first)), np.ravel(table))
    values = []
    for drop in range(len(cells)):
        kept = np.delete(cells, drop)
        df = pd.DataFrame({"item": np.repeat(np.arange(len(kept)), 2),
                           "annotator": np.tile(["A", "B"], len(kept)),
                           "label": np.ravel(np.column_stack([first[kept], second[kept]]))})
        values.append(measure(Annotations.from_long(df, categories=[0, 1, 2][:len(table)]))
                      .value)
    values = np.array(values)
    n = len(values)
    return float(np.sqrt((n - 1) / n * np.sum((values - values.mean()) ** 2)))


def test_panel_interval_is_result_ci_of_the_unedited_table():
    # one number per coefficient: the panel shows the interval the measure function gives
    # (result.ci), κ's asymptotic one, AC1's Student-t one, ...; α, which has none, the
    # Wald interval of its delete-one jackknife, named so
    table = np.array([[4, 2, 0], [1, 6, 1], [0, 2, 3]])
    w = iaa.ContingencyMatrix(table)
    panel = {row["key"]: row for row in w.coefficients}
    ann = Annotations.from_contingency(table)
    for key, measure in (("cohen_kappa", iaa.cohen_kappa), ("gwet_ac1", gwet_ac1),
                         ("percent_agreement", iaa.percent_agreement),
                         ("bennett_s", iaa.bennett_s), ("scott_pi", iaa.scott_pi)):
        own = measure(ann)  # the measure function itself, not the widget's result
        assert panel[key]["ci"] == list(own.ci), key
        assert panel[key]["se"] == own.se and panel[key]["ci_method"] == own.ci_method
        assert tuple(panel[key]["ci"]) == w.result[key].ci
    alpha = panel["krippendorff_alpha"]
    se = brute_jackknife_se(iaa.krippendorff_alpha, table)
    z = 1.959963984540054  # the standard normal's 97.5 % quantile (scipy.stats.norm.ppf)
    assert alpha["se"] == pytest.approx(se, abs=1e-12)
    assert alpha["ci"] == pytest.approx([alpha["value"] - z * se, alpha["value"] + z * se],
                                        abs=1e-12)
    assert alpha["ci_method"].startswith("jackknife Wald 95%") and \
        "no analytic interval" in alpha["ci_method"]
    assert w.result["krippendorff_alpha"].ci is None


def test_panel_interval_stays_in_the_coefficients_range_and_says_so():
    # 12 items, A_o = 0.75: AC1's Student-t interval AC1 ± t_11·se and α's jackknife Wald
    # interval reach above 1 (the uncut bounds computed here from se); both are cut at 1,
    # as the results cut theirs, and the notes give what they were
    w = iaa.ContingencyMatrix([[5, 1], [2, 4]], categories=["a", "b"])
    panel = {row["key"]: row for row in w.coefficients}
    from scipy.stats import t as student
    ac1 = panel["gwet_ac1"]
    high = ac1["value"] + student.ppf(0.975, 11) * ac1["se"]  # Gwet (2014): t, n − 1 df
    assert high > 1 and ac1["ci"][1] == 1.0
    assert w.result["gwet_ac1"].ci_uncut[1] == pytest.approx(high, abs=1e-12)
    alpha = panel["krippendorff_alpha"]
    assert alpha["value"] + 1.959963984540054 * alpha["se"] > 1 and alpha["ci"][1] == 1.0
    assert any(n.startswith("AC1 (Gwet): interval cut to the coefficient's range (it was")
               for n in w.notes)
    assert any(n.startswith("α (Krippendorff, nominal): interval cut") for n in w.notes)
    # A_o's Wald interval below 0 is cut at 0: 3 items, A_o = 1/3, se = √(2/27) = 0.272
    tiny = iaa.ContingencyMatrix([[1, 1], [1, 0]], categories=["a", "b"])
    a_o = {row["key"]: row for row in tiny.coefficients}["percent_agreement"]
    assert a_o["se"] == pytest.approx((2 / 27) ** 0.5, abs=1e-12)
    assert a_o["value"] - 1.959963984540054 * a_o["se"] < 0 and a_o["ci"][0] == 0.0
    assert a_o["ci"] == list(tiny.result["percent_agreement"].ci)


@pytest.mark.parametrize("seed", range(6))
def test_finish_on_the_table_equals_the_measure_functions(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    table = rng.integers(0, 40, (k, k)) * (rng.random((k, k)) < 0.7) + np.diag(
        rng.integers(0, 60, k))
    if seed == 0:
        table[0, :] = table[:, 0] = 0  # a category nobody used
    w = iaa.ContingencyMatrix(table, categories=[f"c{c}" for c in range(k)])
    panel = {row["key"]: row for row in w.coefficients}
    for key, result in w.result.items():  # the measure functions on the same table
        if key == "specific_agreement":
            continue
        expected = result.expected if result.scale == "agreement" else 1 - result.expected
        for got, want in ((panel[key]["value"], result.value),
                          (panel[key]["expected"], expected)):
            if want is None or np.isnan(want):
                assert got is None, key
            else:
                assert got == pytest.approx(want, abs=1e-12), key
    per_cat = w.result["specific_agreement"].per_category
    shown = pd.DataFrame(w.per_category["rows"], columns=w.per_category["columns"])
    np.testing.assert_array_equal(shown["agreements"], per_cat["agreements"])
    np.testing.assert_array_equal(shown["opportunities"], per_cat["opportunities"])
    np.testing.assert_allclose(shown["specific agreement"].astype(float),
                               per_cat["specific_agreement"], atol=1e-12)


def test_benchmark_bands_of_kappa_and_ac1():
    # Feinstein & Cicchetti (1990), first paradox, table B: 80, 10 / 5, 5
    w = iaa.ContingencyMatrix([[80, 10], [5, 5]], categories=["yes", "no"])
    panel = {row["key"]: row for row in w.coefficients}
    for key in ("cohen_kappa", "gwet_ac1"):
        row = panel[key]
        b = benchmark(row["value"], se=row["se"], scale="landis-koch")
        assert row["band"]["band"] == b.band
        assert row["band"]["probability"] == pytest.approx(b.probability, abs=1e-12)
        assert [name for name, _ in row["band"]["bands"]] == list(b.table.index)
        np.testing.assert_allclose([p for _, p in row["band"]["bands"]],
                                   b.table["probability"], atol=1e-12)
    assert panel["percent_agreement"]["band"] is None  # A_o is not chance-corrected
    assert panel["cohen_kappa"]["band"]["band"] != panel["gwet_ac1"]["band"]["band"]
    w.scale = "krippendorff"
    kappa = next(r for r in w.coefficients if r["key"] == "cohen_kappa")
    assert kappa["band"]["band"] == benchmark(kappa["value"], se=kappa["se"],
                                              scale="krippendorff").band
    w.scale = "cohen"
    assert "scale must be one of" in w.error
    with pytest.raises(AgreementError, match="scale must be"):
        iaa.ContingencyMatrix(MEYER, scale="lk")


def test_an_edit_never_goes_back_to_rows(monkeypatch):
    # the measures run on the k² cells of the table (from_contingency), never on one row
    # per item, and α's Statistic is built once per set of categories
    w = iaa.ContingencyMatrix(MEYER, editable=True)

    def refuse(*args, **kwargs):
        raise AssertionError("an edit must not expand the table into rows nor rebuild "
                             "a Statistic")
    from iaa_widgets.widgets import contingency
    monkeypatch.setattr(contingency.Annotations, "expanded", refuse)
    monkeypatch.setattr(contingency.Annotations, "from_long", refuse)
    for coefficient in contingency._COEFFICIENTS.values():
        monkeypatch.setattr(coefficient.measure, "statistic", refuse)
    w.matrix = [[200_000, 3], [5, 90_000]]
    assert w.error == ""
    kappa = next(r for r in w.coefficients if r["key"] == "cohen_kappa")
    monkeypatch.undo()
    expected = iaa.cohen_kappa(Annotations.from_contingency([[200_000, 3], [5, 90_000]]))
    assert kappa["value"] == expected.value and kappa["ci"] == list(expected.ci)


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
    w.wait()  # the spec follows the numbers (widgets/_base.py, draw_later)
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


@pytest.mark.parametrize("frame", [
    pd.DataFrame({"a": [1.0, np.nan, np.inf, -np.inf], "b": [1, 2, 3, 4],
                  "c": ["x", None, "<b>", "z"], "d": [True, False, True, False]}),
    pd.DataFrame({"u": np.array([1, 2, 3], dtype=np.uint8),
                  "f32": np.array([1.5, np.nan, 2], dtype=np.float32), 5: ["a", "b", "c"],
                  "t": pd.to_datetime(["2020-01-01", None, "2021-05-05"]),
                  "o": [np.float64(1.5), np.int64(2), (1, np.nan)]}),
    pd.DataFrame({"n": pd.array([1, None, 3], dtype="Int64"),
                  "cat": pd.Categorical(["a", None, "a"])}),
    pd.DataFrame(index=[0, 1]), pd.DataFrame()],
    ids=["numpy", "mixed", "extension", "no-columns", "empty"])
def test_json_safe_rows_are_pandas_records_made_safe(frame):
    # the column-wise conversion of a DataFrame gives exactly what pandas' own
    # to_dict("records") gives after json_safe, value types included
    ours = json_safe(frame)
    reference = [json_safe(r) for r in frame.to_dict(orient="records")]
    assert ours == reference
    assert [[type(v) for v in r.values()] for r in ours] == \
        [[type(v) for v in r.values()] for r in reference]


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


def test_each_model_loads_a_small_loader_and_the_bundle_travels_once_keyed():
    # anywidget rejects a model whose module takes over 2 s to load (and then drops
    # Python's messages to it): the module is the loader, the bundle a traitlet keyed by
    # its content so the page imports it once (js/src/loader.js)
    from iaa_widgets.widgets._base import STATIC

    a = iaa.ContingencyMatrix([[3, 1], [2, 4]])
    b = iaa.ContingencyMatrix([[5, 0], [1, 4]])
    assert a._esm == (STATIC / "loader.js").read_text() and len(a._esm) < 4096
    assert a._bundle == (STATIC / "widgets.js").read_text(encoding="utf-8")
    assert a._bundle_id == b._bundle_id and len(a._bundle_id) == 16
    assert {"_bundle", "_bundle_id"} <= set(a.trait_names(sync=True))
