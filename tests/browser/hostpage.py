"""A widget on a bare page, the way hosts other than JupyterLab show it (VS Code,
marimo, Colab: none defines JupyterLab's --jp-* CSS variables): the bundle
``iaa_widgets/static/widgets.js`` renders a Python widget's synced state through a
stand-in for anywidget's model (get/set/on/off/save_changes). Nothing computes in
Python here: a change the page makes is recorded in ``window.__saved`` (name → value)
for the test to read. Used by the theme and accessibility browser tests; the
round trip through a kernel is tested in JupyterLab by the per-widget tests.
"""
from __future__ import annotations

import json
from pathlib import Path

from iaa_widgets.widgets.export import widget_state

STATIC = Path(__file__).resolve().parents[2] / "iaa_widgets" / "static"
ORIGIN = "http://iaa-host.test"

_PAGE = """<!doctype html>
<html {html_attrs}><head><meta charset="utf-8">
<link rel="stylesheet" href="{origin}/widgets.css">
<style>body {{ margin: 12px; background: {background}; color: {color}; }}</style>
</head><body {body_attrs}><div id="host"></div>
<script type="module">
import widget from "{origin}/widgets.js";
const state = {state};
const listeners = {{}};
window.__saved = {{}};
const model = {{
  get: (name) => state[name],
  set: (name, value) => {{
    state[name] = value;
    (listeners[`change:${{name}}`] || []).forEach((cb) => cb());
    window.__saved[name] = value;
  }},
  save_changes: () => {{}},
  on: (event, cb) => {{ (listeners[event] = listeners[event] || []).push(cb); }},
  off: (event, cb) => {{
    listeners[event] = (listeners[event] || []).filter((c) => c !== cb); }},
  send: () => {{}},
}};
// from the test: a change as Python would send it
window.__setFromPython = (name, value) => {{
  state[name] = value;
  (listeners[`change:${{name}}`] || []).forEach((cb) => cb());
}};
widget.render({{ model, el: document.getElementById("host") }});
</script></body></html>"""

# the accessible name of every control inside `root` (aria-labelledby, aria-label, a
# <label>, else its text), with its tag and class
ACCESSIBLE_NAMES = """(root) => {
  const name = (e) => {
    const by = e.getAttribute('aria-labelledby');
    if (by) return by.split(/\\s+/).map((id) => document.getElementById(id)?.textContent || '')
      .join(' ').trim();
    if (e.getAttribute('aria-label')) return e.getAttribute('aria-label').trim();
    if (e.labels && e.labels.length) return [...e.labels].map((l) => l.textContent).join(' ').trim();
    return (e.textContent || '').trim();
  };
  const controls = root.querySelectorAll(
    'input, select, button, a[href], textarea, [tabindex]:not([tabindex="-1"]), summary, progress');
  return [...controls].map((e) => ({ tag: e.tagName.toLowerCase(), cls: e.className,
                                     name: name(e) }));
}"""


def open_widget(browser, widget, *, html_attrs: str = "", body_attrs: str = "",
                background: str = "#fff", color: str = "#000",
                viewport=(1100, 800)):
    """A new page showing ``widget`` on a bare page whose <html> and <body> carry
    ``html_attrs`` / ``body_attrs`` (a host's theme marker) and whose background is
    ``background``; returns the Playwright page once the widget's chart has drawn."""
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.on("pageerror", lambda e: page.__dict__.setdefault("errors", []).append(str(e)))
    page.on("console", lambda m: page.__dict__.setdefault("console", []).append(
        f"{m.type}: {m.text}"))

    def serve(route):
        name = route.request.url.rsplit("/", 1)[-1]
        path = STATIC / name
        if not path.exists():
            return route.fulfill(status=404, body="")
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return route.fulfill(status=200, body=path.read_bytes(), content_type=kind)

    widget.wait()  # a chart drawn on a thread after the numbers (IAAWidget.draw_later) is in
    html = _PAGE.format(origin=ORIGIN, state=json.dumps(widget_state(widget)),
                        html_attrs=html_attrs, body_attrs=body_attrs,
                        background=background, color=color)
    page.route(f"{ORIGIN}/*", serve)
    page.route(f"{ORIGIN}/", lambda route: route.fulfill(status=200, body=html,
                                                         content_type="text/html"))
    page.goto(f"{ORIGIN}/")
    page.wait_for_function("() => { const e = document.querySelector('.iaa-widget');"
                           " return e && Number(e.dataset.revision) >= 1; }", timeout=30_000)
    return page
