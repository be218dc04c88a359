"""Cursor, from its documentation: `.cursor/rules/**/*.mdc` by mode, legacy .cursorrules, AGENTS.md, CLAUDE.md.

A rule's header picks one of four modes. `alwaysApply: true` (the boolean: a quoted "true" does not
count) is always included and its globs are ignored; `globs` attach the rule when a matching file is
in context, which for a read is the read file; a description alone lets the agent pull the rule in
when it judges it relevant, and a rule with neither waits for an @-mention, so neither loads by
itself. A plain `.md` in .cursor/rules is ignored. The root AGENTS.md, the legacy root .cursorrules
and (Cursor CLI) the root CLAUDE.md always apply; a nested AGENTS.md, and the rules of a nested
`.cursor/rules` folder, apply when working on files in its directory or below. The project root is the launch directory; globs are relative to it and,
their matching being undocumented, follow gitignore (a pattern without a slash matches at any depth).
The wrapper is undocumented too, so rules are rendered in a neutral `<rule path="…">` form. A
symlinked rule and its target are one file, read once (assumed, as every captured harness does).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass

from lsp_agents.core.frontmatter import (
    ParsedFile,
    admit,
    admit_files,
    admitted_shape,
    compile_rule_globs,
    find_rule_files,
    pattern_list,
)
from lsp_agents.core.fs import FileData
from lsp_agents.core.globs import GlobError
from lsp_agents.core.harnesses.base import Harness, LaunchContext
from lsp_agents.core.harnesses.spec import Detection, FolderFiles, GlobStyle, HarnessSpec, LegacyName, Misfiling, RuleHeader
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.walk import dirs_below, is_within

RULE_SUFFIX = ".mdc"
ROOT_FILES = (".cursorrules", "AGENTS.md", "CLAUDE.md")  # in this order after the rules
NESTED_NAME = "AGENTS.md"

SPEC = HarnessSpec(
    "cursor",
    "Cursor",
    verified=False,
    version="cursor.com/docs 2026",
    instruction_names=ROOT_FILES,
    looks_for=(".cursor/rules", ".cursorrules", "AGENTS.md", "CLAUDE.md"),
    rule_files=(FolderFiles(".cursor/rules", f"**/*{RULE_SUFFIX}"),),
    misplaced=(f"**/.cursor/**/*{RULE_SUFFIX}",),  # see analysis.placement
    detection=Detection(names=(".cursorrules",), folders=(".cursor",), root_folders=(".cursor",)),
    root_only=True,
    rule_header=RuleHeader(
        ".cursor/rules",
        RULE_SUFFIX,
        "globs",
        GlobStyle.GITIGNORE,
        never="Cursor attaches this rule only to matching files, so it never attaches it",
        misfiling=Misfiling.OUTSIDE_RULE_FOLDER,
        misfiled="Cursor only reads .mdc rules inside .cursor/rules/",
        loose=True,
        boolean_keys=("alwaysApply",),
        always_key="alwaysApply",
    ),
    legacy_names=(LegacyName(".cursorrules", "Cursor's legacy rules file; Cursor now reads .cursor/rules/*.mdc", None),),
)


@dataclass(frozen=True, slots=True)
class _Rule:
    file: ParsedFile
    always: bool
    globs: tuple[str, ...]
    described: bool  # a description the agent judges the rule by


def _element(file: ParsedFile) -> str:
    body = file.body.strip("\r\n")
    return f'<rule path="{file.path}">\n{body}\n</rule>'


def _render(files: Iterable[ParsedFile]) -> str:
    return "\n\n".join(_element(f) for f in files)


def _admit_rule(
    ctx: LaunchContext,
    cascade: Cascade,
    file: ParsedFile,
    sent: set[str],
    already: Collection[str] = (),
    *,
    held_back: Reason | None = None,
) -> bool:
    """`admit` a rule unless its file is one taken already under another name: a symlinked rule and
    its target are one file (assumed, as every captured harness reads a file once). `sent`: the
    real paths of the rules taken so far."""
    real = ctx.fs.realpath(file.path)
    if real in sent:
        cascade.files.append(Candidate(file.path, Role.RULE, False, file.size, Reason.DUPLICATE_PATH))
        return False
    if not admit(cascade, file, Role.RULE, already, held_back=held_back):
        return False
    sent.add(real)
    return True


class Cursor(Harness):
    spec = SPEC

    def _rules(self, ctx: LaunchContext, cascade: Cascade, owner: str | None = None) -> list[_Rule]:
        """The rules of `owner`'s `.cursor/rules/` (the project root's by default)."""
        directory = os.path.join(owner or ctx.cwd, ".cursor", "rules")
        return [
            _Rule(
                file,
                file.fields.get("alwaysApply") is True,
                tuple(pattern_list(file.fields.get("globs"))),
                bool(str(file.fields.get("description") or "").strip()),
            )
            for file in find_rule_files(ctx.fs, directory, RULE_SUFFIX, Role.RULE, cascade, loose=True)
        ]

    def _matcher(self, rule: _Rule, cascade: Cascade) -> Callable[[str], bool] | None:
        return compile_rule_globs(rule.file, rule.globs, cascade, anchored=False)

    def content_shape(self, data: FileData) -> Hashable | None:
        """Blankness for the files taken whole; anything for rules (their frontmatter counts)."""
        return None if data.path.endswith(RULE_SUFFIX) else admitted_shape(data)

    # -- eager ------------------------------------------------------------------------------
    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        included: list[ParsedFile] = []
        sent: set[str] = set()
        for rule in self._rules(ctx, cascade):
            if _admit_rule(ctx, cascade, rule.file, sent, held_back=self._held_back(rule, cascade)):
                included.append(rule.file)
        included += admit_files(ctx.fs, [(os.path.join(ctx.cwd, n), Role.PROJECT) for n in ROOT_FILES], cascade)
        if included:
            cascade.blocks.append(Block(Placement.SYSTEM, _render(included)))
        return cascade

    def _held_back(self, rule: _Rule, cascade: Cascade) -> Reason | None:
        """Why a rule is not in every request: it waits for a matching file, the agent or a mention."""
        if rule.always:
            return None
        if rule.globs:
            return Reason.CONDITIONAL if self._matcher(rule, cascade) is not None else Reason.GLOB_NOT_EVALUABLE
        return Reason.AGENT_REQUESTED if rule.described else Reason.MANUAL

    # -- on read ----------------------------------------------------------------------------
    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        """Glob rules matching the read file; then, for each directory from cwd down to the read
        file's, its nested `.cursor/rules` (always-apply rules, and glob rules matching the file
        relative to that directory) and its AGENTS.md."""
        cascade = Cascade(self.id, ctx.cwd)
        discovery = Cascade(self.id, ctx.cwd)  # eager reports the files discovery skips
        already = {os.path.normpath(p) for p in loaded}
        sent: set[str] = set()
        included = self._matching_rules(ctx, ctx.cwd, target, cascade, discovery, already, sent, nested=False)
        for directory in dirs_below(ctx.cwd, os.path.dirname(target)):
            included += self._matching_rules(ctx, directory, target, cascade, discovery, already, sent, nested=True)
            included += admit_files(ctx.fs, [(os.path.join(directory, NESTED_NAME), Role.PROJECT)], cascade, already)
        cascade.warnings += discovery.warnings
        if included:
            cascade.blocks.append(Block(Placement.SYSTEM, _render(included)))
        return cascade

    def _matching_rules(
        self,
        ctx: LaunchContext,
        owner: str,
        target: str,
        cascade: Cascade,
        discovery: Cascade,
        already: set[str],
        sent: set[str],
        *,
        nested: bool,
    ) -> list[ParsedFile]:
        """The rules of `owner` that attach to `target`: glob rules that match it (relative to
        `owner`) and, in a nested `.cursor/rules`, always-apply rules too (the root's are eager).
        `sent`: the real paths of the rules this read took so far."""
        relative = os.path.relpath(target, owner).replace(os.sep, "/") if is_within(target, owner) else None
        included = []
        for rule in self._rules(ctx, discovery, owner):
            if rule.file.unusable or (rule.always and not nested) or not (rule.globs or rule.always):
                continue
            held_back = None
            if not rule.always:
                matches = self._matcher(rule, discovery)
                if matches is None:
                    continue
                try:
                    held_back = None if relative is not None and matches(relative) else Reason.GLOB_NO_MATCH
                except GlobError:
                    held_back = Reason.GLOB_NOT_EVALUABLE
            if _admit_rule(ctx, cascade, rule.file, sent, already, held_back=held_back):
                included.append(rule.file)
        return included
