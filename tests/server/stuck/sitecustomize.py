"""Imported at start-up by every Python process of one test (it puts this folder on PYTHONPATH):
the Claude Code unit launched from the folder named by LSP_AGENTS_TEST_STUCK_IN gets stuck in the
C regular-expression engine, holding the interpreter lock, the way a catastrophic pattern would.
Only the analysis worker computes units, so only it gets stuck. The server takes a worker for stuck
after STUCK_AFTER_S of silence (and as long again of computing), not the 10 s of a real session:
the test waits for that twice."""

import os

_STUCK_IN = os.environ.get("LSP_AGENTS_TEST_STUCK_IN")

if _STUCK_IN:
    import re

    from lsp_agents.core.analysis import Analyzer
    from lsp_agents.workers.pool import AnalysisWorker

    STUCK_AFTER_S = 4.0
    AnalysisWorker.__init__.__kwdefaults__["silence"] = STUCK_AFTER_S

    _derive = Analyzer._derive

    def _derive_or_hang(self, unit):  # type: ignore[no-untyped-def]  # stands in for Analyzer._derive, typed there
        if unit.cwd == _STUCK_IN and unit.harness == "claude-code":
            re.match(r"(a|aa)*c", "a" * 64)
        return _derive(self, unit)

    Analyzer._derive = _derive_or_hang
