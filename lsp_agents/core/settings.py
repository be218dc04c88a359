"""The one settings model: used by the CLI, the server, and checked against the VS Code client.

Names are camelCase on the wire (`lspAgents` section of the editor, `[tool.lsp-agents]` in
pyproject.toml, or lsp-agents.toml at the workspace root) and snake_case in Python. A harness
option left at `None` means "whatever the harness's own config file says".

The model is plain frozen dataclasses, so reading the defaults costs nothing: `check` on a
repository without a settings file never imports pydantic. Each field carries what validation and
the JSON schema need (description, bounds, markers: `setting`); `core.settings_schema` builds the
pydantic models from them when an untrusted mapping is parsed (`parse_settings`) or the schema is
asked for.

`parse_settings` never fails: unknown keys are ignored with one warning, and a bad value falls
back to its default with a message naming the key.

Each setting has a trust level, declared on its field: a repository's own settings
(lsp-agents.toml, `[tool.lsp-agents]`, an editor's workspace settings) may set most of them, but a
setting marked `UserOnly` chooses what is read outside the workspace or fetched, so only the
user's own settings (command-line flags, editor user settings) may; a setting marked
`InsideWorkspace` names paths, which a repository may point only inside the workspace.
`project_settings` applies these rules; the editor manifest's test derives its lists from them.
The harnesses' file names (`codex.fallbackFilenames`, `gemini.fileNames`) are names, never paths
(`FileNamesOnly`), whoever sets them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypeVar

from lsp_agents.core.harness_ids import DEFAULT_HARNESS, HARNESS_IDS, HarnessId

Severity = Literal["on", "error", "warning", "information", "hint", "off"]
LAUNCH_KEYWORDS = ("workspaceRoot", "fileDirectory")  # launchDirectory values that name no folder


@dataclass(frozen=True, slots=True)
class UserOnly:
    """Field marker: only the user's own settings may set this one. It makes lsp-agents read files
    outside the workspace or fetch URLs (`effect`), which a repository must never decide; `flag` is
    the command-line option that sets it instead."""

    effect: str
    flag: str


@dataclass(frozen=True, slots=True)
class InsideWorkspace:
    """Field marker: a repository may set this path-valued setting only to places inside the
    workspace. `paths` lists the paths a value names, relative to the workspace root."""

    paths: Callable[[Any], Iterable[str]]


@dataclass(frozen=True, slots=True)
class ListedAsArray:
    """Field marker: a setting that editors show as a list. Its JSON schema is an array of `items`
    (so VS Code's Settings editor offers "Add Item" rather than "Edit in settings.json"), and an
    empty list means `empty` ("auto", or None for "as the harness's own config says"), the value
    the analysis reads."""

    items: Mapping[str, Any]
    empty: Any


@dataclass(frozen=True, slots=True)
class FileNamesOnly:
    """Field marker: names of files in a folder, never paths: `../x`, `/etc/passwd` or `a/b` would
    make the harness models read a file outside the folder searched."""


_STRINGS = {"type": "string"}
_NO_DEFAULT: Any = dataclasses.MISSING


def setting(
    description: str = "",
    default: Any = _NO_DEFAULT,
    *,
    factory: Callable[[], Any] | None = None,
    ge: float | None = None,
    le: float | None = None,
    marks: tuple[object, ...] = (),
    editor_default: Any = _NO_DEFAULT,
) -> Any:
    """A field of the model with what validation and the schema need (`core.settings_schema`):
    its description, bounds (`ge`, `le`), markers, and the default an editor shows when it differs
    from the model's (an empty list where the model reads "auto")."""
    metadata = {"description": description, "ge": ge, "le": le, "marks": marks, "editor_default": editor_default}
    if factory is not None:
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)


def _anchored(pattern: str) -> str:
    """The path a `.gitignore`-style pattern names: a leading `!` (negation) and `/` (anchoring to
    the root) are syntax, not part of it."""
    return pattern.removeprefix("!").removeprefix("/")


@dataclass(frozen=True)
class CodexOptions:
    max_bytes: int | None = setting(
        "Codex's byte budget for instruction files (`project_doc_max_bytes`). Empty: as in `~/.codex/config.toml`, else 32 KiB.",
        None,
        ge=0,
    )
    fallback_filenames: list[str] | None = setting(
        "File names Codex reads in a folder without AGENTS.md (`project_doc_fallback_filenames`). Empty: as in "
        "`~/.codex/config.toml`.",
        None,
        marks=(ListedAsArray(_STRINGS, None), FileNamesOnly()),
        editor_default=[],
    )


@dataclass(frozen=True)
class GeminiOptions:
    file_names: list[str] | None = setting(
        "The file names Gemini CLI reads as context (`context.fileName`). Empty: as in the Gemini settings, else GEMINI.md.",
        None,
        marks=(ListedAsArray(_STRINGS, None), FileNamesOnly()),
        editor_default=[],
    )


@dataclass(frozen=True)
class ClaudeOptions:
    instruction_files: Literal["claude-md-or-agents-md", "claude-md-and-agents-md", "claude-md", "managed-only"] | None = setting(
        "Claude Code's *Project instructions* setting. Empty: as in `~/.claude/settings.json`, else CLAUDE.md, and "
        "AGENTS.md where no CLAUDE.md is found.",
        None,
    )


@dataclass(frozen=True)
class HarnessOptions:
    """What the harness models read beyond the files on disk."""

    codex: CodexOptions = setting(factory=CodexOptions)
    gemini: GeminiOptions = setting(factory=GeminiOptions)
    claude: ClaudeOptions = setting(factory=ClaudeOptions)
    fetch_remote_instructions: bool = setting(
        "Fetch opencode's remote `instructions` URLs (5-second timeout). Off: they are listed, never fetched. Only your "
        "user settings (or `--fetch-remote`) turn it on, never a repository's.",
        False,
        marks=(UserOnly("makes lsp-agents fetch URLs", "--fetch-remote"),),
    )


@dataclass(frozen=True)
class HoverOptions:
    source_files: Literal["firstLine", "everywhere", "off"] = setting(
        "Where hovering a file that is not an instruction file shows what the harness sends with it: on its first "
        "line, everywhere, or off.",
        "firstLine",
    )


def _launch_paths(value: Any) -> list[str]:
    return [] if value == "auto" else [_anchored(p) for p in value]


@dataclass(frozen=True)
class Settings(HarnessOptions):
    """Every setting of lsp-agents, for the CLI (`check`) and the language server alike."""

    harnesses: list[HarnessId] | Literal["auto"] = setting(
        'The harnesses whose behaviour is shown and checked. Empty (or "auto"): those whose files are present, such as '
        "opencode and Codex CLI for AGENTS.md, Claude Code for CLAUDE.md or `.claude/`, Gemini CLI for GEMINI.md.",
        "auto",
        marks=(ListedAsArray({"type": "string", "enum": list(HARNESS_IDS)}, "auto"),),
        editor_default=[],
    )
    default_harness: HarnessId = setting(
        "The harness the status bar, the hover, the Agent Instructions view and the prompt view show first. A harness "
        "chosen in a view (or with *lsp-agents: Choose Harness*) takes over until this setting changes.",
        DEFAULT_HARNESS,
    )
    severity: dict[str, Severity] = setting(
        "Severity per finding code (`duplicate-instruction`, `shadowed-file`…): `on` (the code's own severity, for a code "
        "that is a hint by default), `error`, `warning`, `information`, `hint`, or `off` to hide it.",
        factory=dict,
    )
    similarity_threshold: float = setting(
        "How alike two instructions must be (0 to 1, over word triples) to be reported as near-duplicates.", 0.85, ge=0.0, le=1.0
    )
    exclude: list[str] = setting(
        "Paths left out when looking for instruction files, in `.gitignore` syntax, on top of `.gitignore`.", factory=list
    )
    max_file_bytes: int = setting(
        "Files larger than this are reported as `oversized` and not analysed line by line.", 4 * 1024 * 1024, ge=1024
    )
    launch_directories: list[str] | Literal["auto"] = setting(
        "Where the checks assume a harness is started (its working directory), as `.gitignore`-style patterns relative "
        'to the workspace root, such as `packages/*`; the root always counts. Empty (or "auto"): the workspace root, '
        "nested repositories and folders with their own instruction files (not tool, documentation, skill, template, example or "
        "fixture folders).",
        "auto",
        marks=(ListedAsArray(_STRINGS, "auto"), InsideWorkspace(_launch_paths)),
        editor_default=[],
    )
    launch_directory: str = setting(
        "Where the harness is assumed started for the hover, the status bar and the views: `workspaceRoot` (the "
        "workspace folder), `fileDirectory` (the file's own folder), or a folder relative to the workspace root.",
        "workspaceRoot",
        marks=(InsideWorkspace(lambda value: [] if value in LAUNCH_KEYWORDS else [value]),),
    )
    home: str | None = setting(
        "The home directory whose global instruction files (`~/.codex/AGENTS.md`, `~/.claude/CLAUDE.md`…) and harness "
        "configs count. Empty: your home directory. Only your user settings (or `--home`) set it, never a repository's.",
        None,
        marks=(UserOnly("makes lsp-agents read files outside the workspace", "--home"),),
    )
    hover: HoverOptions = setting(factory=HoverOptions)
    debounce_ms: int = setting("Milliseconds after the last keystroke before the checks run again.", 300, ge=0)
    # Not a setting: what the source of these settings set, by camelCase name and as validated
    # (nested groups as mappings); a later source is merged over it (the server: repository <
    # editor). Empty for defaults.
    given: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False, metadata={"internal": True})

    def launch_patterns(self) -> list[str] | None:
        """The `launchDirectories` patterns, or None for the automatic choice."""
        return None if self.launch_directories == "auto" else self.launch_directories

    def harness_options(self) -> HarnessOptions:
        return HarnessOptions(**{item.name: getattr(self, item.name) for item in fields(HarnessOptions)})


def settings_fields(model: type) -> list[dataclasses.Field[Any]]:
    """The settings of a model (a group's too), in order, without internal fields."""
    return [item for item in fields(model) if not item.metadata.get("internal")]


def group(item: dataclasses.Field[Any]) -> type | None:
    """The model of an option group (`codex`, `hover`…), or None for a plain setting."""
    return item.default_factory if dataclasses.is_dataclass(item.default_factory) else None


def alias(name: str) -> str:
    """The camelCase name of a field on the wire: `max_file_bytes` → `maxFileBytes`."""
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def parse_settings(raw: Any, source: str = "settings") -> tuple[Settings, list[str]]:
    """Settings from an untrusted mapping; never raises. Returns (settings, messages).

    A bad value is dropped (the setting keeps its default) and named in a message; in an option
    group (`codex`, `gemini`…) only the bad option is dropped, not the group. Validation is
    pydantic's, imported here: only a settings file or an editor's settings need it."""
    if raw is None:
        return Settings(), []
    from lsp_agents.core.settings_schema import validate

    return validate(raw, source)


def without(data: dict[str, Any], path: Iterable[str]) -> dict[str, Any]:
    """`data` without the value at `path` (dicts along the way copied, the rest shared)."""
    head, *rest = path
    copy = dict(data)
    if rest and isinstance(copy.get(head), dict):
        copy[head] = without(copy[head], rest)
    elif not rest:
        copy.pop(head, None)
    return copy


Marker = TypeVar("Marker", UserOnly, InsideWorkspace)


def marked(marker: type[Marker]) -> dict[tuple[str, ...], Marker]:
    """Every setting whose field carries `marker`, by its path of camelCase keys (`("home",)`,
    `("codex", "fallbackFilenames")`): the one source of each trust list."""
    found: dict[tuple[str, ...], Marker] = {}

    def walk(model: type, prefix: tuple[str, ...]) -> None:
        for item in settings_fields(model):
            path = (*prefix, alias(item.name))
            for mark in item.metadata["marks"]:
                if isinstance(mark, marker):
                    found[path] = mark
            if (nested := group(item)) is not None:
                walk(nested, path)

    walk(Settings, ())
    return found
