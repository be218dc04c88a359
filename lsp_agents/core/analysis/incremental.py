"""After an edit: which of what the analysis keeps is stale, and which files to report again.

`analyse_paths` looks only at the units whose cascades read the changed files (plus those a
created or deleted file may enter). When the edit keeps what a unit's harness takes from the files
(`Harness.content_shape`), its cascade is kept and only the text facts are redone, and only files
whose facts changed are reported; otherwise the unit is recomputed and every file it touches is
reported. A changed harness config makes every cascade stale: everything is analysed again.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from lsp_agents.core.analysis import duplicates, globs, limits, shadowing
from lsp_agents.core.analysis.cascades import Unit, root_only
from lsp_agents.core.analysis.config import config_findings, is_config
from lsp_agents.core.analysis.definition_paths import changed_definitions
from lsp_agents.core.analysis.document import Document
from lsp_agents.core.analysis.full_analysis import FullAnalysis
from lsp_agents.core.analysis.rules import TOGETHER
from lsp_agents.core.analysis.state import REPEATS, SECTIONS, Source
from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.layout import owner_directory
from lsp_agents.core.model import Finding
from lsp_agents.core.walk import is_within


class Analyzer(FullAnalysis):
    """Findings of one workspace folder; keeps what it computed for cheap re-analysis."""

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
            self._libraries.clear()
            affected |= self._rule_files()
            for path in self._rule_files():
                self._own.pop(path, None)
            # A file's own findings may depend on its neighbours (a rename fix must not clobber one).
            folders = {os.path.dirname(p) for p in changed}
            neighbours = {p for p in self.index.instruction_files if os.path.dirname(p) in folders}
            for path in neighbours:
                self._own.pop(path, None)
            affected |= neighbours
        else:
            affected |= self._library_changes({p for p in changed if globs.rule_type(p)})
        # Every unit that mentions a changed file: facts can depend on a skipped file's text too.
        units = {u for p in changed for u in self.store.units_of(p)}
        if appeared:
            self._known = self._analysed_files()
            self._rules_by_owner = self._known_by_folder = None
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
        beside = {os.path.join(d, name) for d in {os.path.dirname(p) for p in changed} for name in self.index.fs.list_dir(d)}
        return {p for p in beside & self._known if any(f.code in TOGETHER for f in self._facts.on(p))}

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

    def _library_changes(self, edited: set[str]) -> set[str]:
        """The rule files whose own findings change because an edit of `edited` changed whether
        their project directory holds a rule library (`_rule_library`)."""
        moved = set()
        for owner in {owner_directory(self.index.relative(p)) for p in edited}:
            before = self._libraries.pop(owner, None)
            if before is not None and before != self._rule_library(owner):
                moved |= {p for p in self._rule_files() if owner_directory(self.index.relative(p)) == owner}
        for path in moved:
            self._own.pop(path, None)
        return moved

    def _rule_files(self) -> set[str]:
        return {p for p in self._known if globs.rule_type(p)}
