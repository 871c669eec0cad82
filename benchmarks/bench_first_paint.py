"""The first widget of a fresh kernel, to its numbers on the page (issue 43 §3).

JupyterLab + headless Chromium (tests/browser/labdriver.py). For each widget
(ContingencyMatrix on a 3 × 3 table, ProjectExplorer on 2,000 items × 5 annotators) a new
notebook starts a fresh kernel; numpy, pandas and the data are made first (not timed:
the issue counts our cost above them), then the one cell that imports iaa_widgets and
makes the widget runs. Timed in the page, from the request to run the cell to:

- numbers: the widget's first number is in the page (κ's cell of the contingency panel,
  the explorer's headline value);
- chart: the contingency heatmap drawn (its marks in the SVG).

And in the kernel, the cell's own time (import and construction; the Python call).
``--before DIR``: the same in one run with the package imported from DIR first (an
older tree, e.g. ``git archive <commit> iaa_widgets | tar -x -C DIR`` with this tree's
built ``static/`` copied in), so that old and new are measured under the same load.

    PYTHONPATH=. python benchmarks/bench_first_paint.py [--before DIR] [--runs 2]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

from labdriver import Lab, LabPage, launch_browser  # noqa: E402

DATA = """
import sys, time
@PATH@
import numpy as np, pandas as pd
rng = np.random.default_rng(0)
n, J = 2000, 5
truth = rng.integers(0, 3, n)
x = np.where(rng.random((n, J)) < 0.7, truth[:, None], rng.integers(0, 3, (n, J)))
df = pd.DataFrame({"item": np.repeat(np.arange(n), J),
                   "annotator": np.tile([f"a{j}" for j in range(J)], n),
                   "label": np.array(["neg", "neu", "pos"])[x.ravel()]})
"""

WIDGETS = {
    "ContingencyMatrix": (
        "_t0 = time.perf_counter()\nimport iaa_widgets as iaa\n"
        "w = iaa.ContingencyMatrix([[20, 5, 1], [4, 18, 3], [2, 2, 15]])\n"
        "_dt = time.perf_counter() - _t0\nw",
        ".iaa-contingency tr[data-coef='cohen_kappa'] .iaa-value",
        ".iaa-contingency svg path"),
    "ProjectExplorer": (
        "_t0 = time.perf_counter()\nimport iaa_widgets as iaa\n"
        "w = iaa.ProjectExplorer(df)\n_dt = time.perf_counter() - _t0\nw",
        ".iaa-explorer .iaa-headline-value", None),
}

TIMED = """async ([numbers, chart]) => {
  const seen = (css) => { const e = css && document.querySelector(css);
                          return !!e && (e.textContent || e.getAttribute('d') || '').length > 0; };
  const t0 = performance.now();
  window.jupyterapp.commands.execute('notebook:run-all-cells');
  const out = {};
  while (!out.numbers || (chart && !out.chart)) {
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now() - t0;
    if (!out.numbers && seen(numbers)) out.numbers = now;
    if (chart && !out.chart && seen(chart)) out.chart = now;
    if (now > 120000) throw new Error('nothing shown within 120 s');
  }
  return out;
}"""


def first_paint(browser, lab, name: str, tree: str | None, run: int) -> dict:
    cell, numbers, chart = WIDGETS[name]
    nb = lab.write_notebook(f"first-{name}-{'before' if tree else 'after'}-{run}.ipynb", [cell])
    page = LabPage(browser, lab)
    try:
        page.open_notebook(nb, timeout=240_000)  # a new kernel, idle
        page.execute(DATA.replace("@PATH@", f"sys.path.insert(0, {tree!r})" if tree else ""))
        shown = page.page.evaluate(TIMED, [numbers, chart])
        shown["python"] = 1e3 * page.python("_dt")
        shown["from"] = page.python("iaa.__file__")
        return shown
    finally:
        page.page.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="a tree whose iaa_widgets is the 'before' version")
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average before: {os.getloadavg()[0]:.1f} (2 cores shared)")
    trees = ([("before", args.before)] if args.before else []) + [("after", None)]
    rows = []
    with Lab() as lab, sync_playwright() as p:
        browser = launch_browser(p)
        for run in range(args.runs):  # alternate, so that both see the same load
            for name in WIDGETS:
                for label, tree in trees:
                    got = first_paint(browser, lab, name, tree, run)
                    rows.append((name, label, got))
                    print(json.dumps({"widget": name, "version": label, **got}), flush=True)
        browser.close()
    for name in WIDGETS:
        for label, _ in trees:
            runs = [g for n, v, g in rows if n == name and v == label]
            line = "  ".join(f"{k} {statistics.median(g[k] for g in runs):7.0f} ms"
                             for k in ("python", "numbers", "chart") if k in runs[0])
            print(f"{name:<18} {label:<6} (median of {len(runs)})  {line}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
