"""iaa.sample_size (issue 45 §4): analytic designs and pilot data.

Reference values, from R 4.2.2 running the packages' own sources
(tests/fixtures/kappasize/designs.R, which sources them as they are):
- tests/fixtures/kappasize/irr.csv: irr 0.84.1 (github cran/irr, R/N.cohen.kappa.R and
  R/N2.cohen.kappa.R, lpSolve 5.6.18), each row's call in its "call" column; the issue's
  anchor ``N.cohen.kappa(0.5, 0.5, 0.7, 0.85)`` = 96 is its first row.
- tests/fixtures/kappasize/kappasize.csv: kappaSize 1.2 (github cran/kappaSize, R/*.R):
  ``PowerBinary``/``Power{3,4,5}Cats(kappa0=0.4, kappa1=0.6, …)``,
  ``CIBinary``/``CI{3,4,5}Cats(kappa0=0.6, kappaL=0.4, kappaU=NA)`` and
  ``(kappa0=0.6, kappaL=0.45, kappaU=0.75)``, ``FixedNBinary``/``FixedN{3,4,5}Cats(
  kappa0=0.6, n=100)``, alpha=0.05, power=0.8, for 2–6 raters and the shares ``PROPS``.
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
from iaa_widgets.inference import _kappa_designs as D

FIX = Path(__file__).parent / "fixtures" / "kappasize"
PROPS = {2: 0.3, 3: [0.2, 0.3, 0.5], 4: [0.1, 0.2, 0.3, 0.4], 5: [0.1, 0.15, 0.2, 0.25, 0.3]}


def _irr_args(call: str):
    """The arguments of an irr call of irr.csv as sample_size's."""
    name, args = re.match(r"([\w.]+)\((.*)\)$", call).groups()
    args = args.replace("c(", "[").replace(")", "]").replace("TRUE", "True")
    pos, kw = eval(f"(lambda *a, **k: (a, k))({args})")  # the R call's own numbers
    opts = {"significance": kw.get("alpha", 0.05), "power": kw.get("power", 0.8),
            "two_sided": kw.get("twosided", False)}
    if name == "N.cohen.kappa":  # (rate1, rate2, k1, k0)
        return dict(method="cantor", prevalence=pos[:2], kappa1=pos[2], kappa0=pos[3], **opts)
    return dict(method="flack", margins=pos[0], kappa1=pos[1], kappa0=pos[2], **opts)


@pytest.mark.parametrize("row", [r for _, r in pd.read_csv(FIX / "irr.csv").iterrows()],
                         ids=lambda r: r.call)
def test_cantor_and_flack_match_irr(row):
    assert iaa.sample_size(**_irr_args(row.call)).n_items == row.n


def test_issue_anchor():
    """irr's N.cohen.kappa(0.5, 0.5, 0.7, 0.85) = 96 (issue 45 §4)."""
    assert iaa.sample_size(method="cantor", kappa0=0.85, kappa1=0.7,
                           prevalence=(0.5, 0.5)).n_items == 96


ROWS = [r for _, r in pd.read_csv(FIX / "kappasize.csv").iterrows()]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"K{r.categories}-m{r.raters}")
def test_donner_rotondi_match_kappasize(row):
    p, m = PROPS[int(row.categories)], int(row.raters)
    power = iaa.sample_size(method="rotondi-power", kappa0=0.4, kappa1=0.6, prevalence=p,
                            raters=m)
    assert power.n_items == row.power_n
    from scipy.special import chdtri, chndtrinc  # kappaSize bisects λ to a cdf within 1e-5
    lam = chndtrinc(chdtri(1, 0.05), 1, 0.2)
    assert lam / D.rotondi_statistic(0.6, 0.4, p, m) == pytest.approx(row.power_N, rel=1e-4)
    crit = D._critical(0.05, False)
    # kappaSize stops at the least n ≥ 11 with n·X² ≥ χ²_crit + 0.001: X² reproduces it
    x2 = D.rotondi_statistic(0.6, 0.4, p, m)
    assert row.ci_lower_n == max(11, math.floor((crit + 0.001) / x2) + 1)
    lower = iaa.sample_size(method="rotondi-ci", kappa0=0.6, kappa_low=0.4, prevalence=p,
                            raters=m).n_items
    assert lower == math.ceil(crit / x2)
    if row.ci_lower_n > 11:
        assert lower == row.ci_lower_n
    crit2 = D._critical(0.05, True)
    both = [D.rotondi_statistic(0.6, lim, p, m) for lim in (0.45, 0.75)]
    assert row.ci_both_n == max(11, max(math.floor((crit2 + 0.001) / x) + 1 for x in both))
    # the bound n = 100 items attain: kappaSize steps κ_L down by 0.001 from κ₀
    bound = iaa.sample_size(method="rotondi-bound", kappa0=0.6, n_items=100, prevalence=p,
                            raters=m).bound
    assert row.fixed_kappaL <= bound + 1e-9 and bound - row.fixed_kappaL < 0.001


def test_two_raters_binary_is_one_model():
    """Two raters: the binary and the K-category outcome models agree (both give P(all
    alike in k) = p_k(p_k + κ(1 − p_k)))."""
    binary = D._outcomes(0.5, 0.3, 2)
    cats = D._outcomes(0.5, np.array([0.3, 0.7]), 2)
    assert binary[2] == pytest.approx(cats[1]) and binary[0] == pytest.approx(cats[2])


def test_percent_rule():
    """Gwet's rule n = ⌈z² p(1 − p) / E²⌉: p = 0.8, E = 0.05, 95 % → ⌈245.86⌉ = 246."""
    z = 1.959963984540054
    assert iaa.sample_size(method="percent", agreement=0.8, half_width=0.05).n_items == \
        math.ceil(z * z * 0.16 / 0.0025) == 246


@pytest.mark.parametrize("kwargs, name", [
    (dict(method="cantor", kappa0=0.7, kappa1=1.5, prevalence=0.5), r"kappa1 must be .*\[-1, 1\)"),
    (dict(method="rotondi-ci", kappa0=0.6, kappa_low=0.4, prevalence=0.3, raters=7),
     r"raters must be an integer in \[2, 6\]"),
    (dict(method="rotondi-power", kappa0=0.4, kappa1=0.6, raters=3,
          prevalence=[0.1] * 6 + [0.4]), "prevalence must be"),
    (dict(method="percent", agreement=1.2, half_width=0.05), r"agreement must be .*\(0, 1\)"),
    (dict(method="rotondi-ci", kappa0=0.6, kappa_low=0.7, prevalence=0.3), "kappa_low"),
    (dict(method="flack", kappa0=0.4, kappa1=0.6, margins=[0.5, 0.6]), "margins"),
    (dict(method="cantor", kappa0=0.4, kappa1=0.6, prevalence=0.3, power=1.0), "power"),
    (dict(method="cantor", kappa0=0.4, kappa1=0.6), "needs prevalence="),
    (dict(method="guess"), "method"),
])
def test_out_of_range_names_parameter_and_range(kwargs, name):
    with pytest.raises(AgreementError, match=name):
        iaa.sample_size(**kwargs)


def _pilot(n_docs=30, per_doc=6, seed=0):
    """Tokens nested in documents: each annotator reads a document right or wrong as a
    whole (its label for the document, kept on 90 % of its tokens), so the document, not
    the token, is the unit of information."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        base = rng.integers(0, 3)
        read = {a: base if rng.random() < 0.7 else rng.integers(0, 3) for a in "abc"}
        for t in range(per_doc):
            for a in "abc":
                label = read[a] if rng.random() < 0.9 else rng.integers(0, 3)
                rows.append((d * per_doc + t, a, int(label), d))
    return pd.DataFrame(rows, columns=["item", "annotator", "label", "doc"])


def test_pilot_scaling_and_clusters():
    pilot = _pilot()
    r = iaa.sample_size(pilot.drop(columns="doc"), "fleiss_kappa", half_width=0.02, seed=1,
                        n_resamples=400)
    z = 1.959963984540054
    assert r.n_items == math.ceil(r.n_pilot * (z * r.se / 0.02) ** 2)  # se √(n_pilot/n)
    assert r.projected_se(r.n_pilot) == pytest.approx(r.se)
    assert r.estimate == pytest.approx(iaa.fleiss_kappa(pilot.drop(columns="doc")).value)
    c = iaa.sample_size(pilot, "fleiss_kappa", half_width=0.02, cluster="doc", seed=1,
                        n_resamples=400)
    assert c.n_pilot == 30 and c.params["resampled"] == "clusters"
    assert c.se > 1.3 * r.se  # tokens of one document are not independent
    assert c.n_items > r.n_items and c.n_items % 6 == 0  # whole documents of 6 tokens
    q = iaa.sample_size(pilot.drop(columns="doc"), "fleiss_kappa", alpha_min=r.estimate - 0.1,
                        prob=0.95, seed=1, n_resamples=400)
    assert q.n_items_for_prob == math.ceil(q.n_pilot * (1.6448536269514722 * q.se / 0.1) ** 2)
    low = iaa.sample_size(pilot.drop(columns="doc"), "fleiss_kappa", alpha_min=0.99, seed=1,
                          n_resamples=50)
    assert low.n_items_for_prob is None and "does not exceed" in low.note


def test_pilot_refusals():
    pilot = _pilot(n_docs=5)
    with pytest.raises(AgreementError, match="half_width="):
        iaa.sample_size(pilot, "fleiss_kappa", cluster="doc")
    with pytest.raises(AgreementError, match="missing="):
        iaa.sample_size(pilot.drop(columns="doc"), "fleiss_kappa", half_width=0.1,
                        mising="available")
    with pytest.raises(AgreementError, match="analytic"):
        iaa.sample_size(pilot, method="percent", agreement=0.8, half_width=0.05)


def test_pilot_draws_are_the_bootstraps():
    """The pilot's SE is iaa.bootstrap's for the same seed, clusters or not: the same
    draws through stats.resampling."""
    pilot = _pilot(n_docs=12)
    plain = pilot.drop(columns="doc")
    r = iaa.sample_size(plain, "fleiss_kappa", half_width=0.05, seed=4, n_resamples=300)
    assert r.se == pytest.approx(iaa.bootstrap(plain, "fleiss_kappa", n_resamples=300,
                                               seed=4).se, rel=1e-12)
    c = iaa.sample_size(pilot, "fleiss_kappa", half_width=0.05, cluster="doc", seed=4,
                        n_resamples=300)
    docs = pilot.groupby("item")["doc"].first()
    assert c.se == pytest.approx(iaa.bootstrap(plain, "fleiss_kappa", n_resamples=300,
                                               seed=4, cluster=docs).se, rel=1e-12)
