"""git, run on an untrusted repository: the commits revisions name, the tree of a commit, and the
bytes of its blobs, for `revision_fs.RevisionFileSystem`.

git runs with a fixed argument list, never through a shell, with system config, hooks and
fsmonitor turned off, no filters or textconv (`cat-file --batch` gives the stored bytes), a
timeout on every call, at most MAX_ENTRIES tree entries and, from the caller, at most a bounded
part of a blob.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from lsp_agents.core.workspace import MAX_ENTRIES

GIT_TIMEOUT_SECONDS = 60.0
_SAFE_CONFIG = ("-c", "core.fsmonitor=", "-c", "core.hooksPath=/dev/null", "-c", "core.untrackedCache=false")
_KINDS = {"100644": "file", "100755": "file", "120000": "link", "040000": "dir", "160000": "submodule"}


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
class TreeEntry:
    """One entry of a commit's tree, as `git ls-tree --long` lists it."""

    kind: str  # file | link | dir | submodule
    object: str
    size: int


def read_tree(top: str, commit: str, max_entries: int = MAX_ENTRIES) -> tuple[dict[str, TreeEntry], bool]:
    """Every entry of the commit's tree by '/'-separated path, and whether the tree was complete
    (False past `max_entries`: the rest is left out, as discovery stops at that many entries)."""
    command = _git_command(top, ["ls-tree", "-r", "-t", "-z", "--long", "--full-tree", commit])
    process = _start(command)
    timer = threading.Timer(GIT_TIMEOUT_SECONDS, process.kill)
    timer.start()
    entries: dict[str, TreeEntry] = {}
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
                entries[os.fsdecode(raw_path)] = TreeEntry(kind, obj.decode(), int(size) if size.isdigit() else 0)
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


class BlobReader:
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
