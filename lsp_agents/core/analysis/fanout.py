"""Share a full analysis between forked processes.

A full analysis is thousands of independent pieces (one per harness and launch directory, then
one per file). Forked children start from everything the parent already built (the workspace
index, the file caches) and derive a share of the first pieces each; every process then gets
what the others derived, keeps it all, and computes a share of the second pieces with the
documents and memos its first share left it. Results go through pipes, pickled. Only for a
single-threaded caller (the CLI's `check`): forking a process that runs other threads is
unsafe, so the language server analyses serially.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")
S = TypeVar("S")


def fork_exchange(
    derive: Callable[[T], R], keep: Callable[[list[R]], None], finish: Callable[[int], S], chunks: Sequence[T]
) -> list[S]:
    """`keep([derive(chunk) for chunk in chunks])`, then `[finish(i) for i in range(len(chunks))]`,
    in this process and in forked children alike: each child derives its chunk, gets every
    chunk's result, keeps them and finishes its own index; this process does the last chunk
    meanwhile. A child that fails, or cannot be started (the system is out of processes, memory
    or descriptors), has what it did not send computed here."""
    if len(chunks) < 2 or not hasattr(os, "fork"):
        keep([derive(chunk) for chunk in chunks])
        return [finish(index) for index in range(len(chunks))]
    children = [_start(derive, keep, finish, chunk, index) for index, chunk in enumerate(chunks[:-1])]
    try:
        last = derive(chunks[-1])
        derived = [_received(child, derive, chunk) for child, chunk in zip(children, chunks[:-1], strict=True)] + [last]
        listening = [child if _sent(child, derived, index) else None for index, child in enumerate(children)]
        keep(derived)
        own = finish(len(chunks) - 1)
        finished = [_received(child, finish, index) for index, child in enumerate(listening)]
    finally:
        for child in children:
            _end(child)
    return [*finished, own]


Child = tuple[int, Connection] | None  # a forked child's pid and its end of the pipe; None: it failed


def _start(derive: Callable[[T], R], keep: Callable[[list[R]], None], finish: Callable[[int], S], chunk: T, index: int) -> Child:
    """A child deriving `chunk`, then keeping every chunk's result and finishing `index`; None
    when no child could be started."""
    try:
        here, there = multiprocessing.Pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        here.close()
        there.close()
        return None
    if pid == 0:  # the child: compute, send, and leave without running the parent's exit code
        here.close()
        code = 1
        try:
            mine = derive(chunk)
            there.send(mine)
            derived = there.recv()
            derived[index] = mine
            keep(derived)
            there.send(finish(index))
            code = 0
        finally:
            os._exit(code)
    there.close()
    return pid, here


def _received(child: Child, compute: Callable[[T], R], argument: T) -> R:
    """What the child sends next, or `compute(argument)` here when it failed."""
    if child is not None:
        try:
            received: R = child[1].recv()
            return received
        except (EOFError, OSError):
            pass
    return compute(argument)


def _sent(child: Child, derived: list[R], index: int) -> bool:
    """Whether the child got every chunk's result (its own it has): False when it is gone."""
    if child is None:
        return False
    try:
        child[1].send([None if other == index else result for other, result in enumerate(derived)])
    except OSError:
        return False
    return True


def _end(child: Child) -> None:
    if child is not None:
        pid, connection = child
        connection.close()
        os.waitpid(pid, 0)
