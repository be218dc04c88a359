"""A unit past its budget is reported `not-evaluated`; what it would load is then unknown, so no
file is called unreachable meanwhile (no harness may be said to skip a file it was not asked about)."""

from __future__ import annotations

import pytest

from lsp_agents.core.analysis import Analyzer
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.settings import Settings
from lsp_agents.core.timelimit import TimeLimitExceeded
from lsp_agents.core.workspace import WorkspaceIndex

FILES = {"AGENTS.md": "# A\n- use tabs for indentation everywhere\n", "CLAUDE.md": "# C\n- keep functions short and focused\n"}


@pytest.mark.parametrize("stuck", [False, True], ids=["evaluated", "past-its-budget"])
def test_no_file_is_unreachable_while_a_unit_is_not_evaluated(workspace, monkeypatch, stuck: bool) -> None:
    root, home = workspace(FILES)
    derive = Analyzer._derive

    def derive_or_time_out(self, unit):
        if stuck and unit.harness == "claude-code":
            raise TimeLimitExceeded("exceeded 2000 ms")
        return derive(self, unit)

    monkeypatch.setattr(Analyzer, "_derive", derive_or_time_out)
    index = WorkspaceIndex(str(root), FileSystem())
    index.scan()
    settings = Settings(harnesses=["claude-code"])
    found = Analyzer(index, settings, home=str(home), env={}).analyse_all()
    codes = sorted((f.code, path.rsplit("/", 1)[-1]) for path, items in found.items() for f in items)
    expected = [("not-evaluated", "AGENTS.md")] if stuck else [("unreachable-file", "AGENTS.md")]
    assert [c for c in codes if c[0] in ("not-evaluated", "unreachable-file")] == expected
