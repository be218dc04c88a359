"""The one settings model: used by the CLI, the server, and checked against the VS Code client.

Names are camelCase on the wire (`lspAgents` section, `[tool.lsp-agents]`, lsp-agents.toml) and
snake_case in Python. `None` for a harness option means "whatever the harness's own config says".
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")


class CodexOptions(_Model):
    max_bytes: int | None = Field(None, ge=0, description="Overrides project_doc_max_bytes of ~/.codex/config.toml.")
    fallback_filenames: list[str] | None = Field(None, description="Overrides project_doc_fallback_filenames.")


class GeminiOptions(_Model):
    file_names: list[str] | None = Field(None, description="Overrides context.fileName of the Gemini settings.")


class ClaudeOptions(_Model):
    instruction_files: Literal["claude-md-or-agents-md", "claude-md-and-agents-md", "claude-md", "managed-only"] | None = Field(
        None, description="Claude Code's 'Project instructions' setting (default claude-md-or-agents-md)."
    )


class HarnessOptions(_Model):
    codex: CodexOptions = CodexOptions()
    gemini: GeminiOptions = GeminiOptions()
    claude: ClaudeOptions = ClaudeOptions()
    fetch_remote_instructions: bool = Field(
        False, description="Fetch opencode's remote `instructions` URLs (5 s timeout). Off: they are listed, never fetched."
    )


HarnessId = Literal["opencode", "codex", "claude-code", "gemini", "copilot", "cursor", "agents-md"]
