"""Krippendorff's unitizing α: α_U (1995/2004) and u-α / |u-α (2016).

Sources of the expected numbers:
- Krippendorff (2004), *Content Analysis* 2nd ed., worked example p. 254 (two
  annotators, categories c and k on [150, 450)), printed values as quoted by DKPro
  Agreement's ``Krippendorff2004Test`` (cD_o .0144, cD_e .0532, cα .7286, kD_e .0490,
  kα 1, α_U .8591). We reproduce the per-category figures to their 4 printed decimals.
  The printed α_U = .8591 is 1 − .0144/(.0532 + .0490) computed from the *rounded*
  D's; from the exact D's (cD_o = 1300/90000 exactly, see below) it is .85867: we test
  the exact value against a fraction and the printed one to its rounding (5e-4).
- Krippendorff (1995), Sociological Methodology 25, p. 57: the four pairs of
  annotators A–D on 24 ticks, as encoded in DKPro's ``Krippendorff1995Test``. The
  observed disagreements are exact fractions (0.03125 = 18/576 …), checked exactly.
  The expected ones at stretch 0.5 are DKPro's output (0.05494 for C, 1e-5). At a
  large stretch the 1995 paper prints D_e .06990/1.17731/.08642/.41445 and
  α .553/−.926/.679/.066, computed with a misprinted D_e (DKPro's note: "l_ik + l_hj + 1
  where the first plus should be a minus - see Krippendorff (2004)"); we follow the 2004
  form and reproduce A, B, D to 2e-3, while C's D_e is .0905 (printed .0864; DKPro's
  own test accepts ±.005). We trust the 2004 form because it reproduces the 2004 example
  to 4 decimals and our brute-force evaluation below.
- u-α (Krippendorff, Mathet, Bouvry & Widlöcher 2016): its printed worked examples
  were not available to us; it is checked (a) against a brute-force tick-by-tick
  computation of the coincidences written independently here, (b) on items laid end
  to end, where u-α must equal Krippendorff's nominal α, against the ``krippendorff``
  package (peer) to 1e-12, and (c) against the printed output of the PyPI package
  krippendorff-unitized-alpha 0.1.0 (an independent implementation of the 2016
  coincidence form) on a three-annotator example, and on the worked example of
  Krippendorff (2019: p. 340) in ``test_unitizing_cu.py``.
cu-α and (k)u-α are tested in ``test_unitizing_cu.py``.
"""
from fractions import Fraction
from itertools import permutations

import numpy as np
import pandas as pd
import pytest

from iaa_widgets.continuum import Continuum
from iaa_widgets.errors import AgreementError
from iaa_widgets.measures.continuum.unitizing import u_alpha, unitizing_alpha

COLS = ["annotator", "category", "start", "end"]


def frame(units):
    """(annotator, category, begin, length) → the tidy table."""
    return pd.DataFrame([(a, c, b, b + l) for a, c, b, l in units], columns=COLS)


# Krippendorff (2004: p. 254), as in DKPro's Krippendorff2004Test
K2004 = frame([(0, "c", 225, 70), (0, "c", 370, 30), (1, "c", 220, 80), (1, "c", 355, 20),
               (1, "c", 400, 20), (0, "k", 180, 60), (0, "k", 300, 50), (1, "k", 180, 60),
               (1, "k", 300, 50)])

# Krippendorff (1995: p. 57): (begin, length, annotator, category), as in DKPro
K1995 = [(2, 8, 0, "A"), (14, 6, 0, "A"), (4, 4, 1, "A"), (15, 2, 1, "A"),
         (0, 18, 0, "B"), (0, 2, 1, "B"), (2, 1, 1, "B"), (3, 1, 1, "B"), (4, 1, 1, "B"),
         (5, 1, 1, "B"), (6, 3, 1, "B"), (9, 1, 1, "B"),
         (2, 6, 0, "C"), (10, 2, 0, "C"), (14, 4, 0, "C"), (20, 2, 0, "C"), (0, 2, 1, "C"),
         (4, 4, 1, "C"), (10, 4, 1, "C"), (16, 2, 1, "C"), (20, 2, 1, "C"),
         (0, 2, 0, "D"), (2, 8, 0, "D"), (10, 4, 0, "D"), (14, 6, 0, "D"), (20, 4, 0, "D"),
         (0, 4, 1, "D"), (4, 4, 1, "D"), (8, 7, 1, "D"), (15, 2, 1, "D"), (17, 7, 1, "D")]


def k1995(stretch):
    return frame([(a, c, int(b * stretch), int(l * stretch)) for b, l, a, c in K1995])


# ------------------------------------------------------------ α_U worked examples
def test_alpha_u_krippendorff_2004_example():
    r = unitizing_alpha(K2004, continuum=(150, 450))
    t = r.per_category
    # printed (2004: p. 254, via DKPro): cD_o .0144, cD_e .0532, cα .7286
    assert t.loc["c", "D_o"] == pytest.approx(0.0144, abs=5e-5)
    assert t.loc["c", "D_e"] == pytest.approx(0.0532, abs=5e-5)
    assert t.loc["c", "alpha"] == pytest.approx(0.7286, abs=5e-5)
    # kD_o 0 (identical k units), kD_e .0490, kα 1
    assert t.loc["k", "D_o"] == 0.0
    assert t.loc["k", "D_e"] == pytest.approx(0.0490, abs=5e-5)
    assert t.loc["k", "alpha"] == 1.0
    # cD_o exactly: δ² = 5²+5² = 50, 15²+25² = 850 (DKPro testDistanceMetric2) and the
    # unit [400, 420) inside annotator 0's gap [400, 450): 20² = 400; 2·1300/(2·1·300²)
    assert t.loc["c", "D_o"] == pytest.approx(float(Fraction(1300, 90000)), rel=1e-13)
    # α_U = 1 − ΣD_o/ΣD_e from the exact D's; printed .8591 from the rounded ones
    assert r.value == pytest.approx(1 - t["D_o"].sum() / t["D_e"].sum(), rel=1e-13)
    assert r.value == pytest.approx(0.8591, abs=5e-4)
    assert type(r.value) is float  # a Python float, as every measure's (not np.float64)
    assert r.scale == "disagreement"
    assert r.observed == pytest.approx(t["D_o"].sum()) and r.expected == pytest.approx(
        t["D_e"].sum())


def test_alpha_u_krippendorff_1995_observed_exact():
    t = unitizing_alpha(k1995(1), continuum=(0, 24)).per_category
    # Krippendorff (1995: p. 57) observed disagreements, exact over m(m−1)L² = 2·576
    # (DKPro prints 0.03125, 2.26736, 0.02777, 0.38715)
    expected = {"A": Fraction(36, 1152), "B": Fraction(2612, 1152),
                "C": Fraction(32, 1152), "D": Fraction(446, 1152)}
    for cat, value in expected.items():
        assert t.loc[cat, "D_o"] == pytest.approx(float(value), rel=1e-13)
    assert t.loc["B", "D_o"] == pytest.approx(2.26736, abs=1e-5)
    assert t.loc["D", "D_o"] == pytest.approx(0.38715, abs=1e-5)


def test_alpha_u_krippendorff_1995_expected():
    # stretch 0.5 (L = 12): DKPro's output cD_e = 0.05494, cα = .494
    t = unitizing_alpha(k1995(0.5), continuum=(0, 12)).per_category
    assert t.loc["C", "D_e"] == pytest.approx(0.05494, abs=1e-5)
    assert t.loc["C", "alpha"] == pytest.approx(0.494, abs=1e-3)
    # a long continuum (L = 1.2e6) approaches the 1995 printed figures (see docstring)
    t = unitizing_alpha(k1995(50000), continuum=(0, 1_200_000)).per_category
    printed_de = {"A": 0.06990, "B": 1.17731, "D": 0.41445}
    printed_alpha = {"A": 0.553, "B": -0.926, "D": 0.066}
    for cat in printed_de:
        assert t.loc[cat, "D_e"] == pytest.approx(printed_de[cat], abs=2e-3)
        assert t.loc[cat, "alpha"] == pytest.approx(printed_alpha[cat], abs=3e-3)
    # C: printed .08642 / .679 from the misprinted 1995 D_e; the 2004 form gives .0905
    assert t.loc["C", "D_e"] == pytest.approx(0.08642, abs=5e-3)  # DKPro's tolerance
    assert t.loc["C", "alpha"] == pytest.approx(0.679, abs=2e-2)


# ------------------------------------------------------------ brute force
def segments(units, begin, end):
    """One annotator's segmentation of [begin, end): (b, e, value or None for gaps)."""
    out, pos = [], begin
    for b, e, v in sorted(units):
        if b > pos:
            out.append((pos, b, None))
        out.append((b, e, v))
        pos = e
    if pos < end:
        out.append((pos, end, None))
    return out


def brute_alpha_u(df, begin, end):
    """α_U's cD_o and cD_e by loops over annotator pairs and segment pairs, straight
    from the definitions (Krippendorff 2004), independent of the vectorised code."""
    L = end - begin
    anns = sorted(df.annotator.unique())
    m = len(anns)
    out = {}
    for cat, sub in df.groupby("category"):
        seg = {a: segments([(b, e, cat) for b, e in
                            sub.loc[sub.annotator == a, ["start", "end"]].to_numpy()],
                           begin, end) for a in anns}
        total = 0
        for i in anns:
            for j in anns:
                if i == j:
                    continue
                for b1, e1, v1 in seg[i]:
                    for b2, e2, v2 in seg[j]:
                        if v1 and v2 and b1 < e2 and b2 < e1:
                            total += (b1 - b2) ** 2 + (e1 - e2) ** 2
                        elif v1 and not v2 and b2 <= b1 and e1 <= e2:
                            total += (e1 - b1) ** 2
                        elif v2 and not v1 and b1 <= b2 and e2 <= e1:
                            total += (e2 - b2) ** 2
        units = [e - b for a in anns for b, e, v in seg[a] if v]
        gaps = [e - b for a in anns for b, e, v in seg[a] if not v]
        n = len(units)
        num = sum(Fraction((n - 1) * (2 * l**3 - 3 * l**2 + l), 3)
                  + l * l * sum(h - l + 1 for h in gaps if h >= l) for l in units)
        den = m * L * (m * L - 1) - sum(l * (l - 1) for l in units)
        out[cat] = (Fraction(total, m * (m - 1) * L * L), Fraction(2, L) * num / den)
    return out


def random_units(rng, n_annotators, n_units, n_categories, length, overlap_categories):
    """Integer units; no overlap within an annotator (within annotator × category when
    ``overlap_categories``)."""
    rows = []
    for a in range(n_annotators):
        groups = range(n_categories) if overlap_categories else [None]
        for g in groups:
            cuts = np.sort(rng.choice(np.arange(1, length), 2 * n_units, replace=False))
            for b, e in cuts.reshape(-1, 2):
                if rng.random() < 0.8:
                    cat = g if g is not None else int(rng.integers(n_categories))
                    rows.append((f"a{a}", f"c{cat}", int(b), int(e)))
    return pd.DataFrame(rows, columns=COLS)


@pytest.mark.parametrize("seed", range(6))
def test_alpha_u_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    df = random_units(rng, 2 + seed % 3, 4, 2, 40, overlap_categories=True)
    r = unitizing_alpha(df, continuum=(0, 40))
    for cat, (d_o, d_e) in brute_alpha_u(df, 0, 40).items():
        assert r.per_category.loc[cat, "D_o"] == pytest.approx(float(d_o), rel=1e-12)
        assert r.per_category.loc[cat, "D_e"] == pytest.approx(float(d_e), rel=1e-12)


def brute_u_alpha(df, begin, end, kind):
    """u-α tick by tick: every tick adds 1/(m − 1) to l_{v_i v_j} for each ordered pair
    of annotators; λ from the segment lists (units l², gaps l)."""
    anns = sorted(df.annotator.unique())
    m, L = len(anns), end - begin
    values = [None] + sorted(df.category.unique())
    idx = {v: n for n, v in enumerate(values)}
    at = {a: [None] * L for a in anns}
    lam = [Fraction(0)] * len(values)
    for a in anns:
        sub = df[df.annotator == a]
        for b, e, v in segments(list(zip(sub.start, sub.end, sub.category)), begin, end):
            for t in range(b, e):
                at[a][t - begin] = v
            lam[idx[v]] += (e - b) ** 2 if v is not None else (e - b)
    coinc = [[Fraction(0)] * len(values) for _ in values]
    for t in range(L):
        for i in anns:
            for j in anns:
                if i != j:
                    coinc[idx[at[i][t]]][idx[at[j][t]]] += Fraction(1, m - 1)
    total = m * L
    margin = [sum(row) for row in coinc]
    den = total * total - sum(lam)
    d_o = d_e = Fraction(0)
    for c in range(len(values)):
        for k in range(len(values)):
            disagree = c != k and (kind == "nominal" or c == 0 or k == 0)
            if disagree:
                d_o += coinc[c][k]
                d_e += Fraction(total) * margin[c] * margin[k] / den
    return 1 - d_o / d_e


@pytest.mark.parametrize("kind", ["nominal", "binary"])
@pytest.mark.parametrize("seed", range(6))
def test_u_alpha_matches_brute_force(seed, kind):
    rng = np.random.default_rng(100 + seed)
    df = random_units(rng, 2 + seed % 3, 5, 3, 50, overlap_categories=False)
    value = u_alpha(df, kind=kind, continuum=(0, 50)).value
    assert value == pytest.approx(float(brute_u_alpha(df, 0, 50, kind)), rel=1e-12)


def test_u_alpha_against_peer_krippendorff_unitized_alpha():
    # Peer: the PyPI package krippendorff-unitized-alpha 0.1.0 (coincidence form of the
    # 2016 paper), run by hand on 2026-11-23 with each annotator's complete segmentation
    # of [0, 20) (gaps given as "_empty" segments): it printed 0.6118623962040333. It
    # cannot be a test dependency: it pins pytest < 8 and numpy < 2.
    df = frame([("x", "c", 0, 10), ("x", "k", 10, 4), ("y", "c", 2, 8), ("y", "k", 10, 4),
                ("y", "c", 16, 4), ("z", "c", 1, 8), ("z", "k", 9, 6)])
    value = u_alpha(df, continuum=(0, 20)).value
    assert value == pytest.approx(0.6118623962040333, abs=1e-12)
    assert value == pytest.approx(float(brute_u_alpha(df, 0, 20, "nominal")), rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_u_alpha_on_items_is_krippendorff_alpha(seed):
    # items [i, i + 1) laid end to end, every annotator labelling every item: l_ck are
    # α's coincidences and e_ck = (n_c n_k − [c = k] n_c)/(n − 1), α's expected ones
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 3 + seed, size=(2 + seed, 40))
    tidy = pd.DataFrame([(i, a, f"v{x[a, i]}") for a in range(x.shape[0])
                         for i in range(x.shape[1])], columns=["item", "annotator", "label"])
    value = u_alpha(Continuum.from_items(tidy)).value
    assert value == pytest.approx(
        krippendorff.alpha(reliability_data=x, level_of_measurement="nominal"), abs=1e-12)


# ------------------------------------------------------------ properties
PERFECT = frame([(a, c, b, l) for a in ("x", "y", "z")
                 for c, b, l in (("p", 2, 5), ("q", 9, 3), ("p", 15, 4))])


@pytest.mark.parametrize("measure", [unitizing_alpha, u_alpha,
                                     lambda d, **k: u_alpha(d, kind="binary", **k)])
def test_perfect_agreement_is_one(measure):
    r = measure(PERFECT, continuum=(0, 25))
    assert r.value == 1.0 and r.observed == 0.0 and r.expected > 0


@pytest.mark.parametrize("measure", [unitizing_alpha, u_alpha])
def test_invariant_to_shifting_the_continuum(measure):
    df = random_units(np.random.default_rng(7), 3, 5, 2, 60,
                      overlap_categories=measure is unitizing_alpha)
    moved = df.assign(start=df.start + 1000, end=df.end + 1000)
    a = measure(df, continuum=(0, 60))
    b = measure(moved, continuum=(1000, 1060))
    assert b.value == pytest.approx(a.value, rel=1e-12)
    assert b.observed == pytest.approx(a.observed, rel=1e-12)


@pytest.mark.parametrize("measure", [unitizing_alpha, u_alpha])
def test_symmetric_in_annotators(measure):
    df = random_units(np.random.default_rng(8), 3, 5, 2, 60,
                      overlap_categories=measure is unitizing_alpha)
    base = measure(df, continuum=(0, 60)).value
    for perm in permutations(["a0", "a1", "a2"]):
        renamed = df.assign(annotator=df.annotator.map(dict(zip(["a0", "a1", "a2"], perm))))
        assert measure(renamed, continuum=(0, 60)).value == pytest.approx(base, rel=1e-12)


def test_declared_annotator_without_units_counts():
    # a third annotator who marked nothing: an all-gap segmentation, m = 3
    df = frame([("x", "p", 2, 5), ("y", "p", 3, 5)])
    two = unitizing_alpha(df, continuum=(0, 20))
    three = unitizing_alpha(df, continuum=(0, 20), annotators=["x", "y", "z"])
    assert three.n_annotators == 3 and three.value < two.value
    brute = brute_alpha_u(df, 0, 20)  # two annotators
    assert two.per_category.loc["p", "D_o"] == pytest.approx(float(brute["p"][0]))


def test_default_continuum_is_the_units_bounds_and_noted():
    r = unitizing_alpha(K2004)
    assert r.params["continuum"] == (180.0, 420.0)
    assert "continuum taken as [180, 420)" in r.note
    assert u_alpha(K2004.query("category == 'c'")).params["continuum"] == (220.0, 420.0)


def test_zero_length_units_are_excluded_and_counted():
    df = pd.concat([PERFECT, frame([("x", "p", 12, 0)])], ignore_index=True)
    r = u_alpha(df, continuum=(0, 25))
    assert r.excluded == {"zero-length units": 1} and r.value == 1.0


def test_per_category_and_gap_tables_of_u_alpha():
    # x: c [0, 10), k [10, 14); y: c [2, 10), k [10, 14), c [16, 20); on [0, 20)
    df = frame([("x", "c", 0, 10), ("x", "k", 10, 4), ("y", "c", 2, 8), ("y", "k", 10, 4),
                ("y", "c", 16, 4)])
    r = u_alpha(df, continuum=(0, 20))
    t = r.per_category
    assert list(t.index) == ["c", "k"] and list(t.units) == [3, 2]
    # by hand (m − 1 = 1): l_cc = 2·8 (overlap of the c units, both orders), l_c∅ =
    # x's [0, 2) against y's gap + y's [16, 20) against x's gap = 6, l_kk = 2·4
    assert t.loc["c", "length"] == 22 and t.loc["c", "l_cc"] == 16
    assert t.loc["c", "l_c_gap"] == 6 and t.loc["k", "l_cc"] == 8
    gap = r.params["gap"]
    assert gap["length"] == 40 - 30 and gap["l_gap_gap"] == 10 - 6 - 0
    # e_cc = l..(l_c.² − Σ l²)/(l..² − Σλ), Σλ = 10² + 8² + 4² (c) + 4² + 4² (k) + 10 (gaps)
    lam = 100 + 64 + 16 + 16 + 16 + 10
    assert t.loc["c", "e_cc"] == pytest.approx(40 * (22**2 - 180) / (40**2 - lam))


def test_binary_ignores_categories_between_units():
    # same boundaries, categories swapped in one annotator: |u-α = 1, u-α < 1
    df = frame([("x", "p", 2, 5), ("x", "q", 9, 3), ("y", "q", 2, 5), ("y", "p", 9, 3)])
    assert u_alpha(df, kind="binary", continuum=(0, 20)).value == 1.0
    assert u_alpha(df, continuum=(0, 20)).value < 0.5


# ------------------------------------------------------------ errors
def test_overlap_within_one_category_raises_for_alpha_u():
    df = frame([("x", "p", 2, 5), ("x", "p", 4, 5), ("y", "p", 2, 5)])
    with pytest.raises(AgreementError,
                       match=r"annotator 'x': units of category 'p' \[2, 7\) and \[4, 9\)"):
        unitizing_alpha(df)


def test_overlap_of_categories_allowed_by_alpha_u_refused_by_u_alpha():
    df = frame([("x", "p", 2, 5), ("x", "q", 4, 5), ("y", "p", 2, 5), ("y", "q", 4, 5)])
    assert unitizing_alpha(df, continuum=(0, 12)).value == 1.0
    with pytest.raises(AgreementError, match="units must not overlap.*unitizing_alpha"):
        u_alpha(df, continuum=(0, 12))


@pytest.mark.parametrize("continuum, match", [
    ((0, 6), "outside the continuum"), ((5, 5), "begin < end"), ("0-20", "pair"),
    ((0.5, 20), "whole numbers")])
def test_bad_continuum_raises(continuum, match):
    with pytest.raises(AgreementError, match=match):
        unitizing_alpha(PERFECT.query("start < 8"), continuum=continuum)


def test_fractional_bounds_raise():
    df = frame([("x", "p", 2.5, 5), ("y", "p", 2, 5)])
    with pytest.raises(AgreementError, match="whole numbers of ticks"):
        u_alpha(df)


def test_bad_kind_and_input_raise():
    with pytest.raises(AgreementError, match="kind must be one of"):
        u_alpha(PERFECT, kind="ordinal")
    with pytest.raises(AgreementError, match="Continuum or a DataFrame"):
        unitizing_alpha([1, 2, 3])
    with pytest.raises(AgreementError, match="no unit has a positive length"):
        u_alpha(frame([("x", "p", 2, 0), ("y", "p", 3, 0)]))


def test_degenerate_one_value_everywhere_is_nan_with_note():
    # both annotators mark the whole continuum as one unit: D_e = 0
    r = u_alpha(frame([("x", "p", 0, 10), ("y", "p", 0, 10)]), continuum=(0, 10))
    assert np.isnan(r.value) and "0/0" in r.note


def test_continuum_input_and_its_errors():
    c = Continuum.from_frame(K2004)
    assert unitizing_alpha(c, continuum=(150, 450)).value == pytest.approx(
        unitizing_alpha(K2004, continuum=(150, 450)).value, rel=1e-15)
    with pytest.raises(AgreementError, match="apply to a DataFrame"):
        unitizing_alpha(c, annotators=[0, 1])
    lone = Continuum.from_codes([0], [0], [0.0], [3.0], ["x"], ["p"])
    with pytest.raises(AgreementError, match="at least two annotators"):
        u_alpha(lone)
