"""MkDocs hooks of the documentation site (mkdocs.yml ``hooks:``).

- Every code span that names a public function or class (`` `iaa.fleiss_kappa` ``,
  `` `fleiss_kappa(data)` ``, `` `iaa_widgets.Annotations` ``) links to its entry in the
  API pages (dev/docs_pages.py says which page holds each name); code blocks, code already
  in a link and the API entries' own headings are left alone.
- A notebook page's table of contents drops code from its headings' anchors
  (``#a-tour-of-in-five-minutes``) where the heading keeps it
  (``a-tour-of-iaa_widgets-in-five-minutes``): each such link is pointed at the one id
  whose words contain its words in order.
- Each notebook page opens with a link that downloads the notebook (the .ipynb beside
  the page) and, when ``extra.binder`` in mkdocs.yml holds the repository's public
  Binder URL, a link that opens it there.
"""
from __future__ import annotations

import html
import posixpath
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# a link or a code block, passed over whole; or a plain code span, perhaps linked
PIECE = re.compile(r"<a\b.*?</a>|<pre\b.*?</pre>|<code>([^<]+)</code>", re.S)
NAME = re.compile(r"^(?:iaa|iaa_widgets)?\.?([A-Za-z_]\w*)(?:\(.*\)?)?$", re.S)

_urls: dict[str, str] = {}


def on_config(config, **kwargs):
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "dev"))
    import docs_pages
    import iaa_widgets as iaa
    _urls.clear()
    _urls.update(docs_pages.api_urls(iaa))
    return config


def _target(code: str) -> str | None:
    text = html.unescape(code).strip()
    match = NAME.match(text)
    if match is None:
        return None
    qualified = text.startswith(("iaa.", "iaa_widgets."))
    called = "(" in text
    name = match.group(1)
    if name not in _urls or not (qualified or called or text == name):
        return None
    return name


def link_names(content: str, page_url: str) -> str:
    here = posixpath.dirname("/" + page_url.rstrip("/") + "/index.html")

    def one(match: re.Match) -> str:
        code = match.group(1)
        name = _target(code) if code else None
        if name is None:
            return match.group(0)
        url = _urls[name]
        path, anchor = url.split("#")
        if "/" + path.rstrip("/") == here:
            href = "#" + anchor
        else:
            href = posixpath.relpath("/" + path, here).rstrip("/") + "/#" + anchor
        return f'<a href="{href}" class="iaa-api-link"><code>{code}</code></a>'
    return PIECE.sub(one, content)


def notebook_links(content: str, page, config) -> str:
    stem = Path(page.file.src_uri).stem
    links = [f'<a class="md-button" href="{stem}.ipynb" download>Download the notebook '
             f"({stem}.ipynb)</a>"]
    binder = (config.get("extra") or {}).get("binder")
    if binder:
        links.append(f'<a class="md-button" href="{html.escape(binder.rstrip("/"))}'
                     f'?urlpath=lab/tree/notebooks/{stem}.ipynb">Open on Binder</a>')
    return f'<p class="iaa-notebook-links">{" ".join(links)}</p>\n' + content


def on_page_content(content, page, config, files, **kwargs):
    if page.file.src_uri.endswith(".ipynb"):
        content = notebook_links(content, page, config)
    return link_names(content, page.url)


def _within(words: list[str], other: list[str]) -> bool:
    it = iter(other)
    return all(w in it for w in words)


def on_post_page(output, page, config, **kwargs):
    if not page.file.src_uri.endswith(".ipynb"):
        return output
    ids = set(re.findall(r'\bid="([^"]+)"', output))

    def fix(match: re.Match) -> str:
        frag = match.group(1)
        if frag in ids:
            return match.group(0)
        near = [i for i in ids if _within(frag.split("-"), i.split("-"))]
        return f'href="#{near[0]}"' if len(near) == 1 else match.group(0)
    return re.sub(r'href="#([^"]+)"', fix, output)
