"""Kiro, from its documentation: steering files (`.kiro/steering/*.md`, the user's and the
workspace's) by `inclusion`, and AGENTS.md.

Documented, from kiro.dev/docs/steering ("Steering", as published in 2026; its capability table
and text as quoted in the translation qiita.com/mochizukiaiichiro/items/ee29e72e554d69e1210d of
2026-09-27):
- Steering files are the Markdown files of `.kiro/steering/` at the workspace root (the launch
  directory) and of the user's `~/.kiro/steering/`; where the two conflict the workspace wins, so
  the user's come first and the workspace's after them.
- The front matter's `inclusion` picks the mode: `always` (the default: no front matter, or no
  `inclusion`) in every interaction; `fileMatch` when a file matching `fileMatchPattern` (one
  pattern, or a list) is in context, which for a read is the read file; `auto` when the agent
  judges the `description` relevant; `manual` when the user names it (`#name` in chat).
- AGENTS.md follows no inclusion mode and is always included: the workspace root's, and one in
  `~/.kiro/steering/`.
Assumed where the documentation is silent: an `inclusion` of another value is the default; the
patterns are gitignore-style, relative to the workspace root (a pattern without a slash matches at
any depth); steering files in subfolders of a steering folder count; the user's steering, then
the workspace's, each in path order, then the workspace's AGENTS.md; the wrapper, not published,
is a neutral `<steering path="…">` element per file, the front matter left out; `#[[file:…]]`
references are left as written. Issue kirodotdev/Kiro#9176 reports that a user's `fileMatch`
file never triggers: this model follows the documentation.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from lsp_agents.core.frontmatter import ParsedFile, admit_files
from lsp_agents.core.harnesses.base import Harness, LaunchContext, skipped
from lsp_agents.core.harnesses.rule_modes import (
    Activation,
    Dialect,
    ModeRule,
    admit_once,
    attach_reason,
    held_back,
    read_rules,
    tagged,
)
from lsp_agents.core.harnesses.spec import Detection, FolderFiles, HarnessSpec, home_folder
from lsp_agents.core.model import Block, Cascade, Placement, Reason, Role

STEERING = (".kiro", "steering")
AGENTS = "AGENTS.md"
DIALECT = Dialect(
    "inclusion",
    {"always": Activation.ALWAYS, "filematch": Activation.GLOB, "auto": Activation.AGENT, "manual": Activation.MANUAL},
    missing=Activation.ALWAYS,
    unknown=Activation.ALWAYS,
    globs_key="fileMatchPattern",
)

SPEC = HarnessSpec(
    "kiro",
    "Kiro",
    verified=False,
    version="kiro.dev/docs/steering 2026",
    home=home_folder(STEERING[0]),
    global_subfolders=(STEERING[1],),
    instruction_names=(AGENTS,),
    looks_for=(".kiro/steering", AGENTS),
    rule_files=(FolderFiles("/".join(STEERING), "**/*.md"),),
    detection=Detection(folders=(STEERING[0],), root_folders=(STEERING[0],), own_files=(STEERING[0],)),
    root_only=True,
    literal_imports=True,
)


class Kiro(Harness):
    spec = SPEC
    reads_above_launch_directory = False

    def _steering(self, ctx: LaunchContext, cascade: Cascade) -> list[ModeRule]:
        """The user's steering files, then the workspace's (unless the workspace is the home directory)."""
        user = os.path.join(self.home_dir(ctx), STEERING[1])
        workspace = os.path.join(ctx.cwd, *STEERING)
        rules = read_rules(ctx, user, ctx.cwd, DIALECT, Role.GLOBAL, cascade)
        if workspace != user:
            rules += read_rules(ctx, workspace, ctx.cwd, DIALECT, Role.RULE, cascade)
        return [self._agents_always(rule) for rule in rules]

    @staticmethod
    def _agents_always(rule: ModeRule) -> ModeRule:
        """An AGENTS.md among the steering files follows no inclusion mode: always included."""
        if os.path.basename(rule.file.path) != AGENTS or rule.activation is Activation.ALWAYS:
            return rule
        return ModeRule(rule.file, rule.role, Activation.ALWAYS, (), rule.base)

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        sent: set[str] = set()
        included: list[ParsedFile] = []
        for rule in self._steering(ctx, cascade):
            if admit_once(ctx, cascade, rule.file, rule.role, sent, held=held_back(rule, cascade)):
                included.append(rule.file)
        agents = os.path.join(ctx.cwd, AGENTS)
        if ctx.fs.realpath(agents) in sent:
            cascade.files.append(skipped(ctx, agents, Role.PROJECT, Reason.DUPLICATE_PATH))
        else:
            included += admit_files(ctx.fs, [(agents, Role.PROJECT)], cascade)
        if included:
            cascade.blocks.append(Block(Placement.SYSTEM, _render(included)))
        return cascade

    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        """The `fileMatch` steering files whose patterns match the read file."""
        cascade = Cascade(self.id, ctx.cwd)
        discovery = Cascade(self.id, ctx.cwd)  # eager reports what discovery skips
        already = {os.path.normpath(p) for p in loaded}
        sent: set[str] = set()
        included: list[ParsedFile] = []
        for rule in self._steering(ctx, discovery):
            if rule.activation is not Activation.GLOB or rule.file.unusable:
                continue
            held = attach_reason(rule, target, discovery)
            if admit_once(ctx, cascade, rule.file, rule.role, sent, already, held=held):
                included.append(rule.file)
        cascade.warnings += discovery.warnings
        if included:
            cascade.blocks.append(Block(Placement.SYSTEM, _render(included)))
        return cascade


def _render(files: list[ParsedFile]) -> str:
    return tagged("steering", ((f.path, f.body.strip("\r\n")) for f in files))
