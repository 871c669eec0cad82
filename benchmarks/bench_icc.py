"""ICC and Kendall's W at 10 raters × 1e6 items, end to end from a tidy DataFrame,
against pingouin (intraclass_corr; friedman, which reports Kendall's W).

pingouin's ICC is timed on ``--pingouin-items`` items (default: all 1e6). Its
``friedman`` overflows a C long at 1e6 items (k³ with k the number of items), so it is
timed on ``--friedman-items`` (default 1e4) and scaled linearly to 1e6 (a lower bound
on its cost); ours is timed on the subsample (like for like) and on the full data. The values are checked
equal on the subsample. Finn's coefficient, Robinson's A and Janson–Olsson's ι are
timed on the same ratings, whose one category per distinct value makes an items ×
categories table larger than the dense-table limit: they go through the shared ANOVA
core (ratings in long form) and no longer hit it (no peer in Python to time against).
The bootstrap of ICC(A,1) and of W goes through their Statistics (issue 32): ICC's per-item
ANOVA tables, W's resample weights with its ranks recomputed per resample (exact);
``--resamples`` (default 50) on the full data, timed from the loaded Annotations.
Run: ``python benchmarks/bench_icc.py [--items N] [--resamples B]``.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd


def tidy(n_items: int, n_raters: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    grid = (rng.normal(0, 2, (n_items, 1)) + rng.normal(0, 1, (1, n_raters))
            + rng.normal(0, 1.5, (n_items, n_raters))).round(1)
    return pd.DataFrame({"item": np.repeat(np.arange(n_items), n_raters),
                         "annotator": np.tile(np.arange(n_raters), n_items),
                         "label": grid.ravel()})


CPU = {}  # function name → CPU seconds (process time) of its last timed call


def timed(fn, *args, **kwargs):
    t, c = time.perf_counter(), time.process_time()
    out = fn(*args, **kwargs)
    CPU[getattr(fn, "__name__", "")] = time.process_time() - c
    return out, time.perf_counter() - t


def main() -> None:
    from iaa_widgets.measures.continuous.icc import icc_table
    from iaa_widgets.measures.continuous.kendall import kendall_w

    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--raters", type=int, default=10)
    ap.add_argument("--pingouin-items", type=int, default=1_000_000)
    ap.add_argument("--friedman-items", type=int, default=10_000)
    ap.add_argument("--resamples", type=int, default=50)
    a = ap.parse_args()
    with open("/proc/loadavg") as f:
        print(f"load average at start: {f.read().split()[:3]}")
    import pingouin as pg
    import scipy.stats  # noqa: F401  (loaded before timing, as pingouin loads it)

    full = tidy(a.items, a.raters)
    sub = full[full["item"] < a.pingouin_items]
    scale = a.items / a.pingouin_items
    fscale = a.items / a.friedman_items

    _, t_ours_full = timed(icc_table, full)
    cpu_icc = CPU["icc_table"]
    ours_sub, t_ours_sub = timed(icc_table, sub)
    ref, t_pg_sub = timed(pg.intraclass_corr, sub, targets="item", raters="annotator",
                          ratings="label")
    assert np.allclose(ours_sub["ICC"], ref["ICC"], atol=1e-9)
    _, t_w_full = timed(kendall_w, full)
    cpu_w = CPU["kendall_w"]
    small = full[full["item"] < a.friedman_items]
    w_sub, t_w_sub = timed(kendall_w, small)
    # pingouin.friedman: the raters are the "subjects" (blocks), the items the conditions;
    # at 1e6 items its integer arithmetic overflows (k**3 on a C long), hence a subsample
    fr, t_fr_sub = timed(pg.friedman, small, dv="label", within="item", subject="annotator")
    assert abs(float(fr["W"].iloc[0]) - w_sub.value) < 1e-9

    print(f"{a.raters} raters × {a.items:,} items ({len(full):,} ratings), end to end from a "
          "tidy DataFrame; values checked equal to pingouin's")
    pg_full = t_pg_sub * scale
    print(f"ICC, all six forms (icc_table): ours {t_ours_full:.2f} s (CPU {cpu_icc:.2f} s); "
          f"pingouin "
          f"{t_pg_sub:.2f} s on {a.pingouin_items:,} items"
          + (f" (→ ~{pg_full:.1f} s scaled)" if scale != 1 else "")
          + f"; ratio {pg_full / t_ours_full:.0f}× "
          f"(ours again on the {a.pingouin_items:,} items: {t_ours_sub:.2f} s, "
          f"{t_pg_sub / t_ours_sub:.0f}×)")
    # Finn, Robinson and ι through the shared ANOVA core: the ratings have one category per
    # distinct value (items × categories beyond the dense-table limit), no category table
    from iaa_widgets.data import as_annotations
    from iaa_widgets.measures.continuous.anova import finn_coefficient, janson_olsson_iota, robinson_a
    from iaa_widgets.stats.tables import MAX_CELLS
    ann, t_load = timed(as_annotations, full)
    levels = int(np.ceil(full["label"].max() - full["label"].min())) + 1
    anova = {"Robinson's A": timed(robinson_a, ann)[1],
             "Finn (two-way)": timed(finn_coefficient, ann, levels=levels, model="twoway")[1],
             "Janson–Olsson ι": timed(janson_olsson_iota, ann)[1]}
    print(f"ANOVA family on the loaded data ({ann.n_categories} distinct values: items × "
          f"categories = {a.items * ann.n_categories:,} cells, dense limit {MAX_CELLS:,}; "
          f"load {t_load:.2f} s): "
          + ", ".join(f"{name} {t:.2f} s" for name, t in anova.items()))
    print(f"Kendall's W: ours {t_w_full:.2f} s (CPU {cpu_w:.2f} s); pingouin.friedman "
          f"{t_fr_sub:.2f} s on {a.friedman_items:,} items (→ ~{t_fr_sub * fscale:.1f} s "
          f"scaled linearly; it overflows at 1e6 items); ratio ~{t_fr_sub * fscale / t_w_full:.0f}× "
          f"(like for like on {a.friedman_items:,} items: ours {t_w_sub:.3f} s, "
          f"{t_fr_sub / t_w_sub:.0f}×)")
    import iaa_widgets as iaa
    for name in ("icc", "kendall_w"):
        boot, t = timed(iaa.bootstrap, ann, name, n_resamples=a.resamples, seed=0)
        print(f"bootstrap of {name} through its Statistic, {a.resamples} resamples of "
              f"{a.items:,} items: {t:.2f} s wall, {CPU['bootstrap']:.2f} s CPU; "
              f"interval [{boot.ci[0]:.4f}, {boot.ci[1]:.4f}]")


if __name__ == "__main__":
    main()
