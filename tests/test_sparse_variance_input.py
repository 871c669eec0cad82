"""spa_item_variance refuses a count of annotations that is not a whole number ≥ 0 (found
while writing its numpydoc entry, issue 40): a negative n gave an infinite variance and a
string a raw numpy TypeError."""
import numpy as np
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError


@pytest.mark.parametrize("n", [-1, [2, -3], "3", None, 2.5, np.nan])
def test_bad_counts_are_named(n):
    with pytest.raises(AgreementError, match="whole numbers of annotations"):
        iaa.spa_item_variance(n, n_classes=2)


def test_whole_counts_still_accepted():
    # n = 3, C = 2: Var = 1/12 by enumeration of the 8 labellings (tests/test_sparse.py);
    # fewer than two annotations: infinite variance (§5.5)
    np.testing.assert_allclose(iaa.spa_item_variance(np.array([0.0, 1.0, 3.0]), n_classes=2),
                               [np.inf, np.inf, 1 / 12])
