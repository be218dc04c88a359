"""Safe, cached file access with an overlay for unsaved editor buffers.

Workspace files are untrusted: nothing here blocks (FIFOs are never opened), follows a symlink
loop, or reads more than `max_read_bytes`. Problems come back as `Reason` codes, not exceptions.
Results are cached until `invalidate` is called, so one query touches the disk once per path.
"""

from __future__ import annotations

import errno
import os
import stat as stat_module
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

from lsp_agents.core.model import Reason

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

    def __init__(self, max_read_bytes: int = DEFAULT_MAX_READ_BYTES) -> None:
        self.max_read_bytes = max_read_bytes
        self._overlay: dict[str, bytes] = {}
        self._stat: dict[str, os.stat_result | Reason | None] = {}
        self._reads: dict[str, FileData] = {}
        self._listings: dict[str, tuple[str, ...]] = {}
        self._realpaths: dict[str, str] = {}
        self._memo: dict[Hashable, object] = {}

    # -- overlay of unsaved buffers -------------------------------------------------------
    def set_overlay(self, path: str, text: str) -> None:
        self._overlay[path] = text.encode("utf-8")
        self._reads.pop(path, None)
        self.forget_derived()

    def clear_overlay(self, path: str) -> None:
        self._overlay.pop(path, None)
        self._reads.pop(path, None)
        self.forget_derived()

    def forget_metadata(self) -> None:
        """Drop the cached stats, listings and real paths (not the contents): after a full
        analysis they cover every directory walked (tens of thousands of paths probed, most of
        them missing), while an edit needs a few of them again."""
        self._stat.clear()
        self._listings.clear()
        self._realpaths.clear()
        self.forget_derived()

    def forget_derived(self) -> None:
        """Drop the memoized results (not the per-path caches): their inputs changed elsewhere."""
        self._memo.clear()

    def memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        """A value derived from the files, kept until anything is invalidated or overlaid.

        Whole-result caching (a harness's eager cascade, a workspace walk) on top of the per-path
        caches: any change clears all of it, which is cheap next to recomputing on every query.
        """
        try:
            return self._memo[key]  # type: ignore[return-value]
        except KeyError:
            value = self._memo[key] = compute()
            return value

    def memo_get(self, key: Hashable) -> object | None:
        """A memoized value if there is one; computes nothing."""
        return self._memo.get(key)

    def invalidate(self, path: str | None = None) -> None:
        """Forget what is known about `path` (and its directory listing), or about everything."""
        self.forget_derived()
        if path is None:
            self._stat.clear()
            self._reads.clear()
            self._listings.clear()
            self._realpaths.clear()
            return
        for cache in (self._stat, self._reads, self._listings, self._realpaths):
            cache.pop(path, None)
        self._listings.pop(os.path.dirname(path), None)

    # -- metadata -------------------------------------------------------------------------
    def stat(self, path: str) -> os.stat_result | Reason | None:
        """The stat of `path` following symlinks; None if missing; a Reason if it cannot be known."""
        try:
            return self._stat[path]
        except KeyError:
            pass
        try:
            result: os.stat_result | Reason | None = os.stat(path)
        except FileNotFoundError:
            result = None
        except NotADirectoryError:
            result = None
        except PermissionError:
            result = Reason.PERMISSION_DENIED
        except OSError as exc:
            result = Reason.SYMLINK_LOOP if exc.errno == errno.ELOOP else Reason.UNREADABLE
        self._stat[path] = result
        return result

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
        try:
            return self._realpaths[path]
        except KeyError:
            real = os.path.realpath(path)
            self._realpaths[path] = real
            return real

    def list_dir(self, path: str) -> tuple[str, ...]:
        """Entry names of a directory in the order the OS lists them (as the harnesses see them);
        empty when it is missing or unreadable."""
        try:
            return self._listings[path]
        except KeyError:
            pass
        try:
            names = tuple(os.listdir(path))
        except OSError:
            names = ()
        self._listings[path] = names
        return names

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
        st = self.stat(path)
        if st is None:
            return FileData(path, None, 0, Reason.MISSING)
        if isinstance(st, Reason):
            return FileData(path, None, 0, st)
        if not stat_module.S_ISREG(st.st_mode):
            return FileData(path, None, 0, Reason.NOT_REGULAR_FILE)
        try:
            # O_NONBLOCK: a file swapped for a FIFO after the stat still cannot block us.
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except PermissionError:
            return FileData(path, None, st.st_size, Reason.PERMISSION_DENIED)
        except OSError as exc:
            reason = Reason.SYMLINK_LOOP if exc.errno == errno.ELOOP else Reason.UNREADABLE
            return FileData(path, None, st.st_size, reason)
        try:
            with os.fdopen(fd, "rb") as handle:
                content = handle.read(self.max_read_bytes + 1)
        except OSError:
            return FileData(path, None, st.st_size, Reason.UNREADABLE)
        if len(content) > self.max_read_bytes:
            return FileData(path, content[: self.max_read_bytes], st.st_size, Reason.TOO_LARGE)
        return FileData(path, content, max(st.st_size, len(content)))
