"""Annotator models (issue 31): Dawid–Skene and MACE against crowd-kit 1.4.2, and
Dawid–Skene at 1e7 ratings (time and peak memory).

Data, as users have it: a tidy pandas 3 table (item, annotator, label) with string ids
in Arrow (``string[pyarrow]``), rows shuffled, a simulated one-coin crowd: 4 classes,
each item rated by 5 distinct annotators drawn from ``--annotators`` (default 1,000),
each right with their own accuracy U(0.5, 0.95), else a uniformly wrong label. Our
times include loading the table (``Annotations.from_long``); crowd-kit gets the same
table with columns renamed task, worker, label and its strings as Python objects (its
majority vote fails on Arrow strings), converted before timing.

* ``ds``: ``iaa.dawid_skene`` against crowd-kit's ``DawidSkene`` at ``--ratings``
  (default 5e5), both for the same number of EM iterations from the same majority-vote
  start (crowd-kit's tol=-1 never stops it early; ours tol=0), posteriors checked to
  agree within 1e-6 before any time is printed. Goal: ≥ 5× crowd-kit.
* ``big``: ``iaa.dawid_skene`` with its defaults on 1e7 ratings (``--big``), run in a
  child process that reads its peak resident memory above the input table (VmHWM after
  ``/proc/self/clear_refs``, as benchmarks/memory.py). Goal: < 10 s and < 2 GiB.
* ``mace``: ``iaa.mace`` against crowd-kit's ``MACE`` with the same restarts and
  iterations (ours tol=0: all of them) at ``--mace-ratings`` (default 5e4: crowd-kit's
  MACE takes ~1 s per iteration at 1e5 ratings on this machine), consensus agreement
  printed. Goal: ≥ 20× crowd-kit.
* ``crowd``: a large crowd of many classes (issue 44): 10,000 annotators
  (``--crowd-annotators``) and ``--crowd-classes`` classes (default 100 and 500),
  ``--crowd-items`` items (default 20,000) rated by 5 of them each (1e5 ratings, about
  10 per annotator, right with
  probability U(0.5, 0.95), else a uniformly drawn other class); ``majority_vote``,
  ``dawid_skene`` (defaults) and ``mace`` (``--restarts`` restarts, 50 iterations) each in
  a child process that reads its peak resident memory above the loaded Annotations, as
  ``big`` does. The dense annotators × K × K tables they once made were 0.75 GiB (K = 100)
  and 18.6 GiB (K = 500) each, a MemoryError; they hold the cells each annotator used
  (ratings × K). Goal: runs, < 2 GiB.

Times are the best of ``--repeat`` runs, wall clock and CPU (process time).

    PYTHONPATH=. python benchmarks/bench_models.py [ds] [big] [mace] [crowd]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd

from bench_classic import timed  # best wall and CPU time of n runs (benchmarks/)

K = 4
PER_ITEM = 5


def make_crowd(n_ratings: int, n_annotators: int = 1000, seed: int = 0) -> pd.DataFrame:
    """The simulated crowd described in the module docstring."""
    rng = np.random.default_rng(seed)
    n = n_ratings // PER_ITEM
    truth = rng.integers(0, K, n)
    acc = rng.uniform(0.5, 0.95, n_annotators)
    item = np.repeat(np.arange(n), PER_ITEM)
    # PER_ITEM distinct annotators per item: a random start and distinct offsets
    offsets = np.array([0, 1, 2, 3, 4]) * (n_annotators // PER_ITEM)
    who = ((rng.integers(0, n_annotators, n)[:, None] + offsets) % n_annotators).ravel()
    right = rng.random(len(item)) < acc[who]
    label = np.where(right, truth[item], (truth[item] + rng.integers(1, K, len(item))) % K)
    order = rng.permutation(len(item))
    text = pd.StringDtype("pyarrow")
    return pd.DataFrame({
        "item": pd.array(np.char.add("item", item[order].astype(str)), dtype=text),
        "annotator": pd.array(np.char.add("w", who[order].astype(str)), dtype=text),
        "label": pd.array(np.char.add("c", label[order].astype(str)), dtype=text)})


def crowdkit_frame(df):
    """crowd-kit's columns; its ids as Python strings (object dtype): its majority vote
    fails on Arrow strings (pandas.eval of int64 * bool[pyarrow], crowd-kit 1.4.2)."""
    return df.rename(columns={"item": "task", "annotator": "worker"}).astype(object)


def row(name, t, ref):
    return (f"| {name:<44} | {t[0]:8.3f} | {t[1]:8.3f} | {ref[0] / t[0]:7.1f}× "
            f"| {ref[1] / t[1]:7.1f}× |")


def header():
    print("| run                                          |   wall s |    CPU s | wall ratio "
          "| CPU ratio |")
    print("|----------------------------------------------|---------:|---------:|-----------:"
          "|----------:|")


# crowd-kit 1.4.2 clips its posteriors at 1e-10 in place while computing its ELBO
# (DawidSkene._evidence_lower_bound: probas.clip(lower=_EPS, inplace=True)), and the next
# M-step uses the clipped values: after one iteration the two differ by 1e-10, a gap that
# EM's slow directions carry along (1e-8 after 30 iterations with 1,000 annotators, a few
# 1e-6 after 100). The benchmark checks 1e-5; tests/test_models.py checks 1e-6 on crowds
# whose annotators rate more items each.


def bench_ds(args):
    import iaa_widgets as iaa
    from crowdkit.aggregation import DawidSkene
    df = make_crowd(args.ratings, args.annotators)
    ours0 = iaa.dawid_skene(df)  # how many iterations the defaults need
    n_iter = ours0.n_iter
    (t_ours, ours) = timed(lambda: iaa.dawid_skene(df, tol=0, max_iter=n_iter), args.repeat)
    frame = crowdkit_frame(df)
    (t_ck, ck) = timed(lambda: DawidSkene(n_iter=n_iter, tol=-1).fit(frame), 1)
    cats = list(ours.posteriors.columns)
    diff = np.abs(ours.posteriors.sort_index().to_numpy()
                  - ck.probas_.sort_index()[cats].to_numpy()).max()
    assert diff < 1e-5, diff  # see the note above bench_ds
    (t_def, default) = timed(lambda: iaa.dawid_skene(df), args.repeat)
    print(f"\nDawid–Skene, {len(df):,} ratings, {df['item'].nunique():,} items, "
          f"{args.annotators} annotators, {n_iter} EM iterations each; posteriors agree "
          f"within {diff:.1e}")
    header()
    print(row("crowd-kit DawidSkene", t_ck, t_ck))
    print(row(f"iaa.dawid_skene, same {n_iter} iterations", t_ours, t_ck))
    print(row(f"iaa.dawid_skene, defaults ({default.n_iter} it., "
              f"converged={default.converged})", t_def, t_ck))


def bench_mace(args):
    import iaa_widgets as iaa
    from crowdkit.aggregation import MACE
    df = make_crowd(args.mace_ratings, args.annotators)
    frame = crowdkit_frame(df)
    kw = dict(n_restarts=args.restarts, max_iter=50)
    (t_ours, ours) = timed(lambda: iaa.mace(df, tol=0, seed=0, **kw), args.repeat)
    (t_ck, ck) = timed(lambda: MACE(n_restarts=args.restarts, n_iter=50).fit(frame), 1)
    a = ours.labels.sort_index().astype(str).to_numpy()
    b = ck.labels_.sort_index().astype(str).to_numpy()
    same = float(np.mean(a == b))
    print(f"\nMACE, {len(df):,} ratings, {args.annotators} annotators, {args.restarts} "
          f"restarts × 50 iterations each; consensus agrees on {same:.2%} of items")
    header()
    print(row("crowd-kit MACE", t_ck, t_ck))
    print(row("iaa.mace, same restarts and iterations", t_ours, t_ck))
    (t_def, _) = timed(lambda: iaa.mace(df, seed=0), args.repeat)
    print(row("iaa.mace, defaults (10 restarts, tol 1e-5)", t_def, t_ck))


CHILD = r"""
import gc, json, sys, time
sys.path.insert(0, "benchmarks")
from bench_models import make_crowd
import iaa_widgets as iaa
df = make_crowd(int(sys.argv[1]), int(sys.argv[2]))
iaa.dawid_skene(make_crowd(10_000, 100))  # imports and first-call costs out of the timing
gc.collect()
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
base = status("VmRSS:")
open("/proc/self/clear_refs", "w").write("5")
w0, c0 = time.perf_counter(), time.process_time()
ann = iaa.Annotations.from_long(df)
w1, c1 = time.perf_counter(), time.process_time()
res = iaa.dawid_skene(ann)
wall, cpu = time.perf_counter() - w0, time.process_time() - c0
print(json.dumps({"wall": wall, "cpu": cpu, "load_wall": w1 - w0, "load_cpu": c1 - c0,
                  "peak": status("VmHWM:") - base,
                  "n_iter": res.n_iter, "converged": res.converged,
                  "items": res.n_items}))
"""


def bench_big(args):
    out = subprocess.run([sys.executable, "-c", CHILD, str(args.big), str(args.annotators)],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": "."})
    r = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"\nDawid–Skene (defaults) on {args.big:,} ratings, {r['items']:,} items, "
          f"{args.annotators} annotators: {r['wall']:.2f} s wall, {r['cpu']:.2f} s CPU "
          f"(loading the table: {r['load_wall']:.2f} s wall, {r['load_cpu']:.2f} s CPU; "
          f"the model: {r['wall'] - r['load_wall']:.2f} s wall, "
          f"{r['cpu'] - r['load_cpu']:.2f} s CPU), "
          f"peak {r['peak'] / 2**30:.2f} GiB above the input table; {r['n_iter']} "
          f"iterations, converged={r['converged']}")


CROWD = r"""
import json, sys, time
import numpy as np
import pandas as pd
import iaa_widgets as iaa
a, k, model, restarts, n = (int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]),
                            int(sys.argv[5]))
rng = np.random.default_rng(0)
per = 5
truth = rng.integers(0, k, n)
acc = rng.uniform(0.5, 0.95, a)
item = np.repeat(np.arange(n), per)
who = ((rng.integers(0, a, n)[:, None] + np.arange(per) * (a // per)) % a).ravel()
right = rng.random(len(item)) < acc[who]
label = np.where(right, truth[item], (truth[item] + rng.integers(1, k, len(item))) % k)
ann = iaa.Annotations.from_long(pd.DataFrame({"item": item, "annotator": who, "label": label}))
fit = {"majority_vote": lambda d: iaa.majority_vote(d, seed=0),
       "dawid_skene": iaa.dawid_skene,
       "mace": lambda d: iaa.mace(d, n_restarts=restarts, seed=0)}[model]
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
base = status("VmRSS:")
open("/proc/self/clear_refs", "w").write("5")
w0, c0 = time.perf_counter(), time.process_time()
res = fit(ann)
wall, cpu = time.perf_counter() - w0, time.process_time() - c0
one = res.confusion_matrix(res.ratings_by.idxmax())  # one annotator's K × K, on demand
print(json.dumps({"wall": wall, "cpu": cpu, "peak": status("VmHWM:") - base,
                  "n_iter": res.n_iter, "ratings": res.n_ratings,
                  "annotators": res.n_annotators,
                  "correct": float(np.mean(res.labels.to_numpy().astype(int) == truth))}))
"""


def bench_crowd(args):
    print(f"\nA large crowd: {args.crowd_annotators:,} annotators, {args.crowd_items:,} items "
          f"× 5 ratings, {args.restarts} MACE restart(s); "
          "peak resident memory above the loaded Annotations (goal < 2 GiB)")
    print("| classes | model           |   wall s |    CPU s | peak GiB | dense K×K tables "
          "GiB | iterations | consensus = truth |")
    print("|--------:|-----------------|---------:|---------:|---------:|-----------------"
          "----:|-----------:|------------------:|")
    for k in args.crowd_classes:
        for model in ("majority_vote", "dawid_skene", "mace"):
            out = subprocess.run([sys.executable, "-c", CROWD, str(args.crowd_annotators),
                                  str(k), model, str(args.restarts), str(args.crowd_items)],
                                 capture_output=True,
                                 text=True, env={**os.environ, "PYTHONPATH": "."})
            if out.returncode:
                print(f"| {k:7,} | {model:<15} | failed: "
                      f"{out.stderr.strip().splitlines()[-1]} |")
                continue
            r = json.loads(out.stdout.strip().splitlines()[-1])
            dense = r["annotators"] * k * k * 8 / 2**30
            print(f"| {k:7,} | {model:<15} | {r['wall']:8.2f} | {r['cpu']:8.2f} | "
                  f"{r['peak'] / 2**30:8.2f} | {dense:20.2f} | {r['n_iter']:10} | "
                  f"{r['correct']:17.1%} |")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("runs", nargs="*", default=["ds", "big", "mace"])
    p.add_argument("--ratings", type=int, default=500_000)
    p.add_argument("--big", type=int, default=10_000_000)
    p.add_argument("--mace-ratings", type=int, default=50_000)
    p.add_argument("--annotators", type=int, default=1000)
    p.add_argument("--restarts", type=int, default=2)
    p.add_argument("--crowd-annotators", type=int, default=10_000)
    p.add_argument("--crowd-classes", type=int, nargs="+", default=[100, 500])
    p.add_argument("--crowd-items", type=int, default=20_000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    warnings.simplefilter("ignore")  # crowd-kit's pandas 3 deprecation warnings
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for run in args.runs:
        {"ds": bench_ds, "big": bench_big, "mace": bench_mace, "crowd": bench_crowd}[run](args)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
