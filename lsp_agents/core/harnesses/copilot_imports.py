"""The Copilot CLI's `@path` imports: in AGENTS.md, CLAUDE.md and copilot-instructions.md, each
imported file is inlined right after the path that names it, in an `<imported_custom_instruction>`
block; the rest of the line follows it.

Only relative paths to files inside the boundary (the repository root; `$COPILOT_HOME` for the
user's own file) are inlined, at most MAX_IMPORT_DEPTH deep; a file already inlined into the same
instruction file (by real path) is marked as skipped; an `@` that names no file, or an absolute
path, stays as written. The native loader's code cannot be read (see copilot_cli._HEADER); the
captures copilot-cli-import-punctuation, -import-bounds and -duplicate-text pin these rules.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses.import_inliner import ImportInliner, ImportSite, Refusal
from lsp_agents.core.imports import ImportRef, copilot_import_refs
from lsp_agents.core.model import Cascade, Reason
from lsp_agents.core.text import js_trim_end
from lsp_agents.core.walk import is_within

MAX_IMPORT_DEPTH = 8  # captured: a chain of imports is inlined eight files deep (copilot-cli-import-bounds)


class CopilotImports(ImportInliner):
    """One instruction file's imports; `inlined` holds the real paths already in it (its own first)."""

    max_depth = MAX_IMPORT_DEPTH
    strip_bom = True

    def __init__(self, fs: FileSystem, cascade: Cascade, boundary: str, instruction_file: str) -> None:
        super().__init__(fs, cascade)
        self.boundary = boundary
        self.inlined = {fs.realpath(instruction_file)}

    def refs(self, text: str) -> tuple[ImportRef, ...]:
        return copilot_import_refs(text)

    def refuse(self, site: ImportSite) -> Refusal | None:
        if os.path.isabs(site.ref.path) or not self.fs.is_file(site.target):
            return Refusal(None)  # `@/abs/x.md` names nothing (copilot-cli-duplicate-text)
        return self.outside_root(site) or self.too_deep(site) or self.already_inlined(site)

    def outside_root(self, site: ImportSite) -> Refusal | None:
        return None if is_within(site.target, self.boundary) else Refusal(Reason.IMPORT_OUTSIDE_ROOT)

    def already_inlined(self, site: ImportSite) -> Refusal | None:
        if self.fs.realpath(site.target) in self.inlined:
            return Refusal(
                Reason.IMPORT_CYCLE, f'<imported_custom_instruction source="{site.target}" skipped="already-loaded" />'
            )
        return None

    def load(self, site: ImportSite) -> str | None:
        self.inlined.add(self.fs.realpath(site.target))  # before it is read: an unreadable file counts too
        return super().load(site)

    def wrap(self, site: ImportSite, inner: str) -> str:
        return f'<imported_custom_instruction source="{site.target}">\n{js_trim_end(inner)}\n</imported_custom_instruction>'

    def place(self, text: str, placed: Sequence[tuple[ImportRef, str | None]]) -> str:
        """Each block right after the path of its reference, the rest of the line after it."""
        pieces: list[str] = []
        done = 0
        for ref, block in placed:
            if block is not None:
                pieces += [text[done : ref.end], f"\n\n{block}"]
                done = ref.end
        return "".join([*pieces, text[done:]])
