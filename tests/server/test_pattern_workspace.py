"""A workspace whose every pattern field holds patterns that take a backtracking regex engine
exponential time above a 200-level path (`pattern_workspace` of the hostile workspace). Python's
`re` would hold the GIL through each match, so the server's loop would answer nothing while the
folder is indexed: hovers are answered all along, and the analysis ends with its findings."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from lsp_session import hover, session, until

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
from hostile_workspace import PATHOLOGICAL_PATTERNS, pattern_workspace


@pytest.mark.asyncio
async def test_hovers_are_answered_while_a_workspace_of_pathological_patterns_is_analysed(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    pattern_workspace(ws)
    # A rule whose only pattern backtracks and names a file in folders that are not there: stale,
    # so its finding marks the end of the analysis (a pattern naming only a kind of file would be dormant).
    stale = f"{PATHOLOGICAL_PATTERNS[1]}/NOTES.md"
    (ws / ".claude" / "rules" / "stale.md").write_text(f"---\npaths:\n  - {json.dumps(stale)}\n---\nSTALE RULE\n")
    async with session([ws], home, analysed=False) as client:
        answers = [await hover(client, ws / "AGENTS.md", 0, 2)]
        while not client.analyses:
            answers.append(await hover(client, ws / "AGENTS.md", 0, 2))
            await asyncio.sleep(0.1)
        assert all(answers), "a hover went unanswered while the folder was indexed and analysed"
        rule = (ws / ".claude" / "rules" / "stale.md").as_uri()
        await until(
            lambda: any(d.code == "glob-matches-nothing" for d in client.diagnostics.get(rule, [])),
            "the rule whose patterns match nothing",
        )
