"""The marimo tour (notebooks/marimo_tour.py) in a real marimo and headless Chromium:
`marimo run` serves it on a free loopback port; every widget renders under
``mo.ui.anywidget``; moving one control of each changes the number Python computes,
both in the widget's caption and in the marimo cell that reads the widget's value, and
redraws the chart. With marimo's dark theme, set or followed from the browser's
preference ("system"), the widgets follow it (marimo marks it as ``body.dark``).

Expected values: tests/browser/tourchecks.py (measure functions in this process).
marimo's own config (theme) is read from a private home directory, never the user's.
"""
from __future__ import annotations

import re
import sys

import pytest

import tourchecks as tc
from labdriver import REPO, TempServer, repo_env

pytest.importorskip("marimo")

TOUR = REPO / "notebooks" / "marimo_tour.py"


class MarimoApp(TempServer):
    """``marimo run notebooks/marimo_tour.py`` on loopback, no token, its config
    (``[display] theme``) in a temporary home directory."""

    def __init__(self, theme: str = "light", timeout: float = 90):
        super().__init__("iaa-marimo-")
        home = self.root
        (home / ".marimo.toml").write_text(f'[display]\ntheme = "{theme}"\n')
        env = repo_env(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                       XDG_CACHE_HOME=str(home / ".cache"), XDG_STATE_HOME=str(home / ".state"))
        self.start([sys.executable, "-m", "marimo", "run", str(TOUR), "--headless", "--no-token",
                    "--host", "127.0.0.1", "--port", str(self.port), "--no-sandbox"],
                   path="/health", log="marimo.log", name="marimo run", env=env,
                   timeout=timeout)


def open_tour(browser, app: MarimoApp, color_scheme: str = "light"):
    page = browser.new_page(viewport={"width": 1300, "height": 1000},
                            color_scheme=color_scheme)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(app.url)
    return page, tc.wait_for_tour(page)


@pytest.fixture(scope="module")
def tour(browser):
    app = MarimoApp("light")
    page, roots = open_tour(browser, app)
    yield page, roots
    page.close()
    app.close()


def cell_count(page, start: str) -> int:
    """How many marimo cell outputs start with ``start``."""
    return page.locator(".markdown").filter(has_text=re.compile("^" + re.escape(start))).count()


def cell_output(page, start: str) -> str:
    """The text of the marimo cell output that starts with ``start``."""
    outputs = page.locator(".markdown").filter(has_text=re.compile("^" + re.escape(start)))
    assert outputs.count() == 1, f"no single output starting {start!r}"
    return outputs.first.inner_text()


def test_every_widget_renders_under_mo_ui_anywidget(tour, artifacts):
    page, roots = tour
    for name, root in roots.items():
        assert root.locator(".iaa-error").is_hidden(), name
        assert root.get_attribute("data-host") == "marimo", name  # body.light-theme
        assert root.get_attribute("data-theme") == "light", name
        root.scroll_into_view_if_needed()
        root.screenshot(path=str(artifacts / f"marimo_{name}.png"))
    # the cells reading each widget's value show what Python computed at the start
    assert cell_output(page, "Counts").endswith(f"= {tc.kappa_initial():.4f}")
    assert cell_output(page, "At p = 0.60").endswith(f"= {tc.kappa_prime(0.6).value:.4f}")
    assert f"sd = {tc.spa_sd(0.2):.4f}" in cell_output(page, "Dropping 20%")
    assert cell_output(page, "γ computed").startswith(
        f"γ computed in Python = {tc.gamma_value(1.0):.4f}")
    assert page.errors == []


def test_contingency_click_recomputes_in_python(tour):
    page, roots = tour
    expected = tc.move_contingency(page, roots["contingency"])
    counts, _ = tc.kappa_after_click()
    # the cell that reads matrix.value ran again, on the new counts
    tc.poll(lambda: cell_output(page, "Counts").startswith(f"Counts {counts}"), 20,
            "the marimo cell to run again")
    assert cell_output(page, "Counts").endswith(f"= {expected:.4f}")


def test_sweep_p_slider_recomputes_in_python(tour):
    page, roots = tour
    expected = tc.move_sweep(page, roots["sweep"], 0.85)
    tc.poll(lambda: cell_count(page, "At p = 0.85"),
            20, "the marimo cell to run again")
    assert cell_output(page, "At p = 0.85").endswith(f"= {expected:.4f}")


def test_sparse_drop_slider_resamples_in_python(tour):
    page, roots = tour
    expected = tc.move_sparse(page, roots["sparse"], 0.6)
    tc.poll(lambda: cell_count(page, "Dropping 60%"),
            20, "the marimo cell to run again")
    assert f"sd = {expected:.4f}" in cell_output(page, "Dropping 60%")


def test_gamma_alpha_slider_recomputes_in_python(tour, artifacts):
    page, roots = tour
    expected = tc.move_gamma(page, roots["gamma"], 2.5)
    # γ is computed in the widget's worker thread; the cell waits for it (gamma.wait())
    tc.poll(lambda: cell_count(page, "γ computed") and
            cell_output(page, "γ computed").endswith("(positional weight = 2.5)"), 60,
            "the marimo cell to show γ at a positional weight of 2.5")
    assert cell_output(page, "γ computed").startswith(f"γ computed in Python = {expected:.4f}")
    page.screenshot(path=str(artifacts / "marimo_tour_after_moves.png"))
    assert page.errors == []


@pytest.mark.parametrize("theme", ["dark", "system"])
def test_widgets_follow_marimos_dark_theme(browser, artifacts, theme):
    # "system": marimo follows the browser's prefers-color-scheme, here dark
    app = MarimoApp(theme)
    try:
        page, roots = open_tour(browser, app, color_scheme="dark")
        assert "dark" in page.evaluate("() => document.body.className").split()
        for name, root in roots.items():
            seen = tc.theme_of(root)
            assert (seen["theme"], seen["host"], seen["dark_page"]) == \
                ("dark", "marimo", True), (name, seen)
            assert min(seen["contrast"].values()) >= 4.5, (name, seen)  # WCAG AA
            root.scroll_into_view_if_needed()
            root.screenshot(path=str(artifacts / f"marimo_{theme}_{name}.png"))
        assert page.errors == []
        page.close()
    finally:
        app.close()
