"""The incremental analysis after edits, coalesced per folder."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable
from typing import Protocol

from lsp_agents.server.diagnostics import DiagnosticStore
from lsp_agents.server.folder import Folder
from lsp_agents.server.watch import Watching


class Scheduled(Protocol):
    """What the scheduler needs of the language server: its folders, where findings go, and a
    way to run background work."""

    folders: dict[str, Folder]
    diagnostics: DiagnosticStore
    watching: Watching | None
    stopping: bool

    def run_task(self, work: Awaitable[None]) -> object: ...


class Scheduler:
    """Coalesces changes per folder and runs the incremental analysis `debounceMs` after the last.

    A timer handle (not a sleeping task) is rescheduled, so an analysis already running is never
    cancelled half-way and no changed path is lost.
    """

    def __init__(self, server: Scheduled) -> None:
        self.server = server
        self._pending: dict[str, set[str]] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}

    def schedule(self, folder: Folder, paths: Iterable[str]) -> None:
        self._pending.setdefault(folder.root, set()).update(paths)
        if (timer := self._timers.pop(folder.root, None)) is not None:
            timer.cancel()
        delay = folder.settings.debounce_ms / 1000
        self._timers[folder.root] = asyncio.get_running_loop().call_later(delay, self._fire, folder)

    def _fire(self, folder: Folder) -> None:
        self._timers.pop(folder.root, None)
        self.server.run_task(self._analyse(folder))

    async def _analyse(self, folder: Folder) -> None:
        await folder.ready.wait()
        async with folder.lock:
            paths = self._pending.pop(folder.root, set())
            if paths and self.server.folders.get(folder.root) is folder and not self.server.stopping:
                await self.server.diagnostics.refresh(folder, paths)
                if self.server.watching is not None:
                    self.server.watching.track_imports(paths)

    def cancel(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
