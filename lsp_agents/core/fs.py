"""Safe, cached file access with an overlay for unsaved editor buffers.

Workspace files are untrusted, and so are the paths they name (`@/proc/1/root/etc/hostname`, a
NUL byte, 5,000 characters, a symlink into /proc): nothing here raises on a path, blocks (FIFOs
are never opened), follows a symlink loop, reads more than `max_read_bytes`, or lists, resolves
or reads anything in /proc, /sys or /dev (a guarded stat is all such a path gets). Problems come
back as `Reason` codes, not exceptions. Results are cached until `invalidate` is called, so one
query touches the disk once per path.

Outside this module, `os.path.exists`, `isfile`, `isdir`, `islink` and `lexists` are safe on
such paths (they answer False on any OSError or ValueError, after one stat); every other call
that takes a workspace-chosen path goes through here.
"""

from __future__ import annotations

import os
import stat as stat_module
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from lsp_agents.core import disk
from lsp_agents.core.disk import Journal
from lsp_agents.core.model import Reason
from lsp_agents.core.real_paths import is_system_path, real_path
from lsp_agents.core.text import text_replaced

DEFAULT_MAX_READ_BYTES = 16 * 1024 * 1024
T = TypeVar("T")
_BINARY_SNIFF_BYTES = 8192


@dataclass(frozen=True, slots=True)
class FileData:
    """The bytes of a file (None when unreadable) and what is wrong with it, if anything.

    `size` is the full size on disk; `data` holds at most the reader's cap (problem TOO_LARGE
    when the cap cut it).
    """

    path: str
    data: bytes | None
    size: int
    problem: Reason | None = None

    @property
    def is_binary(self) -> bool:
        return self.data is not None and b"\0" in self.data[:_BINARY_SNIFF_BYTES]

    @property
    def is_valid_utf8(self) -> bool:
        if self.data is None:
            return False
        try:
            self.data.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True

    def text(self, *, strip_bom: bool = False) -> str:
        """The content as a harness decodes it: UTF-8, bad bytes as U+FFFD.

        `strip_bom` drops a leading byte-order mark, as WHATWG decoders (Bun's file.text()) do;
        Node's readFile and Rust's from_utf8_lossy keep it.
        """
        if self.data is None:
            return ""
        text = self.data.decode("utf-8", errors="replace")
        return text[1:] if strip_bom and text.startswith("\ufeff") else text


class FileSystem:
    """Cached stat, listing and reads. One instance per index; the server invalidates on change."""

    def __init__(self, max_read_bytes: int = DEFAULT_MAX_READ_BYTES, *, journal: Journal | None = None) -> None:
        self.max_read_bytes = max_read_bytes
        self.journal = journal  # every disk call made (not the answers of the caches) noted there
        self._overlay: dict[str, bytes] = {}
        self._stat: dict[str, os.stat_result | Reason | None] = {}
        self._links: dict[str, bool] = {}  # whether a path itself is a symlink (globs ask of every folder they walk)
        self._reads: dict[str, FileData] = {}
        self._listings: dict[str, tuple[str, ...]] = {}
        self._entries: dict[str, list[os.DirEntry[str]]] = {}
        self._lowered: dict[str, frozenset[str]] = {}  # per folder listed (or missing), its names lower-cased
        self._realpaths: dict[str, str] = {}
        self._real_dirs: dict[str, str] = {}  # directories met on the way to real paths
        self._memo: dict[Hashable, object] = {}

    # -- overlay of unsaved buffers -------------------------------------------------------
    def set_overlay(self, path: str, text: str) -> None:
        content = text.encode("utf-8")
        if self._overlay.get(path) == content:
            return  # the buffer's text again (an editor's no-op change): everything cached still holds
        self._replace_overlay(path, content)

    def unsaved(self) -> dict[str, str]:
        """The buffers overriding the disk, by path: what a process of its own is given to see them too."""
        return {path: content.decode("utf-8") for path, content in self._overlay.items()}

    def clear_overlay(self, path: str) -> None:
        self._replace_overlay(path, None)

    def _replace_overlay(self, path: str, content: bytes | None) -> None:
        """The buffer's previous text is no file's any more: the parsers' memo is told
        (`text_replaced`), so that it does not keep every version of an edited file."""
        previous = self._overlay.pop(path, None)
        if content is not None:
            self._overlay[path] = content
        if previous is not None:
            text_replaced(len(previous))
        self._reads.pop(path, None)
        self.forget_derived()

    def forget_metadata(self) -> None:
        """Drop the cached stats, listings and real paths (not the contents): after a full
        analysis they cover every directory walked (tens of thousands of paths probed, most of
        them missing), while an edit needs a few of them again."""
        self._stat.clear()
        self._links.clear()
        self._forget_listings()
        self._realpaths.clear()
        self._real_dirs.clear()
        self.forget_derived()

    def learn_listings(self, names: Mapping[str, frozenset[str]]) -> None:
        """Take the lower-cased names of folders listed elsewhere (discovery's walk, perhaps in
        another process) for answering probes of missing paths (`_listed_as_missing`): the
        harness models probe a dozen names in every folder on the way up from each launch folder,
        and most are not there. A folder this file system has listed itself keeps its own."""
        for folder, lowered in names.items():
            self._lowered.setdefault(folder, lowered)

    def forget_derived(self) -> None:
        """Drop the memoized results (not the per-path caches): their inputs changed elsewhere."""
        self._memo.clear()

    def memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        """A value derived from the files, kept until anything is invalidated or overlaid.

        Whole-result caching (a harness's eager cascade, a workspace walk) on top of the per-path
        caches: any change clears all of it, which is cheap next to recomputing on every query.
        """
        try:
            return self._memo[key]  # type: ignore[return-value]  # the key names what `compute` gave for it (see memo_get)
        except KeyError:
            value = self._memo[key] = compute()
            return value

    def memo_get(self, key: Hashable) -> object | None:
        """A memoized value if there is one; computes nothing."""
        return self._memo.get(key)

    def _forget_disk_read(self, path: str) -> None:
        """Drop the cached read of `path`: the file may have changed, so its text may be no
        file's any more (a buffer's text is counted when the buffer changes)."""
        data = self._reads.pop(path, None)
        if data is not None and data.data is not None and path not in self._overlay:
            text_replaced(len(data.data))

    def invalidate(self, path: str | None = None) -> None:
        """Forget what is known about `path` (and the listings of the folders above it), or about everything."""
        self.forget_derived()
        if path is None:
            for read in list(self._reads):
                self._forget_disk_read(read)
            self._stat.clear()
            self._links.clear()
            self._forget_listings()
            self._realpaths.clear()
            self._real_dirs.clear()
            return
        self._forget_disk_read(path)
        for cache in (self._stat, self._links, self._realpaths, self._real_dirs):
            cache.pop(path, None)
        # Every folder above: a listing that predates a new folder would tell that the folder's
        # files are missing (`_listed_as_missing`).
        folder, below = path, None
        while folder != below:
            self._forget_listings(folder)
            folder, below = os.path.dirname(folder), folder

    def _forget_listings(self, folder: str | None = None) -> None:
        for cache in (self._listings, self._entries, self._lowered):
            if folder is None:
                cache.clear()
            else:
                cache.pop(folder, None)

    # -- metadata -------------------------------------------------------------------------
    def stat(self, path: str) -> os.stat_result | Reason | None:
        """The stat of `path` following symlinks; None if missing (or not a possible path: a NUL
        byte); a Reason if it cannot be known."""
        try:
            return self._stat[path]
        except KeyError:
            pass
        result: os.stat_result | Reason | None = None
        if not self._listed_as_missing(path):  # else its folder's listing, noted, tells
            answer = disk.stat_path(path)
            if self.journal is not None:
                self.journal.note("stat", path, disk.stat_summary(answer))
            result = Reason(answer) if isinstance(answer, str) else answer
        self._stat[path] = result
        return result

    def _listed_as_missing(self, path: str) -> bool:
        """Whether the listing of a folder above `path`, when one is known, shows that the
        component below it is missing, in any case (a case-insensitive file system finds
        `agents.md` as `AGENTS.md`): the harness models probe a dozen names in every folder they
        pass (`x/.cursor/rules/…` too), and most are not there."""
        if f"{os.sep}{os.pardir}{os.sep}" in path + os.sep or f"{os.sep}{os.curdir}{os.sep}" in path + os.sep:
            return False  # `a/missing/../AGENTS.md` is a/AGENTS.md
        child, folder = path, os.path.dirname(path)
        while folder not in self._lowered:
            if folder == child:
                return False
            child, folder = folder, os.path.dirname(folder)
        name = os.path.basename(child)
        return bool(name) and name.lower() not in self._lowered[folder]

    def exists(self, path: str) -> bool:
        """True for anything the harnesses' exists() accepts: files, directories, FIFOs, loops."""
        if path in self._overlay:
            return True
        return self.stat(path) is not None

    def is_file(self, path: str) -> bool:
        if path in self._overlay:
            return True
        st = self.stat(path)
        return isinstance(st, os.stat_result) and stat_module.S_ISREG(st.st_mode)

    def is_dir(self, path: str) -> bool:
        st = self.stat(path)
        return isinstance(st, os.stat_result) and stat_module.S_ISDIR(st.st_mode)

    def is_link(self, path: str) -> bool:
        """Whether `path` itself is a symlink (a revision answers from its tree, not the disk)."""
        try:
            return self._links[path]
        except KeyError:
            pass
        link = self._links[path] = disk.is_link(path)
        if self.journal is not None:
            self.journal.note("link", path, link)
        return link

    def identity(self, path: str) -> tuple[int, int] | None:
        """(device, inode) of the file a path leads to, for harnesses that dedupe by inode."""
        st = self.stat(path)
        return (st.st_dev, st.st_ino) if isinstance(st, os.stat_result) else None

    def size(self, path: str) -> int:
        if path in self._overlay:
            return len(self._overlay[path])
        st = self.stat(path)
        return st.st_size if isinstance(st, os.stat_result) else 0

    def realpath(self, path: str) -> str:
        """`os.path.realpath`, never failing and never looking into /proc, /sys or /dev (`real_path`)."""
        try:
            return self._realpaths[path]
        except KeyError:
            real = self._realpaths[path] = self._real_path(path)
            return real

    def _real_path(self, path: str) -> str:
        real = real_path(path, self._real_dirs)
        if self.journal is not None:
            self.journal.note("realpath", path, real)
        return real

    def is_system(self, path: str) -> bool:
        """Whether `path` leads into /proc, /sys or /dev (through symlinks too): never listed or read.
        The real path of a file is not kept (one read per file asks); its directories' are."""
        return is_system_path(self._realpaths.get(path) or self._real_path(path))

    def list_dir(self, path: str) -> tuple[str, ...]:
        """Entry names of a directory in the order the OS lists them (as the harnesses see them);
        empty when it is missing, unreadable or a system folder."""
        try:
            return self._listings[path]
        except KeyError:
            names = self._listings[path] = tuple(entry.name for entry in self.scan_dir(path))
            return names

    def scan_dir(self, path: str, *, keep: bool = True) -> list[os.DirEntry[str]]:
        """The entries of a directory for a walk (`os.scandir`: file or directory without a stat
        each); empty when it is missing, unreadable or a system folder. Kept like the other
        metadata (the harness models walk the same folders again, and the listing answers their
        probes for missing names), unless `keep` is False: discovery's one walk of every folder,
        whose listings the analysis, in a process of its own, would not see (and which only
        lists folders it found listed: none to probe as missing)."""
        try:
            return self._entries[path]
        except KeyError:
            pass
        entries, complete = self._list(path, probe=keep)
        if keep:
            self._entries[path] = entries
            if complete:
                self._lowered[path] = frozenset(entry.name.lower() for entry in entries)
        return entries

    def _list(self, path: str, *, probe: bool = True) -> tuple[list[os.DirEntry[str]], bool]:
        """The entries of a directory, and whether they are all it holds (it was listed, or it is
        not there); the real path of each folder in it that is no link, on the way. `probe`: look
        first whether a listing above already shows it missing."""
        if probe and self._listed_as_missing(path):
            return [], True
        entries: list[os.DirEntry[str]] = []
        complete = False
        if not is_system_path(real := self.realpath(path)):
            entries, complete = disk.list_path(path)
        if self.journal is not None:
            self.journal.note("list", path, disk.listing_summary(entries, complete))
        for entry in entries:  # a folder that is no link lies where its parent really lies
            try:
                if entry.is_dir(follow_symlinks=False):
                    self._realpaths.setdefault(entry.path, os.path.join(real, entry.name))
            except OSError:
                continue
        return entries, complete

    # -- content --------------------------------------------------------------------------
    def read(self, path: str) -> FileData:
        try:
            return self._reads[path]
        except KeyError:
            pass
        data = self._read_uncached(path)
        self._reads[path] = data
        return data

    def _read_uncached(self, path: str) -> FileData:
        if path in self._overlay:
            content = self._overlay[path]
            return FileData(path, content, len(content))
        data, size, reason = disk.read_path(path, self.max_read_bytes, self.stat(path), self.is_system)
        if self.journal is not None:
            self.journal.note("read", path, disk.read_summary(data, size, reason))
        if data is not None and reason == disk.TOO_LARGE:
            data = data[: self.max_read_bytes]
        return FileData(path, data, size, None if reason is None else Reason(reason))
