"""ProjectExplorer and the API under it (issue 30's speed goals), with peers in one run.

Usage: PYTHONPATH=. python benchmarks/bench_explorer.py [--items 50000] [--annotators 20]
                                                         [--click-items 100000] [--resamples 200]
       PYTHONPATH=. python benchmarks/bench_explorer.py --before /tmp/before [--rounds 2]
       (``git worktree add /tmp/before <commit>``: the warm open to intervals of both trees,
       alternating, each in its own process)

Data as users have it: a tidy pandas table (pyarrow strings when pandas gives them),
rows shuffled, 5 labels, every item rated by every annotator (1e6 ratings by default).

1. Opening: ``ProjectExplorer(df)`` until every panel holds its values but leave-one-out
   (the goal: < 5 s at 1e6 ratings × 20 annotators; the import of anywidget, once per
   process, timed apart), and until leave-one-out and the bootstrap intervals that follow
   from its worker are in; beside it the measure itself, ``fleiss_kappa(df)``. Then from a
   warm open (a second explorer in the process) to the headline's and leave-one-out's
   intervals, and to all intervals, the pairs' too (issue 43 §3: goal < 1.5 s).
2. Leave-one-out for 20 annotators against the measure (goal: ≤ 3× its cost): the values
   (``n_resamples=None``) against ``fleiss_kappa``; with the paired bootstrap interval
   against ``bootstrap(df, "fleiss_kappa")`` with as many resamples, and the same for
   Conger's κ from Annotations (issue 43 §3); and the peer a user
   writes today, ``fleiss_kappa`` on the rows without each annotator. The values are
   checked equal (1e-12) first. Then α, AC1 and Conger's κ (which reads who gave each
   label: each version's ratings), from the table and from Annotations loaded once.
3. A click's round trip on the Python side at 1e5 items (goal: median ≤ 150 ms): setting
   ``query`` (a matrix cell, an annotator, a label, a confusion cell) until the new page of
   the items table is in ``items_page``; beside it the pandas a user writes for the same
   selection from a wide table (made once, not timed). The items are checked equal first.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
import pandas as pd

import iaa_widgets as iaa

LABELS = ["positive", "neutral", "mixed", "negative", "off-topic"]


def tidy(n_items: int, n_annotators: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    k = len(LABELS)
    truth = rng.integers(0, k, n_items)
    skill = rng.uniform(0.55, 0.95, n_annotators)
    x = np.where(rng.random((n_items, n_annotators)) < skill, truth[:, None],
                 rng.integers(0, k, (n_items, n_annotators)))
    df = pd.DataFrame({"item": np.repeat([f"doc{i:07d}" for i in range(n_items)], n_annotators),
                       "annotator": np.tile([f"ann{j:02d}" for j in range(n_annotators)], n_items),
                       "label": np.array(LABELS, dtype=object)[x.ravel()]})
    for c in ("item", "annotator", "label"):
        df[c] = df[c].astype("string[pyarrow]") if _has_pyarrow() else df[c]
    return df.sample(frac=1, random_state=seed).reset_index(drop=True)


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
        return True
    except ImportError:
        return False


def timed(f):
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def opening(df, resamples):
    from importlib import import_module
    t_import, _ = timed(lambda: import_module("iaa_widgets.widgets.explorer"))
    print(f"import of the widget (anywidget …)   {t_import:7.2f} s   once per process")
    t_measure, _ = timed(lambda: iaa.fleiss_kappa(df, missing="available"))
    t_open, w = timed(lambda: iaa.ProjectExplorer(df, n_resamples=resamples, seed=0))
    t_wait, _ = timed(lambda: w.wait(600))
    print(f"open (headline, matrix, labels,     {t_open:7.2f} s   goal < 5 s")
    print("      items, consensus, usage)")
    print(f"  + leave-one-out Δ and bootstrap   {t_wait:7.2f} s   ({resamples} resamples, "
          "from the worker)")
    print(f"fleiss_kappa(df) itself             {t_measure:7.2f} s")
    w.close()


def warm_intervals(df, resamples, rounds=2):
    """Issue 43 §3: from a warm open (the widget's modules loaded, one explorer opened and
    closed before) to the headline's and leave-one-out's intervals shown, and to all of
    them, the pairs' too (``intervals == "ready"``); goal < 1.5 s at 1e6 × 20."""
    w = iaa.ProjectExplorer(df, n_resamples=resamples, seed=0)  # warm-up, not timed
    w.wait(600)
    w.close()
    for _ in range(rounds):
        t0 = time.perf_counter()
        w = iaa.ProjectExplorer(df, n_resamples=resamples, seed=0)
        t_open, cpu = time.perf_counter() - t0, time.process_time()
        while w.leave_one_out is None and w.intervals == "computing":
            time.sleep(0.005)
        t_first = time.perf_counter() - t0
        w.wait(600)
        t_all, cpu = time.perf_counter() - t0, time.process_time() - cpu
        print(f"warm open {t_open:6.2f} s; headline + LOO intervals +{t_first - t_open:5.2f} s;"
              f" all intervals (pairs too) +{t_all - t_open:5.2f} s (CPU {cpu:5.2f} s, both "
              f"threads)   goal < 1.5 s   load {os.getloadavg()[0]:.1f}")
        w.close()


def compare_trees(before: str, args) -> None:
    """``warm_intervals`` of the tree ``before`` (e.g. a ``git worktree`` of the commit
    before a change) and of this one, alternating in one run, each in its own process."""
    import subprocess
    import sys
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for _ in range(args.rounds):
        for name, root in (("before", before), ("after", here)):
            print(f"-- {name} ({root}), load {os.getloadavg()[0]:.1f}", flush=True)
            subprocess.run([sys.executable, os.path.abspath(__file__), "--only", "intervals",
                            "--items", str(args.items), "--annotators", str(args.annotators),
                            "--resamples", str(args.resamples)],
                           env={**os.environ, "PYTHONPATH": root}, cwd=root, check=True)


def leave_one_out(df, resamples):
    kw = {"missing": "available"}
    t_measure, full = timed(lambda: iaa.fleiss_kappa(df, **kw))
    t_values, loo = timed(lambda: iaa.leave_one_out(df, "fleiss_kappa", n_resamples=None, **kw))
    names = list(loo.index)
    t_peer, peer = timed(lambda: [iaa.fleiss_kappa(df[df["annotator"] != a], **kw).value
                                  for a in names])
    if not np.allclose(loo["value"], peer, atol=1e-12) or \
            abs(loo.attrs["value"] - full.value) > 1e-12:
        raise SystemExit("leave_one_out values differ from the measure on the rows")
    t_boot, _ = timed(lambda: iaa.bootstrap(df, "fleiss_kappa", n_resamples=resamples, seed=0,
                                            **kw))
    t_loo, _ = timed(lambda: iaa.leave_one_out(df, "fleiss_kappa", n_resamples=resamples,
                                               seed=0, **kw))
    n = len(names)
    print(f"LOO values, {n} annotators            {t_values:7.2f} s   "
          f"{t_values / t_measure:5.1f}× fleiss_kappa ({t_measure:.2f} s)   goal ≤ 3×")
    print(f"  peer: fleiss_kappa on rows × {n}     {t_peer:7.2f} s   "
          f"ours {t_peer / t_values:4.1f}× faster")
    print(f"LOO + paired intervals ({resamples} res.) {t_loo:7.2f} s   "
          f"{t_loo / t_boot:5.1f}× bootstrap(fleiss_kappa) ({t_boot:.2f} s)")
    # Conger's κ reads who gave each label (issue 43 §3: its paired intervals ≤ 3× one
    # bootstrap of the measure), from Annotations loaded once, as the explorer's worker has them
    ann = iaa.as_annotations(df)
    t_boot, _ = timed(lambda: iaa.bootstrap(ann, "davies_fleiss_kappa", n_resamples=resamples,
                                            seed=0, **kw))
    t_loo, _ = timed(lambda: iaa.leave_one_out(ann, "davies_fleiss_kappa",
                                               n_resamples=resamples, seed=0, **kw))
    print(f"LOO + paired intervals, Conger's κ   {t_loo:7.2f} s   "
          f"{t_loo / t_boot:5.1f}× bootstrap(davies_fleiss_kappa) ({t_boot:.2f} s)   goal ≤ 3×")
    # other measures, from the table as users call them and from Annotations loaded once
    # (then the measure is a few bincounts, and the ratio shows leave-one-out's own cost)
    ann = iaa.as_annotations(df)
    for name, kwargs in (("krippendorff_alpha", {}), ("gwet_ac1", {}),
                         ("davies_fleiss_kappa", kw)):
        fn = getattr(iaa, name)
        for what, data in (("table", df), ("Annotations", ann)):
            t_m, _ = timed(lambda: fn(data, **kwargs))
            t_l, out = timed(lambda: iaa.leave_one_out(data, name, n_resamples=None, **kwargs))
            check = names[:2]  # the values against the measure on the rows without them
            if not np.allclose(out.loc[check, "value"],
                               [fn(df[df["annotator"] != a], **kwargs).value for a in check],
                               atol=1e-12):
                raise SystemExit(f"leave_one_out({name}) differs from the measure on the rows")
            print(f"LOO values {name:20s} ({what:11s}) {t_l:6.2f} s   "
                  f"{t_l / t_m:5.1f}× the measure ({t_m:.2f} s)")


def clicks(df, resamples):
    w = iaa.ProjectExplorer(df, n_resamples=resamples, seed=0)
    w.wait(600)
    wide = df.pivot(index="item", columns="annotator", values="label")
    differ = df.groupby("item")["label"].nunique() > 1
    names, labels = w.annotator_names, w.label_names
    a, b = names[0], names[1]
    cases = {
        "matrix cell": ({"annotators": [0, 1], "labels": []},
                        lambda: wide.index[wide[a].notna() & wide[b].notna()
                                           & (wide[a] != wide[b])]),
        "label": ({"annotators": [], "labels": [labels.index("mixed")]},
                  lambda: wide.index[(wide == "mixed").any(axis=1)
                                     & differ.reindex(wide.index).to_numpy()]),
        "confusion cell": ({"annotators": [], "labels": [labels.index("mixed"),
                                                         labels.index("neutral")]},
                           lambda: wide.index[(wide == "mixed").any(axis=1)
                                              & (wide == "neutral").any(axis=1)]),
    }
    for name, (query, peer) in cases.items():
        times = []
        for _ in range(7):
            w.query = {}
            t0 = time.perf_counter()
            w.query = query
            _ = w.items_page["rows"]
            times.append(time.perf_counter() - t0)
        t_peer, expected = timed(peer)
        if sorted(map(str, w.selection["item"])) != sorted(map(str, expected)):
            raise SystemExit(f"{name}: the explorer's items differ from pandas'")
        print(f"click: {name:15s} median {1e3 * statistics.median(times):6.1f} ms "
              f"(goal ≤ 150)   pandas on a wide table {1e3 * t_peer:6.1f} ms "
              f"({w.items_page['total']} items)")
    w.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=50_000)
    ap.add_argument("--annotators", type=int, default=20)
    ap.add_argument("--click-items", type=int, default=100_000)
    ap.add_argument("--click-annotators", type=int, default=5)
    ap.add_argument("--resamples", type=int, default=200)
    ap.add_argument("--only", choices=["intervals"], help="only the warm open to intervals")
    ap.add_argument("--before", help="a tree of the code before a change: its warm open to "
                    "intervals and this tree's, alternating (--rounds each)")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    print(f"pandas {pd.__version__}, load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, "
          f"iaa_widgets from {os.path.dirname(iaa.__file__)}")
    if args.before:
        return compare_trees(args.before, args)
    df = tidy(args.items, args.annotators)
    print(f"\n{len(df):,} ratings: {args.items:,} items × {args.annotators} annotators")
    if args.only == "intervals":
        return warm_intervals(df, args.resamples, rounds=1)
    opening(df, args.resamples)
    warm_intervals(df, args.resamples)
    leave_one_out(df, args.resamples)
    small = tidy(args.click_items, args.click_annotators, seed=1)
    print(f"\n{len(small):,} ratings: {args.click_items:,} items × {args.click_annotators} "
          "annotators")
    clicks(small, args.resamples)


if __name__ == "__main__":
    main()
