"""A widget as a self-contained HTML page: ``widget.to_html("x.html")``.

The page holds, inline (no CDN, no network: it opens from ``file://`` offline):

- the widget's synced state as it is now (:func:`widget_state`), in a
  ``<script type="application/json">`` data block written by
  :func:`iaa_widgets.html.script_json`, so no label can end the element, and the page
  reads it with ``JSON.parse`` (data, never code or HTML);
- ``static/standalone.js`` (built from ``js/src/standalone.js``): the widgets' own
  front-end over a stand-in for anywidget's model, which renders the saved state;
- ``static/widgets.css``, the widgets' stylesheet.

Without a Python kernel nothing can be recomputed: every control that sets a traitlet
(sliders, number boxes, selects, item ticks, page buttons, cell edits) is disabled or
refused, and the banner lists the disabled ones by name; hover, tooltips, zoom and pan,
"fix x axis" and CSV downloads work, as they are the page's own. A Content Security
Policy refuses every request the page could make (``connect-src``, ``img-src`` …
``'none'`` but ``data:``/``blob:``), so a copy never reaches the network.
"""
from __future__ import annotations

import datetime as _dt
from typing import Any

import anywidget

from ..errors import AgreementError
from ..html import script_json, static_script, static_text, text
from ._json import json_safe

__all__ = ["widget_state", "widget_page", "standalone_script"]

_BUNDLE = "standalone.js"
_ANYWIDGET_OWN = {"_esm", "_css", "_anywidget_id"}

# scripts and styles are inline; vega compiles its expressions with Function ('unsafe-eval');
# nothing is fetched; images only from data: or blob: (vega-embed's PNG export, a CSV link)
_CSP = ("default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; "
        "style-src 'unsafe-inline'; img-src data: blob:; font-src data:")

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 80rem;
       padding: 0 1rem; color: #212121; background: #fff; }
.iaa-static-banner { border-left: 4px solid #1976d2; background: #e3f2fd; padding: 6px 10px;
                     margin: 0 0 12px; }
.iaa-static-notice { border-left: 4px solid #b34700; background: #fff3e0; padding: 6px 10px; }
.iaa-static-notice[hidden] { display: none; }
[data-iaa-static] { cursor: not-allowed; }
"""


def widget_state(widget: anywidget.AnyWidget) -> dict[str, Any]:
    """The traitlets the widget's front-end reads, as plain JSON (:func:`json_safe`:
    NaN and infinities become null, as Jupyter's messages carry them): every synced
    traitlet the widget's classes add to ``anywidget.AnyWidget`` (``_kind``, ``_specs``,
    ``_datasets``, ``error`` and the widget's own), none of the ipywidgets plumbing
    (``layout``, ``_esm``, model and view names)."""
    # anywidget adds _esm, _css and _anywidget_id to each instance: the page has its own
    plumbing = set(anywidget.AnyWidget.class_trait_names(sync=True)) | _ANYWIDGET_OWN
    names = sorted(set(widget.trait_names(sync=True)) - plumbing)
    return {name: json_safe(getattr(widget, name)) for name in names}


def standalone_script() -> str:
    """``static/standalone.js``: a classic script defining ``iaaStandalone.mount``
    (:func:`~iaa_widgets.html.static_script`)."""
    return static_script(_BUNDLE)


def _widget_css() -> str:
    css = static_text("widgets.css")
    if "</style" in css.lower():
        raise AgreementError("iaa_widgets/static/widgets.css contains '</style' and cannot "
                             "be inlined into a page; rebuild it with esbuild")
    return css


def widget_page(widget: anywidget.AnyWidget, *, title: Any = None) -> str:
    """The HTML document of ``widget`` in its current state (see the module's text).
    ``title`` (text, escaped) defaults to the widget's class name."""
    name = type(widget).__name__
    title = name if title is None else title
    saved = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    state = script_json(widget_state(widget))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{text(_CSP)}\">\n"
        f"<title>{text(title)}</title>\n"
        f"<style>{_STYLE}{_widget_css()}</style>\n</head>\n<body>\n"
        f"<p class=\"iaa-static-banner\" role=\"note\">Static copy of {text(name)}, saved "
        f"{saved}: the numbers are those of the Python session then. Changes that Python "
        "would recompute are refused, and these controls are disabled: "
        "<span class=\"iaa-static-disabled\">…</span>. What the page does by itself "
        "works: hover, tooltips, zoom and downloads.</p>\n"
        "<p class=\"iaa-static-notice\" role=\"status\" aria-live=\"polite\" hidden></p>\n"
        "<div id=\"iaa-widget\"></div>\n"
        "<noscript><p>This page draws the widget with JavaScript; allow it to see the "
        "chart.</p></noscript>\n"
        f"<script type=\"application/json\" id=\"iaa-state\">{state}</script>\n"
        f"<script>{standalone_script()}</script>\n"
        "<script>\n"
        "(() => {\n"
        "  const el = document.getElementById(\"iaa-widget\");\n"
        "  try {\n"
        "    const state = JSON.parse(document.getElementById(\"iaa-state\").textContent);\n"
        "    iaaStandalone.mount(el, state, {\n"
        "      disabledList: document.querySelector(\".iaa-static-disabled\"),\n"
        "      notice: document.querySelector(\".iaa-static-notice\"),\n"
        "    });\n"
        "  } catch (err) {\n"
        "    const p = document.createElement(\"p\");\n"
        "    p.className = \"iaa-error\";\n"
        "    p.textContent = \"widget error: \" + err;\n"
        "    el.append(p);\n"
        "    console.error(err);\n"
        "  }\n"
        "})();\n"
        "</script>\n</body>\n</html>\n")
