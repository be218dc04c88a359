"""Fuzzing the language server over stdio: random, malformed and cancelled requests and
notifications, didChange storms, all while the initial analysis of a hostile workspace runs.

`FuzzSession` starts the real server process (`python -m lsp_agents serve`) and keeps it for the
whole run; `actions()` is a hypothesis strategy of batches of client messages. Every request must
get a response (a result or an error) within RESPONSE_TIMEOUT_S; the figures (requests sent,
slowest answer) are collected for the CI test and the benchmark alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.client import LanguageClient

RESPONSE_TIMEOUT_S = 10.0
WORKER_KILLED = "analysis worker stopped in"  # what the server logs when it kills a stuck analysis worker
COMMANDS = ("lspAgents.effectivePrompt", "lspAgents.fileReminders", "lspAgents.cascade", "lspAgents.reindex", "no.such.command")
REQUESTS = (
    "textDocument/hover",
    "textDocument/codeLens",
    "textDocument/documentLink",
    "textDocument/documentSymbol",
    "textDocument/definition",
    "textDocument/codeAction",
    "textDocument/diagnostic",
    "workspace/diagnostic",
    "workspace/executeCommand",
    "lspAgents/noSuchRequest",
    "textDocument/completion",
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
positions = st.fixed_dictionaries(
    {
        "line": st.integers(-5, 100_000) | st.sampled_from([0, 1, 2**31 - 1]),
        "character": st.integers(-5, 100_000) | st.sampled_from([0, 2**31 - 1]),
    }
)


@dataclass
class Figures:
    requests: int = 0
    notifications: int = 0
    errors: int = 0  # answered with a JSON-RPC error (bad params, unknown method, cancelled)
    unanswered: list[str] = field(default_factory=list)
    log_lines: int = 0  # lines the server logged (stderr and window/logMessage)
    tracebacks: int = 0
    worker_kills: int = 0  # stuck analysis workers the server killed (its log says so)
    first_traceback: str = ""
    latencies: list[tuple[float, str]] = field(default_factory=list)

    def slowest(self) -> tuple[float, str]:
        return max(self.latencies, default=(0.0, "none"))


def uri_pool(ws: Path) -> list[str]:
    """URIs the fuzzer aims at: hostile files, directories, files that do not exist, other schemes."""
    names = [
        "AGENTS.md",
        "CLAUDE.md",
        "GEMINI.md",
        "fifo/AGENTS.md",
        "devzero/AGENTS.md",
        "dirlink/AGENTS.md",
        "loop/AGENTS.md",
        "binary/AGENTS.md",
        "encoding/GEMINI.md",
        "huge/AGENTS.md",
        "markdown/AGENTS.md",
        "imports/wide/CLAUDE.md",
        "imports/deep/GEMINI.md",
        "imports/cycle/CLAUDE.md",
        "oneline/x.ts",
        ".claude/rules/nested.md",
        ".cursor/rules/bomb.mdc",
        "opencode.json",
        "missing/nothing.md",
        "deep",
        ".",
    ]
    uris = [(ws / name).as_uri() for name in names]
    uris += [
        "file://" + "%FF%FE/AGENTS.md",
        f"{ws.as_uri()}/dir-%C3%28/x.ts",
        "untitled:Untitled-1",
        "http://example.invalid/x.md",
        "file:///etc/shadow",
        "file:///proc/self/mem",
        "not a uri",
        "",
        "file://host/share/x.md",
    ]
    return uris


def actions(uris: list[str]) -> st.SearchStrategy[list[tuple]]:
    """Batches of ("request", method, params, cancel?) and ("notify", method, params) messages."""
    uri = st.sampled_from(uris) | st.text(max_size=30)
    document = st.fixed_dictionaries({"uri": uri})
    well_formed = st.one_of(
        st.builds(lambda u, p: ("textDocument/hover", {"textDocument": u, "position": p}), document, positions),
        st.builds(lambda u, p: ("textDocument/definition", {"textDocument": u, "position": p}), document, positions),
        st.builds(lambda u: ("textDocument/codeLens", {"textDocument": u}), document),
        st.builds(lambda u: ("textDocument/documentLink", {"textDocument": u}), document),
        st.builds(lambda u: ("textDocument/documentSymbol", {"textDocument": u}), document),
        st.builds(lambda u: ("textDocument/diagnostic", {"textDocument": u}), document),
        st.builds(
            lambda u, a, b: (
                "textDocument/codeAction",
                {"textDocument": u, "range": {"start": a, "end": b}, "context": {"diagnostics": []}},
            ),
            document,
            positions,
            positions,
        ),
        st.builds(
            lambda c, u, h: ("workspace/executeCommand", {"command": c, "arguments": [{"uri": u, "harness": h}]}),
            st.sampled_from(COMMANDS[:3]),
            uri,
            st.sampled_from(["opencode", "codex", "claude-code", "gemini", "all", "x"]),
        ),
    )
    malformed = st.builds(lambda m, p: (m, p), st.sampled_from(REQUESTS), json_values)
    request = st.builds(lambda mp, cancel: ("request", mp[0], mp[1], cancel), well_formed | malformed, st.booleans())
    storm = st.builds(
        lambda u, texts: ("storm", u, texts), st.sampled_from(uris), st.lists(st.text(max_size=200), min_size=1, max_size=60)
    )
    notify = st.one_of(
        st.builds(
            lambda u, t: (
                "notify",
                "textDocument/didOpen",
                {"textDocument": {"uri": u, "languageId": "markdown", "version": 1, "text": t}},
            ),
            uri,
            st.text(max_size=300),
        ),
        st.builds(lambda u: ("notify", "textDocument/didClose", {"textDocument": {"uri": u}}), uri),
        st.builds(
            lambda u, c: ("notify", "workspace/didChangeWatchedFiles", {"changes": [{"uri": u, "type": c}]}),
            uri,
            st.integers(0, 4),
        ),
        st.builds(
            lambda m, p: ("notify", m, p),
            st.sampled_from(["textDocument/didChange", "textDocument/didSave", "lspAgents/noSuchNotification", "$/setTrace"]),
            json_values,
        ),
    )
    # A re-analysis of the whole workspace: seldom (one draw in 20).
    rare = st.sampled_from(
        [
            ("request", "workspace/executeCommand", {"command": "lspAgents.reindex", "arguments": []}, False),
            ("notify", "workspace/didChangeConfiguration", {"settings": {"lspAgents": {"debounceMs": 0}}}),
            *[None] * 18,
        ]
    )
    batch = st.lists(st.one_of(request, request, request, notify, storm, rare), min_size=1, max_size=12)
    return batch.map(lambda items: [item for item in items if item is not None])


class FuzzSession:
    """The server process and a client on an event loop of its own thread: hypothesis examples
    (synchronous) hand it batches of messages."""

    def __init__(self, ws: Path, home: Path) -> None:
        self.ws, self.home = ws, home
        self.figures = Figures()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.client = LanguageClient("lsp-agents-fuzz", "1")
        # Messages go out as the raw JSON they are (malformed ones included) and results come back raw.
        self.client.protocol.get_message_type = lambda method: None
        self.client.protocol.get_result_type = lambda method: None
        self.exit_code: int | None = None
        self._recent: list[str] = []
        self.client.feature(types.WINDOW_LOG_MESSAGE)(lambda params: self._log_message(params))
        for method in (
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
            types.WINDOW_SHOW_MESSAGE,
            "lspAgents/analysisComplete",
            "$/progress",
        ):
            self.client.feature(method)(lambda *args: None)
        for method in (
            types.CLIENT_REGISTER_CAPABILITY,
            types.CLIENT_UNREGISTER_CAPABILITY,
            types.WINDOW_WORK_DONE_PROGRESS_CREATE,
            types.WORKSPACE_DIAGNOSTIC_REFRESH,
        ):
            self.client.feature(method)(lambda *args: None)
        self.client.feature(types.WORKSPACE_CONFIGURATION)(lambda *args: [{"debounceMs": 0}] * 8)

    def run(self, coroutine: Any, timeout: float = 120) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def start(self) -> float:
        """Start and initialize; returns the seconds `initialize` took. The analysis then runs."""

        async def start() -> float:
            await self.client.start_io(sys.executable, "-m", "lsp_agents", "serve", env={**os.environ, "HOME": str(self.home)})
            self._stderr = asyncio.ensure_future(self._drain(self.client._server.stderr))
            began = time.perf_counter()
            await asyncio.wait_for(
                self.client.initialize_async(
                    types.InitializeParams(
                        capabilities=types.ClientCapabilities(
                            workspace=types.WorkspaceClientCapabilities(
                                configuration=True,
                                did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
                            ),
                            window=types.WindowClientCapabilities(work_done_progress=True),
                        ),
                        workspace_folders=[types.WorkspaceFolder(uri=self.ws.as_uri(), name="hostile")],
                        initialization_options={"debounceMs": 0},
                    )
                ),
                RESPONSE_TIMEOUT_S,
            )
            self.client.initialized(types.InitializedParams())
            return time.perf_counter() - began

        return self.run(start())

    async def _drain(self, stream: asyncio.StreamReader) -> None:
        """Read the server's log: pygls' client pipes stderr and never reads it, and a server
        blocked on a full pipe answers nothing."""
        while line := await stream.readline():
            self._count(line.decode("utf-8", "replace"))

    def _log_message(self, params: Any) -> None:
        """The server's own records reach the editor's log rather than stderr."""
        message = params.get("message", "") if isinstance(params, dict) else getattr(params, "message", "")
        for line in str(message).splitlines(keepends=True):
            self._count(line if line.endswith("\n") else line + "\n")

    def _count(self, line: str) -> None:
        self.figures.log_lines += 1
        if WORKER_KILLED in line:
            self.figures.worker_kills += 1
        self._recent = [*self._recent[-3:], line]
        if line.startswith("Traceback"):
            self.figures.tracebacks += 1
            if not self.figures.first_traceback:
                self.figures.first_traceback = "".join(self._recent)
        elif self.figures.first_traceback and self.figures.first_traceback.count("\n") < 40:
            self.figures.first_traceback += line

    def send(self, batch: list[tuple]) -> None:
        self.run(self._send(batch))

    async def _send(self, batch: list[tuple]) -> None:
        pending = []
        for action in batch:
            if action[0] == "request":
                _, method, params, cancel = action
                pending.append(asyncio.ensure_future(self._request(method, params, cancel)))
            elif action[0] == "storm":
                _, uri, texts = action
                self.client.protocol.notify(
                    "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 0, "text": ""}}
                )
                for version, text in enumerate(texts, 1):
                    self.client.protocol.notify(
                        "textDocument/didChange",
                        {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
                    )
                self.figures.notifications += len(texts) + 1
            else:
                self.client.protocol.notify(action[1], action[2])
                self.figures.notifications += 1
        await asyncio.gather(*pending)

    async def _request(self, method: str, params: Any, cancel: bool) -> None:
        self.figures.requests += 1
        msg_id = f"fuzz-{self.figures.requests}"
        began = time.perf_counter()
        future = self.client.protocol.send_request_async(method, params, msg_id=msg_id)
        if cancel:
            await asyncio.sleep(0)
            self.client.protocol.notify("$/cancelRequest", {"id": msg_id})
        try:
            await asyncio.wait_for(asyncio.shield(future), RESPONSE_TIMEOUT_S)
        except JsonRpcException:
            self.figures.errors += 1
        except TimeoutError:
            self.figures.unanswered.append(f"{method} {str(params)[:120]}")
            return
        finally:
            if future.done() and not future.cancelled():
                future.exception()  # seen here: asyncio need not report it as never retrieved
        self.figures.latencies.append((time.perf_counter() - began, method))

    def alive(self) -> bool:
        return self.client._server is not None and self.client._server.returncode is None

    def stop(self) -> int | None:
        """shutdown then exit; the server's exit status (None if it had to be killed)."""

        async def stop() -> int | None:
            try:
                await asyncio.wait_for(self.client.shutdown_async(None), RESPONSE_TIMEOUT_S)
                self.client.exit(None)
                return await asyncio.wait_for(self.client._server.wait(), RESPONSE_TIMEOUT_S)
            except (TimeoutError, JsonRpcException):
                self.client._server.kill()
                return None
            finally:
                with contextlib.suppress(Exception):  # a message cut off by the exit, whatever the error: nothing left to read
                    await self.client.stop()

        try:
            self.exit_code = self.run(stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
        return self.exit_code
