"""Per-label agreement for multi-label (set-valued) annotation.

Each label l of the sets becomes a binary rating: an annotator's set on an item either
holds l (present) or not (absent); a missing rating stays missing, and an empty set is
a rating with every label absent. Agreement is then computed label by label, as
practitioners report it beside α with the MASI or Jaccard distance (Passonneau 2006).
"""
from __future__ import annotations

from typing import Callable, Sequence, Union

import numpy as np
import pandas as pd

from ... import validate
from ...data import Annotations, as_annotations
from ...errors import AgreementError
from ...results import AgreementResult
from ..continuous.alpha import alpha_from_coincidences, set_membership

__all__ = ["per_label"]

Measure = Union[str, Callable]
COLUMNS = ["label", "value", "observed", "expected", "prevalence", "n_items"]


def per_label(data, measure: Measure = "krippendorff_alpha", *,
              labels: Sequence | None = None, **options) -> pd.DataFrame:
    r"""Agreement on each label of set-valued annotations, as a binary present/absent
    rating per (item, annotator).

    ``data``: `Annotations` or a tidy table whose labels are sets
    (frozensets) of labels; primary labels only. ``measure``: ``"krippendorff_alpha"``
    (default; nominal α on the binary ratings, all labels in one pass: per item n_i1(l)
    = Σ_c n_ic [l ∈ c] present values out of m_i, coincidences o_11 = Σ_i n_i1(n_i1 −
    1)/(m_i − 1), o_00 likewise for the absent values, o_01 = Σ_i n_i1 n_i0/(m_i − 1),
    Krippendorff 2011), or any categorical measure of this package, by name
    (``"cohen_kappa"``, ``"fleiss_kappa"``, ``"scott_pi"`` …) or as the function, which
    is called once per label on the binary Annotations (categories False < True) with
    ``options``. ``labels``: the labels to report and their order (a label nobody chose
    may be named: its value is NaN, with prevalence 0); every label used must be
    among them. By default the labels in order of first appearance in the categories.

    One row per label: ``value``; ``observed`` and ``expected`` (D_o, D_e for α; A_o,
    A_e for κ-type measures: ``attrs["scale"]`` says which); ``prevalence``, the share
    of ratings (all primary ratings, pairable or not) whose set holds the label;
    ``n_items``, the items that entered the measure (for α: rated at least twice).
    ``attrs`` also carry the measure's name and what it ``excluded``.

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Set-valued labels (each a frozenset of labels), one per (item, annotator).
    measure : str or callable, default "krippendorff_alpha"
        A categorical measure of this package, by name or as the function.
    labels : sequence, optional
        The labels to report, in this order (default: in order of first appearance).
    **options
        Passed to ``measure`` for each label.

    Returns
    -------
    pandas.DataFrame
        One row per label: label, value, observed, expected, prevalence, n_items;
        ``attrs`` hold the measure's name, ``scale`` and what it ``excluded``.

    Raises
    ------
    AgreementError
        When the labels are not sets, a label used is missing from ``labels``, the
        measure is unknown or not categorical, or the measure refuses the binary data.

    See Also
    --------
    krippendorff_alpha : α on whole sets with ``metric="masi"`` or ``"jaccard"``.
    set_distances : distances between sets.
    cohen_kappa : a measure to pass as ``measure``.

    Notes
    -----
    For α, each label l gives binary values; with $n_{i1}$ the present values of item i
    out of $m_i$ (Krippendorff 2011):

    $$o_{11} = \sum_i \frac{n_{i1}(n_{i1} - 1)}{m_i - 1}, \quad
    o_{01} = \sum_i \frac{n_{i1}\, n_{i0}}{m_i - 1}, \quad
    \alpha_l = 1 - (n - 1)\frac{2\,o_{01}}{2\,n_0 n_1}.$$

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg
    School for Communication, University of Pennsylvania.
    https://repository.upenn.edu/asc_papers/43

    Examples
    --------
    By hand: label a is present or absent for both annotators alike (α = 1); label b
    always splits them: o_01 = o_10 = 2, D_o = 1, D_e = 2/3, α = −1/2. Item 3 is rated
    once and excluded:

    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3], "annotator": ["x", "y", "x", "y", "x"],
    ...                    "label": [frozenset("ab"), frozenset("a"), frozenset(),
    ...                              frozenset("b"), frozenset("a")]})
    >>> table = iaa.per_label(df, labels=["a", "b"])
    >>> table[["label", "value", "prevalence"]]
      label  value  prevalence
    0     a    1.0         0.6
    1     b   -0.5         0.4
    """
    ann = as_annotations(data).primary()
    b, universe = set_membership(ann.categories, "per_label")
    b, universe = _declared(b, universe, labels)
    present, m = _present(ann, b)
    weights = np.ones(ann.n_items) if ann.item_weight is None else \
        ann.item_weight.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        prevalence = (weights @ present) / (weights @ m)
    if isinstance(measure, str) and measure == "krippendorff_alpha" and not options:
        value, observed, expected, n_items, excluded, scale = _alpha(present, m, weights)
    else:
        value, observed, expected, n_items, excluded, scale = _each(ann, b, measure, options)
    out = pd.DataFrame({"label": universe, "value": value, "observed": observed,
                        "expected": expected, "prevalence": prevalence,
                        "n_items": n_items}, columns=COLUMNS)
    out.attrs.update(measure=measure if isinstance(measure, str) else
                     getattr(measure, "__name__", repr(measure)),
                     scale=scale, excluded=excluded)
    return out


def _present(ann: Annotations, b: np.ndarray):
    """n_i1(l) = Σ_c n_ic [l ∈ c], items × labels, and m_i, the ratings of item i: the
    sparse item × category counts times the membership matrix, so memory follows items ×
    labels even when there are thousands of distinct sets."""
    from scipy.sparse import csr_matrix  # loads on first use: `import iaa_widgets` stays light
    count = np.ones(ann.n_ratings) if ann.rating_count is None else \
        ann.rating_count.astype(float)          # how many ratings each rating row stands for
    counts = csr_matrix((count, (ann.item, ann.label)), shape=(ann.n_items, len(b)))
    return np.asarray(counts @ b), np.bincount(ann.item, weights=count, minlength=ann.n_items)


def _declared(b: np.ndarray, universe: pd.Index, labels):
    """The membership columns in the order of ``labels`` (all-zero for a label no set
    holds); refuses labels= that leaves out a label in use or repeats one."""
    if labels is None:
        return b, universe
    declared = pd.Index(list(labels), dtype=object)
    if not declared.is_unique:
        raise AgreementError(f"per_label: labels= must be distinct, got {list(labels)!r}")
    left_out = universe[~universe.isin(declared)]
    if len(left_out):
        raise AgreementError(f"per_label: labels= leaves out label(s) {list(left_out)[:8]!r} "
                             "that the annotators used; name every label (nothing is "
                             "dropped silently)")
    pos = universe.get_indexer(declared)
    cols = np.zeros((len(b), len(declared)))
    cols[:, pos >= 0] = b[:, pos[pos >= 0]]
    return cols, declared


def _alpha(present: np.ndarray, m: np.ndarray, weights: np.ndarray):
    """Nominal α of every label at once from its 2 × 2 coincidences (categories absent,
    present), Krippendorff (2011)."""
    pairable = m >= 2
    if not pairable.any():
        raise AgreementError("per_label: no item has two or more ratings, so no values are "
                             "pairable; Krippendorff's α needs items rated by at least two "
                             "annotators")
    g = np.divide(weights, m - 1, out=np.zeros_like(m), where=pairable)  # w_i/(m_i − 1)
    absent = m[:, None] - present               # n_i0(l) = m_i − n_i1(l)
    o = np.empty((present.shape[1], 2, 2))
    o[:, 1, 1] = g @ (present * (present - 1))  # o_11 = Σ_i n_i1(n_i1 − 1)/(m_i − 1)
    o[:, 0, 0] = g @ (absent * (absent - 1))    # o_00 = Σ_i n_i0(n_i0 − 1)/(m_i − 1)
    o[:, 0, 1] = o[:, 1, 0] = g @ (present * absent)  # o_01 = Σ_i n_i1 n_i0/(m_i − 1)
    value, d_o, d_e = alpha_from_coincidences(o, "nominal")
    excluded = {"items with a single rating (unpairable)": int(weights[m == 1].sum()),
                "items with no rating": int(weights[m == 0].sum())}
    n_items = int(weights[pairable].sum())
    return (value, d_o, d_e, n_items, {k: v for k, v in excluded.items() if v},
            "disagreement")


def _each(ann: Annotations, b: np.ndarray, measure: Measure, options: dict):
    """Any categorical measure, called once per label on the binary ratings (present:
    True) built from the rating codes (no loop over items)."""
    fn = _measure(measure)
    single = ann.expanded("per_label") if ann.weighted else ann  # one row per rating
    frame = single.to_long()
    holds = b[single.label] > 0                 # ratings × labels: [l ∈ rating's set]
    rows = []
    for col in range(b.shape[1]):
        binary = Annotations.from_long(frame.assign(label=holds[:, col]),
                                       categories=[False, True])
        res = fn(binary, **options)
        if not isinstance(res, AgreementResult):
            validate.fail("per_label", "measure", "a categorical measure returning an "
                          "AgreementResult (e.g. 'cohen_kappa')", measure)
        rows.append((res.value, res.observed, res.expected, res.n_items, res.excluded,
                     res.scale))
    if not rows:
        return [], [], [], [], {}, "agreement"
    value, observed, expected, n_items, excluded, scale = zip(*rows)
    return value, observed, expected, n_items, dict(excluded[0]), scale[0]


def _measure(measure: Measure) -> Callable:
    """The measure function named ``measure`` (a categorical coefficient of the
    registry), or the callable."""
    if callable(measure):
        return measure
    from .._registry import find
    m = find(measure) if isinstance(measure, str) else None
    if m is None or m.data not in ("categorical", "ranked", "numeric"):  # ratings of items
        validate.fail("per_label", "measure", "the name of a categorical measure of "
                      "iaa_widgets (e.g. 'krippendorff_alpha', 'cohen_kappa', "
                      "'fleiss_kappa') or such a function", measure)
    return m.function
