"""One file's findings: what it earns on its own (hygiene, headers, size, placement) merged
with the aggregated facts of the units that mention it, then settled (severity settings,
suppression comments, a stable order)."""

from __future__ import annotations

import os
from collections import defaultdict

from lsp_agents.core.analysis import budget, globs, hygiene, limits, placement, shadowing
from lsp_agents.core.analysis.codes import OFF, settled_severity
from lsp_agents.core.analysis.document import Document
from lsp_agents.core.analysis.facts import Fact
from lsp_agents.core.analysis.published import published_with_its_package
from lsp_agents.core.analysis.rules import AGGREGATE_TOGETHER, AGGREGATORS, TOGETHER
from lsp_agents.core.analysis.state import TOO_LARGE, AnalysisState
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.harnesses.tables import tables
from lsp_agents.core.layout import owner_directory
from lsp_agents.core.model import Finding, Reason
from lsp_agents.core.timelimit import TimeLimitExceeded
from lsp_agents.core.walk import ancestors

LIBRARY_RULES = 4  # fewer rules with globs than this say nothing of what the project is


class FileFindings(AnalysisState):
    """The findings of one file, from what the analysis keeps."""

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
            invalid_header = self.store.skipping(path, Reason.INVALID_HEADER)
            found.append(shadowing.unreachable_finding(path, tuple(self.harnesses), shadowed, invalid_header))
        found += [f for f in self._config if f.path == path]
        if path in self._definitions.found:
            self.document(path)  # its suppression comments count
            found += self._definitions.on(path)
        return self._settle(path, found)

    def _bounded_findings(self, path: str) -> list[Finding]:
        if path in self.stopped:
            return limits.file_not_evaluated(path, self.stopped[path])
        self._starting(path)
        try:
            return limits.bounded(self._deadline, lambda: self.findings(path))
        except TimeLimitExceeded as exc:
            return limits.file_not_evaluated(path, str(exc))

    def _harness_size_findings(self, path: str) -> list[Finding]:
        """The limits a harness keeps on one file (`HarnessSpec.size_limits`), for a file it loads."""
        limited = [h.spec for h in HARNESSES.values() if h.spec.size_limits is not None and self.store.loads(path, h.id)]
        return [f for spec in limited for f in budget.harness_size_findings(Document(path, self.index.fs.read(path)), spec)]

    def _document_findings(self, path: str) -> list[Finding]:
        # Whether the file belongs to a directory where a harness is launched (not a tool's own
        # folder, a template or an example): what it would be renamed to matters there only, and
        # what its globs should match there and in a complete example (its files are there).
        relative = self.index.relative(path)
        owner = owner_directory(relative)
        in_project = self.index.is_launch_directory(owner)
        # Inside a tool folder (`.kiro/AGENT.md`) no harness reads the new name either.
        renamable = in_project and owner == os.path.dirname(relative)
        deprecated = hygiene.deprecated_finding(path, self.harnesses, self.index.fs.exists, self.index.fs.realpath, renamable)
        found = [deprecated] if deprecated else []
        data = self.index.fs.read(path)
        doc = Document(path, data)
        if data.problem in TOO_LARGE or data.size > self.settings.max_file_bytes:
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
        files_here = (in_project and not self._rule_library(owner)) or self.index.is_complete_example(owner)
        return found + globs.frontmatter_findings(doc, self._file_list(), tuple(self.harnesses), files_here)

    def _rule_library(self, owner: str) -> bool:
        """Whether most rules of the project directory `owner` whose globs decide when they are
        sent match no file there (at least LIBRARY_RULES of them): rules written for the projects
        that copy them (a rule library, a template kept at the root), not for this one."""
        if owner not in self._libraries:
            if self._rules_by_owner is None:
                self._rules_by_owner = defaultdict(list)
                for path in sorted(self._known):
                    if globs.rule_type(path):
                        self._rules_by_owner[owner_directory(self.index.relative(path))].append(path)
            files = self._file_list()
            docs = (self.document(path) for path in self._rules_by_owner.get(owner, ()))
            decided = [v for doc in docs if doc is not None and (v := globs.matches_nothing(doc, files)) is not None]
            self._libraries[owner] = len(decided) >= LIBRARY_RULES and 2 * sum(decided) > len(decided)
        return self._libraries[owner]

    def _unreachable(self, path: str, found: list[Finding]) -> bool:
        """No harness loads the file (its own findings explain unreadable, too large or empty files),
        as far as every unit was evaluated.
        Files in a folder that is no project (a template, documentation) are not expected to load,
        nor a template of a per-user file kept in the repository, nor a file a package publishes."""
        doc = self.document(path)
        if doc is None or any(f.code == "empty-file" for f in found) or self.store.reachable(path):
            return False
        if self._unevaluated:
            return False  # a unit past its budget may load it: its `not-evaluated` finding says so
        if not hygiene.named_for_enabled_harness(path, self.harnesses):
            return False  # a CONTEXT.md where opencode is not in use: a document of that name, not an instruction file
        if any(self.store.reachable(alias) for alias in self._aliases(path)):
            return False
        relative = self.index.relative(path)
        if tables().in_mode_folder.search(relative):
            return False  # sent in another mode of its harness
        owner = owner_directory(relative)
        if not self.index.is_launch_directory(owner) or placement.is_folder_documentation(relative):
            return False
        if placement.is_home_template(relative, doc.text) or published_with_its_package(self.index.fs, path):
            return False  # copied into the user's home by an installer, or shipped to a package's consumers
        if self._pointed_to_by_a_loaded_file(path) or self._definitions.mention(os.path.basename(path)):
            return False  # the agent is sent to read it: reached on demand, by design
        folder = os.path.join(self.index.root, owner) if owner else None
        if folder and folder != os.path.dirname(path) and self.store.reachable_as_workspace(path, folder, self.harnesses):
            return False  # in an editor's folder below the root: loaded when that folder is the workspace
        if path not in self._probes:
            typed = globs.rule_type(path)
            owner = typed[1] if typed else os.path.dirname(path)
            self._probes[path] = not self.store.reachable_on_read(path, owner, self.harnesses, self._launch)
        return self._probes[path]

    def _pointed_to_by_a_loaded_file(self, path: str) -> bool:
        """Whether an instruction file some harness loads, in the folder of `path` or a folder
        above it or a tool folder of one (`.github/`, `.claude/`), links to `path` or imports it
        (`See [.github/AGENTS.md](.github/AGENTS.md)` in the root file; the root's
        copilot-instructions.md listing each package's own). Only those folders: a workspace of
        thousands of unreachable files costs each of them a look at its own ancestors, not at
        every file."""
        tool_folders = tables().tool_folders
        for above in ancestors(os.path.dirname(path), self.index.root):
            for folder in (above, *(os.path.join(above, t) for t in tool_folders if os.path.basename(above) != t)):
                if self._links_to(folder, path):
                    return True
        return False

    def _links_to(self, folder: str, path: str) -> bool:
        """Whether a loaded instruction file in `folder` links to `path` or imports it."""
        if self._known_by_folder is None:
            self._known_by_folder = defaultdict(list)
            for known in self._known:
                self._known_by_folder[os.path.dirname(known)].append(known)
        for other in self._known_by_folder.get(folder, ()):
            if other == path:
                continue
            doc = self.document(other)
            if doc is not None and any(path in targets for targets in doc.pointers.values()) and self.store.reachable(other):
                return True
        return False

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
