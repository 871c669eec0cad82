"""Reading annotation-tool exports against the loop a user would write, in one run.

    PYTHONPATH=. python benchmarks/bench_io.py [--n 1000000]

Two files of ``--n`` annotations are written first (not timed): a Label Studio JSON
export (n / 2 tasks, two annotators, one ``choices`` region each, 1 % cancelled) and a
Prodigy ``db-out`` JSONL of n binary ``classification`` answers (two annotators, 1 %
``ignore``). Timed: ``read_label_studio`` / ``read_prodigy`` against ``json`` plus a
comprehension into a tidy frame plus ``as_annotations``, the glue a user writes (which
checks nothing: neither cancelled annotations nor malformed records). The script checks
that both reads give the same ratings.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from iaa_widgets.data import as_annotations  # noqa: E402
from iaa_widgets.io.label_studio import read_label_studio  # noqa: E402
from iaa_widgets.io.prodigy import read_prodigy  # noqa: E402

LABELS = ["Positive", "Negative", "Neutral"]


def write_label_studio(path: str, n: int, rng) -> None:
    choice = rng.integers(0, 3, n)
    cancelled = rng.random(n) < 0.01
    with open(path, "w") as fh:
        tasks = []
        for t in range(n // 2):
            tasks.append({"id": t, "data": {"text": f"text {t}"}, "annotations": [
                {"id": 2 * t + a, "completed_by": a + 1,
                 "was_cancelled": bool(cancelled[2 * t + a]),
                 "result": [{"id": "r", "from_name": "sentiment", "to_name": "text",
                             "type": "choices",
                             "value": {"choices": [LABELS[choice[2 * t + a]]]}}]}
                for a in range(2)], "predictions": []})
        json.dump(tasks, fh)


def write_prodigy(path: str, n: int, rng) -> None:
    answer = np.array(["accept", "reject", "ignore"])[
        np.searchsorted([0.6, 0.99], rng.random(n), side="right")]
    with open(path, "w") as fh:
        for i in range(n):
            fh.write(json.dumps({"text": f"text {i // 2}", "label": "SPORTS",
                                 "_input_hash": i // 2, "_task_hash": i // 2,
                                 "_view_id": "classification", "answer": answer[i],
                                 "_annotator_id": f"ds-{'ab'[i % 2]}",
                                 "_session_id": f"ds-{'ab'[i % 2]}"}) + "\n")


def user_label_studio(path: str):
    with open(path) as fh:
        tasks = json.load(fh)
    rows = [(t["id"], a["completed_by"], r["value"]["choices"][0])
            for t in tasks for a in t["annotations"] if not a["was_cancelled"]
            for r in a["result"] if r["from_name"] == "sentiment"]
    return as_annotations(pd.DataFrame(rows, columns=["item", "annotator", "label"]))


def user_prodigy(path: str):
    with open(path) as fh:
        tasks = [json.loads(line) for line in fh]
    rows = [(t["_input_hash"], t["_annotator_id"], t["answer"]) for t in tasks
            if t["answer"] != "ignore"]
    return as_annotations(pd.DataFrame(rows, columns=["item", "annotator", "label"]))


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def same(a, b) -> bool:
    return a.to_long().sort_values(["item", "annotator"]).reset_index(drop=True).equals(
        b.to_long().sort_values(["item", "annotator"]).reset_index(drop=True))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1_000_000)
    n = parser.parse_args().n
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        ls, pr = os.path.join(tmp, "ls.json"), os.path.join(tmp, "prodigy.jsonl")
        write_label_studio(ls, n, rng)
        write_prodigy(pr, n, rng)
        print(f"{n:,} annotations; files {os.path.getsize(ls) / 1e6:.0f} MB (Label Studio), "
              f"{os.path.getsize(pr) / 1e6:.0f} MB (Prodigy)")
        for what, ours, theirs, path in (
                ("Label Studio JSON", lambda p: read_label_studio(p, from_name="sentiment"),
                 user_label_studio, ls),
                ("Prodigy JSONL", lambda p: read_prodigy(p, view_id="classification"),
                 user_prodigy, pr)):
            a, t_ours = timed(ours, path)
            b, t_user = timed(theirs, path)
            assert same(a, b), what
            print(f"{what:18s} read_*: {t_ours:6.2f} s   user loop: {t_user:6.2f} s   "
                  f"ratio {t_ours / t_user:.2f}   ({a.n_ratings:,} ratings, notes: "
                  f"{'; '.join(a.notes)})")


if __name__ == "__main__":
    main()
