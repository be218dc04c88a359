"""Rule files whose header names one of four activation modes, as Windsurf (`trigger`), Kiro
(`inclusion`) and Augment (`type`) spell them: always sent, sent with a matching file, pulled in
when the agent judges the description relevant, or sent when the user names the rule.

Shared by the documented models of those harnesses: which header value means which mode, and
what a glob rule does, are data here (`Dialect`); where the rule folders are, the order, the
wrapper and the limits stay in each model. Globs come from untrusted files: they go through the
bounded matcher (`compile_rule_globs`), never `re`.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

from lsp_agents.core.frontmatter import ParsedFile, admit, compile_rule_globs, find_rule_files, pattern_list
from lsp_agents.core.globs import GlobError
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.model import Candidate, Cascade, Reason, Role
from lsp_agents.core.walk import is_within, workspace_files


class Activation(enum.Enum):
    ALWAYS = "always"
    GLOB = "glob"  # with a file its patterns match
    AGENT = "agent"  # the agent decides from the description
    MANUAL = "manual"  # the user names the rule


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one harness spells the modes in a rule's header."""

    key: str  # the header field naming the mode
    modes: Mapping[str, Activation]  # its values (compared in lower case)
    missing: Activation  # no header, or no `key` in it
    unknown: Activation  # a value that is none of `modes`
    globs_key: str  # the header field holding a glob rule's patterns


@dataclass(frozen=True, slots=True)
class ModeRule:
    file: ParsedFile
    role: Role
    activation: Activation
    globs: tuple[str, ...]
    base: str  # the directory the globs are relative to


def read_rules(
    ctx: LaunchContext, folder: str, base: str, dialect: Dialect, role: Role, cascade: Cascade, *, loose: bool = False
) -> list[ModeRule]:
    """The `.md` rules below `folder`, in path order, each with its mode read by `dialect`."""
    rules = []
    for file in find_rule_files(ctx.fs, folder, ".md", role, cascade, loose=loose):
        value = file.fields.get(dialect.key)
        activation = dialect.missing if value is None else dialect.modes.get(str(value).strip().lower(), dialect.unknown)
        globs = tuple(pattern_list(file.fields.get(dialect.globs_key)))
        rules.append(ModeRule(file, role, activation, globs, base))
    return rules


def held_back(rule: ModeRule, cascade: Cascade) -> Reason | None:
    """Why a rule is not in every request: None for one that always applies."""
    if rule.activation is Activation.ALWAYS:
        return None
    if rule.activation is Activation.GLOB:
        if not rule.globs:
            return Reason.GLOB_NO_MATCH  # a glob rule without patterns attaches to nothing
        return Reason.CONDITIONAL if _matcher(rule, cascade) is not None else Reason.GLOB_NOT_EVALUABLE
    return Reason.AGENT_REQUESTED if rule.activation is Activation.AGENT else Reason.MANUAL


def _matcher(rule: ModeRule, cascade: Cascade) -> Callable[[str], bool] | None:
    return compile_rule_globs(rule.file, rule.globs, cascade, anchored=False)


def attach_reason(rule: ModeRule, target: str, cascade: Cascade) -> Reason | None:
    """For a glob rule and a read file: None when its patterns (relative to `rule.base`,
    gitignore-style) match the file, else why it stays out."""
    matches = _matcher(rule, cascade) if rule.globs else None
    if matches is None:
        return Reason.GLOB_NOT_EVALUABLE if rule.globs else Reason.GLOB_NO_MATCH
    if not is_within(target, rule.base):
        return Reason.GLOB_NO_MATCH
    try:
        return None if matches(os.path.relpath(target, rule.base).replace(os.sep, "/")) else Reason.GLOB_NO_MATCH
    except GlobError:
        return Reason.GLOB_NOT_EVALUABLE


def admit_once(
    ctx: LaunchContext,
    cascade: Cascade,
    file: ParsedFile,
    role: Role,
    sent: set[str],
    already: Collection[str] = (),
    *,
    held: Reason | None = None,
) -> bool:
    """`admit`, but a file met again under another path (a symlink) is that file, read once
    (assumed, as every captured harness does). `sent`: the real paths taken so far."""
    real = ctx.fs.realpath(file.path)
    if real in sent:
        cascade.files.append(Candidate(file.path, role, False, file.size, Reason.DUPLICATE_PATH))
        return False
    if not admit(cascade, file, role, already, held_back=held):
        return False
    sent.add(real)
    return True


def tagged(tag: str, files: Iterable[tuple[str, str]]) -> str:
    """(path, text) pairs as `<tag path="…">` elements: the neutral wrapper of a harness whose
    own is undocumented."""
    return "\n\n".join(f'<{tag} path="{path}">\n{text}\n</{tag}>' for path, text in files)


def nested_files(ctx: LaunchContext, cascade: Cascade, wanted: Callable[[str], bool]) -> list[str]:
    """The files below the launch directory that `wanted` keeps, in path order: the workspace
    index answers when it covers the launch directory (it holds every instruction file), else a
    bounded walk that leaves out `.git` and `node_modules`."""
    if ctx.index is not None and ctx.index.contains(ctx.cwd):
        return sorted(p for p in ctx.index.instruction_files if is_within(p, ctx.cwd) and wanted(p))
    paths, complete = workspace_files(ctx.fs, ctx.cwd)
    if not complete:
        cascade.warnings.append(f"warning: {ctx.cwd}: workspace too large, the search for nested rule folders cut short")
    return [p for p in paths if wanted(p)]


def cut_at(text: str, characters: int) -> tuple[str, int | None]:
    """`text` cut to its first `characters` characters, and the byte the cut falls at (None
    when nothing is cut)."""
    if len(text) <= characters:
        return text, None
    kept = text[:characters]
    return kept, len(kept.encode())
