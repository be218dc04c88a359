"""A workspace folder as the language server keeps it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from lsp_agents.core.settings import Settings
from lsp_agents.core.workspace import WorkspaceIndex

# How long a request may wait for a walk of the tree under way to end (`Folder.index_soon`),
# within its own budget: the walk's index answers at once, a walk of the request's own would
# take about as long beside it.
INDEX_WAIT_SECONDS = 0.3


@dataclass(eq=False)
class Folder:
    """One workspace folder: its index, its settings, and how far its analysis is.

    `indexed` once discovery is complete (until then harness models walk the tree themselves),
    `analysed` while the worker holds the folder's analysis, `ready` once the first analysis is
    done; `lock` lets one analysis of the folder run at a time. `scanned` is set by the thread
    that walks the tree when its walk ends (`indexed` too, when it completed): a request answered
    meanwhile waits for it a little (`index_soon`) rather than walk the tree a second time beside it.
    """

    uri: str
    root: str
    settings: Settings
    index: WorkspaceIndex
    harnesses: list[str] | None = None  # the harnesses the analysis models, once the worker has the folder
    analysed: bool = False
    indexed: bool = False
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    walking: bool = False  # while the thread walks the tree (not before it starts: nothing to wait for yet)
    scanned: threading.Event = field(default_factory=threading.Event)

    def renew(self, index: WorkspaceIndex) -> None:
        """A new index, not walked yet (on the event loop, before the walk's thread starts)."""
        self.index, self.indexed = index, False
        self.scanned.clear()

    def walk(self, seen: Callable[[int], None]) -> None:
        """Discovery, in the thread that walks the tree: `indexed` is set here, not on the event
        loop, since a request may be waiting for it there."""
        self.walking = True
        try:
            self.index.scan(seen)
            self.indexed = True
        finally:
            self.walking = False
            self.scanned.set()

    def index_soon(self, seconds: float = INDEX_WAIT_SECONDS) -> WorkspaceIndex | None:
        """The index once discovery is complete, waiting up to `seconds` for a walk under way to
        end (the index it builds answers at once what a walk of the tree's own would take as
        long to find); None when it is not done by then, or no walk has started (one waiting for
        the client, as for its progress report, cannot start while a request waits)."""
        if not self.indexed and self.walking:
            self.scanned.wait(seconds)
        return self.index if self.indexed else None
