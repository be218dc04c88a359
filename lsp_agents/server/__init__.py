"""The language server: `lsp-agents serve` puts the core and the analysis in every editor.

Threads, processes and state:
- The event loop (one thread, pygls) runs every handler. The feature modules (`FEATURES`) stay
  thin: they read the server object's state (`server.py`: the settings, one `Folder` per workspace
  folder with its index, the shared `FileSystem` with the unsaved-buffer overlay, the published
  diagnostics) and call the core. A cascade a request needs is computed on the loop within the
  request's budget (`budget.guarded`), so every request is answered whatever the workspace holds.
- Discovery (a folder's index scan, the list of imported files to watch) runs in a thread
  (`asyncio.to_thread`); its progress and every log record reach the client through the loop
  (`call_soon_threadsafe`, `logs.py`: the transport is not thread-safe).
- Findings are never computed in this process. `server.worker` (`lsp_agents/workers/pool.py`)
  runs the analysis in a process of its own, kills it when it is stuck and starts another; a
  thread waits on its pipe, one call at a time, and a folder's `lock` lets one analysis of that
  folder run at a time. The unsaved buffers go to the worker with each request (a lock of their
  own: any thread may update them). The harness comparison runs in a process of its own too
  (`lsp_agents/workers/comparison.py`), stopped at its deadline or at shutdown.
- The shared `FileSystem` is read by the loop and the discovery thread: its caches are plain
  dictionaries whose single lookups and stores are atomic, and whose entries depend on the path
  alone (two threads computing one entry store the same value). A change on disk or in a buffer
  invalidates the paths it touches; a buffer's text wins over the disk. The worker process keeps a
  file system of its own, told of the same changes.
- Imports go one way: `server.py` imports the state it holds, the feature modules import it,
  never the reverse (`tests/test_boundary.py`).
"""

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
    try:
        if tcp is not None:
            server.start_tcp(*tcp)
        else:
            server.start_io()
    finally:  # also when the client closed the stream without `exit`
        server.worker.stop()
