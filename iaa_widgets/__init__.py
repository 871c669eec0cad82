"""iaa_widgets: inter-annotator agreement, exact and fast, with live JupyterLab widgets.

One import gives the whole public API::

    import iaa_widgets as iaa
    iaa.cohen_kappa(df)            # df: tidy table with item, annotator, label
"""
from .errors import AgreementError
from .data import Annotations, as_annotations, read_csv
from .labels import LookAlikeLabelsWarning
from .results import AgreementResult
from .measures.classic import (bennett_s, cohen_kappa, davies_fleiss_kappa, fleiss_kappa,
                               percent_agreement, scott_pi, specific_agreement)
from .measures.pairwise import pairwise
from .measures.alpha import alpha_from_coincidences, krippendorff_alpha
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
    "ContingencyMatrix": ".widgets.contingency",
    "AugmentedKappaSweep": ".widgets.sweep",
    "SparseAgreementExplorer": ".widgets.sparse",
    "GammaExplorer": ".widgets.gamma",
    "spa_missingness": ".measures.sparse.missing",
    "SpaMissingness": ".measures.sparse.missing",
}


# Submodules reachable as attributes (`iaa.datasets.email_types()`) without an import.
_SUBMODULES = ("datasets", "charts")


def __getattr__(name):
    from importlib import import_module
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    if name in _SUBMODULES:
        return import_module(f".{name}", __name__)
    raise AttributeError(f"module 'iaa_widgets' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_SUBMODULES))
