"""The analysis of a whole workspace folder, shared between forked workers when it is large."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import TypeVar

from lsp_agents.core.analysis import limits
from lsp_agents.core.analysis.cascades import Unit
from lsp_agents.core.analysis.facts import Fact, SourceFacts
from lsp_agents.core.analysis.fanout import fork_exchange
from lsp_agents.core.analysis.file_findings import FileFindings
from lsp_agents.core.disk import Summary
from lsp_agents.core.model import Cascade, Finding

Share = TypeVar("Share")
Result = TypeVar("Result")
Job = tuple[list[Unit], bool, int]  # a share of the units, whether it reports progress, how many units in all
Derived = tuple[Unit, Cascade, list[Fact], SourceFacts | None]
Found = list[tuple[str, list[Finding]]]
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
        paths: list[str] = []

        def keep_all(derived: list[list[Derived]]) -> None:
            for results in derived:
                for unit, cascade, facts, sources in results:
                    self._keep(unit, cascade, facts, sources)
            paths.extend(self._finding_paths())

        # Each process finds on the files of the directories it derived: it has their documents.
        starts = [share[0].cwd for share in shares[1:]]

        def findings_share(number: int) -> Found:
            return self._findings_share([path for path in paths if bisect.bisect_right(starts, path) == number])

        found: dict[str, list[Finding]] = {}
        for share_found in self._shared(self._derive_share, keep_all, findings_share, jobs):
            found.update(share_found)
        return {path: found[path] for path in paths if found[path]}

    def _finding_paths(self) -> list[str]:
        """Once every unit is kept: the files findings may be about."""
        definitions = self._definitions.compute()
        return sorted(
            set(self._known)
            | {f.path for f in self._config}
            | self._facts.paths()
            | set(+self._imported_count)
            | set(definitions)
        )

    def _shared(
        self,
        derive: Callable[[Job], list[Derived]],
        keep: Callable[[list[list[Derived]]], None],
        finish: Callable[[int], Found],
        jobs: Sequence[Job],
    ) -> list[Found]:
        """`fork_exchange(derive, keep, finish, jobs)`, with what each forked child read noted in
        the file system's journal, when it keeps one (`check`'s cache must know every file the
        analysis read)."""
        journal = self.index.fs.journal
        if journal is None:
            return fork_exchange(derive, keep, finish, jobs)
        before = len(journal.entries)

        def noting(function: Callable[[Share], Result]) -> Callable[[Share], tuple[Result, dict[str, Summary]]]:
            return lambda share: (function(share), journal.since(before))

        def keep_noted(derived: list[tuple[list[Derived], dict[str, Summary]]]) -> None:
            for _, notes in derived:
                journal.add(notes)
            keep([results for results, _ in derived])

        found = []
        for share_found, notes in fork_exchange(noting(derive), keep_noted, noting(finish), jobs):
            journal.add(notes)
            found.append(share_found)
        return found

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

    def _derive_share(self, job: Job) -> list[Derived]:
        """`_derive` of some units; the share computed in this process reports progress."""
        units, reports, total = job
        results = []
        for number, unit in enumerate(units, 1):
            results.append((unit, *self._bounded_derive(unit)))
            if reports and self.progress and (number % 50 == 0 or number == len(units)):
                self.progress("analysed", total * number // len(units), total)
        return results

    def _findings_share(self, paths: list[str]) -> Found:
        return [(path, self._bounded_findings(path)) for path in paths]
