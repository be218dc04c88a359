"""Where the editor underlines a finding: a finding about a whole file on its first line's text, and
Codex's cut once, on the line it falls on (the CLI's ranges stay the core's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_session import cli, session, until, write

pytestmark = pytest.mark.asyncio


def ranges(client, path: Path, code: str) -> list[tuple[int, int, int, int]]:
    return [
        (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
        for d in client.diagnostics.get(path.as_uri(), [])
        if d.code == code
    ]


async def test_whole_file_and_truncation_ranges(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    write(ws / "opencode.json", "{}\n")  # opencode loads pkg/AGENTS.md, which Codex's budget and Claude Code skip
    long_line = "- " + "keep this rule in mind " * 4
    agents = write(ws / "AGENTS.md", "# Rules\n\n" + "\n".join(f"{long_line}{n}" for n in range(60)) + "\n")
    write(ws / "CLAUDE.md", "# Claude\n\n- Read AGENTS.md and pkg/AGENTS.md first\n")
    claude = write(
        ws / "pkg" / "AGENTS.md", "\n  # Claude notes\n\nsome text\n"
    )  # shadowed for Claude Code: a whole-file finding
    write(home / ".codex" / "config.toml", "project_doc_max_bytes = 1000\n")
    cut_line = agents.read_bytes()[:1000].count(b"\n")
    cut_character = 1000 - len(b"".join(agents.read_bytes().splitlines(keepends=True)[:cut_line]))
    line_end = len(agents.read_text().splitlines()[cut_line])

    async with session([ws], home) as client:
        await until(lambda: ranges(client, agents, "truncated"), "the truncation finding")
        assert ranges(client, agents, "truncated") == [(cut_line, cut_character, cut_line, line_end)]
        await until(lambda: ranges(client, claude, "shadowed-file"), "the shadowed-file finding")
        assert ranges(client, claude, "shadowed-file") == [(1, 2, 1, len("  # Claude notes"))]

    check = cli("check", str(ws), home=home)  # `check` keeps the core's ranges
    spans = {(f["path"], f["code"]): f["range"] for f in check["findings"]}
    assert spans[("AGENTS.md", "truncated")]["end"]["line"] == agents.read_text().count("\n")  # to the end of the file
    assert spans[("pkg/AGENTS.md", "shadowed-file")] == {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
