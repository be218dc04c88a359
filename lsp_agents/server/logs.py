"""Logging of the server: lsp_agents' own records go to the editor's log (`window/logMessage`), and
to stderr only until the editor takes them; pygls' records go to stderr (stdout carries the
protocol). Editors show stderr in the same log, so sending a record both ways doubled every line."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer


class WindowLogHandler(logging.Handler):
    """Forwards lsp_agents log records to the editor's log (pygls' own records would recurse).

    Records from worker threads (indexing runs in one) are handed to the event loop's thread:
    the protocol's transport is not thread-safe.
    """

    LEVELS = (
        (logging.ERROR, types.MessageType.Error),
        (logging.WARNING, types.MessageType.Warning),
        (logging.INFO, types.MessageType.Info),
    )

    def __init__(self, server: AgentsLanguageServer) -> None:
        super().__init__(logging.INFO)
        self.server = server
        self._loop: asyncio.AbstractEventLoop | None = None
        self.delivered = False  # the editor has taken a record: stderr need not repeat them

    def emit(self, record: logging.LogRecord) -> None:
        kind = next((k for level, k in self.LEVELS if record.levelno >= level), types.MessageType.Log)
        params = types.LogMessageParams(type=kind, message=self.format(record))
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:  # not on the event loop's thread
            if self._loop is not None and not self._loop.is_closed():
                self._loop.call_soon_threadsafe(self._send, params)
            return
        self._send(params)

    def _send(self, params: types.LogMessageParams) -> None:
        if self.server.protocol.writer is None:  # no client yet: stderr has the record
            return
        try:
            self.server.window_log_message(params)
            self.delivered = True
        except Exception:  # noqa: BLE001, S110 - the stream is gone: a log handler must not raise, and has nowhere to log
            pass


class NotDelivered(logging.Filter):
    """Lets through to stderr the lsp_agents records the editor's log has not taken."""

    def __init__(self, window: WindowLogHandler) -> None:
        super().__init__()
        self.window = window

    def filter(self, record: logging.LogRecord) -> bool:
        return not (self.window.delivered and record.name.startswith("lsp_agents"))


class RoutineCancel(logging.Filter):
    """pygls warns whenever the editor cancels a request it has already answered; editors do that
    on every keystroke (code lens, document links), so the warning says nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Cancel notification for unknown message id")


def configure(server: AgentsLanguageServer) -> WindowLogHandler:
    window = WindowLogHandler(server)
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    stderr.addFilter(NotDelivered(window))
    stderr.addFilter(RoutineCancel())
    logging.basicConfig(level=logging.WARNING, handlers=[stderr])
    package_log = logging.getLogger("lsp_agents")
    package_log.setLevel(logging.INFO)
    package_log.addHandler(window)
    return window
