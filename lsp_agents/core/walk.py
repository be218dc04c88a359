"""Directory walks every harness shares: ancestors up to a boundary, marker roots, first match,
the directories between two levels and a bounded walk down a tree."""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Sequence

from lsp_agents.core.fs import FileSystem

MAX_WALK_ENTRIES = 20_000
# The search for nested instruction files when no workspace index answers (VS Code's recursive
# search, and the rule folders below the launch directory): one walk, shared by every harness that
# searches, bounded (an untrusted tree), without `.git` and `node_modules`.
WORKSPACE_WALK_ENTRIES = 1_000_000
WORKSPACE_WALK_SKIPS = frozenset({".git", "node_modules"})


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
    """The nearest ancestor of `start` holding any marker (a file or a directory), if any.

    Memoized per directory until the files change (`FileSystem.memo`): every launch directory
    of a monorepo asks, for several harnesses, and they share their ancestors."""
    markers = tuple(markers)
    walked: list[str] = []
    found: str | None = None
    directory = start
    while True:
        memoized = fs.memo_get(("marker-root", markers, directory))
        if isinstance(memoized, tuple):  # (the root found, or None)
            found = memoized[0]
            break
        walked.append(directory)
        if any(fs.exists(os.path.join(directory, marker)) for marker in markers):
            found = directory
            break
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    for directory in walked:
        fs.memo(("marker-root", markers, directory), lambda: (found,))
    return found


def beyond_boundary(fs: FileSystem, boundary: str, names: Iterable[str]) -> list[str]:
    """Files with one of `names` in the directories above `boundary`, nearest first: what a
    harness that stops at the boundary leaves out (the filesystem root is not searched)."""
    names = tuple(names)
    return [
        os.path.join(directory, name)
        for directory in ancestors(boundary)[1:]
        if os.path.dirname(directory) != directory
        for name in names
        if fs.is_file(os.path.join(directory, name))
    ]


def is_within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def leaves_directory(root: str, relative: str, realpath: Callable[[str], str] = os.path.realpath) -> bool:
    """Whether `relative`, taken from `root`, names a place outside it: an absolute path, `..`
    climbing above it, or a symbolic link inside it that points out."""
    path = os.path.normpath(os.path.join(root, relative))
    return not is_within(path, os.path.normpath(root)) or not is_within(realpath(path), realpath(root))


def dirs_below(top: str, bottom: str) -> list[str]:
    """The directories strictly below `top` down to `bottom` (inclusive), outermost first.

    Empty when `bottom` is `top` or lies outside it: the lazy loads of the harnesses only reach
    directories under the launch directory.
    """
    if bottom == top or not is_within(bottom, top):
        return []
    return list(reversed(ancestors(bottom, top)))[1:]


def files_below(
    fs: FileSystem,
    root: str,
    *,
    skip: Collection[str] = (),
    limit: int = MAX_WALK_ENTRIES,
    follow_symlinks: bool = False,
    skip_hidden: bool = False,
    max_depth: int | None = None,
) -> tuple[tuple[str, ...], bool]:
    """The regular files under `root`, sorted, and whether the walk saw the whole tree.

    Workspace trees are untrusted: symlinked directories are not entered (with `follow_symlinks`,
    each real directory once: no loops), directories named in `skip` (or starting with a dot, with
    `skip_hidden`) and deeper than `max_depth` are left out, and the walk stops after `limit`
    directory entries. The result is kept until a file changes (it is asked for on every query).
    """
    key = ("files_below", root, tuple(skip), limit, follow_symlinks, skip_hidden, max_depth)
    return fs.memo(key, lambda: _files_below(fs, root, skip, limit, follow_symlinks, skip_hidden, max_depth))


def _files_below(
    fs: FileSystem, root: str, skip: Collection[str], limit: int, follow_symlinks: bool, skip_hidden: bool, max_depth: int | None
) -> tuple[tuple[str, ...], bool]:
    # os.scandir answers "file or directory" from the listing itself: no stat per entry.
    found: list[str] = []
    pending = [(root, 0)]
    seen = {fs.realpath(root)} if follow_symlinks else set()
    budget = limit
    while pending:
        directory, depth = pending.pop()
        for entry in fs.scan_dir(directory):
            budget -= 1
            if budget < 0:
                return tuple(sorted(found)), False
            if skip_hidden and entry.name.startswith("."):
                continue
            try:
                if entry.is_file():
                    found.append(entry.path)
                elif (
                    entry.name not in skip
                    and entry.is_dir(follow_symlinks=follow_symlinks)
                    and (max_depth is None or depth < max_depth)
                    and _first_visit(fs, entry.path, seen, follow_symlinks)
                ):
                    pending.append((entry.path, depth + 1))
            except OSError:
                continue
    return tuple(sorted(found)), True


def _first_visit(fs: FileSystem, path: str, seen: set[str], follow_symlinks: bool) -> bool:
    """Whether a directory is entered: always without symlinks, once per real directory with them."""
    if not follow_symlinks:
        return True
    real = fs.realpath(path)
    if real in seen:
        return False
    seen.add(real)
    return True


def workspace_files(fs: FileSystem, cwd: str) -> tuple[tuple[str, ...], bool]:
    """The files below `cwd` that a search for nested instruction files sees, and whether it saw
    them all (one walk, kept until a file changes, whichever harness asks first)."""
    return files_below(fs, cwd, skip=WORKSPACE_WALK_SKIPS, limit=WORKSPACE_WALK_ENTRIES)
