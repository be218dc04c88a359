"""The worker process: keeps an analyzer per workspace folder and answers requests one at a time.

It runs in a process group of its own, so that killing it also ends the processes it forks to
share a full analysis. It reports each step it starts only from itself: the forked helpers
compute their share silently (several writers on one pipe would garble it).
"""

from __future__ import annotations

import gc
import os
import traceback
from collections.abc import Mapping
from multiprocessing.connection import Connection

from lsp_agents.core.analysis import Analyzer, Item
from lsp_agents.core.disk import Journal
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.model import Finding
from lsp_agents.core.positions import Located, locate
from lsp_agents.core.walk import ancestors
from lsp_agents.core.workspace import WorkspaceIndex
from lsp_agents.workers.messages import (
    AnalyseAll,
    AnalysePaths,
    Close,
    Early,
    Open,
    Opened,
    Outcome,
    Overlays,
    Reply,
    Request,
    StepProgress,
    starting,
)


def main(conn: Connection, first: Request | None = None) -> None:
    """The worker's life: `first` (a request it was forked with: its data is not sent through
    the pipe), then requests until the pipe closes."""
    if hasattr(os, "setsid"):
        os.setsid()
    # The analysis builds millions of long-lived objects; with the default thresholds the
    # collector rescans them hundreds of times during a full analysis (half its time).
    gc.set_threshold(100_000, 50, 100)
    host = Host(conn)
    while True:
        if first is not None:
            request, first = first, None
        else:
            try:
                request = conn.recv()
            except (EOFError, OSError):
                return
        try:
            reply: Reply = ("done", host.handle(request))
        except Exception:  # noqa: BLE001 - any failure goes back to the front end, which reports it; the worker lives on
            reply = ("failed", traceback.format_exc(limit=-4))
        try:
            conn.send(reply)
        except OSError:  # the front end is gone
            return
        host.after_reply()


class Host:
    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.pid = os.getpid()
        self.fs = FileSystem()
        self.analyzers: dict[str, Analyzer] = {}
        self._unsettled = False  # a full analysis was answered: `_settle` follows the reply

    def handle(self, request: Request) -> object:
        match request:
            case Open():
                return self._open(request)
            case Close(root=root):
                self.analyzers.pop(root, None)
                return None
            case Overlays(texts=texts):
                self._overlay(texts)
                return None
            case Early(root=root, encoding=encoding):
                analyzer = self.analyzers[root]
                return self._outcome(analyzer, analyzer.early_findings(), encoding, complete=False)
            case AnalyseAll(root=root, encoding=encoding, workers=workers):
                analyzer = self.analyzers[root]
                found = analyzer.analyse_all(workers=workers)
                self._unsettled = True
                return self._outcome(analyzer, found, encoding, complete=True)
            case AnalysePaths(root=root, paths=paths, encoding=encoding):
                analyzer = self.analyzers[root]
                for path in paths:  # a created or deleted file changes its folders' listings
                    for directory in ancestors(path, root):
                        self.fs.invalidate(directory)
                return self._outcome(analyzer, analyzer.analyse_paths(paths), encoding, complete=False)
        raise TypeError(f"not a request: {request!r}")

    def _open(self, request: Open) -> Opened:
        spec = request.spec
        if request.journal:
            self.fs.journal = Journal(self.fs.max_read_bytes)
        index = WorkspaceIndex.from_snapshot(spec.snapshot, self.fs)
        for path in sorted(request.updated):
            index.update(path)
        analyzer = Analyzer(index, spec.settings, home=spec.home, env=spec.env, stopped=request.stopped)
        analyzer.starting = self._starting
        analyzer.progress = self._progress
        self.analyzers[spec.root] = analyzer
        return Opened(list(analyzer.harnesses), list(analyzer.warnings))

    def _overlay(self, texts: Mapping[str, str | None]) -> None:
        for path, text in texts.items():
            if text is None:
                self.fs.clear_overlay(path)
            else:
                self.fs.set_overlay(path, text)

    def _starting(self, item: Item) -> None:
        if os.getpid() == self.pid:
            self.conn.send_bytes(starting(item))

    def _progress(self, what: str, done: int, total: int) -> None:
        if os.getpid() == self.pid:
            message: StepProgress = ("progress", what, done, total)
            self.conn.send(message)

    def _lines(self, path: str) -> list[str]:
        return self.fs.read(path).text().splitlines(keepends=True)

    def _outcome(
        self, analyzer: Analyzer, found: Mapping[str, list[Finding]], encoding: str | None, *, complete: bool
    ) -> Outcome[Located] | Outcome[Finding]:
        journal = None if self.fs.journal is None else dict(self.fs.journal.entries)
        if encoding is None:
            return Outcome(found, list(analyzer.warnings), complete, journal)
        located = {path: locate(findings, self._lines, encoding) for path, findings in found.items()}
        return Outcome(located, list(analyzer.warnings), complete, journal)

    def after_reply(self) -> None:
        """What need not hold up the reply: `_settle` after a full analysis (the CLI's `check`
        has its findings meanwhile, and ends the worker without waiting for it)."""
        if self._unsettled:
            self._unsettled = False
            self._settle()

    def _settle(self) -> None:
        """After a full analysis: forget the stats of every path probed on the way, and keep what
        remains out of the collector's view (it lives as long as the session)."""
        self.fs.forget_metadata()
        gc.collect()
        gc.freeze()
