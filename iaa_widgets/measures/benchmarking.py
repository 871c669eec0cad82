"""Benchmarking with uncertainty: Gwet's (2014, *Handbook of Inter-Rater Reliability*,
4th ed., ch. 6) procedure for reading a coefficient against a benchmark scale.

A coefficient κ̂ with standard error se is not simply placed in the band its value
falls in. The true κ is taken as normally distributed around κ̂ with standard
deviation se, truncated to [−1, 1] (the range of a chance-corrected coefficient). The
*interval membership probability* of a band (a, b] is

    P(a < κ ≤ b) = [Φ((b − κ̂)/se) − Φ((a − κ̂)/se)] / [Φ((1 − κ̂)/se) − Φ((−1 − κ̂)/se)]

(Gwet 2014, ch. 6, the normal probability over the band divided by that over [−1, 1]).
Summing them from the top band down gives the *cumulative membership probability*;
the band retained is the highest one whose cumulative probability reaches the level
(0.95 by default): "agreement is at least this good" with 95 % probability.

Scales (top band first):

- ``"landis-koch"``: Landis & Koch (1977): almost perfect (0.8, 1], substantial
  (0.6, 0.8], moderate (0.4, 0.6], fair (0.2, 0.4], slight (0, 0.2], poor [−1, 0];
- ``"fleiss"``: Fleiss (1981): excellent (0.75, 1], intermediate to good (0.4, 0.75],
  poor [−1, 0.4];
- ``"altman"``: Altman (1991): very good (0.8, 1], good (0.6, 0.8], moderate
  (0.4, 0.6], fair (0.2, 0.4], poor [−1, 0.2];
- ``"krippendorff"``: Krippendorff (2004, p. 241): reliable (0.8, 1], tentative
  conclusions only (0.667, 0.8], unreliable (discard) [−1, 0.667].

A scale can also be given as (low, high, label) triples that tile an interval of
[−1, 1] without gap or overlap; the normalisation stays the one over [−1, 1], so a
scale that does not reach −1 (Cicchetti & Sparrow's from 0) has cumulative
probabilities below 1.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Sequence

import numpy as np
import pandas as pd

from .. import validate
from ..errors import AgreementError

__all__ = ["SCALES", "benchmark", "membership", "membership_probabilities", "retained",
           "Benchmark"]

# name → bands (low, high, interpretation), top band first
SCALES = {
    "landis-koch": ((0.8, 1.0, "Almost perfect"), (0.6, 0.8, "Substantial"),
                    (0.4, 0.6, "Moderate"), (0.2, 0.4, "Fair"), (0.0, 0.2, "Slight"),
                    (-1.0, 0.0, "Poor")),
    "fleiss": ((0.75, 1.0, "Excellent"), (0.4, 0.75, "Intermediate to good"),
               (-1.0, 0.4, "Poor")),
    "altman": ((0.8, 1.0, "Very good"), (0.6, 0.8, "Good"), (0.4, 0.6, "Moderate"),
               (0.2, 0.4, "Fair"), (-1.0, 0.2, "Poor")),
    "krippendorff": ((0.8, 1.0, "Reliable"), (0.667, 0.8, "Tentative conclusions only"),
                     (-1.0, 0.667, "Unreliable (discard)")),
}

_PHI = np.vectorize(NormalDist().cdf, otypes=[float])


def _bands(scale) -> tuple[str, tuple]:
    """(name, bands top first) of a scale's name or of (low, high, label) triples."""
    if isinstance(scale, str):
        validate.choice("benchmark", "scale", scale, SCALES)
        return scale, SCALES[scale]
    what = ("a scale name, one of " + ", ".join(map(repr, SCALES)) +
            ", or (low, high, label) triples that tile part of [-1, 1] without gap")
    try:
        bands = [(float(lo), float(hi), str(label)) for lo, hi, label in scale]
    except (TypeError, ValueError):
        validate.fail("benchmark", "scale", what, scale)
    bands.sort(key=lambda b: -b[1])  # top band first, by the numbers given
    lows = np.array([b[0] for b in bands])
    highs = np.array([b[1] for b in bands])
    if not bands or not (np.all(np.isfinite(lows)) and np.all(np.isfinite(highs))) or \
            np.any(lows >= highs) or lows.min() < -1 or highs.max() > 1 or \
            np.any(highs[1:] != lows[:-1]):
        validate.fail("benchmark", "scale", what, scale)
    return "custom", tuple(bands)


def membership_probabilities(value: float, se: float, scale="landis-koch"):
    """(the bands' interpretations, their membership probabilities), top band first, as
    a list and a numpy array: what :func:`membership` tabulates, without pandas (a live
    widget calls it on every edit)."""
    value = validate.real("benchmark", "value", value, minimum=-1, maximum=1)
    se = validate.real("benchmark", "se", se, minimum=0)
    _, bands = _bands(scale)
    low = np.array([b[0] for b in bands])
    high = np.array([b[1] for b in bands])
    if se > 0:
        # P(a < κ ≤ b) of N(κ̂, se²) truncated to [−1, 1], Gwet (2014, ch. 6)
        whole = _PHI((1 - value) / se) - _PHI((-1 - value) / se)
        prob = (_PHI((high - value) / se) - _PHI((low - value) / se)) / whole
    else:
        prob = ((low < value) & (value <= high)).astype(float)
        if value == -1 and low[-1] == -1:
            prob[-1] = 1.0
    return [b[2] for b in bands], prob


def retained(labels: Sequence[str], probabilities, level: float = 0.95):
    """(the band retained, its cumulative probability): the highest band whose
    cumulative membership probability reaches ``level`` (Gwet 2014, ch. 6); (None, NaN)
    if none does. ``probabilities``: top band first."""
    cumulative = np.cumsum(probabilities)
    # 1e-12: the rounding of the cumulative sum, which reaches 1 for a scale tiling [−1, 1]
    reached = np.flatnonzero(cumulative >= level - 1e-12)
    if not len(reached):
        return None, float("nan")
    return str(labels[reached[0]]), float(cumulative[reached[0]])


def membership(value: float, se: float, scale="landis-koch") -> pd.DataFrame:
    """Each band's interval membership probability and the cumulative ones from the
    top band down (Gwet 2014, ch. 6; see the module docstring), as a DataFrame indexed
    by the bands' interpretations with columns low, high, probability, cumulative.

    ``se = 0``: all the probability sits on the value (the band (a, b] holding it; the
    bottom band also holds −1)."""
    labels, prob = membership_probabilities(value, se, scale)
    _, bands = _bands(scale)
    return pd.DataFrame({"low": [b[0] for b in bands], "high": [b[1] for b in bands],
                         "probability": prob, "cumulative": np.cumsum(prob)},
                        index=pd.Index(labels, name="band"))


@dataclass(frozen=True)
class Benchmark:
    r"""A coefficient read against a benchmark scale (Gwet 2014, ch. 6).

    Made by [benchmark][iaa_widgets.benchmark] and `AgreementResult.benchmark()`; frozen.
    In a notebook it shows a sentence and the bands' table.

    Parameters
    ----------
    measure : str
        The coefficient's name ("value" for a bare number).
    value : float
        The coefficient κ̂.
    se : float
        Its standard error.
    scale : str
        The scale's name, or "custom" for triples.
    level : float
        The cumulative probability the band retained must reach.
    table : pandas.DataFrame
        The bands' table (see Attributes).
    band : str or None
        The band retained.
    probability : float
        The band's cumulative probability.
    se_source : str, default "analytic"
        Where the standard error comes from.

    Attributes
    ----------
    measure : str
        The coefficient's name ("value" for a bare number).
    value : float
        The coefficient κ̂.
    se : float
        Its standard error.
    scale : str
        "landis-koch", "fleiss", "altman", "krippendorff" or "custom".
    level : float
        The cumulative probability the band retained must reach (``confidence``).
    table : pandas.DataFrame
        Indexed by the bands' interpretations, top band first: ``low``, ``high``, each
        band's membership ``probability`` and the ``cumulative`` one from the top down.
    band : str or None
        The highest band whose cumulative probability reaches ``level``; None if none does
        (a custom scale that does not reach −1).
    probability : float
        That cumulative probability (NaN with no band).
    se_source : str
        "analytic" (the result's own), "given" (``se=``), or the bootstrap over items that
        gave it (resamples and seed).

    Methods
    -------
    to_frame()
        The bands' table (a copy).

    See Also
    --------
    iaa_widgets.benchmark : Makes it.
    iaa_widgets.AgreementResult : A coefficient with its standard error.

    Notes
    -----
    Each band's probability is that of $N(\hat\kappa, se^2)$ truncated to [−1, 1]
    (Gwet 2014, ch. 6; see [benchmark][iaa_widgets.benchmark]).

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.), ch. 6.
    Advanced Analytics, LLC. ISBN 978-0970806284.

    Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement for
    categorical data. *Biometrics*, 33(1), 159–174. https://doi.org/10.2307/2529310

    Fleiss, J. L. (1981). *Statistical Methods for Rates and Proportions* (2nd ed.).
    Wiley.

    Altman, D. G. (1991). *Practical Statistics for Medical Research*. Chapman &
    Hall.

    Krippendorff, K. (2004). *Content Analysis: An Introduction to Its Methodology*
    (2nd ed.), p. 241. Sage.

    Examples
    --------
    Meyer's two raters (κ = 0.3478, se 0.3004): with so few items the only band retained
    at 95 % is Landis & Koch's "Poor".

    >>> data = iaa.Annotations.from_contingency([[2, 2], [1, 5]], categories=["high", "low"],
    ...                                         annotators=("r2", "r1"))
    >>> b = iaa.cohen_kappa(data).benchmark()
    >>> b.scale, b.band, b.se_source
    ('landis-koch', 'Poor', 'analytic')
    >>> b.to_frame().index.tolist()
    ['Almost perfect', 'Substantial', 'Moderate', 'Fair', 'Slight', 'Poor']
    """

    measure: str
    value: float
    se: float
    scale: str
    level: float
    table: pd.DataFrame
    band: str | None
    probability: float
    se_source: str = "analytic"

    def to_frame(self) -> pd.DataFrame:
        """The bands' table (a copy)."""
        return self.table.copy()

    def _repr_html_(self) -> str:
        from ..html import text
        head = (f"<p>{text(self.measure)} = {self.value:.4f} (se {self.se:.4f}, "
                f"{text(self.se_source)}) on the "
                f"{text(self.scale)} scale: {text(self.band or 'no band')} at "
                f"{self.level:.0%} cumulative probability (Gwet 2014, ch. 6)</p>")
        return head + self.table.to_html(escape=True, float_format=lambda v: f"{v:.4f}")


@validate.takes(level="confidence")
def benchmark(result, *, se: float | None = None, scale="landis-koch",
              confidence: float = 0.95) -> Benchmark:
    r"""Benchmark a coefficient with its standard error on a scale (Gwet 2014, ch. 6).

    A coefficient κ̂ with standard error se is not simply placed in the band its value
    falls in. The true κ is taken as normal around κ̂ with standard deviation se,
    truncated to [−1, 1]; each band gets its membership probability, and the band retained
    is the highest one whose cumulative probability, from the top band down, reaches
    ``confidence``: "agreement is at least this good" with that probability.

    Parameters
    ----------
    result : AgreementResult or float
        An [AgreementResult][iaa_widgets.AgreementResult] with a standard error (its
        ``se``; for a measure with none, such as α, a bootstrap over the same items), or a
        bare value in [−1, 1] with ``se=``.
    se : float, optional
        The standard error (≥ 0); required with a bare value, and taking the place of the
        result's own when given.
    scale : str or sequence of (float, float, str), default "landis-koch"
        "landis-koch", "fleiss", "altman", "krippendorff", or (low, high, label) triples
        that tile an interval of [−1, 1] without gap or overlap.
    confidence : float, default 0.95
        The cumulative probability the band retained must reach, in (0, 1]. ``level=``,
        its former name, works for one more release with a DeprecationWarning (and is
        refused with ``confidence=``).

    Returns
    -------
    Benchmark
        ``band`` (None if no band reaches ``confidence``: a custom scale that does not
        reach −1), its cumulative ``probability``, the bands' ``table`` (low, high,
        probability, cumulative), ``value``, ``se`` and ``se_source``.

    Raises
    ------
    AgreementError
        If the result has no standard error and no bootstrap, a bare value comes without
        ``se``, the value is NaN or outside [−1, 1], ``se`` is negative, ``scale`` is
        neither a name above nor triples that tile part of [−1, 1], or ``confidence`` is
        not in (0, 1].

    See Also
    --------
    iaa_widgets.Benchmark : The result, with its table.
    iaa_widgets.AgreementResult : Its ``benchmark()`` method calls this.
    iaa_widgets.cohen_kappa : A coefficient with an analytic standard error.
    iaa_widgets.gwet_ac1 : Another.

    Notes
    -----
    The interval membership probability of a band $(a, b]$, with $\Phi$ the standard
    normal distribution function (Gwet 2014, ch. 6):

    $$P(a < \kappa \le b) = \frac{\Phi\left(\frac{b - \hat\kappa}{se}\right) -
    \Phi\left(\frac{a - \hat\kappa}{se}\right)}{\Phi\left(\frac{1 - \hat\kappa}{se}\right) -
    \Phi\left(\frac{-1 - \hat\kappa}{se}\right)} .$$

    The normalisation is over [−1, 1] for every scale, so a custom scale that does not
    reach −1 (Cicchetti & Sparrow's, from 0) has cumulative probabilities below 1. With
    $se = 0$ all the probability sits on the value's band. Scales, top band first:
    Landis & Koch (1977): almost perfect (0.8, 1], substantial (0.6, 0.8], moderate
    (0.4, 0.6], fair (0.2, 0.4], slight (0, 0.2], poor [−1, 0]; Fleiss (1981): excellent
    (0.75, 1], intermediate to good (0.4, 0.75], poor [−1, 0.4]; Altman (1991): very good
    (0.8, 1], good (0.6, 0.8], moderate (0.4, 0.6], fair (0.2, 0.4], poor [−1, 0.2];
    Krippendorff (2004, p. 241): reliable (0.8, 1], tentative conclusions only
    (0.667, 0.8], unreliable [−1, 0.667].

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.), ch. 6.
    Advanced Analytics, LLC. ISBN 978-0970806284.

    Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement for
    categorical data. *Biometrics*, 33(1), 159–174. https://doi.org/10.2307/2529310

    Fleiss, J. L. (1981). *Statistical Methods for Rates and Proportions* (2nd ed.).
    Wiley.

    Altman, D. G. (1991). *Practical Statistics for Medical Research*. Chapman &
    Hall.

    Krippendorff, K. (2004). *Content Analysis: An Introduction to Its Methodology*
    (2nd ed.), p. 241. Sage.

    Examples
    --------
    The example of irrCAC's ``Benchmark`` (κ̂ = 0.67, se = 0.15, Altman's scale): the
    cumulative probabilities 0.18168, 0.67511, 0.96356 retain "Moderate", although 0.67
    itself lies in "Good".

    >>> b = iaa.benchmark(0.67, se=0.15, scale="altman")
    >>> b.band, round(b.probability, 5)
    ('Moderate', 0.96356)
    >>> b.table["cumulative"].round(5).tolist()
    [0.18168, 0.67511, 0.96356, 0.99912, 1.0]
    """
    level = validate.probability("benchmark", "confidence", confidence, open_low=True)
    if hasattr(result, "value") and hasattr(result, "se"):
        measure, value = str(getattr(result, "measure", "value")), result.value
        source = "given" if se is not None else "analytic"
        if se is None:
            se = result.se
        if se is None and getattr(result, "resample", None) is not None:
            # no analytic standard error (α): the bootstrap's, over the same items
            boot = result.resample()
            se, source = boot.se, (f"bootstrap over items ({boot.n_resamples:,} resamples, "
                                   f"seed {boot.seed})")
        if se is None:
            raise AgreementError(f"benchmark: the {measure} result has no standard error; "
                                 "benchmark one that has (κ, AC1, Fleiss' κ, α …), or pass se=")
    else:
        measure, value, source = "value", result, "given"
        if se is None:
            raise AgreementError("benchmark: a bare value needs its standard error, se=")
    if isinstance(value, float) and math.isnan(value):
        raise AgreementError(f"benchmark: the {measure} value is NaN (undefined), there is "
                             "nothing to benchmark")
    name, _ = _bands(scale)
    table = membership(value, se, scale)
    band, prob = retained(table.index, table["probability"].to_numpy(), level)
    return Benchmark(measure=measure, value=float(value), se=float(se), scale=name,
                     level=level, table=table, band=band, probability=prob, se_source=source)
