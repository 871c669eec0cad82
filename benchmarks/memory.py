"""Peak memory of every public measure at 1e7 ratings, above its input (issue 19).
Goal: every measure under 2 GiB above the tidy table it is given.

Each measure runs in a fresh subprocess: the child builds its tidy table (integer ids,
or string ids in pandas' default string dtype), collects garbage, reads its resident
set (VmRSS), resets the high-water mark (``/proc/self/clear_refs``), calls the measure
on the table (loading included: that is what a user pays) and reads VmHWM. The
difference is the peak above the input. Tables, 1e7 ratings each:

- ``multi``: 1,000,000 items × 10 annotators, 5 categories (integer labels 0–4, so
  ordinal and interval α have a declared order: numbers);
- ``two``: 5,000,000 items × 2 annotators (π, Cohen's κ);
- ``ranked``: 500,000 items × 10 annotators, each with a primary and a secondary label
  (augmented κ, Rosenberg & Binkowski 2004).

Prints a table and writes it into benchmarks/README.md (its own section).

    PYTHONPATH=. python benchmarks/memory.py            # every measure, both id kinds
    PYTHONPATH=. python benchmarks/memory.py fleiss_kappa augmented_kappa_sweep

``--causes BEFORE [LABEL]``: the causes of issue 28 (trust, round two) removed, each on
the input that showed it (:data:`CAUSES`), run on the package in directory BEFORE (a copy
before the fix: ``git archive <commit> iaa_widgets | tar -x -C BEFORE``, then ``cp -r
iaa_widgets/static BEFORE/iaa_widgets/`` for the widgets' built bundle, which git does not
hold) and on this one: peak, seconds and outcome (the value or the error) before and
after, in their own README section.

    PYTHONPATH=. python benchmarks/memory.py --causes /tmp/before "commit 773c69f"
"""
import datetime
import gc
import json
import os
import platform
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd

GIB = 2 ** 30
LIMIT = 2 * GIB
README = Path(__file__).with_name("README.md")
START, END = "<!-- memory.py: start -->", "<!-- memory.py: end -->"

# name -> (table, call): every measure iaa_widgets exports at the top level
MEASURES = {
    "percent_agreement": ("multi", lambda iaa, df: iaa.percent_agreement(df)),
    "bennett_s": ("multi", lambda iaa, df: iaa.bennett_s(df)),
    "scott_pi": ("two", lambda iaa, df: iaa.scott_pi(df)),
    "cohen_kappa": ("two", lambda iaa, df: iaa.cohen_kappa(df)),
    "fleiss_kappa": ("multi", lambda iaa, df: iaa.fleiss_kappa(df)),
    "davies_fleiss_kappa": ("multi", lambda iaa, df: iaa.davies_fleiss_kappa(df)),
    "specific_agreement (positive=1)": ("multi",
                                        lambda iaa, df: iaa.specific_agreement(df, positive=1)),
    "krippendorff_alpha nominal": ("multi", lambda iaa, df: iaa.krippendorff_alpha(df)),
    "krippendorff_alpha ordinal": ("multi",
                                   lambda iaa, df: iaa.krippendorff_alpha(df, "ordinal")),
    "krippendorff_alpha interval": ("multi",
                                    lambda iaa, df: iaa.krippendorff_alpha(df, "interval")),
    "pairwise (Cohen κ)": ("multi", lambda iaa, df: iaa.pairwise(df)),
    "augmented_kappa": ("ranked", lambda iaa, df: iaa.augmented_kappa(df, rank="rank")),
    "augmented_kappa_sweep": ("ranked",
                              lambda iaa, df: iaa.augmented_kappa_sweep(df, rank="rank")),
    "sparse_agreement": ("multi", lambda iaa, df: iaa.sparse_agreement(df)),
    "sparse_kappa": ("multi", lambda iaa, df: iaa.sparse_kappa(df)),
    "spa_item_variance": ("multi", lambda iaa, df: iaa.spa_item_variance(
        df.groupby("item").size().to_numpy(), n_classes=5)),
    "spa_variance_curve (20 rounds)": ("multi", lambda iaa, df: iaa.spa_variance_curve(
        df, n_rounds=20, seed=0)),
    "spa_missingness (20 rounds)": ("multi", lambda iaa, df: iaa.spa_missingness(
        df, drop=0.2, n_rounds=20, seed=0)),
    "bootstrap Fleiss κ (20)": ("multi", lambda iaa, df: iaa.bootstrap(
        "fleiss_kappa", df, n_resamples=20, seed=0)),
}
SHAPES = {"multi": (1_000_000, 10), "two": (5_000_000, 2), "ranked": (500_000, 10)}

# issue 28's causes (engines, non-finite values, raw exceptions): name -> (input, call); inputs in cause_input()
CAUSES = {
    "engines read twice: DuckDB WHERE random() < 2": (
        "duckdb-random", lambda iaa, rel: iaa.krippendorff_alpha(iaa.sufficient_statistics(rel))),
    "engines read twice: polars LazyFrame": (
        "polars-lazy", lambda iaa, lf: iaa.krippendorff_alpha(iaa.sufficient_statistics(lf))),
    "engines read twice: Dask (10 partitions)": (
        "dask", lambda iaa, ddf: iaa.krippendorff_alpha(iaa.sufficient_statistics(ddf))),
    "non-finite: tolerance_agreement(tolerance=1), one inf rating": (
        "inf", lambda iaa, df: iaa.tolerance_agreement(df, tolerance=1)),
    "non-finite: gwet_ac2(weights='linear'), one inf rating": (
        "inf", lambda iaa, df: iaa.gwet_ac2(df, weights="linear")),
    "raw exception: per_label, Python set labels": (
        "sets", lambda iaa, df: iaa.per_label(df)),
    "raw exception: unitizing_alpha, no unit overlaps": (
        "apart", lambda iaa, df: iaa.unitizing_alpha(df)),
}
# issue 28's memory and searches: inputs in size_input(), each child under
# CAP of address space (before the fix, the 300-category widget was killed at 24 GB)
CAUSES.update({
    "K²: scott_pi bootstrap, 500 labels, 3,000 items": (
        "labels500", lambda iaa, df: _bootstrap(iaa, "scott_pi", df, 1000)),
    "K²: pairwise κ ci=percentile, 5,000 labels, 1e6 ratings": (
        "labels5000", lambda iaa, df: iaa.pairwise(df, "cohen_kappa", ci="percentile",
                                                   n_resamples=200, seed=0)),
    "K²: cohen_kappa, 5,000 labels, 1e6 ratings (2 annotators)": (
        "labels5000-two", lambda iaa, df: iaa.cohen_kappa(df)),
    "dense counts: fleiss_kappa + bootstrap, 5,000 labels, 1e6 ratings": (
        "labels5000", lambda iaa, df: _bootstrap(iaa, "fleiss_kappa", df, 200)),
    "K²: report_html, 400 labels, 3 annotators": (
        "labels400", lambda iaa, df: iaa.report_html(df, n_resamples=200)),
    "K⁴: ContingencyMatrix, 100 categories": (
        "table100", lambda iaa, m: iaa.ContingencyMatrix(m)),
    "K⁴: ContingencyMatrix, 300 categories": (
        "table300", lambda iaa, m: iaa.ContingencyMatrix(m)),
    "search: span_f1 overlap, 4 × 4,000 dense spans": (
        "dense-spans", lambda iaa, df: iaa.span_f1(df, "overlap")),
    "search: gamma, 20 annotators × 20 overlapping units": (
        "gamma20", lambda iaa, c: iaa.gamma(c, n_samples=5, seed=0)),
})
CAP = 6 * GIB
SIZE_KINDS = ("labels500", "labels5000", "labels5000-two", "labels400", "table100",
              "table300", "dense-spans", "gamma20")


def _bootstrap(iaa, measure, data, n_resamples):
    """bootstrap in either argument order (issue 29 puts the data first)."""
    import inspect
    first = next(iter(inspect.signature(iaa.bootstrap).parameters))
    args = (data, measure) if first == "data" else (measure, data)
    return iaa.bootstrap(*args, n_resamples=n_resamples, seed=0)


def size_input(kind: str):
    """The inputs of issue 28's memory and search causes (CAUSES)."""
    rng = np.random.default_rng(0)
    if kind.startswith("labels"):
        k, n, r = {"labels500": (500, 3_000, 2), "labels5000": (5_000, 200_000, 5),
                   "labels5000-two": (5_000, 500_000, 2), "labels400": (400, 20_000, 3)}[kind]
        truth = rng.integers(0, k, n)
        x = np.where(rng.random((n, r)) < 0.6, truth[:, None], rng.integers(0, k, (n, r)))
        return pd.DataFrame({"item": np.repeat(np.arange(n), r),
                             "annotator": np.tile(np.arange(r), n), "label": x.ravel()})
    if kind.startswith("table"):
        k = int(kind[5:])
        return rng.integers(0, 5, (k, k)) + np.diag(rng.integers(20, 50, k))
    if kind == "dense-spans":  # unit i of each annotator overlaps ~8,000 of the others'
        return pd.concat([pd.DataFrame({"annotator": f"a{a}", "category": "X",
                                        "start": np.arange(4000) + a / 2,
                                        "end": np.arange(4000) + a / 2 + 4000})
                          for a in range(4)], ignore_index=True)
    frames = []  # gamma20: 20 annotators, 20 units each within reach of one another
    for a in range(20):
        s = np.sort(rng.uniform(0, 200, 20))
        frames.append(pd.DataFrame({"annotator": f"a{a}", "category": "X", "start": s,
                                    "end": s + rng.uniform(5, 30, 20)}))
    from iaa_widgets.continuum import Continuum
    return Continuum.from_frame(pd.concat(frames, ignore_index=True))


ENGINE_ITEMS = 200_000  # × 10 annotators: 2e6 ratings for the engines (Dask's spill is slow)


def cause_input(kind: str):
    """The input of a cause: the ``multi`` ratings (2e6 of them on an engine, 1e7 with
    one inf rating), 1e6 ratings of Python sets, 1e6 units that overlap nothing."""
    if kind in SIZE_KINDS:
        return size_input(kind)
    if kind in ("duckdb-random", "polars-lazy", "dask"):
        df = table("multi", "integer")
        df = df[df["item"] < ENGINE_ITEMS].reset_index(drop=True)
        if kind == "duckdb-random":
            import duckdb
            return duckdb.from_df(df).filter("random() < 2")  # every row, not deterministic
        if kind == "polars-lazy":
            import polars as pl
            return pl.from_pandas(df).lazy()
        import dask.dataframe as dd
        return dd.from_pandas(df, npartitions=10)
    if kind == "inf":
        df = table("multi", "integer")
        df["label"] = df["label"].astype(float)
        df.loc[len(df) // 2, "label"] = np.inf
        return df
    if kind == "sets":
        df = table("multi", "integer")
        df = df[df["item"] < 100_000].reset_index(drop=True)
        pool = [set(), {"a"}, {"b"}, {"a", "b"}, {"a", "b", "c"}]
        df["label"] = pd.Series([pool[c] for c in df["label"]], dtype=object)
        return df
    n = 1_000_000  # two annotators taking turns, a gap between any two units
    return pd.DataFrame({"annotator": np.where(np.arange(n) % 2, "a", "b"),
                         "category": "x", "start": np.arange(n) * 10,
                         "end": np.arange(n) * 10 + 5})


def table(kind: str, ids: str) -> pd.DataFrame:
    """The tidy table ``kind`` (module docstring) with integer or string ids."""
    n_items, m = SHAPES[kind]
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 5, n_items)
    item = np.repeat(np.arange(n_items), m)
    annotator = np.tile(np.arange(m), n_items)
    label = np.where(rng.random(len(item)) < 0.6, truth[item], rng.integers(0, 5, len(item)))
    cols = {"item": item, "annotator": annotator, "label": label}
    if kind == "ranked":                                 # a secondary for every rating
        second = (label + rng.integers(1, 5, len(item))) % 5
        cols = {"item": np.concatenate([item, item]),
                "annotator": np.concatenate([annotator, annotator]),
                "label": np.concatenate([label, second]),
                "rank": np.repeat(np.array([1, 2], dtype=np.int8), len(item))}
    df = pd.DataFrame(cols)
    if ids == "string":                                  # pandas' default string dtype
        for col, prefix, n in (("item", "item", n_items), ("annotator", "annotator", m)):
            names = pd.array([f"{prefix}{i}" for i in range(n)], dtype="str")
            df[col] = names.take(df[col].to_numpy())
    return df


def _status(field: str) -> int:
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(field)


def child(name: str, ids: str) -> None:
    import iaa_widgets as iaa
    if name in CAUSES:
        kind, call = CAUSES[name]
        df = cause_input(kind)
        if kind in SIZE_KINDS:  # a kernel killed for memory becomes a MemoryError row
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))
    else:
        kind, call = MEASURES[name]
        df = table(kind, ids)
    gc.collect()
    base = _status("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:   # the high-water mark restarts here
        f.write("5")
    t0 = time.perf_counter()
    value = None
    try:
        value = getattr(call(iaa, df), "value", None)
        error = ""
    except Exception as exc:                        # reported in the table, not hidden
        error = f"{type(exc).__name__}: {exc}"[:120]
    print(json.dumps({"name": name, "ids": ids, "rows": len(df) if hasattr(df, "__len__")
                      else 0, "input": base, "peak": _status("VmHWM") - base,
                      "seconds": time.perf_counter() - t0, "error": error,
                      "value": value if isinstance(value, (int, float)) else None}))


def run(names, timeout: float = 900.0, id_kinds=("integer", "string"),
        code: Path = Path(__file__).resolve().parents[1]) -> list[dict]:
    """Each measure (or cause) in a fresh child, on the package found in ``code``."""
    out = []
    for ids in id_kinds:
        for name in names:
            try:
                proc = subprocess.run([sys.executable, str(Path(__file__).resolve()),
                                       "--child", name, ids], capture_output=True, text=True,
                                      timeout=timeout, env={**os.environ,
                                                            "PYTHONPATH": str(code)})
                last = proc.stdout.strip().splitlines()[-1:] or [""]
                row = json.loads(last[0]) if last[0].startswith("{") else {
                    "name": name, "ids": ids, "peak": float("nan"), "seconds": float("nan"),
                    "rows": 0, "input": 0,
                    "error": (proc.stderr.strip().splitlines() or ["no output"])[-1][:120]}
            except subprocess.TimeoutExpired:
                row = {"name": name, "ids": ids, "peak": float("nan"), "rows": 0, "input": 0,
                       "seconds": timeout, "error": f"stopped after {timeout:.0f} s"}
            out.append(row)
            print(f"  {name:32s} {ids:8s} {row['peak'] / GIB:6.2f} GiB {row['seconds']:7.1f} s"
                  f" {row['error']}", flush=True)
    return out


def markdown(rows: list[dict]) -> str:
    by = {(r["name"], r["ids"]): r for r in rows}
    names = list(dict.fromkeys(r["name"] for r in rows))
    lines = ["| measure | table | rows | integer ids: peak GiB | s | string ids: peak GiB | s |",
             "|---|---|--:|--:|--:|--:|--:|"]
    for name in names:
        cells = []
        for ids in ("integer", "string"):
            r = by.get((name, ids))
            if r is None:
                cells += ["–", "–"]
            elif r["error"]:
                cells += [f"error: {r['error']}", f"{r['seconds']:.1f}"]
            else:
                flag = " **over 2 GiB**" if r["peak"] > LIMIT else ""
                cells += [f"{r['peak'] / GIB:.2f}{flag}", f"{r['seconds']:.1f}"]
        rows_ = next(r["rows"] for r in rows if r["name"] == name)
        lines.append(f"| {name} | {MEASURES[name][0]} | {rows_:,} | " + " | ".join(cells) + " |")
    ok = [r for r in rows if not r["error"]]
    top = max(ok, key=lambda r: r["peak"]) if ok else None
    over = sorted({f"{r['name']} ({r['ids']} ids)" for r in rows
                   if r["error"] or r["peak"] > LIMIT})
    lines += ["", (f"Largest peak: {top['peak'] / GIB:.2f} GiB ({top['name']}, {top['ids']} ids). "
                   if top else "") + f"Over 2 GiB or failed: {', '.join(over) or 'none'}."]
    return "\n".join(lines)


def write_readme(text: str, rows: list[dict]) -> None:
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    inputs = {r["ids"]: r["input"] for r in rows if r["input"]}
    load = os.getloadavg()[0]
    prose = (f"Goal: every public measure under 2 GiB above its input. Each measure in a "
             f"fresh process: peak resident set (VmHWM) minus the resident set after "
             f"building the tidy table (which the measure then loads: loading is "
             f"included). Tables in the script's docstring; string ids are pandas' "
             f"default string dtype (pandas {pd.__version__}, "
             f"{pd.array(['a'], dtype='str').dtype.storage} storage: Arrow when pyarrow "
             f"is installed, as most users have it).\n\n"
             f"Measured {now} on {platform.machine()}, {os.cpu_count()} cores, "
             f"Python {platform.python_version()}, numpy {np.__version__} (load average "
             f"{load:.1f} at the end of the run; the seconds are wall time and only "
             f"indicative on a shared machine). Resident set after building the table, "
             f"last measure: {inputs.get('integer', 0) / GIB:.2f} GiB (integer ids), "
             f"{inputs.get('string', 0) / GIB:.2f} GiB (string ids).")
    prose = "\n\n".join(textwrap.fill(part, 90) for part in prose.split("\n\n"))
    section = (f"{START}\n## Peak memory at 1e7 ratings (`memory.py`)\n\n{prose}\n\n"
               f"{text}\n{END}")
    old = README.read_text()
    if START in old:
        new = re.sub(re.escape(START) + ".*?" + re.escape(END), lambda _: section, old,
                     flags=re.S)
    else:
        new = old.rstrip("\n") + "\n\n" + section + "\n"
    README.write_text(new)


CAUSES_START, CAUSES_END = "<!-- memory.py causes: start -->", "<!-- memory.py causes: end -->"


def causes(before: Path, label: str) -> None:
    """Each cause of :data:`CAUSES` on the package in ``before`` (``label`` names it)
    and on this one."""
    rows = {}
    for when, code in (("before", before), ("after", Path(__file__).resolve().parents[1])):
        print(f"{when}: {code}")
        for r in run(list(CAUSES), id_kinds=("integer",), code=code):
            rows[(r["name"], when)] = r

    def shown(r):
        outcome = r["error"] or (f"value {r['value']:.6g}" if r.get("value") is not None
                                 else "a result")
        return f"{r['peak'] / GIB:.2f} | {r['seconds']:.1f} | {outcome.replace('|', '/')}"
    lines = ["| cause (issue 28) | before: peak GiB | s | outcome | after: peak GiB | s | "
             "outcome |", "|---|--:|--:|---|--:|--:|---|"]
    lines += [f"| {name} | {shown(rows[(name, 'before')])} | {shown(rows[(name, 'after')])} |"
              for name in CAUSES]
    text = "\n".join(lines)
    print(text)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    prose = textwrap.fill(
        f"Each cause on the input that showed it (`cause_input` in the script: engines "
        f"on {ENGINE_ITEMS * 10:,} ratings, one inf among 1e7 ratings, 1e6 ratings of "
        f"Python sets, 1e6 units that overlap nothing; the K², K⁴ and search rows: "
        f"`size_input`), in a fresh process, peak resident "
        f"set above the input, before the fix ({label}) and after. The engines' rows keep "
        "every row (random() < 2 is always true, yet not deterministic for DuckDB): they "
        "show what reading the ratings once costs; tests/test_engines.py shows the wrong "
        "tables of a relation that changes on every read. "
        f"Measured {now}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
        "(shared machine: seconds indicative only).", 90)
    section = (f"{CAUSES_START}\n## Issue 28's causes before and after (`memory.py "
               f"--causes`)\n\n{prose}\n\n{text}\n{CAUSES_END}")
    old = README.read_text()
    if CAUSES_START in old:
        new = re.sub(re.escape(CAUSES_START) + ".*?" + re.escape(CAUSES_END),
                     lambda _: section, old, flags=re.S)
    else:
        new = old.rstrip("\n") + "\n\n" + section + "\n"
    README.write_text(new)


def main(argv) -> None:
    if argv[:1] == ["--causes"]:
        return causes(Path(argv[1]), argv[2] if len(argv) > 2 else f"the package in {argv[1]}")
    names = argv or list(MEASURES)
    unknown = [n for n in names if n not in MEASURES]
    if unknown:
        raise SystemExit(f"unknown measure(s) {unknown}; choose from {list(MEASURES)}")
    print(f"peak memory above the input at 1e7 ratings, {len(names)} measures, "
          f"fresh process each")
    rows = run(names)
    text = markdown(rows)
    print(text)
    over = [f"{r['name']} ({r['ids']})" for r in rows if r["peak"] > LIMIT or r["error"]]
    print("over 2 GiB or failed:", ", ".join(over) if over else "none")
    if not argv:                                      # only a full run updates the README
        write_readme(text, rows)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1:])
