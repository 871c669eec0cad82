"""The tour (notebooks/00_tour.ipynb) in Voila and headless Chromium:
``voila notebooks/00_tour.ipynb --no-browser --port=…`` on loopback renders the tour
with its outputs and every widget; moving one control of each changes the number
Python computes (in the widget's caption: a Voila page cannot run code) and redraws
its chart. With ``--theme=dark`` (Voila marks it as JupyterLab does,
``body[data-jp-theme-light="false"]``) the widgets follow it and stay legible.

Expected values: tests/browser/tourchecks.py (measure functions in this process).
Voila executes the notebook in its own kernel and never writes it; its connection
files and notebook-signing key go to a temporary directory.
"""
from __future__ import annotations

import sys

import pytest

import tourchecks as tc
from labdriver import REPO, TempServer, repo_env

pytest.importorskip("voila")

TOUR = REPO / "notebooks" / "00_tour.ipynb"


class Voila(TempServer):
    """``voila notebooks/00_tour.ipynb`` on loopback in ``theme``."""

    def __init__(self, theme: str = "light", timeout: float = 90):
        super().__init__("iaa-voila-")
        self.start([sys.executable, "-m", "voila", str(TOUR), "--no-browser",
                    f"--port={self.port}", "--Voila.ip=127.0.0.1", f"--theme={theme}",
                    "--show_tracebacks=True"],
                   path="/voila/api/shutdown/none", log="voila.log", name="Voila",
                   env=repo_env(JUPYTER_RUNTIME_DIR=str(self.root / "runtime"),
                                JUPYTER_DATA_DIR=str(self.root / "data")),
                   timeout=timeout)


def open_tour(browser, server: Voila):
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(server.url, timeout=180_000)  # Voila answers once it has run the notebook
    return page, tc.wait_for_tour(page)


def no_error_outputs(page) -> list[str]:
    """The error outputs (tracebacks) Voila rendered: none expected."""
    return page.locator('[data-mime-type="application/vnd.jupyter.stderr"], '
                        '.jp-OutputArea-output[data-mime-type*="error"]').all_inner_texts()


@pytest.fixture(scope="module")
def tour(browser):
    server = Voila("light")
    page, roots = open_tour(browser, server)
    yield page, roots
    page.close()
    server.close()


def test_tour_renders_with_every_widget(tour, artifacts):
    page, roots = tour
    assert no_error_outputs(page) == []
    assert "Traceback" not in page.locator("body").inner_text()
    # the tour's own checks ran in Voila's kernel: Krippendorff's published α values
    assert page.get_by_text("0.743").count() >= 1
    # every widget's loader imported the one bundle once (js/src/loader.js)
    assert page.evaluate("() => globalThis.__iaaWidgetsBundles.size") == 1
    for name, root in roots.items():
        assert root.locator(".iaa-error").is_hidden(), name
        assert (root.get_attribute("data-host"), root.get_attribute("data-theme")) == \
            ("jupyterlab", "light"), name
        root.scroll_into_view_if_needed()
        root.screenshot(path=str(artifacts / f"voila_{name}.png"))


@pytest.mark.parametrize("name", list(tc.WIDGETS))
def test_control_recomputes_in_python_and_redraws(tour, name):
    page, roots = tour
    tc.MOVES[name](page, roots[name])
    assert page.errors == []


def test_widgets_follow_voilas_dark_theme(browser, artifacts):
    server = Voila("dark")
    try:
        page, roots = open_tour(browser, server)
        assert page.evaluate("() => document.body.dataset.jpThemeLight") == "false"
        for name, root in roots.items():
            seen = tc.theme_of(root)
            assert (seen["theme"], seen["host"], seen["dark_page"]) == \
                ("dark", "jupyterlab", True), (name, seen)
            assert min(seen["contrast"].values()) >= 4.5, (name, seen)  # WCAG AA
            root.scroll_into_view_if_needed()
            root.screenshot(path=str(artifacts / f"voila_dark_{name}.png"))
        page.screenshot(path=str(artifacts / "voila_dark_page.png"))
        assert page.errors == []
        page.close()
    finally:
        server.close()
