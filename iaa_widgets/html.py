"""The one place where data meets HTML: labels, annotators and categories are text.

- :func:`text` escapes a string for HTML text or a quoted attribute;
- :func:`script_json` writes JSON that is safe inside ``<script>``: ``<``, ``>``, ``&``
  and U+2028/U+2029 become ``\\uXXXX`` escapes, so no label can close the script
  element or open a comment, and ``JSON.parse`` (or JavaScript) gives back the same
  strings (RFC 8259 §7: any character may be written as a ``\\u`` escape);
- :func:`script_safe` makes an Altair chart write its spec with :func:`script_json`
  through ``to_html()``, ``save("x.html")`` (``inline=True`` too) and the HTML
  renderers (``alt.renderers.enable("html")``, Altair's default) without touching
  Altair itself, so other people's charts are left as they are;
- :func:`page` writes a self-contained HTML document: escaped text, charts embedded
  through :func:`script_json`, and vega, vega-lite and vega-embed inlined from the
  package's own bundle (``static/embed.js``, built from ``js/src/embed.js``): no CDN,
  so a saved chart or an ``iaa report`` opens from ``file://`` with no network.
  A script-safe chart's ``save("x.html")`` writes this page (``inline=False``: Altair's
  page, which loads vega from a CDN).

Altair is imported only when a chart is drawn, so results can use :func:`text` alone.
"""
from __future__ import annotations

import functools
import html as _stdlib_html
import json
import os
from importlib import resources
from typing import Any, Mapping

from .errors import AgreementError

__all__ = ["text", "isolate", "script_json", "ScriptSafeEncoder", "script_json_kwds", "script_safe",
           "ScriptSafeChart", "vega_script", "page", "EMBED_OPTIONS"]

# characters that may end a <script> element, start "<!--", or end a JavaScript line
_SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                  "\u2028": "\\u2028", "\u2029": "\\u2029"}
_SCRIPT_TABLE = str.maketrans(_SCRIPT_UNSAFE)


def text(value: Any) -> str:
    """``value`` as HTML text (also safe in a quoted attribute): ``& < > " '`` escaped."""
    return _stdlib_html.escape(str(value), quote=True)


def isolate(value: Any) -> str:
    """``value`` as plain text that cannot reorder the text around it: wrapped in
    U+2068/U+2069 (Unicode bidi FIRST STRONG ISOLATE / POP DIRECTIONAL ISOLATE), for
    places that hold text only, such as an ``<option>``, where ``<bdi>`` cannot go."""
    return f"\u2068{value}\u2069"


def _script_safe_text(json_text: str) -> str:
    # these characters occur in JSON only inside strings, where \uXXXX means the same
    return json_text.translate(_SCRIPT_TABLE)


class ScriptSafeEncoder(json.JSONEncoder):
    """A JSON encoder whose output can sit inside ``<script>``: ``<``, ``>``, ``&``,
    U+2028 and U+2029 written as ``\\uXXXX`` (the same value for ``json.loads``)."""

    def encode(self, o):
        return _script_safe_text(super().encode(o))

    def iterencode(self, o, _one_shot=False):
        return (_script_safe_text(chunk) for chunk in super().iterencode(o, _one_shot))


def script_json(value: Any, **json_kwds) -> str:
    """``json.dumps(value, **json_kwds)`` that is safe inside a ``<script>`` element."""
    return json.dumps(value, **script_json_kwds(json_kwds))


def script_json_kwds(json_kwds: dict | None = None) -> dict:
    """``json_kwds`` (keywords of ``json.dumps``) with a script-safe encoder: the given
    ``cls``, if any, is kept under :class:`ScriptSafeEncoder`."""
    out = dict(json_kwds or {})
    out["cls"] = _script_safe_encoder(out.get("cls") or json.JSONEncoder)
    return out


@functools.lru_cache(maxsize=None)
def _script_safe_encoder(cls: type) -> type:
    if issubclass(cls, ScriptSafeEncoder):
        return cls
    if cls is json.JSONEncoder:
        return ScriptSafeEncoder
    return type(f"ScriptSafe{cls.__name__}", (ScriptSafeEncoder, cls), {})


class ScriptSafeChart:
    """Mixed into an Altair chart class by :func:`script_safe`: every HTML page or
    fragment the chart writes embeds its spec through :class:`ScriptSafeEncoder`.
    Charts derived from it (``.properties()``, ``+``, ``|``, ``&``) stay script-safe."""

    def to_html(self, *args, json_kwds: dict | None = None, **kwargs) -> str:
        return super().to_html(*args, json_kwds=script_json_kwds(json_kwds), **kwargs)

    def save(self, fp, format: str | None = None, *args, json_kwds: dict | None = None,
             inline: bool | None = None, embed_options: dict | None = None, **kwargs) -> None:
        """Altair's ``save``, except that an HTML page (``format="html"`` or a path
        ending in ``.html``/``.htm``) is :func:`page`, with the bundled scripts, unless
        ``inline=False`` asks for Altair's page that loads vega from a CDN."""
        if inline is not False and _format(fp, format) == "html":
            spec = self.to_dict()
            title = spec.get("title") if isinstance(spec.get("title"), str) else "chart"
            document = page(title, '<div id="chart"></div>', {"chart": spec},
                            embed_options=embed_options, json_kwds=json_kwds)
            if isinstance(fp, (str, os.PathLike)):
                with open(fp, "w", encoding="utf-8") as fh:
                    fh.write(document)
            else:
                fp.write(document)
            return None
        # json_kwds reach the HTML page (and a .json file, where they change no value)
        extra = {} if inline is None else {"inline": inline}
        if embed_options is not None:
            extra["embed_options"] = embed_options
        return super().save(fp, format, *args, json_kwds=script_json_kwds(json_kwds),
                            **extra, **kwargs)

    def _repr_mimebundle_(self, *args, **kwds):
        import altair as alt
        from altair.vegalite.display import HTMLRenderer

        renderer = alt.renderers.get()
        target = getattr(renderer, "func", renderer)  # a partial when options are set
        if not (isinstance(target, HTMLRenderer) or alt.renderers.active == "browser"):
            return super()._repr_mimebundle_(*args, **kwds)  # no HTML: a spec or an image
        try:
            spec = self.to_dict(context={"pre_transform": False})
        except Exception:
            return super()._repr_mimebundle_(*args, **kwds)  # Altair shows the error
        options = getattr(renderer, "keywords", {}) or {}
        return renderer(spec, json_kwds=script_json_kwds(options.get("json_kwds")))

    def __add__(self, other):
        return script_safe(super().__add__(other))

    def __or__(self, other):
        return script_safe(super().__or__(other))

    def __and__(self, other):
        return script_safe(super().__and__(other))


_SAFE_CLASSES: dict[type, type] = {}


def script_safe(chart):
    """``chart`` (an Altair chart), made to write script-safe HTML (see
    :class:`ScriptSafeChart`); it stays an instance of its Altair class."""
    cls = type(chart)
    if issubclass(cls, ScriptSafeChart):
        return chart
    if cls not in _SAFE_CLASSES:
        _SAFE_CLASSES[cls] = type(cls.__name__, (ScriptSafeChart, cls), {})
    object.__setattr__(chart, "__class__", _SAFE_CLASSES[cls])  # Altair's own
    # __setattr__ would store "__class__" as a property of the spec
    return chart


def _format(fp, format: str | None) -> str | None:
    """The format Altair's ``save`` would pick: ``format=``, else the path's suffix."""
    if format is not None:
        return format
    if isinstance(fp, (str, os.PathLike)):
        suffix = os.path.splitext(os.fspath(fp))[1].lower().lstrip(".")
        return "html" if suffix == "htm" else suffix
    return None


# ------------------------------------------------------------------ standalone pages
# vega-embed's menu: export to SVG/PNG works offline; "view source" and "open in the
# Vega editor" would send the data to a web site
EMBED_OPTIONS = {"actions": {"export": True, "source": False, "compiled": False,
                             "editor": False}}


def static_text(name: str) -> str:
    """The text of ``iaa_widgets/static/<name>`` (the built front-end)."""
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def static_script(name: str, otherwise: str = "") -> str:
    """``static/<name>``, a bundle to inline into a page. Refuses one that is missing
    (``otherwise`` ends the message with what else one can do) or that could end the
    ``<script>`` element it is inlined into."""
    try:
        source = static_text(name)
    except FileNotFoundError:
        raise AgreementError(
            f"the front-end bundle iaa_widgets/static/{name} is missing; build it with "
            f"`npm install && npm run build` in js/ (a wheel of iaa_widgets ships it){otherwise}"
        ) from None
    lowered = source.lower()
    if "</script" in lowered or "<!--" in lowered:
        raise AgreementError(f"iaa_widgets/static/{name} contains '</script' or '<!--' "
                             "and cannot be inlined into a page; rebuild it with esbuild")
    return source


def vega_script() -> str:
    """The bundled vega + vega-lite + vega-embed (``static/embed.js``): a classic script
    defining ``iaaVega.embed`` (:func:`static_script`)."""
    return static_script("embed.js", ", or save with inline=False for a page that loads "
                                     "vega from a CDN")


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 70rem;
       padding: 0 1rem; color: #212121; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.iaa-error { color: #b00020; white-space: pre-wrap; }
"""


def page(title: Any, body: str, charts: Mapping[str, dict] | None = None, *,
         embed_options: dict | None = None, json_kwds: dict | None = None,
         style: str = "", vega: str | None = None) -> str:
    """A self-contained HTML document: ``title`` (text, escaped), ``body`` (HTML the
    caller has escaped, see :func:`text`), and each Vega-Lite spec of ``charts``
    (element id → spec) embedded into the element of that id by the bundled vega-embed
    (:func:`vega_script`, inlined once; ``vega``: another script defining ``iaaVega``,
    such as one naming a bundle the body already holds). Specs and options go through
    :func:`script_json`, so no label can end the script. A chart that fails to render
    shows vega's error, as text, in its element."""
    specs = script_json(dict(charts or {}), **(json_kwds or {}))
    options = script_json({**EMBED_OPTIONS, **(embed_options or {})})
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{text(title)}</title>\n<style>{_STYLE}{style}</style>\n</head>\n"
            f"<body>\n{body}\n<script>{vega_script() if vega is None else vega}</script>\n"
            "<script>\n"
            f"const specs = {specs};\nconst options = {options};\n"
            "for (const [id, spec] of Object.entries(specs)) {\n"
            "  const el = document.getElementById(id);\n"
            "  iaaVega.embed(el, spec, options).catch((err) => {\n"
            "    const p = document.createElement(\"p\");\n"
            "    p.className = \"iaa-error\";\n"
            "    p.textContent = \"chart error: \" + err;\n"
            "    el.append(p);\n    console.error(err);\n  });\n}\n"
            "</script>\n</body>\n</html>\n")
