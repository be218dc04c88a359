"""Size limits: Codex's shared byte budget (`truncated`) and per-file caps (`oversized`).

Codex's cut comes from its model (`truncated_at`, or `budget-exhausted` when nothing was left), per
launch directory; the finding keeps the launch directory that loses the most. Claude Code 2.1.329
(the version the conformance captures pin) warns when one memory file is longer than
max(40,000, 5 % × context window × 3 or 4) characters — 40,000 for 200k-context models, the
threshold used here — and skips files over 4 MiB outright.
"""

from __future__ import annotations

import os

from lsp_agents.core.analysis.base import FILE_START, directory_label, finding, plural
from lsp_agents.core.analysis.cascades import Unit
from lsp_agents.core.analysis.document import Document
from lsp_agents.core.analysis.facts import Env, Fact
from lsp_agents.core.model import Cascade, Finding, Reason, Span
from lsp_agents.core.walk import is_within

CLAUDE_WARN_CHARS = 40_000
CLAUDE_SKIP_BYTES = 4 * 1024 * 1024
CLAUDE_NAMES = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md"})


def truncation_facts(unit: Unit, cascade: Cascade, root: str) -> list[Fact]:
    if unit.harness != "codex":
        return []
    facts = []
    for candidate in cascade.files:
        if not is_within(candidate.path, root):
            continue
        if candidate.loaded and candidate.truncated_at is not None:
            facts.append(Fact("truncated", candidate.path, unit.harness, unit.cwd, "cut", candidate.truncated_at))
        elif candidate.reason == Reason.BUDGET_EXHAUSTED:
            facts.append(Fact("truncated", candidate.path, unit.harness, unit.cwd, "cut", 0))
    return facts


def aggregate_truncated(env: Env, path: str, facts: list[Fact]) -> list[Finding]:
    doc = env.document(path)
    if doc is None:
        return []
    worst = min(facts, key=lambda f: (f.data, f.cwd != env.root, f.cwd))
    cut, size = worst.data, len(doc.raw)
    others = len({f.cwd for f in facts}) - 1
    where = directory_label(worst.cwd, env.root) + (f" (and {plural(others, 'other launch directory')})" if others else "")
    if cut == 0:
        span = doc.line_span(0, doc.line_count - 1)
        message = (
            f"Codex never sends this file when launched from {where}: the files before it use up the "
            f"project_doc_max_bytes budget ({size:,} bytes lost)"
        )
    else:
        line, character = doc.byte_position(cut)
        last = doc.line_count - 1
        span = Span(line, character, last, len(doc.line(last)))
        message = (
            f"Codex stops sending this file here, at byte {cut:,} of {size:,}, when launched from {where}: "
            f"the shared project_doc_max_bytes budget runs out, and the {size - cut:,} bytes from here to the "
            "end of the file are never sent"
        )
    return [finding("truncated", path, span, message, harnesses=["codex"])]


def _claude_reads(path: str) -> bool:
    return os.path.basename(path) in CLAUDE_NAMES or f"{os.sep}.claude{os.sep}" in path


def size_findings(doc: Document, max_file_bytes: int) -> list[Finding]:
    """Too large to analyse: a finding of the file alone."""
    size = doc.data.size
    if size > max_file_bytes:
        return [
            finding(
                "oversized",
                doc.path,
                FILE_START,
                f"{size} bytes, over maxFileBytes ({max_file_bytes}): not analysed line by line",
            )
        ]
    return []


def claude_size_findings(doc: Document) -> list[Finding]:
    """Claude Code's own limits, for a file it loads (the caller knows: an AGENTS.md beside a
    CLAUDE.md never reaches it, whatever its size)."""
    size = doc.data.size
    if not _claude_reads(doc.path):
        return []
    if size > CLAUDE_SKIP_BYTES:
        return [
            finding(
                "oversized",
                doc.path,
                FILE_START,
                f"{size} bytes: Claude Code skips files over 4 MiB entirely",
                harnesses=["claude-code"],
                severity="error",
            )
        ]
    if doc.data.data is None:
        return []
    characters = len(doc.text.encode("utf-16-le")) // 2  # JavaScript string length
    if characters > CLAUDE_WARN_CHARS:
        return [
            finding(
                "oversized",
                doc.path,
                FILE_START,
                f"{characters} characters: Claude Code warns above {CLAUDE_WARN_CHARS} "
                '("Large CLAUDE.md will impact performance"); split it or move parts into imported files',
                harnesses=["claude-code"],
            )
        ]
    return []
