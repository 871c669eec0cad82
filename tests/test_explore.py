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
from iaa_widgets.inference import leave_one_out as without_each

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


def others_mode(df, name) -> pd.Series:
    """item → the majority label of the annotators other than ``name`` (NaN on a tie):
    the consensus ``name`` is compared with (issue 39: one definition everywhere)."""
    return df[df["annotator"] != name].groupby("item")["label"].agg(pandas_mode)


def expected_items(df, annotators=(), labels=()) -> list:
    """The items of ``iaa.disagreements(df, annotators, labels)`` by the rules of its
    docstring, in pandas (sorted): the reference of the API, widget and browser tests."""
    wide = df.pivot(index="item", columns="annotator", values="label")
    keep = df.groupby("item")["label"].nunique() > 1
    has = df.groupby("item")["label"].agg(set)
    if len(annotators) == 2:
        a, b = wide[annotators[0]], wide[annotators[1]]
        keep &= a.notna() & b.notna() & (a != b)
        if len(labels) == 2:
            keep &= ((a == labels[0]) & (b == labels[1])) | ((a == labels[1]) & (b == labels[0]))
        elif len(labels) == 1:
            keep &= (a == labels[0]) | (b == labels[0])
    elif len(annotators) == 1:  # against the majority of the others
        a = wide[annotators[0]]
        cons = others_mode(df, annotators[0]).reindex(wide.index)
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
    # issue 39: one annotator is compared with the majority of the others, in the list as
    # in their profile; the consensus column shows that consensus
    wide, *_ = pandas_disagreements(df)
    mine = wide["eve"]
    consensus = others_mode(df, "eve").reindex(wide.index)
    off = mine.notna() & consensus.notna() & (mine != consensus)
    out = iaa.disagreements(df, annotators="eve")
    assert sorted(out["item"]) == sorted(off[off].index)
    np.testing.assert_array_equal(out["consensus"].astype(object),
                                  consensus[out["item"]].astype(object))
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


@pytest.mark.parametrize("measure, kwargs", [
    ("fleiss_kappa", {"missing": "available"}), ("fleiss_kappa", {"missing": "listwise"}),
    ("fleiss_kappa", {"missing": "pairable"}), ("krippendorff_alpha", {}),
    ("krippendorff_alpha", {"missing": "listwise"}), ("gwet_ac1", {}),
    ("gwet_ac1", {"missing": "pairable"}), ("bennett_s", {"missing": "available"}),
    ("percent_agreement", {"missing": "listwise"}),
    ("davies_fleiss_kappa", {"missing": "available"})])  # the last reads who rated what
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


@pytest.mark.parametrize("missing", ["listwise", "available", "pairable"])
@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_conger_without_each_in_one_pass(df, missing, weights, monkeypatch):
    """Conger's κ reads who gave each label, so its values without each annotator come
    from its own one-pass formula (classic._davies_without_each: each version's items by
    its own policy over J − 1 annotators, its n_rc as the whole's minus one sparse
    product), never from the ratings without them (made to fail here); each value equals
    davies_fleiss_kappa on the rows without the annotator (Conger 1980; the measure is
    checked against irrCAC in test_gwet.py), with missing ratings in every policy."""
    def copies(ann):
        raise AssertionError("the ratings were copied")
        yield
    monkeypatch.setattr(without_each, "_without_each", copies)
    data = df.assign(label=pd.Categorical(df["label"], ["neg", "mixed", "neu", "pos"],
                                          ordered=True))  # an order for the weights
    out = iaa.leave_one_out(data, "davies_fleiss_kappa", n_resamples=None, missing=missing,
                            weights=weights)
    for name in out.index:
        alone = iaa.davies_fleiss_kappa(data[data["annotator"] != name], missing=missing,
                                        weights=weights).value
        assert out.loc[name, "value"] == pytest.approx(alone, abs=1e-12)


@pytest.mark.parametrize("measure", ["fleiss_kappa", "krippendorff_alpha", "gwet_ac1",
                                     "bennett_s", "percent_agreement"])
def test_leave_one_out_of_counts_never_copies_the_ratings(df, measure, monkeypatch):
    """A measure that takes per-item counts gets each version's tables from the counts
    minus the annotator's label (inference.leave_one_out._versions_of_counts), not from the ratings
    without them (its _without_each, here made to fail); values as recomputed."""
    def copies(ann):
        raise AssertionError("the ratings were copied")
        yield
    monkeypatch.setattr(without_each, "_without_each", copies)
    out = iaa.leave_one_out(df, measure, n_resamples=None)
    fn = getattr(iaa, measure)
    for name in out.index:
        alone = fn(df[df["annotator"] != name]).value
        assert out.loc[name, "value"] == pytest.approx(alone, abs=1e-12)


def test_leave_one_out_of_many_labels_and_a_lone_rater():
    """14 labels (the counts too wide for one integer key: every row its own) and an
    item only one annotator rated (it leaves the data without them): values as the
    measure recomputed on the rows without each annotator."""
    rng = np.random.default_rng(5)
    labels = [f"L{c:02d}" for c in range(14)]
    rows = [(f"i{i}", f"a{j}", labels[(i + (rng.random() < 0.3) * j) % 14])
            for i in range(80) for j in range(6) if rng.random() < 0.8]
    rows.append(("lone", "a2", "L03"))
    data = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    for measure, kwargs in (("fleiss_kappa", {"missing": "available"}),
                            ("krippendorff_alpha", {})):
        out = iaa.leave_one_out(data, measure, n_resamples=None, **kwargs)
        for name in out.index:
            alone = getattr(iaa, measure)(data[data["annotator"] != name], **kwargs).value
            assert out.loc[name, "value"] == pytest.approx(alone, abs=1e-12)


def test_leave_one_out_of_a_function_without_statistic(df):
    def mean_pair_agreement(data):  # no .statistic: recomputed per resample
        return iaa.pairwise(data, "percent_agreement").stack().mean()
    out = iaa.leave_one_out(df, mean_pair_agreement, n_resamples=20, seed=1)
    for name in out.index:
        alone = mean_pair_agreement(df[df["annotator"] != name])
        assert out.loc[name, "value"] == pytest.approx(alone, abs=1e-12)
    assert (out["ci_low"] <= out["delta"]).all() and (out["delta"] <= out["ci_high"]).all()


def test_annotator_profile_against_pandas_and_sklearn(df):
    # reference="ann" is the yardstick, not a rater (issue 39): no row of its own, and the
    # consensus each rater is compared with is the majority of the other raters
    out = iaa.annotator_profile(df, reference="ann")
    assert "ann" not in out.index and out.attrs["reference"] == "ann"
    raters = df[df["annotator"] != "ann"]
    wide = df.pivot(index="item", columns="annotator", values="label")
    for name in wide.columns.drop("ann"):
        others = others_mode(raters, name)
        both = pd.DataFrame({"mine": wide[name], "cons": others}).dropna()
        assert out.loc[name, "n_consensus"] == len(both)
        assert out.loc[name, "consensus_agreement"] == pytest.approx(
            (both["mine"] == both["cons"]).mean(), abs=1e-12)
        assert out.loc[name, "consensus_kappa"] == pytest.approx(
            cohen_kappa_score(both["mine"], both["cons"]), abs=1e-12)
        assert out.loc[name, "n_ratings"] == wide[name].notna().sum()
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


def test_label_confusion_items_reconcile_with_the_label_lists(df):
    # a cell of the pooled confusion counts pairs of ratings; attrs["n_items"] counts the
    # items given both labels (pandas: sets of labels per item), the length of the list a
    # click on the cell gives (issue 39: a cell showed 17, its list 15)
    out = iaa.label_confusion(df)
    has = df.groupby("item")["label"].agg(set)
    items = pd.DataFrame(out.attrs["n_items"], index=out.index, columns=out.columns)
    for x in out.index:
        for y in out.columns:
            assert items.loc[x, y] == has.map(lambda s: {x, y} <= s).sum()
            if x != y:
                assert len(iaa.disagreements(df, labels=(x, y))) == items.loc[x, y]


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


@pytest.mark.parametrize("how", ["result", "name"])
@pytest.mark.parametrize("model", ["dawid_skene", "mace"])
def test_consensus_from_a_model_is_its_labels(df, model, how):
    """consensus= an annotator model (its fitted result, or its name: fitted here with
    the package's defaults, MACE with seed=0): the consensus column is the model's
    ``labels``, and each annotator's agreement, κ and confusion are against them
    (pandas and scikit-learn on the rows joined to the labels)."""
    fitted = iaa.dawid_skene(df) if model == "dawid_skene" else iaa.mace(df, seed=0)
    consensus = fitted if how == "result" else model
    labels = fitted.labels.astype(object)
    out = iaa.disagreements(df, consensus=consensus)
    np.testing.assert_array_equal(out["consensus"].astype(object).to_numpy(),
                                  labels.reindex(out["item"]).to_numpy())
    p = explore.Project(df, consensus)
    np.testing.assert_array_equal(p.consensus, fitted.labels.cat.codes.to_numpy())
    rows = df.assign(consensus=df["item"].map(labels)).dropna(subset=["consensus"])
    prof = iaa.annotator_profile(df, consensus=consensus)
    for name, mine in rows.groupby("annotator"):
        assert prof.loc[name, "n_consensus"] == len(mine)
        assert prof.loc[name, "consensus_agreement"] == pytest.approx(
            (mine["label"] == mine["consensus"]).mean(), abs=1e-12)
        assert prof.loc[name, "consensus_kappa"] == pytest.approx(
            cohen_kappa_score(mine["label"], mine["consensus"]), abs=1e-12)
        expected = pd.crosstab(mine["label"], mine["consensus"])
        got = iaa.consensus_confusion(df, name, consensus=consensus)
        got = got.loc[(got.sum(axis=1) > 0), (got.sum(axis=0) > 0)]
        pd.testing.assert_frame_equal(got, expected, check_names=False, check_dtype=False)
    # one annotator against the model: the items whose ratings differ where theirs is off
    wide = df.pivot(index="item", columns="annotator", values="label")
    # (every item where eve's label is not the model's, even where all ratings agree:
    # the count of her profile and confusion off the diagonal, issue 39)
    off = wide["eve"].notna() & (wide["eve"] != labels.reindex(wide.index)) & \
        labels.reindex(wide.index).notna()
    assert sorted(iaa.disagreements(df, "eve", consensus=consensus)["item"]) == \
        sorted(off[off].index)


def test_majority_consensus_is_the_models_majority_vote(df):
    # the explorer's vote over the counts, against models.majority_vote with ties="none"
    votes = iaa.majority_vote(df, ties="none").labels
    np.testing.assert_array_equal(explore.Project(df).consensus, votes.cat.codes.to_numpy())


def test_consensus_refusals(df):
    with pytest.raises(iaa.AgreementError, match="dawid_skene"):
        iaa.disagreements(df, consensus="majority_vote")
    with pytest.raises(iaa.AgreementError, match="do not have"):
        iaa.disagreements(df, consensus=pd.Series({"doc000": "nope"}))
    # issue 44: an item given twice was a raw pandas error (reindex on a duplicate axis)
    twice = pd.Series(["neg", "pos", "neu"], index=["doc000", "doc001", "doc000"])
    with pytest.raises(iaa.AgreementError, match=r"'doc000'\] more than once; pass a "
                                                 r"Series with one label per item"):
        iaa.disagreements(df, consensus=twice)


def _reconciles(data, consensus="majority", reference=None):
    """Issue 39: every count the explorer shows equals the length of the list its click
    gives: per annotator, the items off their consensus (annotator_profile: n_consensus
    × (1 − consensus_agreement)) = len(disagreements(annotators=a)); per off-diagonal
    cell (x, y) of consensus_confusion(a), its count = len(disagreements(a, (x, y))).
    Returns the number of non-empty lists checked. One Project (the explorer's view)
    answers every call, as in the widget; the first annotator's list is also asked of
    the data themselves."""
    kw = {"consensus": consensus, "reference": reference}
    first = iaa.disagreements(data, annotators=iaa.annotator_profile(data, **kw).index[0], **kw)
    data = explore.Project(data, consensus, reference)
    kw = {}
    profile = iaa.annotator_profile(data)
    assert sorted(first["item"]) == sorted(
        iaa.disagreements(data, annotators=profile.index[0])["item"])
    checked = 0
    for name in profile.index:
        n = profile.loc[name, "n_consensus"]
        off = round(n * (1 - profile.loc[name, "consensus_agreement"])) if n else 0
        assert len(iaa.disagreements(data, annotators=name, **kw)) == off, name
        cells = iaa.consensus_confusion(data, name, **kw)
        assert cells.to_numpy().sum() - np.trace(cells.to_numpy()) == off
        for x in cells.index:
            for y in cells.columns:
                if x != y:
                    got = iaa.disagreements(data, annotators=name, labels=(x, y), **kw)
                    assert len(got) == cells.loc[x, y], (name, x, y)
                    checked += bool(len(got))
    return checked


def test_counts_reconcile_with_lists_on_notebook_08_data():
    """Notebook 08's data (iaa.datasets.product_reviews): the annotator rows and the
    confusion cells against the majority of the others, and against a model, equal the
    lengths of the lists their clicks give (both reconciled through the pandas
    reference above: test_annotator_profile_against_pandas_and_sklearn,
    test_every_filter_against_the_pandas_reference)."""
    ratings = iaa.datasets.product_reviews().drop(columns="text")
    assert _reconciles(ratings) > 10
    assert _reconciles(ratings, consensus="dawid_skene") > 10
    # the numbers of issue 39's report come from the majority of the others: dev's list
    dev = iaa.disagreements(ratings, annotators="dev")
    expected = expected_items(ratings, ("dev",))
    assert sorted(dev["item"]) == expected


def test_two_annotators_compare_with_each_other():
    """Issue 39: with two annotators a two-way tie has no majority, so the consensus of
    both is blank where they differ, and a click listed 0 items. The majority of the
    other annotator is that annotator: a's list is the items where a and b differ, its
    consensus column b's labels, and every count reconciles."""
    rng = np.random.default_rng(8)
    truth = rng.integers(0, 3, 50)
    rows = [(i, name, LABELS[(truth[i] + (rng.random() < 0.3)) % 3])
            for i in range(50) for name in ("ana", "ben")]
    two = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    wide = two.pivot(index="item", columns="annotator", values="label")
    differ = wide.index[wide["ana"] != wide["ben"]]
    assert len(differ) > 5
    for name, other in (("ana", "ben"), ("ben", "ana")):
        got = iaa.disagreements(two, annotators=name)
        assert sorted(got["item"]) == sorted(differ)
        np.testing.assert_array_equal(got["consensus"].astype(object),
                                      wide.loc[got["item"], other].to_numpy())
    assert iaa.disagreements(two)["consensus"].isna().all()  # no majority of two
    prof = iaa.annotator_profile(two)
    assert (prof["n_consensus"] == 50).all()
    assert prof.loc["ana", "consensus_kappa"] == pytest.approx(
        cohen_kappa_score(wide["ana"], wide["ben"]), abs=1e-12)  # scikit-learn
    assert _reconciles(two) > 2


def test_reference_is_the_yardstick_not_a_rater(df):
    """Issue 39: reference="gold" is left out of the raters: of the consensus (pandas'
    majority over the raters), the profile's rows and their consensus, the Project's
    data (so the κ matrix, headline and leave-one-out read the raters only) and
    label_usage; its labels show in a column of its own; accuracy against it as
    scikit-learn's; every count reconciles with its list."""
    gold = df[df["annotator"] == "ann"].assign(annotator="gold")
    data = pd.concat([df[df["annotator"] != "ann"], gold], ignore_index=True)
    raters = data[data["annotator"] != "gold"]
    p = explore.Project(data, reference="gold")
    assert "gold" not in list(p.ann.annotators) and p.reference == "gold"
    np.testing.assert_array_equal(p.ann.to_long()["label"].astype(object),
                                  iaa.as_annotations(raters).to_long()["label"].astype(object))
    out = iaa.disagreements(data, reference="gold")
    assert sorted(out["item"]) == sorted(pandas_disagreements(raters)[3])
    consensus = raters.groupby("item")["label"].agg(pandas_mode)
    pd.testing.assert_series_equal(out["consensus"].astype(object),
                                   consensus[out["item"]].astype(object),
                                   check_names=False, check_index=False)
    pd.testing.assert_series_equal(out["gold"].astype(object),
                                   gold.set_index("item")["label"].reindex(out["item"])
                                   .astype(object), check_names=False, check_index=False)
    assert list(out.columns)[-2:] == ["gold", "consensus"]
    prof = iaa.annotator_profile(data, reference="gold")
    assert sorted(prof.index) == ["bob", "cy", "dee", "eve"]
    g = gold.set_index("item")["label"]
    for name in prof.index:
        mine = raters[raters["annotator"] == name].set_index("item")["label"]
        both = pd.DataFrame({"mine": mine, "gold": g}).dropna()
        assert prof.loc[name, "accuracy"] == pytest.approx(
            accuracy_score(both["gold"], both["mine"]), abs=1e-12)
        assert prof.loc[name, "n_consensus"] == len(pd.DataFrame(
            {"mine": mine, "cons": others_mode(raters, name)}).dropna())
    assert list(iaa.label_usage(data, reference="gold").index) == list(p.ann.annotators)
    assert _reconciles(data, reference="gold") > 5
    # the same Project answers every function
    pd.testing.assert_frame_equal(iaa.annotator_profile(p, "gold"), prof)
    with pytest.raises(iaa.AgreementError, match="reference"):
        iaa.annotator_profile(p, reference="eve")


def test_messages_name_the_function_and_parameter(df):
    # issue 44: annotator_profile(reference="zed") named disagreements
    with pytest.raises(iaa.AgreementError, match=r"^annotator_profile: unknown "
                                                 r"annotator\(s\) \['zed'\] in reference="):
        iaa.annotator_profile(df, reference="zed")
    with pytest.raises(iaa.AgreementError, match=r"^consensus_confusion: unknown "
                                                 r"annotator\(s\) \['zed'\] in annotator="):
        iaa.consensus_confusion(df, "zed")
    with pytest.raises(iaa.AgreementError, match=r"^disagreements: unknown annotator"):
        iaa.disagreements(df, reference="zed")


def test_label_usage_refuses_per_item_counts():
    # issue 44: from_counts data have no annotators; label_usage invented "rater 1" …
    counts = iaa.Annotations.from_counts(pd.DataFrame({"x": [2, 1], "y": [0, 1]}))
    for fn in (iaa.label_usage, iaa.annotator_profile, iaa.consensus_confusion,
               iaa.label_confusion):
        with pytest.raises(iaa.AgreementError, match=rf"^{fn.__name__} needs to know which "
                                                     r"annotator.*from_counts"):
            fn(counts)


@pytest.mark.parametrize("fn, misspelt", [
    (iaa.disagreements, "consensu"), (iaa.disagreements, "annotator"),
    (iaa.annotator_profile, "referece"), (iaa.consensus_confusion, "consenus"),
    (iaa.label_usage, "reference_"), (iaa.label_confusion, "labels"),
    (iaa.span_disagreements, "annotator")])
def test_misspelt_keywords_are_refused(df, fn, misspelt):
    # issue 44: a misspelt keyword is refused, naming it, never taken for its default
    with pytest.raises(iaa.AgreementError, match=rf"^{fn.__name__}\b.* {misspelt}="):
        fn(df, **{misspelt: "eve"})


def test_project_statistics_equal_the_engines(df):
    """Project.statistics (pair tables from one product of one-hot ratings) against
    sufficient_statistics, which computes them with the frame's engine (narwhals
    self-join): every table, and pairwise on them equal to pairwise on the ratings."""
    from iaa_widgets.measures.categorical.pairwise import KERNELS
    mine = explore.Project(df).statistics()
    engine = iaa.sufficient_statistics(df)
    order = mine.annotators.get_indexer(engine.annotators)  # the engine sorts the names
    for name in ("sizes", "totals", "products"):
        np.testing.assert_array_equal(getattr(mine, name), getattr(engine, name))
    np.testing.assert_array_equal(mine.annotator_counts[:, order], engine.annotator_counts)
    for a in engine.annotators:
        for b in engine.annotators:
            if a != b:
                for complete in (False, True):
                    np.testing.assert_array_equal(mine.pair_table([a, b], "t", complete),
                                                  engine.pair_table([a, b], "t", complete))
    for measure in KERNELS:
        got, expected = iaa.pairwise(mine, measure), iaa.pairwise(df, measure)
        np.testing.assert_allclose(got.to_numpy(), expected.to_numpy(), atol=1e-12)
        assert got.attrs["n_items"] == expected.attrs["n_items"]


def test_leave_one_out_of_a_sparse_crowd_keeps_its_tables_sparse(monkeypatch):
    """A crowd (30 annotators, 3–4 of them on each item): with every table past the
    dense size (stats.statistic.DENSE_CELLS patched to 0) the versions' deltas are kept
    as CSR; values as recomputed on the rows without each annotator, intervals equal to
    those of the dense tables on the same draws."""
    rng = np.random.default_rng(11)
    rows = [(f"i{i}", f"w{j:02d}", LABELS[(i + (rng.random() < 0.25)) % 4])
            for i in range(60) for j in rng.choice(30, rng.integers(3, 5), replace=False)]
    data = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    kwargs = {"missing": "available", "n_resamples": 30, "seed": 2}
    dense = iaa.leave_one_out(data, "fleiss_kappa", **kwargs)
    from iaa_widgets.stats import statistic
    monkeypatch.setattr(statistic, "DENSE_CELLS", 0)
    made = without_each._versions_of_counts(iaa.fleiss_kappa.statistic,
                                            iaa.as_annotations(data), {"missing": "available"})
    assert made.tables["delta"].format == "csr"  # the sparse path is the one tested here
    sparse = iaa.leave_one_out(data, "fleiss_kappa", **kwargs)
    pd.testing.assert_frame_equal(sparse, dense, atol=1e-12, rtol=0)
    for name in dense.index[:5]:
        alone = iaa.fleiss_kappa(data[data["annotator"] != name], missing="available").value
        assert dense.loc[name, "value"] == pytest.approx(alone, abs=1e-12)
