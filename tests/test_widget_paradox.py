"""ParadoxExplorer (issue 41) without a browser: its table is the one A_o, PI and BI
determine, its numbers are the measure functions' on that table, the published paradox
tables come out of the sliders, and an infeasible index is cut with a visible note
(tests/browser/test_paradox_browser.py runs it in JupyterLab).

Sources of the expected numbers:
- tables A and B (A_o = 0.85) and their κ 0.70 / 0.32 and κ's A_e 0.50 / 0.78: Feinstein &
  Cicchetti (1990), as reproduced in Gerstman, *Epidemiology Kept Simple*, Table 10.6;
- AC1 0.70 / 0.81 on A and B, and tables C and D (A_o = 0.60) with κ 0.13 / 0.26 and AC1
  0.27 / 0.21: BMC Medical Research Methodology 14:100 (2014), Table 3, scenarios 1, 2, 4
  and 5 (the values notebook 07 checks);
- PI = (a − d)/n, BI = (b − c)/n, PABAK = 2A_o − 1 and κ = (PABAK − PI² + BI²)/(1 − PI² +
  BI²): Byrt, Bishop & Carlin (1993), J Clin Epidemiol 46(5), 423–429 (signed; the
  identity needs only their squares, so it holds for either sign convention).
"""
from __future__ import annotations

import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations
from iaa_widgets.errors import AgreementError

CATS = ["yes", "no"]


def shown(w) -> dict:
    return {r["key"]: r["value"] for r in w.coefficients}


def test_numbers_are_the_measures_on_the_table():
    w = iaa.ParadoxExplorer()  # A_o 0.85, PI 0.75, BI 0.05: Feinstein & Cicchetti's table B
    assert w.matrix == [[80, 10], [5, 5]]
    ann = Annotations.from_contingency(w.matrix, categories=CATS)
    values = shown(w)
    for name in ("percent_agreement", "bennett_s", "scott_pi", "cohen_kappa", "gwet_ac1",
                 "krippendorff_alpha"):
        assert values[name] == getattr(iaa, name)(ann).value
        assert w.result[name].value == values[name]
    specific = iaa.specific_agreement(ann, positive="yes").params
    assert (values["p_pos"], values["p_neg"]) == (specific["positive_agreement"],
                                                  specific["negative_agreement"])
    # the bar chart's rows are the panel's numbers
    assert [r["value"] for r in w._datasets["paradox_values"]] == list(values.values())
    # published values of table B (module docstring)
    assert round(values["cohen_kappa"], 2) == 0.32
    assert round(w.result["cohen_kappa"].expected, 2) == 0.78
    assert round(values["gwet_ac1"], 2) == 0.81
    assert values["bennett_s"] == pytest.approx(2 * 0.85 - 1)  # PABAK


@pytest.mark.parametrize("observed, prevalence, bias, table, kappa, ac1", [
    (0.85, -0.05, 0.03, [[40, 9], [6, 45]], 0.70, 0.70),    # table A (Gerstman 10.6)
    (0.60, 0.30, -0.10, [[45, 15], [25, 15]], 0.13, 0.27),  # table C (BMC 14:100)
    (0.60, -0.10, 0.30, [[25, 35], [5, 35]], 0.26, 0.21),   # table D (BMC 14:100)
])
def test_sliders_reach_the_published_tables(observed, prevalence, bias, table, kappa, ac1):
    w = iaa.ParadoxExplorer(observed=observed)
    w.prevalence, w.bias = prevalence, bias
    assert w.matrix == table and w.error == "" and w.notes == []
    assert w.indices == pytest.approx({"observed": observed, "prevalence": prevalence,
                                       "bias": bias, "n": 100})
    assert (round(shown(w)["cohen_kappa"], 2), round(shown(w)["gwet_ac1"], 2)) == (kappa, ac1)


def test_kappa_follows_byrt_bishop_carlin():
    # at fixed A_o, κ = (PABAK − PI² + BI²)/(1 − PI² + BI²) (Byrt et al. 1993): κ falls
    # as |PI| grows (first paradox) and rises with |BI| (second paradox)
    w = iaa.ParadoxExplorer(observed=0.8, prevalence=0.0, bias=0.0, n=200)
    kappas = []
    for pi, bi in [(0.0, 0.0), (0.3, 0.0), (0.6, 0.0), (0.6, 0.1), (-0.6, -0.2)]:
        w.prevalence, w.bias = pi, bi
        i = w.indices
        assert (i["prevalence"], i["bias"]) == pytest.approx((pi, bi))
        pabak = 2 * i["observed"] - 1
        expected = (pabak - pi ** 2 + bi ** 2) / (1 - pi ** 2 + bi ** 2)
        kappas.append(shown(w)["cohen_kappa"])
        assert kappas[-1] == pytest.approx(expected, abs=1e-12)
        assert shown(w)["bennett_s"] == pytest.approx(pabak, abs=1e-12)  # S never moves
    assert kappas[0] > kappas[1] > kappas[2] < kappas[3] < kappas[4]


def test_infeasible_index_is_cut_with_a_note():
    w = iaa.ParadoxExplorer(observed=0.85)
    w.prevalence = 0.95  # |PI| ≤ A_o: a − d cannot exceed the 85 agreements
    assert w.matrix == [[85, 10], [5, 0]] and w.error == ""
    assert w.indices["prevalence"] == pytest.approx(0.85)
    assert len(w.notes) == 1 and "PI +0.95" in w.notes[0] and "0.85" in w.notes[0]
    w.bias = -0.4  # |BI| ≤ 1 − A_o
    assert w.matrix == [[85, 0], [15, 0]] and "BI -0.40" in w.notes[1]
    w.prevalence, w.bias = 0.75, 0.05
    assert w.notes == []
    # A_o = 1 and every rating "yes": π, κ and α are 0/0, reported as NaN with a note
    w.observed, w.prevalence = 1.0, 1.0
    assert w.matrix == [[100, 0], [0, 0]] and shown(w)["cohen_kappa"] is None
    assert any(n.startswith("κ (Cohen): expected agreement is 1") for n in w.notes)


def test_rounding_to_whole_items_is_said():
    w = iaa.ParadoxExplorer(observed=0.85, prevalence=0.0, bias=0.0, n=30)
    assert sum(w.matrix[i][i] for i in range(2)) == 26  # ⌊25.5⌉
    assert "26 agreements" in w.notes[0]
    assert w.indices["observed"] == pytest.approx(26 / 30)


def test_bad_input_is_refused():
    with pytest.raises(AgreementError, match="prevalence"):
        iaa.ParadoxExplorer(prevalence=1.5)
    with pytest.raises(AgreementError, match="observed"):
        iaa.ParadoxExplorer(observed=-0.1)
    with pytest.raises(AgreementError, match="n must be"):
        iaa.ParadoxExplorer(n=0)
    with pytest.raises(AgreementError, match="categories must be a list of two labels"):
        iaa.ParadoxExplorer(categories=["yes", "yes"])
    with pytest.raises(AgreementError, match="annotators must be a list of two labels"):
        iaa.ParadoxExplorer(annotators=[1, "1"])  # look-alikes: one name as text
    w = iaa.ParadoxExplorer()
    w.bias = 2.0  # from Python past the slider: shown, the last good numbers kept
    assert "bias" in w.error and w.matrix == [[80, 10], [5, 5]]
    w.bias = 0.05
    assert w.error == ""


def test_labels_keep_their_identity():
    w = iaa.ParadoxExplorer(categories=["present", "absent"], annotators=["R1", "R2"])
    assert list(w.table.index) == ["present", "absent"] and w.table.index.name == "R1"
    assert w.result["specific_agreement"].params["positive_agreement"] == pytest.approx(
        2 * 80 / (2 * 80 + 15))  # p_pos of "present", the first category
