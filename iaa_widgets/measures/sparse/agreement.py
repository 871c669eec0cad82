"""Sparse Probability of Agreement (Nørregaard & Derczynski): the probability that two
random annotators agree on a random item, estimated when annotators label different
subsets of the items.

    P̄_spa = Σ_i k_i P̂_i / Σ_i k_i,   P̂_i = Σ_c n_ic (n_ic − 1) / (n_i (n_i − 1))   (eq. 7)

Items with fewer than two annotations have no P̂_i and are left out under every
weighting (§5.5: infinite variance, weight 0); the result counts them. With complete
data and flat weights P̄_spa is Fleiss' P̄ (eq. 2); with k_i = n_i it is Krippendorff's
nominal observed agreement 1 − D_o (eq. 6). Only primary labels are used.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np
import pandas as pd

from ... import validate
from ...data import Annotations, as_annotations, noted
from ...errors import AgreementError
from ...results import AgreementResult
from ...stats import Statistic, item_counts, per_item
from .variance import SPA_SCHEMES, check_class_probs, spa_scheme_weights
from .._prepare import complete
from .._registry import register
from .. import _engine

__all__ = ["SparseAgreementResult", "sparse_agreement", "sparse_kappa"]

_EXCLUDED = "items with fewer than two annotations"
# missing-data policies: SPA uses every item with two or more annotations (§4)
POLICIES = ("pairable", "raise")


@dataclass(frozen=True, repr=False)
class SparseAgreementResult(AgreementResult):
    """An `AgreementResult` with the SPA breakdown: ``per_item`` (one row per
    item of the data: n_annotations, agreement P̂_i — NaN below two annotations —,
    weight k_i and whether the item was used), the weighting ``scheme`` and the
    ``class_probs`` used for chance agreement and "inv_var_class".

    Parameters
    ----------
    measure, value, observed, expected, n_items, n_annotators, n_ratings, scale, excluded, params, per_category, se, ci, ci_method, note, resample, ci_uncut
        As in `AgreementResult`.
    per_item : pandas.DataFrame, optional
        One row per item: n_annotations, agreement P̂_i, weight k_i, used.
    scheme : str, default ""
        The weighting scheme ("custom" for given weights).
    class_probs : pandas.Series, optional
        The class distribution used for P̄_e and "inv_var_class".

    See Also
    --------
    sparse_agreement : makes one.
    sparse_kappa : makes one.
    AgreementResult : the fields it shares.

    Notes
    -----
    P̄_spa is the weighted mean of ``per_item["agreement"]`` with weights
    ``per_item["weight"]`` (eq. 7).

    References
    ----------
    Nørregaard, J. & Derczynski, L. (2022). Sparse Probability of Agreement. arXiv:2208.06161.
    https://doi.org/10.48550/arXiv.2208.06161

    Examples
    --------
    >>> wide = pd.DataFrame({"a": ["x", "x", None], "b": ["x", "y", None],
    ...                      "c": ["y", None, "y"]})
    >>> data = iaa.Annotations.from_wide(wide)
    >>> r = iaa.sparse_agreement(data)
    >>> r.per_item["weight"].tolist(), r.per_item["used"].tolist()
    ([2.0, 1.0, 0.0], [True, True, False])
    """

    per_item: pd.DataFrame | None = None
    scheme: str = ""
    class_probs: pd.Series | None = None

    def summary(self) -> dict:
        row = super().summary()
        row["scheme"] = self.scheme
        return row

    def _repr_html_(self) -> str:
        out = super()._repr_html_()
        if self.per_item is not None:
            shown = self.per_item.head(10)
            out += (f"<p>per item ({len(self.per_item)} items"
                    f"{', first 10' if len(self.per_item) > 10 else ''}):</p>")
            out += shown.to_html(escape=True, float_format=lambda v: f"{v:.4f}")
        return out


def _class_shares(counts: np.ndarray) -> np.ndarray:
    """p_c: the share of class c among all annotations (eq. 4, over every item)."""
    totals = counts.sum(axis=0).astype(float)
    return totals / totals.sum()


def _resolve_class_probs(class_probs, ann: Annotations, counts: np.ndarray) -> np.ndarray:
    if class_probs is None:
        return _class_shares(counts)
    if isinstance(class_probs, Mapping):
        class_probs = pd.Series(class_probs)
    if isinstance(class_probs, pd.Series):
        unknown = class_probs.index.difference(ann.categories)
        if len(unknown):
            raise AgreementError(f"class_probs names unknown categories {list(unknown)!r}; "
                                 f"the data has {list(ann.categories)!r}")
        class_probs = class_probs.reindex(ann.categories, fill_value=0.0).to_numpy()
    return check_class_probs(class_probs, ann.n_categories)


def _item_weights(weights, ann: Annotations, n: np.ndarray, p: np.ndarray):
    """k_i for every item (0 below two annotations) and a note on degenerate cases."""
    if isinstance(weights, str):
        return spa_scheme_weights(weights, n, ann.n_categories, p)
    if isinstance(weights, pd.Series):
        missing = ann.items.difference(weights.index)
        if len(missing):
            raise AgreementError(f"scheme has no entry for item(s) {list(missing[:5])!r}")
        weights = weights.reindex(ann.items).to_numpy()
    try:
        k = np.asarray(weights, dtype=float)
    except (TypeError, ValueError):
        raise AgreementError(f"scheme must be one of {list(SPA_SCHEMES)} or an array of "
                             f"per-item weights, got {type(weights).__name__}") from None
    if k.shape != (ann.n_items,):
        raise AgreementError(f"an array of per-item weights (scheme=) needs one entry per "
                             f"item ({ann.n_items}), got shape {k.shape}")
    if not np.all(np.isfinite(k)) or np.any(k < 0):
        raise AgreementError("the per-item weights of scheme= must be finite and non-negative")
    return np.where(n >= 2, k, 0.0), ""


def _spa(data, weights, class_probs, kappa: bool = False, missing: str = "pairable"):
    """Shared core of sparse_agreement and sparse_kappa: the Statistic (see
    :func:`_spa_statistic`) and what the result reports besides its value."""
    ann = complete(data, "sparse_kappa" if kappa else "sparse_agreement", missing,
                   POLICIES)[0]
    if ann.item_weight is not None:  # per-item weights and tables: one row per item
        ann = ann.expanded("sparse_agreement")
    counts = item_counts(ann)                                    # n_ic
    n = np.einsum("ic->i", counts)                               # n_i
    usable = n >= 2
    if not usable.any():
        raise AgreementError("no item has two or more annotations, so no pair of "
                             "annotations can agree or disagree; SPA needs at least one "
                             "item labelled by two annotators")
    p = _resolve_class_probs(class_probs, ann, counts)
    k, note = _item_weights(weights, ann, n, p)                  # refuses unknown schemes
    if k.sum() <= 0:
        raise AgreementError("the weights of all items with two or more annotations are 0")
    pairs = np.einsum("ic,ic->i", counts, counts) - n           # Σ_c n_ic(n_ic − 1)
    p_hat = pairs / np.maximum(n * (n - 1.0), 1.0)               # eq. 7, P̂_i (0 if n_i < 2)
    stat = _statistic(ann, counts, n, p_hat, weights,
                      None if class_probs is None else p, k, kappa)
    p_hat[~usable] = np.nan
    per_item = pd.DataFrame({"n_annotations": n, "agreement": p_hat, "weight": k,
                             "used": usable}, index=ann.items)
    info = dict(ann=ann, n=n, usable=usable, p=p, note=note, per_item=per_item,
                scheme=weights if isinstance(weights, str) else "custom", stat=stat,
                missing=missing)
    value, observed, chance = (float(x[0]) for x in stat.finish(
        {name: t[None] for name, t in stat.total().items()}))
    return value, observed, chance, info


def _result(measure, value, observed, expected, info, extra_note=""):
    ann, usable = info["ann"], info["usable"]
    n_excl = int((~usable).sum())
    note = " ".join(s for s in (info["note"], extra_note) if s)
    note, params = noted(ann, note, {"scheme": info["scheme"],  # look-alikes, blanks
                                     "missing": info["missing"]})
    return SparseAgreementResult(
        measure=measure, value=value, observed=observed, expected=expected,
        n_items=int(usable.sum()), n_annotators=ann.n_annotators,
        n_ratings=int(info["n"][usable].sum()),
        excluded={_EXCLUDED: n_excl} if n_excl else {},
        params=params, note=note, per_item=info["per_item"],
        scheme=info["scheme"], class_probs=pd.Series(info["p"], index=ann.categories))


def _spa_engine(s, measure, scheme="annotations_m1", class_probs=None, *,
                missing: str = "pairable") -> _engine.Totals:
    """SPA's totals from sufficient statistics (the tables of :func:`_statistic`): by
    the number of annotations n = 2 … R, Σ_{i: n_i = n} P̂_i = (Σ_c Σ_{n_i = n} n_ic² −
    n N_n) / (n(n − 1)) and N_n (eq. 7), and the class counts (eq. 4). A scheme by
    name only: per-item weights need the items."""
    name = measure.name
    if not isinstance(scheme, str):
        raise AgreementError(f"{name} on sufficient statistics takes a weighting scheme by "
                             "name; per-item weights need the items (load the data in "
                             "memory)")
    _engine.policy(s, name, missing, POLICIES)  # "raise": refuses a missing annotation
    m = np.arange(len(s.sizes))
    usable = m >= 2
    if not s.sizes[usable].any():
        raise AgreementError("no item has two or more annotations, so no pair of "
                             "annotations can agree or disagree; SPA needs at least one "
                             "item labelled by two annotators")
    with np.errstate(divide="ignore", invalid="ignore"):
        pairs = (np.einsum("mcc->m", s.products) - m * s.sizes) / (m * (m - 1))
    size = s.n_annotators + 1  # the Statistic's axis over n_i = 0 … R
    tot = {"pairs": np.zeros((1, size)), "items": np.zeros((1, size)),
           "n_c": s.totals.sum(axis=0)[None]}
    tot["pairs"][0, m[usable]] = pairs[usable]
    tot["items"][0, m[usable]] = s.sizes[usable]
    stat = measure.statistic(s.stand_in(), scheme, class_probs)
    kappa = name == "sparse_kappa"
    return _engine.Totals(tot, stat.finish, usable, {_EXCLUDED: int(s.sizes[~usable].sum())},
                          {"scheme": scheme, "missing": missing},
                          "sparse kappa" if kappa else "sparse probability of agreement")


@register(family='observed agreement', data='categorical', annotators='many',
          source='Nørregaard & Derczynski, Sparse Probability of Agreement', symbol='SPA',
          missing=('pairable', 'raise'),
          range=(0.0, 1.0), engine=_spa_engine)
@validate.takes(weights="scheme")
def sparse_agreement(data, scheme="annotations_m1", class_probs=None, *,
                     missing: str = "pairable") -> SparseAgreementResult:
    r"""Sparse Probability of Agreement P̄_spa (eq. 7).

    ``scheme`` (``weights=`` before, which works for one more release with a
    DeprecationWarning; refused with ``scheme=``) is a weighting scheme of §5 — "flat" (k = 1), "annotations"
    (k = n_i), "annotations_m1" (k = n_i − 1, the paper's recommendation, §6.4), "edges"
    (k = n_i(n_i − 1)/2), "inv_var" (k = 1/Var[P̂_i] under uniform labels; exactly
    ∝ edges, see `variance`), "inv_var_class" (k = 1/Var[P̂_i] under the
    class distribution) — or an array (or item-indexed Series) of per-item weights.
    SPA is unbiased for the agreement of the complete data when annotations are
    missing at random and the weights depend on n_i only (§4.2, §4.3).

    ``class_probs`` (array over the categories, or a mapping category → probability)
    is the class distribution of "inv_var_class"; by default the class shares of all
    annotations, single-annotation items included. Estimating it from the same data
    makes the weights depend, weakly, on the labels being averaged: the unbiasedness
    argument of §4.2 then holds only approximately (the dependence is through one
    pooled distribution, so the bias shrinks as 1/I); pass a distribution fixed in
    advance for exact unbiasedness. A distribution concentrated on one class has
    Var[P̂] = 0 for every n; the weights then take their limit k ∝ n_i (noted).

    ``missing``: "pairable" (default; every item with two or more annotations, the
    items SPA is made for) or "raise" (refuse data where an annotator left an item
    unlabelled).

    ``expected`` in the result is the chance agreement Σ_c p_c² of ``class_probs``.
    Raises `AgreementError` when no item has two or more annotations, and (when
    the data are loaded) when an annotator labels the same item twice: P̂_i counts
    pairs of distinct annotators (§4.1), and which of the two labels to keep is the
    user's choice (the paper drew one at random for its DAR data, §B.6). A secondary
    label (rank 2) is not a second annotation: only primary labels are used.

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Categorical labels (item, annotator, label); annotators may label any subset.
    scheme : str or array_like, default "annotations_m1"
        "flat", "annotations", "annotations_m1", "edges", "inv_var" or "inv_var_class"
        (§5), or one weight per item (an array, or a Series indexed by item).
    class_probs : array_like or mapping, optional
        The class distribution (over the categories, or category → probability); by
        default the class shares of all annotations.
    missing : {"pairable", "raise"}, default "pairable"
        Use every item with two or more annotations, or refuse a missing annotation.

    Returns
    -------
    SparseAgreementResult
        ``value`` (P̄_spa), ``expected`` (Σ_c p_c²), ``per_item`` (n_annotations,
        agreement, weight, used), ``scheme``, ``class_probs``, ``excluded`` (items with
        fewer than two annotations), ``note``.

    Raises
    ------
    AgreementError
        When no item has two annotations, an annotator labels an item twice, the scheme
        or ``class_probs`` is not valid, or ``missing="raise"`` meets a gap.

    See Also
    --------
    sparse_kappa : the chance-corrected version.
    spa_item_variance : the variance behind the "inv_var" schemes.
    spa_missingness : SPA when annotations go missing at random.
    fleiss_kappa : the complete-data relative.

    Notes
    -----
    With P̂_i the share of agreeing ordered pairs of item i (eq. 1) and k_i its weight
    (eq. 7):

    $$\hat P_i = \frac{\sum_c n_{ic}(n_{ic} - 1)}{n_i(n_i - 1)}, \quad
    \bar P_\mathrm{spa} = \frac{\sum_i k_i \hat P_i}{\sum_i k_i}.$$

    References
    ----------
    Nørregaard, J. & Derczynski, L. (2022). Sparse Probability of Agreement. arXiv:2208.06161.
    https://doi.org/10.48550/arXiv.2208.06161

    Examples
    --------
    Item 0 is labelled x, x, y (P̂ = 1/3), item 1 x, y (P̂ = 0), item 2 once (excluded);
    by eq. 7 with k = n_i − 1 = 2, 1 the value is (2/3)/3 = 2/9, flat weights give 1/6:

    >>> wide = pd.DataFrame({"a": ["x", "x", None], "b": ["x", "y", None],
    ...                      "c": ["y", None, "y"]})
    >>> data = iaa.Annotations.from_wide(wide)
    >>> r = iaa.sparse_agreement(data)
    >>> round(r.value, 4), r.excluded
    (0.2222, {'items with fewer than two annotations': 1})
    >>> round(iaa.sparse_agreement(data, "flat").value, 4)
    0.1667
    """
    value, observed, chance, info = _spa(data, scheme, class_probs, missing=missing)
    return _result("sparse probability of agreement", value, observed, chance, info)


@register(family='chance-corrected agreement', data='categorical', annotators='many',
          source='Nørregaard & Derczynski, Sparse Probability of Agreement (eq. 3-4)',
          symbol='SPA κ', missing=('pairable', 'raise'), engine=_spa_engine)
@validate.takes(weights="scheme")
def sparse_kappa(data, scheme="annotations_m1", class_probs=None, *,
                 missing: str = "pairable") -> SparseAgreementResult:
    r"""Chance-corrected SPA, Fleiss-style (eq. 3–4): (P̄_spa − P̄_e) / (1 − P̄_e) with
    P̄_e = Σ_c p_c² from the class shares of all annotations (or ``class_probs``);
    ``scheme`` as `sparse_agreement`.

    This is a BIASED estimator (§4.4): a ratio of estimates is biased by Jensen's
    inequality, and P̄_spa and P̄_e, computed on the same data, are dependent; the bias
    is O(1/n) and vanishes only for large data. With complete data and flat weights it
    is Fleiss' κ. The value is NaN when P̄_e = 1 (one category only); the note says so.
    ``missing``: as `sparse_agreement` ("pairable" by default, or "raise").

    Parameters
    ----------
    data : Annotations or a tidy DataFrame
        Categorical labels (item, annotator, label); annotators may label any subset.
    scheme, class_probs, missing
        As in `sparse_agreement` (default "annotations_m1", the class shares,
        "pairable").

    Returns
    -------
    SparseAgreementResult
        ``value`` (κ_spa), ``observed`` (P̄_spa), ``expected`` (P̄_e), ``per_item``,
        ``scheme``, ``class_probs``, ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        As `sparse_agreement`.

    See Also
    --------
    sparse_agreement : P̄_spa itself (unbiased).
    fleiss_kappa : the same on complete data with flat weights.

    Notes
    -----
    Eqs. 3–4 with P̄_spa of eq. 7:

    $$\kappa_\mathrm{spa} = \frac{\bar P_\mathrm{spa} - \bar P_e}{1 - \bar P_e}, \quad
    \bar P_e = \sum_c p_c^2.$$

    References
    ----------
    Nørregaard, J. & Derczynski, L. (2022). Sparse Probability of Agreement. arXiv:2208.06161.
    https://doi.org/10.48550/arXiv.2208.06161

    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    Psychological Bulletin, 76(5), 378–382. https://doi.org/10.1037/h0031619

    Examples
    --------
    The data of `sparse_agreement`'s example: P̄_spa = 2/9 and the class shares x 3/6,
    y 3/6 give P̄_e = 1/2, so κ = (2/9 − 1/2)/(1/2) = −5/9:

    >>> wide = pd.DataFrame({"a": ["x", "x", None], "b": ["x", "y", None],
    ...                      "c": ["y", None, "y"]})
    >>> data = iaa.Annotations.from_wide(wide)
    >>> r = iaa.sparse_kappa(data)
    >>> round(r.value, 4), r.expected
    (-0.5556, 0.5)
    """
    value, observed, chance, info = _spa(data, scheme, class_probs, kappa=True,
                                         missing=missing)
    if chance >= 1.0:
        return _result("sparse kappa", value, observed, chance, info,
                       "chance agreement is 1 (a single category), so kappa is undefined")
    return _result("sparse kappa", value, observed, chance, info,
                   "chance-corrected SPA is biased (§4.4)")


def _statistic(ann: Annotations, counts: np.ndarray, n: np.ndarray, p_hat: np.ndarray,
               weights, fixed, k: np.ndarray, kappa: bool) -> Statistic:
    """SPA's Statistic: per usable item P̂_i and 1 in the column of its n_i (k_i of a
    scheme depends on n_i and, for "inv_var_class", on the pooled class shares, so
    finish weighs the sums per n), and the class counts n_ic of every item (eq. 4).
    Per-item weights given as an array (``k``) stay with their item: k_i P̂_i and k_i.
    ``fixed``: class_probs given by the user (None: the shares of the totals' n_ic).
    finish → (P̄_spa, or κ with ``kappa``; P̄_spa; P̄_e = Σ_c p_c²)."""
    rows = np.flatnonzero(n >= 2)
    size = ann.n_annotators + 1  # n_i ≤ annotators (one annotation each per item)
    if isinstance(weights, str):
        tables = {"pairs": per_item(rows, n[rows], ann.n_items, size, p_hat[rows]),
                  "items": per_item(rows, n[rows], ann.n_items, size)}
    else:
        tables = {"pairs": (k * p_hat)[:, None], "items": k[:, None]}
    tables["n_c"] = counts.astype(float)
    shapes = {name: (t.shape[1],) for name, t in tables.items()}
    by_n = np.arange(size)

    def finish(tot):
        with np.errstate(divide="ignore", invalid="ignore"):
            p = tot["n_c"] / tot["n_c"].sum(axis=-1, keepdims=True) if fixed is None \
                else np.broadcast_to(fixed, tot["n_c"].shape)           # eq. 4
            if isinstance(weights, str) and weights == "inv_var_class":  # k(n; p_b)
                k_n = np.array([spa_scheme_weights(weights, by_n, len(q), q)[0] for q in p])
            elif isinstance(weights, str):                               # k(n)
                k_n = spa_scheme_weights(weights, by_n, ann.n_categories)[0]
            else:                                                        # k_i summed
                k_n = np.ones(1)
            total = np.sum(k_n * tot["items"], axis=-1)
            observed = np.where(total > 0, np.sum(k_n * tot["pairs"], axis=-1) / total,
                                np.nan)                                  # eq. 7
            chance = np.einsum("bc,bc->b", p, p)                         # Σ_c p_c²
            if not kappa:
                return observed, observed, chance
            value = np.where(chance < 1, (observed - chance) / (1 - chance), np.nan)  # eq. 3
            return value, observed, chance
    return Statistic(tables, shapes, finish)


@validate.takes("sparse_agreement", weights="scheme")
def _spa_statistic(data, scheme="annotations_m1", class_probs=None, *,
                   missing: str = "pairable") -> Statistic:
    """The Statistic that :func:`sparse_agreement` finishes; see :func:`_statistic`."""
    return _spa(data, scheme, class_probs, missing=missing)[3]["stat"]


@validate.takes("sparse_kappa", weights="scheme")
def _spa_kappa_statistic(data, scheme="annotations_m1", class_probs=None, *,
                         missing: str = "pairable") -> Statistic:
    """The Statistic that :func:`sparse_kappa` finishes; see :func:`_statistic`."""
    return _spa(data, scheme, class_probs, kappa=True, missing=missing)[3]["stat"]


sparse_agreement.statistic = _spa_statistic
sparse_kappa.statistic = _spa_kappa_statistic
