"""AugmentedKappaSweep: Rosenberg & Binkowski's κ′(p) curve and its four item classes, live.

The curve of κ′ with p(A) and p(E) over 0.5 ≤ p ≤ 1 (the sweep of
:func:`~iaa_widgets.augmented_kappa_sweep`); a p slider moves a rule along it and the
breakdown follows: per class (§6) the number of items and their mean κ_x at 0.5, at p
and at 1; for the selected class its items with their §4 case type, κ_x at 0.5, p and
1 and every annotator's labels (as text), and the curves of the items a person ticks.
δ and τ redraw the classes (:meth:`AugmentedSweepResult.with_classes`); with more than
two annotators a selector picks one pair or the average of pairs (the paper's §6).
Every number comes from the measure functions; the widget only arranges them.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import traitlets

from .. import charts, validate
from ..data import Annotations, as_annotations
from ..errors import AgreementError
from ..html import isolate
from ..measures.augmented import (ITEM_CLASSES, AugmentedSweepResult, _check_thresholds,
                                  augmented_kappa_sweep)
from ..results import AgreementResult
from ._base import IAAWidget, guarded
from ._json import json_safe

__all__ = ["AugmentedKappaSweep"]

AVERAGE = -1  # pair index meaning "average of pairs"
CLASS_LABELS = {  # the four classes of §6 (and items whose κ_x is undefined)
    "constant_high": "1 · constant high κ",
    "constant_low": "2 · constant low κ",
    "higher_at_p1": "3 · higher at p = 1",
    "higher_at_p05": "4 · higher at p = 0.5",
    "undefined": "κ_x undefined",
}


class AugmentedKappaSweep(IAAWidget):
    r"""Augmented κ′ over p with the four item classes of Rosenberg & Binkowski (§6).

    ``data``: :class:`~iaa_widgets.Annotations` or a tidy table with primary and
    secondary labels (``rank="rank"`` or (primary, secondary) cells, as for
    :func:`~iaa_widgets.augmented_kappa_sweep`). ``p``, ``delta`` (δ), ``tau`` (τ),
    ``pair`` (-1: average of pairs, else a position in ``pair_labels``),
    ``selected_class`` and ``selected_items`` (positions in ``data.items``) are
    traitlets, set from Python or the page. ``max_rows`` bounds the item list shown.

    From Python: ``widget.result`` (κ′, p(A), p(E) at ``p``), ``widget.sweep`` (the
    :class:`AugmentedSweepResult` for the pair and thresholds), ``widget.item_kappa``
    (κ_x at ``p`` per item) and ``widget.class_items()`` (the selected class's items).

    Parameters
    ----------
    data : Annotations or tidy DataFrame
        Primary and secondary labels (``rank="rank"``, or (primary, secondary) cells).
    p : float, default 0.6
        The primary label's weight, in [0.5, 1].
    delta : float, default 0.1
        δ of the four item classes (§6).
    tau : float, default 0.5
        τ of the four item classes (§6).
    pair : int, optional
        −1 for the average of pairs, else a position in ``pair_labels``.
    selected_class : str, optional
        The item class listed.
    max_rows : int, default 100
        Items shown in the list.
    **loader_args
        Options of ``Annotations.from_long`` (``rank=`` …).

    Attributes
    ----------
    result : AgreementResult
        κ′, p(A) and p(E) at ``p``.
    sweep : AugmentedSweepResult
        The curve over p for the pair and thresholds.
    item_kappa : pandas.Series
        κ_x at ``p`` per item.

    Raises
    ------
    AgreementError
        For data without secondary labels, or p, δ, τ or a pair out of range.

    See Also
    --------
    augmented_kappa : κ′ at one p.
    augmented_kappa_sweep : the curve and item classes without a widget.

    Notes
    -----
    $\kappa' = (p(A) - p(E))/(1 - p(E))$ where agreement on primary labels counts $p$
    and on a primary and a secondary label $1 - p$ (Rosenberg & Binkowski 2004, §5).

    References
    ----------
    Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to determine
    interannotator reliability for multiply labeled data points. Proceedings of
    HLT-NAACL 2004: Short Papers, 77–80. https://aclanthology.org/N04-4020

    Examples
    --------
    >>> import iaa_widgets as iaa
    >>> emails = iaa.datasets.email_types()
    >>> w = iaa.AugmentedKappaSweep(emails, rank="rank", p=0.6)
    >>> round(w.result.value, 4)
    0.4894

    The widget reads κ′ off the sweep's exact curve; `augmented_kappa` computes it
    directly (the two agree to rounding):

    >>> abs(w.result.value - iaa.augmented_kappa(emails, p=0.6, rank="rank").value) < 1e-12
    True
    """

    _kind = traitlets.Unicode("sweep").tag(sync=True)
    p = traitlets.Float(0.6, help="weight of a primary label, 0.5 ≤ p ≤ 1").tag(sync=True)
    delta = traitlets.Float(0.1, help="δ: a change above δ from p = 0.5 to 1 makes "
                            "classes 3 and 4").tag(sync=True)
    tau = traitlets.Float(0.5, help="τ: mean κ_x at or above τ is class 1, below it "
                          "class 2").tag(sync=True)
    pair = traitlets.Int(AVERAGE).tag(sync=True)
    pair_labels = traitlets.List(traitlets.Unicode(), read_only=True).tag(sync=True)
    selected_class = traitlets.Unicode("").tag(sync=True)
    selected_items = traitlets.List(traitlets.Int()).tag(sync=True)
    max_rows = traitlets.Int(100).tag(sync=True)
    row_offset = traitlets.Int(0, help="position in the selected class of the first item "
                               "listed (pages of max_rows)").tag(sync=True)
    summary = traitlets.Dict(read_only=True).tag(sync=True)
    classes = traitlets.List(read_only=True).tag(sync=True)
    class_table = traitlets.Dict(read_only=True).tag(sync=True)
    tau_marks = traitlets.List(read_only=True, help="the values of τ where an item moves "
                               "between classes 1 and 2 (see _tau_marks)").tag(sync=True)

    def __init__(self, data, p: float = 0.6, *, delta: float = 0.1, tau: float = 0.5,
                 pair=None, selected_class: str | None = None, max_rows: int = 100,
                 **loader_args):
        validate.keywords("AugmentedKappaSweep", loader_args,  # a misspelt option refused
                          validate.keywords_of(self.__init__, Annotations.from_long))
        validate.real("AugmentedKappaSweep", "p", p, minimum=0.5, maximum=1.0)
        _check_thresholds("AugmentedKappaSweep", delta, tau)
        validate.integer("AugmentedKappaSweep", "max_rows", max_rows, minimum=1)
        if selected_class is not None:  # "" selects no class
            validate.choice("AugmentedKappaSweep", "selected_class", selected_class,
                            ("", *ITEM_CLASSES))
        ann = as_annotations(data, **loader_args).expanded("AugmentedKappaSweep")
        self._annotations: Annotations = ann
        base = augmented_kappa_sweep(ann, delta=delta, tau=tau)  # validates the data
        self._sweeps: dict[int, AugmentedSweepResult] = {AVERAGE: base}
        self._sweep = base
        self._result: AgreementResult | None = None
        self._item_kappa: pd.Series | None = None
        self._cached: tuple | None = None  # (sweep, its columns): see _columns
        self._labels = _label_matrix(ann)
        names = [str(n) for n in ann.annotators]
        pairs = [(a, b) for a in range(len(names)) for b in range(a + 1, len(names))]
        self._pairs = pairs
        super().__init__(max_rows=max_rows)
        self.set_trait("pair_labels", [f"{isolate(names[a])} × {isolate(names[b])}"
                                       for a, b in pairs]
                       if len(names) > 2 else [])
        self.set_chart("curve", charts.sweep_curve_chart(
            _named("sweep_curve"), _named("sweep_point"), _named("sweep_items")))
        with self.hold_trait_notifications():
            self.p, self.delta, self.tau = p, delta, tau
            self.pair = AVERAGE if pair is None else self._pair_index(pair)
        self._set_sweep()
        if selected_class is None:  # the class that needs a reader most, if it has items
            counts = self._sweep.items["class"].value_counts()
            selected_class = next((c for c in ("higher_at_p05", "higher_at_p1", "constant_low",
                                               "constant_high") if counts.get(c, 0)), "")
        self.selected_class = selected_class
        self._refresh()  # errors on construction are raised, not only shown
        self.observe(self._on_p, "p")
        self.observe(self._on_thresholds, ["delta", "tau"])
        self.observe(self._on_pair, "pair")
        self.observe(self._on_selection, ["selected_class", "max_rows"])
        self.observe(self._on_page, "row_offset")
        self.observe(self._on_items, "selected_items")

    # ----------------------------------------------------------- public
    @property
    def result(self) -> AgreementResult:
        """κ′ (``value``), p(A) (``observed``) and p(E) (``expected``) at ``p``."""
        return self._result

    @property
    def sweep(self) -> AugmentedSweepResult:
        """The sweep of the current pair (or all pairs) with classes for δ and τ."""
        return self._sweep

    @property
    def item_kappa(self) -> pd.Series:
        """κ_x at ``p`` of every item the sweep keeps."""
        return self._item_kappa

    def class_items(self, cls: str | None = None) -> pd.DataFrame:
        """The items of class ``cls`` (default: the selected class): item, case,
        kappa_0.5, kappa_p, kappa_1.0, then each annotator's labels as text."""
        cls = self.selected_class if cls is None else cls
        items = self._sweep.items
        return self._item_rows(np.flatnonzero(items["class"].to_numpy() == cls))

    def _export_groups(self) -> list[tuple]:
        """The controls a static page keeps live (:mod:`.export`), in order of priority:
        p over the sweep's own grid; the class listed; the pair; the pages of the saved
        class's items; p with the class; δ and τ, each over its slider's steps from
        the saved value of the other (the classes, their table and τ's marks at each);
        then δ with τ on a grid of 0.05 × 0.1 (their 101 × 201 steps together cost
        minutes at export). p with another pair, or δ with another class, is not saved:
        the page refuses it and says which combination is missing."""
        from .export import Control

        p = Control("p", "p", tuple(float(v) for v in self._sweep.curve["p"]),
                    ".iaa-slider-p")
        cls = Control("selected_class", "item class",
                      tuple(r["key"] for r in self.classes), "[data-class]")
        groups = [(p,), (cls,)]
        if self.pair_labels:
            groups.append((Control("pair", "pair", (AVERAGE, *range(len(self.pair_labels))),
                                   ".iaa-select-pair"),))
        total = self.class_table.get("total", 0)
        if total > self.max_rows:
            groups.append((Control("row_offset", "pages of items",
                                   tuple(range(0, total, self.max_rows)),
                                   ".iaa-page-prev, .iaa-page-next"),))
        delta = Control("delta", "δ", _steps(0.0, 1.0, 100), ".iaa-slider-delta")
        tau = Control("tau", "τ", _steps(-1.0, 1.0, 200), ".iaa-slider-tau")
        both = (Control("delta", "δ", _steps(0.0, 1.0, 20), ".iaa-slider-delta"),
                Control("tau", "τ", _steps(-1.0, 1.0, 20), ".iaa-slider-tau"))
        return groups + [(p, cls), (delta,), (tau,), both]

    # ----------------------------------------------------------- internals
    def _pair_index(self, pair) -> int:
        if pair in (AVERAGE, "average"):
            return AVERAGE
        names = list(self._annotations.annotators)
        if isinstance(pair, (tuple, list)) and len(pair) == 2:
            codes = tuple(sorted(names.index(x) if x in names else -1 for x in pair))
            if codes in self._pairs:
                return self._pairs.index(codes)
        elif isinstance(pair, (int, np.integer)) and 0 <= pair < len(self._pairs):
            return int(pair)
        raise AgreementError(f"pair must be 'average', a position in pair_labels or two "
                             f"annotator names out of {names!r}, got {pair!r}")

    def _set_sweep(self) -> None:
        """The sweep of the selected pair (computed once per pair), classes for δ, τ."""
        if len(self._pairs) > 1 and self.pair != AVERAGE and not \
                0 <= self.pair < len(self._pairs):
            raise AgreementError(f"pair must be -1 (average of pairs) or 0 … "
                                 f"{len(self._pairs) - 1}, got {self.pair}")
        key = self.pair if len(self._pairs) > 1 else AVERAGE
        if key not in self._sweeps:
            a, b = self._pairs[key]
            names = self._annotations.annotators
            self._sweeps[key] = augmented_kappa_sweep(
                self._annotations.select_annotators([names[a], names[b]]))
        self._sweep = self._sweeps[key].with_classes(self.delta, self.tau)
        self._ends = (self._sweep.at(0.5).value, self._sweep.at(1.0).value)  # κ′ at p = 0.5, 1

    def _pair_annotators(self) -> list[int]:
        if len(self._pairs) > 1 and self.pair != AVERAGE:
            return list(self._pairs[self.pair])
        return list(range(self._annotations.n_annotators))

    def _item_rows(self, rows) -> pd.DataFrame:
        """Rows ``rows`` of the sweep's items, with κ_x at p and the labels as text."""
        items = self._sweep.items.iloc[rows] if len(rows) else self._sweep.items.iloc[:0]
        codes = self._annotations.items.get_indexer(items["item"])
        out = pd.DataFrame({"item": items["item"].to_numpy(),
                            "case": items["case"].astype(str).to_numpy(),
                            "kappa_0.5": items["kappa_0.5"].to_numpy(),
                            "kappa_p": self._item_kappa.to_numpy()[rows],
                            "kappa_1.0": items["kappa_1.0"].to_numpy()})
        names = self._annotations.annotators
        for a in self._pair_annotators():
            out[str(names[a])] = self._labels[codes, a]
        return out

    def _refresh(self) -> None:
        with self.hold_sync():
            self.set_rows(sweep_curve=charts.sweep_curve_rows(self._sweep.curve))
            self._compute_at_p()
            self._send_item_curves()

    def _compute_at_p(self) -> None:
        sweep = self._sweep
        self._result = sweep.at(self.p)                       # validates p
        self._item_kappa = sweep.item_kappa(self.p)
        r = self._result
        with self.hold_sync():
            self.set_trait("summary", json_safe({
                "p": r.params["p"], "kappa": r.value, "p_a": r.observed, "p_e": r.expected,
                "kappa_05": self._ends[0], "kappa_1": self._ends[1],
                "n_items": sweep.n_items, "n_annotators": sweep.n_annotators,
                "excluded": sweep.excluded, "note": sweep.note,
                "n_secondary": self._n_secondary()}))
            self.set_rows(sweep_point=charts.sweep_point_rows(r))
            self._send_classes()

    def _columns(self) -> dict:
        """The sweep's item columns as arrays and text, kept while the sweep is the same
        object (a static page's states move p and the class, not the sweep)."""
        if self._cached is None or self._cached[0] is not self._sweep:
            items = self._sweep.items
            item = items["item"]
            self._cached = (self._sweep, {
                "class": items["class"].to_numpy(), "code": items["class"].cat.codes.to_numpy(),
                "kappa_0.5": items["kappa_0.5"].to_numpy(), "kappa_1.0": items["kappa_1.0"].to_numpy(),
                "item": [str(v) for v in item.tolist()],
                "case": [str(v) for v in items["case"].astype(str).tolist()],
                "codes": self._annotations.items.get_indexer(item)})
        return self._cached[1]

    def _send_classes(self) -> None:
        cols = self._columns()
        code = cols["code"]
        k = len(ITEM_CLASSES)
        count = np.bincount(code, minlength=k)

        def mean(values):
            ok = np.isfinite(values)
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.bincount(code[ok], values[ok], k) / np.bincount(code[ok], minlength=k)

        kp = self._item_kappa.to_numpy()
        m05, mp, m1 = mean(cols["kappa_0.5"]), mean(kp), mean(cols["kappa_1.0"])
        rows = [{"key": c, "label": CLASS_LABELS[c], "count": int(count[j]),
                 "mean_05": m05[j], "mean_p": mp[j], "mean_1": m1[j]}
                for j, c in enumerate(ITEM_CLASSES) if c != "undefined" or count[j]]
        members = np.flatnonzero(cols["class"] == self.selected_class)
        offset = min(max(0, self.row_offset), max(0, len(members) - 1))
        shown = members[offset:offset + self.max_rows]  # the page shown (as _item_rows)
        codes = cols["codes"][shown]
        who = self._pair_annotators()
        names = self._annotations.annotators
        labels = self._labels[codes][:, who].tolist()
        numbers = [_finite(cols["kappa_0.5"][shown]), _finite(kp[shown]),
                   _finite(cols["kappa_1.0"][shown])]
        with self.hold_sync():
            self.set_trait("tau_marks", self._tau_marks())
            self.set_trait("classes", json_safe(rows))
            self.set_trait("class_table", {
                "class": self.selected_class, "total": len(members), "offset": offset,
                "columns": ["item", "case", "kappa_0.5", "kappa_p", "kappa_1.0",
                            *(str(names[a]) for a in who)],
                "codes": codes.tolist(),
                "rows": [[cols["item"][r], cols["case"][r], *(n[k] for n in numbers),
                          *map(str, labels[k])] for k, r in enumerate(shown.tolist())]})

    def _tau_marks(self) -> list[float]:
        """The distinct means m = (κ_x(0.5) + κ_x(1)) / 2 of the items whose κ_x changes
        by at most δ (classes 1 and 2, §6): such an item is class 1 for τ ≤ m and class 2
        above, so the classes change only where τ crosses one of them (ascending)."""
        items = self._sweep.items
        k05, k1 = items["kappa_0.5"].to_numpy(), items["kappa_1.0"].to_numpy()
        with np.errstate(invalid="ignore"):
            steady = np.abs(k1 - k05) <= self.delta
        return np.unique(np.round((k05[steady] + k1[steady]) / 2, 12)).tolist()

    def _send_item_curves(self) -> None:
        chosen = [c for c in self.selected_items if 0 <= c < len(self._annotations.items)]
        names = self._annotations.items.take(chosen)
        kept = names[names.isin(self._sweep.items["item"])]
        if len(kept):
            curves = self._sweep.item_curves(kept)
            self.set_rows(sweep_items=charts.sweep_item_rows(curves))
        else:
            self.set_rows(sweep_items=[])

    @guarded
    def _on_p(self, change) -> None:
        self._compute_at_p()

    @guarded
    def _on_thresholds(self, change) -> None:
        before = self._sweep.items["class"]
        self._sweep = self._sweep.with_classes(self.delta, self.tau)
        if change["name"] == "tau" and self._sweep.items["class"].equals(before):
            return  # τ between the same two marks: the classes shown are the same
        self._send_classes()

    @guarded
    def _on_pair(self, change) -> None:
        self._set_sweep()
        self._refresh()

    @guarded
    def _on_selection(self, change) -> None:
        validate.choice("AugmentedKappaSweep", "selected_class", self.selected_class,
                        ("", *ITEM_CLASSES))
        if self.row_offset:  # a new class (or page size) lists from its first item
            self.row_offset = 0  # → _on_page sends the list
        else:
            self._send_classes()

    @guarded
    def _on_page(self, change) -> None:
        self._send_classes()

    def _n_secondary(self) -> int:
        """Secondary labels given by the annotators of the current pair (all of them for
        the average): with none, κ′, p(A) and p(E) do not depend on p."""
        ann = self._annotations
        return int(np.isin(ann.annotator[ann.rank == 2], self._pair_annotators()).sum())

    @guarded
    def _on_items(self, change) -> None:
        self._send_item_curves()

def _finite(values: np.ndarray) -> list:
    """Numbers as JSON takes them: floats, None for NaN and infinities (as json_safe)."""
    return [v if math.isfinite(v) else None for v in values.astype(float).tolist()]


def _steps(low: float, high: float, n: int) -> tuple[float, ...]:
    """The n + 1 values of a slider from ``low`` to ``high`` (its step (high − low)/n),
    rounded as the page's slider gives them."""
    return tuple(float(v) for v in np.round(np.linspace(low, high, n + 1), 10))


def _named(name: str):
    import altair as alt
    return alt.NamedData(name)


def _label_matrix(ann: Annotations) -> np.ndarray:
    """Items × annotators: each annotator's labels as text ("primary / secondary",
    "—" when it did not rate the item); built once, vectorised."""
    cats = np.array([str(c) for c in ann.categories], dtype=object)
    first = np.full((ann.n_items, ann.n_annotators), -1, dtype=np.int64)
    second = first.copy()
    prim = ann.rank == 1
    first[ann.item[prim], ann.annotator[prim]] = ann.label[prim]
    second[ann.item[~prim], ann.annotator[~prim]] = ann.label[~prim]
    text = np.where(first >= 0, cats[np.maximum(first, 0)], "—").astype(object)
    has = second >= 0
    text[has] = text[has] + " / " + cats[second[has]]
    return text
