"""γ against pygamma-agreement on random continua, in one run, equal sample counts.

    PYTHONPATH=. python benchmarks/bench_gamma.py [--samples 30] [--timeout 300]

Continua: ``random_continuum(n, m)`` (reference units copied by each annotator with
moved bounds, changed categories and misses) for n × m = 2 × 10, 3 × 50, 4 × 100,
5 × 200. Both libraries compute exact γ (best alignment by a MIP) with Mathet's
shuffle sampler and the same number of samples; pygamma-agreement runs in a child
process (its import is timed apart) that is stopped after ``--timeout`` seconds.
Where both finish, the script checks that the observed disorders agree (1e-5,
pygamma works in float32). Also timed: ``import iaa_widgets`` in a fresh process.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from iaa_widgets.continuum import random_continuum  # noqa: E402
from iaa_widgets.measures.continuum.gamma.coefficients import gamma  # noqa: E402

SIZES = [(2, 10), (3, 50), (4, 100), (5, 200)]

PEER = r"""
import json, sys, time, logging
logging.disable(logging.WARNING)
t0 = time.perf_counter()
import numpy as np
import pygamma_agreement as pa
t1 = time.perf_counter()
path, n_samples = sys.argv[1], int(sys.argv[2])
c = pa.Continuum.from_csv(path)
np.random.seed(0)
t2 = time.perf_counter()
r = c.compute_gamma(pa.CombinedCategoricalDissimilarity(), n_samples=n_samples,
                    sampler=pa.ShuffleContinuumSampler(pivot_type="float_pivot"))
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "time": t3 - t2, "gamma": float(r.gamma),
                  "observed": float(r.observed_disorder), "samples": r.n_samples}))
"""


def fresh_import_seconds(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=os.path.join(os.path.dirname(__file__), ".."))
    return float(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else float("nan")


def run_peer(script: str, frame, args: list, timeout: float, python: str = sys.executable,
             header: bool = False) -> dict:
    """Run the peer's ``script`` in its own interpreter on ``frame`` (written to a
    temporary CSV whose path is its first argument, then ``args``); the JSON of its last
    line, or {"error": …} / {"timeout": …}."""
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        frame.to_csv(f, header=header, index=False)
    try:
        out = subprocess.run([python, "-c", script, f.name, *map(str, args)],
                             capture_output=True, text=True, timeout=timeout)
        if out.returncode != 0:
            return {"error": out.stderr.strip().splitlines()[-1]}
        return json.loads(out.stdout.strip().splitlines()[-1])
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    finally:
        os.unlink(f.name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--no-peer", action="store_true")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")
    print(f"import iaa_widgets (fresh process): {fresh_import_seconds('iaa_widgets'):.3f} s")
    print(f"{'n × m':>8} {'units':>6} {'ours s':>8} {'ours 2p s':>9} {'γ ours':>7} "
          f"{'pygamma s':>10} {'γ pygamma':>9} {'ratio':>7}  δ_o equal")
    for n, m in SIZES:
        c = random_continuum(n, m, seed=n * 1000 + m)
        gamma(c, n_samples=2, seed=0)  # warm-up: scipy imports
        t = time.perf_counter()
        ours = gamma(c, n_samples=args.samples, seed=0)
        t_ours = time.perf_counter() - t
        t = time.perf_counter()
        gamma(c, n_samples=args.samples, seed=0, n_jobs=2)
        t_two = time.perf_counter() - t
        p = {"skipped": True} if args.no_peer else run_peer(PEER, c.to_frame(),
                                                                  [args.samples], args.timeout)
        if "time" in p:
            same = abs(p["observed"] - ours.observed) < 1e-5
            peer_s, peer_g = f"{p['time']:.2f}", f"{p['gamma']:.4f}"
            ratio = f"{p['time'] / t_ours:.1f}×"
            imp = f"  (pygamma import {p['import']:.1f} s)"
        else:
            same, peer_g, ratio, imp = "-", "-", "-", ""
            peer_s = (f">{p['timeout']:.0f}" if "timeout" in p
                      else "skipped" if "skipped" in p else "error")
            if "error" in p:
                imp = "  " + p["error"]
        print(f"{n:>3} × {m:<4} {c.n_units:>6} {t_ours:>8.2f} {t_two:>9.2f} "
              f"{ours.value:>7.4f} {peer_s:>10} {peer_g:>9} {ratio:>7}  {same}{imp}",
              flush=True)


if __name__ == "__main__":
    main()
