"""Annotator × annotator matrices of a two-annotator coefficient.

One ``stats.pair_contingencies`` bincount gives the P × K × K contingency tables of
all annotator pairs (each over the items both rated); the coefficient is then one
vectorised evaluation of its formula over the leading axis.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from .. import stats, validate
from ..data import as_annotations, noted
from ..errors import AgreementError, rows_text
from ..results import PairwiseMatrix
from . import _formulas as F
from ._order import by_label

__all__ = ["pairwise"]


def _percent(t):
    return F.table_observed(t)


def _bennett(t):
    return F.chance_corrected(F.table_observed(t), F.bennett_expected(t))


def _scott(t):
    return F.chance_corrected(F.table_observed(t), F.scott_expected(t))


def _cohen(t, weights=None):
    w = np.eye(t.shape[-1]) if weights is None else weights  # resolved by pairwise
    return F.chance_corrected(F.table_observed(t, w), F.cohen_expected(t, w))


def _alpha(t, metric="nominal", category_values=None):
    from .alpha import alpha_from_coincidences
    # a pair's coincidences are its contingency table plus its transpose
    # (Krippendorff 2011, "coincidence matrix"); items rated by one only are unpairable
    value, _, _ = alpha_from_coincidences(t + np.swapaxes(t, -1, -2), metric,
                                          category_values=category_values)
    return value


# name -> (vectorised formula over P × K × K tables, keyword arguments it accepts)
KERNELS: dict[str, tuple[Callable, tuple]] = {
    "percent_agreement": (_percent, ()),
    "bennett_s": (_bennett, ()),
    "scott_pi": (_scott, ()),
    "cohen_kappa": (_cohen, ("weights",)),
    "krippendorff_alpha": (_alpha, ("metric", "category_values")),
}


def pairwise(data, measure="cohen_kappa", *, missing: str = "pairwise",
             diagonal: float = np.nan, **kwargs) -> PairwiseMatrix:
    """A symmetric annotator × annotator DataFrame of ``measure`` on every pair
    (Datasaur's labeler/reviewer matrix).

    ``missing``: "pairwise" (default) uses, for each pair, the items both annotators
    rated; "listwise" only the items rated by every annotator, so that all cells
    share the same items (refused when no item is); "raise" refuses data with a
    missing rating.

    ``measure``: "percent_agreement", "bennett_s", "scott_pi", "cohen_kappa" (with
    ``weights=``) or "krippendorff_alpha" (with ``metric=``; for "interval" and
    "ratio" the categories' numeric values, and for a callable metric the category
    labels, are used unless ``category_values`` is given). Weight and distance
    matrices follow :func:`cohen_kappa` and :func:`krippendorff_alpha`: a DataFrame is
    aligned by label, a bare array needs a declared order. These are evaluated for all
    pairs at once from their contingency tables.
    A callable ``measure(annotations, **kwargs)`` returning a number or an
    AgreementResult is also accepted; it is called once per pair (a Python loop, so
    slower). ``diagonal`` fills the annotator-with-itself cells (NaN by default). A
    pair with no item in common, or whose expected agreement is 1, gets NaN.
    ``result.attrs["n_items"]`` holds the number of items each pair shares (a list of
    rows in the order of the annotators); ``result.attrs["note"]`` what the data says of
    itself (look-alike labels, blank labels), empty if nothing.
    Refuses anonymous data from ``Annotations.from_counts``.
    """
    if not callable(measure) and not (isinstance(measure, str) and measure in KERNELS):
        validate.fail("pairwise", "measure", f"one of {list(KERNELS)!r} or a callable (for "
                      "all annotators at once use fleiss_kappa, davies_fleiss_kappa or "
                      "krippendorff_alpha)", measure)
    validate.choice("pairwise", "missing", missing, ("pairwise", "listwise", "raise"))
    diagonal = validate.real("pairwise", "diagonal", diagonal, nan=True)
    ann = as_annotations(data)
    if ann.anonymous:
        raise AgreementError("pairwise needs to know which annotator gave each label, but "
                             "this data was built from per-item counts "
                             "(Annotations.from_counts), where annotators are anonymous")
    rated = np.bincount(ann.primary().item, minlength=ann.n_items)
    complete = rated == ann.n_annotators
    if missing == "raise" and not complete.all():
        raise AgreementError(f"pairwise: {int((~complete).sum())} item(s) lack a rating by "
                             f"some annotator (items {rows_text(ann.items[~complete])}); pass "
                             "missing='pairwise' or 'listwise'")
    if missing == "listwise":
        if not complete.any():
            raise AgreementError(f"pairwise: no item is rated by all {ann.n_annotators} "
                                 "annotators, so missing='listwise' leaves no item to compare; "
                                 "pass missing='pairwise' to use, for each pair, the items "
                                 "both annotators rated")
        ann = ann._take(complete[ann.item])
    pairs = stats.all_pairs(ann.n_annotators)
    t = stats.pair_contingencies(ann, pairs)
    shared = t.sum(axis=(1, 2))
    if callable(measure):
        values = np.array([
            float(measure(ann.select_annotators(ann.annotators[list(p)]), **kwargs))
            if n else np.nan for p, n in zip(pairs, shared)])
        name = getattr(measure, "__name__", "measure")
    else:  # one of KERNELS (validated above)
        kernel, accepted = KERNELS[measure]
        unknown = sorted(set(kwargs) - set(accepted))
        if unknown:
            raise AgreementError(f"pairwise {measure!r} does not take {unknown!r}; it accepts "
                                 f"{list(accepted)!r}")
        if measure == "krippendorff_alpha":
            from .alpha import category_values
            metric = kwargs.get("metric", "nominal")
            labels = category_values(ann, metric)  # refuses an order nobody declared
            if isinstance(metric, pd.DataFrame):  # aligned by label, then by position
                kwargs["metric"] = by_label(metric, ann.categories, "the distance matrix")
            elif kwargs.get("category_values") is None and labels is not None:
                kwargs["category_values"] = labels
        args = dict(kwargs)
        if measure == "cohen_kappa":  # a labelled matrix aligned, an order declared
            args["weights"] = F.agreement_weights(kwargs.get("weights"), ann.categories,
                                                  ann.ordered)[0]
            if isinstance(kwargs.get("weights"), pd.DataFrame):  # kept in category order
                kwargs["weights"] = args["weights"]
        values = np.asarray(kernel(t.astype(float), **args), dtype=float)
        values = np.where(shared > 0, values, np.nan)
        name = measure
    out = np.full((ann.n_annotators, ann.n_annotators), diagonal)
    out[pairs[:, 0], pairs[:, 1]] = values
    out[pairs[:, 1], pairs[:, 0]] = values
    n_items = np.zeros((ann.n_annotators, ann.n_annotators), dtype=np.int64)
    n_items[pairs[:, 0], pairs[:, 1]] = shared
    n_items[pairs[:, 1], pairs[:, 0]] = shared
    names = pd.Index(ann.annotators, name=None)
    frame = PairwiseMatrix(out, index=names, columns=names)  # a DataFrame with .chart()
    frame.attrs["measure"] = name
    # attrs hold plain lists (pandas compares attrs when combining frames)
    frame.attrs["n_items"] = n_items.tolist()
    frame.attrs["params"] = {k: np.asarray(v).tolist() if isinstance(v, np.ndarray) else v
                             for k, v in kwargs.items()} | {"missing": missing}
    frame.attrs["note"], frame.attrs["params"] = noted(ann, "", frame.attrs["params"])
    return frame
