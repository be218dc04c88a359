"""The language server under fuzzing, over stdio, on the hostile workspace (a bounded run in CI;
`benchmarks/bench_fuzz.py` runs a longer one): every request is answered, the server stays up
through random, malformed and cancelled messages sent while its initial analysis runs, and
exits 0 after shutdown/exit."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hostile"))
from hostile_workspace import CI, generate
from lsp_fuzz import FuzzSession, actions, uri_pool

EXAMPLES = int(os.environ.get("LSP_AGENTS_FUZZ_EXAMPLES", "300"))


@pytest.fixture(scope="module")
def fuzz_session(tmp_path_factory):
    ws, home = generate(tmp_path_factory.mktemp("hostile"), CI)
    session = FuzzSession(ws, home)
    session.start()
    yield session
    if session.exit_code is None and session.alive():
        session.client._server.kill()


@pytest.fixture(scope="module")
def pool(fuzz_session) -> list[str]:
    return uri_pool(fuzz_session.ws)


@pytest.mark.slow
def test_every_request_is_answered_while_fuzzed(fuzz_session, pool) -> None:
    # Generated only: the server is one long-lived process, so shrinking a failure would replay
    # batches against a state that has moved on, for as long as each replay takes.
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(actions(pool))
    def batches(batch: list[tuple]) -> None:
        fuzz_session.send(batch)
        assert fuzz_session.alive(), "the server died"
        assert not fuzz_session.figures.unanswered, fuzz_session.figures.unanswered

    batches()
    figures = fuzz_session.figures
    assert figures.requests > EXAMPLES // 2 and not figures.unanswered
    assert fuzz_session.stop() == 0, "the server did not exit cleanly after shutdown/exit"
    assert figures.tracebacks == 0, figures.first_traceback
    slowest, method = figures.slowest()
    print(
        f"\nfuzz: {figures.requests} requests ({figures.errors} answered with an error), {figures.notifications} "
        f"notifications; slowest answer {slowest * 1000:.0f} ms ({method}); {figures.worker_kills} worker kills; "
        f"{figures.log_lines} log lines; exit 0"
    )
