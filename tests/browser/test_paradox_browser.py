"""ParadoxExplorer in JupyterLab + headless Chromium: it renders Feinstein & Cicchetti's
table B, a slider's move goes through the kernel and back with the numbers Python's
measures give on the new table, the heatmap redraws in place, and an infeasible index
shows its note.

Expected values are computed in this process by the package's measure functions on the
table (tests/test_widget_paradox.py checks them against Feinstein & Cicchetti 1990,
BMC Med Res Methodol 14:100 Table 3 and Byrt, Bishop & Carlin 1993's identity).
"""
from __future__ import annotations

import pytest

import iaa_widgets as iaa
from iaa_widgets import Annotations

CELLS = ["import iaa_widgets as iaa\nw = iaa.ParadoxExplorer(observed=0.85)\nw"]


@pytest.fixture(scope="module")
def nb(open_lab_page):
    page = open_lab_page("paradox.ipynb", CELLS)
    page.run_all()
    page.wait_for_widgets(".iaa-paradox", 1)
    return page


def widget(nb):
    return nb.page.locator(".iaa-paradox").first


def values_shown(nb) -> dict:
    return widget(nb).locator(".iaa-paradox-values tbody tr").evaluate_all(
        "(rows) => Object.fromEntries(rows.map((r) => [r.dataset.key,"
        " r.querySelector('td.iaa-value').dataset.value]))")


def expected(table) -> dict:
    ann = Annotations.from_contingency(table, categories=["yes", "no"])
    out = {name: getattr(iaa, name)(ann).value for name in (
        "percent_agreement", "bennett_s", "scott_pi", "cohen_kappa", "gwet_ac1",
        "krippendorff_alpha")}
    specific = iaa.specific_agreement(ann, positive="yes").params
    out["p_pos"], out["p_neg"] = specific["positive_agreement"], specific["negative_agreement"]
    return out


def test_renders_table_b(nb):
    shown = values_shown(nb)
    want = expected([[80, 10], [5, 5]])  # the defaults: PI 0.75, BI 0.05 (table B)
    assert {k: float(v) for k, v in shown.items()} == pytest.approx(want, abs=1e-12)
    assert widget(nb).locator(".iaa-error").is_hidden()
    assert widget(nb).locator(".iaa-paradox-notes").is_hidden()
    texts = widget(nb).locator(".iaa-paradox-table svg text").all_text_contents()
    assert "80" in texts and "10" in texts


def test_slider_moves_the_numbers_and_the_chart(nb):
    w = widget(nb)
    before = int(w.get_attribute("data-revision"))
    w.locator("input.iaa-slider-prevalence").fill("0")
    # A_o 0.85 of 100: a + d = 85, a − d = ±1 (odd, nearest to 0) → a = 43, d = 42
    table = [[43, 10], [5, 42]]
    want = expected(table)
    nb.page.wait_for_function(
        "(v) => document.querySelector('.iaa-paradox tr[data-key=cohen_kappa] td.iaa-value')"
        ".dataset.value === v", arg=str(nb.python("w.result['cohen_kappa'].value")),
        timeout=20_000)
    assert nb.python("w.matrix") == table and nb.python("w.prevalence") == 0
    assert {k: float(v) for k, v in values_shown(nb).items()} == pytest.approx(want, abs=1e-12)
    nb.page.wait_for_function(
        "(r) => Number(document.querySelector('.iaa-paradox').dataset.revision) > r",
        arg=before, timeout=20_000)
    texts = w.locator(".iaa-paradox-table svg text").all_text_contents()
    assert "43" in texts and "42" in texts  # the heatmap shows the new counts
    assert w.locator(".iaa-paradox-indices").text_content().endswith(
        "PI = 0.010 and BI = 0.050")
    nb.screenshot("paradox.png", w)


def test_infeasible_index_shows_its_note(nb):
    w = widget(nb)
    w.locator("input.iaa-slider-bias").fill("-0.4")  # |BI| ≤ 1 − A_o = 0.15
    nb.page.wait_for_function(
        "() => !document.querySelector('.iaa-paradox .iaa-paradox-notes').hidden",
        timeout=20_000)
    note = w.locator(".iaa-paradox-notes").text_content()
    assert "BI -0.40" in note and "0.15" in note
    assert nb.python("w.matrix")[0][1] == 0  # b − c cut to −15
    w.locator("input.iaa-slider-bias").fill("0.05")
    nb.page.wait_for_function(
        "() => document.querySelector('.iaa-paradox .iaa-paradox-notes').hidden",
        timeout=20_000)


# the notebook as JupyterLab's model holds it (as tests/browser/test_keyboard_browser.py)
NOTEBOOK = """() => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  return { types: nb.widgets.map((c) => c.model.type),
           outputs: nb.widgets.map((c) => c.model.outputs ? c.model.outputs.length : 0),
           active: nb.activeCellIndex };
}"""


def test_slider_keys_stay_in_the_widget(nb):
    nb.execute("w.prevalence = 0.75")
    nb.page.wait_for_function(
        "() => document.querySelector('.iaa-paradox input.iaa-slider-prevalence').value"
        " === '0.75'", timeout=20_000)
    nb.page.evaluate("() => window.jupyterapp.commands.execute('notebook:enter-command-mode')")
    before = nb.page.evaluate(NOTEBOOK)
    widget(nb).locator("input.iaa-slider-prevalence").focus()
    # ArrowLeft moves the slider one step (two: 0.73, as a − d must be odd with a + d =
    # 85); r, m, a, d d are notebook shortcuts in command mode (Raw, Markdown, insert,
    # delete) that must not reach the notebook
    for key in ["ArrowLeft", "ArrowLeft", "r", "m", "a", "d", "d"]:
        nb.page.keyboard.press(key)
    nb.page.wait_for_function(
        "() => document.querySelector('.iaa-paradox tr[data-key=cohen_kappa] td.iaa-value')"
        ".dataset.value !== '0.318181818181818'", timeout=20_000)
    assert nb.python("w.prevalence") == pytest.approx(0.73)
    assert nb.python("w.matrix") == [[79, 10], [5, 6]]
    assert float(values_shown(nb)["cohen_kappa"]) == pytest.approx(
        expected([[79, 10], [5, 6]])["cohen_kappa"], abs=1e-12)
    after = nb.page.evaluate(NOTEBOOK)
    assert after == before
