"""Roo Code (the VS Code extension), from its source: the `.roo/rules` folders (else `.roorules`,
else `.clinerules`), the Code mode's rules, AGENTS.md, under "USER'S CUSTOM INSTRUCTIONS".

Documented, not captured (an editor extension), from RooCodeInc/Roo-Code at commit cb83656 of
2026-04-14: `addCustomInstructions`, `loadRuleFiles`, `loadAllAgentRulesFiles` and
`readTextFilesFromDirectory` in src/core/prompts/sections/custom-instructions.ts,
`getRooDirectoriesForCwd` in src/services/roo-config/index.ts, `generatePrompt` in
src/core/prompts/system.ts:
- The workspace folder is the launch directory; nothing is read above it, and with the default
  settings (`enableSubfolderRules` off) nothing below it but its own `.roo` folder.
- Rules: every file below `~/.roo/rules/`, then below `<cwd>/.roo/rules/` (symlinks followed, cache
  and system files such as `*.log`, `*.tmp`, `.DS_Store` left out), each folder's files sorted by
  file name, case-insensitively, wherever they are below it; each trimmed under
  `# Rules from <path relative to cwd>:` (an empty file keeps its heading). Only when neither
  folder gives a file: the first non-empty of `<cwd>/.roorules`, `<cwd>/.clinerules` (a folder
  named `.clinerules` is no file).
- The mode's rules the same way from `~/.roo/rules-<mode>/` and `<cwd>/.roo/rules-<mode>/`,
  else `.roorules-<mode>`, else `.clinerules-<mode>`.
- AGENTS.md of cwd, else AGENT.md (the first non-empty), then AGENTS.local.md, each trimmed
  under `# Agent Rules Standard (<name>):` / `# Agent Rules Local (AGENTS.local.md):`.
- They end the system prompt, in the order mode rules, AGENTS.md, rules, in a "Rules:" section
  after the language preference, under "USER'S CUSTOM INSTRUCTIONS".
- Nothing is added when the agent reads a file.
Assumed: the mode is Code (the extension starts in Architect, whose built-in instructions this
model leaves out; Code has none), the editor's language is English, no custom instructions are
set in the settings and no `.rooignore` exists; file names are compared as `localeCompare` does,
approximately (`cline.locale_key`). The section is shown only when a file is sent.
"""

from __future__ import annotations

import os
from collections.abc import Hashable

from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import Harness, LaunchContext, NameSearch, read_candidate, skipped
from lsp_agents.core.harnesses.cline import locale_key
from lsp_agents.core.harnesses.spec import Detection, FolderFiles, HarnessSpec, home_folder
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.walk import files_below, is_within

MODE = "code"
FOLDER = ".roo"
RULES = "rules"
MODE_RULES = f"rules-{MODE}"
LEGACY = (".roorules", ".clinerules")
AGENT_NAMES = ("AGENTS.md", "AGENT.md")
LOCAL = "AGENTS.local.md"
MAX_RULE_FILES = 2_000  # entries looked at below one rules folder: workspace content is untrusted
CACHE_SUFFIXES = (
    ".DS_Store",
    ".bak",
    ".cache",
    ".crdownload",
    ".db",
    ".dmp",
    ".dump",
    ".eslintcache",
    ".lock",
    ".log",
    ".old",
    ".part",
    ".partial",
    ".pyc",
    ".pyo",
    ".stackdump",
    ".swo",
    ".swp",
    ".temp",
    ".tmp",
)
HEADER = (
    "\n====\n\nUSER'S CUSTOM INSTRUCTIONS\n\nThe following additional instructions are provided by the user, "
    "and should be followed to the best of your ability.\n\n"
)
LANGUAGE = (
    'Language Preference:\nYou should always speak and think in the "English" (en) language unless the user '
    "gives you instructions below to do otherwise."
)

SPEC = HarnessSpec(
    "roo",
    "Roo Code",
    verified=False,
    version="Roo-Code source cb83656 (2026-04-14)",
    home=home_folder(FOLDER),
    global_subfolders=(RULES, MODE_RULES),
    instruction_names=(LEGACY[0], f"{LEGACY[0]}-{MODE}", *AGENT_NAMES, LOCAL),
    looks_for=(".roo/rules", ".roorules", "AGENTS.md"),
    rule_files=(FolderFiles(f"{FOLDER}/{RULES}", "**/*"), FolderFiles(f"{FOLDER}/{MODE_RULES}", "**/*")),
    mode_folders=(f"{FOLDER}/{RULES}-*",),  # `loadRuleFiles`: `.roo/rules-<mode slug>/` of whichever mode is active
    own_names=frozenset({LEGACY[0], f"{LEGACY[0]}-{MODE}"}),
    # `.roomodes` (custom modes) and a mode's own rules file say Roo Code as surely as its folder.
    detection=Detection(
        names=(LEGACY[0], f"{LEGACY[0]}-{MODE}"), folders=(FOLDER,), root_folders=(FOLDER,), own_files=(FOLDER, ".roomodes")
    ),
    root_only=True,
    literal_imports=True,
)


def _is_rule_file(name: str) -> bool:
    return name != "Thumbs.db" and not name.endswith(CACHE_SUFFIXES)


class Roo(Harness):
    spec = SPEC
    reads_above_launch_directory = False

    def content_shape(self, data: FileData) -> Hashable:
        """Whether a file is readable and blank once trimmed (a blank legacy file gives way)."""
        return data.problem, not data.text().strip()

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        rules = []
        mode, mode_folder = self._folders(ctx, cascade, MODE_RULES)
        mode_legacy = self._legacy(ctx, cascade, [f"{name}-{MODE}" for name in LEGACY], mode_folder)
        if mode:
            rules.append(f"# Rules from {MODE_RULES} directories:\n\n{mode}")
        elif mode_legacy is not None:
            rules.append(f"# Rules from {mode_legacy[0]}:\n{mode_legacy[1]}")
        rules += self._agent_files(ctx, cascade)
        generic, generic_folder = self._folders(ctx, cascade, RULES)
        legacy = self._legacy(ctx, cascade, list(LEGACY), generic_folder)
        if generic:
            rules.append(f"# Rules from .roo directories:\n\n{generic}")
        elif legacy is not None:
            rules.append(f"# Rules from {legacy[0]}:\n{legacy[1]}")
        if rules:
            sections = f"{LANGUAGE}\n\nRules:\n\n" + "\n\n".join(rules)
            cascade.blocks.append(Block(Placement.SYSTEM, f"{HEADER}{sections}\n"))
        return cascade

    # -- rule folders -----------------------------------------------------------------------
    def _folders(self, ctx: LaunchContext, cascade: Cascade, name: str) -> tuple[str, str | None]:
        """The files of `~/.roo/<name>` then `<cwd>/.roo/<name>`, each folder's sorted by file
        name, and the first folder that gave one (None: none did)."""
        parts = []
        first: str | None = None
        for base, role in ((self.home_dir(ctx), Role.GLOBAL), (os.path.join(ctx.cwd, FOLDER), Role.RULE)):
            folder = os.path.join(base, name)
            if not ctx.fs.is_dir(folder):
                continue
            files = []
            for path in self._rule_files(ctx, cascade, folder):
                data = read_candidate(ctx.fs, cascade, path, role)
                if data is None:
                    continue
                cascade.files.append(Candidate(path, role, True, data.size))
                files.append(f"# Rules from {os.path.relpath(self._shown(ctx, folder, path), ctx.cwd)}:\n{data.text().strip()}")
            if files:
                parts.append("\n\n".join(files))
                first = first or folder
        return "\n\n".join(parts), first

    @staticmethod
    def _shown(ctx: LaunchContext, folder: str, path: str) -> str:
        """The path Roo names a file by: a symlinked file (or folder) by its target."""
        real, real_folder = ctx.fs.realpath(path), ctx.fs.realpath(folder)
        return os.path.join(folder, os.path.relpath(real, real_folder)) if is_within(real, real_folder) else real

    def _rule_files(self, ctx: LaunchContext, cascade: Cascade, folder: str) -> list[str]:
        paths, complete = files_below(ctx.fs, folder, limit=MAX_RULE_FILES, follow_symlinks=True)
        if not complete:
            cascade.warnings.append(f"warning: {folder}: more than {MAX_RULE_FILES} entries, the rest not read")
        kept = [p for p in paths if _is_rule_file(os.path.basename(p))]
        for path in paths:
            if path not in kept:
                cascade.files.append(skipped(ctx, path, Role.RULE, Reason.NOT_CONFIGURED))
        return sorted(kept, key=lambda p: locale_key(os.path.basename(p).lower()))

    def _legacy(self, ctx: LaunchContext, cascade: Cascade, names: list[str], folder: str | None) -> tuple[str, str] | None:
        """The first non-empty of `names` in cwd, as (name, trimmed text), unless the rules
        folder `folder` gave files; the others that exist are passed over."""
        search = NameSearch(ctx, cascade, Role.RULE, taken=folder)
        found: tuple[str, str] | None = None
        for name, path in search.candidates(ctx.cwd, names, ctx.fs.is_file):
            text = self._trimmed(ctx, cascade, path, Role.RULE)
            if text:
                search.taken, found = path, (name, text)
        return found

    def _agent_files(self, ctx: LaunchContext, cascade: Cascade) -> list[str]:
        """AGENTS.md, else AGENT.md (the first non-empty), then AGENTS.local.md."""
        texts = []
        search = NameSearch(ctx, cascade, Role.PROJECT)
        for name, path in search.candidates(ctx.cwd, AGENT_NAMES):
            if text := self._trimmed(ctx, cascade, path, Role.PROJECT):
                texts.append(f"# Agent Rules Standard ({name}):\n{text}")
                search.taken = path
        local = os.path.join(ctx.cwd, LOCAL)
        if ctx.fs.exists(local) and (text := self._trimmed(ctx, cascade, local, Role.LOCAL)):
            texts.append(f"# Agent Rules Local ({LOCAL}):\n{text}")
        return ["\n\n".join(texts)] if texts else []

    def _trimmed(self, ctx: LaunchContext, cascade: Cascade, path: str, role: Role) -> str:
        """The file's text trimmed, recorded as loaded, or as empty ("") or unreadable ("")."""
        data = read_candidate(ctx.fs, cascade, path, role)
        if data is None:
            return ""
        text = data.text().strip()
        cascade.files.append(Candidate(path, role, bool(text), data.size, None if text else Reason.EMPTY))
        return text
