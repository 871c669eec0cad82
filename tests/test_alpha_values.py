"""α on many distinct values (interval, ordinal, ratio) without a K × K table
(iaa_widgets/measures/continuous/alpha_values.py): against the coincidence-matrix path, the
krippendorff package, Krippendorff's (2011) published example and formulas written here
from his definitions; and its Statistic against rebuilding every resample."""
import itertools

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.datasets import krippendorff_2011
from iaa_widgets.measures.continuous import alpha_values
from iaa_widgets.stats.resampling import resampled

METRICS = ("interval", "ordinal", "ratio")


def scores(n_items, raters, distinct, seed=0, missing=0.2):
    """Continuous scores quantised to about ``distinct`` values ≥ 0, with missing ratings
    and items rated once (unpairable)."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(0, 1, (n_items, 1))
    x = truth + rng.normal(0, 0.7, (n_items, raters))
    q = np.round((x - x.min()) / np.ptp(x) * (distinct - 1)) / 4
    rows, cols = np.nonzero(rng.random((n_items, raters)) >= missing)
    return pd.DataFrame({"item": rows, "annotator": cols, "label": q[rows, cols]})


@pytest.fixture
def always_many(monkeypatch):
    """Every interval/ordinal/ratio α takes the many-values path."""
    monkeypatch.setattr(alpha_values, "MANY_VALUES", 1)


@pytest.fixture
def never_many(monkeypatch):
    """Every α takes the coincidence-matrix path (the reference where it fits)."""
    monkeypatch.setattr(alpha_values, "MANY_VALUES", 10 ** 9)


# ------------------------------------------------------- formulas written from the paper
def definition_alpha(df: pd.DataFrame, metric: str) -> float:
    """α = 1 − D_o/D_e by Krippendorff's (2011) definitions, pair by pair, in plain
    Python: D_o = (1/n) Σ_u Σ_{pairs within u} δ/(m_u − 1), D_e = Σ_{pairs of pairable
    values} δ/(n(n − 1)); ordinal δ_ck = (Σ_{g=c..k} n_g − (n_c + n_k)/2)² over the
    values in order."""
    units = [list(g) for _, g in df.groupby("item")["label"] if len(g) >= 2]
    pool = [v for u in units for v in u]
    n = len(pool)
    n_g = pd.Series(pool).value_counts().sort_index()

    def delta(c, k):
        if metric == "interval":
            return (c - k) ** 2
        if metric == "ratio":
            return ((c - k) / (c + k)) ** 2 if c + k else 0.0
        lo, hi = min(c, k), max(c, k)
        between = n_g[(n_g.index >= lo) & (n_g.index <= hi)].sum()
        return (between - (n_g[c] + n_g[k]) / 2) ** 2
    d_o = sum(delta(a, b) / (len(u) - 1) for u in units
              for a, b in itertools.permutations(u, 2)) / n
    d_e = sum(delta(a, b) for a, b in itertools.permutations(pool, 2)) / (n * (n - 1))
    return 1 - d_o / d_e


def moment_formula(df: pd.DataFrame, metric: str) -> float:
    """Interval α (ordinal: on the values' mid-ranks) from the moments, written here with
    pandas: Σ_{u≠u' in an item} (v − v')² = 2 m SS_item and Σ over all pairs = 2 n SS
    (Krippendorff 2011's D_o and D_e with δ = (c − k)²)."""
    g = df.groupby("item")["label"]
    df = df[g.transform("size") >= 2]
    v = df["label"].astype(float)
    if metric == "ordinal":  # mid_c = Σ_{g≤c} n_g − n_c/2
        counts = v.value_counts().sort_index()
        v = v.map(counts.cumsum() - counts / 2)
    by = v.groupby(df["item"])
    m = by.transform("size")
    within = ((v - by.transform("mean")) ** 2 * 2 * m / (m - 1)).sum()
    n = len(v)
    return 1 - (within / n) / (2 * n * ((v - v.mean()) ** 2).sum() / (n * (n - 1)))


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("metric, published", [
    # Krippendorff (2011), the 4 observers × 12 units example: interval .849, ordinal
    # .815, ratio .797 (printed to three decimals), here through the many-values path
    ("interval", 0.849), ("ordinal", 0.815), ("ratio", 0.797)])
def test_published_example_on_the_many_values_path(always_many, metric, published):
    res = iaa.krippendorff_alpha(krippendorff_2011(), metric)
    assert round(res.value, 3) == published
    assert "coincidences" not in res.params and "without the coincidence matrix" in res.note
    assert res.excluded == {"items with a single rating (unpairable)": 1}
    assert res.n_ratings == 40


@pytest.mark.parametrize("metric", METRICS)
def test_equals_the_definition_pair_by_pair(always_many, metric):
    df = scores(25, 4, 30, seed=2)
    assert iaa.krippendorff_alpha(df, metric).value == pytest.approx(
        definition_alpha(df, metric), abs=1e-12)


@pytest.mark.parametrize("metric", METRICS)
def test_equals_the_coincidence_path(monkeypatch, metric):
    # the dense path (o_ck, δ as a K × K matrix) is the reference where it fits
    df = scores(2000, 6, 900, seed=3)
    monkeypatch.setattr(alpha_values, "MANY_VALUES", 10 ** 9)
    dense = iaa.krippendorff_alpha(df, metric)
    monkeypatch.setattr(alpha_values, "MANY_VALUES", 1)
    many = iaa.krippendorff_alpha(df, metric)
    assert many.value == pytest.approx(dense.value, abs=1e-12)
    assert many.observed == pytest.approx(dense.observed, rel=1e-10)
    assert many.expected == pytest.approx(dense.expected, rel=1e-10)
    # per_category: n_c and share as on the dense path; no o_cc/n_c (needs a sort)
    pd.testing.assert_frame_equal(many.per_category, dense.per_category[["n_c", "share"]],
                                  rtol=1e-10)
    assert (many.n_items, many.n_ratings, many.excluded) == \
        (dense.n_items, dense.n_ratings, dense.excluded)


@pytest.mark.parametrize("metric", METRICS)
def test_counts_and_contingency_data_on_both_paths(monkeypatch, metric):
    # weighted rows (from_counts: a cell's count; from_contingency: an item weight)
    counts = pd.DataFrame([[2, 1, 0, 0], [0, 3, 1, 0], [1, 0, 0, 2], [0, 0, 2, 2]],
                          columns=[0.5, 1.0, 2.5, 4.0])
    table = pd.DataFrame([[5, 1, 0], [2, 7, 1], [0, 1, 4]], index=[1.0, 2.0, 4.0],
                         columns=[1.0, 2.0, 4.0])
    for data in (iaa.Annotations.from_counts(counts), iaa.Annotations.from_contingency(table)):
        monkeypatch.setattr(alpha_values, "MANY_VALUES", 10 ** 9)
        dense = iaa.krippendorff_alpha(data, metric)
        monkeypatch.setattr(alpha_values, "MANY_VALUES", 1)
        assert iaa.krippendorff_alpha(data, metric).value == pytest.approx(dense.value,
                                                                          abs=1e-12)


@pytest.mark.parametrize("metric", METRICS)
def test_against_the_krippendorff_package(always_many, metric):
    krippendorff = pytest.importorskip("krippendorff")
    df = scores(300, 5, 400, seed=4)
    grid = df.pivot(index="annotator", columns="item", values="label").to_numpy(float)
    theirs = krippendorff.alpha(reliability_data=grid, level_of_measurement=metric)
    assert iaa.krippendorff_alpha(df, metric).value == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize("metric", ("interval", "ordinal"))
def test_many_values_equal_the_moment_formula(metric):
    # 60,000 ratings on ~20,000 distinct values: the coincidence matrix would be
    # 20,000², refused before (more than 2e8 cells); equal to the formula to 1e-9
    df = scores(15_000, 5, 40_000, seed=5)
    ann = iaa.Annotations.from_long(df)
    assert ann.n_categories > 14_142  # K² > 2e8
    assert iaa.krippendorff_alpha(ann, metric).value == pytest.approx(
        moment_formula(df, metric), abs=1e-9)


def test_ratio_sweep_blocks_equal_one_block(monkeypatch):
    # the sweep over values in blocks of rows gives Σ n_c n_k δ_ck whatever the block
    rng = np.random.default_rng(6)
    v = np.sort(rng.random(700)) * 3
    v[:3] = 0  # two zeros: δ(0, 0) = 0
    n_c = rng.integers(0, 5, (3, 700)).astype(float)
    total = v[:, None] + v[None, :]
    full = np.where(total > 0, (v[:, None] - v[None, :]) ** 2 /
                    np.where(total > 0, total, 1) ** 2, 0)
    expected = np.einsum("bc,ck,bk->b", n_c, full, n_c)
    for block in (1, 700, 2 ** 12, 2 ** 20):
        monkeypatch.setattr(alpha_values, "BLOCK", block)
        np.testing.assert_allclose(alpha_values._ratio_expected(v, n_c), expected, rtol=1e-12)


def test_ratio_refuses_negative_values(always_many):
    df = pd.DataFrame({"item": [0, 0, 1, 1], "annotator": [0, 1, 0, 1],
                       "label": [-1.0, 2.0, 3.0, 3.5]})
    with pytest.raises(iaa.AgreementError, match="non-negative"):
        iaa.krippendorff_alpha(df, "ratio")


def test_no_variation_is_undefined(always_many):
    df = pd.DataFrame({"item": [0, 0, 1, 1], "annotator": [0, 1, 0, 1],
                       "label": [2.0, 2.0, 2.0, 2.0]})
    res = iaa.krippendorff_alpha(df, "interval")
    assert np.isnan(res.value) and "undefined" in res.note


# ---------------------------------------------------------------- the Statistic
@pytest.mark.parametrize("metric", METRICS)
def test_statistic_resamples_equal_rebuilding_them(always_many, metric):
    # exact: every resample's value equals α recomputed on the rebuilt resample (the
    # generic path of the bootstrap, same seed and draws), ordinal with its own ranks
    ann = iaa.Annotations.from_long(scores(400, 5, 300, seed=7))
    stat = iaa.krippendorff_alpha.statistic(ann, metric)
    ours = resampled(stat, 30, np.random.default_rng(8))
    ref = iaa.bootstrap(ann, lambda d: iaa.krippendorff_alpha(d, metric).value,
                        n_resamples=30, seed=8).values
    np.testing.assert_allclose(ours, ref, atol=1e-12)
    assert stat.values(stat.base[None])[0] == pytest.approx(
        iaa.krippendorff_alpha(ann, metric).value, abs=1e-12)


def test_interval_statistic_has_four_cells():
    ann = iaa.Annotations.from_long(scores(200, 4, 5000, seed=9))
    stat = iaa.krippendorff_alpha.statistic(ann, "interval")
    assert {name: t.shape for name, t in stat.tables.items()} == {"moments": (200, 4)}


def test_ordinal_jackknife_is_exact(always_many):
    # BCa's leave-one-item-out values: each equals α on the data without that item
    df = scores(40, 4, 60, seed=10)
    ann = iaa.Annotations.from_long(df)
    jack = iaa.krippendorff_alpha.statistic(ann, "ordinal").jackknife()
    for i in (0, 7, 23):
        rest = df[df["item"] != ann.items[i]]
        assert jack[i] == pytest.approx(iaa.krippendorff_alpha(rest, "ordinal").value,
                                        abs=1e-12)


# ------------------------------------------------------------ nominal α on many labels
def test_nominal_on_many_labels_equals_the_coincidence_path(monkeypatch):
    """Nominal α from per-item counts (Σ o_ck δ_ck = n − Σ_c o_cc, Σ n_c n_k δ_ck =
    n² − Σ n_c², Krippendorff 2011) equals the coincidence matrix's: value, D's,
    per_category (o_cc/n_c too), and its Statistic gives the same bootstrap."""
    df = scores(400, 4, 300, seed=8, missing=0.3)
    df["label"] = df["label"].astype(str)  # text labels: nominal only
    monkeypatch.setattr(alpha_values, "MANY_VALUES", 10 ** 9)
    dense = iaa.krippendorff_alpha(df)
    boot_dense = iaa.bootstrap(df, "krippendorff_alpha", n_resamples=40, seed=9,
                               interval="bca")
    monkeypatch.setattr(alpha_values, "MANY_VALUES", 1)
    many = iaa.krippendorff_alpha(df)
    assert "coincidences" not in many.params and "per-item counts" in many.note
    for field in ("value", "observed", "expected"):
        assert getattr(many, field) == pytest.approx(getattr(dense, field), abs=1e-12)
    pd.testing.assert_frame_equal(many.per_category, dense.per_category, rtol=1e-12)
    assert (many.n_items, many.n_ratings, many.excluded) == \
        (dense.n_items, dense.n_ratings, dense.excluded)
    boot = iaa.bootstrap(df, "krippendorff_alpha", n_resamples=40, seed=9, interval="bca")
    np.testing.assert_allclose(boot.ci, boot_dense.ci, atol=1e-12)
    counts = pd.DataFrame([[2, 1, 0, 0], [0, 3, 1, 0], [1, 0, 0, 2], [0, 0, 2, 2]],
                          columns=list("abcd"))
    table = pd.DataFrame([[5, 1, 0], [2, 7, 1], [0, 1, 4]], index=list("xyz"),
                         columns=list("xyz"))
    for data in (iaa.Annotations.from_counts(counts), iaa.Annotations.from_contingency(table)):
        many = iaa.krippendorff_alpha(data).value
        monkeypatch.setattr(alpha_values, "MANY_VALUES", 10 ** 9)
        assert many == pytest.approx(iaa.krippendorff_alpha(data).value, abs=1e-12)
        monkeypatch.setattr(alpha_values, "MANY_VALUES", 1)


def test_nominal_on_9000_labels_needs_no_k_by_k_table():
    """9,000 float labels, 7,500 of them distinct (issue 44): the coincidence matrix alone
    would be 7,500² floats (450 MB, and its checks copy it); the per-item counts need
    memory that follows the 9,000 ratings. Expected value: the formula of the test above
    written out on the item × label counts (Krippendorff 2011)."""
    import tracemalloc
    rng = np.random.default_rng(10)
    grid = np.arange(9000, dtype=float).reshape(3000, 3) + rng.random((3000, 3))
    grid[::2, 1] = grid[::2, 0]  # every other item: two annotators agree
    df = pd.DataFrame({"item": np.repeat(np.arange(3000), 3),
                       "annotator": np.tile(["a", "b", "c"], 3000), "label": grid.ravel()})
    tracemalloc.start()
    res = iaa.krippendorff_alpha(df)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50 * 2 ** 20  # the K × K path allocates 450 MB at once
    n = 9000.0
    o_cc = 1500 * 2 * 1 / 2  # 1,500 items with a pair of equal values: n_ic(n_ic − 1)/(m − 1)
    n_c2 = 1500 * 4 + 6000 * 1  # Σ n_c²: 1,500 labels twice, 6,000 once
    expected = 1 - (n - 1) * (n - o_cc) / (n * n - n_c2)
    assert res.value == pytest.approx(expected, abs=1e-12)
