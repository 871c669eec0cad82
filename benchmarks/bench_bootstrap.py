"""1,000 bootstrap resamples of every categorical measure with a Statistic (issue 20).

Data: 1e5 items × 5 annotators, 4 ordered categories, 10 % of ratings missing, a
secondary label on a fifth of the ratings (augmented κ reads them, the others not).
``Statistic``: ``iaa.bootstrap(data, name, n_resamples=1000, seed=0)`` (pairwise:
``iaa.pairwise(data, name, ci="percentile", n_resamples=1000, seed=0)``), item weights
on the measure's per-item tables, counted per distinct item row where items repeat
(``Statistic.distinct``). ``row``: the reference path, each resample rebuilt and the
public function recomputed (a wrapper function, which has no Statistic), timed on
``--row-resamples`` resamples and scaled to 1,000; the first resamples' values are
compared. Wall-clock seconds, CPU seconds of this process (both its threads) and CPU
seconds of its main thread are printed: on a shared, loaded machine the wall clock
counts the other processes' turns, CPU time does not (it still pays for their cache
pressure). The item draws run on a second thread beside the counting
(``stats.resampling._drawn_ahead``), so on two free cores the wall clock is about the main
thread's CPU time (when the drawing thread keeps up: 0.3 s of draws per 1,000
resamples of 1e5 items). First line: the floor of the per-item path,
the item weights of 1,000 resamples (1e8 ``rng.integers`` and their bincounts). Before
the table, every measure bootstraps a small data set once (``warm_up``): the modules a
measure loads on its first call (scipy.special for Gwet's t, 0.3 s; scipy.sparse …)
are paid once per process, not per bootstrap, and would otherwise land on whichever
row comes first.

Krippendorff's bootstrap (issue 45 §1; ``--krippendorff`` runs only this part):
``iaa.bootstrap(data, "krippendorff_alpha", method="krippendorff", n_resamples=20_000)``
on 1e5 pairable values, complete nominal ratings of 4 categories by 2 annotators (5e4
units, M = 5e4 pairs a replicate) and by 5 annotators (2e4 units, M = 2e5), the whole
call timed (α, its coincidence matrix, the draws). Goal: < 1 s. A replicate is one
Multinomial(M, p) over the coincidence cells (cells of equal δ merged), never a loop
over pairs; kripp.boot loops over M pairs × cells in R per replicate (its cap min(25·q,
M) keeps M at 25·q = 250 here).

    PYTHONPATH=. python benchmarks/bench_bootstrap.py [--items 100000] [--row-resamples 20]
    PYTHONPATH=. python benchmarks/bench_bootstrap.py --krippendorff
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import iaa_widgets as iaa

PAIR = {"annotators": ["r0", "r1"]}
PAIRWISE = [("cohen_kappa", {}), ("krippendorff_alpha", {"metric": "ordinal"})]
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
    # coefficients of the field added beside these (their own modules)
    ("gwet_ac1", {}),
    ("gwet_ac2", {}),
    ("conger_kappa", {}),
    ("light_kappa", {}),
    ("hubert_kappa", {}),
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
    """(wall seconds, CPU seconds of this process, CPU seconds of this thread, the
    call's value)."""
    start, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
    out = call()
    return (time.perf_counter() - start, time.process_time() - cpu,
            time.thread_time() - main, out)


def warm_up(selected) -> float:
    """Each selected measure bootstrapped once on 300 items (its first-call imports):
    the seconds it took."""
    small = data(300)
    start = time.perf_counter()
    for name, kwargs in selected:
        iaa.bootstrap(small, name, n_resamples=2, seed=0, **kwargs)
    return time.perf_counter() - start


def row(label, stat, row_time, n_row, diff):
    (t_stat, c_stat, m_stat), t_row = stat, row_time * 1000 / n_row
    print(f"| {label} | {t_stat:.2f} s / {c_stat:.2f} s / {m_stat:.2f} s | ~{t_row:.1f} s | "
          f"{t_row / t_stat:.0f}× | {diff:.1e} |", flush=True)


def pairwise_rows(ann, name, kwargs, n_row):
    """pairwise(…, ci=) against rebuilding each resample and recomputing the matrix."""
    from iaa_widgets.stats.resampling import _resample, resampled
    t_stat, c_stat, m_stat, _ = timed(lambda: iaa.pairwise(ann, name, ci="percentile",
                                                           n_resamples=1000, seed=0,
                                                           **kwargs))
    fast = resampled(iaa.pairwise.statistic(ann, name, **kwargs), n_row,
                     np.random.default_rng(0))
    by_item = np.argsort(ann.item, kind="stable")
    sizes = np.bincount(ann.item, minlength=ann.n_items)
    starts = np.cumsum(sizes) - sizes
    rng = np.random.default_rng(0)
    upper = np.triu_indices(ann.n_annotators, 1)

    def rebuilt():
        return np.array([iaa.pairwise(_resample(ann, by_item, starts, sizes,
                                                rng.integers(0, ann.n_items, ann.n_items)),
                                      name, **kwargs).to_numpy()[upper]
                         for _ in range(n_row)])
    t_row, _, _, slow = timed(rebuilt)
    row(f"pairwise {name}" + "".join(f" {k}={v}" for k, v in kwargs.items()),
        (t_stat, c_stat, m_stat), t_row, n_row, np.nanmax(np.abs(fast - slow)))


def krippendorff_rows(pairable: int = 100_000, replicates: int = 20_000) -> None:
    """Krippendorff's bootstrap on ``pairable`` values by 2 and by 5 annotators."""
    print(f"| Krippendorff's bootstrap, {replicates:,} replicates | units | M | wall / CPU |"
          " interval |\n|---|---:|---:|---:|---|")
    for raters in (2, 5):
        rng = np.random.default_rng(raters)
        units = pairable // raters
        truth = rng.integers(0, 4, units)
        x = np.where(rng.random((units, raters)) < 0.7, truth[:, None],
                     rng.integers(0, 4, (units, raters)))
        ann = iaa.Annotations.from_wide(pd.DataFrame(x, columns=[f"r{j}" for j in
                                                               range(raters)]))
        iaa.bootstrap(ann, "krippendorff_alpha", method="krippendorff", n_resamples=2,
                      seed=0)  # first-call imports
        t, c, _, res = timed(lambda: iaa.bootstrap(ann, "krippendorff_alpha",
                                                   method="krippendorff",
                                                   n_resamples=replicates, seed=0))
        print(f"| {raters} annotators, {res.n_ratings:,} pairable values | {units:,} | "
              f"{res.n_draws:,} | {t:.2f} s / {c:.2f} s | [{res.ci[0]:.4f}, "
              f"{res.ci[1]:.4f}] |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=100_000)
    ap.add_argument("--row-resamples", type=int, default=20)
    ap.add_argument("--only", nargs="*", help="measure names to run (default: all)")
    ap.add_argument("--krippendorff", action="store_true",
                    help="only Krippendorff's bootstrap on 1e5 pairable values")
    args = ap.parse_args()
    if args.krippendorff:
        krippendorff_rows()
        return
    ann = data(args.items)
    n = ann.n_items
    from types import SimpleNamespace
    from iaa_widgets.stats.resampling import _weight_blocks  # the draws every measure shares
    rows = SimpleNamespace(n_items=n, weights=None)
    for _ in range(2):  # the second run: pages of the blocks already mapped
        t_draws, c_draws, m_draws, _ = timed(lambda: [None for _ in _weight_blocks(
            np.random.default_rng(0), rows, 1000)])
    print(f"{n:,} items × 5 annotators, {ann.n_ratings:,} ratings; the item weights of "
          f"1,000 resamples alone (rng.integers, bincount, to float): {t_draws:.2f} s wall, "
          f"{c_draws:.2f} s CPU, {m_draws:.2f} s CPU of the main thread\n")
    selected = [(name, kw) for name, kw in MEASURES if not args.only or name in args.only]
    print(f"warm-up (first-call imports, every measure once on 300 items): "
          f"{warm_up(selected):.2f} s\n")
    print(f"| measure | Statistic, 1,000 (wall / CPU / main thread) | row, 1,000 (from "
          f"{args.row_resamples}) | faster | max abs difference |")
    print("|---|---:|---:|---:|---:|")
    for name, kwargs in selected:
        fn = getattr(iaa, name)
        t_stat, c_stat, m_stat, fast = timed(lambda: iaa.bootstrap(ann, name,
                                                                   n_resamples=1000, seed=0,
                                                                   **kwargs))
        t_row, _, _, slow = timed(lambda: iaa.bootstrap(ann, lambda d, **kw: fn(d, **kw),
                                                     n_resamples=args.row_resamples, seed=0,
                                                     **kwargs))
        diff = np.nanmax(np.abs(fast.values[:args.row_resamples] - slow.values))
        label = name + "".join(f" {k}={v}" for k, v in kwargs.items() if k != "annotators")
        row(label, (t_stat, c_stat, m_stat), t_row, args.row_resamples, diff)
    for name, kwargs in PAIRWISE:
        if not args.only or "pairwise" in args.only:
            pairwise_rows(ann, name, kwargs, args.row_resamples)


if __name__ == "__main__":
    main()
