"""Gwet's AC1, AC2 (quadratic weights) and quadratic-weighted Fleiss' κ, each with its
standard error, against irrCAC (Gwet's own formulas, Python port), end to end from two
input forms of the same ratings:

* tidy: a DataFrame (item, annotator, label); our timing includes building the
  Annotations (``Annotations.from_long``), irrCAC's its pandas pivot to the items ×
  raters frame it takes;
* wide: that items × raters frame (NaN where a rating is missing), what irrCAC takes as
  it is; ours includes ``Annotations.from_wide`` on the same frame.

Data: 10 raters, 5 numeric categories 1–5, 10 % of ratings missing (so Gwet's rules
for missing ratings are exercised), ratings that agree more than chance, 1e6 items
(``--items``). irrCAC runs at ``--peer-items`` (default: the same size, measured, no
extrapolation; a smaller size gives the ratio at equal size there and, with irrCAC's
time scaled linearly, at the full size, which the output says). Values and standard
errors are checked to agree within 1e-9 before any time is printed.

Times are the best of ``--repeat`` runs for both sides (irrCAC imported before any
timing: its import takes ~0.8 s), wall clock and CPU (process time, all threads): on a
shared machine the CPU time is the less disturbed of the two. Building
the wide frame for the "wide" rows (the pivot) is not timed for either side.

    PYTHONPATH=. python benchmarks/bench_gwet.py [--items 1000000] [--peer-items N]
"""
from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd

from iaa_widgets import Annotations
from iaa_widgets.measures.categorical.classic import fleiss_kappa
from iaa_widgets.measures.categorical.gwet import gwet_ac1, gwet_ac2

from bench_classic import K, make_tidy, timed  # the same ratings and timer (benchmarks/)

RATERS = 10


MEASURES = {  # name: (ours on Annotations, irrCAC's weights and method)
    "AC1": (gwet_ac1, "identity", "gwet"),
    "AC2 quadratic": (lambda ann: gwet_ac2(ann, weights="quadratic"), "quadratic", "gwet"),
    "Fleiss κ quadratic": (lambda ann: fleiss_kappa(ann, weights="quadratic",
                                                    missing="available"),
                           "quadratic", "fleiss"),
}

# input form: (our loader, the form made from the tidy table before timing, what irrCAC
# does to it inside its timing: pivot the tidy table, take the wide frame as it is)
FORMS = {"tidy": (Annotations.from_long, lambda df: df, lambda df: wide(df)),
         "wide": (Annotations.from_wide, lambda df: wide(df), lambda frame: frame)}


def wide(df: pd.DataFrame) -> pd.DataFrame:
    """The items × raters frame irrCAC takes (NaN where a rating is missing)."""
    return df.pivot(index="item", columns="annotator", values="label")


def irrcac(frame, weights, method):
    """irrCAC on its items × raters frame."""
    from irrCAC.raw import CAC  # imported by main before any timing
    # categories given: irrCAC finds them with DataFrame.stack(), which under pandas 3
    # keeps NaN, so that a missing rating would count as a category (q = 6, not 5)
    return getattr(CAC(frame, weights=weights, categories=list(range(1, K + 1)),
                       digits=15), method)()["est"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--peer-items", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    peer_items = args.peer_items or args.items
    warnings.filterwarnings("ignore")  # irrCAC's pandas deprecation warnings
    import irrCAC.raw  # noqa: F401  (its import, ~0.8 s, is not part of any timing)
    full = make_tidy(RATERS, args.items)
    small = full if peer_items == args.items else make_tidy(RATERS, peer_items, seed=1)
    scale = args.items / peer_items
    print(f"{RATERS} raters, {K} categories, 10 % missing: ours at {args.items:,} items "
          f"({len(full):,} ratings), irrCAC at {peer_items:,} items; best of "
          f"{args.repeat} each, wall / CPU seconds")
    print(f"{'input':<6}{'measure':<20}{'ours':>16}{'irrCAC':>16}{'ratio wall':>12}"
          f"{'ratio CPU':>11}")
    for form, (load, made, peer_input) in FORMS.items():
        data = made(full)
        peer_data = data if small is full else made(small)
        for name, (ours, weights, method) in MEASURES.items():
            (wall, cpu), r = timed(lambda: ours(load(data)), args.repeat)
            (p_wall, p_cpu), est = timed(
                lambda: irrcac(peer_input(peer_data), weights, method), args.repeat)
            check = r if small is full else ours(load(peer_data))
            for mine, theirs in ((check.value, est["coefficient_value"]),
                                 (check.se, float(np.squeeze(est["se"])))):
                if abs(mine - theirs) > 1e-9:
                    raise SystemExit(f"{form} {name}: ours {mine!r} differs from irrCAC "
                                     f"{theirs!r}")
            p_wall, p_cpu = p_wall * scale, p_cpu * scale
            print(f"{form:<6}{name:<20}{wall:>7.2f} / {cpu:>5.2f}{p_wall:>7.2f} / "
                  f"{p_cpu:>5.2f}{p_wall / wall:>11.1f}×{p_cpu / cpu:>10.1f}×")
    print("values and standard errors agree with irrCAC within 1e-9"
          + ("" if scale == 1 else f"; irrCAC's times scaled ×{scale:g} from "
             f"{peer_items:,} items (linear extrapolation)"))


if __name__ == "__main__":
    main()
