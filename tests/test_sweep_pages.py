"""AugmentedKappaSweep's item list in pages (``row_offset``) and ``n_secondary`` in its
summary (why a curve is flat). Expected rows come from ``class_items()`` (all the
class's items, the measure's own table) and secondary labels are counted with pandas
on the tidy rows."""
from __future__ import annotations

import pandas as pd

from iaa_widgets.datasets import email_types
from iaa_widgets.widgets.sweep import AugmentedKappaSweep


def test_pages_walk_the_whole_class():
    w = AugmentedKappaSweep(email_types(), rank="rank", selected_class="higher_at_p1",
                            max_rows=40)
    every = w.class_items()["item"].astype(str).tolist()
    seen = []
    for offset in range(0, len(every), 40):
        w.row_offset = offset
        t = w.class_table
        assert t["offset"] == offset and t["total"] == len(every)
        seen += [row[0] for row in t["rows"]]
    assert seen == every
    w.selected_class = "constant_low"  # a new class lists from its first item
    assert w.row_offset == 0 and w.class_table["offset"] == 0
    assert w.error == ""


def test_n_secondary_counts_the_pairs_secondary_labels():
    df = email_types()
    w = AugmentedKappaSweep(df, rank="rank")
    assert w.summary["n_secondary"] == int((df["rank"] == 2).sum())
    w.pair = 0  # A × B
    assert w.summary["n_secondary"] == int(((df["rank"] == 2) &
                                            df["annotator"].isin(["A", "B"])).sum())
    flat = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": ["a", "b"] * 3,
                         "label": list("xxyyxy")})
    assert AugmentedKappaSweep(flat).summary["n_secondary"] == 0
