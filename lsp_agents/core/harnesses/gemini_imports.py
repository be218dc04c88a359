"""Gemini CLI's `@path` import processor (tree format): imports are inlined between HTML comments.

Each import is resolved against the importing file's directory and its real path must stay inside
the project root; a file already on the current import chain is not expanded again; past the
maximum depth the content is left as written.
"""

from __future__ import annotations

import os
import re

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.imports import gemini_import_refs
from lsp_agents.core.model import Candidate, Cascade, Reason, Role

MAX_DEPTH = 5
_URL = re.compile(r"^(?:file|https?)://")


def _inside(fs: FileSystem, path: str, root: str) -> bool:
    """Gemini compares real paths: an import through a symlink that leads out of the project is
    refused, one that leads back in is fine; a symlink loop is refused."""
    if fs.stat(path) == Reason.SYMLINK_LOOP:
        return False
    real, real_root = fs.realpath(path), fs.realpath(root)
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def expand_imports(
    fs: FileSystem,
    content: str,
    base_dir: str,
    project_root: str,
    importer: str,
    cascade: Cascade,
    chain: frozenset[str] = frozenset(),
    depth: int = 0,
) -> str:
    if depth >= MAX_DEPTH:
        for ref in gemini_import_refs(content):
            cascade.files.append(Candidate(os.path.normpath(os.path.join(base_dir, ref.path)), Role.IMPORT, False,
                                           reason=Reason.IMPORT_TOO_DEEP, related=importer))
        return content
    pieces: list[str] = []
    last = 0
    for ref in gemini_import_refs(content):
        pieces.append(content[last:ref.start])
        last = ref.end
        full = os.path.normpath(os.path.join(base_dir, ref.path))
        if _URL.match(ref.path) or not _inside(fs, full, project_root):
            pieces.append(f"<!-- Import failed: {ref.path} - Path traversal attempt -->")
            cascade.files.append(Candidate(full, Role.IMPORT, False, reason=Reason.IMPORT_OUTSIDE_ROOT, related=importer))
            continue
        if full in chain:
            pieces.append(f"<!-- File already processed: {ref.path} -->")
            cascade.files.append(Candidate(full, Role.IMPORT, False, reason=Reason.IMPORT_CYCLE, related=importer))
            continue
        data = fs.read(full)
        if data.problem:
            pieces.append(f"<!-- Import failed: {ref.path} - {_error_message(full, data.problem)} -->")
            reason = Reason.IMPORT_NOT_FOUND if data.problem == Reason.MISSING else data.problem
            cascade.files.append(Candidate(full, Role.IMPORT, False, data.size, reason, related=importer))
            continue
        cascade.files.append(Candidate(full, Role.IMPORT, True, data.size, related=importer))
        inner = expand_imports(fs, data.text(), os.path.dirname(full), project_root, full, cascade, chain | {full}, depth + 1)
        pieces.append(f"<!-- Imported from: {ref.path} -->\n{inner}\n<!-- End of import from: {ref.path} -->")
    pieces.append(content[last:])
    return "".join(pieces)


def _error_message(path: str, problem: Reason | None) -> str:
    """Node's error text for the failed access, as Gemini inlines it."""
    if problem == Reason.MISSING:
        return f"ENOENT: no such file or directory, access '{path}'"
    if problem == Reason.PERMISSION_DENIED:
        return f"EACCES: permission denied, open '{path}'"
    if problem == Reason.NOT_REGULAR_FILE:
        return "EISDIR: illegal operation on a directory, read"
    return f"cannot read '{path}'"
