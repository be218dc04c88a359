"""The core is pure: it never imports the language server, the protocol types or a front end."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[1] / "lsp_agents" / "core"
FORBIDDEN = ("pygls", "lsprotocol", "lsp_agents.server", "lsp_agents.cli", "lsp_agents.report")


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("module", sorted(CORE.rglob("*.py")), ids=lambda p: str(p.relative_to(CORE)))
def test_core_module_imports_nothing_from_the_front_ends(module: Path) -> None:
    bad = [n for n in _imports(module) if any(n == f or n.startswith(f + ".") for f in FORBIDDEN)]
    assert not bad, f"{module} imports {bad}"


def test_the_boundary_check_sees_the_core() -> None:
    assert len(list(CORE.rglob("*.py"))) >= 10
