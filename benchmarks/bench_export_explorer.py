"""ProjectExplorer's static page (issue 42): ``to_html`` of notebook 08's project
(``iaa.datasets.product_reviews``: five annotators, four labels, a text per item) at
400, 1e4 and 1e5 items, with the items of every click embedded (explorer_export).

Goal: the page within its 5 MB budget at 1e5 items, written in seconds. Compared with:
the code before the items were embedded (a page with no click live), run in the same
session (the machine's load moves both), e.g.

    git archive 3d8f816 iaa_widgets | tar -x -C /tmp/old && cp -r iaa_widgets/static /tmp/old/iaa_widgets/
    PYTHONPATH=/tmp/old python benchmarks/bench_export_explorer.py
    PYTHONPATH=. python benchmarks/bench_export_explorer.py
"""
import json
import os
import re
import time

import iaa_widgets as iaa


def main() -> None:
    print(iaa.__file__, "load", os.getloadavg())
    for n in (400, 10_000, 100_000):
        w = iaa.ProjectExplorer(iaa.datasets.product_reviews(n_items=n), text="text",
                                n_resamples=2, seed=0)
        w.wait(600)
        t = time.perf_counter()
        page = w.to_html()
        dt = time.perf_counter() - t
        live = json.loads(re.search(r'id="iaa-states">(.*?)</script>', page, re.S).group(1))
        data = live.get("data") or {}
        print(f"{n:>7} items: {dt:.2f} s, {len(page.encode()) / 1e6:.2f} MB, "
              f"{data.get('n_items', 0)} of {data.get('n_listed', 0)} listed items kept, "
              f"{len(data.get('queries', {}))} selections, dropped "
              f"{[d['controls'] for d in live['dropped']]}")
        w.close()
    print("load", os.getloadavg())


if __name__ == "__main__":
    main()
