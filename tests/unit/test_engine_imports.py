"""The engine's import graph, read from its sources with `ast` (nothing is imported): no circles, no
module importing its own package (an upward import), and no engine module importing the build code of its
tables file (`tablebuild`, a package beside it that imports the engine).

Every `import` and `from ... import` anywhere in a module counts (those inside functions too: an import
deferred to a call still ties the two modules). `from package import name` counts as an import of the
module `package.name` when that is a module, else of `package`.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Build code: imported by the build (setup.py, `python -m tablebuild`, mjsvc.suit_tables), by the tests and
# by each other, never by the engine.
BUILD = "tablebuild"

# Imports of modules this check reaches but that are edited with their rule-set packages' own rework, each
# named: the Two-player MCR referee takes its options and tile kinds from its package's __init__ (which
# imports the referee: a circle; the fix is to import them from mcr2p.facts and mcr2p.options), and the
# round code asks the rule-set directory, `engine.rules`, of which it is a module. Never add to it.
PENDING: frozenset[tuple[str, str]] = frozenset()


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(p for top in ("engine", BUILD) for p in (ROOT / top).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in modules:
                    out.add(full)
                elif base in modules:
                    out.add(base)
    out.discard(name)
    return out


def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(g):
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(g[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    u = stack.pop()
                    on_stack.discard(u)
                    component.append(u)
                    if u == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _without_pending(g: dict[str, set[str]]) -> dict[str, set[str]]:
    return {a: {b for b in bs if (a, b) not in PENDING} for a, bs in g.items()}


def test_no_circle_among_engine_modules() -> None:
    assert circles(_without_pending(graph())) == []


def test_no_module_imports_its_own_package() -> None:
    upward = {(a, b) for a, bs in _without_pending(graph()).items() for b in bs if a.startswith(b + ".")}
    assert upward == set()


def _is_build(module: str) -> bool:
    return module == BUILD or module.startswith(BUILD + ".")


def test_no_engine_module_imports_build_code() -> None:
    g = graph()
    assert {"tablebuild.builder", "tablebuild.sources", "tablebuild.mcr"} <= set(g)
    offenders = {(a, b) for a, bs in g.items() if not _is_build(a) for b in bs if _is_build(b)}
    assert offenders == set()


def test_the_pending_imports_are_still_there() -> None:
    """An import listed pending that was fixed leaves the list."""
    g = graph()
    assert {(a, b) for a, b in PENDING if b in g.get(a, set())} == PENDING


def test_the_check_finds_a_circle_and_ignores_a_chain() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_imports_are_read_as_python_resolves_them() -> None:
    g = graph()
    assert "engine.tables.format" in g["tablebuild.builder"]  # from engine.tables import format as F
    assert "tablebuild.mcr" in g["tablebuild.builder"]  # deferred, inside a function
    assert "engine.tables" in g["engine.rules.mcr.tables"]  # from a package, a name it defines (TABLES)
