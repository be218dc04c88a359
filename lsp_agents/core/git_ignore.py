"""Whether git ignores a folder of a work tree, answered from its .gitignore files as `git
check-ignore` would be, without running git (workspace patterns are untrusted: bounded like every
other, see `patterns.IgnorePatterns`)."""

from __future__ import annotations

import os

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.patterns import MAX_FILE_PATTERNS, IgnorePatterns
from lsp_agents.core.walk import is_within


def git_ignored(fs: FileSystem, root: str, folder: str) -> bool:
    """Whether the .gitignore files of `root` and of the folders down to `folder` ignore it or a
    folder above it (git does not look inside an ignored folder)."""
    if folder == root or not is_within(folder, root):
        return False
    ignores: list[tuple[str, IgnorePatterns]] = []
    directory = root
    for part in os.path.relpath(folder, root).split(os.sep):
        if patterns := _patterns(fs, os.path.join(directory, ".gitignore")):
            ignores.append((directory, patterns))
        directory = os.path.join(directory, part)
        if any(p.match(os.path.relpath(directory, base).replace(os.sep, "/") + "/") for base, p in ignores):
            return True
    return False


def _patterns(fs: FileSystem, path: str) -> IgnorePatterns | None:
    def read() -> IgnorePatterns | None:
        data = fs.read(path) if fs.is_file(path) else None
        if data is None or data.data is None:
            return None
        return IgnorePatterns(data.text().splitlines(), limit=MAX_FILE_PATTERNS, source=path)

    return fs.memo(("gitignore", path), read)
