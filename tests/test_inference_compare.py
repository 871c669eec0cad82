"""iaa.compare (issue 45 §3): paired, independent and several groups.

Reference values:
- tests/fixtures/pairedcac/ttests.csv: Gwet's pairedCAC 1.0 (github kgwet/pairedCAC,
  commit ca6431c), its R files sourced as they are by tests/fixtures/pairedcac/ttests.R
  (R 4.2.2): ``ttest.fleiss``, ``ttest.conger``, ``ttest.ac2``, ``ttest.bp``,
  ``ttest.alpha``, ``ttest.pa`` on the package's ratings1/ratings2 (complete), with some
  ratings blanked (missing) and with every item pairable (pairable); rows
  "krippendorff_alpha_pe" run ``alpha.linear.i`` with p_e in place of Σπ_k (= 1) in
  p_e,i, as irrCAC 1.0's ``krippen.alpha.raw`` and the delta method have it.
- tests/fixtures/kaphom/homogeneity.out: kaphom 0.3 (github cran/kaphom, R/main.R)
  ``fleisshom`` and ``donnerhom`` on the counts of tests/fixtures/kaphom/homogeneity.R.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.errors import AgreementError

FIX = Path(__file__).parent / "fixtures"
FILES = {"complete": ("ratings1.csv", "ratings2.csv"),
         "missing": ("ratings1_missing.csv", "ratings2_missing.csv"),
         "pairable": ("ratings1_missing.csv", "ratings2_pairable.csv")}


def _long(name: str) -> pd.DataFrame:
    wide = pd.read_csv(FIX / "pairedcac" / name)
    wide.index = pd.RangeIndex(1, len(wide) + 1, name="item")
    return wide.stack().rename("label").reset_index().rename(columns={"level_1": "annotator"})


def _cases():
    ref = pd.read_csv(FIX / "pairedcac" / "ttests.csv")
    ref = ref[ref.se.notna()]  # pairedCAC leaves α's test NA when the pairable items differ
    # pairedCAC's α subtracts Σπ_k = 1 in p_e,i: equal to ours on complete data only
    ref = ref[(ref.measure != "krippendorff_alpha") | (ref.data == "complete")]
    return [r for _, r in ref.iterrows()]


@pytest.mark.parametrize("row", _cases(), ids=lambda r: f"{r.measure}-{r.data}-{r.weights}")
def test_paired_linearized_matches_pairedcac(row):
    first, second = (_long(f) for f in FILES[row.data])
    measure = row.measure.replace("_pe", "")
    kwargs = {} if measure == "krippendorff_alpha" else {"missing": "available"}
    if row.weights == "quadratic" and measure != "gwet_ac2":
        kwargs.update({"metric": "interval"} if measure == "krippendorff_alpha"
                      else {"weights": "quadratic"})
    if measure == "percent_agreement" and row.data == "missing" and \
            "items_per_term" not in iaa.percent_agreement(second, missing="available").params:
        pytest.skip("percent_agreement excludes the item rated once under 'available', "
                    "which pairedCAC keeps as Gwet's n")
    r = iaa.compare(first, second, measure, **kwargs)
    assert r.paired and r.statistic_name == "t" and r.df == row.n - 1
    assert r.estimates == pytest.approx((row.coeff1, row.coeff2), abs=1e-12)
    assert r.difference == pytest.approx(row["diff"], abs=1e-12)
    assert r.se == pytest.approx(row.se, rel=1e-9)
    assert r.statistic == pytest.approx(row.t, rel=1e-9)
    assert r.p_value == pytest.approx(row.p, rel=1e-7)


def test_linearized_mean_is_the_measure():
    """The mean of the linearised terms is the coefficient itself (Gwet 2016, eq. 6)."""
    first, second = _long("ratings1_missing.csv"), _long("ratings2_pairable.csv")
    for name in ("fleiss_kappa", "davies_fleiss_kappa", "gwet_ac1", "bennett_s"):
        r = iaa.compare(first, second, name, missing="available")
        assert r.estimates[0] == pytest.approx(getattr(iaa, name)(
            first, missing="available").value, abs=1e-12)
    r = iaa.compare(first, second, "krippendorff_alpha")
    assert r.estimates[1] == pytest.approx(iaa.krippendorff_alpha(second).value, abs=1e-12)


def test_items_must_match_after_policy():
    first, second = _long("ratings1.csv"), _long("ratings2.csv")
    with pytest.raises(AgreementError, match=r"1 only in data \(3\)"):
        iaa.compare(first, second[second["item"] != 3], "fleiss_kappa", paired=True)
    # listwise (Fleiss' default) keeps the items every annotator rated: not the same items
    with pytest.raises(AgreementError, match=r"4 only in data \(3, 6, 7, 14\), 4 only in "
                                             r"other \(2, 5, 9, 12\)"):
        iaa.compare(_long("ratings1_missing.csv"), _long("ratings2_missing.csv"),
                    "fleiss_kappa")
    with pytest.raises(AgreementError, match="share 13 of their items"):
        iaa.compare(first, second[second["item"] != 3].assign(
            item=lambda f: f["item"].where(f["item"] != 4, 99)), "fleiss_kappa")


def test_unknown_keyword_and_measure_refused():
    first, second = _long("ratings1.csv"), _long("ratings2.csv")
    with pytest.raises(AgreementError, match="missing="):
        iaa.compare(first, second, "fleiss_kappa", mising="available")
    with pytest.raises(AgreementError, match="measure"):
        iaa.compare(first, second, "fleis_kappa")
    with pytest.raises(AgreementError, match="method"):
        iaa.compare(first, second, "fleiss_kappa", method="magic")


def test_paired_bootstrap_same_draws_and_agrees_with_linearized():
    """The paired bootstrap draws the same items for both data sets: its SE of the
    difference is near the linearised one (15 items: within 25 %), and far below the SE of
    independent draws would be where the two data sets are strongly correlated."""
    first, second = _long("ratings1.csv"), _long("ratings2.csv")
    lin = iaa.compare(first, second, "fleiss_kappa")
    boot = iaa.compare(first, second, "fleiss_kappa", method="bootstrap", seed=3,
                       n_resamples=4000)
    assert boot.difference == pytest.approx(lin.difference, abs=1e-12)
    assert boot.se == pytest.approx(lin.se, rel=0.25)
    assert boot.ci[0] < boot.difference < boot.ci[1] and boot.resampled == "items"
    same = iaa.compare(first, first.assign(item=first["item"]), "cohen_kappa",
                       annotators=("RaterA", "RaterB"), seed=1, n_resamples=200)
    assert same.difference == 0 and same.se == 0  # identical data: every draw agrees


def test_cluster_robust_linearized():
    """Each item duplicated into a cluster of two: the naive SE shrinks by about √2 (twice
    the items), the clustered one is exactly the SE of the original 15 items
    (G/(G − 1) Σ_g (2(d_g − d̄))² / (2G)² = Σ_g (d_g − d̄)² / ((G − 1) G))."""
    first, second = _long("ratings1.csv"), _long("ratings2.csv")
    base = iaa.compare(first, second, "fleiss_kappa")

    def doubled(frame):
        return pd.concat([frame.assign(doc=frame["item"]),
                          frame.assign(doc=frame["item"], item=frame["item"] + 100)])
    naive = iaa.compare(doubled(first).drop(columns="doc"), doubled(second).drop(
        columns="doc"), "fleiss_kappa")
    clustered = iaa.compare(doubled(first), doubled(second), "fleiss_kappa", cluster="doc")
    assert naive.se == pytest.approx(base.se * math.sqrt(14 / 29), rel=1e-9)
    assert clustered.se == pytest.approx(base.se, rel=1e-12)
    assert clustered.df == 14


def _kaphom():
    text = (FIX / "kaphom" / "homogeneity.out").read_text()
    return [float(x) for x in re.findall(r"(?:Statistic|P-value|Estimate) : ([0-9.e-]+)", text)]


def _binary_groups(pp, pm, mm):
    """Two ratings per item: pp items (yes, yes), pm (yes, no), mm (no, no) per group."""
    rows, item = [], 0
    for g, counts in enumerate(zip(pp, pm, mm)):
        for pair, count in zip((("yes", "yes"), ("yes", "no"), ("no", "no")), counts):
            for _ in range(count):
                rows += [(item, "a", pair[0], g), (item, "b", pair[1], g)]
                item += 1
    return pd.DataFrame(rows, columns=["item", "annotator", "label", "group"])


def test_groups_match_kaphom():
    ref = _kaphom()
    frame = _binary_groups([20, 15, 30], [6, 10, 5], [24, 25, 15])
    gof = iaa.compare(frame, by="group", method="goodness-of-fit")
    # ref: fleisshom's 5 numbers, donnerhom's 3 as it is (it rounds p and κ to 3
    # digits), donnerhom's 3 without the rounding, then the same two for groups 0 and 1
    assert (gof.statistic, gof.p_value, gof.common) == pytest.approx(ref[8:11], rel=1e-9)
    assert gof.statistic == pytest.approx(ref[5], rel=1e-3)  # kaphom's rounded p and κ
    assert gof.df == 2 and gof.groups == (0, 1, 2)
    # fleisshom, different prevalences: Fleiss (1981) χ² from each κ and its variance
    se = np.array(gof.estimate_se)
    pre = iaa.compare(estimates=dict(zip("ABC", gof.estimates)), se=dict(zip("ABC", se)))
    assert (pre.statistic, pre.p_value) == pytest.approx(ref[0:2], rel=1e-9)
    pair = iaa.compare(frame[frame.group == 0].drop(columns="group"),
                       frame[frame.group == 1].drop(columns="group"), "scott_pi",
                       method="goodness-of-fit")
    assert (pair.statistic, pair.p_value, pair.common) == pytest.approx(ref[14:17], rel=1e-9)
    # the binary intraclass κ is Scott's π of the two raters
    assert pair.estimates[0] == pytest.approx(iaa.scott_pi(
        frame[frame.group == 0].drop(columns="group")).value, abs=1e-12)


def test_groups_from_the_measures_standard_errors():
    frame = _binary_groups([20, 15, 30], [6, 10, 5], [24, 25, 15])
    r = iaa.compare(frame, by="group", measure="fleiss_kappa")
    parts = [iaa.fleiss_kappa(frame[frame.group == g].drop(columns="group")) for g in range(3)]
    w = np.array([1 / p.se ** 2 for p in parts])
    k = np.array([p.value for p in parts])
    common = w @ k / w.sum()  # Fleiss (1981): χ² = Σ w (κ − κ̄)²
    assert r.statistic == pytest.approx(w @ (k - common) ** 2, rel=1e-12)
    assert r.to_frame().loc["homogeneity", "df"] == 2


def test_independent_analytic_and_refusals():
    first, second = _long("ratings1.csv"), _long("ratings2.csv")
    other = second.assign(item=second["item"] + 100)
    r = iaa.compare(first, other, "fleiss_kappa")
    a, b = iaa.fleiss_kappa(first), iaa.fleiss_kappa(second)
    assert not r.paired and r.difference == pytest.approx(b.value - a.value)
    assert r.se == pytest.approx(math.hypot(a.se, b.se))
    with pytest.raises(AgreementError, match="estimates= and se="):
        iaa.compare(first, estimates=[0.1, 0.2], se=[0.1, 0.1])
    with pytest.raises(AgreementError, match="se must be"):
        iaa.compare(estimates=[0.1, 0.2], se=[0.1, 0.0])


def test_result_frame_and_chart():
    r = iaa.compare(_long("ratings1.csv"), _long("ratings2.csv"), "gwet_ac1")
    frame = r.to_frame()
    assert list(frame.index) == ["data", "other", "difference"]
    assert frame.loc["difference", "p_value"] == pytest.approx(r.p_value)
    spec = r.chart().to_dict()
    assert "vconcat" in spec and "<" not in r._repr_html_().split("<p>")[1].split("</p>")[0]


def test_bootstrap_paths_draw_clusters():
    """Each item doubled inside a cluster: drawing clusters keeps the pairs together, so
    the paired bootstrap's SE is larger than drawing the doubled items one by one
    (√2 in expectation), and the independent bootstrap says what it drew."""
    first, second = _long("ratings1.csv"), _long("ratings2.csv")

    def doubled(frame):
        return pd.concat([frame.assign(doc=frame["item"]),
                          frame.assign(doc=frame["item"], item=frame["item"] + 100)])
    a, b = doubled(first), doubled(second)
    items = iaa.compare(a.drop(columns="doc"), b.drop(columns="doc"), "fleiss_kappa",
                        method="bootstrap", seed=2, n_resamples=1500)
    clusters = iaa.compare(a, b, "fleiss_kappa", method="bootstrap", cluster="doc", seed=2,
                           n_resamples=1500)
    assert clusters.resampled == "clusters" and items.resampled == "items"
    assert clusters.se > 1.2 * items.se
    apart = iaa.compare(a, b.assign(item=b["item"] + 1000), "fleiss_kappa", cluster="doc",
                        seed=2, n_resamples=300)
    assert not apart.paired and apart.resampled == "clusters" and apart.method.endswith(
        "bootstrap standard errors")
    with pytest.raises(AgreementError, match="more than one value"):
        iaa.compare(a.assign(doc=range(len(a))), b, "fleiss_kappa", cluster="doc")
