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
    """The share of items on which the annotators agree within ``tolerance`` t, in
    score units (numeric labels, or positions 1 … K of a declared order: t = 1 then
    means "adjacent categories agree"; text labels need a declared order).

    ``rule="range"`` (irr's ``agree``): item i agrees when max_r x_ir − min_r x_ir ≤ t,
    i.e. all its scores lie within a band of width t; ``value`` is the share of such
    items (irr prints it × 100). ``rule="pairs"`` (our extension, the tolerance
    version of Fleiss' A'_o): item i's agreement is the share of its ordered pairs of
    ratings within t, Σ_ck [|x_c − x_k| ≤ t] n_ic n_ik − m_i over m_i(m_i − 1); the
    value is their mean. For two annotators both are the same. With t = 0 "range" is
    the share of unanimous items and "pairs" is :func:`percent_agreement`.

    ``se``: √(Σ_i (a_i − A)² / n) / √n over the per-item agreements a_i, with a Wald
    interval (as :func:`percent_agreement`). ``missing``: "listwise" (default, irr's
    ``na.omit``), "available"/"pairable" (the items rated at least twice, each over
    its own ratings; items rated once excluded, counted) or "raise". Per-item counts
    (``Annotations.from_counts``) are accepted: neither rule needs to know who rated.
    Ratings stay in long form (no items × categories table), so continuous ratings
    cost what their ratings cost; the "pairs" rule compares each item's ratings two
    by two (Σ_i m_i² work, no table over pairs).

    irr ignores ``tolerance`` for non-numeric ratings (it requires identical labels);
    here the tolerance applies to the declared order's positions. With t = 0 agreement
    is identity of labels, which needs no order: text labels are then taken as they are.
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
