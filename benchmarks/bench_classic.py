"""The classic coefficients against peer libraries, all from the same tidy DataFrame.

Sizes: 5 raters × 1e3 items, 5 × 1e5 and 10 × 1e6, 10 % of ratings missing, 5
categories; item ids are integers, annotator names strings, labels integers 1–5 (the
krippendorff package needs numeric values). Every timing starts from the tidy table and
includes each library's own reshaping (pivot, crosstab, triples). Peers:
krippendorff, statsmodels, nltk, irrCAC. A peer whose time, extrapolated linearly from
the previous size, would exceed ``--budget`` seconds is skipped and the output says so.

Goals (issue 2), nominal α at 10 × 1e6 from the tidy table: ≥ 10× faster than the
krippendorff package including its pivot; our core (α from Annotations) within 3× of a
bare ``np.bincount`` over the codes (``np.bincount(item * K + label)``, the item ×
category table and nothing more). Peak memory of α on 1e7 ratings is measured in a
fresh subprocess (ru_maxrss), beside the krippendorff package's.

Row orders (issue 32): the 9e6 ratings of 10 × 1e6 as users hand them over, grouped by
item, grouped by annotator (per-annotator exports concatenated) and shuffled; nominal α
ours (tidy table → value) against the krippendorff package with its pivot, in each order
(``--orders``: this section only). Goal ≥ 10× in every order.

The bootstrap of every measure is timed by ``bench_bootstrap.py``.

    PYTHONPATH=. python benchmarks/bench_classic.py [--quick] [--budget 30] [--orders]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np
import pandas as pd

import iaa_widgets as iaa

K = 5


def make_tidy(n_raters: int, n_items: int, missing: float = 0.1, seed: int = 0) -> pd.DataFrame:
    """Ratings that agree more than chance: each item has a true class that each rater
    reports with probability 0.7, else a uniformly random class."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, K + 1, n_items)
    x = np.where(rng.random((n_items, n_raters)) < 0.7, truth[:, None],
                 rng.integers(1, K + 1, (n_items, n_raters)))
    rows, cols = np.nonzero(rng.random((n_items, n_raters)) >= missing)
    names = np.array([f"rater_{j}" for j in range(n_raters)], dtype=object)
    return pd.DataFrame({"item": rows, "annotator": names[cols], "label": x[rows, cols]})


def timed(fn, repeat: int):
    """Best wall-clock time of ``repeat`` runs, that run's CPU time (less disturbed by
    other jobs on a shared machine) and the result."""
    best, out = (np.inf, np.inf), None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        best = min(best, (time.perf_counter() - w0, time.process_time() - c0))
    return best, out


def agreement(v, v_ours) -> str:
    return "= ours" if abs(v - v_ours) < 1e-9 else f"differs by {v - v_ours:+.1e}"


# ------------------------------------------------------------------ peers
def wide(df):  # items × raters, NaN missing (what most peers take)
    return df.pivot(index="item", columns="annotator", values="label")


def kripp_alpha(df):
    import krippendorff
    return krippendorff.alpha(reliability_data=wide(df).to_numpy(dtype=float).T,
                              level_of_measurement="nominal")


def nltk_task(df):
    from nltk.metrics.agreement import AnnotationTask
    return AnnotationTask([(a, i, v) for i, a, v in
                           zip(df["item"].tolist(), df["annotator"].tolist(),
                               df["label"].tolist())])


def irr_cac(df):
    from irrCAC.raw import CAC
    return CAC(wide(df), digits=15)  # irrCAC rounds to 5 digits by default


def sm_fleiss(df):
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa
    complete = wide(df).dropna().to_numpy(dtype=int)  # listwise, as ours
    return fleiss_kappa(aggregate_raters(complete)[0])


def two(df):
    first = sorted(df["annotator"].unique())[:2]
    return df[df["annotator"].isin(first)]


def two_complete(df):  # nltk's kappa needs every item rated by both
    d = two(df)
    return d[d.groupby("item")["item"].transform("size") == 2]


def sm_cohen(df):
    from statsmodels.stats.inter_rater import cohens_kappa
    w = wide(two(df)).dropna()
    table = pd.crosstab(w.iloc[:, 0], w.iloc[:, 1]).reindex(
        index=range(1, K + 1), columns=range(1, K + 1), fill_value=0)
    return cohens_kappa(table.to_numpy()).kappa


MEASURES = {
    "alpha nominal": {
        "ours": lambda df: iaa.krippendorff_alpha(df).value,
        "krippendorff": kripp_alpha,
        "nltk": lambda df: nltk_task(df).alpha(),
        "irrCAC": lambda df: float(irr_cac(df).krippendorff()["est"]["coefficient_value"]),
    },
    "Fleiss kappa": {
        "ours": lambda df: iaa.fleiss_kappa(df).value,
        "statsmodels": sm_fleiss,
        "irrCAC": lambda df: float(irr_cac(df).fleiss()["est"]["coefficient_value"]),
    },
    "Cohen kappa (2 raters)": {
        "ours": lambda df: iaa.cohen_kappa(two(df), missing="listwise").value,
        "statsmodels": sm_cohen,
        "nltk": lambda df: nltk_task(two_complete(df)).kappa(),
    },
}


# ------------------------------------------------------------------ memory
def peak_memory(who: str, n_raters: int, n_items: int) -> dict:
    """Peak RSS of one α run on a fresh interpreter (the child prints JSON)."""
    out = subprocess.run([sys.executable, __file__, "--memory-child", who, str(n_raters),
                          str(n_items)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def memory_child(who: str, n_raters: int, n_items: int) -> None:
    """Peak RSS while computing α, after the tidy table is built: Linux resets the
    high-water mark VmHWM on writing 5 to /proc/self/clear_refs (else ru_maxrss, which
    also counts building the table)."""
    def status_mb(key):
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith(key)) / 1024
    df = make_tidy(n_raters, n_items, missing=0.0)
    base = status_mb("VmRSS")
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        how = "VmHWM after reset"
    except OSError:
        how = "ru_maxrss (includes building the table)"
    if who == "ours":
        for metric in ("nominal", "ordinal", "interval", "ratio"):
            iaa.krippendorff_alpha(df, metric)
    else:
        kripp_alpha(df)
    peak = status_mb("VmHWM") if how.startswith("VmHWM") else \
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"who": who, "ratings": len(df), "table_mb": round(base),
                      "peak_mb": round(peak), "how": how}))


# ------------------------------------------------------------------ row orders
def row_orders(df: pd.DataFrame) -> dict:
    """The same ratings grouped by item (as made), by annotator and shuffled."""
    return {"grouped by item": df,
            "grouped by annotator": df.sort_values(["annotator", "item"], kind="stable",
                                                   ignore_index=True),
            "shuffled": df.sample(frac=1.0, random_state=0, ignore_index=True)}


def time_row_orders(n_raters: int = 10, n_items: int = 1_000_000, repeat: int = 3) -> None:
    """Nominal α, ours and the krippendorff package incl. its pivot, in each row order."""
    df = make_tidy(n_raters, n_items)
    print(f"\n== row orders: α nominal on {len(df):,} ratings (integer item ids), ours best "
          f"of {repeat}, krippendorff best of 2")
    for name, d in row_orders(df).items():
        with open("/proc/loadavg") as f:  # the machine may be shared: load beside each row
            load = " ".join(f.read().split()[:3])
        (t, c), v = timed(lambda: iaa.krippendorff_alpha(d).value, repeat)
        (tp, cp), vp = timed(lambda: kripp_alpha(d), 2)
        print(f"  {name:<22} ours {t:7.3f} s (CPU {c:6.3f})  krippendorff {tp:7.3f} s "
              f"(CPU {cp:6.3f})  {agreement(vp, v):<10} ours {tp / t:5.1f}× faster "
              f"(CPU {cp / c:5.1f}×; goal ≥ 10×; load average {load})")


# ------------------------------------------------------------------ main
def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="the two small sizes only")
    ap.add_argument("--budget", type=float, default=30.0,
                    help="skip a peer whose extrapolated time exceeds this many seconds")
    ap.add_argument("--orders", action="store_true", help="the row-order section only")
    ap.add_argument("--memory-child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.memory_child:
        memory_child(args.memory_child[0], int(args.memory_child[1]),
                     int(args.memory_child[2]))
        return
    if args.orders:
        with open("/proc/loadavg") as f:
            print(f"load average at start: {f.read().split()[:3]}")
        time_row_orders()
        return
    sizes = [(5, 1_000), (5, 100_000)] + ([] if args.quick else [(10, 1_000_000)])
    with open("/proc/loadavg") as f:
        print(f"load average at start: {f.read().split()[:3]}")
    last: dict[tuple[str, str], tuple[int, float]] = {}
    for n_raters, n_items in sizes:
        df = make_tidy(n_raters, n_items)
        repeat = 5 if len(df) < 1e5 else 3
        peer_repeat = repeat if len(df) < 1e6 else 1
        print(f"\n== {n_raters} raters × {n_items:,} items, {len(df):,} ratings "
              f"(10 % missing), {K} categories; best of {repeat} (peers: {peer_repeat})")
        for measure, peers in MEASURES.items():
            (t_ours, c_ours), v_ours = timed(lambda: peers["ours"](df), repeat)
            print(f"  {measure:<24} {'ours':<12} {t_ours:9.4f} s (CPU {c_ours:8.4f} s)   "
                  f"value {v_ours:.9f}")
            for peer, fn in peers.items():
                if peer == "ours":
                    continue
                prev = last.get((measure, peer))
                guess = None if prev is None else prev[1] * len(df) / prev[0]
                if guess is not None and guess > args.budget:
                    print(f"  {'':<24} {peer:<12} skipped: ~{guess:,.0f} s extrapolated from "
                          f"{prev[0]:,} ratings (budget {args.budget:.0f} s)")
                    last[(measure, peer)] = (len(df), guess)
                    continue
                (t, c), v = timed(lambda: fn(df), peer_repeat)
                last[(measure, peer)] = (len(df), t)
                print(f"  {'':<24} {peer:<12} {t:9.4f} s (CPU {c:8.4f} s)   value {v:.9f} "
                      f"{agreement(v, v_ours):<20} ours {t / t_ours:6.1f}× faster "
                      f"(CPU {c / c_ours:6.1f}×)")
        if n_items == 1_000_000:
            ann = iaa.Annotations.from_long(df)
            (t_core, c_core), _ = timed(lambda: iaa.krippendorff_alpha(ann), 5)
            (t_bin, c_bin), _ = timed(lambda: np.bincount(
                ann.item * ann.n_categories + ann.label,
                minlength=ann.n_items * ann.n_categories), 5)
            (t_load, c_load), _ = timed(lambda: iaa.Annotations.from_long(df), 3)
            print(f"  core: α nominal from Annotations {t_core:.4f} s (CPU {c_core:.4f} s); bare "
                  f"np.bincount(item * K + label) {t_bin:.4f} s (CPU {c_bin:.4f} s) → "
                  f"{t_core / t_bin:.2f}× (CPU {c_core / c_bin:.2f}×; goal ≤ 3×)")
            print(f"  loading: Annotations.from_long {t_load:.4f} s (CPU {c_load:.4f} s)")
    if not args.quick:
        time_row_orders()
        print("\n== peak memory, 10 raters × 1e6 items (1e7 ratings), fresh subprocess")
        for who in ("ours", "krippendorff"):
            m = peak_memory(who, 10, 1_000_000)
            what = "α, all four metrics" if who == "ours" else "α nominal incl. pivot"
            print(f"  {who:<12} {what:<24} peak RSS {m['peak_mb']:,} MB, of which the tidy "
                  f"table and interpreter {m['table_mb']:,} MB ({m['how']}; goal < 2048 MB)")


if __name__ == "__main__":
    main()
