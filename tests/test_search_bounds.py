"""Searches bounded by the answer (issue 28): span_f1's one-to-one matching of dense
overlapping spans and γ's candidate alignments of many overlapping annotators. Each is
bounded in memory (refused with its size beyond ``stats.tables``' limits, never a raw
MemoryError), interruptible and reports progress."""
import tracemalloc

import numpy as np
import pandas as pd
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching

from iaa_widgets import AgreementError
from iaa_widgets.continuum import Continuum
from iaa_widgets.measures.sets_spans import spans
from iaa_widgets.measures.continuum.gamma import alignment
from iaa_widgets.measures.continuum.gamma.alignment import best_alignment
from iaa_widgets.measures.sets_spans.spans import span_f1


def random_spans(seed, n_docs=3, n_ann=4, per=25, labels=("P", "L")):
    """Units of several documents, labels and annotators, some identical, some of length
    zero, many overlapping."""
    rng = np.random.default_rng(seed)
    n = n_docs * n_ann * per
    start = rng.integers(0, 60, n).astype(float)
    length = rng.choice([0, 1, 2, 5, 12], n)
    return pd.DataFrame({"item": np.repeat(np.arange(n_docs), n_ann * per),
                         "annotator": np.tile(np.repeat([f"a{i}" for i in range(n_ann)], per),
                                              n_docs),
                         "category": rng.choice(list(labels), n),
                         "start": start, "end": start + length})


def _hopcroft_karp(sa, ea, sb, eb) -> int:
    """The reference: scipy's maximum bipartite matching over every overlapping pair."""
    overlap = (np.maximum(sa[:, None], sb[None, :]) < np.minimum(ea[:, None], eb[None, :]))
    if not overlap.any():
        return 0
    return int((maximum_bipartite_matching(csr_matrix(overlap.astype(float)),
                                           perm_type="column") >= 0).sum())


@pytest.mark.parametrize("seed", range(30))
def test_interval_greedy_is_a_maximum_matching(seed):
    # the greedy of least ends against Hopcroft–Karp (scipy) on random intervals
    rng = np.random.default_rng(seed)
    na, nb = rng.integers(1, 30, 2)
    sa, sb = rng.integers(0, 40, na).astype(float), rng.integers(0, 40, nb).astype(float)
    ea, eb = sa + rng.integers(1, 10, na), sb + rng.integers(1, 10, nb)
    assert spans._interval_matching(sa, ea, sb, eb) == _hopcroft_karp(sa, ea, sb, eb)


@pytest.mark.parametrize("match", ["exact", "overlap"])
@pytest.mark.parametrize("limit", [0, 7, 200])
def test_blocks_and_dense_groups_give_the_same_matching(monkeypatch, match, limit):
    # limit 0: every document and label is "dense" (greedy or counting, no pairs held);
    # 7: blocks of a few groups; the default: one Hopcroft–Karp call (the reference)
    df = random_spans(3)
    whole = span_f1(df, match, progress=False)
    monkeypatch.setattr(spans, "MAX_SPAN_PAIRS", limit)
    parts = span_f1(df, match, progress=False)
    pd.testing.assert_frame_equal(parts.params["pairs"], whole.params["pairs"])
    assert parts.value == whole.value


def dense(n=4000, length=1000.0, n_ann=2) -> pd.DataFrame:
    """n units per annotator, [i + a/2, i + a/2 + length): each overlaps about 2·length
    of the other's, and unit i of every annotator overlaps unit i of every other, so a
    perfect matching exists: F1 = 1 by construction."""
    return pd.concat([pd.DataFrame({"annotator": f"a{a}", "category": "X",
                                    "start": np.arange(n) + a / 2,
                                    "end": np.arange(n) + a / 2 + length})
                      for a in range(n_ann)], ignore_index=True)


def test_dense_overlaps_are_matched_in_bounded_memory():
    # 4,000 units per annotator, each overlapping ~2,000: 3.2e7 candidate pairs were all
    # held (0.85 GiB, 25 s; 4 annotators: MemoryError at 6 GiB after 207 s)
    df = dense(n_ann=3)
    tracemalloc.start()
    seen = []
    res = span_f1(df, "overlap", progress=lambda done, wanted: seen.append((done, wanted)))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert res.value == 1.0
    assert peak < 100 * 2 ** 20
    assert seen and seen[-1][0] == seen[-1][1] == len(df)  # progress over the units


def test_dense_matching_stops_on_interrupt():
    # a progress callback's exception (here the KeyboardInterrupt of Ctrl-C) gets through
    def stop(done, wanted):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        span_f1(dense(n=500), "overlap", progress=stop)


def overlapping_continuum(n_ann, per=20, seed=0) -> Continuum:
    rng = np.random.default_rng(seed)
    frames = []
    for a in range(n_ann):
        s = np.sort(rng.uniform(0, per * 10, per))
        frames.append(pd.DataFrame({"annotator": f"a{a}", "category": "X", "start": s,
                                    "end": s + rng.uniform(5, 30, per)}))
    return Continuum.from_frame(pd.concat(frames, ignore_index=True))


def test_gamma_of_many_overlapping_annotators_is_refused_with_its_size():
    # 20 annotators × 20 overlapping units: the candidates grew to a raw MemoryError
    # (26 GiB asked); now refused with the size before it is allocated
    tracemalloc.start()
    with pytest.raises(AgreementError, match=r"candidate unitary alignments .* GiB"):
        best_alignment(overlapping_continuum(20))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1024 * 2 ** 20


def test_fewer_bipartitions_give_the_same_best_alignment(monkeypatch):
    # step 4 with one-annotator splits only prunes less: the same optimum
    c = overlapping_continuum(5, per=6, seed=3)
    full = best_alignment(c)
    monkeypatch.setattr(alignment, "MAX_BIPARTITIONS", 1)
    weaker = best_alignment(c)
    assert weaker.disorder == pytest.approx(full.disorder, abs=1e-12)
    assert weaker.n_candidates >= full.n_candidates
