"""Gemini CLI's `@path` import processor (tree format): imports are inlined between HTML comments.

Each import is resolved against the importing file's directory and must stay inside the project
root; a file already on the current import chain is not expanded again; past the maximum depth
the content is left as written. Qwen Code inherited the processor and differs in a few places
(`QwenImports`).
"""

from __future__ import annotations

import os
import re

from lsp_agents.core.fs import FileData, FileSystem
from lsp_agents.core.harnesses.import_inliner import ImportInliner, ImportSite, Refusal
from lsp_agents.core.imports import ImportRef, gemini_import_refs, qwen_import_refs
from lsp_agents.core.model import Cascade, Reason

MAX_DEPTH = 5
_URL = re.compile(r"^(?:file|https?)://")


class GeminiImports(ImportInliner):
    """Gemini's dialect: inlined in place; a refused or failed import leaves a comment."""

    max_depth = MAX_DEPTH
    sized_refusals = False
    real_paths = True  # the project-root test compares real paths (Gemini), else resolved ones (Qwen)
    keep_missing = False  # an import of a missing file stays as written (Qwen), else a failure comment

    def __init__(self, fs: FileSystem, cascade: Cascade, project_root: str) -> None:
        super().__init__(fs, cascade)
        self.project_root = project_root

    def refs(self, text: str) -> tuple[ImportRef, ...]:
        return gemini_import_refs(text)

    def refuse(self, site: ImportSite) -> Refusal | None:
        return self.too_deep(site) or self.outside_root(site) or self.on_chain(site)

    def outside_root(self, site: ImportSite) -> Refusal | None:
        if _URL.match(site.ref.path) or not self._inside(site.target):
            return Refusal(Reason.IMPORT_OUTSIDE_ROOT, f"<!-- Import failed: {site.ref.path} - Path traversal attempt -->")
        return None

    @staticmethod
    def on_chain(site: ImportSite) -> Refusal | None:
        if site.target in site.chain:
            return Refusal(Reason.IMPORT_CYCLE, f"<!-- File already processed: {site.ref.path} -->")
        return None

    def _inside(self, path: str) -> bool:
        """Gemini compares real paths: an import through a symlink that leads out of the project is
        refused, one that leads back in is fine; a symlink loop is refused."""
        root = self.project_root
        if self.real_paths:
            if self.fs.stat(path) == Reason.SYMLINK_LOOP:
                return False
            path, root = self.fs.realpath(path), self.fs.realpath(root)
        root = os.path.normpath(root)
        return path == root or path.startswith(root.rstrip(os.sep) + os.sep)

    def unreadable(self, site: ImportSite, data: FileData) -> str | None:
        if data.problem == Reason.MISSING and self.keep_missing:
            self.record(site, Reason.IMPORT_NOT_FOUND, 0)
            return None
        self.record(site, Reason.IMPORT_NOT_FOUND if data.problem == Reason.MISSING else data.problem, data.size)
        return f"<!-- Import failed: {site.ref.path} - {_error_message(site.target, data.problem)} -->"

    def wrap(self, site: ImportSite, inner: str) -> str:
        return f"<!-- Imported from: {site.ref.path} -->\n{inner}\n<!-- End of import from: {site.ref.path} -->"


class QwenImports(GeminiImports):
    """Qwen Code's: Markdown's code is skipped, paths compared as resolved, a missing file kept."""

    real_paths = False
    keep_missing = True

    def refs(self, text: str) -> tuple[ImportRef, ...]:
        return qwen_import_refs(text)


def _error_message(path: str, problem: Reason | None) -> str:
    """Node's error text for the failed access, as Gemini inlines it."""
    if problem == Reason.MISSING:
        return f"ENOENT: no such file or directory, access '{path}'"
    if problem == Reason.PERMISSION_DENIED:
        return f"EACCES: permission denied, open '{path}'"
    if problem == Reason.NOT_REGULAR_FILE:
        return "EISDIR: illegal operation on a directory, read"
    return f"cannot read '{path}'"
