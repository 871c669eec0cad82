"""Cohen's κ carried to many annotators by averaging (Light 1971; Hubert 1977), and the
largest κ the annotators' marginals allow (Cohen 1960; Umesh, Peterson & Sauber 1989).
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ... import stats
from ...errors import AgreementError
from ...results import AgreementResult
from ...stats import per_item
from ...stats.statistic import DENSE_CELLS
from .. import _formulas as F
from .classic import (TWO_ONLY, _point, _public, _result, _statistic, _table_statistic, _z,
                      davies_fleiss_kappa)
from .._prepare import prepare
from .pairwise import KERNELS
from ..weights import agreement_weights
from .._registry import register
from .. import _engine

__all__ = ["light_kappa", "hubert_kappa", "kappa_max"]

COMPLETE = ("listwise", "raise")


# ------------------------------------------------------------------ Light (1971)
def _light_engine(s, measure, *, weights=None, missing="listwise", annotators=None,
                  **_) -> _engine.Totals:
    """Light's totals from sufficient statistics: each pair's Σ_jk w_jk t_pjk over the
    items every annotator rated (their pair tables), the annotators' counts n_rc and
    the number of those items (the tables of :func:`_light_parts`)."""
    _engine.whole_panel(s, measure.name, annotators)
    used, excluded = _engine.policy(s, measure.name, missing, measure.missing)
    t = s.complete_pair_tables
    if t is None:
        raise AgreementError("light_kappa: these statistics were made without pair "
                             "tables; call sufficient_statistics(..., pairs=True)")
    w, w_name = agreement_weights(weights, s.categories, s.ordered, measure.name)
    r = s.n_annotators
    totals = {"agree": np.einsum("pjk,jk->p", t, w)[None],
              "n_rc": s.annotator_counts[r].reshape(1, -1), "items": s.sizes[r:r + 1, None]}
    stat = measure.statistic(s.stand_in(), weights=weights, missing=missing)
    return _engine.Totals({k: np.asarray(v, dtype=float) for k, v in totals.items()},
                          stat.finish, used, excluded, {"weights": w_name, "missing": missing})


@register(family='chance-corrected agreement', data='categorical', annotators='many',
          source='Light (1971); jackknife SE', symbol='κ (Light)',
          intervals=('jackknife wald',), missing=('listwise', 'raise'),
          engine=_light_engine)
def light_kappa(data, *, weights=None, missing: str = "listwise", annotators=None,
                confidence: float = 0.95) -> AgreementResult:
    """Light's (1971) κ: the mean over the r(r − 1)/2 annotator pairs of their Cohen's
    κ, each pair's κ over the items every annotator rated (R's ``irr::kappam.light``;
    ``weights`` as :func:`cohen_kappa`, the mean of weighted κ's as R's ``psy::lkappa``).

    ``observed`` and ``expected``: the means over pairs of A_o and A_e (κ_L is the mean
    of the pairs' ratios, not the ratio of these means: that is :func:`hubert_kappa`).
    ``params["pairs"]``: each pair's κ. A pair with A_e = 1 has no κ: the value is NaN.

    ``se``: the jackknife standard error over items, √((n − 1)/n Σ_i (κ_(i) − κ̄_(·))²),
    with κ_(i) the value without item i (Light gives no variance for the mean of the
    pairs' κ's; the pairs share items and annotators, so their covariances matter);
    ``ci`` the Wald interval κ ± z·se, ``params["z"]`` = κ / se and its two-sided
    ``p_value``. irr's z uses another variance (README "Differences from other
    software"). ``missing``: "listwise" (default, irr's ``na.omit``) or "raise".
    """
    z_crit = _z("light_kappa", confidence)
    prep, stat, w_name = _light_parts(data, weights=weights, missing=missing,
                                      annotators=annotators)
    value, a_o, a_e = _point(stat)
    r = prep.ann.n_annotators
    pairs = stats.all_pairs(r)
    t = stats.pair_contingencies(prep.ann, pairs, items=prep.used).astype(float)
    w = agreement_weights(weights, prep.ann.categories, prep.ann.ordered, prep.measure)[0]
    kappas = KERNELS["cohen_kappa"][0](t, weights=w)
    names = prep.ann.annotators
    params = {"weights": w_name, "confidence": confidence,
              "pairs": {f"{names[a]} – {names[b]}": float(k) for (a, b), k in zip(pairs, kappas)}}
    extra, note = {}, ""
    n = prep.n_items
    if math.isnan(value):
        note = ("a pair's expected agreement is 1 (its two annotators each used one "
                "category), so its κ and their mean are undefined (NaN)")
    elif n >= 2:
        jack = stat.jackknife()[prep.used]
        se = math.sqrt((n - 1) / n * float(np.sum((jack - jack.mean()) ** 2)))
        extra = {"se": se, "ci": (value - z_crit * se, value + z_crit * se),
                 "ci_method": f"Wald, jackknife standard error {confidence:.0%}"}
        z = value / se if se > 1e-12 else float("nan")  # below: rounding noise of 0
        params.update(z=z, p_value=math.erfc(abs(z) / math.sqrt(2)))
        undefined = int(np.isnan(jack).sum())
        if undefined:
            which = f"one of {undefined} items" if undefined > 1 else "one item"
            note = ("the standard error, interval, z and p_value are undefined (NaN): "
                    f"leaving out {which} makes a pair's expected agreement 1, so the "
                    "jackknife values are not all defined")
        elif math.isnan(z):
            note = ("z and p_value are undefined (NaN): leaving out any one item leaves "
                    "the value unchanged, so the jackknife standard error is 0")
    return _result("light_kappa", prep, value, a_o, a_e, note=note, params=params, **extra)


def _light_parts(data, *, weights=None, missing="listwise", annotators=None):
    prep = prepare(data, "light_kappa", missing=missing, annotators=annotators,
                   identity=True, policies=COMPLETE)
    w, w_name = agreement_weights(weights, prep.ann.categories, prep.ann.ordered, prep.measure)
    r, k = prep.ann.n_annotators, prep.ann.n_categories
    pairs = stats.all_pairs(r)
    x = prep.ann._label_grid()[prep.used]  # complete: every annotator rated every item
    n = len(x)
    item_rows = np.flatnonzero(prep.used)
    tables = {"agree": _pair_agreement(x, pairs, w, item_rows, prep.ann.n_items),
              "n_rc": per_item(np.repeat(item_rows, r), (np.arange(r) * k + x).ravel(),
                               prep.ann.n_items, r * k),
              "items": np.ones((n, 1))}

    def finish(tot):  # κ_L = mean_p (A_o,p − A_e,p) / (1 − A_e,p) (Light 1971)
        with np.errstate(divide="ignore", invalid="ignore"):
            a_o = tot["agree"] / tot["items"]
            p = tot["n_rc"].reshape(-1, r, k) / tot["items"][:, :, None]
        g = np.matmul(p @ w, np.swapaxes(p, 1, 2))  # Σ_ij p_ai w_ij p_bj, all a, b
        a_e = g[:, pairs[:, 0], pairs[:, 1]]
        kappa = F.chance_corrected(a_o, a_e)
        return kappa.mean(axis=1), a_o.mean(axis=1), a_e.mean(axis=1)
    made = {"agree": (len(pairs),), "n_rc": (r * k,)}
    return prep, _statistic(prep, tables, finish, made), w_name


def _pair_agreement(x, pairs, w, item_rows, n_rows):
    """The items × pairs table of each pair's agreement weight w[x_ia, x_ib] (the
    Statistic of the pairs' observed agreements), built in blocks of items and kept
    sparse (only the nonzero weights) beyond ``DENSE_CELLS`` cells."""
    n_pairs = len(pairs)
    if n_rows * n_pairs <= DENSE_CELLS:
        out = np.zeros((n_rows, n_pairs))
        out[item_rows] = w[x[:, pairs[:, 0]], x[:, pairs[:, 1]]]
        return out
    rows, cols, vals = [], [], []
    step = max(1, DENSE_CELLS // n_pairs)
    for s in range(0, len(x), step):
        v = w[x[s:s + step, pairs[:, 0]], x[s:s + step, pairs[:, 1]]]
        i, p = np.nonzero(v)
        rows.append(item_rows[s + i])
        cols.append(p)
        vals.append(v[i, p])
    return per_item(np.concatenate(rows), np.concatenate(cols), n_rows, n_pairs,
                    np.concatenate(vals))


def _light_statistic(data, **kwargs):
    kwargs.pop("confidence", None)
    return _light_parts(data, **kwargs)[1]


light_kappa.statistic = _light_statistic


# ------------------------------------------------------------------ Hubert (1977)
@register(family='chance-corrected agreement', data='categorical', annotators='many',
          source='Hubert (1977)', symbol='κ (Hubert)', intervals=('jackknife wald',),
          missing=('listwise', 'raise'), engine=_engine.multi_rater(singles=False))
def hubert_kappa(data, *, missing: str = "listwise", annotators=None,
                 confidence: float = 0.95) -> AgreementResult:
    """Hubert's (1977) κ as DKPro Agreement defines it (``HubertKappaAgreement``, which
    cites Hubert 1977, Conger 1980 and Davies & Fleiss 1982 together): the observed
    agreement averaged over annotator pairs, A'_o = mean_i Σ_c n_ic(n_ic − 1)/(r(r − 1)),
    with the pairwise chance agreement A'_e = mean over annotator pairs (a, b) of
    Σ_c p_ac p_bc, p_ac annotator a's share of category c. On complete data this is
    Davies & Fleiss' multi-κ (Conger's κ), which computes it:
    ``davies_fleiss_kappa(data, missing="listwise")``, its standard error included.
    ``missing``: "listwise" (default) or "raise" (DKPro warns on missing values and
    defines it on complete data only).
    """
    if missing not in COMPLETE:
        raise AgreementError(f"hubert_kappa: missing must be one of {list(COMPLETE)!r} "
                             f"(defined on complete data), got {missing!r}; "
                             "davies_fleiss_kappa takes missing='available'")
    result = davies_fleiss_kappa(data, missing=missing, annotators=annotators,
                                 confidence=confidence)
    note = "; ".join(filter(None, [result.note, "equal to davies_fleiss_kappa (Conger's κ) "
                                   "on complete data"]))
    return replace(result, measure="hubert_kappa", note=note)


def _hubert_statistic(data, *, missing="listwise", annotators=None, **_):
    if missing not in COMPLETE:
        raise AgreementError(f"hubert_kappa: missing must be one of {list(COMPLETE)!r}")
    return davies_fleiss_kappa.statistic(data, missing=missing, annotators=annotators)


hubert_kappa.statistic = _hubert_statistic


# --------------------------------------------------------------------- κ_max
@register(family='chance-corrected agreement', data='categorical', annotators='two',
          source='Cohen (1960); Umesh, Peterson & Sauber (1989)', symbol='κ_max',
          missing=('listwise', 'raise'), engine=_engine.pair_table)
def kappa_max(data, *, weights=None, missing: str = "listwise",
              annotators=None) -> AgreementResult:
    """Cohen's (1960) κ_max = (A_max − A_e) / (1 − A_e): the largest κ two annotators
    could reach with their marginal distributions (row shares p_i·, column shares p_·j)
    kept. Unweighted: A_max = Σ_c min(p_c·, p_·c) (Cohen 1960). Weighted (``weights``
    as :func:`cohen_kappa`): A_max = max Σ_ij w_ij p_ij over the tables p ≥ 0 with
    those marginals, a transportation linear programme (Umesh, Peterson & Sauber 1989),
    solved with scipy's HiGHS.

    ``value`` is κ_max, ``observed`` A_max, ``expected`` A_e; ``params``: the data's κ
    and κ / κ_max (the share of the attainable agreement beyond chance). NaN, with a
    note, where A_e = 1. ``missing``: "listwise" (default) or "raise".
    """
    prep, stat = _kappa_max_statistic(data, weights=weights, missing=missing,
                                      annotators=annotators)
    value, a_max, a_e = _point(stat)
    t = prep.contingency().astype(float)
    w = agreement_weights(weights, prep.ann.categories, prep.ann.ordered, prep.measure)[0]
    kappa = float(KERNELS["cohen_kappa"][0](t, weights=w))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = kappa / value if value != 0 else float("nan")
    return _result("kappa_max", prep, value, a_max, a_e,
                   params={"weights": agreement_weights(weights, prep.ann.categories,
                                                        prep.ann.ordered)[1],
                           "kappa": kappa, "kappa_over_max": ratio})


def _max_agreement(row: np.ndarray, col: np.ndarray, w: np.ndarray) -> float:
    """max Σ_ij w_ij p_ij subject to Σ_j p_ij = row_i, Σ_i p_ij = col_j, p ≥ 0."""
    from scipy.optimize import linprog
    k = len(row)
    eq = np.vstack([np.kron(np.eye(k), np.ones(k)), np.kron(np.ones(k), np.eye(k))])
    res = linprog(-w.ravel(), A_eq=eq, b_eq=np.concatenate([row, col]), bounds=(0, None),
                  method="highs")
    if not res.success:  # the marginals always admit the independence table
        raise AgreementError(f"kappa_max: the linear programme failed ({res.message})")
    return float(-res.fun)


def _kappa_max_statistic(data, *, weights=None, missing="listwise", annotators=None, **_):
    prep = prepare(data, "kappa_max", missing=missing, annotators=annotators, two=True,
                   item_weights=True, identity=True, policies=TWO_ONLY)
    w, name = agreement_weights(weights, prep.ann.categories, prep.ann.ordered, prep.measure)
    identity = np.array_equal(w, np.eye(len(w)))

    def finish(tot):  # κ_max = (A_max − A_e) / (1 − A_e) (Cohen 1960), from the margins
        with np.errstate(divide="ignore", invalid="ignore"):
            n = tot["row"].sum(axis=1)[:, None]
            row, col = tot["row"] / n, tot["col"] / n
        if identity:  # Σ_c min(p_c·, p_·c)
            a_max = np.minimum(row, col).sum(axis=1)
        else:  # one linear programme per resample (Umesh et al. 1989)
            a_max = np.array([_max_agreement(a, b, w) if np.isfinite(a).all() else np.nan
                              for a, b in zip(row, col)])
        a_e = F.margins_cohen_expected(tot["row"], tot["col"], None if identity else w)
        return F.chance_corrected(a_max, a_e), a_max, a_e
    return prep, _table_statistic(prep, finish)


kappa_max.statistic = _public(_kappa_max_statistic)
