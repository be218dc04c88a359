"""Facts: what one unit's cascade says about one file, before facts from all units are merged.

Families turn a unit's cascade into facts (`path` is the file the finding will sit on); the
Analyzer keeps them per unit, and the facts of a set of files loaded together once per set, and
merges, per file, the facts of the units that mention it, so re-analysing one unit never
requires walking the others.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lsp_agents.core.analysis.document import Document
from lsp_agents.core.model import Finding


@dataclass(frozen=True, slots=True)
class Fact:
    code: str
    path: str
    harness: str
    cwd: str
    key: Any  # what facts of different units merge on (same key, same finding)
    data: Any = None


@dataclass(frozen=True, slots=True)
class Env:
    """What an aggregator may consult: the workspace root, the documents, and which harnesses
    load a file (from some launch directory)."""

    root: str
    document: Callable[[str], Document | None]
    readers: Callable[[str], frozenset[str]] = lambda _path: frozenset()


Aggregator = Callable[[Env, str, list[Fact]], list[Finding]]


def group(facts: Iterable[Fact]) -> dict[Any, list[Fact]]:
    """Facts by key, in first-seen order."""
    grouped: dict[Any, list[Fact]] = defaultdict(list)
    for fact in facts:
        grouped[fact.key].append(fact)
    return grouped


class PathCache:
    """Results about some documents (a pair; a chain's first files), computed once and forgotten
    when any of them changes: the many chains of a monorepo share their ancestors, so each is
    worked out once."""

    def __init__(self) -> None:
        self._pairs: dict[tuple[str, ...], Any] = {}
        self._by_path: dict[str, set[tuple[str, ...]]] = defaultdict(set)

    def get(self, key: tuple[str, ...], compute: Callable[[], Any]) -> Any:
        try:
            return self._pairs[key]
        except KeyError:
            value = self._pairs[key] = compute()
            for path in key:
                self._by_path[path].add(key)
            return value

    def clear(self) -> None:
        self._pairs.clear()
        self._by_path.clear()

    def forget(self, paths: Iterable[str]) -> dict[tuple[str, ...], Any]:
        """Drop the results about any of `paths`; returns them."""
        dropped = {}
        for path in paths:
            for key in self._by_path.pop(path, ()):
                if key in self._pairs:
                    dropped[key] = self._pairs.pop(key)
        return dropped


class FactTable:
    """Facts per unit, and the facts units share: those of a set of files loaded together
    (duplicates and sections), stored once per set and given each unit's harness and launch
    directory when read. Every put returns the files whose facts changed."""

    def __init__(self, aliases: Mapping[Any, tuple[str, ...]]) -> None:
        self._aliases = aliases  # unit -> the other launch directories its facts hold for
        self._by_unit: dict[Any, dict[str, list[Fact]]] = {}
        self._units: dict[str, set[Any]] = defaultdict(set)  # file -> units with facts of their own on it
        self._chain_of: dict[Any, Hashable] = {}
        self._members: dict[Hashable, set[Any]] = defaultdict(set)  # chain -> its units
        self._shared: dict[Hashable, dict[str, list[Fact]]] = {}
        self._sources: dict[Hashable, list[Fact]] = {}  # the list each chain's facts came from
        self._chains_on: dict[str, set[Hashable]] = defaultdict(set)  # file -> chains with facts on it

    def clear(self) -> None:
        for table in (self._by_unit, self._units, self._chain_of, self._members, self._shared, self._sources, self._chains_on):
            table.clear()

    def put(self, unit: Any, facts: Iterable[Fact], chain: Hashable) -> set[str]:
        """The unit's own facts, and the chain whose shared facts it has."""
        old = self._by_unit.pop(unit, {})
        for path in old:
            self._units[path].discard(unit)
        grouped = _by_path(facts)
        self._by_unit[unit] = grouped
        for path in grouped:
            self._units[path].add(unit)
        changed = {path for path in old.keys() | grouped.keys() if old.get(path) != grouped.get(path)}
        old_chain = self._chain_of.get(unit)
        if old_chain != chain:
            if old_chain is not None:
                changed |= self._leave(unit, old_chain)
            self._chain_of[unit] = chain
            self._members[chain].add(unit)
            changed |= set(self._shared.get(chain, {}))
        return changed

    def put_chain(self, chain: Hashable, facts: list[Fact]) -> set[str]:
        """The facts of a chain (`harness` and `cwd` unset: they come from each member). Putting
        the very list already stored does nothing."""
        if self._sources.get(chain) is facts:
            return set()
        self._sources[chain] = facts
        old = self._shared.get(chain, {})
        grouped = _by_path(facts)
        for path in old:
            self._chains_on[path].discard(chain)
        self._shared[chain] = grouped
        for path in grouped:
            self._chains_on[path].add(chain)
        return {path for path in old.keys() | grouped.keys() if old.get(path) != grouped.get(path)}

    def drop(self, unit: Any) -> None:
        for path in self._by_unit.pop(unit, {}):
            self._units[path].discard(unit)
        chain = self._chain_of.pop(unit, None)
        if chain is not None:
            self._leave(unit, chain)

    def _leave(self, unit: Any, chain: Hashable) -> set[str]:
        """Take the unit out of the chain (a chain nobody has is forgotten); returns the files
        of the chain's facts, which the unit no longer has."""
        paths = set(self._shared.get(chain, {}))
        members = self._members[chain]
        members.discard(unit)
        if not members:
            del self._members[chain]
            self._sources.pop(chain, None)
            for path in self._shared.pop(chain, {}):
                self._chains_on[path].discard(chain)
        return paths

    def paths_of(self, unit: Any) -> set[str]:
        return set(self._by_unit.get(unit, {})) | set(self._shared.get(self._chain_of.get(unit), {}))

    def paths(self) -> set[str]:
        own = {path for path, units in self._units.items() if units}
        return own | {path for path, chains in self._chains_on.items() if chains}

    def on(self, path: str) -> list[Fact]:
        facts = []
        for unit in self._units.get(path, ()):
            own = self._by_unit[unit][path]
            facts += own
            facts += [Fact(f.code, f.path, f.harness, cwd, f.key, f.data) for cwd in self._aliases.get(unit, ()) for f in own]
        for chain in self._chains_on.get(path, ()):
            shared = self._shared[chain][path]
            facts += [Fact(f.code, f.path, unit.harness, cwd, f.key, f.data)
                      for unit in self._members[chain] for cwd in (unit.cwd, *self._aliases.get(unit, ())) for f in shared]
        return facts


def _by_path(facts: Iterable[Fact]) -> dict[str, list[Fact]]:
    grouped: dict[str, list[Fact]] = defaultdict(list)
    for fact in facts:
        grouped[fact.path].append(fact)
    return dict(grouped)
