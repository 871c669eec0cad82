"""JupyterLab widgets (anywidget): one shared front-end bundle, one class per widget."""
from .contingency import ContingencyMatrix
from .sweep import AugmentedKappaSweep
from .sparse import SparseAgreementExplorer
from .gamma import GammaExplorer
from .paradox import ParadoxExplorer

__all__ = ["ContingencyMatrix", "AugmentedKappaSweep", "SparseAgreementExplorer",
           "GammaExplorer", "ParadoxExplorer"]
