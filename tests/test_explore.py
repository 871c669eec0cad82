"""The explorer's API (iaa_widgets/explore.py) against pandas computations written here.

Every expected value is computed in this file from the tidy rows with plain pandas
(pivot, groupby, value counts, self-merges) or checked against scikit-learn, never by
the package's own helpers; the package's measures only appear where the point is that
the Statistic path equals the measure recomputed on the data without an annotator.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, cohen_kappa_score, f1_score

import iaa_widgets as iaa
from iaa_widgets import explore

LABELS = ["neg", "neu", "pos", "mixed"]


def project(seed=3, n_items=60, annotators=("ann", "bob", "cy", "dee", "eve")):
    """Seeded ratings: a true label per item, each annotator right with their own
    accuracy (eve mostly guesses), about 15 % of the ratings missing; rows shuffled."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, len(LABELS), n_items)
    rows = []
    for j, name in enumerate(annotators):
        right = rng.random(n_items) < (0.35 if name == "eve" else 0.85 - 0.05 * j)
        label = np.where(right, truth, rng.integers(0, len(LABELS), n_items))
        rated = rng.random(n_items) > 0.15
        rows += [(f"doc{i:03d}", name, LABELS[label[i]]) for i in np.flatnonzero(rated)]
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    return df.sample(frac=1, random_state=seed).reset_index(drop=True)


def pandas_mode(labels: pd.Series):
    """The most frequent label, NaN on a tie (majority vote, ties='none')."""
    counts = labels.value_counts()
    return counts.index[0] if len(counts) == 1 or counts.iloc[0] > counts.iloc[1] else np.nan


def pandas_disagreements(df):
    wide = df.pivot(index="item", columns="annotator", values="label")
    sizes = df.groupby(["item", "label"]).size()
    m = df.groupby("item").size()
    agree = (sizes * (sizes - 1)).groupby(level="item").sum() / (m * (m - 1))  # Fleiss P_i
    consensus = df.groupby("item")["label"].agg(pandas_mode)
    differ = df.groupby("item")["label"].nunique() > 1
    return wide, agree, consensus, differ[differ].index


def expected_items(df, annotators=(), labels=()) -> list:
    """The items of ``iaa.disagreements(df, annotators, labels)`` by the rules of its
    docstring, in pandas (sorted): the reference of the API, widget and browser tests."""
    wide = df.pivot(index="item", columns="annotator", values="label")
    cons = df.groupby("item")["label"].agg(pandas_mode)
    keep = df.groupby("item")["label"].nunique() > 1
    has = df.groupby("item")["label"].agg(set)
    if len(annotators) == 2:
        a, b = wide[annotators[0]], wide[annotators[1]]
        keep &= a.notna() & b.notna() & (a != b)
        if len(labels) == 2:
            keep &= ((a == labels[0]) & (b == labels[1])) | ((a == labels[1]) & (b == labels[0]))
        elif len(labels) == 1:
            keep &= (a == labels[0]) | (b == labels[0])
    elif len(annotators) == 1:
        a = wide[annotators[0]]
        keep &= a.notna() & cons.notna() & (a != cons)
        if len(labels) == 2:
            keep &= (a == labels[0]) & (cons == labels[1])
        elif len(labels) == 1:
            keep &= (a == labels[0]) | (cons == labels[0])
    else:
        keep &= has.map(lambda s: set(labels) <= s)
    return sorted(keep[keep.fillna(False).astype(bool)].index)


@pytest.fixture(scope="module")
def df():
    return project()


def test_disagreements_all(df):
    wide, agree, consensus, differ = pandas_disagreements(df)
    out = iaa.disagreements(df)
    assert sorted(out["item"]) == sorted(differ)
    order = list(iaa.as_annotations(df).annotators)  # the loader's order
    assert list(out.columns) == ["item", "agreement", "n_ratings", *order, "consensus"]
    assert sorted(order) == ["ann", "bob", "cy", "dee", "eve"]
    got = out.set_index("item")
    np.testing.assert_allclose(got["agreement"], agree[got.index], rtol=0, atol=1e-12)
    assert (got["n_ratings"] == df.groupby("item").size()[got.index]).all()
    for name in wide.columns:
        pd.testing.assert_series_equal(got[name].astype(object),
                                       wide.loc[got.index, name].astype(object),
                                       check_names=False)
    pd.testing.assert_series_equal(got["consensus"].astype(object),
                                   consensus[got.index].astype(object), check_names=False)
    # lowest agreement first, ties in the data's item order
    position = iaa.as_annotations(df).items.get_indexer(got.index)
    key = list(zip(got["agreement"], position))
    assert key == sorted(key)


def test_disagreements_pair(df):
    wide, *_ = pandas_disagreements(df)
    both = wide[["bob", "eve"]].dropna()
    expected = both.index[both["bob"] != both["eve"]]
    out = iaa.disagreements(df, annotators=("bob", "eve"))
    assert sorted(out["item"]) == sorted(expected)
    confused = both.index[((both["bob"] == "pos") & (both["eve"] == "neg")) |
                          ((both["bob"] == "neg") & (both["eve"] == "pos"))]
    out = iaa.disagreements(df, annotators=("eve", "bob"), labels=("neg", "pos"))
    assert sorted(out["item"]) == sorted(confused) and len(confused)


def test_disagreements_annotator_against_consensus(df):
    wide, _, consensus, _ = pandas_disagreements(df)
    mine = wide["eve"]
    off = mine.notna() & consensus.notna() & (mine != consensus)
    assert sorted(iaa.disagreements(df, annotators="eve")["item"]) == sorted(off[off].index)
    cell = off & (mine == "neu") & (consensus == "pos")
    out = iaa.disagreements(df, annotators="eve", labels=("neu", "pos"))
    assert sorted(out["item"]) == sorted(cell[cell].index)


def test_disagreements_labels(df):
    _, _, _, differ = pandas_disagreements(df)
    has = df.groupby("item")["label"].agg(set)
    both = has[has.map(lambda s: {"neg", "mixed"} <= s)].index
    assert sorted(iaa.disagreements(df, labels=("mixed", "neg"))["item"]) == sorted(both)
    one = has[has.map(lambda s: "neu" in s)].index.intersection(differ)
    assert sorted(iaa.disagreements(df, labels="neu")["item"]) == sorted(one)


def test_labels_keep_identity():
    # 1 and "1" are different labels: asking for "1" names the labels the data have
    df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2,
                       "label": [1, 2, 1, 1]})
    assert list(iaa.disagreements(df, labels=1)["item"]) == [1]
    with pytest.raises(iaa.AgreementError, match="unknown label"):
        iaa.disagreements(df, labels="1")
    with pytest.raises(iaa.AgreementError, match="unknown annotator"):
        iaa.disagreements(df, annotators=("a", "zed"))


def test_refusals():
    counts = iaa.Annotations.from_counts(pd.DataFrame({"x": [2, 1], "y": [0, 1]}))
    with pytest.raises(iaa.AgreementError, match="from_counts"):
        iaa.disagreements(counts)
    two = pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": [1, 2]})
    with pytest.raises(iaa.AgreementError, match="at least 3"):
        iaa.leave_one_out(two, "fleiss_kappa")
    clash = pd.DataFrame({"item": [1, 1], "annotator": ["item", "b"], "label": [1, 2]})
    with pytest.raises(iaa.AgreementError, match="rename"):
        iaa.disagreements(clash)


def _rebuilt(df, drawn_codes, items):
    """The rows of the drawn items, each draw a new item (the bootstrap's rule)."""
    parts = []
    for new, code in enumerate(drawn_codes):
        rows = df[df["item"] == items[code]].copy()
        rows["item"] = new
        parts.append(rows)
    return pd.concat(parts)


@pytest.mark.parametrize("measure, kwargs", [("fleiss_kappa", {"missing": "available"}),
                                             ("krippendorff_alpha", {})])
def test_leave_one_out_against_recomputing(df, measure, kwargs):
    out = iaa.leave_one_out(df, measure, confidence=0.9, n_resamples=40, seed=7, **kwargs)
    fn = getattr(iaa, measure)
    full = fn(df, **kwargs).value
    assert out.attrs["value"] == pytest.approx(full, abs=1e-12)
    for name in out.index:  # the measure on the rows without them
        alone = fn(df[df["annotator"] != name], **kwargs).value
        assert out.loc[name, "value"] == pytest.approx(alone, abs=1e-12)
        assert out.loc[name, "delta"] == pytest.approx(alone - full, abs=1e-12)
    # the paired bootstrap by hand: the same draws of items (one rng.integers(0, n, n)
    # per resample, the package's documented stream), every version recomputed on each
    items = list(iaa.as_annotations(df).items)  # the item codes the draws index
    rng = np.random.default_rng(7)
    deltas = []
    for _ in range(40):
        data = _rebuilt(df, rng.integers(0, len(items), len(items)), items)
        f = fn(data, **kwargs).value
        deltas.append([fn(data[data["annotator"] != a], **kwargs).value - f
                       for a in out.index])
    deltas = np.array(deltas)
    np.testing.assert_allclose(out["ci_low"], np.quantile(deltas, 0.05, axis=0), atol=1e-10)
    np.testing.assert_allclose(out["ci_high"], np.quantile(deltas, 0.95, axis=0), atol=1e-10)
    np.testing.assert_allclose(out["se"], deltas.std(axis=0, ddof=1), atol=1e-10)


def test_leave_one_out_of_a_function_without_statistic(df):
    def mean_pair_agreement(data):  # no .statistic: recomputed per resample
        return iaa.pairwise(data, "percent_agreement").stack().mean()
    out = iaa.leave_one_out(df, mean_pair_agreement, n_resamples=20, seed=1)
    for name in out.index:
        alone = mean_pair_agreement(df[df["annotator"] != name])
        assert out.loc[name, "value"] == pytest.approx(alone, abs=1e-12)
    assert (out["ci_low"] <= out["delta"]).all() and (out["delta"] <= out["ci_high"]).all()


def test_annotator_profile_against_pandas_and_sklearn(df):
    out = iaa.annotator_profile(df, reference="ann")
    wide = df.pivot(index="item", columns="annotator", values="label")
    for name in wide.columns:
        others = df[df["annotator"] != name].groupby("item")["label"].agg(pandas_mode)
        both = pd.DataFrame({"mine": wide[name], "cons": others}).dropna()
        assert out.loc[name, "n_consensus"] == len(both)
        assert out.loc[name, "consensus_agreement"] == pytest.approx(
            (both["mine"] == both["cons"]).mean(), abs=1e-12)
        assert out.loc[name, "consensus_kappa"] == pytest.approx(
            cohen_kappa_score(both["mine"], both["cons"]), abs=1e-12)
        assert out.loc[name, "n_ratings"] == wide[name].notna().sum()
        if name == "ann":
            assert np.isnan(out.loc[name, "accuracy"]) and out.loc[name, "n_reference"] == 0
            continue
        gold = wide[[name, "ann"]].dropna()
        assert out.loc[name, "n_reference"] == len(gold)
        assert out.loc[name, "accuracy"] == pytest.approx(
            accuracy_score(gold["ann"], gold[name]), abs=1e-12)
        assert out.loc[name, "kappa"] == pytest.approx(
            cohen_kappa_score(gold[name], gold["ann"]), abs=1e-12)
        assert out.loc[name, "f1"] == pytest.approx(
            f1_score(gold["ann"], gold[name], average="macro"), abs=1e-12)


def test_consensus_confusion(df):
    cells = iaa.consensus_confusion(df)
    for name in ("eve", "bob"):
        others = df[df["annotator"] != name].groupby("item")["label"].agg(pandas_mode)
        mine = df[df["annotator"] == name].set_index("item")["label"]
        both = pd.DataFrame({"label": mine, "consensus": others}).dropna()
        expected = pd.crosstab(both["label"], both["consensus"])
        got = iaa.consensus_confusion(df, name)
        assert list(got.index) == list(iaa.as_annotations(df).categories)
        pd.testing.assert_frame_equal(
            got.loc[expected.index, expected.columns], expected, check_names=False,
            check_dtype=False)
        assert got.to_numpy().sum() == len(both)
        long = cells[cells["annotator"] == name]
        assert long["count"].sum() == len(both)


def test_label_usage(df):
    out = iaa.label_usage(df)
    expected = pd.crosstab(df["annotator"], df["label"], normalize="index")
    pd.testing.assert_frame_equal(out.loc[expected.index, expected.columns], expected,
                                  check_names=False)
    pooled = df["label"].value_counts(normalize=True)
    np.testing.assert_allclose(out.attrs["pooled"], pooled[out.columns], atol=1e-12)


def test_label_confusion(df):
    pairs = df.merge(df, on="item")
    pairs = pairs[pairs["annotator_x"] != pairs["annotator_y"]]  # ordered pairs of ratings
    expected = pd.crosstab(pairs["label_x"], pairs["label_y"])
    out = iaa.label_confusion(df)
    pd.testing.assert_frame_equal(out.loc[expected.index, expected.columns], expected,
                                  check_names=False, check_dtype=False)
    # each label's specific agreement is specific_agreement's (Uebersax 1982) on the
    # items rated at least twice
    for j, label in enumerate(out.index):
        spec = iaa.specific_agreement(df, positive=label, missing="pairable").value
        assert out.attrs["agreement"][j] == pytest.approx(spec, abs=1e-12)


def test_similarity_order_keeps_blocks_together():
    names = ["a", "x", "b", "y", "c"]
    close = {("a", "b"), ("a", "c"), ("b", "c"), ("x", "y")}
    v = pd.DataFrame([[np.nan if p == q else (0.9 if (p, q) in close or (q, p) in close
                                               else 0.1) for q in names] for p in names],
                     index=names, columns=names)
    order = explore.similarity_order(v)
    assert sorted(order) == sorted(names)
    spots = {n: order.index(n) for n in names}
    assert abs(spots["x"] - spots["y"]) == 1
    assert max(spots[n] for n in "abc") - min(spots[n] for n in "abc") == 2


def test_product_reviews_tells_its_story():
    # the data set of notebook 08: same seed, same table; dev (accuracy 0.55 by
    # construction) drags agreement down, neutral and mixed are the pair most confused
    df = iaa.datasets.product_reviews()
    pd.testing.assert_frame_equal(df, iaa.datasets.product_reviews())
    assert df.groupby("item")["text"].nunique().max() == 1
    ratings = df.drop(columns="text")
    loo = iaa.leave_one_out(ratings, "fleiss_kappa", n_resamples=100, seed=0,
                            missing="available")
    assert loo["delta"].idxmax() == "dev" and loo.loc["dev", "ci_low"] > 0
    conf = iaa.label_confusion(ratings)
    off = conf.where(~np.eye(len(conf), dtype=bool)).stack()
    assert set(off.idxmax()) == {"neutral", "mixed"}


@pytest.mark.parametrize("annotators, labels", [
    ((), ()), (("bob", "eve"), ()), (("bob", "eve"), ("neg", "pos")), (("bob", "eve"), ("neu",)),
    (("eve",), ()), (("eve",), ("neu", "pos")), (("eve",), ("neu",)),
    ((), ("mixed", "neg")), ((), ("neu",))])
def test_every_filter_against_the_pandas_reference(df, annotators, labels):
    got = iaa.disagreements(df, annotators=annotators or None, labels=labels or None)
    expected = expected_items(df, annotators, labels)
    assert sorted(got["item"]) == expected and len(expected)


def test_a_crowd_too_wide_for_the_items_by_annotators_table_is_refused_by_size(monkeypatch):
    """Issue 28: 1e4 annotators who each rate a few of 1e5 items would make a dense
    1e5 × 1e4 table of labels (7.5 GiB): refused with its size, never a MemoryError."""
    from iaa_widgets.stats import tables
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"item": rng.integers(0, 300, 2_000),
                       "annotator": rng.integers(0, 500, 2_000),
                       "label": rng.integers(0, 3, 2_000)}).drop_duplicates(["item", "annotator"])
    monkeypatch.setattr(tables, "MAX_CELLS", 300 * 100)  # the same check at a test's size
    shape = f"{df['item'].nunique()} × {df['annotator'].nunique()}"
    with pytest.raises(iaa.AgreementError, match=rf"items × annotators table of labels would "
                                                  rf"be a dense {shape} table"):
        iaa.disagreements(df)
