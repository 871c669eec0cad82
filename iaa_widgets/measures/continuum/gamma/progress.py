"""Progress of a long γ computation: a callback, a tqdm bar, or nothing.

``progress=`` of :func:`~iaa_widgets.gamma_family` and
:func:`~iaa_widgets.measures.continuum.gamma.sampling.expected_disorder` accepts

- ``"auto"`` (default): a tqdm bar (``tqdm.auto``: a widget in a notebook, text in a
  terminal) that appears only once the computation has run for a second, if tqdm
  is installed (``pip install "iaa_widgets[progress]"``) and someone can see it
  (tqdm's ``disable=None``: no bar when the output is not a terminal, as in CI logs
  or a pipe); nothing otherwise;
- ``True``: a tqdm bar from the start (tqdm required);
- ``False`` or ``None``: nothing;
- a callable ``progress(done, wanted)``: called after the best alignment with
  ``done = 0`` and after every sample; an exception it raises stops the computation.
"""
from __future__ import annotations

from ....errors import AgreementError

__all__ = ["progress_reporter"]

DELAY_AUTO = 1.0  # seconds before an "auto" bar shows


class _Bar:
    """A tqdm bar driven by ``(done, wanted)`` calls; ``close()`` ends it."""

    def __init__(self, delay: float, desc: str, disable: bool | None = False):
        from tqdm.auto import tqdm
        self._bar = tqdm(total=None, desc=desc, delay=delay, unit="sample", disable=disable)

    def __call__(self, done: int, wanted: int) -> None:
        bar = self._bar
        if bar.total != wanted:
            bar.total = wanted
        bar.update(done - bar.n)

    def close(self) -> None:
        self._bar.close()


def progress_reporter(progress, desc: str = "γ"):
    """``(report, close)`` for a ``progress=`` value (module doc); ``report`` is None
    when nothing is to be reported."""
    if progress is None or progress is False:
        return None, _nothing
    if callable(progress):
        return progress, _nothing
    if progress is True or progress == "auto":
        try:
            bar = _Bar(0.0, desc) if progress is True else \
                _Bar(DELAY_AUTO, desc, disable=None)  # None: only where a person sees it
        except ImportError:
            if progress is True:
                raise AgreementError('progress=True needs tqdm: pip install tqdm (or '
                                     '"iaa_widgets[progress]"); pass progress=False '
                                     'for no bar') from None
            return None, _nothing
        return bar, bar.close
    raise AgreementError(f"progress must be True, False, 'auto' or a callable "
                         f"progress(done, wanted), got {progress!r}")


def _nothing() -> None:
    return None
