"""Augmented κ from per-item tables (issue 19) against a brute-force reference.

The package computes p(A), p(E) and every item's κ_x from sums over items of small
tables (no items × annotator-pairs array). Expected numbers come from ``brute_force``
below: Rosenberg & Binkowski (2004) §5 written out literally, one annotator pair and
one item at a time with Python loops and floats: M of §5.1 (1 alone, p primary, 1 − p
secondary), ΣAg / N (§5.1), Freq vectors and p(E) = Σ Freq_A Freq_B (§5.2), κ′ (§5.3);
averages over pairs and the per-item κ_x as the module docstring defines them (each
pair on the items both rated, with its own p(E); κ_x the mean over the pairs that rated
x of (pA_x − p(E)) / (1 − p(E)), undefined if one of them has p(E) = 1).
"""
import tracemalloc
from itertools import combinations

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations


def random_ratings(seed, n_items, n_annotators, k, p_missing, p_second):
    """Tidy rows (item, annotator, label, rank) with missing ratings and secondaries."""
    rng = np.random.default_rng(seed)
    rows = []
    for x in range(n_items):
        for r in range(n_annotators):
            if rng.random() < p_missing:
                continue
            first, second = rng.choice(k, size=2, replace=False)
            rows.append((x, r, int(first), 1))
            if rng.random() < p_second:
                rows.append((x, r, int(second), 2))
    return pd.DataFrame(rows, columns=["item", "annotator", "label", "rank"])


def brute_force(df: pd.DataFrame, p: float) -> dict:
    """§5 per pair and per item with loops (see the module docstring)."""
    labels = {}
    for x, r, y, rank in df.itertuples(index=False):
        labels.setdefault((x, r), [None, None])[rank - 1] = y

    def m_row(x, r):  # M[x, ·] of §5.1 as a dict category → weight
        first, second = labels[(x, r)]
        row = {first: 1.0} if second is None else {first: p, second: 1.0 - p}
        return {y: w for y, w in row.items() if w > 0}   # at p = 1 a secondary weighs 0

    annotators = sorted(df["annotator"].unique())
    items = sorted(df["item"].unique())
    pairs, per_item = {}, {x: [] for x in items}
    for a, b in combinations(annotators, 2):
        shared = [x for x in items if (x, a) in labels and (x, b) in labels]
        if not shared:
            pairs[a, b] = None
            continue
        ag = {x: sum(w * m_row(x, b).get(y, 0.0) for y, w in m_row(x, a).items())
              for x in shared}
        freq_a, freq_b = {}, {}
        for x in shared:
            for y, w in m_row(x, a).items():
                freq_a[y] = freq_a.get(y, 0.0) + w / len(shared)
            for y, w in m_row(x, b).items():
                freq_b[y] = freq_b.get(y, 0.0) + w / len(shared)
        p_e = sum(f * freq_b.get(y, 0.0) for y, f in freq_a.items())
        p_a = sum(ag.values()) / len(shared)
        one = len(freq_a) == 1 and freq_a.keys() == freq_b.keys()  # all on one category
        kappa = None if one else (p_a - p_e) / (1 - p_e)
        pairs[a, b] = (len(shared), p_a, p_e, kappa)
        for x in shared:
            per_item[x].append((ag[x], None if one else (ag[x] - p_e) / (1 - p_e)))
    item_rows = {x: (np.mean([g for g, _ in v]),
                     None if any(k is None for _, k in v) else np.mean([k for _, k in v]),
                     len(v)) for x, v in per_item.items() if len(v) > 0}
    valid = [v for v in pairs.values() if v is not None]
    return {"pairs": pairs, "items": item_rows,
            "value": None if any(v[3] is None for v in valid)
            else np.mean([v[3] for v in valid]),
            "observed": np.mean([v[1] for v in valid]),
            "expected": np.mean([v[2] for v in valid])}


def close(got, want):
    return np.isnan(got) if want is None else abs(got - want) < 1e-12


CASES = [  # seed, items, annotators, categories, share missing, share with a secondary
    (0, 40, 2, 3, 0.0, 0.5), (1, 30, 3, 4, 0.2, 0.4), (2, 25, 5, 3, 0.4, 0.6),
    (3, 20, 7, 5, 0.5, 0.3), (4, 60, 4, 2, 0.1, 0.7), (5, 15, 6, 12, 0.3, 0.5)]


@pytest.mark.parametrize("seed, n, m, k, missing, second", CASES)
def test_direct_matches_brute_force(seed, n, m, k, missing, second):
    df = random_ratings(seed, n, m, k, missing, second)
    ann = Annotations.from_long(df, rank="rank")
    for p in (0.5, 0.6, 0.83, 1.0):
        ref, res = brute_force(df, p), iaa.augmented_kappa(ann, p=p)
        assert close(res.value, ref["value"])
        assert close(res.observed, ref["observed"]) and close(res.expected, ref["expected"])
        for row in res.pairs.itertuples():
            want = ref["pairs"][tuple(sorted((row.annotator_a, row.annotator_b)))]
            if want is None:
                assert row.n_items == 0
                continue
            assert row.n_items == want[0]
            assert close(row.p_a, want[1]) and close(row.p_e, want[2])
            assert close(row.kappa, want[3])
        assert list(res.items["item"]) == sorted(ref["items"])
        for row in res.items.itertuples():
            p_a, kappa, n_pairs = ref["items"][row.item]
            assert close(row.p_a, p_a) and close(row.kappa, kappa)
            assert row.n_pairs == n_pairs


@pytest.mark.parametrize("seed, n, m, k, missing, second", CASES)
def test_sweep_matches_brute_force(seed, n, m, k, missing, second):
    df = random_ratings(seed, n, m, k, missing, second)
    ps = [0.5, 0.61, 0.77, 0.9, 1.0]
    sweep = iaa.augmented_kappa_sweep(Annotations.from_long(df, rank="rank"), ps=ps)
    curves = sweep.item_curves(ps=ps)
    for j, p in enumerate(ps):
        ref = brute_force(df, p)
        assert close(sweep.curve["kappa"].iloc[j], ref["value"])
        assert close(sweep.curve["p_e"].iloc[j], ref["expected"])
        for x, (_, kappa, _) in ref["items"].items():
            assert close(curves.loc[x, p], kappa)
    for col, p in (("kappa_0.5", 0.5), ("kappa_1.0", 1.0)):
        ref = brute_force(df, p)["items"]
        for row in sweep.items[["item", col]].itertuples(index=False):
            assert close(row[1], ref[row[0]][1])


def test_pairs_with_expected_agreement_one_and_lone_items():
    # pair (0, 1): both always "x" alone → p(E) = 1 at every p; annotator 2 adds a
    # secondary → its pairs reach p(E) = 1 only at p = 1 (§5.1 weights 1 and 0);
    # item 9 has one rating and is excluded; annotator 3 shares no item with 0 or 1
    rows = [(x, r, 0, 1) for x in range(4) for r in (0, 1)] + \
        [(x, 2, 0, 1) for x in range(4)] + [(1, 2, 1, 2)] + \
        [(x, r, x % 2, 1) for x in (5, 6, 7) for r in (2, 3)] + [(9, 0, 0, 1)]
    df = pd.DataFrame(rows, columns=["item", "annotator", "label", "rank"])
    sweep = iaa.augmented_kappa_sweep(df, ps=[0.5, 0.7, 1.0], rank="rank")
    assert sweep.excluded == {"rated by fewer than two annotators": 1}
    for p in (0.5, 0.7, 1.0):
        ref, res = brute_force(df, p), iaa.augmented_kappa(df, p=p, rank="rank")
        assert close(res.value, ref["value"])
        for row in res.items.itertuples():
            assert close(row.kappa, ref["items"][row.item][1])
        got = sweep.item_kappa(p)
        for x, (_, kappa, _) in ref["items"].items():
            assert close(got.iloc[list(sweep.items["item"]).index(x)], kappa)


def test_memory_follows_the_tables_not_the_pairs():
    # 3,000 items × 200 annotators, all rating every item: 19,900 pairs, so one float per
    # (item, pair) would take 3,000 × 19,900 × 8 B = 478 MB. The sweep's peak of traced
    # allocations (numpy reports its buffers to tracemalloc) stays under a fifth of that.
    n, m, k = 3000, 200, 4
    rng = np.random.default_rng(0)
    truth = rng.integers(0, k, n)
    label = np.where(rng.random((n, m)) < 0.7, truth[:, None], rng.integers(0, k, (n, m)))
    second = (label + 1 + rng.integers(0, k - 1, (n, m))) % k
    has = rng.random((n, m)) < 0.3
    x, r = np.indices((n, m))
    df = pd.DataFrame({"item": np.concatenate([x.ravel(), x[has]]),
                       "annotator": np.concatenate([r.ravel(), r[has]]),
                       "label": np.concatenate([label.ravel(), second[has]]),
                       "rank": np.repeat([1, 2], [n * m, int(has.sum())])})
    ann = Annotations.from_long(df, rank="rank")
    items_x_pairs = n * (m * (m - 1) // 2) * 8
    tracemalloc.start()
    try:
        sweep = iaa.augmented_kappa_sweep(ann)
        kappa = sweep.item_kappa(0.7)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < items_x_pairs / 5, f"peak {peak / 2**20:.0f} MiB"
    assert len(kappa) == n and np.isfinite(kappa).all()
    # and the numbers: κ′ at p = 1 ignores secondaries (§5), so it is the average over
    # pairs of Cohen's κ on the primaries, here from the 200 × 200 pair tables by hand
    onehot = np.eye(k)[label]                                     # items × m × k
    agree = np.tensordot(onehot, onehot, axes=([0, 2], [0, 2])) / n  # p(A) per pair
    marg = onehot.mean(axis=0)                                    # m × k
    chance = marg @ marg.T                                        # p(E) per pair
    iu = np.triu_indices(m, 1)
    cohen = ((agree - chance) / (1 - chance))[iu].mean()
    assert abs(sweep.curve["kappa"].iloc[-1] - cohen) < 1e-12
