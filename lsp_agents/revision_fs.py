"""One git revision as a `FileSystem`: what the analysis would read had that commit been checked out.

`lsp-agents diff` analyses two revisions with the unchanged core, which reads every file through
`core.fs.FileSystem`. `RevisionFileSystem` answers for the paths of the repository's work tree
from git's objects instead (`git_objects`): the tree (`git ls-tree -r -t -z --long`: paths, modes,
sizes, symlinks, submodules) once, and the blobs the analysis reads lazily through one
`git cat-file --batch` process. Nothing is checked out and nothing is written into the
repository; paths outside the work tree (the home directory, folders above the repository) are
read from the disk as usual, so both sides of a comparison see the same ones.

Listings are in name order on both sides (`WorkTreeFileSystem` sorts the disk's): some harnesses
keep the order the OS lists a folder in, and a comparison must not report a reordering that only
the listing order made.

The repository is untrusted like any workspace content: git runs as `git_objects` says, and at
most `max_read_bytes` of a blob is read. Whether a path is a symlink comes from the revision's
tree (`is_link`); only harness detection's root folders are asked of the disk (the work tree).
"""

from __future__ import annotations

import os
import stat as stat_module
import zlib
from typing import cast

from lsp_agents.core.fs import DEFAULT_MAX_READ_BYTES, FileData, FileSystem
from lsp_agents.core.model import Reason
from lsp_agents.core.real_paths import MAX_SYMLINK_HOPS, is_system_path
from lsp_agents.core.walk import is_within
from lsp_agents.git_objects import BlobReader, GitError, TreeEntry, read_tree

MAX_LINK_BYTES = 4096  # a symlink's target (PATH_MAX)
_DEVICE = 0x6C7361  # the st_dev of every file of a revision: identity is the path's


class _DirEntry:
    """A directory entry as `os.scandir` gives it, for the walks (`core.walk`, discovery)."""

    __slots__ = ("_fs", "name", "path")

    def __init__(self, fs: RevisionFileSystem, directory: str, name: str) -> None:
        self._fs, self.name, self.path = fs, name, os.path.join(directory, name)

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        return (follow_symlinks or not self.is_symlink()) and self._fs.is_dir(self.path)

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        return (follow_symlinks or not self.is_symlink()) and self._fs.is_file(self.path)

    def is_symlink(self) -> bool:
        return self._fs.is_link(self.path)


class WorkTreeFileSystem(FileSystem):
    """The disk, with every folder listed in name order (as a revision's is)."""

    def scan_dir(self, path: str, *, keep: bool = True) -> list[os.DirEntry[str]]:
        return sorted(super().scan_dir(path, keep=keep), key=lambda entry: entry.name)


class RevisionFileSystem(FileSystem):
    """The work tree at `top` as `commit` holds it; everything outside `top` from the disk."""

    def __init__(self, top: str, commit: str, *, max_read_bytes: int = DEFAULT_MAX_READ_BYTES) -> None:
        super().__init__(max_read_bytes)
        self.top = top
        self.commit = commit
        self.entries, self.complete = read_tree(top, commit)
        self._children: dict[str, list[str]] = {"": [".git"]}  # the root's .git marks the repository
        for path, entry in self.entries.items():
            parent, _, name = path.rpartition("/")
            self._children.setdefault(parent, []).append(name)
            if entry.kind == "submodule":
                self._children[path] = [".git"]
        for names in self._children.values():
            names.sort()
        self._blobs = BlobReader(top)
        self._targets: dict[str, str | None] = {}

    def close(self) -> None:
        self._blobs.close()

    # -- the tree ---------------------------------------------------------------------------
    def _relative(self, path: str) -> str | None:
        """The '/'-separated path below `top` ('' for `top`), or None outside it."""
        if path == self.top:
            return ""
        return path[len(self.top) + 1 :].replace(os.sep, "/") if is_within(path, self.top) else None

    def _entry(self, relative: str) -> TreeEntry | None:
        if relative == "" or relative in self._children:
            return TreeEntry("dir", "", 0)
        owner, _, name = relative.rpartition("/")
        if name == ".git" and (owner == "" or (owner in self.entries and self.entries[owner].kind == "submodule")):
            return TreeEntry("dir", "", 0)
        return self.entries.get(relative)

    def is_link(self, path: str) -> bool:
        relative = self._relative(path)
        entry = self._entry(relative) if relative is not None else None
        return entry is not None and entry.kind == "link"

    def _link_target(self, relative: str) -> str | None:
        if relative not in self._targets:
            entry = self.entries[relative]
            data = self._blobs.read(entry.object, entry.size) if entry.size <= MAX_LINK_BYTES else b""
            self._targets[relative] = os.fsdecode(data) if data and b"\0" not in data else None
        return self._targets[relative]

    def realpath(self, path: str) -> str:
        try:
            return self._realpaths[path]
        except KeyError:
            real = self._realpaths[path] = self._resolve(path, [MAX_SYMLINK_HOPS])
            return real

    def _resolve(self, path: str, hops: list[int]) -> str:
        """The real path: the revision's symlinks followed within `top` (at most
        MAX_SYMLINK_HOPS), the disk's (`FileSystem.realpath`) once the path leaves it."""
        path = os.path.normpath(path)
        relative = self._relative(path)
        if relative is None:
            return super().realpath(path)
        current, rest = self.top, [p for p in relative.split("/") if p]
        while rest:
            name = rest.pop(0)
            if name in ("", "."):
                continue
            candidate = os.path.dirname(current) if name == ".." else os.path.join(current, name)
            inside = self._relative(candidate)
            if inside is None:
                return super().realpath(os.path.join(candidate, *rest))
            entry = self._entry(inside)
            if entry is None or entry.kind != "link":
                current = candidate
                continue
            target = self._link_target(inside)
            if target is None or hops[0] <= 0:
                return os.path.join(candidate, *rest)
            hops[0] -= 1
            if os.path.isabs(target):
                return self._resolve(os.path.join(target, *rest), hops)
            rest = [p for p in target.split("/") if p] + rest
        return current

    # -- metadata ---------------------------------------------------------------------------
    def stat(self, path: str) -> os.stat_result | Reason | None:
        try:
            return self._stat[path]
        except KeyError:
            pass
        real = self.realpath(path)
        relative = self._relative(real)
        if relative is None:
            result = super().stat(real)
        else:
            entry = self._entry(relative)
            if entry is None:
                result = None
            elif entry.kind == "link":  # still a link after the hops: a loop, or a target that cannot be read
                result = Reason.SYMLINK_LOOP
            else:
                mode = stat_module.S_IFDIR | 0o755 if entry.kind in ("dir", "submodule") else stat_module.S_IFREG | 0o644
                inode = zlib.crc32(real.encode("utf-8", "surrogateescape"))
                result = os.stat_result((mode, inode, _DEVICE, 1, 0, 0, entry.size, 0, 0, 0))
        self._stat[path] = result
        return result

    def is_system(self, path: str) -> bool:
        return is_system_path(self.realpath(path))

    def scan_dir(self, path: str, *, keep: bool = True) -> list[os.DirEntry[str]]:
        real = self.realpath(path)
        relative = self._relative(real)
        if relative is None:
            names = [] if is_system_path(real) else sorted(entry.name for entry in super().scan_dir(real, keep=keep))
        else:
            names = list(self._children.get(relative, ())) if self.is_dir(path) else []
        # The walks ask an entry its name, path and kind only: `_DirEntry` answers like os.DirEntry.
        return cast("list[os.DirEntry[str]]", [_DirEntry(self, path, name) for name in names])

    # -- content ----------------------------------------------------------------------------
    def _read_uncached(self, path: str) -> FileData:
        real = self.realpath(path)
        relative = self._relative(real)
        if relative is None:
            data = super()._read_uncached(real)
            return FileData(path, data.data, data.size, data.problem)
        st = self.stat(path)
        if not isinstance(st, os.stat_result):
            return FileData(path, None, 0, Reason.MISSING if st is None else st)
        entry = self._entry(relative)
        if entry is None or entry.kind != "file":
            return FileData(path, None, 0, Reason.NOT_REGULAR_FILE)
        try:
            if entry.size > self.max_read_bytes:
                return FileData(path, self._blobs.read_prefix(entry.object, self.max_read_bytes), entry.size, Reason.TOO_LARGE)
            return FileData(path, self._blobs.read(entry.object, entry.size), entry.size)
        except (GitError, OSError):
            return FileData(path, None, entry.size, Reason.UNREADABLE)
