"""`lsp-agents diff` of a revision against the work tree, for the language server, in a process of its own.

A comparison analyses the workspace twice (seconds on a large repository, longer on a hostile
one), so, like the analysis, it never runs in the process that answers the editor. Each
comparison starts a process (the analysis worker's start method: a clean fork server, never a
fork of the server's threads) that leads a process group of its own; it is killed with the
helpers it forked once it runs past its time or the server stops.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from lsp_agents.core.harness_ids import HarnessId
from lsp_agents.workers.processes import kill_group, start_daemon, start_method

COMPARISON_SECONDS = 300.0
_POLL_SECONDS = 0.25


class ComparisonError(Exception):
    """No comparison: a revision that is no commit, no git work tree, git missing, a time-out."""


@dataclass(frozen=True, slots=True)
class ComparisonRequest:
    directory: str  # where `lsp-agents diff BASE` would run: the workspace folder
    base: str
    harnesses: Sequence[HarnessId]  # empty: those enabled on either side, as the CLI without --harness
    home: str
    unsaved: Mapping[str, str] = field(default_factory=dict)  # the editor's buffers: path -> text


@dataclass(frozen=True, slots=True)
class Compared:
    answer: dict[str, Any]  # the JSON of `lsp-agents diff BASE --format json`
    warnings: list[str]  # what the CLI prints on stderr


def _main(conn: Connection, request: ComparisonRequest) -> None:
    """The comparison process: one answer, then it ends."""
    if hasattr(os, "setsid"):
        os.setsid()
    # Imported here: the report is the CLI's, and only this process needs it.
    from lsp_agents.git_objects import GitError
    from lsp_agents.report.check import CheckError
    from lsp_agents.report.diff import DiffOptions, compare

    err = io.StringIO()
    options = DiffOptions(
        base=request.base, head=None, harnesses=request.harnesses, home=request.home, format="json", fail_on="never"
    )
    try:
        reply: tuple[str, Compared | str] = (
            "done",
            Compared(compare(options, err, request.directory, request.unsaved), err.getvalue().splitlines()),
        )
    except (GitError, CheckError, OSError) as exc:  # what the user can mend, as the CLI's usage errors
        reply = ("refused", str(exc))
    except Exception:  # noqa: BLE001 - any failure goes back to the server, which logs it
        reply = ("failed", traceback.format_exc(limit=-4))
    conn.send(reply)


def run_comparison(request: ComparisonRequest, stopping: Callable[[], bool], seconds: float = COMPARISON_SECONDS) -> Compared:
    """The comparison, or a ComparisonError saying why there is none. Blocks: call it from a thread."""
    ours, theirs = multiprocessing.Pipe(duplex=False)
    try:
        process = start_daemon(start_method(may_fork=False), _main, (theirs, request), "lsp-agents-diff")
    finally:
        theirs.close()
    deadline = time.monotonic() + seconds
    try:
        # The time and the shutdown are looked at before each wait, whatever the answer's speed.
        while True:
            if stopping():
                raise ComparisonError("the server is shutting down")
            if time.monotonic() >= deadline:
                raise ComparisonError(f"the comparison took more than {seconds:.0f} s and was stopped")
            if ours.poll(_POLL_SECONDS):
                break
            if not process.is_alive() and not ours.poll():
                raise ComparisonError("the comparison ended without an answer")
        kind, value = ours.recv()
    except (EOFError, OSError):
        raise ComparisonError("the comparison ended without an answer") from None
    finally:
        ours.close()
        kill_group(process)
        process.join(5)
    if kind == "done" and isinstance(value, Compared):
        return value
    if kind == "refused":
        raise ComparisonError(value)
    raise RuntimeError(f"the comparison failed:\n{value}")
