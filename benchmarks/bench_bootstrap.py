"""1,000 bootstrap resamples of every categorical measure with a Statistic (issue 20).

Data: 1e5 items × 5 annotators, 4 ordered categories, 10 % of ratings missing, a
secondary label on a fifth of the ratings (augmented κ reads them, the others not).
``Statistic``: ``iaa.bootstrap(name, data, n_resamples=1000, seed=0)``, item weights on
the measure's per-item tables (one product per block of resamples). ``row``: the
reference path, each resample rebuilt and the public function recomputed (a wrapper
function, which has no Statistic), timed on ``--row-resamples`` resamples and scaled to
1,000; the first resamples' values are compared. First line: the floor of every
measure, the item weights of 1,000 resamples (1e8 ``rng.integers``, their bincounts,
as floats).

    PYTHONPATH=. python benchmarks/bench_bootstrap.py [--items 100000] [--row-resamples 20]
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import iaa_widgets as iaa

PAIR = {"annotators": ["r0", "r1"]}
MEASURES = [
    ("percent_agreement", {}),
    ("bennett_s", {}),
    ("scott_pi", PAIR),
    ("cohen_kappa", PAIR),
    ("cohen_kappa", {**PAIR, "weights": "quadratic"}),
    ("fleiss_kappa", {}),
    ("fleiss_kappa", {"missing": "available"}),
    ("davies_fleiss_kappa", {}),
    ("specific_agreement", {"positive": 1}),
    ("krippendorff_alpha", {"metric": "nominal"}),
    ("krippendorff_alpha", {"metric": "ordinal"}),
    ("krippendorff_alpha", {"metric": "interval"}),
    ("krippendorff_alpha", {"metric": "ratio"}),
    ("sparse_agreement", {}),
    ("sparse_agreement", {"weights": "inv_var_class"}),
    ("sparse_kappa", {}),
    ("augmented_kappa", {"p": 0.6}),
]


def data(n_items: int, n_raters: int = 5, seed: int = 0) -> iaa.Annotations:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 5, n_items)
    x = np.where(rng.random((n_items, n_raters)) < 0.6, truth[:, None],
                 rng.integers(1, 5, (n_items, n_raters)))
    rows, cols = np.nonzero(rng.random((n_items, n_raters)) >= 0.1)
    df = pd.DataFrame({"item": rows, "annotator": [f"r{c}" for c in cols],
                       "label": x[rows, cols], "rank": 1})
    second = df[rng.random(len(df)) < 0.2].assign(rank=2)
    second["label"] = (second["label"] + rng.integers(0, 3, len(second))) % 4 + 1
    return iaa.Annotations.from_long(pd.concat([df, second], ignore_index=True),
                                     rank="rank", categories=[1, 2, 3, 4])


def timed(call):
    start = time.perf_counter()
    out = call()
    return time.perf_counter() - start, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=100_000)
    ap.add_argument("--row-resamples", type=int, default=20)
    ap.add_argument("--only", nargs="*", help="measure names to run (default: all)")
    args = ap.parse_args()
    ann = data(args.items)
    n = ann.n_items
    from types import SimpleNamespace
    from iaa_widgets.resampling import _weight_blocks  # the draws every measure shares
    rows = SimpleNamespace(n_items=n, weights=None)
    for _ in range(2):  # the second run: pages of the blocks already mapped
        t_draws, _ = timed(lambda: [None for _ in _weight_blocks(np.random.default_rng(0),
                                                                  rows, 1000)])
    print(f"{n:,} items × 5 annotators, {ann.n_ratings:,} ratings; the item weights of "
          f"1,000 resamples alone (rng.integers, bincount, to float): {t_draws:.2f} s\n")
    print(f"| measure | Statistic, 1,000 | row, 1,000 (from {args.row_resamples}) | faster "
          "| max abs difference |")
    print("|---|---:|---:|---:|---:|")
    for name, kwargs in MEASURES:
        if args.only and name not in args.only:
            continue
        fn = getattr(iaa, name)
        t_stat, fast = timed(lambda: iaa.bootstrap(name, ann, n_resamples=1000, seed=0,
                                                   **kwargs))
        t_row, slow = timed(lambda: iaa.bootstrap(lambda d, **kw: fn(d, **kw), ann,
                                                  n_resamples=args.row_resamples, seed=0,
                                                  **kwargs))
        t_row *= 1000 / args.row_resamples
        diff = np.nanmax(np.abs(fast.values[:args.row_resamples] - slow.values))
        label = name + "".join(f" {k}={v}" for k, v in kwargs.items() if k != "annotators")
        print(f"| {label} | {t_stat:.2f} s | ~{t_row:.1f} s | {t_row / t_stat:.0f}× "
              f"| {diff:.1e} |", flush=True)


if __name__ == "__main__":
    main()
