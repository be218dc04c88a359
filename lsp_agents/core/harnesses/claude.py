"""Claude Code: CLAUDE.md files from the filesystem root down to cwd, imports, rules, AGENTS.md.

Eagerly: the user's ~/.claude/CLAUDE.md and unconditional user rules, then for every directory
from the root (excluded) down to cwd: CLAUDE.md, .claude/CLAUDE.md, unconditional
.claude/rules/**/*.md, CLAUDE.local.md; AGENTS.md only when no CLAUDE.md counts (default mode).
`@path` imports follow their file. On read: the nested files between cwd and the read file, and
rules whose `paths:` match it.

Follows Claude Code 2.1.332: its captures of every conformance scenario give the same text as
2.1.329's (tests/conformance/FINDINGS.md, section 10). New in 2.1.332, and not modelled: skills
that MCP servers serve (`skills/list`; per server at most 100 entries, 20 pages and 512 KiB of
listing), offered as `<server>:<skill>` beside the local skills. Only a running server knows
them, and lsp-agents never starts one (README, "Agents, skills and commands").
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence

from lsp_agents.core.config_files import get_path, load_jsonc
from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import Harness, LaunchContext
from lsp_agents.core.harnesses.claude_memory import (
    DirectoryFiles,
    MemoryEntry,
    MemoryLoader,
    memory_shape,
    memory_text,
    project_texts,
    rule_files,
)
from lsp_agents.core.harnesses.spec import (
    ConfigFile,
    Detection,
    EnvDir,
    FolderFiles,
    GlobStyle,
    HarnessSpec,
    Misfiling,
    Place,
    RuleHeader,
    SizeLimits,
    SkillNaming,
)
from lsp_agents.core.model import Block, Cascade, Placement, Reason, Role
from lsp_agents.core.text import js_trim
from lsp_agents.core.walk import ancestors, dirs_below, find_marker_root

PREAMBLE = (
    "Codebase and user instructions are shown below. Be sure to adhere to these instructions. "
    "IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written."
)
MANAGED_FILE = "/etc/claude-code/CLAUDE.md"
MODES = ("claude-md-or-agents-md", "claude-md-and-agents-md", "claude-md", "managed-only")
# Which projects approved imports from outside: in the home directory, or in $CLAUDE_CONFIG_DIR when
# that is set (Claude Code 2.1.332: `join(CLAUDE_CONFIG_DIR || home, ".claude.json")`).
STATE_FILE = ConfigFile(".claude.json", Place.HOME, moved_by="CLAUDE_CONFIG_DIR")
SETTINGS_NAME = "settings.json"

SPEC = HarnessSpec(
    "claude-code",
    "Claude Code",
    verified=True,
    version="2.1.332",
    package="@anthropic-ai/claude-code",
    home=EnvDir("CLAUDE_CONFIG_DIR", (".claude",)),
    global_files=("CLAUDE.md",),
    global_subfolders=("rules", "agents", "skills", "commands"),
    instruction_names=("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md"),
    looks_for=("CLAUDE.md", ".claude/rules", "CLAUDE.local.md", "AGENTS.md"),
    rule_files=(FolderFiles(".claude/rules", "**/*.md"),),
    misplaced=("**/.claude/rules/**/*.mdc", "**/.claude/rules/**/*.markdown"),  # see analysis.placement
    project_folders=(".claude",),  # rules, agents, skills, commands, .claude/CLAUDE.md
    config_files=(STATE_FILE, ConfigFile(SETTINGS_NAME, Place.HOME_FOLDER)),
    detection=Detection(names=("CLAUDE.md",), folders=(".claude",), root_folders=(".claude",)),
    asks_before_external_imports=True,
    # Claude Code 2.1.329 warns (2.1.332 ships the same warnings) when one memory file is
    # longer than max(40,000, 5 % × context window × 3 or 4) characters (40,000 for 200k-context
    # models) and skips files over 4 MiB outright.
    size_limits=SizeLimits(
        40_000,
        4 * 1024 * 1024,
        '"Large CLAUDE.md will impact performance"',
        names=frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md"}),
        folder=".claude",
    ),
    rule_header=RuleHeader(
        ".claude/rules",
        ".md",
        "paths",
        GlobStyle.GITIGNORE_FOLDER_IS_CONTENTS,
        never="Claude Code loads this rule only for matching files, so it never loads it",
        misfiling=Misfiling.WRONG_SUFFIX,
        misfiled="Claude Code only reads .md files in .claude/rules/",
    ),
    skill_naming=SkillNaming.BY_FOLDER,
    cuts_listed_descriptions=True,
)


class Claude(Harness):
    spec = SPEC

    def _mode(self, ctx: LaunchContext, cascade: Cascade) -> str:
        if ctx.options.claude.instruction_files:
            return ctx.options.claude.instruction_files
        settings = load_jsonc(ctx.fs, os.path.join(self.home_dir(ctx), SETTINGS_NAME))
        if settings.warning:
            cascade.warnings.append(settings.warning)
        value = get_path(settings.values, "pluginConfigs", {}).get("agents-md@builtin", {})
        mode = get_path(value, "options.instructionFiles") if isinstance(value, dict) else None
        return mode if mode in MODES else MODES[0]

    def _approved(self, ctx: LaunchContext) -> bool:
        """Imports outside cwd load only once approved for the git root in ~/.claude.json."""
        root = find_marker_root(ctx.fs, ctx.cwd, [".git"]) or ctx.cwd
        state = self.spec.config_path(STATE_FILE, ctx.home, ctx.env)
        projects = load_jsonc(ctx.fs, state).values.get("projects") if state else None
        entry = projects.get(root) if isinstance(projects, dict) else None
        return isinstance(entry, dict) and entry.get("hasClaudeMdExternalIncludesApproved") is True

    def _directories(self, ctx: LaunchContext) -> list[str]:
        """cwd and its ancestors, root first, without the filesystem root itself."""
        return [d for d in reversed(ancestors(ctx.cwd)) if os.path.dirname(d) != d]

    def _counts(self, ctx: LaunchContext) -> bool:
        return any(self._files(ctx, d).counts for d in self._directories(ctx))

    def _files(self, ctx: LaunchContext, directory: str) -> DirectoryFiles:
        return ctx.fs.memo(("claude-directory", directory), lambda: DirectoryFiles.of(ctx.fs, directory))

    def _loader(self, ctx: LaunchContext, cascade: Cascade, loaded: Sequence[str] = (), *, on_read: bool = False) -> MemoryLoader:
        """On a read, the read's own files import nothing from outside cwd, approved or not (Claude Code
        2.1.332 loads a nested CLAUDE.md without `includeExternal`: its imports from outside cwd,
        `~/` ones too, are left out; the captures of claude-nested-approved-imports show it)."""
        approved = not on_read and self._approved(ctx)
        return MemoryLoader(ctx, cascade, cwd=ctx.cwd, approved=approved, already=loaded)

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset({"claude.md", ".claude", "claude.local.md", "agents.md"})

    def content_shape(self, data: FileData) -> Hashable | None:
        return memory_shape(data)

    # -- eager ------------------------------------------------------------------------------
    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        loader = self._eager_loader(ctx, cascade)
        if loader.entries:
            sections = [f"Contents of {e.path} ({e.label}):\n\n{e.trimmed}" for e in loader.entries]
            text = "<system-reminder>\n" + PREAMBLE + "\n\n" + "\n\n".join(sections) + "\n</system-reminder>"
            cascade.blocks.append(Block(Placement.USER, text))
        return cascade

    def _eager_loader(self, ctx: LaunchContext, cascade: Cascade) -> MemoryLoader:
        """The start-up load: its entries are the files sent first, in order."""
        mode = self._mode(ctx, cascade)
        loader = self._loader(ctx, cascade)
        loader.add(MANAGED_FILE, Role.GLOBAL, "user")
        if mode != "managed-only":
            self._eager_user(ctx, loader)
            self._eager_project(ctx, loader, mode)
        return loader

    def _context_texts(self, ctx: LaunchContext) -> dict[str, str]:
        """The texts of the project and local files sent at start-up (`project_texts`)."""
        key = ("claude-context-texts", ctx.key)
        return ctx.fs.memo(key, lambda: project_texts(self._eager_loader(ctx, Cascade(self.id, ctx.cwd)).entries))

    def _eager_user(self, ctx: LaunchContext, loader: MemoryLoader) -> None:
        user_dir = self.home_dir(ctx)
        loader.add(os.path.join(user_dir, "CLAUDE.md"), Role.GLOBAL, "user")
        for rule in rule_files(ctx.fs, os.path.join(user_dir, "rules")):
            loader.add_rule(rule, "user", base=ctx.cwd, target=None)

    def _eager_project(self, ctx: LaunchContext, loader: MemoryLoader, mode: str) -> None:
        with_agents = mode == "claude-md-and-agents-md" or (mode == "claude-md-or-agents-md" and not self._counts(ctx))
        agents: list[MemoryEntry] = []  # the AGENTS.md files sent and what they import
        for directory in self._directories(ctx):
            files = self._files(ctx, directory)
            for path in files.claude_md:
                loader.add(path, Role.PROJECT, "project")
            for rule in files.rules:
                loader.add_rule(rule, "project", base=directory, target=None)
            for path in files.local_md:
                loader.add(path, Role.LOCAL, "local")
            for path in files.agents_md:
                if with_agents:
                    start = len(loader.entries)
                    loader.add(path, Role.PROJECT, "project")
                    agents += loader.entries[start:]
                elif ctx.fs.is_file(path):
                    loader.skip(path, Role.PROJECT, Reason.CLAUDE_MD_PRESENT if mode != "claude-md" else Reason.DISABLED)
        if agents:
            others = [e for e in loader.entries if not any(e is a for a in agents)]
            loader.withdraw_repeats(agents, project_texts(others))

    # -- on read ----------------------------------------------------------------------------
    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        mode = self._mode(ctx, cascade)
        if mode == "managed-only":
            return cascade
        loader = self._loader(ctx, cascade, self._sent(ctx, loaded), on_read=True)
        nested = self._load_read(ctx, loader, target)
        # One reminder per file; the blocks of one message are separated by a newline.
        texts = [_nested_reminder(e) for e in loader.entries]
        blocks = [Block(Placement.USER, text + ("\n" if i < len(texts) - 1 else "")) for i, text in enumerate(texts)]
        hook = self._nested_agents(ctx, loader, nested, "tool.call") if self._agents_on_read(ctx, mode) else None
        # Skills the read finds join the system-role message, after the hook's text (GD-8).
        from lsp_agents.core.agents.claude import ClaudeDefinitions  # the definitions import this module

        parts = ([hook] if hook else []) + ClaudeDefinitions().read_skills(ctx, target, list(earlier))
        if parts:
            blocks.append(Block(Placement.SYSTEM, "\n\n".join(parts)))
        cascade.blocks += blocks
        return cascade

    def _sent(self, ctx: LaunchContext, loaded: Sequence[str]) -> list[str]:
        return [c.path for c in self.eager(ctx).loaded] + list(loaded)

    def _agents_on_read(self, ctx: LaunchContext, mode: str) -> bool:
        return mode == "claude-md-or-agents-md" and not self._counts(ctx)

    def _load_read(self, ctx: LaunchContext, loader: MemoryLoader, target: str) -> list[str]:
        """Loads the nested files a read of `target` sends (CL-3); returns the directories it reaches."""
        nested = dirs_below(ctx.cwd, os.path.dirname(target))
        for rule in rule_files(ctx.fs, os.path.join(self.home_dir(ctx), "rules")):
            loader.add_rule(rule, "user", base=ctx.cwd, target=target, conditional_only=True)
        for directory in nested:
            files = self._files(ctx, directory)
            for path in files.claude_md:
                loader.add(path, Role.PROJECT, "project")
            for path in files.local_md:
                loader.add(path, Role.LOCAL, "local")
            for rule in files.rules:
                loader.add_rule(rule, "project", base=directory, target=target, unconditional_only=True)
            for rule in files.rules:
                loader.add_rule(rule, "project", base=directory, target=target, conditional_only=True)
        for directory in self._directories(ctx):
            for rule in self._files(ctx, directory).rules:
                loader.add_rule(rule, "project", base=directory, target=target, conditional_only=True)
        return nested

    def mention_memory(self, ctx: LaunchContext, targets: Sequence[str]) -> list[str]:
        """The parts the reads of a typed line's `@path` mentions of `targets` (paths inside the launch
        directory, in the line's order) add after the reads' own parts (FINDINGS.md §11s): the agents-md
        hook's text, one part per mention that finds an AGENTS.md (`prompt.mention`), then one reminder
        per nested file as on a read (`nested_memory`: `A5o` over the reads' triggers)."""
        cascade = Cascade(self.id, ctx.cwd)
        mode = self._mode(ctx, cascade)
        if mode == "managed-only" or not targets:
            return []
        sent = self._sent(ctx, targets)  # the files read count as sent (`readFileState`)
        hooks = []
        if self._agents_on_read(ctx, mode):
            hooks = self._mention_hooks(ctx, self._loader(ctx, cascade, sent, on_read=True), targets)
        loader = self._loader(ctx, cascade, sent, on_read=True)
        # The reads push their triggers as they end: the one walking fewer folders first (a tie is a race).
        for target in sorted(targets, key=lambda t: len(dirs_below(ctx.cwd, os.path.dirname(t)))):
            self._load_read(ctx, loader, target)
        return hooks + [_nested_reminder(e) for e in loader.entries]

    def _mention_hooks(self, ctx: LaunchContext, loader: MemoryLoader, targets: Sequence[str]) -> list[str]:
        """The hook runs for every mention at once, each walking up from its file's folder: a folder two
        mentions reach goes to the one with the fewer steps to it, on a tie to the earlier mention."""
        owner: dict[str, tuple[int, int]] = {}
        reached = [dirs_below(ctx.cwd, os.path.dirname(target)) for target in targets]
        for index, nested in enumerate(reached):
            for steps, directory in enumerate(reversed(nested)):
                owner[directory] = min(owner.get(directory, (steps, index)), (steps, index))
        hooks = []
        for index, nested in enumerate(reached):
            hook = self._nested_agents(ctx, loader, [d for d in nested if owner[d][1] == index], "prompt.mention")
            hooks += [f"<system-reminder>\n{hook}\n</system-reminder>"] if hook else []
        return hooks

    def _nested_claude_texts(self, ctx: LaunchContext, nested: Sequence[str]) -> dict[str, str]:
        """The texts of the CLAUDE.md files of the directories a read reaches (their imports aside)."""
        texts: dict[str, str] = {}
        for directory in nested:
            files = self._files(ctx, directory)
            for path in files.claude_md + files.local_md:
                text = js_trim(memory_text(ctx.fs.read(path).text())) if ctx.fs.is_file(path) else ""
                if text:
                    texts.setdefault(text, path)
        return texts

    def _nested_agents(self, ctx: LaunchContext, loader: MemoryLoader, nested: Sequence[str], event: str) -> str | None:
        """A subdirectory AGENTS.md arrives as the agents-md hook's text for `event` (a read's `tool.call`:
        in a system-role message; a mention's `prompt.mention`: a reminder of its own).
        The hook asks the host's `fs.ancestors`, which loads each file with the approval of imports
        from outside cwd (Claude Code 2.1.332 `gys`: `cce(…, hasClaudeMdExternalIncludesApproved)`),
        unlike a nested CLAUDE.md on a read (claude-read-agents-md-external-import, -unapproved)."""
        loader.approved = self._approved(ctx)  # the read's own files are loaded already
        start = len(loader.entries)
        for directory in nested:
            files = self._files(ctx, directory)
            if not files.counts:
                for path in files.agents_md:
                    loader.add(path, Role.PROJECT, "project")
        if len(loader.entries) > start:
            loader.withdraw_repeats(
                loader.entries[start:], {**self._nested_claude_texts(ctx, nested), **self._context_texts(ctx)}
            )
        sections = [f"Contents of {e.path}:\n\n{e.text}" for e in loader.entries[start:]]
        return f"{event} hook additional context: " + "\n".join(sections) if sections else None


def _nested_reminder(entry: MemoryEntry) -> str:
    return f"<system-reminder>\nContents of {entry.path}:\n\n{entry.text}\n</system-reminder>"
