"""Bounds on the analysis: a time budget per unit of work and a deadline on the whole analysis.

A unit (one harness launched in one directory) or one file's findings that run past their budget,
and every unit left when the deadline has passed, are not evaluated: they yield a
`not-evaluated` finding instead of holding up, or hanging, the whole analysis.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

from lsp_agents.core.analysis.base import FILE_START, directory_label, finding, names
from lsp_agents.core.analysis.facts import Env, Fact, SourceFacts
from lsp_agents.core.model import Cascade, Finding
from lsp_agents.core.timelimit import Deadline, TimeLimitExceeded, call_within
from lsp_agents.core.workspace import WorkspaceIndex

T = TypeVar("T")
UNIT_SECONDS = 2.0  # CPU seconds: a 56 KB chain of 900 bullets takes about 0.45 s on a quiet machine
ANALYSIS_SECONDS = 30.0


def analysis_deadline() -> Deadline:
    return Deadline(ANALYSIS_SECONDS)


def bounded(deadline: Deadline, function: Callable[[], T]) -> T:
    """`function()` within the unit budget; TimeLimitExceeded past it or past the deadline."""
    if deadline.passed():
        raise TimeLimitExceeded(
            "the analysis was stopped"
            if deadline.cancelled
            else f"the analysis passed its {ANALYSIS_SECONDS * 1000:,.0f} ms deadline"
        )
    return call_within(UNIT_SECONDS, function)


def anchor(index: WorkspaceIndex, cwd: str) -> str:
    """The file a unit's finding sits on: the first instruction file of its launch directory,
    else the directory itself."""
    own = sorted(p for p in index.instruction_files if os.path.dirname(p) == cwd)
    return own[0] if own else cwd


def skipped_unit(index: WorkspaceIndex, harness: str, cwd: str, why: str) -> tuple[Cascade, list[Fact], SourceFacts]:
    """What a unit that was not evaluated contributes: no candidates, one fact."""
    fact = Fact("not-evaluated", anchor(index, cwd), harness, cwd, "unit", why)
    return Cascade(harness, cwd), [fact], []


def aggregate_not_evaluated(env: Env, path: str, facts: list[Fact]) -> list[Finding]:
    where = sorted({directory_label(f.cwd, env.root) for f in facts})
    message = (
        f"not evaluated: {facts[0].data}; the cascades of {names(f.harness for f in facts)} launched from "
        f"{', '.join(where)} are not analysed"
    )
    return [finding("not-evaluated", path, FILE_START, message, harnesses=[f.harness for f in facts])]


def file_not_evaluated(path: str, why: str) -> list[Finding]:
    return [finding("not-evaluated", path, FILE_START, f"not evaluated: {why}; this file's findings are not analysed")]
