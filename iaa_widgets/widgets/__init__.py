"""JupyterLab widgets (anywidget): one shared front-end bundle, one class per widget.

Each class is imported from its module on first use (PEP 562), so that the first widget
of a kernel loads only its own module (issue 43 §3: a first paint under 1 s)."""
from importlib import import_module

_MODULES = {"ContingencyMatrix": ".contingency", "AugmentedKappaSweep": ".sweep",
            "SparseAgreementExplorer": ".sparse", "GammaExplorer": ".gamma",
            "ParadoxExplorer": ".paradox"}

__all__ = list(_MODULES)


def __getattr__(name: str):
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(_MODULES[name], __name__), name)
