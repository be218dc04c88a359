"""Bad input never crashes the check: odd files become findings, hostile globs stay bounded."""

from __future__ import annotations

import os

from analysis_helpers import check_json


def _codes(data: dict, path: str) -> set[str]:
    return {f["code"] for f in data["findings"] if f["path"] == path}


def _bounded_check(ws, home, *harnesses: str) -> dict:
    """The check's JSON (a check that does not end fails at the test's timeout)."""
    _rc, data = check_json(ws, home, *[a for h in harnesses for a in ("--harness", h)])
    return data


def test_fifo_symlink_loop_binary_and_huge_files(workspace) -> None:
    ws, home = workspace(
        {
            "AGENTS.md": "# Root\n- keep functions short and focused\n",
            "bin/AGENTS.md": b"\x00\x01binary\x00",
            "huge/AGENTS.md": "# Huge\n" + "word " * 300_000,
        }
    )
    (ws / "fifo-dir").mkdir()
    os.mkfifo(ws / "fifo-dir" / "AGENTS.md")
    (ws / "loop").mkdir()
    os.symlink("AGENTS.md", ws / "loop" / "AGENTS.md")
    (ws / "lsp-agents.toml").write_text("maxFileBytes = 1048576\n")
    data = _bounded_check(ws, home, "agents-md", "claude-code")
    assert "unreadable-file" in _codes(data, "fifo-dir/AGENTS.md")
    assert "unreadable-file" in _codes(data, "loop/AGENTS.md")
    assert "unreadable-file" in _codes(data, "bin/AGENTS.md")
    assert _codes(data, "huge/AGENTS.md") == {"oversized"}
    message = next(f["message"] for f in data["findings"] if f["path"] == "huge/AGENTS.md")
    assert "maxFileBytes" in message


def test_hostile_globs_are_bounded(workspace) -> None:
    ws, home = workspace(
        {
            "CLAUDE.md": "# C\n",
            ".claude/rules/long.md": '---\npaths: "' + "a" * 5000 + '"\n---\n# R\n',
            ".claude/rules/braces.md": '---\npaths: "' + "{a,b,c}" * 30 + '"\n---\n# R\n',
            ".cursor/rules/odd.mdc": "---\nglobs: [[[\nalwaysApply: maybe\n---\nrule\n",
        }
    )
    data = _bounded_check(ws, home, "claude-code", "cursor")
    assert "invalid-frontmatter" in _codes(data, ".claude/rules/long.md")
    assert "invalid-frontmatter" in _codes(data, ".claude/rules/braces.md")
    assert "invalid-frontmatter" in _codes(data, ".cursor/rules/odd.mdc")
