"""The one settings model: used by the CLI, the server, and checked against the VS Code client.

Names are camelCase on the wire (`lspAgents` section of the editor, `[tool.lsp-agents]` in
pyproject.toml, or lsp-agents.toml at the workspace root) and snake_case in Python. A harness
option left at `None` means "whatever the harness's own config file says".

`parse_settings` never fails: unknown keys are ignored with one warning, and a bad value falls
back to its default with a message naming the key.

Each setting has a trust level, declared on its field: a repository's own settings
(lsp-agents.toml, `[tool.lsp-agents]`, an editor's workspace settings) may set most of them, but a
setting marked `UserOnly` chooses what is read outside the workspace or fetched, so only the
user's own settings (command-line flags, editor user settings) may; a setting marked
`InsideWorkspace` names paths, which a repository may point only inside the workspace.
`project_settings` applies these rules; the editor manifest's test derives its lists from them.
The harnesses' file names (`codex.fallbackFilenames`, `gemini.fileNames`) are names, never paths,
whoever sets them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, WithJsonSchema
from pydantic.alias_generators import to_camel
from pydantic.fields import FieldInfo

from lsp_agents.core.patterns import MAX_LIST_PATTERNS, cap

HarnessId = Literal[
    "opencode", "codex", "claude-code", "gemini", "copilot", "cursor", "agents-md",
    "pi", "copilot-cli", "qwen", "kilo", "droid", "continue", "cline",
]
Severity = Literal["on", "error", "warning", "information", "hint", "off"]


def _listed_as_array(items: dict, empty: Any) -> tuple:
    """Metadata for a setting that editors show as a list: its JSON schema is an array (so VS Code's
    Settings editor offers "Add Item" rather than "Edit in settings.json"), and an empty list means
    `empty` ("auto", or None for "as the harness's own config says"), the value the analysis reads."""
    return (BeforeValidator(lambda value: empty if value == [] else value), WithJsonSchema({"type": "array", "items": items}))


_STRINGS = {"type": "string"}
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


def _anchored(pattern: str) -> str:
    """The path a `.gitignore`-style pattern names: a leading `!` (negation) and `/` (anchoring to
    the root) are syntax, not part of it."""
    return pattern.removeprefix("!").removeprefix("/")


def _file_names(names: list[str] | None) -> list[str] | None:
    """Names of files in a folder, never paths: `../x`, `/etc/passwd` or `a/b` would make the
    harness models read a file outside the folder searched."""
    for name in names or ():
        if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
            raise ValueError(f"{name[:100]!r} is not a file name (a name, without a folder)")
    return names


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")


class CodexOptions(_Model):
    max_bytes: int | None = Field(None, ge=0, description="Codex's byte budget for instruction files "
                                  "(`project_doc_max_bytes`). Empty: as in `~/.codex/config.toml`, else 32 KiB.")
    fallback_filenames: Annotated[list[str] | None, *_listed_as_array(_STRINGS, None), AfterValidator(_file_names)] = Field(
        None, json_schema_extra={"default": []}, description="File names Codex reads in a folder without AGENTS.md "
        "(`project_doc_fallback_filenames`). Empty: as in `~/.codex/config.toml`.")


class GeminiOptions(_Model):
    file_names: Annotated[list[str] | None, *_listed_as_array(_STRINGS, None), AfterValidator(_file_names)] = Field(
        None, json_schema_extra={"default": []}, description="The file names Gemini CLI reads as context "
        "(`context.fileName`). Empty: as in the Gemini settings, else GEMINI.md.")


class ClaudeOptions(_Model):
    instruction_files: Literal["claude-md-or-agents-md", "claude-md-and-agents-md", "claude-md", "managed-only"] | None = Field(
        None, description="Claude Code's *Project instructions* setting. Empty: as in `~/.claude/settings.json`, else "
        "CLAUDE.md, and AGENTS.md where no CLAUDE.md is found."
    )


class HarnessOptions(_Model):
    """What the harness models read beyond the files on disk."""

    codex: CodexOptions = CodexOptions()
    gemini: GeminiOptions = GeminiOptions()
    claude: ClaudeOptions = ClaudeOptions()
    fetch_remote_instructions: Annotated[bool, UserOnly("makes lsp-agents fetch URLs", "--fetch-remote")] = Field(
        False, description="Fetch opencode's remote `instructions` URLs (5-second timeout). Off: they are listed, never fetched. "
        "Only your user settings (or `--fetch-remote`) turn it on, never a repository's."
    )


class HoverOptions(_Model):
    source_files: Literal["firstLine", "everywhere", "off"] = Field(
        "firstLine", description="Where hovering a file that is not an instruction file shows what the harness sends with "
        "it: on its first line, everywhere, or off."
    )


class Settings(HarnessOptions):
    """Every setting of lsp-agents, for the CLI (`check`) and the language server alike."""

    harnesses: Annotated[list[HarnessId] | Literal["auto"],
                         *_listed_as_array({"type": "string", "enum": list(get_args(HarnessId))}, "auto")] = Field(
        "auto", json_schema_extra={"default": []}, description="The harnesses whose behaviour is shown and checked. Empty "
        "(or \"auto\"): those whose files are present, such as opencode and Codex CLI for AGENTS.md, Claude Code for "
        "CLAUDE.md or `.claude/`, Gemini CLI for GEMINI.md."
    )
    default_harness: HarnessId = Field("opencode", description="The harness the status bar, the hover, the Agent "
                                       "Instructions view and the prompt view show first. A harness chosen in a view "
                                       "(or with *lsp-agents: Choose Harness*) takes over until this setting changes.")
    severity: dict[str, Severity] = Field(default_factory=dict, description="Severity per finding code "
                                          "(`duplicate-instruction`, `shadowed-file`…): `on` (the code's own severity, "
                                          "for a code that is a hint by default), `error`, `warning`, `information`, "
                                          "`hint`, or `off` to hide it.")
    similarity_threshold: float = Field(0.85, ge=0.0, le=1.0, description="How alike two instructions must be "
                                        "(0 to 1, over word triples) to be reported as near-duplicates.")
    exclude: list[str] = Field(default_factory=list, description="Paths left out when looking for instruction files, "
                               "in `.gitignore` syntax, on top of `.gitignore`.")
    max_file_bytes: int = Field(4 * 1024 * 1024, ge=1024, description="Files larger than this are reported as "
                                "`oversized` and not analysed line by line.")
    launch_directories: Annotated[list[str] | Literal["auto"], *_listed_as_array(_STRINGS, "auto"),
                                  InsideWorkspace(lambda value: [] if value == "auto" else [_anchored(p) for p in value])] = Field(
        "auto", json_schema_extra={"default": []}, description="Where the checks assume a harness is started (its "
        "working directory), as `.gitignore`-style patterns relative to the workspace root, such as `packages/*`; the "
        "root always counts. Empty (or \"auto\"): the workspace root, nested repositories and folders with their own "
        "instruction files (not tool, documentation, skill, template or fixture folders)."
    )
    launch_directory: Annotated[str, InsideWorkspace(lambda value: [] if value in LAUNCH_KEYWORDS else [value])] = Field(
        "workspaceRoot", description="Where the harness is assumed started for the hover, the status bar and the views: "
        "`workspaceRoot` (the workspace folder), `fileDirectory` (the file's own folder), or a folder relative to the "
        "workspace root."
    )
    home: Annotated[str | None, UserOnly("makes lsp-agents read files outside the workspace", "--home")] = Field(
        None, description="The home directory whose global instruction files (`~/.codex/AGENTS.md`, `~/.claude/CLAUDE.md`…) "
        "and harness configs count. Empty: your home directory. Only your user settings (or `--home`) set it, never a "
        "repository's.")
    hover: HoverOptions = HoverOptions()
    debounce_ms: int = Field(300, ge=0, description="Milliseconds after the last keystroke before the checks run again.")

    def launch_patterns(self) -> list[str] | None:
        """The `launchDirectories` patterns, or None for the automatic choice."""
        return None if self.launch_directories == "auto" else self.launch_directories

    def harness_options(self) -> HarnessOptions:
        return HarnessOptions.model_validate(self.model_dump(include=set(HarnessOptions.model_fields)))


def parse_settings(raw: Any, source: str = "settings") -> tuple[Settings, list[str]]:
    """Settings from an untrusted mapping; never raises. Returns (settings, messages).

    A bad value is dropped (the setting keeps its default) and named in a message; in an option
    group (`codex`, `gemini`…) only the bad option is dropped, not the group."""
    if raw is None:
        return Settings(), []
    if not isinstance(raw, dict):
        return Settings(), [f"{source}: expected an object of settings; using defaults"]
    messages = []
    unknown = sorted(k for k in raw if _field(Settings, k) is None)
    if unknown:
        messages.append(f"{source}: ignoring unknown setting(s): {', '.join(unknown)}")
    data = dict(raw)
    for _ in range(len(data) + 1):
        try:
            return _patterns_capped(Settings.model_validate(data), source, messages)
        except ValidationError as exc:
            bad: dict[tuple[str, ...], str] = {}
            for error in exc.errors():
                if path := _setting_path(data, error["loc"]):
                    bad.setdefault(path, error["msg"])
            if not bad:
                return Settings(), [*messages, f"{source}: invalid settings ({exc.error_count()} errors); using defaults"]
            for path, why in sorted(bad.items()):
                messages.append(f"{source}: invalid value for {'.'.join(path)!r} ({why}); using the default")
                data = without(data, path)
    return Settings(), messages


def _field(model: type[BaseModel], key: Any) -> FieldInfo | None:
    """The field a key names, in either spelling (camelCase alias or snake_case name)."""
    for name, field in model.model_fields.items():
        if key in (name, field.alias):
            return field
    return None


def _patterns_capped(settings: Settings, source: str, messages: list[str]) -> tuple[Settings, list[str]]:
    """`exclude` and `launchDirectories` within the pattern caps of `core.patterns`, with a
    message for each list cut."""
    update = {}
    for field, patterns in (("exclude", settings.exclude), ("launch_directories", settings.launch_patterns())):
        capped = cap(patterns or (), MAX_LIST_PATTERNS)
        if capped.ignored:
            messages.append(f"{source}: {Settings.model_fields[field].alias}: {capped.ignored}")
            update[field] = list(capped.patterns)
    return (settings.model_copy(update=update) if update else settings), messages


def _group(field: FieldInfo) -> type[BaseModel] | None:
    """The model of an option group (`codex`, `hover`…), or None for a plain setting."""
    kind = field.annotation
    return kind if isinstance(kind, type) and issubclass(kind, BaseModel) else None


def _setting_path(data: dict[str, Any], loc: tuple[int | str, ...]) -> tuple[str, ...]:
    """The keys of `data` leading to the setting a validation error is about (empty: none found)."""
    model: type[BaseModel] | None = Settings
    path: list[str] = []
    node: Any = data
    for key in loc:
        if model is None or not isinstance(node, dict) or (field := _field(model, key)) is None:
            break
        present = next((k for k in node if _field(model, k) is field), None)
        if present is None:
            break
        path.append(present)
        node, model = node[present], _group(field)
    return tuple(path)


def without(data: dict[str, Any], path: Sequence[str]) -> dict[str, Any]:
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

    def walk(model: type[BaseModel], prefix: tuple[str, ...]) -> None:
        for name, field in model.model_fields.items():
            path = (*prefix, field.alias or name)
            for mark in field.metadata:
                if isinstance(mark, marker):
                    found[path] = mark
            if (group := _group(field)) is not None:
                walk(group, path)

    walk(Settings, ())
    return found
