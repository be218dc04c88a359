"""`lsp-agents serve` in a new process forked from one that has imported the server.

A server process spends most of a short test session importing the protocol types and the server;
the suite starts about seventy. `command()` gives the command line the test client starts: a
launcher (a bare interpreter: no site packages, no PYTHON* variables) that hands its standard
input, output and error, its working directory, its environment and its arguments to a process
that has imported the server once (one per test process, started on first use). That process
forks a child, which becomes `lsp-agents serve` on exactly those streams, in its own process
group; the launcher exits with the child's exit status, and the child's whole group is killed
when the launcher dies (a test that kills the server it started kills the server).

What a forked server cannot have is a fresh interpreter start: PYTHON* variables and anything the
package reads while it is imported come from the test process. The tests that start the
executable itself (tests/server/test_nvim_smoke.py, the editor's end-to-end run) cover that.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

_zygote: subprocess.Popen[str] | None = None
_socket_path = ""
# As in tests/cli_process.py: the environment the tests started with.
_STARTING_ENVIRONMENT = dict(os.environ)


def command(*args: str) -> list[str]:
    """The command line that starts `lsp-agents ARGS` forked from the prepared process."""
    global _zygote, _socket_path
    if _zygote is None or _zygote.poll() is not None:
        _socket_path = os.path.join(tempfile.mkdtemp(prefix="lsp-agents-"), "zygote")
        _zygote = subprocess.Popen(
            [sys.executable, __file__, "--zygote", _socket_path],
            env=_STARTING_ENVIRONMENT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        atexit.register(_zygote.kill)
        assert _zygote.stdout is not None
        if _zygote.stdout.readline().strip() != "ready":
            raise RuntimeError("the server's forking process did not start")
    return [sys.executable, "-I", "-S", str(Path(__file__).resolve()), _socket_path, *args]


# -- the launcher ----------------------------------------------------------------------------------
def launch(path: str, args: list[str]) -> int:
    """Hand this process's streams and surroundings to the forking process; its child's status."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        socket.send_fds(conn, [b"F"], [0, 1, 2])
        request = json.dumps({"args": args, "cwd": os.getcwd(), "env": dict(os.environ)}).encode("utf-8")
        conn.sendall(len(request).to_bytes(8, "big") + request)
        status = b""
        while chunk := conn.recv(64):
            status += chunk
    return int(status) if status else 1  # nothing: the child was killed


# -- the forking process ---------------------------------------------------------------------------
def _read_exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise EOFError("the launcher went away")
        data += chunk
    return data


def _become_server(conn: socket.socket, fds: list[int], request: dict[str, Any]) -> None:
    """In the forked child: become `lsp-agents ARGS` on the launcher's streams, and tell the
    launcher its exit status. Never returns."""
    import cli_process  # tests/: on the path the zygote puts it

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the server waits for processes it starts
    threading.Thread(target=_die_with_the_launcher, args=(conn,), daemon=True).start()
    code = cli_process.command_status(request, (fds[0], fds[1], fds[2]), _run_cli)
    with contextlib.suppress(OSError):
        conn.sendall(str(code).encode("ascii"))
    os._exit(code)


def _run_cli() -> int:
    from lsp_agents import cli

    return cli.main()


def _die_with_the_launcher(conn: socket.socket) -> None:
    with contextlib.suppress(OSError):
        conn.recv(1)  # the launcher never writes: this returns when it has gone
    os.killpg(0, signal.SIGKILL)


def _accept(listener: socket.socket) -> None:
    conn, _ = listener.accept()
    _, fds, _, _ = socket.recv_fds(conn, 1, 3)
    size = int.from_bytes(_read_exactly(conn, 8), "big")
    request = json.loads(_read_exactly(conn, size))
    if os.fork() == 0:
        listener.close()
        _become_server(conn, fds, request)
    conn.close()
    for fd in fds:
        os.close(fd)


def zygote(path: str) -> None:
    """Import the server, then fork a server for every launcher that connects, until stdin closes."""
    from lsp_agents import cli, server  # noqa: F401 - imported once here, for every child
    from lsp_agents.server import server as _server_module  # noqa: F401

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for cli_process
    import cli_process  # noqa: F401

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    print("ready", flush=True)
    with selectors.DefaultSelector() as events:
        events.register(listener, selectors.EVENT_READ)
        events.register(sys.stdin, selectors.EVENT_READ)
        while True:
            for key, _ in events.select():
                if key.fileobj is sys.stdin:
                    return  # the test process has gone
                _accept(listener)


if __name__ == "__main__":
    if sys.argv[1] == "--zygote":
        zygote(sys.argv[2])
    else:
        sys.exit(launch(sys.argv[1], sys.argv[2:]))
