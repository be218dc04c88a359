"""Quick fixes from `lsp-agents check --format json`, applied to the file: the result is what a user expects."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def apply(text: str, edits: list[dict]) -> str:
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def offset(position: dict) -> int:
        return offsets[position["line"]] + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        text = text[: offset(edit["range"]["start"])] + edit["newText"] + text[offset(edit["range"]["end"]):]
    return text


def test_deleting_a_duplicate_bullet_keeps_the_next_paragraph_apart(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "nohome").mkdir()
    (tmp_path / "AGENTS.md").write_text("# Root\n\n- Run the tests before you finish.\n- Keep it small.\n")
    (tmp_path / "pkg").mkdir()
    nested = tmp_path / "pkg" / "AGENTS.md"
    nested.write_text("# Pkg\n\n- Use zod.\n- Run the tests before you finish.\n\nA closing paragraph.\n")
    result = subprocess.run(
        [sys.executable, "-m", "lsp_agents", "check", str(tmp_path), "--harness", "codex", "--format", "json",
         "--home", str(tmp_path / "nohome")],
        capture_output=True, text=True, timeout=60,
    )
    finding = next(f for f in json.loads(result.stdout)["findings"] if f["code"] == "duplicate-instruction")
    assert finding["path"] == "pkg/AGENTS.md"
    fixed = apply(nested.read_text(), finding["fix"]["edits"])
    assert fixed == "# Pkg\n\n- Use zod.\n\nA closing paragraph.\n"
