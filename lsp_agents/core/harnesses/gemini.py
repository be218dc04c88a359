"""Gemini CLI: every `context.fileName` from cwd up to the boundary, sorted by path, imports inlined.

The global files (~/.gemini/<name>) go into the system instruction, the project files into the first
user turn. `$GEMINI_CLI_HOME` takes the home directory's place for `.gemini` and `.agents` (`homedir()`
in the core's paths module, which `Storage.getGlobalGeminiDir` and `Storage.getGlobalAgentsDir` join
them to; GD-91). Project files are deduplicated by inode and then sorted lexicographically by
absolute path (JavaScript's default sort), so a child directory can come before its parent.
On read, the JIT loader appends files found from the read file's directory up to the boundary.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from lsp_agents.core.config_files import get_path, load_jsonc
from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import Harness, LaunchContext, read_candidate, skipped
from lsp_agents.core.harnesses.gemini_imports import GeminiImports
from lsp_agents.core.harnesses.spec import ConfigFile, Detection, EnvDir, HarnessSpec, ImportDialect, Place, SkillNaming
from lsp_agents.core.imports import gemini_import_refs
from lsp_agents.core.model import Block, Candidate, Cascade, HarnessWarning, Placement, Reason, Role, WarningKind
from lsp_agents.core.text import js_trim, utf16_sort_key
from lsp_agents.core.walk import ancestors, beyond_boundary, find_marker_root

DEFAULT_FILE_NAME = "GEMINI.md"
DEFAULT_BOUNDARY_MARKERS = (".git",)
FOLDER = ".gemini"  # in the home directory and in the launch directory
SETTINGS_NAME = "settings.json"
TRUSTED_FOLDERS = "trustedFolders.json"
HOME_ENV = "GEMINI_CLI_HOME"  # Gemini CLI's home directory, when set and not empty

SPEC = HarnessSpec(
    "gemini",
    "Gemini CLI",
    verified=True,
    version="0.61.0",
    package="@google/gemini-cli",
    home=EnvDir(HOME_ENV, (), below=(FOLDER,)),
    global_folders=(EnvDir(HOME_ENV, (), below=(".agents",)),),  # skills
    global_files=(DEFAULT_FILE_NAME, TRUSTED_FOLDERS),
    global_subfolders=("skills",),
    instruction_names=(DEFAULT_FILE_NAME,),
    project_folders=(f"{FOLDER}/skills", ".agents/skills"),
    config_files=(ConfigFile(SETTINGS_NAME, Place.HOME_FOLDER), ConfigFile(f"{FOLDER}/{SETTINGS_NAME}", Place.ROOT)),
    invalid_config="exits without starting",
    detection=Detection(names=(DEFAULT_FILE_NAME,), folders=(FOLDER,), root_folders=(FOLDER,)),
    import_dialect=ImportDialect.GEMINI,
    skill_naming=SkillNaming.SANITISED,
)
REFUSAL = f"{SPEC.title} {SPEC.invalid_config}"


@dataclass(frozen=True, slots=True)
class GeminiSettings:
    file_names: tuple[str, ...]
    boundary_markers: tuple[str, ...]
    trusted: bool
    refused: bool = False  # a settings file does not parse: Gemini CLI exits before the first turn


def _names(value: object) -> tuple[str, ...] | None:
    if isinstance(value, str) and value:
        return (value,)
    if isinstance(value, list) and value and all(isinstance(v, str) and v for v in value):
        return tuple(dict.fromkeys(value))
    return None


def folder_trusted(ctx: LaunchContext, user_settings: dict[str, Any], trusted_folders: str) -> bool:
    """Folders count as trusted unless folder trust is on and no trust rule covers cwd (Gemini
    CLI's rule, which Qwen Code keeps)."""
    if get_path(user_settings, "security.folderTrust.enabled") is not True:
        return True
    rules = load_jsonc(ctx.fs, trusted_folders).values
    verdict = None
    for folder, level in sorted(rules.items(), key=lambda item: len(item[0])):
        base = folder if level != "TRUST_PARENT" else os.path.dirname(folder)
        if ctx.cwd == base or ctx.cwd.startswith(base.rstrip("/") + "/"):
            verdict = level in ("TRUST_FOLDER", "TRUST_PARENT")
    return bool(verdict)


def _render(path: str, content: str) -> str:
    return f"--- Context from: {path} ---\n{content}\n--- End of Context from: {path} ---"


class Gemini(Harness):
    spec = SPEC

    def settings(self, ctx: LaunchContext, cascade: Cascade) -> GeminiSettings:
        """User settings, then the workspace's .gemini/settings.json over them (if trusted)."""
        user = load_jsonc(ctx.fs, os.path.join(self.home_dir(ctx), SETTINGS_NAME))
        layers = [user]
        trusted = folder_trusted(ctx, user.values, os.path.join(self.home_dir(ctx), TRUSTED_FOLDERS))
        if trusted and ctx.fs.realpath(ctx.cwd) != ctx.fs.realpath(ctx.home):
            layers.append(load_jsonc(ctx.fs, os.path.join(ctx.cwd, FOLDER, SETTINGS_NAME)))
        file_names: tuple[str, ...] = (DEFAULT_FILE_NAME,)
        markers: tuple[str, ...] = DEFAULT_BOUNDARY_MARKERS
        refused = False
        for layer in layers:
            if layer.warning:
                line = layer.warning.replace("; using defaults", f"; {REFUSAL}")
                cascade.warnings.append(HarnessWarning(line, WarningKind.INVALID_CONFIG))
                refused = True
            file_names = _names(get_path(layer.values, "context.fileName")) or file_names
            configured = get_path(layer.values, "context.memoryBoundaryMarkers")
            if isinstance(configured, list) and all(isinstance(m, str) for m in configured):
                markers = tuple(configured)
        if ctx.options.gemini.file_names:
            file_names = tuple(ctx.options.gemini.file_names)
        # The captures show GEMINI.md loading even when the configured list leaves it out.
        file_names = tuple(dict.fromkeys((*file_names, DEFAULT_FILE_NAME)))
        return GeminiSettings(file_names, markers, trusted, refused)

    def ceiling(self, ctx: LaunchContext, settings: GeminiSettings) -> str:
        if not settings.boundary_markers:
            return ctx.cwd
        return find_marker_root(ctx.fs, ctx.cwd, settings.boundary_markers) or ctx.cwd

    def looks_for(self, ctx: LaunchContext) -> tuple[str, ...]:
        return tuple(self.settings(ctx, Cascade(self.id, ctx.cwd)).file_names)

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        """The context file names, and `.gemini` (the launch directory's settings choose them);
        None when the settings name boundary markers of their own (any file may be one)."""
        settings = self.settings(ctx, Cascade(self.id, ctx.cwd))
        if settings.boundary_markers != DEFAULT_BOUNDARY_MARKERS:
            return None
        return frozenset({FOLDER, *(n.lower() for n in settings.file_names)})

    def content_shape(self, data: FileData) -> Hashable | None:
        """A file's `@` imports, and whether it is blank (a file with imports never is: each
        expands between markers)."""
        if data.problem:
            return None
        text = data.text()
        refs = tuple(ref.path for ref in gemini_import_refs(text))
        return refs, not refs and not js_trim(text)

    # -- eager ------------------------------------------------------------------------------
    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        settings = self.settings(ctx, cascade)
        if settings.refused:  # "Please fix the configuration file(s) and try again."
            return cascade
        home = self.home_dir(ctx)
        global_paths = [os.path.join(home, n) for n in settings.file_names if ctx.fs.exists(os.path.join(home, n))]
        global_parts = self._load_all(ctx, settings, global_paths, Role.GLOBAL, cascade)
        if global_parts:
            cascade.blocks.append(
                Block(Placement.SYSTEM, "<loaded_context>\n" + "\n\n".join(global_parts) + "\n</loaded_context>")
            )
        # Gemini reads each file once: a project file that is a global file under another name is dropped.
        global_ids = {ctx.fs.identity(c.path) for c in cascade.files if c.role == Role.GLOBAL} - {None}
        project_paths = self._project_paths(ctx, settings, cascade, global_ids)
        project_parts = self._load_all(ctx, settings, project_paths, Role.PROJECT, cascade)
        if project_parts:
            body = "\n\n".join(project_parts)
            text = f"<loaded_context>\n<project_context>\n{body}\n</project_context>\n</loaded_context>"
            cascade.blocks.append(Block(Placement.USER, text))
        return cascade

    def _project_paths(
        self, ctx: LaunchContext, settings: GeminiSettings, cascade: Cascade, global_ids: set[tuple[int, int] | None]
    ) -> list[str]:
        stop_at = self.home_dir(ctx)
        ceiling = self.ceiling(ctx, settings)
        cascade.files += [
            skipped(ctx, p, Role.PROJECT, Reason.OUTSIDE_BOUNDARY)
            for p in beyond_boundary(ctx.fs, ceiling, settings.file_names)
            if not p.startswith(stop_at + os.sep)
        ]
        found: list[str] = []
        for directory in ancestors(ctx.cwd, ceiling):
            if directory == stop_at:
                break
            # Root first: of two paths to one file, the outer one is kept.
            found[:0] = [os.path.join(directory, n) for n in settings.file_names if ctx.fs.exists(os.path.join(directory, n))]
        if not settings.trusted:
            cascade.files += [skipped(ctx, p, Role.PROJECT, Reason.UNTRUSTED_FOLDER) for p in found]
            return []
        return self._unique_sorted(ctx, found, cascade, global_ids)

    def _unique_sorted(
        self, ctx: LaunchContext, paths: Sequence[str], cascade: Cascade, seen: set[tuple[int, int] | None]
    ) -> list[str]:
        """Paths to distinct files (a global file's inode counts as seen), sorted."""
        seen = set(seen)
        unique = []
        for path in paths:
            identity = ctx.fs.identity(path)
            if identity in seen:
                cascade.files.append(skipped(ctx, path, Role.PROJECT, Reason.DUPLICATE_PATH))
                continue
            seen.add(identity)
            unique.append(path)
        return sorted(unique, key=utf16_sort_key)

    def _load_all(
        self, ctx: LaunchContext, settings: GeminiSettings, paths: Sequence[str], role: Role, cascade: Cascade
    ) -> list[str]:
        parts = []
        for path in paths:
            data = read_candidate(ctx.fs, cascade, path, role)
            if data is None:
                continue
            candidate = Candidate(path, role, True, data.size)
            cascade.files.append(candidate)  # before its imports: the importer comes first
            root = self._import_root(ctx, settings, os.path.dirname(path))
            content = js_trim(GeminiImports(ctx.fs, cascade, root).expand(data.text(), path))
            if not content:
                candidate.loaded, candidate.reason = False, Reason.EMPTY
                continue
            parts.append(_render(path, content))
        return parts

    def _import_root(self, ctx: LaunchContext, settings: GeminiSettings, directory: str) -> str:
        if not settings.boundary_markers:
            return directory
        return find_marker_root(ctx.fs, directory, settings.boundary_markers) or directory

    # -- on read (JIT) ----------------------------------------------------------------------
    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        settings = self.settings(ctx, cascade)
        target = ctx.fs.realpath(target)  # the JIT loader walks up from the resolved path
        if settings.refused or not settings.trusted or not (target == ctx.cwd or target.startswith(ctx.cwd.rstrip("/") + "/")):
            return cascade
        eager = self.eager(ctx)
        known = {ctx.fs.identity(c.path) for c in eager.loaded} | {ctx.fs.identity(p) for p in loaded}
        found = []
        # Directories root first, names in configured order: the JIT loader does not sort.
        for directory in reversed(ancestors(os.path.dirname(target), self.ceiling(ctx, settings))):
            for name in settings.file_names:
                path = os.path.join(directory, name)
                if not ctx.fs.is_file(path):
                    continue
                identity = ctx.fs.identity(path)
                if identity in known:
                    cascade.files.append(skipped(ctx, path, Role.PROJECT, Reason.ALREADY_LOADED))
                else:
                    known.add(identity)
                    found.append(path)
        parts = self._load_all(ctx, settings, found, Role.PROJECT, cascade)
        if parts:
            text = "--- Newly Discovered Project Context ---\n" + "\n\n".join(parts) + "\n--- End Project Context ---"
            cascade.blocks.append(Block(Placement.TOOL_RESULT, text))
        return cascade
