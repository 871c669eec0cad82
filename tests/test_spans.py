"""Span F1 between annotators: exact and overlap matching, per label, micro and macro."""
import random
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from iaa_widgets import AgreementError, Annotations
from iaa_widgets.continuum import Continuum
from iaa_widgets.io._common import spans as make_spans
from iaa_widgets.measures.categorical.classic import specific_agreement
from iaa_widgets.measures.sets_spans.spans import span_f1

# a and b agree on P [0,3); P [5,8) vs [6,9) overlap only; L [10,12) vs [20,22) apart;
# c has one P [0,4) that overlaps a's and b's first P.
SMALL = pd.DataFrame({"annotator": list("aaabbb") + ["c"],
                      "category": ["P", "P", "L", "P", "P", "L", "P"],
                      "start": [0, 5, 10, 0, 6, 20, 0], "end": [3, 8, 12, 3, 9, 22, 4]})


def _pair(res, a, b, label):
    t = res.params["pairs"]
    return t[(t.annotator_a == a) & (t.annotator_b == b) & (t.label == label)].iloc[0]


def test_exact_by_hand():
    # Hand count (exact fractions): pair a–b: P matched 1 of n_a = n_b = 2 ⇒ F1 = 2/4;
    # L 0 of 1 + 1 ⇒ 0; pair micro 2·1/6 = 1/3, macro (1/2 + 0)/2 = 1/4. Pairs a–c,
    # b–c: nothing identical, units 2+1 (P) and 1+0 (L). Overall micro: 2·1/(6+4+4) =
    # 1/7; per label pooled: P 2·1/10 = 1/5, L 0/4 = 0; macro (1/5 + 0)/2 = 1/10.
    res = span_f1(SMALL, "exact")
    assert res.value == pytest.approx(float(Fraction(1, 7)), abs=1e-15)
    assert res.params["macro"] == pytest.approx(0.1, abs=1e-15)
    row = _pair(res, "a", "b", "P")
    assert (row.n_a, row.n_b, row.matched) == (2, 2, 1) and row.f1 == 0.5
    summary = res.params["pair_summary"].set_index(["annotator_a", "annotator_b"])
    assert summary.loc[("a", "b"), "micro_f1"] == pytest.approx(1 / 3, abs=1e-15)
    assert summary.loc[("a", "b"), "macro_f1"] == pytest.approx(1 / 4, abs=1e-15)
    assert summary.loc[("a", "c"), "matched"] == 0 and len(summary) == 3
    np.testing.assert_allclose(res.per_category.loc[["P", "L"], "f1"], [0.2, 0.0])
    assert np.isnan(res.expected) and res.n_items == 1 and res.n_ratings == 7


def test_overlap_by_hand():
    # Overlap: a–b P matched 2 (F1 1), L 0; a–c and b–c: P [0,3) ~ [0,4): 1 match of
    # 2 + 1 ⇒ 2/3, precision (c vs a) 1/1, recall 1/2; L 0. Micro: 2·(2+1+1)/14 = 4/7.
    res = span_f1(SMALL, "overlap")
    assert res.value == pytest.approx(float(Fraction(4, 7)), abs=1e-15)
    row = _pair(res, "a", "c", "P")
    assert row.f1 == pytest.approx(2 / 3) and row.precision == 1 and row.recall == 0.5
    assert _pair(res, "a", "b", "P").f1 == 1.0


def test_overlap_is_a_maximum_matching_not_greedy():
    # a: A1 [0,10), A2 [9,11); b: B1 [1,10), B2 [0,1). Greedy by largest overlap takes
    # A1–B1 (9) and leaves A2, B2 unmatched (F1 = 2·1/4); the maximum one-to-one matching
    # is A1–B2, A2–B1: 2 matches, F1 = 2·2/4 = 1 (what span_f1 documents).
    df = pd.DataFrame({"annotator": list("aabb"), "category": "X",
                       "start": [0, 9, 1, 0], "end": [10, 11, 10, 1]})
    assert span_f1(df, "overlap").value == 1.0
    # one-to-one: b's single long unit covers both of a's, but matches only one
    df = pd.DataFrame({"annotator": list("aab"), "category": "X",
                       "start": [0, 5, 0], "end": [3, 8, 10]})
    assert span_f1(df, "overlap").value == pytest.approx(2 / 3)  # 2·1/(2 + 1)


def test_dense_overlaps_of_issue_44_are_matched_exactly():
    # issue 44: 2 annotators × 4,000 spans of length 50 in [0, 8,050), each overlapping
    # about 50 of the other's, ran for minutes in one Hopcroft–Karp call. b's units are
    # a's moved by one tick, so a perfect matching exists (F1 = 1 by construction); the
    # greedy of least ends finds it (times: benchmarks/bench_spans.py)
    start = np.random.default_rng(44).integers(0, 8000, 4000)
    df = pd.DataFrame({"annotator": np.repeat(["a", "b"], 4000), "category": "X",
                       "start": np.r_[start, start + 1], "end": np.r_[start, start + 1] + 50})
    res = span_f1(df, "overlap", progress=False)
    assert res.value == 1.0 and res.params["pairs"]["matched"].tolist() == [4000]
    # one unit of b moved beyond every other: 3,999 matched of 4,000 + 4,000
    df.loc[4000, ["start", "end"]] = [9000, 9050]
    assert span_f1(df, "overlap", progress=False).value == 2 * 3999 / 8000


def _random_units(rng, annotators="ab", labels="XY", n=12, length=30, unique=False):
    rows = set() if unique else []
    for who in annotators:
        for _ in range(rng.randrange(n)):
            s = rng.randrange(length)
            unit = (who, rng.choice(labels), s, s + rng.randrange(1, 6))
            rows.add(unit) if unique else rows.append(unit)
    return pd.DataFrame(sorted(rows), columns=["annotator", "category", "start", "end"])


@pytest.mark.parametrize("component", [256, 2])
@pytest.mark.parametrize("seed", range(20))
def test_overlap_count_matches_assignment_brute_force(seed, component, monkeypatch):
    # Independent check of the maximum matching: scipy's linear_sum_assignment on each
    # annotator pair and label's 0/1 overlap matrix (maximising the matched count).
    # component: the most units of a component Hopcroft–Karp matches (2: nearly every
    # component goes to the interval greedy); the data are denser for odd seeds.
    from scipy.optimize import linear_sum_assignment
    from iaa_widgets.measures.sets_spans import spans
    monkeypatch.setattr(spans, "MAX_COMPONENT_UNITS", component)
    rng = random.Random(seed)
    df = _random_units(rng, annotators="abc", n=40 if seed % 2 else 12)
    if df["annotator"].nunique() < 2:
        df = pd.concat([df, pd.DataFrame([("a", "X", 0, 1), ("b", "Y", 3, 4)],
                                          columns=df.columns)])
    res = span_f1(df, "overlap")
    for _, row in res.params["pairs"].iterrows():
        a = df[(df.annotator == row.annotator_a) & (df.category == row.label)]
        b = df[(df.annotator == row.annotator_b) & (df.category == row.label)]
        ov = (np.maximum(a.start.values[:, None], b.start.values[None]) <
              np.minimum(a.end.values[:, None], b.end.values[None])).astype(float)
        best = 0
        if ov.size:
            r, c = linear_sum_assignment(ov, maximize=True)
            best = ov[r, c].sum()
        assert row.matched == best


@pytest.mark.parametrize("seed", range(10))
def test_f1_is_positive_specific_agreement(seed):
    # Hripcsak & Rothschild (2005): F1 = positive specific agreement 2a/(2a + b + c).
    # Items: the distinct (label, start, end) units; each annotator present or absent;
    # specific_agreement (Uebersax 1982) on "present" equals exact-match F1 per label.
    rng = random.Random(seed)
    df = _random_units(rng, unique=True, n=15, length=12)
    if df["annotator"].nunique() < 2:
        return
    res = span_f1(df, "exact")
    for label in sorted(df.category.unique()):
        sub = df[df.category == label]
        keys = sub[["start", "end"]].drop_duplicates()
        long = [(f"{s}-{e}", who, bool(((sub.annotator == who) & (sub.start == s)
                                         & (sub.end == e)).any()))
                for s, e in keys.itertuples(index=False) for who in "ab"]
        ann = Annotations.from_long(pd.DataFrame(long, columns=["item", "annotator",
                                                                "label"]),
                                    categories=[False, True])
        psa = specific_agreement(ann, positive=True).value
        assert _pair(res, "a", "b", label).f1 == pytest.approx(psa, abs=1e-15)


def _bio(rng, n, types="PER LOC ORG".split()):
    tags = []
    for _ in range(n):
        r = rng.random()
        if r < 0.5:
            tags.append("O")
        elif r < 0.75:
            tags.append("B-" + rng.choice(types))
        else:
            tags.append("I-" + rng.choice(types))
    return tags


@pytest.mark.parametrize("seed", range(5))
def test_exact_f1_matches_seqeval(seed):
    # seqeval (conlleval's default scheme): f1_score per entity type and micro on two
    # annotators' BIO tags; spans from seqeval's own get_entities (end inclusive, so a
    # unit is [start, end + 1)). One sentence per list; a sentence is a document.
    seqeval = pytest.importorskip("seqeval.metrics")
    from seqeval.metrics.sequence_labeling import get_entities
    rng = random.Random(seed)
    sents = [(_bio(rng, 25), _bio(rng, 25)) for _ in range(6)]
    for i in range(0, 6, 2):  # make some agreement: copy a's tags into b, mostly
        sents[i] = (sents[i][0], [t if rng.random() < 0.8 else "O" for t in sents[i][0]])
    rows = [(d, who, typ, s, e + 1) for d, pair in enumerate(sents)
            for who, tags in zip("ab", pair) for typ, s, e in get_entities(tags)]
    df = pd.DataFrame(rows, columns=["item", "annotator", "category", "start", "end"])
    res = span_f1(df, "exact")
    truth, pred = [p[0] for p in sents], [p[1] for p in sents]
    assert res.value == pytest.approx(seqeval.f1_score(truth, pred, average="micro"),
                                      abs=1e-12)
    report = seqeval.classification_report(truth, pred, output_dict=True, zero_division=0)
    for label in df.category.unique():
        row = _pair(res, "a", "b", label)
        assert row.f1 == pytest.approx(report[label]["f1-score"], abs=1e-12)
        assert row.precision == pytest.approx(report[label]["precision"], abs=1e-12)
        assert row.recall == pytest.approx(report[label]["recall"], abs=1e-12)


def test_documents_only_both_annotated_count():
    # Reader Spans: doc 1 annotated by a and b, doc 2 by a only. a's units in doc 2
    # are left out of the pair (counted), not charged to b as misses.
    sp = make_spans([(1, "a", "X", 0, 2), (1, "b", "X", 0, 2), (2, "a", "X", 5, 6)],
                    [(1, "a"), (1, "b"), (2, "a")], ["r1", "r2", "r3"], [])
    res = span_f1(sp)
    assert res.value == 1.0 and res.n_items == 2 and res.n_ratings == 2
    assert sum(res.excluded.values()) == 1  # a's unit in doc 2, out of the pair (a, b)
    # an annotator c who annotated doc 1 and marked nothing counts: pairs a–b 2·1/2,
    # a–c and b–c 0/1 each; micro 2·1/(2 + 1 + 1) = 1/2
    sp = make_spans([(1, "a", "X", 0, 2), (1, "b", "X", 0, 2)],
                    [(1, "a"), (1, "b"), (1, "c")], ["r1", "r2"], [])
    res = span_f1(sp)
    assert _pair(res, "a", "c", "X").f1 == 0 and res.value == pytest.approx(1 / 2)


def test_continuum_input_and_annotators():
    cont = Continuum.from_frame(SMALL)
    assert span_f1(cont).value == span_f1(SMALL).value
    res = span_f1(SMALL, annotators=["a", "b"])
    assert res.value == pytest.approx(1 / 3) and res.n_annotators == 2


def test_bad_input_is_named():
    with pytest.raises(AgreementError, match="match must be"):
        span_f1(SMALL, "fuzzy")
    with pytest.raises(AgreementError, match="at least two"):
        span_f1(SMALL, annotators=["a"])
    with pytest.raises(AgreementError, match="annotators="):
        span_f1(SMALL, annotators=["a", "zz"])
    with pytest.raises(AgreementError, match="Continuum"):
        span_f1([1, 2, 3])
    # a table with other column names: what span_f1 reads and how to get there, not the
    # loader's keyword arguments, which span_f1 does not take
    with pytest.raises(AgreementError, match=r"\['start', 'end'\] not found.*rename") as e:
        span_f1(SMALL.rename(columns={"start": "from", "end": "to"}))
    assert "pass annotator=," not in str(e.value)


def _iob2(tags):
    """The tags rewritten in IOB2 (every span opens with B-), from seqeval's reading."""
    from seqeval.metrics.sequence_labeling import get_entities
    out = ["O"] * len(tags)
    for typ, s, e in get_entities(tags):
        out[s:e + 1] = ["B-" + typ] + ["I-" + typ] * (e - s)
    return out


@pytest.mark.parametrize("seed", range(8))
def test_against_nervaluate(seed):
    # nervaluate (Segura-Bedmar et al.'s SemEval-2013 schemes): its "strict" scheme
    # (same type and boundaries) is exact-match F1, equal to ours. Its "ent_type"
    # scheme (same type, any overlap) pairs each predicted span with the first true
    # span it overlaps, whatever its type, so a span of another type can use up a true
    # span (seed 3 shows it): its correct count is a one-to-one matching within types,
    # never above our maximum matching, so our overlap F1 is ≥ its value.
    pytest.importorskip("seqeval")
    nervaluate = pytest.importorskip("nervaluate")
    from seqeval.metrics.sequence_labeling import get_entities
    rng = random.Random(seed)
    sents = [(_bio(rng, 25), _bio(rng, 25)) for _ in range(6)]
    for i in range(0, 6, 2):
        sents[i] = (sents[i][0], [t if rng.random() < 0.8 else "O" for t in sents[i][0]])
    truth, pred = [_iob2(a) for a, _ in sents], [_iob2(b) for _, b in sents]
    rows = [(d, who, typ, s, e + 1) for d, pair in enumerate(zip(truth, pred))
            for who, tags in zip("ab", pair) for typ, s, e in get_entities(tags)]
    df = pd.DataFrame(rows, columns=["item", "annotator", "category", "start", "end"])
    peer = nervaluate.Evaluator(truth, pred, tags=["PER", "LOC", "ORG"],
                                loader="list").evaluate()["overall"]
    assert span_f1(df, "exact").value == pytest.approx(peer["strict"].f1, abs=1e-12)
    assert span_f1(df, "overlap").value >= peer["ent_type"].f1 - 1e-12
