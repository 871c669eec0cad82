"""Nominal α from a tidy table of 9e6 ratings whose item, annotator and label are
strings (document ids, worker names, entity types: the usual case), against the
krippendorff package including its pivot (issue 15). Goals: ≥ 3× faster with string
ids, ≥ 10× with integer ids.

Table: 1,800,000 items ("doc-0000000" …) × 5 annotators ("worker-0" …), labels PER,
LOC, ORG, MISC. Ours is timed from the same table given as pandas (pandas' default
string dtype, Arrow-backed with pyarrow installed), as pandas with object strings, as a
polars DataFrame and as a pyarrow Table (and, for string ids, with the peer timed on
the object strings too). The krippendorff package needs a numeric
annotators × items matrix: its time includes coding the labels as numbers
(``pd.factorize``) and the pivot. Each timing is the best of ``--repeat`` runs, wall
clock and CPU time.

Loading a crowd (issue 32, for the annotator models): ``Annotations.from_long`` of
``--crowd`` ratings (default 1e7; 0 skips it) in pandas' default ``str`` dtype (Arrow),
rows shuffled: 5 ratings per item ("item0" …, 2e6 distinct), each by a different one of
``--annotators`` (default 20: "w0" …), labels "c0" … "c3"; against coding the same three
columns with ``pd.factorize`` and naming the ids (``pd.Index``), the plain pandas way.
Goal: well under 3 s.

Frames that share their objects (issue 43 §1), ``--shared`` ratings drawn per row (default
9e6; 0 skips it): item ids from an object array of ``--shared / 9`` document names
("doc-0000000" …), annotators from 10 worker names, labels from 5, (item, annotator) pairs
rated twice dropped. Two shapes, as users build them: the frame built from those object
arrays (``dtype=object``, as a frame built from lists: one object per distinct value), and
the same frame written to a CSV file and read back by ``pd.read_csv(..., dtype=object)``
(the C parser shares one object per value within each chunk it reads). α nominal, ours
and the krippendorff package with its pivot on the same frame, interleaved, best of
``--repeat``; the load average is printed with each pair. Goal ≥ 3×.

    PYTHONPATH=. python benchmarks/bench_strings.py [--items 1800000] [--repeat 2]
        [--crowd 10000000] [--annotators 20] [--only-crowd] [--shared 9000000]
        [--only-shared]
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import iaa_widgets as iaa

RATERS = 5
LABELS = np.array(["PER", "LOC", "ORG", "MISC"], dtype=object)


def table(n_items: int, strings: bool, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, len(LABELS), n_items)
    x = np.where(rng.random((n_items, RATERS)) < 0.7, truth[:, None],
                 rng.integers(0, len(LABELS), (n_items, RATERS))).ravel()
    item = np.repeat(np.arange(n_items), RATERS)
    annotator = np.tile(np.arange(RATERS), n_items)
    if strings:
        item = pd.array(np.char.add("doc-", np.char.zfill(item.astype(str), 7)), dtype="str")
        annotator = pd.array(np.char.add("worker-", annotator.astype(str)), dtype="str")
    return pd.DataFrame({"item": item, "annotator": annotator,
                         "label": pd.array(LABELS[x].astype(str), dtype="str")})


def krippendorff_with_pivot(df: pd.DataFrame) -> float:
    import krippendorff
    codes = pd.Series(pd.factorize(df["label"])[0], index=df.index, dtype=float)
    grid = df.assign(label=codes).pivot(index="annotator", columns="item", values="label")
    return krippendorff.alpha(reliability_data=grid.to_numpy(dtype=float),
                              level_of_measurement="nominal")


def crowd_table(n_ratings: int, n_annotators: int, seed: int = 0) -> pd.DataFrame:
    """The crowd of the module docstring, its strings built in Arrow (fast)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    rng = np.random.default_rng(seed)
    n_items = n_ratings // 5
    item = np.repeat(np.arange(n_items), 5)
    who = ((rng.integers(0, n_annotators, n_items)[:, None] +
            np.arange(5) * max(n_annotators // 5, 1)) % n_annotators).ravel()
    label = rng.integers(0, 4, len(item))
    order = rng.permutation(len(item))

    def text(prefix, numbers):
        joined = pc.binary_join_element_wise(prefix, pc.cast(pa.array(numbers), pa.string()),
                                             "")
        return pd.array(joined, dtype="str")

    return pd.DataFrame({"item": text("item", item[order]),
                         "annotator": text("w", who[order]),
                         "label": text("c", label[order])})


def pandas_codes(df: pd.DataFrame):
    """The plain pandas way to code a tidy table: pd.factorize of each column, the ids
    named by a pd.Index."""
    out = []
    for col in ("item", "annotator", "label"):
        codes, uniques = pd.factorize(df[col])
        out.append((codes, pd.Index(uniques, name=col)))
    return out


def bench_crowd(args) -> None:
    df = crowd_table(args.crowd, args.annotators)
    iaa.Annotations.from_long(df.iloc[:10_000])  # first-call costs out of the timing
    (t, cpu), ann = best(iaa.Annotations.from_long, df, args.repeat)
    (p, p_cpu), _ = best(pandas_codes, df, args.repeat)
    print(f"loading {args.crowd:,} ratings ({ann.n_items:,} items, {ann.n_annotators} "
          f"annotators, str dtype, shuffled): ours {t:5.2f} / {cpu:5.2f} s, pd.factorize "
          f"of the columns {p:5.2f} / {p_cpu:5.2f} s ({p / t:3.1f}× / {p_cpu / cpu:3.1f}×)")


def shared_frames(n_ratings: int, seed: int = 0) -> dict:
    """The two frames of shared objects of the module docstring: built from object
    arrays, and written to a CSV file and read back with dtype=object."""
    import os
    import tempfile
    rng = np.random.default_rng(seed)
    n_docs = max(n_ratings // 9, 1)
    docs = np.array([f"doc-{i:07d}" for i in range(n_docs)], dtype=object)
    workers = np.array([f"worker-{i}" for i in range(10)], dtype=object)
    labels = np.array(["PER", "LOC", "ORG", "MISC", "DATE"], dtype=object)
    built = pd.DataFrame({"item": docs[rng.integers(0, n_docs, n_ratings)],
                          "annotator": workers[rng.integers(0, 10, n_ratings)],
                          "label": labels[rng.integers(0, 5, n_ratings)]}, dtype=object)
    built = built.drop_duplicates(["item", "annotator"], ignore_index=True)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "ratings.csv")
        built.to_csv(path, index=False)
        read = pd.read_csv(path, dtype=object)
    return {"built from object arrays": built, "read_csv(dtype=object)": read}


def objects(column: pd.Series) -> int:
    """Distinct Python objects in an object column (by address)."""
    values = np.ascontiguousarray(column.to_numpy())
    return len(pd.unique(np.frombuffer(memoryview(values), dtype=np.intp)))


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def bench_shared(args) -> None:
    ours = lambda d: iaa.krippendorff_alpha(d).value  # noqa: E731
    frames = shared_frames(args.shared)
    print(f"α nominal, frames of shared objects ({args.shared:,} ratings drawn, "
          f"{args.shared // 9:,} documents); best of {args.repeat}, wall / CPU seconds")
    for name, df in frames.items():
        ours(df.iloc[:10_000])  # first-call costs out of the timing
        before = load()
        (t, cpu), v = best(ours, df, args.repeat)
        (p, p_cpu), value = best(krippendorff_with_pivot, df, args.repeat)
        assert abs(v - value) < 1e-9, (v, value)
        print(f"  {name:25} ({len(df):,} rows, {objects(df['item']):,} item objects for "
              f"{df['item'].nunique():,} ids)")
        print(f"  {'':25} ours {t:6.2f} / {cpu:5.2f} s, krippendorff "
              f"incl. pivot {p:6.2f} / {p_cpu:5.2f} s: {p / t:4.1f}× / {p_cpu / cpu:4.1f}× "
              f"faster (load {before} → {load()})")


def best(fn, arg, repeat: int):
    """Best (wall, CPU) seconds of ``repeat`` runs and the last value; CPU time (process
    time, all threads) is the less disturbed of the two on a shared machine."""
    t, value = (float("inf"), float("inf")), None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        value = fn(arg)
        t = min(t, (time.perf_counter() - wall, time.process_time() - cpu))
    return t, value


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=1_800_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--crowd", type=int, default=10_000_000)
    parser.add_argument("--annotators", type=int, default=20)
    parser.add_argument("--only-crowd", action="store_true")
    parser.add_argument("--shared", type=int, default=9_000_000)
    parser.add_argument("--only-shared", action="store_true")
    args = parser.parse_args(argv)
    if args.only_crowd:
        return bench_crowd(args)
    if args.only_shared:
        return bench_shared(args)
    import polars as pl
    import pyarrow as pa
    ours = lambda d: iaa.krippendorff_alpha(d).value  # noqa: E731
    print(f"α nominal, {args.items * RATERS:,} ratings; best of {args.repeat}, wall / CPU "
          "seconds, ratio wall / CPU")
    for strings in (True, False):
        df = table(args.items, strings)
        kind = "string ids" if strings else "integer ids"
        (peer, peer_cpu), value = best(krippendorff_with_pivot, df, args.repeat)
        print(f"  {kind}: krippendorff package incl. pivot {peer:6.2f} / {peer_cpu:5.2f} s  "
              f"(α = {value:.6f})")
        inputs = {"pandas (Arrow strings)": df,
                  "polars DataFrame": pl.from_pandas(df),
                  "pyarrow Table": pa.Table.from_pandas(df, preserve_index=False)}
        if strings:
            inputs["pandas (object strings)"] = df.astype(object)
        for name, data in inputs.items():
            (t, cpu), v = best(ours, data, args.repeat)
            assert abs(v - value) < 1e-9, (v, value)
            print(f"    ours from {name:24} {t:6.2f} / {cpu:5.2f} s  {peer / t:5.1f}× / "
                  f"{peer_cpu / cpu:4.1f}× faster")
        if strings:  # the peer on the same Python objects (its pivot hashes them too)
            (p_obj, p_obj_cpu), _ = best(krippendorff_with_pivot, inputs[name], args.repeat)
            print(f"    krippendorff package on the object strings {p_obj:6.2f} / "
                  f"{p_obj_cpu:5.2f} s: ours {p_obj / t:4.1f}× / {p_obj_cpu / cpu:4.1f}× faster")
    if args.crowd:
        bench_crowd(args)
    if args.shared:
        bench_shared(args)


if __name__ == "__main__":
    main()
