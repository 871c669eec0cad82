"""span_f1 at scale: dense overlaps (issue 44) and a corpus of many documents.

    python benchmarks/bench_spans.py [units_per_annotator] [corpus_units] [hk_units]
                                     [hk_timeout_s]

Dense: 2 annotators × ``units_per_annotator`` (default 4,000) spans of length 50 with
starts uniform in [0, 2n) (for 4,000: in [0, 8,050) with their ends), each overlapping
about 50 of the other annotator's. Timed: ``span_f1(match="overlap")`` and
``match="exact"``, and on ``hk_units`` (default 1,500) such spans per annotator both
span_f1 and, in a subprocess stopped after ``hk_timeout_s`` (default 60) s, one
Hopcroft–Karp call (``scipy.sparse.csgraph.maximum_bipartite_matching``) over every
overlapping pair, the method span_f1 used before issue 44: its time depends on the
instance far more than on the pairs (seed 0: 2 × 1,000 spans 0.6 s, 2 × 1,500 more than
200 s, 2 × 2,000 4.3 s).

Corpus: ``corpus_units`` units (default 1e6): 3 annotators copying one reference over
1,000 documents and 8 labels with jittered bounds (the common case: small components,
Hopcroft–Karp in blocks). Prints each value and wall time (``import iaa_widgets`` excluded).
"""
import subprocess
import sys
import time

import numpy as np
import pandas as pd
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching

from iaa_widgets.measures.sets_spans.spans import span_f1


def dense(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.concat([pd.DataFrame({"annotator": a, "category": "X",
                                    "start": (s := rng.integers(0, 2 * n, n)), "end": s + 50})
                      for a in ("a", "b")], ignore_index=True)


def corpus(n: int, seed: int = 0) -> pd.DataFrame:
    """n units: 3 annotators copying n/3 reference units (1,000 documents, 8 labels,
    lengths 5–25, gaps 3–20) with bounds jittered by ±2 and 10 % of labels changed."""
    rng = np.random.default_rng(seed)
    m = n // 3
    length, gap = rng.integers(5, 26, m), rng.integers(3, 21, m)
    start = np.cumsum(gap + np.r_[0, length[:-1]])
    doc, cat = np.sort(rng.integers(0, 1000, m)), rng.integers(0, 8, m)
    return pd.concat([pd.DataFrame({
        "item": doc, "annotator": a,
        "category": np.where(rng.random(m) < 0.1, rng.integers(0, 8, m), cat),
        "start": start + rng.integers(-2, 3, m), "end": start + length + rng.integers(-2, 3, m)})
        for a in ("a", "b", "c")], ignore_index=True)


def hopcroft_karp(df: pd.DataFrame) -> int:
    """The former method: one maximum matching over every overlapping pair."""
    a, b = df[df.annotator == "a"], df[df.annotator == "b"]
    sa, ea, sb, eb = (x.to_numpy(float) for x in (a.start, a.end, b.start, b.end))
    overlap = np.maximum(sa[:, None], sb[None]) < np.minimum(ea[:, None], eb[None])
    return int((maximum_bipartite_matching(csr_matrix(overlap.astype(float)),
                                           perm_type="column") >= 0).sum())


def timed(label: str, call) -> None:
    t = time.perf_counter()
    value = call()
    print(f"{label:52s} {value:10.5f}  {time.perf_counter() - t:7.2f} s")


def main(n: int = 4000, n_corpus: int = 1_000_000, n_hk: int = 1500,
         hk_timeout: int = 60) -> None:
    df = dense(n)
    for match in ("overlap", "exact"):
        timed(f"dense 2 × {n:,}: span_f1 {match}",
              lambda: span_f1(df, match, progress=False).value)
    timed(f"dense 2 × {n_hk:,}: span_f1 overlap",
          lambda: span_f1(dense(n_hk), "overlap", progress=False).value)
    label = f"dense 2 × {n_hk:,}: Hopcroft–Karp on every pair (F1)"
    t = time.perf_counter()
    try:  # in a subprocess: a compiled call that runs for minutes ignores Ctrl-C
        out = subprocess.run([sys.executable, __file__, "--hk", str(n_hk)], text=True,
                             capture_output=True, timeout=hk_timeout, check=True).stdout
        print(f"{label:52s} {float(out):10.5f}  {time.perf_counter() - t:7.2f} s "
              "(with the subprocess' start)")
    except subprocess.TimeoutExpired:
        print(f"{label:52s} {'stopped':>10s}  > {hk_timeout} s")
    big = corpus(n_corpus)
    for match in ("overlap", "exact"):
        timed(f"corpus {n_corpus:,} units: span_f1 {match}",
              lambda: span_f1(big, match, progress=False).value)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--hk"]:
        k = int(sys.argv[2])
        print(2 * hopcroft_karp(dense(k)) / (2 * k))
    else:
        main(*map(int, sys.argv[1:5]))
