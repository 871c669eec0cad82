"""Property tests (hypothesis) of the classic coefficients: invariance under
relabelling categories, permuting items and permuting annotators; perfect agreement
gives 1; the vectorised pairwise matrix equals each pair's own coefficient."""
import numpy as np
import pandas as pd
from hypothesis import given, settings, strategies as st

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations

TOL = 1e-9
NOMINAL = [iaa.percent_agreement, iaa.bennett_s, iaa.fleiss_kappa, iaa.davies_fleiss_kappa]
TWO = [iaa.scott_pi, iaa.cohen_kappa]


@st.composite
def ratings(draw, min_annotators=2, max_annotators=5, missing=True):
    """Items × annotators codes (−1 missing); every item keeps two ratings."""
    n = draw(st.integers(3, 25))
    m = draw(st.integers(min_annotators, max_annotators))
    k = draw(st.integers(2, 5))
    x = np.array(draw(st.lists(st.lists(st.integers(0, k - 1), min_size=m, max_size=m),
                               min_size=n, max_size=n)))
    if missing:
        hole = np.array(draw(st.lists(st.lists(st.booleans(), min_size=m, max_size=m),
                                      min_size=n, max_size=n)))
        hole[:, :2] = False
        x[hole] = -1
    return x, k


def load(x, k, names=None, categories=None):
    names = names or [f"r{j}" for j in range(x.shape[1])]
    cats = categories if categories is not None else list(range(k))
    lab = np.asarray(cats, dtype=object)
    frame = pd.DataFrame(np.where(x >= 0, lab[np.maximum(x, 0)], None), columns=names)
    return Annotations.from_wide(frame, categories=cats)


def same(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return (np.isnan(a) and np.isnan(b)) or abs(a - b) <= TOL


def value(f, ann, **kw):
    """The coefficient, or "refused" when the data leaves nothing to measure (e.g. no
    item rated by everyone under missing="listwise"): both sides must agree on that."""
    try:
        return f(ann, **kw).value
    except AgreementError:
        return "refused"


def values(ann):
    pair = ("r0", "r1")  # the two-annotator coefficients on one named pair
    return [value(f, ann, missing=policy) for policy in ("listwise", "available")
            for f in NOMINAL] + [value(f, ann, annotators=pair) for f in TWO]


@settings(max_examples=60, deadline=None)
@given(ratings(), st.randoms(use_true_random=False))
def test_relabelling_categories(data, rnd):
    x, k = data
    perm = list(range(k))
    rnd.shuffle(perm)
    relabelled = np.where(x >= 0, np.array(perm)[np.maximum(x, 0)], -1)
    names = [f"c{j}" for j in range(k)]
    a = values(load(x, k))
    b = values(load(relabelled, k, categories=[names[p] for p in range(k)]))
    assert all(same(u, v) for u, v in zip(a, b))


@settings(max_examples=60, deadline=None)
@given(ratings(), st.randoms(use_true_random=False))
def test_permuting_items_and_annotators(data, rnd):
    x, k = data
    rows = list(range(x.shape[0]))
    cols = list(range(x.shape[1]))
    rnd.shuffle(rows)
    rnd.shuffle(cols)
    names = [f"r{j}" for j in range(x.shape[1])]
    base = load(x, k)
    moved = load(x[rows][:, cols], k, names=[names[c] for c in cols])
    assert all(same(u, v) for u, v in zip(values(base), values(moved)))
    m0 = iaa.pairwise(base, "cohen_kappa")
    m1 = iaa.pairwise(moved, "cohen_kappa").loc[m0.index, m0.columns]
    np.testing.assert_allclose(m0.to_numpy(), m1.to_numpy(), atol=TOL)


@settings(max_examples=60, deadline=None)
@given(ratings(max_annotators=2))
def test_two_annotator_measures_symmetric_in_the_pair(data):
    x, k = data
    a, b = load(x, k), load(x[:, ::-1], k, names=["r1", "r0"])
    for f in TWO:
        assert same(f(a).value, f(b).value)
    for w in ("linear", "quadratic"):
        assert same(iaa.cohen_kappa(a, weights=w).value, iaa.cohen_kappa(b, weights=w).value)
        rev = np.where(x >= 0, k - 1 - x, -1)  # reversing the order keeps |i − j|
        assert same(iaa.cohen_kappa(a, weights=w).value,
                    iaa.cohen_kappa(load(rev, k), weights=w).value)


@settings(max_examples=60, deadline=None)
@given(ratings(missing=False))
def test_perfect_agreement_is_one(data):
    x, k = data
    labels = x[:, :1].repeat(x.shape[1], axis=1)
    labels[0, :], labels[1, :] = 0, 1          # at least two categories in use
    ann = load(labels, k)
    for v in values(ann):
        assert abs(v - 1) <= TOL
    for w in (None, "linear", "quadratic"):
        assert abs(iaa.cohen_kappa(ann, annotators=("r0", "r1"), weights=w).value - 1) <= TOL
    assert np.allclose(iaa.pairwise(ann, "scott_pi", diagonal=1.0), 1.0)


@settings(max_examples=40, deadline=None)
@given(ratings(min_annotators=3))
def test_pairwise_matches_each_pair(data):
    x, k = data
    ann = load(x, k)
    for measure in ("percent_agreement", "bennett_s", "scott_pi", "cohen_kappa"):
        m = iaa.pairwise(ann, measure)
        for a in range(ann.n_annotators):
            for b in range(a + 1, ann.n_annotators):
                pair = (ann.annotators[a], ann.annotators[b])
                one = value(getattr(iaa, measure), ann, annotators=pair)
                if one == "refused":  # the pair shares no item: NaN in the matrix
                    assert m.attrs["n_items"][a][b] == 0 and np.isnan(m.loc[pair])
                else:
                    assert same(m.loc[pair], one)
