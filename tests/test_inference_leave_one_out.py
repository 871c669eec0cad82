"""leave_one_out (iaa_widgets/inference/leave_one_out.py): issue 44's items (tolerance
agreement and SPA equal to recomputing without each annotator; misspelt keywords and
unbounded resamples refused, here for bootstrap too) and issue 45's cluster=. Expected values are the measures
recomputed here on the rows without each annotator."""
import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError


def ratings(seed=0, n_items=30, annotators="abcd", drop=(1, 6, 11, 40)):
    """Labels 1–3 of four annotators, a few ratings missing (an item without one rating)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 4, n_items)
    rows = [(i, a, int(truth[i] if rng.random() < 0.7 else rng.integers(1, 4)))
            for i in range(n_items) for a in annotators]
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    return df.drop(index=list(drop)).reset_index(drop=True)


@pytest.mark.parametrize("measure, kwargs", [
    ("tolerance_agreement", {}), ("tolerance_agreement", {"tolerance": 1}),
    ("tolerance_agreement", {"missing": "available"}),
    ("sparse_agreement", {}), ("sparse_kappa", {}), ("sparse_agreement", {"scheme": "edges"}),
])
def test_leave_one_out_equals_recomputing_without_each_annotator(measure, kwargs):
    # issue 44: tolerance_agreement was NaN for every annotator under its default policy,
    # sparse_agreement/sparse_kappa raised "cannot reshape" (an item rated by all J
    # annotators was made as a row of J ratings among J − 1 annotators)
    df = ratings()
    fn = getattr(iaa, measure)
    for n_resamples in (None, 30):
        out = iaa.leave_one_out(df, measure, n_resamples=n_resamples, seed=3, **kwargs)
        for name in out.index:
            alone = fn(df[df["annotator"] != name], **kwargs).value
            assert out.loc[name, "value"] == pytest.approx(alone, abs=1e-12), name
        assert np.isfinite(out["value"]).all()
    assert np.isfinite(out["ci_low"]).all() and (out["ci_low"] <= out["ci_high"]).all()


@pytest.mark.parametrize("function", [iaa.leave_one_out, iaa.bootstrap])
def test_unknown_keywords_and_unbounded_resamples_are_refused(function):
    # issue 44: mising= and weights= (which percent agreement does not take) were
    # computed under the defaults without a word; n_resamples=10**9 was accepted
    from iaa_widgets.inference.bootstrap import MAX_RESAMPLES
    df = ratings()
    with pytest.raises(AgreementError, match=r"mising= \(did you mean missing=\?\)"):
        function(df, "fleiss_kappa", mising="listwise")
    with pytest.raises(AgreementError, match="percent_agreement.*does not take weights="):
        function(df, "percent_agreement", weights="linear")
    assert MAX_RESAMPLES == 10 ** 6
    with pytest.raises(AgreementError, match=r"n_resamples must be an integer in \[2, 1e\+06\]"):
        function(df, "fleiss_kappa", n_resamples=10 ** 9)


def test_clustered_leave_one_out_draws_whole_clusters():
    # the paired intervals from the versions' one Statistic with clustered item weights
    # equal those of recomputing every version on the rebuilt clustered resamples
    df = ratings(n_items=24, drop=())
    df["document"] = df["item"] // 6
    kwargs = {"n_resamples": 40, "seed": 9, "cluster": "document"}
    fast = iaa.leave_one_out(df, "percent_agreement", **kwargs)
    slow = iaa.leave_one_out(df, lambda a: iaa.percent_agreement(a).value, **kwargs)
    pd.testing.assert_frame_equal(fast, slow, atol=1e-12, rtol=0)
    assert fast.attrs["resampled"] == "clusters"
    items = iaa.leave_one_out(df, "percent_agreement", n_resamples=40, seed=9)
    assert items.attrs["resampled"] == "items"
    assert not np.allclose(items["se"], fast["se"])
    with pytest.raises(AgreementError, match="names no column"):
        iaa.leave_one_out(df, "percent_agreement", cluster="doc")
