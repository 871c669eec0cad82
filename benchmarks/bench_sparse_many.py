"""SPA with many annotations per item (issue 19): the spread under missingness
(`SpaMissingness`, the SparseAgreementExplorer's drop slider) and the variance curves
(Figures 6/7) on 1e5 items of which some carry up to 200 annotations. Goal: both work
exactly (no approximation) to at least 200 annotations per item, in memory that follows
the annotations; times and peak memory are reported, not asserted.

    PYTHONPATH=. python benchmarks/bench_sparse_many.py [n_items] [heavy_share] [m_max]
"""
import resource
import sys
import time

import numpy as np
import pandas as pd

import iaa_widgets as iaa
from iaa_widgets import Annotations
from iaa_widgets.measures.sparse.missing import SpaMissingness


def many_table(n_items=100_000, heavy=0.05, m_max=200, k=4, seed=0):
    """1–6 annotations per item, and a share ``heavy`` of items with 7 … m_max; each item
    has its own modal label (60 % of its labels), annotators distinct within an item."""
    rng = np.random.default_rng(seed)
    m = np.where(rng.random(n_items) < heavy, rng.integers(7, m_max + 1, n_items),
                 rng.integers(1, 7, n_items))
    m[0] = m_max                                               # at least one at m_max
    item = np.repeat(np.arange(n_items), m)
    annotator = np.arange(len(item)) - np.repeat(np.cumsum(m) - m, m)
    mode = np.repeat(rng.integers(0, k, n_items), m)
    label = np.where(rng.random(len(item)) < 0.6, mode, rng.integers(0, k, len(item)))
    return pd.DataFrame({"item": item, "annotator": annotator, "label": label})


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main(n_items=100_000, heavy=0.05, m_max=200):
    ann = Annotations.from_long(many_table(n_items, heavy, m_max))
    n = np.bincount(ann.item, minlength=ann.n_items)
    print(f"{ann.n_items:,} items, {ann.n_ratings:,} annotations, {ann.n_categories} "
          f"categories; {(n > 6).sum():,} items with 7–{n.max()} annotations")
    t_prep, prep = timed(lambda: SpaMissingness(ann))
    print(f"  SpaMissingness (prepare)                {t_prep:7.3f} s   patterns "
          f"{len(prep.patterns):,}, tabled cells {len(prep._rows):,}, items thinned "
          f"one by one {prep.n_thinned:,} ({len(prep._nonzero):,} non-zero counts)")
    times = [timed(lambda: prep.sample(0.2, 200, seed=s))[0] for s in range(5)]
    print(f"  sample(drop=0.2, 200 rounds), 6 schemes {min(times):7.3f} s (best of 5; "
          f"median {np.median(times):.3f} s)")
    t_curve, _ = timed(lambda: iaa.spa_variance_curve(ann, n_rounds=200, seed=0,
                                                      n_points=25))
    print(f"  spa_variance_curve random, 200 × 25     {t_curve:7.3f} s")
    t_item, _ = timed(lambda: iaa.spa_variance_curve(ann, ["flat"], n_rounds=200, seed=0,
                                                     n_points=25, mode="per_item"))
    print(f"  spa_variance_curve per_item, 200 rounds {t_item:7.3f} s")
    t_import, _ = timed(lambda: iaa.SparseAgreementExplorer)   # altair, anywidget
    t_w, w = timed(lambda: iaa.SparseAgreementExplorer(ann, n_rounds=200))
    print(f"  SparseAgreementExplorer(data)           {t_w:7.3f} s (after its import, "
          f"{t_import:.1f} s)")
    t_drop, _ = timed(lambda: setattr(w, "drop", 0.5))
    print(f"  widget.drop = 0.5 (resample, new rows)  {t_drop:7.3f} s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak RSS of this process                {peak:7.0f} MB")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(float(args[0])) if args else 100_000, float(args[1]) if len(args) > 1 else 0.05,
         int(args[2]) if len(args) > 2 else 200)
