"""Progress in the editor's status bar (`window/workDoneProgress`) around a piece of work."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from lsprotocol import types
from pygls.progress import Progress

log = logging.getLogger(__name__)


class ProgressClient(Protocol):
    """The language server as progress needs it: the client's capabilities and pygls' progress."""

    @property
    def client_capabilities(self) -> types.ClientCapabilities: ...

    @property
    def work_done_progress(self) -> Progress: ...


class WorkDoneProgress:
    """`window/workDoneProgress` around a piece of work, when the client supports it."""

    def __init__(self, server: ProgressClient, title: str) -> None:
        self.server = server
        self.title = title
        self.token: str | None = None

    def _supported(self) -> bool:
        window = self.server.client_capabilities.window
        return bool(window and window.work_done_progress)

    async def __aenter__(self) -> Callable[[str], None]:
        if self._supported():
            token = f"lsp-agents-{id(self)}"
            try:
                await self.server.work_done_progress.create_async(token)
                self.server.work_done_progress.begin(token, types.WorkDoneProgressBegin(title=self.title))
                self.token = token
            except Exception:
                log.debug("client refused the progress token", exc_info=True)
        return self.report

    def report(self, message: str) -> None:
        if self.token is not None:
            self.server.work_done_progress.report(self.token, types.WorkDoneProgressReport(message=message))

    async def __aexit__(self, *exc: object) -> None:
        if self.token is not None:
            self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd())
