"""Document links and go to definition for `@path` imports and Markdown links between files.

Imports are found by the core in both dialects (Claude's Markdown-aware one, Gemini's raw one)
and resolved as the harnesses resolve them: against the importing file's directory, `~/` against
the home directory.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types

from lsp_agents.core.imports import claude_import_refs, gemini_import_refs
from lsp_agents.core.model import Span
from lsp_agents.server.convert import from_position, span_contains, to_range
from lsp_agents.server.server import guarded, path_of, uri_of

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer

# [text](target "title"): the target up to white space or the closing parenthesis.
_MARKDOWN_LINK = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'][^\"'\n]*[\"'])?\s*\)")
_NOT_LOCAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|#|//)")
MARKDOWN_SUFFIXES = (".md", ".mdc", ".markdown", ".cursorrules")
# The link pattern backtracks quadratically on a line of unclosed brackets; real links sit on
# lines far shorter than this.
MAX_LINK_LINE = 4096
# Imports and links are looked for in files up to this size; larger ones are not instructions a
# harness sends whole (Claude Code skips files over 4 MiB) and parsing them would hold up requests.
MAX_REFERENCE_CHARS = 1_000_000


@dataclass(frozen=True, slots=True)
class Reference:
    """A place in a file that points at another file: an import (with the harnesses that expand
    it in this dialect) or a Markdown link."""

    span: Span
    written: str
    target: str
    harnesses: tuple[str, ...]

    @property
    def is_import(self) -> bool:
        return bool(self.harnesses)


def resolve(written: str, importer: str, home: str) -> str:
    if written.startswith("~/"):
        return os.path.join(home, written[2:])
    return os.path.normpath(os.path.join(os.path.dirname(importer), written))


def references(text: str, path: str, home: str) -> list[Reference]:
    """Imports and local Markdown links of a Markdown file, in text order, each place once."""
    if not path.endswith(MARKDOWN_SUFFIXES) or len(text) > MAX_REFERENCE_CHARS:
        return []
    found: dict[tuple[int, int], Reference] = {}
    dialects = {"claude-code": claude_import_refs(text), "gemini": gemini_import_refs(text)}
    for harness, refs in dialects.items():
        for ref in refs:
            span = Span(ref.line, ref.character, ref.line, ref.character + (ref.end - ref.start))
            previous = found.get((ref.line, ref.character))
            names = (previous.harnesses if previous else ()) + (harness,)
            found[(ref.line, ref.character)] = Reference(span, ref.path, resolve(ref.path, path, home), names)
    for number, line in enumerate(text.splitlines()):
        for match in _MARKDOWN_LINK.finditer(line) if len(line) <= MAX_LINK_LINE else ():
            written = match.group(1).split("#", 1)[0]
            if written and not _NOT_LOCAL.match(written) and (number, match.start()) not in found:
                span = Span(number, match.start(), number, match.end())
                found[(number, match.start())] = Reference(span, written, resolve(written, path, ""), ())
    return [found[key] for key in sorted(found)]


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
