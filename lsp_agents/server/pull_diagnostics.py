"""Diagnostics for clients that pull them: `textDocument/diagnostic` and `workspace/diagnostic`,
answered from the store (`diagnostics.DiagnosticStore`)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from lsprotocol import types

from lsp_agents.server.budget import guarded
from lsp_agents.server.uris import path_of, uri_of

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer

# VS Code pulls the workspace's diagnostics every two seconds and, on a refresh, re-pulls open files
# only: a workspace pull that arrives during the first analysis waits for its end (bounded, so that
# every request is answered), and the findings of closed files show when known, not a period later.
FIRST_ANALYSIS_WAIT_S = 5.0


def register(server: AgentsLanguageServer) -> None:
    options = types.DiagnosticOptions(identifier="lsp-agents", inter_file_dependencies=True, workspace_diagnostics=True)

    @server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, options)
    @guarded(types.RelatedFullDocumentDiagnosticReport(items=[]))
    def document_diagnostic(ls: AgentsLanguageServer, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        path = path_of(params.text_document.uri)
        uri = uri_of(path) if path else params.text_document.uri
        return ls.diagnostics.report(uri, params.previous_result_id)

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    @guarded(types.WorkspaceDiagnosticReport(items=[]))
    async def workspace_diagnostic(
        ls: AgentsLanguageServer, params: types.WorkspaceDiagnosticParams
    ) -> types.WorkspaceDiagnosticReport:
        with contextlib.suppress(TimeoutError):  # what is known so far; the next pull gets the rest
            await asyncio.wait_for(ls.first_analysis.wait(), FIRST_ANALYSIS_WAIT_S)
        return ls.diagnostics.workspace_report()
