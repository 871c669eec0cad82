"""ContingencyMatrix: two annotators' contingency table and its coefficients, live.

The heatmap (counts, row and column marginals, the diagonal of agreements outlined)
sits beside A_o with its interval, Bennett's S, Scott's π, Cohen's κ, Krippendorff's α
and the specific agreement of every category. With ``editable=True`` a click adds an
item to a cell, a shift-click removes one and a count can be typed: the table goes back
to Python, every coefficient is recomputed by the measure functions and redrawn.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
import traitlets

from .. import charts, validate
from ..data import Annotations, as_annotations
from ..errors import AgreementError
from ..measures.alpha import krippendorff_alpha
from ..measures.classic import (bennett_s, cohen_kappa, percent_agreement, scott_pi,
                                specific_agreement)
from ..results import AgreementResult
from ..stats import pair_contingencies
from ._base import IAAWidget, guarded, json_safe

__all__ = ["ContingencyMatrix"]

# key -> (label in the panel, measure); the panel lists them in this order
_COEFFICIENTS = {
    "percent_agreement": ("A_o (observed agreement)",
                          lambda ann: percent_agreement(ann, ci="wilson")),
    "bennett_s": ("S (Bennett)", bennett_s),
    "scott_pi": ("π (Scott)", scott_pi),
    "cohen_kappa": ("κ (Cohen)", cohen_kappa),
    "krippendorff_alpha": ("α (Krippendorff, nominal)",
                           lambda ann: krippendorff_alpha(ann, metric="nominal")),
}


class _CountMatrix(traitlets.List):
    """A square table of non-negative whole counts, kept as a list of lists of ints;
    accepts nested lists, numpy arrays and DataFrames."""

    def validate(self, obj, value):
        if isinstance(value, pd.DataFrame):
            value = value.to_numpy()
        m = np.asarray(value)
        if isinstance(value, list) and not value:
            return []  # not set yet
        if m.ndim != 2 or m.shape[0] != m.shape[1] or m.size == 0:
            raise AgreementError(f"the matrix must be a non-empty square table of counts, "
                                 f"got shape {m.shape}")
        if not np.issubdtype(m.dtype, np.number) or np.any(m < 0) or \
                np.any(m != np.round(m)):
            raise AgreementError("the matrix must hold non-negative whole counts")
        return super().validate(obj, m.astype(np.int64).tolist())


def _table_from(data, categories, annotators) -> tuple[np.ndarray, list]:
    """A square table given as an array, nested lists or a DataFrame (its index names
    the categories unless ``categories`` does)."""
    if isinstance(data, pd.DataFrame):
        if data.shape[0] != data.shape[1]:
            raise AgreementError(f"a DataFrame must be a tidy table (columns item, annotator, "
                                 f"label) or a square table of counts; got columns "
                                 f"{list(data.columns)[:8]!r} and shape {data.shape}")
        categories = list(data.index) if categories is None else categories
        data = data.to_numpy()
    m = np.asarray(data)
    ann = Annotations.from_contingency(m, categories, annotators)  # validates the table
    return m.astype(np.int64), list(ann.categories)


class ContingencyMatrix(IAAWidget):
    """A contingency table of two annotators with its agreement coefficients.

    ``data``: an :class:`~iaa_widgets.Annotations`, a tidy DataFrame (``item``,
    ``annotator``, ``label``; column names via ``item=`` ... as in
    ``Annotations.from_long``), or a square table of counts (array, nested lists or a
    DataFrame whose index names the categories; ``categories=`` names them otherwise).
    With more than two annotators ``pair`` picks two (names or positions; a selector in
    the widget switches pairs). ``editable=True``: teaching mode, counts can be changed.

    From Python: ``widget.result`` maps each coefficient's name to its
    :class:`~iaa_widgets.AgreementResult`; ``widget.matrix = table`` (or
    :meth:`set_table` to change the categories too) replaces the counts.
    """

    _kind = traitlets.Unicode("contingency").tag(sync=True)
    matrix = _CountMatrix(help="counts: matrix[i][j] items the first annotator of the "
                          "pair put in category i and the second in j").tag(sync=True)
    categories = traitlets.List(traitlets.Unicode(), help="category labels (as text)",
                                read_only=True).tag(sync=True)
    annotators = traitlets.List(traitlets.Unicode(), read_only=True).tag(sync=True)
    pair = traitlets.List(traitlets.Int(), default_value=[0, 1], minlen=2,
                          maxlen=2).tag(sync=True)
    editable = traitlets.Bool(False).tag(sync=True)
    coefficients = traitlets.List(read_only=True).tag(sync=True)
    per_category = traitlets.Dict(read_only=True).tag(sync=True)
    notes = traitlets.List(traitlets.Unicode(), read_only=True).tag(sync=True)

    def __init__(self, data, categories: Sequence | None = None, *, pair=None,
                 annotators: Sequence = ("A", "B"), editable: bool = False, **loader_args):
        validate.boolean("ContingencyMatrix", "editable", editable)
        self._annotations: Annotations | None = None
        self._category_values: list = []
        self._result: Mapping[str, AgreementResult] = MappingProxyType({})
        if isinstance(data, Annotations) or (isinstance(data, pd.DataFrame) and
                                             not _looks_square(data, loader_args)):
            ann = as_annotations(data, **loader_args)
            if ann.anonymous:
                raise AgreementError("these data come from per-item counts, without annotator "
                                     "identities: a contingency table needs two named "
                                     "annotators (use Annotations.from_long or from_wide)")
            self._annotations = ann
            names, cats = list(ann.annotators), list(ann.categories)
            pair = [0, 1] if pair is None else [_position(p, names) for p in pair]
            table = None
        else:
            if loader_args:
                raise AgreementError(f"loader options {sorted(loader_args)} apply to a tidy "
                                     "DataFrame, not to a table of counts")
            table, cats = _table_from(data, categories, annotators)
            names, pair = list(annotators), [0, 1]
        super().__init__(editable=editable)
        self._category_values = cats
        self.set_trait("categories", [str(c) for c in cats])
        self.set_trait("annotators", [str(n) for n in names])
        self.set_chart("heatmap", charts.contingency_heatmap(alt_named("cells"), row_title="",
                                                             col_title=""))
        with self.hold_trait_notifications():
            self.pair = pair
            self.matrix = table if table is not None else self._pair_table(pair)
        self._recompute()  # errors on construction are raised, not only shown
        self.observe(self._on_pair, "pair")
        self.observe(self._on_matrix, "matrix")

    # ----------------------------------------------------------- public
    @property
    def result(self) -> Mapping[str, AgreementResult]:
        """The current coefficients: percent_agreement, bennett_s, scott_pi, cohen_kappa,
        krippendorff_alpha and specific_agreement (per_category holds every category)."""
        return self._result

    @property
    def table(self) -> pd.DataFrame:
        """The current counts, rows and columns named by the categories."""
        idx = pd.Index(self._category_values, name=self.annotators[self.pair[0]])
        cols = pd.Index(self._category_values, name=self.annotators[self.pair[1]])
        return pd.DataFrame(self.matrix, index=idx, columns=cols)

    def set_table(self, table, categories: Sequence | None = None) -> None:
        """Replace the counts and, with a DataFrame or ``categories``, the categories."""
        names = [self.annotators[p] for p in self.pair]
        if categories is None and not isinstance(table, pd.DataFrame):
            categories = self._category_values
        m, cats = _table_from(table, categories, names)
        with self.hold_trait_notifications():
            self._category_values = cats
            self.set_trait("categories", [str(c) for c in cats])
            self.matrix = m

    # ----------------------------------------------------------- internals
    def _pair_table(self, pair) -> np.ndarray:
        a, b = pair
        n = len(self.annotators)
        if not (0 <= a < n and 0 <= b < n) or a == b:
            raise AgreementError(f"pair must name two different annotators out of "
                                 f"{list(self.annotators)!r}, got positions {list(pair)!r}")
        return pair_contingencies(self._annotations, pairs=[[a, b]])[0]

    @guarded
    def _on_pair(self, change) -> None:
        if self._annotations is None:
            raise AgreementError("a table of counts has one pair of annotators only")
        self.matrix = self._pair_table(change["new"])

    @guarded
    def _on_matrix(self, change) -> None:
        self._recompute()

    def _recompute(self) -> None:
        m = np.asarray(self.matrix, dtype=np.int64)
        if m.shape[0] != len(self._category_values):
            raise AgreementError(f"a {m.shape[0]}×{m.shape[0]} table for "
                                 f"{len(self._category_values)} categories; use set_table "
                                 "to change the categories")
        names = [self.annotators[p] for p in self.pair]
        ann = Annotations.from_contingency(m, self._category_values, names)  # counts kept
        results = {key: measure(ann) for key, (_, measure) in _COEFFICIENTS.items()}
        results["specific_agreement"] = specific_agreement(
            ann, positive=self._category_values[0])
        rows, notes = [], []
        for key, (label, _) in _COEFFICIENTS.items():
            r = results[key]
            expected = 1 - r.expected if r.scale == "disagreement" else r.expected
            rows.append({"key": key, "label": label, "name": r.measure, "value": r.value,
                         "ci": r.ci, "ci_method": r.ci_method, "expected": expected})
            if r.note and key != "percent_agreement":
                notes.append(f"{label}: {r.note}")
        per_cat = results["specific_agreement"].per_category
        with self.hold_sync():
            self._result = MappingProxyType(results)
            self.set_trait("coefficients", json_safe(rows))
            self.set_trait("per_category", {
                "columns": ["category", *[str(c).replace("_", " ") for c in per_cat.columns]],
                "rows": json_safe([[str(c), *vals] for c, vals in
                                   zip(per_cat.index, per_cat.to_numpy().tolist())]),
            })
            self.set_trait("notes", notes)
            self.set_rows(cells=charts.contingency_rows(m, self._category_values))


def alt_named(name: str):
    import altair as alt
    return alt.NamedData(name)


def _looks_square(df: pd.DataFrame, loader_args) -> bool:
    """A DataFrame is a table of counts unless it has the tidy columns."""
    wanted = {loader_args.get("item", "item"), loader_args.get("annotator", "annotator"),
              loader_args.get("label", "label")}
    return not wanted <= set(df.columns)


def _position(p, names: list) -> int:
    if isinstance(p, (int, np.integer)) and not (p in names):
        return int(p)
    if p in names:
        return names.index(p)
    raise AgreementError(f"unknown annotator {p!r}; the data has {names!r}")
