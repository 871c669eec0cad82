"""Static pages with precomputed states (issue 42): ``to_html`` of the augmented-κ sweep
on the 380 e-mails (three annotators, secondary labels), the case that took 21 s.

Goal: a page in a few seconds. Compared with: the same code at another commit, run in
the same session (the machine's load moves both), e.g.

    git archive <commit> iaa_widgets | tar -x -C /tmp/old && cp -r iaa_widgets/static /tmp/old/iaa_widgets/
    PYTHONPATH=/tmp/old python benchmarks/bench_export.py
    PYTHONPATH=. python benchmarks/bench_export.py --former-groups
    PYTHONPATH=. python benchmarks/bench_export.py

``--former-groups`` keeps only the groups the page had before δ and τ were live (p,
class, pair, pages, p × class), so that old and new compute the same states.
"""
import json
import re
import sys
import time

import iaa_widgets as iaa
from iaa_widgets.datasets import email_types

FORMER = {"p", "selected_class", "pair", "row_offset"}


def main() -> None:
    print(iaa.__file__)
    w = iaa.AugmentedKappaSweep(email_types(), rank="rank")
    w.wait()
    if "--former-groups" in sys.argv and hasattr(w, "_export_groups"):
        groups = w._export_groups()
        w._export_groups = lambda: [g for g in groups if {c.name for c in g} <= FORMER]
    for _ in range(2):
        t = time.perf_counter()
        page = w.to_html()
        dt = time.perf_counter() - t
        live = json.loads(re.search(r'id="iaa-states">(.*?)</script>', page, re.S).group(1))
        print(f"{dt:.2f} s, {len(page.encode()) / 1e6:.2f} MB, {len(live['states'])} states, "
              f"{len(live.get('diffs', []))} distinct diffs, live "
              f"{[c['name'] for c in live['controls']]}, dropped "
              f"{[d['controls'] for d in live['dropped']]}")


if __name__ == "__main__":
    main()
