"""Kendall's coefficient of concordance W (Kendall & Babington Smith 1939), with the
correction for tied ranks, its χ² test and the F test of Kendall (1948) as Legendre
(2005) gives it.

Orientation: the items are the objects ranked, the annotators the judges. Each judge's
labels are turned into ranks 1 … n over the n items used (tied labels share their
average rank), so the labels need an order the user gave (numbers, an ordered pandas
Categorical or ``categories=``); an order found by sorting text is refused.

Everything comes from two small tables, without sorting: the judge × category counts
t_jc (from which each label's average rank for judge j is
Σ_{c' < c} t_jc' + (t_jc + 1)/2) and the per-item rank sums R_i.
"""
from __future__ import annotations

import math

import numpy as np

from ... import validate
from ...data import as_annotations, noted
from ...errors import AgreementError, rows_text
from ...results import AgreementResult
from ...stats import Statistic
from ._anova import mid_ranks
from .._registry import register

__all__ = ["kendall_w"]

POLICIES = ("listwise", "available", "raise")


@register(family='correlation and variance', data='ranked', annotators='many',
          source='Kendall & Babington Smith (1939); Legendre (2005); Brueckl (2011)',
          symbol='W (Kendall)', missing=('listwise', 'available', 'raise'),
          range=(0.0, 1.0))
def kendall_w(data, *, correct: bool = True, missing: str = "listwise") -> AgreementResult:
    r"""Kendall's W for m judges (annotators) ranking n objects (items).

    W = 12 S / (m²(n³ − n) − m Σ_j T_j) with S = Σ_i (R_i − m(n + 1)/2)² the squared
    deviations of the items' rank sums R_i and T_j = Σ_groups (t³ − t) over the groups
    of t tied ranks of judge j (Kendall 1948; ``correct=False`` drops the Σ T_j
    term, as R's ``irr::kendall`` does by default). 0 ≤ W ≤ 1.

    ``params``: ``chi2`` = m(n − 1)W on ``df`` = n − 1 with its upper-tail ``p_value``
    (the large-sample test; with the tie correction it is Friedman's tie-corrected χ²,
    so W = χ²_Friedman / (m(n − 1))); the F test ``F`` = (m − 1)W / (1 − W) on
    ``df1`` = n − 1 − 2/m and ``df2`` = (m − 1)·df1 with ``p_value_F`` (Kendall 1948;
    Legendre 2005), an alternative to the χ² test; ``ties`` = Σ_j T_j.
    ``observed`` and ``expected`` are NaN (W is not a chance-corrected agreement).

    ``missing``:

    - "listwise" (default): the items ranked by every judge, re-ranked among
      themselves; the others are excluded and counted (as ``irr::kendall`` does).
    - "raise": refuse any missing rank.
    - "available": W for randomly incomplete rankings, Brueckl's (2011) generalisation
      (R's ``irrNA::kendallNA``, and ``DescTools::KendallW`` on data with NA), from
      Kendall's (1962) identity W = (1 + (m − 1) ρ̄)/m between W and the mean Spearman
      correlation ρ̄ of the judge pairs. For each pair (a, b) of judges, ρ_ab is
      Spearman's ρ over the n_ab items both ranked, re-ranked among those items (tied
      labels share their mean rank: Pearson's r of the mid-ranks, as R's
      ``cor(method="spearman", use="pairwise.complete.obs")``); ρ̄ = Σ w_ab ρ_ab / Σ w_ab
      over the pairs with weights w_ab = max(n_ab − 1, 0) (Taylor 1987); a pair whose ρ
      is undefined (one judge gave its common items one rank) enters with ρ_ab = 0 and
      its weight, as irrNA does. Then W = (1 + (k̄ − 1) ρ̄) / k̄ with k̄ the mean number
      of judges per item, χ² = k̄(n − 1)W on n − 1 df (Brueckl 2011). Judges with fewer
      than two ranks carry no pair and are left out (``params["judges_left_out"]``),
      and so are their ranks in k̄, as irrNA does; items with no rank by the others are
      excluded and counted (irrNA keeps all-empty rows in n and k̄ with 0 ranks).
      ``params``: ``mean_rho`` (ρ̄), ``mean_judges`` (k̄), ``chi2``, ``df``,
      ``p_value``. On complete data without ties every w_ab is n − 1 and
      ρ̄ = (mW − 1)/(m − 1) (Kendall 1962), so this W is Kendall's W; with ties it
      corrects each ρ_ab for its own ties, which differs slightly from the tie-corrected
      W (Brueckl 2011; the irrNA documentation says so). It is a function of the ranks
      of every pair, computed one judge at a time over that judge's items (O(n m²),
      memory n × m), with no loop over pairs. ``correct=False`` is refused with it.

    The bootstrap goes through ``kendall_w.statistic`` (see `_statistic`): every
    rank depends on all the items ranked, so a resample's ranks are recomputed from its
    item weights, exactly.

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Ranks or scores (numbers, or labels in a declared order), one per judge and item.
    correct : bool, default True
        Apply the tie correction Σ_j T_j (False: irr's default, no correction).
    missing : {"listwise", "available", "raise"}, default "listwise"
        As listed above.

    Returns
    -------
    AgreementResult
        ``value`` (W), ``params`` (``chi2``, ``df``, ``p_value``, ``F``, ``df1``, ``df2``,
        ``p_value_F``, ``ties``; for "available" ``mean_rho`` and ``mean_judges``),
        ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        When the labels are neither numbers nor in a declared order, fewer than two
        judges or items remain, ``correct=False`` is asked with "available", or
        ``missing="raise"`` meets a missing rank.

    See Also
    --------
    mean_spearman_rho : the mean pairwise rank correlation ρ̄, W = (1 + (m − 1)ρ̄)/m.
    icc : intraclass correlation of the scores themselves.

    Notes
    -----
    Kendall & Babington Smith (1939), with R_i the rank sums and T_j judge j's ties:

    $$W = \frac{12 S}{m^2 (n^3 - n) - m \sum_j T_j}, \quad
    S = \sum_i \left(R_i - \frac{m(n+1)}{2}\right)^2, \quad \chi^2 = m(n-1)W.$$

    References
    ----------
    Kendall, M. G. & Babington Smith, B. (1939). The problem of m rankings. The Annals
    of Mathematical Statistics, 10(3), 275–287. https://doi.org/10.1214/aoms/1177732186

    Legendre, P. (2005). Species associations: the Kendall coefficient of concordance
    revisited. Journal of Agricultural, Biological, and Environmental Statistics, 10(2),
    226–245. https://doi.org/10.1198/108571105X46642

    Brueckl, M. (2011). Übereinstimmungsmaße für Ratingskalen mit fehlenden Werten
    [Agreement measures for rating scales with missing values]. Dissertation, Freie
    Universität Berlin.

    Examples
    --------
    irr's anxiety data (20 subjects × 3 raters); R's ``DescTools::KendallW(anxiety, TRUE)``
    prints 0.5396569:

    >>> anxiety = pd.DataFrame(
    ...     [[3, 3, 2], [3, 6, 1], [3, 4, 4], [4, 6, 4], [5, 2, 3], [5, 4, 2], [2, 2, 1],
    ...      [3, 4, 6], [5, 3, 1], [2, 3, 1], [2, 2, 1], [6, 3, 2], [1, 3, 3], [5, 3, 3],
    ...      [2, 2, 1], [2, 2, 1], [1, 1, 3], [2, 3, 3], [4, 3, 2], [3, 4, 2]],
    ...     columns=["r1", "r2", "r3"])
    >>> data = iaa.Annotations.from_wide(anxiety)
    >>> round(iaa.kendall_w(data).value, 7)
    0.5396569
    """
    measure = "kendall_w"
    correct = validate.boolean(measure, "correct", correct)
    validate.choice(measure, "missing", missing, POLICIES)
    if missing == "available" and not correct:
        raise AgreementError(
            f"{measure}: missing='available' (Brueckl's W for incomplete rankings) corrects "
            "ties pair by pair through Spearman's ρ; correct=False is not defined for it. "
            "Use correct=True, or missing='listwise' for the uncorrected W")
    ann, prim, m, k = _ranked(data, measure)
    if missing == "available":
        return _available(ann, prim, measure)
    judge, label, row, n, excluded = _complete_ranks(ann, prim, missing, measure)
    # t_jc: how many items judge j put in category c; ranks in the declared order
    cell = judge * k + label
    t = np.bincount(cell, minlength=m * k).reshape(m, k).astype(float)
    avg_rank = mid_ranks(t)  # mid-rank of each tie group
    rank_sum = np.bincount(row, weights=avg_rank.ravel()[cell], minlength=n)  # R_i
    s = float(np.sum((rank_sum - m * (n + 1) / 2) ** 2))  # S
    ties = float(np.sum(t ** 3 - t))  # Σ_j T_j
    denom = m * m * (n ** 3 - n) - (m * ties if correct else 0.0)
    value = 12 * s / denom if denom > 0 else float("nan")
    params = {"missing": missing, "annotators": list(ann.annotators), "correct": correct,
              "ties": ties, **_tests(value, m, n)}
    note = "W is a coefficient of concordance: no observed or expected agreement"
    if math.isnan(value):
        note += "; W is 0/0: every judge gave all the items the same rank"
    elif ties and not correct:
        note += (f"; {int(np.count_nonzero(t > 1))} group(s) of tied ranks, not corrected "
                 "for (correct=False)")
    return _result(ann, measure, value, n, m, len(label), excluded, params, note)


def _ranked(data, measure: str):
    """The data as judges' ranks: (Annotations with one row per item, its primary
    labels, m judges, K categories), refusing anonymous counts, labels with no order and
    fewer than two judges."""
    ann = as_annotations(data)
    if ann.anonymous:
        raise AgreementError(
            f"{measure} ranks each judge's labels, but this data was built from per-item "
            "counts (Annotations.from_counts), where judges are anonymous; load the ratings "
            "with from_long/from_wide")
    if not ann.ordered:
        raise AgreementError(
            f"{measure} ranks the labels, so they need an order: numbers, an ordered pandas "
            f"Categorical or categories=[...] in rank order; the labels "
            f"{list(ann.categories[:6])!r} have none (text is never sorted to make one)")
    ann = ann.expanded(measure)
    prim = ann.primary()
    m, k = ann.n_annotators, ann.n_categories
    if m < 2:
        raise AgreementError(f"{measure}: needs at least two judges (annotators), got {m}")
    return ann, prim, m, k


def _complete_ranks(ann, prim, missing: str, measure: str):
    """The ratings of the items every judge ranked (missing "listwise"; "raise" refuses
    any other item): (judge, label, row among those items, their number n, excluded)."""
    m = ann.n_annotators
    per_item = np.bincount(prim.item, minlength=ann.n_items)
    excluded: dict[str, int] = {}
    if np.any(per_item == 0):
        excluded["not rated"] = int(np.count_nonzero(per_item == 0))
    short = np.flatnonzero((per_item > 0) & (per_item < m))
    if len(short) and missing == "raise":
        raise AgreementError(
            f"{measure}: {len(short)} item(s) lack a rank by some of the {m} judges (items "
            f"{rows_text(ann.items[short])}); pass missing='listwise' to drop them")
    if len(short):
        excluded[f"ranked by fewer than all {m} judges"] = len(short)
    used = per_item == m
    n = int(used.sum())
    if n < 2:
        raise AgreementError(f"{measure}: needs at least two items ranked by every judge, "
                             f"got {n}")
    judge, label, row = prim.annotator, prim.label, prim.item
    if n < len(used):  # only the ratings of the items used, their rows renumbered
        keep = used[row]
        judge, label, row = judge[keep], label[keep], (np.cumsum(used) - 1)[row[keep]]
    return judge, label, row, n, excluded


def _statistic(data, *, correct: bool = True, missing: str = "listwise") -> Statistic:
    """``kendall_w.statistic(data, **kw)``. The ranks of a resample depend on every item
    drawn, so W is no sum of fixed per-item tables: the table is each item row's own
    weight (W @ I = W, the resample's item weights are its totals), and ``finish``
    recomputes, for a block of B resamples at once and exactly as on the rebuilt
    resample (a drawn item counts as often as it is drawn, its copies tied): the judge ×
    category counts t_jc(w) = Xᵀw (X: items × m·K indicators of the ratings of the items
    used), their mid-ranks, the rank sums R = X·ranks, S = Σ_i w_i (R_i − m(n + 1)/2)²
    and the ties, as sparse products: O(N) per resample. ``missing="available"``
    (Brueckl's W from pairwise Spearman ρ): ``finish`` calls :func:`kendall_w` on each
    resample rebuilt from its weights (exact, one fit per resample)."""
    from scipy import sparse
    measure = "kendall_w"
    correct = validate.boolean(measure, "correct", correct)
    validate.choice(measure, "missing", missing, POLICIES)
    kendall_w(data, correct=correct, missing=missing)  # the same refusals as the measure
    ann, prim, m, k = _ranked(data, measure)
    identity = {"w": sparse.identity(ann.n_items, format="csr")}
    if missing == "available":
        return Statistic(identity, {"w": (ann.n_items,)}, lambda tot: _refitted(
            ann, tot["w"], correct), None)
    judge, label, row, n, _ = _complete_ranks(ann, prim, missing, measure)
    used = np.flatnonzero(np.bincount(prim.item, minlength=ann.n_items) == m)
    x = sparse.csr_matrix((np.ones(len(row)), (used[row], judge * k + label)),
                          shape=(ann.n_items, m * k))  # X: item × (judge, category)
    is_used = np.zeros(ann.n_items)
    is_used[used] = 1.0

    def finish(tot):
        w = tot["w"]                                                  # B × items
        t = np.asarray((x.T @ w.T).T)                                 # B × m·K: t_jc(w)
        n_w = w @ is_used                                             # items per resample
        ranks = mid_ranks(t.reshape(len(w), m, k)).reshape(len(w), m * k)
        r = np.asarray(x @ ranks.T)                                   # items × B: R_i
        s = np.einsum("bi,ib->b", w * is_used, (r - m * (n_w + 1) / 2) ** 2)  # S
        ties = np.sum(t ** 3 - t, axis=1)                             # Σ_j T_j
        denom = m * m * (n_w ** 3 - n_w) - (m * ties if correct else 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(denom > 0, 12 * s / np.where(denom > 0, denom, 1), np.nan)
        return value, np.full(len(w), np.nan), np.full(len(w), np.nan)
    return Statistic(identity, {"w": (ann.n_items,)}, finish, None)


def _refitted(ann, w: np.ndarray, correct: bool) -> tuple:
    """W (missing="available") of each resample rebuilt from its item weights w (B × items):
    item i repeated w_i times; NaN where W is refused (too few items or judges)."""
    from ...stats.resampling import _resample  # the bootstrap's own rebuilding of a resample
    out = np.full(len(w), np.nan)
    by_item = np.argsort(ann.item, kind="stable")
    sizes = np.bincount(ann.item, minlength=ann.n_items)
    starts = np.cumsum(sizes) - sizes
    for b, weights in enumerate(np.rint(w).astype(np.int64)):
        drawn = np.repeat(np.arange(ann.n_items), np.maximum(weights, 0))
        part = _resample(ann, by_item, starts, sizes, drawn)
        try:
            out[b] = kendall_w(part, correct=correct, missing="available").value
        except AgreementError:
            pass
    return out, np.full(len(w), np.nan), np.full(len(w), np.nan)


def _available(ann, prim, measure: str) -> AgreementResult:
    """Brueckl's (2011) W for incomplete rankings (see :func:`kendall_w`)."""
    m, k = ann.n_annotators, ann.n_categories
    judged = np.bincount(prim.annotator, minlength=m)
    keep = judged >= 2  # a judge with one rank shares no pair of items (irrNA drops it)
    if keep.sum() < 2:
        raise AgreementError(f"{measure}: needs at least two judges with two ranks or more; "
                             f"got {int(keep.sum())}")
    sel = keep[prim.annotator]
    judge = (np.cumsum(keep) - 1)[prim.annotator[sel]]
    row, label = prim.item[sel], prim.label[sel]
    per_item = np.bincount(row, minlength=ann.n_items)
    used = per_item > 0
    excluded = {"not rated": int(np.count_nonzero(~used))} if not used.all() else {}
    n, mk = int(used.sum()), int(keep.sum())
    if n < 2:
        raise AgreementError(f"{measure}: needs at least two items ranked, got {n}")
    grid = np.full((ann.n_items, mk), -1, dtype=np.int64)
    grid[row, judge] = label
    rho, n_ab = _pair_spearman(grid[used], k)
    a, b = np.triu_indices(mk, 1)
    w = np.maximum(n_ab[a, b] - 1, 0).astype(float)  # Taylor (1987) weights
    r_ab = np.nan_to_num(rho[a, b], nan=0.0)  # undefined ρ counts as 0 (irrNA)
    mean_rho = float(w @ r_ab / w.sum()) if w.sum() > 0 else float("nan")
    k_bar = float(per_item[used].mean())  # mean number of judges per item
    value = (1 + (k_bar - 1) * mean_rho) / k_bar  # W = (1 + (k̄ − 1) ρ̄)/k̄ (Kendall 1962)
    from scipy.stats import chi2
    x2 = k_bar * (n - 1) * value
    params = {"missing": "available", "annotators": list(ann.annotators[keep]),
              "correct": True, "definition": "Brueckl (2011), irrNA::kendallNA",
              "mean_rho": mean_rho, "mean_judges": k_bar, "chi2": x2, "df": n - 1,
              "p_value": float(chi2.sf(x2, n - 1)) if not math.isnan(x2) else x2,
              "judges_left_out": list(ann.annotators[~keep])}
    note = ("W for incomplete rankings: (1 + (k̄ − 1) ρ̄)/k̄ from the weighted mean pairwise "
            "Spearman ρ̄ (Brueckl 2011); no observed or expected agreement")
    if math.isnan(value):
        note += "; no pair of judges shares two items: ρ̄ and W are undefined (NaN)"
    if (~keep).any():
        note += f"; {int((~keep).sum())} judge(s) with fewer than two ranks left out"
    return _result(ann, measure, value, n, mk, len(label), excluded, params, note)


def _pair_spearman(grid: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(ρ, n): m × m Spearman correlations of every pair of judges over the items both
    ranked, each pair re-ranked on its common items (mid-ranks for ties), and the number
    of those items. ``grid``: items × judges category codes in rank order, -1 missing.

    One judge a at a time, over the items a ranked: for every other judge b at once,
    t_bc counts a's labels c on the items b also ranked (and u_bc b's labels there), so
    that the mid-rank of label c within pair (a, b) is Σ_{c' < c} t_bc' + (t_bc + 1)/2;
    ρ_ab is Pearson's r of the two mid-ranks over those items."""
    m = grid.shape[1]
    rho, n_ab = np.full((m, m), np.nan), np.zeros((m, m), dtype=np.int64)
    block = np.arange(m) * k  # column b's cells: b·K + label
    for a in range(m):  # a loop over judges; each step is vectorised over items × judges
        g = grid[grid[:, a] >= 0]
        both = g >= 0  # the items a and b both ranked, one column per b
        mine = block + g[:, a, None]               # a's label, in b's block of cells
        theirs = block + np.where(both, g, 0)      # b's label (masked where b did not rank)
        count = both.sum(axis=0)
        t_mine = np.bincount(mine[both], minlength=m * k).reshape(m, k)
        t_theirs = np.bincount(theirs[both], minlength=m * k).reshape(m, k)
        r_mine, r_theirs = _centred_mid_ranks(t_mine, count), _centred_mid_ranks(t_theirs,
                                                                                 count)
        # Σ over the common items of the product of the two centred mid-ranks, and each
        # one's Σ of squares (from the counts: t_c items at the mid-rank of c)
        cov = np.einsum("ij,ij->j", r_mine.ravel()[mine] * both, r_theirs.ravel()[theirs])
        var = np.sum(t_mine * r_mine ** 2, axis=1) * np.sum(t_theirs * r_theirs ** 2, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            rho[a] = np.where(var > 0, cov / np.sqrt(var), np.nan)
        n_ab[a] = count
    return rho, n_ab


def _centred_mid_ranks(t: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Per row, each category's mid-rank among the row's n items minus their mean
    (n + 1)/2."""
    return mid_ranks(t) - (n[:, None] + 1) / 2


def _tests(w: float, m: int, n: int) -> dict:
    """χ² = m(n − 1)W on n − 1 df; F = (m − 1)W/(1 − W) on (n − 1 − 2/m, (m − 1)(n − 1 − 2/m))
    df (Kendall 1948; Legendre 2005)."""
    from scipy.stats import chi2, f as fdist

    if math.isnan(w):
        nan = float("nan")
        return {"chi2": nan, "df": n - 1, "p_value": nan, "F": nan, "df1": nan, "df2": nan,
                "p_value_F": nan}
    x2 = m * (n - 1) * w
    df1 = n - 1 - 2 / m
    df2 = (m - 1) * df1
    f0 = (m - 1) * w / (1 - w) if w < 1 else float("inf")
    return {"chi2": x2, "df": n - 1, "p_value": float(chi2.sf(x2, n - 1)), "F": f0,
            "df1": df1, "df2": df2,
            "p_value_F": float(fdist.sf(f0, df1, df2)) if df1 > 0 else float("nan")}


def _result(ann, measure: str, value: float, n: int, m: int, n_ratings: int, excluded,
            params: dict, note: str) -> AgreementResult:
    """W's result: a concordance has no observed/expected agreement (NaN there)."""
    if ann.has_secondary:
        params["labels"] = "primary (secondary labels ignored)"
    note, params = noted(ann, note, params)
    return AgreementResult(measure=measure, value=value, observed=float("nan"),
                           expected=float("nan"), n_items=n, n_annotators=m,
                           n_ratings=n_ratings, excluded=excluded, params=params,
                           note=note)


kendall_w.statistic = _statistic
