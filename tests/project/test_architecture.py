"""Architecture of the package: no import cycles, no oversized modules.

The import graph is read from the source with :mod:`ast` (nothing is imported). An edge A -> B means
module A names module B in an ``import`` or ``from ... import`` statement, absolute or relative,
**anywhere in the file: imports inside functions count** (they run when the function runs, and a
deferred import that closes a loop is still a loop between the two modules -- deferring it only hides
the cycle from the interpreter, not from the reader). ``from pkg import name`` is an edge to the
submodule ``pkg.name`` when that submodule exists, else to ``pkg`` itself.

Two levels are checked: modules, and the first-level parts of the package (``graphpriv.graphs``,
``graphpriv.measures``, ``graphpriv.mechanisms``, ... and the top-level modules), where an import
between two parts is an import between their modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

import graphpriv

PACKAGE_DIR = Path(graphpriv.__file__).resolve().parent
ROOT = PACKAGE_DIR.name

#: Module-level import cycles still present, each as the set of modules of one strongly connected
#: component. This list must become EMPTY: it only tracks the quantisation mechanisms, whose shared
#: helpers are being moved under one contraction state. The test fails on any cycle not listed here
#: AND on a listed cycle that no longer exists, so the list cannot go stale.
KNOWN_CYCLES: list[frozenset[str]] = []

MAX_LINES = 900

#: Modules still over MAX_LINES (path relative to the package, and its line count today). This list
#: must become EMPTY as well; a listed module that shrinks under the limit, or grows, fails the test.
KNOWN_LONG_MODULES: dict[str, int] = {
}


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE_DIR.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE_DIR.rglob("*.py"))}


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imported(module: str, is_package: bool, source: str, modules) -> set[str]:
    """Modules of the package that ``source`` (the text of ``module``) imports, anywhere in the file."""

    def target(name: str) -> str | None:
        # the longest prefix of ``name`` that is a module of the package
        parts = name.split(".")
        while parts:
            if ".".join(parts) in modules:
                return ".".join(parts)
            parts.pop()
        return None

    out = set()
    for node in ast.walk(ast.parse(source)):          # every statement, function bodies included
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            src = _resolve(module, is_package, node)
            names = [f"{src}.{a.name}" if f"{src}.{a.name}" in modules else src for a in node.names]
        for name in names:
            t = target(name) if name.split(".")[0] == ROOT else None
            if t is not None and t != module:
                out.add(t)
    return out


def import_graph() -> nx.DiGraph:
    """Directed graph of the package's modules; edge A -> B when A imports B (see module docstring)."""
    modules = _modules()
    g = nx.DiGraph()
    g.add_nodes_from(modules)
    for mod, path in modules.items():
        for t in _imported(mod, path.name == "__init__.py", path.read_text(encoding="utf-8"), modules):
            g.add_edge(mod, t)
    return g


def _part(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2])


def _cycle_report(g: nx.DiGraph, sccs: list[frozenset[str]]) -> str:
    lines = []
    for scc in sccs:
        cycle = nx.find_cycle(g.subgraph(scc))
        lines.append(" -> ".join([a for a, _ in cycle] + [cycle[0][0]]))
    return "\n".join(lines)


def _cycles(g: nx.DiGraph) -> list[frozenset[str]]:
    return [frozenset(c) for c in nx.strongly_connected_components(g) if len(c) > 1]


def test_import_reader_sees_relative_absolute_and_function_level_imports():
    modules = {"graphpriv", "graphpriv.a", "graphpriv.sub", "graphpriv.sub.b", "graphpriv.sub.c", "graphpriv.sub.d"}
    source = """
import numpy
import graphpriv.a
from . import c
from .d import name
from .. import a as _a


def f():
    from graphpriv.sub.b import thing     # function level: counts
"""
    assert _imported("graphpriv.sub.b", False, source, modules) == {"graphpriv.a", "graphpriv.sub.c", "graphpriv.sub.d"}
    assert _imported("graphpriv.sub.c", False, source, modules) == {"graphpriv.a", "graphpriv.sub.b", "graphpriv.sub.d"}
    assert _imported("graphpriv.sub", True, "from .b import x\nfrom ..a import y\n", modules) == {"graphpriv.sub.b", "graphpriv.a"}


def test_import_graph_covers_the_package():
    g = import_graph()
    assert len(g) == len(list(PACKAGE_DIR.rglob("*.py")))
    assert g.has_edge("graphpriv", "graphpriv.mechanisms")
    assert g.has_edge("graphpriv.distributions", "graphpriv.ranges")


def test_no_import_cycles_between_modules():
    g = import_graph()
    found = _cycles(g)
    new = [c for c in found if c not in KNOWN_CYCLES]
    gone = [c for c in KNOWN_CYCLES if c not in found]
    assert not new, "import cycle(s) between modules:\n" + _cycle_report(g, new)
    assert not gone, ("KNOWN_CYCLES lists cycle(s) that no longer exist; remove them from the list: "
                      + "; ".join(sorted(", ".join(sorted(c)) for c in gone)))


def test_no_import_cycles_between_package_parts():
    g = import_graph()
    parts = nx.DiGraph()
    parts.add_nodes_from({_part(m) for m in g})
    for a, b in g.edges:
        if _part(a) != _part(b) and a != ROOT:
            parts.add_edge(_part(a), _part(b))
    found = _cycles(parts)
    assert not found, "import cycle(s) between parts of the package:\n" + _cycle_report(parts, found)


def test_no_module_over_the_line_limit():
    lengths = {str(p.relative_to(PACKAGE_DIR).as_posix()): len(p.read_text(encoding="utf-8").splitlines())
               for p in PACKAGE_DIR.rglob("*.py")}
    over = {f: n for f, n in lengths.items() if n > MAX_LINES and f not in KNOWN_LONG_MODULES}
    assert not over, f"modules over {MAX_LINES} lines (split them by idea): {over}"
    stale = {f: lengths.get(f) for f in KNOWN_LONG_MODULES if lengths.get(f, 0) <= MAX_LINES}
    assert not stale, f"KNOWN_LONG_MODULES lists modules that are gone or now within {MAX_LINES} lines; remove them: {stale}"
    grown = {f: (lengths[f], n) for f, n in KNOWN_LONG_MODULES.items() if f in lengths and lengths[f] > n}
    assert not grown, f"modules on the KNOWN_LONG_MODULES list grew (now, listed): {grown}"
