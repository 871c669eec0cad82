"""Conger's κ without each annotator, with its paired bootstrap, from one Statistic
(inference/leave_one_out._versions_of_raters, issue 43 §3): the same values and the
same resampled values as one Statistic per version side by side (the path it replaces),
and values equal to ``davies_fleiss_kappa`` on the ratings without each annotator."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.inference import leave_one_out as L
from iaa_widgets.stats.resampling import resampled

MAKE = iaa.davies_fleiss_kappa.statistic


def ratings(n_items: int, n_annotators: int, keep: float, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, n_items)
    x = np.where(rng.random((n_items, n_annotators)) < rng.uniform(0.5, 0.9, n_annotators),
                 truth[:, None], rng.integers(0, 4, (n_items, n_annotators)))
    df = pd.DataFrame({"item": np.repeat(np.arange(n_items), n_annotators),
                       "annotator": np.tile([f"r{j}" for j in range(n_annotators)], n_items),
                       "label": np.array(list("abcd"))[x.ravel()]})
    return df[rng.random(len(df)) < keep]


@pytest.mark.parametrize("keep, kwargs", [
    (1.0, {}),                          # complete: every policy keeps every item
    (1.0, {"missing": "pairable"}),
    (0.7, {"missing": "available"}),    # the explorer's policy, with gaps
])
def test_one_statistic_equals_one_per_version(keep, kwargs):
    ann = iaa.as_annotations(ratings(120, 6, keep, seed=4))
    new = L._versions_of_raters(MAKE, ann, kwargs)
    assert new is not None
    old = L._side_by_side([MAKE(v, **kwargs) for v in [ann, *L._without_each(ann)]])
    np.testing.assert_allclose(new.values(new.base[None]), old.values(old.base[None]),
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(resampled(new, 40, np.random.default_rng(7)),
                               resampled(old, 40, np.random.default_rng(7)),
                               rtol=0, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("keep, kwargs", [(1.0, {}), (0.7, {"missing": "available"}),
                                          (0.7, {})])  # (the last: the path per version)
def test_values_are_the_measure_without_each_annotator(keep, kwargs):
    df = ratings(150, 5, keep, seed=9)
    out = iaa.leave_one_out(df, "davies_fleiss_kappa", n_resamples=30, seed=2, **kwargs)
    for name in out.index:
        rest = iaa.davies_fleiss_kappa(df[df["annotator"] != name], **kwargs).value
        assert out.loc[name, "value"] == pytest.approx(rest, abs=1e-12)
    assert np.isfinite(out[["ci_low", "ci_high"]].to_numpy()).all()
    assert (out["ci_low"] <= out["ci_high"]).all()


def test_gaps_under_listwise_keep_the_path_per_version():
    ann = iaa.as_annotations(ratings(60, 4, 0.7, seed=1))
    assert L._versions_of_raters(MAKE, ann, {}) is None
    assert L._versions_of_raters(MAKE, ann, {"missing": "available", "weights": "linear"}) is None
