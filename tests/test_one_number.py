"""One number per coefficient (issue 29, item 6): a measure's value comes from one pass
through its Statistic, and its interval is cut to the coefficient's range by the result
itself, which the chart, the report and the widgets then read as it is.

Expected numbers: Cohen's κ and its standard error on the 2 × 2 table [[2, 0], [1, 1]]
from statsmodels' ``cohens_kappa`` (an independent implementation of Fleiss, Cohen &
Everitt 1969): κ = 0.5, se = 0.375, 95 % interval [−0.2350, 1.2350], the interval the
issue saw printed; the others are recomputed here from the measure's own Statistic."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations
from iaa_widgets.measures import _formulas
from iaa_widgets.measures.categorical import classic, gwet
from iaa_widgets.results import AgreementResult

KAPPA_TABLE = [[2, 0], [1, 1]]


def _kappa():
    return iaa.cohen_kappa(Annotations.from_contingency(KAPPA_TABLE))


def test_the_result_carries_the_cut_interval_and_says_so():
    from statsmodels.stats.inter_rater import cohens_kappa
    peer = cohens_kappa(np.array(KAPPA_TABLE))
    r = _kappa()
    assert r.value == pytest.approx(peer.kappa, abs=1e-12)
    assert r.se == pytest.approx(peer.std_kappa, abs=1e-12)  # the uncut se stays
    assert r.ci_uncut == pytest.approx((peer.kappa_low, peer.kappa_upp), abs=1e-12)
    assert peer.kappa_upp > 1 and r.ci == (pytest.approx(peer.kappa_low, abs=1e-12), 1.0)
    assert "interval cut to the coefficient's range [−∞, 1]: it was [−0.2350, 1.2350]" \
        in r.note
    assert r.to_frame()["ci_high"].iloc[0] == 1.0


def test_an_interval_inside_the_range_is_left_alone():
    r = iaa.cohen_kappa(Annotations.from_contingency([[40, 3], [5, 30]]))
    assert r.ci_uncut is None and "interval cut" not in r.note
    z = 1.959963984540054  # scipy.stats.norm.ppf(0.975)
    assert r.ci == pytest.approx((r.value - z * r.se, r.value + z * r.se), abs=1e-12)


def test_a_copy_of_a_cut_result_is_not_cut_twice():
    from dataclasses import replace
    r = _kappa()
    again = replace(r, measure="cohen_kappa")
    assert again.ci == r.ci and again.ci_uncut == r.ci_uncut and again.note == r.note


def test_percent_agreement_is_cut_at_both_ends():
    # A_o lies in [0, 1]: 3 items, one agreement, Wald 1/3 ± 1.96 √(2/27) reaches −0.200
    r = iaa.percent_agreement(Annotations.from_contingency([[1, 1], [1, 0]]))
    assert r.ci_uncut[0] == pytest.approx(1 / 3 - 1.959963984540054 * (2 / 27) ** 0.5,
                                          abs=1e-12)
    assert r.ci[0] == 0.0 and "[0, 1]" in r.note


def test_a_result_of_no_registered_measure_is_not_cut():
    r = AgreementResult("my own score", 0.9, 0.9, 0.0, 10, 2, 20, ci=(0.5, 1.3))
    assert r.ci == (0.5, 1.3) and r.ci_uncut is None


def test_chart_report_and_widget_read_the_same_interval():
    r = _kappa()
    rows = [row for rows in r.chart().to_dict()["datasets"].values() for row in rows]
    drawn = next(row for row in rows if row["quantity"] == "interval")
    assert (drawn["start"], drawn["end"]) == r.ci
    from iaa_widgets import report
    ann = Annotations.from_contingency(KAPPA_TABLE)
    table = report.coefficient_table(report.coefficients(ann, n_resamples=0))
    row = table.set_index("coefficient").loc["cohen_kappa"]
    assert (row["analytic low"], row["analytic high"]) == r.ci
    assert row["cut"] == "analytic (it was [−0.2350, 1.2350])"
    assert "interval cut" not in row["note"]  # said once, in the cut column
    w = iaa.ContingencyMatrix(KAPPA_TABLE)
    shown = next(row for row in w.coefficients if row["key"] == "cohen_kappa")
    assert tuple(shown["ci"]) == r.ci


# --------------------------------------------------- one pass through the Statistic
ONE_PASS = [(gwet.gwet_ac1, {}), (gwet.gwet_ac2, {"weights": "linear"}),
            (classic.bennett_s, {}), (classic.fleiss_kappa, {}),
            (classic.fleiss_kappa, {"weights": "quadratic"}),
            (classic.davies_fleiss_kappa, {}), (classic.percent_agreement, {}),
            (classic.specific_agreement, {"positive": 1})]


def _ratings(seed):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, 40)
    x = np.where(rng.random((40, 4)) < 0.7, truth[:, None], rng.integers(0, 3, (40, 4)))
    x = np.where(rng.random((40, 4)) < 0.15, -1, x)  # holes: missing="available"
    items, raters = np.nonzero(x >= 0)
    return pd.DataFrame({"item": items, "annotator": raters, "label": x[items, raters]})


@pytest.mark.parametrize("measure, kwargs", ONE_PASS,
                         ids=[f"{m.__name__}-{k}" for m, k in ONE_PASS])
def test_value_is_its_statistics_finish_from_one_preparation(measure, kwargs, monkeypatch):
    data = _ratings(3)
    if measure is classic.specific_agreement:
        data = data.assign(label=(data["label"] > 0).astype(int))
    missing = "available" if "available" in iaa.coefficients().set_index("name").loc[
        measure.__name__, "missing"] else "listwise"
    kwargs = {**kwargs, "missing": missing}
    calls = {"prepare": 0, "item_terms": 0, "_statistic": 0}
    module = gwet if measure.__module__ == gwet.__name__ else classic

    def counted(name, fn):
        def call(*args, **kw):
            calls[name] += 1
            return fn(*args, **kw)
        return call
    monkeypatch.setattr(module, "prepare", counted("prepare", module.prepare))
    monkeypatch.setattr(module, "_statistic", counted("_statistic", module._statistic))
    monkeypatch.setattr(_formulas, "item_terms", counted("item_terms", _formulas.item_terms))
    result = measure(data, **kwargs)
    # prepared once, its item terms computed once, and the Statistic made of them is
    # what the value is finished from (not a second formula beside it)
    assert calls == {"prepare": 1, "item_terms": 1, "_statistic": 1}
    monkeypatch.undo()
    stat = measure.statistic(data, **kwargs)
    tot = stat.total()
    value = stat.finish({k: v[None] for k, v in tot.items()})[0][0]
    assert result.value == float(value)  # the very number, not a second computation
