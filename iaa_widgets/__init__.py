"""iaa_widgets: inter-annotator agreement, exact and fast, with live JupyterLab widgets.

One import gives the whole public API::

    import iaa_widgets as iaa
    iaa.cohen_kappa(df)            # df: tidy table with item, annotator, label
"""
from . import validate
from .errors import AgreementError
from .data import Annotations, as_annotations
from .io.csv import read_csv
from .labels import LookAlikeLabelsWarning
from .results import AgreementResult
from .measures import _registry
from .measures.categorical import classic as _classic, gwet as _gwet  # noqa: F401 (light: loaded now)
from .measures.categorical.pairwise import pairwise
from .measures.continuous.alpha import alpha_from_coincidences, set_distances
from .inference.bootstrap import BootstrapResult, bootstrap
from .measures.augmented import augmented_kappa_sweep
from .measures.sparse import (SparseAgreementResult, spa_item_variance, spa_variance_curve,
                              spa_weight_curves)

__version__ = "0.1.0"

# Every coefficient (iaa.cohen_kappa, iaa.icc …) comes from the registry of measures
# (measures/_registry.py), its module loaded on first use. The other parts that import
# heavy dependencies (scipy, anywidget, altair) load on first use too, so that
# `import iaa_widgets` stays fast: public name -> module that defines it.
_LAZY: dict[str, str] = {
    "Continuum": ".continuum",
    "read_continuum_csv": ".continuum",
    "gamma_family": ".measures.continuum.gamma.coefficients",
    "GammaResult": ".measures.continuum.gamma.coefficients",
    "GammaKResult": ".measures.continuum.gamma.coefficients",
    "GammaFamilyResult": ".measures.continuum.gamma.coefficients",
    "gamma_corpus": ".measures.continuum.gamma.corpus",
    "GammaCorpusResult": ".measures.continuum.gamma.corpus",
    "ContingencyMatrix": ".widgets.contingency",
    "AugmentedKappaSweep": ".widgets.sweep",
    "SparseAgreementExplorer": ".widgets.sparse",
    "GammaExplorer": ".widgets.gamma",
    "ProjectExplorer": ".widgets.explorer",
    "StudyDesigner": ".widgets.designer",
    "ParadoxExplorer": ".widgets.paradox",
    "share": ".sharing",
    "disagreements": ".explore",
    "span_disagreements": ".explore_spans",
    "leave_one_out": ".inference.leave_one_out",
    "compare": ".inference.compare",
    "ComparisonResult": ".inference.compare",
    "sample_size": ".inference.sample_size",
    "SampleSizeResult": ".inference.sample_size",
    "annotator_profile": ".explore",
    "label_usage": ".explore",
    "label_confusion": ".explore",
    "consensus_confusion": ".explore",
    "read_adjudication": ".io.adjudication",
    "write_adjudication": ".io.adjudication",
    "spa_missingness": ".measures.sparse.missing",
    "SpaMissingness": ".measures.sparse.missing",
    "icc_table": ".measures.continuous.icc",
    "per_label": ".measures.sets_spans.multilabel",
    "benchmark": ".measures.benchmarking",
    "Benchmark": ".measures.benchmarking",
    "read": ".io.detect",
    "read_label_studio": ".io.label_studio",
    "read_prodigy": ".io.prodigy",
    "read_doccano": ".io.doccano",
    "read_brat": ".io.brat",
    "read_conll": ".io.conll",
    "read_rttm": ".io.rttm",
    "read_textgrid": ".io.textgrid",
    "read_elan": ".io.elan",
    "Spans": ".io._common",
    "Tagged": ".io.conll",
    "report_html": ".report",
    "write_report": ".report",
    "sufficient_statistics": ".stats.lazy",
    "SufficientStatistics": ".stats.lazy",
    "majority_vote": ".models",
    "MajorityVoteResult": ".models",
    "dawid_skene": ".models",
    "DawidSkeneResult": ".models",
    "mace": ".models",
    "MaceResult": ".models",
}


# Submodules reachable as attributes (`iaa.datasets.email_types()`) without an import.
_SUBMODULES = ("datasets", "charts", "io")


def __getattr__(name):
    from importlib import import_module
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    if name in _SUBMODULES:
        return import_module(f".{name}", __name__)
    if name == "__all__":  # every public name: the registry's coefficients included
        return sorted(_EAGER | set(_LAZY) | set(_registry.names()))
    measure = _registry.find(name) if not name.startswith("_") else None
    if measure is not None:
        globals()[name] = measure.function  # found once
        return measure.function
    raise AttributeError(f"module 'iaa_widgets' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_SUBMODULES) | set(_registry.names()))


@validate.takes()  # a misspelt keyword is refused, naming the closest (issue 44)
def coefficients(data=None):
    r"""Every coefficient of the package as a DataFrame; given data, which apply and why not.

    One row per registered coefficient (`iaa_widgets/measures/_registry.py`), by family,
    then in the order of their definitions. Given ``data``, each applicable measure is
    computed once on the data with its defaults, which is how its applicability is known;
    units on a continuum are judged by their kind only (γ's sampling is not run).

    Parameters
    ----------
    data : Annotations or pandas.DataFrame or Continuum or Spans or SufficientStatistics, optional
        Ratings of items (anything [as_annotations][iaa_widgets.as_annotations] accepts),
        units on a continuum (a Continuum, or a table with ``start`` and ``end`` columns),
        spans of documents, or [sufficient_statistics][iaa_widgets.sufficient_statistics].
        None (default): the table alone.

    Returns
    -------
    pandas.DataFrame
        Columns ``name``, ``family``, ``data`` (the kind of data it needs),
        ``annotators`` ("two", or "two or more"), ``intervals`` (analytic, then
        bootstrap), ``missing`` (its missing-data policies, default first), ``source``;
        given ``data``, also ``applies`` (bool) and ``why not`` (the kind of data it needs,
        an argument the data cannot give, or the measure's own refusal; empty where it
        applies).

    Raises
    ------
    AgreementError
        If ``data`` cannot be read as any of the kinds above, or a keyword is unknown.

    See Also
    --------
    iaa_widgets.report_html : Every applicable coefficient on the data, in one page.
    iaa_widgets.bootstrap : An interval for any coefficient, by name.
    iaa_widgets.AgreementResult : What each coefficient returns.

    Notes
    -----
    The families, in the order of the table: observed agreement, chance-corrected
    agreement, Krippendorff's α, correlation and variance, spans, unitizing and
    continuum. A chance-corrected coefficient is $(A_o - A_e)/(1 - A_e)$ (or
    $1 - D_o/D_e$); ``source`` names the paper each formula comes from, and
    `docs/measures/sources.md` gives the full list with what the tests check them against.

    References
    ----------
    Meyer, C. M. (2009). *A Brief Tutorial on Inter-Rater Agreement*. Technische
    Universität Darmstadt.

    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability* (4th ed.). Advanced
    Analytics, LLC. ISBN 978-0970806284.

    Examples
    --------
    >>> table = iaa.coefficients()
    >>> table.set_index("name").loc["cohen_kappa", ["annotators", "missing"]].tolist()
    ['two', 'listwise, raise']

    Meyer's two raters ("Chance-corrected Measures: Example"): κ applies, the ICC and
    the augmented κ do not, and each says why.

    >>> data = iaa.Annotations.from_contingency([[2, 2], [1, 5]], categories=["high", "low"],
    ...                                         annotators=("r2", "r1"))
    >>> which = iaa.coefficients(data).set_index("name")
    >>> bool(which.loc["cohen_kappa", "applies"])
    True
    >>> print(which.loc["icc", "why not"])
    needs numeric ratings of items; these data are ordered categories of 10 items by 2 annotators
    """
    return _registry.coefficients(data)


# the public names defined above (``__all__`` adds _LAZY's and the registry's)
_EAGER = {"AgreementError", "Annotations", "as_annotations", "read_csv",
          "LookAlikeLabelsWarning", "AgreementResult", "pairwise", "alpha_from_coincidences",
          "set_distances", "BootstrapResult", "bootstrap", "augmented_kappa_sweep",
          "SparseAgreementResult", "spa_item_variance", "spa_variance_curve",
          "spa_weight_curves", "coefficients"}
