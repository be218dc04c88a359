"""Start-up, watching (editor-side and server-side), progress, settings and clean shutdown."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from asyncio.subprocess import DEVNULL, PIPE
from pathlib import Path

import pytest
from lsp_session import capabilities, change_document, command, hover, open_document, session, until, until_async, write
from lsprotocol import types

pytestmark = pytest.mark.asyncio


async def test_initialize_with_watch_support_registers_the_instruction_patterns(ws: Path, home: Path) -> None:
    async with session([ws], home) as client:
        caps = client.init_result.capabilities
        assert client.init_result.server_info.name == "lsp-agents"
        assert caps.hover_provider and caps.definition_provider and caps.document_symbol_provider
        assert caps.document_link_provider is not None and caps.code_lens_provider is not None
        assert set(caps.execute_command_provider.commands) == {
            "lspAgents.effectivePrompt",
            "lspAgents.fileReminders",
            "lspAgents.cascade",
            "lspAgents.reindex",
            "lspAgents.agents",
            "lspAgents.sessionReminders",
            "lspAgents.fileUses",
            "lspAgents.diff",
            "lspAgents.revisions",
        }
        await until(
            lambda: len(client.registrations) == 1 and "**/docs/style.md" in str(client.registrations),
            "the watcher registration, renewed with the imported file",
        )
        [registration] = client.registrations
        assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        globs = {w["globPattern"] for w in registration.register_options["watchers"]}
        for name in (
            "AGENTS.md",
            "AGENTS.override.md",
            "CLAUDE.md",
            "CLAUDE.local.md",
            "CONTEXT.md",
            "GEMINI.md",
            ".claude/**",
            ".gemini/settings.json",
            "opencode.json",
            ".github/copilot-instructions.md",
            ".github/instructions/**",
            ".cursor/rules/**",
            ".cursorrules",
            ".agents/skills/**",
            ".opencode/**",
        ):
            assert f"**/{name}" in globs
        progress = [v for reports in client.progress_reports.values() for v in reports]
        assert [type(v).__name__ for v in (progress[0], progress[-1])] == ["WorkDoneProgressBegin", "WorkDoneProgressEnd"]


async def test_imported_files_are_watched_too(ws: Path, home: Path) -> None:
    def globs(client) -> set[str]:
        return {w["globPattern"] for r in client.registrations for w in r.register_options["watchers"]}

    async with session([ws], home) as client:
        await until(lambda: "**/docs/style.md" in globs(client), "the imported file's watcher")
        root = ws / "AGENTS.md"
        open_document(client, root)
        change_document(client, root, root.read_text().replace("@docs/style.md", "@docs/other.md"), version=2)
        await until(
            lambda: "**/docs/other.md" in globs(client) and len(client.registrations) == 1,
            "the new import's watcher, replacing the old registration",
        )
        assert "**/docs/style.md" not in globs(client)


async def test_without_watch_support_the_server_watches_the_workspace(ws: Path, home: Path) -> None:
    async with session([ws], home, caps=capabilities(watch=False, progress=False)) as client:
        assert client.registrations == [] and client.progress_reports == {}
        target = {"uri": (ws / "pkg" / "src" / "main.ts").as_uri(), "harness": "opencode"}
        before = await command(client, "lspAgents.cascade", target)
        assert str(ws / "CLAUDE.md") not in str(before)
        write(ws / "CLAUDE.md", "# Claude\n")

        async def seen() -> bool:
            result = await command(client, "lspAgents.cascade", target)
            return str(ws / "CLAUDE.md") in str(result)

        await until_async(seen, "the server-side watcher to see CLAUDE.md")


async def test_global_files_are_watched_by_the_server(ws: Path, home: Path) -> None:
    async with session([ws], home) as client:
        target = {"uri": (ws / "pkg" / "src" / "main.ts").as_uri(), "harness": "codex"}
        write(home / ".codex" / "AGENTS.override.md", "GLOBAL OVERRIDE\n")

        async def seen() -> bool:
            result = await command(client, "lspAgents.effectivePrompt", target)
            return "GLOBAL OVERRIDE" in result["eager"][0]["text"]

        await until_async(seen, "the global override")


async def test_configuration_change_is_read_again(ws: Path, home: Path) -> None:
    source = ws / "pkg" / "src" / "main.ts"
    async with session([ws], home, configuration={"defaultHarness": "opencode"}) as client:
        assert (await hover(client, source, 0, 0)).startswith("**opencode**")
        client.set_configuration({"defaultHarness": "codex", "hover": {"sourceFiles": "everywhere"}}, section="lspAgents")
        done = len(client.analyses)
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        await until(lambda: len(client.analyses) > done, "the re-analysis")
        assert (await hover(client, source, 1, 3)).startswith("**codex**")


async def test_initialization_options_and_malformed_settings(ws: Path, home: Path) -> None:
    init = {"lspAgents": {"defaultHarness": "gemini", "debounceMs": "soon", "bogus": 1}}
    async with session([ws], home, init=init, caps=capabilities(configuration=False)) as client:
        assert (await hover(client, ws / "pkg" / "src" / "main.ts", 0, 0)).startswith("**gemini**")
        messages = " ".join(m.message for m in client.log_messages)
        assert "debounceMs" in messages and "bogus" in messages


async def test_bad_requests_never_kill_the_server(ws: Path, home: Path) -> None:
    loop = ws / "loop" / "AGENTS.md"
    loop.parent.mkdir()
    os.symlink(loop, loop)  # unreadable: a symlink loop
    async with session([ws], home) as client:
        assert await command(client, "lspAgents.cascade", {"nouri": 1}) is None
        assert await command(client, "lspAgents.effectivePrompt", {"uri": ws.as_uri(), "harness": "nope"}) is None
        assert await command(client, "lspAgents.cascade", "not an object") is None
        assert await hover(client, Path("/nonexistent/dir/file.md"), 0, 0) is not None
        assert await hover(client, loop, 0, 0) is not None
        errors = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
        assert any("unknown harness 'nope'" in m for m in errors)
        result = await command(client, "lspAgents.cascade", {"uri": (ws / "AGENTS.md").as_uri()})
        assert result["file"] == str(ws / "AGENTS.md")


async def test_typing_is_debounced(ws: Path, home: Path) -> None:
    root = ws / "AGENTS.md"
    async with session([ws], home, configuration={"debounceMs": 300}) as client:
        done = len(client.analyses)
        open_document(client, root)
        for version in range(2, 7):  # keystrokes 50 ms apart: each would be analysed without the debounce
            change_document(client, root, root.read_text() + "x" * version, version=version)
            await asyncio.sleep(0.05)
        await until(lambda: len(client.analyses) > done, "the debounced analysis")
        assert await command(client, "lspAgents.reindex")  # answered at once; its analysis follows
        await until(lambda: len(client.analyses) >= done + 2, "the reindex's analysis")
        assert len(client.analyses[done:]) == 2  # one analysis of the five edits, one of the reindex


async def test_shutdown_while_the_initial_analysis_runs(ws: Path, home: Path) -> None:
    """`shutdown` cancels the handlers still running (`initialized` waits on the analysis): it is
    answered without error and the server exits 0 (the session checks both on leaving)."""
    async with session([ws], home, analysed=False) as client:
        assert not client.analyses, "the analysis ended before shutdown: nothing was running to cancel"


async def test_reindex_command(ws: Path, home: Path) -> None:
    async with session([ws], home) as client:
        result = await command(client, "lspAgents.reindex")
        assert result == {"folders": 1, "instructionFiles": 3}


def _message(body: dict) -> bytes:
    data = json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


async def test_the_server_leaves_nothing_in_the_temporary_folder(ws: Path, home: Path, tmp_path: Path) -> None:
    """The analysis worker's fork server keeps its socket in a folder of the temporary folder,
    which Python removes only at a normal interpreter exit: after a clean shutdown none is left."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    async with session([ws], home, env={"TMPDIR": str(temporary)}, fresh_interpreter=True):
        assert list(temporary.iterdir()), "the worker's fork server made no folder: nothing is checked"
    assert not list(temporary.iterdir())


async def test_the_server_leaves_nothing_behind_when_the_editor_closes_the_stream(ws: Path, home: Path, tmp_path: Path) -> None:
    """The same when the client closes the server's input without `shutdown` or `exit`."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "HOME": str(home), "TMPDIR": str(temporary)}
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "lsp_agents", "serve", stdin=PIPE, stdout=PIPE, stderr=DEVNULL, env=env
    )
    assert server.stdin is not None and server.stdout is not None
    initialize = {"processId": None, "capabilities": {}, "workspaceFolders": [{"uri": ws.as_uri(), "name": "ws"}]}
    server.stdin.write(_message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize}))
    server.stdin.write(_message({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    await server.stdin.drain()
    read = b""
    while b"lspAgents/analysisComplete" not in read:
        chunk = await asyncio.wait_for(server.stdout.read(65536), 60)
        assert chunk, "the server ended before its analysis"
        read += chunk
    assert list(temporary.iterdir()), "the worker's fork server made no folder: nothing is checked"
    server.stdin.close()
    assert await asyncio.wait_for(server.wait(), 30) == 0
    assert not list(temporary.iterdir())


async def test_a_long_temporary_folder_still_gets_diagnostics(ws: Path, home: Path, tmp_path: Path) -> None:
    """A fork server's socket lives in the temporary folder; past the system's limit on a socket's
    path (`AF_UNIX path too long`) it cannot start, and the worker is spawned instead: the
    analysis is published as usual, and nothing is left behind."""
    temporary = tmp_path / ("long-" * 24)
    temporary.mkdir()
    async with session([ws], home, env={"TMPDIR": str(temporary)}, fresh_interpreter=True) as client:
        await until(lambda: (ws / "AGENTS.md").as_uri() in client.diagnostics, "the root AGENTS.md's diagnostics")
        assert "duplicate-instruction" in [d.code for d in client.diagnostics[(ws / "AGENTS.md").as_uri()]]
    assert not list(temporary.iterdir())
