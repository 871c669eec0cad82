"""Krippendorff's α on continuous ratings (many distinct values), issue 32.

Ratings: each item has a true score, each of 10 raters reports it with noise (10 % of
ratings missing), rounded onto a grid that gives the wanted number of distinct values.
Every timing starts from the tidy table (integer ids, float labels) and includes loading.

- interval and ordinal α, 1.2e6 ratings with ~1.2e5 distinct values: goal < 2 s each,
  equal to the moment formula (written here with numpy from Krippendorff 2011's D_o and
  D_e) to 1e-9; the coincidence matrix would be 1.2e5² (refused before);
- interval and ordinal α, 1e7 ratings: goal < 3 s and < 1 GiB (peak RSS above the table,
  fresh subprocess);
- ratio α, 1.6e5 ratings with 1.2e4 distinct values: goal < 5 s;
- 200 bootstrap resamples of interval α on the 1.2e6 ratings: goal < 5 s;
- the krippendorff package where it runs (it builds a values × values table per item
  batch): 1,800 ratings with ~300 distinct values, all three metrics, values compared;
- bounds (issue 44): ratio α near its bound ``alpha_values.MAX_RATIO_VALUES`` (50,000
  distinct values: goal ≲ 7 s CPU, the bound's estimate) and its refusal on 1e6 distinct
  values (goal < 2 s: no sweep); nominal α on 1e5 distinct labels from per-item counts
  (goal < 1 s, equal to n − Σ o_cc over n² − Σ n_c² written here with numpy).

    PYTHONPATH=. python benchmarks/bench_alpha_values.py [--repeat 2] [--skip-memory]
                                                        [--bounds-only]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import numpy as np
import pandas as pd

import iaa_widgets as iaa
from bench_classic import timed as best  # (wall, CPU) of the best run, and the value


def scores(n_items: int, distinct: int, raters: int = 10, seed: int = 0) -> pd.DataFrame:
    """Tidy ratings on about ``distinct`` values ≥ 0 (a grid of step 0.01)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 1, (n_items, 1)) + rng.normal(0, 0.6, (n_items, raters))
    x = np.round((x - x.min()) / np.ptp(x) * (distinct - 1)) / 100
    rows, cols = np.nonzero(rng.random((n_items, raters)) >= 0.1)
    return pd.DataFrame({"item": rows, "annotator": cols, "label": x[rows, cols]})


def moment_formula(df: pd.DataFrame, metric: str) -> float:
    """α = 1 − D_o/D_e with δ = (c − k)² (ordinal: on mid-ranks over the pairable values,
    mid_c = Σ_{g≤c} n_g − n_c/2): Σ_{u≠u' in an item} δ = 2 m SS_item, Σ over all pairs
    = 2 n SS (Krippendorff 2011), with numpy."""
    item = df["item"].to_numpy()
    v = df["label"].to_numpy(float)
    m = np.bincount(item)
    keep = m[item] >= 2
    item, v = item[keep], v[keep]
    if metric == "ordinal":
        uniq, inv, n_g = np.unique(v, return_inverse=True, return_counts=True)
        v = (np.cumsum(n_g) - n_g / 2)[inv]
    mean = np.bincount(item, weights=v) / np.maximum(m, 1)
    ss = np.bincount(item, weights=(v - mean[item]) ** 2)
    within = np.sum(2 * m * ss / np.maximum(m - 1, 1))
    n = len(v)
    return 1 - (within / n) / (2 * np.sum((v - v.mean()) ** 2) / (n - 1))


def memory_child(metric: str, n_items: int) -> None:
    """Peak RSS of α after the table is built (VmHWM reset by /proc/self/clear_refs)."""
    df = scores(n_items, 210_000)

    def status_mb(key):
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith(key)) / 1024
    base = status_mb("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    w, c = time.perf_counter(), time.process_time()
    value = iaa.krippendorff_alpha(df, metric).value
    print(json.dumps({"wall": time.perf_counter() - w, "cpu": time.process_time() - c,
                      "peak_above_mb": status_mb("VmHWM") - base, "value": value,
                      "ratings": len(df)}))


def nominal_formula(df: pd.DataFrame) -> float:
    """Nominal α = 1 − (n − 1)(n − Σ_c o_cc)/(n² − Σ_c n_c²) over the pairable values,
    o_cc = Σ_i n_ic(n_ic − 1)/(m_i − 1) (Krippendorff 2011), with numpy."""
    item = df["item"].to_numpy()
    m = np.bincount(item)
    keep = m[item] >= 2
    item, label = item[keep], pd.factorize(df["label"].to_numpy()[keep])[0]
    _, n_ic = np.unique(np.stack([item, label]), axis=1, return_counts=True)
    cells = np.unique(np.stack([item, label]), axis=1)
    o_cc = np.sum(n_ic * (n_ic - 1) / (m[cells[0]] - 1))
    n = float(len(item))
    return 1 - (n - 1) * (n - o_cc) / (n * n - np.sum(np.bincount(label) ** 2.0))


def bounds(repeat: int) -> None:
    """Ratio α near its bound and beyond it; nominal α on many labels (issue 44)."""
    from iaa_widgets.measures.continuous import alpha_values
    near = scores(11_000, 135_000, seed=3)  # 47,847 distinct values
    k = near["label"].nunique()
    (t, c), v = best(lambda: iaa.krippendorff_alpha(near, "ratio").value, 1)
    print(f"\n== bounds: ratio α on {k:,} distinct values (bound "
          f"{alpha_values.MAX_RATIO_VALUES:,}): {t:6.3f} / {c:6.3f} s (goal ≲ 7 s CPU), "
          f"α = {v:.9f}")
    rng = np.random.default_rng(4)
    x = rng.uniform(1, 1e6, (500_000, 1)) * rng.uniform(0.9, 1.1, (500_000, 2))
    many = pd.DataFrame({"item": np.repeat(np.arange(500_000), 2),
                         "annotator": np.tile([0, 1], 500_000), "label": x.ravel()})
    w, c = time.perf_counter(), time.process_time()
    try:
        iaa.krippendorff_alpha(many, "ratio")
        refused = "not refused"
    except iaa.AgreementError as e:
        refused = str(e).split(". ")[0]
    print(f"  ratio α on {many['label'].nunique():,} distinct values: "
          f"{time.perf_counter() - w:6.3f} / {time.process_time() - c:6.3f} s to refuse "
          f"(goal < 2 s CPU): {refused}")
    labels = many.assign(label=np.floor(many["label"] / 10))  # ~1e5 labels, shared
    (t, c), v = best(lambda: iaa.krippendorff_alpha(labels).value, repeat)
    print(f"  nominal α on {labels['label'].nunique():,} distinct labels: {t:6.3f} / "
          f"{c:6.3f} s (goal < 1 s), differs from the formula by "
          f"{v - nominal_formula(labels):+.1e}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--bounds-only", action="store_true")
    ap.add_argument("--memory-child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.memory_child:
        memory_child(args.memory_child[0], int(args.memory_child[1]))
        return
    with open("/proc/loadavg") as f:
        print(f"load average at start: {f.read().split()[:3]}")
    if args.bounds_only:
        bounds(args.repeat)
        return
    df = scores(133_000, 210_000)
    print(f"\n== {len(df):,} ratings, {df['label'].nunique():,} distinct values "
          f"(best of {args.repeat}, wall / CPU)")
    for metric in ("interval", "ordinal"):
        (t, c), v = best(lambda: iaa.krippendorff_alpha(df, metric).value, args.repeat)
        ref = moment_formula(df, metric)
        print(f"  {metric:<9} α = {v:.12f}  {t:6.3f} / {c:6.3f} s  (goal < 2 s); moment "
              f"formula differs by {v - ref:+.1e} (goal < 1e-9)")
    (t, c), b = best(lambda: iaa.bootstrap(df, "krippendorff_alpha", n_resamples=200,
                                           seed=0, metric="interval"), args.repeat)
    print(f"  interval, 200 bootstrap resamples: {t:6.3f} / {c:6.3f} s (goal < 5 s), "
          f"interval [{b.ci[0]:.4f}, {b.ci[1]:.4f}]")
    (t, c), b = best(lambda: iaa.bootstrap(df, "krippendorff_alpha", n_resamples=200,
                                           seed=0, metric="ordinal"), 1)
    print(f"  ordinal, 200 bootstrap resamples (exact: ranks per resample): {t:6.3f} / "
          f"{c:6.3f} s, interval [{b.ci[0]:.4f}, {b.ci[1]:.4f}]")

    small = scores(17_800, 19_500, seed=1)
    (t, c), v = best(lambda: iaa.krippendorff_alpha(small, "ratio").value, args.repeat)
    print(f"\n== ratio α, {len(small):,} ratings, {small['label'].nunique():,} distinct "
          f"values: {t:6.3f} / {c:6.3f} s (goal < 5 s), α = {v:.9f}")

    import krippendorff
    peer = scores(200, 500, seed=2)  # it allocates items × values × values
    print(f"\n== against the krippendorff package: {len(peer):,} ratings, "
          f"{peer['label'].nunique():,} distinct values")
    for metric in ("interval", "ordinal", "ratio"):
        (t, c), v = best(lambda: iaa.krippendorff_alpha(peer, metric).value, args.repeat)
        (tp, cp), vp = best(lambda: krippendorff.alpha(
            reliability_data=peer.pivot(index="annotator", columns="item",
                                        values="label").to_numpy(float),
            level_of_measurement=metric), 1)
        print(f"  {metric:<9} ours {t:6.3f} s, krippendorff {tp:6.3f} s ({tp / t:5.0f}×), "
              f"values differ by {v - vp:+.1e}")

    bounds(args.repeat)

    if not args.skip_memory:
        print("\n== 1e7 ratings (1,000,000 items × 10 raters, 10 % missing), fresh "
              "subprocess, peak RSS above the table")
        for metric in ("interval", "ordinal"):
            out = subprocess.run([sys.executable, __file__, "--memory-child", metric,
                                  "1111111"], capture_output=True, text=True, check=True)
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"  {metric:<9} {r['ratings']:,} ratings: {r['wall']:6.3f} / {r['cpu']:6.3f} "
                  f"s (goal < 3 s), +{r['peak_above_mb']:,.0f} MB (goal < 1024 MB)")


if __name__ == "__main__":
    main()
