"""What the command line loads before it answers: `--version` and `--help` load no harness model,
no pydantic and no server, and `check` of a repository without settings builds no pydantic model.
Structural (the modules a run imports, from `python -X importtime`), never a timing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lsp_agents.core.harness_ids import DEFAULT_HARNESS, HARNESS_IDS
from lsp_agents.core.harnesses import DEFAULT_HARNESS as REGISTRY_DEFAULT
from lsp_agents.core.harnesses import HARNESSES

HEAVY = (
    "pydantic",
    "pydantic_core",
    "pygls",
    "lsprotocol",
    "lsp_agents.server",
    "lsp_agents.core.harnesses",
    "lsp_agents.core.analysis",
    "markdown_it",
    "yaml",
)


def _imported_modules(importtime_stderr: str) -> set[str]:
    return set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", importtime_stderr, re.M))


def imported(*args: str, cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, set[str]]:
    """The run's result and every module it imported (`-X importtime` names each on stderr)."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "lsp_agents", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
    )
    modules = _imported_modules(result.stderr)
    assert "lsp_agents.cli" in modules, result.stderr[-2000:]  # the stderr really lists imports
    return result, modules


def _loaded(modules: set[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


@pytest.mark.parametrize(
    "args", [("--version",), ("--help",), ("check", "--help"), ("cascade", "--help"), ("prompt", "--help"), ("serve", "--help")]
)
def test_version_and_help_load_nothing_they_do_not_show(args: tuple[str, ...]) -> None:
    result, modules = imported(*args)
    assert result.returncode == 0, result.stderr[-2000:]
    assert {package: _loaded(modules, package) for package in HEAVY} == {package: [] for package in HEAVY}


def test_version_alone_is_answered_before_the_parser_is_imported() -> None:
    """As the installed `lsp-agents` script starts it (`-m` would import runpy's own modules)."""
    script = "import sys; from lsp_agents.cli import run; run()"
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", script, "--version"], capture_output=True, text=True, timeout=120
    )
    modules = _imported_modules(result.stderr)
    assert result.stdout.startswith("lsp-agents ") and result.returncode == 0
    assert _loaded(modules, "lsp_agents") == ["lsp_agents", "lsp_agents.cli"]
    assert not {"argparse", "typing", "contextlib"} & modules, sorted(modules)


def test_check_without_settings_imports_no_pydantic(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "AGENTS.md").write_text("# Rules\n\n- Run the whole test suite before a commit.\n")
    result, modules = imported("check", "--home", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "lsp_agents.core.analysis" in modules and _loaded(modules, "pydantic") == []
    assert _loaded(modules, "rapidjson") == []  # no JSON config in the workspace or the home folder


def test_check_with_a_json_config_parses_it(tmp_path: Path) -> None:
    """The other side of the lazy JSON parser: an opencode.json is read, and its error named."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "AGENTS.md").write_text("# Rules\n")
    (tmp_path / "opencode.json").write_text('{"instructions": [}\n')
    result, modules = imported("check", "--home", str(tmp_path), "--harness", "opencode", cwd=tmp_path)
    assert "rapidjson" in modules, sorted(modules)
    assert "opencode.json" in result.stdout + result.stderr


def test_check_with_settings_validates_them(tmp_path: Path) -> None:
    """The other side: a settings file is parsed by the pydantic model, and a bad value named."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "AGENTS.md").write_text("# Rules\n")
    (tmp_path / "lsp-agents.toml").write_text("similarityThreshold = 7\n")
    result, modules = imported("check", "--home", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0 and "pydantic" in modules
    assert "invalid value for 'similarityThreshold'" in result.stderr


def test_the_cheap_harness_list_is_the_registry() -> None:
    assert tuple(HARNESSES) == HARNESS_IDS and DEFAULT_HARNESS == REGISTRY_DEFAULT
