"""Ranked labels (primary / secondary) in Annotations, as issue 3 needs them.

Rosenberg & Binkowski (2004) §3: each message gets one label, or two with one designated
primary and the other secondary. Both input forms must give the same ratings, and every
malformed ranking must be refused naming its rows.
"""
import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations


def ratings(ann: Annotations) -> set:
    """The ratings as a set of (item, annotator, label, rank), for comparing loaders."""
    return set(zip(ann.items.take(ann.item), ann.annotators.take(ann.annotator),
                   ann.categories.take(ann.label), ann.rank.tolist()))


# Table 1 of the paper (annotator A, messages 1–5: "a,b", "b,a", "b", "c", "c,b") and a
# second annotator B invented for the test.
PAIRS = pd.DataFrame({"item": [1, 2, 3, 4, 5, 1, 2, 3, 4, 5],
                      "annotator": ["A"] * 5 + ["B"] * 5,
                      "label": [("a", "b"), ("b", "a"), "b", "c", ("c", "b"),
                                "a", "b", ("b", "c"), "d", "c"]})
RANKED = pd.DataFrame({"item": [1, 1, 2, 2, 3, 4, 5, 5, 1, 2, 3, 3, 4, 5],
                       "annotator": ["A"] * 8 + ["B"] * 6,
                       "label": ["a", "b", "b", "a", "b", "c", "c", "b",
                                 "a", "b", "b", "c", "d", "c"],
                       "rank": [1, 2, 1, 2, 1, 1, 1, 2, 1, 1, 1, 2, 1, 1]})


def test_rank_column_and_pair_cells_give_the_same_ratings():
    x = Annotations.from_long(PAIRS)
    y = Annotations.from_long(RANKED, rank="rank")
    assert ratings(x) == ratings(y)
    # Table 1: A gave 3 secondary labels, B 1 → 4 secondaries among 14 ratings
    assert x.n_ratings == 14 and int(np.sum(x.rank == 2)) == 4 and x.has_secondary
    assert set(x.rank.tolist()) == {1, 2}
    # rank is parallel to the other arrays: message 2 of A is primarily "b", secondarily "a"
    a2 = (x.annotators.take(x.annotator) == "A") & (x.items.take(x.item) == 2)
    assert dict(zip(x.rank[a2].tolist(), x.categories.take(x.label[a2]))) == {1: "b", 2: "a"}


def test_rank_order_of_rows_does_not_matter():
    shuffled = RANKED.sample(frac=1, random_state=3)
    assert ratings(Annotations.from_long(shuffled, rank="rank")) == \
        ratings(Annotations.from_long(RANKED, rank="rank"))


def test_primary_view_drops_secondaries():
    prim = Annotations.from_long(PAIRS).primary()
    assert prim.n_ratings == 10 and not prim.has_secondary


def test_wide_table_and_csv_with_ranks(tmp_path):
    wide = PAIRS.pivot(index="item", columns="annotator", values="label")
    assert ratings(Annotations.from_wide(wide)) == ratings(Annotations.from_long(PAIRS))
    RANKED.to_csv(tmp_path / "ranked.csv", index=False)
    assert ratings(iaa.read_csv(tmp_path / "ranked.csv", rank="rank")) == \
        ratings(Annotations.from_long(PAIRS))


def test_to_long_roundtrip_keeps_ranks():
    x = Annotations.from_long(PAIRS)
    assert ratings(Annotations.from_long(x.to_long(), rank="rank")) == ratings(x)


@pytest.mark.parametrize("df, kwargs, message", [
    # secondary without a primary (rank form)
    (pd.DataFrame({"item": [1, 1, 2], "annotator": ["a", "b", "a"], "label": ["x", "y", "x"],
                   "rank": [1, 1, 2]}), {"rank": "rank"},
     "secondary label without a primary at row(s) 2"),
    # secondary equal to the primary, in both forms
    (pd.DataFrame({"item": [1, 1, 1], "annotator": ["a", "a", "b"], "label": ["x", "x", "y"],
                   "rank": [1, 2, 1]}), {"rank": "rank"},
     "secondary label equal to its primary at row(s) 1"),
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": [("x", "x"), "y"]}), {},
     "secondary label equal to its primary at row(s) 0"),
    # more than two labels, in both forms
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": [("x", "y", "z"), "y"]}),
     {}, "row(s) 0 hold 3"),
    (pd.DataFrame({"item": [1, 1, 1, 1], "annotator": ["a", "a", "a", "b"],
                   "label": ["x", "y", "z", "y"], "rank": [1, 2, 2, 1]}), {"rank": "rank"},
     "more than one label of the same rank for an (item, annotator) at row(s) 1, 2"),
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": [(), "y"]}), {},
     "row(s) 0 hold 0"),
    # rank outside {1, 2}
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": ["x", "y"],
                   "rank": [1, 0]}), {"rank": "rank"}, "rank must be 1 (primary) or 2"),
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": ["x", "y"],
                   "rank": [1, None]}), {"rank": "rank"}, "row(s) 1"),
    # a (primary, secondary) cell and a rank column at once (added for issue 3)
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": [("x", "y"), "y"],
                   "rank": [1, 1]}), {"rank": "rank"}, "row(s) 0 hold a sequence"),
    # a blank label is a missing rating: a pair cell with a blank primary keeps an orphan
    (pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": [(None, "x"), "y"]}),
     {}, "secondary label without a primary at row(s) 0"),
])
def test_bad_rankings_are_named(df, kwargs, message):
    with pytest.raises(AgreementError) as err:
        Annotations.from_long(df, **kwargs)
    assert message in str(err.value)
