"""Import boundaries. The core is pure: it never imports the language server, the protocol types or
a front end. The language server's modules import one another in one direction: the server object
imports the state it holds, the feature modules import it, never the other way round (not even
for type checking, nor inside a function to dodge a cycle)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "lsp_agents"
CORE = PACKAGE / "core"
SERVER = PACKAGE / "server"
FORBIDDEN = ("pygls", "lsprotocol", "lsp_agents.server", "lsp_agents.cli", "lsp_agents.report")


def _imports(path: Path) -> list[str]:
    """Every module `path` imports, anywhere in it; `from package import module` names the module."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return names


@pytest.mark.parametrize("module", sorted(CORE.rglob("*.py")), ids=lambda p: str(p.relative_to(CORE)))
def test_core_module_imports_nothing_from_the_front_ends(module: Path) -> None:
    bad = [n for n in _imports(module) if any(n == f or n.startswith(f + ".") for f in FORBIDDEN)]
    assert not bad, f"{module} imports {bad}"


def test_the_boundary_check_sees_the_core() -> None:
    assert len(list(CORE.rglob("*.py"))) >= 10


def _server_imports() -> dict[str, set[str]]:
    """Per module of the server package, the other modules of the package it imports."""
    modules = {path.stem for path in SERVER.glob("*.py")} - {"__init__"}
    return {
        path.stem: {n.removeprefix("lsp_agents.server.") for n in _imports(path)} & (modules - {path.stem})
        for path in SERVER.glob("*.py")
        if path.stem in modules
    }


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of the graph as the list of its nodes, or [] when it has none."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str]:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return []
        for target in sorted(graph[node]):
            if found := visit(target, [*path, node]):
                return found
        done.add(node)
        return []

    return next((found for node in sorted(graph) if (found := visit(node, []))), [])


def test_server_modules_import_one_another_in_one_direction() -> None:
    graph = _server_imports()
    assert "diagnostics" in graph["server"] and "server" in graph["hover"]  # the check sees the imports
    assert _cycle(graph) == [], " -> ".join(_cycle(graph))
