"""Gemini CLI's `@path` import processor (tree format): imports are inlined between HTML comments.

Each import is resolved against the importing file's directory and must stay inside the project
root; a file already on the current import chain is not expanded again; past the maximum depth
the content is left as written. Qwen Code inherited the processor and differs in a few places
(`ImportDialect`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.imports import ImportRef, gemini_import_refs, qwen_import_refs
from lsp_agents.core.model import Candidate, Cascade, Reason, Role

MAX_DEPTH = 5
_URL = re.compile(r"^(?:file|https?)://")


@dataclass(frozen=True, slots=True)
class ImportDialect:
    refs: Callable[[str], tuple[ImportRef, ...]]
    real_paths: bool  # the project-root test compares real paths (Gemini), else resolved ones (Qwen)
    keep_missing: bool  # an import of a missing file stays as written (Qwen), else a failure comment


GEMINI = ImportDialect(gemini_import_refs, real_paths=True, keep_missing=False)
QWEN = ImportDialect(qwen_import_refs, real_paths=False, keep_missing=True)


def _inside(fs: FileSystem, path: str, root: str, dialect: ImportDialect) -> bool:
    """Gemini compares real paths: an import through a symlink that leads out of the project is
    refused, one that leads back in is fine; a symlink loop is refused."""
    if dialect.real_paths:
        if fs.stat(path) == Reason.SYMLINK_LOOP:
            return False
        path, root = fs.realpath(path), fs.realpath(root)
    root = os.path.normpath(root)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def expand_imports(
    fs: FileSystem,
    content: str,
    base_dir: str,
    project_root: str,
    importer: str,
    cascade: Cascade,
    chain: frozenset[str] = frozenset(),
    depth: int = 0,
    dialect: ImportDialect = GEMINI,
) -> str:
    if depth >= MAX_DEPTH:
        for ref in dialect.refs(content):
            cascade.files.append(
                Candidate(
                    os.path.normpath(os.path.join(base_dir, ref.path)),
                    Role.IMPORT,
                    False,
                    reason=Reason.IMPORT_TOO_DEEP,
                    related=importer,
                )
            )
        return content
    pieces: list[str] = []
    last = 0
    for ref in dialect.refs(content):
        pieces.append(content[last : ref.start])
        last = ref.end
        full = os.path.normpath(os.path.join(base_dir, ref.path))
        if _URL.match(ref.path) or not _inside(fs, full, project_root, dialect):
            pieces.append(f"<!-- Import failed: {ref.path} - Path traversal attempt -->")
            cascade.files.append(Candidate(full, Role.IMPORT, False, reason=Reason.IMPORT_OUTSIDE_ROOT, related=importer))
            continue
        if full in chain:
            pieces.append(f"<!-- File already processed: {ref.path} -->")
            cascade.files.append(Candidate(full, Role.IMPORT, False, reason=Reason.IMPORT_CYCLE, related=importer))
            continue
        data = fs.read(full)
        if data.problem == Reason.MISSING and dialect.keep_missing:
            pieces.append(content[ref.start : ref.end])
            cascade.files.append(Candidate(full, Role.IMPORT, False, 0, Reason.IMPORT_NOT_FOUND, related=importer))
            continue
        if data.problem:
            pieces.append(f"<!-- Import failed: {ref.path} - {_error_message(full, data.problem)} -->")
            reason = Reason.IMPORT_NOT_FOUND if data.problem == Reason.MISSING else data.problem
            cascade.files.append(Candidate(full, Role.IMPORT, False, data.size, reason, related=importer))
            continue
        cascade.files.append(Candidate(full, Role.IMPORT, True, data.size, related=importer))
        inner = expand_imports(
            fs, data.text(), os.path.dirname(full), project_root, full, cascade, chain | {full}, depth + 1, dialect
        )
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
