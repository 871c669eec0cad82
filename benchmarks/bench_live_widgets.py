"""Slider → recompute → redraw of the live widgets in a real browser (JupyterLab +
headless Chromium, tests/browser/labdriver.py).

- AugmentedKappaSweep on 100,000 items × 2 annotators (10 categories, ≈ 30 % of
  ratings with a secondary label), moving p;
- SparseAgreementExplorer on 100,000 crowd items (1–6 annotations each, 4 classes;
  iaa_widgets.datasets.crowd_labels) with 200 rounds, moving the drop slider.

Each move sets the slider's value and fires its `input` event (as a drag does); the
time is taken inside the page from that event to the widget's `iaa:redraw`, which fires
after the value has reached the kernel, the measure functions have recomputed, the new
rows and tables have come back and Vega has re-rendered. Goal: ≤ 150 ms. The Python
recompute alone is timed in the kernel, and the yardstick is the same widget's chart
re-embedded from the kernel (what a widget without named datasets would pay).

- ContingencyMatrix (editable) on 100,000 items, 4 categories: a real mouse click on a
  cell (+1), then a shift-click (−1), timed in the page from the `mousedown` to the
  widget's `iaa:redraw` (the new κ, AC1 and their bands are on the page). The Python
  side of one edit is timed in the kernel (`w._recompute()`).

- GammaExplorer on 5 annotators × 200 units (random_continuum, 30 samples): from a
  slider move to the progress line changing (the page answers), a trivial kernel round
  trip while γ is being recomputed (the kernel stays free), the time a newer value
  takes to stop the stale computation, and the whole recomputation.

- GammaExplorer on the tour's continuum (argument_units, 30 samples; issues 35 and 39):
  from a slider move to the first new γ on the page and to the γ of all 30 samples, as
  shipped (a quick estimate from gamma.QUICK_SAMPLES random continua only where the
  newest computation says the full result is slow), with the quick estimate on every move
  (QUICK_AFTER_SECONDS = 0) and with none (QUICK_SAMPLES = 30), in one run; with
  --gamma-before DIR, the same for the iaa_widgets of the tree DIR (e.g. a `git worktree`
  of an earlier commit, its iaa_widgets/static linked to this one's), alternately.

    PYTHONPATH=. python benchmarks/bench_live_widgets.py [--moves 30] [--only contingency]
        [--compare d157d95] [--only gamma-tour --gamma-before /tmp/before]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(REPO / "benchmarks"))

from labdriver import Lab, LabPage, launch_browser  # noqa: E402
from bench_widgets_browser import ARM, FROM_KERNEL, summary  # noqa: E402

SWEEP = """
import sys; sys.path.insert(0, {bench!r})
import iaa_widgets as iaa
from bench_augmented import make_table
table = make_table(100_000)
w = iaa.AugmentedKappaSweep(table, rank="rank")
w
"""
SPARSE = """
import iaa_widgets as iaa
from iaa_widgets.datasets import crowd_labels
w = iaa.SparseAgreementExplorer(crowd_labels(n_items=100_000), n_rounds=200)
w
"""
GAMMA = """
import iaa_widgets as iaa
from iaa_widgets.continuum import random_continuum
w = iaa.GammaExplorer(random_continuum(5, 200, seed=1), n_samples=30)
w
"""

CONTINGENCY = """
import numpy as np, iaa_widgets as iaa
rng = np.random.default_rng(0)
m = rng.multinomial(100_000 - 4 * 15_000, np.full(16, 1 / 16)).reshape(4, 4) \
    + np.diag([15_000] * 4)
w = {widget}(m, categories=["none", "mild", "moderate", "severe"], editable=True)
w
"""
# --compare REV: the same table in the ContingencyMatrix of git revision REV (e.g. the one
# before the widget recomputed only `finish`), loaded from git into the kernel, so that
# both are timed in one session under the same load
AT_REVISION = """
import subprocess, types
_old = types.ModuleType("iaa_widgets.widgets._contingency_at_revision")
_old.__package__ = "iaa_widgets.widgets"
exec(subprocess.run(["git", "-C", {repo!r}, "show", "{rev}:iaa_widgets/widgets/contingency.py"],
                    capture_output=True, text=True, check=True).stdout, _old.__dict__)
"""

MOVE = """async ([cls, value]) => {
  const root = document.querySelector(cls);
  const input = root.querySelector(`input.iaa-slider-${value[0]}`);
  const done = new Promise((resolve, reject) => {
    root.addEventListener('iaa:redraw', () => resolve(performance.now()), { once: true });
    setTimeout(() => reject(new Error('no redraw within 20 s')), 20000);
  });
  input.value = String(value[1]);
  const t0 = performance.now();
  input.dispatchEvent(new Event('input', { bubbles: true }));
  return (await done) - t0;
}"""

STATE_CHANGE = """async ([value]) => {
  const root = document.querySelector('.iaa-gamma');
  const input = root.querySelector('input.iaa-slider-alpha');
  const before = root.dataset.generation;
  input.value = String(value);
  const t0 = performance.now();
  input.dispatchEvent(new Event('input', { bubbles: true }));
  const limit = t0 + 20000;
  while (root.dataset.generation === before) {
    if (performance.now() > limit) throw new Error('no new request seen within 20 s');
    await new Promise(r => setTimeout(r, 2));
  }
  return performance.now() - t0;
}"""


GAMMA_TOUR = """
import sys; sys.path[:0] = {path!r}  # --gamma-before: that tree's iaa_widgets
import iaa_widgets as iaa
from iaa_widgets import datasets
from iaa_widgets.widgets import gamma as _gamma
_gamma.QUICK_SAMPLES = {quick}
if hasattr(_gamma, "QUICK_AFTER_SECONDS") and {always!r}:
    _gamma.QUICK_AFTER_SECONDS = 0
w = iaa.GammaExplorer(datasets.argument_units(), seed=1)
w
"""
# slider → the first new γ on the page, and → the γ of all 30 samples (state done, which
# the page shows after the final rows' redraw); watched by MutationObservers, not polled
# (a 2 ms polling loop kept the page busy and slowed the kernel on 2 cores)
FIRST_GAMMA = """async ([value]) => {
  const root = document.querySelector('.iaa-gamma');
  const input = root.querySelector('input.iaa-slider-alpha');
  const cell = () => root.querySelector('.iaa-gamma-summary tr[data-key="gamma"] .iaa-value');
  const before = cell().dataset.value;
  const generation = Number(root.dataset.generation);
  let first = null;
  let t0 = null;
  const done = new Promise((resolve, reject) => {
    const check = () => {
      if (t0 === null) return;
      const now = performance.now();
      if (first === null && cell().dataset.value !== before) first = now - t0;
      if (Number(root.dataset.generation) > generation && root.dataset.state === 'done') {
        watch.disconnect();
        resolve([first === null ? now - t0 : first, now - t0]);
      }
    };
    const watch = new MutationObserver(check);
    watch.observe(root, { attributes: true, childList: true, subtree: true,
                          attributeFilter: ['data-state', 'data-generation', 'data-value'] });
    setTimeout(() => { watch.disconnect(); reject(new Error('no new γ within 60 s')); }, 60000);
  });
  input.value = String(value);
  t0 = performance.now();
  input.dispatchEvent(new Event('input', { bubbles: true }));
  return await done;
}"""


def gamma_answer_bench(browser, lab, moves: int, quick: int, tree: str | None = None,
                       always: bool = False):
    """Slider → first new γ and → refined γ (ms) on the tour's continuum, with the
    iaa_widgets of ``tree`` (a git worktree; None: this one); ``always``: a quick
    estimate on every move (QUICK_AFTER_SECONDS = 0), however fast the result comes."""
    code = GAMMA_TOUR.format(quick=quick, path=[tree] if tree else [], always=always)
    name = f"gamma_tour_{quick}{'_always' if always else ''}{'_before' if tree else ''}.ipynb"
    page = open_page(browser, lab, name, code, ".iaa-gamma")
    pg = page.page
    pg.wait_for_function("() => document.querySelector('.iaa-gamma').dataset.state === 'done'",
                         timeout=300_000)
    first, refined = [], []
    for k in range(moves + 2):  # two warm-up moves
        value = round(1.1 + 0.1 * (k % 30), 1)  # on the slider's grid, never 1.0
        a, b = pg.evaluate(FIRST_GAMMA, [value])
        if k >= 2:
            first.append(a)
            refined.append(b)
    assert page.python("w.error") == "", page.python("w.error")
    if tree:
        assert page.python("iaa.__file__").startswith(tree), page.python("iaa.__file__")
    page.close()
    return first, refined


def open_page(browser, lab, name, code, cls):
    lab.write_notebook(name, [code])
    page = LabPage(browser, lab, viewport=(1400, 1100))
    page.open_notebook(name)
    page.run_all()
    page.page.wait_for_function(
        f"() => Number(document.querySelector('{cls}')?.dataset.revision) >= 1",
        timeout=180_000)
    return page


def slider_bench(browser, lab, name, code, cls, slider, values, recompute, moves):
    page = open_page(browser, lab, name, code, cls)
    times = []
    for k in range(moves + 3):
        dt = page.page.evaluate(MOVE, [cls, [slider, values[k % len(values)]]])
        if k >= 3:                       # three warm-up moves
            times.append(dt)
    assert page.python("w.error") == "", page.python("w.error")
    python = page.python(
        f"(lambda t: [t.repeat(1, 1)[0] * 1e3 for _ in range(10)])("
        f"__import__('timeit').Timer(lambda: {recompute}))")
    re_embed = [page.page.evaluate(FROM_KERNEL, [cls, (
        "w._specs = {k: {**v, 'usermeta': {'run': %d}} for k, v in w._specs.items()}" % e)])
        for e in range(8)]
    page.close()
    return times, python, re_embed


def contingency_bench(browser, lab, edits: int, rev: str | None = None):
    """Click → number on a 100,000-item table: (page times, kernel recompute times);
    with ``rev``, of the widget as it was at that git revision."""
    code = CONTINGENCY.format(widget="iaa.ContingencyMatrix") if rev is None else \
        AT_REVISION.format(repo=str(REPO), rev=rev) + CONTINGENCY.format(
            widget="_old.ContingencyMatrix")
    page = open_page(browser, lab, f"contingency_{rev or 'now'}.ipynb", code,
                     ".iaa-contingency")
    pg = page.page
    pg.locator(".iaa-contingency svg g.layer_0_marks path").first.scroll_into_view_if_needed()
    centres = pg.evaluate("""() => [...document.querySelectorAll(
        '.iaa-contingency svg g.layer_0_marks path')].map(e => {
          const b = e.getBoundingClientRect();
          return [b.x + b.width / 2, b.y + b.height / 2]; })""")
    times = []
    for e in range(edits + 4):                  # four warm-up edits
        pg.evaluate(ARM)
        x, y = centres[(e // 2) % len(centres)]  # +1, then −1 on the same cell
        if e % 2:
            pg.keyboard.down("Shift")
        pg.mouse.click(x, y)
        if e % 2:
            pg.keyboard.up("Shift")
        pg.wait_for_function("() => window.__dt !== null", timeout=20_000)
        if e >= 4:
            times.append(pg.evaluate("() => window.__dt"))
    assert page.python("w.error") == "", page.python("w.error")
    assert page.python("int(np.sum(w.matrix))") == 100_000
    python = page.python("(lambda t: [t.repeat(1, 1)[0] * 1e3 for _ in range(20)])("
                         "__import__('timeit').Timer(lambda: w._recompute()))")
    page.close()
    return times, python


def gamma_bench(browser, lab, moves: int):
    page = open_page(browser, lab, "gamma.ipynb", GAMMA, ".iaa-gamma")
    pg = page.page
    pg.wait_for_function("() => document.querySelector('.iaa-gamma').dataset.state === 'done'",
                         timeout=300_000)
    answer, kernel, stop, whole = [], [], [], []
    for k in range(moves):
        value = round(1.2 + 0.2 * k, 1)     # on the slider's 0.1 grid, never 1.0 nor repeated
        answer.append(pg.evaluate(STATE_CHANGE, [value]))
        pg.wait_for_function("() => document.querySelector('.iaa-gamma').dataset.state "
                             "=== 'sampling'", timeout=60_000)
        t0 = time.perf_counter()
        page.python("1 + 1")
        kernel.append((time.perf_counter() - t0) * 1e3)
        cancelled = page.python("w.status['cancelled']")
        t0 = time.perf_counter()
        pg.evaluate(STATE_CHANGE, [round(value + 0.1, 1)])  # a newer value
        while page.python("w.status['cancelled']") == cancelled:
            time.sleep(0.005)
        stop.append((time.perf_counter() - t0) * 1e3)
        t0 = time.perf_counter()
        page.python("w.wait(300).gamma.value")
        whole.append((time.perf_counter() - t0) * 1e3)
    last = page.python("[w.status['seconds'], w.status['done']]")
    page.close()
    return answer, kernel, stop, whole, last


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--gamma-moves", type=int, default=5)
    ap.add_argument("--only", choices=["sweep", "sparse", "contingency", "gamma", "gamma-tour"],
                    action="append", help="run only these (repeatable); default: all")
    ap.add_argument("--gamma-before", metavar="DIR", help="gamma-tour: also time the "
                    "GammaExplorer of this tree (e.g. `git worktree add /tmp/before REV`, "
                    "with its iaa_widgets/static linked to this one's), in the same run")
    ap.add_argument("--compare", metavar="REV", help="also time the ContingencyMatrix of "
                    "this git revision (e.g. d157d95, before it recomputed only finish)")
    args = ap.parse_args()
    only = set(args.only or ["sweep", "sparse", "contingency", "gamma"])
    from playwright.sync_api import sync_playwright

    print(f"load average before: {os.getloadavg()[0]:.1f} (2 cores shared)", flush=True)
    with Lab() as lab, sync_playwright() as p:
        browser = launch_browser(p)
        for key, name, args_ in (
                ("sweep", "AugmentedKappaSweep, 1e5 items: p", (
                    "sweep.ipynb", SWEEP.format(bench=str(REPO / "benchmarks")), ".iaa-sweep",
                    "p", [0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0],
                    "w._compute_at_p()")),
                ("sparse", "SparseAgreementExplorer, 1e5 items: drop", (
                    "sparse.ipynb", SPARSE, ".iaa-sparse", "drop",
                    [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7], "w._compute_missing()"))):
            if key not in only:
                continue
            times, python, re_embed = slider_bench(browser, lab, *args_, args.moves)
            print(summary(f"{name} → redraw (goal ≤ 150 ms)", times))
            print(summary("  of which Python recompute (kernel)", python))
            print(summary("  yardstick: chart re-embedded from the kernel", re_embed))
            print(f"  goal (median ≤ 150 ms): "
                  f"{'met' if statistics.median(times) <= 150 else 'NOT met'}", flush=True)
        if "contingency" in only:
            for rev in [None] + ([args.compare] if args.compare else []):
                times, python = contingency_bench(browser, lab, args.moves, rev)
                print(summary(f"ContingencyMatrix{f' at {rev}' if rev else ''}, 1e5 items: "
                              "click → number (goal ≤ 150 ms)", times))
                print(summary("  of which Python recompute (kernel)", python), flush=True)
        if "gamma-tour" in only:
            from iaa_widgets.widgets.gamma import QUICK_SAMPLES
            runs = [(QUICK_SAMPLES, "as shipped: a quick estimate only for a slow result",
                     None, False),
                    (QUICK_SAMPLES, f"quick estimate from {QUICK_SAMPLES} on every move",
                     None, True),
                    (30, "no quick estimate", None, False)]
            if args.gamma_before:  # alternately: the same load for both trees
                runs = [(QUICK_SAMPLES, f"{args.gamma_before}, quick estimate from "
                         f"{QUICK_SAMPLES}", args.gamma_before, True), runs[0], runs[1],
                        (30, f"{args.gamma_before}, no quick estimate", args.gamma_before,
                         False), runs[2]]
            for quick, name, tree, always in runs:
                first, refined = gamma_answer_bench(browser, lab, args.gamma_moves, quick, tree,
                                                    always)
                print(summary(f"GammaExplorer, tour's continuum ({name}): slider → first "
                              "new γ (goal ≤ 150 ms)", first))
                print(summary("  slider → γ of all 30 samples", refined), flush=True)
        gamma = gamma_bench(browser, lab, args.gamma_moves) if "gamma" in only else None
        browser.close()
    if gamma is None:
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        return
    answer, kernel, stop, whole, last = gamma
    print(summary("GammaExplorer 5 × 200: slider → page shows new request", answer))
    print(summary("  kernel round trip while γ recomputes", kernel))
    print(summary("  newer value → stale computation stopped", stop))
    print(summary("  newer value → its γ ready (30 samples)", whole))
    print(f"  last computation: {last[1]} samples in {last[0]:.2f} s")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
