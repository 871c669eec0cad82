"""Issue 35: inside a notebook the keyboard belongs to the widget, in JupyterLab and in
Notebook 7. Every control of the four live widgets is focused inside the running
notebook and gets keys that are notebook shortcuts in command mode (ArrowDown / ArrowUp:
next / previous cell, "r": Raw cell, "m": Markdown, "1": heading, "a" / "b": insert a
cell, "d d": delete it); afterwards no cell moved, changed type or lost its output, and
the widget took the keys (a select's type-ahead picks the option the letter starts).

The notebook's state is read from JupyterLab's own model (``window.jupyterapp``).
"""
from __future__ import annotations

import contextlib

import pytest

from labdriver import LabPage, Notebook7

pytest.importorskip("notebook")

# annotator "r3": the letter "r" on the pair selector must pick it (type-ahead), not
# make the cell Raw
CELLS = [
    "import pandas as pd\nimport iaa_widgets as iaa\n"
    "df = pd.DataFrame({'item': [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],\n"
    "                   'annotator': ['ann', 'bob', 'r3'] * 4,\n"
    "                   'label': list('aabbbbabacca')})\n"
    "m = iaa.ContingencyMatrix(df, editable=True)\nm",
    "from iaa_widgets.datasets import email_types, crowd_labels\n"
    "s = iaa.AugmentedKappaSweep(email_types(), rank='rank', max_rows=5)\ns",
    "x = iaa.SparseAgreementExplorer(crowd_labels(), n_rounds=20)\nx",
    "from iaa_widgets.continuum import random_continuum\n"
    "g = iaa.GammaExplorer(random_continuum(3, 12, seed=1), n_samples=6, seed=1)\ng",
    "after = 1",
]
WIDGETS = ".iaa-contingency, .iaa-sweep, .iaa-sparse, .iaa-gamma"
SHORTCUT_KEYS = ["ArrowDown", "ArrowUp", "r", "m", "1", "a", "b", "d", "d"]

# the notebook as its model holds it: each cell's type, its outputs, the active cell
NOTEBOOK = """() => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  return { types: nb.widgets.map((c) => c.model.type),
           outputs: nb.widgets.map((c) => c.model.outputs ? c.model.outputs.length : 0),
           active: nb.activeCellIndex, mode: nb.mode };
}"""
# every control of the widgets that takes the focus, as (widget index, css path)
CONTROLS = """(css) => [...document.querySelectorAll(css)].flatMap((root, w) =>
  [...root.querySelectorAll('select, input, button:not([disabled]), [tabindex="0"]')]
    .filter((e) => e.offsetParent !== null)
    .map((e, k) => ({ widget: w, index: k, tag: e.tagName.toLowerCase(),
                      type: e.type || '', cls: e.className || '' })))"""
FOCUS = """([css, w, k]) => {
  const root = document.querySelectorAll(css)[w];
  const e = [...root.querySelectorAll('select, input, button:not([disabled]), [tabindex="0"]')]
    .filter((x) => x.offsetParent !== null)[k];
  e.scrollIntoView({ block: 'center' });
  e.focus();
  return document.activeElement === e;
}"""
ACTIVE = """() => { const e = document.activeElement;
  return { tag: e.tagName.toLowerCase(), key: e.dataset.focusKey || '',
           inWidget: !!e.closest('.iaa-widget'), cls: e.className || '' }; }"""


@pytest.fixture(scope="module", params=["jupyterlab", "notebook7"])
def nb(request, browser, artifacts):
    with contextlib.ExitStack() as stack:  # JupyterLab: the shared server (conftest)
        server = (request.getfixturevalue("lab") if request.param == "jupyterlab"
                  else stack.enter_context(Notebook7()))
        server.write_notebook("keys.ipynb", CELLS)
        page = LabPage(browser, server, artifacts, viewport=(1300, 1000))
        page.host = request.param
        try:
            page.open_notebook("keys.ipynb")
            page.run_all()
            page.wait_for_widgets(WIDGETS, 4)
            page.page.wait_for_function(
                "() => window.jupyterapp.shell.currentWidget.sessionContext.session"
                ".kernel.status === 'idle'", timeout=60_000)
            yield page
        finally:
            page.close()


def command_mode(nb):
    nb.page.evaluate("() => window.jupyterapp.commands.execute('notebook:enter-command-mode')")


def settle(nb):
    """Wait until the kernel has answered what the keys sent."""
    nb.page.wait_for_timeout(300)
    nb.page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext"
                              ".session.kernel.status === 'idle'", timeout=30_000)


def test_pair_selector_takes_arrows_and_type_ahead(nb):
    command_mode(nb)
    before = nb.page.evaluate(NOTEBOOK)
    second = nb.page.locator(".iaa-contingency .iaa-pair select").nth(1)
    second.focus()
    assert nb.page.evaluate(NOTEBOOK)["mode"] == "command"
    assert nb.python("m.pair") == [0, 1]
    nb.page.keyboard.press("ArrowDown")  # bob → r3
    settle(nb)
    assert nb.python("m.pair") == [0, 2]
    # the selector was drawn again for the new pair: the focus is on its new element
    assert nb.page.evaluate(ACTIVE)["key"] == "pair-1"
    nb.page.keyboard.press("b")  # type-ahead: bob
    settle(nb)
    assert nb.python("m.pair") == [0, 1]
    nb.page.keyboard.press("r")  # type-ahead: r3 (in command mode "r" makes a Raw cell)
    settle(nb)
    assert nb.python("m.pair") == [0, 2]
    assert nb.page.evaluate(ACTIVE)["key"] == "pair-1"
    after = nb.page.evaluate(NOTEBOOK)
    assert after["types"] == before["types"] == ["code"] * len(CELLS)
    assert after["outputs"] == before["outputs"]
    assert after["active"] == 0, after  # the widget's cell, not the next one
    nb.screenshot(f"keys_{nb.host}_pair.png", nb.page.locator(".iaa-contingency"))
    nb.execute("m.pair = [0, 1]")


def test_no_key_on_any_control_reaches_the_notebook(nb):
    controls = nb.page.evaluate(CONTROLS, WIDGETS)
    kinds = {(c["widget"], c["tag"]) for c in controls}
    # every widget's selects, inputs and buttons are there (sweep: pair select; gamma: buttons)
    assert {(0, "select"), (1, "select"), (1, "input"), (2, "input"), (3, "input"),
            (3, "button")} <= kinds, kinds
    before = nb.page.evaluate(NOTEBOOK)
    reached = []
    for c in controls:
        command_mode(nb)
        assert nb.page.evaluate(FOCUS, [WIDGETS, c["widget"], c["index"]]), c
        cell = nb.page.evaluate(NOTEBOOK)["active"]
        for key in SHORTCUT_KEYS:
            nb.page.keyboard.press(key)
        state = nb.page.evaluate(NOTEBOOK)
        reached.append(c)
        assert state["types"] == before["types"], (c, state)
        assert len(state["outputs"]) == len(before["outputs"]), (c, state)
        assert state["active"] == cell, (c, state)
        settle(nb)
    assert len(reached) >= 12, reached
    after = nb.page.evaluate(NOTEBOOK)
    assert after["types"] == before["types"]
    assert after["outputs"] == before["outputs"]  # every widget's output survived
    assert nb.page.locator(".iaa-widget").count() == 4
    assert nb.page.locator(".iaa-widget .iaa-error:not([hidden])").count() == 0


def active_key(nb) -> str:
    state = nb.page.evaluate(ACTIVE)
    assert state["inWidget"], state  # not dropped to the notebook or <body>
    return state["key"]


def wait_python(nb, expression, value, tries=80):
    while nb.python(expression) != value and tries:
        nb.page.wait_for_timeout(250)
        tries -= 1
    assert nb.python(expression) == value


def test_class_rows_one_tab_stop_arrows_space_enter_and_focus_kept(nb):
    sweep = nb.page.locator(".iaa-sweep")
    rows = sweep.locator(".iaa-classes tbody tr")
    keys = [r.get_attribute("data-class") for r in rows.all()]
    assert keys == ["constant_high", "constant_low", "higher_at_p1", "higher_at_p05"]
    chosen = nb.python("s.selected_class")
    assert chosen == "higher_at_p05"  # the widget's first choice
    stops = [r.get_attribute("tabindex") for r in rows.all()]
    assert stops.count("0") == 1, stops  # one tab stop (where the arrows left it)
    before = nb.page.evaluate(NOTEBOOK)
    command_mode(nb)
    rows.nth(stops.index("0")).focus()
    nb.page.keyboard.press("Home")  # moves the focus, lists nothing yet
    nb.page.keyboard.press("ArrowDown")
    assert active_key(nb) == "class-constant_low"
    assert nb.python("s.selected_class") == chosen
    nb.page.keyboard.press("Space")
    wait_python(nb, "s.selected_class", "constant_low")
    settle(nb)
    assert active_key(nb) == "class-constant_low"  # after the rows were drawn again
    nb.page.keyboard.press("ArrowDown")
    nb.page.keyboard.press("Enter")
    wait_python(nb, "s.selected_class", "higher_at_p1")
    settle(nb)
    assert active_key(nb) == "class-higher_at_p1"
    # the redrawn rows: the tab stop is the chosen class's row
    assert [r.get_attribute("tabindex") for r in rows.all()] == ["-1", "-1", "0", "-1"]
    after = nb.page.evaluate(NOTEBOOK)
    assert after["types"] == before["types"] and after["outputs"] == before["outputs"]
    nb.screenshot(f"keys_{nb.host}_classes.png", sweep)


def test_item_list_one_tab_stop_tick_and_next_page_keep_focus(nb):
    sweep = nb.page.locator(".iaa-sweep")
    nb.execute("s.selected_class = 'constant_low'")
    boxes = sweep.locator(".iaa-items tbody input[type=checkbox]")
    nb.page.wait_for_function("() => document.querySelectorAll('.iaa-sweep .iaa-items tbody "
                              "input').length === 5", timeout=20_000)
    assert [b.get_attribute("tabindex") for b in boxes.all()].count("0") == 1
    command_mode(nb)
    boxes.nth(0).focus()
    nb.page.keyboard.press("ArrowDown")
    second = boxes.nth(1).get_attribute("data-code")
    assert active_key(nb) == f"item-{second}"
    nb.page.keyboard.press("Space")  # ticks the item: its κ_x curve is drawn
    wait_python(nb, "s.selected_items", [int(second)])
    settle(nb)
    assert active_key(nb) == f"item-{second}"
    assert boxes.nth(1).is_checked()
    # next ›: the list turns a page, the focus stays on the button
    button = sweep.locator("button.iaa-page-next")
    button.focus()
    nb.page.keyboard.press("Enter")
    wait_python(nb, "s.row_offset", 5)
    settle(nb)
    assert active_key(nb) == "next"
    nb.page.keyboard.press("Enter")
    wait_python(nb, "s.row_offset", 10)
    settle(nb)
    assert active_key(nb) == "next"
    nb.screenshot(f"keys_{nb.host}_items.png", sweep)
    nb.execute("s.selected_items = []; s.row_offset = 0")
