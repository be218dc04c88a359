"""The analysis chooses behaviour by what a harness's spec says (`HarnessSpec` traits and data),
never by its id: a harness is described once, and a new one needs no edit under core/analysis."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lsp_agents.core.harness_ids import HARNESS_IDS

ANALYSIS = Path(__file__).resolve().parents[1] / "lsp_agents" / "core" / "analysis"


def harness_id_literals(source: str) -> list[tuple[int, str]]:
    """(line, id) of each string constant that is a harness id; docstrings and comments aside."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in HARNESS_IDS and id(node) not in docstrings
    ]


@pytest.mark.parametrize("module", sorted(ANALYSIS.rglob("*.py")), ids=lambda p: str(p.relative_to(ANALYSIS)))
def test_analysis_module_names_no_harness_id(module: Path) -> None:
    found = harness_id_literals(module.read_text(encoding="utf-8"))
    assert not found, f"{module.name} names harnesses by id (make it a trait of HarnessSpec): {found}"


def test_the_check_sees_an_id_in_code_and_not_in_prose() -> None:
    source = '"""Copilot: "copilot"."""\n# if harness == "cursor"\nROOT_ONLY = frozenset({"copilot", "cursor"})\n'
    assert harness_id_literals(source) == [(3, "copilot"), (3, "cursor")]
    assert len(list(ANALYSIS.rglob("*.py"))) >= 10
