"""The analysis of a whole workspace folder, shared between forked workers when it is large."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from lsp_agents.core.analysis import limits
from lsp_agents.core.analysis.cascades import Unit
from lsp_agents.core.analysis.facts import Fact, SourceFacts
from lsp_agents.core.analysis.fanout import fork_map
from lsp_agents.core.analysis.file_findings import FileFindings
from lsp_agents.core.disk import Summary
from lsp_agents.core.model import Cascade, Finding

Share = TypeVar("Share")
Result = TypeVar("Result")
UNITS_PER_WORKER = 200  # below this, forking costs more than it saves


class FullAnalysis(FileFindings):
    """Every finding of the workspace folder, computed from scratch."""

    def analyse_all(self, *, workers: int = 1) -> dict[str, list[Finding]]:
        """Every finding of the workspace. `workers` > 1 shares a large workspace between that
        many forked processes (only for single-threaded callers; see `fanout`)."""
        for cache in (
            self._docs,
            self._facts,
            self._imported,
            self._imported_count,
            self._unevaluated,
            self._own,
            self._probes,
            self._libraries,
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
        self._rules_by_owner = self._known_by_folder = None
        units = sorted(self.store.units(self.harnesses, self._launch), key=lambda u: (u.cwd, u.harness))
        workers = max(1, min(workers, len(units) // UNITS_PER_WORKER))
        shares = [units[len(units) * i // workers : len(units) * (i + 1) // workers] for i in range(workers)]
        jobs = [(share, share is shares[-1], len(units)) for share in shares]
        for results in self._shared(self._derive_share, jobs):
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
        for share_found in self._shared(self._findings_share, [paths[i::workers] for i in range(workers)]):
            found.update(share_found)
        return {path: found[path] for path in paths if found[path]}

    def _shared(self, function: Callable[[Share], Result], shares: Sequence[Share]) -> list[Result]:
        """`fork_map(function, shares)`, with what each forked share read noted in the file
        system's journal, when it keeps one (`check`'s cache must know every file the analysis read)."""
        journal = self.index.fs.journal
        if journal is None:
            return fork_map(function, shares)
        before = len(journal.entries)

        def noting(share: Share) -> tuple[Result, dict[str, Summary]]:
            return function(share), journal.since(before)

        results = []
        for result, notes in fork_map(noting, shares):
            journal.add(notes)
            results.append(result)
        return results

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
