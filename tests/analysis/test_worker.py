"""The analysis worker process: the same findings as an analysis in this process, and a step stuck
in C code (where no watchdog thread can interrupt it) is killed, reported as not evaluated, and
the rest of the analysis still arrives."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lsp_agents.core.analysis import Analyzer
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.settings import Settings
from lsp_agents.core.workspace import WorkspaceIndex
from lsp_agents.workers import AnalysisWorker, FolderSpec
from lsp_agents.workers.processes import group_cpu_seconds

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the stuck step is planted by forking a patched process")

FILES = {
    "AGENTS.md": "# Root\n\n- always run the linter before pushing\n",
    "api/AGENTS.md": "# Api\n\n- always run the linter before pushing\n- api rule\n",
    "web/AGENTS.md": "# Web\n\n- web rule written once\n",
    "web/CLAUDE.md": "# Web for Claude\n\n- claude rule\n",
}


def _catastrophic() -> None:
    """Backtracks for longer than any test runs, inside the C regex engine, holding the GIL."""
    re.match(r"(a|aa)*c", "a" * 64)


@pytest.fixture
def ws(workspace) -> tuple[Path, Path]:
    return workspace(FILES)


def _spec(ws: Path, home: Path) -> FolderSpec:
    index = WorkspaceIndex(str(ws), FileSystem())
    index.scan()
    return FolderSpec(index.snapshot(), Settings(), str(home), {})


def _in_process(ws: Path, home: Path) -> dict:
    index = WorkspaceIndex(str(ws), FileSystem())
    index.scan()
    return Analyzer(index, Settings(), home=str(home), env={}).analyse_all()


def test_the_worker_finds_what_the_analysis_finds_here(ws) -> None:
    root, home = ws
    worker = AnalysisWorker(may_fork=True)
    try:
        opened = worker.open(_spec(root, home))
        outcome = worker.analyse_all(str(root), None)
    finally:
        worker.stop()
    assert outcome.complete and outcome.findings == _in_process(root, home)
    assert "claude-code" in opened.harnesses


def test_a_step_stuck_in_c_code_is_killed_and_reported(ws, monkeypatch) -> None:
    root, home = ws
    stuck_cwd = str(root / "web")
    derive = Analyzer._derive

    def derive_or_hang(self, unit):
        if unit.cwd == stuck_cwd and unit.harness == "claude-code":
            _catastrophic()
        return derive(self, unit)

    monkeypatch.setattr(Analyzer, "_derive", derive_or_hang)  # the forked worker inherits it
    worker = AnalysisWorker(may_fork=True, silence=1.0)
    try:
        worker.open(_spec(root, home))
        outcome = worker.analyse_all(str(root), None, workers=1)
    finally:
        worker.stop()
    assert worker.kills == 1
    stopped = [f for items in outcome.findings.values() for f in items if f.code == "not-evaluated"]
    assert len(stopped) == 1 and "claude-code" in stopped[0].harnesses and "web" in stopped[0].message
    assert "was stopped" in stopped[0].message
    # Everything else is analysed: the duplicate between the root and api is still found.
    assert any(f.code == "duplicate-instruction" for f in outcome.findings.get(str(root / "api" / "AGENTS.md"), []))


def test_an_edit_after_a_kill_is_answered_in_full(ws, monkeypatch) -> None:
    """A worker killed during an incremental analysis knows nothing when it starts again: the
    answer is then every finding of the folder, marked complete."""
    root, home = ws
    worker = AnalysisWorker(may_fork=True, silence=1.0)
    try:
        worker.open(_spec(root, home))
        first = worker.analyse_all(str(root), None)
        os.kill(worker._process.pid, signal.SIGKILL)  # the worker dies between two requests
        worker._process.join(10)
        edited = str(root / "web" / "AGENTS.md")
        worker.overlay(edited, "# Web\n\n- always run the linter before pushing\n")
        outcome = worker.analyse_paths(str(root), {edited}, None)
    finally:
        worker.stop()
    assert outcome.complete
    assert any(f.code == "duplicate-instruction" for f in outcome.findings.get(edited, []))
    assert set(outcome.findings) >= set(first.findings) - {edited}


def test_a_worker_started_again_sees_a_file_created_since_the_walk(ws) -> None:
    """A worker started again after a kill is given the folder as the last one knew it: the
    paths changed since the walk are updated in its index, and the walk's listings (which tell of
    the disk as it was then) are not given again. Its answer is a fresh analysis's."""
    root, home = ws
    worker = AnalysisWorker(may_fork=True, silence=1.0)
    try:
        worker.open(_spec(root, home))
        worker.analyse_all(str(root), None)
        created = root / "api" / "CLAUDE.md"
        created.write_text("# Api for Claude\n\n- always run the linter before pushing\n")
        os.kill(worker._process.pid, signal.SIGKILL)  # the worker dies before it hears of the file
        worker._process.join(10)
        outcome = worker.analyse_paths(str(root), {str(created)}, None)
    finally:
        worker.stop()
    assert outcome.complete and outcome.findings == _in_process(root, home)


def test_a_stopped_worker_answers_no_more(ws) -> None:
    root, home = ws
    worker = AnalysisWorker(may_fork=True)
    worker.open(_spec(root, home))
    worker.stop()
    from lsp_agents.workers import WorkerError

    with pytest.raises(WorkerError):
        worker.analyse_all(str(root), None)


def test_a_worker_that_cannot_be_started_is_a_clear_error(ws, monkeypatch) -> None:
    """A system out of processes refuses the fork: the request fails with one line that says so."""
    from multiprocessing.process import BaseProcess

    from lsp_agents.workers import WorkerError

    def refuse(self: BaseProcess) -> None:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    root, home = ws
    monkeypatch.setattr(BaseProcess, "start", refuse)
    worker = AnalysisWorker(may_fork=True)
    worker.start()  # ahead of time: the failure waits for the first request
    with pytest.raises(
        WorkerError, match=r"^the analysis process could not be started: \[Errno 11\] Resource temporarily unavailable$"
    ):
        worker.open(_spec(root, home))


def test_stop_ends_a_request_stuck_in_c_code_at_once(ws, monkeypatch) -> None:
    """`shutdown` and the CLI's exit stop the worker where it is: a request waiting on a step that
    would never end returns (with WorkerError) instead of holding the caller until a kill."""
    import threading

    from lsp_agents.workers import WorkerError

    root, home = ws
    derive = Analyzer._derive
    marker = root.parent / "stuck-now"

    def hang(self, unit):
        marker.touch()
        _catastrophic()
        return derive(self, unit)

    monkeypatch.setattr(Analyzer, "_derive", hang)
    worker = AnalysisWorker(may_fork=True, silence=3600)  # never killed for its silence
    worker.open(_spec(root, home))
    outcome: list = []

    def analyse() -> None:
        try:
            worker.analyse_all(str(root), None)
        except WorkerError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=analyse)
    thread.start()
    while not marker.exists():  # the worker is in the step now
        thread.join(0.01)
    worker.stop()
    thread.join(120)
    assert not thread.is_alive() and isinstance(outcome[0], WorkerError)


def test_a_process_group_cpu_time_grows_with_computing_not_with_waiting() -> None:
    """What the silence of a worker is counted in (Linux): a busy machine slows a worker down
    without making it look stuck."""
    if not os.path.isdir("/proc"):
        pytest.skip("no /proc: the silence is counted in wall time")
    program = (
        "import sys, time\nprint('ready', flush=True)\nsys.stdin.readline()\nstart = time.process_time()\n"
        "while time.process_time() - start < 0.5:\n    pass\nprint('done', flush=True)\nsys.stdin.readline()\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert child.stdout.readline() == "ready\n"
        waiting = group_cpu_seconds(child.pid)
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline() == "done\n"
        computed = group_cpu_seconds(child.pid)
    finally:
        child.kill()
        child.wait()
    assert computed - waiting >= 0.45
