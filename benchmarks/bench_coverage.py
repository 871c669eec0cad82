"""Monte-Carlo coverage of the bootstrap intervals (issue 45, Tests): the unit, clustered
and Krippendorff bootstraps' 95 % intervals over ≥ 500 simulated data sets of known
agreement must cover it in 93–97 % of them.

Models (population values known in closed form):

- **α and κ, unit and Krippendorff bootstraps.** Two coders label ``--items`` units among
  K = 3 categories of shares π = (0.5, 0.3, 0.2); coder 2 copies coder 1 with probability
  ρ, else draws from π anew. Both coders' labels follow π, so D_e = 1 − Σπ², D_o =
  (1 − ρ)(1 − Σπ²) and α = Scott's π = ρ (= 0.6). Unit bootstrap of α (nominal) and of
  Scott's π; Krippendorff's bootstrap of α. With three coders (coders 2 and 3 each copy
  coder 1 with probability ρ), pairs (1, 2) and (1, 3) agree beyond chance by ρ and pair
  (2, 3) by ρ², so α = (2ρ + ρ²)/3 (= 0.52): unit and Krippendorff bootstraps of α.
  Krippendorff's draws M = (m − 1)·n../2 pairs as if independent, but the three pairs of
  a unit share its values: this row shows what that does to its coverage.
- **Tokens in documents, clustered bootstrap.** Two annotators label ``--tokens`` tokens
  in each of ``--documents`` documents (0/1); in document d they agree on a token with
  probability p_d ~ U(0.4, 1): percent agreement's population value E[p_d] = 0.7. The
  clustered bootstrap (``cluster="document"``) against the naive one over tokens.

Each data set has its own seed; every interval is the percentile interval of
``--resamples`` replicates. Printed: each scheme's coverage, its binomial standard
error, and whether it lies in 93–97 %. ``--fast`` is the CI variant (60 data sets, 300
replicates: a smoke test of the script, too few sets to judge coverage).

    PYTHONPATH=. python benchmarks/bench_coverage.py [--sets 500] [--resamples 1000]
    PYTHONPATH=. python benchmarks/bench_coverage.py --fast
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import iaa_widgets as iaa

SHARES = np.array([0.5, 0.3, 0.2])
RHO = 0.6            # population α = Scott's π of the copy model
AGREEMENT = 0.7      # E[p_d], p_d ~ U(0.4, 1)


def copy_model(rng, items: int, coders: int = 2) -> iaa.Annotations:
    """Coders 2 … m each copy coder 1 with probability ρ, else draw from π anew."""
    a = rng.choice(3, items, p=SHARES)
    others = {f"c{j}": np.where(rng.random(items) < RHO, a, rng.choice(3, items, p=SHARES))
              for j in range(2, coders + 1)}
    return iaa.Annotations.from_wide(pd.DataFrame({"c1": a, **others}))


def documents(rng, n_docs: int, tokens: int):
    """Tokens of documents, agreement p_d ~ U(0.4, 1) within document d; the data and
    each token's document."""
    p = rng.uniform(0.4, 1, n_docs)
    doc = np.repeat(np.arange(n_docs), tokens)
    a = rng.integers(0, 2, len(doc))
    b = np.where(rng.random(len(doc)) < p[doc], a, 1 - a)
    return iaa.Annotations.from_wide(pd.DataFrame({"a": a, "b": b})), pd.Series(doc)


def covers(result, truth: float) -> bool:
    return result.ci[0] <= truth <= result.ci[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", type=int, default=500)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--items", type=int, default=200)
    ap.add_argument("--documents", type=int, default=30)
    ap.add_argument("--tokens", type=int, default=20)
    ap.add_argument("--fast", action="store_true", help="60 sets, 300 replicates (CI)")
    args = ap.parse_args()
    if args.fast:
        args.sets, args.resamples = 60, 300
    schemes = {
        "unit bootstrap, α nominal": lambda ann, s: iaa.bootstrap(
            ann, "krippendorff_alpha", n_resamples=args.resamples, seed=s),
        "unit bootstrap, Scott's π": lambda ann, s: iaa.bootstrap(
            ann, "scott_pi", n_resamples=args.resamples, seed=s),
        "Krippendorff's bootstrap, α nominal": lambda ann, s: iaa.bootstrap(
            ann, "krippendorff_alpha", method="krippendorff", n_resamples=args.resamples,
            seed=s),
    }
    three = {"unit bootstrap, α nominal, 3 coders": schemes["unit bootstrap, α nominal"],
             "Krippendorff's bootstrap, α nominal, 3 coders":
                 schemes["Krippendorff's bootstrap, α nominal"]}
    hits = dict.fromkeys([*schemes, *three, "clustered bootstrap, percent agreement",
                          "naive bootstrap over tokens (for contrast)"], 0)
    start = time.perf_counter()
    for s in range(args.sets):
        rng = np.random.default_rng(10_000 + s)
        ann = copy_model(rng, args.items)
        for name, run in schemes.items():
            hits[name] += covers(run(ann, s), RHO)
        ann = copy_model(rng, args.items, coders=3)
        for name, run in three.items():
            hits[name] += covers(run(ann, s), (2 * RHO + RHO ** 2) / 3)
        tokens, doc = documents(rng, args.documents, args.tokens)
        hits["clustered bootstrap, percent agreement"] += covers(iaa.bootstrap(
            tokens, "percent_agreement", n_resamples=args.resamples, seed=s, cluster=doc),
            AGREEMENT)
        hits["naive bootstrap over tokens (for contrast)"] += covers(iaa.bootstrap(
            tokens, "percent_agreement", n_resamples=args.resamples, seed=s), AGREEMENT)
    took = time.perf_counter() - start
    print(f"{args.sets} data sets, {args.resamples:,} replicates each, 95 % percentile "
          f"intervals ({took:.1f} s)\n")
    print("| scheme | coverage | binomial SE | in 93–97 % |\n|---|---:|---:|---|")
    for name, k in hits.items():
        c = k / args.sets
        print(f"| {name} | {c:.3f} | {np.sqrt(c * (1 - c) / args.sets):.3f} | "
              f"{'yes' if 0.93 <= c <= 0.97 else 'no'} |")


if __name__ == "__main__":
    main()
