"""The tour (notebooks/00_tour.ipynb) in Notebook 7 and headless Chromium: the
``notebook`` server on a free loopback port opens a copy of the tour at
``/notebooks/00_tour.ipynb``, runs every cell without an error, every widget draws;
moving one control of each changes the number Python computes (in the widget's
caption; for the ContingencyMatrix also read from the kernel) and redraws its chart.
Switched to JupyterLab Dark (Notebook 7 marks it as JupyterLab does), the widgets
follow it and stay legible.

Expected values: tests/browser/tourchecks.py (measure functions in this process).
The tour is copied to a temporary root, so the repository's file is never written.
"""
from __future__ import annotations

import shutil
import sys

import pytest

import tourchecks as tc
from labdriver import REPO, LabPage, TempServer, repo_env
from test_tour_browser import CELLS_DONE, KERNEL_IDLE, NOTEBOOK_STATE

pytest.importorskip("notebook")

TOUR = "00_tour.ipynb"


class Notebook7(TempServer):
    """``python -m notebook`` on loopback, no token, a temporary root holding a copy of
    the tour and the lessons' helper module it imports (notebooks/lesson.py), private
    settings; ``window.jupyterapp`` exposed."""

    def __init__(self, timeout: float = 90):
        super().__init__("iaa-nb7-")
        for name in (TOUR, "lesson.py"):
            shutil.copy(REPO / "notebooks" / name, self.root / name)
        settings = self.root / ".settings"
        news = settings / "@jupyterlab" / "apputils-extension"
        news.mkdir(parents=True)
        (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
        self.start([sys.executable, "-m", "notebook", "--no-browser", "--ServerApp.ip=127.0.0.1",
                    f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
                    "--IdentityProvider.token=", "--ServerApp.password=",
                    f"--ServerApp.root_dir={self.root}",
                    f"--JupyterNotebookApp.user_settings_dir={settings}",
                    f"--JupyterNotebookApp.workspaces_dir={self.root / '.workspaces'}",
                    "--JupyterNotebookApp.expose_app_in_browser=True", "--allow-root"],
                   path="/api/status", log=".notebook.log", name="Notebook 7",
                   env=repo_env(JUPYTER_RUNTIME_DIR=str(self.root / ".runtime")),
                   timeout=timeout)


@pytest.fixture(scope="module")
def tour(browser, artifacts):
    server = Notebook7()
    page = LabPage(browser, server, artifacts, viewport=(1300, 1000))
    page.errors = []  # (message, stack) of every uncaught error on the page
    page.page.on("pageerror", lambda e: page.errors.append((str(e), e.stack or "")))
    try:
        page.page.goto(f"{server.url}/notebooks/{TOUR}")
        page.page.wait_for_function(KERNEL_IDLE, arg=TOUR, timeout=60_000)
        assert page.page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
        page.run_all()
        page.page.wait_for_function(CELLS_DONE, timeout=180_000, polling=500)
        roots = tc.wait_for_tour(page.page)
        yield page, roots
    finally:
        page.close()
        server.close()


def test_tour_runs_and_every_widget_renders(tour, artifacts):
    page, roots = tour
    state = page.page.evaluate(NOTEBOOK_STATE)
    assert state["errors"] == [], state["errors"]
    # one of each class (γ's progress bar, a tqdm widget, may add an output)
    assert state["widgets"] >= 4
    assert page.page.locator(".iaa-widget").count() == 4
    for name, root in roots.items():
        assert root.locator(".iaa-error").is_hidden(), name
        assert (root.get_attribute("data-host"), root.get_attribute("data-theme")) == \
            ("jupyterlab", "light"), name  # body[data-jp-theme-light="true"]
        root.scroll_into_view_if_needed()
        page.screenshot(f"notebook7_{name}.png", root)


def test_contingency_click_recomputes_in_the_kernel(tour):
    page, roots = tour
    expected = tc.move_contingency(page.page, roots["contingency"])
    counts, _ = tc.kappa_after_click()
    assert page.python("matrix.result['cohen_kappa'].value") == pytest.approx(expected,
                                                                              abs=1e-15)
    assert page.python("matrix.table.to_numpy().tolist()") == counts


@pytest.mark.parametrize("name", ["sweep", "sparse", "gamma"])
def test_control_recomputes_in_python_and_redraws(tour, name):
    page, roots = tour
    tc.MOVES[name](page.page, roots[name])


def test_widgets_follow_the_dark_theme(tour, artifacts):
    page, roots = tour
    before = {name: tc.revision(root) for name, root in roots.items()}
    page.set_theme("JupyterLab Dark")
    try:
        for name, root in roots.items():  # each re-embeds its charts in the new theme
            tc.poll(lambda: tc.revision(root) > before[name], 30, f"{name} to redraw")
            seen = tc.theme_of(root)
            assert (seen["theme"], seen["host"], seen["dark_page"]) == \
                ("dark", "jupyterlab", True), (name, seen)
            assert min(seen["contrast"].values()) >= 4.5, (name, seen)  # WCAG AA
            root.scroll_into_view_if_needed()
            page.screenshot(f"notebook7_dark_{name}.png", root)
    finally:
        page.set_theme("JupyterLab Light")


def test_no_error_on_the_page_but_notebook_7s_own(tour):
    # Notebook 7.6.5 with JupyterLab 4.6.6 throws "Cannot read properties of undefined
    # (reading 'schema')" while it loads any notebook, one without widgets too (seen
    # here): an error whose every frame lies in Notebook 7's own bundle is its own
    page, _ = tour
    def frames(stack):  # the script URLs of a stack's frames
        return [line for line in stack.splitlines()[1:] if "://" in line or "blob:" in line]

    ours = [(message, stack) for message, stack in page.errors
            if not frames(stack) or
            not all("/static/notebook/" in f for f in frames(stack))]
    assert ours == [], ours


def test_no_vega_warning_after_the_widgets_were_used(tour):
    """Issue 35: after the tour ran and every control above moved, the console holds no
    Vega warning (the widgets leave empty layers out instead of filtering the logger)."""
    page, _ = tour
    assert tc.vega_warnings(page.console) == [], tc.vega_warnings(page.console)
