"""A widget as a self-contained HTML page: ``widget.to_html("x.html")``.

The page holds, inline (no CDN, no network: it opens from ``file://`` offline):

- the widget's synced state as it is now (:func:`widget_state`), in a
  ``<script type="application/json">`` data block written by
  :func:`iaa_widgets.html.script_json`, so no label can end the element, and the page
  reads it with ``JSON.parse`` (data, never code or HTML);
- ``static/standalone.js`` (built from ``js/src/standalone.js``): the widgets' own
  front-end over a stand-in for anywidget's model, which renders the saved state;
- ``static/widgets.css``, the widgets' stylesheet.

Without a Python kernel nothing can be recomputed, so the page carries precomputed
states (issue 42, :func:`precomputed_states`): a widget names, in ``_export_groups()``,
the controls whose values the page may switch among, as groups in order of priority (a
group of one control moves it alone from the saved state; a group of two, every
combination of their values). At export time Python sets each combination on the widget
itself and saves what its synced traitlets then hold (only what differs from the saved
state), so every number shown was computed by Python and the page's script only chooses
among states, never computes a measure. Groups are kept whole, in their order, while the
page stays within ``budget`` bytes; the banner names the controls that work from saved
states, the groups left out (with their size) and the controls still disabled. A widget
may also embed data that its front-end reads itself (``_export_data(bytes)``, taken from
the budget first: ProjectExplorer's items of each click, :mod:`.explorer_export`).

Every other control that sets a traitlet (number boxes, item ticks, cell edits …) is
disabled or refused, and the banner lists the disabled ones by name; hover, tooltips,
zoom and pan, "fix x axis" and CSV downloads work, as they are the page's own. A Content Security
Policy refuses every request the page could make (``connect-src``, ``img-src`` …
``'none'`` but ``data:``/``blob:``), so a copy never reaches the network.
"""
from __future__ import annotations

import datetime as _dt
import itertools
import json
from dataclasses import dataclass
from typing import Any, Sequence

import anywidget

from ..errors import AgreementError
from ..html import script_json, static_script, static_text, text
from ._json import json_safe

__all__ = ["Control", "DEFAULT_BUDGET", "precomputed_states", "widget_state", "widget_page",
           "standalone_script"]

_BUNDLE = "standalone.js"
DEFAULT_BUDGET = 5_000_000  # bytes of a page (issue 42: under 5 MB by default)
_RESERVE = 2_000  # bytes kept from a widget's data for the names of what is left out
# anywidget's own traitlets and the bundle the loader imports (widgets/_base.py)
_ANYWIDGET_OWN = {"_esm", "_css", "_anywidget_id", "_bundle", "_bundle_id"}

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
    (``layout``, ``_esm``, ``_bundle``, model and view names)."""
    # anywidget adds _esm, _css and _anywidget_id to each instance: the page has its own
    plumbing = set(anywidget.AnyWidget.class_trait_names(sync=True)) | _ANYWIDGET_OWN
    names = sorted(set(widget.trait_names(sync=True)) - plumbing)
    return {name: json_safe(getattr(widget, name)) for name in names}


@dataclass(frozen=True)
class Control:
    """A control a static page keeps live: the traitlet ``name`` it sets, the ``label``
    the page names it by, the ``values`` it may take there, and the CSS ``selector`` of
    the page's elements that set it (left enabled). The same control may come in
    several groups with other values (every step alone, a coarser grid with another
    control): the page moves a number to the nearest value saved with the other
    controls as they are."""

    name: str
    label: str
    values: tuple
    selector: str


def _diff(state: dict, base: dict) -> dict:
    """The traitlets of ``state`` that differ from ``base``; ``_datasets`` by dataset
    (a value that is the very object of ``base`` is the same without comparing it)."""
    def same(a, b):
        return a is b or a == b

    out = {k: v for k, v in state.items()
           if k != "_datasets" and not same(base.get(k), v)}
    old = base.get("_datasets", {})
    rows = {k: v for k, v in state.get("_datasets", {}).items() if not same(old.get(k), v)}
    if rows:
        out["_datasets"] = rows
    return out


def _size(value: Any) -> int:
    return len(script_json(value).encode("utf-8"))


def _set(widget: anywidget.AnyWidget, values: Sequence[tuple[str, Any]]) -> None:
    for name, value in values:  # in the order given: an observer may reset a later one
        setattr(widget, name, value)
    widget.wait()


class _Tracker:
    """The widget's state kept up to date from its change notifications: after a move,
    only the traitlets that changed are read again (and of ``_datasets`` only the
    datasets whose rows are new objects), instead of the whole state each time."""

    def __init__(self, widget: anywidget.AnyWidget, base: dict):
        self.widget, self.state, self.changed = widget, dict(base), set()
        self.raw = dict(widget._datasets)
        self.names = set(base)
        widget.observe(self._note)

    def _note(self, change) -> None:
        if change["name"] in self.names:
            self.changed.add(change["name"])

    def read(self) -> dict:
        """The state now (a new dict: the former one may be kept in a state)."""
        state = dict(self.state)
        for name in self.changed:
            if name == "_datasets":
                raw = self.widget._datasets
                state[name] = {k: (state[name][k] if self.raw.get(k) is v else json_safe(v))
                               for k, v in raw.items()}
                self.raw = dict(raw)
            else:
                state[name] = json_safe(getattr(self.widget, name))
        self.changed.clear()
        self.state = state
        return state

    def close(self) -> None:
        self.widget.unobserve(self._note)


def precomputed_states(widget: anywidget.AnyWidget, budget: int) -> dict[str, Any]:
    """The states a static page of ``widget`` switches among, within ``budget`` bytes.

    Parameters
    ----------
    widget : IAAWidget
        A widget whose ``_export_groups()`` lists groups of :class:`Control` in order of
        priority (none: no state is saved).
    budget : int
        Bytes the states may take in the page.

    Returns
    -------
    dict
        ``controls`` (name, label, values, selector of each control some kept group
        moves), ``names`` (the controls' traitlets, the order of a state's values),
        ``diffs`` (the distinct sets of traitlets, but the controls', that differ from
        the saved state),
        ``states`` (``[values, k]``: the values of the controls and the position in
        ``diffs`` of what they show), ``dropped`` (the groups left out: their labels,
        number of states, and the bytes that were left, which their states need more
        than) and ``budget``; ``data``: what the widget's ``_export_data(bytes)`` embeds
        for its front-end to read itself, taken first (ProjectExplorer's items of each
        click: :mod:`.explorer_export`), or None.

    Raises
    ------
    AgreementError
        If the widget does not come back to its saved state afterwards.

    Notes
    -----
    A group's states are the saved state with the group's controls set to each
    combination of their values, computed by the widget itself; a combination whose
    widget shows an error is left out. Combinations that show the same thing (a τ
    between two items' means) share one diff, so a state costs its values and a number.
    A group is kept whole or not at all; groups are taken in order while their states
    fit in what the budget leaves.

    Examples
    --------
    >>> import iaa_widgets as iaa
    >>> from iaa_widgets.widgets.export import precomputed_states
    >>> w = iaa.ParadoxExplorer()
    >>> live = precomputed_states(w, 5_000_000)
    >>> [c["name"] for c in live["controls"]], len(live["states"])
    (['prevalence', 'bias'], 841)
    """
    # data a widget's front-end reads itself in a page (ProjectExplorer's items of each
    # click), first: (data or None, the parts of it left out)
    data, dropped = getattr(widget, "_export_data", lambda left: (None, []))(
        budget - _size(empty_states(budget)) - _RESERVE)
    budget_left = budget - (0 if data is None else _size(data))
    groups = list(getattr(widget, "_export_groups", lambda: [])())
    everyone: dict[str, Control] = {}
    for c in (c for g in groups for c in g):
        everyone.setdefault(c.name, c)  # (a control in several groups: its first label)
    everyone = list(everyone.values())
    names = [c.name for c in everyone]
    widget.wait()  # (charts drawn on a thread, a computation under way)
    base = widget_state(widget)
    saved = [(n, getattr(widget, n)) for n in names]
    saved_key = json.dumps([base[n] for n in names])
    states: dict[str, int] = {}            # values (as JSON) → position in diffs
    diffs: dict[str, int] = {"{}": -1}     # a diff (as JSON) → its position (-1: none)
    kept: list[tuple] = []
    left = budget_left - _size({"states": [], "diffs": []})
    tracker = _Tracker(widget, base)
    with widget.hold_sync():
        try:
            for group in groups:
                new, new_diffs, used, done = {}, {}, 0, True
                for combo in itertools.product(*(c.values for c in group)):
                    _set(widget, zip((c.name for c in group), combo))
                    state = tracker.read()
                    values = [state[n] for n in names]
                    key = json.dumps(values)
                    if state.get("error") or key == saved_key or key in states or key in new:
                        continue
                    # (the controls' own values are in the key: states that show
                    # the same thing at other values share one diff)
                    diff = script_json({k: v for k, v in _diff(state, base).items()
                                        if k not in names})
                    if diff not in diffs and diff not in new_diffs:
                        new_diffs[diff] = len(diffs) + len(new_diffs) - 1
                        used += len(diff.encode("utf-8")) + 1
                    new[key] = diffs.get(diff, new_diffs.get(diff))
                    used += len(key.encode("utf-8")) + len(str(new[key])) + 4
                    if used > left:
                        done = False
                        break
                _set(widget, saved)  # (within a group, each combination sets all its controls)
                tracker.read()
                labels = " × ".join(c.label for c in group)
                n = 1
                for c in group:
                    n *= len(c.values)
                if done:
                    states.update(new)
                    diffs.update(new_diffs)
                    kept.append(group)
                    left -= used
                else:
                    dropped.append({"controls": labels, "n_states": n,
                                    "left": _budget_text(max(left, 0))})
        finally:
            _set(widget, saved)
            tracker.close()
    # (but the traitlets a widget names in ``_export_volatile``: how a computation went,
    # such as GammaExplorer's status with its request counter and seconds)
    volatile = set(getattr(widget, "_export_volatile", ()))
    if ({k: v for k, v in widget_state(widget).items() if k not in volatile}
            != {k: v for k, v in base.items() if k not in volatile}):
        raise AgreementError(f"{type(widget).__name__}.to_html: the widget did not come "
                             "back to its saved state after computing the page's states")
    live: dict[str, dict] = {}  # a control's values over the groups kept (a grid may be
    for c in (c for g in kept for c in g):  # finer alone than with another control)
        live.setdefault(c.name, {}).update({json.dumps(v): v for v in json_safe(list(c.values))})
    return {"controls": [{"name": c.name, "label": c.label,
                          "values": list(live[c.name].values()),
                          "selector": c.selector} for c in everyone if c.name in live],
            "names": names,
            "diffs": [json.loads(d) for d in list(diffs)[1:]],
            "states": [[json.loads(k), i] for k, i in states.items()],
            "dropped": dropped, "budget": budget, "data": data}


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


def empty_states(budget: int) -> dict[str, Any]:
    """No precomputed state (a page's size without them)."""
    return {"controls": [], "names": [], "diffs": [], "states": [], "dropped": [],
            "budget": budget, "data": None}


def widget_page(widget: anywidget.AnyWidget, *, title: Any = None,
                budget: int = DEFAULT_BUDGET) -> str:
    """The HTML document of ``widget`` in its current state (see the module's text), with
    the precomputed states (:func:`precomputed_states`) that keep the page within
    ``budget`` bytes. ``title`` (text, escaped) defaults to the widget's class name."""
    empty = empty_states(budget)
    left = budget - len(_page(widget, title, empty).encode("utf-8"))
    return _page(widget, title, precomputed_states(widget, left))


def _page(widget: anywidget.AnyWidget, title: Any, live: dict) -> str:
    name = type(widget).__name__
    return page_head(name if title is None else title) + widget_section(widget, live) + \
        page_end()


def page_head(title: Any) -> str:
    """A static page's start, to its ``<body>``: the Content Security Policy, the title
    (text, escaped) and the styles (:func:`widget_page`, :func:`iaa_widgets.share`)."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{text(_CSP)}\">\n"
            f"<title>{text(title)}</title>\n"
            f"<style>{page_style()}</style>\n</head>\n<body>\n")


def page_style() -> str:
    """A static page's styles: its banners' and the widgets' own (``widgets.css``), for
    a page that holds widget sections (:func:`page_head`, ``iaa report``)."""
    return _STYLE + _widget_css()


def widget_section(widget: anywidget.AnyWidget, live: dict, part: int = 1) -> str:
    """One widget of a static page: its banner, its notice, the element it is drawn in
    and its saved and precomputed states (data blocks ``iaa-state``, ``iaa-states``,
    with ``-{part}`` after the first), mounted by :func:`page_end`'s script."""
    name = type(widget).__name__
    saved = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    sfx = "" if part == 1 else f"-{part}"
    return (
        f"<section class=\"iaa-static-part\" data-iaa-part=\"{sfx}\">\n"
        f"<p class=\"iaa-static-banner\" role=\"note\">Static copy of {text(name)}, saved "
        f"{saved}: the numbers are those of the Python session then. "
        "<span class=\"iaa-static-live-text\" hidden>These controls work from states that "
        "Python computed when the page was saved: <span class=\"iaa-static-live\"></span>. "
        "</span>Changes that Python would recompute are refused, and these controls are "
        "disabled: <span class=\"iaa-static-disabled\">…</span>. "
        "<span class=\"iaa-static-dropped-text\" hidden>Not saved, to keep the page within "
        f"its budget ({_budget_text(live['budget'])} left for saved states once the page "
        "itself is counted): "
        "<span class=\"iaa-static-dropped\"></span>. </span>"
        "What the page does by itself works: hover, tooltips, zoom and downloads.</p>\n"
        "<p class=\"iaa-static-notice\" role=\"status\" aria-live=\"polite\" hidden></p>\n"
        f"<div id=\"iaa-widget{sfx}\"></div>\n"
        "<noscript><p>This page draws the widget with JavaScript; allow it to see the "
        "chart.</p></noscript>\n"
        f"<script type=\"application/json\" id=\"iaa-state{sfx}\">"
        f"{script_json(widget_state(widget))}</script>\n"
        f"<script type=\"application/json\" id=\"iaa-states{sfx}\">{script_json(live)}"
        "</script>\n</section>\n")


def page_end() -> str:
    """A static page's end: :func:`page_scripts`, then the end of its body."""
    return page_scripts() + "</body>\n</html>\n"


def page_scripts() -> str:
    """The bundle and the script that mounts each widget section of the page
    (:func:`widget_section`) from its saved states (:func:`page_end`, ``iaa report``)."""
    return (
        f"<script>{standalone_script()}</script>\n"
        "<script>\n"
        "for (const part of document.querySelectorAll(\"section.iaa-static-part\")) {\n"
        "  const sfx = part.dataset.iaaPart;\n"
        "  const el = document.getElementById(\"iaa-widget\" + sfx);\n"
        "  const q = (s) => part.querySelector(s);\n"
        "  try {\n"
        "    const state = JSON.parse(document.getElementById(\"iaa-state\" + sfx).textContent);\n"
        "    const live = JSON.parse(document.getElementById(\"iaa-states\" + sfx).textContent);\n"
        "    iaaStandalone.mount(el, state, {\n"
        "      live,\n"
        "      disabledList: q(\".iaa-static-disabled\"),\n"
        "      liveList: q(\".iaa-static-live\"),\n"
        "      droppedList: q(\".iaa-static-dropped\"),\n"
        "      notice: q(\".iaa-static-notice\"),\n"
        "    });\n"
        "  } catch (err) {\n"
        "    const p = document.createElement(\"p\");\n"
        "    p.className = \"iaa-error\";\n"
        "    p.textContent = \"widget error: \" + err;\n"
        "    el.append(p);\n"
        "    console.error(err);\n"
        "  }\n"
        "}\n"
        "</script>\n")


def _budget_text(n: int) -> str:
    """A budget in bytes as the page names it: "5 MB" (10^6 bytes), "800 kB", "120 bytes"."""
    for unit, size in (("MB", 10**6), ("kB", 10**3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"
