"""The cascades the analysis reasons about: one per enabled harness and possible launch directory.

A *unit* is (harness id, launch directory). The workspace root and every directory holding
instruction files are launch directories; Copilot and Cursor take the workspace root as their
project root, so they get the root only. Each unit's eager cascade is computed once and kept
until a file it depends on changes; `by_path` maps every file a cascade mentions back to its
units, which is what makes re-analysing one file cheap.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from lsp_agents.core.harnesses import HARNESSES, LaunchContext
from lsp_agents.core.layout import owner_directory
from lsp_agents.core.model import Cascade, Reason
from lsp_agents.core.settings import HarnessOptions
from lsp_agents.core.walk import ancestors, find_marker_root
from lsp_agents.core.workspace import WorkspaceIndex

# Not loaded now, but a harness can still get to the file (on a read, by the model or the user, or it
# already has it). The Continue CLI's rules that do not always apply count as they did while they
# were `conditional`: the Continue IDE attaches them by their globs, and calling them unreachable
# for the CLI is a new finding that needs blind labels before it is made.
REACHABLE = frozenset(
    {
        Reason.CONDITIONAL,
        Reason.AGENT_REQUESTED,
        Reason.MANUAL,
        Reason.NOT_ALWAYS_APPLIED,
        Reason.LISTED_ONLY,
        Reason.SKILL_LISTED,
        Reason.ALREADY_LOADED,
        Reason.DUPLICATE_PATH,
        Reason.SAME_TEXT,
        Reason.BELOW_CWD,
        Reason.GLOB_NO_MATCH,
    }
)
PROBE_NAME = "lsp-agents-probe"  # a file name no directory holds: the target of a simulated read


def root_only(harness: str) -> bool:
    """Whether the harness takes the workspace root as its project root, so it is launched there only."""
    return HARNESSES[harness].spec.root_only


@dataclass(frozen=True, slots=True, order=True)
class Unit:
    harness: str
    cwd: str


class CascadeStore:
    """Eager cascades per unit, and which units mention which file."""

    def __init__(self, index: WorkspaceIndex, home: str, env: Mapping[str, str], options: HarnessOptions) -> None:
        self.index = index
        self.root = index.root
        self.fs = index.fs
        self.home = home
        self.env = dict(env)
        self.options = options
        self.cascades: dict[Unit, Cascade] = {}
        self.by_path: dict[str, set[Unit]] = defaultdict(set)  # file -> the units whose cascade mentions it
        self.aliases: dict[Unit, tuple[str, ...]] = {}  # unit -> the launch directories it stands for too
        self._paths: dict[str, str] = {}  # one string per path: thousands of cascades name the same files
        self._readers: list[str] = []  # harnesses by how recently a simulated read reached a file
        # One launch context per directory: its `key`, which every harness's memo is keyed by (the
        # environment sorted, the options written out), is computed once, not per harness and unit.
        self._contexts: dict[str, LaunchContext] = {}

    def clear(self) -> None:
        self.cascades.clear()
        self.by_path.clear()
        self.aliases.clear()
        self._paths.clear()
        self._contexts.clear()

    def context(self, cwd: str) -> LaunchContext:
        context = self._contexts.get(cwd)
        if context is None:
            context = LaunchContext(cwd=cwd, home=self.home, fs=self.fs, env=self.env, options=self.options, index=self.index)
            self._contexts[cwd] = context
        return context

    def units(self, harnesses: Iterable[str], launch_dirs: Iterable[str]) -> list[Unit]:
        """A unit per harness and launch directory (the root only for `root_only` harnesses), but
        for a directory that launches the harness exactly as its nearest kept launch directory
        above does (see `_same_as_above`): that unit is skipped and recorded in `aliases` as a
        launch directory of the one above, which its facts then name too. (A harness that reads
        the launch directory alone loads no project file there: nothing to record.)"""
        launch = sorted(launch_dirs)
        entries = self._entries() if find_marker_root(self.fs, self.root, [".git"]) else None
        self.aliases.clear()
        units = []
        for harness in harnesses:
            kept: set[str] = set()
            for directory in [self.root] if root_only(harness) else launch:  # parents before children
                above = self._same_as_above(harness, directory, kept, entries)
                if above is None:
                    kept.add(directory)
                    units.append(Unit(harness, directory))
                elif HARNESSES[harness].reads_above_launch_directory:
                    self.aliases[Unit(harness, above)] = (*self.aliases.get(Unit(harness, above), ()), directory)
        return units

    def _same_as_above(self, harness: str, directory: str, kept: set[str], entries: Mapping[str, set[str]] | None) -> str | None:
        """The kept launch directory above `directory` whose cascade is the one launched from
        `directory`, or None. That holds when neither `directory` nor any directory between
        holds a file or folder the harness reads there (`Harness.directory_names`) and none is
        a repository root: the walk up then finds the same files. Only inside a git work tree
        (outside one, some harnesses read the launch directory alone)."""
        if entries is None or directory == self.root:
            return None
        names = HARNESSES[harness].directory_names(self.context(directory))
        if names is None:
            return None
        between = directory
        while between not in kept:
            if between == self.root or between in self.index.repositories or not names.isdisjoint(entries.get(between, ())):
                return None
            between = os.path.dirname(between)
        return between

    def _entries(self) -> dict[str, set[str]]:
        """Per directory, the lower-case names of the instruction files it owns, or of the tool
        folders holding them (`.claude`, `.github`…)."""
        entries: dict[str, set[str]] = defaultdict(set)
        for path in self.index.instruction_files:
            relative = self.index.relative(path)
            owner = owner_directory(relative)
            rest = relative[len(owner) + 1 :] if owner else relative
            entries[os.path.join(self.root, owner) if owner else self.root].add(rest.split("/", 1)[0].lower())
        return entries

    def compute(self, unit: Unit) -> Cascade:
        """The unit's eager cascade without its text (the analysis reasons about candidates only)."""
        full = HARNESSES[unit.harness].eager(self.context(unit.cwd), keep=False)
        for candidate in full.files:
            candidate.path = self._paths.setdefault(candidate.path, candidate.path)
            if candidate.related is not None:
                candidate.related = self._paths.setdefault(candidate.related, candidate.related)
        return Cascade(full.harness, full.cwd, files=full.files, warnings=full.warnings)

    def put(self, unit: Unit, cascade: Cascade) -> None:
        self.drop(unit)
        self.cascades[unit] = cascade
        for candidate in cascade.files:
            self.by_path[candidate.path].add(unit)

    def drop(self, unit: Unit) -> None:
        old = self.cascades.pop(unit, None)
        if old is not None:
            for candidate in old.files:
                self.by_path.get(candidate.path, set()).discard(unit)

    def units_of(self, path: str) -> set[Unit]:
        return set(self.by_path.get(path, ()))

    def loaders(self, path: str) -> frozenset[tuple[str, str]]:
        """(harness, launch directory) of each unit that loads `path`."""
        return frozenset(
            (u.harness, u.cwd)
            for u in self.by_path.get(path, ())
            if any(c.path == path and c.loaded for c in self.cascades[u].files)
        )

    def skipping(self, path: str, reason: Reason) -> set[str]:
        """The harnesses some unit of which passes `path` over for `reason`."""
        return {
            unit.harness
            for unit in self.by_path.get(path, ())
            if any(c.path == path and c.reason == reason for c in self.cascades[unit].files)
        }

    def cuts(self, path: str) -> dict[tuple[str, str], int]:
        """Where each unit that sends `path` cut short stops sending it (`truncated_at`), by
        (harness, launch directory), the launch directories it stands for included."""
        cuts: dict[tuple[str, str], int] = {}
        for unit in self.by_path.get(path, ()):
            files = self.cascades[unit].files
            at = next((c.truncated_at for c in files if c.path == path and c.loaded and c.truncated_at is not None), None)
            if at is not None:
                cuts.update(((unit.harness, cwd), at) for cwd in (unit.cwd, *self.aliases.get(unit, ())))
        return cuts

    def loads(self, path: str, harness: str) -> bool:
        """Whether some unit of `harness` loads the file, or would but for its size."""
        for unit in self.by_path.get(path, ()):
            if unit.harness == harness and any(
                c.path == path and (c.loaded or c.reason == Reason.TOO_LARGE) for c in self.cascades[unit].files
            ):
                return True
        return False

    def reachable(self, path: str) -> bool:
        """Loaded, or within a harness's reach, by some unit."""
        for unit in self.by_path.get(path, ()):
            for candidate in self.cascades[unit].files:
                if candidate.path == path and (candidate.loaded or candidate.reason in REACHABLE):
                    return True
        return False

    def reachable_as_workspace(self, path: str, folder: str, harnesses: Iterable[str]) -> bool:
        """Whether an editor's harness (`root_only`) loads `path` when `folder` is opened as its
        workspace, for an editor whose own folder (`.roo`, `.kiro`…) `folder` holds: someone put
        it there to open that folder. (A `.github` folder says nothing of the kind.)"""
        return any(
            any(c.path == path and (c.loaded or c.reason in REACHABLE) for c in HARNESSES[h].eager(self.context(folder)).files)
            for h in harnesses
            if root_only(h) and any(self.fs.is_dir(os.path.join(folder, f)) for f in HARNESSES[h].spec.detection.root_folders)
        )

    def reachable_on_read(self, path: str, owner: str, harnesses: Iterable[str], launch_dirs: Collection[str]) -> bool:
        """Whether a read of a file in `owner` loads `path`, for any harness launched above it."""
        target = os.path.join(owner, PROBE_NAME)
        above = [d for d in reversed(ancestors(owner, self.root)[1:]) if d in launch_dirs]
        # The harness that reached the last file tries first: files of a kind come in runs (rule
        # folders), and most are reached.
        harnesses = sorted(harnesses, key=lambda h: self._readers.index(h) if h in self._readers else len(self._readers))
        for harness in harnesses:
            for cwd in [self.root] if root_only(harness) else above:
                cascade = HARNESSES[harness].on_read(self.context(cwd), target)
                if any(c.path == path and (c.loaded or c.reason in REACHABLE) for c in cascade.files):
                    self._readers = [harness, *(h for h in self._readers if h != harness)]
                    return True
        return False
