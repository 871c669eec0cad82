"""The notebook pages of the documentation site show live widgets (issue 42): each
widget output is an iframe of the page ``widget.to_html()`` wrote at the end of the
notebook's run (dev/docs_pages.py, ``live_cell``), with the states its controls switch
among; on the 02 lesson's page the sweep's p slider works in the site, with no kernel.

Expected numbers: ``augmented_kappa(data, p=…)`` (Rosenberg & Binkowski 2004, §5,
evaluated directly) on the notebook's own data (the seeded e-mail corpus,
iaa_widgets.datasets.email_types).
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from conftest import SITE, watched_page

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "dev"))

FRAME = re.compile(r'<iframe class="iaa-snapshot"[^>]*? src="([^"]+)"')
STATES = re.compile(r'<script type="application/json" id="iaa-states">(.*?)</script>', re.S)


def _frames(name: str) -> list[Path]:
    """The snapshot pages the iframes of notebook ``name``'s page show."""
    page = SITE / "generated" / "notebooks" / name / "index.html"
    if not page.is_file():
        pytest.fail("site/ is not built: run `bash dev/docs.sh` first")
    return [(page.parent / src).resolve() for src in FRAME.findall(page.read_text("utf-8"))]


@pytest.mark.parametrize("name, kind", [("00_tour", "AugmentedKappaSweep"),
                                        ("02_augmented_kappa", "AugmentedKappaSweep"),
                                        ("07_kappa_paradoxes", "ParadoxExplorer"),
                                        ("09_planning_and_reporting", "StudyDesigner")])
def test_a_notebook_pages_widget_frame_carries_precomputed_states(name, kind):
    pages = [p.read_text("utf-8") for p in _frames(name)]
    shown = [p for p in pages if f"Static copy of {kind}," in p]
    assert shown, f"no {kind} frame on {name}'s page"
    for page in shown:
        live = json.loads(STATES.search(page).group(1))
        assert live["states"] and live["controls"], f"{kind} on {name}: no live control"


@pytest.mark.browser
def test_the_sweeps_p_slider_works_on_the_lesson_page(browser, server):
    import iaa_widgets as iaa
    from iaa_widgets.datasets import email_types

    page = watched_page(browser, server)
    frame = next(p for p in _frames("02_augmented_kappa")
                 if "Static copy of AugmentedKappaSweep," in p.read_text("utf-8"))
    page.goto(server + frame.relative_to(SITE).as_posix())
    page.wait_for_function("() => Number(document.querySelector('.iaa-sweep')"
                           "?.dataset.revision) >= 1", timeout=30_000)
    slider = page.locator("input.iaa-slider-p")
    assert slider.is_enabled()
    slider.fill("0.9")
    emails = iaa.Annotations.from_long(email_types(), rank="rank")
    page.wait_for_function("(v) => Math.abs(Number(document.querySelector("
                           "'.iaa-summary tr[data-key=\"kappa\"] .iaa-value').dataset.value)"
                           " - v) < 1e-12", arg=iaa.augmented_kappa(emails, p=0.9).value)
    assert page.errors == [] and page.outside == []
    page.close()


def test_a_notebooks_widget_output_becomes_its_live_page(tmp_path, monkeypatch):
    # dev/docs_pages.py without a site: a widget saved by save_pages (the notebook's last
    # cell) replaces its output; a widget with no live page falls back to its snapshot
    import ipywidgets.widgets.widget as ipw
    import nbformat

    import docs_pages
    import iaa_widgets as iaa
    from iaa_widgets.sharing import save_pages
    from iaa_widgets.widgets.export import widget_state

    shown, other = iaa.StudyDesigner(), iaa.StudyDesigner(raters=3)
    monkeypatch.setattr(ipw, "_instances", {shown.model_id: shown})  # (the kernel's)
    live = tmp_path / "x.live"
    assert save_pages(live) == [live / f"{shown.model_id}.html"]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("d"),
                                         nbformat.v4.new_code_cell("e")])
    for cell, w in zip(nb.cells, (shown, other)):
        cell.outputs = [nbformat.v4.new_output("display_data", data={
            "application/vnd.jupyter.widget-view+json": {"model_id": w.model_id,
                                                         "version_major": 2},
            "text/plain": "<iaa_widgets.widgets.designer.StudyDesigner object at 0x1>"})]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {
        w.model_id: {"model_name": "AnyModel", "state": widget_state(w)}
        for w in (shown, other)}}}
    docs_pages.static_copy(nb, tmp_path / "snapshots", "x", live)
    first, second = [json.loads(STATES.search((tmp_path / "snapshots" / f"x-{k}.html")
                                              .read_text("utf-8")).group(1)) for k in (1, 2)]
    assert {c["name"] for c in first["controls"]} >= {"raters", "kappa0"} and first["states"]
    assert second["states"] == []  # the saved state only, its controls disabled
    assert "widgets" not in nb.metadata
