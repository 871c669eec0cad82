"""Every public name's docstring is a numpydoc entry (issue 40), and its Examples run.

The checks are numpydoc's own validator (``numpydoc.validate``, test-only), limited to
the sections a reader relies on: each parameter documented (PR01) and no unknown one
(PR02), a Returns section for a function (RT01), See Also (SA01) and Examples (EX01).
Style codes (summary on one line, and so on) are not enforced: the house voice of short,
equation-citing sentences stays. The Examples run as doctests with ``iaa``, ``np`` and
``pd`` in scope; their printed numbers are the documented results of each function.
"""
from __future__ import annotations

import doctest
import inspect
import warnings

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa

numpydoc_validate = pytest.importorskip("numpydoc.validate")

REQUIRED = {"GL08", "PR01", "PR02", "RT01", "SA01", "EX01"}
PUBLIC = sorted(iaa.__all__)


def _target(name: str):
    return getattr(iaa, name)


def _path(obj) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"


def _documented(name: str) -> bool:
    obj = _target(name)
    return inspect.isclass(obj) or inspect.isfunction(obj) or inspect.ismethod(obj) \
        or callable(obj)


@pytest.mark.parametrize("name", [n for n in PUBLIC if _documented(n)])
def test_numpydoc_sections(name):
    obj = _target(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # sections numpydoc does not know
        report = numpydoc_validate.validate(_path(obj))
    errors = {code for code, _ in report["errors"]} & REQUIRED
    if inspect.isclass(obj):
        errors.discard("RT01")  # a class documents its attributes, not a return value
    missing = [msg for code, msg in report["errors"] if code in errors]
    assert not missing, f"{name}: {missing}"


def _examples(name: str) -> list[doctest.DocTest]:
    obj = _target(name)
    finder = doctest.DocTestFinder(recurse=False)
    globs = {"iaa": iaa, "np": np, "pd": pd}
    return [t for t in finder.find(obj, name, globs=globs) if t.examples]


@pytest.mark.parametrize("name", [n for n in PUBLIC if _examples(n)])
def test_examples_run(name):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in _examples(name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
