"""Starting and ending the processes analyses run in: how to start one, start it, kill it with
the helpers it forked, and measure what its process group has computed."""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.util
import os
import signal
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Literal, cast

if TYPE_CHECKING:  # ForkContext exists only where fork does
    from multiprocessing.context import ForkContext, ForkServerContext, SpawnContext

StartMethod = Literal["fork", "forkserver", "spawn"]


def start_method(*, may_fork: bool) -> StartMethod:
    """How to start a worker: by forking when the caller allows it (the CLI: one thread, and the
    index already in memory), else from a clean fork server (the language server runs threads,
    and forking those is unsafe), else by spawning (Windows)."""
    methods = multiprocessing.get_all_start_methods()
    if may_fork and "fork" in methods:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def start_daemon(method: StartMethod, target: Callable[..., object], args: tuple[object, ...], name: str) -> BaseProcess:
    """A started daemon process running `target(*args)`. A fork server that cannot start is
    replaced by spawning: its socket lives in the temporary folder, and a long TMPDIR makes that
    path longer than the system allows (`AF_UNIX path too long`)."""
    while True:
        # typeshed gives get_context(str) the base class, which lacks `Process`; every real one has it.
        context = cast("ForkContext | ForkServerContext | SpawnContext", multiprocessing.get_context(method))
        if method == "forkserver":
            context.set_forkserver_preload([target.__module__])
        process: BaseProcess = context.Process(target=target, args=args, name=name, daemon=True)
        try:
            process.start()
        except OSError:
            if method != "forkserver":
                raise
            method = "spawn"
            continue
        return process


def start_folder() -> str:
    """The folder multiprocessing keeps a fork server's socket in (made if missing). It is removed
    at interpreter exit, which `lsp-agents` skips (os._exit): whoever started a fork server
    removes it when done with its processes for good."""
    return multiprocessing.util.get_temp_dir()


def group_cpu_seconds(pgid: int) -> float | None:
    """The CPU time (user and system) of the processes of a process group, from /proc; None where
    there is no /proc (the caller then counts wall time only)."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    ticks = 0
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        if int(fields[2]) == pgid:  # after the name: state, ppid, pgrp, ..., utime (12), stime (13)
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def kill_group(process: BaseProcess) -> None:
    """Kill a worker and the helpers it forked: it leads a process group of its own (host.main)."""
    if process.pid is not None and hasattr(os, "killpg"):
        with contextlib.suppress(OSError):  # not yet its own group, or gone
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError, ValueError):  # already reaped
        process.kill()
