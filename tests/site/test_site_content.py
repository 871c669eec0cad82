"""What the documentation site (site/, `bash dev/docs.sh`) shows, page by page (issue 40):
every public name and alias has one entry, with Parameters and Returns; every internal
anchor resolves; no page shows a repr line (`object at 0x…`) or raw TeX; each formula is
typeset by KaTeX; each widget snapshot's frame fits its content; each notebook page's
download link gives the notebook."""
from __future__ import annotations

import json
import re
import sys
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest
from conftest import SITE, watched_page

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "dev"))


class _Page(HTMLParser):
    """The ids, the links and the entry sections of one built page."""

    def __init__(self):
        super().__init__()
        self.ids, self.links = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(a["id"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])


def _pages() -> list[Path]:
    if not (SITE / "index.html").is_file():
        pytest.fail("site/ is not built: run `bash dev/docs.sh` first")
    return sorted(p for p in SITE.rglob("index.html")
                  if "generated/snapshots" not in p.as_posix())


def _parsed(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _public_entries():
    import iaa_widgets as iaa
    import docs_pages
    return docs_pages.api_urls(iaa)


def _entry_html(name: str, url: str) -> str:
    """The HTML of one API entry: from its heading to the next entry's."""
    path, anchor = url.split("#")
    text = (SITE / path / "index.html").read_text(encoding="utf-8")
    start = text.index(f'id="{anchor}"')
    nxt = re.compile(r'<h2 id="iaa_widgets\.').search(text, start + 1)
    return text[start:nxt.start() if nxt else len(text)]


def test_every_public_name_has_exactly_one_anchor():
    urls = _public_entries()
    assert "conger_kappa" in urls and "davies_fleiss_kappa" in urls
    counts: dict[str, int] = {}
    for path in {u.split("#")[0] for u in urls.values()}:
        for i in _parsed(SITE / path / "index.html").ids:
            counts[i] = counts.get(i, 0) + 1
    for name, url in urls.items():
        assert counts.get(url.split("#")[1]) == 1, (name, counts.get(url.split("#")[1]))


def _names():
    if not (SITE / "index.html").is_file():
        return []
    return sorted(_public_entries())


@pytest.mark.parametrize("name", _names())
def test_entry_has_parameters_and_returns(name):
    import inspect
    import iaa_widgets as iaa
    entry = _entry_html(name, _public_entries()[name])
    obj = getattr(iaa, name)
    if not (inspect.isclass(obj) and issubclass(obj, BaseException)):
        assert (">Parameters" in entry or ">Attributes" in entry
                or not inspect.signature(obj).parameters), name
    if not inspect.isclass(obj):
        assert ">Returns" in entry, name
    assert "&lt;renamed&gt;" not in entry and "RENAMED" not in entry
    assert not re.search(r":(func|class|meth|attr|data|mod):`", entry)


def test_every_internal_link_and_anchor_resolves():
    ids = {p: set(_parsed(p).ids) for p in _pages()}
    broken = []
    for page, parsed in ((p, _parsed(p)) for p in ids):
        here = "/" + page.relative_to(SITE).as_posix()
        for href in parsed.links:
            url = urlparse(urljoin(here, href))
            if url.scheme or url.netloc or href.startswith(("mailto:", "javascript:")):
                continue
            target = SITE / unquote(url.path).lstrip("/")
            if target.is_dir() or url.path.endswith("/"):
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{here}: {href} (no file)")
            elif url.fragment and target in ids and unquote(url.fragment) not in ids[target]:
                broken.append(f"{here}: {href} (no anchor)")
    assert not broken, "\n".join(broken[:40])


def test_no_page_shows_a_repr_line():
    shown = [p.relative_to(SITE).as_posix() for p in _pages()
             if re.search(r"object at 0x[0-9a-f]+", p.read_text(encoding="utf-8"))]
    assert not shown, shown


def test_notebook_download_links_give_the_notebooks(server):
    pages = sorted((SITE / "generated" / "notebooks").glob("*/index.html"))
    assert pages
    for page in pages:
        links = [h for h in _parsed(page).links if h.endswith(".ipynb")]
        assert links, page
        url = urljoin(server + page.parent.relative_to(SITE).as_posix() + "/", links[0])
        with urllib.request.urlopen(url) as response:
            notebook = json.loads(response.read())
        assert notebook["cells"] and "widgets" not in notebook.get("metadata", {})
        assert "mybinder.org/v2/gh/<owner>" not in page.read_text(encoding="utf-8")


RAW_TEX = r"""() => {
  const root = document.querySelector('.md-content');
  const clone = root.cloneNode(true);
  clone.querySelectorAll('pre, code, .katex, script, style, iframe').forEach(e => e.remove());
  const text = clone.textContent;
  return {raw: (text.match(/\$\$|\\\(|\\\[|\\frac|\\sum|\$[^$\s][^$]*\\[a-z]+[^$]*\$/g) || []).slice(0, 5),
          katex: document.querySelectorAll('.md-content .katex').length};
}"""


def _math_pages():
    """Pages whose source may hold formulas: arithmatex's spans (a page's or a
    docstring's), or TeX delimiters anywhere (a notebook's markdown), with whether the
    page surely has one (arithmatex marked it)."""
    out = []
    for p in _pages():
        text = p.read_text(encoding="utf-8")
        marked = 'class="arithmatex"' in text
        if marked or re.search(r"\$\$|\\\(|\$\\", text):
            out.append((p.parent.relative_to(SITE).as_posix() + "/", marked))
    return out


@pytest.mark.browser
def test_formulas_are_typeset(browser, server):
    pages = _math_pages()
    page = watched_page(browser, server)
    typeset = {}
    for path, marked in pages:
        page.goto(server + path)
        page.wait_for_load_state("load")
        found = page.evaluate(RAW_TEX)
        assert not found["raw"], (path, found["raw"])
        assert found["katex"] > 0 or not marked, path
        typeset[path] = found["katex"]
    # the notebooks' TeX (not marked by arithmatex) is typeset too
    assert sum(n for p, n in typeset.items() if "notebooks/" in p) > 0, typeset
    assert not page.outside, page.outside
    page.close()


FITS = """() => Array.from(document.querySelectorAll('.md-content iframe')).map(f => {
  const d = f.contentDocument;
  return {src: f.getAttribute('src'), frame: f.clientHeight,
          content: d ? d.documentElement.scrollHeight : -1};
})"""


@pytest.mark.browser
@pytest.mark.parametrize("path", ["widgets/", "generated/notebooks/00_tour/"])
def test_each_iframe_fits_its_content(browser, server, path):
    page = watched_page(browser, server)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(server + path)
    frames = page.locator(".md-content iframe")
    assert frames.count() >= 1
    for k in range(frames.count()):
        frames.nth(k).scroll_into_view_if_needed()
        page.wait_for_timeout(500)
    page.wait_for_timeout(3000)  # every frame loaded, its charts drawn, the frame re-sized
    for f in page.evaluate(FITS):
        assert f["content"] > 0 and abs(f["frame"] - f["content"]) <= 2, f
    page.close()
