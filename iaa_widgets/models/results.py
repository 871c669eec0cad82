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
    r"""The consensus of a majority vote, and each annotator compared with it.

    What `majority_vote` returns. ``posteriors`` are each item's vote shares;
    ``confusion`` and ``accuracy`` compare each annotator with the consensus (their own
    vote included); ``tied`` marks the items whose top categories tied.

    Parameters
    ----------
    model : str
        The model, as fitted (e.g. "dawid_skene (full)").
    labels : pandas.Series
        Item → consensus label, a Categorical over the data's categories in their order, so
        that labels keep their identity (``1`` stays the integer 1, ``"1"`` the text); NaN
        where an item has no label.
    posteriors : pandas.DataFrame
        Items × categories: each item's probability of each true category (NaN rows: items
        without a rating).
    rates : ErrorRates
        The annotators' error rates as the model holds them (only the cells each annotator
        used); ``confusion`` is made from them.
    accuracy : pandas.Series
        Each annotator's expected share of correct labels over the items they rated.
    priors : pandas.Series
        The class shares $\pi_k$.
    n_items, n_annotators, n_ratings : int
        The data's size.
    log_likelihood : numpy.ndarray, default empty
        The log-likelihood after each iteration (empty for a model without iterations).
    n_iter : int, default 0
        The iterations run.
    converged : bool, default True
        Whether the iterations converged (a note says so when not).
    ratings_by : pandas.Series, optional
        The ratings each annotator gave.
    ratings_of : pandas.Series, optional
        The ratings each item received.
    excluded : mapping of str to int, default {}
        The items without a label, by reason.
    params : mapping, default {}
        The model's options.
    note : str, default ""
        What a reader must know (non-convergence included).
    tied : pandas.Series, optional
        Item → whether its top categories tied (``params["ties"]`` says how each was
        decided).

    Attributes
    ----------
    confusion : pandas.DataFrame
        Every annotator's class × label matrix, rows (annotator, class), columns the label
        given; refused beyond the package's dense size, where `confusion_matrix` and
        `confusion_cells` serve.

    Methods
    -------
    confusion_matrix(annotator)
        One annotator's class × label matrix (rows: class, columns: label given).
    confusion_cells()
        The probabilities of the labels each annotator gave, in long form.
    to_frame()
        One row per item: its consensus label, that label's probability, its ratings.
    per_annotator()
        One row per annotator: ratings and estimated accuracy.
    summary()
        The scalar fields as a flat dict.
    chart(**options)
        Each annotator's accuracy as bars and confusion matrix as a heatmap (Altair).

    See Also
    --------
    iaa_widgets.majority_vote : Makes it.
    iaa_widgets.DawidSkeneResult : The consensus weighted by each annotator's error rates.
    iaa_widgets.MaceResult : The consensus under MACE.

    Notes
    -----
    With $n_{ik}$ the votes of item i for category k, the posterior is the vote share
    $n_{ik} / \sum_l n_{il}$, and annotator a's accuracy is
    $\sum_k N_{akk} / \sum_{k,l} N_{akl}$, $N_{akl}$ their labels l on items whose
    consensus is k.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3], "annotator": list("abc") * 3,
    ...                    "label": ["x", "x", "y", "y", "y", "y", "x", "x", "x"]})
    >>> r = iaa.majority_vote(df)
    >>> r.labels.tolist()
    ['x', 'y', 'x']
    >>> r.accuracy.round(4).tolist()  # c agrees with the consensus on 2 of 3 items
    [1.0, 1.0, 0.6667]
    >>> r.to_frame()["vote_share"].round(4).tolist()
    [0.6667, 1.0, 1.0]
    """

    tied: pd.Series | None = None

    def to_frame(self) -> pd.DataFrame:
        out = super().to_frame().rename(columns={"probability": "vote_share"})
        out["tied"] = self.tied.to_numpy()
        return out


@dataclass(frozen=True, eq=False, repr=False)
class DawidSkeneResult(ModelResult):
    r"""The consensus and annotator error rates estimated by Dawid & Skene's EM.

    What `dawid_skene` returns: ``confusion`` holds the estimated $\theta_{akl}$, the
    probability that annotator a gives label l to an item of true class k (one-coin model:
    $p_a$ on the diagonal, $(1 - p_a)/(K - 1)$ elsewhere); ``posteriors`` the items'
    class probabilities $T_{ik}$ at the last E-step.

    Parameters
    ----------
    model : str
        The model, as fitted (e.g. "dawid_skene (full)").
    labels : pandas.Series
        Item → consensus label, a Categorical over the data's categories in their order, so
        that labels keep their identity (``1`` stays the integer 1, ``"1"`` the text); NaN
        where an item has no label.
    posteriors : pandas.DataFrame
        Items × categories: each item's probability of each true category (NaN rows: items
        without a rating).
    rates : ErrorRates
        The annotators' error rates as the model holds them (only the cells each annotator
        used); ``confusion`` is made from them.
    accuracy : pandas.Series
        Each annotator's expected share of correct labels over the items they rated.
    priors : pandas.Series
        The class shares $\pi_k$.
    n_items, n_annotators, n_ratings : int
        The data's size.
    log_likelihood : numpy.ndarray, default empty
        The log-likelihood after each iteration (empty for a model without iterations).
    n_iter : int, default 0
        The iterations run.
    converged : bool, default True
        Whether the iterations converged (a note says so when not).
    ratings_by : pandas.Series, optional
        The ratings each annotator gave.
    ratings_of : pandas.Series, optional
        The ratings each item received.
    excluded : mapping of str to int, default {}
        The items without a label, by reason.
    params : mapping, default {}
        The model's options.
    note : str, default ""
        What a reader must know (non-convergence included).

    Attributes
    ----------
    confusion : pandas.DataFrame
        Every annotator's class × label matrix, rows (annotator, class), columns the label
        given; refused beyond the package's dense size, where `confusion_matrix` and
        `confusion_cells` serve.

    Methods
    -------
    confusion_matrix(annotator)
        One annotator's class × label matrix (rows: class, columns: label given).
    confusion_cells()
        The probabilities of the labels each annotator gave, in long form.
    to_frame()
        One row per item: its consensus label, that label's probability, its ratings.
    per_annotator()
        One row per annotator: ratings and estimated accuracy.
    summary()
        The scalar fields as a flat dict.
    chart(**options)
        Each annotator's accuracy as bars and confusion matrix as a heatmap (Altair).

    See Also
    --------
    iaa_widgets.dawid_skene : Makes it.
    iaa_widgets.MajorityVoteResult : The unweighted consensus.
    iaa_widgets.MaceResult : The consensus under MACE.

    Notes
    -----
    ``log_likelihood`` is EM's objective, which never falls. Annotator a's accuracy is

    $$
    \frac{\sum_k N_{akk}}{\sum_{k,l} N_{akl}}, \quad
    N_{akl} = \sum_{i \in \text{rated by } a,\ \text{label } l} T_{ik}.
    $$

    References
    ----------
    Dawid, A. P., & Skene, A. M. (1979). Maximum Likelihood Estimation of Observer
    Error-Rates Using the EM Algorithm. Journal of the Royal Statistical Society, Series C
    (Applied Statistics), 28(1), 20–28. https://doi.org/10.2307/2346806

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3], "annotator": list("abc") * 3,
    ...                    "label": ["x", "x", "y", "y", "y", "y", "x", "x", "x"]})
    >>> r = iaa.dawid_skene(df)
    >>> r.labels.tolist(), r.converged
    (['x', 'y', 'x'], True)
    >>> r.priors.round(4).tolist()  # π: two items of class x, one of y
    [0.6667, 0.3333]
    >>> r.accuracy.round(4).tolist()
    [1.0, 1.0, 0.6667]
    """


@dataclass(frozen=True, eq=False, repr=False)
class MaceResult(ModelResult):
    r"""The consensus, competence and spamming estimated by MACE.

    What `mace` returns: ``competence`` is each annotator's probability of not spamming
    ($\theta_j$ of Hovy et al. 2013), ``spamming`` (annotator × label) the labels a
    spammer draws ($\xi_j$); ``confusion`` is the implied
    $\theta_j [k = l] + (1 - \theta_j) \xi_{jl}$.

    Parameters
    ----------
    model : str
        The model, as fitted (e.g. "dawid_skene (full)").
    labels : pandas.Series
        Item → consensus label, a Categorical over the data's categories in their order, so
        that labels keep their identity (``1`` stays the integer 1, ``"1"`` the text); NaN
        where an item has no label.
    posteriors : pandas.DataFrame
        Items × categories: each item's probability of each true category (NaN rows: items
        without a rating).
    rates : ErrorRates
        The annotators' error rates as the model holds them (only the cells each annotator
        used); ``confusion`` is made from them.
    accuracy : pandas.Series
        Each annotator's expected share of correct labels over the items they rated.
    priors : pandas.Series
        The class shares $\pi_k$.
    n_items, n_annotators, n_ratings : int
        The data's size.
    log_likelihood : numpy.ndarray, default empty
        The log-likelihood after each iteration (empty for a model without iterations).
    n_iter : int, default 0
        The iterations run.
    converged : bool, default True
        Whether the iterations converged (a note says so when not).
    ratings_by : pandas.Series, optional
        The ratings each annotator gave.
    ratings_of : pandas.Series, optional
        The ratings each item received.
    excluded : mapping of str to int, default {}
        The items without a label, by reason.
    params : mapping, default {}
        The model's options.
    note : str, default ""
        What a reader must know (non-convergence included).
    competence : pandas.Series, optional
        Annotator → $\theta_j$, the probability of not spamming.
    spamming : pandas.DataFrame, optional
        Annotators × labels: $\xi_j$, the labels a spammer draws.

    Attributes
    ----------
    confusion : pandas.DataFrame
        Every annotator's class × label matrix, rows (annotator, class), columns the label
        given; refused beyond the package's dense size, where `confusion_matrix` and
        `confusion_cells` serve.

    Methods
    -------
    confusion_matrix(annotator)
        One annotator's class × label matrix (rows: class, columns: label given).
    confusion_cells()
        The probabilities of the labels each annotator gave, in long form.
    to_frame()
        One row per item: its consensus label, that label's probability, its ratings.
    per_annotator()
        One row per annotator: ratings and estimated accuracy.
    summary()
        The scalar fields as a flat dict.
    chart(**options)
        Each annotator's accuracy as bars and confusion matrix as a heatmap (Altair).

    See Also
    --------
    iaa_widgets.mace : Makes it.
    iaa_widgets.DawidSkeneResult : Full error rates by EM.
    iaa_widgets.MajorityVoteResult : The unweighted consensus.

    Notes
    -----
    ``params["alpha"]`` weighs knowing and ``params["beta"]`` spamming (Hovy et al.'s
    Beta(α, β) prior on $\theta_j$): crowd-kit's ``alpha`` and ``beta`` are the other way
    round. ``log_likelihood`` is the marginal likelihood, not the bound variational Bayes
    increases: it may fall between iterations. ``per_annotator()`` adds a ``competence``
    column.

    References
    ----------
    Hovy, D., Berg-Kirkpatrick, T., Vaswani, A., & Hovy, E. (2013). Learning Whom to Trust
    with MACE. In Proceedings of NAACL-HLT 2013 (pp. 1120–1130).
    https://aclanthology.org/N13-1132

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3], "annotator": list("abc") * 3,
    ...                    "label": ["x", "x", "y", "y", "y", "y", "x", "x", "x"]})
    >>> r = iaa.mace(df, seed=0)
    >>> r.labels.tolist()
    ['x', 'y', 'x']
    >>> r.competence.round(4).tolist()  # c, who disagrees once, is trusted least
    [0.8468, 0.8468, 0.3968]
    """

    competence: pd.Series | None = None
    spamming: pd.DataFrame | None = None

    def per_annotator(self) -> pd.DataFrame:
        out = super().per_annotator()
        out["competence"] = self.competence.to_numpy()
        return out
