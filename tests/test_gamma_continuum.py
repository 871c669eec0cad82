"""Continuum data model and loaders (Mathet 2015/2017 data: annotator, category, start, end)."""
import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.continuum import Continuum, random_continuum, read_continuum_csv


def frame():
    return pd.DataFrame({"annotator": ["A", "A", "B", "B"], "category": ["x", "y", "x", "x"],
                         "start": [0, 10, 1, 1], "end": [5, 12, 5, 5]})


def test_from_frame_codes_sorted_and_duplicates_kept():
    c = Continuum.from_frame(frame())
    assert c.n_units == 4 and c.n_annotators == 2 and list(c.categories) == ["x", "y"]
    # B's two identical units are both kept (issue 5: duplicates counted, not merged)
    assert np.sum(c.annotator == 1) == 2
    assert list(c.start) == [0, 10, 1, 1]
    back = c.to_frame()
    assert list(back.columns) == ["annotator", "category", "start", "end"]


@pytest.mark.parametrize("change, words", [
    (lambda d: d.assign(end=[5, 9, 5, 0]), ["end < start", "3"]),
    (lambda d: d.assign(start=[0, "ten", 1, 1]), ["non-numeric", "'ten'", "1"]),
    (lambda d: d.assign(start=[0, np.nan, 1, 1]), ["start", "1"]),
    (lambda d: d.iloc[:0], ["empty"]),
    (lambda d: d.assign(annotator="A"), ["two annotators"]),
    (lambda d: d.drop(columns="end"), ["'end'", "not found"]),
    (lambda d: d.assign(category=["x", None, "x", "x"]), ["category", "1"]),
])
def test_bad_input_names_the_row(change, words):
    with pytest.raises(iaa.AgreementError) as err:
        Continuum.from_frame(change(frame()))
    for w in words:
        assert w in str(err.value)


def test_read_gamma_csv(tmp_path):
    p = tmp_path / "units.csv"
    p.write_text("Alex,Cat1,2,9\nAlex,Cat2,11,17\nPaul,Cat1,2,9\n")
    c = read_continuum_csv(p)
    assert c.n_units == 3 and list(c.annotators) == ["Alex", "Paul"]
    assert iaa.read_continuum_csv(p).n_units == 3
    p.write_text("annotator,category,start,end\nAlex,Cat1,2,9\nPaul,Cat1,x,9\n")
    with pytest.raises(iaa.AgreementError, match="non-numeric"):
        read_continuum_csv(p)


def test_from_items_unit_i_occupies_i_to_i_plus_1():
    # Mathet 2017 §5.1: item i occupies [i, i + 1)
    from iaa_widgets.datasets import krippendorff_2011
    c = Continuum.from_items(krippendorff_2011())
    assert c.n_units == 41  # 48 cells − 7 missing values (Krippendorff 2011, p. 9)
    assert np.all(c.end - c.start == 1)
    assert set(np.unique(c.start)) == set(range(12))


def test_random_continuum_is_seeded():
    a, b = random_continuum(3, 20, seed=4), random_continuum(3, 20, seed=4)
    assert np.array_equal(a.start, b.start) and np.array_equal(a.category, b.category)


@pytest.mark.parametrize("text, words", [
    ("", ["empty"]),
    ("annotator,category,start,end\n", ["empty"]),
    ("Alex,Cat1,2,9\nPaul,Cat1,2,9,4\n", ["4 comma-separated columns", "line 2"]),
])
def test_read_gamma_csv_bad_files_raise_agreement_error(tmp_path, text, words):
    # issue 5: bad input → AgreementError (not a pandas parser error) saying what is wrong
    p = tmp_path / "units.csv"
    p.write_text(text)
    with pytest.raises(iaa.AgreementError) as err:
        read_continuum_csv(p)
    for w in words:
        assert w in str(err.value)


def test_declared_annotators_keep_one_who_placed_no_unit():
    # c found nothing: declared, it counts as an annotator with no units (3 annotators);
    # the observed disorder is the hand value of test_gamma_coefficients'
    # with_silent_annotator: Σδ = 2·(2 + (1/19)²)/3 + 1 over 5/3 units per annotator
    df = pd.DataFrame({"annotator": ["a", "a", "a", "b", "b"],
                       "category": ["x", "y", "x", "x", "y"],
                       "start": [0, 20, 40, 1, 21], "end": [10, 30, 50, 10, 30]})
    c = Continuum.from_frame(df, annotators=["a", "b", "c"])
    assert list(c.annotators) == ["a", "b", "c"]
    assert c.units_per_annotator().tolist() == [3, 2, 0]
    assert iaa.gamma(c, n_samples=3, seed=0).observed == pytest.approx(
        (2 * (2 + (1 / 19) ** 2) / 3 + 1) / (5 / 3))
    assert Continuum.from_frame(df).n_annotators == 2  # undeclared: only who placed units
    with pytest.raises(iaa.AgreementError, match=r"annotator not among the declared.*row\(s\) 3"):
        Continuum.from_frame(df, annotators=["a", "c"])
    with pytest.raises(iaa.AgreementError, match="declared annotators must be distinct"):
        Continuum.from_frame(df, annotators=["a", "b", "a"])


def test_units_too_far_apart_for_finite_distances_are_refused():
    """A unit from −1e308 made γ's distances overflow: γ_corpus then ran for minutes on
    inf and NaN and returned a number (found by tests/test_fuzz_public.py)."""
    import pandas as pd
    import pytest
    import iaa_widgets as iaa
    df = pd.DataFrame({"annotator": ["a", "b", "c"], "category": ["x"] * 3,
                       "start": [0.0, 5.0, -1e308], "end": [10.0, 12.0, 8.0]})
    with pytest.raises(iaa.AgreementError, match=r"too far apart .* \(row\(s\) 1, 2\)"):
        iaa.Continuum.from_frame(df)
    with pytest.raises(iaa.AgreementError, match="too far apart"):
        iaa.gamma_corpus(df.assign(document=[0, 0, 0]), progress=False)
