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
    """The outcome of one agreement measure.

    ``observed`` and ``expected`` are agreements (A_o, A_e) when ``scale`` is
    ``"agreement"`` and disagreements (D_o, D_e, Krippendorff) when it is
    ``"disagreement"``. ``excluded`` maps a reason to the number of items left out
    for it; nothing is dropped without being counted there. ``note`` explains a
    degenerate outcome (for instance a NaN value when expected agreement is 1).

    ``ci`` lies within the coefficient's range (``iaa.coefficients()``; at most 1, and
    at least 0 for A_o): an interval that leaves it is cut to it on construction, the
    interval as computed kept in ``ci_uncut`` and the note saying so (:func:`cut_interval`);
    ``se`` stays as computed.
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
    """The annotator × annotator table of :func:`~iaa_widgets.pairwise`: a DataFrame
    (index and columns are the annotators) with ``chart()``, its heatmap. ``attrs``
    holds ``measure``, ``n_items`` (items each pair shares) and ``params``. Tables
    derived from it (``.round()``, ``.loc[...]``, arithmetic) are plain DataFrames."""

    @property
    def _constructor(self):
        return pd.DataFrame
