"""The places in a Markdown file that point at other files: `@path` imports in both dialects
(Claude's Markdown-aware one, Gemini's raw one, found by the core) and local Markdown links, each
resolved as the harnesses resolve it: against the importing file's directory, `~/` against the
home directory. Document links, go to definition, hovers and the file watcher use them.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from lsp_agents.core.imports import claude_import_refs, gemini_import_refs
from lsp_agents.core.model import Span

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
