"""ContingencyMatrix with many categories (issue 28): its per-cell Statistics grow as k³
numbers at most (one Statistic for every category's specific agreement, not one per
category: k⁴), and a table beyond ``stats.tables.MAX_TABLE_CATEGORIES`` is refused with
its size before any k × k copy, never by a MemoryError."""
import tracemalloc

import numpy as np
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError
from iaa_widgets.stats.tables import MAX_TABLE_CATEGORIES


def table(k, seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 3, (k, k)) + np.diag(rng.integers(10, 30, k))


def test_a_hundred_categories_in_bounded_memory():
    # k = 100 took 1.9 GB and 17 s (k Statistics of k² × 2k cells for specific agreement)
    m = table(100)
    iaa.ContingencyMatrix(table(3))  # imports and the front-end bundle, outside the peak
    tracemalloc.start()
    w = iaa.ContingencyMatrix(m)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 400 * 2 ** 20
    # the panel's numbers are the measure functions' on the table
    panel = {row["key"]: row["value"] for row in w.coefficients}
    for key, result in w.result.items():
        if key in panel:
            assert panel[key] == pytest.approx(result.value, abs=1e-12), key
    spec = w.result["specific_agreement"].per_category["specific_agreement"].to_numpy()
    np.testing.assert_allclose([row[3] for row in w.per_category["rows"]], spec,
                               rtol=0, atol=1e-12)


def test_too_many_categories_are_refused_with_the_size():
    k = MAX_TABLE_CATEGORIES + 1
    tracemalloc.start()
    with pytest.raises(AgreementError, match=rf"{k:,} categories \({k * k:,} cells\)"):
        iaa.ContingencyMatrix(table(k))
    rng = np.random.default_rng(0)
    n = 4 * k
    import pandas as pd
    df = pd.DataFrame({"item": np.repeat(np.arange(n), 2), "annotator": np.tile(["a", "b"], n),
                       "label": np.r_[np.arange(k), rng.integers(0, k, 2 * n - k)]})
    with pytest.raises(AgreementError, match=rf"{k:,} categories"):
        iaa.ContingencyMatrix(df)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100 * 2 ** 20
