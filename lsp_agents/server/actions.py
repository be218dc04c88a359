"""Code actions: the fixes the analysis attaches to its findings, as workspace edits.

The analysis says what to change (text edits in code points, or a file rename); this module only
translates positions to the client's encoding and picks the edit shape the client supports.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from lsp_agents.core.model import Fix, Span
from lsp_agents.core.positions import Located
from lsp_agents.server.budget import guarded
from lsp_agents.server.convert import from_position, to_diagnostic, to_range
from lsp_agents.server.uris import path_of, uri_of

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer

log = logging.getLogger(__name__)


def _overlaps(span: Span, start: tuple[int, int], end: tuple[int, int]) -> bool:
    return (span.start_line, span.start_character) <= end and start <= (span.end_line, span.end_character)


def _document_changes(ls: AgentsLanguageServer) -> bool:
    workspace = ls.client_capabilities.workspace
    edit = workspace.workspace_edit if workspace else None
    return bool(edit and edit.document_changes)


def workspace_edit(ls: AgentsLanguageServer, fix: Fix) -> types.WorkspaceEdit | None:
    codec = ls.workspace.position_codec
    edits: dict[str, list[types.TextEdit]] = {}
    for edit in fix.edits:
        lines = ls.lines_of(edit.path)
        edits.setdefault(edit.path, []).append(types.TextEdit(range=to_range(codec, lines, edit.span), new_text=edit.new_text))
    if not _document_changes(ls):
        if fix.rename_to:
            return None  # a rename needs documentChanges
        return types.WorkspaceEdit(changes={uri_of(p): e for p, e in edits.items()})
    changes: list[types.TextDocumentEdit | types.RenameFile] = []
    for path, text_edits in edits.items():
        document = ls.open_document(path)
        identifier = types.OptionalVersionedTextDocumentIdentifier(
            uri=uri_of(path), version=document.version if document else None
        )
        changes.append(types.TextDocumentEdit(text_document=identifier, edits=text_edits))
    if fix.rename_from and fix.rename_to:
        # The target was free when the fix was computed; a file created there since is not replaced.
        changes.append(
            types.RenameFile(
                old_uri=uri_of(fix.rename_from),
                new_uri=uri_of(fix.rename_to),
                options=types.RenameFileOptions(overwrite=False, ignore_if_exists=True),
            )
        )
    return types.WorkspaceEdit(document_changes=changes)


def actions(ls: AgentsLanguageServer, path: str, findings: list[Located], request: types.Range) -> list[types.CodeAction]:
    codec = ls.workspace.position_codec
    lines = ls.lines_of(path)
    start, end = from_position(codec, lines, request.start), from_position(codec, lines, request.end)
    found = []
    for located in findings:
        finding = located.finding
        if finding.fix is None or not _overlaps(finding.span, start, end):
            continue
        edit = workspace_edit(ls, finding.fix)
        if edit is None:
            continue
        diagnostic = to_diagnostic(located, uri_of)
        found.append(
            types.CodeAction(
                title=finding.fix.title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                edit=edit,
                is_preferred=True,
            )
        )
    return found


def register(server: AgentsLanguageServer) -> None:
    options = types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix])

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, options)
    @guarded([])
    def code_action(ls: AgentsLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        path = path_of(params.text_document.uri)
        if path is None:
            return []
        return actions(ls, path, ls.diagnostics.located.get(path, []), params.range)
