"""StudyDesigner: how many items an agreement study needs, live (issue 45 §5).

Sliders for the target half-width, κ₀ / κ₁, the prevalence, the raters and the
confidence; the items each design needs come from :func:`iaa_widgets.sample_size`
(Donner & Rotondi 2010's interval and power designs, Cantor 1996 for two raters, Gwet's
rule for percent agreement). Given pilot data, the widget bootstraps its coefficient once
and draws the projected half-width z·se·√(n₀/n) and the probability of failing κ₀
(α_min), Φ((κ₀ − κ̂)/se(n)), against the items n. Every number comes from
:mod:`iaa_widgets.inference.sample_size`; the widget only arranges them.
"""
from __future__ import annotations

import math

import altair as alt
import numpy as np
import pandas as pd
import traitlets

from .. import validate
from ..errors import AgreementError
from ..inference.sample_size import sample_size
from ._base import IAAWidget, guarded

__all__ = ["StudyDesigner"]


class StudyDesigner(IAAWidget):
    r"""Items needed for an agreement study, from the design and, given ``data``, from a
    pilot.

    ``half_width`` (target half-width of the interval), ``kappa0`` (the anticipated κ,
    and the α_min a study must not fail), ``kappa1`` (the κ a test should detect against
    ``kappa0``), ``prevalence`` (of the first of two categories), ``raters`` (2–6) and
    ``confidence`` are traitlets, set from Python or the sliders. ``designs`` lists each
    design with the items it needs (or why it cannot say). With pilot ``data`` (and its
    ``measure``, ``cluster=`` and ``seed``), ``pilot`` holds the pilot's estimate and
    bootstrap SE, and the chart draws the projected half-width and the probability of
    failing ``kappa0`` against items.

    Parameters
    ----------
    data : Annotations or tidy DataFrame, optional
        A pilot's ratings.
    measure : str, default "krippendorff_alpha"
        The pilot's measure.
    half_width : float, default 0.1
        Target half-width of the interval.
    kappa0 : float, default 0.6
        The anticipated κ, and the α_min a study must not fail.
    kappa1 : float, default 0.8
        The κ a test should detect against ``kappa0``.
    prevalence : float, default 0.3
        Prevalence of the first of two categories.
    raters : int, default 2
        Raters per item, 2–6.
    confidence : float, default 0.95
        Level of the intervals.
    cluster : str or pandas.Series, optional
        The pilot's clusters, resampled whole.
    n_resamples : int, default 1000
        Bootstrap replicates of the pilot.
    seed : int, default 0
        Seed of the pilot's bootstrap.
    **measure_kwargs
        Passed to the pilot's measure.

    Attributes
    ----------
    designs : list of dict
        Each design with the items it needs, or why it cannot say.
    pilot : dict
        The pilot's estimate and bootstrap SE, given ``data``.

    Raises
    ------
    AgreementError
        For an option out of range or an unknown measure.

    See Also
    --------
    sample_size : each design's count, without a widget.
    bootstrap : the pilot's interval.

    Notes
    -----
    The interval-based design solves for the smallest $n$ whose interval around
    $\kappa_0$ has half-width at most the target (Donner & Rotondi 2010); the pilot's
    projection scales its bootstrap SE by $\sqrt{n_0/n}$.

    References
    ----------
    Rotondi, M. A. & Donner, A. (2012). A confidence interval approach to sample size
    estimation for interobserver agreement studies with multiple raters and outcomes.
    Journal of Clinical Epidemiology 65(7), 778–784.
    https://doi.org/10.1016/j.jclinepi.2011.10.019

    Examples
    --------
    >>> import iaa_widgets as iaa
    >>> d = iaa.StudyDesigner(half_width=0.1, kappa0=0.6, kappa1=0.8, prevalence=0.3)
    >>> d.designs[0]["items"] == iaa.sample_size(method="rotondi-ci", kappa0=0.6,
    ...     kappa_low=0.5, kappa_high=0.7, prevalence=0.3, raters=2).n_items
    True
    """

    _kind = traitlets.Unicode("designer").tag(sync=True)
    half_width = traitlets.Float(0.1).tag(sync=True)
    kappa0 = traitlets.Float(0.6).tag(sync=True)
    kappa1 = traitlets.Float(0.8).tag(sync=True)
    prevalence = traitlets.Float(0.3).tag(sync=True)
    raters = traitlets.Int(2).tag(sync=True)
    confidence = traitlets.Float(0.95).tag(sync=True)
    designs = traitlets.List(read_only=True).tag(sync=True)
    pilot = traitlets.Dict(read_only=True).tag(sync=True)

    def __init__(self, data=None, measure: str = "krippendorff_alpha", *,
                 half_width: float = 0.1, kappa0: float = 0.6, kappa1: float = 0.8,
                 prevalence: float = 0.3, raters: int = 2, confidence: float = 0.95,
                 cluster=None, n_resamples: int = 1000, seed=0, **measure_kwargs):
        super().__init__()
        self._check(half_width, kappa0, kappa1, prevalence, raters, confidence)
        self._pilot = None
        if data is not None:  # the bootstrap once; a slider only rescales its SE
            self._pilot = sample_size(data, measure, half_width=half_width, cluster=cluster,
                                      n_resamples=n_resamples, seed=seed, **measure_kwargs)
            self.set_chart("projection", projection_chart(alt.NamedData("designer_curve")))
        with self.hold_trait_notifications():
            self.half_width, self.kappa0, self.kappa1 = half_width, kappa0, kappa1
            self.prevalence, self.raters, self.confidence = prevalence, raters, confidence
        self._refresh()
        self.observe(self._on_change, ["half_width", "kappa0", "kappa1", "prevalence",
                                       "raters", "confidence"])

    def _export_groups(self) -> list[tuple]:
        """The controls a static page keeps live (:mod:`.export`), in order of priority:
        each slider over its steps from the saved values of the others, then κ₀ with κ₁
        on a grid of 0.05 (every design's items at each, and the pilot's projection)."""
        from .export import Control

        def control(name, label, low, high, step):
            n = round((high - low) / step)
            values = np.round(np.linspace(low, high, n + 1), 10)
            return Control(name, label, tuple(int(v) if name == "raters" else float(v)
                                              for v in values), f".iaa-slider-{name}")

        singles = [control("half_width", "target half-width", 0.01, 0.3, 0.01),
                   control("kappa0", "κ₀", 0.05, 0.95, 0.01),
                   control("kappa1", "κ₁", 0.05, 0.95, 0.01),
                   control("prevalence", "prevalence", 0.05, 0.95, 0.01),
                   control("raters", "raters", 2, 6, 1),
                   control("confidence", "confidence", 0.8, 0.99, 0.01)]
        both = (control("kappa0", "κ₀", 0.05, 0.95, 0.05),
                control("kappa1", "κ₁", 0.05, 0.95, 0.05))
        return [(c,) for c in singles] + [both]

    @staticmethod
    def _check(half_width, kappa0, kappa1, prevalence, raters, confidence) -> None:
        where = "StudyDesigner"
        validate.real(where, "half_width", half_width, minimum=0, maximum=1, open_low=True)
        validate.real(where, "kappa0", kappa0, minimum=0, maximum=1, open_low=True,
                      open_high=True)
        validate.real(where, "kappa1", kappa1, minimum=0, maximum=1, open_low=True,
                      open_high=True)
        validate.probability(where, "prevalence", prevalence, open_low=True, open_high=True)
        validate.integer(where, "raters", raters, minimum=2, maximum=6)
        validate.confidence(where, "confidence", confidence)

    @guarded
    def _on_change(self, _change=None) -> None:
        self._check(self.half_width, self.kappa0, self.kappa1, self.prevalence, self.raters,
                    self.confidence)
        self._refresh()

    def _refresh(self) -> None:
        self.set_trait("designs", self._designs())
        if self._pilot is not None:
            p = self._pilot
            self.set_trait("pilot", {"estimate": p.estimate, "se": p.se,
                                     "n_pilot": p.n_pilot, "resampled":
                                     p.params["resampled"]})
            self.set_rows(designer_curve=self.curve(self._pilot_items()))

    def curve(self, upto=None) -> pd.DataFrame:
        """The pilot's projection: items n (or clusters), half-width z·se·√(n₀/n) and the
        probability Φ((κ₀ − κ̂)/se(n)) of an estimate below κ₀ (α_min)."""
        p = self._pilot
        if p is None:
            raise AgreementError("StudyDesigner: the projection needs pilot data")
        top = max(4 * p.n_pilot, int(upto) * 2 if upto and math.isfinite(upto) else 0)
        n = np.unique(np.geomspace(max(2, p.n_pilot // 4), top, 60).round().astype(int))
        se = p.projected_se(n)
        from scipy.special import ndtr
        z = _z(0.5 + self.confidence / 2)
        return pd.DataFrame({"items": n, "half_width": z * se,
                             "p_fail": ndtr((self.kappa0 - p.estimate) / se),
                             "target": self.half_width})

    def _designs(self) -> list:
        """Each design's label and the items it needs, or why it cannot say."""
        a = 1 - self.confidence
        k0, k1, e, p, m = self.kappa0, self.kappa1, self.half_width, self.prevalence, \
            self.raters
        pe = p * p + (1 - p) * (1 - p)                 # chance agreement of two raters
        rows = [
            (f"κ₀ = {k0:.2f} ± {e:.2f}, {m} raters (Donner & Rotondi 2010)",
             dict(method="rotondi-ci", kappa0=k0, kappa_low=k0 - e,
                  kappa_high=k0 + e if k0 + e < 1 else None, prevalence=p, raters=m,
                  significance=a)),
            (f"test κ₁ = {k1:.2f} against κ₀ = {k0:.2f}, power 0.8 (Donner & Rotondi 2010)",
             dict(method="rotondi-power", kappa0=k0, kappa1=k1, prevalence=p, raters=m,
                  significance=a)),
            (f"percent agreement {k0 * (1 - pe) + pe:.2f} ± {e:.2f} (Gwet's rule)",
             dict(method="percent", agreement=k0 * (1 - pe) + pe, half_width=e,
                  confidence=self.confidence)),
        ]
        if m == 2:
            rows.append((f"test κ₁ = {k1:.2f} against κ₀ = {k0:.2f}, two raters (Cantor 1996)",
                         dict(method="cantor", kappa0=k0, kappa1=k1, prevalence=(p, p),
                              significance=a)))
        out = []
        for label, kwargs in rows:
            try:
                out.append({"design": label, "items": sample_size(**kwargs).n_items,
                            "why": ""})
            except AgreementError as exc:
                out.append({"design": label, "items": None, "why": str(exc)})
        if self._pilot is not None:
            p0 = self._pilot
            n = self._pilot_items()
            out.append({"design": f"pilot: ± {e:.2f} around {p0.estimate:.3f} "
                                  f"({p0.params['resampled']} resampled)",
                        "items": None if math.isnan(n) else int(n),
                        "why": "" if p0.se > 0 else "the pilot's bootstrap SE is 0"})
        return out

    def _pilot_items(self) -> float:
        """Items for ± half_width from the pilot: ⌈n₀ (z se / E)²⌉ units (items or
        clusters) times the items per unit (NaN for a pilot SE of 0)."""
        p = self._pilot
        if not p.se > 0:
            return math.nan
        z = _z(0.5 + self.confidence / 2)
        return math.ceil(p.n_pilot * (z * p.se / self.half_width) ** 2) * \
            p.params["items_per_unit"]


def _z(q: float) -> float:
    from scipy.special import ndtri
    return float(ndtri(q))


def projection_chart(data) -> alt.VConcatChart:
    """The pilot's projected half-width (with a rule at the target) and probability of
    failing κ₀ against items, on ``data`` (``StudyDesigner.curve`` rows)."""
    x = alt.X("items:Q", scale=alt.Scale(type="log"), title="items")
    width = alt.layer(
        alt.Chart(data).mark_line().encode(
            x, alt.Y("half_width:Q", title="projected half-width"),
            tooltip=["items:Q", alt.Tooltip("half_width:Q", format=".4f")]),
        alt.Chart(data).mark_rule(strokeDash=[4, 3]).encode(y="mean(target):Q"),
    ).properties(width=320, height=140)
    fail = alt.Chart(data).mark_line().encode(
        x, alt.Y("p_fail:Q", title="P(estimate below κ₀)", scale=alt.Scale(domain=[0, 1])),
        tooltip=["items:Q", alt.Tooltip("p_fail:Q", format=".4f")],
    ).properties(width=320, height=140)
    return alt.vconcat(width, fail)
