"""The base of every iaa_widgets widget.

All widgets share one bundled ES module (``iaa_widgets/static/widgets.js``, built from
``js/``; no CDN) and pick their front-end by ``_kind``. A widget's own module (``_esm``)
is a small loader (``static/loader.js``) that imports the bundle, sent in ``_bundle``,
once per page: anywidget drops the messages of a model whose module takes over 2 s to
load, and a page of widgets each parsing the bundle took that long under load. Charts are Vega-Lite specs made
by :mod:`iaa_widgets.charts` with named datasets (``alt.NamedData``): the spec is sent
once in ``_specs``, the rows of each dataset travel in ``_datasets``, and the front-end
swaps them into the live view (``view.data(name, rows)``) instead of re-embedding.
A widget's numbers paint first: :meth:`IAAWidget.draw_later` makes its specs on a thread
(importing altair, 1.1 s in a fresh kernel, issue 43 §3) after its state has gone out,
and the front-end draws each chart when its spec arrives; :meth:`IAAWidget.wait` and
``to_html`` wait for them.
An exception raised by a Python observer is caught by :func:`guarded` and shown in the
widget (the ``error`` traitlet) rather than lost in a log.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import threading
import traceback
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from .. import validate
from ..errors import AgreementError
from ._json import json_safe

__all__ = ["IAAWidget", "guarded", "chart_spec"]

STATIC = Path(__file__).resolve().parent.parent / "static"
_BUNDLE, _LOADER = STATIC / "widgets.js", STATIC / "loader.js"
for _path in (_BUNDLE, _LOADER):
    if not _path.exists():
        raise ImportError(f"the widgets' front-end bundle {_path} is missing: build it with "
                          "`npm ci && npm run build` in js/ (pip install -e . does it too)")
_BUNDLE_TEXT = _BUNDLE.read_text(encoding="utf-8")


def _dataset_names(node: Any, found: set[str]) -> set[str]:
    if isinstance(node, dict):
        data = node.get("data")
        if isinstance(data, dict) and "name" in data and "values" not in data:
            found.add(data["name"])
        for v in node.values():
            _dataset_names(v, found)
    elif isinstance(node, list):
        for v in node:
            _dataset_names(v, found)
    return found


def chart_spec(chart) -> dict:
    """The Vega-Lite dict of an Altair chart whose data are ``alt.NamedData``: each
    named dataset appears in ``datasets`` with no rows (the front-end fills them in
    from the ``_datasets`` traitlet). Not validated against the Vega-Lite schema on each
    call (jsonschema's checks cost up to a second, issue 43 §3): the tests validate every
    spec a widget sends (tests/test_first_paint.py, tests/test_charts.py)."""
    spec = chart.to_dict(validate=False)
    spec["datasets"] = {name: [] for name in sorted(_dataset_names(spec, set()))}
    return spec


def guarded(method):
    """Decorate an observer (or message handler) of an :class:`IAAWidget`: an exception
    it raises is shown in the widget (and kept in ``widget.error``) instead of being
    lost; a later successful run clears it."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        try:
            out = method(self, *args, **kwargs)
        except Exception as exc:  # shown to the user, who can fix the input
            self.error = f"{type(exc).__name__}: {exc}"
            self.error_traceback = traceback.format_exc()
            return None
        if self.error:
            self.error = ""
            self.error_traceback = ""
        return out
    return run


class IAAWidget(anywidget.AnyWidget):
    """Base of the iaa_widgets widgets. A subclass sets ``_kind`` to the name of its
    front-end renderer (``js/src/index.js``), registers its charts with
    :meth:`set_chart` and updates their rows with :meth:`set_rows`."""

    _esm = _LOADER
    _css = STATIC / "widgets.css"
    # the bundle the loader imports once per page, and the key it is cached under there
    _bundle = traitlets.Unicode(_BUNDLE_TEXT).tag(sync=True)
    _bundle_id = traitlets.Unicode(
        hashlib.sha256(_BUNDLE_TEXT.encode("utf-8")).hexdigest()[:16]).tag(sync=True)

    _kind = traitlets.Unicode("").tag(sync=True)
    _specs = traitlets.Dict().tag(sync=True)
    _datasets = traitlets.Dict().tag(sync=True)
    error = traitlets.Unicode("", help="the last error raised while updating, as shown "
                              "in the widget ('' when none)").tag(sync=True)
    error_traceback = traitlets.Unicode("")
    _drawing: threading.Thread | None = None  # the thread of draw_later

    def __init__(self, *args, **kwargs):
        self._sync_lock = threading.RLock()  # draw_later's thread against _syncing
        super().__init__(*args, **kwargs)

    @contextlib.contextmanager
    def _syncing(self):
        """``hold_sync``, with draw_later's thread kept from adding its spec to the
        changes held meanwhile (ipywidgets' held set is not thread-safe)."""
        with self._sync_lock, self.hold_sync():
            yield

    def set_chart(self, name: str, chart) -> None:
        """Send an Altair chart built on ``alt.NamedData`` to the front-end (embeds it)."""
        self._specs = {**self._specs, name: chart_spec(chart)}

    def draw_later(self, **builders) -> None:
        """Send the charts ``name=build`` (``build()`` returns an Altair chart on
        ``alt.NamedData``) from a thread, so that the state already sent (numbers,
        tables, the charts' rows) paints without waiting for altair; an error in a
        builder is shown as the observers' are (:func:`guarded`)."""
        def run():
            try:
                specs = {name: chart_spec(build()) for name, build in builders.items()}
            except Exception as exc:  # a fault in a chart: shown, the numbers stay
                self.error = f"{type(exc).__name__}: {exc}"
                self.error_traceback = traceback.format_exc()
                return
            with self._sync_lock:
                self._specs = {**self._specs, **specs}

        self._drawing = threading.Thread(target=run, name=f"{type(self).__name__} charts",
                                         daemon=True)
        self._drawing.start()

    def _wait_charts(self, timeout: float | None) -> None:
        """Block until the charts of :meth:`draw_later` are in ``_specs``."""
        if self._drawing is not None:
            self._drawing.join(timeout)
            if self._drawing.is_alive():
                raise TimeoutError(f"charts not made within {timeout} s")

    def wait(self, timeout: float | None = None) -> Any:
        """Block until the widget shows the numbers and charts of its current
        traitlets. The base widget computes in its observers, so its numbers already
        are; its charts may follow (:meth:`draw_later`); a widget that computes in a
        worker (:class:`GammaExplorer`) waits for it."""
        self._wait_charts(timeout)

    def to_html(self, path=None, *, title: Any = None, timeout: float | None = 60.0,
                budget: int = 5_000_000):
        """The widget in its current state as one self-contained HTML page (scripts and
        styles inline, no CDN: it opens from ``file://`` with no network; see
        :mod:`iaa_widgets.widgets.export`): written to ``path`` (a path or an open text
        file) and None returned, or returned as a string when ``path`` is None. Waits
        (up to ``timeout`` s, see :meth:`wait`) for a running computation first. In the
        page, hover, tooltips and zoom work; controls that recompute in Python are
        disabled, and the page says which; the controls a widget declares switch among
        states Python computes now, as many as keep the page within ``budget`` bytes
        (:func:`~iaa_widgets.widgets.export.precomputed_states`)."""
        from .export import widget_page

        where = f"{type(self).__name__}.to_html"
        if not (path is None or isinstance(path, (str, os.PathLike)) or hasattr(path, "write")):
            validate.fail(where, "path", "a file path, an open text file or None (the page "
                          "returned as a string)", path)
        if timeout is not None:
            timeout = validate.real(where, "timeout", timeout, minimum=0)
        budget = validate.integer(where, "budget", budget, minimum=0)
        self._wait_charts(timeout)  # (a subclass's wait may not call this one)
        try:
            self.wait(timeout)
        except AgreementError:
            pass  # the computation failed: the page shows its error, as the widget does
        document = widget_page(self, title=title, budget=budget)
        if path is None:
            return document
        if hasattr(path, "write"):
            path.write(document)
        else:
            Path(path).write_text(document, encoding="utf-8")
        return None

    def set_rows(self, **datasets) -> None:
        """Replace the rows of named datasets (DataFrames or lists of dicts); the charts
        that use them redraw in place."""
        self._datasets = {**self._datasets,
                          **{name: json_safe(rows) for name, rows in datasets.items()}}
