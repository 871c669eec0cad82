"""Counts stay counts (issue 19): ``Annotations.from_contingency`` keeps one item row per
non-zero cell with its multiplicity, ``from_counts`` one rating row per non-zero
(item, category) cell with its count, and every measure either uses them exactly or
expands small tables and refuses large ones. Many categories refuse with the size.

Expected numbers come from (a) the same ratings written out one row each and loaded
with ``from_long`` (the loaders' independent path), (b) exact fractions of the
published formulas: Cohen (1960) κ, Scott (1955) π, Bennett et al. (1954) S, Fleiss
(1971) κ (P_i, p_j), Krippendorff (2011) α = 1 − (n − 1) Σ o_ck δ_ck / Σ n_c n_k δ_ck,
and (c) how a standard error scales: Cohen's and A_o's SEs are √(v/n) with v a function
of the proportions, so multiplying every count by s divides them by √s.
"""
from __future__ import annotations

import tracemalloc
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets.stats import item_counts, pair_contingencies

TABLE = np.array([[7, 2, 1], [3, 9, 2], [0, 4, 12]])  # rows A, columns B; 40 items
CATS = [1, 2, 3]
BIG = 10 ** 8


def long_from_table(table, cats=CATS):
    """The items of a contingency table written out one rating per row (A then B)."""
    first, second = np.divmod(np.repeat(np.arange(table.size), table.ravel()), len(cats))
    n = len(first)
    return pd.DataFrame({"item": np.tile(np.arange(n), 2),
                         "annotator": np.repeat(["A", "B"], n),
                         "label": np.asarray(cats)[np.concatenate([first, second])]})


def long_from_counts(counts, cats=CATS):
    """An items × categories table written out: item i's j-th rating by rater j + 1."""
    item, cat = np.nonzero(counts)
    reps = counts[item, cat]
    item, cat = np.repeat(item, reps), np.repeat(cat, reps)
    per_item = np.bincount(item, minlength=len(counts))
    rater = np.arange(len(item)) - np.repeat(np.cumsum(per_item) - per_item, per_item) + 1
    return pd.DataFrame({"item": item, "annotator": rater, "label": np.asarray(cats)[cat]})


TWO_RATER_CASES = [
    ("percent_agreement", {}), ("percent_agreement", {"ci": "wilson"}), ("bennett_s", {}),
    ("scott_pi", {}), ("cohen_kappa", {}), ("cohen_kappa", {"weights": "quadratic"}),
    ("fleiss_kappa", {}), ("davies_fleiss_kappa", {}),
    ("specific_agreement", {"positive": 2}),
    ("krippendorff_alpha", {"metric": "nominal"}), ("krippendorff_alpha", {"metric": "ordinal"}),
    ("krippendorff_alpha", {"metric": "interval"}),
]


def same_result(r, s):
    for field in ("value", "observed", "expected", "se"):
        a, b = getattr(r, field), getattr(s, field)
        if a is None or b is None:
            assert a is b, field
        else:
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15, err_msg=field)
    if r.ci is not None or s.ci is not None:
        np.testing.assert_allclose(r.ci, s.ci, rtol=1e-12, atol=1e-15)
    assert (r.n_items, r.n_ratings, r.excluded) == (s.n_items, s.n_ratings, s.excluded)


@pytest.mark.parametrize("name, kwargs", TWO_RATER_CASES)
def test_contingency_counts_equal_the_ratings_written_out(name, kwargs):
    counts = Annotations.from_contingency(TABLE, CATS)
    assert counts.n_items == 8 and counts.total_items == 40  # one row per non-zero cell
    ratings = Annotations.from_long(long_from_table(TABLE))
    same_result(getattr(iaa, name)(counts, **kwargs), getattr(iaa, name)(ratings, **kwargs))


def test_a_hundred_million_per_cell_exact_values_and_standard_errors():
    small = Annotations.from_contingency(TABLE, CATS)
    big = Annotations.from_contingency(TABLE * BIG, CATS)
    n0 = int(TABLE.sum())
    tracemalloc.start()
    results = {name: getattr(iaa, name)(big, **kw) for name, kw in reversed(TWO_RATER_CASES)
               if name not in ("fleiss_kappa", "davies_fleiss_kappa")}  # first case wins
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20 * 2 ** 20  # 4e9 items as counts: no row per rating (was 10.9 TiB)
    p = [[Fraction(int(x), n0) for x in row] for row in TABLE]
    row = [sum(r) for r in p]
    col = [sum(p[i][j] for i in range(3)) for j in range(3)]
    a_o = sum(p[i][i] for i in range(3))
    a_e_cohen = sum(row[i] * col[i] for i in range(3))
    a_e_scott = sum(((row[i] + col[i]) / 2) ** 2 for i in range(3))
    expected = {  # proportions only: the same for every multiple of the table
        "percent_agreement": a_o, "bennett_s": (a_o - Fraction(1, 3)) / (1 - Fraction(1, 3)),
        "scott_pi": (a_o - a_e_scott) / (1 - a_e_scott),
        "cohen_kappa": (a_o - a_e_cohen) / (1 - a_e_cohen),
        # 2 t_22 / (t_2· + t_·2) (Cicchetti & Feinstein 1990) for category 2
        "specific_agreement": 2 * p[1][1] / (row[1] + col[1])}
    for name, value in expected.items():
        assert results[name].value == pytest.approx(float(value), rel=1e-13), name
        assert results[name].n_items == 40 * BIG and results[name].n_ratings == 80 * BIG
    # SE = √(v(p)/n): a table s times larger has an SE √s times smaller
    for name in ("percent_agreement", "cohen_kappa"):
        se_small = getattr(iaa, name)(small).se
        assert results[name].se == pytest.approx(se_small / np.sqrt(BIG), rel=1e-9), name
    # Krippendorff (2011): o = s(T + Tᵀ), n_c = s·n_c⁰, n = s·n⁰, nominal δ, so
    # α = 1 − (s n⁰ − 1) Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k (exact, in fractions)
    o = TABLE + TABLE.T
    n_c = o.sum(axis=1)
    off = Fraction(int(o.sum() - np.trace(o)))
    spread = Fraction(int(n_c.sum()) ** 2 - int((n_c ** 2).sum()))
    alpha = 1 - (2 * n0 * BIG - 1) * off * BIG / (spread * BIG ** 2)
    assert results["krippendorff_alpha"].value == pytest.approx(float(alpha), rel=1e-12)
    assert results["krippendorff_alpha"].n_ratings == 80 * BIG


def test_from_counts_equal_the_ratings_written_out():
    # unequal m_i, one item rated once: listwise keeps m = 4, the others drop counted
    counts = np.array([[4, 0, 0], [2, 1, 1], [0, 3, 1], [1, 0, 0], [1, 1, 2], [0, 2, 1]])
    anon = Annotations.from_counts(counts, CATS)
    assert anon.n_ratings == 12 and anon.total_ratings == int(counts.sum())
    np.testing.assert_array_equal(item_counts(anon), counts)
    ratings = Annotations.from_long(long_from_counts(counts))
    for name, kwargs in [("percent_agreement", {}), ("bennett_s", {}), ("fleiss_kappa", {}),
                         ("specific_agreement", {"positive": 3}),
                         ("krippendorff_alpha", {"metric": "ordinal"})]:
        for missing in ((None,) if name == "krippendorff_alpha" else ("listwise", "available")):
            kw = kwargs if missing is None else {**kwargs, "missing": missing}
            same_result(getattr(iaa, name)(anon, **kw), getattr(iaa, name)(ratings, **kw))


def test_sparse_agreement_on_item_counts_equals_the_ratings_written_out():
    # SPA (Nørregaard & Derczynski, eq. 7) is a function of each item's counts n_ic
    counts = np.array([[4, 0, 0], [2, 1, 1], [0, 3, 1], [1, 0, 0], [1, 1, 2], [0, 2, 1]])
    anon, rows = (Annotations.from_counts(counts, CATS),
                  Annotations.from_long(long_from_counts(counts)))
    for measure in (iaa.sparse_agreement, iaa.sparse_kappa):
        r, s = measure(anon), measure(rows)
        assert r.value == pytest.approx(s.value, rel=1e-14)
        assert (r.n_items, r.n_ratings, r.excluded) == (s.n_items, s.n_ratings, s.excluded)


def test_fleiss_on_a_hundred_million_ratings_per_cell():
    # Fleiss (1971): P_i = Σ_j n_ij(n_ij − 1) / (m(m − 1)), p_j = Σ_i n_ij / (N m),
    # κ = (P̄ − Σ p_j²) / (1 − Σ p_j²); here m = 3e8 ratings on each of 3 items
    counts = np.array([[2, 1, 0], [0, 1, 2], [1, 1, 1]]) * BIG
    tracemalloc.start()
    res = iaa.fleiss_kappa(Annotations.from_counts(counts, CATS))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20 * 2 ** 20
    m = 3 * BIG
    p_i = [Fraction(sum(int(x) * (int(x) - 1) for x in row), m * (m - 1)) for row in counts]
    p_j = [Fraction(int(counts[:, j].sum()), 3 * m) for j in range(3)]
    a_e = sum(x * x for x in p_j)
    kappa = (sum(p_i) / 3 - a_e) / (1 - a_e)
    assert res.value == pytest.approx(float(kappa), rel=1e-9)
    assert (res.n_items, res.n_ratings) == (3, 9 * BIG)


def test_measures_that_read_single_ratings_expand_small_tables_and_refuse_large_ones():
    small = Annotations.from_contingency(TABLE, CATS)
    ratings = Annotations.from_long(long_from_table(TABLE))
    # small: expanded, identical to the ratings written out
    pd.testing.assert_frame_equal(small.to_long().sort_values(["annotator", "label"])
                                  .reset_index(drop=True)[["annotator", "label"]],
                                  long_from_table(TABLE).sort_values(["annotator", "label"])
                                  .reset_index(drop=True)[["annotator", "label"]])
    assert sorted(map(tuple, small.label_matrix())) == sorted(map(tuple, ratings.label_matrix()))
    boot = iaa.bootstrap(small, "cohen_kappa", n_resamples=50, seed=3)
    assert boot.estimate == iaa.cohen_kappa(ratings).value and len(boot.values) == 50
    # large: an AgreementError naming the size, never a number from one row per cell
    big = Annotations.from_contingency(TABLE * BIG, CATS)
    for call in (lambda: iaa.fleiss_kappa(big), lambda: iaa.davies_fleiss_kappa(big),
                 lambda: iaa.bootstrap(big, "fleiss_kappa", n_resamples=10, seed=0),
                 lambda: iaa.augmented_kappa(big), lambda: iaa.sparse_agreement(big),
                 big.to_long, big.label_matrix):
        with pytest.raises(AgreementError, match="8,000,000,000 ratings"):
            call()
    anon = Annotations.from_counts(np.array([[2, 1], [1, 2]]) * BIG)
    with pytest.raises(AgreementError, match="compares two annotators"):
        iaa.bootstrap(anon, "scott_pi", n_resamples=10, seed=0)  # 3e8 rating slots an item


@pytest.mark.parametrize("name", ["percent_agreement", "scott_pi", "cohen_kappa",
                                  "krippendorff_alpha"])
def test_bootstrap_of_contingency_counts_draws_cells_as_a_multinomial(name):
    # N items drawn with replacement from N fall on the cells as Multinomial(N, t/N)
    # (Efron & Tibshirani 1993, ch. 6: the bootstrap resamples the empirical
    # distribution); each resample is the table of drawn counts, whose coefficient the
    # measure gives directly (checked here by rebuilding that table)
    table = TABLE * 1000
    res = iaa.bootstrap(Annotations.from_contingency(table, CATS), name, n_resamples=30,
                        seed=5)
    rng = np.random.default_rng(5)
    nonzero = table[table > 0]
    for value in res.values:
        drawn = np.zeros_like(table)
        drawn[table > 0] = rng.multinomial(int(table.sum()), nonzero / nonzero.sum())
        expected = getattr(iaa, name)(Annotations.from_contingency(drawn, CATS)).value
        assert value == pytest.approx(expected, rel=1e-10, abs=1e-14)


def test_bootstrap_of_a_hundred_million_per_cell_without_rows():
    big = Annotations.from_contingency(TABLE * BIG, CATS)
    tracemalloc.start()
    res = iaa.bootstrap(big, "cohen_kappa", n_resamples=200, seed=0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20 * 2 ** 20
    # the resampled κ spread like the asymptotic SE of Fleiss, Cohen & Everitt (1969)
    assert res.se == pytest.approx(iaa.cohen_kappa(big).se, rel=0.25)


@pytest.mark.parametrize("name", ["percent_agreement", "fleiss_kappa", "krippendorff_alpha"])
def test_bootstrap_of_item_counts_equals_the_ratings_written_out(name):
    # from_counts items are real items: the same draws, the same resampled values
    counts = np.array([[4, 0, 0], [2, 1, 1], [0, 3, 1], [1, 1, 2], [0, 2, 2], [3, 1, 0]])
    anon = iaa.bootstrap(Annotations.from_counts(counts, CATS), name, n_resamples=40,
                         seed=2)
    rows = iaa.bootstrap(Annotations.from_long(long_from_counts(counts)), name,
                         n_resamples=40, seed=2)
    np.testing.assert_allclose(anon.values, rows.values, rtol=1e-12)


def test_anonymous_counts_two_slot_table_without_expansion():
    # two ratings per item: the old expansion put the lower category first, so
    # t_cc = #items (c, c), t_ck = #items {c, k} for c < k; π is symmetric in the slots
    counts = np.array([[2, 0, 0], [1, 1, 0], [0, 1, 1], [0, 0, 2], [1, 0, 1], [0, 2, 0]])
    anon = Annotations.from_counts(counts * 1, CATS)
    t = pair_contingencies(anon, [[0, 1]])[0]
    np.testing.assert_array_equal(t, [[1, 1, 1], [0, 1, 1], [0, 0, 1]])
    ratings = Annotations.from_long(long_from_counts(counts))
    same_result(iaa.scott_pi(anon), iaa.scott_pi(ratings))


def test_pairwise_on_contingency_counts():
    big = Annotations.from_contingency(TABLE * BIG, CATS)
    frame = iaa.pairwise(big, "cohen_kappa")
    assert frame.loc["A", "B"] == pytest.approx(iaa.cohen_kappa(big).value, rel=1e-14)
    assert frame.attrs["n_items"] == [[0, 40 * BIG], [40 * BIG, 0]]


def test_widget_edits_keep_counts():
    w = iaa.ContingencyMatrix(TABLE * BIG, categories=CATS, editable=True)
    assert w.result["cohen_kappa"].n_items == 40 * BIG
    edited = (TABLE * BIG).tolist()
    edited[0][1] += 1  # what a click on cell (1, 2) sends: one count more
    tracemalloc.start()
    w.matrix = edited
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert w.error == "" and peak < 50 * 2 ** 20
    assert w.matrix[0][1] == 2 * BIG + 1 and w.result["cohen_kappa"].n_items == 40 * BIG + 1
    assert w.result["cohen_kappa"].value == iaa.cohen_kappa(
        Annotations.from_contingency(np.array(edited), CATS)).value


def test_many_categories_refuse_with_the_size():
    # 1e5 items labelled from 1e5 categories: items × categories would be ~68 GiB dense
    rng = np.random.default_rng(0)
    n = 100_000
    df = pd.DataFrame({"item": np.repeat(np.arange(n), 2), "annotator": np.tile(["a", "b"], n),
                       "label": rng.permutation(np.repeat(np.arange(n), 2))})
    ann = Annotations.from_long(df)
    assert ann.n_categories == n
    tracemalloc.start()
    for measure in (iaa.fleiss_kappa, iaa.cohen_kappa, iaa.pairwise):
        with pytest.raises(AgreementError, match=r"100,000 × 100,000 .* GiB"):
            measure(ann)
    # percent agreement needs no K × K table: its items × categories counts stay CSR
    # (issue 28), and A_o is the share of items whose two labels are equal
    two = df.groupby("item")["label"].agg(["min", "max"])
    agree = float((two["min"] == two["max"]).sum())
    assert iaa.percent_agreement(ann).value == agree / n
    # nor nominal α (issue 44: per-item counts, Krippendorff 2011): Σ_c o_cc = 2 per
    # agreeing item, n = 2e5 values, Σ_c n_c² = 1e5 · 2²
    values = 2.0 * n
    assert iaa.krippendorff_alpha(ann).value == pytest.approx(
        1 - (values - 1) * (values - 2 * agree) / (values ** 2 - 4 * n), abs=1e-12)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100 * 2 ** 20
