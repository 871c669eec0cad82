"""ContingencyMatrix: two annotators' contingency table and its coefficients, live.

The heatmap (counts, row and column marginals, the diagonal of agreements outlined)
sits beside A_o, Bennett's S, Scott's π, Cohen's κ, Gwet's AC1 and Krippendorff's α,
each with a 95 % interval, and the specific agreement of every category; κ and AC1 are
read against a benchmark scale with their uncertainty (Gwet 2014, ch. 6: the band
retained at 95 % cumulative membership probability, and that probability). With
``editable=True`` a click adds an item to a cell, a shift-click removes one and a
count can be typed; from the keyboard, arrow keys move a focus cell over the table and
+ / Enter add, − / Shift+Enter remove an item. With rows data, the items the chosen
pair's table leaves out (one or both of the two gave no label) are counted and named
(``left_out``).

One number per coefficient: the panel shows what the measure functions give on the
table, ``widget.result`` (value, chance agreement, standard error and the interval
``result.ci``, cut to the coefficient's range as every result's is). An edit never goes
back to rows: the measures run on ``Annotations.from_contingency`` of the counts, k²
cells weighted by their counts, whatever the number of items. A coefficient with no
analytic interval (α) gets a Wald interval from the delete-one jackknife of its
Statistic, built once per set of categories on the k² cells (the counts are the cells'
item weights), its method named as such.
"""
from __future__ import annotations

import math
from dataclasses import replace
from statistics import NormalDist
from types import MappingProxyType
from typing import Callable, Mapping, NamedTuple, Sequence

import numpy as np
import pandas as pd
import traitlets

from .. import charts, validate
from ..data import Annotations, as_annotations
from ..data.checks import _check_total
from ..errors import AgreementError
from ..measures import _formulas as F
from ..measures import _registry
from ..measures.benchmarking import SCALES, membership_probabilities, retained
from ..measures.categorical.classic import specific_agreement
from ..results import CUT, AgreementResult, cut_interval, interval_text
from ..stats import pair_contingencies
from ..stats.tables import check_categories
from ._base import IAAWidget, guarded
from ._json import json_safe

__all__ = ["ContingencyMatrix"]

LEVEL = 0.95  # of the intervals in the panel and of the benchmark bands
MAX_LEFT_OUT = 100  # items named in ``left_out`` (all are counted)


class _Coefficient(NamedTuple):
    label: str                     # in the panel
    measure: Callable              # the public function; ``measure.statistic`` its Statistic
    kwargs: Mapping = MappingProxyType({})
    disagreement: bool = False     # its result holds D_o, D_e rather than A_o, A_e
    benchmarked: bool = False      # read against the benchmark scale in the panel
    analytic: bool = True          # its result has an interval; else the panel's jackknife


# key -> coefficient, in the order of the panel: the measures registered with panel=True
# (measures/_registry.py), each a function of one two-annotator table with a Statistic
_COEFFICIENTS = {
    m.name: _Coefficient(m.symbol, m.function, disagreement=m.scale == "disagreement",
                         benchmarked=m.benchmarked, analytic=bool(m.intervals))
    for m in _registry.measures(panel=True)}


def _jackknife_se(theta: np.ndarray, w: np.ndarray) -> float:
    """Delete-one jackknife standard error (Quenouille–Tukey) over the n = Σ w items of
    a table: √((n − 1)/n · Σ_j w_j (θ_(j) − θ̄)²), θ̄ = Σ_j w_j θ_(j) / n, where the w_j
    items of cell j share θ_(j), the value with one of them left out. NaN below two
    items or where a leave-one-out value is undefined."""
    n = float(w.sum())
    if n < 2 or np.isnan(theta).any():
        return float("nan")
    mean = np.dot(w, theta) / n
    return math.sqrt((n - 1) / n * np.dot(w, (theta - mean) ** 2))


class _CellStatistics:
    """The Statistics of the coefficients without an analytic interval over the k²
    cells of a table, row-major; ``se(counts)`` gives each one's delete-one jackknife
    standard error for a table of counts, used as the cells' item weights (see the
    module docstring)."""

    def __init__(self, categories: list, names: list):
        k = len(categories)
        cells = Annotations.from_contingency(np.ones((k, k), np.int64), categories, names)
        self.categories = list(categories)
        self.stats = {key: c.measure.statistic(cells, **c.kwargs)
                      for key, c in _COEFFICIENTS.items() if not c.analytic}

    def se(self, counts: np.ndarray) -> dict:
        """{key: jackknife se of the value} for the table ``counts``: each Statistic
        restricted to the cells holding items, weighted by their counts."""
        w = np.asarray(counts, dtype=float).ravel()
        used = np.flatnonzero(w)
        return {key: _jackknife_se(replace(stat, tables={name: t[used] for name, t in
                                                         stat.tables.items()},
                                           weights=w[used]).jackknife(), w[used])
                for key, stat in self.stats.items()}


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
    check_categories(len(m), "ContingencyMatrix: the table")  # before any k × k copy
    ann = Annotations.from_contingency(m, categories, annotators)  # validates the table
    return m.astype(np.int64), list(ann.categories)


class ContingencyMatrix(IAAWidget):
    r"""A contingency table of two annotators with its agreement coefficients.

    ``data``: an :class:`~iaa_widgets.Annotations`, a tidy DataFrame (``item``,
    ``annotator``, ``label``; column names via ``item=`` ... as in
    ``Annotations.from_long``), or a square table of counts (array, nested lists or a
    DataFrame whose index names the categories; ``categories=`` names them otherwise).
    With more than two annotators ``pair`` picks two (names or positions; a selector in
    the widget switches pairs). ``editable=True``: teaching mode, counts can be changed.
    ``scale``: the benchmark scale κ and AC1 are read against ("landis-koch", "fleiss",
    "altman" or "krippendorff"; :mod:`iaa_widgets.measures.benchmarking`).

    The panel (``coefficients``) holds each coefficient's value, chance agreement,
    standard error and 95 % interval as its measure function gives them on the table
    (``widget.result``: κ's asymptotic interval, AC1's Student-t one, ..., each cut to
    the coefficient's range, a note saying when), a Wald interval with the delete-one
    jackknife standard error for a coefficient with none of its own (α, its method
    named so), and for κ and AC1 the benchmark band retained at 95 % cumulative
    probability with that standard error.

    From Python: ``widget.result`` maps each coefficient's name to the
    :class:`~iaa_widgets.AgreementResult` of its measure function on the current table,
    the numbers the panel shows; ``widget.matrix = table`` (or :meth:`set_table` to
    change the categories too) replaces the counts.

    Parameters
    ----------
    data : Annotations, tidy DataFrame, or a square table of counts
        Ratings of two or more annotators, or the counts (array, nested lists, or a
        DataFrame whose index and columns name the categories).
    categories : sequence of labels, optional
        The categories of a table of counts, in its order (a DataFrame's own index
        otherwise; never sorted).
    pair : pair of annotator names or positions, optional
        The two annotators shown when the data have more (default: the first two).
    annotators : sequence of two names, default ("A", "B")
        The raters' names for a table of counts.
    editable : bool, default False
        Teaching mode: the counts can be edited in the widget.
    scale : {"landis-koch", "fleiss", "altman", "krippendorff"}, default "landis-koch"
        The benchmark scale κ and AC1 are read against.
    **loader_args
        Column names and options of ``Annotations.from_long`` (``item=``, ``annotator=``,
        ``label=`` …).

    Attributes
    ----------
    result : dict of str to AgreementResult
        Each coefficient's result on the current table: the numbers the panel shows.
    matrix : list of lists of int
        The counts (set it to replace them; `set_table` changes the categories too).

    Raises
    ------
    AgreementError
        For a table that is not square, negative or fractional counts, categories that
        do not match the table, or a pair or scale that is not there.

    See Also
    --------
    cohen_kappa : κ and its interval from the same table.
    pairwise : every pair's coefficient at once.
    ParadoxExplorer : κ's paradoxes on a 2 × 2 table.

    Notes
    -----
    With $p_{kl}$ the share of items the first annotator put in $k$ and the second in
    $l$, $A_o = \sum_k p_{kk}$ and Cohen's $\kappa = (A_o - A_e)/(1 - A_e)$ with
    $A_e = \sum_k p_{k\cdot} p_{\cdot k}$ (Cohen 1960, eq. 1); the other coefficients
    differ only in $A_e$ (Meyer's tutorial).

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement 20(1), 37–46. https://doi.org/10.1177/001316446002000104

    Landis, J. R. & Koch, G. G. (1977). The measurement of observer agreement for
    categorical data. Biometrics 33(1), 159–174. https://doi.org/10.2307/2529310

    Examples
    --------
    A_o = 0.7 and A_e = 0.5 on this table, so κ = 0.4 (Cohen 1960, eq. 1, by hand):

    >>> import iaa_widgets as iaa
    >>> w = iaa.ContingencyMatrix([[3, 1], [2, 4]], categories=["yes", "no"])
    >>> round(w.result["cohen_kappa"].value, 4)
    0.4
    >>> w.matrix = [[5, 0], [0, 5]]
    >>> w.result["cohen_kappa"].value
    1.0
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
    scale = traitlets.Unicode("landis-koch", help="the benchmark scale of κ and AC1 "
                              "(Gwet 2014, ch. 6)").tag(sync=True)
    left_out = traitlets.Dict(read_only=True, help="the items of the data the pair's "
                              "table leaves out (see _left_out)").tag(sync=True)

    def __init__(self, data, categories: Sequence | None = None, *, pair=None,
                 annotators: Sequence = ("A", "B"), editable: bool = False,
                 scale: str = "landis-koch", **loader_args):
        # a misspelt option is refused, never passed on to the loader as a column name
        validate.keywords("ContingencyMatrix", loader_args,
                          validate.keywords_of(self.__init__, Annotations.from_long))
        validate.boolean("ContingencyMatrix", "editable", editable)
        validate.choice("ContingencyMatrix", "scale", scale, SCALES)
        self._annotations: Annotations | None = None
        self._category_values: list = []
        self._cells: _CellStatistics | None = None
        self._result: Mapping[str, AgreementResult] | None = None
        # pair -> its table as last edited: an edit stays with its pair across switches
        self._edited: dict[tuple, list] = {}
        self._switching = False
        if isinstance(data, Annotations) or (isinstance(data, pd.DataFrame) and
                                             not _looks_square(data, loader_args)):
            ann = as_annotations(data, **loader_args)
            if ann.anonymous:
                raise AgreementError("these data come from per-item counts, without annotator "
                                     "identities: a contingency table needs two named "
                                     "annotators (use Annotations.from_long or from_wide)")
            check_categories(ann.n_categories, "ContingencyMatrix: the data")
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
        super().__init__(editable=editable, scale=scale)
        self._category_values = cats
        self.set_trait("categories", [str(c) for c in cats])
        self.set_trait("annotators", [str(n) for n in names])
        with self.hold_trait_notifications():
            self.pair = pair
            self.matrix = table if table is not None else self._pair_table(pair)
            self.set_trait("left_out", self._left_out(pair))
        self._recompute()  # errors on construction are raised, not only shown
        self.observe(self._on_pair, "pair")
        self.observe(self._on_matrix, "matrix")
        self.observe(self._on_scale, "scale")
        # the numbers and the heatmap's cells paint first, its spec follows (_base)
        self.draw_later(heatmap=lambda: charts.contingency_heatmap(
            alt_named("cells"), row_title="", col_title=""))

    # ----------------------------------------------------------- public
    @property
    def result(self) -> Mapping[str, AgreementResult]:
        """The measure functions' results on the current table: the panel's coefficients
        (percent_agreement, bennett_s, scott_pi, cohen_kappa, gwet_ac1,
        krippendorff_alpha: those registered with ``panel=True``) and specific_agreement
        (its per_category holds every category), on the table the panel shows (an edit
        that failed is not)."""
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
        self._edited.clear()  # the other pairs' edits were over the former categories
        with self.hold_trait_notifications():
            self._category_values = cats
            self.set_trait("categories", [str(c) for c in cats])
            self.matrix = m

    def _export_groups(self) -> list[tuple]:
        """The controls a static page keeps live (:mod:`.export`): the pair selectors,
        over every ordered pair of annotators (with more than two). Editing a cell
        needs the kernel and stays disabled."""
        from .export import Control

        n = len(self.annotators)
        if n <= 2:
            return []
        pairs = tuple([a, b] for a in range(n) for b in range(n) if a != b)
        return [(Control("pair", "pair", pairs, ".iaa-pair select"),)]

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
        new = tuple(change["new"])
        table = self._edited.get(new)
        if table is None:
            table = self._pair_table(new)
        self._switching = True  # (the new pair's table is not an edit)
        try:
            with self._syncing():
                self.matrix = table
                self.set_trait("left_out", self._left_out(new))
        finally:
            self._switching = False

    def _left_out(self, pair) -> dict:
        """The items the pair's table leaves out: those the first (``no_first``), the
        second (``no_second``) or neither annotator of ``pair`` (``no_both``) gave a
        primary label, counted with their item weights (``total``); ``items`` names the
        first MAX_LEFT_OUT of them in the data's item order, as [item, reason] text."""
        none = {"total": 0, "no_first": 0, "no_second": 0, "no_both": 0, "items": []}
        if self._annotations is None:
            return none  # a table of counts holds only the pair's items
        ann = self._annotations
        prim = ann.primary()
        rated = np.zeros((2, ann.n_items), dtype=bool)
        for slot, a in enumerate(pair):  # two slots, not a loop over items
            rated[slot, prim.item[prim.annotator == a]] = True
        weight = np.ones(ann.n_items, dtype=np.int64) if ann.item_weight is None \
            else np.asarray(ann.item_weight, dtype=np.int64)
        no_first, no_second = ~rated[0] & rated[1], rated[0] & ~rated[1]
        no_both = ~rated[0] & ~rated[1]
        out = np.flatnonzero(~(rated[0] & rated[1]))[:MAX_LEFT_OUT]
        a, b = (self.annotators[p] for p in pair)
        reason = np.where(no_both[out], "labelled by neither",
                          np.where(no_first[out], f"no label from {a}", f"no label from {b}"))
        return {"total": int(weight[~(rated[0] & rated[1])].sum()),
                "no_first": int(weight[no_first].sum()),
                "no_second": int(weight[no_second].sum()),
                "no_both": int(weight[no_both].sum()),
                "items": [[str(ann.items[i]), str(r)] for i, r in zip(out, reason)]}

    @guarded
    def _on_matrix(self, change) -> None:
        if self._annotations is not None and not self._switching:
            self._edited[tuple(self.pair)] = self.matrix
        self._recompute()

    @guarded
    def _on_scale(self, change) -> None:
        validate.choice("ContingencyMatrix", "scale", change["new"], SCALES)
        self._recompute()

    def _recompute(self) -> None:
        """The panel from the measure functions' results on the table (its k² cells, no
        rows: see the module docstring)."""
        m = np.asarray(self.matrix, dtype=np.int64)
        cats = self._category_values
        if m.shape[0] != len(cats):
            raise AgreementError(f"a {m.shape[0]}×{m.shape[0]} table for "
                                 f"{len(cats)} categories; use set_table "
                                 "to change the categories")
        if not m.any():
            raise AgreementError("the contingency table holds no items")
        _check_total(m)
        check_categories(len(cats), "ContingencyMatrix: the table")
        names = [self.annotators[p] for p in self.pair]
        ann = Annotations.from_contingency(m, cats, names)  # k² cells, never rows
        results = {key: c.measure(ann, **c.kwargs) for key, c in _COEFFICIENTS.items()}
        results["specific_agreement"] = specific_agreement(ann, positive=cats[0])
        if self._cells is None or self._cells.categories != cats:
            self._cells = _CellStatistics(cats, names)
        jackknife = self._cells.se(m)
        z = NormalDist().inv_cdf(0.5 + LEVEL / 2)
        used = int(np.count_nonzero(m.sum(axis=0) + m.sum(axis=1)))
        rows, notes = [], []
        for key, c in _COEFFICIENTS.items():
            r = results[key]
            value, se, ci, uncut, method = r.value, r.se, r.ci, r.ci_uncut, r.ci_method
            if not c.analytic:  # no interval of its own: the Wald one of its jackknife
                se, ci, uncut, method = jackknife[key], None, None, None
                if math.isfinite(value) and math.isfinite(se):
                    ci, uncut, _ = cut_interval(key, (value - z * se, value + z * se))
                    method = (f"jackknife Wald {LEVEL:.0%} ({c.label} has no analytic "
                              "interval)")
            se = float("nan") if se is None else se
            ok = math.isfinite(value) and math.isfinite(se)
            row = {"key": key, "label": c.label, "name": key, "value": value, "se": se,
                   "ci": ci, "ci_method": method, "band": None,
                   "expected": 1 - r.expected if c.disagreement else r.expected}
            if uncut is not None:
                notes.append(f"{c.label}: {CUT} (it was {interval_text(uncut)})")
            if c.benchmarked and ok and -1 <= value <= 1:
                labels, prob = membership_probabilities(value, se, self.scale)
                band, cumulative = retained(labels, prob, LEVEL)
                row["band"] = {"band": band, "probability": cumulative,
                               "bands": [list(b) for b in zip(labels, prob)]}
            rows.append(row)
            if math.isnan(value):
                a_o = results["percent_agreement"].value
                notes.append(f"{c.label}: {F.degenerate_note(a_o, used)}")
        columns = ["category", "agreements", "opportunities", "specific agreement"]
        # weighted sums of whole counts: whole numbers
        per_cat = results["specific_agreement"].per_category
        specific = [(int(round(a)), int(round(o)), float(v)) for a, o, v in zip(
            per_cat["agreements"], per_cat["opportunities"], per_cat["specific_agreement"])]
        unused = [str(cat) for cat, (_, chances, _) in zip(cats, specific) if chances == 0]
        if unused:
            notes.append(f"specific agreement: category(ies) {unused!r} never used: "
                         "their specific agreement is NaN")
        with self._syncing():
            self._result = MappingProxyType(results)
            self.set_trait("coefficients", json_safe(rows))
            self.set_trait("per_category", {
                "columns": columns,
                "rows": json_safe([[str(cat), *vals] for cat, vals in zip(cats, specific)]),
            })
            self.set_trait("notes", notes)
            self.set_rows(cells=charts.contingency_rows(m, cats))


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
