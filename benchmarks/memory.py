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
    kind, call = MEASURES[name]
    df = table(kind, ids)
    gc.collect()
    base = _status("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:   # the high-water mark restarts here
        f.write("5")
    t0 = time.perf_counter()
    try:
        call(iaa, df)
        error = ""
    except Exception as exc:                        # reported in the table, not hidden
        error = f"{type(exc).__name__}: {exc}"[:120]
    print(json.dumps({"name": name, "ids": ids, "rows": len(df), "input": base,
                      "peak": _status("VmHWM") - base, "seconds": time.perf_counter() - t0,
                      "error": error}))


def run(names, timeout: float = 900.0) -> list[dict]:
    out = []
    for ids in ("integer", "string"):
        for name in names:
            try:
                proc = subprocess.run([sys.executable, __file__, "--child", name, ids],
                                      capture_output=True, text=True, timeout=timeout,
                                      env={**os.environ, "PYTHONPATH": str(Path(__file__)
                                                                           .parents[1])})
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


def main(argv) -> None:
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
