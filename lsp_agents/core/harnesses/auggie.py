"""Auggie (the Augment CLI), from its documentation: CLAUDE.md, AGENTS.md, the workspace
guidelines, `.augment/rules/**/*.md` by `type`, and the user's `~/.augment/rules`.

Documented, from docs.augmentcode.com "Rules & Guidelines" for the CLI (/cli/rules for Auggie
1.x, /cli/v0/rules for 0.x, as published in 2026) and the changelog "Introducing Augment Rules"
(2025-07-08):
- The files, "in order of precedence": CLAUDE.md, AGENTS.md, the workspace guidelines
  (`.augment/guidelines.md`; `.augment-guidelines` in 0.x), the `.md` files found recursively in
  `<workspace root>/.augment/rules/`, then those of `~/.augment/rules/` (a `--rules` file comes
  first; it is a flag, not a file of the workspace, and is not modelled).
- A workspace rule's front matter `type` picks how it is used: `always_apply` (attached to every
  query), `agent_requested` (the agent fetches it when its `description` fits the task) or
  `manual` (the user attaches it). The user's rules are always applied, whatever their header.
Assumed where the documentation is silent: the workspace root is the git root (the launch
directory without git), and CLAUDE.md and AGENTS.md are read there only; a workspace rule without
`type` (or with another value) is manual, as the rules Augment creates are; the files are sent
in the order above, each rule's folder in path order, the front matter left out; the wrapper,
not published, is a neutral `<rule path="…">` element per file; a symlinked file and its target
are read once. Nothing is added when the agent reads a file.
"""

from __future__ import annotations

import os

from lsp_agents.core.frontmatter import ParsedFile, parse_file
from lsp_agents.core.harnesses.base import Harness, LaunchContext
from lsp_agents.core.harnesses.rule_modes import Activation, Dialect, ModeRule, admit_once, held_back, read_rules, tagged
from lsp_agents.core.harnesses.spec import Detection, FolderFiles, HarnessSpec, home_folder
from lsp_agents.core.model import Block, Cascade, Placement, Role
from lsp_agents.core.walk import find_marker_root

FOLDER = ".augment"
ROOT_FILES = ("CLAUDE.md", "AGENTS.md", f"{FOLDER}/guidelines.md", ".augment-guidelines")
WORKSPACE = Dialect(
    "type",
    {"always_apply": Activation.ALWAYS, "agent_requested": Activation.AGENT, "manual": Activation.MANUAL},
    missing=Activation.MANUAL,
    unknown=Activation.MANUAL,
    globs_key="globs",
)
USER = Dialect("type", {}, missing=Activation.ALWAYS, unknown=Activation.ALWAYS, globs_key="globs")

SPEC = HarnessSpec(
    "auggie",
    "Auggie (Augment CLI)",
    verified=False,
    version="docs.augmentcode.com/cli/rules 2026",
    home=home_folder(FOLDER),
    global_subfolders=("rules",),
    instruction_names=(".augment-guidelines",),
    looks_for=(".augment/rules", "AGENTS.md", "CLAUDE.md", ".augment/guidelines.md"),
    rule_files=(FolderFiles(f"{FOLDER}/rules", "**/*.md"), FolderFiles(FOLDER, "guidelines.md")),
    own_names=frozenset({".augment-guidelines", "guidelines.md"}),
    detection=Detection(names=(".augment-guidelines",), folders=(FOLDER,), root_folders=(FOLDER,), own_files=(FOLDER,)),
    root_only=True,
    literal_imports=True,
)


class Auggie(Harness):
    spec = SPEC

    def _root(self, ctx: LaunchContext) -> str:
        return find_marker_root(ctx.fs, ctx.cwd, [".git"]) or ctx.cwd

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset()  # it reads the workspace root's files, whatever the launch directory

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        root = self._root(ctx)
        sent: set[str] = set()
        included: list[ParsedFile] = []
        for name in ROOT_FILES:
            path = os.path.join(root, *name.split("/"))
            if ctx.fs.exists(path):
                file = parse_file(ctx.fs, path, frontmatter=False)
                if admit_once(ctx, cascade, file, Role.PROJECT, sent):
                    included.append(file)
        rules: list[ModeRule] = read_rules(ctx, os.path.join(root, FOLDER, "rules"), root, WORKSPACE, Role.RULE, cascade)
        user = os.path.join(self.home_dir(ctx), "rules")
        if user != os.path.join(root, FOLDER, "rules"):
            rules += read_rules(ctx, user, root, USER, Role.GLOBAL, cascade)
        for rule in rules:
            if admit_once(ctx, cascade, rule.file, rule.role, sent, held=held_back(rule, cascade)):
                included.append(rule.file)
        if included:
            cascade.blocks.append(Block(Placement.SYSTEM, tagged("rule", ((f.path, f.body.strip("\r\n")) for f in included))))
        return cascade
