"""Hover, document links, go to definition, document symbols and code lens."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_session import TIMEOUT, hover, open_document, session, write
from lsprotocol import types
from pytest_lsp import client_capabilities

pytestmark = pytest.mark.asyncio


async def test_hover_on_a_source_file_summarises_the_default_harness(ws: Path, home: Path) -> None:
    source = ws / "pkg" / "src" / "main.ts"
    async with session([ws], home) as client:
        text = await hover(client, source, 0, 5)
        lines = text.splitlines()
        root, pkg, override = ws / "AGENTS.md", ws / "pkg" / "AGENTS.md", ws / "pkg" / "AGENTS.override.md"
        root_bytes, pkg_bytes = root.stat().st_size, pkg.stat().st_size
        tokens = -(-root_bytes // 4) + -(-pkg_bytes // 4)  # four bytes a token, rounded up per file
        assert lines[0] == (
            f"**opencode** sends 2 files · {root_bytes + pkg_bytes:,} B · ~{tokens} tokens for this file "
            f"(launched in the workspace root; verified against 1.18.33)"
        )
        assert lines[2:5] == [
            "At start:",
            "",
            f"1. [AGENTS.md]({root.as_uri()}) · {root_bytes:,} B · ~{-(-root_bytes // 4)} tokens",
        ]
        assert "On read (added when the agent reads this file):" in lines
        assert f"2. [pkg/AGENTS.md]({pkg.as_uri()}) · {pkg_bytes:,} B · ~{-(-pkg_bytes // 4)} tokens" in lines
        others = [line for line in lines if line.startswith("- **")]
        assert [line.split("**")[1] for line in others] == ["codex"]  # detected from AGENTS.md
        assert any(line.startswith("- **codex**: 2 files · ") and line.endswith("(2 at start, 0 on read)") for line in others)
        assert str(override) not in text
        assert await hover(client, source, 1, 3) is None  # not on the first line


async def test_hover_on_an_instruction_file_says_who_loads_it(ws: Path, home: Path) -> None:
    async with session([ws], home) as client:
        text = await hover(client, ws / "pkg" / "AGENTS.md", 0, 2)
        assert text.splitlines() == [
            "**AGENTS.md** — instruction file",
            "",
            "- **opencode**: on read from the workspace root; at start from pkg",
            "- **codex**: not loaded from pkg: AGENTS.override.md in the same directory replaces it (pkg/AGENTS.override.md)",
        ]
        root_text = await hover(client, ws / "AGENTS.md", 0, 0)
        assert "- **codex**: at start from the workspace root" in root_text.splitlines()
        assert "|" not in text + root_text  # lists, not tables: a hover is too narrow for a table


async def test_hover_on_an_import_shows_the_resolved_target(ws: Path, home: Path) -> None:
    root = ws / "AGENTS.md"
    async with session([ws], home) as client:
        line = root.read_text().splitlines().index("See @docs/style.md and [the package](pkg/AGENTS.md).")
        text = await hover(client, root, line, 6)
        style = ws / "docs" / "style.md"
        assert text.splitlines()[0] == f"`@docs/style.md` → [docs/style.md]({style.as_uri()})"
        assert text.splitlines()[2] == "Not expanded: opencode, codex send the line as written"  # the harnesses enabled here
        link = await hover(client, root, line, 30)
        assert link.startswith(f"link `pkg/AGENTS.md` → [pkg/AGENTS.md]({(ws / 'pkg' / 'AGENTS.md').as_uri()})")
        open_document(client, root, root.read_text() + "\n@missing.md\n")
        missing = await hover(client, root, line + 2, 1)
        assert missing.endswith("— **not found**\n\nNot expanded: opencode, codex send the line as written")


async def test_an_import_is_expanded_by_the_harnesses_whose_cascade_follows_it(ws: Path, home: Path) -> None:
    """`@AGENTS.md` in CLAUDE.md: Claude Code expands it; Gemini, whose dialect would parse the line,
    neither reads CLAUDE.md nor is enabled, so it is not named."""
    claude = write(ws / "CLAUDE.md", "# Claude\n\n@AGENTS.md\n")
    async with session([ws], home) as client:
        text = await hover(client, claude, 2, 3)
        assert text.splitlines() == [f"`@AGENTS.md` → [AGENTS.md]({(ws / 'AGENTS.md').as_uri()})", "", "Expanded by: claude-code"]


@pytest.mark.parametrize("spec", ["visual-studio-code", "neovim@v0.11.0", "emacs"])
async def test_document_links_and_definition_in_the_client_encoding(spec: str, ws: Path, home: Path) -> None:
    note = write(ws / "CLAUDE.md", "# Notes 😀\n\n😀 see @docs/style.md\n")
    async with session([ws], home, caps=client_capabilities(spec)) as client:
        encoding = client.init_result.capabilities.position_encoding
        column = {"utf-8": 9, "utf-16": 7, "utf-32": 6}[encoding]  # where `@` is, after "😀 see "
        links = await asyncio.wait_for(
            client.text_document_document_link_async(
                types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=note.as_uri()))
            ),
            TIMEOUT,
        )
        assert [(link.range.start.line, link.range.start.character, link.range.end.character, link.target) for link in links] == [
            (2, column, column + 14, (ws / "docs" / "style.md").as_uri())
        ]
        location = await asyncio.wait_for(
            client.text_document_definition_async(
                types.DefinitionParams(
                    text_document=types.TextDocumentIdentifier(uri=note.as_uri()), position=types.Position(2, column + 3)
                )
            ),
            TIMEOUT,
        )
        assert location.uri == (ws / "docs" / "style.md").as_uri()
        nothing = await asyncio.wait_for(
            client.text_document_definition_async(
                types.DefinitionParams(
                    text_document=types.TextDocumentIdentifier(uri=note.as_uri()), position=types.Position(0, 1)
                )
            ),
            TIMEOUT,
        )
        assert nothing is None


async def test_document_symbols_only_where_the_editor_has_no_outline(ws: Path, home: Path) -> None:
    text = "---\npaths: src/**\n---\n# Style\n\n## Naming\n\ntext\n\n## Tests\n\n# Other\n"
    rules = write(ws / ".claude" / "rules" / "style.md", text)
    legacy = write(ws / ".cursorrules", text)

    async def outline(path: Path, language: str) -> list:
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=path.as_uri(), language_id=language, version=1, text=text)
            )
        )
        symbols = await asyncio.wait_for(
            client.text_document_document_symbol_async(
                types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
            ),
            TIMEOUT,
        )
        return [
            (s.name, s.range.start.line, [(c.name, c.range.start.line, c.range.end.line) for c in s.children]) for s in symbols
        ]

    async with session([ws], home) as client:
        assert await outline(rules, "markdown") == []  # the editor's own Markdown outline has these
        expected = [("Style", 3, [("Naming", 5, 8), ("Tests", 9, 10)]), ("Other", 11, [])]
        assert await outline(legacy, "plaintext") == expected
        assert await outline(rules, "plaintext") == expected


async def test_code_lens_at_the_top_of_an_instruction_file(ws: Path, home: Path) -> None:
    async with session([ws], home) as client:
        uri = (ws / "AGENTS.md").as_uri()
        lenses = await asyncio.wait_for(
            client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))),
            TIMEOUT,
        )
        titles = [lens.command.title for lens in lenses]
        assert titles == ["opencode: at start from the workspace root", "codex: at start from the workspace root"]
        assert all(lens.range.start.line == 0 for lens in lenses)
        opencode = lenses[0]
        assert opencode.command.command == "lspAgents.effectivePrompt"
        assert list(opencode.command.arguments) == [{"uri": uri, "harness": "opencode"}]
        source = (ws / "pkg" / "src" / "main.ts").as_uri()
        assert (
            await asyncio.wait_for(
                client.text_document_code_lens_async(
                    types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=source))
                ),
                TIMEOUT,
            )
            == ()
        )
