"""Plain data shared by the core, the CLI and the server: no behaviour beyond construction."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

# A JSON object as the CLI and the server send it (`to_json`, the cascade and prompt results):
# its values are of mixed types, numbers, strings, lists and nested objects, which each reader
# knows by key.
JsonObject = dict[str, Any]


class Role(StrEnum):
    """Why a harness considers a file: where it comes from in the cascade."""

    GLOBAL = "global"
    PROJECT = "project"
    LOCAL = "local"
    RULE = "rule"
    IMPORT = "import"
    CONFIG = "config"
    REMOTE = "remote"


class Placement(StrEnum):
    """Where the harness puts a piece of instruction text in the request."""

    SYSTEM = "system"
    USER = "user"
    TOOL_RESULT = "tool-result"


class Reason(StrEnum):
    """Machine-readable codes for a candidate file that a harness did not load (or cut).

    The analysis builds its findings on these, so they are a contract: add codes, never rename.
    """

    # another file won
    FAMILY_SHADOWED = "family-shadowed"  # opencode: an earlier file name matched in the chain
    NAME_SHADOWED = "name-shadowed"  # an earlier name in the same directory exists
    OVERRIDE_SHADOWED = "override-shadowed"  # Codex: AGENTS.override.md wins over AGENTS.md
    GLOBAL_SHADOWED = "global-shadowed"  # an earlier global file wins
    CLAUDE_MD_PRESENT = "claude-md-present"  # Claude: a counting CLAUDE.md turns AGENTS.md off
    DUPLICATE_PATH = "duplicate-path"  # same path or same real file already loaded
    ALREADY_LOADED = "already-loaded"  # loaded eagerly or by an earlier read
    SAME_TEXT = "same-text"  # Claude: an AGENTS.md whose text a project file in context already sends
    # size
    BUDGET_EXHAUSTED = "budget-exhausted"  # Codex: nothing of the byte budget was left
    TOO_LARGE = "too-large"
    EMPTY = "empty"
    # reach
    OUTSIDE_BOUNDARY = "outside-boundary"
    BELOW_CWD = "below-cwd"  # loaded lazily, when the agent reads a file there
    NOT_CONFIGURED = "not-configured"  # the harness is not configured to read this name
    DISABLED = "disabled"  # switched off by an environment variable or setting
    UNTRUSTED_FOLDER = "untrusted-folder"
    CONDITIONAL = "conditional"  # a rule with globs: loaded on read of a matching file
    AGENT_REQUESTED = "agent-requested"  # Cursor: a rule with a description only; the agent decides
    MANUAL = "manual"  # a rule sent only when the user names it (Cursor's @-mention, Continue's invokable)
    NOT_ALWAYS_APPLIED = "not-always-applied"  # Continue CLI: sends only rules that apply always
    GLOB_NO_MATCH = "glob-no-match"
    GLOB_NOT_EVALUABLE = "glob-not-evaluable"
    LISTED_ONLY = "listed-only"  # Copilot: nested AGENTS.md is listed, the model must read it
    SKILL_LISTED = "skill-listed"  # OpenHands: a microagent with triggers, listed by name and description
    SUBSTITUTION_REFUSED = "substitution-refused"  # Kilo: a project file asks for an {env:…} value
    # imports
    IMPORT_NOT_FOUND = "import-not-found"
    IMPORT_CYCLE = "import-cycle"
    IMPORT_TOO_DEEP = "import-too-deep"
    IMPORT_NOT_APPROVED = "import-not-approved"
    IMPORT_OUTSIDE_ROOT = "import-outside-root"
    # remote
    REMOTE_NOT_FETCHED = "remote-not-fetched"
    REMOTE_FAILED = "remote-failed"
    # unreadable
    MISSING = "missing"
    NOT_REGULAR_FILE = "not-regular-file"
    PERMISSION_DENIED = "permission-denied"
    SYMLINK_LOOP = "symlink-loop"
    UNREADABLE = "unreadable"
    INVALID_HEADER = "invalid-header"  # its front matter is not YAML, and the harness skips the file
    SYSTEM_FILE = "system-file"  # in /proc, /sys or /dev: never read


@dataclass(slots=True)
class Candidate:
    """One instruction file a harness considered, loaded or not.

    `related` names the file that explains the reason: the winner that shadows this one,
    or the file that imports it.
    """

    path: str
    role: Role
    loaded: bool
    bytes: int = 0
    reason: Reason | None = None
    truncated_at: int | None = None
    related: str | None = None

    def __reduce__(self) -> tuple[type[Candidate], tuple[str, Role, bool, int, Reason | None, int | None, str | None]]:
        """Pickled as its fields (half the time of a slotted dataclass's default): a full analysis
        sends tens of thousands between its forked processes."""
        return Candidate, (self.path, self.role, self.loaded, self.bytes, self.reason, self.truncated_at, self.related)

    def to_json(self) -> JsonObject:
        return {
            "path": self.path,
            "role": str(self.role),
            "loaded": self.loaded,
            "bytes": self.bytes,
            "truncated_at": self.truncated_at,
            "reason": str(self.reason) if self.reason else None,
            **({"related": self.related} if self.related else {}),
        }


@dataclass(slots=True)
class Block:
    """A piece of instruction text exactly as the harness sends it."""

    placement: Placement
    text: str

    def to_json(self) -> JsonObject:
        return {"placement": str(self.placement), "text": self.text}


class WarningKind(StrEnum):
    """What a harness warning is about: what a consumer tells warnings apart by, never their text."""

    OTHER = "other"
    INVALID_HEADER = "invalid-header"  # a rule file's header the harness cannot parse
    GLOBS_NOT_EVALUATED = "globs-not-evaluated"  # a rule's globs past the bounds, in whole or in part
    INVALID_CONFIG = "invalid-config"  # a config file the harness cannot read or parse


class HarnessWarning(str):
    """A warning line as it is shown, with its kind and, where its producer knows them, the
    1-based `line` it is about and the `problem` alone (without where and what follows). A `str`,
    so every front end prints and compares it as it did the plain line; `warning_kind` reads the
    kind of any warning. Consumers read the fields, never the wording."""

    kind: WarningKind
    line: int | None
    problem: str | None

    def __new__(cls, text: str, kind: WarningKind, line: int | None = None, problem: str | None = None) -> HarnessWarning:
        warning = super().__new__(cls, text)
        warning.kind, warning.line, warning.problem = kind, line, problem
        return warning

    def __reduce__(self) -> tuple[type[HarnessWarning], tuple[str, WarningKind, int | None, str | None]]:
        """Pickled with its fields (the analysis sends cascades back from forked workers)."""
        return HarnessWarning, (str(self), self.kind, self.line, self.problem)


def warning_kind(warning: str) -> WarningKind:
    return warning.kind if isinstance(warning, HarnessWarning) else WarningKind.OTHER


@dataclass(slots=True)
class Cascade:
    """What one harness sends, eagerly or on a read, and every candidate it weighed."""

    harness: str
    cwd: str
    blocks: list[Block] = field(default_factory=list)
    files: list[Candidate] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def loaded(self) -> list[Candidate]:
        return [c for c in self.files if c.loaded]

    @property
    def not_loaded(self) -> list[Candidate]:
        return [c for c in self.files if not c.loaded]


@dataclass(frozen=True, slots=True)
class Span:
    """A 0-based range in a file; characters are Unicode code points."""

    start_line: int
    start_character: int
    end_line: int
    end_character: int

    def to_json(self) -> JsonObject:
        return {
            "start": {"line": self.start_line, "character": self.start_character},
            "end": {"line": self.end_line, "character": self.end_character},
        }


@dataclass(frozen=True, slots=True)
class Related:
    path: str
    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class TextEdit:
    path: str
    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    """What a quick fix does: text edits, or renaming a file (`rename_to`)."""

    title: str
    edits: tuple[TextEdit, ...] = ()
    rename_from: str | None = None
    rename_to: str | None = None


@dataclass(slots=True)
class Finding:
    """One analysis result, placed in a file. `code` is a stable kebab-case name (the contract)."""

    code: str
    severity: str  # error | warning | information | hint
    path: str
    span: Span
    message: str
    harnesses: list[str] = field(default_factory=list)
    related: list[Related] = field(default_factory=list)
    fix: Fix | None = None
    unnecessary: bool = False  # rendered faded in editors (duplicates)
