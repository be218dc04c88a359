"""Every CLI command × every harness on the hostile workspace: exit 0 or 2, valid UTF-8 and JSON,
no traceback, nothing read from outside the rules, within 1 GB each (the time each run takes is
the benchmark's business: a test's outcome must not depend on how busy the machine is).

CI runs the matrix with two target files per command and one check of every harness at once;
`benchmarks/bench_hostile.py` runs all of them, and a check per harness, on the full-size workspace
and prints the figures.
"""

from __future__ import annotations

import pytest
from hostile_matrix import run_matrix, summary
from hostile_workspace import CI, generate

from lsp_agents.core.harnesses import HARNESSES


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    return generate(tmp_path_factory.mktemp("hostile"), CI)


@pytest.mark.slow
def test_every_command_and_harness_survives_the_hostile_workspace(hostile) -> None:
    ws, home = hostile
    runs = run_matrix(ws, home, full=False)
    assert {r.args[r.args.index("--harness") + 1] for r in runs if "--harness" in r.args} >= set(HARNESSES)
    print("\n" + summary(runs))
    failed = [r for r in runs if not r.ok]
    assert not failed, summary(runs)
    directory = next(r for r in runs if r.args[0] == "cascade" and r.args[1] == str(ws / "deep"))
    assert directory.code == 2, "a directory where a file is expected is a usage error"
