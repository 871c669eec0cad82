"""Issue 29 items 7–9: small defects found against R's irr, progress bars only where a
person sees them, no dead code.

Expected numbers are counted by hand from the tiny tables written beside each test
(irr's ``agree`` with tolerance 0 is the share of items whose ratings are all identical;
Light's κ is the mean of the pairs' Cohen's κ, checked against scikit-learn's
``cohen_kappa_score``, an independent implementation).
"""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.errors import AgreementError


def _frame(labels: dict) -> pd.DataFrame:
    return pd.DataFrame([(i, who, lab) for i, row in labels.items()
                         for who, lab in zip("abc", row)],
                        columns=["item", "annotator", "label"])


def test_tolerance_zero_needs_no_order_for_text_labels():
    # three text categories, no order: items 1 and 3 unanimous of 4 → 2/4 (irr's agree)
    df = _frame({1: "xxx", 2: "yzy", 3: "zzz", 4: "xyz"})
    assert iaa.tolerance_agreement(df).value == 0.5
    # "pairs" at t = 0 is percent agreement: (6 + 2 + 6 + 0) / (4 · 6) = 14/24
    assert iaa.tolerance_agreement(df, rule="pairs").value == pytest.approx(14 / 24)
    assert iaa.tolerance_agreement(df, rule="pairs").value == pytest.approx(
        iaa.percent_agreement(df).value)
    with pytest.raises(AgreementError, match="no order was given"):
        iaa.tolerance_agreement(df, tolerance=1)  # a distance needs the order


def test_light_kappa_says_why_its_jackknife_is_undefined():
    # leaving out item 0 leaves annotators a and c one category each: that pair's A_e = 1
    df = _frame({0: "yyy", 1: "xxx", 2: "xyx", 3: "xxx", 4: "xyx"})
    res = iaa.light_kappa(df)
    sklearn = pytest.importorskip("sklearn.metrics")
    wide = df.pivot(index="item", columns="annotator", values="label")
    pairs = [("a", "b"), ("a", "c"), ("b", "c")]
    expected = np.mean([sklearn.cohen_kappa_score(wide[p], wide[q]) for p, q in pairs])
    assert res.value == pytest.approx(expected, abs=1e-12)
    assert np.isnan(res.se) and np.isnan(res.ci).all()
    assert "undefined" in res.note and "standard error is 0" not in res.note
    # where every leave-one-out value is defined and equal, the SE is 0 and said so
    same = _frame({0: "xxx", 1: "yyy", 2: "xxx", 3: "yyy"})
    assert "standard error is 0" in iaa.light_kappa(same).note


def test_cohen_kappa_names_psych_without_levels():
    assert "psych::cohen.kappa" in iaa.cohen_kappa.__doc__
    assert "without ``levels=``" in iaa.cohen_kappa.__doc__


@pytest.mark.parametrize("progress, shown", [("auto", False), (True, True)])
def test_progress_bars_only_where_a_person_sees_them(progress, shown):
    # stderr is a pipe here, as in CI logs: "auto" draws nothing, True still draws
    code = ("from iaa_widgets.measures.continuum.gamma.progress import progress_reporter\n"
            f"report, close = progress_reporter({progress!r})\n"
            "print(report._bar.disable)\nclose()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == str(not shown)


def test_no_dead_helpers_or_unreachable_imports():
    from iaa_widgets import report
    from iaa_widgets.measures import _formulas
    assert not hasattr(_formulas, "category_shares")  # unused (issue 29, item 9)
    source = open(report.__file__, encoding="utf-8").read()
    assert "except ImportError" not in source  # every measure is part of the package
