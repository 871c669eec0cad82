"""Planning an agreement study: how many items for a target precision or power."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import pandas as pd

from .. import validate
from ..errors import AgreementError
from . import _kappa_designs as D

__all__ = ["sample_size", "SampleSizeResult"]

METHODS = ("pilot", "cantor", "flack", "rotondi-ci", "rotondi-power", "rotondi-bound",
           "percent")


@dataclass(frozen=True)
class SampleSizeResult:
    r"""The items an agreement study needs, and how they were found.

    What `sample_size` returns: ``n_items`` by ``method``, with the design's ``params``;
    for "rotondi-bound" the items given and the lower ``bound`` they attain; from pilot
    data also the pilot's estimate and bootstrap standard error.

    Parameters
    ----------
    method : str
        "pilot", "cantor", "flack", "rotondi-ci", "rotondi-power", "rotondi-bound" or
        "percent".
    n_items : int
        The items needed (for "rotondi-bound": the items given); from a pilot with
        clusters, items at the pilot's mean cluster size.
    params : mapping, default {}
        The design: κ₀, κ₁, prevalence or margins, raters, significance, power, …
    bound : float, default NaN
        "rotondi-bound": the lower limit of κ's interval that ``n_items`` attain.
    estimate : float, default NaN
        "pilot": the coefficient on the pilot data.
    se : float, default NaN
        "pilot": its bootstrap standard error over the pilot's items (or clusters).
    n_pilot : int, default 0
        "pilot": the pilot's items (or clusters).
    n_items_for_prob : int, optional
        "pilot" with ``alpha_min`` and ``prob``: the items with which the coefficient
        exceeds ``alpha_min`` with probability ``prob``.
    note : str, default ""
        Notes on the computation.

    Methods
    -------
    projected_se(n)
        The pilot's standard error scaled to n items, $\mathrm{se}\sqrt{n_{pilot}/n}$.
    to_frame()
        One row: the method, the items and every parameter of the design.

    See Also
    --------
    iaa_widgets.sample_size : Makes it.
    iaa_widgets.bootstrap : The pilot's bootstrap.

    Notes
    -----
    From a pilot, $\mathrm{se}(n) = \mathrm{se}_{pilot}\sqrt{n_{pilot}/n}$, so a
    half-width E needs $n = \lceil n_{pilot} (z\,\mathrm{se}_{pilot}/E)^2 \rceil$ items.

    Examples
    --------
    >>> # Gwet (2014)'s rule: n = ⌈z² p (1 − p) / E²⌉ = ⌈1.96² · 0.8 · 0.2 / 0.05²⌉ = 246
    >>> r = iaa.sample_size(method="percent", agreement=0.8, half_width=0.05)
    >>> r.n_items, r.method
    (246, 'percent')
    >>> r.to_frame().columns.tolist()
    ['n_items', 'agreement', 'half_width', 'confidence']
    """

    method: str
    n_items: int
    params: Mapping[str, Any] = field(default_factory=dict)
    bound: float = math.nan
    estimate: float = math.nan
    se: float = math.nan
    n_pilot: int = 0
    n_items_for_prob: int | None = None
    note: str = ""

    def projected_se(self, n) -> np.ndarray:
        """The pilot's bootstrap SE scaled to n items: se · √(n_pilot / n)."""
        return self.se * np.sqrt(self.n_pilot / np.asarray(n, float))

    def to_frame(self) -> pd.DataFrame:
        """One row: the method, the items and every parameter of the design."""
        return pd.DataFrame([{"method": self.method, "n_items": self.n_items,
                              **({"bound": self.bound} if not math.isnan(self.bound) else {}),
                              **({"estimate": self.estimate, "se": self.se,
                                  "n_pilot": self.n_pilot,
                                  "n_items_for_prob": self.n_items_for_prob}
                                 if self.method == "pilot" else {}),
                              **{k: v for k, v in self.params.items()}}]).set_index("method")

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(float_format=lambda v: f"{v:.4f}")


def _kappa(name: str, value, low: float = -1.0) -> float:
    return validate.real("sample_size", name, value, minimum=low, maximum=1.0, open_high=True)


def _unit(name: str, value) -> float:
    return validate.probability("sample_size", name, value, open_low=True, open_high=True)


def _shares(value, name: str = "prevalence"):
    """A prevalence in (0, 1), or K ∈ 2 … 5 shares in (0, 1) summing to 1."""
    if np.ndim(value) == 0:
        return _unit(name, value)
    p = np.asarray(value, dtype=float)
    if not 2 <= len(p) <= 5 or np.any((p <= 0) | (p >= 1)) or abs(p.sum() - 1) > 1e-9:
        validate.fail("sample_size", name, "a prevalence in (0, 1), or 2 to 5 category "
                      "shares each in (0, 1) summing to 1", value)
    return float(p[0]) if len(p) == 2 else p


def sample_size(data=None, measure: str = "krippendorff_alpha", *, method: str | None = None,
                half_width=None, kappa0=None, kappa1=None, kappa_low=None, kappa_high=None,
                prevalence=None, margins=None, raters: int = 2, agreement=None, n_items=None,
                confidence: float = 0.95, significance: float = 0.05, power: float = 0.8,
                two_sided: bool = False, alpha_min=None, prob=None, cluster=None,
                n_resamples: int = 2000, seed=None, **measure_kwargs) -> SampleSizeResult:
    """Items needed for an agreement study, from pilot data or from the design.

    From pilot data, the pilot's bootstrap standard error is projected to n items; from
    a design, the closed forms of Cantor (1996), Flack et al. (1988), Donner & Rotondi
    (2010) or Gwet's rule for percent agreement give the items a test's power or an
    interval's width needs.

    Parameters
    ----------
    data : Annotations or tidy DataFrame, optional
        Pilot data (``method="pilot"``, the default when given). The analytic methods
        take none.
    measure : str, default "krippendorff_alpha"
        The coefficient the pilot is bootstrapped for (a name of `coefficients`).
    method : {"pilot", "cantor", "flack", "rotondi-ci", "rotondi-power", \
"rotondi-bound", "percent"}, optional
        "pilot" (from ``data``); "cantor" (binary κ, two raters); "flack" (κ over K
        categories, two raters); "rotondi-ci", "rotondi-power", "rotondi-bound" (Donner
        & Rotondi 2010: 2–6 ``raters`` × 2–5 categories; an interval's width, a test's
        power, the lower bound n items attain); "percent" (Gwet's rule for percent
        agreement). None: "pilot" when ``data`` is given.
    half_width : float, optional
        Target half-width E of the interval ("pilot", "percent"), in (0, 1).
    kappa0 : float, optional
        κ under the null ("cantor", "flack", "rotondi-power"); the anticipated κ
        ("rotondi-ci", "rotondi-bound"), in (0, 1) for the Rotondi methods.
    kappa1 : float, optional
        κ under the alternative, the one the test should detect ("cantor", "flack",
        "rotondi-power"); it must differ from ``kappa0``.
    kappa_low : float, optional
        The interval's lower limit ("rotondi-ci"), in (0, ``kappa0``).
    kappa_high : float, optional
        The interval's upper limit ("rotondi-ci"), in (``kappa0``, 1). None: a one-sided
        interval (lower limit only).
    prevalence : float or sequence of float, optional
        "cantor": the two raters' shares of the first category (one number for both, or
        a pair); Rotondi methods: the share of the first of two categories, or the K
        shares of 2–5 categories.
    margins : sequence of float, optional
        "flack": the 2–10 category shares (each > 0, summing to 1) of the expected table.
    raters : int, default 2
        Raters per item for the Rotondi methods, 2 to 6.
    agreement : float, optional
        "percent": the anticipated percent agreement p, in (0, 1).
    n_items : int, optional
        The items of a fixed design ("rotondi-bound"), at least 2.
    confidence : float, default 0.95
        The interval's level ("pilot", "percent").
    significance : float, default 0.05
        The test's size α, or one minus the Rotondi intervals' level.
    power : float, default 0.8
        The test's power ("cantor", "flack", "rotondi-power").
    two_sided : bool, default False
        A two-sided test ("cantor", "flack").
    alpha_min : float, optional
        From pilot data, also the items with which the coefficient exceeds
        ``alpha_min`` with probability ``prob`` (normal approximation at the projected
        SE); e.g. Krippendorff's 0.8.
    prob : float, optional
        That probability, in (0, 1).
    cluster : str or pandas.Series, optional
        Clusters of pilot items (a column, or one cluster per item): the bootstrap draws
        clusters and ``n_items`` counts items at the pilot's mean cluster size.
    n_resamples : int, default 2000
        The pilot's bootstrap resamples.
    seed : int or None, optional
        The pilot's bootstrap seed.
    **measure_kwargs
        Options of the measure (``metric=``, ``weights=`` …), for the pilot only.

    Returns
    -------
    SampleSizeResult
        ``.n_items`` (the items needed; for "rotondi-bound" the items given and the
        ``.bound`` they attain), ``.method`` and the design's ``.params``; from pilot
        data also ``.estimate``, ``.se``, ``.n_pilot`` and ``.n_items_for_prob``.

    Raises
    ------
    AgreementError
        A parameter out of range (naming it and its range), a method without its
        parameters, data or measure options given to an analytic method, margins no
        table with agreement κ₀ and κ₁ has.

    See Also
    --------
    iaa_widgets.SampleSizeResult : The result type.
    iaa_widgets.bootstrap : The pilot's bootstrap.
    iaa_widgets.compare : Tests a difference between coefficients.

    Notes
    -----
    Pilot: se(n) = se_pilot √(n_pilot/n), so n = ⌈n_pilot (z se_pilot / E)²⌉ for a
    half-width E, and n = ⌈n_pilot (z_prob se_pilot / (κ̂ − α_min))²⌉ for
    P(κ̂ > α_min) = prob; with clusters, n counts clusters and is converted to items at
    the pilot's mean cluster size. Percent agreement: n = ⌈z² p(1 − p) / E²⌉ (Gwet
    2014). Cantor (1996), Flack et al. (1988) and Donner & Rotondi (2010) as R's
    irr 0.84.1 (``N.cohen.kappa``, ``N2.cohen.kappa``) and kappaSize 1.2 compute them;
    kappaSize searches from 11 items up and stops at n·X² ≥ χ²_crit + 0.001, so it
    reports at least 11 and, rarely, one item more; we give the least n with
    n·X² ≥ χ²_crit, and the exact bound where kappaSize steps κ_L by 0.001.

    References
    ----------
    Cantor, A. B. (1996). Sample-size calculations for Cohen's kappa. *Psychological
    Methods* 1(2), 150–153. doi:10.1037/1082-989X.1.2.150

    Flack, V. F., Afifi, A. A., Lachenbruch, P. A. & Schouten, H. J. A. (1988). Sample
    size determinations for the two rater kappa statistic. *Psychometrika* 53, 321–325.
    doi:10.1007/BF02294215

    Donner, A. & Rotondi, M. A. (2010). Sample size requirements for interval estimation
    of the kappa statistic for interobserver agreement studies with a binary outcome and
    multiple raters. *International Journal of Biostatistics* 6(1). doi:10.2202/1557-4679.1275

    Examples
    --------
    >>> import iaa_widgets as iaa
    >>> # irr 0.84.1 N.cohen.kappa(0.5, 0.5, 0.7, 0.85) gives 96 (tests/fixtures/kappasize)
    >>> iaa.sample_size(method="cantor", kappa0=0.85, kappa1=0.7,
    ...                 prevalence=(0.5, 0.5)).n_items
    96
    >>> # irr 0.84.1 N2.cohen.kappa(c(0.3, 0.3, 0.4), 0.7, 0.5) gives 73
    >>> iaa.sample_size(method="flack", kappa0=0.5, kappa1=0.7,
    ...                 margins=(0.3, 0.3, 0.4)).n_items
    73
    >>> # kappaSize 1.2 CIBinary(kappa0=0.6, kappaL=0.4, props=0.3, raters=2) gives 66
    >>> iaa.sample_size(method="rotondi-ci", kappa0=0.6, kappa_low=0.4,
    ...                 prevalence=0.3).n_items
    66
    """
    if method is None:
        method = "pilot" if data is not None else None
    validate.choice("sample_size", "method", method, METHODS)
    level = validate.confidence("sample_size", "confidence", confidence)
    a = validate.probability("sample_size", "significance", significance, open_low=True,
                             open_high=True)
    pw = validate.probability("sample_size", "power", power, open_low=True, open_high=True)
    validate.boolean("sample_size", "two_sided", two_sided)
    sides = 2 if two_sided else 1
    if method != "pilot" and (data is not None or measure_kwargs or cluster is not None):
        raise AgreementError(f"sample_size(method={method!r}) is analytic: it takes no data, "
                             "cluster or measure options")

    def need(*names):
        missing = [n for n in names if locals_[n] is None]
        if missing:
            raise AgreementError(f"sample_size(method={method!r}) needs "
                                 + ", ".join(f"{n}=" for n in missing))
    locals_ = dict(half_width=half_width, kappa0=kappa0, kappa1=kappa1, kappa_low=kappa_low,
                   prevalence=prevalence, margins=margins, agreement=agreement,
                   n_items=n_items)
    if method == "pilot":
        return _pilot(data, measure, half_width, level, alpha_min, prob, cluster,
                      n_resamples, seed, measure_kwargs)
    if method == "percent":
        need("agreement", "half_width")
        p, e = _unit("agreement", agreement), _unit("half_width", half_width)
        z = D._z(0.5 + level / 2)
        return SampleSizeResult("percent", math.ceil(z * z * p * (1 - p) / (e * e)),
                                {"agreement": p, "half_width": e, "confidence": level})
    if method in ("cantor", "flack", "rotondi-power"):
        need("kappa0", "kappa1", "margins" if method == "flack" else "prevalence")
        k0, k1 = _kappa("kappa0", kappa0), _kappa("kappa1", kappa1)
        if k0 == k1:
            raise AgreementError("sample_size: kappa1 must differ from kappa0")
    params = {"significance": a}
    if method == "cantor":
        shares = np.broadcast_to(np.asarray(prevalence, float), (2,))
        p1, p2 = (_unit("prevalence", x) for x in shares)
        n = D.cantor_n(p1, p2, k1, k0, a, pw, sides)
        return SampleSizeResult("cantor", n, {"kappa0": k0, "kappa1": k1, "prevalence": (p1, p2),
                                              "power": pw, "two_sided": two_sided, **params})
    if method == "flack":
        m = np.asarray(margins, float)
        if not 2 <= len(m) <= 10 or np.any(m <= 0) or abs(m.sum() - 1) > 1e-9:
            validate.fail("sample_size", "margins", "2 to 10 category shares, each > 0, "
                          "summing to 1", margins)
        n = D.flack_n(m, k1, k0, a, pw, sides)
        if n < 0:
            raise AgreementError("sample_size: no table with these margins has agreement "
                                 "κ₀ and κ₁; check kappa0, kappa1 against margins")
        return SampleSizeResult("flack", n, {"kappa0": k0, "kappa1": k1,
                                             "margins": tuple(m), "power": pw,
                                             "two_sided": two_sided, **params})
    raters = validate.integer("sample_size", "raters", raters, minimum=2, maximum=6)
    p = _shares(prevalence if prevalence is not None else need("prevalence"))
    params.update(raters=raters, prevalence=p if np.ndim(p) == 0 else tuple(p))
    if method == "rotondi-power":
        for nm, v in (("kappa0", k0), ("kappa1", k1)):
            _kappa(nm, v, low=0.0)
        n = D.rotondi_power_n(k0, k1, p, raters, a, pw)
        return SampleSizeResult(method, n, {"kappa0": k0, "kappa1": k1, "power": pw, **params})
    need("kappa0")
    k0 = validate.real("sample_size", "kappa0", kappa0, minimum=0, maximum=1, open_low=True,
                       open_high=True)
    if method == "rotondi-bound":
        need("n_items")
        n = validate.integer("sample_size", "n_items", n_items, minimum=2)
        bound = D.rotondi_bound(k0, n, p, raters, a)
        return SampleSizeResult(method, n, {"kappa0": k0, **params}, bound=bound)
    need("kappa_low")
    low = validate.real("sample_size", "kappa_low", kappa_low, minimum=0, maximum=k0,
                        open_low=True, open_high=True)
    high = None if kappa_high is None else validate.real(
        "sample_size", "kappa_high", kappa_high, minimum=k0, maximum=1, open_low=True,
        open_high=True)
    n = D.rotondi_ci_n(k0, low, high, p, raters, a)
    return SampleSizeResult(method, n, {"kappa0": k0, "kappa_low": low, "kappa_high": high,
                                        **params})


def items_for_half_width(se: float, n_pilot: int, half_width: float,
                         confidence: float = 0.95) -> int:
    """Units a ``confidence`` interval of half-width ``half_width`` needs, from a pilot's
    bootstrap SE over ``n_pilot`` units: se(n) = se √(n_pilot / n), so
    n = ⌈n_pilot (z se / E)²⌉."""
    return math.ceil(n_pilot * (D._z(0.5 + confidence / 2) * se / half_width) ** 2)


def _pilot(data, measure, half_width, level, alpha_min, prob, cluster, n_resamples, seed,
           kwargs) -> SampleSizeResult:
    from ..data import as_annotations
    from ..measures import _registry
    from ..stats.resampling import resampled
    from .compare import _Context, _codes, _split_column, _statistic
    if data is None:
        raise AgreementError("sample_size(method='pilot') needs the pilot data")
    m = _registry.find(measure) if isinstance(measure, str) else None
    if m is None:
        validate.fail("sample_size", "measure", "the name of a coefficient of iaa_widgets",
                      measure)
    validate.keywords("sample_size", kwargs,
                      [k for k in m.keywords if k != "confidence"])
    if half_width is None and alpha_min is None:
        raise AgreementError("sample_size(method='pilot') needs half_width= and/or "
                             "alpha_min= with prob=")
    n_resamples = validate.integer("sample_size", "n_resamples", n_resamples, minimum=2)
    frame, clusters = _split_column(data, cluster, "cluster")
    ann = as_annotations(frame)
    codes = _codes(clusters, ann.items)
    ctx = _Context(m, kwargs, level, n_resamples, seed, "bootstrap")
    stat = _statistic(ctx, ann)
    estimate = float(stat.values(stat.base[None])[0])
    values = resampled(stat, n_resamples, np.random.default_rng(seed), clusters=codes)
    defined = np.count_nonzero(~np.isnan(values))
    if math.isnan(estimate) or defined < 2:
        raise AgreementError(f"sample_size: {m.name} is undefined on the pilot or on "
                             f"{len(values) - defined} of its {len(values)} resamples, so its "
                             "bootstrap SE is too; a pilot needs items whose labels vary")
    se = float(np.nanstd(values, ddof=1))
    units = ann.n_items if codes is None else int(codes.max()) + 1
    size = ann.n_items / units                        # items per cluster (1 without)
    n = math.nan
    params: dict = {"measure": m.name, "confidence": level, "n_resamples": n_resamples,
                    "resampled": "items" if codes is None else "clusters",
                    "items_per_unit": size, **kwargs}
    for_prob, note = None, ""
    if se == 0:
        note = ("every resample gives the same value: the pilot's bootstrap SE is 0, and the "
                "interval has no width at any number of items")
    if half_width is not None:
        e = validate.real("sample_size", "half_width", half_width, minimum=0, open_low=True)
        n = items_for_half_width(se, units, e, level) * size
        params["half_width"] = e
    if alpha_min is not None:
        amin = validate.real("sample_size", "alpha_min", alpha_min, minimum=-1, maximum=1)
        q = _unit("prob", prob if prob is not None else 0.95)
        params.update(alpha_min=amin, prob=q)
        if estimate <= amin:
            note = (note + "; " if note else "") + (f"the pilot's estimate {estimate:.4f} does not exceed alpha_min = {amin}: "
                    "more items make exceeding it less likely, not more")
        else:  # se = 0: the pilot's items already exceed it with certainty
            for_prob = int(math.ceil(units * (D._z(q) * se / (estimate - amin)) ** 2) * size)
    return SampleSizeResult("pilot", int(n) if not math.isnan(n) else -1, params,
                            estimate=estimate, se=se, n_pilot=units,
                            n_items_for_prob=for_prob, note=note)
