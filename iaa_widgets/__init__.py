"""iaa_widgets: inter-annotator agreement, exact and fast, with live JupyterLab widgets.

One import gives the whole public API::

    import iaa_widgets as iaa
    iaa.cohen_kappa(df)            # df: tidy table with item, annotator, label
"""
from .errors import AgreementError
from .data import Annotations, as_annotations, read_csv
from .results import AgreementResult

__version__ = "0.1.0"
