"""The one place where data meets HTML: labels, annotators and categories are text.

- :func:`text` escapes a string for HTML text or a quoted attribute;
- :func:`script_json` writes JSON that is safe inside ``<script>``: ``<``, ``>``, ``&``
  and U+2028/U+2029 become ``\\uXXXX`` escapes, so no label can close the script
  element or open a comment, and ``JSON.parse`` (or JavaScript) gives back the same
  strings (RFC 8259 §7: any character may be written as a ``\\u`` escape);
- :func:`script_safe` makes an Altair chart write its spec with :func:`script_json`
  through ``to_html()``, ``save("x.html")`` (``inline=True`` too) and the HTML
  renderers (``alt.renderers.enable("html")``, Altair's default) without touching
  Altair itself, so other people's charts are left as they are.

Altair is imported only when a chart is drawn, so results can use :func:`text` alone.
"""
from __future__ import annotations

import functools
import html as _stdlib_html
import json
from typing import Any

__all__ = ["text", "isolate", "script_json", "ScriptSafeEncoder", "script_json_kwds", "script_safe",
           "ScriptSafeChart"]

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

    def save(self, fp, *args, json_kwds: dict | None = None, **kwargs) -> None:
        # json_kwds reach the HTML page (and a .json file, where they change no value)
        return super().save(fp, *args, json_kwds=script_json_kwds(json_kwds), **kwargs)

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
