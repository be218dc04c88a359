"""Share a full analysis between forked processes.

A full analysis is thousands of independent pieces (one per harness and launch directory, then
one per file). Forked children start from everything the parent already built (the workspace
index, the file caches), compute a share each and send back their results pickled through a
pipe. Only for a single-threaded caller (the CLI's `check`): forking a process that runs other
threads is unsafe, so the language server analyses serially.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def fork_map(function: Callable[[T], R], chunks: Sequence[T]) -> list[R]:
    """`[function(chunk) for chunk in chunks]`: all chunks but the last in forked children, the
    last in this process meanwhile. A child that fails, or cannot be started (the system is out
    of processes, memory or descriptors), has its chunk computed here."""
    if len(chunks) < 2 or not hasattr(os, "fork"):
        return [function(chunk) for chunk in chunks]
    children = [_start(function, chunk) for chunk in chunks[:-1]]
    try:
        last = function(chunks[-1])
    finally:
        payloads = [_collect(*child) if child is not None else None for child in children]
    return (
        [
            pickle.loads(payload) if payload is not None else function(chunk)  # noqa: S301 - our own forked child wrote it
            for payload, chunk in zip(payloads, chunks[:-1], strict=True)
        ]
        + [last]
    )


def _start(function: Callable[[T], R], chunk: T) -> tuple[int, int] | None:
    """A child computing `function(chunk)`: its pid and the pipe its result comes through; None
    when no child could be started."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: compute, send, and leave without running the parent's exit code
        os.close(read_end)
        code = 1
        try:
            payload = pickle.dumps(function(chunk), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(payload)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def _collect(pid: int, read_end: int) -> bytes | None:
    """The child's pickled result, or None when it failed."""
    with os.fdopen(read_end, "rb") as pipe:
        payload = pipe.read()
    _, status = os.waitpid(pid, 0)
    return payload if status == 0 and payload else None
