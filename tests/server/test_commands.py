"""Every command answers exactly what the CLI prints for the same file, launch directory and home;
unsaved buffers and file events change those answers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsp_session import change_document, cli, command, folder, open_document, session, until, write
from lsprotocol import types

pytestmark = pytest.mark.asyncio
KNOWN_INSTRUCTIONS = Path(__file__).parents[1] / "conformance" / "scenarios" / "copilot-cli-read-known-instructions"


async def test_commands_return_what_the_cli_prints(ws: Path, home: Path) -> None:
    source = ws / "pkg" / "src" / "main.ts"
    uri = source.as_uri()
    async with session([ws], home) as client:
        cases = [
            ({"uri": uri}, "lspAgents.effectivePrompt", ["prompt", "--cwd", str(ws)]),
            (
                {"uri": uri, "harness": "codex", "cwd": str(ws / "pkg")},
                "lspAgents.effectivePrompt",
                ["prompt", "--harness", "codex", "--cwd", str(ws / "pkg")],
            ),
            (
                {"uri": uri, "harness": "claude-code", "layers": "all"},
                "lspAgents.effectivePrompt",
                ["prompt", "--harness", "claude-code", "--cwd", str(ws), "--layers", "all"],
            ),
            ({"uri": uri}, "lspAgents.fileReminders", ["reminders", str(source), "--cwd", str(ws)]),
            (
                {"uri": uri, "harness": "gemini", "loaded": [str(ws / "AGENTS.md")]},
                "lspAgents.fileReminders",
                ["reminders", str(source), "--harness", "gemini", "--cwd", str(ws), "--loaded", str(ws / "AGENTS.md")],
            ),
            ({"uri": uri}, "lspAgents.cascade", ["cascade", str(source), "--harness", "all", "--cwd", str(ws)]),
            (
                {"uri": uri, "harness": "cursor"},
                "lspAgents.cascade",
                ["cascade", str(source), "--harness", "cursor", "--cwd", str(ws)],
            ),
        ]
        for arguments, name, cli_args in cases:
            assert await command(client, name, arguments) == cli(*cli_args, home=home), (name, arguments)


async def test_reminders_remember_the_files_read_before_as_the_cli_does(tmp_path: Path, home: Path) -> None:
    """The Copilot CLI sends a conditional instruction file found on an earlier read on a later read
    it matches (captured: copilot-cli-read-known-instructions): `readBefore` as `--read-before`."""
    ws = tmp_path / "ws"
    shutil.copytree(KNOWN_INSTRUCTIONS / "ws", ws)
    (ws / ".git").mkdir()
    notes = ws / "other" / "notes.md"
    before = [str(ws / "packages" / "api" / "util.ts"), (ws / "packages" / "api" / "docs" / "doc.md").as_uri()]
    arguments = {"uri": notes.as_uri(), "harness": "copilot-cli", "cwd": str(ws)}
    async with session([ws], home) as client:
        alone = await command(client, "lspAgents.fileReminders", arguments)
        remembered = await command(client, "lspAgents.fileReminders", {**arguments, "readBefore": before})
    read_before = ["--read-before", before[0], "--read-before", str(ws / "packages" / "api" / "docs" / "doc.md")]
    assert remembered == cli("reminders", str(notes), "--harness", "copilot-cli", "--cwd", str(ws), *read_before, home=home)
    assert remembered != alone


async def test_unsaved_edits_change_the_cascade(ws: Path, home: Path) -> None:
    pkg_agents = ws / "pkg" / "AGENTS.md"
    arguments = {"uri": (ws / "pkg" / "src" / "main.ts").as_uri(), "harness": "opencode"}
    async with session([ws], home) as client:
        before = await command(client, "lspAgents.fileReminders", arguments)
        assert "PKG RULES" in before["reminders"][0]["text"]
        open_document(client, pkg_agents)
        change_document(client, pkg_agents, "# Package\n\nUNSAVED RULES\n", version=2)
        after = await command(client, "lspAgents.fileReminders", arguments)
        assert "UNSAVED RULES" in after["reminders"][0]["text"] and "PKG RULES" not in after["reminders"][0]["text"]
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=pkg_agents.as_uri()))
        )
        closed = await command(client, "lspAgents.fileReminders", arguments)
        assert closed == before


async def test_files_created_and_deleted_through_watched_file_events(ws: Path, home: Path) -> None:
    created = ws / "pkg" / "CLAUDE.md"
    arguments = {"uri": (ws / "pkg" / "src" / "main.ts").as_uri(), "harness": "claude-code"}
    async with session([ws], home) as client:
        # The server forgets the stats it cached while indexing and analysing once it is done.
        await until(lambda: client.analyses, "the initial analysis")
        assert str(created) not in str(await command(client, "lspAgents.cascade", arguments))  # now cached
        write(created, "# Claude pkg\n\nCLAUDE PKG\n")
        assert str(created) not in str(await command(client, "lspAgents.cascade", arguments))  # no event yet
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=created.as_uri(), type=types.FileChangeType.Created)])
        )
        result = await command(client, "lspAgents.cascade", arguments)
        assert str(created) in [f["path"] for f in result["harnesses"][0]["on_read"]]
        created.unlink()
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=created.as_uri(), type=types.FileChangeType.Deleted)])
        )
        result = await command(client, "lspAgents.cascade", arguments)
        assert str(created) not in str(result)


async def test_multi_root_folders_added_and_removed(ws: Path, home: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    write(other / "AGENTS.md", "OTHER ROOT\n")
    write(other / "lib" / "x.py", "x = 1\n")
    third = tmp_path / "third"
    write(third / "AGENTS.md", "THIRD ROOT\n")
    write(third / "src" / "y.py", "y = 1\n")
    async with session([ws, other], home) as client:
        result = await command(client, "lspAgents.effectivePrompt", {"uri": (other / "lib" / "x.py").as_uri()})
        assert result["cwd"] == str(other) and "OTHER ROOT" in result["eager"][0]["text"]
        done = len(client.analyses)
        client.workspace_did_change_workspace_folders(
            types.DidChangeWorkspaceFoldersParams(
                event=types.WorkspaceFoldersChangeEvent(added=[folder(third)], removed=[folder(other)])
            )
        )
        await until(lambda: len(client.analyses) > done, "the new folder's analysis")
        assert client.analyses[-1].folder == third.as_uri()
        result = await command(client, "lspAgents.effectivePrompt", {"uri": (third / "src" / "y.py").as_uri()})
        assert result["cwd"] == str(third)
        # Outside every folder now: the launch directory is the file's own directory.
        result = await command(client, "lspAgents.effectivePrompt", {"uri": (other / "lib" / "x.py").as_uri()})
        assert result["cwd"] == str(other / "lib")
        assert (await command(client, "lspAgents.reindex"))["folders"] == 2


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("fileDirectory", "pkg/src"),
        ("pkg", "pkg"),
        ("no/such/dir", "."),  # falls back to the workspace root, with a warning
    ],
)
async def test_launch_directory_setting(setting: str, expected: str, ws: Path, home: Path) -> None:
    async with session([ws], home, configuration={"launchDirectory": setting}) as client:
        result = await command(client, "lspAgents.effectivePrompt", {"uri": (ws / "pkg" / "src" / "main.ts").as_uri()})
        assert result["cwd"] == str((ws / expected).resolve())
        if expected == ".":
            assert any("launchDirectory" in m.message for m in client.log_messages)


async def test_a_budget_miss_is_logged_with_the_request_and_its_file_and_the_next_ask_is_answered(ws: Path, home: Path) -> None:
    """LSP_AGENTS_MISS_BUDGET makes the first cascade miss its budget, as a cold start on a slow
    machine can: the log names the request and the file (no talk of hostile content), and the
    editor's next ask gets the answer."""
    source = ws / "pkg" / "src" / "main.ts"
    arguments = {"uri": source.as_uri()}
    async with session([ws], home, env={"LSP_AGENTS_MISS_BUDGET": "lspAgents.cascade"}) as client:
        assert await command(client, "lspAgents.cascade", arguments) is None
        missed = [m for m in client.log_messages if "not computed within" in m.message]
        assert [(m.type, m.message) for m in missed] == [
            (types.MessageType.Warning, "lspAgents.cascade for pkg/src/main.ts: not computed within 500 ms; answered without it")
        ]
        assert await command(client, "lspAgents.cascade", arguments) == cli(
            "cascade", str(source), "--harness", "all", "--cwd", str(ws), home=home
        )
