"""The one settings model: used by the CLI, the server, and checked against the VS Code client.

Names are camelCase on the wire (`lspAgents` section of the editor, `[tool.lsp-agents]` in
pyproject.toml, or lsp-agents.toml at the workspace root) and snake_case in Python. A harness
option left at `None` means "whatever the harness's own config file says".

`parse_settings` never fails: unknown keys are ignored with one warning, and a bad value falls
back to its default with a message naming the key.
"""

from __future__ import annotations

import os
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, WithJsonSchema
from pydantic.alias_generators import to_camel

from lsp_agents.core.config_files import load_toml
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.patterns import MAX_LIST_PATTERNS, cap

HarnessId = Literal[
    "opencode", "codex", "claude-code", "gemini", "copilot", "cursor", "agents-md",
    "pi", "copilot-cli", "qwen", "kilo", "droid", "continue", "cline",
]
Severity = Literal["error", "warning", "information", "hint", "off"]


def _listed_as_array(items: dict, empty: Any) -> tuple:
    """Metadata for a setting that editors show as a list: its JSON schema is an array (so VS Code's
    Settings editor offers "Add Item" rather than "Edit in settings.json"), and an empty list means
    `empty` ("auto", or None for "as the harness's own config says"), the value the analysis reads."""
    return (BeforeValidator(lambda value: empty if value == [] else value), WithJsonSchema({"type": "array", "items": items}))


_STRINGS = {"type": "string"}


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")


class CodexOptions(_Model):
    max_bytes: int | None = Field(None, ge=0, description="Codex's byte budget for instruction files "
                                  "(`project_doc_max_bytes`). Empty: as in `~/.codex/config.toml`, else 32 KiB.")
    fallback_filenames: Annotated[list[str] | None, *_listed_as_array(_STRINGS, None)] = Field(
        None, json_schema_extra={"default": []}, description="File names Codex reads in a folder without AGENTS.md "
        "(`project_doc_fallback_filenames`). Empty: as in `~/.codex/config.toml`.")


class GeminiOptions(_Model):
    file_names: Annotated[list[str] | None, *_listed_as_array(_STRINGS, None)] = Field(
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
    fetch_remote_instructions: bool = Field(
        False, description="Fetch opencode's remote `instructions` URLs (5-second timeout). Off: they are listed, never fetched."
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
                                       "(or with *Agents: Choose Harness*) takes over until this setting changes.")
    severity: dict[str, Severity] = Field(default_factory=dict, description="Severity per finding code "
                                          "(`duplicate-instruction`, `shadowed-file`…): `error`, `warning`, "
                                          "`information`, `hint`, or `off` to hide it.")
    similarity_threshold: float = Field(0.85, ge=0.0, le=1.0, description="How alike two instructions must be "
                                        "(0 to 1, over word triples) to be reported as near-duplicates.")
    exclude: list[str] = Field(default_factory=list, description="Paths left out when looking for instruction files, "
                               "in `.gitignore` syntax, on top of `.gitignore`.")
    max_file_bytes: int = Field(4 * 1024 * 1024, ge=1024, description="Files larger than this are reported as "
                                "`oversized` and not analysed line by line.")
    launch_directories: Annotated[list[str] | Literal["auto"], *_listed_as_array(_STRINGS, "auto")] = Field(
        "auto", json_schema_extra={"default": []}, description="Where the checks assume a harness is started (its "
        "working directory), as `.gitignore`-style patterns relative to the workspace root, such as `packages/*`; the "
        "root always counts. Empty (or \"auto\"): the workspace root, nested repositories and folders with their own "
        "instruction files (not tool, documentation, skill, template or fixture folders)."
    )
    launch_directory: str = Field(
        "workspaceRoot", description="Where the harness is assumed started for the hover, the status bar and the views: "
        "`workspaceRoot` (the workspace folder), `fileDirectory` (the file's own folder), or a folder relative to the "
        "workspace root."
    )
    home: str | None = Field(None, description="The home directory whose global instruction files "
                             "(`~/.codex/AGENTS.md`, `~/.claude/CLAUDE.md`…) and harness configs count. Empty: your "
                             "home directory.")
    hover: HoverOptions = HoverOptions()
    debounce_ms: int = Field(300, ge=0, description="Milliseconds after the last keystroke before the checks run again.")

    def launch_patterns(self) -> list[str] | None:
        """The `launchDirectories` patterns, or None for the automatic choice."""
        return None if self.launch_directories == "auto" else self.launch_directories

    def harness_options(self) -> HarnessOptions:
        return HarnessOptions.model_validate(self.model_dump(include=set(HarnessOptions.model_fields)))


def parse_settings(raw: Any, source: str = "settings") -> tuple[Settings, list[str]]:
    """Settings from an untrusted mapping; never raises. Returns (settings, messages)."""
    if raw is None:
        return Settings(), []
    if not isinstance(raw, dict):
        return Settings(), [f"{source}: expected an object of settings; using defaults"]
    messages = []
    known = {field.alias or name for name, field in Settings.model_fields.items()} | set(Settings.model_fields)
    unknown = sorted(k for k in raw if k not in known)
    if unknown:
        messages.append(f"{source}: ignoring unknown setting(s): {', '.join(unknown)}")
    data = dict(raw)
    for _ in range(len(data) + 1):
        try:
            return _patterns_capped(Settings.model_validate(data), source, messages)
        except ValidationError as exc:
            bad = {str(error["loc"][0]) for error in exc.errors() if error["loc"]}
            if not bad or not bad & set(data):
                return Settings(), [*messages, f"{source}: invalid settings ({exc.error_count()} errors); using defaults"]
            for key in sorted(bad & set(data)):
                messages.append(f"{source}: invalid value for {key!r}; using the default")
                data.pop(key)
    return Settings(), messages


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


def load_project_settings(root: str) -> tuple[Settings, list[str]]:
    """`lsp-agents.toml` at the workspace root, else `[tool.lsp-agents]` of pyproject.toml.

    Read like any workspace file (bounded, never from a FIFO or a device)."""
    fs = FileSystem()
    for name, table in (("lsp-agents.toml", ()), ("pyproject.toml", ("tool", "lsp-agents"))):
        path = os.path.join(root, name)
        if not fs.exists(path):
            continue
        loaded = load_toml(fs, path)
        if loaded.warning:
            return Settings(), [loaded.warning.replace("; using defaults", "; using default settings")]
        data: Any = loaded.values
        for key in table:
            data = data.get(key) if isinstance(data, dict) else None
        if data is None:
            continue
        return parse_settings(data, path)
    return Settings(), []
