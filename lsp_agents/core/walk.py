"""Directory walks every harness shares: ancestors up to a boundary, marker roots, first match."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from lsp_agents.core.fs import FileSystem


def ancestors(start: str, stop: str | None = None) -> list[str]:
    """`start` and its parents, nearest first, up to and including `stop` (else the filesystem root)."""
    result = []
    current = start
    while True:
        result.append(current)
        if current == stop:
            break
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return result


def find_marker_root(fs: FileSystem, start: str, markers: Sequence[str]) -> str | None:
    """The nearest ancestor of `start` holding any marker (a file or a directory), if any."""
    for directory in ancestors(start):
        if any(fs.exists(os.path.join(directory, marker)) for marker in markers):
            return directory
    return None


def first_existing(fs: FileSystem, directory: str, names: Iterable[str], *, regular_file: bool = False) -> str | None:
    """The path of the first name that exists in `directory` (a regular file when asked)."""
    check = fs.is_file if regular_file else fs.exists
    for name in names:
        path = os.path.join(directory, name)
        if check(path):
            return path
    return None


def is_within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)
