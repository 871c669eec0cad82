"""Kendall's W through its Statistic (kendall_w.statistic): every resample's value equals
W recomputed on the rebuilt resample (the bootstrap's generic path, same seed), and the
jackknife equals W without each item; the reference is kendall_w itself, checked against
scipy's Friedman test and irrNA in tests/test_kendall.py."""
import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.stats.resampling import resampled

CASES = [{"missing": "listwise"}, {"missing": "listwise", "correct": False},
         {"missing": "raise"}, {"missing": "available"}]


def ranks(n=50, m=4, seed=0, drop=(3, 10, 41)):
    """Scores with ties (rounded), some ratings missing."""
    rng = np.random.default_rng(seed)
    x = (rng.normal(0, 1, (n, 1)) + rng.normal(0, 1, (n, m))).round(0)
    df = pd.DataFrame({"item": np.repeat(np.arange(n), m),
                       "annotator": np.tile(np.arange(m), n), "label": x.ravel()})
    return df.drop(index=list(drop))


@pytest.mark.parametrize("kwargs", CASES)
def test_resamples_equal_rebuilding_them(kwargs):
    df = ranks(drop=()) if kwargs["missing"] == "raise" else ranks()
    ann = iaa.Annotations.from_long(df)
    stat = iaa.kendall_w.statistic(ann, **kwargs)
    ours = resampled(stat, 40, np.random.default_rng(1))
    ref = iaa.bootstrap(ann, lambda d: iaa.kendall_w(d, **kwargs).value, n_resamples=40,
                        seed=1).values
    np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-12)
    assert stat.values(stat.base[None])[0] == pytest.approx(iaa.kendall_w(ann, **kwargs).value,
                                                            abs=1e-12)


@pytest.mark.parametrize("kwargs", CASES[:2])
def test_jackknife_leaves_each_item_out(kwargs):
    df = ranks(n=15)
    ann = iaa.Annotations.from_long(df)
    jack = iaa.kendall_w.statistic(ann, **kwargs).jackknife()
    for i in range(ann.n_items):
        rest = df[df["item"] != ann.items[i]]
        assert jack[i] == pytest.approx(iaa.kendall_w(rest, **kwargs).value, abs=1e-12)


def test_bootstrap_bca_runs_through_the_statistic():
    res = iaa.bootstrap(ranks(), "kendall_w", n_resamples=200, seed=2, interval="bca")
    assert res.ci[0] < res.estimate < res.ci[1]


def test_statistic_refuses_what_the_measure_refuses():
    df = pd.DataFrame({"item": [0, 0, 1, 1], "annotator": [0, 1, 0, 1],
                       "label": ["a", "b", "b", "a"]})
    with pytest.raises(iaa.AgreementError, match="order"):
        iaa.kendall_w.statistic(df)
