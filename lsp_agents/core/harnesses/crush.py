"""Crush: the context files of the launch directory, and the user's, in an order that changes from
run to run.

Verified: captured from Crush built from its source (github.com/charmbracelet/crush, commit 37f36e9
of 2026-08-21, v0.90.0 + 5 commits; tests/conformance/FINDINGS.md, "Crush"), the npm package
(`@charmland/crush`) holding no program. The rules follow that source (`defaultContextPaths` in
internal/config/config.go, `setDefaults`, `lookupConfigs` and `loadFromConfigPaths` in
internal/config/load.go, `loadContextFiles` and `processContextPath` in
internal/agent/prompt/prompt.go, the `coder.md.tpl` template), each confirmed by the captures
`crush-*`:
- The context paths are sixteen names (`.github/copilot-instructions.md`, `.cursorrules`,
  `.cursor/rules/`, CLAUDE.md, CLAUDE.local.md, GEMINI.md, CRUSH.md, CRUSH.local.md, AGENTS.md
  and their other spellings) plus the `options.context_paths` of the config files, sorted and
  without repeats. Each is taken from the launch directory unless absolute (`~` is the home
  directory, `$NAME` its value); nothing is read above it.
- A path whose lower-case spelling came earlier in that order is passed over, found or not: of
  AGENTS.md, Agents.md and agents.md only AGENTS.md is tried, so on a case-sensitive disk a file
  named agents.md (or Agents.md, crush.md, gemini.md) is never read.
- A folder gives every file below it in name order; a file goes in whole, as it is on disk.
- The files go out in the order of a Go map, which changes from run to run: the model shows them
  in path order.
- They end the system prompt under `# Project-Specific Context` in `<project_context>`, one
  `<file path="…">` element each; the user's files (`CRUSH.md` beside the user config, `AGENTS.md`
  in the config folder above it, or the config's `options.global_context_paths`) under
  `# User context` in `<user_preferences>`.
- A config file that is not strict JSON (a comment, a trailing comma) stops Crush: nothing is sent.
- Nothing is added when the agent reads a file.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Hashable, Iterable

from lsp_agents.core.config_files import get_path, load_jsonc
from lsp_agents.core.fs import FileData, FileSystem
from lsp_agents.core.harnesses.base import Harness, LaunchContext, read_candidate, skipped
from lsp_agents.core.harnesses.spec import Detection, EnvDir, HarnessSpec
from lsp_agents.core.model import Block, Candidate, Cascade, HarnessWarning, Placement, Reason, Role, WarningKind
from lsp_agents.core.walk import ancestors, find_marker_root

CONTEXT_PATHS = (
    ".github/copilot-instructions.md",
    ".cursorrules",
    ".cursor/rules/",
    "CLAUDE.md",
    "CLAUDE.local.md",
    "GEMINI.md",
    "gemini.md",
    "crush.md",
    "crush.local.md",
    "Crush.md",
    "Crush.local.md",
    "CRUSH.md",
    "CRUSH.local.md",
    "AGENTS.md",
    "agents.md",
    "Agents.md",
)
# The config files of a project directory, the later ones winning (`lookupConfigs`); `.crushrc`
# and `crushrc` are Bash scripts Crush runs for their output: never run here, so never read.
PROJECT_CONFIGS = ("crush.json", ".crush.json")
MAX_FOLDER_FILES = 1000  # files taken from one context folder: workspace content is untrusted
PROJECT_HEADER = "# Project-Specific Context\nMake sure to follow the instructions in the context below.\n<project_context>\n"
USER_HEADER = (
    "# User context\nThe following is personal content added by the user that they'd like you to follow "
    "no matter what project you're working in.\n<user_preferences>\n"
)
_VARIABLE = re.compile(r"^\$(?:\{(\w+)\}|(\w+))")

SPEC = HarnessSpec(
    "crush",
    "Crush",
    verified=True,
    version="0.90.0-5-g37f36e9",  # built from source at 37f36e9 (FINDINGS.md "Crush")
    package="@charmland/crush",
    home=EnvDir("XDG_CONFIG_HOME", (".config",), ("crush",)),
    global_files=("CRUSH.md",),
    instruction_names=("CRUSH.md", "CRUSH.local.md"),
    looks_for=("CRUSH.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md"),
    own_names=frozenset({"CRUSH.md", "CRUSH.local.md"}),
    # Not `.cursor/rules/**`: Crush reads every file there, but the folder is Cursor's; a file
    # only Crush would read is not one to find and report in a workspace that does not use it.
    detection=Detection(names=("CRUSH.md",), own_files=("crush.json", ".crush.json", ".crush")),
    literal_imports=True,
    invalid_config="exits without starting",
)
REFUSAL = f"{SPEC.title} {SPEC.invalid_config}"


class Crush(Harness):
    spec = SPEC
    reads_above_launch_directory = False

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return None  # `options.context_paths` may name anything

    def content_shape(self, data: FileData) -> Hashable:
        """Crush takes every readable file whole: only readability counts."""
        return (data.problem,)

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        for path, problem in _invalid_configs(ctx.fs, self._configs(ctx)):
            cascade.warnings.append(HarnessWarning(f"warning: {path}: {problem}; {REFUSAL}", WarningKind.INVALID_CONFIG))
        if cascade.warnings:
            return cascade
        context_paths = self._context_paths(ctx)
        project = self._load(ctx, cascade, context_paths, Role.PROJECT)
        user = self._load(ctx, cascade, self._global_paths(ctx), Role.GLOBAL)
        for path, spelling in _passed_over(ctx, context_paths):
            cascade.files.append(skipped(ctx, path, Role.PROJECT, Reason.NOT_CONFIGURED, spelling))
        if project:
            cascade.blocks.append(Block(Placement.SYSTEM, _render(PROJECT_HEADER, project, "\n</project_context>")))
        if user:
            cascade.blocks.append(Block(Placement.SYSTEM, _render(USER_HEADER, user, "\n</user_preferences>")))
        return cascade

    # -- which paths ------------------------------------------------------------------------
    def _configs(self, ctx: LaunchContext) -> list[str]:
        """The JSON config files Crush merges, in order: the user's, then the project's from the
        git work tree's root (or the launch directory alone) down."""
        user_config = os.path.join(ctx.env.get("CRUSH_GLOBAL_CONFIG") or self.home_dir(ctx), "crush.json")
        data_home = ctx.env.get("XDG_DATA_HOME") or os.path.join(ctx.home, ".local", "share")
        data_config = os.path.join(ctx.env.get("CRUSH_GLOBAL_DATA") or os.path.join(data_home, "crush"), "crush.json")
        boundary = find_marker_root(ctx.fs, ctx.cwd, [".git"]) or ctx.cwd
        project = [os.path.join(d, name) for d in reversed(ancestors(ctx.cwd, boundary)) for name in PROJECT_CONFIGS]
        return [user_config, data_config, *project]

    def _option(self, ctx: LaunchContext, key: str) -> list[str]:
        """A list option of every config file, joined (Crush merges its configs key by key)."""
        values: list[str] = []
        for path in self._configs(ctx):
            value = get_path(load_jsonc(ctx.fs, path).values, f"options.{key}")
            if isinstance(value, list):
                values += [v for v in value if isinstance(v, str)]
        return values

    def _context_paths(self, ctx: LaunchContext) -> list[str]:
        return _unique(self._expand(ctx, p) for p in sorted({*CONTEXT_PATHS, *self._option(ctx, "context_paths")}))

    def _global_paths(self, ctx: LaunchContext) -> list[str]:
        configured = self._option(ctx, "global_context_paths")
        if not configured:
            config_dir = self.home_dir(ctx)
            configured = [os.path.join(config_dir, "CRUSH.md"), os.path.join(os.path.dirname(config_dir), "AGENTS.md")]
        return _unique(self._expand(ctx, p) for p in sorted(set(configured)))

    def _expand(self, ctx: LaunchContext, path: str) -> str:
        """`expandPath`: a leading `~` is the home directory, a leading `$NAME` its value."""
        if path == "~" or path.startswith("~/"):
            return ctx.home + path[1:]
        match = _VARIABLE.match(path)
        if match and (value := ctx.env.get(match.group(1) or match.group(2))):
            return value + path[match.end() :]
        return path

    # -- what is read -----------------------------------------------------------------------
    def _load(self, ctx: LaunchContext, cascade: Cascade, paths: Iterable[str], role: Role) -> list[tuple[str, str]]:
        files: list[tuple[str, str]] = []
        for path in paths:
            full = path if os.path.isabs(path) else os.path.normpath(os.path.join(ctx.cwd, path))
            if ctx.fs.is_dir(full):
                for file in _folder_files(ctx, full):
                    files += self._read(ctx, cascade, file, role)
            elif ctx.fs.exists(full):
                files += self._read(ctx, cascade, full, role)
        return files

    def _read(self, ctx: LaunchContext, cascade: Cascade, path: str, role: Role) -> list[tuple[str, str]]:
        data = read_candidate(ctx.fs, cascade, path, role)
        if data is None:
            return []
        cascade.files.append(Candidate(path, role, True, data.size))
        return [(path, data.text())]


def _invalid_configs(fs: FileSystem, paths: list[str]) -> list[tuple[str, str]]:
    """`loadFromConfigPaths`: a config file that cannot be read, or is not strict JSON (`json.Valid`:
    no comments, no trailing commas), stops Crush before its first request; an empty one is skipped."""
    found = []
    for path in paths:
        data = fs.read(path) if fs.exists(path) else None
        if data is None or data.data == b"" or data.problem == Reason.TOO_LARGE:  # too large: not all of it is here
            continue
        if data.data is None:
            found.append((path, "cannot be read"))
            continue
        try:
            json.loads(data.data.decode("utf-8", "surrogateescape"), parse_constant=_not_json)
        except ValueError as exc:
            found.append((path, f"invalid JSON: {exc}"))
    return found


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _passed_over(ctx: LaunchContext, context_paths: list[str]) -> list[tuple[str, str]]:
    """The files of the launch directory named by a context path that `_unique` passes over
    (`agents.md` after `AGENTS.md`), with the spelling tried instead."""
    tried = {p.lower(): p for p in context_paths}
    passed = []
    for name in sorted(set(CONTEXT_PATHS) - set(tried.values())):
        path = os.path.join(ctx.cwd, name)
        if ctx.fs.exists(path) and name in ctx.fs.list_dir(ctx.cwd):  # this spelling, on a case-sensitive disk
            passed.append((path, os.path.join(ctx.cwd, tried[name.lower()])))
    return passed


def _unique(paths: Iterable[str]) -> list[str]:
    """`loadContextFiles`: a path whose lower-case spelling came before is passed over."""
    seen: set[str] = set()
    kept = []
    for path in paths:
        if path.lower() not in seen:
            seen.add(path.lower())
            kept.append(path)
    return kept


def _folder_files(ctx: LaunchContext, folder: str, budget: list[int] | None = None) -> list[str]:
    """`filepath.WalkDir`: every entry below `folder` that is not a folder, in name order, a
    folder's entries where it stands (a symlinked folder is not entered); at most
    MAX_FOLDER_FILES entries are looked at."""
    budget = [MAX_FOLDER_FILES] if budget is None else budget
    found: list[str] = []
    for name in sorted(ctx.fs.list_dir(folder)):
        budget[0] -= 1
        if budget[0] < 0:
            break
        path = os.path.join(folder, name)
        if ctx.fs.is_dir(path) and not ctx.fs.is_link(path):
            found += _folder_files(ctx, path, budget)
        else:
            found.append(path)
    return found


def _render(header: str, files: list[tuple[str, str]], end: str) -> str:
    return header + "".join(f'\n<file path="{path}">\n{text}\n</file>\n' for path, text in files) + end
