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
from typing import Generic, Literal, TypeAlias, TypeVar

from lsp_agents.core.analysis.cascades import Unit
from lsp_agents.core.analysis.deletion import Deletion
from lsp_agents.core.analysis.document import Document
from lsp_agents.core.analysis.document_items import Item
from lsp_agents.core.model import Finding, Fix, Reason


@dataclass(frozen=True, slots=True)
class Shadowing:
    """`shadowed-file`: why the harness passed the file over, the file it loads in its place, the
    import that would bring the file back into that one, and whether that one already links to it."""

    reason: Reason
    winner: str | None
    fix: Fix | None
    linked: bool | None


@dataclass(frozen=True, slots=True)
class Redefinition:
    """`shadowed-section`: a section of the ancestor's file (`outer`) or of the nested one
    (`inner`) at `line`, the other file and the line of its section with the same heading."""

    role: Literal["outer", "inner"]
    line: int
    other: str
    other_line: int


@dataclass(frozen=True, slots=True)
class ImportIssue:
    """`import-*`: the file the import names, and why the harness did not expand it (none for a
    file imported twice or sent as plain text)."""

    target: str
    reason: Reason | None = None


@dataclass(frozen=True, slots=True)
class Repeat:
    """`duplicate-instruction`, `near-duplicate-instruction`: the file and item repeated, the item
    that repeats it, how alike they are, and what a fix may delete of each copy."""

    first_path: str
    first_item: Item
    item: Item
    similarity: float
    deletions: tuple[Deletion | None, Deletion | None]


# What a fact carries, by code: the byte a cut falls at (`truncated`), the first copy's path
# (`duplicate-file`), why a unit was not evaluated (`not-evaluated`), or one of the records above.
FactData: TypeAlias = int | str | Shadowing | Redefinition | ImportIssue | Repeat | None
Payload = TypeVar("Payload")
Member = TypeVar("Member", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Fact:
    code: str
    path: str
    harness: str
    cwd: str
    key: Hashable  # what facts of different units merge on (same key, same finding)
    data: FactData = None

    def payload(self, kind: type[Payload]) -> Payload:
        """`data`, which the fact's code says is a `kind`."""
        if not isinstance(self.data, kind):
            raise TypeError(f"a {self.code} fact carries {type(self.data).__name__}, not {kind.__name__}")
        return self.data


@dataclass(frozen=True, slots=True)
class Env:
    """What an aggregator may consult: the workspace root, the documents, which units
    (harness, launch directory) load a file, the instruction files of a file's rule folder,
    whether the repository's .gitignore keeps a path out, the home directory (`~/` in imports), and
    whether a path is a symlink (in the file system analysed: a revision's tree, not the disk), and
    where the units that cut a file short stop sending it (`CascadeStore.cuts`)."""

    root: str
    document: Callable[[str], Document | None]
    loaders: Callable[[str], frozenset[tuple[str, str]]] = lambda _path: frozenset()
    rule_folder_files: Callable[[str], list[str]] = lambda _path: []
    gitignored: Callable[[str], bool] = lambda _path: False
    home: str | None = None
    is_link: Callable[[str], bool] = lambda _path: False
    cuts: Callable[[str], Mapping[tuple[str, str], int]] = lambda _path: {}


Aggregator = Callable[[Env, str, list[Fact]], list[Finding]]
SourceFacts = list[tuple[Hashable, list[Fact]]]  # shared sources (see FactTable) with their facts


def group(facts: Iterable[Fact]) -> dict[Hashable, list[Fact]]:
    """Facts by key, in first-seen order."""
    grouped: dict[Hashable, list[Fact]] = defaultdict(list)
    for fact in facts:
        grouped[fact.key].append(fact)
    return grouped


PathKey = TypeVar("PathKey", bound=tuple[str, ...])
Result = TypeVar("Result")


class PathCache(Generic[PathKey, Result]):
    """Results about some documents (a pair; a chain's first files), computed once and forgotten
    when any of them changes: the many chains of a monorepo share their ancestors, so each is
    worked out once."""

    def __init__(self) -> None:
        self._pairs: dict[PathKey, Result] = {}
        self._by_path: dict[str, set[PathKey]] = defaultdict(set)

    def get(self, key: PathKey, compute: Callable[[], Result]) -> Result:
        try:
            return self._pairs[key]
        except KeyError:
            return self.put(key, compute())

    def put(self, key: PathKey, value: Result) -> Result:
        """Store `value` under `key` (a result kept across an edit); returns it."""
        self._pairs[key] = value
        for path in key:
            self._by_path[path].add(key)
        return value

    def clear(self) -> None:
        self._pairs.clear()
        self._by_path.clear()

    def forget(self, paths: Iterable[str]) -> dict[PathKey, Result]:
        """Drop the results about any of `paths`; returns them."""
        dropped = {}
        for path in paths:
            for key in self._by_path.pop(path, ()):
                if key in self._pairs:
                    dropped[key] = self._pairs.pop(key)
        return dropped


class FactTable:
    """Facts per unit, and the facts units share: those of a source (a file after the files
    loaded before it; a pair of nested files), stored once and given each unit's harness and
    launch directory when read. A unit belongs to one chain (the set of files it loads
    together), a chain to the sources it is made of: an edit replaces the facts of the few
    sources it changes without visiting the chains and units that share them. Every put
    returns the files whose facts changed."""

    def __init__(self, aliases: Mapping[Unit, tuple[str, ...]]) -> None:
        self._aliases = aliases  # unit -> the other launch directories its facts hold for
        self._by_unit: dict[Unit, dict[str, list[Fact]]] = {}
        self._units: dict[str, set[Unit]] = defaultdict(set)  # file -> units with facts of their own on it
        self._chain_of: dict[Unit, Hashable] = {}
        self._members: dict[Hashable, set[Unit]] = defaultdict(set)  # chain -> its units
        self._sources_of: dict[Hashable, tuple[Hashable, ...]] = {}  # chain -> its sources
        self._chains: dict[Hashable, set[Hashable]] = defaultdict(set)  # source -> the chains made of it
        self._shared: dict[Hashable, list[Fact]] = {}  # source -> its facts
        self._sources_on: dict[str, set[Hashable]] = defaultdict(set)  # file -> sources with facts on it
        # One object per chain and source, however many units and chains name it (4,000 units
        # made 15,000 copies of 3,700 sources).
        self._canonical: dict[Hashable, Hashable] = {}

    def clear(self) -> None:
        for table in (
            self._by_unit,
            self._units,
            self._chain_of,
            self._members,
            self._sources_of,
            self._chains,
            self._shared,
            self._sources_on,
            self._canonical,
        ):
            table.clear()

    def knows(self, chain: Hashable) -> bool:
        return chain in self._sources_of

    def chain_of(self, unit: Unit) -> Hashable:
        return self._chain_of[unit]

    def put(self, unit: Unit, facts: Iterable[Fact], chain: Hashable) -> set[str]:
        """The unit's own facts, and the chain it belongs to (`put_chain` first for a new chain)."""
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
            chain = self._canonical.setdefault(chain, chain)
            self._chain_of[unit] = chain
            self._members[chain].add(unit)
            changed |= self._chain_paths(chain)
        return changed

    def put_chain(self, chain: Hashable, sources: SourceFacts) -> set[str]:
        """A chain not seen before, made of `sources` (with their facts); a known chain's
        sources are kept up to date by `put_source`."""
        chain = self._canonical.setdefault(chain, chain)
        self._sources_of[chain] = tuple(self._canonical.setdefault(source, source) for source, _facts in sources)
        changed = set()
        for source, facts in sources:
            self._chains[source].add(chain)
            changed |= self.put_source(source, facts)
        return changed

    def has_source(self, source: Hashable) -> bool:
        return source in self._chains

    def put_source(self, source: Hashable, facts: list[Fact]) -> set[str]:
        """The facts of a source (`harness` and `cwd` unset: they come from each unit that has
        it). Putting the very list already stored does nothing."""
        old = self._shared.get(source)
        if old is facts:
            return set()
        self._shared[source] = facts
        old_paths = {f.path for f in old} if old else set()
        new_paths = {f.path for f in facts}
        for path in old_paths - new_paths:
            self._sources_on[path].discard(source)
        for path in new_paths:
            self._sources_on[path].add(source)
        if old is None or old == facts:
            return new_paths if old is None else set()
        return old_paths | new_paths

    def drop(self, unit: Unit) -> None:
        for path in self._by_unit.pop(unit, {}):
            self._units[path].discard(unit)
        chain = self._chain_of.pop(unit, None)
        if chain is not None:
            self._leave(unit, chain)

    def _leave(self, unit: Unit, chain: Hashable) -> set[str]:
        """Take the unit out of the chain (a chain nobody has is forgotten, and so is a source
        no chain has); returns the files of the chain's facts, which the unit no longer has."""
        paths = self._chain_paths(chain)
        if _detach(self._members, chain, unit):
            self._canonical.pop(chain, None)
            for source in self._sources_of.pop(chain, ()):
                if _detach(self._chains, source, chain):
                    self._canonical.pop(source, None)
                    for fact in self._shared.pop(source, ()):
                        self._sources_on[fact.path].discard(source)
        return paths

    def _chain_paths(self, chain: Hashable) -> set[str]:
        return {f.path for source in self._sources_of.get(chain, ()) for f in self._shared.get(source, ())}

    def paths_of(self, unit: Unit) -> set[str]:
        return set(self._by_unit.get(unit, {})) | self._chain_paths(self._chain_of.get(unit))

    def paths(self) -> set[str]:
        own = {path for path, units in self._units.items() if units}
        return own | {path for path, sources in self._sources_on.items() if sources}

    def on(self, path: str) -> list[Fact]:
        facts = []
        for unit in self._units.get(path, ()):
            own = self._by_unit[unit][path]
            facts += own
            facts += [Fact(f.code, f.path, f.harness, cwd, f.key, f.data) for cwd in self._aliases.get(unit, ()) for f in own]
        for source in self._sources_on.get(path, ()):
            shared = [f for f in self._shared[source] if f.path == path]
            facts += [
                Fact(f.code, f.path, unit.harness, cwd, f.key, f.data)
                for chain in self._chains[source]
                for unit in self._members[chain]
                for cwd in (unit.cwd, *self._aliases.get(unit, ()))
                for f in shared
            ]
        return facts


def _detach(table: dict[Hashable, set[Member]], key: Hashable, member: Member) -> bool:
    """Take `member` out of `table[key]`; True when that left the set empty (the key is gone)."""
    members = table[key]
    members.discard(member)
    if members:
        return False
    del table[key]
    return True


def _by_path(facts: Iterable[Fact]) -> dict[str, list[Fact]]:
    grouped: dict[str, list[Fact]] = defaultdict(list)
    for fact in facts:
        grouped[fact.path].append(fact)
    return dict(grouped)
