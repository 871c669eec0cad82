"""GammaExplorer's kernel side (issue 39): from setting the positional weight to the
final result (``wait()``), on the tour's continuum (argument_units, 30 samples, seed 1),
wall clock and CPU time of the process, for this tree and, alternately in one run, the
iaa_widgets of earlier trees (e.g. ``git worktree add /tmp/before REV``); each tree in
its own process. The γ values printed must be the same for every tree.

    python benchmarks/bench_gamma_widget_kernel.py [--moves 10] [--rounds 2] [/tmp/before ...]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

CHILD = """
import statistics, sys, time
sys.path[:0] = {path!r}
import iaa_widgets as iaa
from iaa_widgets import datasets
w = iaa.GammaExplorer(datasets.argument_units(), seed=1)
w.wait(300)
wall, cpu, values = [], [], []
for k in range({moves}):
    t, c = time.perf_counter(), time.process_time()
    w.alpha = round(1.1 + 0.1 * k, 1)  # on the slider's grid, never 1.0 nor repeated
    values.append(w.wait(300).gamma.value)
    wall.append(1e3 * (time.perf_counter() - t))
    cpu.append(1e3 * (time.process_time() - c))
w.close()
print(f"{{iaa.__file__.rsplit('/iaa_widgets/', 1)[0]}}: wall median "
      f"{{statistics.median(wall):.0f}} ms, CPU median {{statistics.median(cpu):.0f}} ms; "
      f"γ of the first three moves {{[round(v, 6) for v in values[:3]]}}")
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="*", help="other trees whose iaa_widgets to time")
    ap.add_argument("--moves", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}", flush=True)
    here = str(Path(__file__).resolve().parents[1])
    for _ in range(args.rounds):
        for tree in [*args.trees, here]:
            code = CHILD.format(path=[tree], moves=args.moves)
            subprocess.run([sys.executable, "-c", code], check=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
