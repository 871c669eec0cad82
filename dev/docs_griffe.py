"""Griffe extension for the API pages (mkdocs.yml loads it for mkdocstrings).

- Every public name of ``iaa_widgets`` (``__all__``, the registry's coefficients and
  aliases included, which the package makes on first use) becomes a member of the
  package, so that each has its own entry and anchor, ``iaa_widgets.<name>``
  (``conger_kappa`` beside ``davies_fleiss_kappa``).
- A parameter kept only under a former name (default ``validate.RENAMED``) is left out of
  the signature; dev/docs_pages.py lists the former names in a note.
- Sphinx roles in docstrings (``:func:`x```) become code spans, which dev/docs_hooks.py
  links to their entries; ``:math:`x``` and ``.. math::`` blocks become ``$x$`` and
  ``$$ … $$``, which arithmatex and KaTeX typeset; ``$$ … $$`` within a line is typeset
  inline; brackets before parentheses that hold no address (``Var[P̂](n)``) are not
  taken for a link.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import griffe

ROOT = Path(__file__).resolve().parent.parent
ROLE = re.compile(r":(?:py:)?(?!math:)[a-z]+:`~?([^`<]+?)(?:\s*<([^>`]+)>)?`")
TILDE_ROLE = re.compile(r":(?:py:)?(?!math:)[a-z]+:`~([^`]+)`")
MATH_ROLE = re.compile(r":math:`([^`]+)`")
INLINE_DISPLAY = re.compile(r"\$\$([^$\n]+)\$\$")  # $$ … $$ within one line
# text[x](y) where y is no address (``Var[P̂](n)``): math, not a Markdown link
NOT_A_LINK = re.compile(r"\[([^\]\n]*)\]\(([^)/.#:\s]*)\)")
MATH_BLOCK = re.compile(r"^([ \t]*)\.\. math::[ \t]*(.*)\n((?:\1[ \t]+.*\n|[ \t]*\n)*)", re.M)


def public_targets() -> dict[str, str]:
    """Each public name of the package and the path of the object it is."""
    sys.path.insert(0, str(ROOT))
    import iaa_widgets as iaa
    out = {}
    for name in iaa.__all__:
        obj = getattr(iaa, name)
        module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        if module and qualname and module.startswith("iaa_widgets"):
            out[name] = f"{module}.{qualname}"
    return out


def _math_block(match: re.Match) -> str:
    indent, first, body = match.group(1), match.group(2), match.group(3)
    lines = [first.strip()] if first.strip() else []
    lines += [line.strip() for line in body.splitlines() if line.strip()]
    formula = " \\\\ ".join(lines) if len(lines) > 1 else "".join(lines)
    return f"{indent}$$\n{indent}{formula}\n{indent}$$\n\n"


def markdown_docstring(text: str) -> str:
    """A numpydoc docstring with its reST roles and math made Markdown."""
    text = MATH_BLOCK.sub(_math_block, text if text.endswith("\n") else text + "\n")
    # $$ … $$ inside a line of text: arithmatex takes $$ only as a block of its own
    text = INLINE_DISPLAY.sub(lambda m: f"\\(\\displaystyle {m.group(1)}\\)", text)
    text = MATH_ROLE.sub(lambda m: f"${m.group(1)}$", text)
    text = TILDE_ROLE.sub(lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`", text)
    text = NOT_A_LINK.sub(lambda m: f"\\[{m.group(1)}\\]({m.group(2)})", text)
    return ROLE.sub(lambda m: f"`{(m.group(2) or m.group(1)).strip()}`", text).rstrip("\n")


class IaaDocs(griffe.Extension):
    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value)

    def on_function_instance(self, *, func, **kwargs) -> None:
        for p in list(func.parameters):
            if p.default is not None and str(p.default).endswith("RENAMED"):
                del func.parameters[p.name]

    def on_package(self, *, pkg, **kwargs) -> None:
        if pkg.path != "iaa_widgets":
            return
        for name, target in public_targets().items():
            if name not in pkg.members:
                pkg.set_member(name, griffe.Alias(name, target, parent=pkg))
