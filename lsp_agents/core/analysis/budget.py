"""Size limits: Codex's shared byte budget (`truncated`) and per-file caps (`oversized`).

Codex's cut comes from its model (`truncated_at`, or `budget-exhausted` when nothing was left), per
launch directory; the finding keeps the launch directory that loses the most. A harness's own
limits on one file (Claude Code's, `HarnessSpec.size_limits`) apply to the files it loads.
"""

from __future__ import annotations

from lsp_agents.core.analysis.base import FILE_START, directory_label, finding, plural
from lsp_agents.core.analysis.cascades import Unit
from lsp_agents.core.analysis.document import Document
from lsp_agents.core.analysis.facts import Env, Fact
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.harnesses.spec import HarnessSpec
from lsp_agents.core.model import Cascade, Finding, Reason, Span
from lsp_agents.core.walk import is_within


def truncation_facts(unit: Unit, cascade: Cascade, root: str) -> list[Fact]:
    if HARNESSES[unit.harness].spec.cuts_files is None:
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
    """One finding per harness that cuts the file: where it cuts most (each harness cuts for its
    own reason, so one harness's cut never stands for another's)."""
    doc = env.document(path)
    if doc is None:
        return []
    by_harness: dict[str, list[Fact]] = {}
    for fact in facts:
        by_harness.setdefault(fact.harness, []).append(fact)
    return [_truncated(env, doc, HARNESSES[harness].spec, own) for harness, own in sorted(by_harness.items())]


def _truncated(env: Env, doc: Document, spec: HarnessSpec, facts: list[Fact]) -> Finding:
    worst = min(facts, key=lambda f: (f.payload(int), f.cwd != env.root, f.cwd))
    cut, size = worst.payload(int), len(doc.raw)
    others = len({f.cwd for f in facts}) - 1
    where = directory_label(worst.cwd, env.root) + (f" (and {plural(others, 'other launch directory')})" if others else "")
    if cut == 0:
        span = doc.line_span(0, doc.line_count - 1)
        message = (
            f"{spec.title} never sends this file when launched from {where}: the files before it use up the "
            f"project_doc_max_bytes budget ({size:,} bytes lost)"
        )
    else:
        line, character = doc.byte_position(cut)
        last = doc.line_count - 1
        span = Span(line, character, last, len(doc.line(last)))
        message = (
            f"{spec.title} stops sending this file here, at byte {cut:,} of {size:,}, when launched from {where}: "
            f"{spec.cuts_files}, and the {size - cut:,} bytes from here to the end of the file are never sent"
        )
    return finding("truncated", doc.path, span, message, harnesses=[spec.id])


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


def harness_size_findings(doc: Document, spec: HarnessSpec) -> list[Finding]:
    """The harness's own limits, for a file it loads (the caller knows: an AGENTS.md beside a
    CLAUDE.md never reaches Claude Code, whatever its size)."""
    size = doc.data.size
    limits = spec.size_limits
    if limits is None or not limits.apply_to(doc.path):
        return []
    if size > limits.skip_bytes:
        return [
            finding(
                "oversized",
                doc.path,
                FILE_START,
                f"{size} bytes: {spec.title} skips files over {limits.skip_bytes // (1024 * 1024)} MiB entirely",
                harnesses=[spec.id],
                severity="error",
            )
        ]
    if doc.data.data is None:
        return []
    characters = len(doc.text.encode("utf-16-le")) // 2  # JavaScript string length
    if characters > limits.warn_characters:
        return [
            finding(
                "oversized",
                doc.path,
                FILE_START,
                f"{characters} characters: {spec.title} warns above {limits.warn_characters} "
                f"({limits.warning}); split it or move parts into imported files",
                harnesses=[spec.id],
            )
        ]
    return []
