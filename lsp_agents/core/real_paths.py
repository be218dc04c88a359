"""Real paths of untrusted paths: resolved without raising, without following loops, and never
into /proc, /sys or /dev.

Workspace files name paths to make a tool leak or hang (`@/proc/1/root/etc/hostname`, a link
to /dev/stdin, a chain of a thousand links); `real_path` resolves what it may and keeps the rest
as written, and `is_system_path` names the folders nothing is read from.
"""

from __future__ import annotations

import os

SYSTEM_FOLDERS = ("/proc", "/sys", "/dev")
_SYSTEM_PREFIXES = tuple(folder + "/" for folder in SYSTEM_FOLDERS)
MAX_SYMLINK_HOPS = 40  # what Linux follows in one lookup (MAXSYMLINKS)


def is_system_path(path: str) -> bool:
    """Whether `path`, absolute as `real_path` gives it, lies in /proc, /sys or /dev.

    Kernel and device files are what a workspace names to make a tool leak or hang
    (`@/proc/self/environ`, a link to /dev/stdin); none of them is an instruction file. The test is
    on the text: `real_path` keeps a path in those folders as written, `..` included, so that it
    cannot climb out on paper where the kernel climbs elsewhere (`/proc/1/root/../..`)."""
    return path.startswith(_SYSTEM_PREFIXES) or path in SYSTEM_FOLDERS


def real_path(path: str, known: dict[str, str] | None = None) -> str:
    """`os.path.realpath(path)` that never raises and never looks into /proc, /sys or /dev.

    os.path.realpath raises on a link it may not read (PermissionError on `/proc/1/root` outside
    the init process's namespace), a NUL byte (ValueError) and a chain of a thousand links
    (RecursionError). Here a component that cannot be examined is taken as written (as
    os.path.realpath takes a missing one), at most MAX_SYMLINK_HOPS links are followed (past
    that, as in a loop, the rest stays unresolved), and once a component lies in a system folder
    the rest of the path is kept as written: the kernel's own links there (`/proc/self/root`,
    `/proc/self/fd/0`) are never read. `known` caches the real paths of directories on the way.
    On Windows (no system folders, and its own rules for links) os.path.realpath runs, guarded."""
    if os.name != "posix":
        try:
            return os.path.realpath(path)
        except (OSError, ValueError, RecursionError):
            return os.path.normpath(path)
    try:
        absolute = path if os.path.isabs(path) else os.path.join(os.getcwd(), path)
    except OSError:  # the working directory was removed
        return os.path.normpath(path)
    resolved, _complete = _join_real(os.sep, absolute, {}, [MAX_SYMLINK_HOPS], {} if known is None else known)
    return resolved if is_system_path(resolved) else os.path.normpath(resolved)


def _join_real(path: str, rest: str, seen: dict[str, str | None], hops: list[int], known: dict[str, str]) -> tuple[str, bool]:
    """CPython's posixpath._joinrealpath (not strict) for an absolute `path`, with `real_path`'s
    guards. Returns the path and whether it was resolved to the end."""
    if rest.startswith(os.sep):
        path, rest = os.sep, rest[1:]
    while rest:
        name, _, rest = rest.partition(os.sep)
        if not name or name == os.curdir:
            continue
        if name == os.pardir:
            path = os.path.dirname(path)  # `path` is real: its parent is
            continue
        candidate = os.path.join(path, name)
        if is_system_path(candidate):
            return _joined(candidate, rest), False
        if candidate in known:
            path = known[candidate]
            continue
        if candidate in seen:  # a link met before in this lookup: resolved, or a loop
            if (resolved := seen[candidate]) is None:
                return _joined(candidate, rest), False
            path = resolved
        elif (target := _link_target(candidate)) is None:
            path = candidate
        elif hops[0] <= 0:
            return _joined(candidate, rest), False
        else:
            hops[0] -= 1
            seen[candidate] = None
            path, complete = _join_real(path, target, seen, hops, known)
            if not complete:
                return _joined(path, rest), False
            seen[candidate] = path
        if rest:
            known[candidate] = path
    return path, True


def _link_target(path: str) -> str | None:
    """What a symlink holds; None for anything else, and for what cannot be examined."""
    try:
        return os.readlink(path)
    except (OSError, ValueError):
        return None


def _joined(path: str, rest: str) -> str:
    return path + os.sep + rest if rest else path
