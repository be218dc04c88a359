"""Facts: what one unit's cascade says about one file, before facts from all units are merged.

Families turn a unit's cascade into facts (`path` is the file the finding will sit on); the
Analyzer keeps them per unit and merges, per file, the facts of the units that mention it, so
re-analysing one unit never requires walking the others.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
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
    """What an aggregator may consult: the workspace root and the documents."""

    root: str
    document: Callable[[str], Document | None]


Aggregator = Callable[[Env, str, list[Fact]], list[Finding]]


def group(facts: Iterable[Fact]) -> dict[Any, list[Fact]]:
    """Facts by key, in first-seen order."""
    grouped: dict[Any, list[Fact]] = defaultdict(list)
    for fact in facts:
        grouped[fact.key].append(fact)
    return grouped


class FactTable:
    """Facts per unit, grouped by the file they sit on, and the units holding facts on each file."""

    def __init__(self) -> None:
        self._by_unit: dict[object, dict[str, list[Fact]]] = {}
        self._units: dict[str, set[object]] = defaultdict(set)

    def clear(self) -> None:
        self._by_unit.clear()
        self._units.clear()

    def put(self, unit: object, facts: Iterable[Fact]) -> set[str]:
        """Replace the unit's facts; returns the files whose facts from this unit changed."""
        old = self._by_unit.get(unit, {})
        self.drop(unit)
        grouped: dict[str, list[Fact]] = defaultdict(list)
        for fact in facts:
            grouped[fact.path].append(fact)
        self._by_unit[unit] = dict(grouped)
        for path in grouped:
            self._units[path].add(unit)
        return {path for path in old.keys() | grouped.keys() if old.get(path) != grouped.get(path)}

    def drop(self, unit: object) -> None:
        for path in self._by_unit.pop(unit, {}):
            self._units[path].discard(unit)

    def paths_of(self, unit: object) -> set[str]:
        return set(self._by_unit.get(unit, {}))

    def paths(self) -> set[str]:
        return {path for path, units in self._units.items() if units}

    def on(self, path: str) -> list[Fact]:
        return [fact for unit in self._units.get(path, ()) for fact in self._by_unit[unit][path]]
