"""Diagnostics from the analysis: published for planted problems, republished only where they
change, cleared when fixed or deleted; pull diagnostics; quick fixes that apply cleanly."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_session import TIMEOUT, capabilities, change_document, open_document, session, until
from lsprotocol import types

pytestmark = pytest.mark.asyncio


def codes(client, path: Path) -> list[str]:
    return [d.code for d in client.diagnostics.get(path.as_uri(), [])]


def file_event(client, path: Path, kind: types.FileChangeType) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=path.as_uri(), type=kind)])
    )


async def test_planted_problems_are_published_and_cleared_when_fixed(ws: Path, home: Path) -> None:
    root, pkg, override = ws / "AGENTS.md", ws / "pkg" / "AGENTS.md", ws / "pkg" / "AGENTS.override.md"
    async with session([ws], home) as client:
        await until(lambda: "duplicate-instruction" in codes(client, root), "the duplicate finding")
        [duplicate] = [d for d in client.diagnostics[root.as_uri()] if d.code == "duplicate-instruction"]
        assert duplicate.source == "lsp-agents"
        assert duplicate.severity == types.DiagnosticSeverity.Hint  # not on by default (codes.toml)
        assert duplicate.code_description.href == "https://github.com/lsp-agents/lsp-agents#duplicate-instruction"
        assert duplicate.range.start.line == 4 and list(duplicate.tags) == [types.DiagnosticTag.Unnecessary]
        [first_copy] = duplicate.related_information
        assert first_copy.location.uri == root.as_uri() and first_copy.location.range.start.line == 2
        assert codes(client, pkg) == ["shadowed-file"] and codes(client, override) == ["empty-file"]
        published = len(client.published)

        # Fix the duplicate in an unsaved buffer: only AGENTS.md is republished.
        open_document(client, root)
        change_document(client, root, root.read_text().replace("- Use tabs for indentation.\n\nSee", "\nSee"), version=2)
        await until(lambda: "duplicate-instruction" not in codes(client, root), "the duplicate to clear")
        done = len(client.analyses)
        await until(lambda: len(client.analyses) > done or len(client.published) > published, "the republish")
        assert set(client.published[published:]) == {root.as_uri()}

        # Delete the empty override: its diagnostics and the shadowing clear with empty lists.
        override.unlink()
        file_event(client, override, types.FileChangeType.Deleted)
        await until(lambda: codes(client, override) == [] and codes(client, pkg) == [], "the override's diagnostics to clear")
        assert client.published[-2:] and {pkg.as_uri(), override.as_uri()} <= set(client.published[-3:])


async def test_code_action_applies_cleanly(ws: Path, home: Path) -> None:
    root = ws / "AGENTS.md"
    async with session([ws], home) as client:
        await until(lambda: "duplicate-instruction" in codes(client, root), "the duplicate finding")
        [duplicate] = [d for d in client.diagnostics[root.as_uri()] if d.code == "duplicate-instruction"]
        actions = await asyncio.wait_for(
            client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=root.as_uri()),
                    range=duplicate.range,
                    context=types.CodeActionContext(diagnostics=[duplicate]),
                )
            ),
            TIMEOUT,
        )
        [action] = actions
        assert action.kind == types.CodeActionKind.QuickFix and action.diagnostics[0].code == "duplicate-instruction"
        fixed = apply(root.read_text(), action.edit, root.as_uri())
        assert fixed.startswith("# Root rules\n\n- Use tabs for indentation.\n- Run the tests before committing.\n")
        assert fixed.count("Use tabs") == 1 and fixed.endswith("See @docs/style.md and [the package](pkg/AGENTS.md).\n")
        root.write_text(fixed)
        file_event(client, root, types.FileChangeType.Changed)
        await until(lambda: "duplicate-instruction" not in codes(client, root), "the fixed file to be re-analysed")
        nothing = await asyncio.wait_for(
            client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=root.as_uri()),
                    range=duplicate.range,
                    context=types.CodeActionContext(diagnostics=[]),
                )
            ),
            TIMEOUT,
        )
        assert not nothing


def apply(text: str, edit: types.WorkspaceEdit, uri: str) -> str:
    """Apply a WorkspaceEdit's text edits for `uri` as an editor does (UTF-16 columns, ASCII here)."""
    edits = [e for change in edit.document_changes if change.text_document.uri == uri for e in change.edits]
    lines = text.splitlines(keepends=True)
    offset = lambda p: sum(len(line) for line in lines[: p.line]) + p.character
    for e in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text


async def test_pull_diagnostics_when_the_client_asks_for_them(ws: Path, home: Path) -> None:
    root = ws / "AGENTS.md"
    async with session([ws], home, caps=capabilities(pull=True)) as client:
        report = await asyncio.wait_for(
            client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=root.as_uri()))
            ),
            TIMEOUT,
        )
        assert "duplicate-instruction" in [d.code for d in report.items]
        same = await asyncio.wait_for(
            client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(
                    text_document=types.TextDocumentIdentifier(uri=root.as_uri()), previous_result_id=report.result_id
                )
            ),
            TIMEOUT,
        )
        assert same.kind == "unchanged"
        everything = await asyncio.wait_for(
            client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[])), TIMEOUT
        )
        assert {i.uri for i in everything.items} >= {root.as_uri(), (ws / "pkg" / "AGENTS.md").as_uri()}
        assert client.published == [] and client.diagnostics == {}
        refreshed = client.diagnostic_refresh_count
        open_document(client, root)
        change_document(client, root, root.read_text().replace("- Use tabs for indentation.\n\nSee", "\nSee"), version=2)
        await until(lambda: client.diagnostic_refresh_count > refreshed, "workspace/diagnostic/refresh")
        fresh = await asyncio.wait_for(
            client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(
                    text_document=types.TextDocumentIdentifier(uri=root.as_uri()), previous_result_id=report.result_id
                )
            ),
            TIMEOUT,
        )
        assert "duplicate-instruction" not in [d.code for d in fresh.items]


async def test_a_workspace_pull_during_the_first_analysis_gets_its_findings(ws: Path, home: Path) -> None:
    """VS Code pulls the workspace every two seconds: an answer before the analysis ends would keep
    the findings of closed files out of the Problems pane until the next pull."""
    async with session([ws], home, caps=capabilities(pull=True), analysed=False) as client:
        everything = await asyncio.wait_for(
            client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[])), TIMEOUT
        )
        assert client.analyses, "answered before the first analysis ended"
        assert (ws / "AGENTS.md").as_uri() in {i.uri for i in everything.items}


@pytest.mark.parametrize("document_changes", [True, False])
async def test_rename_fix_needs_document_changes(document_changes: bool, tmp_path, home: Path) -> None:
    ws = tmp_path / "legacy"
    (ws / ".git").mkdir(parents=True)
    context = ws / "AGENT.md"
    context.write_text("# Legacy\n\nRULES\n")
    async with session([ws], home, caps=capabilities(document_changes=document_changes)) as client:
        await until(lambda: "deprecated-filename" in codes(client, context), "the deprecated-filename finding")
        start = types.Position(0, 0)
        actions = await asyncio.wait_for(
            client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=context.as_uri()),
                    range=types.Range(start=start, end=start),
                    context=types.CodeActionContext(diagnostics=[]),
                )
            ),
            TIMEOUT,
        )
        if not document_changes:
            assert not actions  # a rename cannot be expressed without documentChanges
            return
        [action] = actions
        [rename] = action.edit.document_changes
        assert (rename.kind, rename.old_uri, rename.new_uri) == ("rename", context.as_uri(), (ws / "AGENTS.md").as_uri())
        assert (rename.options.overwrite, rename.options.ignore_if_exists) == (False, True)  # never replaces a file made since
