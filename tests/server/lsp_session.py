"""End-to-end helpers: the real server process (`lsp-agents serve`, forked from a process that has
imported it: tests/server/forked_server.py) over stdio, driven by pytest-lsp's client, on throwaway
workspaces. Waits are on conditions, never on fixed sleeps."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import cli_process
import forked_server
from lsprotocol import types
from pytest_lsp import LanguageClient
from pytest_lsp.client import make_test_lsp_client

TIMEOUT = 15.0

ROOT_AGENTS = "# Root rules\n\n- Use tabs for indentation.\n- Run the tests before committing.\n- Use tabs for indentation.\n\nSee @docs/style.md and [the package](pkg/AGENTS.md).\n"
PKG_AGENTS = "# Package\n\nPKG RULES\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def capabilities(
    *, watch: bool = True, pull: bool = False, configuration: bool = True, progress: bool = True, document_changes: bool = True
) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            configuration=configuration,
            workspace_folders=True,
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=watch),
            workspace_edit=types.WorkspaceEditClientCapabilities(
                document_changes=document_changes, resource_operations=[types.ResourceOperationKind.Rename]
            ),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
        ),
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(related_document_support=True) if pull else None,
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True),
        ),
        window=types.WindowClientCapabilities(work_done_progress=progress),
    )


async def until(condition: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
    """Poll `condition` until it is truthy (the server answers asynchronously)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not (value := condition()):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
    return value


async def until_async(check: Callable[[], Any], what: str, tries: int = 300) -> None:
    """Poll an async `check` (a request to the server) until it is truthy."""
    for _ in range(tries):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def folder(path: Path) -> types.WorkspaceFolder:
    return types.WorkspaceFolder(uri=path.as_uri(), name=path.name)


@asynccontextmanager
async def session(
    folders: list[Path],
    home: Path,
    *,
    caps: types.ClientCapabilities | None = None,
    init: Any = None,
    configuration: dict | None = None,
    analysed: bool = True,
    env: dict[str, str] | None = None,
    fresh_interpreter: bool = False,
) -> AsyncIterator[LanguageClient]:
    """A started, initialised server whose folders are indexed (unless `analysed` is false: at once
    after `initialized`); shut down cleanly afterwards. `env` adds to the server's environment.
    The server is forked from a process that has imported it, unless `fresh_interpreter` (a test
    that changes what Python does when it starts)."""
    client = make_test_lsp_client()
    client.registrations = []
    client.analyses = []

    client.published = []  # every publishDiagnostics uri, in order: "only where changed" is checkable
    keep = client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]
    client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = lambda params: (
        client.published.append(params.uri),
        keep(params),
    )

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)

    @client.feature(types.CLIENT_UNREGISTER_CAPABILITY)
    def on_unregister(params: types.UnregistrationParams) -> None:
        gone = {u.id for u in params.unregisterations}
        client.registrations[:] = [r for r in client.registrations if r.id not in gone]

    @client.feature("lspAgents/analysisComplete")
    def on_analysis(params: Any) -> None:
        client.analyses.append(params)

    client.set_configuration({"debounceMs": 0, **(configuration or {})}, section="lspAgents")
    server = [sys.executable, "-m", "lsp_agents", "serve"] if fresh_interpreter else forked_server.command("serve")
    await client.start_io(*server, env={**os.environ, "HOME": str(home), **(env or {})})
    try:
        client.init_result = await asyncio.wait_for(
            client.initialize_session(
                types.InitializeParams(
                    capabilities=caps or capabilities(),
                    workspace_folders=[folder(f) for f in folders],
                    initialization_options=init,
                )
            ),
            TIMEOUT,
        )
        if analysed:
            await until(lambda: len(client.analyses) >= len(folders), "the initial analysis")
        yield client
        await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
        assert client._server.returncode == 0, "the server did not exit cleanly"
    finally:
        if client._server is not None and client._server.returncode is None:
            client._server.kill()  # a failed test: do not wait for a shutdown that never came
        await client.stop()


def open_document(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="markdown", version=version, text=path.read_text() if text is None else text
            )
        )
    )
    return uri


def change_document(client: LanguageClient, path: Path, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def command(client: LanguageClient, name: str, *arguments: Any) -> Any:
    return await asyncio.wait_for(
        client.workspace_execute_command_async(types.ExecuteCommandParams(command=name, arguments=list(arguments))), TIMEOUT
    )


async def hover(client: LanguageClient, path: Path, line: int, character: int) -> str | None:
    result = await asyncio.wait_for(
        client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=types.Position(line, character)
            )
        ),
        TIMEOUT,
    )
    return result.contents.value if result else None


def cli(*args: str, home: Path) -> dict:
    import json

    result = cli_process.run([*args, "--home", str(home), "--format", "json"], timeout=60, env={**os.environ, "HOME": str(home)})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
