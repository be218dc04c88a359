"""Whether git ignores a file or folder of a work tree, answered from its .gitignore files as `git
check-ignore` would be, without running git (workspace patterns are untrusted: bounded like every
other, see `patterns.IgnorePatterns`)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.patterns import MAX_FILE_PATTERNS, IgnorePatterns
from lsp_agents.core.walk import is_within


def git_ignored(fs: FileSystem, root: str, path: str, *, is_dir: bool = True, files: Sequence[str] = (".gitignore",)) -> bool:
    """Whether the .gitignore files (or the ignore files `files` names) of `root` and of the folders down
    to `path` ignore it or a folder above it (git does not look inside an ignored folder)."""
    if path == root or not is_within(path, root):
        return False
    ignores: list[tuple[str, IgnorePatterns]] = []
    directory = root
    parts = os.path.relpath(path, root).split(os.sep)
    for depth, part in enumerate(parts, 1):
        ignores += [(directory, p) for name in files if (p := _patterns(fs, os.path.join(directory, name)))]
        directory = os.path.join(directory, part)
        suffix = "/" if is_dir or depth < len(parts) else ""
        if any(p.match(os.path.relpath(directory, base).replace(os.sep, "/") + suffix) for base, p in ignores):
            return True
    return False


def _patterns(fs: FileSystem, path: str) -> IgnorePatterns | None:
    def read() -> IgnorePatterns | None:
        data = fs.read(path) if fs.is_file(path) else None
        if data is None or data.data is None:
            return None
        return IgnorePatterns(data.text().splitlines(), limit=MAX_FILE_PATTERNS, source=path)

    return fs.memo(("gitignore", path), read)
