"""The small interface every harness model implements, and the launch context it is given."""

from __future__ import annotations

import functools
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from lsp_agents.core.fs import FileData, FileSystem
from lsp_agents.core.harnesses.spec import HarnessSpec
from lsp_agents.core.model import Candidate, Cascade, Reason, Role
from lsp_agents.core.settings import HarnessOptions

if TYPE_CHECKING:
    from lsp_agents.core.workspace import WorkspaceIndex


@dataclass(frozen=True)
class LaunchContext:
    """Everything a harness looks at when it starts: where, whose home, which environment.

    `index`, when the caller has one (the analysis, the server), answers "which instruction files
    exist in the workspace" without a walk; the harness models walk the tree themselves otherwise.
    """

    cwd: str
    home: str
    fs: FileSystem
    env: Mapping[str, str] = field(default_factory=dict)
    options: HarnessOptions = field(default_factory=HarnessOptions)
    index: WorkspaceIndex | None = None

    @functools.cached_property
    def key(self) -> tuple[Hashable, ...]:
        """What a cached result depends on besides the files."""
        index_root = self.index.root if self.index is not None else None
        return (self.cwd, self.home, tuple(sorted(self.env.items())), repr(self.options), index_root)

    def env_flag(self, name: str) -> bool:
        """The usual truthiness of CLI flags in the environment: "1" or "true"."""
        return self.env.get(name, "").strip().lower() in ("1", "true")

    def home_path(self, *parts: str) -> str:
        return os.path.join(self.home, *parts)


def skipped(ctx: LaunchContext, path: str, role: Role, reason: Reason, related: str | None = None) -> Candidate:
    """A candidate the harness weighed and did not load, with its size on disk."""
    return Candidate(path, role, False, ctx.fs.size(path), reason, related=related)


class NameSearch:
    """The "first of these names in a folder" search most harnesses make: `candidates` yields the path
    of each name that exists while none is taken; once the caller sets `taken` (the path it keeps),
    each later one that exists is recorded as passed over for it (`NAME_SHADOWED`). `taken` may start
    set: a rules folder that was read hides every name."""

    def __init__(self, ctx: LaunchContext, cascade: Cascade, role: Role, taken: str | None = None) -> None:
        self.ctx, self.cascade, self.role, self.taken = ctx, cascade, role, taken

    def candidates(
        self, folder: str, names: Sequence[str], exists: Callable[[str], bool] | None = None
    ) -> Iterator[tuple[str, str]]:
        """(name, path) of each of `names` in `folder` that `exists` (default: any entry there)."""
        present = exists or self.ctx.fs.exists
        for name in names:
            path = os.path.join(folder, name)
            if not present(path):
                continue
            if self.taken is not None:
                self.cascade.files.append(skipped(self.ctx, path, self.role, Reason.NAME_SHADOWED, self.taken))
                continue
            yield name, path


def read_candidate(
    fs: FileSystem, cascade: Cascade, path: str, role: Role, related: str | None = None, *, prefix: int | None = None
) -> FileData | None:
    """`path`'s content, or None when it cannot be loaded (missing, unreadable, too large, a
    directory, a dangling link…: `FileData.problem`); then a not-loaded candidate with that
    reason is recorded in `cascade`. A harness that uses only the first `prefix` bytes of the file
    loads a file over the reader's cap when those bytes are within it."""
    data = fs.read(path)
    within_cap = prefix is not None and data.problem == Reason.TOO_LARGE and data.data is not None and prefix <= len(data.data)
    if data.problem and not within_cap:
        cascade.files.append(Candidate(path, role, False, data.size, data.problem, related=related))
        return None
    return data


class Harness(ABC):
    """One AI coding harness: what it loads at start (`eager`) and when its read tool reads a file.

    What it is and where its files are is data, in `spec`; the model holds the behaviour.
    """

    spec: ClassVar[HarnessSpec]

    @property
    def id(self) -> str:
        return self.spec.id

    def looks_for(self, ctx: LaunchContext) -> tuple[str, ...]:
        """`spec.looks_for`, or the names the harness's settings choose where they can."""
        return self.spec.looks_for

    def home_dir(self, ctx: LaunchContext) -> str:
        """The harness's per-user folder (`spec.home`), as its environment places it."""
        folder = self.spec.home_dir(ctx.home, ctx.env)
        if folder is None:
            raise ValueError(f"{self.id} keeps no per-user folder")
        return folder

    def eager(self, ctx: LaunchContext, *, keep: bool = True) -> Cascade:
        """The instruction text sent with the first turn, and every candidate weighed.

        Cached until a file changes (unless `keep` is false: the analysis asks for thousands of
        launch directories and keeps only what it needs); callers must not modify the result.
        """
        key = ("eager", self.id, ctx.key)
        if keep:
            return ctx.fs.memo(key, lambda: self.load_eager(ctx))
        cached = ctx.fs.memo_get(key)
        return cached if isinstance(cached, Cascade) else self.load_eager(ctx)

    @abstractmethod
    def load_eager(self, ctx: LaunchContext) -> Cascade:
        """Compute `eager` (harnesses implement this; everyone else calls `eager`)."""

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        """The lower-case names of the files and folders the eager load reads in a directory of
        its launch chain (`agents.md`, `.claude`…), or None when it may read anything there.

        Launched from a directory holding none of them, a harness that walks up loads what it
        loads from the directory above, and one that reads the launch directory alone loads no
        file of the project (the analysis skips such directories)."""
        return None

    reads_above_launch_directory = True  # False: the project files it loads are the launch directory's own

    def content_shape(self, data: FileData) -> Hashable | None:
        """What the candidates of `eager` take from an instruction file's content (whether it is
        blank, its imports…), or None when any edit may change them (the default).

        Two contents of the same shape give the same candidates, sizes aside: the analysis then
        keeps a launch directory's cascade through an edit instead of recomputing it.
        """
        return None

    def keeps_candidates(self, context: Callable[[], LaunchContext], cascade: Cascade) -> bool:
        """After edits that kept every file's `content_shape`: whether `cascade` (this harness's
        eager cascade from the launch context `context()` gives) still has the candidates `eager`
        would give now, sizes aside. True unless the harness also looks at sizes (Codex's byte
        budget). Thousands of cascades are asked per keystroke: the context is built on demand."""
        return True

    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        """What the read tool appends when the agent reads `target`; `loaded` were loaded earlier,
        `earlier` are the files the agent read before it, in order."""
        return Cascade(self.id, ctx.cwd)
