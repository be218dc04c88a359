"""Code lens at the top of an instruction file: each enabled harness that sends it, with what it
does from each launch directory in the words of the hover and the editor's tree (`file_facts`);
a click opens that harness's effective prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from lsp_agents.server import file_facts
from lsp_agents.server.budget import guarded
from lsp_agents.server.commands import EFFECTIVE_PROMPT
from lsp_agents.server.uris import path_of

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer

_TOP = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))


def lenses(ls: AgentsLanguageServer, uri: str, path: str) -> list[types.CodeLens]:
    facts = file_facts.uses_of(ls, path)
    sending = [h for h in facts.harnesses() if facts.sends(h)]
    if not sending:
        return [types.CodeLens(range=_TOP, command=types.Command(title="not sent by any enabled harness", command=""))]
    return [
        types.CodeLens(
            range=_TOP,
            command=types.Command(
                title=f"{harness}: {facts.summary(harness)}",
                command=EFFECTIVE_PROMPT,
                arguments=[{"uri": uri, "harness": harness}],
            ),
        )
        for harness in sending
    ]


def register(server: AgentsLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    @guarded([])
    def code_lens(ls: AgentsLanguageServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        path = path_of(params.text_document.uri)
        if path is None or not file_facts.is_instruction(ls, path):
            return []
        return lenses(ls, params.text_document.uri, path)
