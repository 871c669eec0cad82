"""Altair charts of results (iaa_widgets.charts), made without a kernel."""
from __future__ import annotations

import altair as alt
import numpy as np
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets import charts

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
    assert "vegaEmbed" in (tmp_path / "kappa.html").read_text()


def test_charts_export_offline_html_and_png(tmp_path):
    # with the "export" extra (vl-convert-python): a self-contained page, no CDN, and a PNG
    pytest.importorskip("vl_convert")
    ch = iaa.cohen_kappa(Annotations.from_contingency(MEYER)).chart()
    ch.save(tmp_path / "kappa.html", inline=True)
    page = (tmp_path / "kappa.html").read_text()
    assert "<script src=" not in page and "vegaEmbed" in page
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
