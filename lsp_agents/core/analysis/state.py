"""What the analysis of one workspace folder keeps, and how a unit's part of it is computed.

A unit (harness, launch directory) is derived once: its eager cascade, the facts it states on
its own (shadowed, truncated, imports) and the sources of the files it loads together
(duplicates, redefined sections), shared by every unit loading the same set. `_keep` stores
them; `_forget` drops a unit again. The caches (documents, facts, duplicate pairs and prefixes,
sections, probes, a file's own findings) live here; `incremental` says which an edit invalidates.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping

from lsp_agents.core.analysis import budget, duplicates, globs, hygiene, imports, limits, shadowing
from lsp_agents.core.analysis.cascades import CascadeStore, Unit
from lsp_agents.core.analysis.codes import CODES, OFF
from lsp_agents.core.analysis.config import config_findings, detect_harnesses
from lsp_agents.core.analysis.definitions import DefinitionChecks
from lsp_agents.core.analysis.document import Document
from lsp_agents.core.analysis.facts import Env, Fact, FactTable, PathCache, SourceFacts
from lsp_agents.core.layout import owner_directory
from lsp_agents.core.model import Cascade, Finding, Reason, Role, WarningKind, warning_kind
from lsp_agents.core.settings import Settings
from lsp_agents.core.timelimit import TimeLimitExceeded
from lsp_agents.core.walk import is_within
from lsp_agents.core.workspace import WorkspaceIndex

Progress = Callable[[str, int, int], None]
Item = Unit | str  # a step of the analysis: a unit's cascade and facts, or one file's findings
TOO_LARGE = (Reason.TOO_LARGE,)
# Harness warnings that findings already report (invalid-frontmatter, invalid-config).
_COVERED_BY_FINDINGS = frozenset({WarningKind.INVALID_HEADER, WarningKind.GLOBS_NOT_EVALUATED, WarningKind.INVALID_CONFIG})
REPEATS, SECTIONS = "repeats", "sections"  # the kinds of shared sources (see `_chain_sources`)
# A shared source: (REPEATS, a chain prefix) or (SECTIONS, a pair of files: ancestor, nearer).
Source = tuple[str, tuple[str, ...]]


class AnalysisState:
    """The caches of one workspace folder's analysis, and the computing of one unit into them."""

    def __init__(
        self,
        index: WorkspaceIndex,
        settings: Settings,
        *,
        home: str,
        env: Mapping[str, str],
        stopped: Mapping[Item, str] | None = None,
    ) -> None:
        self.index = index
        self.settings = settings
        self.home = home
        # Steps that were stopped from outside (their process killed) and why: not evaluated again.
        self.stopped: Mapping[Item, str] = stopped or {}
        self.starting: Callable[[Item], None] | None = None  # told before each step, for whoever may stop it
        self.harnesses: list[str] = detect_harnesses(index, home) if settings.harnesses == "auto" else list(settings.harnesses)
        self.progress: Progress | None = None
        self.store = CascadeStore(index, home, env, settings.harness_options())
        self.pairs: duplicates.PairCache = PathCache()  # duplicate comparisons
        self.repeats: duplicates.PrefixCache = PathCache()  # the duplicate facts of a chain's last file, per chain prefix
        self.sections: PathCache[tuple[str, str], list[Fact]] = PathCache()  # redefined sections
        self._docs: dict[str, Document | None] = {}
        self._facts = FactTable(self.store.aliases)
        self._imported: dict[Unit, set[str]] = {}
        self._unevaluated: set[Unit] = set()  # units past their budget: what they load is unknown
        self._imported_count: Counter[str] = Counter()
        self._own: dict[str, list[Finding]] = {}  # findings a file earns on its own
        self._probes: dict[str, bool] = {}  # unreachable after simulated reads
        self._libraries: dict[str, bool] = {}  # per project directory: its rules are written for other projects
        self._rules_by_owner: dict[str, list[str]] | None = None  # the rule files of `_known`, per project directory
        self._known_by_folder: dict[str, list[str]] | None = None  # `_known`, per folder
        self._launch: frozenset[str] = frozenset()
        self._known: set[str] = set()
        self._files: globs.FileList | None = None
        self._env_vars = dict(env)
        self._config, self.warnings = config_findings(index, self.harnesses, home, env)
        self._definitions = DefinitionChecks(index, self.harnesses, self.store.context, self.store.loads)
        self._env = Env(
            index.root,
            self.document,
            self.store.loaders,
            self._rule_folder_files,
            index.is_gitignored,
            home,
            index.fs.is_link,
            self.store.cuts,
        )
        # Redefined sections matter only to a closest-wins harness, and only once given a severity.
        self._sections_on = (
            any(shadowing.closest_wins(h) for h in self.harnesses)
            and settings.severity.get("shadowed-section", CODES["shadowed-section"].severity) != OFF
        )
        self._deadline = limits.analysis_deadline()

    def document(self, path: str) -> Document | None:
        """The file as text, or None when it cannot be analysed line by line (unreadable, too large)."""
        if path not in self._docs:
            data = self.index.fs.read(path)
            doc = Document(path, data)
            usable = data.data is not None and data.problem not in TOO_LARGE and data.size <= self.settings.max_file_bytes
            self._docs[path] = doc if usable and hygiene.unreadable_reason(doc) is None else None
        return self._docs[path]

    def _rule_folder_files(self, path: str) -> list[str]:
        """The analysed instruction files in the folder of `path` (itself included) when that folder
        lies in a tool folder (`.claude/rules/`, `.cursor/rules/`…); none for a file outside one
        (AGENTS.md, CLAUDE.md and .cursorrules side by side are no family)."""
        relative = self.index.relative(path)
        if owner_directory(relative) == os.path.dirname(relative):
            return []
        folder = os.path.dirname(path)
        return sorted(p for name in self.index.fs.list_dir(folder) if (p := os.path.join(folder, name)) in self._known)

    def _analysed_files(self) -> set[str]:
        """The instruction files findings are about: all but test data (fixtures are examples)."""
        return {p for p in self.index.instruction_files if not self.index.is_test_data(p)}

    def _file_list(self) -> globs.FileList:
        if self._files is None:
            self._files = globs.FileList(self.index.root, self.index.files)
        return self._files

    def _starting(self, item: Item) -> None:
        if self.starting is not None:
            self.starting(item)

    def _forget(self, unit: Unit) -> None:
        self._unevaluated.discard(unit)
        self._facts.drop(unit)
        self._imported_count.subtract(self._imported.pop(unit, ()))
        self.store.drop(unit)

    def _compute(self, unit: Unit) -> set[str]:
        return self._keep(unit, *self._bounded_derive(unit))

    def _bounded_derive(self, unit: Unit) -> tuple[Cascade, list[Fact], SourceFacts | None]:
        """`_derive` within the unit budget; past it, or past the deadline, a `not-evaluated` fact."""
        if unit in self.stopped:
            return limits.skipped_unit(self.index, unit.harness, unit.cwd, self.stopped[unit])
        self._starting(unit)
        try:
            return limits.bounded(self._deadline, lambda: self._derive(unit))
        except TimeLimitExceeded as exc:
            return limits.skipped_unit(self.index, unit.harness, unit.cwd, str(exc))

    def _derive(self, unit: Unit) -> tuple[Cascade, list[Fact], SourceFacts | None]:
        """The unit's cascade, its own facts and the sources of the files it loads together (with
        their facts; None when that chain is known); reads the documents and caches, changes no
        other state."""
        cascade = self.store.compute(unit)
        loaded = self._loaded(cascade)
        sources = None if self._facts.knows(frozenset(loaded)) else self._chain_sources(loaded)
        return cascade, self._facts_of(unit, cascade), sources

    def _loaded(self, cascade: Cascade) -> list[str]:
        """The paths loaded, in load order, each once. An import of a file loaded already under
        another name (`.github/copilot-instructions.md -> ../AGENTS.md`, then CLAUDE.md's
        `@AGENTS.md`) is left out: that repeat is the import's (`imports.import_facts`)."""
        realpath = self.index.fs.realpath
        paths: dict[str, None] = {}
        sent: set[str] = set()
        for candidate in cascade.files:
            if not candidate.loaded:
                continue
            if candidate.role == Role.IMPORT and candidate.path not in paths and realpath(candidate.path) in sent:
                continue
            paths[candidate.path] = None
            sent.add(realpath(candidate.path))
        return list(paths)

    def _facts_of(self, unit: Unit, cascade: Cascade) -> list[Fact]:
        """What the cascade says (shadowed, truncated, imports); the text facts are the chain's."""
        root = self.index.root
        return (
            shadowing.shadow_facts(unit, cascade, root, self.document, self.index.fs)
            + budget.truncation_facts(unit, cascade, root)
            + imports.import_facts(unit, cascade, root, self.document, self.index.fs)
        )

    def _keep(self, unit: Unit, cascade: Cascade, facts: list[Fact], sources: SourceFacts | None) -> set[str]:
        """Store what `_derive` gave; returns the files whose shared facts changed (the unit's
        chain may be other units' too)."""
        self._forget(unit)  # may forget its chain: the unit was its last member
        self.store.put(unit, cascade)
        loaded = self._loaded(cascade)
        chain = frozenset(loaded)
        if not self._facts.knows(chain):
            changed = self._facts.put_chain(chain, self._chain_sources(loaded) if sources is None else sources)
        else:
            changed = set()
        self._facts.put(unit, facts, chain)
        if any(f.code == "not-evaluated" for f in facts):
            self._unevaluated.add(unit)
        self._warn(cascade.warnings)
        imported = {c.path for c in cascade.loaded if c.role == Role.IMPORT and is_within(c.path, self.index.root)}
        if imported:  # most units import nothing: no empty set each
            self._imported[unit] = imported
            self._imported_count.update(imported)
        return changed

    def _chain_sources(self, loaded: list[str]) -> SourceFacts:
        """What the duplicate and section facts of a set of files loaded together are made of,
        with their facts. They depend on the set only (duplicates use a fixed order, not the load
        order), so the many units that load the same files — several harnesses, launch
        directories without files of their own — share them, and chains share their sources."""
        root = self.index.root
        sources: Iterator[Source] = ((REPEATS, prefix) for prefix in duplicates.prefixes(loaded, root))
        if self._sections_on:
            sources = itertools.chain(sources, ((SECTIONS, pair) for pair in shadowing.section_pairs(loaded, root)))
        return [(source, self._source_facts(source)) for source in sources]

    def _source_facts(self, source: Source) -> list[Fact]:
        kind, paths = source
        if kind == REPEATS:
            return duplicates.prefix_facts(paths, self.document, (self.pairs, self.repeats), self.settings.similarity_threshold)
        outer, inner = paths  # a section source is a pair of files
        return shadowing.section_facts((outer, inner), self.document, self.sections)

    def _warn(self, warnings: Iterable[str]) -> None:
        """Harness warnings (a directory walk cut short), once each, unless a finding says it already."""
        for warning in warnings:
            if warning not in self.warnings and warning_kind(warning) not in _COVERED_BY_FINDINGS:
                self.warnings.append(warning)
