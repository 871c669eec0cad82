"""Percent agreement with a tolerance: ratings whose scores differ by at most t agree
(R's ``irr::agree(ratings, tolerance)``, "extended percentage agreement").
"""
from __future__ import annotations

import math

import numpy as np

from ... import validate
from ...results import AgreementResult
from ..continuous._anova import scores
from .classic import _point, _public, _z
from .._registry import register

__all__ = ["tolerance_agreement"]

POLICIES = ("listwise", "available", "pairable", "raise")


@register(family='observed agreement', data='categorical', annotators='many',
          source='R irr::agree (Gamer et al.)', symbol='agreement within a tolerance',
          intervals=('wald',), missing=('listwise', 'available', 'pairable', 'raise'),
          range=(0.0, 1.0))
def tolerance_agreement(data, *, tolerance: float = 0, rule: str = "range",
                        missing: str = "listwise", annotators=None,
                        confidence: float = 0.95) -> AgreementResult:
    r"""The share of items on which the annotators agree within a tolerance t, in score units.

    Scores are numeric labels, or positions 1 … K of a declared order: t = 1 then means
    "adjacent categories agree" (R's ``irr::agree(ratings, tolerance)``, "extended
    percentage agreement"). It is not chance-corrected: ``expected`` is NaN.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The ratings: [Annotations][iaa_widgets.Annotations] (per-item counts from
        ``Annotations.from_counts`` included: neither rule needs to know who rated), or a
        tidy table with columns ``item``, ``annotator``, ``label``. Text labels need a
        declared order when t > 0.
    tolerance : float, default 0
        t ≥ 0, in score units. With t = 0 agreement is identity of labels, which needs no
        order.
    rule : {"range", "pairs"}, default "range"
        "range" (irr's ``agree``): item i agrees when all its scores lie within a band of
        width t. "pairs" (our extension, the tolerance version of Fleiss' A'_o): the share
        of the item's pairs of ratings within t. For two annotators both are the same.
    missing : {"listwise", "available", "pairable", "raise"}, default "listwise"
        "listwise": the items every annotator rated (irr's ``na.omit``). "available" and
        "pairable": the items rated at least twice, each over its own ratings; items rated
        once excluded, counted. "raise": refuse data with a missing rating.
    annotators : sequence of str, optional
        The annotators to use, by name (default: all).
    confidence : float, default 0.95
        Level of the Wald interval ``ci``, in (0, 1).

    Returns
    -------
    AgreementResult
        ``value`` and ``observed``: the share A (irr prints it × 100); ``expected``: NaN;
        ``se`` and the Wald ``ci``; ``params``: ``tolerance``, ``rule``, ``missing``.

    Raises
    ------
    AgreementError
        If ``tolerance`` is negative or not a number, ``rule`` or ``missing`` is not one of
        the values above, text labels have no declared order for t > 0, or no item is left
        under the policy.

    See Also
    --------
    iaa_widgets.percent_agreement : The "pairs" rule with t = 0.
    iaa_widgets.krippendorff_alpha : α with an interval or ordinal metric.
    iaa_widgets.icc : Intraclass correlation of numeric scores.

    Notes
    -----
    With scores $x_{ir}$ of item $i$ (Gamer et al., irr's ``agree``):

    $$a_i^{\text{range}} = [\max_r x_{ir} - \min_r x_{ir} \le t], \qquad
    a_i^{\text{pairs}} = \frac{\sum_{r \ne s} [|x_{ir} - x_{is}| \le t]}{m_i(m_i - 1)},
    \qquad A = \frac{1}{n}\sum_i a_i .$$

    With t = 0 "range" is the share of unanimous items and "pairs" is percent agreement.
    $\mathrm{SE} = \sqrt{\sum_i (a_i - A)^2 / n}/\sqrt{n}$, as percent agreement's.
    irr ignores ``tolerance`` for non-numeric ratings (it requires identical labels);
    here the tolerance applies to the declared order's positions. Ratings stay in long
    form (no items × categories table): continuous ratings cost what their ratings cost.

    References
    ----------
    Gamer, M., Lemon, J., Fellows, I., & Singh, P. (2019). irr: Various coefficients
    of interrater reliability and agreement (R package 0.84.1), function ``agree``.
    https://CRAN.R-project.org/package=irr

    Examples
    --------
    irr's ``video`` data (20 videos, 4 raters): irr's manual prints ``agree(video)``
    %-agree = 35 and ``agree(video, tolerance=1)`` %-agree = 90.

    >>> rows = ("4 4 3 4;4 4 4 5;4 4 5 5;4 4 4 4;4 3 2 4;4 4 3 4;4 3 2 5;4 4 3 4;4 3 3 4;"
    ...         "4 3 3 4;4 4 3 4;4 3 3 4;4 4 4 4;4 4 4 4;4 4 3 4;4 4 4 4;4 4 4 4;4 4 4 4;"
    ...         "4 4 4 4;4 5 5 4")
    >>> wide = pd.DataFrame([r.split() for r in rows.split(";")]).astype(int)
    >>> data = iaa.Annotations.from_wide(wide)
    >>> round(iaa.tolerance_agreement(data).value, 4)
    0.35
    >>> round(iaa.tolerance_agreement(data, tolerance=1).value, 4)
    0.9
    """
    validate.choice("tolerance_agreement", "rule", rule, ("range", "pairs"))
    z = _z("tolerance_agreement", confidence)
    sc, stat = _tolerance_statistic(data, tolerance=tolerance, rule=rule,
                                    missing=missing, annotators=annotators)
    a_i = stat.tables["agree"][sc.used, 0]
    a_o = _point(stat)[0]
    se = math.sqrt(float(np.mean((a_i - a_o) ** 2)) / len(a_i))
    return sc.result("tolerance_agreement", a_o, a_o, float("nan"), se=se,
                     ci=(a_o - z * se, a_o + z * se), ci_method=f"wald {confidence:.0%}",
                     note="percent agreement is not chance-corrected: no expected "
                          "agreement (NaN)",
                     params={"missing": missing, "tolerance": tolerance, "rule": rule,
                             "confidence": confidence})


def _tolerance_statistic(data, *, tolerance=0, rule="range", missing="listwise",
                         annotators=None, **_):
    tolerance = validate.real("tolerance_agreement", "tolerance", tolerance, minimum=0)
    validate.choice("tolerance_agreement", "missing", missing, POLICIES)
    # "available": the items rated at least twice, each over its own ratings
    sc = scores(data, "tolerance_agreement", annotators=annotators, policies=POLICIES,
                missing="pairable" if missing == "available" else missing, identity=False,
                min_items=1, points="scores" if tolerance else "codes")  # t = 0: equality
    order = np.argsort(sc.item, kind="stable")  # the ratings item by item
    item, x = sc.item[order], sc.points[sc.label[order]]
    first = np.r_[True, item[1:] != item[:-1]]
    start = np.flatnonzero(first)
    block = np.cumsum(first) - 1  # each rating's item, numbered 0 … n − 1
    m = np.diff(np.r_[start, len(item)])
    if rule == "range":  # max − min of the item's scores (irr's agree)
        spread = np.maximum.reduceat(x, start) - np.minimum.reduceat(x, start)
        a_i = (spread <= tolerance + 1e-12 * max(1.0, np.abs(sc.points).max()))
    else:  # share of ordered rating pairs within t: each unordered pair once, at its
        near = np.zeros(len(start))  # offset d within the item's block (d < max m_i)
        for d in range(1, int(m.max())):
            hit = (block[d:] == block[:-d]) & (np.abs(x[d:] - x[:-d]) <= tolerance)
            near += np.bincount(block[:-d][hit], minlength=len(start))
        a_i = 2 * near / (m * (m - 1))

    def finish(tot):  # A = Σ_i w_i a_i / Σ_i w_i
        with np.errstate(divide="ignore", invalid="ignore"):
            a = tot["agree"][:, 0] / tot["items"][:, 0]
        return a, a, np.full_like(a, np.nan)
    tables = {"agree": sc.padded(a_i.astype(float)[:, None]),
              "items": sc.padded(np.ones((len(a_i), 1)))}
    return sc, sc.statistic(tables, {"agree": (1,), "items": (1,)}, finish)


tolerance_agreement.statistic = _public(_tolerance_statistic)
