"""One git revision as a `FileSystem`: what the analysis would read had that commit been checked out.

`lsp-agents diff` analyses two revisions with the unchanged core, which reads every file through
`core.fs.FileSystem`. `RevisionFileSystem` answers for the paths of the repository's work tree
from git's objects instead: the tree (`git ls-tree -r -t -z --long`: paths, modes, sizes,
symlinks, submodules) once, and the blobs the analysis reads lazily through one
`git cat-file --batch` process. Nothing is checked out and nothing is written into the
repository; paths outside the work tree (the home directory, folders above the repository) are
read from the disk as usual, so both sides of a comparison see the same ones.

Listings are in name order on both sides (`WorkTreeFileSystem` sorts the disk's): some harnesses
keep the order the OS lists a folder in, and a comparison must not report a reordering that only
the listing order made.

The repository is untrusted like any workspace content: git runs with a fixed argument list,
never through a shell, with system config, hooks and fsmonitor turned off, no filters or textconv
(`cat-file --batch` gives the stored bytes), a timeout on every call, at most MAX_ENTRIES tree
entries and at most `max_read_bytes` of a blob. A few checks of the analysis ask the disk
directly (`os.path.islink`, harness detection's root folders): those see the work tree.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import stat as stat_module
import subprocess
import threading
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from lsp_agents.core.fs import DEFAULT_MAX_READ_BYTES, MAX_SYMLINK_HOPS, FileData, FileSystem, is_system_path
from lsp_agents.core.model import Reason
from lsp_agents.core.walk import is_within
from lsp_agents.core.workspace import MAX_ENTRIES

GIT_TIMEOUT_SECONDS = 60.0
MAX_LINK_BYTES = 4096  # a symlink's target (PATH_MAX)
_SAFE_CONFIG = ("-c", "core.fsmonitor=", "-c", "core.hooksPath=/dev/null", "-c", "core.untrackedCache=false")
_KINDS = {"100644": "file", "100755": "file", "120000": "link", "040000": "dir", "160000": "submodule"}
_DEVICE = 0x6C7361  # the st_dev of every file of a revision: identity is the path's


class GitError(Exception):
    """git failed or is missing, or a revision is not a commit: a message for the user."""


def _environment() -> dict[str, str]:
    """The caller's environment without git's own variables (a hook's GIT_DIR or GIT_INDEX_FILE
    must not redirect us), with no system config, no prompt and no optional lock."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return {**env, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}


def _git_command(directory: str, args: Sequence[str]) -> list[str]:
    git = shutil.which("git")
    if git is None:
        raise GitError("git is not installed (it is needed to read revisions)")
    return [git, "-C", directory, *_SAFE_CONFIG, *args]


def run_git(directory: str, *args: str) -> str:
    """git's output (stripped) for a short query; its first error line as a GitError."""
    try:
        done = subprocess.run(
            _git_command(directory, args),
            capture_output=True,
            env=_environment(),
            timeout=GIT_TIMEOUT_SECONDS,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} took more than {GIT_TIMEOUT_SECONDS:.0f} s") from None
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(lines[-1] if lines else f"git {args[0]} failed")
    return done.stdout.decode("utf-8", "surrogateescape").strip()


def repository_top(directory: str) -> str:
    """The real path of the work tree holding `directory`."""
    try:
        return os.path.realpath(run_git(directory, "rev-parse", "--show-toplevel"))
    except GitError:
        raise GitError(f"{directory} is not in a git work tree") from None


def commit_of(top: str, revision: str) -> str:
    """The commit `revision` names; a GitError when it names none (or looks like an option)."""
    if not revision or revision.startswith("-"):
        raise GitError(f"{revision!r} is not a revision")
    try:
        return run_git(top, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}")
    except GitError:
        raise GitError(f"{revision!r} is not a commit of {top}") from None


def default_base(top: str) -> tuple[str, str]:
    """(name, commit): the merge base of HEAD with the default branch, origin/HEAD's target, else
    main, else master (local, else origin's)."""
    names = []
    with contextlib.suppress(GitError):
        names.append(run_git(top, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"))
    names += ["main", "master", "origin/main", "origin/master"]
    for name in names:
        try:
            branch = commit_of(top, name)
        except GitError:
            continue
        try:
            return name, run_git(top, "merge-base", "HEAD", branch)
        except GitError:
            raise GitError(f"HEAD and {name} have no common ancestor; name BASE") from None
    raise GitError("no default branch (origin/HEAD, main or master) to compare with; name BASE")


@dataclass(frozen=True, slots=True)
class Revision:
    """A revision to compare with, as a picker offers it."""

    name: str
    kind: str  # commit | branch | tag
    subject: str  # the commit's first line


def recent_revisions(top: str, count: int = 20) -> list[Revision]:
    """HEAD, HEAD~1 (when they exist), then the `count` branches and tags committed to last."""
    found = []
    for name in ("HEAD", "HEAD~1"):
        with contextlib.suppress(GitError):
            found.append(Revision(name, "commit", run_git(top, "log", "-1", "--format=%s", commit_of(top, name))))
    listed = run_git(
        top,
        "for-each-ref",
        "--sort=-committerdate",
        f"--count={count}",
        "--format=%(refname)%00%(subject)",
        "refs/heads",
        "refs/tags",
    )
    for line in listed.splitlines():
        ref, _, subject = line.partition("\0")
        kind, _, name = ref.removeprefix("refs/").partition("/")
        found.append(Revision(name, "branch" if kind == "heads" else "tag", subject))
    return found


def _start(command: list[str], stdin: int = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_environment())
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from None


@dataclass(frozen=True, slots=True)
class Entry:
    kind: str  # file | link | dir | submodule
    object: str
    size: int


def read_tree(top: str, commit: str, max_entries: int = MAX_ENTRIES) -> tuple[dict[str, Entry], bool]:
    """Every entry of the commit's tree by '/'-separated path, and whether the tree was complete
    (False past `max_entries`: the rest is left out, as discovery stops at that many entries)."""
    command = _git_command(top, ["ls-tree", "-r", "-t", "-z", "--long", "--full-tree", commit])
    process = _start(command)
    timer = threading.Timer(GIT_TIMEOUT_SECONDS, process.kill)
    timer.start()
    entries: dict[str, Entry] = {}
    complete = True
    pending = b""
    assert process.stdout is not None
    try:
        while chunk := process.stdout.read(1 << 16):
            *records, pending = (pending + chunk).split(b"\0")
            for record in records:
                if len(entries) >= max_entries:
                    complete = False
                    break
                meta, _, raw_path = record.partition(b"\t")
                mode, _kind, obj, size = meta.split(maxsplit=3)
                kind = _KINDS.get(mode.decode(), "file")
                entries[os.fsdecode(raw_path)] = Entry(kind, obj.decode(), int(size) if size.isdigit() else 0)
            if not complete:
                process.kill()
                break
    finally:
        timer.cancel()
        timer.join()  # no thread left behind: the analysis may fork
        process.stdout.close()
        code = process.wait()
    if complete and code != 0:
        raise GitError(f"cannot list the tree of {commit[:12]} (git ls-tree exited with {code})")
    return entries, complete


class _BlobReader:
    """One `git cat-file --batch` process per OS process (a forked analysis worker starts its
    own). A request interrupted half-way (a time limit raised inside the analysis) kills it: the
    next request starts a fresh one rather than read the rest of an old answer."""

    def __init__(self, top: str) -> None:
        self.top = top
        self._process: subprocess.Popen[bytes] | None = None
        self._pid = 0
        self._buffer = b""

    def read(self, obj: str, size: int) -> bytes:
        process = self._started()
        try:
            assert process.stdin is not None
            process.stdin.write(obj.encode() + b"\n")
            process.stdin.flush()
            header = self._until_newline(process)
            if header.endswith(b" missing"):
                raise GitError(f"object {obj} is missing")
            body = self._exactly(process, size + 1)
        except BaseException:
            self.close()
            raise
        return body[:size]

    def read_prefix(self, obj: str, limit: int) -> bytes:
        """At most `limit` bytes of a large blob, from a process of its own that is then stopped."""
        process = _start(_git_command(self.top, ["cat-file", "blob", obj]))
        try:
            assert process.stdout is not None
            return process.stdout.read(limit)
        finally:
            process.kill()
            process.wait()

    def close(self) -> None:
        if self._process is not None and self._pid == os.getpid():
            self._process.kill()
            self._process.wait()
        self._process, self._buffer = None, b""

    def _started(self) -> subprocess.Popen[bytes]:
        if self._process is None or self._pid != os.getpid():
            self._process, self._buffer = None, b""  # a forked child leaves its parent's process alone
            self._process = _start(_git_command(self.top, ["cat-file", "--batch"]), stdin=subprocess.PIPE)
            self._pid = os.getpid()
        return self._process

    def _fill(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        fd = process.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], GIT_TIMEOUT_SECONDS)
        if not ready:
            raise GitError(f"git cat-file gave nothing for {GIT_TIMEOUT_SECONDS:.0f} s")
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            raise GitError("git cat-file stopped")
        self._buffer += chunk

    def _until_newline(self, process: subprocess.Popen[bytes]) -> bytes:
        while (end := self._buffer.find(b"\n")) < 0:
            self._fill(process)
        line, self._buffer = self._buffer[:end], self._buffer[end + 1 :]
        return line

    def _exactly(self, process: subprocess.Popen[bytes], count: int) -> bytes:
        while len(self._buffer) < count:
            self._fill(process)
        data, self._buffer = self._buffer[:count], self._buffer[count:]
        return data


class _Entry:
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

    def scan_dir(self, path: str) -> list[os.DirEntry[str]]:
        return sorted(super().scan_dir(path), key=lambda entry: entry.name)


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
        self._blobs = _BlobReader(top)
        self._targets: dict[str, str | None] = {}

    def close(self) -> None:
        self._blobs.close()

    # -- the tree ---------------------------------------------------------------------------
    def _relative(self, path: str) -> str | None:
        """The '/'-separated path below `top` ('' for `top`), or None outside it."""
        if path == self.top:
            return ""
        return path[len(self.top) + 1 :].replace(os.sep, "/") if is_within(path, self.top) else None

    def _entry(self, relative: str) -> Entry | None:
        if relative == "" or relative in self._children:
            return Entry("dir", "", 0)
        owner, _, name = relative.rpartition("/")
        if name == ".git" and (owner == "" or (owner in self.entries and self.entries[owner].kind == "submodule")):
            return Entry("dir", "", 0)
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

    def scan_dir(self, path: str) -> list[os.DirEntry[str]]:
        real = self.realpath(path)
        relative = self._relative(real)
        if relative is None:
            names = [] if is_system_path(real) else sorted(entry.name for entry in super().scan_dir(real))
        else:
            names = list(self._children.get(relative, ())) if self.is_dir(path) else []
        # The walks ask an entry its name, path and kind only: `_Entry` answers like os.DirEntry.
        return cast("list[os.DirEntry[str]]", [_Entry(self, path, name) for name in names])

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
