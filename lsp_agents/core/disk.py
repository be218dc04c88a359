"""The file system calls made on paths a workspace chooses, and a journal of what they answered.

`FileSystem` (core/fs.py) caches and guards; the calls themselves live here, each mapping every
failure to a reason code (the values of `core.model.Reason`), so that the same function answers
when a path is first looked at and when a later run asks whether it would still answer the same.

A `Journal` keeps, per call and path, a summary of the answer: a stat's kind, size, times, inode
and device; a listing's names and which are folders; a read's size and the digest of its bytes; a
real path; whether a path is a link. `unchanged()` makes every call again and compares: what
`check`'s result cache (`lsp_agents.check_cache`) trusts a stored result on. The module imports
nothing heavy, since a cached `check` runs it and little else.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat as stat_module
from collections.abc import Callable, Mapping

from lsp_agents.core.real_paths import is_system_path, real_path

# The `core.model.Reason` values the calls answer with.
MISSING = "missing"
PERMISSION_DENIED = "permission-denied"
SYMLINK_LOOP = "symlink-loop"
UNREADABLE = "unreadable"
NOT_REGULAR_FILE = "not-regular-file"
SYSTEM_FILE = "system-file"
TOO_LARGE = "too-large"

Summary = None | bool | str | int | list["Summary"]


def stat_path(path: str) -> os.stat_result | str | None:
    """The stat of `path` following symlinks; None if missing (or not a possible path: a NUL
    byte); a reason if it cannot be known."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return None
    except PermissionError:
        return PERMISSION_DENIED
    except OSError as exc:
        return SYMLINK_LOOP if exc.errno == errno.ELOOP else UNREADABLE


def list_path(path: str) -> tuple[list[os.DirEntry[str]], bool]:
    """The entries of a directory, and whether they are all it holds (listed, or not there)."""
    try:
        with os.scandir(path) as listing:
            return list(listing), True
    except (FileNotFoundError, NotADirectoryError):
        return [], True
    except (OSError, ValueError):
        return [], False  # a folder that cannot be listed tells nothing of what lies in it


def read_path(
    path: str, max_bytes: int, st: os.stat_result | str | None, is_system: Callable[[str], bool]
) -> tuple[bytes | None, int, str | None]:
    """(bytes, size on disk, reason) of a file whose stat is `st`: at most `max_bytes + 1` bytes
    are read (more means TOO_LARGE, the caller cuts), never from a FIFO, a device or a system
    folder (`is_system`: whether a path leads into one)."""
    if st is None:
        return None, 0, MISSING
    if isinstance(st, str):
        return None, 0, st
    if not stat_module.S_ISREG(st.st_mode):
        return None, 0, NOT_REGULAR_FILE
    if is_system(path):  # /proc/self/environ is a "regular" file
        return None, st.st_size, SYSTEM_FILE
    try:
        # O_NONBLOCK: a file swapped for a FIFO after the stat still cannot block us.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except PermissionError:
        return None, st.st_size, PERMISSION_DENIED
    except OSError as exc:
        return None, st.st_size, SYMLINK_LOOP if exc.errno == errno.ELOOP else UNREADABLE
    try:
        with os.fdopen(fd, "rb") as handle:
            content = handle.read(max_bytes + 1)
    except OSError:
        return None, st.st_size, UNREADABLE
    if len(content) > max_bytes:
        return content, st.st_size, TOO_LARGE
    return content, max(st.st_size, len(content)), None


def is_link(path: str) -> bool:
    try:
        return os.path.islink(path)
    except ValueError:
        return False


# -- summaries: what a journal keeps of an answer ---------------------------------------------
def stat_summary(st: os.stat_result | str | None) -> Summary:
    if st is None or isinstance(st, str):
        return st
    return [stat_module.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def listing_summary(entries: list[os.DirEntry[str]], complete: bool) -> Summary:
    return [complete, [[entry.name, _is_folder(entry)] for entry in entries]]


def read_summary(data: bytes | None, size: int, reason: str | None) -> Summary:
    return [reason, size, None if data is None else hashlib.blake2b(data, digest_size=16).hexdigest()]


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


class Journal:
    """Each call made and the summary of its first answer, by call and path. `complete` is False
    once some of a run's calls went unnoted (an analysis process started again after a kill) or
    its result depends on more than the disk (a remote fetch, a time limit): `unchanged()` then
    vouches for nothing."""

    def __init__(self, max_read_bytes: int, entries: dict[str, Summary] | None = None) -> None:
        self.max_read_bytes = max_read_bytes
        self.entries: dict[str, Summary] = {} if entries is None else entries
        self.complete = True

    def note(self, call: str, path: str, summary: Summary) -> None:
        self.entries.setdefault(f"{call}\0{path}", summary)

    def add(self, entries: Mapping[str, Summary] | None, *, complete: bool = True) -> None:
        """Another process's notes (None: it kept none)."""
        for key, summary in (entries or {}).items():
            self.entries.setdefault(key, summary)
        self.complete = self.complete and complete and entries is not None

    def since(self, count: int) -> dict[str, Summary]:
        """The entries noted after the first `count` (what a forked share adds)."""
        return dict(list(self.entries.items())[count:])

    def unchanged(self) -> bool:
        """Whether every call noted answers as it did."""
        if not self.complete:
            return False
        folders: dict[str, str] = {}  # real paths of the folders met, shared by the calls of this one check
        for key, summary in self.entries.items():
            call, _, path = key.partition("\0")
            if self._answer(call, path, folders) != summary:
                return False
        return True

    def _answer(self, call: str, path: str, folders: dict[str, str]) -> Summary:
        def leads_to_system(path: str) -> bool:
            return is_system_path(real_path(path, folders))

        if call == "stat":
            return stat_summary(stat_path(path))
        if call == "list":
            if leads_to_system(path):
                return listing_summary([], False)
            return listing_summary(*list_path(path))
        if call == "read":
            return read_summary(*read_path(path, self.max_read_bytes, stat_path(path), leads_to_system))
        if call == "realpath":
            return real_path(path, folders)
        if call == "link":
            return is_link(path)
        if call == "lexists":
            return os.path.lexists(path)
        return "unknown call"  # never equal to a summary noted: the stored result is not used
