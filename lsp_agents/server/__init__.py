"""The language server: `lsp-agents serve` puts the core and the analysis in every editor."""

from __future__ import annotations

import gc

from lsp_agents.server import logs, memory
from lsp_agents.server.server import AgentsLanguageServer

FEATURES = ("lifecycle", "pull_diagnostics", "commands", "hover", "links", "codelens", "actions", "symbols")


def create_server() -> AgentsLanguageServer:
    """A fresh server with every feature module registered on it (one instance per session)."""
    import importlib

    server = AgentsLanguageServer()
    for name in FEATURES:
        importlib.import_module(f"lsp_agents.server.{name}").register(server)
    return server


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Run until the client says exit. Logs go to stderr (stdout carries the protocol) and, from
    lsp_agents' own loggers, to the editor's log."""
    # The analysis builds millions of long-lived objects; with the default thresholds the
    # collector rescans them hundreds of times during the initial analysis (half its time).
    gc.set_threshold(100_000, 50, 100)
    memory.one_malloc_arena()
    server = create_server()
    logs.configure(server)
    if tcp is not None:
        server.start_tcp(*tcp)
    else:
        server.start_io()
