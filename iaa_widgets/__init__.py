"""iaa_widgets: inter-annotator agreement, exact and fast, with live JupyterLab widgets.

One import gives the whole public API::

    import iaa_widgets as iaa
    iaa.cohen_kappa(df)            # df: tidy table with item, annotator, label
"""
from .errors import AgreementError
from .data import Annotations, as_annotations, read_csv
from .labels import LookAlikeLabelsWarning
from .results import AgreementResult
from .measures.classic import (bennett_s, cohen_kappa, conger_kappa, davies_fleiss_kappa,
                               fleiss_kappa, percent_agreement, scott_pi, specific_agreement)
from .measures.gwet import gwet_ac1, gwet_ac2
from .measures.pairwise import pairwise
from .measures.alpha import alpha_from_coincidences, krippendorff_alpha, set_distances
from .resampling import BootstrapResult, bootstrap
from .measures.augmented import augmented_kappa, augmented_kappa_sweep
from .measures.sparse import (SparseAgreementResult, spa_item_variance, spa_variance_curve,
                              spa_weight_curves, sparse_agreement, sparse_kappa)

__version__ = "0.1.0"

# Parts that import heavy dependencies (scipy, anywidget, altair) load on first use,
# so that `import iaa_widgets` stays fast: public name -> module that defines it.
_LAZY: dict[str, str] = {
    "Continuum": ".continuum",
    "read_continuum_csv": ".continuum",
    "gamma": ".measures.gamma.coefficients",
    "gamma_cat": ".measures.gamma.coefficients",
    "gamma_k": ".measures.gamma.coefficients",
    "gamma_family": ".measures.gamma.coefficients",
    "GammaResult": ".measures.gamma.coefficients",
    "GammaKResult": ".measures.gamma.coefficients",
    "GammaFamilyResult": ".measures.gamma.coefficients",
    "gamma_corpus": ".measures.gamma.corpus",
    "GammaCorpusResult": ".measures.gamma.corpus",
    "ContingencyMatrix": ".widgets.contingency",
    "AugmentedKappaSweep": ".widgets.sweep",
    "SparseAgreementExplorer": ".widgets.sparse",
    "GammaExplorer": ".widgets.gamma",
    "spa_missingness": ".measures.sparse.missing",
    "SpaMissingness": ".measures.sparse.missing",
    "tolerance_agreement": ".measures.tolerance",
    "mean_pearson_r": ".measures.correlation",
    "mean_spearman_rho": ".measures.correlation",
    "finn_coefficient": ".measures.anova",
    "robinson_a": ".measures.anova",
    "janson_olsson_iota": ".measures.anova",
    "maxwell_re": ".measures.maxwell",
    "light_kappa": ".measures.light",
    "hubert_kappa": ".measures.light",
    "kappa_max": ".measures.light",
    "unitizing_alpha": ".measures.unitizing",
    "u_alpha": ".measures.unitizing",
    "cu_alpha": ".measures.unitizing",
    "icc": ".measures.icc",
    "icc_table": ".measures.icc",
    "kendall_w": ".measures.kendall",
    "per_label": ".measures.multilabel",
    "span_f1": ".measures.spans",
    "benchmark": ".measures.benchmarking",
    "Benchmark": ".measures.benchmarking",
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
}


# Submodules reachable as attributes (`iaa.datasets.email_types()`) without an import.
_SUBMODULES = ("datasets", "charts", "io")


def __getattr__(name):
    from importlib import import_module
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    if name in _SUBMODULES:
        return import_module(f".{name}", __name__)
    raise AttributeError(f"module 'iaa_widgets' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_SUBMODULES))
