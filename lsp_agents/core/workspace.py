"""Discovery: which instruction files exist where in a workspace, kept up to date incrementally.

What counts as an instruction file is derived from the harness specs (`harnesses.tables`).
Discovery honours `.gitignore` files and the `exclude` setting (both gitignore syntax, matched in
linear time by `core.patterns`, within its caps) and never enters `.git` or symlinked directories. It is what the analysis and the
editor's views iterate over; the cascade of one file never depends on it (the harness models
look at ancestors directly), so an ignored AGENTS.md above a file still counts.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses.tables import tables
from lsp_agents.core.layout import (
    MANIFESTS,
    TEMPLATE_MARKERS,
    is_complete_example,
    is_launch_directory,
    is_test_data,
    kits,
    owner_directory,
)
from lsp_agents.core.patterns import MAX_FILE_PATTERNS, IgnorePatterns
from lsp_agents.core.walk import ancestors, is_within

GITIGNORE = ".gitignore"
HIDDEN = os.sep + "."  # in a path below a hidden folder: most paths are ruled out by one substring test
MAX_ENTRIES = 1_000_000
_ALWAYS_SKIPPED = frozenset({".git", ".hg", ".svn"})


class SortedPaths:
    """A set of paths kept as one sorted list: the index holds every file of the workspace, and
    for 100,000 paths a hash table alone takes 4 MiB where the list takes 0.8. A lookup is a
    bisection; an insertion moves the list's tail (files come one by one only after the scan)."""

    __slots__ = ("_paths",)

    def __init__(self, paths: Iterable[str] = ()) -> None:
        self._paths = sorted(set(paths))

    @classmethod
    def from_sorted(cls, paths: Iterable[str]) -> SortedPaths:
        """The set of paths already sorted and unique (a snapshot's: 100,000 of them are not
        hashed and sorted again)."""
        made = cls()
        made._paths = list(paths)
        return made

    def _at(self, path: str) -> tuple[int, bool]:
        at = bisect.bisect_left(self._paths, path)
        return at, at < len(self._paths) and self._paths[at] == path

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self._at(path)[1]

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def add(self, path: str) -> None:
        at, present = self._at(path)
        if not present:
            self._paths.insert(at, path)

    def discard(self, path: str) -> None:
        at, present = self._at(path)
        if present:
            del self._paths[at]


@dataclass(frozen=True, slots=True)
class IndexSnapshot:
    """What a scan found, as plain data: another process rebuilds the index from it without
    walking the tree again."""

    root: str
    exclude: tuple[str, ...]
    extra_names: tuple[str, ...]
    files: tuple[str, ...]  # sorted
    instruction_files: frozenset[str]
    repositories: frozenset[str]
    warnings: tuple[str, ...]
    # The lower-cased names in each folder the walk listed, for the other process's probes of
    # missing paths (`FileSystem.learn_listings`); a folder above a path updated since is left out.
    listings: Mapping[str, frozenset[str]]


class WorkspaceIndex:
    """The files of one workspace folder: all of them (for glob checks) and the instruction files."""

    def __init__(self, root: str, fs: FileSystem, *, exclude: Iterable[str] = (), extra_names: Iterable[str] = ()) -> None:
        self.root = root
        self._prefix = root.rstrip(os.sep) + os.sep
        self.fs = fs
        self._exclude_lines = tuple(exclude)
        self._exclude = IgnorePatterns(self._exclude_lines, source="exclude")
        self._extra_names = frozenset(extra_names)
        self._tables = tables()
        self._instruction = IgnorePatterns([*self._tables.instruction_patterns, *self._extra_names])
        self.files = SortedPaths()
        self.instruction_files: set[str] = set()
        self._kits: frozenset[str] | None = None  # `layout.kits` of the instruction files, once asked
        self._launch: dict[str, bool] = {}  # `is_launch_directory` answers, until a file comes or goes
        self.repositories: set[str] = set()  # nested git work trees (a `.git` below the root)
        self._listings: dict[str, frozenset[str]] = {}  # per folder walked, its names lower-cased, until a snapshot takes them
        # Discovery stopped at MAX_ENTRIES, patterns past the caps: one line each.
        self.warnings: list[str] = [self._exclude.warning] if self._exclude.warning else []

    def snapshot(self) -> IndexSnapshot:
        """The index as plain data. The walk's listings go with the first snapshot taken after it
        (for the analysis process's first run; 16 MiB on a 100,000-file tree, not kept here)."""
        listings, self._listings = self._listings, {}
        return IndexSnapshot(
            self.root,
            self._exclude_lines,
            tuple(sorted(self._extra_names)),
            tuple(self.files),
            frozenset(self.instruction_files),
            frozenset(self.repositories),
            tuple(self.warnings),
            listings,
        )

    @classmethod
    def from_snapshot(cls, snapshot: IndexSnapshot, fs: FileSystem) -> WorkspaceIndex:
        index = cls(snapshot.root, fs, exclude=snapshot.exclude, extra_names=snapshot.extra_names)
        index.files = SortedPaths.from_sorted(snapshot.files)
        index.instruction_files = set(snapshot.instruction_files)
        index.repositories = set(snapshot.repositories)
        index.warnings = list(snapshot.warnings)
        fs.learn_listings(snapshot.listings)
        return index

    # -- queries ----------------------------------------------------------------------------
    def relative(self, path: str) -> str:
        """The '/'-separated path below the root (a string slice: this runs for every file)."""
        if path.startswith(self._prefix):
            return path[len(self._prefix) :].replace(os.sep, "/")
        return os.path.relpath(path, self.root).replace(os.sep, "/")

    def contains(self, path: str) -> bool:
        return path == self.root or path.startswith(self._prefix)

    def is_instruction_path(self, path: str) -> bool:
        """Whether a file is one a harness may read (runs for every file of the workspace: the
        cheapest tests first)."""
        name = path[path.rfind(os.sep) + 1 :]
        known = self._tables
        if (
            name not in known.instruction_names
            and name not in self._extra_names
            and not (HIDDEN in path and known.in_tool_folder.search(path))
        ):
            return False
        return self.contains(path) and self._instruction.match(self.relative(path))

    def is_excluded(self, path: str) -> bool:
        return bool(self._exclude) and self._exclude.match(self.relative(path))

    def is_project(self, relative_dir: str) -> bool:
        """Whether a directory (relative to the root) holds a package manifest of its own."""
        directory = os.path.join(self.root, relative_dir)
        return any(os.path.join(directory, name) in self.files for name in MANIFESTS)

    def is_template(self, relative_dir: str) -> bool:
        """Whether a directory (relative to the root) is a scaffolder's project template or a
        sub-folder of a kit of per-tool files (`layout.kits`): copied out, not worked in."""
        directory = os.path.join(self.root, relative_dir)
        if any(os.path.join(directory, name) in self.files for name in TEMPLATE_MARKERS):
            return True
        if self._kits is None:
            self._kits = kits(self.relative(p) for p in self.instruction_files)
        return bool(relative_dir) and os.path.dirname(relative_dir) in self._kits

    def is_launch_directory(self, relative_dir: str) -> bool:
        """`layout.is_launch_directory` with this workspace's templates."""
        known = self._launch.get(relative_dir)
        if known is None:
            known = self._launch[relative_dir] = is_launch_directory(relative_dir, self.is_template)
        return known

    def is_complete_example(self, relative_dir: str) -> bool:
        """`layout.is_complete_example` with this workspace's projects and templates."""
        return is_complete_example(relative_dir, self.is_project, self.is_template)

    def is_test_data(self, path: str) -> bool:
        """An instruction file that is an example (a fixture), not an instruction of this workspace."""
        return is_test_data(self.relative(path))

    def launch_directories(self, patterns: Iterable[str] | None = None) -> list[str]:
        """Where a harness is plausibly launched, sorted: the workspace root, nested repositories
        holding instruction files, and the directories instruction files belong to unless they
        lie in a tool, documentation, skill, dependency, template or fixture folder (see
        `layout`). `patterns` (gitignore syntax, directories relative to the root) replace
        that guess; the root always counts."""
        if patterns is not None:
            launch = IgnorePatterns(patterns)
            candidates = {os.path.dirname(p) for p in self.files} | self.repositories
            return sorted(
                {self.root}
                | {d for d in candidates if self.contains(d) and d != self.root and launch.match(self.relative(d) + "/")}
            )
        directories = {self.root}
        owners = set()
        for path in self.instruction_files:
            relative = self.relative(path)
            if not is_test_data(relative):
                owners.add(owner_directory(relative))
        directories |= {os.path.join(self.root, o) for o in owners if o and self.is_launch_directory(o)}
        nested = {os.path.join(self.root, o) for o in owners}
        directories |= {r for r in self.repositories if any(is_within(d, r) for d in nested)}
        return sorted(directories)

    # -- discovery --------------------------------------------------------------------------
    def scan(self, progress: Callable[[int], None] | None = None) -> None:
        """Walk the whole workspace once (iteratively: deep trees cannot overflow the stack)."""
        found: list[str] = []
        try:
            self._walk(found, progress)
        finally:
            self.files = SortedPaths(found)
            self.instruction_files = {path for path in found if self.is_instruction_path(path)}
            self._kits = None
            self._launch = {}
            # What was learnt of the disk before this walk is stale too (a rescan follows changes
            # nobody reported one by one), and so is what was computed from the index.
            self.fs.forget_metadata()

    def _walk(self, found: list[str], progress: Callable[[int], None] | None) -> None:
        self.repositories.clear()
        self._listings = {}
        self.warnings = [self._exclude.warning] if self._exclude.warning else []
        seen = 0
        excluding = bool(self._exclude)
        stack: list[tuple[str, tuple[tuple[str, IgnorePatterns], ...]]] = [(self.root, ())]
        while stack:
            directory, ignores = stack.pop()
            entries = self.fs.scan_dir(directory, keep=False)
            if entries:  # an empty listing may be a folder that could not be read: it tells nothing
                self._listings[directory] = frozenset(entry.name.lower() for entry in entries)
            if any(entry.name == GITIGNORE for entry in entries):  # the listing spares a stat per folder
                ignores = ignores + self._gitignore(directory)
            for entry in entries:
                seen += 1
                if seen > MAX_ENTRIES:
                    self.warnings.append(
                        f"warning: {self.root}: more than {MAX_ENTRIES:,} entries; discovery stopped "
                        "there, so files found later are not analysed (narrow it with `exclude`)"
                    )
                    return
                if progress and seen % 5000 == 0:
                    progress(seen)
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    continue
                if entry.name == ".git" and directory != self.root:
                    self.repositories.add(directory)
                if (entry.name in _ALWAYS_SKIPPED and is_dir) or (
                    (excluding or ignores) and self._ignored(entry.path, is_dir, ignores)
                ):
                    continue
                if is_dir:
                    stack.append((entry.path, ignores))
                else:
                    found.append(entry.path)

    def _gitignore(self, directory: str, *, warn: bool = True) -> tuple[tuple[str, IgnorePatterns], ...]:
        path = os.path.join(directory, GITIGNORE)
        data = self.fs.read(path) if self.fs.is_file(path) else None
        if data is None or data.data is None:
            return ()
        ignore = IgnorePatterns(data.text().splitlines(), limit=MAX_FILE_PATTERNS, source=path)
        if ignore.warning and warn:
            self.warnings.append(ignore.warning)
        return ((directory, ignore),) if ignore else ()

    def is_gitignored(self, path: str) -> bool:
        """Whether the workspace's .gitignore files ignore `path`, which need not exist: a personal
        file (`.claude/local.md`) kept out of the repository on purpose."""
        if not self.contains(path) or path == self.root:
            return False
        parts = self.relative(path).split("/")
        ignores: tuple[tuple[str, IgnorePatterns], ...] = ()
        directory = self.root
        for depth, part in enumerate(parts):
            ignores += self._gitignore(directory, warn=False)
            child = os.path.join(directory, part)
            if self._ignored(child, depth < len(parts) - 1, ignores):
                return True
            directory = child
        return False

    def _ignored(self, path: str, is_dir: bool, ignores: tuple[tuple[str, IgnorePatterns], ...]) -> bool:
        suffix = "/" if is_dir else ""
        if self._exclude and self._exclude.match(self.relative(path) + suffix):
            return True
        return bool(ignores) and any(
            ignore.match(path[len(base.rstrip(os.sep)) + 1 :].replace(os.sep, "/") + suffix) for base, ignore in ignores
        )

    def _add(self, path: str) -> None:
        self.files.add(path)
        self._launch = {}  # a template's marker may have come
        if self.is_instruction_path(path) and path not in self.instruction_files:
            self.instruction_files.add(path)
            self._kits = None  # a new instruction file may make a kit; an edited one cannot

    # -- incremental ------------------------------------------------------------------------
    def update(self, path: str) -> bool:
        """Re-check one path after a create, change or delete; True when the instruction set changed."""
        self.fs.invalidate(path)
        for folder in ancestors(path, self.root):  # a snapshot must not tell that `path` is missing, or there
            self._listings.pop(folder, None)
        if not self.contains(path) or path == self.root:
            return False
        was_instruction = path in self.instruction_files
        if self.fs.is_file(path) and not self.is_excluded(path):
            self._add(path)
        else:
            self.files.discard(path)
            self._launch = {}
            if path in self.instruction_files:
                self.instruction_files.discard(path)
                self._kits = None
        return was_instruction != (path in self.instruction_files)
