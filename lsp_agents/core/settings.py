"""The one settings model: used by the CLI, the server, and checked against the VS Code client.

Names are camelCase on the wire (`lspAgents` section of the editor, `[tool.lsp-agents]` in
pyproject.toml, or lsp-agents.toml at the workspace root) and snake_case in Python. A harness
option left at `None` means "whatever the harness's own config file says".

`parse_settings` never fails: unknown keys are ignored with one warning, and a bad value falls
back to its default with a message naming the key.
"""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from lsp_agents.core.config_files import load_toml
from lsp_agents.core.fs import FileSystem

HarnessId = Literal[
    "opencode", "codex", "claude-code", "gemini", "copilot", "cursor", "agents-md",
    "pi", "copilot-cli", "qwen", "kilo", "droid", "continue", "cline",
]
Severity = Literal["error", "warning", "information", "hint", "off"]


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")


class CodexOptions(_Model):
    max_bytes: int | None = Field(None, ge=0, description="Overrides project_doc_max_bytes of ~/.codex/config.toml.")
    fallback_filenames: list[str] | None = Field(None, description="Overrides project_doc_fallback_filenames of ~/.codex/config.toml.")


class GeminiOptions(_Model):
    file_names: list[str] | None = Field(None, description="Overrides context.fileName of the Gemini settings.")


class ClaudeOptions(_Model):
    instruction_files: Literal["claude-md-or-agents-md", "claude-md-and-agents-md", "claude-md", "managed-only"] | None = Field(
        None, description="Claude Code's 'Project instructions' setting (default: as in ~/.claude/settings.json, else claude-md-or-agents-md)."
    )


class HarnessOptions(_Model):
    """What the harness models read beyond the files on disk."""

    codex: CodexOptions = CodexOptions()
    gemini: GeminiOptions = GeminiOptions()
    claude: ClaudeOptions = ClaudeOptions()
    fetch_remote_instructions: bool = Field(
        False, description="Fetch opencode's remote `instructions` URLs (5 s timeout). Off: they are listed, never fetched."
    )


class HoverOptions(_Model):
    source_files: Literal["firstLine", "everywhere", "off"] = Field(
        "firstLine", description="Where hovering a non-instruction file shows its active instructions."
    )


class Settings(HarnessOptions):
    """Every setting of lsp-agents, for the CLI (`check`) and the language server alike."""

    harnesses: list[HarnessId] | Literal["auto"] = Field(
        "auto", description="Harnesses to model, or \"auto\": detected from the instruction files present."
    )
    default_harness: HarnessId = Field("opencode", description="The harness hover, status bar and prompt views use by default.")
    severity: dict[str, Severity] = Field(default_factory=dict, description="Finding code → severity, or \"off\".")
    similarity_threshold: float = Field(0.85, ge=0.0, le=1.0, description="Similarity at which two instructions count as near-duplicates.")
    exclude: list[str] = Field(default_factory=list, description="Paths left out of discovery (gitignore syntax).")
    max_file_bytes: int = Field(4 * 1024 * 1024, ge=1024, description="Analysis reads at most this many bytes of a file.")
    launch_directories: list[str] | Literal["auto"] = Field(
        "auto", description="Where findings assume harnesses are launched: \"auto\" (the workspace root, nested repositories and "
        "directories holding their own instruction files, outside tool, documentation, skill, template and fixture folders), "
        "or directories as gitignore-style patterns relative to the workspace root (the root always counts)."
    )
    launch_directory: str = Field(
        "workspaceRoot", description="Where the harness is assumed launched: \"workspaceRoot\", \"fileDirectory\", or a path relative to the workspace root."
    )
    home: str | None = Field(None, description="Home directory holding the harnesses' global files (default: the user's home).")
    hover: HoverOptions = HoverOptions()
    debounce_ms: int = Field(300, ge=0, description="Milliseconds to wait after a keystroke before re-analysing.")

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
            return Settings.model_validate(data), messages
        except ValidationError as exc:
            bad = {str(error["loc"][0]) for error in exc.errors() if error["loc"]}
            if not bad or not bad & set(data):
                return Settings(), [*messages, f"{source}: invalid settings ({exc.error_count()} errors); using defaults"]
            for key in sorted(bad & set(data)):
                messages.append(f"{source}: invalid value for {key!r}; using the default")
                data.pop(key)
    return Settings(), messages


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
