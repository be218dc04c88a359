"""opencode: AGENTS.md > CLAUDE.md > CONTEXT.md, nearest first, plus config `instructions`.

Eagerly the first file *name* that matches anywhere from cwd up to the git worktree wins, and
every ancestor with that name stacks (nearest first). The read tool then walks from the read
file's directory up to (not including) cwd, taking the first name per directory.

Forks keep these rules and change names: the config directory and files are the spec's (`SPEC`,
which a fork copies with its differences), the rest of what tells them apart is a `Flavor`, and a
fork adds its own instruction sources through `extra_paths`.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from lsp_agents.core import config_files as configs
from lsp_agents.core.fs import FileData
from lsp_agents.core.globs import GlobError, scan
from lsp_agents.core.harnesses.base import Harness, LaunchContext, read_candidate, skipped
from lsp_agents.core.harnesses.remote import fetch_remote
from lsp_agents.core.harnesses.spec import (
    ConfigFile,
    DefinitionRivals,
    Detection,
    EnvDir,
    HarnessSpec,
    LegacyName,
    Place,
    home_folder,
)
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.patterns import MAX_LIST_PATTERNS, cap
from lsp_agents.core.walk import ancestors, beyond_boundary, find_marker_root, is_within

PROJECT_NAMES = ("AGENTS.md", "CLAUDE.md", "CONTEXT.md")
GLOBAL_CONFIG_NAMES = ("config.json", "opencode.json", "opencode.jsonc")  # in this order
PROJECT_CONFIG_NAMES = ("opencode.jsonc", "opencode.json")
# The longest `{env:…}` / `{file:…}` reference taken as one. The CLIs match `[^}]+`; here a reference
# holds no `{` either and is bounded, so that matching untrusted text stays linear (a scan from each
# `{env:` stops at the next brace; no variable name or path holds a brace or is that long).
REFERENCE_CHARS = 1024


def config_files(global_names: tuple[str, ...], project_names: tuple[str, ...]) -> tuple[ConfigFile, ...]:
    """The config files of opencode or a fork: `global_names` in its config directory, then
    `project_names` in every directory from the worktree down to cwd."""
    return (
        *(ConfigFile(name, Place.HOME_FOLDER) for name in global_names),
        *(ConfigFile(name, Place.ANY_DIRECTORY) for name in project_names),
    )


SPEC = HarnessSpec(
    "opencode",
    "opencode",
    verified=True,
    version="1.18.33",
    package="opencode-ai",
    home=EnvDir("XDG_CONFIG_HOME", (".config",), below=("opencode",)),
    global_folders=(EnvDir("OPENCODE_CONFIG_DIR", None), home_folder(".claude"), home_folder(".agents")),
    global_files=("AGENTS.md", "CLAUDE.md"),
    global_subfolders=("agent", "agents", "command", "commands", "mode", "modes", "skill", "skills"),
    instruction_names=PROJECT_NAMES,
    looks_for=PROJECT_NAMES,
    project_folders=(".opencode", ".agents/skills", ".claude/skills"),
    own_names=frozenset({"AGENTS.md"}),  # CLAUDE.md and CONTEXT.md are read for compatibility only
    config_files=config_files(GLOBAL_CONFIG_NAMES, PROJECT_CONFIG_NAMES),
    # Its own folder or config, in the repository or the user's home: AGENTS.md alone is every
    # AGENTS.md reader's file, no sign that opencode is the one in use.
    detection=Detection(folders=(".opencode",), own_files=(".opencode", *PROJECT_CONFIG_NAMES, ".config/opencode")),
    literal_imports=True,
    legacy_names=(
        LegacyName("CONTEXT.md", "opencode's deprecated name; opencode prefers AGENTS.md and CLAUDE.md over it", "AGENTS.md"),
    ),
    definition_rivals=DefinitionRivals.KEEPS_LAST_READ,
)


@dataclass(frozen=True, slots=True)
class Flavor:
    """What tells opencode and its forks apart besides their spec."""

    env: str  # prefix of the environment flags (`<env>_DISABLE_PROJECT_CONFIG`, …)
    strip_bom: bool  # opencode's reader drops a byte-order mark
    config_dir_env: str | None = None  # a directory whose AGENTS.md comes before the default global one
    read_real_path: bool = False  # the read tool resolves symlinks in the read file's path
    # A file read without trust must lie in the project's scope (Kilo: see Opencode._out_of_scope).
    scoped_reads: bool = False
    names: tuple[str, ...] = PROJECT_NAMES  # the project file names, the first found winning
    claude_global: bool = True  # ~/.claude/CLAUDE.md after the config directory's AGENTS.md
    separator: str = "\n"  # between the instruction elements of the system prompt
    keeps_empty: bool = False  # an empty file is sent (its header alone) rather than dropped


OPENCODE = Flavor("OPENCODE", strip_bom=True)


@dataclass(frozen=True, slots=True)
class _Setup:
    """What opencode derives from the context before it looks for instruction files."""

    config_dir: str
    worktree: str
    scope: str  # the folder a file read without trust must lie in: the worktree, cwd when that is `/`
    names: tuple[str, ...]
    global_files: tuple[str, ...]
    project_disabled: bool
    claude_disabled: bool


@dataclass(frozen=True, slots=True)
class _Instructions:
    """The config layers' `instructions`, and those a user config names."""

    patterns: list[str]
    from_user: frozenset[str]

    def trusted(self, pattern: str, project_disabled: bool) -> bool:
        """Whether Kilo reads the files of `pattern` without a scope: a user config's absolute or `~/`
        pattern, or any of its patterns when project config is off (`Instruction.systemSources`:
        `a.trusted&&(isAbsolute(b)||KILO_DISABLE_PROJECT_CONFIG)`, the origin trusted when a config
        outside the project names it: `Config.loadInstanceState`, `containsPath`)."""
        absolute = pattern.startswith("~/") or os.path.isabs(pattern)
        return pattern in self.from_user and (absolute or project_disabled)


def _element(path: str, content: str) -> str:
    return f"Instructions from: {path}\n{content}"


class Opencode(Harness):
    spec = SPEC
    flavor = OPENCODE

    def _setup(self, ctx: LaunchContext) -> _Setup:
        prefix = self.flavor.env
        claude_disabled = ctx.env_flag(f"{prefix}_DISABLE_CLAUDE_CODE_PROMPT") or ctx.env_flag(f"{prefix}_DISABLE_CLAUDE_CODE")
        config_dir = self.home_dir(ctx)
        global_files: tuple[str, ...] = (os.path.join(config_dir, "AGENTS.md"),)
        extra_dir = ctx.env.get(self.flavor.config_dir_env) if self.flavor.config_dir_env else None
        if extra_dir:
            global_files = (os.path.join(extra_dir, "AGENTS.md"), *global_files)
        if self.flavor.claude_global and not claude_disabled:
            global_files += (ctx.home_path(".claude", "CLAUDE.md"),)
        names = tuple(n for n in self.flavor.names if not (claude_disabled and n == "CLAUDE.md"))
        worktree = self.walk_top(ctx)
        return _Setup(
            config_dir=config_dir,
            worktree=worktree,
            scope=ctx.cwd if worktree == os.sep else worktree,
            names=names,
            global_files=global_files,
            project_disabled=ctx.env_flag(f"{prefix}_DISABLE_PROJECT_CONFIG"),
            claude_disabled=claude_disabled,
        )

    def walk_top(self, ctx: LaunchContext) -> str:
        """The directory the walk up from cwd stops at (included): the git worktree, else `/`."""
        return find_marker_root(ctx.fs, ctx.cwd, [".git"]) or os.sep

    # -- eager ------------------------------------------------------------------------------
    def load_eager(self, ctx: LaunchContext) -> Cascade:
        setup = self._setup(ctx)
        cascade = Cascade(self.id, ctx.cwd)
        paths: list[tuple[str, Role]] = []
        paths += self._global_paths(ctx, setup, cascade)
        if not setup.project_disabled:
            paths += self._project_paths(ctx, setup, cascade)
        paths += self.extra_paths(ctx, cascade)
        instructions = self._config_instructions(ctx, setup, cascade)
        urls = [i for i in instructions.patterns if i.startswith(("http://", "https://"))]
        config = self._config_paths(ctx, setup, [i for i in instructions.patterns if i not in urls], cascade)
        paths += [(path, Role.CONFIG) for path, _ in config]
        trusted = {os.path.normpath(path) for path, role in paths if role == Role.GLOBAL}
        trusted |= {os.path.normpath(path) for path, pattern in config if instructions.trusted(pattern, setup.project_disabled)}

        elements = []
        seen: set[str] = set()
        for path, role in paths:
            resolved = os.path.normpath(path)
            if resolved in seen:
                cascade.files.append(skipped(ctx, resolved, role, Reason.DUPLICATE_PATH))
                continue
            seen.add(resolved)
            scope = None if resolved in trusted else setup.scope
            if scope and self._out_of_scope(ctx, scope, resolved, role):
                cascade.files.append(skipped(ctx, resolved, role, Reason.OUTSIDE_BOUNDARY))
                continue
            elements += self._load(ctx, resolved, role, cascade, scope)
        for url in urls:
            elements += self._load_remote(ctx, url, cascade)
        if elements:
            cascade.blocks.append(Block(Placement.SYSTEM, self.flavor.separator.join(elements)))
        return cascade

    def extra_paths(self, ctx: LaunchContext, cascade: Cascade) -> list[tuple[str, Role]]:
        """Instruction files a fork adds before the config's `instructions` (none in opencode)."""
        return []

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        return frozenset(n.lower() for n in (*self.flavor.names, *self.spec.config_names(Place.ANY_DIRECTORY)))

    def content_shape(self, data: FileData) -> Hashable:
        """`_load` reads a file's content only to drop it when empty."""
        return data.problem, not data.text(strip_bom=self.flavor.strip_bom)

    def _load(self, ctx: LaunchContext, path: str, role: Role, cascade: Cascade, scope: str | None) -> list[str]:
        """The file's element; `scope` is the folder it is read within (None: trusted)."""
        data = read_candidate(ctx.fs, cascade, path, role)
        if data is None:
            return []
        content = self.substitute(ctx, path, data.text(strip_bom=self.flavor.strip_bom), scope)
        if content is None:
            cascade.files.append(Candidate(path, role, False, data.size, Reason.SUBSTITUTION_REFUSED))
            return []
        if not content and not self.flavor.keeps_empty:  # opencode drops a file whose text is empty
            cascade.files.append(Candidate(path, role, False, data.size, Reason.EMPTY))
            return []
        cascade.files.append(Candidate(path, role, True, data.size))
        return [_element(path, content)]

    def _out_of_scope(self, ctx: LaunchContext, scope: str, path: str, role: Role) -> bool:
        """Whether a fork refuses a file it reads without trust, whose real path leaves the project's
        scope. Kilo 7.7.7 reads the project files, the config's `instructions` and the files found
        on a read (`Instruction.systemSources`, `Instruction.resolve`) with a `fileScope` whose root
        is the worktree, or the launch directory when the worktree is `/` (no git: `Project.fromDirectory`),
        and its reader (the bundle's `kuH.read`) throws "blocked file reference outside project config
        scope" when the opened file's real path (`realpathSync.native` of /proc/self/fd/N) is not
        inside the root's; the loader takes the error as an empty text and drops the file. So without
        git the walk up to `/` finds the parents' files, which shadow cwd's of a later name, and sends
        none of them. The same holds for the rule files it finds in the launch directory
        (`discoverRules`: a legacy `.kilocoderules` linked out of the worktree is dropped; seed 9104 of
        the generator). Only the global files, and the absolute (or `~/`) instructions of a user config,
        `$KILO_CONFIG` or `$KILO_CONFIG_CONTENT`, are trusted (see `_Instructions.trusted`, `_config_layers`)."""
        if not self.flavor.scoped_reads or role not in (Role.PROJECT, Role.RULE, Role.CONFIG):
            return False
        return not is_within(ctx.fs.realpath(path), ctx.fs.realpath(scope))

    def substitute(self, ctx: LaunchContext, path: str, content: str, scope: str | None) -> str | None:
        """The text a fork sends for a file's content (None: the file is dropped), read within `scope`
        (None: trusted); opencode sends it as is."""
        return content

    def _load_remote(self, ctx: LaunchContext, url: str, cascade: Cascade) -> list[str]:
        if not ctx.options.fetch_remote_instructions:
            cascade.files.append(Candidate(url, Role.REMOTE, False, reason=Reason.REMOTE_NOT_FETCHED))
            return []
        content = fetch_remote(url)
        if not content:
            cascade.files.append(Candidate(url, Role.REMOTE, False, reason=Reason.REMOTE_FAILED))
            return []
        cascade.files.append(Candidate(url, Role.REMOTE, True, len(content.encode("utf-8"))))
        return [_element(url, content)]

    def _global_paths(self, ctx: LaunchContext, setup: _Setup, cascade: Cascade) -> list[tuple[str, Role]]:
        existing = [p for p in setup.global_files if ctx.fs.exists(p)]
        for path in existing[1:]:
            cascade.files.append(skipped(ctx, path, Role.GLOBAL, Reason.GLOBAL_SHADOWED, existing[0]))
        claude_global = ctx.home_path(".claude", "CLAUDE.md")
        if self.flavor.claude_global and setup.claude_disabled and ctx.fs.exists(claude_global):
            cascade.files.append(skipped(ctx, claude_global, Role.GLOBAL, Reason.DISABLED))
        return [(existing[0], Role.GLOBAL)] if existing else []

    def _project_paths(self, ctx: LaunchContext, setup: _Setup, cascade: Cascade) -> list[tuple[str, Role]]:
        chain = ancestors(ctx.cwd, setup.worktree)
        cascade.files += [
            skipped(ctx, p, Role.PROJECT, Reason.OUTSIDE_BOUNDARY) for p in beyond_boundary(ctx.fs, setup.worktree, setup.names)
        ]
        winner: list[str] = []
        for name in self.flavor.names:
            matches = [os.path.join(d, name) for d in chain if ctx.fs.exists(os.path.join(d, name))]
            if not matches:
                continue
            if name not in setup.names:
                cascade.files += [skipped(ctx, m, Role.PROJECT, Reason.DISABLED) for m in matches]
            elif not winner:
                winner = matches
            else:
                cascade.files += [skipped(ctx, m, Role.PROJECT, Reason.FAMILY_SHADOWED, winner[0]) for m in matches]
        return [(m, Role.PROJECT) for m in winner]

    def _config_instructions(self, ctx: LaunchContext, setup: _Setup, cascade: Cascade) -> _Instructions:
        """`instructions` of every config layer, concatenated and deduplicated, in opencode's order."""
        merged: list[str] = []
        from_user: set[str] = set()
        for config, users in self._config_layers(ctx, setup):
            if config.warning:
                cascade.warnings.append(config.warning)
            entries = config.values.get("instructions")
            if isinstance(entries, list):
                named = [e for e in entries if isinstance(e, str)]
                merged += [e for e in named if e not in merged]
                if users:
                    from_user.update(named)
        capped = cap(merged, MAX_LIST_PATTERNS, keep_long=True)  # a long one is reported by the scan
        if capped.ignored:
            cascade.warnings.append(f"warning: {self.id} instructions: {capped.ignored}")
        return _Instructions(list(capped.patterns), frozenset(from_user))

    def _config_layers(self, ctx: LaunchContext, setup: _Setup) -> list[tuple[configs.ConfigFile, bool]]:
        """The config layers in `Config.loadInstanceState`'s order, each with whether its origin is
        trusted as the user's: the user's files, the file `$<FLAVOR>_CONFIG` names (relative to cwd),
        the project's files from the worktree down, the JSON `$<FLAVOR>_CONFIG_CONTENT` holds. Kilo
        trusts the last two layers wherever the file lies (`HH(ME.KILO_CONFIG, …, void 0, !0)` and
        `HH("KILO_CONFIG_CONTENT", …, "local", !0)`), and an instruction a trusted layer names stays
        trusted when an untrusted one names it too (GD-50)."""
        prefix = self.flavor.env
        files = [(os.path.join(setup.config_dir, n), True) for n in self.spec.config_names(Place.HOME_FOLDER)]
        if ctx.env.get(f"{prefix}_CONFIG"):
            files.append((os.path.normpath(os.path.join(ctx.cwd, ctx.env[f"{prefix}_CONFIG"])), True))
        if not setup.project_disabled:
            chain = ancestors(ctx.cwd, setup.worktree)
            for name in self.spec.config_names(Place.ANY_DIRECTORY):
                files += [(os.path.join(d, name), False) for d in reversed(chain)]
        layers = [(configs.load_jsonc(ctx.fs, path), users) for path, users in files]
        content = ctx.env.get(f"{prefix}_CONFIG_CONTENT")
        if content:
            layers.append((configs.parse_jsonc(content, f"${prefix}_CONFIG_CONTENT"), True))
        return layers

    def _config_paths(
        self, ctx: LaunchContext, setup: _Setup, instructions: Sequence[str], cascade: Cascade
    ) -> list[tuple[str, str]]:
        """The files the instructions match, each with the instruction that names it."""
        found: list[tuple[str, str]] = []
        for instruction in instructions:
            pattern = ctx.home_path(instruction[2:]) if instruction.startswith("~/") else instruction
            if os.path.isabs(pattern):
                bases = [os.path.dirname(pattern)]
                pattern = os.path.basename(pattern)
            elif setup.project_disabled:
                bases = [setup.config_dir]
            else:
                bases = ancestors(ctx.cwd, setup.worktree)
            try:
                matches = [m for base in bases for m in scan(ctx.fs, base, pattern, reverse_listing=True)]
            except GlobError as exc:
                cascade.files.append(Candidate(instruction, Role.CONFIG, False, reason=Reason.GLOB_NOT_EVALUABLE))
                cascade.warnings.append(f"warning: opencode instruction {instruction!r} not evaluated: {exc}")
                continue
            if not matches:
                cascade.files.append(Candidate(instruction, Role.CONFIG, False, reason=Reason.GLOB_NO_MATCH))
            found += [(m, instruction) for m in matches]
        return found

    # -- on read ----------------------------------------------------------------------------
    def on_read(self, ctx: LaunchContext, target: str, loaded: Sequence[str] = (), earlier: Sequence[str] = ()) -> Cascade:
        setup = self._setup(ctx)
        cascade = Cascade(self.id, ctx.cwd)
        system = {c.path for c in self.eager(ctx).loaded}
        already = {os.path.normpath(p) for p in loaded}
        root = ctx.cwd
        elements = []
        if self.flavor.read_real_path:
            target = ctx.fs.realpath(target)
        current = os.path.dirname(target)
        # opencode tests `startsWith(root)` on the plain string, so /repo/app2 counts as inside /repo/app.
        while current.startswith(root) and current != root:
            found = next((os.path.join(current, n) for n in setup.names if ctx.fs.exists(os.path.join(current, n))), None)
            if found and found != target:
                if found in system or found in already:
                    cascade.files.append(skipped(ctx, found, Role.PROJECT, Reason.ALREADY_LOADED))
                elif self._out_of_scope(ctx, setup.scope, found, Role.PROJECT):
                    cascade.files.append(skipped(ctx, found, Role.PROJECT, Reason.OUTSIDE_BOUNDARY))
                else:
                    already.add(found)
                    elements += self._load(ctx, found, Role.PROJECT, cascade, setup.scope)
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        if elements:
            text = "<system-reminder>\n" + "\n\n".join(elements) + "\n</system-reminder>"
            cascade.blocks.append(Block(Placement.TOOL_RESULT, text))
        return cascade
