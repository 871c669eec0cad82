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
    """Every coefficient of the package as a DataFrame, one row each (name, family, the
    data it needs, annotators, intervals, missing-data policies, source); given ``data``,
    which apply and why the others do not (see
    :func:`iaa_widgets.measures._registry.coefficients`)."""
    return _registry.coefficients(data)


# the public names defined above (``__all__`` adds _LAZY's and the registry's)
_EAGER = {"AgreementError", "Annotations", "as_annotations", "read_csv",
          "LookAlikeLabelsWarning", "AgreementResult", "pairwise", "alpha_from_coincidences",
          "set_distances", "BootstrapResult", "bootstrap", "augmented_kappa_sweep",
          "SparseAgreementResult", "spa_item_variance", "spa_variance_curve",
          "spa_weight_curves", "coefficients"}
