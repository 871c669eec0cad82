"""Light and dark follow the host: each notebook tool marks its theme its own way, and
the widget must read each marker (base.js, themeOf) and be legible on that tool's page.

Markers, as the tools set them: JupyterLab / Notebook 7 / Voila ``body[data-jp-theme-light]``;
VS Code ``body.vscode-dark`` / ``vscode-light`` / ``vscode-high-contrast`` and
``body[data-vscode-theme-kind]`` (its notebook webviews); Colab ``html[theme=dark]``
(also what xarray's HTML repr keys its dark palette on); marimo a ``dark`` class or
``data-theme`` on <html>. Each test sets one marker on a bare page (no --jp-* variables,
as in those tools, see hostpage.py) with that theme's background, and measures WCAG
contrast of the widget's text and axis labels against it (4.5:1 is AA for body text).
"""
from __future__ import annotations

import pytest

from hostpage import open_widget
from iaa_widgets.widgets.contingency import ContingencyMatrix
from labdriver import contrast

DARK_BG, LIGHT_BG = "#1e1e1e", "#ffffff"

MARKERS = {  # host: (html attributes, body attributes) of its dark and light themes
    "jupyterlab": (("", 'data-jp-theme-light="false"'), ("", 'data-jp-theme-light="true"')),
    "vscode-class": (("", 'class="vscode-dark"'), ("", 'class="vscode-light"')),
    "vscode-kind": (("", 'data-vscode-theme-kind="vscode-dark"'),
                    ("", 'data-vscode-theme-kind="vscode-light"')),
    "vscode-high-contrast": (("", 'class="vscode-high-contrast"'),
                             ("", 'class="vscode-high-contrast vscode-high-contrast-light"')),
    "colab": (('theme="dark"', ""), ('theme="light"', "")),
    "marimo-class": (('class="dark"', ""), ('class="light"', "")),
    "marimo-data-theme": (('data-theme="dark"', ""), ('data-theme="light"', "")),
    # marimo 0.25 marks its theme on <body> (seen in test_marimo_browser.py)
    "marimo-body-class": (("", 'class="dark dark-theme"'), ("", 'class="light light-theme"')),
}

COLOURS = """() => {
  const root = document.querySelector('.iaa-widget');
  const fill = (sel) => [...root.querySelectorAll(sel)].map(e => getComputedStyle(e).fill);
  const color = (sel) => [...root.querySelectorAll(sel)].map(e => getComputedStyle(e).color);
  return { theme: root.dataset.theme, host: root.dataset.host,
           text: [getComputedStyle(root).color], table: color('th, td'),
           axis: fill('g.role-axis-label text'),
           totals: fill('g.layer_4_marks text') };
}"""


@pytest.fixture(scope="module")
def widget():
    # Meyer's tutorial table (tests/browser/test_contingency_browser.py)
    return ContingencyMatrix([[2, 2], [1, 5]], categories=["high", "low"],
                             annotators=["r2", "r1"])


def worst_contrast(colours, background) -> dict:
    return {kind: min(contrast(c, background) for c in colours[kind])
            for kind in ("text", "table", "axis", "totals")}


@pytest.mark.parametrize("dark", [True, False], ids=["dark", "light"])
@pytest.mark.parametrize("host", list(MARKERS))
def test_each_hosts_marker_sets_the_theme(browser, artifacts, widget, host, dark):
    html_attrs, body_attrs = MARKERS[host][0 if dark else 1]
    bg = DARK_BG if dark else LIGHT_BG
    page = open_widget(browser, widget, html_attrs=html_attrs, body_attrs=body_attrs,
                       background=bg, color="#ddd" if dark else "#000")
    try:
        colours = page.evaluate(COLOURS)
        assert colours["theme"] == ("dark" if dark else "light"), (host, colours)
        worst = worst_contrast(colours, "rgb(30, 30, 30)" if dark else "rgb(255, 255, 255)")
        assert min(worst.values()) >= 4.5, (host, worst)
        if host in ("vscode-class", "colab", "marimo-class"):
            page.locator(".iaa-widget").screenshot(
                path=str(artifacts / f"theme_{host}_{'dark' if dark else 'light'}.png"))
        assert not getattr(page, "errors", None)
    finally:
        page.close()


def test_jupyterlab_marker_wins_over_others(browser, widget):
    # JupyterLab inside a dark OS page that also has a stray "dark" class: Lab's light wins
    page = open_widget(browser, widget, html_attrs='class="dark"',
                       body_attrs='data-jp-theme-light="true"')
    try:
        assert page.evaluate("() => document.querySelector('.iaa-widget').dataset.theme") == \
            "light"
    finally:
        page.close()


@pytest.mark.parametrize("to_dark,to_light", [
    ("document.documentElement.setAttribute('theme', 'dark')",
     "document.documentElement.setAttribute('theme', 'light')"),
    ("document.body.className = 'vscode-dark'", "document.body.className = 'vscode-light'"),
    ("document.documentElement.classList.add('dark')",
     "document.documentElement.classList.remove('dark')"),
], ids=["colab", "vscode", "marimo"])
def test_switching_theme_redraws_the_chart(browser, artifacts, widget, to_dark, to_light):
    page = open_widget(browser, widget)
    try:
        root = "document.querySelector('.iaa-widget')"
        assert page.evaluate(f"() => {root}.dataset.theme") == "light"
        before = page.evaluate(f"() => Number({root}.dataset.revision)")
        page.evaluate(f"() => {{ document.body.style.background = '{DARK_BG}'; {to_dark}; }}")
        # the chart is embedded again with the dark config (vega-embed fixes it per embed)
        page.wait_for_function(f"(r) => Number({root}.dataset.revision) > r", arg=before)
        colours = page.evaluate(COLOURS)
        assert colours["theme"] == "dark"
        assert min(worst_contrast(colours, "rgb(30, 30, 30)").values()) >= 4.5, colours
        before = page.evaluate(f"() => Number({root}.dataset.revision)")
        page.evaluate(f"() => {{ document.body.style.background = '{LIGHT_BG}'; {to_light}; }}")
        page.wait_for_function(f"(r) => Number({root}.dataset.revision) > r", arg=before)
        colours = page.evaluate(COLOURS)
        assert colours["theme"] == "light"
        assert min(worst_contrast(colours, "rgb(255, 255, 255)").values()) >= 4.5, colours
    finally:
        page.close()


NEUTRAL = """() => {
  const root = document.querySelector('.iaa-widget');
  const fill = (sel) => [...root.querySelectorAll(sel)].map(e => getComputedStyle(e).fill);
  const color = (sel) => [...root.querySelectorAll(sel)].map(e => getComputedStyle(e).color);
  return { text: [getComputedStyle(root).color], table: color('th, td'), label: color('label'),
           axis: fill('g.role-axis-label text, g.role-axis-title text'),
           legend: fill('g.role-legend-label text') };
}"""


def sweep():
    from iaa_widgets.datasets import email_types
    from iaa_widgets.widgets.sweep import AugmentedKappaSweep
    return AugmentedKappaSweep(email_types(), rank="rank")


def sparse():
    from iaa_widgets.datasets import crowd_labels
    from iaa_widgets.widgets.sparse import SparseAgreementExplorer
    return SparseAgreementExplorer(crowd_labels(), n_rounds=50)


@pytest.mark.parametrize("make", [sweep, sparse], ids=["sweep", "sparse"])
def test_live_widgets_are_legible_in_vscode_dark(browser, artifacts, make):
    # VS Code's dark notebook: no --jp-* variables, only the body class
    page = open_widget(browser, make(), body_attrs='class="vscode-dark"', background=DARK_BG,
                       color="#ddd", viewport=(1200, 1600))
    try:
        page.wait_for_timeout(500)
        colours = page.evaluate(NEUTRAL)
        worst = {k: min(contrast(c, "rgb(30, 30, 30)") for c in v) for k, v in colours.items() if v}
        assert {"text", "table", "axis"} <= worst.keys(), worst
        assert min(worst.values()) >= 4.5, worst
        page.locator(".iaa-widget").screenshot(
            path=str(artifacts / f"theme_vscode_dark_{make.__name__}.png"))
    finally:
        page.close()
