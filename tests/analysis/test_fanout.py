"""A full analysis shared between forked processes gives exactly the serial findings, and the
CLI's `check` (which forks on a large workspace) prints the same report as a serial run."""

from __future__ import annotations

import dataclasses
import os
import pickle

import pytest
from analysis_helpers import check_json

from lsp_agents.core.analysis import UNITS_PER_WORKER, Analyzer
from lsp_agents.core.analysis.fanout import fork_exchange
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.model import Candidate, Reason, Role
from lsp_agents.core.settings import Settings
from lsp_agents.core.workspace import WorkspaceIndex

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forking needs os.fork")

SHARED = "- always run the linter before pushing any change\n"


def _package(number: int) -> dict[str, str]:
    """A package whose instructions repeat, redefine and shadow the root's (its CLAUDE.md names the AGENTS.md
    beside it, which Claude Code skips: shadowed, not a pair kept apart on purpose)."""
    base = f"packages/p{number:03}"
    return {
        f"{base}/AGENTS.md": f"# Package {number}\n\n## Testing\n\n{SHARED}- package {number} has its own rule here\n",
        f"{base}/CLAUDE.md": f"# Claude {number}\n\n- package {number} claude rule, written here once; see AGENTS.md for the rest\n",
        f"{base}/src/AGENTS.override.md": "" if number % 7 == 0 else f"- override rule for package {number} only\n",
        f"{base}/src/index.ts": "export {};\n",
    }


@pytest.fixture
def large(workspace):
    files = {
        "AGENTS.md": f"# Root\n\n## Testing\n\n{SHARED}",
        "CLAUDE.md": "# Root\n\n@AGENTS.md\n",
        ".github/copilot-instructions.md": f"{SHARED}",
        "opencode.json": "{}\n",
    }
    for number in range(100):
        files.update(_package(number))
    return workspace(files)


def _analyse(ws, home, workers: int) -> dict:
    index = WorkspaceIndex(str(ws), FileSystem())
    index.scan()
    analyzer = Analyzer(index, Settings(), home=str(home), env={})
    found = analyzer.analyse_all(workers=workers)
    return {
        path: [(f.code, f.severity, f.span, f.message, tuple(f.harnesses), f.related, f.fix) for f in items]
        for path, items in found.items()
    }


def test_forked_analysis_equals_serial(large) -> None:
    ws, home = large
    serial = _analyse(ws, home, 1)
    assert sum(map(len, serial.values())) > 150  # duplicates, sections, shadowed and empty files
    assert _analyse(ws, home, 2) == serial
    assert _analyse(ws, home, 3) == serial


def test_check_forks_on_a_large_workspace_and_reports_the_same(large) -> None:
    ws, home = large
    index = WorkspaceIndex(str(ws), FileSystem())
    index.scan()
    analyzer = Analyzer(index, Settings(), home=str(home), env={})
    assert len(analyzer.store.units(analyzer.harnesses, index.launch_directories())) >= 2 * UNITS_PER_WORKER
    serial = {os.path.relpath(path, ws): [(f.code, f.message) for f in items] for path, items in analyzer.analyse_all().items()}
    _code, report = check_json(ws, home)
    printed: dict[str, list] = {}
    for item in report["findings"]:
        printed.setdefault(item["path"], []).append((item["code"], item["message"]))
    assert printed == serial


def _squares(chunks: list[list[int]], failing: int | None = None) -> tuple[list[list[int]], list[list[list[int]]]]:
    """`fork_exchange` of squaring each chunk, then of adding to each number of its chunk the
    sum of every square; a child given the chunk `[failing]` fails in the step that squares it
    (when `failing` is positive) or in the one that adds (negative). Returns the finished
    chunks, and what each process kept."""
    parent = os.getpid()
    kept: list[list[list[int]]] = []

    def square(chunk: list[int]) -> list[int]:
        if failing is not None and chunk == [failing] and os.getpid() != parent:
            raise RuntimeError("a child that fails")
        return [n * n for n in chunk]

    def add(index: int) -> list[int]:
        if failing is not None and chunks[index] == [-failing] and os.getpid() != parent:
            raise RuntimeError("a child that fails")
        return [n + sum(map(sum, kept[-1])) for n in chunks[index]]

    return fork_exchange(square, kept.append, add, chunks), kept


def test_fork_exchange_gives_every_process_all_results_and_keeps_the_order() -> None:
    chunks = [[1, 2], [3], [4, 5]]
    for failing in (None, 3, -3):
        finished, kept = _squares(chunks, failing)
        assert finished == [[56, 57], [58], [59, 60]]
        assert kept == [[[1, 4], [9], [16, 25]]]  # kept once here, whichever child failed
    assert _squares([[6]]) == ([[42]], [[[36]]])


def test_fork_exchange_computes_here_what_no_child_could_be_started_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy system refuses a fork (EAGAIN: out of processes; ENOMEM): the analysis goes on."""

    def refuse() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    assert _squares([[1, 2], [3], [4, 5]])[0] == [[56, 57], [58], [59, 60]]


def test_a_candidate_keeps_every_field_through_a_pipe() -> None:
    """Candidates cross between forked processes pickled as their fields: none may be left out."""
    sent = Candidate("/ws/AGENTS.md", Role.PROJECT, False, 12, Reason.TOO_LARGE, 8, "/ws/CLAUDE.md")
    assert all(getattr(sent, f.name) != f.default for f in dataclasses.fields(Candidate))
    assert pickle.loads(pickle.dumps(sent, protocol=pickle.HIGHEST_PROTOCOL)) == sent  # noqa: S301 - pickled here
