"""γ per document and for a corpus (issue 17; definition in
iaa_widgets/measures/continuum/gamma/corpus.py): the corpus's observed disorder equals that of
one continuum holding the documents far apart (Mathet, Widlöcher & Métivier 2015,
eq. 4–5, computed by the best alignment of that continuum, an independent route),
and the corpus's δ_o, δ_e are the unit-weighted means of the documents'."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from iaa_widgets.continuum import Continuum, random_continuum
from iaa_widgets.errors import AgreementError
from iaa_widgets.measures.continuum.gamma.alignment import best_alignment
from iaa_widgets.measures.continuum.gamma.corpus import gamma_corpus


def corpus(n_docs=4) -> pd.DataFrame:
    frames = []
    for d in range(n_docs):
        f = random_continuum(3, 6 + d, seed=d).to_frame()
        f["document"] = f"doc{d}"
        frames.append(f)
    return pd.concat(frames, ignore_index=True)


def test_corpus_disorder_is_one_continuum_with_documents_apart():
    df = corpus()
    r = gamma_corpus(df, n_samples=10, seed=1, progress=False)
    far = df.copy()
    shift = far["document"].str[3:].astype(int) * 1e6  # no alignment across documents
    far["start"] += shift
    far["end"] += shift
    whole = Continuum.from_frame(far.drop(columns=["document"]))
    assert r.corpus.observed == pytest.approx(best_alignment(whole).disorder, rel=1e-12)
    t = r.per_document
    w = t["n_units"] / t["n_units"].sum()
    assert r.corpus.expected == pytest.approx(float((w * t["expected"]).sum()))
    assert r.corpus.value == pytest.approx(1 - r.corpus.observed / r.corpus.expected)
    assert r.corpus.ci[0] < r.corpus.value < r.corpus.ci[1]
    assert list(t.index) == ["doc0", "doc1", "doc2", "doc3"]
    assert t["n_units"].sum() == len(df) == r.corpus.n_ratings


def test_mapping_processes_and_progress_give_the_same_numbers():
    df = corpus(3)
    seen = []
    one = gamma_corpus(df, n_samples=8, seed=2, progress=lambda d, n: seen.append((d, n)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    two = gamma_corpus(df, n_samples=8, seed=2, progress=False, n_jobs=2)
    mapping = {k: g.drop(columns=["document"]) for k, g in df.groupby("document")}
    three = gamma_corpus(mapping, n_samples=8, seed=2, progress=False)
    pd.testing.assert_frame_equal(one.per_document, two.per_document)
    pd.testing.assert_frame_equal(one.per_document, three.per_document)


def test_a_document_with_one_annotator_is_counted_not_dropped():
    df = corpus(2)
    lone = pd.DataFrame({"annotator": ["a0"], "category": ["c0"], "start": [0.0],
                         "end": [5.0], "document": ["solo"]})
    r = gamma_corpus(pd.concat([df, lone], ignore_index=True), n_samples=5, seed=0,
                     progress=False)
    assert r.corpus.excluded == {"documents with units from fewer than two annotators": 1}
    assert np.isnan(r.per_document.loc["solo", "value"])
    assert r.corpus.n_ratings == len(df)


def test_bad_corpus_input():
    df = corpus(2)
    with pytest.raises(AgreementError, match="'doc' not found"):
        gamma_corpus(df, document="doc")
    bad = df.copy()
    bad.loc[3, "document"] = None
    with pytest.raises(AgreementError, match="missing in row"):
        gamma_corpus(bad)
    with pytest.raises(AgreementError, match="mapping"):
        gamma_corpus([1, 2])
