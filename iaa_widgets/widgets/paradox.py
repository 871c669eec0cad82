"""ParadoxExplorer: Feinstein & Cicchetti's two paradoxes on a 2 × 2 table, live (issue 41).

Observed agreement A_o is held fixed while two sliders move Byrt, Bishop & Carlin's
(1993) prevalence index PI = (a − d)/n and bias index BI = (b − c)/n; the table is the
one these three numbers determine,

    a = n(A_o + PI)/2,  d = n(A_o − PI)/2,  b = n(1 − A_o + BI)/2,  c = n(1 − A_o − BI)/2,

with a, d the two agreements (both *yes*, both *no*) and b, c the two disagreements
(first rater *yes* and second *no*, and the reverse). Every coefficient on the panel
(A_o, S = PABAK, π, κ, AC1, nominal α: the measures registered with ``panel=True``, as
in :class:`~iaa_widgets.ContingencyMatrix`) and p_pos / p_neg
(:func:`~iaa_widgets.specific_agreement`) is the measure function's value on
``Annotations.from_contingency`` of that table; the widget only arranges them.
"""
from __future__ import annotations

import math
from types import MappingProxyType
from typing import Mapping, Sequence

import altair as alt
import numpy as np
import pandas as pd
import traitlets

from .. import charts, validate
from ..data import Annotations
from ..measures import _formulas as F
from ..measures import _registry
from ..measures.categorical.classic import specific_agreement
from ..results import AgreementResult
from ._base import IAAWidget, guarded
from ._json import json_safe

__all__ = ["ParadoxExplorer"]

_WHERE = "ParadoxExplorer"


def paradox_table(observed: float, prevalence: float, bias: float, n: int):
    """The 2 × 2 table of whole counts nearest to A_o = ``observed``, PI = ``prevalence``
    and BI = ``bias`` over ``n`` items, and the notes saying what had to give way.

    The agreements are ⌊n·A_o⌉; a − d takes the whole value of PI·n nearest to the
    request that has their parity, cut to ±(a + d) (no negative cell); b − c likewise
    within ±(b + c). Returns (table [[a, b], [c, d]], notes).
    """
    agree = int(math.floor(observed * n + 0.5))          # a + d = n·A_o, whole
    notes = []
    if abs(agree - observed * n) > 1e-9:
        notes.append(f"observed agreement {observed:.4g} × {n} items is not a whole "
                     f"number of items: {agree} agreements (A_o = {agree / n:.4g})")

    def split(total: int, index: float, name: str, cells: str) -> tuple[int, int]:
        want = index * n
        if abs(want) > total + 1e-9:                      # a cell would be negative
            limit = total / n
            notes.append(f"{name} {index:+.2f} needs {cells} beyond the {total} items "
                         f"there: cut to {math.copysign(limit, index):+.4g} (|{name}| ≤ "
                         f"{limit:.4g} at this observed agreement)")
            want = math.copysign(total, index)
        first = int(math.floor((total + want) / 2 + 0.5))  # (total ± difference)/2
        first = min(max(first, 0), total)
        return first, total - first

    a, d = split(agree, prevalence, "PI", "a − d")
    b, c = split(n - agree, bias, "BI", "b − c")
    return np.array([[a, b], [c, d]], dtype=np.int64), notes


class ParadoxExplorer(IAAWidget):
    """A 2 × 2 table for two raters with observed agreement held fixed, its prevalence
    and bias indices on sliders, and every coefficient of the table beside it.

    Parameters
    ----------
    observed : float, default 0.85
        Observed agreement A_o = (a + d)/n, held fixed (``n·observed`` is rounded to
        whole items, and a note says so when it is not whole).
    prevalence : float, default 0.75
        Byrt, Bishop & Carlin's prevalence index PI = (a − d)/n, in [−1, 1].
    bias : float, default 0.05
        Their bias index BI = (b − c)/n, in [−1, 1]. The defaults give Feinstein &
        Cicchetti's (1990) table B, [[80, 10], [5, 5]].
    n : int, default 100
        Items in the table.
    categories : sequence of two labels, default ("yes", "no")
        The positive category first (a = both gave it); p_pos is its specific agreement.
    annotators : sequence of two names, default ("A", "B")
        The rows' rater first.

    Attributes
    ----------
    table : pandas.DataFrame
        The current counts.
    result : Mapping[str, AgreementResult]
        Each panel coefficient's result on the table, and ``specific_agreement``.

    Raises
    ------
    AgreementError
        For ``observed`` outside [0, 1], an index outside [−1, 1], ``n`` below 1, or
        other than two distinct categories or annotators. An index that the observed
        agreement does not allow (|PI| > A_o or |BI| > 1 − A_o: a cell would be
        negative) is cut to the nearest feasible value and a note in the widget
        (``notes``) says so; the slider stays where it was put.

    See Also
    --------
    ContingencyMatrix : an editable table of any size with intervals and benchmarks.

    Notes
    -----
    With a + d = n·A_o and b + c = n(1 − A_o) (Byrt, Bishop & Carlin 1993):
    a = n(A_o + PI)/2, d = n(A_o − PI)/2, b = n(1 − A_o + BI)/2, c = n(1 − A_o − BI)/2,
    and κ = (PABAK − PI² + BI²)/(1 − PI² + BI²) with PABAK = 2A_o − 1: at fixed A_o,
    κ falls as |PI| grows (the first paradox) and rises with |BI| (the second).

    References
    ----------
    Feinstein, A. R. & Cicchetti, D. V. (1990). High agreement but low kappa: I. The
    problems of two paradoxes. J Clin Epidemiol 43(6), 543–549.
    https://doi.org/10.1016/0895-4356(90)90158-L

    Byrt, T., Bishop, J. & Carlin, J. B. (1993). Bias, prevalence and kappa. J Clin
    Epidemiol 46(5), 423–429. https://doi.org/10.1016/0895-4356(93)90018-V

    Examples
    --------
    >>> import iaa_widgets as iaa
    >>> w = iaa.ParadoxExplorer(observed=0.85, prevalence=0.75, bias=0.05)
    >>> w.table.to_numpy().tolist()
    [[80, 10], [5, 5]]
    >>> round(w.result["cohen_kappa"].value, 3)
    0.318
    """

    _kind = traitlets.Unicode("paradox").tag(sync=True)
    observed = traitlets.Float(0.85).tag(sync=True)
    prevalence = traitlets.Float(0.75).tag(sync=True)
    bias = traitlets.Float(0.05).tag(sync=True)
    n = traitlets.Int(100).tag(sync=True)
    categories = traitlets.List(traitlets.Unicode(), read_only=True).tag(sync=True)
    annotators = traitlets.List(traitlets.Unicode(), read_only=True).tag(sync=True)
    matrix = traitlets.List(read_only=True, help="the counts [[a, b], [c, d]]").tag(sync=True)
    indices = traitlets.Dict(read_only=True, help="A_o, PI and BI of the table shown "
                             "(after rounding and cutting)").tag(sync=True)
    coefficients = traitlets.List(read_only=True).tag(sync=True)
    notes = traitlets.List(traitlets.Unicode(), read_only=True).tag(sync=True)

    def __init__(self, observed: float = 0.85, prevalence: float = 0.75, bias: float = 0.05,
                 n: int = 100, *, categories: Sequence = ("yes", "no"),
                 annotators: Sequence = ("A", "B")):
        self._check(observed, prevalence, bias, n)
        for name, pair in (("categories", categories), ("annotators", annotators)):
            if isinstance(pair, str) or not hasattr(pair, "__len__") or len(pair) != 2 or \
                    len(set(map(str, pair))) != 2:
                validate.fail(_WHERE, name, "a list of two labels, distinct as text", pair)
        super().__init__()
        self._categories, self._annotators = list(categories), [str(a) for a in annotators]
        self._result: Mapping[str, AgreementResult] | None = None
        self._memo: dict[bytes, tuple] = {}  # table → results, rows (see _measures)
        self.set_trait("categories", [str(c) for c in categories])
        self.set_trait("annotators", self._annotators)
        self.set_chart("table", charts.contingency_heatmap(
            alt.NamedData("paradox_cells"), row_title=self._annotators[0],
            col_title=self._annotators[1], cell_size=44))
        self.set_chart("values", values_chart(alt.NamedData("paradox_values")))
        with self.hold_trait_notifications():
            self.observed, self.prevalence, self.bias, self.n = observed, prevalence, bias, n
        self._refresh()
        self.observe(self._on_change, ["observed", "prevalence", "bias", "n"])

    @property
    def result(self) -> Mapping[str, AgreementResult]:
        """The measure functions' results on the current table (see the class notes)."""
        return self._result

    @property
    def table(self) -> pd.DataFrame:
        """The current counts, rows the first annotator's categories."""
        return pd.DataFrame(self.matrix,
                            index=pd.Index(self._categories, name=self._annotators[0]),
                            columns=pd.Index(self._categories, name=self._annotators[1]))

    def _export_groups(self) -> list[tuple]:
        """The controls a static page keeps live (:mod:`.export`), in order of priority:
        PI and BI each over its slider's steps (0.01) from the saved value of the other,
        then both on a grid of 0.1 (the 201 × 201 steps together would not fit a page)."""
        from .export import Control

        def control(name, label, step):
            n = round(2 / step)
            return Control(name, label, tuple(float(v) for v in
                                              np.round(np.linspace(-1, 1, n + 1), 10)),
                           f".iaa-slider-{name}")

        return [(control("prevalence", "prevalence index", 0.01),),
                (control("bias", "bias index", 0.01),),
                (control("prevalence", "prevalence index", 0.1),
                 control("bias", "bias index", 0.1))]

    @staticmethod
    def _check(observed, prevalence, bias, n) -> None:
        validate.probability(_WHERE, "observed", observed)
        validate.real(_WHERE, "prevalence", prevalence, minimum=-1, maximum=1)
        validate.real(_WHERE, "bias", bias, minimum=-1, maximum=1)
        validate.integer(_WHERE, "n", n, minimum=1)

    @guarded
    def _on_change(self, _change=None) -> None:
        self._check(self.observed, self.prevalence, self.bias, self.n)
        self._refresh()

    def _measures(self, m: np.ndarray) -> tuple[dict[str, AgreementResult], list]:
        """The panel's results and specific agreement on table ``m``, and the heatmap's
        rows; a table met before (slider steps that round to the same counts, a static
        page's states) is not measured again."""
        key = m.tobytes()
        if key not in self._memo:
            if len(self._memo) >= 4096:
                self._memo.clear()
            ann = Annotations.from_contingency(m, self._categories, self._annotators)
            results = {d.name: d.function(ann) for d in _registry.measures(panel=True)}
            results["specific_agreement"] = specific_agreement(ann,
                                                               positive=self._categories[0])
            self._memo[key] = (results, json_safe(charts.contingency_rows(m, self._categories)))
        results, cells = self._memo[key]
        return dict(results), cells

    def _refresh(self) -> None:
        m, notes = paradox_table(self.observed, self.prevalence, self.bias, self.n)
        results, cells = self._measures(m)
        rows = []
        for d in _registry.measures(panel=True):
            r = results[d.name]
            label = "S (Bennett; PABAK, Byrt et al. 1993)" if d.name == "bennett_s" \
                else d.symbol  # S = 2A_o − 1 on two categories
            rows.append({"key": d.name, "label": label, "value": r.value,
                         "expected": 1 - r.expected if d.scale == "disagreement"
                         else r.expected})
            if math.isnan(r.value):
                used = int(np.count_nonzero(m.sum(axis=0) + m.sum(axis=1)))
                notes.append(f"{d.symbol}: {F.degenerate_note(results['percent_agreement'].value, used)}")
        specific = results["specific_agreement"].params
        rows += [{"key": "p_pos", "label": "p_pos (specific agreement, positive)",
                  "value": specific["positive_agreement"], "expected": None},
                 {"key": "p_neg", "label": "p_neg (specific agreement, negative)",
                  "value": specific["negative_agreement"], "expected": None}]
        n = int(m.sum())
        with self.hold_sync():
            self._result = MappingProxyType(results)
            self.set_trait("matrix", m.tolist())
            self.set_trait("indices", {"observed": float(np.trace(m)) / n,
                                       "prevalence": float(m[0, 0] - m[1, 1]) / n,
                                       "bias": float(m[0, 1] - m[1, 0]) / n, "n": n})
            self.set_trait("coefficients", json_safe(rows))
            self.set_trait("notes", notes)
            self.set_rows(paradox_cells=cells,
                          paradox_values=[{"coefficient": r["label"].split(" (")[0],
                                           "value": r["value"], "order": i}
                                          for i, r in enumerate(rows)])


def values_chart(data) -> alt.Chart:
    """One bar per coefficient (``ParadoxExplorer`` rows: coefficient, value, order) on
    a fixed axis from −1 to 1, so that a move of a slider reads as a move of the bars."""
    return alt.Chart(data).mark_bar().encode(
        y=alt.Y("coefficient:N", sort=alt.EncodingSortField("order"), title=None),
        x=alt.X("value:Q", scale=alt.Scale(domain=[-1, 1]), title="value"),
        tooltip=["coefficient:N", alt.Tooltip("value:Q", format=".4f")],
    ).properties(width=260, height=alt.Step(20))
