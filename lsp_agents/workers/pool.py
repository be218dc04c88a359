"""The front end's side of the worker process: start it, ask, wait, and kill it when it is stuck.

A worker that says nothing for SILENCE_SECONDS (it reports every step it starts and its
progress) is stuck, and is killed with its process group once that group has also computed for
SILENCE_SECONDS more (where /proc gives CPU times; elsewhere at once): a busy machine slows a
worker down without making it stuck. One that waits without computing is killed after
WALL_FACTOR times SILENCE_SECONDS. The step it was in is marked as stopped for its folder; when
it was sharing the work with forked helpers and no step can be blamed, that folder is analysed
in one process from then on, so that the next stop finds the step. The worker is then started
again, the folders and unsaved buffers are given to it again, and the request is repeated (an
incremental one as a full analysis: the new worker knows nothing yet).

Calls block; the language server makes them from a thread (one at a time: a lock), so its
event loop only waits on a pipe.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TypeVar, overload

from lsp_agents.core.analysis import Item
from lsp_agents.core.model import Finding
from lsp_agents.core.positions import Located
from lsp_agents.core.timelimit import WALL_FACTOR
from lsp_agents.workers.messages import (
    AnalyseAll,
    AnalysePaths,
    Close,
    Early,
    FolderSpec,
    Message,
    Open,
    Opened,
    Outcome,
    Overlays,
    Request,
    started,
)
from lsp_agents.workers.processes import group_cpu_seconds, kill_group, start_daemon, start_folder, start_method

SILENCE_SECONDS = 10.0  # no message from the worker for this long, computing: it is stuck
RESTARTS = 8  # a request is tried again at most this many times after a kill
_POLL_SECONDS = 0.1
Progress = Callable[[str, int, int], None]
Killed = Callable[[Item | None, str], None]  # the step the worker was in (None: unknown), and why it was stopped
Answer = TypeVar("Answer")


class WorkerError(Exception):
    """The worker failed to answer a request (an error it reported, or too many restarts)."""


class _Stuck(Exception):
    def __init__(self, item: Item | None, why: str) -> None:
        super().__init__(why)
        self.item = item
        self.why = why


def usable_cpus() -> int:
    """How many processes a full analysis is shared between."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


class AnalysisWorker:
    def __init__(self, *, may_fork: bool = False, silence: float = SILENCE_SECONDS) -> None:
        self._method = start_method(may_fork=may_fork)
        self.silence = silence
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._start_folder: str | None = None  # the fork server's socket folder, once one runs
        self._lock = threading.Lock()  # one request at a time
        self._buffers = threading.Lock()  # the unsaved buffers, updated from any thread without waiting
        self._folders: dict[str, FolderSpec] = {}
        self._updated: dict[str, set[str]] = {}  # per folder: the paths changed since it was given
        self._stopped: dict[str, dict[Item, str]] = {}  # per folder: steps killed, and why
        self._serial: set[str] = set()  # folders analysed without forked helpers since a kill
        self._analysed: set[str] = set()  # folders the current worker process has analysed in full
        self._overlays: dict[str, str] = {}  # every unsaved buffer, for a new worker
        self._unsent: dict[str, str | None] = {}  # buffer changes the worker has not been given yet
        self._closing: set[str] = set()  # folders to forget, told with the next request
        self._stopping = False
        self.kills = 0
        self.on_kill: Killed | None = None  # told of each kill, from the requesting thread (the server logs it)

    # -- requests ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start the process ahead of the first request (the language server does it while it
        indexes: starting a fork server and importing the analysis takes a while). A failure
        to start shows in the first request, which tries again."""
        with self._lock, contextlib.suppress(OSError):
            if not self._stopping:
                self._ensure_started()

    def open(self, spec: FolderSpec, *, journal: bool = False) -> Opened:
        """Give the worker a folder (again, after a re-index: what it knew of it is dropped).
        `journal`: its outcomes carry every disk call made (a worker started again after a kill
        does not journal: its outcomes carry none)."""
        self._folders.pop(spec.root, None)
        self._updated[spec.root] = set()
        self._stopped[spec.root] = {}
        self._serial.discard(spec.root)
        self._analysed.discard(spec.root)
        opened = _expect(Opened, self._request(Open(spec, journal=journal), spec.root))
        # A worker started again later is given the folder without the walk's listings: they tell
        # of the disk as it was walked, and files may have come since.
        self._folders[spec.root] = replace(spec, snapshot=replace(spec.snapshot, listings={}))
        return opened

    def close(self, root: str) -> None:
        """Forget a folder (told to the worker with its next request: this never waits)."""
        with self._buffers:
            self._folders.pop(root, None)
            self._updated.pop(root, None)
            self._stopped.pop(root, None)
            self._closing.add(root)

    def overlay(self, path: str, text: str | None) -> None:
        """An unsaved buffer's text (None: closed), given to the worker with its next request.
        Never waits, so the language server's event loop can call it."""
        with self._buffers:
            if text is None:
                self._overlays.pop(path, None)
            else:
                self._overlays[path] = text
            self._unsent[path] = text

    # Each analysis locates its findings in `encoding` (the language server's), or leaves them as
    # the core's spans when it is None (the CLI's).
    @overload
    def early(self, root: str, encoding: str, progress: Progress | None = None) -> Outcome[Located]: ...
    @overload
    def early(self, root: str, encoding: None, progress: Progress | None = None) -> Outcome[Finding]: ...
    def early(self, root: str, encoding: str | None, progress: Progress | None = None) -> Outcome[Located] | Outcome[Finding]:
        return _expect(Outcome, self._request(Early(root, encoding), root, progress))

    @overload
    def analyse_all(self, root: str, encoding: str, workers: int = 1, progress: Progress | None = None) -> Outcome[Located]: ...
    @overload
    def analyse_all(self, root: str, encoding: None, workers: int = 1, progress: Progress | None = None) -> Outcome[Finding]: ...
    def analyse_all(
        self, root: str, encoding: str | None, workers: int = 1, progress: Progress | None = None
    ) -> Outcome[Located] | Outcome[Finding]:
        return _expect(Outcome, self._request(AnalyseAll(root, encoding, workers), root, progress))

    @overload
    def analyse_paths(self, root: str, paths: set[str], encoding: str, progress: Progress | None = None) -> Outcome[Located]: ...
    @overload
    def analyse_paths(self, root: str, paths: set[str], encoding: None, progress: Progress | None = None) -> Outcome[Finding]: ...
    def analyse_paths(
        self, root: str, paths: set[str], encoding: str | None, progress: Progress | None = None
    ) -> Outcome[Located] | Outcome[Finding]:
        with self._buffers:
            self._updated.setdefault(root, set()).update(paths)
        return _expect(Outcome, self._request(AnalysePaths(root, frozenset(paths), encoding), root, progress))

    def stop(self) -> None:
        """End the worker and its helpers now, for good (the language server's `shutdown`, the
        CLI's exit); a request waiting on it ends with WorkerError. Callable from any thread."""
        self._stopping = True
        process = self._process
        if process is not None:
            kill_group(process)
        if self._start_folder is not None:
            # multiprocessing removes it at interpreter exit, which `lsp-agents` skips (os._exit):
            # without this, every editor session would leave a `pymp-…` folder in the temporary folder.
            shutil.rmtree(self._start_folder, ignore_errors=True)

    # -- the process ------------------------------------------------------------------------
    def _request(self, request: Request, root: str | None, progress: Progress | None = None) -> object:
        with self._lock:
            for _attempt in range(RESTARTS + 1):
                if self._stopping:
                    raise WorkerError("the analysis worker was stopped")
                born_with = self._birth_request(request)
                try:
                    self._ensure_started(born_with)
                except OSError as exc:  # out of processes, memory or descriptors
                    raise WorkerError(f"the analysis process could not be started: {exc}") from None
                if isinstance(request, AnalysePaths) and request.root not in self._analysed:
                    request = self._again(request, request.root)  # this process has not seen the folder yet
                try:
                    if born_with is None:
                        self._send_unsent()
                        answer = self._ask(request, progress)
                    else:
                        answer = self._await(progress)
                    if isinstance(request, AnalyseAll):
                        self._analysed.add(request.root)
                    return answer
                except _Stuck as stuck:
                    self._kill()
                    if self._stopping:
                        raise WorkerError("the analysis worker was stopped") from None
                    self.kills += 1
                    if self.on_kill is not None:
                        self.on_kill(stuck.item, stuck.why)
                    if root is None:
                        continue
                    if stuck.item is not None:
                        self._stopped.setdefault(root, {})[stuck.item] = stuck.why
                    else:
                        self._serial.add(root)
                    request = self._again(request, root)
            raise WorkerError(f"the analysis worker was stopped {RESTARTS + 1} times on one request")

    def _send_unsent(self) -> None:
        with self._buffers:
            unsent, self._unsent = self._unsent, {}
            closing, self._closing = self._closing, set()
        if unsent:
            self._ask(Overlays(unsent), None)
        for root in closing:
            self._ask(Close(root), None)

    def _ask(self, request: Request, progress: Progress | None) -> object:
        assert self._conn is not None
        try:
            self._conn.send(request)
        except OSError:
            raise _Stuck(None, "its analysis process ended") from None
        return self._await(progress)

    def _again(self, request: Request, root: str) -> Request:
        """The request to repeat in a new worker, which will have been given the folder again."""
        if isinstance(request, Open):
            return replace(request, stopped=dict(self._stopped.get(root, {})))
        if isinstance(request, AnalysePaths):
            request = AnalyseAll(root, request.encoding, usable_cpus())
        if isinstance(request, AnalyseAll) and root in self._serial:
            request = replace(request, workers=1)
        return request

    def _birth_request(self, request: Request) -> Open | None:
        """The request to fork a new worker with (the CLI's first `Open`: the index snapshot, tens
        of megabytes on a large tree, is then inherited, not pickled through the pipe); None when
        the worker runs, is not forked, or must first be given what the last one knew."""
        if not isinstance(request, Open) or self._method != "fork" or (self._process is not None and self._process.is_alive()):
            return None
        with self._buffers:
            knows_nothing = not (self._folders or self._overlays or self._unsent or self._closing)
        return request if knows_nothing else None

    def _ensure_started(self, born_with: Open | None = None) -> None:
        if self._process is not None and self._process.is_alive():
            return
        self._kill()
        self._analysed.clear()
        from lsp_agents.workers import host

        ours, theirs = multiprocessing.Pipe()
        args = (theirs,) if born_with is None else (theirs, born_with)
        if self._method == "forkserver":  # where its socket goes, made now if the server has not started yet
            self._start_folder = start_folder()
        try:
            process = start_daemon(self._method, host.main, args, "lsp-agents-analysis")
        except OSError:
            ours.close()
            raise
        finally:
            theirs.close()
        self._process, self._conn = process, ours
        # What the previous worker knew, given again: the unsaved buffers and every folder.
        with self._buffers:
            self._unsent, self._closing = {}, set()
            buffers = dict(self._overlays)
            folders = [
                (spec, dict(self._stopped[root]), frozenset(self._updated.get(root, ()))) for root, spec in self._folders.items()
            ]
        if buffers:
            self._replay(Overlays(buffers))
        for spec, stopped, updated in folders:
            self._replay(Open(spec, stopped, updated=updated))

    def _replay(self, request: Request) -> None:
        """Give a new worker what the last one had; a failure shows in the request that follows."""
        with contextlib.suppress(_Stuck, WorkerError):
            self._ask(request, None)

    def _await(self, progress: Progress | None) -> object:
        assert self._conn is not None and self._process is not None
        item: Item | None = None
        heard = time.monotonic()
        silent_from: float | None = None  # the group's CPU seconds when the silence passed SILENCE_SECONDS
        while True:
            try:
                ready = self._conn.poll(_POLL_SECONDS)
                message: Message | None = self._conn.recv() if ready else None
            except (EOFError, OSError):
                raise _Stuck(item, "its analysis process ended without an answer") from None
            if message is not None:
                heard, silent_from = time.monotonic(), None
                match message:
                    case ("starting", step):
                        item = started(step)
                    case ("progress", what, done, total):
                        if progress is not None:
                            progress(what, done, total)
                    case ("done", answer):
                        return answer
                    case ("failed", failure):
                        raise WorkerError(failure)
            elif not self._process.is_alive():
                raise _Stuck(item, "its analysis process ended without an answer")
            elif time.monotonic() - heard > self.silence:
                silent_from = self._stuck_after_silence(item, heard, silent_from)

    def _stuck_after_silence(self, item: Item | None, heard: float, silent_from: float | None) -> float | None:
        """Raises _Stuck once the silent worker has computed for `silence` seconds of CPU since its
        silence passed `silence` in wall time (or, without CPU times, at once), or waited
        WALL_FACTOR times that; else returns the CPU mark to keep."""
        assert self._process is not None and self._process.pid is not None
        spent = group_cpu_seconds(self._process.pid)
        if spent is None or time.monotonic() - heard > self.silence * WALL_FACTOR:
            raise _Stuck(item, f"it was still running after {self.silence:.0f} s and was stopped")
        if silent_from is None:
            return spent
        if spent - silent_from > self.silence:
            raise _Stuck(item, f"it was still running after {self.silence:.0f} s of computing and was stopped")
        return silent_from

    def _kill(self) -> None:
        process, self._process = self._process, None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if process is not None:
            kill_group(process)
            process.join(5)


def _expect(kind: type[Answer], answer: object) -> Answer:
    """The worker's answer to a request, which is of the kind the request asks for."""
    if not isinstance(answer, kind):
        raise WorkerError(f"the analysis worker answered {type(answer).__name__}, not {kind.__name__}")
    return answer
