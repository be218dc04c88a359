"""Document symbols: the headings of an instruction file, nested by level (the outline view), only
where the editor has no outline of its own: a file open under a language other than Markdown
(`.cursorrules` or `.mdc` as plain text, a `.clinerules` file). Editors outline Markdown
documents themselves, and a second copy doubled every heading in the outline and breadcrumbs."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from lsprotocol import types
from markdown_it import MarkdownIt

from lsp_agents.core.frontmatter import split_frontmatter
from lsp_agents.core.model import Span
from lsp_agents.server.budget import guarded
from lsp_agents.server.convert import to_range
from lsp_agents.server.file_facts import is_instruction
from lsp_agents.server.references import MARKDOWN_SUFFIXES, MAX_REFERENCE_CHARS
from lsp_agents.server.uris import path_of

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer

_MARKDOWN = MarkdownIt("commonmark")


def headings(text: str) -> list[tuple[int, int, str]]:
    """(level, line, title) of every heading; a YAML header is not Markdown and is skipped.
    Empty for a file too large to be an instruction file (references.MAX_REFERENCE_CHARS)."""
    if len(text) > MAX_REFERENCE_CHARS:
        return []
    _fields, body, _error = split_frontmatter(text)
    offset = text.count("\n") - body.count("\n")
    tokens = _MARKDOWN.parse(body)
    found = []
    for token, inline in itertools.pairwise(tokens):
        if token.type == "heading_open" and token.map:
            found.append((int(token.tag[1:]), token.map[0] + offset, inline.content.strip() or "(untitled)"))
    return found


def symbols(ls: AgentsLanguageServer, path: str) -> list[types.DocumentSymbol]:
    lines = ls.lines_of(path)
    codec = ls.workspace.position_codec
    roots: list[types.DocumentSymbol] = []
    stack: list[tuple[int, list[types.DocumentSymbol]]] = []  # the open headings: level, children
    found = headings("".join(lines))
    for index, (level, line, title) in enumerate(found):
        end_line = next((next_line for lv, next_line, _ in found[index + 1 :] if lv <= level), len(lines)) - 1
        end_line = max(end_line, line)
        end_character = len(lines[end_line].rstrip("\r\n")) if end_line < len(lines) else 0
        heading = to_range(codec, lines, Span(line, 0, line, len(lines[line].rstrip("\r\n"))))
        whole = to_range(codec, lines, Span(line, 0, end_line, end_character))
        children: list[types.DocumentSymbol] = []
        symbol = types.DocumentSymbol(
            name=title, kind=types.SymbolKind.String, range=whole, selection_range=heading, children=children
        )
        while stack and stack[-1][0] >= level:
            stack.pop()
        (stack[-1][1] if stack else roots).append(symbol)
        stack.append((level, children))
    return roots


def register(server: AgentsLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded([])
    def document_symbols(ls: AgentsLanguageServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        path = path_of(params.text_document.uri)
        if path is None or not outline_missing(ls, path):
            return []
        return symbols(ls, path)


def outline_missing(ls: AgentsLanguageServer, path: str) -> bool:
    """An instruction file the editor shows under a language of its own, which has no outline."""
    document = ls.open_document(path)
    if document is None or document.language_id == "markdown":
        return False
    return path.endswith(MARKDOWN_SUFFIXES) or is_instruction(ls, path)
