"""Files and sections that lose to another: `shadowed-file`, `unreachable-file`, `shadowed-section`.

Shadowing comes straight from the harness models' reasons (family-shadowed, override-shadowed,
claude-md-present, name-shadowed): the analysis never re-derives a harness rule. Sections follow
the agents.md "closest wins" reading: an ancestor's heading that a nearer file of the same loaded
chain repeats is overridden for the nearer file's subtree.
"""

from __future__ import annotations

import os

from lsp_agents.core.analysis.base import FILE_START, directory_label, finding, names, plural, shown
from lsp_agents.core.analysis.cascades import Unit
from lsp_agents.core.analysis.document import Document
from lsp_agents.core.analysis.facts import Env, Fact, PairCache, group
from lsp_agents.core.model import Cascade, Finding, Fix, Reason, Related, Role, Span, TextEdit
from lsp_agents.core.walk import is_within

SHADOW_REASONS = {
    Reason.FAMILY_SHADOWED: "the first of AGENTS.md, CLAUDE.md, CONTEXT.md found in the chain wins",
    Reason.OVERRIDE_SHADOWED: "AGENTS.override.md wins over AGENTS.md in the same directory",
    Reason.NAME_SHADOWED: "an earlier name in the same directory wins",
    Reason.CLAUDE_MD_PRESENT: "a CLAUDE.md at or above the launch directory turns AGENTS.md off",
}
_COUNTING = ("CLAUDE.md", "CLAUDE.local.md")


def _claude_winner(cascade: Cascade) -> str | None:
    return next((c.path for c in cascade.files
                 if c.loaded and c.role != Role.GLOBAL and os.path.basename(c.path) in _COUNTING), None)


def shadow_facts(unit: Unit, cascade: Cascade, root: str) -> list[Fact]:
    if unit.harness == "agents-md":
        return []
    facts = []
    loaded = {c.path for c in cascade.loaded}  # Claude may skip AGENTS.md and still load it as an import
    unapproved = {c.path for c in cascade.not_loaded if c.reason == Reason.IMPORT_NOT_APPROVED}
    for candidate in cascade.not_loaded:
        if candidate.reason in SHADOW_REASONS and is_within(candidate.path, root) and candidate.path not in loaded:
            winner = candidate.related or (_claude_winner(cascade) if candidate.reason == Reason.CLAUDE_MD_PRESENT else None)
            data = (candidate.reason, winner, candidate.path in unapproved)
            facts.append(Fact("shadowed-file", candidate.path, unit.harness, unit.cwd, unit.harness, data))
    return facts


def aggregate_shadowed(env: Env, path: str, facts: list[Fact]) -> list[Finding]:
    parts, related, from_root = [], {}, False
    for harness, items in group(facts).items():
        cwds = sorted({f.cwd for f in items}, key=lambda d: (d != env.root, d))
        reason, winner, unapproved = items[0].data
        from_root = from_root or cwds[0] == env.root
        where = directory_label(cwds[0], env.root) + (f" and {plural(len(cwds) - 1, 'other launch directory')}" if len(cwds) > 1 else "")
        won = f"{shown(winner, env.root)} wins" if winner else "another file wins"
        approval = "; importing it from there needs the user's approval (outside the launch directory)" if unapproved else ""
        parts.append(f"{harness} skips this file when launched from {where}: {won} ({SHADOW_REASONS[reason]}){approval}")
        if winner:
            related[winner] = Related(winner, FILE_START, f"loaded instead by {harness}")
    severity = "warning" if from_root else "information"
    return [finding("shadowed-file", path, FILE_START, "; ".join(parts), harnesses=[f.harness for f in facts],
                    related=related.values(), severity=severity)]


def unreachable_finding(
    path: str, root: str, harnesses: tuple[str, ...], exists, document, shadowed: list[Finding] = ()
) -> Finding:
    """`shadowed`: the file's shadowed-file findings, whose explanation (who wins) this one absorbs."""
    enabled = names(harnesses) or "none"
    message = (f"no enabled harness ({enabled}) loads {os.path.basename(path)} from any launch directory, "
               "eagerly or when the agent reads a file")
    message += "".join(f"; {f.message}" for f in shadowed)
    related = [r for f in shadowed for r in f.related]
    fix = None
    directory = os.path.dirname(path)
    claude_md = os.path.join(directory, "CLAUDE.md")
    if os.path.basename(path) == "AGENTS.md" and "claude-code" in harnesses and exists(claude_md):
        doc: Document | None = document(claude_md)
        if doc is not None:
            last = len(doc.lines) - 1
            prefix = "" if doc.text.endswith("\n") or not doc.text else "\n"
            edit = TextEdit(claude_md, Span(last, len(doc.lines[last]), last, len(doc.lines[last])), f"{prefix}@AGENTS.md\n")
            fix = Fix("Import AGENTS.md from CLAUDE.md (@AGENTS.md)", edits=(edit,))
            message += "; Claude Code reads CLAUDE.md here, which could import it with @AGENTS.md"
    return finding("unreachable-file", path, FILE_START, message, harnesses=harnesses, related=related, fix=fix)


# -- sections ---------------------------------------------------------------------------------
def section_facts(loaded: list[str], document, root: str, cache: PairCache) -> list[Fact]:
    """Pairs (ancestor file, nearer file) loaded together that share a section heading. Facts of a
    chain: `harness` and `cwd` are left empty (each unit of the chain supplies its own)."""
    docs = [(p, os.path.dirname(p) + os.sep, d) for p in loaded if is_within(p, root) and (d := document(p)) is not None]
    facts = []
    for outer_path, outer_dir, outer in docs:
        for inner_path, inner_dir, inner in docs:
            if inner_dir != outer_dir and inner_dir.startswith(outer_dir):
                facts += cache.get(outer_path, inner_path, lambda: redefined(outer, inner))
    return facts


def redefined(outer: Document, inner: Document) -> list[Fact]:
    """The sections of `outer` (an ancestor's file) that `inner` redefines, as facts on both."""
    headings = {s.heading: s for s in outer.sections if s.level > 1 and s.heading}
    facts = []
    for section in inner.sections:
        match = headings.get(section.heading)
        if section.level > 1 and match is not None:
            facts.append(Fact("shadowed-section", outer.path, "", "", (match.line, inner.path), ("outer", inner.path, section.line)))
            facts.append(Fact("shadowed-section", inner.path, "", "", (section.line, outer.path), ("inner", outer.path, match.line)))
    return facts


def aggregate_sections(env: Env, path: str, facts: list[Fact]) -> list[Finding]:
    found = []
    doc = env.document(path)
    if doc is None:
        return []
    for (line, other), items in group(facts).items():
        role, _other, other_line = items[0].data
        heading = doc.lines[line].strip()
        harnesses = [f.harness for f in items]
        subtree = directory_label(os.path.dirname(other if role == "outer" else path), env.root)
        if role == "outer":
            message = (f"section {heading!r} is redefined by {shown(other, env.root)}: for files under {subtree} "
                       f"the nearer section wins ({names(harnesses)})")
            related = Related(other, Span(other_line, 0, other_line, 0), "the overriding section")
            severity = None
        else:
            message = f"overrides section {heading!r} of {shown(other, env.root)} for files under {subtree} ({names(harnesses)})"
            related = Related(other, Span(other_line, 0, other_line, 0), "the overridden section")
            severity = "hint"
        found.append(finding("shadowed-section", path, doc.line_span(line), message, harnesses=harnesses,
                             related=[related], severity=severity))
    return found
