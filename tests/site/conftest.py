"""Shared fixtures of the site tests: the built site served from loopback, one Chromium."""
from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
sys.path.insert(0, str(ROOT / "tests" / "browser"))


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def server():
    if not (SITE / "index.html").is_file():
        pytest.fail("site/ is not built: run `bash dev/docs.sh` first")
    handler = functools.partial(_Quiet, directory=str(SITE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser():
    from labdriver import launch_browser
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = launch_browser(p)
        yield chromium
        chromium.close()


def watched_page(browser, base):
    """A page that records console errors and every request that leaves the server."""
    page = browser.new_page()
    page.errors, page.outside = [], []
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("request", lambda r: r.url.startswith(("http:", "https:"))
            and not r.url.startswith(base) and page.outside.append(r.url))
    return page
