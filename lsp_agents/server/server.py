"""The language server object. All state lives here: settings, one index per workspace folder,
the shared file cache with the unsaved-buffer overlay, the diagnostics store and the debounce.

What runs where: the event loop answers every request from this state, computing cascades with
the harness models within a bounded budget (`budget.guarded`). Discovery runs in a thread. The
analysis (findings) never runs in this process: `self.worker` runs it in a process of its own,
which it kills when it is stuck, and a thread waits on that process's pipe. Handlers in the
feature modules stay thin: they look things up here and call the core.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from collections.abc import Awaitable, Callable, Iterable, Sequence
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from lsp_agents import __version__
from lsp_agents.core.analysis import Item, Unit
from lsp_agents.core.compose import resolve_cwd
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses import HARNESSES, LaunchContext
from lsp_agents.core.positions import Located
from lsp_agents.core.project_settings import load_project_settings
from lsp_agents.core.settings import Settings, parse_settings
from lsp_agents.core.walk import ancestors, is_within
from lsp_agents.core.workspace import WorkspaceIndex
from lsp_agents.server import memory
from lsp_agents.server.budget import MISS_BUDGET_VARIABLE, RequestBudget
from lsp_agents.server.diagnostics import DiagnosticStore
from lsp_agents.server.folder import Folder
from lsp_agents.server.progress import WorkDoneProgress
from lsp_agents.server.protocol import AgentsProtocol
from lsp_agents.server.scheduler import Scheduler
from lsp_agents.server.uris import path_of, uri_of
from lsp_agents.server.watch import Watching
from lsp_agents.workers import AnalysisWorker, FolderSpec, Outcome, WorkerError, usable_cpus

SECTION = "lspAgents"
ANALYSIS_COMPLETE = "lspAgents/analysisComplete"
log = logging.getLogger(__name__)


class Stopped(Exception):
    """The server is shutting down: background work ends where it is."""


def worker_killed(step: Item | None, why: str) -> None:
    """The editor's log says when the analysis had to be stopped, and where (its findings say
    which step is not evaluated): a sign of hostile content, or of a bug."""
    where = f"{step.harness} launched in {step.cwd}" if isinstance(step, Unit) else step or "an unknown step"
    log.warning("analysis worker stopped in %s: %s; it starts again", where, why)


def merged(*layers: object) -> dict[str, object]:
    """Settings layers merged recursively, later ones winning; non-dicts are skipped."""
    result: dict[str, object] = {}
    for layer in layers:
        if not isinstance(layer, dict):
            continue
        for key, value in layer.items():
            if isinstance(value, dict) and isinstance(previous := result.get(key), dict):
                result[key] = merged(previous, value)
            else:
                result[key] = value
    return result


class AgentsLanguageServer(LanguageServer):
    """pygls' server plus the session's state; one instance per editor session (no globals, so
    tests and multiple sessions in one process never share a cache)."""

    protocol: AgentsProtocol

    def __init__(self) -> None:
        super().__init__(
            "lsp-agents", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental, protocol_cls=AgentsProtocol
        )
        self.fs = FileSystem()
        self.worker = AnalysisWorker()
        self.worker.on_kill = worker_killed
        self.env = dict(os.environ)  # what a harness launched now would see, as the CLI reads it
        self.folders: dict[str, Folder] = {}
        self.init_options: dict[str, object] = {}
        self.settings = Settings()  # outside every folder
        self.diagnostics = DiagnosticStore(self)
        self.scheduler = Scheduler(self)
        self.request_budget = RequestBudget(n.strip() for n in self.env.get(MISS_BUDGET_VARIABLE, "").split(",") if n.strip())
        self.watching: Watching | None = None  # once initialized
        self.stopping = False  # after `shutdown`: no new work starts, running work is cancelled
        self.first_analysis = asyncio.Event()  # set once the folders given at start are analysed
        self._tasks: set[asyncio.Task[None]] = set()
        self.protocol.on_exit = self.end_work_on_exit

    # -- tasks ------------------------------------------------------------------------------
    def run_task(self, work: Awaitable[None]) -> asyncio.Task[None]:
        """Start background work, keep it referenced, and log its failure instead of losing it."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self._tasks.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                log.error("background task failed", exc_info=finished.exception())

        task.add_done_callback(done)
        return task

    # -- lookups ----------------------------------------------------------------------------
    def folder_for(self, path: str) -> Folder | None:
        """The innermost workspace folder holding `path` (folders can nest)."""
        holding = [f for f in list(self.folders.values()) if is_within(path, f.root)]  # copied at once: threads ask too
        return max(holding, key=lambda f: len(f.root), default=None)

    def settings_for(self, path: str | None) -> Settings:
        folder = self.folder_for(path) if path else None
        return folder.settings if folder else self.settings

    def home(self, settings: Settings) -> str:
        return os.path.abspath(os.path.expanduser(settings.home)) if settings.home else os.path.expanduser("~")

    def launch_directory(self, path: str) -> str:
        """Where the harness is assumed launched for `path`: by default its workspace folder.

        A folder named by the setting must lie inside the workspace folder, whoever set it: the
        editor's answer merges in the repository's own workspace settings (.vscode/settings.json)."""
        folder = self.folder_for(path)
        settings = folder.settings if folder else self.settings
        file_dir = path if os.path.isdir(path) else os.path.dirname(path)
        if folder is None or settings.launch_directory == "fileDirectory":
            return resolve_cwd(file_dir)
        if settings.launch_directory == "workspaceRoot":
            return resolve_cwd(folder.root)
        root, chosen = resolve_cwd(folder.root), resolve_cwd(os.path.join(folder.root, settings.launch_directory))
        if not is_within(chosen, root):
            # The setting may come from the workspace's own settings: it never leads out of the folder.
            log.warning("launchDirectory %r is outside the workspace folder; using the workspace root", settings.launch_directory)
            return root
        if not os.path.isdir(chosen):
            log.warning("launchDirectory %r is not a directory; using the workspace root", settings.launch_directory)
            return root
        return chosen

    def context(self, path: str, cwd: str | None = None) -> LaunchContext:
        settings = self.settings_for(path)
        folder = self.folder_for(path)
        return LaunchContext(
            cwd=resolve_cwd(cwd) if cwd else self.launch_directory(path),
            home=self.home(settings),
            fs=self.fs,
            env=self.env,
            options=settings.harness_options(),
            index=folder.index_soon() if folder is not None else None,
        )

    def enabled_harnesses(self, path: str) -> list[str]:
        """The harnesses the analysis models for this file's folder (all until it has detected them)."""
        folder = self.folder_for(path)
        if folder is not None and folder.harnesses is not None:
            return [h for h in folder.harnesses if h in HARNESSES]
        settings = self.settings_for(path)
        return list(HARNESSES) if settings.harnesses == "auto" else list(settings.harnesses)

    def open_document(self, path: str) -> TextDocument | None:
        """The editor's document of `path` when it is open (pygls keys them by unquoted URI), else None.
        Never pygls' `get_text_document`: for a file not open it reads the disk unbounded."""
        document: TextDocument | None = self.workspace.text_documents.get(unquote(uri_of(path)))
        return document

    def document_text(self, path: str) -> str:
        """The editor's text when the file is open, else the disk's (through the cache)."""
        document = self.open_document(path)
        return document.source if document is not None else self.fs.read(path).text()

    def lines_of(self, path: str) -> list[str]:
        return self.document_text(path).splitlines(keepends=True)

    # -- settings ---------------------------------------------------------------------------
    def _parse(self, raw: dict[str, object], source: str) -> Settings:
        settings, messages = parse_settings(raw, source)
        for message in messages:
            log.warning("%s", message)
        return settings

    async def load_settings(self) -> None:
        """Defaults < lsp-agents.toml / pyproject < initializationOptions < workspace/configuration.

        The repository's own files never set what only the user may (`home`, fetching): those
        come from the editor alone."""
        folders = list(self.folders.values())
        answers: Sequence[object] = [None] * (len(folders) + 1)
        workspace_caps = self.client_capabilities.workspace
        if workspace_caps is not None and workspace_caps.configuration:
            items = [types.ConfigurationItem(section=SECTION)]
            items += [types.ConfigurationItem(scope_uri=f.uri, section=SECTION) for f in folders]
            try:
                answers = await self.workspace_configuration_async(types.ConfigurationParams(items=items))
            except Exception:
                log.exception("workspace/configuration failed; using initializationOptions only")
        self.settings = self._parse(merged(self.init_options, answers[0]), "settings")
        for folder, answer in zip(folders, answers[1:], strict=False):  # a client may answer fewer items than asked
            project, messages = load_project_settings(folder.root)
            for message in messages:
                log.warning("%s", message)
            raw = merged(dict(project.given), self.init_options, answer)
            folder.settings = self._parse(raw, f"settings for {folder.root}")

    def set_init_options(self, options: object) -> None:
        """Editors send either the settings themselves or `{"lspAgents": {...}}`."""
        if isinstance(options, dict) and isinstance(options.get(SECTION), dict):
            options = options[SECTION]
        if options is not None and not isinstance(options, dict):
            log.warning("initializationOptions: expected an object of settings; ignoring them")
            options = None
        self.init_options = options or {}

    # -- folders ----------------------------------------------------------------------------
    def add_folder(self, uri: str) -> Folder | None:
        root = path_of(uri)
        if root is None or not os.path.isdir(root):
            log.warning("ignoring workspace folder %s: not a local directory", uri)
            return None
        if self.fs.is_system(root):
            log.warning("ignoring workspace folder %s: it leads into /proc, /sys or /dev, which are never read", uri)
            return None
        folder = Folder(uri, root, self.settings, WorkspaceIndex(root, self.fs))
        self.folders[root] = folder
        return folder

    def remove_folder(self, uri: str) -> None:
        root = path_of(uri)
        folder = self.folders.pop(root, None) if root else None
        if folder is not None:
            self.worker.close(folder.root)
            self.diagnostics.forget_folder(folder)

    async def index_folder(self, folder: Folder) -> None:
        """Discover and analyse a folder off the event loop, reporting progress to the editor.

        Requests are answered meanwhile (from the harness models directly). The findings each
        instruction file earns on its own are published as soon as discovery is done; the rest
        when the analysis is. `shutdown` stops both phases where they are.
        """
        async with folder.lock:
            if self.stopping:
                return
            try:
                await self._index_and_analyse(folder)
            except Stopped:
                log.info("analysis of %s stopped: the server is shutting down", folder.root)
            except Exception as exc:  # one folder's failure never stops the others, nor the requests
                log.error("no diagnostics for %s: its analysis failed (%s: %s)", folder.root, type(exc).__name__, exc)
                log.debug("the analysis of %s failed", folder.root, exc_info=True)
                folder.ready.set()  # the edits scheduled meanwhile must not wait for it forever

    async def _index_and_analyse(self, folder: Folder) -> None:
        folder.ready.clear()
        folder.analysed = False
        folder.renew(WorkspaceIndex(folder.root, self.fs, exclude=folder.settings.exclude))
        async with self.reporting_progress(f"Indexing {os.path.basename(folder.root) or folder.root}") as report:
            loop = asyncio.get_running_loop()

            def seen(count: int) -> None:
                if self.stopping:
                    raise Stopped
                loop.call_soon_threadsafe(report, f"{count:,} files")

            await asyncio.to_thread(folder.walk, seen)
            # A request answered before the index existed walked the tree itself; the listings
            # and stats it cached for the whole tree (13 MiB on 100,000 files) are not needed now.
            self.fs.forget_metadata()
            for warning in folder.index.warnings:
                log.warning("%s", warning)

            def step(what: str, done: int, total: int) -> None:
                loop.call_soon_threadsafe(report, f"{what} {done}/{total}")

            outcome = await self._analyse(folder, step)
            if self.stopping:
                raise Stopped
            imports_moved = self.watching is not None and self.watching.apply_imports(
                await asyncio.to_thread(self.watching.imports_of, list(folder.index.instruction_files))
            )
            if self.stopping:  # `shutdown` came while the imports were read: publish nothing
                raise Stopped
        self.fs.forget_metadata()  # the stats of every path probed on the way
        if self.folders.get(folder.root) is folder and outcome is not None:
            self.diagnostics.replace_folder(folder, outcome.findings)
        elif self.folders.get(folder.root) is folder:
            self.notify_analysis_complete(folder)
        if imports_moved and self.watching is not None and self.watching.by_client:
            await self.watching.register()
        # What remains lives as long as the session; left in the collector's view, every full
        # collection walks its 100,000s of objects and stalls a keystroke by 100 ms or more.
        memory.settle_after_analysis()  # collects: the collector ran seldom meanwhile, and what it left must not be frozen
        gc.freeze()
        folder.ready.set()

    async def _analyse(self, folder: Folder, step: Callable[[str, int, int], None]) -> Outcome[Located] | None:
        """The folder's first analysis, in the worker: the findings each file earns on its own
        are published as soon as they are known, then all of them are returned. None when the
        analysis cannot run (hover, links and commands still work)."""
        spec = FolderSpec(folder.index.snapshot(), folder.settings, self.home(folder.settings), self.env)
        try:
            opened = await asyncio.to_thread(self.worker.open, spec)
            folder.harnesses, folder.analysed = opened.harnesses, True
            for warning in dict.fromkeys(opened.warnings):
                log.warning("%s", warning)
            if self.stopping:
                return None
            early = await asyncio.to_thread(self.worker.early, folder.root, self.encoding)
            self.diagnostics.publish_early(early.findings)
            return await asyncio.to_thread(self.worker.analyse_all, folder.root, self.encoding, usable_cpus(), step)
        except WorkerError as exc:
            if not self.stopping:
                log.error("no diagnostics for %s: the analysis failed: %s", folder.root, exc)
            return None

    @property
    def encoding(self) -> str:
        """The editor's position encoding, in which the worker gives the findings' ranges."""
        return getattr(self.workspace.position_codec, "name", "utf-16")

    async def reindex(self) -> None:
        self.fs.invalidate()
        await asyncio.gather(*(self.index_folder(f) for f in list(self.folders.values())))

    def reporting_progress(self, title: str) -> WorkDoneProgress:
        """Work-done progress around a piece of work (not pygls' `progress`, which sends one notification)."""
        return WorkDoneProgress(self, title)

    # -- file changes -----------------------------------------------------------------------
    def files_changed(self, paths: Iterable[str]) -> None:
        """Created, changed or deleted on disk: forget the cache, update the indexes, re-analyse.

        A path outside every folder (a global file in the home directory) can change any cascade,
        so every folder re-analyses its instruction files then.
        """
        by_folder: dict[str, set[str]] = {}
        for path in paths:
            folder = self.folder_for(path)
            stop = folder.root if folder else os.path.dirname(path)
            for directory in ancestors(path, stop):
                self.fs.invalidate(directory)
            if folder is None:
                for other in self.folders.values():
                    by_folder.setdefault(other.root, set()).update({path, *other.index.instruction_files})
                continue
            below = [p for p in folder.index.instruction_files if is_within(p, path) and p != path]
            for changed in [path, *below]:  # the worker's own index follows when it re-analyses them
                folder.index.update(changed)
            by_folder.setdefault(folder.root, set()).update([path, *below])  # a deleted directory takes its files
        for root, folder_paths in by_folder.items():
            self.scheduler.schedule(self.folders[root], folder_paths)

    def document_changed(self, uri: str, text: str | None) -> None:
        """An editor buffer opened or changed (`text`), or closed (None): it overrides the disk."""
        path = path_of(uri)
        if path is None:
            return
        if text is None:
            self.fs.clear_overlay(path)
        else:
            self.fs.set_overlay(path, text)
        self.worker.overlay(path, text)
        if (folder := self.folder_for(path)) is not None:
            self.scheduler.schedule(folder, {path})

    def notify_analysis_complete(self, folder: Folder) -> None:
        """An explicit end-of-analysis signal, so clients and tests know when to look."""
        self.protocol.notify(ANALYSIS_COMPLETE, {"folder": folder.uri, "files": len(folder.index.instruction_files)})

    def end_work_on_exit(self) -> None:
        """`exit` without `shutdown` ends the analysis worker too."""
        if not self.stopping:
            self.shutdown_work()

    def shutdown_work(self) -> None:
        """Stop timers, watchers and background work so that `exit` finds nothing running: the
        analysis worker is killed where it is."""
        self.stopping = True
        self.worker.stop()
        self.scheduler.cancel()
        if self.watching is not None:
            self.watching.stop()
        for task in list(self._tasks):
            task.cancel()
