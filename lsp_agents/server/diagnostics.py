"""Findings of the analysis as diagnostics: kept per file, sent only when they change.

Clients that pull diagnostics (`textDocument/diagnostic`, answered by `pull_diagnostics`) get them
on request and a `workspace/diagnostic/refresh` after a change; the others get
`publishDiagnostics`, with an empty list to clear a file whose findings disappeared or which was
deleted.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from typing import Protocol

from lsprotocol import types

from lsp_agents.core.positions import Located
from lsp_agents.server.convert import to_diagnostic
from lsp_agents.server.folder import Folder
from lsp_agents.server.uris import uri_of
from lsp_agents.workers import AnalysisWorker, WorkerError

log = logging.getLogger(__name__)


class Publisher(Protocol):
    """What the store needs of the language server: the client, the worker and the folders."""

    worker: AnalysisWorker
    stopping: bool

    @property
    def client_capabilities(self) -> types.ClientCapabilities: ...

    @property
    def encoding(self) -> str: ...

    def folder_for(self, path: str) -> Folder | None: ...

    def notify_analysis_complete(self, folder: Folder) -> None: ...

    def workspace_diagnostic_refresh(self, params: None) -> object: ...

    def text_document_publish_diagnostics(self, params: types.PublishDiagnosticsParams) -> None: ...


class DiagnosticStore:
    """Per file: the findings (for code actions) and the diagnostics last sent or served."""

    def __init__(self, server: Publisher) -> None:
        self.server = server
        self.located: dict[str, list[Located]] = {}
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.generation: dict[str, int] = {}

    @property
    def pull(self) -> bool:
        text_document = self.server.client_capabilities.text_document
        return bool(text_document and text_document.diagnostic)

    # -- updates ----------------------------------------------------------------------------
    def replace_folder(self, folder: Folder, results: Mapping[str, list[Located]]) -> None:
        """After a full analysis: files of the folder that no longer have findings are cleared."""
        stale: dict[str, list[Located]] = {p: [] for p in self.located if self._owner(p) is folder and p not in results}
        self._apply(folder, {**stale, **results}, edited=set(results))

    def publish_early(self, results: Mapping[str, list[Located]]) -> None:
        """Findings known before the analysis ends (a subset of the final ones); no
        analysisComplete is sent for them."""
        self._apply(None, results, edited=set(results))

    async def refresh(self, folder: Folder, changed: Iterable[str]) -> None:
        """Re-analyse after edits, in the worker (the caller holds the folder's lock)."""
        if not folder.analysed:
            return
        try:
            outcome = await asyncio.to_thread(self.server.worker.analyse_paths, folder.root, set(changed), self.server.encoding)
        except WorkerError as exc:
            if not self.server.stopping:
                log.error("analysis of %s failed: %s", folder.root, exc)
            return
        if outcome.complete:  # the worker had to start again: this is every finding of the folder
            self.replace_folder(folder, outcome.findings)
        else:
            self._apply(folder, outcome.findings, edited=set(changed))

    def forget_folder(self, folder: Folder) -> None:
        self._apply(None, {p: [] for p in self.located if self._owner(p) is folder}, edited=set())

    def _owner(self, path: str) -> Folder | None:
        return self.server.folder_for(path)

    def _apply(self, folder: Folder | None, results: Mapping[str, list[Located]], edited: set[str]) -> None:
        """Store and send what changed. A file whose text did not change and whose findings are the
        same keeps its diagnostics without building them again (an edit can touch hundreds)."""
        changed = False
        for path, findings in results.items():
            if path not in edited and findings == self.located.get(path, []):
                continue
            try:
                changed |= self._set(path, findings)
            except Exception:
                log.exception("cannot convert the findings of %s", path)
        if changed and self.pull:
            workspace = self.server.client_capabilities.workspace
            if workspace and workspace.diagnostics and workspace.diagnostics.refresh_support:
                self.server.workspace_diagnostic_refresh(None)
        if folder is not None:
            self.server.notify_analysis_complete(folder)

    def _set(self, path: str, findings: list[Located]) -> bool:
        uri = uri_of(path)
        diagnostics = [to_diagnostic(located, uri_of) for located in findings]
        if findings:
            self.located[path] = findings
        else:
            self.located.pop(path, None)
        if diagnostics == self.diagnostics.get(uri, []) and (uri in self.diagnostics or not diagnostics):
            return False
        self.diagnostics[uri] = diagnostics
        self.generation[uri] = self.generation.get(uri, 0) + 1
        if not self.pull:
            self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))
        return True

    # -- pull model -------------------------------------------------------------------------
    def report(self, uri: str, previous: str | None) -> types.DocumentDiagnosticReport:
        result_id = str(self.generation.get(uri, 0))
        if previous == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=self.diagnostics.get(uri, []), result_id=result_id)

    def workspace_report(self) -> types.WorkspaceDiagnosticReport:
        items = [
            types.WorkspaceFullDocumentDiagnosticReport(
                uri=uri, items=diagnostics, version=None, result_id=str(self.generation.get(uri, 0))
            )
            for uri, diagnostics in self.diagnostics.items()
        ]
        return types.WorkspaceDiagnosticReport(items=items)
