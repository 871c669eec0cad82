"""ContingencyMatrix.left_out: the items a pair's table leaves out, counted and named.

Expected values are brute force over the tidy rows with pandas (which annotators
labelled each item), independent of the widget's vectorised masks."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from iaa_widgets.widgets.contingency import MAX_LEFT_OUT, ContingencyMatrix


def brute(df: pd.DataFrame, a: str, b: str) -> list[tuple[str, str]]:
    by = df.dropna(subset=["label"]).groupby("item", sort=True)["annotator"].agg(set)
    by = by.reindex(sorted(df["item"].unique()), fill_value=set())
    out = []
    for item, who in by.items():
        if a in who and b in who:
            continue
        why = ("labelled by neither" if not ({a, b} & who) else
               f"no label from {b}" if a in who else f"no label from {a}")
        out.append((str(item), why))
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_left_out_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    names = ["ann", "bob", "cat", "dan"]
    rows = [(i, n, rng.choice(["x", "y", "z"])) for i in range(300) for n in names
            if rng.random() < 0.6]
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    w = ContingencyMatrix(df)
    for pair in ([0, 1], [2, 3], [3, 0]):
        w.pair = pair
        assert w.error == ""
        a, b = (w.annotators[p] for p in pair)
        expected = brute(df, a, b)
        got = w.left_out
        assert got["total"] == len(expected)
        assert got["items"] == [list(e) for e in expected[:MAX_LEFT_OUT]]
        whys = [why for _, why in expected]
        assert got["no_first"] == whys.count(f"no label from {a}")
        assert got["no_second"] == whys.count(f"no label from {b}")
        assert got["no_both"] == whys.count("labelled by neither")
        # every item is either in the table or left out
        assert np.sum(w.matrix) + got["total"] == df["item"].nunique()


def test_a_table_of_counts_leaves_nothing_out():
    w = ContingencyMatrix([[2, 2], [1, 5]])
    assert w.left_out["total"] == 0 and w.left_out["items"] == []
