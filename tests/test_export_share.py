"""iaa.share (issue 42): several widgets and the Markdown between them in one
self-contained page, within one budget; user text shown as text, never HTML. Driven in
Chromium by tests/browser/test_export_browser.py::test_share_page."""
from __future__ import annotations

import json
import re

import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError
from iaa_widgets.sharing import markdown

HOSTILE = "</script><img src=x onerror=alert(1)>"


def _lives(page):
    return [json.loads(m) for m in re.findall(
        r'<script type="application/json" id="iaa-states(?:-\d+)?">(.*?)</script>', page, re.S)]


@pytest.fixture(scope="module")
def widgets():
    ws = [iaa.ParadoxExplorer(n=10), iaa.StudyDesigner()]
    yield ws
    for w in ws:
        w.close()


def test_one_page_holds_each_widget_and_the_text_between(widgets):
    a, b = widgets
    page = iaa.share("# Two *widgets*", "First, the table:", a, "Then the design.", b,
                     budget=3_000_000)
    assert len(page.encode("utf-8")) <= 3_000_000
    assert page.count('<section class="iaa-static-part"') == 2
    assert page.count("var iaaStandalone") == 1  # one copy of the bundle
    assert "<title>Two *widgets*</title>" in page  # the first heading, as text
    order = [page.index(s) for s in ("<h1>Two <em>widgets</em></h1>", "First, the table:",
                                     'id="iaa-state"', "Then the design.", 'id="iaa-state-2"')]
    assert order == sorted(order)
    # both widgets' controls are live, within the one budget
    assert [[c["name"] for c in live["controls"]] for live in _lives(page)] == [
        ["prevalence", "bias"],
        ["half_width", "kappa0", "kappa1", "prevalence", "raters", "confidence"]]


def test_beyond_the_budget_each_widget_names_what_it_left_out(widgets):
    page = iaa.share("text", *widgets, budget=0)
    lives = _lives(page)
    assert all(live["controls"] == [] and live["dropped"] for live in lives)
    assert [d["controls"] for d in lives[0]["dropped"]][:2] == ["prevalence index",
                                                                 "bias index"]


def test_markdown_is_text_with_a_small_subset_marked_up():
    html = markdown(f"# A {HOSTILE}\n\n*it* **bold** `<code>` [x](javascript:alert(1))\n"
                    "- one\n- two\n\n1. first\n\n```\n<b>kept</b>\n```")
    assert "<img" not in html and "<script" not in html.lower()
    assert "<h1>A &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</h1>" in html
    assert "<em>it</em> <strong>bold</strong> <code>&lt;code&gt;</code>" in html
    assert "[x](javascript:alert(1))" in html  # no link: shown as typed
    assert "<ul><li>one</li><li>two</li></ul>" in html and "<ol><li>first</li></ol>" in html
    assert "<pre><code>&lt;b&gt;kept&lt;/b&gt;</code></pre>" in html


def test_the_page_is_written_to_a_path(widgets, tmp_path):
    path = tmp_path / "demo.html"
    assert iaa.share(widgets[0], path=path, budget=0) is None
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("parts, kwargs, message", [
    (("only text",), {}, "at least one widget"),
    ((3,), {}, "part 1 must be text"),
    (("same", "twice"), {}, "given twice"),
    ((), {"budget": -1}, "budget"),
    ((), {"path": 3}, "path"),
])
def test_bad_parts_are_named(widgets, parts, kwargs, message):
    if parts == ("same", "twice"):
        parts = (widgets[0], widgets[0])
    elif not parts:
        parts = (widgets[0],)
    with pytest.raises(AgreementError, match=message):
        iaa.share(*parts, **kwargs)
