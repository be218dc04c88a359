"""Zed's agent (the editor's Agent Panel): one rules file at the project root, and the user's AGENTS.md.

Documented, from Zed's documentation (docs/src/ai/instructions.md, docs/src/ai/rules.md) and its
source at commit dbdea58 (2026-07-25): `RULES_FILE_NAMES` in crates/prompt_store/src/prompts.rs,
`NativeAgent::load_worktree_rules_file` in crates/agent/src/agent.rs, `paths::agents_file` and
crates/agent_settings/src/user_agents_md.rs, the template crates/agent/src/templates/system_prompt.hbs.
- At the root of the project (the folder opened: the launch directory here) the first of `.rules`,
  `.cursorrules`, `.windsurfrules`, `.clinerules`, `.github/copilot-instructions.md`, AGENT.md,
  AGENTS.md, CLAUDE.md, GEMINI.md that is a file, spelled exactly so, is the project's rules file;
  nothing in other folders. An empty one still wins.
- The user's `$XDG_CONFIG_HOME/zed/AGENTS.md` (`$FLATPAK_XDG_CONFIG_HOME` first; default
  `~/.config/zed/AGENTS.md`) comes first; a blank one is left out.
- Both are trimmed and fenced with six backticks in the last section of the system prompt,
  "## User's Custom Instructions", the rules file under a `` `<folder name>/<path>`: `` label.
  The section is rendered from the template as Handlebars renders it (lines holding only a block
  tag dropped), with the tool-use clause an agent with tools gets.
- Nothing is added when the agent reads a file.
"""

from __future__ import annotations

import html
import os
from collections.abc import Hashable

from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import Harness, LaunchContext, NameSearch, read_candidate
from lsp_agents.core.harnesses.spec import Detection, EnvDir, HarnessSpec
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role

RULES_FILE_NAMES = (
    ".rules",
    ".cursorrules",
    ".windsurfrules",
    ".clinerules",
    ".github/copilot-instructions.md",
    "AGENT.md",
    "AGENTS.md",
    "CLAUDE.md",
    "GEMINI.md",
)
FENCE = "``````"
SECTION = (
    "## User's Custom Instructions\n\nThe following additional instructions are provided by the user and "
    "should be followed to the best of your ability without interfering with the tool use guidelines.\n\n"
)
PERSONAL = (
    "### Personal `AGENTS.md`\n\nThese instructions apply to every project this user opens. "
    "Project-specific rules below may override them.\n\n"
)
PROJECT = (
    "### Project Rules\n\nThese instructions are scoped to the current project. They take precedence over "
    "the personal `AGENTS.md` above when they conflict.\n\nThere are project rules that apply to these root directories:\n"
)

SPEC = HarnessSpec(
    "zed",
    "Zed agent",
    verified=False,
    version="zed docs and source dbdea58 (2026-07-25)",
    home=EnvDir("XDG_CONFIG_HOME", (".config",), ("zed",)),
    global_files=("AGENTS.md",),
    instruction_names=(".rules",),
    looks_for=RULES_FILE_NAMES,
    own_names=frozenset({".rules"}),
    detection=Detection(names=(".rules",)),
    root_only=True,
    literal_imports=True,
)


class Zed(Harness):
    spec = SPEC
    reads_above_launch_directory = False

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset(name.split("/", 1)[0].lower() for name in RULES_FILE_NAMES)

    def content_shape(self, data: FileData) -> Hashable:
        """The rules file is whichever exists first, empty or not: only readability counts."""
        return (data.problem,)

    def home_dir(self, ctx: LaunchContext) -> str:
        flatpak = ctx.env.get("FLATPAK_XDG_CONFIG_HOME")
        return os.path.join(flatpak, "zed") if flatpak else super().home_dir(ctx)

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        personal = self._personal(ctx, cascade)
        rules = self._rules_file(ctx, cascade)
        if personal is None and rules is None:
            return cascade
        text = SECTION
        if personal is not None:
            text += f"{PERSONAL}{FENCE}\n{personal}\n{FENCE}\n\n"
        if rules is not None:
            path, body = rules
            label = (
                html.escape(f"{os.path.basename(ctx.cwd)}/{os.path.relpath(path, ctx.cwd)}")
                .replace("`", "&#x60;")
                .replace("=", "&#x3D;")
            )
            text += f"{PROJECT}`{label}`:\n{FENCE}\n{body}\n{FENCE}\n"
        cascade.blocks.append(Block(Placement.SYSTEM, text + "\n"))
        return cascade

    def _personal(self, ctx: LaunchContext, cascade: Cascade) -> str | None:
        path = os.path.join(self.home_dir(ctx), "AGENTS.md")
        if not ctx.fs.exists(path):
            return None
        data = read_candidate(ctx.fs, cascade, path, Role.GLOBAL)
        if data is None:
            return None
        text = data.text().strip()
        if not text:
            cascade.files.append(Candidate(path, Role.GLOBAL, False, data.size, Reason.EMPTY))
            return None
        cascade.files.append(Candidate(path, Role.GLOBAL, True, data.size))
        return text

    def _rules_file(self, ctx: LaunchContext, cascade: Cascade) -> tuple[str, str] | None:
        """The first name that is a file; the later ones that exist are passed over."""
        chosen: tuple[str, str] | None = None
        search = NameSearch(ctx, cascade, Role.PROJECT)
        for _name, path in search.candidates(ctx.cwd, RULES_FILE_NAMES, lambda p: _spelled_file(ctx, p)):
            data = read_candidate(ctx.fs, cascade, path, Role.PROJECT)
            if data is None:
                return None  # a file that cannot be read is dropped, the next name not tried
            cascade.files.append(Candidate(path, Role.PROJECT, True, data.size))
            search.taken, chosen = path, (path, data.text().strip())
        return chosen


def _spelled_file(ctx: LaunchContext, path: str) -> bool:
    """A file listed under exactly this name: not spelled otherwise, missing, or a folder (a
    `.clinerules` folder)."""
    folder, base = os.path.split(path)
    return base in ctx.fs.list_dir(folder) and ctx.fs.is_file(path)
