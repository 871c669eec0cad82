"""Example data sets: shapes, validity as Annotations/continua, determinism by seed."""
import numpy as np
import pandas as pd
import pytest

from iaa_widgets import AgreementError, Annotations
from iaa_widgets.datasets import (ARGUMENT_CATEGORIES, CROWD_CLASSES, EMAIL_TYPES,
                                  SPAN_LABELS, argument_units, crowd_labels,
                                  datasaur_spans, email_types, krippendorff_2011,
                                  meyer_relatedness, product_reviews, review_spans)

GENERATORS = [email_types, crowd_labels, argument_units, review_spans, product_reviews]


@pytest.mark.parametrize("make", GENERATORS)
def test_same_seed_same_table_other_seed_other_table(make):
    pd.testing.assert_frame_equal(make(seed=7), make(seed=7))
    assert not make(seed=7).equals(make(seed=8))
    pd.testing.assert_frame_equal(make(), make())  # the default seed is fixed too


LOADERS = [krippendorff_2011, meyer_relatedness, datasaur_spans, *GENERATORS]


@pytest.mark.parametrize("load", LOADERS, ids=lambda f: f.__name__)
def test_every_loader_states_its_origin(load):
    # issue: "a stated origin (synthetic with a seed, or public with its licence)"
    doc = " ".join(load.__doc__.split())
    assert "Origin: " in doc
    if load in GENERATORS:
        assert "Origin: synthetic" in doc and "seed" in doc
    else:
        assert "Origin: published" in doc and "Licence: " in doc


def test_every_exported_loader_is_checked_here():
    from iaa_widgets import datasets
    exported = {n for n in datasets.__all__ if n.islower()}
    assert exported == {f.__name__ for f in LOADERS}


@pytest.mark.parametrize("load, n_items, n_ratings", [
    (krippendorff_2011, 12, 41),   # Krippendorff 2011: 4 observers × 12 units, 7 missing
    (meyer_relatedness, 10, 30),   # Meyer's tutorial: 3 raters × 10 word pairs
    (datasaur_spans, 8, 14),       # Datasaur note, Table 1: 8 spans, 2 single labels
])
def test_published_sets_have_their_published_shape(load, n_items, n_ratings):
    ann = Annotations.from_long(load())
    assert (ann.n_items, ann.n_ratings) == (n_items, n_ratings)


def test_email_types_rank_form():
    df = email_types()
    assert list(df.columns) == ["item", "annotator", "label", "rank"]
    ann = Annotations.from_long(df, rank="rank")
    assert (ann.n_items, ann.n_annotators) == (380, 3)  # Rosenberg & Binkowski §3, §6
    assert list(ann.categories) == list(EMAIL_TYPES)
    assert ann.primary().n_ratings == 380 * 3  # every annotator labels every message
    share = np.mean(ann.rank == 2) / np.mean(ann.rank == 1)
    assert 0.1 < share < 0.6  # secondary labels are optional but common


def test_email_types_pairs_form_holds_the_same_labels():
    ranked = Annotations.from_long(email_types(seed=3), rank="rank").to_long()
    pairs = Annotations.from_long(email_types(seed=3, form="pairs")).to_long()
    key = ["item", "annotator", "rank"]
    ranked = ranked.astype({"label": str}).sort_values(key).reset_index(drop=True)
    pairs = pairs.astype({"label": str}).sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(ranked, pairs)


def test_email_kinds_are_planted_as_documented():
    df = email_types(n_messages=4000, n_annotators=2, seed=1, form="pairs", with_kind=True)
    wide = df.pivot(index="item", columns="annotator", values="label")
    kind = df.groupby("item")["kind"].first().loc[wide.index]
    a, b = wide["A"], wide["B"]
    first = lambda s: s.map(lambda v: v[0] if isinstance(v, tuple) else v)  # noqa: E731
    second = lambda s: s.map(lambda v: v[1] if isinstance(v, tuple) else None)  # noqa: E731
    same_primary = (first(a) == first(b)).groupby(kind).mean()
    # the {ab,ba} case: each annotator's primary is the other's secondary
    switched = ((first(a) == second(b)) & (second(a) == first(b))).groupby(kind).mean()
    assert same_primary["clear"] > 0.75 and same_primary["general_specific"] > 0.75
    assert same_primary["ambiguous"] < 0.5
    assert switched["concurrent"] > 0.25 and switched["clear"] < 0.01


def test_crowd_labels_are_sparse_with_distinct_annotators_per_item():
    df = crowd_labels()
    ann = Annotations.from_long(df)  # would raise on an annotator labelling an item twice
    per_item = df.groupby("item").size()
    assert ann.n_items == 1500 and ann.n_annotators == 25
    assert per_item.min() == 1 and per_item.max() == 6
    assert list(ann.categories) == list(CROWD_CLASSES)
    complete = crowd_labels(n_items=50, n_annotators=5, annotations_per_item=5, seed=1)
    assert len(complete) == 250 and complete.groupby("item").size().eq(5).all()


def test_argument_units_form_a_continuum_table():
    df = argument_units(n_annotators=4, n_units=30)
    assert list(df.columns) == ["annotator", "category", "start", "end"]
    assert df["annotator"].nunique() == 4
    assert (df["end"] > df["start"]).all() and (df["start"] >= 0).all()
    assert set(df["category"]) <= set(ARGUMENT_CATEGORIES)
    # about n_units kept per annotator (10 % missed) plus Poisson(1) spurious units
    assert 20 <= df.groupby("annotator").size().mean() <= 35


def test_review_spans_have_labelers_and_a_reviewer_who_labels_everything():
    df = review_spans()
    ann = Annotations.from_long(df)
    assert list(ann.annotators) == ["Labeler A", "Labeler B", "Labeler C", "Reviewer"]
    assert ann.n_items == 120 > 8  # bigger than Datasaur's example
    assert list(ann.categories) == list(SPAN_LABELS)
    assert df.groupby("annotator").size()["Reviewer"] == 120
    assert df.groupby("annotator").size().drop("Reviewer").lt(120).all()


@pytest.mark.parametrize("call, message", [
    (lambda: email_types(n_annotators=1), "email_types: n_annotators must be an integer in [2, 26]"),
    (lambda: email_types(form="wide"), "form must be one of ['rank', 'pairs']"),
    (lambda: crowd_labels(n_annotators=4, annotations_per_item=(1, 6)),
     "annotations_per_item (high) must be an integer in [1, 4]"),
    (lambda: crowd_labels(class_probs=(.5, .5)), "class_probs has 2 entries for 4 categories"),
    (lambda: argument_units(miss=1.5), "argument_units: miss must be a finite number in [0, 1]"),
    (lambda: review_spans(accuracy=(.9,)), "give one accuracy in [0, 1] per labeler"),
    (lambda: review_spans(reviewer="Labeler A"), "must have distinct names"),
])
def test_bad_arguments_are_named(call, message):
    with pytest.raises(AgreementError) as err:
        call()
    assert message in str(err.value)


def test_a_table_built_from_rows_loads():
    # its columns are strided views of one 2-D block (they once raised BufferError)
    rows = np.array([[1, "a", "x"], [1, "b", "y"], [2, "a", "x"], [2, "b", "x"]], dtype=object)
    ann = Annotations.from_long(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    assert (ann.n_items, ann.n_annotators, ann.n_ratings) == (2, 2, 4)
