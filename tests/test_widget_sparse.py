"""SparseAgreementExplorer without a browser: its numbers are the measure functions'
(sparse_agreement per scheme, eq. 7 of Nørregaard & Derczynski; spa_missingness with
the same drop, rounds and seed; spa_variance_curve). Data: the seeded synthetic crowd
set (iaa_widgets.datasets.crowd_labels)."""
from __future__ import annotations

import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.datasets import crowd_labels
from iaa_widgets.measures.sparse.variance import SPA_SCHEMES


@pytest.fixture(scope="module")
def crowd():
    return crowd_labels(n_items=400, seed=3)


def test_widget_numbers_are_the_measure_functions(crowd):
    w = iaa.SparseAgreementExplorer(crowd, drop=0.1, n_rounds=50, seed=2, n_points=5)
    for scheme in SPA_SCHEMES:
        assert w.result[scheme].value == iaa.sparse_agreement(crowd, scheme=scheme).value
    w.drop = 0.45
    expected = iaa.spa_missingness(crowd, 0.45, n_rounds=50, seed=2)
    pd.testing.assert_frame_equal(w.missingness.values, expected.values)
    rows = {r["scheme"]: r for r in w.summary}
    for scheme in SPA_SCHEMES:
        assert rows[scheme]["sd"] == pytest.approx(expected.summary().loc[scheme, "sd"], abs=0)
    w.seed = 9
    curve = iaa.spa_variance_curve(crowd, list(SPA_SCHEMES), n_rounds=50, seed=9, n_points=5)
    pd.testing.assert_frame_equal(w.variance_curve, curve)
    rounds = pd.DataFrame(w._datasets["spa_rounds"])
    assert len(rounds) == 40 * len(SPA_SCHEMES)
    assert rounds.groupby("scheme", sort=False)["count"].sum().tolist() == \
        w.missingness.values.notna().sum().tolist()


def test_widget_shows_bad_values(crowd):
    w = iaa.SparseAgreementExplorer(crowd, n_rounds=20, n_points=3)
    w.drop = -0.2
    assert "drop must be a finite number in [0, 1)" in w.error
    w.drop = 0.2
    assert w.error == ""
    w.n_rounds = 0
    assert "n_rounds" in w.error


def test_widget_with_200_annotations_on_an_item():
    # issue 19: items with 15, 50 and 200 annotations beside the crowd items; the widget's
    # numbers are still the measure functions' (which tests/test_sparse_many.py checks
    # against exact laws at these sizes)
    crowd = crowd_labels(n_items=300, seed=4)
    labels = list(crowd["label"].cat.categories)
    heavy = pd.DataFrame([(f"heavy {m}", f"w{j}", labels[j % (2 + m % 3)])
                          for m in (15, 50, 200) for j in range(m)],
                         columns=["item", "annotator", "label"])
    data = pd.concat([crowd.astype({"label": str}), heavy], ignore_index=True)
    w = iaa.SparseAgreementExplorer(data, drop=0.3, n_rounds=30, seed=1, n_points=4)
    assert w.error == "" and w.info["max_annotations"] == 200
    assert w.weight_curves.index.max() == 200
    for scheme in SPA_SCHEMES:
        assert w.result[scheme].value == iaa.sparse_agreement(data, scheme=scheme).value
    expected = iaa.spa_missingness(data, 0.3, n_rounds=30, seed=1)
    pd.testing.assert_frame_equal(w.missingness.values, expected.values)
    w.drop = 0.6
    assert w.missingness.values.notna().all().all()
    curve = iaa.spa_variance_curve(data, list(SPA_SCHEMES), n_rounds=30, seed=1, n_points=4)
    pd.testing.assert_frame_equal(w.variance_curve, curve)
