"""Readers of the files annotation tools write, one module per format.

Each ``read_<format>`` returns :class:`~iaa_widgets.Annotations` (labels of items),
:class:`Spans` (units placed in the documents of an export: one
:class:`~iaa_widgets.Continuum` per document), a :class:`~iaa_widgets.Continuum` (one
recording) or, for CoNLL, :class:`Tagged` (both). What a reader does not read is
counted in the ``notes`` of what it returns, which every result reports. :func:`read`
recognises the format of a file or folder by its content and calls its reader.

The readers load on first use: ``iaa_widgets`` imports :mod:`.csv` (``read_csv``) when
it is imported, and the other formats' parsers need not load with it. Readers build
Annotations: io imports data, never the other way.
"""
# public name -> module that defines it
_LAZY = {"Spans": "._common", "Tagged": ".conll", "read_brat": ".brat",
         "read_conll": ".conll", "read_doccano": ".doccano", "read_elan": ".elan",
         "read_label_studio": ".label_studio", "read_prodigy": ".prodigy",
         "read_rttm": ".rttm", "read_textgrid": ".textgrid", "read": ".detect"}

__all__ = sorted(_LAZY)


def __getattr__(name):
    from importlib import import_module
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module 'iaa_widgets.io' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
