"""Fixtures of the real-browser tests: one JupyterLab server on loopback and one
headless Chromium (system binary, override with $CHROMIUM) per test process (each
pytest-xdist worker), a page per notebook. When a module ends its pages close, every
kernel is shut down and the server's settings (a theme) and workspaces are reset, so each
module finds the server as new. Screenshots go to tests/artifacts/
(git-ignored)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from labdriver import CHROMIUM, Lab, LabPage, launch_browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def pytest_collection_modifyitems(items):
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def lab_server():
    """The JupyterLab server of this test process."""
    with Lab() as server:
        yield server


@pytest.fixture(scope="module")
def lab(lab_server):
    """This process's JupyterLab server, as new to each module: when the module ends,
    every kernel is shut down and settings and workspaces are reset."""
    yield lab_server
    lab_server.reset()


@pytest.fixture(scope="session")
def chromium():
    """The headless Chromium of this test process."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"no Chromium at {CHROMIUM}: install it (apt-get install chromium) or "
                    "point $CHROMIUM at one")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        process = launch_browser(p)
        yield process
        process.close()


@pytest.fixture(scope="module")
def browser(chromium):
    """This process's Chromium; a page or context a module leaves open (a test that
    failed before closing it) is closed when the module ends."""
    before = set(chromium.contexts)
    yield chromium
    for context in chromium.contexts:
        if context not in before:
            context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def open_lab_page(browser, lab, artifacts):
    """``open_lab_page(name, cells)``: a LabPage showing a new notebook made of
    ``cells`` (strings), opened with its kernel idle (cells not run yet). At the end of
    the module its pages close and their kernels are shut down."""
    pages = []

    def open_(name: str, cells: list[str]) -> LabPage:
        lab.write_notebook(name, cells)
        page = LabPage(browser, lab, artifacts)
        pages.append(page)
        page.open_notebook(name)
        return page

    yield open_
    for page in pages:
        page.close()


@pytest.fixture(scope="module")
def offline(browser):
    """A page factory: a fresh context whose network is off, every request that is not
    a file:// one refused and recorded, console errors and dialogs recorded."""
    contexts = []

    def open_(path):
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        contexts.append(context)
        log = {"requests": [], "errors": [], "dialogs": []}

        def refuse(route):
            log["requests"].append(route.request.url)
            route.abort()

        context.route(lambda url: not url.startswith("file:"), refuse)
        context.set_offline(True)
        page = context.new_page()
        page.on("console", lambda m: log["errors"].append(m.text) if m.type == "error"
                else None)
        page.on("pageerror", lambda e: log["errors"].append(f"pageerror: {e}"))
        page.on("dialog", lambda d: (log["dialogs"].append(d.message), d.dismiss()))
        page.goto(path.resolve().as_uri())
        return page, log

    yield open_
    for context in contexts:
        context.close()
