"""The harness lists kept outside Python are generated from the harness registry and match it: the
client's HARNESSES and INSTRUCTION_GLOBS, the manifest's harness settings and activation events,
and the pre-commit hook's `files:` pattern (which once left out QWEN.md, `.kilo/`, `.clinerules`,
`.continue/`…)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "generate_harness_lists.py"


def test_the_generated_files_match_the_registry() -> None:
    result = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("path", "runs"),
    [
        ("AGENTS.md", True),
        ("pkg/CLAUDE.local.md", True),
        ("QWEN.md", True),
        ("pkg/.qwen/rules/a.md", True),
        (".kilo/rules/a.md", True),
        (".kilocode/rules/a.md", True),
        (".kilocoderules", True),
        (".clinerules", True),
        (".clinerules/style.md", True),
        (".continue/rules/x.md", True),
        ("AGENT.md", True),
        ("CODEX.md", True),
        (".claude/settings.json", True),
        (".github/instructions/a.instructions.md", True),
        (".cursor/rules/r.mdc", True),
        ("opencode.json", True),
        ("kilo.jsonc", True),
        (".gemini/settings.json", True),
        ("lsp-agents.toml", True),
        ("docs/guide.md", False),
        ("src/main.ts", False),
        (".github/workflows/ci.yml", False),
        ("MY-AGENTS.md", False),
    ],
)
def test_the_pre_commit_hook_runs_when_a_file_a_harness_reads_changes(path: str, runs: bool) -> None:
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert bool(re.search(hook["files"], path)) is runs  # pre-commit's test on the '/'-separated path
