"""Results of the annotator models: each item's consensus label and probabilities,
each annotator's confusion matrix and accuracy, and how the estimate was reached."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from typing import Any, Mapping

import numpy as np
import pandas as pd

from ..errors import AgreementError
from ..html import text
from ..results import Charted, provenance_html
from .rates import ErrorRates

__all__ = ["ModelResult", "MajorityVoteResult", "DawidSkeneResult", "MaceResult"]


@dataclass(frozen=True, eq=False)
class ModelResult(Charted):
    """What an annotator model estimated.

    ``labels``: item → consensus label (a pandas Series indexed by item; its dtype is a
    Categorical over the data's categories, in their order, so labels keep their
    identity: ``1`` stays the integer 1, ``"1"`` the text; NaN where an item has no
    label). ``posteriors``: items × categories, each item's probability of each true
    category (NaN rows: items without a rating). ``confusion``: rows (annotator, true
    class), columns the label given: each annotator's probability of each label given
    the class (NaN rows: no estimate), made on first use from ``rates`` (the
    :class:`~iaa_widgets.models.rates.ErrorRates` the model holds: only the cells each
    annotator used) and refused by its size for a large crowd, where
    :meth:`confusion_matrix` (one annotator) and :meth:`confusion_cells` (long form) serve
    instead. ``accuracy``: each annotator's expected share of correct labels over the
    items they rated, Σ_k N_akk / Σ_kl N_akl with N_akl = Σ T_ik over their ratings l.
    ``priors``: the class shares π_k. ``log_likelihood``: the log-likelihood after each
    iteration (empty for a model without iterations; Dawid–Skene's is EM's objective and
    never falls, MACE's is not what variational Bayes increases and may fall);
    ``n_iter`` and ``converged`` say how it ended. ``excluded`` counts the items without
    a label, by reason; ``note`` says anything a reader must know (non-convergence
    included).
    """

    model: str
    labels: pd.Series
    posteriors: pd.DataFrame
    rates: ErrorRates
    accuracy: pd.Series
    priors: pd.Series
    n_items: int
    n_annotators: int
    n_ratings: int
    log_likelihood: np.ndarray = field(default_factory=lambda: np.empty(0))
    n_iter: int = 0
    converged: bool = True
    ratings_by: pd.Series | None = None  # ratings each annotator gave
    ratings_of: pd.Series | None = None  # ratings each item received
    excluded: Mapping[str, int] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""

    def chart(self, **options):
        """Each annotator's accuracy (MACE: competence) as bars and confusion matrix as a
        heatmap (:func:`iaa_widgets.models.charts.model_chart`); ``annotators=``,
        ``limit=``, ``show=`` choose what is drawn."""
        import_module(f"{__package__}.charts")  # registers the builder
        return super().chart(**options)

    @cached_property
    def confusion(self) -> pd.DataFrame:
        """Every annotator's class × label matrix: rows (annotator, class), columns label;
        refused beyond the package's dense size (``stats.MAX_CELLS``)."""
        return self.rates.frame()

    def confusion_matrix(self, annotator) -> pd.DataFrame:
        """One annotator's class × label matrix (rows: class, columns: label given)."""
        code = self.rates.annotators.get_indexer([annotator])[0]
        if code < 0:
            raise AgreementError(f"confusion_matrix: unknown annotator {annotator!r}; the "
                                 f"data have {list(self.rates.annotators[:8])!r}")
        cats = self.rates.categories
        return pd.DataFrame(self.rates.matrix(code), index=pd.Index(cats, name="class"),
                            columns=pd.Index(cats, name="label"))

    def confusion_cells(self) -> pd.DataFrame:
        """The probabilities of the labels each annotator gave, one row per (annotator,
        class, label given): annotator, class, label, probability. A label an annotator
        never gave is left out (its probability is 0 under Dawid–Skene and the majority
        vote; under one-coin and MACE it is that of any wrong label:
        :meth:`confusion_matrix`)."""
        return self.rates.long()

    def to_frame(self) -> pd.DataFrame:
        """One row per item: its consensus ``label``, that label's ``probability`` and the
        ``n_ratings`` it received."""
        codes = self.labels.cat.codes.to_numpy()
        post = self.posteriors.to_numpy()
        chosen = np.where(codes >= 0, post[np.arange(len(codes)), np.maximum(codes, 0)],
                          np.nan)
        out = pd.DataFrame({"label": self.labels, "probability": chosen},
                           index=self.labels.index)
        if self.ratings_of is not None:
            out["n_ratings"] = self.ratings_of.to_numpy()
        return out

    def per_annotator(self) -> pd.DataFrame:
        """One row per annotator: ``n_ratings`` and estimated ``accuracy``."""
        out = pd.DataFrame({"accuracy": self.accuracy})
        if self.ratings_by is not None:
            out.insert(0, "n_ratings", self.ratings_by.to_numpy())
        return out

    def summary(self) -> dict:
        """The scalar fields as a flat dict."""
        return {"model": self.model, "n_items": self.n_items,
                "n_annotators": self.n_annotators, "n_ratings": self.n_ratings,
                "n_iter": self.n_iter, "converged": self.converged,
                "log_likelihood": float(self.log_likelihood[-1])
                if len(self.log_likelihood) else math.nan,
                "n_excluded": int(sum(self.excluded.values()))}

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><th style='text-align:left'>{text(k)}</th><td>{text(v)}</td></tr>"
                       for k, v in self.summary().items())
        annotators = self.per_annotator().head(20).to_html(
            escape=True, float_format=lambda v: f"{v:.4f}")
        return f"<table>{rows}</table>{provenance_html(self.excluded, self.note)}{annotators}"

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(model={self.model!r}, n_items={self.n_items}, "
                f"n_annotators={self.n_annotators}, n_iter={self.n_iter}, "
                f"converged={self.converged})")


@dataclass(frozen=True, eq=False, repr=False)
class MajorityVoteResult(ModelResult):
    """:func:`~iaa_widgets.majority_vote`: ``posteriors`` are each item's vote shares,
    ``confusion`` and ``accuracy`` compare each annotator with the consensus (their own
    vote included), ``tied`` marks the items whose top categories tied
    (``params["ties"]`` says how each was decided)."""

    tied: pd.Series | None = None

    def to_frame(self) -> pd.DataFrame:
        out = super().to_frame().rename(columns={"probability": "vote_share"})
        out["tied"] = self.tied.to_numpy()
        return out


@dataclass(frozen=True, eq=False, repr=False)
class DawidSkeneResult(ModelResult):
    """:func:`~iaa_widgets.dawid_skene`: ``confusion`` holds the estimated θ_akl
    (one-coin: p_a on the diagonal, (1 − p_a)/(K − 1) elsewhere)."""


@dataclass(frozen=True, eq=False, repr=False)
class MaceResult(ModelResult):
    """:func:`~iaa_widgets.mace`: ``competence`` is each annotator's probability of not
    spamming (θ_j of Hovy et al. 2013), ``spamming`` (annotator × label) the labels a
    spammer draws (ξ_j); ``confusion`` is the implied θ_j·[k = l] + (1 − θ_j)·ξ_jl.
    ``params["alpha"]`` weighs knowing and ``params["beta"]`` spamming (Hovy et al.'s
    Beta(α, β) on θ_j): crowd-kit's ``alpha`` and ``beta`` are the other way round.
    ``log_likelihood`` is the marginal likelihood, not the bound variational Bayes
    increases: it may fall between iterations."""

    competence: pd.Series | None = None
    spamming: pd.DataFrame | None = None

    def per_annotator(self) -> pd.DataFrame:
        out = super().per_annotator()
        out["competence"] = self.competence.to_numpy()
        return out
