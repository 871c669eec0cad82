"""No import cycle among the package's modules: every `import` and `from … import`
statement, at module level or inside a function (a lazy import is still an edge), read
with ast. Importing a submodule (`from .. import stats`) is an edge to that submodule,
not to the package above it (which Python initialises first in any case).

Imports point one way, from the top of the flow down (issue 29): ``stats`` never
imports ``measures`` (each measure supplies its engine totals beside its Statistic) and
``data`` never imports ``io`` (readers build Annotations; io imports data); neither
``measures`` nor ``stats`` imports ``inference`` (issue 45 §6: the public bootstrap,
leave_one_out and compare sit above the measures, the resampling machinery below). Importing
the top package ``iaa_widgets`` (which imports everything) or naming the forbidden
package in ``importlib.import_module(...)`` counts as importing it."""
import ast
from pathlib import Path

import iaa_widgets

ROOT = Path(iaa_widgets.__file__).parent


def modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (path, package)
    return out


def edges(mods) -> dict[str, set[str]]:
    def known(name):  # the longest prefix that is a module of the package
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name

    graph = {m: set() for m in mods}
    for mod, (path, package) in mods.items():
        here = mod.split(".") if package else mod.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(here[:len(here) - node.level + 1] + ([base] if base
                                                                         else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in node.names]
            else:
                continue
            graph[mod] |= {t for t in map(known, targets) if t and t != mod}
    return graph


def cycle(graph) -> list[str]:
    """One cycle of the graph (a list of modules), or [] (depth-first search)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state and (found := visit(w)):
                return found
        state[v] = 2
        stack.pop()
        return []

    for v in sorted(graph):
        if v not in state and (found := visit(v)):
            return found
    return []


def test_the_walker_sees_lazy_imports_and_cycles():
    # the checker itself: a function-local import is an edge, and a cycle is found
    graph = edges(modules())
    assert "iaa_widgets.results" in graph["iaa_widgets.charts"]
    assert "iaa_widgets.stats.tables" in graph["iaa_widgets.stats"]
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_in_the_package():
    assert cycle(edges(modules())) == []


# (importer, imported): packages whose modules must not import the other's, and why
DOWNWARD_ONLY = {
    ("iaa_widgets.stats", "iaa_widgets.measures"):
        "measures read the statistics; engine totals live beside each measure",
    ("iaa_widgets.data", "iaa_widgets.io"): "readers (io) build Annotations (data)",
    ("iaa_widgets.measures", "iaa_widgets.inference"):
        "inference (bootstrap, leave_one_out, compare) resolves measures, never the reverse",
    ("iaa_widgets.stats", "iaa_widgets.inference"):
        "the resampling machinery (stats.resampling) sits below the public bootstrap",
}


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def dynamic_imports(mods) -> dict[str, set[str]]:
    """The text of every ``import_module(...)`` / ``__import__(...)`` argument (the
    constant parts of an f-string), per module: imports the ast edges do not see."""
    out = {m: set() for m in mods}
    for mod, (path, _) in mods.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and getattr(
                    node.func, "id", getattr(node.func, "attr", None)) in (
                    "import_module", "__import__"):
                arg = node.args[0]
                parts = arg.values if isinstance(arg, ast.JoinedStr) else [arg]
                out[mod].add("".join(p.value for p in parts if isinstance(p, ast.Constant)
                                     and isinstance(p.value, str)))
    return out


def upward(graph, dynamic=None) -> list[tuple[str, str]]:
    """Every import (importer, imported) against :data:`DOWNWARD_ONLY`."""
    found = []
    for src, targets in graph.items():
        for (low, high) in DOWNWARD_ONLY:
            if not _under(src, low):
                continue
            found += [(src, t) for t in sorted(targets)
                      if _under(t, high) or t == "iaa_widgets"]
            tail = high.rpartition(".")[2]  # "measures": ".measures" in a module path
            found += [(src, text) for text in sorted((dynamic or {}).get(src, ()))
                      if f".{tail}" in text or text.startswith(tail)]
    return found


def test_the_direction_check_can_fail():
    assert upward({"iaa_widgets.stats.lazy": {"iaa_widgets.measures._registry"}}) == \
        [("iaa_widgets.stats.lazy", "iaa_widgets.measures._registry")]
    assert upward({"iaa_widgets.data.loaders": {"iaa_widgets"}}) == \
        [("iaa_widgets.data.loaders", "iaa_widgets")]
    assert upward({"iaa_widgets.stats.lazy": set()},
                  {"iaa_widgets.stats.lazy": {"iaa_widgets.measures.alpha"}}) != []
    assert upward({"iaa_widgets.io.csv": {"iaa_widgets.data.loaders"}}) == []  # allowed
    assert upward({"iaa_widgets.measures.continuous.alpha": {"iaa_widgets.inference.bootstrap"}}
                  ) == [("iaa_widgets.measures.continuous.alpha", "iaa_widgets.inference.bootstrap")]
    assert upward({"iaa_widgets.stats.resampling": {"iaa_widgets.inference._measure"}}) != []
    assert upward({"iaa_widgets.inference.bootstrap": {"iaa_widgets.stats.resampling"}}) == []


def test_imports_point_one_way():
    mods = modules()
    assert upward(edges(mods), dynamic_imports(mods)) == []
