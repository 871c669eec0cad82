"""SparseAgreementExplorer: Sparse Probability of Agreement under every weighting scheme
(Nørregaard & Derczynski), for the user's own data, live.

Side by side, SPA (eq. 7) under each scheme of §5 and, for the current missingness,
its spread over rounds that drop each annotation at random with probability ``drop``
(:func:`~iaa_widgets.spa_missingness`); the normalised weight curves of the schemes
(Figures 4–5, :func:`~iaa_widgets.spa_weight_curves`, with the data's number of
categories and class shares) and the variance of SPA against the number of usable
annotations (Figures 6–7, :func:`~iaa_widgets.spa_variance_curve`, random arrival).
The drop slider only resamples (the prepared count patterns make that cheap);
``n_rounds`` and ``seed`` also redraw the variance curves.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

import numpy as np
import pandas as pd
import traitlets

from .. import charts, validate
from ..data import Annotations, as_annotations
from ..measures.sparse import SparseAgreementResult, sparse_agreement
from ..measures.sparse.curves import spa_variance_curve
from ..measures.sparse.missing import SpaMissingness, SpaMissingnessResult
from ..measures.sparse.variance import SPA_SCHEMES, spa_weight_curves
from ..stats import item_counts
from ._base import IAAWidget, guarded
from ._json import json_safe

__all__ = ["SparseAgreementExplorer"]


class SparseAgreementExplorer(IAAWidget):
    r"""SPA under each weighting scheme, its spread under missingness, weight and
    variance curves (Nørregaard & Derczynski, Figures 4–7) for ``data``.

    ``data``: :class:`~iaa_widgets.Annotations` or a tidy table (item, annotator,
    label); only primary labels count. ``drop`` (probability of dropping each
    annotation), ``n_rounds`` and ``seed`` are traitlets, set from Python or the page;
    ``n_points`` is the number of points of the variance curves.

    From Python: ``widget.result`` (scheme → :class:`SparseAgreementResult` on the full
    data), ``widget.missingness`` (:class:`SpaMissingnessResult` at ``drop``),
    ``widget.weight_curves`` and ``widget.variance_curve`` (DataFrames).

    Parameters
    ----------
    data : Annotations or tidy DataFrame (item, annotator, label)
        The ratings; only primary labels count.
    drop : float, default 0.2
        Probability of dropping each annotation in the missingness simulation, in [0, 1).
    n_rounds : int, default 200
        Rounds of the simulation.
    seed : int, default 0
        Seed of the simulation.
    n_points : int, default 25
        Points of the variance curves.
    **loader_args
        Column names and options of ``Annotations.from_long``.

    Attributes
    ----------
    result : dict of str to SparseAgreementResult
        Each scheme's SPA on the full data.
    missingness : SpaMissingness
        The spread of SPA at ``drop``.
    weight_curves, variance_curve : pandas.DataFrame
        Figures 4 and 6–7's curves.

    Raises
    ------
    AgreementError
        For data with fewer than two annotations on any item left, or an option out of
        range.

    See Also
    --------
    sparse_agreement : SPA under one scheme.
    spa_missingness : the simulation behind the spread.

    Notes
    -----
    $\bar P_{spa} = \sum_i w_i P_i / \sum_i w_i$ with each item's agreement $P_i$ and the
    scheme's weights $w_i$ (Nørregaard & Derczynski, eq. 7).

    References
    ----------
    Nørregaard, J. & Derczynski, L. (2022). Sparse Probability of Agreement.
    arXiv:2208.06161. https://doi.org/10.48550/arXiv.2208.06161

    Examples
    --------
    >>> import iaa_widgets as iaa
    >>> crowd = iaa.datasets.crowd_labels()
    >>> w = iaa.SparseAgreementExplorer(crowd, drop=0.2, n_rounds=20, seed=0)
    >>> round(w.result["flat"].value, 4)
    0.5501
    >>> w.result["flat"].value == iaa.sparse_agreement(crowd, scheme="flat").value
    True
    """

    _kind = traitlets.Unicode("sparse").tag(sync=True)
    drop = traitlets.Float(0.2, help="probability of dropping each annotation").tag(sync=True)
    n_rounds = traitlets.Int(200, help="rounds of random dropping").tag(sync=True)
    seed = traitlets.Int(0).tag(sync=True)
    summary = traitlets.List(read_only=True).tag(sync=True)
    info = traitlets.Dict(read_only=True).tag(sync=True)
    answered = traitlets.Int(0, read_only=True, help="recomputations finished (or failed): "
                             "the page shows it is working until this moves").tag(sync=True)

    def __init__(self, data, drop: float = 0.2, *, n_rounds: int = 200, seed: int = 0,
                 n_points: int = 25, **loader_args):
        where = "SparseAgreementExplorer"
        validate.keywords(where, loader_args,  # a misspelt option, never a loader's column
                          validate.keywords_of(self.__init__, Annotations.from_long))
        validate.probability(where, "drop", drop, open_high=True)
        validate.integer(where, "n_rounds", n_rounds, minimum=1)
        validate.integer(where, "seed", seed, minimum=0)  # an Int traitlet
        validate.integer(where, "n_points", n_points, minimum=1)
        ann = as_annotations(data, **loader_args).expanded("SparseAgreementExplorer")
        self._schemes = list(SPA_SCHEMES)
        self._result = MappingProxyType({s: sparse_agreement(ann, scheme=s)
                                         for s in self._schemes})
        self._annotations = ann
        self._prepared = SpaMissingness(ann, self._schemes)
        self._n_points = int(n_points)
        self._missing: SpaMissingnessResult | None = None
        self._variance: pd.DataFrame | None = None
        first = self._result[self._schemes[-1]]
        n = item_counts(ann).sum(axis=1)
        self._weights = spa_weight_curves(max(int(n.max()), 2), self._schemes,
                                          n_classes=ann.n_categories,
                                          class_probs=first.class_probs.to_numpy())
        super().__init__()
        self.set_chart("spa", charts.spa_schemes_chart(_named("spa_rounds"),
                                                       _named("spa_summary")))
        self.set_chart("weights", charts.spa_weights_chart(_named("spa_weights")))
        self.set_chart("variance", charts.spa_variance_chart(_named("spa_variance"),
                                                             _named("spa_drop")))
        self.set_trait("info", json_safe({
            "n_items": ann.n_items, "n_annotations": int(n.sum()),
            "n_usable_items": first.n_items, "n_usable": first.n_ratings,
            "excluded": first.excluded, "n_categories": ann.n_categories,
            "max_annotations": int(n.max()),
            "class_probs": {str(k): v for k, v in first.class_probs.items()}}))
        with self.hold_trait_notifications():
            self.drop, self.n_rounds, self.seed = drop, n_rounds, seed
        with self.hold_sync():
            self.set_rows(spa_weights=charts.spa_weight_rows(self._weights))
            self._compute_curves()
            self._compute_missing()
        self.observe(self._on_drop, "drop")
        self.observe(self._on_rounds, ["n_rounds", "seed"])

    _export_volatile = ("answered",)  # how many recomputations ran, not their numbers

    def _export_groups(self) -> list[tuple]:
        """The controls a static page keeps live (:mod:`.export`): the drop slider over
        its steps (0 to 0.95 by 0.01; SPA's rounds at each, with ``n_rounds`` and
        ``seed`` as saved). Rounds and seed stay disabled (they redraw the variance
        curves too); "fix x axis" is the page's own. Every scheme is on show at once:
        there is no scheme to choose."""
        from .export import Control

        steps = tuple(float(v) for v in np.round(np.linspace(0, 0.95, 96), 10))
        return [(Control("drop", "drop", steps, ".iaa-slider-drop"),)]

    # ----------------------------------------------------------- public
    @property
    def result(self) -> Mapping[str, SparseAgreementResult]:
        """SPA of the full data under each scheme."""
        return self._result

    @property
    def missingness(self) -> SpaMissingnessResult:
        """SPA per round and scheme at the current ``drop``."""
        return self._missing

    @property
    def weight_curves(self) -> pd.DataFrame:
        return self._weights

    @property
    def variance_curve(self) -> pd.DataFrame:
        return self._variance

    # ----------------------------------------------------------- internals
    def _compute_missing(self) -> None:
        res = self._prepared.sample(self.drop, self.n_rounds, self.seed)
        self._missing = res
        table = res.summary()
        rows = [{"scheme": s, "label": charts.SPA_SCHEME_LABELS[s], **table.loc[s].to_dict()}
                for s in self._schemes]
        with self.hold_sync():
            self.set_trait("summary", json_safe(rows))
            self.set_rows(spa_rounds=charts.spa_round_rows(res.values),
                          spa_summary=charts.spa_summary_rows(table),
                          spa_drop=[{"n_usable": float(np.mean(res.n_usable)),
                                     "label": f"drop {self.drop:.2f}"}])

    def _compute_curves(self) -> None:
        self._variance = spa_variance_curve(self._annotations, self._schemes,
                                            n_rounds=max(int(self.n_rounds), 2),
                                            seed=self.seed, n_points=self._n_points)
        self.set_rows(spa_variance=charts.spa_variance_rows(self._variance))

    def _answer(self) -> None:
        self.set_trait("answered", self.answered + 1)

    @guarded
    def _on_drop(self, change) -> None:
        try:
            self._compute_missing()
        finally:
            self._answer()

    @guarded
    def _on_rounds(self, change) -> None:
        try:
            with self.hold_sync():
                self._compute_missing()
                self._compute_curves()
        finally:
            self._answer()


def _named(name: str):
    import altair as alt
    return alt.NamedData(name)
