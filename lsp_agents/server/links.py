"""Document links and go to definition for `@path` imports and Markdown links between files
(`references` finds and resolves them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from lsp_agents.server.budget import guarded
from lsp_agents.server.convert import from_position, span_contains, to_range
from lsp_agents.server.references import MAX_REFERENCE_CHARS, Reference, references
from lsp_agents.server.uris import path_of, uri_of

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer


def reference_at(ls: AgentsLanguageServer, uri: str, position: types.Position) -> tuple[str, Reference] | None:
    path = path_of(uri)
    if path is None:
        return None
    text = ls.document_text(path)
    if len(text) > MAX_REFERENCE_CHARS:  # no references are looked for; converting the position would cost seconds
        return None
    lines = text.splitlines(keepends=True)
    line, character = from_position(ls.workspace.position_codec, lines, position)
    home = ls.home(ls.settings_for(path))
    for reference in references("".join(lines), path, home):
        if span_contains(reference.span, line, character):
            return path, reference
    return None


def register(server: AgentsLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK)
    @guarded([])
    def document_links(ls: AgentsLanguageServer, params: types.DocumentLinkParams) -> list[types.DocumentLink]:
        path = path_of(params.text_document.uri)
        if path is None:
            return []
        lines = ls.lines_of(path)
        codec = ls.workspace.position_codec
        home = ls.home(ls.settings_for(path))
        link_caps = ls.client_capabilities.text_document and ls.client_capabilities.text_document.document_link
        tooltips = bool(link_caps and link_caps.tooltip_support)
        return [
            types.DocumentLink(
                range=to_range(codec, lines, r.span), target=uri_of(r.target), tooltip=r.target if tooltips else None
            )
            for r in references("".join(lines), path, home)
            if ls.fs.is_file(r.target)
        ]

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @guarded(None)
    def definition(ls: AgentsLanguageServer, params: types.DefinitionParams) -> types.Location | None:
        found = reference_at(ls, params.text_document.uri, params.position)
        if found is None or not ls.fs.is_file(found[1].target):
            return None
        start = types.Position(line=0, character=0)
        return types.Location(uri=uri_of(found[1].target), range=types.Range(start=start, end=start))
