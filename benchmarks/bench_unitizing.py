"""Unitizing α at scale: α_U, u-α, |u-α and cu-α on a synthetic continuum.

    python benchmarks/bench_unitizing.py [n_annotators] [units_per_annotator]

Each annotator copies one reference segmentation (units of 5–25 ticks, gaps of 3–20,
3 categories) with its bounds jittered by up to ±1 tick (kept disjoint), a 10 % chance
of another category and a 10 % chance of leaving a unit out. Prints the value and wall
time of each coefficient.
"""
import sys
import time

import numpy as np
import pandas as pd

from iaa_widgets.measures.continuum.unitizing import cu_alpha, u_alpha, unitizing_alpha


def synthetic(n_annotators: int, n_units: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    length = rng.integers(5, 26, n_units)
    gap = rng.integers(3, 21, n_units)               # ≥ 3 so that ±1 jitter stays disjoint
    start = np.cumsum(gap + np.r_[0, length[:-1]])
    cat = rng.integers(0, 3, n_units)
    frames = []
    for a in range(n_annotators):
        s = start + rng.integers(-1, 2, n_units)
        e = start + length + rng.integers(-1, 2, n_units)
        c = np.where(rng.random(n_units) < 0.1, rng.integers(0, 3, n_units), cat)
        keep = rng.random(n_units) >= 0.1
        frames.append(pd.DataFrame({"annotator": f"a{a}", "category": c[keep],
                                    "start": s[keep], "end": e[keep]}))
    return pd.concat(frames, ignore_index=True)


def main(n_annotators: int = 10, n_units: int = 100_000) -> None:
    df = synthetic(n_annotators, n_units)
    span = (int(df.start.min()), int(df.end.max()))
    print(f"{n_annotators} annotators × {n_units} units ({len(df)} units in all)")
    for name, fn in (("unitizing_alpha (α_U)", unitizing_alpha), ("u_alpha (u-α)", u_alpha),
                     ("u_alpha binary", lambda d, **k: u_alpha(d, kind="binary", **k)),
                     ("cu_alpha (cu-α)", lambda d, **k: cu_alpha(d))):
        t = time.perf_counter()
        r = fn(df, continuum=span)
        print(f"{name:24s} {r.value:.4f}  {time.perf_counter() - t:6.2f} s")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:3]))
