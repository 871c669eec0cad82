"""One self-contained page of several widgets and the text between them:
``iaa.share("# Title", w1, "Some *text*", w2, path="demo.html")`` (issue 42).

Each widget is saved as ``widget.to_html()`` saves it (:mod:`iaa_widgets.widgets.export`:
its state, the states Python computes for its live controls, its banner), in one page
with one copy of the bundle; the text parts are Markdown, rendered safely: the text is
escaped first (so ``<b>`` shows as ``<b>``), then a small subset is marked up.
(The module is not named ``share``: a submodule of that name would replace the
function ``iaa.share`` on the package once imported.)
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from . import validate
from .errors import AgreementError
from .html import text

__all__ = ["share", "states_within", "save_pages"]

_FENCE = re.compile(r"^\s*```")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*\d+[.)]\s+(.*)$")
_STRONG = re.compile(r"\*\*(\S(?:.*?\S)?)\*\*")
_EMPHASIS = re.compile(r"\*(\S(?:.*?\S)?)\*")


@validate.takes()  # a misspelt keyword is refused, naming the closest
def share(*parts: Any, path=None, title: Any = None, budget: int = 5_000_000):
    """Several widgets and the Markdown text between them as one self-contained page.

    Parameters
    ----------
    *parts : str or IAAWidget
        In the page's order: text (Markdown) and widgets (each saved as
        ``widget.to_html()`` saves it, with its own banner).
    path : str, path-like, open text file or None
        Where to write the page; None returns it as a string.
    title : str, optional
        The page's title (text); default: the first heading, else "iaa_widgets".
    budget : int, default 5_000_000
        Bytes of the whole page. What the page needs without precomputed states (the
        bundle, styles, text, saved states) is taken first; the rest is split equally
        among the widgets in order, and what a widget leaves goes to the next ones.

    Returns
    -------
    str or None
        The page when ``path`` is None.

    Raises
    ------
    AgreementError
        For a part that is neither text nor a widget, no widget at all, a widget given
        twice, a wrongly typed ``path`` or a ``budget`` below 0.

    See Also
    --------
    IAAWidget.to_html : one widget's page.

    Notes
    -----
    No CDN, no network: the page opens from ``file://`` offline, under the same
    Content Security Policy as ``to_html``. Every number in it was computed by Python
    (each widget's live controls switch among states computed here). The Markdown
    subset: ``#`` headings, paragraphs, ``-``/``1.`` lists, fenced code blocks,
    ``**strong**``, ``*emphasis*`` and ```code```; anything else, HTML included, is
    shown as typed.

    References
    ----------
    Issue 42 (shareable demos without a server).

    Examples
    --------
    >>> import iaa_widgets as iaa
    >>> w = iaa.ParadoxExplorer(n=10)
    >>> page = iaa.share("# Two paradoxes", "κ at fixed A_o, <b>not</b> bold:", w,
    ...                  budget=200_000)
    >>> "<h1>Two paradoxes</h1>" in page, "&lt;b&gt;not&lt;/b&gt;" in page
    (True, True)
    """
    from .widgets._base import IAAWidget
    from .widgets.export import empty_states, page_end, page_head, widget_section

    where = "share"
    for k, part in enumerate(parts):
        if not isinstance(part, (str, IAAWidget)):
            raise AgreementError(f"{where}: part {k + 1} must be text (Markdown) or an "
                                 f"iaa_widgets widget, got {type(part).__name__}")
    widgets = [p for p in parts if isinstance(p, IAAWidget)]
    if not widgets:
        raise AgreementError(f"{where}: give at least one widget (and text between them); "
                             "for one widget alone, widget.to_html() does the same")
    if len({id(w) for w in widgets}) < len(widgets):
        raise AgreementError(f"{where}: a widget is given twice; a page shows each widget "
                             "once (make a second widget for a second view)")
    if not (path is None or isinstance(path, (str, os.PathLike)) or hasattr(path, "write")):
        validate.fail(where, "path", "a file path, an open text file or None (the page "
                      "returned as a string)", path)
    budget = validate.integer(where, "budget", budget, minimum=0)
    if title is None:
        heads = (m.group(2) for p in parts if isinstance(p, str)
                 for m in map(_HEADING.match, p.splitlines()) if m)
        title = next(heads, "iaa_widgets")
    for w in widgets:
        w.wait()

    def page(live: list) -> str:
        out, k = [page_head(title)], 0
        for part in parts:
            if isinstance(part, str):
                out.append(f"<div class=\"iaa-shared-text\">{markdown(part)}</div>\n")
            else:
                out.append(widget_section(part, live[k], k + 1))
                k += 1
        return "".join(out) + page_end()

    left = budget - len(page([empty_states(budget)] * len(widgets)).encode("utf-8"))
    document = page(states_within(widgets, left))
    if path is None:
        return document
    if hasattr(path, "write"):
        path.write(document)
    else:
        Path(path).write_text(document, encoding="utf-8")
    return None


def states_within(widgets: list, left: int) -> list[dict]:
    """The precomputed states of each of ``widgets`` (in order) within ``left`` bytes:
    an equal share of what is left to each widget in turn, so that what one leaves goes
    to the next ones.

    Parameters
    ----------
    widgets : list of IAAWidget
        The widgets of one page, in its order.
    left : int
        Bytes the page leaves for their states (its size without them taken from its
        budget; below 0: none).

    Returns
    -------
    list of dict
        :func:`~iaa_widgets.widgets.export.precomputed_states` of each widget, within
        its share (the budget its banner names).

    See Also
    --------
    share : a page of several widgets and text.
    iaa_widgets.report_html : the report, which embeds widgets.
    """
    from .widgets.export import empty_states, precomputed_states, widget_section

    live = []
    for k, w in enumerate(widgets):
        states = precomputed_states(w, max(left, 0) // (len(widgets) - k))
        left -= len(widget_section(w, states).encode("utf-8")) - \
            len(widget_section(w, empty_states(states["budget"])).encode("utf-8"))
        live.append(states)
    return live


def save_pages(folder, *, budget: int = 5_000_000) -> list[Path]:
    """Every iaa_widgets widget open in this process saved as ``widget.to_html()`` saves
    it, with its precomputed states, into ``folder/<model id>.html``: the docs site runs
    this at the end of each notebook it shows (dev/docs_pages.py), so that a notebook's
    widget output becomes its live page rather than a picture of its saved state.

    Parameters
    ----------
    folder : str or path-like
        Where to write the pages (made if missing).
    budget : int, default 5_000_000
        Bytes of each page (``to_html``'s ``budget``).

    Returns
    -------
    list of Path
        The pages written.

    See Also
    --------
    share : several widgets in one page.
    """
    from ipywidgets.widgets.widget import _instances  # model id → widget, while open

    from .widgets._base import IAAWidget

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for model_id, w in list(_instances.items()):
        if isinstance(w, IAAWidget):
            w.to_html(folder / f"{model_id}.html", budget=budget)
            written.append(folder / f"{model_id}.html")
    return written


def markdown(source: str) -> str:
    """``source`` as HTML: escaped, then the subset of :func:`share` marked up (so any
    HTML in it shows as text)."""
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []
    kind = ""
    code: list[str] | None = None

    def flush() -> None:
        nonlocal kind
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append(f"<{kind}>" + "".join(f"<li>{_inline(i)}</li>" for i in items)
                       + f"</{kind}>")
            items.clear()

    for line in source.splitlines():
        if code is not None:
            if _FENCE.match(line):
                out.append(f"<pre><code>{text(chr(10).join(code))}</code></pre>")
                code = None
            else:
                code.append(line)
            continue
        if _FENCE.match(line):
            flush()
            code = []
            continue
        heading, bullet, numbered = (_HEADING.match(line), _BULLET.match(line),
                                     _NUMBERED.match(line))
        if not line.strip():
            flush()
        elif heading:
            flush()
            n = len(heading.group(1))
            out.append(f"<h{n}>{_inline(heading.group(2))}</h{n}>")
        elif bullet or numbered:
            want = "ul" if bullet else "ol"
            if para or (items and kind != want):
                flush()
            kind = want
            items.append((bullet or numbered).group(1))
        elif items:
            items[-1] += " " + line.strip()  # a list item's next line
        else:
            para.append(line.strip())
    if code is not None:  # an unclosed fence: the rest is code
        out.append(f"<pre><code>{text(chr(10).join(code))}</code></pre>")
    flush()
    return "\n".join(out)


def _inline(line: str) -> str:
    """One line's text escaped, then ```code```, ``**strong**`` and ``*emphasis*``."""
    pieces = line.split("`")
    if len(pieces) % 2 == 0:  # an unpaired backtick stays a backtick
        pieces[-2:] = ["`".join(pieces[-2:])]
    out = []
    for k, piece in enumerate(pieces):
        if k % 2:
            out.append(f"<code>{text(piece)}</code>")
        else:
            escaped = text(piece)
            escaped = _STRONG.sub(r"<strong>\1</strong>", escaped)
            out.append(_EMPHASIS.sub(r"<em>\1</em>", escaped))
    return "".join(out)
