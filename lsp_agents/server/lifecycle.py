"""Session lifecycle and synchronisation: initialize, folders, settings, open documents, files
changed on disk, shutdown."""

from __future__ import annotations

import asyncio
import logging
import platform
import sys
from typing import TYPE_CHECKING

from lsprotocol import types

from lsp_agents.server import watch
from lsp_agents.server.budget import guarded
from lsp_agents.server.convert import LinearPositionCodec
from lsp_agents.server.server import SECTION
from lsp_agents.server.uris import path_of

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer

log = logging.getLogger(__name__)


async def _start(ls: AgentsLanguageServer, folder_uris: list[str]) -> None:
    """After `initialized`: read the settings, watch files, index and analyse every folder."""
    ls.run_task(asyncio.to_thread(ls.worker.start))  # meanwhile
    try:
        for uri in folder_uris:
            ls.add_folder(uri)
        await ls.load_settings()
        ls.watching = watch.Watching(ls)
        await ls.watching.start()
        await asyncio.gather(*(ls.index_folder(f) for f in list(ls.folders.values())))
    finally:
        ls.first_analysis.set()


def register(server: AgentsLanguageServer) -> None:
    folder_uris: list[str] = []

    @server.feature(types.INITIALIZE)
    @guarded()
    def initialize(ls: AgentsLanguageServer, params: types.InitializeParams) -> None:
        client = params.client_info.name if params.client_info else "unknown client"
        log.info("lsp-agents %s, Python %s on %s, for %s", ls.version, sys.version.split()[0], platform.platform(), client)
        ls.set_init_options(params.initialization_options)
        # Every document pygls opens from now on converts positions with this codec.
        ls.workspace._position_codec = LinearPositionCodec(ls.workspace.position_codec.encoding)
        if params.workspace_folders:
            folder_uris.extend(f.uri for f in params.workspace_folders)
        elif params.root_uri:
            folder_uris.append(params.root_uri)

    @server.feature(types.INITIALIZED)
    @guarded()
    async def initialized(ls: AgentsLanguageServer, params: types.InitializedParams) -> None:
        await _start(ls, folder_uris)

    @server.feature(types.SHUTDOWN)
    @guarded()
    def shutdown(ls: AgentsLanguageServer, params: None) -> None:
        ls.shutdown_work()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @guarded()
    async def did_change_folders(ls: AgentsLanguageServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        for removed in params.event.removed:
            ls.remove_folder(removed.uri)
        added = [f for f in (ls.add_folder(a.uri) for a in params.event.added) if f is not None]
        await ls.load_settings()
        if ls.watching is not None and not ls.watching.by_client:
            ls.watching.restart()
        await asyncio.gather(*(ls.index_folder(f) for f in added))

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded()
    async def did_change_configuration(ls: AgentsLanguageServer, params: types.DidChangeConfigurationParams) -> None:
        """Settings can change discovery (exclude), the harnesses and every cascade: start over."""
        settings = params.settings
        if isinstance(settings, dict) and SECTION in settings:
            ls.set_init_options(settings)  # clients without workspace/configuration push the values
        await ls.load_settings()
        if ls.watching is not None:  # `home` and the harnesses' file names can move what to watch
            ls.watching.restart()
            if ls.watching.by_client:
                await ls.watching.register()
        await ls.reindex()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(ls: AgentsLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.document_changed(params.text_document.uri, params.text_document.text)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(ls: AgentsLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        document = ls.open_document(path) if path else None
        if document is not None:  # a change to a document never opened has no text to apply
            ls.document_changed(params.text_document.uri, document.source)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(ls: AgentsLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.document_changed(params.text_document.uri, None)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded()
    def did_change_watched_files(ls: AgentsLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.files_changed({p for change in params.changes if (p := path_of(change.uri))})
