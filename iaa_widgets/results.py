"""Result objects: a value and everything a reader needs to know how it was made."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from importlib import import_module
from typing import Any, Callable, Mapping

import pandas as pd

from . import validate
from .html import text

__all__ = ["AgreementResult", "Charted", "PairwiseMatrix", "InRange", "cut_interval",
           "interval_text", "without_cut"]


def provenance_html(excluded: Mapping[str, int], note: str) -> str:
    """What was left out and why, and any note on the value, as escaped HTML."""
    out = ""
    if excluded:
        out += "<p>excluded: " + text(
            ", ".join(f"{v} {k}" for k, v in excluded.items())) + "</p>"
    if note:
        out += f"<p>{text(note)}</p>"
    return out


CUT = "interval cut to the coefficient's range"  # how a result's note begins to say it


def cut_interval(measure: str, ci) -> tuple[tuple | None, tuple | None, str]:
    """(interval, the interval before it was cut or None, a note or ""): ``ci`` cut to
    the range of the registered coefficient ``measure`` (``_registry.cut``), the one rule
    for every interval a result carries (analytic or bootstrap). A measure that is not
    registered, or no interval, leaves it as it is."""
    if ci is None:
        return None, None, ""
    # measures sit above results (they make results): the registry is loaded by name,
    # and only its registrations already made are read (the measure ran, so its own is)
    registry = import_module(f"{__package__}.measures._registry")
    m = registry.find(measure, load=False)
    if m is None:
        return ci, None, ""
    low, high, cut = registry.cut(m, *ci)
    if not cut:
        return ci, None, ""
    lo, hi = (f"{b:g}".replace("inf", "∞").replace("-", "−") for b in m.range)
    return ((float(low), float(high)), (float(ci[0]), float(ci[1])),
            f"{CUT} [{lo}, {hi}]: it was {interval_text(ci)}")


def interval_text(ci) -> str:
    """[low, high] to four decimals, minus signs as such (−0.2350)."""
    return "[" + ", ".join(f"{b:.4f}".replace("-", "−") for b in ci) + "]"


def without_cut(note: str) -> str:
    """``note`` without the part :func:`cut_interval` added (for a reader that says it
    apart, or a result that copies another's note but not its interval)."""
    return "; ".join(p for p in note.split("; ") if not p.startswith(CUT))


class InRange:
    """Gives a frozen result dataclass with ``measure``, ``ci``, ``ci_uncut`` and
    ``note`` the one rule of :func:`cut_interval`, applied on construction."""

    def __post_init__(self):
        ci, uncut, note = cut_interval(self.measure, self.ci)
        if uncut is not None:
            object.__setattr__(self, "ci", ci)
            object.__setattr__(self, "ci_uncut", uncut)
            object.__setattr__(self, "note", "; ".join(filter(None, [self.note, note])))


class Charted:
    """Gives a result ``chart(**options)``: the Altair chart that the builder registered
    for its type makes (:func:`iaa_widgets.charts.chart_for`)."""

    def chart(self, **options):
        """An Altair chart of this result; it needs no kernel: ``.save("result.html")``
        writes a self-contained page (vega bundled, opens from file:// offline;
        ``inline=False`` for Altair's CDN page); with the ``export`` extra
        (vl-convert-python) also ``.save("result.png")``."""
        # charts sits above results (it imports the result types to register its
        # builders): loaded by name on first use, so that results imports no module
        # above it (no import cycle) and altair loads only when a chart is asked for
        return import_module(f"{__package__}.charts").chart_for(self, **options)


@dataclass(frozen=True)
class AgreementResult(InRange, Charted):
    r"""The outcome of one agreement measure: its value and how it was made.

    Every coefficient of the package returns one (frozen). ``observed`` and ``expected``
    are agreements (A_o, A_e) when ``scale`` is "agreement" and disagreements (D_o, D_e,
    Krippendorff) when it is "disagreement". Nothing is dropped without being counted in
    ``excluded``; ``note`` explains a degenerate outcome (for instance a NaN value when the
    expected agreement is 1). In a notebook it shows a table of its fields, what was
    excluded, the note, the per-category table and, for a chance-corrected coefficient
    with a standard error, Gwet's (2014, ch. 6) benchmarks.

    Parameters
    ----------
    measure : str
        The measure's name (e.g. "cohen_kappa").
    value : float
        The coefficient.
    observed : float
        A_o, or D_o on the disagreement scale.
    expected : float
        A_e, or D_e; NaN where the measure has none.
    n_items : int
        Items used.
    n_annotators : int
        Annotators in the data used.
    n_ratings : int
        Ratings in the data used.
    scale : {"agreement", "disagreement"}, default "agreement"
        What ``observed`` and ``expected`` measure.
    excluded : mapping of str to int, optional
        Items left out, by reason.
    params : mapping, optional
        The arguments and the measure's further outputs.
    per_category : pandas.DataFrame, optional
        The measure's table by category.
    se : float, optional
        Standard error.
    ci : tuple of float, optional
        Confidence interval (low, high).
    ci_method : str, optional
        How ``ci`` was made.
    note : str, default ""
        What the reader should know about the value.
    resample : callable, optional
        ``resample(n_resamples, seed)``: a bootstrap over the same items.
    ci_uncut : tuple of float, optional
        ``ci`` before it was cut to the coefficient's range.

    Attributes
    ----------
    measure : str
        The measure's name, as in `iaa.coefficients()`.
    value : float
        The coefficient (NaN, with ``note`` saying why, where it is undefined).
    observed : float
        Observed agreement A_o ("agreement" scale) or disagreement D_o ("disagreement").
    expected : float
        Expected agreement A_e or disagreement D_e; NaN for a measure that is not
        chance-corrected.
    n_items : int
        The items the value rests on.
    n_annotators : int
        The annotators of the data used.
    n_ratings : int
        The ratings of the data used.
    scale : str
        "agreement" or "disagreement".
    excluded : mapping of str to int
        Items left out, by reason (e.g. the missing-data policy); empty when none.
    params : mapping
        The arguments (``missing``, ``weights``, ``confidence`` …) and the measure's further
        outputs (e.g. ``se_null``, ``z``, ``p_value``, ``pairs``).
    per_category : pandas.DataFrame or None
        The measure's table by category (shares, agreements, category-wise κ …).
    se : float or None
        Standard error, where the measure has an analytic one.
    ci : tuple of float or None
        Confidence interval, within the coefficient's range (`iaa.coefficients()`; at most
        1, and at least 0 for A_o): an interval that leaves it is cut to it on
        construction, the note saying so.
    ci_method : str or None
        How ``ci`` was made (kind and level).
    ci_uncut : tuple of float or None
        The interval as computed, when it was cut; ``se`` stays as computed.
    note : str
        What the reader should know: degenerate values, look-alike or blank labels, cut
        intervals.
    resample : callable or None
        ``resample(n_resamples, seed)`` → a bootstrap over the same items, for a measure
        with no analytic standard error (α): what `benchmark` reads instead.
    n_excluded : int
        The number of items excluded, over all reasons.

    Methods
    -------
    chart(**options)
        An Altair chart of this result; it needs no kernel (``.save("result.html")``).
    to_frame()
        A one-row DataFrame of the scalar fields, indexed by the measure's name.
    summary()
        The scalar fields as a flat dict (one row of ``to_frame()``).
    benchmark(scale="landis-koch", confidence=0.95)
        This coefficient read against a benchmark scale with its standard error
        ([benchmark][iaa_widgets.benchmark]).
    reporting()
        A paragraph ready to paste into a paper, in Krippendorff's reporting standard.

    See Also
    --------
    iaa_widgets.cohen_kappa : One of the measures that return it.
    iaa_widgets.bootstrap : A bootstrap interval of any measure (BootstrapResult).
    iaa_widgets.benchmark : Reading a result against a benchmark scale.
    iaa_widgets.coefficients : Every measure, and its range.

    Notes
    -----
    A chance-corrected coefficient is $(A_o - A_e)/(1 - A_e)$ on the agreement scale and
    $1 - D_o/D_e$ on the disagreement scale (Krippendorff). ``float(result)`` is
    ``result.value``.

    References
    ----------
    Krippendorff, K. (2004). *Content Analysis: An Introduction to Its Methodology*
    (2nd ed.), ch. 11. Sage.

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.), ch. 6.
    Advanced Analytics, LLC. ISBN 978-0970806284.

    Examples
    --------
    Meyer's two raters (slide "Chance-corrected Measures: Example": κ = 0.16/0.46):

    >>> data = iaa.Annotations.from_contingency([[2, 2], [1, 5]], categories=["high", "low"],
    ...                                         annotators=("r2", "r1"))
    >>> r = iaa.cohen_kappa(data)
    >>> r
    AgreementResult(measure='cohen_kappa', value=0.3478..., observed=0.7, expected=0.54, n_items=10)
    >>> round(float(r), 4), r.n_items, r.n_excluded, r.ci_method
    (0.3478, 10, 0, 'asymptotic (Fleiss, Cohen & Everitt 1969) 95%')
    >>> r.to_frame()[["value", "observed", "expected", "n_items"]].round(4)
                  value  observed  expected  n_items
    measure
    cohen_kappa  0.3478       0.7      0.54       10
    """

    measure: str
    value: float
    observed: float
    expected: float
    n_items: int
    n_annotators: int
    n_ratings: int
    scale: str = "agreement"
    excluded: Mapping[str, int] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    per_category: pd.DataFrame | None = None
    se: float | None = None
    ci: tuple[float, float] | None = None
    ci_method: str | None = None
    note: str = ""
    # resample(n_resamples, seed) -> BootstrapResult over the same items, for a measure
    # with no analytic standard error (α): what benchmark() reads instead
    resample: Callable[..., Any] | None = field(default=None, repr=False, compare=False)
    ci_uncut: tuple[float, float] | None = None

    def __float__(self) -> float:
        return float(self.value)

    def reporting(self) -> str:
        """A paragraph ready to paste into a paper, in Krippendorff's reporting standard:
        the coefficient, its interval and method, the units and values it rests on, what
        was excluded and the missing-data policy
        (:func:`iaa_widgets.inference.reporting.measure_paragraph`). q(α_min) needs
        replicates: ``iaa.bootstrap(data, measure).reporting()``."""
        # inference sits above results: loaded by name, as charts is (no import cycle)
        return import_module(f"{__package__}.inference.reporting").measure_paragraph(self)

    @property
    def n_excluded(self) -> int:
        return int(sum(self.excluded.values()))

    def summary(self) -> dict:
        """The scalar fields as a flat dict (one row of :meth:`to_frame`)."""
        row = {"measure": self.measure, "value": self.value,
               f"{'observed' if self.scale == 'agreement' else 'D_o'}": self.observed,
               f"{'expected' if self.scale == 'agreement' else 'D_e'}": self.expected,
               "n_items": self.n_items, "n_annotators": self.n_annotators,
               "n_ratings": self.n_ratings, "n_excluded": self.n_excluded}
        if self.se is not None:
            row["se"] = self.se
        if self.ci is not None:
            row["ci_low"], row["ci_high"] = self.ci
        return row

    def to_frame(self) -> pd.DataFrame:
        """A one-row DataFrame of the scalar fields, indexed by the measure's name."""
        return pd.DataFrame([self.summary()]).set_index("measure")

    def _repr_html_(self) -> str:
        def fmt(v):
            if isinstance(v, float):
                return "NaN" if math.isnan(v) else f"{v:.4f}"
            return text(v)

        rows = "".join(f"<tr><th style='text-align:left'>{text(k)}</th>"
                       f"<td>{fmt(v)}</td></tr>" for k, v in self.summary().items())
        extra = provenance_html(self.excluded, self.note) + self._benchmarks_html()
        if self.per_category is not None:
            extra += self.per_category.to_html(escape=True, float_format=lambda v: f"{v:.4f}")
        return f"<table>{rows}</table>{extra}"

    @validate.takes("benchmark", level="confidence")
    def benchmark(self, scale="landis-koch", confidence: float = 0.95):
        """This coefficient read against a benchmark scale with its standard error:
        each band's membership probability (Gwet 2014, ch. 6; see
        :func:`iaa_widgets.measures.benchmarking.benchmark`; ``level=`` as there)."""
        # measures sit above results (they make results): loaded by name on first use
        return import_module(f"{__package__}.measures.benchmarking").benchmark(
            self, scale=scale, confidence=confidence)

    def _benchmarks_html(self) -> str:
        """One table: on every scale of Gwet's benchmarking procedure, the band retained
        at 95 % cumulative probability and each band's membership probability; '' when
        there is no finite standard error or value to benchmark, or no expected
        agreement (the scales read chance-corrected coefficients, not A_o)."""
        if self.se is None or not math.isfinite(self.se) or not math.isfinite(self.value) \
                or not -1 <= self.value <= 1 or math.isnan(self.expected):
            return ""
        bench = import_module(f"{__package__}.measures.benchmarking")
        rows = ""
        for scale in bench.SCALES:
            b = bench.benchmark(self, scale=scale)
            bands = " · ".join(f"{label} {p:.3f}" for label, p in
                               b.table["probability"].items())
            rows += (f"<tr><th style='text-align:left'>{text(scale)}</th>"
                     f"<td>{text(b.band)} ({b.probability:.3f})</td><td>{text(bands)}</td></tr>")
        return ("<table class='iaa-benchmarks'><caption>Benchmarking with uncertainty "
                "(Gwet 2014, ch. 6)</caption><tr><th>scale</th><th>band at 95% cumulative "
                "probability</th><th>membership probability of each band, top first</th>"
                f"</tr>{rows}</table>")

    def __repr__(self) -> str:
        shown = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if f.name in ("measure", "value", "observed", "expected", "n_items")]
        return f"{type(self).__name__}({', '.join(shown)})"


class PairwiseMatrix(pd.DataFrame, Charted):
    r"""The annotator × annotator table of [pairwise][iaa_widgets.pairwise].

    A DataFrame (index and columns are the annotators) with ``chart()``, its heatmap.
    Tables derived from it (``.round()``, ``.loc[...]``, arithmetic) are plain DataFrames.

    Attributes
    ----------
    attrs : dict
        ``measure``, ``n_items`` (items each pair shares, a list of rows in the annotators'
        order), ``params``, ``note``; with bootstrap intervals also ``ci_low``,
        ``ci_high``, ``se``, ``n_undefined``, ``ci_method`` and ``seed``.

    Methods
    -------
    chart(**options)
        An Altair heatmap of the matrix; it needs no kernel.

    See Also
    --------
    iaa_widgets.pairwise : Makes it.

    Examples
    --------
    >>> m = iaa.pairwise(iaa.datasets.meyer_relatedness(), "percent_agreement")
    >>> float(m.loc["r1", "r2"]), m.attrs["measure"]  # Meyer's table: A_o = 7/10
    (0.7, 'percent_agreement')
    """

    @property
    def _constructor(self):
        return pd.DataFrame
