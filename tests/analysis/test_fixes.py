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
        text = text[: offset(edit["range"]["start"])] + edit["newText"] + text[offset(edit["range"]["end"]) :]
    return text


def test_deleting_a_duplicate_bullet_keeps_the_next_paragraph_apart(tmp_path: Path) -> None:
    nested, found = _duplicate_fixes(
        tmp_path,
        "# Root\n\n- Run the tests before you finish.\n- Keep it small.\n",
        "# Pkg\n\n- Use zod.\n- Run the tests before you finish.\n\nA closing paragraph.\n",
    )
    assert [f["path"] for f in found] == ["pkg/AGENTS.md"]
    assert apply(nested.read_text(), found[0]["fix"]["edits"]) == "# Pkg\n\n- Use zod.\n\nA closing paragraph.\n"


def _duplicate_fixes(tmp_path: Path, root: str, nested: str) -> tuple[Path, list[dict]]:
    (tmp_path / ".git").mkdir()
    (tmp_path / "nohome").mkdir()
    (tmp_path / "AGENTS.md").write_text(root)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "AGENTS.md").write_text(nested)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "lsp_agents",
            "check",
            str(tmp_path),
            "--harness",
            "codex",
            "--format",
            "json",
            "--home",
            str(tmp_path / "nohome"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return tmp_path / "pkg" / "AGENTS.md", [
        f for f in json.loads(result.stdout)["findings"] if f["code"] == "duplicate-instruction"
    ]


SECTION = "## Key files\n\n1. `cli/main.rs` is the entry point and routes commands\n2. `cli/args/flags.rs` parses the command line flags\n"


def test_a_repeated_section_goes_with_its_heading(tmp_path: Path) -> None:
    nested, found = _duplicate_fixes(
        tmp_path,
        "# Root\n\n" + SECTION,
        "# Pkg\n\n- Use zod for every schema here.\n\n" + SECTION + "\n## Style\n\nShort functions, please.\n",
    )
    assert [f["fix"]["title"] for f in found] == ["Delete the duplicate section"]
    assert (
        apply(nested.read_text(), found[0]["fix"]["edits"])
        == "# Pkg\n\n- Use zod for every schema here.\n\n## Style\n\nShort functions, please.\n"
    )


def test_a_repeated_section_body_with_subsections_keeps_its_heading(tmp_path: Path) -> None:
    nested, found = _duplicate_fixes(
        tmp_path, "# Root\n\n" + SECTION, "# Pkg\n\n" + SECTION + "\n### Pkg only\n\n- Use zod for every schema here.\n"
    )
    assert [f["fix"]["title"] for f in found] == ["Delete the duplicate lines"]
    assert (
        apply(nested.read_text(), found[0]["fix"]["edits"])
        == "# Pkg\n\n## Key files\n\n### Pkg only\n\n- Use zod for every schema here.\n"
    )
