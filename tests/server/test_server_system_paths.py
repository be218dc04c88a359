"""The language server on workspaces that name /proc: its start (`initialized` → settings → watch →
index → analyse) goes through, every folder it can analyse gets its diagnostics, and requests are
answered. `@/proc/1/root/etc/hostname` in GEMINI.md once made `initialized` fail: no diagnostics,
ever, for the whole session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lsp_session import command, folder, hover, session, until, write
from lsprotocol import types

pytestmark = pytest.mark.asyncio
BODY = "- Run the whole test suite before every commit, without exception.\n"
IMPORTS = "@/proc/1/root/etc/hostname\n@/proc/self/environ\n@chain/etc/hostname\n"


def codes(client, path: Path) -> set[tuple[str, int]]:
    return {(d.code, d.range.start.line) for d in client.diagnostics.get(path.as_uri(), [])}


def messages(client) -> str:
    return "\n".join(m.message for m in client.log_messages)


@pytest.fixture
def proc_ws(tmp_path: Path) -> Path:
    """GEMINI.md and CLAUDE.md import /proc paths (one through a symlink chain to /proc/1/root)
    beside a duplicated bullet; `.gitignore` is a link the server may not read, and
    `lsp-agents.toml` a directory."""
    ws = Path(os.path.realpath(tmp_path)) / "ws"
    (ws / ".git").mkdir(parents=True)
    os.symlink("/proc/1/root", ws / "chain")
    for name in ("GEMINI.md", "CLAUDE.md"):
        write(ws / name, f"# {name}\n\n{BODY}{BODY}\n{IMPORTS}")
    os.symlink("chain/etc/gitignore", ws / ".gitignore")
    (ws / "lsp-agents.toml").mkdir()
    return ws


async def test_diagnostics_and_hover_for_a_workspace_importing_proc(proc_ws: Path, home: Path) -> None:
    gemini, claude = proc_ws / "GEMINI.md", proc_ws / "CLAUDE.md"
    async with session([proc_ws], home) as client:
        for path in (gemini, claude):
            await until(lambda path=path: ("import-outside-workspace", 5) in codes(client, path), f"the findings of {path.name}")
            assert {("duplicate-instruction", 3), ("import-outside-workspace", 6)} <= codes(client, path)
        assert ("import-not-found", 7) in codes(client, claude)  # through the chain: permission denied, or /proc
        text = await hover(client, claude, 0, 2)
        assert text and text.startswith("**CLAUDE.md**")
        result = await command(client, "lspAgents.cascade", {"uri": (proc_ws / "CLAUDE.md").as_uri(), "harness": "claude-code"})
        assert "/proc/1/root/etc/hostname" in {item["path"] for item in result["harnesses"][0]["not_loaded"]}
        assert "lsp-agents.toml" in messages(client)  # a directory: one warning, default settings


async def test_folders_that_cannot_be_analysed_are_named_and_the_others_are(proc_ws: Path, home: Path, tmp_path: Path) -> None:
    """A folder that is a symlink to /proc is left out with one line; a `lsp-agents.toml` that is a
    FIFO is a warning, never a read that blocks."""
    into_proc = tmp_path / "into-proc"
    os.symlink("/proc/self", into_proc)
    fifo = tmp_path / "fifo"
    write(fifo / "AGENTS.md", f"# Fifo\n\n{BODY}{BODY}")
    os.mkfifo(fifo / "lsp-agents.toml")
    async with session([proc_ws, into_proc, fifo], home, analysed=False) as client:
        await until(lambda: len(client.analyses) >= 2, "the analyses of the two folders it can analyse")
        assert ("import-outside-workspace", 5) in codes(client, proc_ws / "GEMINI.md")
        assert ("duplicate-instruction", 3) in codes(client, fifo / "AGENTS.md")
        log = messages(client)
        assert f"ignoring workspace folder {into_proc.as_uri()}" in log and "/proc, /sys or /dev" in log
        assert str(fifo / "lsp-agents.toml") in log
        assert (await hover(client, fifo / "AGENTS.md", 0, 2)).startswith("**AGENTS.md**")
        assert {a.folder for a in client.analyses} == {proc_ws.as_uri(), fifo.as_uri()}


@pytest.mark.parametrize("setting", ["/proc/self/root", "../..", "chain", "chain/etc"])
async def test_a_launch_directory_setting_never_leads_out_of_the_folder(setting: str, proc_ws: Path, home: Path) -> None:
    async with session([proc_ws], home, configuration={"launchDirectory": setting}) as client:
        result = await command(client, "lspAgents.effectivePrompt", {"uri": (proc_ws / "CLAUDE.md").as_uri()})
        assert result["cwd"] == str(proc_ws)
        assert "launchDirectory" in messages(client)
        assert ("import-outside-workspace", 5) in codes(client, proc_ws / "GEMINI.md")


async def test_requests_are_answered_before_and_after_the_analysis(proc_ws: Path, home: Path) -> None:
    """Requests on a workspace importing /proc, before its analysis (answered by the harness
    models walking the tree themselves) and after it."""
    async with session([proc_ws], home, analysed=False) as client:
        assert await hover(client, proc_ws / "GEMINI.md", 0, 2) is not None
        await until(lambda: client.analyses, "the analysis")
        links = await client.text_document_document_link_async(
            types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=(proc_ws / "CLAUDE.md").as_uri()))
        )
        assert links is not None
        assert folder(proc_ws).uri == client.analyses[0].folder


FAILING_SCAN = """
import lsp_agents.core.workspace as workspace

scan = workspace.WorkspaceIndex.scan


def failing_scan(self, *args, **kwargs):
    if self.root.endswith("broken"):
        raise PermissionError(13, "Permission denied", self.root)
    return scan(self, *args, **kwargs)


workspace.WorkspaceIndex.scan = failing_scan
"""


async def test_a_folder_whose_analysis_fails_is_one_log_line(tmp_path: Path, home: Path, monkeypatch) -> None:
    """Whatever still escapes a folder's indexing or analysis (injected here into the server
    process: no path left makes it fail) costs that folder alone: one error line, and the other
    folders are analysed as usual."""
    write(tmp_path / "inject" / "sitecustomize.py", FAILING_SCAN)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path / "inject"), os.environ.get("PYTHONPATH")])))
    broken, fine = tmp_path / "broken", tmp_path / "fine"
    for root in (broken, fine):
        write(root / "AGENTS.md", f"# Rules\n\n{BODY}{BODY}")
    async with session([broken, fine], home, analysed=False, fresh_interpreter=True) as client:
        await until(lambda: client.analyses, "the analysis of the folder that can be analysed")
        assert ("duplicate-instruction", 3) in codes(client, fine / "AGENTS.md")
        errors = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
        assert errors == [
            f"no diagnostics for {broken}: its analysis failed (PermissionError: [Errno 13] Permission denied: '{broken}')"
        ]
        assert (await hover(client, broken / "AGENTS.md", 0, 2)).startswith("**AGENTS.md**")
