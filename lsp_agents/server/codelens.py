"""Code lens at the top of an instruction file: which harnesses load it from the configured launch
directory, each opening that harness's effective prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from lsp_agents.server import usage
from lsp_agents.server.commands import EFFECTIVE_PROMPT
from lsp_agents.server.hover import is_instruction
from lsp_agents.server.server import guarded, path_of

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer

_TOP = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))


def lenses(ls: AgentsLanguageServer, uri: str, path: str) -> list[types.CodeLens]:
    cwd = ls.launch_directory(path)
    found, _shadows = usage.uses(ls, path, ls.enabled_harnesses(path), [cwd])
    loading = [u for u in found if u.when]
    if not loading:
        return [types.CodeLens(range=_TOP, command=types.Command(title="not loaded by any enabled harness", command=""))]
    return [
        types.CodeLens(
            range=_TOP,
            command=types.Command(
                title=f"loaded by {use.harness} ({use.when})",
                command=EFFECTIVE_PROMPT,
                arguments=[{"uri": uri, "harness": use.harness}],
            ),
        )
        for use in loading
    ]


def register(server: AgentsLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    @guarded([])
    def code_lens(ls: AgentsLanguageServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        path = path_of(params.text_document.uri)
        if path is None or not is_instruction(ls, path):
            return []
        return lenses(ls, params.text_document.uri, path)
