"""A repository whose own settings try to choose what only the user may, and a loopback port that
counts who connects to it: shared by the CLI and the server tests of untrusted settings.

The repository holds a fake home folder: its `.claude.json` approves Claude Code's imports from
outside the project (CLAUDE.md imports a file outside the workspace) and its Codex config lowers
the budget below the size of AGENTS.md (so `check` would report `truncated`). Its settings file
names that folder as `home`, and turns on `fetchRemoteInstructions` for the URL of opencode.json.
"""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass
from pathlib import Path

SECRET = "SECRET-MARKER from outside the workspace"
REMOTE = "REMOTE-MARKER"
SETTINGS_FILES = ("lsp-agents.toml", "pyproject.toml")
AGENTS = "# Rules\n\n- Always run the full integration suite before you push a change.\n- Keep functions short.\n"
BUDGET = 40  # bytes: the fake home's Codex budget, below the size of AGENTS.md


@dataclass(frozen=True)
class Repository:
    ws: Path
    home: Path  # the user's own (clean) home
    fake_home: Path  # the repository's folder posing as a home
    settings_file: Path


def untrusted_repository(
    base: Path, settings: str, *, settings_file: str = "lsp-agents.toml", url: str | None = None
) -> Repository:
    """A git repository under `base` whose settings file holds `settings` (TOML lines, `{fake_home}`
    replaced by the fake home's path), with opencode.json listing `url` when given."""
    ws, home, outside = base / "ws", base / "home", base / "outside"
    fake_home = ws / "fake-home"
    for directory in (ws / ".git", home, outside, fake_home / ".codex"):
        directory.mkdir(parents=True)
    (outside / "secret.md").write_text(f"# Secret\n\n{SECRET}\n")
    (ws / "AGENTS.md").write_text(AGENTS)
    (ws / "CLAUDE.md").write_text(f"# Rules\n\n- Keep functions short.\n\nSee @{outside / 'secret.md'}\n")
    (fake_home / ".claude.json").write_text(json.dumps({"projects": {str(ws): {"hasClaudeMdExternalIncludesApproved": True}}}))
    (fake_home / ".codex" / "config.toml").write_text(f"project_doc_max_bytes = {BUDGET}\n")
    if url is not None:
        (ws / "opencode.json").write_text(json.dumps({"instructions": [url]}))
    text = settings.replace("{fake_home}", str(fake_home)) + "\n"
    if settings_file == "pyproject.toml":
        text = '[project]\nname = "victim"\n\n[tool.lsp-agents]\n' + text
    (ws / settings_file).write_text(text)
    return Repository(ws, home, fake_home, ws / settings_file)


class Listener:
    """A loopback HTTP port that counts the connections made to it (each is answered 200 with
    REMOTE in the body, so a fetch that does happen succeeds)."""

    def __init__(self) -> None:
        self._socket = socket.create_server(("127.0.0.1", 0))
        self._peers: list[tuple[str, int]] = []  # in the order accepted
        self._own: set[tuple[str, int]] = set()
        self._changed = threading.Condition()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._socket.getsockname()[1]}/rules.md"

    def connections(self) -> int:
        """How many connections others have made so far. A connection of our own marks "so far":
        connections are accepted first in, first out, so once ours is accepted, every earlier
        one has been counted (no waiting on a clock)."""
        with socket.create_connection(self._socket.getsockname(), timeout=10) as own:
            mine = own.getsockname()
            with self._changed:
                self._own.add(mine)
                assert self._changed.wait_for(lambda: mine in self._peers, timeout=30), "the listener stopped accepting"
                return sum(1 for peer in self._peers[: self._peers.index(mine)] if peer not in self._own)

    def close(self) -> None:
        self._socket.close()

    def _accept(self) -> None:
        while True:
            try:
                connection, peer = self._socket.accept()
            except OSError:  # closed
                return
            with self._changed:
                self._peers.append(peer)
                self._changed.notify_all()
            threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    @staticmethod
    def _answer(connection: socket.socket) -> None:
        body = f"# Remote\n\n{REMOTE}\n".encode()
        with connection:
            connection.settimeout(10)
            try:
                request = b""
                while b"\r\n\r\n" not in request and (chunk := connection.recv(4096)):
                    request += chunk
                if request:
                    connection.sendall(
                        b"HTTP/1.0 200 OK\r\nContent-Type: text/markdown\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
                    )
            except OSError:
                pass
