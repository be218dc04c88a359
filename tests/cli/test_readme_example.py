"""The README's example output is what `lsp-agents check examples/monorepo` prints: run from the
repository root with a home directory that holds no harness files, as the README says. On a
mismatch the assertion shows the output to paste into the README."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMAND = "$ lsp-agents check examples/monorepo\n"


def _example_block() -> str:
    return README.split(COMMAND, 1)[1].split("$ echo $?", 1)[0]


def test_the_readme_example_is_the_real_output(tmp_path: Path) -> None:
    environment = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    result = subprocess.run(
        [sys.executable, "-m", "lsp_agents", "check", "examples/monorepo"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**environment, "HOME": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    assert _example_block() == result.stdout, f"the README's example should read:\n{result.stdout}"


def test_the_first_command_section_quotes_the_example() -> None:
    quoted = README.split("### What the first command shows", 1)[1].split("```\n", 2)[1].rstrip("\n")
    assert quoted and quoted in _example_block().splitlines()
