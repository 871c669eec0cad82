"""Annotator × annotator matrices against peers looping over pairs, from one tidy table.

Usage: PYTHONPATH=. python benchmarks/bench_pairwise.py [--sizes 5x1000,5x100000,10x1000000]

For each size (annotators × items, 10 % of ratings missing, 5 categories), including
every conversion each library needs from the tidy table:
  * Cohen's κ matrix: ``iaa.pairwise(df, "cohen_kappa")`` (one bincount, one vectorised
    evaluation) vs scikit-learn's cohen_kappa_score in a Python loop over the pairs;
  * nominal α matrix: ``iaa.pairwise(df, "krippendorff_alpha")`` vs the krippendorff
    package in a loop over the pairs;
  * Cohen's κ of one pair with its asymptotic standard error: ``iaa.cohen_kappa`` vs
    statsmodels' cohens_kappa (pivot + crosstab).
Every pair of numbers is checked equal (1e-9) before the times are printed.
"""
from __future__ import annotations

import argparse
import time
from itertools import combinations

import numpy as np
import pandas as pd

import iaa_widgets as iaa


def tidy(m: int, n: int, k: int = 5, missing: float = 0.1, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    x = np.where(rng.random((n, m)) < 0.7, truth[:, None], rng.integers(0, k, (n, m)))
    item, ann = np.nonzero(rng.random((n, m)) >= missing)
    return pd.DataFrame({"item": item, "annotator": ann, "label": x[item, ann]})


def best(f, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return min(times), out


def check(a, b, what):
    if not np.allclose(a, b, atol=1e-9, equal_nan=True):
        raise SystemExit(f"{what}: ours {a} != peer {b}")


def loop_over_pairs(df, coefficient):
    wide = df.pivot(index="item", columns="annotator", values="label")
    out = {}
    for a, b in combinations(wide.columns, 2):
        both = wide[[a, b]].dropna()
        out[a, b] = coefficient(both[a].to_numpy(), both[b].to_numpy())
    return out


def run(m: int, n: int) -> list[tuple]:
    import krippendorff
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import cohens_kappa

    df = tidy(m, n)
    repeat = 3 if n * m <= 1e6 else 1
    rows = []
    pairs = f"({m * (m - 1) // 2} pairs)"
    for name, peer, coefficient in (
            ("cohen_kappa", "scikit-learn loop", cohen_kappa_score),
            ("krippendorff_alpha", "krippendorff loop",
             lambda a, b: krippendorff.alpha(np.stack([a, b]).astype(float),
                                             level_of_measurement="nominal"))):
        t_ours, mat = best(lambda: iaa.pairwise(df, name), repeat)
        t_peer, theirs = best(lambda: loop_over_pairs(df, coefficient), repeat)
        for (a, b), v in theirs.items():
            check(mat.loc[a, b], v, f"pairwise {name} {a},{b}")
        rows.append((f"pairwise {name} {pairs}", peer, t_ours, t_peer))

    pair = df[df.annotator < 2]

    def sm_kappa():
        wide = pair.pivot(index="item", columns="annotator", values="label").dropna()
        table = pd.crosstab(wide[0], wide[1]).reindex(index=range(5), columns=range(5),
                                                      fill_value=0)
        r = cohens_kappa(table.to_numpy())
        return r.kappa, r.std_kappa
    t_ours, ours = best(lambda: iaa.cohen_kappa(pair), repeat)
    t_sm, theirs = best(sm_kappa, repeat)
    check((ours.value, ours.se), theirs, "cohen κ and SE")
    rows.append(("cohen_kappa + SE", "statsmodels", t_ours, t_sm))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="5x1000,5x100000,10x1000000")
    args = parser.parse_args()
    print(f"{'size':>10} | {'measure':<38} | {'peer':<18} | {'ours s':>8} | {'peer s':>8} |"
          f" {'peer/ours':>9}")
    for size in args.sizes.split(","):
        m, n = (int(float(v)) for v in size.split("x"))
        for measure, peer, t_ours, t_peer in run(m, n):
            print(f"{size:>10} | {measure:<38} | {peer:<18} | {t_ours:8.4f} | {t_peer:8.4f} |"
                  f" {t_peer / t_ours:8.1f}×", flush=True)


if __name__ == "__main__":
    main()
