"""Findings from the cascades and the documents of one workspace: what the CLI's `check` and the
language server's diagnostics report.

The Analyzer computes, once, the eager cascade of every (enabled harness, launch directory) unit
and turns each into facts: its own (shadowed, truncated, imports) and those of the set of files
it loads together (duplicates, redefined sections), shared by every unit loading that set. A
file's findings merge the facts of the units that mention it with what the file earns on its own
(hygiene, frontmatter, size).

After an edit, `analyse_paths` looks only at the units whose cascades read the changed files
(plus those a created or deleted file may enter). When the edit keeps what a unit's harness takes
from the files (`Harness.content_shape`), its cascade is kept and only the text facts are redone,
and only files whose facts changed are reported; otherwise the unit is recomputed and every file
it touches is reported.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping

from lsp_agents.core.analysis import budget, duplicates, globs, hygiene, imports, limits, placement, shadowing
from lsp_agents.core.analysis.cascades import CascadeStore, Unit, root_only
from lsp_agents.core.analysis.codes import CODES, OFF, settled_severity
from lsp_agents.core.analysis.config import config_findings, detect_harnesses, is_config
from lsp_agents.core.analysis.definitions import DefinitionChecks, changed_definitions
from lsp_agents.core.analysis.document import Document
from lsp_agents.core.analysis.facts import Env, Fact, FactTable, PathCache, SourceFacts
from lsp_agents.core.analysis.fanout import fork_map
from lsp_agents.core.analysis.rules import AGGREGATE_TOGETHER, AGGREGATORS, TOGETHER
from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.layout import is_launch_directory, owner_directory
from lsp_agents.core.model import Cascade, Finding, Reason, Role, WarningKind, warning_kind
from lsp_agents.core.settings import Settings
from lsp_agents.core.timelimit import TimeLimitExceeded
from lsp_agents.core.walk import is_within
from lsp_agents.core.workspace import WorkspaceIndex

Progress = Callable[[str, int, int], None]
Item = Unit | str  # a step of the analysis: a unit's cascade and facts, or one file's findings
_TOO_LARGE = (Reason.TOO_LARGE,)
# Harness warnings that findings already report (invalid-frontmatter, invalid-config).
_COVERED_BY_FINDINGS = frozenset({WarningKind.INVALID_HEADER, WarningKind.GLOBS_NOT_EVALUATED, WarningKind.INVALID_CONFIG})
REPEATS, SECTIONS = "repeats", "sections"  # the kinds of shared sources (see `_chain_sources`)
# A shared source: (REPEATS, a chain prefix) or (SECTIONS, a pair of files: ancestor, nearer).
Source = tuple[str, tuple[str, ...]]
UNITS_PER_WORKER = 200  # below this, forking costs more than it saves


class Analyzer:
    """Findings of one workspace folder; keeps what it computed for cheap re-analysis."""

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
        self._imported_count: Counter[str] = Counter()
        self._own: dict[str, list[Finding]] = {}  # findings a file earns on its own
        self._probes: dict[str, bool] = {}  # unreachable after simulated reads
        self._launch: frozenset[str] = frozenset()
        self._known: set[str] = set()
        self._files: globs.FileList | None = None
        self._env_vars = dict(env)
        self._config, self.warnings = config_findings(index, self.harnesses, home, env)
        self._definitions = DefinitionChecks(index, self.harnesses, self.store.context)
        self._env = Env(index.root, self.document, self.store.loaders, self._rule_folder_files, index.is_gitignored, home)
        # Redefined sections matter only to a closest-wins harness, and only once given a severity.
        self._sections_on = (
            any(shadowing.closest_wins(h) for h in self.harnesses)
            and settings.severity.get("shadowed-section", CODES["shadowed-section"].severity) != OFF
        )
        self._deadline = limits.analysis_deadline()

    # -- documents ----------------------------------------------------------------------------
    def document(self, path: str) -> Document | None:
        """The file as text, or None when it cannot be analysed line by line (unreadable, too large)."""
        if path not in self._docs:
            data = self.index.fs.read(path)
            doc = Document(path, data)
            usable = data.data is not None and data.problem not in _TOO_LARGE and data.size <= self.settings.max_file_bytes
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
        return sorted(p for p in self._known if os.path.dirname(p) == folder)

    def _analysed_files(self) -> set[str]:
        """The instruction files findings are about: all but test data (fixtures are examples)."""
        return {p for p in self.index.instruction_files if not self.index.is_test_data(p)}

    def _file_list(self) -> globs.FileList:
        if self._files is None:
            self._files = globs.FileList(self.index.root, self.index.files)
        return self._files

    # -- full and incremental analysis --------------------------------------------------------
    def analyse_all(self, *, workers: int = 1) -> dict[str, list[Finding]]:
        """Every finding of the workspace. `workers` > 1 shares a large workspace between that
        many forked processes (only for single-threaded callers; see `fanout`)."""
        for cache in (
            self._docs,
            self._facts,
            self._imported,
            self._imported_count,
            self._own,
            self._probes,
            self.store,
            self.pairs,
            self.repeats,
            self.sections,
        ):
            cache.clear()
        self._files = None
        self._deadline = limits.analysis_deadline()
        self._launch = frozenset(self.index.launch_directories(self.settings.launch_patterns()))
        self._known = self._analysed_files()
        units = sorted(self.store.units(self.harnesses, self._launch), key=lambda u: (u.cwd, u.harness))
        workers = max(1, min(workers, len(units) // UNITS_PER_WORKER))
        shares = [units[len(units) * i // workers : len(units) * (i + 1) // workers] for i in range(workers)]
        jobs = [(share, share is shares[-1], len(units)) for share in shares]
        for results in fork_map(self._derive_share, jobs):
            for unit, cascade, facts, sources in results:
                self._keep(unit, cascade, facts, sources)
        definitions = self._definitions.compute()
        paths = sorted(
            set(self._known)
            | {f.path for f in self._config}
            | self._facts.paths()
            | set(+self._imported_count)
            | set(definitions)
        )
        found: dict[str, list[Finding]] = {}
        for share_found in fork_map(self._findings_share, [paths[i::workers] for i in range(workers)]):
            found.update(share_found)
        return {path: found[path] for path in paths if found[path]}

    def early_findings(self) -> dict[str, list[Finding]]:
        """What each instruction file earns on its own (content checks, no cascade), for a front
        end to show before `analyse_all` has finished; each is among the file's findings after it."""
        early = {}
        for path in sorted(self._analysed_files()):
            if path in self.stopped:
                continue
            self._starting(path)
            if found := self._settle(path, self._document_findings(path)):
                early[path] = found
        return early

    def _starting(self, item: Item) -> None:
        if self.starting is not None:
            self.starting(item)

    def cancel(self) -> None:
        """Stop an analysis running in another thread: the units and files left are not evaluated."""
        self._deadline.cancel()

    def _derive_share(self, job: tuple[list[Unit], bool, int]) -> list[tuple[Unit, Cascade, list[Fact], SourceFacts | None]]:
        """`_derive` of some units; the share computed in this process reports progress."""
        units, reports, total = job
        results = []
        for number, unit in enumerate(units, 1):
            results.append((unit, *self._bounded_derive(unit)))
            if reports and self.progress and (number % 50 == 0 or number == len(units)):
                self.progress("analysed", total * number // len(units), total)
        return results

    def _findings_share(self, paths: list[str]) -> list[tuple[str, list[Finding]]]:
        return [(path, self._bounded_findings(path)) for path in paths]

    def analyse_paths(self, changed: Iterable[str]) -> dict[str, list[Finding]]:
        changed = {os.path.normpath(os.path.abspath(p)) for p in changed}
        self._deadline = limits.analysis_deadline()
        if any(is_config(p, self.index, self.harnesses, self.home, self._env_vars) for p in changed):
            return self._reanalyse_everything(changed)
        old_docs = {p: doc for p in changed if (doc := self._docs.get(p)) is not None}
        before = {p: doc.data for p, doc in old_docs.items()}
        file_set_changed = self._update(changed)
        redo_definitions = changed_definitions(self.index, changed, self._definitions.found)
        definition_paths = set(self._definitions.found) if redo_definitions else set()
        appeared = {
            p for p in changed if (p in self.index.instruction_files and not self.index.is_test_data(p)) != (p in self._known)
        }
        affected = set(changed)
        if file_set_changed:  # globs may match, or stop matching, the file
            self._files = None
            affected |= self._rule_files()
            for path in self._rule_files():
                self._own.pop(path, None)
            # A file's own findings may depend on its neighbours (a rename fix must not clobber one).
            folders = {os.path.dirname(p) for p in changed}
            neighbours = {p for p in self.index.instruction_files if os.path.dirname(p) in folders}
            for path in neighbours:
                self._own.pop(path, None)
            affected |= neighbours
        # Every unit that mentions a changed file: facts can depend on a skipped file's text too.
        units = {u for p in changed for u in self.store.units_of(p)}
        if appeared:
            self._known = self._analysed_files()
            relaunched, dropped_paths = self._relaunch(appeared)
            units = {u for u in units if u in self.store.cascades} | relaunched
            affected |= dropped_paths
        edited_only = not file_set_changed and not appeared  # no file came or went
        readable = edited_only and before.keys() == changed and all(self.document(p) is not None for p in changed)
        stale = self._forget_sources(changed, old_docs if readable else None)
        shapes: dict[tuple[str, str], bool] = {}
        references_kept = before.keys() == changed and all(
            (doc := self.document(p)) is not None and Document(p, data).reference_shape == doc.reference_shape
            for p, data in before.items()
        )
        for unit in units:
            if edited_only and unit in self.store.cascades and self._same_candidates(unit, changed, before, shapes):
                if not references_kept:
                    affected |= self._redo_own_facts(unit)
                continue
            affected |= self._unit_paths(unit)
            if unit in self.store.cascades or unit.cwd in self._launch:
                affected |= self._compute(unit) | self._unit_paths(unit)
        for source in stale:
            if self._facts.has_source(source):
                affected |= self._facts.put_source(source, self._source_facts(source))
        if redo_definitions:
            affected |= definition_paths | set(self._definitions.compute())
        affected |= self._repeating_neighbours(changed)
        return {path: self._bounded_findings(path) for path in sorted(affected)}

    def _repeating_neighbours(self, changed: set[str]) -> set[str]:
        """Files of a changed file's folder that repeat text: whether a repeat is a family's
        boilerplate (`duplicates.TEMPLATE_FAMILY`) depends on the text of every file in the folder."""
        folders = {os.path.dirname(p) for p in changed}
        return {p for p in self._known if os.path.dirname(p) in folders and any(f.code in TOGETHER for f in self._facts.on(p))}

    def _same_candidates(
        self, unit: Unit, changed: set[str], before: Mapping[str, FileData], shapes: dict[tuple[str, str], bool]
    ) -> bool:
        """Whether the edit leaves the unit's candidates as they were (sizes aside): its harness
        takes nothing from the changed files' contents that changed. Then only its facts about
        the text (duplicates, sections) are recomputed, and only the files they sit on reported.
        `shapes` keeps the answer per harness and file for the other units of this edit."""
        harness = HARNESSES[unit.harness]
        for path in changed:
            key = (unit.harness, path)
            if key not in shapes:
                shape = harness.content_shape(before[path]) if path in before else None
                shapes[key] = shape is not None and shape == harness.content_shape(self.index.fs.read(path))
            if not shapes[key] and unit in self.store.by_path.get(path, ()):
                return False
        return harness.keeps_candidates(lambda: self.store.context(unit.cwd), self.store.cascades[unit])

    def _redo_own_facts(self, unit: Unit) -> set[str]:
        """The facts of a kept cascade of its own (a skipped file that only points to a loaded
        one, `@` lines sent literally, the fix a finding offers), which only an edit of a file's
        `reference_shape` changes. Returns the files whose facts changed."""
        return self._facts.put(unit, self._facts_of(unit, self.store.cascades[unit]), self._facts.chain_of(unit))

    def _forget_sources(self, changed: set[str], before: dict[str, Document] | None) -> set[Source]:
        """Forget the cached facts of sources (prefixes, section pairs) the edit of `changed` may
        have changed; returns them. With `before` (the edited files were readable before and are
        now, and no file came or went), the sources it cannot have changed are kept."""
        caches = (self.pairs, self.repeats)
        if before is None:
            self.pairs.forget(changed)
            prefixes = set(self.repeats.forget(changed))
        else:
            prefixes = duplicates.revalidate(changed, before, self.document, caches, self.settings.similarity_threshold)
        stale: set[Source] = {(REPEATS, prefix) for prefix in prefixes}
        for pair, facts in self.sections.forget(changed).items():
            if before is None or shadowing.section_facts(pair, self.document, self.sections) != facts:
                stale.add((SECTIONS, pair))
        return stale

    def _update(self, changed: set[str]) -> bool:
        """Re-read the changed files; True when the set of discovered files changed."""
        file_set_changed = False
        for path in changed:
            was_discovered = path in self.index.files
            self.index.update(path)
            file_set_changed |= was_discovered != (path in self.index.files)
            for cache in (self._docs, self._own):
                cache.pop(path, None)
        # A simulated read may now load, or stop loading, files in the same chain.
        dirs = [os.path.dirname(c) for c in changed]
        self._probes = {
            p: v
            for p, v in self._probes.items()
            if not any(is_within(os.path.dirname(p), d) or is_within(d, os.path.dirname(p)) for d in dirs)
        }
        return file_set_changed

    def _reanalyse_everything(self, changed: set[str]) -> dict[str, list[Finding]]:
        """A harness config changed: every cascade may differ. Files whose findings vanish get []."""
        before = set(self._known) | {f.path for f in self._config} | self._facts.paths() | set(+self._imported_count)
        for path in changed:
            self.index.update(path)
        self.index.fs.invalidate()
        self._config, self.warnings = config_findings(self.index, self.harnesses, self.home, self._env_vars)
        after = self.analyse_all()
        return {path: after.get(path, []) for path in sorted(before | set(after) | changed)}

    def _relaunch(self, appeared: set[str]) -> tuple[set[Unit], set[str]]:
        """Units a created or deleted file may enter or leave: launch directories at or below it.
        Forgets the units that are no longer wanted; returns the units to compute and the files
        the forgotten ones had facts on."""
        self._launch = frozenset(self.index.launch_directories(self.settings.launch_patterns()))
        wanted = set(self.store.units(self.harnesses, self._launch))
        dropped: set[str] = set()
        for unit in [u for u in self.store.cascades if u not in wanted]:
            dropped |= self._unit_paths(unit)
            self._forget(unit)
        owners = {os.path.dirname(p) for p in appeared}
        near = {u for u in wanted if root_only(u.harness) or any(is_within(u.cwd, o) or is_within(o, u.cwd) for o in owners)}
        return near, dropped

    def _unit_paths(self, unit: Unit) -> set[str]:
        cascade = self.store.cascades.get(unit)
        paths = {c.path for c in cascade.files} if cascade else set()
        return paths | self._facts.paths_of(unit)

    def _rule_files(self) -> set[str]:
        return {p for p in self._known if globs.rule_type(p)}

    def _forget(self, unit: Unit) -> None:
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

    def _bounded_findings(self, path: str) -> list[Finding]:
        if path in self.stopped:
            return limits.file_not_evaluated(path, self.stopped[path])
        self._starting(path)
        try:
            return limits.bounded(self._deadline, lambda: self.findings(path))
        except TimeLimitExceeded as exc:
            return limits.file_not_evaluated(path, str(exc))

    def _derive(self, unit: Unit) -> tuple[Cascade, list[Fact], SourceFacts | None]:
        """The unit's cascade, its own facts and the sources of the files it loads together (with
        their facts; None when that chain is known); reads the documents and caches, changes no
        other state."""
        cascade = self.store.compute(unit)
        loaded = self._loaded(cascade)
        sources = None if self._facts.knows(frozenset(loaded)) else self._chain_sources(loaded)
        return cascade, self._facts_of(unit, cascade), sources

    @staticmethod
    def _loaded(cascade: Cascade) -> list[str]:
        """The paths loaded, in load order, each once."""
        return list(dict.fromkeys(c.path for c in cascade.files if c.loaded))

    def _facts_of(self, unit: Unit, cascade: Cascade) -> list[Fact]:
        """What the cascade says (shadowed, truncated, imports); the text facts are the chain's."""
        root = self.index.root
        return (
            shadowing.shadow_facts(unit, cascade, root, self.document, self.index.fs.realpath)
            + budget.truncation_facts(unit, cascade, root)
            + imports.import_facts(unit, cascade, root, self.document, self.index.fs.is_file)
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

    # -- one file's findings ------------------------------------------------------------------
    def _harness_size_findings(self, path: str) -> list[Finding]:
        """The limits a harness keeps on one file (`HarnessSpec.size_limits`), for a file it loads."""
        limited = [h.spec for h in HARNESSES.values() if h.spec.size_limits is not None and self.store.loads(path, h.id)]
        return [f for spec in limited for f in budget.harness_size_findings(Document(path, self.index.fs.read(path)), spec)]

    def findings(self, path: str) -> list[Finding]:
        if self.index.contains(path) and self.index.is_test_data(path):
            return []
        found = []
        if path in self._known or self._imported_count[path] > 0:
            if path not in self._own:
                self._own[path] = self._document_findings(path)
            found = list(self._own[path])
            if not any(f.code == "oversized" for f in found):
                found += self._harness_size_findings(path)
        facts: dict[str, list[Fact]] = defaultdict(list)
        for fact in self._facts.on(path):
            facts[fact.code].append(fact)
        for code, items in facts.items():
            items.sort(key=lambda f: (f.harness, f.cwd))
            if code not in TOGETHER:
                found += AGGREGATORS[code](self._env, path, items)
        found += AGGREGATE_TOGETHER(self._env, path, [f for code in TOGETHER for f in facts.get(code, [])])
        place = placement.misplaced(self.index.relative(path)) if path in self._known else None
        if place is not None:
            if not self.store.reachable(path):  # another harness loads it where it is
                found.append(placement.misplaced_finding(path, self.index.root, place, self.index.fs.exists))
        elif path in self._known and self._unreachable(path, found):
            shadowed = [f for f in found if f.code == "shadowed-file"]
            found = [f for f in found if f.code != "shadowed-file"]
            found.append(shadowing.unreachable_finding(path, tuple(self.harnesses), shadowed))
        found += [f for f in self._config if f.path == path]
        if path in self._definitions.found:
            self.document(path)  # its suppression comments count
            found += self._definitions.on(path)
        return self._settle(path, found)

    def _document_findings(self, path: str) -> list[Finding]:
        # Whether the file belongs to a directory where a harness is launched (not a tool's own
        # folder, a template or an example): what it would be renamed to, and what its globs should
        # match, matter there only.
        in_project = is_launch_directory(owner_directory(self.index.relative(path)), self.index.is_project)
        deprecated = hygiene.deprecated_finding(path, self.harnesses, self.index.fs.exists, self.index.fs.realpath, in_project)
        found = [deprecated] if deprecated else []
        data = self.index.fs.read(path)
        doc = Document(path, data)
        if data.problem in _TOO_LARGE or data.size > self.settings.max_file_bytes:
            return found + budget.size_findings(doc, self.settings.max_file_bytes)
        unreadable = hygiene.unreadable_finding(doc)
        if unreadable or data.data is None:
            return found + ([unreadable] if unreadable else [])
        doc = self.document(path) or doc
        empty = hygiene.empty_finding(doc)
        if empty:
            return [*found, empty, *hygiene.hidden_unicode_findings(doc)]
        found += [f for f in [hygiene.path_only_finding(doc, self.index.fs.is_file)] if f]
        found += hygiene.hidden_unicode_findings(doc) + hygiene.secret_findings(doc)
        found += budget.size_findings(doc, self.settings.max_file_bytes)
        return found + globs.frontmatter_findings(doc, self._file_list(), tuple(self.harnesses), in_project)

    def _unreachable(self, path: str, found: list[Finding]) -> bool:
        """No harness loads the file (its own findings explain unreadable, too large or empty files).
        Files in a folder that is no project (a template, documentation) are not expected to load."""
        if self.document(path) is None or any(f.code == "empty-file" for f in found) or self.store.reachable(path):
            return False
        if not hygiene.named_for_enabled_harness(path, self.harnesses):
            return False  # a CONTEXT.md where opencode is not in use: a document of that name, not an instruction file
        if any(self.store.reachable(alias) for alias in self._aliases(path)):
            return False
        relative = self.index.relative(path)
        if not is_launch_directory(owner_directory(relative), self.index.is_project) or placement.is_folder_documentation(
            relative
        ):
            return False
        if path not in self._probes:
            typed = globs.rule_type(path)
            owner = typed[1] if typed else os.path.dirname(path)
            self._probes[path] = not self.store.reachable_on_read(path, owner, self.harnesses, self._launch)
        return self._probes[path]

    def _aliases(self, path: str) -> list[str]:
        """Other names of the file at `path` that a harness may load instead: its real path when it
        is a symlink (AGENT.md -> AGENTS.md), and the instruction files beside it that are symlinks
        to it (CLAUDE.md -> AGENTS.md, which Claude Code loads)."""
        real = self.index.fs.realpath(path)
        folder = os.path.dirname(path)
        beside = [
            p for name in self.index.fs.list_dir(folder) if (p := os.path.join(folder, name)) in self.index.instruction_files
        ]
        return [p for p in {real, *beside} - {path} if self.index.fs.realpath(p) == real]

    def _settle(self, path: str, found: list[Finding]) -> list[Finding]:
        """Severity overrides, suppression comments, and a stable order."""
        overrides = self.settings.severity
        doc = self._docs.get(path)
        settled = []
        for item in found:
            severity = settled_severity(item.code, item.severity, overrides.get(item.code))
            if severity == OFF or (doc is not None and doc.suppressions.hides(item.code, item.span.start_line)):
                continue
            item.severity = severity
            settled.append(item)
        return sorted(settled, key=lambda f: (f.span.start_line, f.span.start_character, f.code, f.message))


__all__ = ["CODES", "Analyzer", "detect_harnesses"]
