"""Files and sections that lose to another: `shadowed-file`, `unreachable-file`, `shadowed-section`.

Shadowing comes straight from the harness models' reasons (family-shadowed, override-shadowed,
claude-md-present, name-shadowed): the analysis never re-derives a harness rule. Sections can only
be shadowed where a harness resolves conflicts by "the closest file wins" (the agents.md profile):
every other harness concatenates the files, so a nested file repeating a parent's heading overrides
nothing.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Literal

from lsp_agents.core.analysis.base import FILE_START, directory_label, finding, names, plural, shown
from lsp_agents.core.analysis.cascades import Unit
from lsp_agents.core.analysis.document import Document, DocumentOf
from lsp_agents.core.analysis.facts import Env, Fact, PathCache, Redefinition, Shadowing, group
from lsp_agents.core.analysis.published import published_with_its_package
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.model import Cascade, Finding, Fix, Reason, Related, Role, Span, TextEdit
from lsp_agents.core.walk import is_within

SHADOW_REASONS = {
    Reason.FAMILY_SHADOWED: "it takes only the first of AGENTS.md, CLAUDE.md, CONTEXT.md found from the launch directory up",
    Reason.OVERRIDE_SHADOWED: "AGENTS.override.md replaces AGENTS.md in the same directory",
    Reason.NAME_SHADOWED: "it takes only one of them: the first of its file names in a directory, or one rule per name",
    Reason.CLAUDE_MD_PRESENT: "a CLAUDE.md at or above the launch directory turns AGENTS.md off",
}
_COUNTING = ("CLAUDE.md", "CLAUDE.local.md")
# A skipped file whose instructions reach the harness anyway: at least this share of its word
# 3-grams is in the files it loads (a generated copy per harness, one file the other plus a few lines).
COVERED = 0.8
# A CLAUDE.md naming the AGENTS.md beside it in this many of its sections routes the model to it
# topic by topic.
ROUTER_SECTIONS = 3


def closest_wins(harness: str) -> bool:
    """Whether a nearer file's section replaces an ancestor's for the harness (sections can be shadowed)."""
    return HARNESSES[harness].spec.closest_wins


def _claude_winner(cascade: Cascade, candidate_path: str) -> str | None:
    """The CLAUDE.md that turns a skipped AGENTS.md off: the one that speaks for the AGENTS.md's own
    directory when Claude Code loads one there (its sibling, written beside it), else the first."""
    loaded = [c.path for c in cascade.files if c.loaded and c.role != Role.GLOBAL and os.path.basename(c.path) in _COUNTING]
    level = _level(candidate_path)
    return next((path for path in loaded if _level(path) == level), next(iter(loaded), None))


def _points_to_loaded(doc: Document | None, loaded: set[str], realpath: Callable[[str], str]) -> bool:
    """Whether a skipped file is a pointer file (`Document.only_points`) to a file the harness loads."""
    if doc is None or not doc.only_points:
        return False
    return any(target in loaded or realpath(target) in loaded for targets in doc.pointers.values() for target in targets)


def _referred(
    cascade: Cascade, root: str, document: Callable[[str], Document | None], realpath: Callable[[str], str]
) -> set[str]:
    """The real paths of the files that loaded files with instructions of their own link or import
    (a pointer file refers to nothing: it stands in for the file it names)."""
    referred = set()
    for candidate in cascade.loaded:
        doc = document(candidate.path) if is_within(candidate.path, root) else None
        if doc is not None and not doc.only_points:
            referred |= {realpath(t) for targets in doc.pointers.values() for t in targets}
    return referred


def _covered(doc: Document | None, loaded: list[str], document: Callable[[str], Document | None]) -> bool:
    """Whether the files a harness loads hold the skipped file's instructions (COVERED of its
    word 3-grams): then nothing of substance is lost, whichever copy it reads."""
    if doc is None or not doc.shingles.grams:
        return False
    missing = set(doc.shingles.grams)
    may_miss = len(missing) - COVERED * len(missing)  # how many may stay missing
    others = [other.shingles.grams for path in loaded if (other := document(path)) is not None]
    if sum(map(len, others)) < len(missing) - may_miss:
        return False  # too few 3-grams loaded in all (repeats counted) to hold that many of the file's
    for grams in others:  # no union of the loaded files' 3-grams (a chain's can be large): struck off the file's own
        missing.difference_update(grams)
        if len(missing) <= may_miss:
            return True
    return len(missing) <= may_miss


def _refers_to(doc: Document | None, path: str) -> bool:
    """Whether a file points to `path` or names it ("See AGENTS.md"): its author expects the
    harness to read that file too."""
    if doc is None:
        return False
    return any(path in targets for targets in doc.pointers.values()) or os.path.basename(path) in doc.text


def _level(path: str) -> str:
    """The directory a file speaks for: `.claude/CLAUDE.md` speaks for the folder holding `.claude`."""
    directory = os.path.dirname(path)
    return os.path.dirname(directory) if os.path.basename(directory) == ".claude" else directory


def _split_by_design(
    candidate_path: str, winner: str | None, document: Callable[[str], Document | None], is_link: Callable[[str], bool]
) -> bool:
    """A CLAUDE.md of its own beside an AGENTS.md that it neither imports, links nor names, or
    that names it in section after section (ROUTER_SECTIONS or more: "→ AGENTS.md § Testing" under
    Testing, again under Release…), sending the model there as to a reference it reads when a topic
    comes up: one file per harness, kept apart on purpose. Not so a nested AGENTS.md that a
    CLAUDE.md above turns off, a CLAUDE.md that is a symlink to another document (CONTRIBUTING.md),
    nor one that names AGENTS.md in one or two places ("this file extends AGENTS.md"): that one
    expects it read and gets only the name."""
    if winner is None or is_link(winner) or _level(winner) != _level(candidate_path):
        return False
    doc = document(winner)
    return not _refers_to(doc, candidate_path) or (
        doc is not None and _sections_naming(doc, os.path.basename(candidate_path)) >= ROUTER_SECTIONS
    )


def _sections_naming(doc: Document, name: str) -> int:
    """How many sections of `doc` (the text before the first heading counts as one) name `name`."""
    starts = sorted(section.line for section in doc.sections)
    return len({bisect.bisect_right(starts, line) for line in range(doc.line_count) if name in doc.line(line)})


def shadow_facts(
    unit: Unit, cascade: Cascade, root: str, document: Callable[[str], Document | None], fs: FileSystem
) -> list[Fact]:
    """Files a harness passes over for another, when something of theirs is lost: an empty file has
    nothing to lose, and a skipped file whose content still arrives (a symlink to a loaded file, a
    pointer to one, an import awaiting the user's approval, a copy) loses nothing, and a symlink to
    a document that a loaded file of substance refers the model to (CLAUDE.md -> CONTRIBUTING.md,
    which AGENTS.md links as the canonical guide) is skipped by design. A file written for another
    harness (CLAUDE.md, which opencode reads only where no AGENTS.md is found) is not lost to this
    one, and neither is an AGENTS.md beside a CLAUDE.md kept apart on purpose (`_split_by_design`),
    nor one its package publishes for the agents of its consumers (`published_with_its_package`).
    A loaded index linking nested AGENTS.md files does not load them: those are still lost."""
    harness = HARNESSES[unit.harness]
    if harness.spec.closest_wins:
        return []
    realpath = fs.realpath
    skipped = [
        c for c in cascade.not_loaded if c.reason in SHADOW_REASONS and is_within(c.path, root) and harness.spec.owns(c.path)
    ]
    if not skipped:
        return []
    loaded = [c.path for c in cascade.loaded]
    arrives = {c.path for c in cascade.files if c.loaded or c.reason == Reason.IMPORT_NOT_APPROVED}
    arrives |= {realpath(p) for p in arrives}
    referred = _referred(cascade, root, document, realpath) if any(realpath(c.path) != c.path for c in skipped) else set()
    facts = []
    for candidate in skipped:
        real = realpath(candidate.path)
        if candidate.path in arrives or real in arrives or (real != candidate.path and real in referred):
            continue
        doc = document(candidate.path)
        if (doc is not None and not doc.raw.strip()) or _points_to_loaded(doc, arrives, realpath):
            continue  # an empty file holds nothing to lose; a pointer to a loaded file loses nothing
        winner = candidate.related or (
            _claude_winner(cascade, candidate.path) if candidate.reason == Reason.CLAUDE_MD_PRESENT else None
        )
        if candidate.reason == Reason.CLAUDE_MD_PRESENT and _split_by_design(candidate.path, winner, document, fs.is_link):
            continue
        if _covered(doc, loaded, document) or published_with_its_package(fs, candidate.path):
            continue  # its instructions arrive anyway; or it is written for the package's consumers
        fix = linked = None
        if candidate.reason == Reason.CLAUDE_MD_PRESENT and winner:
            fix = import_fix(candidate.path, winner, document, fs.is_link)
            winner_doc = document(winner)
            linked = winner_doc is not None and any(candidate.path in targets for targets in winner_doc.pointers.values())
        assert candidate.reason is not None  # skipped for one of SHADOW_REASONS
        shadowing = Shadowing(candidate.reason, winner, fix, linked)
        facts.append(Fact("shadowed-file", candidate.path, unit.harness, unit.cwd, unit.harness, shadowing))
    return facts


def aggregate_shadowed(env: Env, path: str, facts: list[Fact]) -> list[Finding]:
    parts, related, from_root, fix = [], {}, False, None
    doc = env.document(path)
    size = f"its {len(doc.raw):,} bytes" if doc is not None else "its content"
    for harness, items in group(facts).items():
        cwds = sorted({f.cwd for f in items}, key=lambda d: (d != env.root, d))
        shadowing = items[0].payload(Shadowing)
        reason, winner, import_fix_, linked = shadowing.reason, shadowing.winner, shadowing.fix, shadowing.linked
        # A CLAUDE.md at or above the root turns AGENTS.md off when reads from the root reach it too.
        on_read = (
            reason == Reason.CLAUDE_MD_PRESENT
            and winner is not None
            and cwds[0] != env.root
            and is_within(env.root, os.path.dirname(winner))
        )
        from_root = from_root or cwds[0] == env.root or on_read
        where = directory_label(cwds[0], env.root) + (
            f" and {plural(len(cwds) - 1, 'other launch directory')}" if len(cwds) > 1 else ""
        )
        if on_read:
            where += ", and from the workspace root when the agent reads files here"
        instead = f"it loads {shown(winner, env.root)} instead" if winner else "it loads another file instead"
        part = f"{size} never reach {harness}: {instead}, since {SHADOW_REASONS[reason]}"
        if linked and winner:
            part += f"; {shown(winner, env.root)} only links to it, and a link is not loaded"
        if import_fix_ is not None and winner:
            fix = fix or import_fix_
            part += f"; import it from {shown(winner, env.root)} with @{os.path.basename(path)}"
        part += f"; {harness} launched from {where}"
        parts.append(part)
        if winner:
            related[winner] = Related(winner, FILE_START, f"loaded instead by {harness}")
    severity = "warning" if from_root else "information"
    return [
        finding(
            "shadowed-file",
            path,
            FILE_START,
            "; ".join(parts),
            harnesses=[f.harness for f in facts],
            related=related.values(),
            severity=severity,
            fix=fix,
        )
    ]


def import_fix(
    path: str, importer: str, document: Callable[[str], Document | None], is_link: Callable[[str], bool]
) -> Fix | None:
    """A fix importing `path` at the top of `importer`'s body (Claude's import of a file it
    would skip; Claude sends the imported text where the import stands)."""
    doc = document(importer)
    if doc is None or os.path.dirname(importer) != os.path.dirname(path) or is_link(importer):
        return None  # a symlinked CLAUDE.md: the edit would land in its target (CONTRIBUTING.md…)
    name = os.path.basename(path)
    line = doc.frontmatter[3]
    edit = TextEdit(importer, Span(line, 0, line, 0), f"@{name}\n\n")
    return Fix(f"Import {name} at the top of {os.path.basename(importer)} (@{name})", edits=(edit,))


def unreachable_finding(
    path: str, harnesses: tuple[str, ...], shadowed: Sequence[Finding] = (), invalid_header: Collection[str] = ()
) -> Finding:
    """`shadowed`: the file's shadowed-file findings, whose explanation (who wins) and fix this
    one takes over; `invalid_header`: the harnesses that look for the file where it is but skip it
    because its header is not YAML (the fix is the header, not the file's place)."""
    enabled = names(harnesses) or "none"
    if invalid_header:
        message = (
            f"this file reaches no model: {names(invalid_header)} would load it but skip it, because its header is "
            "not valid YAML; quote the values YAML cannot read (a value starting with `*`, `@` or `&`). "
            f"Enabled: {enabled}"
        )
    else:
        message = (
            "this file reaches no model: no enabled harness loads it from any launch directory, at start or on read; "
            f"move it where a harness looks, or delete it. Enabled: {enabled}"
        )
    message += "".join(f"; {f.message}" for f in shadowed)
    related = [r for f in shadowed for r in f.related]
    fix = next((f.fix for f in shadowed if f.fix is not None), None)
    return finding("unreachable-file", path, FILE_START, message, harnesses=harnesses, related=related, fix=fix)


# -- sections ---------------------------------------------------------------------------------
def section_pairs(loaded: list[str], root: str) -> Iterator[tuple[str, str]]:
    """The sources of a chain's redefined sections: pairs (ancestor file, nearer file) loaded
    together (lazily, as `duplicates.prefixes`)."""
    files = [(p, os.path.dirname(p) + os.sep) for p in loaded if is_within(p, root)]
    return (
        (outer, inner)
        for outer, outer_dir in files
        for inner, inner_dir in files
        if inner_dir != outer_dir and inner_dir.startswith(outer_dir)
    )


def section_facts(pair: tuple[str, str], document: DocumentOf, cache: PathCache[tuple[str, str], list[Fact]]) -> list[Fact]:
    """The sections the nearer file of `pair` redefines. Facts of a source: `harness` and `cwd`
    are left empty (each unit that loads the pair supplies its own)."""

    def compute() -> list[Fact]:
        outer, inner = document(pair[0]), document(pair[1])
        return redefined(outer, inner) if outer is not None and inner is not None else []

    return cache.get(pair, compute)


def redefined(outer: Document, inner: Document) -> list[Fact]:
    """The sections of `outer` (an ancestor's file) that `inner` redefines, as facts on both."""
    headings = {s.heading: s for s in outer.sections if s.level > 1 and s.heading}
    facts = []
    for section in inner.sections:
        match = headings.get(section.heading)
        if section.level > 1 and match is not None:
            facts.append(_section_fact("outer", outer.path, match.line, inner.path, section.line))
            facts.append(_section_fact("inner", inner.path, section.line, outer.path, match.line))
    return facts


def _section_fact(role: Literal["outer", "inner"], path: str, line: int, other: str, other_line: int) -> Fact:
    """One side of a redefined section: merged with the other units' facts on the same section and file."""
    return Fact("shadowed-section", path, "", "", (line, other), Redefinition(role, line, other, other_line))


def aggregate_sections(env: Env, path: str, facts: list[Fact]) -> list[Finding]:
    found = []
    doc = env.document(path)
    if doc is None:
        return []
    for items in group(f for f in facts if closest_wins(f.harness)).values():
        redefinition = items[0].payload(Redefinition)
        role, line, other, other_line = redefinition.role, redefinition.line, redefinition.other, redefinition.other_line
        heading = doc.line(line).strip()
        harnesses = [f.harness for f in items]
        subtree = directory_label(os.path.dirname(other if role == "outer" else path), env.root)
        if role == "outer":
            message = (
                f"section {heading!r} is redefined by {shown(other, env.root)}: for files under {subtree}, "
                f"{names(harnesses)} (the closest AGENTS.md wins) follow the nearer section where the two conflict"
            )
            related = Related(other, Span(other_line, 0, other_line, 0), "the overriding section")
            severity = None
        else:
            message = (
                f"overrides section {heading!r} of {shown(other, env.root)} for files under {subtree} where the two "
                f"conflict ({names(harnesses)}: the closest AGENTS.md wins)"
            )
            related = Related(other, Span(other_line, 0, other_line, 0), "the overridden section")
            severity = "hint"
        found.append(
            finding(
                "shadowed-section", path, doc.line_span(line), message, harnesses=harnesses, related=[related], severity=severity
            )
        )
    return found
