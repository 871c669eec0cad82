"""Issue 44: an unknown or misspelt keyword is refused everywhere, never taken for its
default; a former name given with its new one is refused, naming both. Issue 40: a former
name is not in a public signature.

The rule is in one place for the measures (the registry's door, measures/_registry.py),
and in ``validate.takes`` for the other public functions. No expected number here but
equalities between two spellings of the same call.
"""
from __future__ import annotations

import inspect
import re
import warnings

import pytest

import iaa_widgets as iaa
from iaa_widgets import validate
from iaa_widgets.datasets import crowd_labels, meyer_relatedness
from iaa_widgets.errors import AgreementError
from iaa_widgets.measures import _registry

MEASURES = _registry.measures()
MEYER = meyer_relatedness()  # two annotators r1, r2
CROWD = crowd_labels(n_items=60, n_annotators=8)


def _misspelt(m):
    """The measure's longest keyword with its second letter dropped, and that keyword."""
    name = max(m.keywords, key=len)
    return name[0] + name[2:], name


@pytest.mark.parametrize("m", MEASURES, ids=lambda m: m.name)
def test_every_measure_refuses_a_misspelt_keyword_naming_the_closest(m):
    wrong, right = _misspelt(m)
    with pytest.raises(AgreementError, match=rf"^{m.name} does not take {wrong}= \(did you "
                       rf"mean {right}=\?\); it takes .*\b{right}="):
        m.function(None, **{wrong: 1})  # refused before the data are read


@pytest.mark.parametrize("m", MEASURES, ids=lambda m: m.name)
def test_every_measure_lists_what_it_takes_and_no_former_name(m):
    params = inspect.signature(m.function).parameters
    with pytest.raises(AgreementError) as err:
        m.function(None, zzz=1)
    taken = str(err.value).split("; it takes ")[1]
    named = [p for p in list(params)[1:] if params[p].kind is not params[p].VAR_KEYWORD]
    assert taken.startswith(", ".join(f"{p}=" for p in named)), taken
    # issue 40: no parameter defaults to a sentinel; a former name is not a parameter
    assert all(p.default is not getattr(validate, "RENAMED", object())
               for p in params.values()), m.name
    assert set(getattr(m.function, "renamed", {})).isdisjoint(params), m.name


def test_a_misspelt_keyword_on_valid_data_is_refused_not_defaulted():
    # issue 44: weights= for percent_agreement and mising= for fleiss_kappa were computed
    # under the defaults without a word
    with pytest.raises(AgreementError, match=r"^percent_agreement does not take weights=; "
                       r"it takes missing=, annotators=, confidence=, ci=$"):
        iaa.percent_agreement(MEYER, weights="linear")
    with pytest.raises(AgreementError, match=r"fleiss_kappa does not take mising= \(did you "
                       r"mean missing=\?\)"):
        iaa.fleiss_kappa(CROWD, mising="listwise")
    with pytest.raises(AgreementError, match=r"cohen_kappa does not take weigths= "):
        iaa.cohen_kappa(iaa.sufficient_statistics(MEYER), weigths="linear")  # engines too
    with pytest.raises(AgreementError, match=r"augmented_kappa does not take itme= \(did you "
                       r"mean item=\?\)"):  # a loader's keyword, misspelt
        iaa.augmented_kappa(MEYER, itme="item")
    assert iaa.percent_agreement(MEYER, missing="listwise").value == \
        iaa.percent_agreement(MEYER).value  # the right names still pass


def test_former_and_new_name_together_are_refused_by_every_measure_that_renamed():
    renamed = [m for m in MEASURES if getattr(m.function, "renamed", None)]
    assert {m.name for m in renamed} >= {"sparse_agreement", "sparse_kappa"}
    stats = iaa.sufficient_statistics(CROWD)
    for m in renamed:
        for old, new in m.function.renamed.items():
            for data in (CROWD, stats):  # in memory and on the engine's tables
                with pytest.raises(AgreementError, match=rf"^{m.name}: {old}= and {new}= "
                                   rf"were both given; {old}= is the former name of {new}="):
                    m.function(data, **{old: "edges", new: "flat"})
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # the new name alone: no warning
        value = iaa.sparse_kappa(stats, scheme="edges").value
    with pytest.warns(DeprecationWarning, match="sparse_kappa: weights= is deprecated"):
        assert iaa.sparse_kappa(stats, weights="edges").value == value


def test_pairwise_benchmark_and_coefficients_refuse_unknown_and_doubled_names():
    with pytest.raises(AgreementError, match=r"^pairwise\('scott_pi'\) does not take "
                       r"weights=; it takes no keyword besides its data$"):
        iaa.pairwise(MEYER, "scott_pi", weights="linear")
    with pytest.raises(AgreementError, match=r"^pairwise\('cohen_kappa'\) does not take "
                       r"wieghts= \(did you mean weights=\?\); it takes weights=$"):
        iaa.pairwise(MEYER, "cohen_kappa", wieghts="linear")
    with pytest.raises(AgreementError, match=r"^pairwise: level= and confidence= were both "
                       "given"):
        iaa.pairwise(MEYER, ci="percentile", confidence=0.9, level=0.8)
    kappa = iaa.cohen_kappa(MEYER, annotators=["r1", "r2"])
    for call in (lambda: iaa.benchmark(kappa, confidence=0.9, level=0.8),
                 lambda: kappa.benchmark("fleiss", 0.9, level=0.8)):  # new one by position
        with pytest.raises(AgreementError, match=r"^benchmark: level= and confidence= were "
                           "both given"):
            call()
    with pytest.raises(AgreementError, match=r"^benchmark does not take scael= \(did you "
                       r"mean scale=\?\)"):
        kappa.benchmark(scael="fleiss")
    with pytest.raises(AgreementError, match=r"^coefficients does not take dat=; it takes "
                       r"no keyword besides its data$"):
        iaa.coefficients(dat=MEYER)
    for fn in (iaa.pairwise, iaa.benchmark, iaa.AgreementResult.benchmark):
        assert "level" not in inspect.signature(fn).parameters  # issue 40


def test_widgets_refuse_a_misspelt_option():
    # the options went on to Annotations.from_long: a raw TypeError
    with pytest.raises(AgreementError, match=r"^ContingencyMatrix does not take edtable= "
                       r"\(did you mean editable=\?\)"):
        iaa.ContingencyMatrix(MEYER, edtable=True)
    with pytest.raises(AgreementError, match=r"ContingencyMatrix does not take lable= \(did "
                       r"you mean label=\?\)"):  # a loader's option, misspelt
        iaa.ContingencyMatrix(MEYER, lable="label")
    with pytest.raises(AgreementError, match=r"^SparseAgreementExplorer does not take dorp= "
                       r"\(did you mean drop=\?\)"):
        iaa.SparseAgreementExplorer(CROWD, dorp=0.1)
    with pytest.raises(AgreementError, match=r"^AugmentedKappaSweep does not take delt= "
                       r"\(did you mean delta=\?\)"):
        iaa.AugmentedKappaSweep(iaa.datasets.email_types(n_messages=20), rank="rank", delt=1)


def test_functions_passing_keywords_to_a_loader_refuse_a_misspelt_one():
    # the keywords went on to Annotations.from_long or Continuum.from_frame: a TypeError,
    # or, for gamma_corpus, a message about loader options on a Continuum
    emails, units = iaa.datasets.email_types(n_messages=20), iaa.datasets.argument_units(5)
    calls = {r"augmented_kappa_sweep does not take dleta= \(did you mean delta=\?\)":
             lambda: iaa.augmented_kappa_sweep(emails, rank="rank", dleta=0.2),
             r"gamma_family does not take n_sampels= \(did you mean n_samples=\?\)":
             lambda: iaa.gamma_corpus({"doc": units}, n_sampels=3),
             r"as_annotations does not take itme= \(did you mean item=\?\)":
             lambda: iaa.as_annotations(MEYER, itme="item"),
             r"write_report does not take confdence= \(did you mean confidence=\?\)":
             lambda: iaa.write_report(MEYER, "never-written.html", confdence=0.9)}
    for message, call in calls.items():
        with pytest.raises(AgreementError, match="^" + message):
            call()


def test_no_public_signature_shows_a_sentinel():
    # issue 40: help() showed weights=<renamed>; every public callable's defaults read as
    # values
    for name in iaa.__all__:
        obj = getattr(iaa, name)
        if not callable(obj):
            continue
        try:
            text = str(inspect.signature(obj))
        except (TypeError, ValueError):  # a class without an introspectable signature
            continue
        assert not re.search(r"=<\w+>", text), (name, text)
