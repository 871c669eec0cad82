"""Every public function and widget constructor refuses a wrongly typed or out-of-range
parameter with an AgreementError naming the function, the parameter and the value
(iaa_widgets.validate), never a TypeError from numpy, a traitlets error or a silent NaN.

Table-driven: each case calls one public callable on small valid data from
iaa_widgets.datasets with valid options (checked by test_valid_options_are_accepted),
then with one option replaced by each bad value of its kind.
"""
import math
import re

import numpy as np
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, validate
from iaa_widgets.datasets import (argument_units, crowd_labels, email_types,
                                  krippendorff_2011, meyer_relatedness, review_spans)

NAN, INF = float("nan"), float("inf")
MEYER = meyer_relatedness()
K2011 = krippendorff_2011()
EMAILS = email_types(n_messages=40)
CROWD = crowd_labels(n_items=80, n_annotators=6)
UNITS = argument_units(n_units=6)
PAIR = ["r1", "r2"]
SWEEP = iaa.augmented_kappa_sweep(EMAILS, rank="rank")

# bad values of each kind of parameter
BAD = {
    "confidence": ["x", None, NAN, INF, 0, 1, 1.5, -0.2, True],
    "probability": ["0.5", None, NAN, INF, -0.1, 1.5, True],
    "count": ["10", None, 2.5, NAN, INF, 0, -3, True],            # integer ≥ 1
    "count2": ["10", None, 2.5, NAN, 1, -3, True],                 # integer ≥ 2
    "seed": ["abc", -1, 1.5, NAN, True, [1, "a"], {}],
    "choice": ["nope", None, 3, True, ["listwise"]],
    "boolean": ["yes", 1, None, NAN],
    "n_jobs": [0, -2, "4", 1.5, True],
    "nonnegative": ["1", None, NAN, INF, -1, True],
    "positive": ["1", None, NAN, INF, -1, 0, True],
    "finite": ["1", None, NAN, INF, -INF, True],
    "schemes": ["nope", [], ["flat", "nope"], [3], None, 5, ["flat", "flat"]],
    "names": ["r1", 3, ["r1"], None, ["r1", "r1"]],
    "texts": [3, None, True, [1]],
}

GAMMA = dict(n_samples=2, seed=0, progress=False)

# (function, data, valid options, parameter, kind of bad values)
CASES = [
    *[(f, MEYER, {}, "missing", "choice") for f in (
        iaa.percent_agreement, iaa.bennett_s, iaa.fleiss_kappa, iaa.davies_fleiss_kappa)],
    *[(f, MEYER, {}, "confidence", "confidence") for f in (
        iaa.percent_agreement, iaa.fleiss_kappa, iaa.davies_fleiss_kappa)],
    *[(f, MEYER, {}, "annotators", "names") for f in (
        iaa.percent_agreement, iaa.bennett_s, iaa.fleiss_kappa, iaa.davies_fleiss_kappa)],
    (iaa.specific_agreement, MEYER, {"positive": "high"}, "annotators", "names"),
    (iaa.scott_pi, MEYER, {"annotators": PAIR}, "annotators", "names"),
    (iaa.cohen_kappa, MEYER, {"annotators": PAIR}, "annotators", "names"),
    (iaa.percent_agreement, MEYER, {}, "ci", "choice"),
    (iaa.specific_agreement, MEYER, {"positive": "high"}, "missing", "choice"),
    (iaa.scott_pi, MEYER, {"annotators": PAIR}, "missing", "choice"),
    (iaa.cohen_kappa, MEYER, {"annotators": PAIR}, "missing", "choice"),
    (iaa.cohen_kappa, MEYER, {"annotators": PAIR}, "confidence", "confidence"),
    (iaa.cohen_kappa, MEYER, {"annotators": PAIR}, "weights", "choice"),
    (iaa.pairwise, MEYER, {}, "measure", "choice"),
    (iaa.pairwise, MEYER, {}, "missing", "choice"),
    (iaa.pairwise, MEYER, {}, "diagonal", "finite"),
    (iaa.krippendorff_alpha, K2011, {}, "metric", "choice"),
    (iaa.alpha_from_coincidences, np.array([[4.0, 1.0], [1.0, 4.0]]), {}, "metric", "choice"),
    (iaa.bootstrap, MEYER, {"measure": "fleiss_kappa", "n_resamples": 20}, "seed", "seed"),
    (iaa.bootstrap, MEYER, {"measure": "fleiss_kappa", "n_resamples": 20}, "n_resamples",
     "count2"),
    (iaa.bootstrap, MEYER, {"measure": "fleiss_kappa", "n_resamples": 20}, "confidence",
     "confidence"),
    (iaa.bootstrap, MEYER, {"measure": "fleiss_kappa", "n_resamples": 20}, "interval",
     "choice"),
    (iaa.bootstrap, MEYER, {"measure": "fleiss_kappa", "n_resamples": 20}, "measure",
     "choice"),
    (iaa.augmented_kappa, EMAILS, {"rank": "rank"}, "p", "probability"),
    (iaa.augmented_kappa_sweep, EMAILS, {"rank": "rank"}, "delta", "nonnegative"),
    (iaa.augmented_kappa_sweep, EMAILS, {"rank": "rank"}, "tau", "finite"),
    (iaa.augmented_kappa_sweep, EMAILS, {"rank": "rank"}, "ps", "probability"),
    (iaa.sparse_agreement, CROWD, {}, "scheme", "choice"),
    (iaa.sparse_kappa, CROWD, {}, "scheme", "choice"),
    *[(f, CROWD, valid, "class_probs", "choice") for f, valid in (
        (iaa.sparse_agreement, {}), (iaa.sparse_kappa, {}), (iaa.SpaMissingness, {}),
        (iaa.spa_variance_curve, {"n_rounds": 20, "n_points": 5}))],
    (iaa.spa_item_variance, None, {"n": [2, 3], "class_probs": [0.5, 0.5]}, "class_probs",
     "choice"),
    (iaa.spa_weight_curves, None, {"max_annotations": 5}, "max_annotations", "count2"),
    (iaa.spa_weight_curves, None, {"max_annotations": 5}, "schemes", "schemes"),
    (iaa.spa_weight_curves, None, {"max_annotations": 5, "n_classes": 3}, "n_classes",
     "count"),
    (iaa.spa_item_variance, None, {"n": [2, 3], "n_classes": 3}, "n_classes", "count"),
    (iaa.spa_variance_curve, CROWD, {"n_rounds": 20, "n_points": 5}, "n_rounds", "count2"),
    (iaa.spa_variance_curve, CROWD, {"n_rounds": 20, "n_points": 5}, "n_points", "count"),
    (iaa.spa_variance_curve, CROWD, {"n_rounds": 20, "n_points": 5}, "seed", "seed"),
    (iaa.spa_variance_curve, CROWD, {"n_rounds": 20, "n_points": 5}, "mode", "choice"),
    (iaa.spa_variance_curve, CROWD, {"n_rounds": 20, "n_points": 5}, "schemes", "schemes"),
    (iaa.spa_missingness, CROWD, {"drop": 0.2, "n_rounds": 10}, "drop", "probability"),
    (iaa.spa_missingness, CROWD, {"drop": 0.2, "n_rounds": 10}, "n_rounds", "count"),
    (iaa.spa_missingness, CROWD, {"drop": 0.2, "n_rounds": 10}, "seed", "seed"),
    (iaa.spa_missingness, CROWD, {"drop": 0.2, "n_rounds": 10}, "schemes", "schemes"),
    (iaa.SpaMissingness, CROWD, {}, "method", "choice"),
    (iaa.SpaMissingness, CROWD, {}, "schemes", "schemes"),
    *[(f, UNITS, GAMMA, name, kind) for f in (iaa.gamma_family, iaa.gamma)
      for name, kind in (("alpha", "nonnegative"), ("beta", "nonnegative"),
                         ("delta_empty", "positive"), ("n_samples", "count2"),
                         ("seed", "seed"), ("n_jobs", "n_jobs"), ("sampler", "choice"),
                         ("precision", "confidence"), ("progress", "choice"))],
    (iaa.gamma_cat, UNITS, GAMMA, "seed", "seed"),
    (iaa.gamma_k, UNITS, GAMMA, "n_samples", "count2"),
    (iaa.read_csv, None, {"path": "x.csv"}, "layout", "choice"),
    (iaa.read_csv, None, {"path": "x.csv"}, "na_values", "texts"),
    (iaa.read_continuum_csv, None, {"path": "x.csv"}, "delimiter", "texts"),
    (email_types, None, {"n_messages": 5}, "seed", "seed"),
    (email_types, None, {"n_messages": 5}, "n_messages", "count"),
    (email_types, None, {"n_messages": 5}, "with_kind", "boolean"),
    (crowd_labels, None, {"n_items": 5}, "seed", "seed"),
    (crowd_labels, None, {"n_items": 5}, "n_items", "count"),
    (crowd_labels, None, {"n_items": 5}, "class_probs", "choice"),
    (argument_units, None, {"n_units": 3}, "seed", "seed"),
    (argument_units, None, {"n_units": 3}, "miss", "probability"),
    (review_spans, None, {"n_spans": 5}, "seed", "seed"),
    (review_spans, None, {"n_spans": 5}, "hard", "probability"),
    (SWEEP.at, None, {"p": 0.6}, "p", "probability"),
    (SWEEP.with_classes, None, {}, "delta", "nonnegative"),
    (SWEEP.with_classes, None, {}, "tau", "finite"),
    (iaa.ContingencyMatrix, MEYER, {"pair": PAIR}, "editable", "boolean"),
    (iaa.AugmentedKappaSweep, EMAILS, {"rank": "rank"}, "p", "probability"),
    (iaa.AugmentedKappaSweep, EMAILS, {"rank": "rank"}, "delta", "nonnegative"),
    (iaa.AugmentedKappaSweep, EMAILS, {"rank": "rank"}, "tau", "finite"),
    (iaa.AugmentedKappaSweep, EMAILS, {"rank": "rank"}, "max_rows", "count"),
    (iaa.AugmentedKappaSweep, EMAILS, {"rank": "rank"}, "selected_class", "choice"),
    (iaa.SparseAgreementExplorer, CROWD, {"n_rounds": 10, "n_points": 5}, "drop",
     "probability"),
    (iaa.SparseAgreementExplorer, CROWD, {"n_rounds": 10, "n_points": 5}, "n_rounds",
     "count"),
    (iaa.SparseAgreementExplorer, CROWD, {"n_rounds": 10, "n_points": 5}, "n_points",
     "count"),
    (iaa.SparseAgreementExplorer, CROWD, {"n_rounds": 10, "n_points": 5}, "seed", "seed"),
    *[(iaa.GammaExplorer, UNITS, {"n_samples": 2}, name, kind)
      for name, kind in (("alpha", "nonnegative"), ("beta", "nonnegative"),
                         ("delta_empty", "positive"), ("n_samples", "count2"),
                         ("seed", "seed"))],
]

# values of a bad kind that a parameter accepts (its documented default)
ACCEPTED = {
    ("gamma_family", "precision"): [None], ("gamma", "precision"): [None],
    ("gamma_family", "progress"): [None, True], ("gamma", "progress"): [None, True],
    ("cohen_kappa", "weights"): [None],
    ("augmented_kappa_sweep", "ps"): [None],
    **{(name, "class_probs"): [None] for name in (
        "sparse_agreement", "sparse_kappa", "SpaMissingness", "spa_variance_curve")},
    ("AugmentedKappaSweep", "selected_class"): [None],
    ("pairwise", "diagonal"): [NAN],
    ("spa_weight_curves", "n_classes"): [None],
    ("read_csv", "na_values"): [None],
    **{(name, "annotators"): [None] for name in (
        "percent_agreement", "bennett_s", "fleiss_kappa", "davies_fleiss_kappa",
        "specific_agreement")},
}


def _name(fn):
    return getattr(fn, "__name__", type(fn).__name__)


def _call(fn, data, kwargs):
    kwargs = dict(kwargs)
    if data is None:
        return fn(**kwargs)
    if fn is iaa.bootstrap:  # data first (issue 40: the former order warns)
        return fn(data, kwargs.pop("measure"), **kwargs)
    return fn(data, **kwargs)


def _bad_cases():
    for fn, data, valid, param, kind in CASES:
        accepted = ACCEPTED.get((_name(fn), param), [])
        for value in BAD[kind]:
            if any(value is a or (type(value) is type(a) and value == a) for a in accepted):
                continue
            yield pytest.param(fn, data, valid, param, value,
                               id=f"{_name(fn)}-{param}-{value!r}")


@pytest.mark.parametrize("fn, data, valid, param, value", list(_bad_cases()))
def test_bad_parameter_raises_agreement_error_naming_it(fn, data, valid, param, value):
    with pytest.raises(AgreementError) as err:
        _call(fn, data, {**valid, param: value})
    message = str(err.value)
    assert re.search(rf"\b{re.escape(param)}\b", message), message


def _valid_cases():
    seen = set()
    for fn, data, valid, _, _ in CASES:
        key = (_name(fn), tuple(sorted(valid)))
        if key not in seen and fn not in (iaa.read_csv, iaa.read_continuum_csv):
            seen.add(key)
            yield pytest.param(fn, data, valid, id=key[0])


@pytest.mark.parametrize("fn, data, valid", list(_valid_cases()))
def test_valid_options_are_accepted(fn, data, valid):
    # the bad-value cases above differ from a working call in one parameter only
    _call(fn, data, valid)


# ------------------------------------------------------------- the validators
def test_messages_name_function_parameter_and_value():
    with pytest.raises(AgreementError, match=r"^bootstrap: seed must be None, an integer "
                                             r"≥ 0.*got 'abc'$"):
        validate.seed("bootstrap", "seed", "abc")
    with pytest.raises(AgreementError, match=r"^cohen_kappa: confidence must be a finite "
                                             r"number in \(0, 1\), got 'x'$"):
        validate.confidence("cohen_kappa", "confidence", "x")
    with pytest.raises(AgreementError, match=r"^f: n must be an integer ≥ 2, got True$"):
        validate.integer("f", "n", True, minimum=2)
    with pytest.raises(AgreementError, match=r"one of \['a', 'b'\], got 1$"):
        validate.choice("f", "x", 1, ["a", "b"])


def test_validators_return_plain_values():
    assert validate.integer("f", "n", np.int64(3), minimum=1) == 3
    assert type(validate.integer("f", "n", np.int64(3))) is int
    assert validate.real("f", "x", np.float32(0.5)) == 0.5
    assert validate.real("f", "x", INF, finite=False) == INF
    assert validate.confidence("f", "c", 0.9) == 0.9
    assert validate.boolean("f", "b", np.bool_(True)) is True
    assert validate.n_jobs("f", "n_jobs", -1) == -1 and validate.n_jobs("f", "j", None) is None
    for ok in (None, 0, 7, [1, 2], np.random.SeedSequence(1), np.random.default_rng(1)):
        assert validate.seed("f", "seed", ok) is ok
    assert validate.choice("f", "x", "a", ["a", "b"]) == "a"
    assert validate.choices("f", "x", ("b", "a"), ["a", "b"]) == ["b", "a"]


@pytest.mark.parametrize("value", [0, 1, -1e-9, 1 + 1e-9])
def test_confidence_is_open_and_probability_closed(value):
    with pytest.raises(AgreementError):
        validate.confidence("f", "level", value)
    if 0 <= value <= 1:
        assert validate.probability("f", "p", value) == value
    else:
        with pytest.raises(AgreementError):
            validate.probability("f", "p", value)


def test_bool_is_not_taken_for_an_option_equal_to_it():
    # True == 1 in Python; an option list with 1 must still refuse True
    with pytest.raises(AgreementError):
        validate.choice("f", "x", True, [1, 2])
    assert math.isnan(validate.real("f", "x", NAN, nan=True))


@pytest.mark.parametrize("widget, data, option", [
    (iaa.GammaExplorer, UNITS, {"alpha": "x"}),
    (iaa.SparseAgreementExplorer, CROWD, {"drop": "x"}),
    (iaa.AugmentedKappaSweep, EMAILS, {"p": "x", "rank": "rank"}),
    (iaa.ContingencyMatrix, MEYER, {"editable": "x"})])
def test_refused_widget_leaves_no_error_behind(widget, data, option, monkeypatch):
    # ipywidgets closes a widget when it is collected: a half-built one must close quietly
    import gc
    import sys
    raised = []
    monkeypatch.setattr(sys, "unraisablehook", raised.append)
    with pytest.raises(AgreementError):
        widget(data, **option)
    gc.collect()
    assert raised == []


def test_a_table_passed_where_a_parameter_is_expected_is_named_by_its_type():
    # a DataFrame's repr spans lines: the message names its type and shape instead;
    # a short value keeps its repr
    import pandas as pd
    with pytest.raises(AgreementError, match=r"path must be a CSV file's path or an open "
                       r"text file .*got a DataFrame of shape 2 × 1$"):
        iaa.read_continuum_csv(pd.DataFrame({"a": [1, 2]}))
    with pytest.raises(AgreementError, match=r"got 5$"):
        iaa.read_continuum_csv(5)


def _takes(data, *, missing="listwise", confidence=0.95):
    return missing, confidence


def test_unknown_keyword_is_named_with_the_closest_and_every_accepted_one():
    # issue 44: a misspelt keyword was taken for its default without a word
    with pytest.raises(AgreementError, match=r"^f does not take mising= \(did you mean "
                       r"missing=\?\); it takes missing=, confidence=$"):
        validate.keywords("f", {"mising": "raise"}, _takes)
    with pytest.raises(AgreementError, match=r"^f does not take mising= \(did you mean "
                       r"missing=\?\), zzz=; it takes"):
        validate.keywords("f", ["mising", "zzz"], ["missing", "confidence"])
    validate.keywords("f", {"missing": "raise"}, _takes)  # an accepted one passes
    validate.keywords("f", {"anything": 1}, lambda data, **kwargs: None)  # **kwargs takes all
    assert validate.keywords_of(_takes) == ("missing", "confidence")


def test_former_name_warns_and_is_out_of_the_signature():
    import inspect
    f = validate.takes(level="confidence")(_takes)
    assert "level" not in inspect.signature(f).parameters  # issue 40: no <renamed> default
    with pytest.warns(DeprecationWarning, match=r"_takes: level= is deprecated .* use "
                      r"confidence=") as record:
        assert f(1, level=0.9) == ("listwise", 0.9)
    assert record[0].filename == __file__  # at the user's line
    assert f(1, confidence=0.8) == ("listwise", 0.8)
    with pytest.raises(AgreementError, match=r"^_takes does not take levl=; it takes missing=, confidence=$"):
        f(1, levl=0.9)  # the decorated function refuses what it does not take


def test_former_and_new_name_together_are_refused_naming_both():
    # issue 44: bootstrap(confidence=0.99, level=0.9) kept 0.9 without a word
    f = validate.takes(level="confidence")(_takes)
    with pytest.raises(AgreementError, match=r"^_takes: level= and confidence= were both "
                       r"given; level= is the former name of confidence=: pass confidence= "
                       r"only$"):
        f(1, level=0.9, confidence=0.99)
    g = validate.takes(level="confidence")(lambda data, confidence=0.95: confidence)
    with pytest.raises(AgreementError, match="level= and confidence= were both given"):
        g(1, 0.99, level=0.9)  # the new one by position
