"""Sparse Probability of Agreement (Nørregaard & Derczynski). Goals:
- SPA on 1e6 sparsely annotated items in under 0.2 s from Annotations (every scheme);
- a variance curve (Figures 6/7) with 3,000 rounds on 4,500 items × 6 annotators in
  under 10 s (both modes; the random mode with all six schemes at 50 times).

Compared with: the `krippendorff` package's nominal α from the same item × category
counts (it computes 1 − D_o, which is SPA with "annotations" weights, on the way), and
for the curves a plain per-round loop (numpy over items, one round at a time) timed on
a few rounds and scaled to 3,000. No peer library implements SPA or its curves.

    PYTHONPATH=. python benchmarks/bench_sparse.py [n_items] [n_annotators]
"""
import sys
import time

import numpy as np
import pandas as pd

import iaa_widgets as iaa
from iaa_widgets import Annotations
from iaa_widgets.measures.sparse.variance import SPA_SCHEMES
from iaa_widgets.stats import item_counts


CPU = {}   # label -> best CPU seconds (process time), printed beside wall times


def best_of(fn, repeat=3, label=None):
    times, cpus = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    if label:
        CPU[label] = min(cpus)
    return min(times), out


def sparse_table(n_items: int, n_annotators: int = 30, k: int = 5, seed: int = 0):
    """1 – 6 annotations per item from a pool of annotators; each item has its own
    label distribution, so item agreements differ."""
    rng = np.random.default_rng(seed)
    m = rng.integers(1, 7, n_items)
    item = np.repeat(np.arange(n_items), m)
    first = np.repeat(rng.integers(0, n_annotators, n_items), m)
    slot = np.arange(len(item)) - np.repeat(np.cumsum(m) - m, m)
    annotator = (first + slot) % n_annotators                  # distinct within an item
    mode = np.repeat(rng.integers(0, k, n_items), m)
    label = np.where(rng.random(len(item)) < 0.6, mode, rng.integers(0, k, len(item)))
    return pd.DataFrame({"item": item, "annotator": annotator, "label": label})


def complete_matrix(n_items=4500, n_annotators=6, seed=1):
    rng = np.random.default_rng(seed)
    item_p = rng.dirichlet([1.5, 1.0, 0.6, 0.4], size=n_items)
    u = rng.random((n_items, n_annotators, 1))
    return (u > np.cumsum(item_p, axis=1)[:, None, :]).sum(axis=2).clip(max=3)


def loop_curve(x, n_rounds, n_points, rng):
    """The random-mode experiment one round at a time (numpy over items)."""
    n_items, m = x.shape
    shares = np.bincount(x.ravel(), minlength=4) / x.size
    var_c = iaa.spa_item_variance(np.arange(m + 1), class_probs=shares)
    var_u = iaa.spa_item_variance(np.arange(m + 1), n_classes=4)
    n_all = np.arange(m + 1, dtype=float)
    weights = [np.ones(m + 1), n_all, n_all - 1, n_all * (n_all - 1) / 2, 1 / var_u,
               1 / var_c]
    onehot = np.eye(4)[x]                                        # items × m × classes
    out = np.empty((n_rounds, n_points, len(weights)))
    for r in range(n_rounds):
        t = rng.random(x.shape)
        for g in range(n_points):
            counts = (onehot * (t < (g + 1) / n_points)[..., None]).sum(axis=1)
            n = counts.sum(axis=1).astype(int)
            ok = n >= 2
            p_hat = (counts * (counts - 1)).sum(axis=1)[ok] / (n[ok] * (n[ok] - 1))
            for j, w in enumerate(weights):
                k = w[n[ok]]
                out[r, g, j] = k @ p_hat / k.sum() if ok.any() else np.nan
    return out


def main(n_items: int = 1_000_000, n_annotators: int = 30):
    table = sparse_table(n_items, n_annotators)
    t_load, ann = best_of(lambda: Annotations.from_long(table), repeat=1)
    print(f"SPA: {n_items:,} items, {ann.n_ratings:,} ratings (1–6 per item), "
          f"{ann.n_annotators} annotators, {ann.n_categories} categories")
    print(f"  loading (Annotations.from_long)                {t_load:8.3f} s")
    t_spa = {}
    for scheme in SPA_SCHEMES:
        t_spa[scheme], res = best_of(lambda: iaa.sparse_agreement(ann, scheme), label=scheme)
        print(f"  iaa.sparse_agreement {scheme:<16}          {t_spa[scheme]:8.3f} s "
              f"(CPU {CPU[scheme]:.3f} s)   "
              f"goal < 0.2 s: {'met' if t_spa[scheme] < 0.2 else 'NOT met'}   "
              f"SPA = {res.value:.6f}")
    import krippendorff
    counts = item_counts(ann)
    t_k, alpha = best_of(lambda: krippendorff.alpha(value_counts=counts,
                                                    level_of_measurement="nominal"),
                         repeat=1, label="krippendorff")
    spa_n = iaa.sparse_agreement(ann, "annotations").value
    print(f"  krippendorff.alpha (nominal, from the counts)  {t_k:8.3f} s "
          f"(CPU {CPU['krippendorff']:.3f} s)   ratio "
          f"{t_k / t_spa['annotations']:6.1f}× SPA 'annotations' (α = {alpha:.6f}; "
          f"our 1 − D_o = {spa_n:.6f})")

    x = complete_matrix()
    data = Annotations.from_wide(pd.DataFrame(x))
    rounds = 3000
    print(f"\nvariance curves: {x.shape[0]:,} items × {x.shape[1]} annotators, "
          f"{rounds:,} rounds")
    t_rand, curve = best_of(lambda: iaa.spa_variance_curve(
        data, SPA_SCHEMES, n_rounds=rounds, seed=0, mode="random", n_points=50), repeat=1,
        label="random")
    print(f"  spa_variance_curve random, 6 schemes, 50 τ     {t_rand:8.3f} s "
          f"(CPU {CPU['random']:.3f} s)   "
          f"goal < 10 s: {'met' if t_rand < 10 else 'NOT met'}")
    t_item, _ = best_of(lambda: iaa.spa_variance_curve(
        data, ["flat"], n_rounds=rounds, seed=0, mode="per_item", n_points=50), repeat=1,
        label="per_item")
    print(f"  spa_variance_curve per_item, a = 2 … 6         {t_item:8.3f} s "
          f"(CPU {CPU['per_item']:.3f} s)   "
          f"goal < 10 s: {'met' if t_item < 10 else 'NOT met'}")
    few = 5
    t_loop, _ = best_of(lambda: loop_curve(x, few, 50, np.random.default_rng(0)), repeat=1,
                        label="loop")
    t_loop *= rounds / few
    print(f"  plain per-round loop, scaled from {few} rounds    {t_loop:8.3f} s "
          f"(CPU {CPU['loop'] * rounds / few:.1f} s)   "
          f"ratio {t_loop / t_rand:6.1f}× the random curve")
    half = curve[curve["fraction"] == 0.5].set_index("scheme")["variance"]
    print("  variance of SPA at τ = 1/2 minus flat (Figure 7): " + ", ".join(
        f"{sc} {half[sc] - half['flat']:+.2e}" for sc in SPA_SCHEMES[1:]))


if __name__ == "__main__":
    main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 1_000_000,
         int(sys.argv[2]) if len(sys.argv) > 2 else 30)
