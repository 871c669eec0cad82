"""The documentation site (built by `bash dev/docs.sh` into site/) in headless Chromium,
served from loopback with no network: a widget snapshot on the gallery page draws its
chart, search finds `krippendorff_alpha`, and no page logs a console error or asks for
anything beyond the local server.

dev/test.sh runs this after building the site; on its own: `bash dev/docs.sh` then
`python -m pytest tests/site`.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import watched_page as _watched_page

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser

PAGES = ["", "getting-started/", "choosing/", "reading/", "measures/classic/",
         "measures/alpha/", "tools/", "big-data/", "widgets/", "notebooks/",
         "generated/notebooks/00_tour/", "generated/api/", "generated/api/categorical/",
         "glossary/", "generated/bibliography/", "citing/", "benchmarks/", "changelog/"]


@pytest.mark.parametrize("path", PAGES)
def test_page_loads_without_errors_or_network(browser, server, path):
    page = _watched_page(browser, server)
    page.goto(server + path)
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").count() >= 1
    assert not page.errors, page.errors
    assert not page.outside, f"requests beyond the local server: {page.outside}"
    page.close()


def test_gallery_snapshot_draws_its_chart(browser, server):
    page = _watched_page(browser, server)
    page.goto(server + "widgets/")
    frame_el = page.locator('iframe[title="ContingencyMatrix snapshot"]')
    frame_el.scroll_into_view_if_needed()
    frame = frame_el.content_frame
    marks = frame.locator("svg .mark-rect path, svg g.mark-rect path")
    marks.first.wait_for(timeout=20_000)
    assert marks.count() >= 4            # a heatmap cell per pair of categories at least
    assert frame.locator('[data-coef="cohen_kappa"]').count() >= 1
    page.screenshot(path=str(ROOT / "tests" / "artifacts" / "site_gallery.png"), full_page=False)
    assert not page.errors, page.errors
    page.close()


def test_search_finds_krippendorff_alpha(browser, server):
    page = _watched_page(browser, server)
    page.goto(server)
    query = page.locator("input[data-md-component=search-query]")
    query.click()
    # the search worker indexes the site first ("Initializing search"); a query typed
    # before it is ready is not searched again, so wait for it, as a reader would
    page.wait_for_function(
        "() => { const m = document.querySelector('.md-search-result__meta');"
        " return m && m.textContent.trim() && !/initializ/i.test(m.textContent); }",
        timeout=60_000)
    query.press_sequentially("krippendorff_alpha", delay=20)  # keys, as a reader types
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=30_000)
    assert "krippendorff_alpha" in page.locator(".md-search-result").inner_text()
    assert not page.errors, page.errors
    page.close()
