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

    PYTHONPATH=. python benchmarks/bench_strings.py [--items 1800000] [--repeat 2]
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
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    main()
