"""Logging of the server: stderr always (stdout carries the protocol), and the editor's log for
lsp_agents' own records."""

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

    LEVELS = ((logging.ERROR, types.MessageType.Error), (logging.WARNING, types.MessageType.Warning),
              (logging.INFO, types.MessageType.Info))

    def __init__(self, server: AgentsLanguageServer) -> None:
        super().__init__(logging.INFO)
        self.server = server
        self._loop: asyncio.AbstractEventLoop | None = None

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
        try:
            self.server.window_log_message(params)
        except Exception:  # no client yet, or the stream is gone: stderr has the record anyway
            pass


def configure(server: AgentsLanguageServer) -> None:
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    package_log = logging.getLogger("lsp_agents")
    package_log.setLevel(logging.INFO)
    package_log.addHandler(WindowLogHandler(server))
