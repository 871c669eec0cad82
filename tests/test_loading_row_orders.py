"""Integer ids in a compact range are coded by direct indexing (data/codes.py, _id_codes):
the same Annotations whatever the row order; the reference is pd.factorize of the sorted
ids (numpy's own sort), independent of our coding."""
import numpy as np
import pandas as pd
import pytest

from iaa_widgets import Annotations
from iaa_widgets.data.codes import _id_codes


def ratings(seed=0, n_items=300, offset=0):
    rng = np.random.default_rng(seed)
    item = rng.choice(np.arange(offset, offset + 3 * n_items), n_items, replace=False)
    rows = [(i, a, int(rng.integers(0, 4))) for i in item for a in range(5)
            if rng.random() < 0.8]
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


@pytest.mark.parametrize("offset", [0, 7, -50, 10 ** 12])
def test_same_annotations_in_every_row_order(offset):
    df = ratings(offset=offset)
    orders = [df, df.sort_values(["annotator", "item"], ignore_index=True),
              df.sample(frac=1.0, random_state=1, ignore_index=True)]
    loaded = [Annotations.from_long(d) for d in orders]
    for d, ann in zip(orders, loaded):
        assert ann.items.equals(pd.Index(np.sort(d["item"].unique()), name="item"))
        # each rating keeps its item, annotator and label
        got = pd.DataFrame({"item": ann.items[ann.item], "annotator": ann.annotators[
            ann.annotator], "label": ann.categories[ann.label]})
        pd.testing.assert_frame_equal(got, d, check_dtype=False)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16])
def test_id_codes_equal_factorize_of_sorted_ids(dtype):
    values = np.random.default_rng(2).permutation(np.r_[0:40, 60:90]).astype(dtype)
    values = np.concatenate([values, values[::3]])
    codes, uniques = _id_codes(pd.Series(values))
    ref_uniques = np.unique(values)
    np.testing.assert_array_equal(uniques, ref_uniques)
    np.testing.assert_array_equal(codes, np.searchsorted(ref_uniques, values))
    assert uniques.dtype == values.dtype


def test_ids_far_apart_keep_first_appearance():
    # beyond 4n + 1024 of their minimum: hashed, in order of first appearance
    values = np.array([10 ** 9, 5, 10 ** 9, 7, 5])
    codes, uniques = _id_codes(pd.Series(values))
    ref_codes, ref_uniques = pd.factorize(values)
    np.testing.assert_array_equal(codes, ref_codes)
    np.testing.assert_array_equal(uniques, ref_uniques)
