"""Claude Code's memory-file loading: one file, its `@` imports, its rules, deduplicated.

A file is loaded at most once per session, by path and by real path (so a CLAUDE.md symlinked to
AGENTS.md loads once). Imports start from the importing file's real folder, up to four hops; an import that leaves
the launch directory needs the user's approval; files over 4 MiB are skipped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from lsp_agents.core.comment_blocks import strip_comment_blocks
from lsp_agents.core.frontmatter import (
    MAX_FRONTMATTER_CHARS,
    Fields,
    pattern_list,
    split_frontmatter,
)
from lsp_agents.core.fs import FileData, FileSystem
from lsp_agents.core.globs import GlobError, compile_patterns
from lsp_agents.core.harnesses.base import LaunchContext, read_candidate, skipped
from lsp_agents.core.harnesses.claude_imports import ClaudeImports, memory_imports
from lsp_agents.core.model import Candidate, Cascade, Reason, Role
from lsp_agents.core.text import js_trim, memoized_by_text
from lsp_agents.core.walk import MAX_WALK_ENTRIES, is_within
from lsp_agents.core.yaml_text import InvalidYaml, parse_yaml

MAX_FILE_BYTES = 4 * 1024 * 1024
LABELS = {
    "user": "user's private global instructions for all projects",
    "project": "project instructions, checked into the codebase",
    "local": "user's private project instructions, not checked in",
}


@dataclass(frozen=True, slots=True)
class MemoryEntry:
    """A loaded file. Eagerly Claude sends `text` trimmed; a read reminder sends it as is."""

    path: str
    label: str
    text: str

    @property
    def trimmed(self) -> str:
        return js_trim(self.text)


def rule_files(fs: FileSystem, rules_dir: str, budget: list[int] | None = None, visited: set[str] | None = None) -> list[str]:
    """Every .md file under a rules directory, depth first, in directory order (as Claude lists
    them), by real path: Claude follows symlinked rules and rule directories and names a rule by
    where it really is. Visits at most MAX_WALK_ENTRIES entries; a directory met again (a
    symlink loop) is not entered twice."""
    budget = [MAX_WALK_ENTRIES] if budget is None else budget
    visited = set() if visited is None else visited
    real_dir = fs.realpath(rules_dir)
    if real_dir in visited:
        return []
    visited.add(real_dir)
    found: list[str] = []
    for name in fs.list_dir(rules_dir):
        budget[0] -= 1
        if budget[0] < 0:
            break
        path = os.path.join(rules_dir, name)
        if fs.is_dir(path):
            found += rule_files(fs, path, budget, visited)
        elif name.endswith(".md") and fs.exists(path):
            found.append(fs.realpath(path))
    return found


def project_texts(entries: Iterable[MemoryEntry]) -> dict[str, str]:
    """The trimmed text of each project or local entry (not the user's), and the first file sending it."""
    texts: dict[str, str] = {}
    for entry in entries:
        if entry.label != LABELS["user"]:
            texts.setdefault(entry.trimmed, entry.path)
    return texts


@dataclass(frozen=True, slots=True)
class DirectoryFiles:
    """The memory files one directory offers Claude, each group in Claude's order; only the
    paths that exist. Derived once per directory (every launch directory below shares it)."""

    claude_md: tuple[str, ...]  # CLAUDE.md, .claude/CLAUDE.md
    rules: tuple[str, ...]  # .claude/rules/**/*.md
    local_md: tuple[str, ...]  # CLAUDE.local.md
    agents_md: tuple[str, ...]  # AGENTS.md, .claude/AGENTS.md
    counts: bool  # a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md that loads text: AGENTS.md is off

    @classmethod
    def of(cls, fs: FileSystem, directory: str) -> DirectoryFiles:
        dot_claude = os.path.join(directory, ".claude")

        def present(*paths: str) -> tuple[str, ...]:
            return tuple(p for p in paths if fs.exists(p))

        claude_md = present(os.path.join(directory, "CLAUDE.md"), os.path.join(dot_claude, "CLAUDE.md"))
        local_md = present(os.path.join(directory, "CLAUDE.local.md"))
        rules = tuple(rule_files(fs, os.path.join(dot_claude, "rules"))) if fs.is_dir(dot_claude) else ()
        agents_md = present(os.path.join(directory, "AGENTS.md"), os.path.join(dot_claude, "AGENTS.md"))
        return cls(claude_md, rules, local_md, agents_md, any(_loads_text(fs, p) for p in claude_md + local_md))


def _loads_text(fs: FileSystem, path: str) -> bool:
    """Whether Claude loads a memory file: a file it can read whose text is not blank. An empty
    CLAUDE.md does not turn AGENTS.md off (Claude Code 2.1.332: the agents-md hook looks for CLAUDE.md
    with the memory loader, which returns nothing for a file whose `content.trim()` is empty)."""
    if not fs.is_file(path):
        return False
    shape = memory_shape(fs.read(path))
    return shape is not None and not shape[0]


@memoized_by_text
def rule_patterns(text: str) -> tuple[str, ...] | None:
    """The `paths:` globs of a rule; None when it is unconditional."""
    patterns = [p.removesuffix("/**") for p in pattern_list((header_fields(text) or {}).get("paths"))]
    patterns = [p for p in patterns if p]
    if not patterns or all(p == "**" for p in patterns):
        return None
    return tuple(patterns)


def header_fields(text: str) -> Fields | None:
    """A header's fields as Claude Code reads them: YAML, else YAML with its special values quoted
    (`_quote_special_values`); None when both fail (or there is no header): the file has no fields."""
    fields, _body, error = split_frontmatter(text)
    if error is not None:
        fields, _body, error = split_frontmatter(_quote_special_values(text))
    return None if error is not None else fields


# Claude Code 2.1.329's second try at a header YAML rejects (the bundled `fhr` and `Bd` functions):
# a `key: value` line whose unquoted value holds one of these is quoted, leading tabs become spaces.
_SPECIAL_VALUE = re.compile(r"[{}\[\]*&#!|>%@`]|: ")
MAX_FLOW_NESTING = 32
# JavaScript's `.` stops at a line terminator and its `$` only at the end: a `key: value\r` line (a
# file with CRLF endings) does not match, is not quoted, and the header stays an error.
_KEY_VALUE = re.compile(r"^([a-zA-Z_-]+):\s+(\S[^\n\r\u2028\u2029]*)\Z")


def _quote_special_values(text: str) -> str:
    """`paths: *.md` (a YAML alias, an error) reads as `paths: "*.md"`, as Claude reads it."""
    lines = text.split("\n")
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), 0)  # the header only
    if sum(map(len, lines[:end])) > MAX_FRONTMATTER_CHARS:  # not read at all (split_frontmatter)
        return text
    return "\n".join([*map(_quote_line, lines[:end]), *lines[end:]])


def _quote_line(line: str) -> str:
    match = _KEY_VALUE.match(line)
    value = match.group(2) if match else ""
    quoted = any(value.startswith(q) and value.endswith(q) for q in "\"'")
    if match and not quoted and not _is_flow_list(value) and _SPECIAL_VALUE.search(value):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        line = f'{match.group(1)}: "{escaped}"'
    return re.sub(r"^\t+", lambda tabs: "  " * len(tabs.group()), line)


def _is_flow_list(value: str) -> bool:
    """Whether a value reads as a YAML list (`[a, b]`); a deeply nested one (hostile) does not count."""
    if not (value.startswith("[") and value.endswith("]")) or value.count("[") > MAX_FLOW_NESTING:
        return False
    try:
        return isinstance(parse_yaml(value), list)
    except InvalidYaml:
        return False


@memoized_by_text
def memory_text(text: str) -> str:
    """What Claude keeps of a memory file: no frontmatter, no comment blocks (`comment_blocks`)."""
    _fields, body, _error = split_frontmatter(text)
    return strip_comment_blocks(body)


def memory_shape(data: FileData) -> tuple[bool, tuple[str, ...], tuple[str, ...] | None] | None:
    """What a load takes from a memory file's content: whether it is blank, its `@` imports and,
    for a rule, its `paths:`. None when unreadable or over the size cap (anything may change)."""
    if data.problem or data.size > MAX_FILE_BYTES:
        return None
    text = data.text()
    return not js_trim(memory_text(text)), memory_imports(text), rule_patterns(text)


class MemoryLoader:
    """Collects memory entries in load order for one eager load or one read."""

    def __init__(self, ctx: LaunchContext, cascade: Cascade, *, cwd: str, approved: bool, already: Sequence[str] = ()) -> None:
        self.ctx = ctx
        self.cascade = cascade
        self.cwd = cwd
        self.approved = approved
        self.entries: list[MemoryEntry] = []
        # Files of earlier loads count by the path they were sent under: a read sends a file again
        # through another path (a symlink), while one load sends a file once by real path.
        self._earlier = frozenset(already)
        self._processed: set[str] = set()

    def skip(self, path: str, role: Role, reason: Reason, related: str | None = None) -> None:
        self.cascade.files.append(skipped(self.ctx, path, role, reason, related))

    def _seen(self, path: str) -> bool:
        return path in self._earlier or path in self._processed or self.ctx.fs.realpath(path) in self._processed

    def add(self, path: str, role: Role, scope: str, *, hops: int = 0, importer: str | None = None) -> None:
        fs = self.ctx.fs
        if not fs.exists(path):
            if importer:
                self.skip(path, Role.IMPORT, Reason.IMPORT_NOT_FOUND, importer)
            return
        if self._seen(path):
            self.skip(path, role, Reason.IMPORT_CYCLE if importer else Reason.ALREADY_LOADED, importer)
            return
        if fs.size(path) > MAX_FILE_BYTES:
            self.skip(path, role, Reason.TOO_LARGE, importer)
            return
        data = read_candidate(fs, self.cascade, path, role, importer)
        if data is None:
            return
        self._processed |= {path, fs.realpath(path)}
        text = data.text()
        entry = MemoryEntry(path, LABELS[scope], memory_text(text))
        if not entry.trimmed:
            self.cascade.files.append(Candidate(path, role, False, data.size, Reason.EMPTY, related=importer))
            return
        self.cascade.files.append(Candidate(path, role, True, data.size, related=importer))
        self.entries.append(entry)
        ClaudeImports(self, scope).expand(text, path, level=hops)

    def withdraw_repeats(self, entries: Sequence[MemoryEntry], texts: Mapping[str, str]) -> None:
        """Takes back each of `entries` whose text is already in context (`texts`: text -> the file
        that sends it): Claude's AGENTS.md hook drops an AGENTS.md (or a file it imports) whose
        trimmed text is that of a project or local file in context (2.1.332's `Dcr`)."""
        for entry in entries:
            other = texts.get(entry.trimmed)
            if other is None or other == entry.path:
                continue
            self.entries = [e for e in self.entries if e is not entry]
            files = self.cascade.files
            index = next(i for i, c in enumerate(files) if c.path == entry.path and c.loaded)
            files[index] = Candidate(entry.path, files[index].role, False, files[index].bytes, Reason.SAME_TEXT, related=other)

    def add_rule(
        self,
        path: str,
        scope: str,
        *,
        base: str,
        target: str | None,
        conditional_only: bool = False,
        unconditional_only: bool = False,
    ) -> None:
        """A rules file: unconditional ones load eagerly; ones with `paths:` when a read matches."""
        data = self.ctx.fs.read(path)
        patterns = rule_patterns(data.text())
        if patterns is None:
            if not conditional_only:
                self._add_rule(path, scope, base)
            return
        if unconditional_only:
            return
        if target is None:
            self.skip(path, Role.RULE, Reason.CONDITIONAL)
            return
        relative = os.path.relpath(target, base)
        if relative.startswith(".."):
            return
        try:
            # Claude Code matches with the `ignore` package, whose `ignorecase` is on (FINDINGS.md GD-71).
            matcher = compile_patterns(patterns, anchored=False, ignore_case=True)
        except GlobError:
            self.skip(path, Role.RULE, Reason.GLOB_NOT_EVALUABLE)
            return
        warning = matcher.warning(path)
        if warning:
            self.cascade.warnings.append(warning)
        if matcher(relative.replace(os.sep, "/")):
            self._add_rule(path, scope, base)
        else:
            self.skip(path, Role.RULE, Reason.GLOB_NO_MATCH)

    def _add_rule(self, path: str, scope: str, base: str) -> None:
        """A project rule that a symlink leads out of its rules folder and out of the launch
        directory is external, like an import: it loads only once approved."""
        rules_dir = os.path.join(base, ".claude", "rules")
        if scope != "user" and not self.approved and not is_within(path, rules_dir) and not is_within(path, self.cwd):
            self.skip(path, Role.RULE, Reason.IMPORT_NOT_APPROVED)
            return
        self.add(path, Role.RULE, scope)
