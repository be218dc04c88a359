"""Windsurf (Cascade), from its documentation: global_rules.md, `.windsurf/rules/*.md` by trigger,
AGENTS.md scoped by its folder, the legacy .windsurfrules.

Documented, from docs.windsurf.com "Memories & Rules" (/windsurf/cascade/memories) and "AGENTS.md"
(/windsurf/cascade/agents-md), as published in 2026, with the earlier page
docs.windsurf.com/plugins/cascade/memories for the limit of the global file:
- The user's rules: `~/.codeium/windsurf/memories/global_rules.md`, always on, first ("priority
  is given to the global rules, followed by the workspace rules"); past 6,000 characters it is cut.
- Workspace rules: the `.md` files of every `.windsurf/rules` folder in the workspace (the launch
  directory) and its subfolders, and in the folders above it up to the git root. A rule's header
  field `trigger` picks its mode: `always_on` (in every message), `glob` (with a file its `globs`
  match), `model_decision` (the model decides from the `description`) or `manual` (an
  @-mention). A rule file is cut past 12,000 characters.
- AGENTS.md (or agents.md) goes into the same rules engine, its mode from its place: the one of
  the workspace root, and of the folders above it up to the git root, always on; one in a
  subfolder is a glob rule `<folder>/**`, sent when Cascade reads or edits a file there.
Where the documentation is silent: a rule without a `trigger` is manual (sent only when named),
as the rule generators that target Windsurf report it (intellectronica/ruler#178, 2025: "Windsurf
instruction files are by default not automatically read"; Goldziher/ai-rulez#70, 2026: `manual`
is the default, "no frontmatter needed"); an unknown `trigger` value is assumed always on; the legacy `.windsurfrules` of the workspace root is still
read, always on, after the global rules; globs are gitignore-style, relative to the folder holding
`.windsurf` (a pattern without a slash matches at any depth); the wrapper, not published, is a
neutral `<rule path="…">` element per file, in the order global, legacy, rule folders (from the
git root down, then the subfolders in path order), AGENTS.md from the git root down; a symlinked
file and its target are read once. The docs' earlier total of 12,000 characters is gone from the
current page and not modelled. Nothing is read from `.devin/rules` (the rebranded Devin Desktop).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from lsp_agents.core.frontmatter import ParsedFile, parse_file
from lsp_agents.core.harnesses.base import Harness, LaunchContext
from lsp_agents.core.harnesses.rule_modes import (
    Activation,
    Dialect,
    ModeRule,
    admit_once,
    attach_reason,
    cut_at,
    held_back,
    nested_files,
    read_rules,
    tagged,
)
from lsp_agents.core.harnesses.spec import Detection, FolderFiles, HarnessSpec, home_folder
from lsp_agents.core.model import Block, Cascade, Placement, Reason, Role
from lsp_agents.core.walk import ancestors, dirs_below, find_marker_root, is_within

RULES = (".windsurf", "rules")
LEGACY = ".windsurfrules"
AGENTS_NAMES = ("AGENTS.md", "agents.md")  # either spelling, per the docs; AGENTS.md tried first
GLOBAL_FILE = "global_rules.md"
GLOBAL_LIMIT = 6_000  # characters of global_rules.md sent
RULE_LIMIT = 12_000  # characters of one workspace rule file sent
DIALECT = Dialect(
    "trigger",
    {
        "always_on": Activation.ALWAYS,
        "glob": Activation.GLOB,
        "model_decision": Activation.AGENT,
        "manual": Activation.MANUAL,
    },
    missing=Activation.MANUAL,
    unknown=Activation.ALWAYS,
    globs_key="globs",
)

SPEC = HarnessSpec(
    "windsurf",
    "Windsurf (Cascade)",
    verified=False,
    version="docs.windsurf.com 2026",
    home=home_folder(".codeium", "windsurf", "memories"),
    global_files=(GLOBAL_FILE,),
    instruction_names=(LEGACY, "AGENTS.md"),
    looks_for=(".windsurf/rules", "AGENTS.md", LEGACY),
    rule_files=(FolderFiles("/".join(RULES), "**/*.md"),),
    own_names=frozenset({LEGACY}),
    detection=Detection(names=(LEGACY,), folders=(RULES[0],), root_folders=(RULES[0],), own_files=(".codeium/windsurf",)),
    root_only=True,
    literal_imports=True,
)


_RULE_FOLDER = f"{os.sep}{os.path.join(*RULES)}{os.sep}"  # asked of every file of a workspace not yet indexed


def _in_rule_folder(path: str) -> bool:
    return path.endswith(".md") and _RULE_FOLDER in path


class Windsurf(Harness):
    spec = SPEC
    reads_above_launch_directory = False

    def _git_chain(self, ctx: LaunchContext) -> list[str]:
        """The folders above the workspace up to the git root, outermost first (none without git)."""
        root = find_marker_root(ctx.fs, ctx.cwd, [".git"])
        return list(reversed(ancestors(ctx.cwd, root)[1:])) if root else []

    def _rule_owners(self, ctx: LaunchContext, cascade: Cascade) -> list[str]:
        """The folders holding a `.windsurf/rules`: above the workspace, the workspace, below it."""
        below = {p.split(f"{os.sep}{RULES[0]}{os.sep}", 1)[0] for p in nested_files(ctx, cascade, _in_rule_folder)}
        below.discard(ctx.cwd)
        return [*self._git_chain(ctx), ctx.cwd, *sorted(below)]

    def _rules(self, ctx: LaunchContext, cascade: Cascade) -> list[ModeRule]:
        found: list[ModeRule] = []
        for owner in self._rule_owners(ctx, cascade):
            found += read_rules(ctx, os.path.join(owner, *RULES), owner, DIALECT, Role.RULE, cascade)
        return found

    def _agents_md(self, ctx: LaunchContext, folder: str) -> str | None:
        names = ctx.fs.list_dir(folder)
        return next((os.path.join(folder, n) for n in AGENTS_NAMES if n in names), None)

    # -- eager ------------------------------------------------------------------------------
    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        sent: set[str] = set()
        parts: list[tuple[str, str]] = []
        global_rules = os.path.join(self.home_dir(ctx), GLOBAL_FILE)
        if ctx.fs.exists(global_rules):
            self._take(ctx, cascade, parse_file(ctx.fs, global_rules, frontmatter=False), Role.GLOBAL, sent, parts, GLOBAL_LIMIT)
        legacy = os.path.join(ctx.cwd, LEGACY)
        if ctx.fs.exists(legacy):
            self._take(ctx, cascade, parse_file(ctx.fs, legacy, frontmatter=False), Role.PROJECT, sent, parts, RULE_LIMIT)
        for rule in self._rules(ctx, cascade):
            self._take(ctx, cascade, rule.file, rule.role, sent, parts, RULE_LIMIT, held=held_back(rule, cascade))
        for folder in [*self._git_chain(ctx), ctx.cwd]:
            path = self._agents_md(ctx, folder)
            if path is not None:
                self._take(ctx, cascade, parse_file(ctx.fs, path, frontmatter=False), Role.PROJECT, sent, parts, RULE_LIMIT)
        if parts:
            cascade.blocks.append(Block(Placement.SYSTEM, tagged("rule", parts)))
        return cascade

    def _take(
        self,
        ctx: LaunchContext,
        cascade: Cascade,
        file: ParsedFile,
        role: Role,
        sent: set[str],
        parts: list[tuple[str, str]],
        limit: int,
        already: Sequence[str] = (),
        *,
        held: Reason | None = None,
    ) -> None:
        """Admit `file`; when it loads, its body (cut to `limit` characters) joins `parts`."""
        if not admit_once(ctx, cascade, file, role, sent, already, held=held):
            return
        body, cut = cut_at(file.body.strip("\r\n"), limit)
        if cut is not None:
            header = len(file.text.encode()) - len(file.body.encode())
            cascade.files[-1].truncated_at = header + cut + (len(file.body) - len(file.body.lstrip("\r\n")))
        parts.append((file.path, body))

    # -- on read ----------------------------------------------------------------------------
    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        """Glob rules whose patterns match the read file, then the AGENTS.md of each subfolder
        from the workspace down to the read file's (their `<folder>/**` pattern matches it)."""
        cascade = Cascade(self.id, ctx.cwd)
        discovery = Cascade(self.id, ctx.cwd)  # eager reports what discovery skips
        already = {os.path.normpath(p) for p in loaded}
        sent: set[str] = set()
        parts: list[tuple[str, str]] = []
        for rule in self._rules(ctx, discovery):
            if rule.activation is not Activation.GLOB or rule.file.unusable or not is_within(target, rule.base):
                continue
            held = attach_reason(rule, target, discovery)
            self._take(ctx, cascade, rule.file, rule.role, sent, parts, RULE_LIMIT, tuple(already), held=held)
        for folder in dirs_below(ctx.cwd, os.path.dirname(target)):
            path = self._agents_md(ctx, folder)
            if path is not None:
                file = parse_file(ctx.fs, path, frontmatter=False)
                self._take(ctx, cascade, file, Role.PROJECT, sent, parts, RULE_LIMIT, tuple(already))
        cascade.warnings += discovery.warnings
        if parts:
            cascade.blocks.append(Block(Placement.SYSTEM, tagged("rule", parts)))
        return cascade
