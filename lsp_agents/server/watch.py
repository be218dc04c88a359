"""Knowing when instruction files change on disk.

The editor watches the workspace when it can (`workspace/didChangeWatchedFiles`, registered
dynamically for the instruction-file patterns and the files they import); when it cannot, and
always for the harnesses' global directories in the home directory (editors only watch the
workspace), the server watches itself with watchfiles.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Iterable
from typing import Protocol

from lsprotocol import types

from lsp_agents.core.harnesses.tables import global_folders, tables
from lsp_agents.core.patterns import IgnorePatterns
from lsp_agents.core.project_settings import SETTINGS_FILE
from lsp_agents.core.settings import Settings
from lsp_agents.server.folder import Folder
from lsp_agents.server.references import references

log = logging.getLogger(__name__)
REGISTRATION_ID = "lsp-agents-watched-files"
MAX_IMPORT_WATCHERS = 200  # imported files watched one by one; past that, every Markdown file
# The ignore files discovery honours, and lsp-agents' own settings.
OWN_PATTERNS = ("**/.gitignore", f"**/{SETTINGS_FILE}")


class Watched(Protocol):
    """What the watching needs of the language server: its folders and settings, the client, and
    where to say that files changed."""

    folders: dict[str, Folder]
    settings: Settings
    env: dict[str, str]

    @property
    def client_capabilities(self) -> types.ClientCapabilities: ...

    def home(self, settings: Settings) -> str: ...

    def folder_for(self, path: str) -> Folder | None: ...

    def document_text(self, path: str) -> str: ...

    def run_task(self, work: Awaitable[None]) -> object: ...

    async def client_register_capability_async(self, params: types.RegistrationParams) -> None: ...

    async def client_unregister_capability_async(self, params: types.UnregistrationParams) -> None: ...

    def files_changed(self, paths: Iterable[str]) -> None: ...


def watch_patterns(settings: Settings) -> list[str]:
    """Globs for every file the harnesses read in a workspace, with the user's extra names."""
    names = [*(settings.gemini.file_names or ()), *(settings.codex.fallback_filenames or ())]
    return list(dict.fromkeys([*tables().workspace_globs, *OWN_PATTERNS, *(f"**/{name}" for name in names)]))


def global_directories(server: Watched) -> list[str]:
    """The per-user folders of every harness that exist, where the server's environment puts them."""
    return [d for d in global_folders(server.home(server.settings), server.env) if os.path.isdir(d)]


def is_global_file(path: str) -> bool:
    """Whether a file in a per-user folder is one a harness reads: by name, or in a folder of rules,
    skills, agents or commands — or such a folder itself: a folder created with its files at once
    (`mkdir -p ~/.continue/rules && cp …`) can hold files written before the watcher saw the folder,
    so the folder's own event must re-read it."""
    known = tables()
    name = os.path.basename(path)
    return (
        name in known.global_names
        or name in known.global_subfolders
        or any(f"{os.sep}{f}{os.sep}" in path for f in known.global_subfolders)
    )


def client_can_watch(server: Watched) -> bool:
    workspace = server.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace else None
    return bool(watched and watched.dynamic_registration)


class Watching:
    """All file watching of a session: the editor's registration (renewed when the set of
    imported files changes), and watchfiles over the global directories, plus the workspace
    folders when the editor cannot watch."""

    def __init__(self, server: Watched) -> None:
        self.server = server
        self.by_client = False
        self.imports: dict[str, set[str]] = {}  # instruction file -> workspace files it imports
        self._registered: tuple[str, list[str]] | None = None  # (registration id, patterns)
        self._generation = 0
        self._renewing = asyncio.Lock()
        self._stop: asyncio.Event | None = None
        self._relevant: tuple[tuple[str, ...], IgnorePatterns] | None = None  # the patterns last matched, compiled

    async def start(self) -> None:
        self.by_client = client_can_watch(self.server)
        if self.by_client:
            await self.register()
        else:
            log.info("the client cannot watch files; watching the workspace from the server")
        self.restart()

    def patterns(self, settings: Settings) -> list[str]:
        folders, imports = list(self.server.folders.values()), list(self.imports.values())  # copied at once
        imported = sorted(
            {
                f"**/{i}"
                for folder in folders
                for targets in imports
                for t in targets
                if folder.index.contains(t)
                for i in [folder.index.relative(t)]
            }
        )
        if len(imported) > MAX_IMPORT_WATCHERS:  # one pattern per file would make a registration of megabytes
            imported = ["**/*.md", *[p for p in imported if not p.endswith(".md")][:MAX_IMPORT_WATCHERS]]
        return list(dict.fromkeys([*watch_patterns(settings), *imported]))

    def imports_of(self, paths: Iterable[str]) -> dict[str, set[str] | None]:
        """The workspace files these instruction files import (None: no longer an instruction
        file). Reads only, so that it may run in a thread while the event loop uses `imports`."""
        found: dict[str, set[str] | None] = {}
        for path in paths:
            folder = self.server.folder_for(path)
            if folder is None or path not in folder.index.instruction_files:
                found[path] = None
                continue
            refs = references(self.server.document_text(path), path, self.server.home(folder.settings))
            found[path] = {r.target for r in refs if r.is_import and folder.index.contains(r.target)}
        return found

    def apply_imports(self, found: dict[str, set[str] | None]) -> bool:
        """Record what `imports_of` read (on the event loop); True when the imported set changed."""
        before = set().union(*self.imports.values())
        for path, targets in found.items():
            if targets is None:
                self.imports.pop(path, None)
            else:
                self.imports[path] = targets
        return set().union(*self.imports.values()) != before

    def read_imports(self, paths: Iterable[str]) -> bool:
        """Re-read the imports of these instruction files; True when the imported set changed."""
        return self.apply_imports(self.imports_of(paths))

    def track_imports(self, paths: Iterable[str]) -> None:
        if self.read_imports(paths) and self.by_client:
            self.server.run_task(self.register())

    async def register(self) -> None:
        """Register the current patterns under a new id, then drop the previous registration.
        One at a time: two renewals in flight would both drop the same predecessor."""
        async with self._renewing:
            await self._register()

    async def _register(self) -> None:
        patterns = self.patterns(self.server.settings)
        if self._registered is not None and patterns == self._registered[1]:
            return
        method = types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        previous, self._generation = self._registered, self._generation + 1
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=p) for p in patterns]
        )
        registration = types.Registration(id=f"{REGISTRATION_ID}-{self._generation}", method=method, register_options=options)
        try:
            await self.server.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
        except Exception:
            log.exception("the client refused to watch files; watching the workspace from the server")
            self.by_client = False
            self.restart()
            return
        self._registered = (registration.id, patterns)
        if previous is not None:
            try:
                await self.server.client_unregister_capability_async(
                    types.UnregistrationParams(unregisterations=[types.Unregistration(id=previous[0], method=method)])
                )
            except Exception:  # two overlapping registrations only cost duplicate events
                log.warning("the client could not drop the previous file watchers", exc_info=True)

    def relevant(self, path: str) -> bool:
        folder = self.server.folder_for(path)
        if folder is None:  # a global directory
            return is_global_file(path)
        patterns = tuple(self.patterns(folder.settings))
        if self._relevant is None or self._relevant[0] != patterns:
            self._relevant = patterns, IgnorePatterns(patterns)
        return self._relevant[1].match(folder.index.relative(path))

    def restart(self) -> None:
        """(Re)start watchfiles over the current directories: call after folders change."""
        self.stop()
        paths = global_directories(self.server)
        if not self.by_client:
            paths += [f.root for f in self.server.folders.values()]
        if paths:
            self._stop = asyncio.Event()
            self.server.run_task(self._run(paths, self._stop))

    def stop(self) -> None:
        if self._stop is not None:
            self._stop.set()
            self._stop = None

    async def _run(self, paths: list[str], stop: asyncio.Event) -> None:
        import watchfiles

        log.info("watching %s", ", ".join(paths))
        keep = watchfiles.DefaultFilter()
        only = lambda change, path: keep(change, path) and self.relevant(path)
        async for changes in watchfiles.awatch(
            *paths, watch_filter=only, stop_event=stop, debounce=50, step=10, recursive=True, ignore_permission_denied=True
        ):
            self.server.files_changed({path for _change, path in changes})
