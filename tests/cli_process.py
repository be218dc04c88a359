"""`lsp-agents` command lines, each in a new process forked from one that has imported the CLI.

Most of a short `lsp-agents` process's time goes to starting Python and importing the package;
the test suite runs the CLI about a thousand times. `run` keeps one process per test process
(started on first use) that has done that import once; for every command it forks a child, which
takes the working directory, the environment and the arguments given, an empty standard input,
its own standard output and error (temporary files) and a process group of its own, runs the executable's own entry (`lsp_agents.cli.run`) and
exits with its status. Each command still gets a process of its own, with a fresh copy of every
module's state; what it cannot have is a fresh interpreter start: environment variables that
Python reads when it starts (PYTHON*) and anything the package reads while it is imported come
from the environment the tests started with. Tests of those run the executable themselves.

`run` answers like `subprocess.run(..., capture_output=True, text=True)`, and raises
`subprocess.TimeoutExpired` when the command outlives `timeout` (it is killed with its process
group first).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable, Mapping
from typing import Any

_lock = threading.Lock()
_server: subprocess.Popen[str] | None = None
# The forking process starts with the environment the tests started with, not whatever the test
# that happens to need it first has patched in (a PYTHONPATH with a sitecustomize, say).
_STARTING_ENVIRONMENT = dict(os.environ)


def run(
    args: list[str],
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """`lsp-agents ARGS` in a process of its own (see the module's description)."""
    arguments = [str(arg) for arg in args]
    request = {
        "args": arguments,
        "cwd": str(cwd or os.getcwd()),
        "env": dict(os.environ if env is None else env),
        "timeout": timeout,
    }
    with _lock:
        server = _started()
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(json.dumps(request) + "\n")
        server.stdin.flush()
        answer = json.loads(server.stdout.readline())
    command = ["lsp-agents", *arguments]
    if answer["timed_out"]:
        raise subprocess.TimeoutExpired(command, timeout, answer["stdout"], answer["stderr"])
    return subprocess.CompletedProcess(command, answer["code"], answer["stdout"], answer["stderr"])


def _started() -> subprocess.Popen[str]:
    global _server
    if _server is None or _server.poll() is not None:
        _server = subprocess.Popen(
            [sys.executable, __file__],
            env=_STARTING_ENVIRONMENT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
        )
        atexit.register(_server.kill)
    return _server


# -- the forking process ------------------------------------------------------------------------
def command_status(request: Mapping[str, Any], streams: tuple[int, int, int], run: Callable[[], int]) -> int:
    """In a forked child: take the request's working directory, environment and arguments, the
    given descriptors as standard input, output and error, and a process group of its own (so
    that killing the group ends whatever the command starts); then `run()` the command. Its exit
    status as the interpreter gives it: SystemExit's code, or 1 after printing the traceback of
    any other exception. The streams are flushed."""
    code = 1
    try:
        os.setpgid(0, 0)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        for source, target in zip(streams, (0, 1, 2), strict=True):
            os.dup2(source, target)
        for source in set(streams) - {0, 1, 2}:
            os.close(source)
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's own streams
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        sys.argv = ["lsp-agents", *request["args"]]
        code = run()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    except BaseException:  # noqa: BLE001 - reported as the interpreter reports an uncaught exception
        traceback.print_exc()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    return code


def _answer(request: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, open(os.devnull, "rb") as stdin:
        pid = os.fork()
        if pid == 0:
            os._exit(command_status(request, (stdin.fileno(), out.fileno(), err.fileno()), _run_cli))
        expired, status = _wait(pid, request["timeout"])
        out.seek(0)
        err.seek(0)
        return {
            "code": os.waitstatus_to_exitcode(status),
            "timed_out": expired,
            "stdout": out.read().decode("utf-8", "surrogateescape"),
            "stderr": err.read().decode("utf-8", "surrogateescape"),
        }


def _run_cli() -> int:
    from lsp_agents import cli

    cli.run()  # flushes and exits: os._exit
    return 0


def _wait(pid: int, timeout: float) -> tuple[bool, int]:
    """Wait for the child; past `timeout`, kill its process group. (timed out, wait status)"""
    expired = []

    def kill(_signal: int, _frame: object) -> None:
        expired.append(True)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)

    previous = signal.signal(signal.SIGALRM, kill)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        _, status = os.waitpid(pid, 0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return bool(expired), status


def _serve() -> None:
    # Everything a command imports when it runs, imported once here.
    from lsp_agents import cli, cli_commands  # noqa: F401
    from lsp_agents.report import check, diff  # noqa: F401

    answers = sys.stdout
    for line in sys.stdin:
        answers.write(json.dumps(_answer(json.loads(line))) + "\n")
        answers.flush()


if __name__ == "__main__":
    _serve()
