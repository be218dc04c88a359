"""`@path` imports: not found, cycles, too deep, outside the workspace, and not expanded at all.

What a harness did with an import comes from its cascade (the candidate names the target and, in
`related`, the importing file); this module only places the finding on the `@path` as written
in the importer. opencode, Codex, Copilot, pi, Kilo, droid, Continue and Cline send `@path` lines
literally (`import-not-expanded`);
an import of a file the harness already loads (Gemini CLI inlines it again) is a `duplicate-instruction`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from lsp_agents.core.analysis.base import FILE_START, finding, names, shown, verb
from lsp_agents.core.analysis.cascades import Unit
from lsp_agents.core.analysis.document import Document, DocumentOf
from lsp_agents.core.analysis.facts import Env, Fact, ImportIssue, group
from lsp_agents.core.analysis.hygiene import UNREADABLE_REASONS
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.harnesses.spec import ImportDialect
from lsp_agents.core.imports import ImportRef, claude_import_refs, copilot_import_refs, gemini_import_refs, qwen_import_refs
from lsp_agents.core.model import Cascade, Finding, Reason, Role, Span
from lsp_agents.core.text import approx_tokens
from lsp_agents.core.walk import is_within

_TRAILING = ".,;:!?)]}'\"`"
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,9}[.,;:!?)\]}'\"`]*$")
_CODES: dict[Reason, str] = {
    Reason.IMPORT_NOT_FOUND: "import-not-found",
    Reason.IMPORT_CYCLE: "import-cycle",
    Reason.IMPORT_TOO_DEEP: "import-too-deep",
    Reason.IMPORT_OUTSIDE_ROOT: "import-outside-workspace",
    Reason.IMPORT_NOT_APPROVED: "import-outside-workspace",
    # There, but the harness cannot read it either; not a directory: `@src` names a folder in
    # prose as often as it imports one.
    **{reason: "import-not-found" for reason in UNREADABLE_REASONS if reason != Reason.NOT_REGULAR_FILE},
}


# Findings not made on the text of a Markdown link (`[@docs/a.md](docs/a.md)`): Claude Code imports
# what such text names when it is a file (captured), and a file it does not find or has already
# loaded is skipped silently; the author wrote a link, which works whatever the text says.
LINK_TEXT_SILENT = frozenset({"import-not-found", "import-cycle"})


_REFS: dict[ImportDialect, Callable[[str], tuple[ImportRef, ...]]] = {
    ImportDialect.CLAUDE: claude_import_refs,
    ImportDialect.GEMINI: gemini_import_refs,
    ImportDialect.QWEN: qwen_import_refs,
    ImportDialect.COPILOT: copilot_import_refs,
}


def refs(doc: Document, dialect: ImportDialect) -> tuple[ImportRef, ...]:
    return _REFS[dialect](doc.text) if "@" in doc.text else ()


def _dialect(harness: str) -> ImportDialect:
    return HARNESSES[harness].spec.import_dialect


def _in_chain(cascade: Cascade, importer: str, target: str) -> bool:
    """Whether `target` is `importer` or one of the files that (transitively) imported it."""
    parents = {c.path: c.related for c in cascade.files if c.loaded and c.role == Role.IMPORT and c.related}
    current: str | None = importer
    seen: set[str] = set()
    while current is not None and current not in seen:
        if current == target:
            return True
        seen.add(current)
        current = parents.get(current)
    return False


def import_facts(unit: Unit, cascade: Cascade, root: str, document: DocumentOf, fs: FileSystem) -> list[Fact]:
    """What the cascade did with each import. An import of a file loaded before, under its own
    name or another (a symlink to it), sends its text twice: the repeat is the import's."""
    facts = []
    loaded_before: set[str] = set()  # real paths
    for candidate in cascade.files:
        importer = candidate.related
        if candidate.loaded:
            real = fs.realpath(candidate.path)
            if real in loaded_before and candidate.role == Role.IMPORT and importer and is_within(importer, root):
                facts.append(
                    Fact(
                        "import-duplicate",
                        importer,
                        unit.harness,
                        unit.cwd,
                        ("import-duplicate", candidate.path),
                        ImportIssue(candidate.path),
                    )
                )
            loaded_before.add(real)
        if candidate.role != Role.IMPORT or importer is None or not is_within(importer, root):
            continue
        code = _CODES.get(candidate.reason) if candidate.reason else None
        if candidate.loaded and not is_within(candidate.path, root):
            code = "import-outside-workspace"
        if code == "import-outside-workspace" and (is_within(candidate.path, root) or not fs.exists(candidate.path)):
            # outside the launch directory only, or nothing there (`@/mocks` is a path alias in
            # prose); a path that cannot be looked at (/proc/1/root) may well be a file
            continue
        if code == "import-cycle" and not _in_chain(cascade, importer, candidate.path):
            continue  # Claude also reports a file loaded earlier as processed: no cycle
        if code:
            facts.append(
                Fact(
                    code, importer, unit.harness, unit.cwd, (code, candidate.path), ImportIssue(candidate.path, candidate.reason)
                )
            )
    if HARNESSES[unit.harness].spec.literal_imports:
        facts += _not_expanded(unit, cascade, root, document, fs.is_file)
    return facts


def _not_expanded(unit: Unit, cascade: Cascade, root: str, document: DocumentOf, exists: Callable[[str], bool]) -> list[Fact]:
    """`@path` lines a harness sends literally that name a file it does not load otherwise: a
    package name (`@vscode/prompt-tsx`) names no file, and `@AGENTS.md` in a CLAUDE.md costs
    nothing where AGENTS.md loads anyway."""
    loaded = {c.path for c in cascade.loaded}
    facts = []
    for path in loaded:
        doc = document(path) if is_within(path, root) else None
        for target in {_resolve(ref, path, None) for ref in (refs(doc, ImportDialect.CLAUDE) if doc is not None else ())}:
            if target not in loaded and exists(target):
                facts.append(
                    Fact(
                        "import-not-expanded", path, unit.harness, unit.cwd, ("import-not-expanded", target), ImportIssue(target)
                    )
                )
    return facts


def _resolve(ref: ImportRef, importer: str, home: str | None) -> str:
    if ref.path.startswith("~/") and home:
        return os.path.join(home, ref.path[2:])
    return os.path.normpath(os.path.join(os.path.dirname(importer), ref.path))


def _span(ref: ImportRef) -> Span:
    return Span(ref.line, ref.character, ref.line, ref.character + ref.end - ref.start)


def aggregate_imports(env: Env, path: str, facts: list[Fact]) -> list[Finding]:
    home = env.home
    doc = env.document(path)
    if doc is None:
        return []
    found = []
    by_target = _RefsByTarget(doc, path)
    for items in group(facts).values():
        code, target = items[0].code, items[0].payload(ImportIssue).target
        harnesses = sorted({f.harness for f in items})
        if code == "import-not-expanded":
            for ref in by_target.get(ImportDialect.CLAUDE, None, target):
                message = (
                    f"{names(harnesses)} {verb(harnesses, 'sends')} '@{ref.path}' as plain text and never "
                    f"{verb(harnesses, 'loads')} {shown(target, env.root)}: the model sees only its name"
                )
                found.append(finding(code, path, _span(ref), message, harnesses=harnesses))
            continue
        located = [r for h in harnesses for r in by_target.get(_dialect(h), home, target)]
        if code in LINK_TEXT_SILENT and located and all(r.in_link for r in located):
            continue  # a link that works as a link: its text imports only a file that is there
        span = _span(located[0]) if located else FILE_START
        if code == "import-duplicate":
            target_doc = env.document(target)
            size = len(target_doc.raw) if target_doc else 0
            message = (
                f"{size:,} bytes (~{approx_tokens(size):,} tokens) sent twice: this file imports {shown(target, env.root)}, "
                f"which is also loaded on its own by {names(harnesses)}"
            )
            found.append(finding("duplicate-instruction", path, span, message, harnesses=harnesses, unnecessary=True))
            continue
        if code == "import-not-found":
            found += _not_found(env, path, target, located, harnesses, home, items[0].payload(ImportIssue).reason)
            continue
        refusing = sorted({f.harness for f in items if f.payload(ImportIssue).reason == Reason.IMPORT_OUTSIDE_ROOT})
        found.append(finding(code, path, span, _message(code, target, refusing, harnesses, env.root), harnesses=harnesses))
    return found


class _RefsByTarget:
    """The `@` references of one importer by the path each resolves to, per dialect and home:
    a file with thousands of imports has as many groups of facts, each looking up its own."""

    def __init__(self, doc: Document, importer: str) -> None:
        self._doc, self._importer = doc, importer
        self._tables: dict[tuple[ImportDialect, str | None], dict[str, list[ImportRef]]] = {}

    def get(self, dialect: ImportDialect, home: str | None, target: str) -> list[ImportRef]:
        """The references that resolve to `target`, in the order the file has them."""
        table = self._tables.get((dialect, home))
        if table is None:
            table = self._tables[(dialect, home)] = {}
            for ref in refs(self._doc, dialect):
                table.setdefault(_resolve(ref, self._importer, home), []).append(ref)
        return table.get(target, [])


def looks_like_path(written: str) -> bool:
    """Whether an `@` reference was meant as a file: it starts like a path or ends in a file
    extension (trailing punctuation aside). `@vscode/prompt-tsx`, `@types/node` or `@jsxImportSource`
    are names the text mentions, and a harness that looks them up and finds nothing changes nothing."""
    return written.startswith(("./", "../", "~/", "/")) or bool(_EXTENSION.search(written))


def _not_found(
    env: Env, path: str, target: str, located: list[ImportRef], harnesses: list[str], home: str | None, reason: Reason | None
) -> list[Finding]:
    """`import-not-found` on each reference meant as a file (any reference to a file that is there
    but cannot be read), with the file meant when trailing punctuation (`@docs/feature.md,` in a
    list) is what broke the path."""
    found = []
    who = names(harnesses)
    unreadable = reason not in (None, Reason.IMPORT_NOT_FOUND)
    if not unreadable and env.gitignored(target):
        return []  # a personal file the repository keeps out on purpose: absent from every clone, skipped silently
    for ref in dict.fromkeys(r for r in located if not r.in_link and (unreadable or looks_like_path(r.path))):
        problem = f"cannot be read ({UNREADABLE_REASONS[reason]})" if unreadable and reason is not None else "does not exist"
        message = f"{shown(target, env.root)} {problem}: {who} {verb(harnesses, 'loads')} nothing for this import"
        meant = ref.path.rstrip(_TRAILING)
        if meant != ref.path and env.document(_resolve(ImportRef(meant, 0, 0, 0, 0), path, home)) is not None:
            message = (
                f"{who} {verb(harnesses, 'reads')} '@{ref.path}' as the path {ref.path!r}, which does not exist, "
                f"and {verb(harnesses, 'loads')} nothing: did you mean @{meant} (a space or line break before "
                f"{ref.path[len(meant) :]!r})?"
            )
        found.append(finding("import-not-found", path, _span(ref), message, harnesses=harnesses))
    return found


def _message(code: str, target: str, refusing: list[str], harnesses: list[str], root: str) -> str:
    """The message of a code without one of its own; `refusing`: the harnesses that will not load
    a file outside their root at all (the others load it, some once the user approves)."""
    who = names(harnesses)
    if code == "import-cycle":
        return f"importing {shown(target, root)} closes an import cycle: {who} {verb(harnesses, 'stops')} here"
    if code == "import-too-deep":
        return (
            f"{who} {verb(harnesses, 'stops')} following imports before {shown(target, root)} "
            "(too deep: Claude Code follows 4 hops, Gemini CLI 5 levels)"
        )
    asking = next((HARNESSES[h].spec for h in harnesses if HARNESSES[h].spec.asks_before_external_imports), None)
    approval = f" ({asking.title} loads it only once external imports are approved)" if asking else ""
    refused = f" {names(refusing)} {verb(refusing, 'refuses')} it." if refusing else ""
    return f"{target} is outside the workspace{approval}.{refused}"
