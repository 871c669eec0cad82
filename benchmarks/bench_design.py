"""Comparing and planning (issue 45 §3–4): the paired linearised ``iaa.compare`` at 1e6
ratings (goal < 1 s) and the analytic ``iaa.sample_size`` (goal < 10 ms a call).

Data: two data sets on the same 2e5 items × 5 annotators (1e6 ratings each), 4
categories, the second with more agreement. Each row times ``iaa.compare(a, b, measure)``
(Gwet's 2016 paired t-test on linearised terms; the median of ``--repeats`` runs) beside
the floor of computing the measure itself on both data sets (``measure(a)``,
``measure(b)``): what the test adds to the two values. ``sample_size``: the median of 200
calls of each analytic method (after a first call that loads scipy's modules).
``--coverage N``: the Monte-Carlo coverage of the paired linearised test's 95 % interval
(issue 45, "Tests"): N pairs of data sets on the same 80 items (3 annotators each, 3
categories, each annotator right with probability 0.6, else a uniform label), both drawn
from one model, so that the two coefficients' true difference is 0; the share of
intervals that hold 0 must lie in 93–97 % for N ≥ 500 (``--coverage 100``: the fast
variant, checked only for a gross failure).
Wall-clock seconds; CPU seconds of this process beside them (a shared machine's other
processes inflate the wall clock, not CPU time).

    PYTHONPATH=. python benchmarks/bench_design.py [--items 200000] [--repeats 3]
    PYTHONPATH=. python benchmarks/bench_design.py --coverage 500
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pandas as pd

import iaa_widgets as iaa

MEASURES = ["fleiss_kappa", "davies_fleiss_kappa", "gwet_ac1", "gwet_ac2", "bennett_s",
            "percent_agreement", "krippendorff_alpha"]
DESIGNS = {
    "cantor": dict(method="cantor", kappa0=0.85, kappa1=0.7, prevalence=(0.5, 0.5)),
    "flack": dict(method="flack", margins=[0.3, 0.3, 0.4], kappa0=0.5, kappa1=0.7),
    "rotondi-ci": dict(method="rotondi-ci", kappa0=0.6, kappa_low=0.4, kappa_high=0.8,
                       prevalence=[0.2, 0.3, 0.5], raters=4),
    "rotondi-power": dict(method="rotondi-power", kappa0=0.4, kappa1=0.6,
                          prevalence=[0.1, 0.2, 0.3, 0.4], raters=6),
    "rotondi-bound": dict(method="rotondi-bound", kappa0=0.6, n_items=100, prevalence=0.3,
                          raters=3),
    "percent": dict(method="percent", agreement=0.8, half_width=0.05),
}


def data(n_items: int, raters: int, p: float, rng) -> iaa.Annotations:
    truth = rng.integers(0, 4, n_items)
    labels = np.where(rng.random((n_items, raters)) < p, truth[:, None],
                      rng.integers(0, 4, (n_items, raters)))
    return iaa.Annotations.from_long(pd.DataFrame({
        "item": np.repeat(np.arange(n_items), raters),
        "annotator": np.tile([f"r{j}" for j in range(raters)], n_items),
        "label": labels.ravel()}))


def timed(fn, repeats: int):
    walls, cpus = [], []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def coverage(n_sets: int, measures=("fleiss_kappa", "gwet_ac1", "krippendorff_alpha"),
             n_items: int = 80, seed: int = 1) -> dict:
    """The share of the paired linearised test's 95 % intervals that hold the true
    difference 0, per measure, over ``n_sets`` pairs of data sets (module docstring)."""
    rng = np.random.default_rng(seed)
    hits = {m: 0 for m in measures}
    columns = [f"r{j}" for j in range(3)]
    for _ in range(n_sets):
        truth = rng.integers(0, 3, n_items)
        pair = [iaa.Annotations.from_wide(pd.DataFrame(np.where(
            rng.random((n_items, 3)) < 0.6, truth[:, None], rng.integers(0, 3, (n_items, 3))),
            columns=columns)) for _ in range(2)]
        for m in measures:
            low, high = iaa.compare(*pair, m).ci
            hits[m] += low <= 0 <= high
    return {m: h / n_sets for m, h in hits.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--coverage", type=int, default=0)
    ap.add_argument("--items", type=int, default=200_000)
    ap.add_argument("--raters", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    if args.coverage:
        shares = coverage(args.coverage)
        print(f"coverage of the paired linearised 95 % interval over {args.coverage} pairs "
              "of data sets (goal 93–97 %):")
        for m, share in shares.items():
            print(f"{m:22s} {share:.3f}")
        return
    rng = np.random.default_rng(0)
    a, b = data(args.items, args.raters, 0.6, rng), data(args.items, args.raters, 0.7, rng)
    small_a, small_b = data(50, 3, 0.6, rng), data(50, 3, 0.7, rng)
    print(f"paired compare, {args.items:,} items × {args.raters} annotators "
          f"({a.n_ratings:,} ratings each); goal < 1 s")
    print(f"{'measure':22s} {'compare s':>10s} {'cpu s':>7s} {'2 measures s':>13s} {'ratio':>6s}")
    for name in MEASURES:
        iaa.compare(small_a, small_b, name)  # modules loaded once, not on the first row
        fn = getattr(iaa, name)
        wall, cpu = timed(lambda: iaa.compare(a, b, name), args.repeats)
        floor, _ = timed(lambda: (fn(a), fn(b)), args.repeats)
        print(f"{name:22s} {wall:10.3f} {cpu:7.3f} {floor:13.3f} {wall / floor:6.2f}")
    print("\nanalytic sample_size, median of 200 calls; goal < 10 ms")
    for name, kwargs in DESIGNS.items():
        iaa.sample_size(**kwargs)
        wall, cpu = timed(lambda: iaa.sample_size(**kwargs), 200)
        print(f"{name:22s} {wall * 1e3:8.3f} ms (cpu {cpu * 1e3:.3f} ms) "
              f"-> n = {iaa.sample_size(**kwargs).n_items}")


if __name__ == "__main__":
    main()
