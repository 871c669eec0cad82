"""Altair charts of results (iaa_widgets.charts), made without a kernel."""
from __future__ import annotations

import altair as alt
import numpy as np
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, AgreementResult, Annotations
from iaa_widgets import charts
from iaa_widgets.results import Charted

MEYER = [[2, 2], [1, 5]]  # Meyer's tutorial, "Chance-corrected Measures: Example"


def test_result_chart_is_an_altair_chart_with_the_numbers(tmp_path):
    r = iaa.cohen_kappa(Annotations.from_contingency(MEYER))
    ch = r.chart()
    assert isinstance(ch, alt.Chart)
    spec = ch.to_dict()  # validates against the Vega-Lite schema
    rows = next(iter(spec["datasets"].values()))
    ends = {row["quantity"]: row["end"] for row in rows}
    assert ends["observed A_o"] == pytest.approx(0.7)
    assert ends["expected A_e"] == pytest.approx(0.54)
    assert ends["cohen_kappa"] == r.value
    assert any(row["kind"] == "interval" for row in rows) == (r.ci is not None)
    ch.save(tmp_path / "kappa.html")
    assert "iaaVega.embed" in (tmp_path / "kappa.html").read_text(encoding="utf-8")


def test_charts_save_offline_html_by_default_and_png_with_vl_convert(tmp_path):
    # a saved page carries the package's own vega bundle: no CDN, no extra dependency
    ch = iaa.cohen_kappa(Annotations.from_contingency(MEYER)).chart()
    ch.save(tmp_path / "kappa.html")
    page = (tmp_path / "kappa.html").read_text(encoding="utf-8")
    assert "<script src=" not in page and "iaaVega.embed" in page
    ch.save(tmp_path / "cdn.html", inline=False)  # Altair's page, loading vega from a CDN
    assert 'src="https://cdn.jsdelivr.net/npm/vega@' in (tmp_path / "cdn.html").read_text()
    # with the "export" extra (vl-convert-python): a PNG
    pytest.importorskip("vl_convert")
    ch.save(tmp_path / "kappa.png")
    assert (tmp_path / "kappa.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_alpha_chart_uses_disagreement_names():
    r = iaa.krippendorff_alpha(Annotations.from_contingency(MEYER))
    quantities = [row["quantity"] for row in next(iter(r.chart().to_dict()["datasets"].values()))]
    assert quantities[:2] == ["observed D_o", "expected D_e"]


def test_per_category_chart():
    r = iaa.specific_agreement(Annotations.from_contingency(MEYER, ["high", "low"]),
                               positive="high")
    rows = next(iter(charts.per_category_chart(r).to_dict()["datasets"].values()))
    # two-annotator specific agreement 2 n_cc / (n_c,r1 + n_c,r2): high 4/7, low 10/13
    assert [row["category"] for row in rows] == ["high", "low"]
    assert [row["value"] for row in rows] == pytest.approx([4 / 7, 10 / 13])
    with pytest.raises(AgreementError, match="per-category"):
        charts.per_category_chart(iaa.AgreementResult("x", 0.5, 0.7, 0.4, 10, 2, 20))


def test_contingency_rows_and_heatmap():
    df = charts.contingency_rows(np.array(MEYER), ["high", "low"])
    assert len(df) == 9
    assert df.query("kind == 'margin' and j == 2")["count"].tolist() == [4, 6]  # rows
    assert df.query("kind == 'margin' and i == 2")["count"].tolist() == [3, 7]  # columns
    assert df.query("diag")[["i", "j"]].values.tolist() == [[0, 0], [1, 1]]
    # a category called Σ does not merge with the marginals
    assert len(set(charts.contingency_rows(np.eye(2, dtype=int), ["Σ", "b"])["row"])) == 3
    assert isinstance(charts.contingency_heatmap(df), alt.LayerChart)
    charts.contingency_heatmap(df).to_dict()


def test_registry_dispatches_on_type():
    class Other:
        pass

    with pytest.raises(AgreementError, match="no chart for Other"):
        charts.chart_for(Other())

    @charts.register(Other)
    def other_chart(result):
        return alt.Chart().mark_point()

    try:
        assert isinstance(charts.chart_for(Other()), alt.Chart)
    finally:
        del charts._BUILDERS[Other]


# ------------------------------------------------------------------ every result type
def _rows(chart, name_part: str | None = None) -> list[list[dict]]:
    """The inline datasets of a chart's spec (all of them, or those whose first row has
    the column ``name_part``)."""
    sets = list(chart.to_dict()["datasets"].values())
    return [rows for rows in sets if name_part is None or (rows and name_part in rows[0])]


def test_sweep_result_chart_shows_the_curve_the_point_and_item_curves():
    from iaa_widgets.datasets import email_types
    ann = Annotations.from_long(email_types(), rank="rank")
    sweep = iaa.augmented_kappa_sweep(ann)
    item = sweep.items["item"].iloc[0]
    ch = sweep.chart(p=0.7, items=[item])
    assert isinstance(ch, alt.LayerChart)
    # the rule's point is κ′ at p = 0.7 by §5 directly (augmented_kappa), not the sweep
    direct = iaa.augmented_kappa(ann, p=0.7)
    point = next(r for r in _rows(ch, "label") if r[0]["p"] == 0.7)
    assert [r["value"] for r in point] == pytest.approx(
        [direct.value, direct.observed, direct.expected], abs=1e-12)
    curve = next(r for r in _rows(ch, "item"))
    assert [r["value"] for r in curve] == pytest.approx(
        sweep.item_curve(item)["kappa"].tolist(), abs=1e-12)


def test_spa_missingness_result_chart_counts_every_round():
    from iaa_widgets.datasets import crowd_labels
    res = iaa.spa_missingness(crowd_labels(n_items=300), 0.3, n_rounds=60, seed=1)
    ch = res.chart()
    bins = next(r for r in _rows(ch, "share"))
    assert sum(r["count"] for r in bins) == int(res.values.notna().to_numpy().sum())
    summary = next(r for r in _rows(ch, "full"))
    assert [r["full"] for r in summary] == pytest.approx(res.full.tolist(), abs=0)


def test_gamma_results_charts_show_every_coefficient_and_interval():
    from iaa_widgets.datasets import argument_units
    res = iaa.gamma_family(argument_units(), n_samples=4, seed=1)
    ch = res.chart()
    assert isinstance(ch, alt.VConcatChart)
    bars = next(r for r in _rows(ch, "kind"))
    per = res.gamma_k.per_category
    assert [r["name"] for r in bars] == ["γ", "γ_cat", *[f"γ_k: {k}" for k in per.index]]
    assert [r["value"] for r in bars] == pytest.approx(
        [res.gamma.value, res.gamma_cat.value, *per["value"]], abs=0)
    assert len(next(r for r in _rows(ch, "aligned_units"))) == res.alignment.continuum.n_units
    k_only = next(r for r in _rows(res.gamma_k.chart(), "kind"))
    assert [r["ci_low"] for r in k_only] == pytest.approx(per["ci_low"].tolist(), abs=0)
    assert isinstance(res.gamma.chart(), alt.Chart)  # an AgreementResult


def test_bootstrap_result_chart_is_the_distribution_of_resamples():
    res = iaa.bootstrap(Annotations.from_contingency([[20, 5], [4, 30]]), "cohen_kappa",
                        n_resamples=300, seed=0)
    ch = res.chart()
    hist = next(r for r in _rows(ch, "count"))
    assert sum(r["count"] for r in hist) == int(np.isfinite(res.values).sum())
    marks = next(r for r in _rows(ch, "estimate"))[0]
    assert (marks["estimate"], marks["ci_low"], marks["ci_high"]) == (res.estimate, *res.ci)
    import dataclasses
    undefined = dataclasses.replace(res, values=np.full(5, np.nan))
    with pytest.raises(AgreementError, match="no bootstrap resample"):
        charts.chart_for(undefined)


def test_every_result_type_has_a_chart():
    from iaa_widgets.measures.augmented import AugmentedSweepResult
    from iaa_widgets.measures.continuum.gamma.coefficients import GammaFamilyResult, GammaKResult
    from iaa_widgets.measures.sparse.missing import SpaMissingnessResult
    from iaa_widgets.inference.bootstrap import BootstrapResult
    for cls in (AgreementResult, AugmentedSweepResult, GammaFamilyResult, GammaKResult,
                SpaMissingnessResult, BootstrapResult):
        assert charts._builder(cls) is not None, cls.__name__
        assert issubclass(cls, Charted), f"{cls.__name__} has no .chart()"


def test_identical_spa_curves_stay_visible():
    # under uniform labels "inv_var" and "edges" weigh alike (k ∝ n(n − 1), the closed
    # form of spa_item_variance): the inverse-variance lines are dashed, the others solid
    w = iaa.spa_weight_curves(6, schemes=list(charts.SPA_SCHEME_LABELS), n_classes=4,
                              class_probs=[0.4, 0.3, 0.2, 0.1])
    assert w["inv_var"].to_numpy() == pytest.approx(w["edges"].to_numpy(), abs=1e-12)
    scale = charts.spa_weights_chart(charts.spa_weight_rows(w)).to_dict()[
        "encoding"]["strokeDash"]["scale"]
    dash = dict(zip(scale["domain"], scale["range"]))
    assert dash[charts.SPA_SCHEME_LABELS["edges"]] == [1, 0]
    assert dash[charts.SPA_SCHEME_LABELS["inv_var"]] != [1, 0]
