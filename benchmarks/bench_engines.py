"""Agreement on data larger than memory: 1e8 ratings in parquet on disk, Krippendorff's
α and Fleiss' κ computed by DuckDB and by Dask through
``iaa.sufficient_statistics`` (issue 15), which the measures take as their data
(``iaa.krippendorff_alpha(stats)``, issue 29). Only the small tables (sizes, K × K
products per number of ratings, annotator × category counts) come back.

The parquet file is written once, in chunks of 1e6 items (never the whole table in
memory): 22,222,222 items × 5 annotators, each rating kept with probability 0.9 (about
1e8 ratings; ``--items`` scales it), integer item ids, annotator ids 0–4, labels
1–5 (int8). Each engine runs in a fresh subprocess; its time and its peak resident
memory (``ru_maxrss`` of the child, engine threads included) are printed. Goal: peak
under 2 GB. DuckDB is given ``memory_limit`` (it spills to disk beyond it); Dask runs
its threaded scheduler on two threads over partitions of 16 MiB of parquet (about
2.2e6 ratings each: Dask's peak memory follows the partitions' size times its threads,
so pick ``blocksize`` for the memory at hand); polars (``--engines polars``) scans the
file lazily and runs its in-memory engine (for comparison at smaller sizes).

    PYTHONPATH=. python benchmarks/bench_engines.py                 # 1e8 ratings
    PYTHONPATH=. python benchmarks/bench_engines.py --items 200000  # a quick run
    PYTHONPATH=. python benchmarks/bench_engines.py --items 200000 --pairs  # + pair tables

``--pairs`` makes the pair tables too (a self-join of the ratings on the item) and
adds Light's κ, which reads those over the items every annotator rated.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np

RATERS, K, KEEP = 5, 5, 0.9
CHUNK = 1_000_000  # items per row group written


def write_parquet(path: str, n_items: int, seed: int = 0) -> int:
    """The tidy table (item, annotator, label) in parquet, written in chunks; returns
    the number of ratings."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    rng = np.random.default_rng(seed)
    schema = pa.schema([("item", pa.int64()), ("annotator", pa.int8()), ("label", pa.int8())])
    total = 0
    with pq.ParquetWriter(path + ".part", schema) as out:
        for start in range(0, n_items, CHUNK):
            n = min(CHUNK, n_items - start)
            truth = rng.integers(1, K + 1, n)
            x = np.where(rng.random((n, RATERS)) < 0.7, truth[:, None],
                         rng.integers(1, K + 1, (n, RATERS)))
            i, j = np.nonzero(rng.random((n, RATERS)) < KEEP)
            out.write_table(pa.table({"item": (start + i).astype(np.int64),
                                      "annotator": j.astype(np.int8),
                                      "label": x[i, j].astype(np.int8)}, schema=schema))
            total += len(i)
    os.replace(path + ".part", path)
    return total


def child(engine: str, path: str, duckdb_memory: str = "1GB", pairs: bool = False) -> None:
    """Run one engine on the file; print time and peak memory as JSON."""
    import warnings
    warnings.simplefilter("ignore", FutureWarning)
    import iaa_widgets as iaa
    start = time.perf_counter()
    if engine == "duckdb":
        import duckdb
        con = duckdb.connect(config={"memory_limit": duckdb_memory, "threads": 2,
                                     "temp_directory": "/tmp/iaa_duckdb_spill"})
        frame = con.read_parquet(path)
    elif engine == "dask":
        import dask
        import dask.dataframe as dd
        dask.config.set(scheduler="threads", num_workers=2)
        frame = dd.read_parquet(path, blocksize="16MiB")
    elif engine == "polars":
        import polars as pl
        frame = pl.scan_parquet(path)
    else:
        raise SystemExit(f"unknown engine {engine}")
    stats = iaa.sufficient_statistics(frame, pairs=pairs)
    made = time.perf_counter() - start
    alpha = iaa.krippendorff_alpha(stats).value
    fleiss = iaa.fleiss_kappa(stats, missing="available").value
    light = iaa.light_kappa(stats).value if pairs else float("nan")
    total = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20  # KiB → GiB
    print(json.dumps({"engine": engine, "statistics_s": made, "total_s": total,
                      "alpha": alpha, "fleiss": fleiss, "light": light, "peak_gib": peak,
                      "ratings": int(np.arange(len(stats.sizes)) @ stats.sizes)}))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=22_222_222)
    parser.add_argument("--path", default=None)
    parser.add_argument("--engines", nargs="*", default=["duckdb", "dask"])
    parser.add_argument("--duckdb-memory", default="1GB",
                        help="DuckDB's memory_limit (it spills to disk beyond it)")
    parser.add_argument("--pairs", action="store_true",
                        help="make the pair tables too and compute Light's κ")
    parser.add_argument("--child", nargs=2, metavar=("ENGINE", "PATH"))
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child, args.duckdb_memory, args.pairs)
        return
    path = args.path or f"/tmp/iaa_ratings_{args.items}.parquet"
    if not os.path.exists(path):
        t = time.perf_counter()
        n = write_parquet(path, args.items)
        print(f"wrote {n:,} ratings to {path} ({os.path.getsize(path) / 2 ** 20:,.0f} MiB) "
              f"in {time.perf_counter() - t:.0f} s")
    print(f"{'engine':8} {'statistics s':>12} {'total s':>8} {'peak GiB':>9}  α, Fleiss κ")
    for engine in args.engines:
        out = subprocess.run([sys.executable, __file__, "--child", engine, path,
                              "--duckdb-memory", args.duckdb_memory]
                             + (["--pairs"] if args.pairs else []),
                             capture_output=True, text=True)
        if out.returncode:
            print(f"{engine:8} failed: {out.stderr.strip().splitlines()[-1:]}")
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{engine:8} {r['statistics_s']:12.1f} {r['total_s']:8.1f} {r['peak_gib']:9.2f}  "
              f"{r['alpha']:.6f}, {r['fleiss']:.6f}"
              + (f", Light {r['light']:.6f}" if args.pairs else "")
              + f"  ({r['ratings']:,} ratings)")


if __name__ == "__main__":
    main()
