"""Helpers for the analysis tests: run `lsp-agents check` as a subprocess and read its findings."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import cli_process


def check(ws: Path, home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return cli_process.run(["check", *args, "--home", str(home)], cwd=cwd or ws, timeout=120)


def check_json(ws: Path, home: Path, *args: str) -> tuple[int, dict]:
    result = check(ws, home, str(ws), "--format", "json", *args)
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, json.loads(result.stdout)


# An ordinary root guide, and one of its instructions a package or a rule may repeat.
GUIDE = (
    "# Project\n\n"
    "- Run the whole test suite with pytest before you push a branch\n"
    "- Keep functions short and focused on one job\n"
    "- Never commit generated files to the repository\n"
)
REPEATED = "- Never commit generated files to the repository\n"


def findings(ws: Path, home: Path, *harnesses: str) -> list[tuple[str, str]]:
    """(code, path) of every finding of `check` with every code on, sorted; all harnesses unless named."""
    args = [a for h in harnesses for a in ("--harness", h)]
    _rc, data = check_json(ws, home, *args, "--fail-on", "never", "--enable", "all")
    return sorted((f["code"], f["path"]) for f in data["findings"])
