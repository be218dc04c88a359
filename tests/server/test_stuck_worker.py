"""A unit stuck in C code, where no thread of the process can interrupt it: the server keeps
answering meanwhile, kills the worker at its deadline, reports that unit as not evaluated, still
publishes every other finding, says so in the editor's log, and exits cleanly."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from lsp_session import hover, session, until, write
from lsprotocol import types

HOOK = Path(__file__).resolve().parent / "stuck"


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_stuck_worker_is_killed_and_the_server_keeps_answering(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    write(ws / "AGENTS.md", "# Root\n\n- always run the linter before pushing\n")
    write(ws / "api" / "AGENTS.md", "# Api\n\n- always run the linter before pushing\n- api rule\n")
    write(ws / "web" / "AGENTS.md", "# Web\n\n- web rule written once\n")
    write(ws / "web" / "CLAUDE.md", "# Web for Claude\n\n- claude rule\n")
    env = {
        "LSP_AGENTS_TEST_STUCK_IN": str(ws / "web"),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(HOOK), os.environ.get("PYTHONPATH")])),
    }
    async with session([ws], home, analysed=False, env=env, fresh_interpreter=True) as client:
        answers = []
        while not client.analyses:  # the worker is stuck for SILENCE_SECONDS: every hover meanwhile is answered
            answers.append(await hover(client, ws / "AGENTS.md", 0, 2))
            await asyncio.sleep(0.2)
        assert len(answers) >= 5 and all(answers), "hovers went unanswered while the worker was stuck"
        web = (ws / "web" / "AGENTS.md").as_uri()
        stopped = await until(
            lambda: [d for d in client.diagnostics.get(web, []) if d.code == "not-evaluated"], "the stuck unit's finding"
        )
        assert "claude-code" in stopped[0].message and "stopped" in stopped[0].message
        kills = [m.message for m in client.log_messages if m.message.startswith("analysis worker stopped")]
        assert len(kills) == 1 and f"claude-code launched in {ws / 'web'}" in kills[0], kills
        api = (ws / "api" / "AGENTS.md").as_uri()
        assert any(d.code == "duplicate-instruction" for d in client.diagnostics.get(api, []))
        assert await hover(client, ws / "web" / "CLAUDE.md", 0, 2)
        # An edit afterwards is analysed by the new worker (the stuck unit stays skipped).
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=web, language_id="markdown", version=1, text="# Web\n\n- always run the linter before pushing\n"
                )
            )
        )
        await until(
            lambda: any(d.code == "duplicate-instruction" for d in client.diagnostics.get(web, [])), "the edit's findings"
        )
