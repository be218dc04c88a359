"""`lsp-agents prompt` and `reminders` for one harness, as the profile tests of tests/cli call them:
in a process of its own (`cli_process`), with the environment variables that move a harness's
folders taken out unless a test sets them."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

import cli_process


def run(args: list[str], *, unset: Iterable[str] = (), env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in set(unset)}
    return cli_process.run(args, timeout=60, env={**clean, **(env or {})})


def answer(
    command: str, harness: str, cwd: Path, home: Path, *extra: str, unset: Iterable[str] = (), env: dict[str, str] | None = None
) -> dict:
    """The JSON answer of `lsp-agents COMMAND --harness HARNESS` launched in `cwd` with `home`."""
    args = [command, "--harness", harness, "--cwd", str(cwd), "--home", str(home), "--format", "json", *extra]
    result = run(args, unset=unset, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
