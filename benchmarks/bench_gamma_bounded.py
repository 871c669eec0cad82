"""γ on stacked and large continua (issue 19): the best alignment alone and gamma()
end to end with its defaults (30 shuffle samples, one process), each case in a child
process stopped after ``--timeout`` seconds; wall clock and the child's CPU time
(the machine may be shared).

    PYTHONPATH=. python benchmarks/bench_gamma_bounded.py [--timeout 300] [--cases a,b]

Cases: ``stack n×k`` (n annotators × k identical units [0, 10] of one category);
``random n×m`` (:func:`iaa_widgets.continuum.random_continuum`, seed 1); ``args n×m``
(:func:`iaa_widgets.datasets.argument_units`, seed 1: units jittered around common
positions). To time another version of the package, point PYTHONPATH at its tree
(e.g. ``mkdir before && git archive HEAD iaa_widgets | tar -x -C before``).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CASES = ["stack 3x10", "stack 3x30", "stack 3x100", "random 4x1000", "random 5x1000",
         "args 5x1000"]

CHILD = r"""
import json, sys, time
import numpy as np
import iaa_widgets as iaa
from iaa_widgets.continuum import Continuum, random_continuum
from iaa_widgets.measures.continuum.gamma.alignment import best_alignment
kind, size, what = sys.argv[1], sys.argv[2], sys.argv[3]
n, m = map(int, size.split("x"))
if kind == "stack":
    c = Continuum.from_codes(np.repeat(np.arange(n), m), np.zeros(n * m), np.zeros(n * m),
                             np.full(n * m, 10.0), [f"a{i}" for i in range(n)], ["x"])
elif kind == "random":
    c = random_continuum(n, m, seed=1)
else:
    from iaa_widgets.datasets import argument_units
    c = Continuum.from_frame(argument_units(n, m, seed=1))
best_alignment(random_continuum(3, 5, seed=0))  # warm: scipy imports
t, cpu = time.perf_counter(), time.process_time()
if what == "align":
    value = best_alignment(c).disorder
else:
    quiet = {"progress": False} if "auto" in str(iaa.gamma_family.__defaults__) else {}
    value = iaa.gamma(c, seed=0, **quiet).value  # no bar (versions before issue 19 had none)
print(json.dumps({"seconds": time.perf_counter() - t, "cpu": time.process_time() - cpu,
                  "value": value, "units": c.n_units}))
"""


def run(case: str, what: str, timeout: float) -> str:
    kind, size = case.split()
    try:
        out = subprocess.run([sys.executable, "-c", CHILD, kind, size, what],
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"> {timeout:.0f} s", ""
    if out.returncode != 0:
        return "error", out.stderr.strip().splitlines()[-1]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    return f"{r['seconds']:.2f} s ({r['cpu']:.2f})", f"{r['value']:.6f} ({r['units']} units)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--cases", default=",".join(CASES))
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")
    print("times: wall clock (CPU of the process)")
    print(f"{'case':<15} {'alignment':>18} {'δ_o':>24} {'gamma()':>18} {'γ':>24}")
    for case in args.cases.split(","):
        t_al, v_al = run(case, "align", args.timeout)
        t_g, v_g = run(case, "gamma", args.timeout)
        print(f"{case:<15} {t_al:>18} {v_al:>24} {t_g:>18} {v_g:>24}", flush=True)


if __name__ == "__main__":
    main()
