"""One description per harness, as data: `HarnessSpec`.

Everything outside a harness model that knows about harnesses (discovery patterns, tool folders,
detection, config files, the folders watched in the home directory, the client's lists, the
pre-commit pattern) reads these descriptions instead of keeping a copy of its own, so a harness
is spelled out once (see `tables` for what is derived). The models read their per-user folder
through the same `EnvDir`, so the analysis and the model never disagree on where it is.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field


class Tilde(enum.Enum):
    """How a harness reads a `~` in the environment variable that moves its folder."""

    LITERAL = "literal"  # the value as given (Codex, Claude Code, Copilot CLI, Continue)
    PREFIX_THEN_ABSOLUTE = "prefix-then-absolute"  # a leading `~` is the home directory; a relative value is made absolute (Qwen)
    HOME_OR_HOME_SLASH = "home-or-home-slash"  # `~` and `~/…` are the home directory; anything else as given (pi)


@dataclass(frozen=True, slots=True)
class EnvDir:
    """A per-user folder: `$variable` when it is set and not empty, else `default` below the home
    directory; `below` is appended in both cases (`$XDG_CONFIG_HOME/opencode`). With no default
    the folder exists only when the variable is set (`$KILO_CONFIG_DIR`)."""

    variable: str | None
    default: tuple[str, ...] | None
    below: tuple[str, ...] = ()
    tilde: Tilde = Tilde.LITERAL

    def resolve(self, home: str, env: Mapping[str, str]) -> str | None:
        configured = env.get(self.variable) if self.variable else None
        if configured:
            base = self._expand(configured, home)
        elif self.default is None:
            return None
        else:
            base = os.path.join(home, *self.default)
        return os.path.join(base, *self.below)

    def _expand(self, value: str, home: str) -> str:
        if self.tilde is Tilde.PREFIX_THEN_ABSOLUTE:
            return home + value[1:] if value.startswith("~") else os.path.abspath(value)
        if self.tilde is Tilde.HOME_OR_HOME_SLASH:
            return home if value == "~" else home + value[1:] if value.startswith("~/") else value
        return value


def home_folder(*parts: str) -> EnvDir:
    """A per-user folder no environment variable moves."""
    return EnvDir(None, parts)


@dataclass(frozen=True, slots=True)
class FolderFiles:
    """Files a harness reads in a tool folder of a project directory: `files` (gitignore syntax)
    below `folder` ('/'-separated, relative to the project directory)."""

    folder: str
    files: str

    @property
    def pattern(self) -> str:
        return f"**/{self.folder}/{self.files}"

    @property
    def tool_folder(self) -> str:
        return self.folder.split("/", 1)[0]

    @property
    def is_folder(self) -> bool:
        """A folder of files (`rules/**/*.md`), not one file in a tool folder (`.github/copilot-instructions.md`)."""
        return "*" in self.files


class Place(enum.Enum):
    """Where a config file lies."""

    HOME_FOLDER = "home-folder"  # in the harness's per-user folder (`HarnessSpec.home`)
    HOME = "home"  # in the home directory itself, or in the folder `ConfigFile.moved_by` names
    ROOT = "root"  # relative to the workspace root
    ANY_DIRECTORY = "any-directory"  # in any directory of the workspace


@dataclass(frozen=True, slots=True)
class ConfigFile:
    path: str  # '/'-separated, relative to its place
    place: Place
    moved_by: str | None = None  # Place.HOME: a variable naming the folder to read it from instead, when set


@dataclass(frozen=True, slots=True)
class Detection:
    """What says a harness is in use when the harnesses setting is "auto"."""

    names: tuple[str, ...] = ()  # an instruction file of this name anywhere in the workspace
    folders: tuple[str, ...] = ()  # an instruction file below a folder of this name
    root_folders: tuple[str, ...] = ()  # this folder in the workspace root, whatever it holds
    folders_together: tuple[str, ...] = ()  # instruction files below folders of all these names
    own_files: tuple[str, ...] = ()  # this file or folder in the workspace root or the home directory


class ImportDialect(enum.Enum):
    """How a harness finds `@path` imports in an instruction file (`core.imports`)."""

    CLAUDE = "claude"  # also the `@path` lines a harness that sends them literally would name
    GEMINI = "gemini"
    QWEN = "qwen"
    COPILOT = "copilot"  # Claude's `@`, the path ended at quotes and trailing punctuation


class GlobStyle(enum.Enum):
    """How a rule header's globs are matched against the workspace's files."""

    GITIGNORE = "gitignore"  # gitignore-style, relative to the directory holding the tool folder (Cursor)
    # The same without regard to case, and `dir/**` also matches `dir` (Claude Code: the `ignore`
    # package with its `ignorecase`, FINDINGS.md GD-71)
    GITIGNORE_FOLDER_IS_CONTENTS = "gitignore-folder-is-contents"
    ANYWHERE_IGNORE_CASE = "anywhere-ignore-case"  # below the workspace root, unanchored, case-insensitive (VS Code)

    @property
    def ignores_case(self) -> bool:
        return self is not GlobStyle.GITIGNORE


class Misfiling(enum.Enum):
    """How a rule file lands one step off where its harness looks (`unreachable-file`)."""

    OUTSIDE_RULE_FOLDER = "outside-rule-folder"  # the rule suffix, elsewhere in the tool folder (`.cursor/x.mdc`)
    WRONG_SUFFIX = "wrong-suffix"  # in the rule folder, without the rule suffix (`.claude/rules/x.mdc`)


@dataclass(frozen=True, slots=True)
class RuleHeader:
    """A rule folder whose files carry globs in their header, as the analysis checks them."""

    folder: str  # '/'-separated, below a project directory: `<tool folder>/<rules folder>`
    suffix: str
    key: str  # the header field holding the globs
    style: GlobStyle
    never: str  # what the harness does with a rule whose globs match no file
    misfiling: Misfiling
    misfiled: str  # why a misfiled file is never read
    misfiled_suffix: str = ""  # with WRONG_SUFFIX: only names ending so are taken for misfiled rules
    loose: bool = False  # the header is read line by line, not as strict YAML (Cursor)
    boolean_keys: tuple[str, ...] = ()  # fields the harness takes as true only when they are the boolean true
    always_key: str | None = None  # a field that, when the boolean true, sends the rule always: its globs are ignored
    list_ignored: str | None = None  # the key given as a YAML list: what the harness does then
    without_key: str | None = None  # no patterns under the key: what the harness does then


class DefinitionRivals(enum.Enum):
    """What a harness does with two agents, skills or commands of one name."""

    KEEPS_ONE = "keeps-one"  # one wins, known beforehand
    KEEPS_LAST_READ = "keeps-last-read"  # the one read last wins (opencode)
    LISTS_BOTH = "lists-both"  # both are listed under the name (Codex, Continue CLI)


class SkillNaming(enum.Enum):
    """What a harness calls a skill whose header declares a name."""

    DECLARED = "declared"  # the declared name
    BY_FOLDER = "by-folder"  # its folder's name, with the declared one in brackets (Claude Code)
    SANITISED = "sanitised"  # the declared name with :\\/<>*?"| replaced by - (Gemini CLI)


@dataclass(frozen=True, slots=True)
class LegacyName:
    """An instruction file name the harness has deprecated (`deprecated-filename`)."""

    name: str
    why: str
    replacement: str | None  # the name to use, when one file replaces it


@dataclass(frozen=True, slots=True)
class SizeLimits:
    """A harness's own limits on one instruction file (`oversized`)."""

    warn_characters: int  # JavaScript string length above which it warns
    skip_bytes: int  # size above which it skips the file
    warning: str  # its warning, quoted in the finding
    names: frozenset[str]  # the files they apply to: these names, and any file below `folder`
    folder: str

    def apply_to(self, path: str) -> bool:
        return os.path.basename(path) in self.names or f"{os.sep}{self.folder}{os.sep}" in path


@dataclass(frozen=True, slots=True)
class SelfReport:
    """How the installed CLI shows the instructions it would send without a model call, for
    `lsp-agents verify`: the command (`executable` found on PATH unless the user names one) and
    how its output gives the instruction text ("" when it sends none)."""

    executable: str
    arguments: tuple[str, ...]
    instructions: Callable[[bytes], str]  # raises ValueError on output it cannot read


@dataclass(frozen=True, slots=True)
class HarnessSpec:
    """What one harness is, reads and keeps, as data; behaviour stays in its model.

    `verified` harnesses are checked byte for byte against captures of the real CLI at
    `version`; the others follow their vendor's documentation.
    """

    id: str
    title: str
    verified: bool
    version: str
    package: str | None = None  # the npm package of the CLI, when it is installed from npm
    # Names the CLI was published under before `package`: an install made then is still found.
    former_packages: tuple[str, ...] = ()
    # Per user: the harness's own folder, other folders it reads, the file names and subfolders
    # it reads in them (besides its config files).
    home: EnvDir | None = None
    global_folders: tuple[EnvDir, ...] = ()
    global_files: tuple[str, ...] = ()
    global_subfolders: tuple[str, ...] = ()
    # In a project: instruction file names (in any directory), files in tool folders, patterns
    # discovery leaves out, files one step off where the harness looks (found so that the
    # analysis can say so), and other folders it reads whole (agents, skills, commands).
    instruction_names: tuple[str, ...] = ()
    rule_files: tuple[FolderFiles, ...] = ()
    excluded: tuple[str, ...] = ()
    misplaced: tuple[str, ...] = ()
    project_folders: tuple[str, ...] = ()
    # Folders below a project directory ('/'-separated; `*` within one name) whose files it sends
    # only in another of its modes than the one modelled (Roo Code's `.roo/rules-architect/`).
    mode_folders: tuple[str, ...] = ()
    # The instruction files and folders it looks for, as people know them (`GEMINI.md`,
    # `.cursor/rules`): what a front end names when the harness finds none of them.
    looks_for: tuple[str, ...] = ()
    # The instruction file names written for this harness, when it also reads others for
    # compatibility (opencode reads CLAUDE.md where no AGENTS.md is found): a file of another name
    # that it passes over was written for another harness, and nothing of it is lost to this one.
    # None: every name it reads is its own.
    own_names: frozenset[str] | None = None
    config_files: tuple[ConfigFile, ...] = ()
    invalid_config: str = "uses its defaults"  # what the harness does with a config file it cannot parse
    detection: Detection = field(default_factory=Detection)
    # What the analysis reads of the harness's behaviour.
    root_only: bool = False  # launched from the workspace root only (its project root)
    closest_wins: bool = False  # a nearer file's section replaces an ancestor's, instead of adding to it
    import_dialect: ImportDialect = ImportDialect.CLAUDE
    literal_imports: bool = False  # sends `@path` lines as they are, never loading the file
    asks_before_external_imports: bool = False  # loads imports from outside the project once the user approves
    # Why its model cuts a file it sends (`truncated_at`), said after "when launched from DIR:" in
    # `truncated`; None: it sends files whole, or its cuts are not reported.
    cuts_files: str | None = None
    size_limits: SizeLimits | None = None
    rule_header: RuleHeader | None = None
    legacy_names: tuple[LegacyName, ...] = ()
    definition_rivals: DefinitionRivals = DefinitionRivals.KEEPS_ONE
    skill_naming: SkillNaming = SkillNaming.DECLARED
    cuts_listed_descriptions: bool = False  # lists skill and command descriptions cut to a length
    lists_model_disabled_skills: bool = False  # ignores `disable-model-invocation` and lists the skill anyway
    self_report: SelfReport | None = None  # the installed CLI can show its instructions (`lsp-agents verify`)

    def owns(self, path: str) -> bool:
        return self.own_names is None or os.path.basename(path) in self.own_names

    def home_dir(self, home: str, env: Mapping[str, str]) -> str | None:
        return self.home.resolve(home, env) if self.home is not None else None

    def config_path(self, config: ConfigFile, home: str, env: Mapping[str, str], root: str | None = None) -> str | None:
        """Where the harness reads one of its config files; None when that place does not exist
        (no per-user folder, no workspace root, or a file of any directory)."""
        bases = {
            Place.HOME_FOLDER: self.home_dir(home, env),
            Place.HOME: (config.moved_by and env.get(config.moved_by)) or home,
            Place.ROOT: root,
        }
        base = bases.get(config.place)
        return None if base is None else os.path.join(base, *config.path.split("/"))

    def config_names(self, place: Place) -> tuple[str, ...]:
        """The config files at `place`, in the order the harness reads them."""
        return tuple(c.path for c in self.config_files if c.place is place)
