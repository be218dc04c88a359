"""One set of facts about an instruction file: the hover, the code lens and the `lspAgents.fileUses`
answer the editor's tree and views show say the same thing for every harness, from every launch
directory that matters, with the cut of a byte budget."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_session import TIMEOUT, command, hover, session, write
from lsprotocol import types

pytestmark = pytest.mark.asyncio


async def lens_titles(client, path: Path) -> dict[str, str]:
    lenses = await asyncio.wait_for(
        client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))),
        TIMEOUT,
    )
    return dict(lens.command.title.split(": ", 1) for lens in lenses)


def hover_lines(text: str) -> dict[str, str]:
    return {line[4:].split("**", 1)[0]: line.split("**: ", 1)[1] for line in text.splitlines() if line.startswith("- **")}


async def test_hover_code_lens_and_views_state_the_same_facts(tmp_path: Path) -> None:
    """A nested repository's AGENTS.md: Codex sends it when launched in its directory (the code lens
    once left that out) and cuts the root one at its byte budget (the hovers once left that out)."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    (ws / "pkg" / ".git").mkdir(parents=True)
    root = write(ws / "AGENTS.md", "# Root\n\n" + "Keep the build green at all times.\n" * 4)
    nested = write(ws / "pkg" / "AGENTS.md", "# Package\n\nPKG RULES\n")
    source = write(ws / "pkg" / "src" / "main.ts", "export const x = 1;\n")
    write(home / ".codex" / "config.toml", "project_doc_max_bytes = 40\n")
    size = root.stat().st_size
    async with session([ws], home, configuration={"harnesses": ["opencode", "codex"]}) as client:
        for path, expected in [
            (nested, {"opencode": "on read from the workspace root; at start from pkg", "codex": "at start from pkg"}),
            (
                root,
                {
                    "opencode": "at start from the workspace root",
                    "codex": f"at start from the workspace root (cut at byte 40 of {size:,})",
                },
            ),
        ]:
            uses = await command(client, "lspAgents.fileUses", {"uri": path.as_uri()})
            assert {h["harness"]: h["summary"] for h in uses["harnesses"]} == expected, path
            assert hover_lines(await hover(client, path, 0, 0)) == expected, path
            assert await lens_titles(client, path) == expected, path
        source_hover = await hover(client, source, 0, 0)
        assert f"(1 at start, 0 on read; AGENTS.md cut at byte 40 of {size:,})" in source_hover  # the other harness's cut
        assert await command(client, "lspAgents.fileUses", {"uri": source.as_uri()}) == {
            "file": str(source),
            "harnesses": [],
            "shadows": [],
        }


async def test_a_file_no_enabled_harness_sends_has_one_lens_that_says_so(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    gemini = write(ws / "GEMINI.md", "# Gemini\n")
    write(ws / "AGENTS.md", "# Agents\n")
    async with session([ws], home, configuration={"harnesses": ["codex"]}) as client:
        lenses = await asyncio.wait_for(
            client.text_document_code_lens_async(
                types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=gemini.as_uri()))
            ),
            TIMEOUT,
        )
        assert [lens.command.title for lens in lenses] == ["not sent by any enabled harness"]
        shown = await hover(client, gemini, 0, 0)
        assert shown.endswith("No enabled harness considers this file when launched in the workspace root.")
