"""γ per document and for a corpus, against pygamma-agreement, in one run.

    PYTHONPATH=. python benchmarks/bench_gamma_corpus.py [--docs 200] [--units 100]
        [--annotators 3] [--samples 30] [--jobs 2] [--peer-docs 200] [--timeout 3600]
        [--peer-python .venv-pygamma/bin/python]

Corpus: ``--docs`` documents, each ``random_continuum(annotators, units, seed=d)``.
Ours: :func:`~iaa_widgets.measures.continuum.gamma.corpus.gamma_corpus` with the ``"pygamma"``
sampler (pygamma-agreement's default statistical sampler) over ``--jobs``
processes. pygamma-agreement: ``compute_gamma`` per document with its default
sampler and the same number of samples, in a child process run by
``--peer-python`` (its own environment; its import is timed apart), on the first
``--peer-docs`` documents; stopped after ``--timeout`` s. pygamma-agreement has no
corpus γ (its issue #43): its corpus figure here is our pooling of its per-document
disorders (corpus.py). Where it computed fewer documents than we did, its time is
scaled to all documents and marked "extrapolated". The script checks that the
observed disorders agree per document (1e-5; pygamma works in float32).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import pandas as pd

ROOT = os.path.join(os.path.dirname(__file__), "..")
sys.path.insert(0, ROOT)
from iaa_widgets.continuum import random_continuum  # noqa: E402
from iaa_widgets.measures.continuum.gamma.corpus import gamma_corpus  # noqa: E402
from bench_gamma import run_peer  # noqa: E402  (benchmarks/ is the script's directory)

PEER = r"""
import json, sys, time, logging
logging.disable(logging.WARNING)
t0 = time.perf_counter()
import numpy as np, pandas as pd
import pygamma_agreement as pa
from pyannote.core import Segment
t1 = time.perf_counter()
path, n_samples, n_docs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
df = pd.read_csv(path)
np.random.seed(0)
rows, t2 = [], time.perf_counter()
for doc, part in list(df.groupby("document", sort=True))[:n_docs]:
    c = pa.Continuum()
    for a, k, s, e in part[["annotator", "category", "start", "end"]].itertuples(index=False):
        c.add(str(a), Segment(float(s), float(e)), str(k))
    r = c.compute_gamma(pa.CombinedCategoricalDissimilarity(), n_samples=n_samples)
    rows.append([doc, float(r.observed_disorder), float(r.expected_disorder), len(part)])
    print(json.dumps({"done": len(rows)}), flush=True)
print(json.dumps({"import": t1 - t0, "time": time.perf_counter() - t2, "rows": rows}))
"""


def make_corpus(docs: int, annotators: int, units: int) -> pd.DataFrame:
    frames = []
    for d in range(docs):
        f = random_continuum(annotators, units, seed=d).to_frame()
        f["document"] = f"doc{d:04d}"
        frames.append(f)
    return pd.concat(frames, ignore_index=True)


def pooled(observed, expected, units):
    w = np.asarray(units, float) / np.sum(units)
    d_o, d_e = float(np.sum(w * observed)), float(np.sum(w * expected))
    return 1 - d_o / d_e


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--units", type=int, default=100)
    ap.add_argument("--annotators", type=int, default=3)
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--peer-docs", type=int, default=None)
    ap.add_argument("--timeout", type=float, default=3600.0)
    ap.add_argument("--peer-python", default=os.path.join(ROOT, ".venv-pygamma/bin/python"))
    args = ap.parse_args()
    peer_docs = args.docs if args.peer_docs is None else min(args.peer_docs, args.docs)
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores; "
          f"{args.docs} documents × {args.annotators} annotators × {args.units} units, "
          f"{args.samples} samples")
    df = make_corpus(args.docs, args.annotators, args.units)
    t = time.perf_counter()
    ours = gamma_corpus(df, sampler="pygamma", n_samples=args.samples, seed=0,
                        n_jobs=args.jobs, progress=False)
    t_ours = time.perf_counter() - t
    print(f"ours: {t_ours:.2f} s ({args.jobs} processes), corpus γ {ours.corpus.value:.4f} "
          f"[{ours.corpus.ci[0]:.4f}, {ours.corpus.ci[1]:.4f}], per document γ "
          f"{ours.per_document['value'].min():.4f} … {ours.per_document['value'].max():.4f}")
    if not os.path.exists(args.peer_python):
        print(f"pygamma-agreement: skipped ({args.peer_python} not found)")
        return
    p = run_peer(PEER, df, [args.samples, peer_docs], args.timeout, python=args.peer_python,
                 header=True)
    if "time" not in p:
        print(f"pygamma-agreement: {p}")
        return
    rows = pd.DataFrame(p["rows"], columns=["document", "observed", "expected", "units"])
    mine = ours.per_document.loc[rows["document"]]
    same = np.allclose(mine["observed"].to_numpy(), rows["observed"].to_numpy(), atol=1e-5)
    scale = args.docs / len(rows)
    t_peer = p["time"] * scale
    tag = f" (extrapolated from {len(rows)} documents)" if scale != 1 else ""
    print(f"pygamma-agreement: {t_peer:.1f} s{tag}, import {p['import']:.1f} s; pooled "
          f"γ over its {len(rows)} documents "
          f"{pooled(rows['observed'], rows['expected'], rows['units']):.4f} (ours over the "
          f"same: {pooled(mine['observed'], mine['expected'], mine['n_units']):.4f}); "
          f"observed disorders equal: {same}")
    print(f"ratio pygamma / ours: {t_peer / t_ours:.1f}×")


if __name__ == "__main__":
    main()
