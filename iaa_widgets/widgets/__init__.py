"""JupyterLab widgets (anywidget): one shared front-end bundle, one class per widget."""
from .contingency import ContingencyMatrix

__all__ = ["ContingencyMatrix"]
