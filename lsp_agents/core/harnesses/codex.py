"""Codex CLI: one AGENTS.md per directory from the project root down to cwd, under a byte budget.

Per directory the first *existing* of AGENTS.override.md, AGENTS.md and the configured fallback
names counts (so an empty override silences AGENTS.md). The shared `project_doc_max_bytes`
budget is spent root first with a raw byte cut. The global file in $CODEX_HOME is the first
*non-empty* of AGENTS.override.md and AGENTS.md, trimmed, outside the budget. Nothing on read.

Follows Codex 0.171.0: its captures of every conformance scenario give the same text as
0.169.0's (tests/conformance/FINDINGS.md, section 10).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from lsp_agents.core.config_files import load_toml
from lsp_agents.core.fs import FileData
from lsp_agents.core.harnesses.base import Harness, LaunchContext, read_candidate, skipped
from lsp_agents.core.harnesses.spec import (
    ConfigFile,
    DefinitionRivals,
    Detection,
    EnvDir,
    HarnessSpec,
    Place,
    SelfReport,
    home_folder,
)
from lsp_agents.core.model import Block, Candidate, Cascade, Placement, Reason, Role
from lsp_agents.core.text import rust_trim
from lsp_agents.core.walk import ancestors, beyond_boundary

OVERRIDE_NAME = "AGENTS.override.md"
DEFAULT_NAME = "AGENTS.md"
DEFAULT_MAX_BYTES = 32 * 1024
DEFAULT_ROOT_MARKERS = (".git",)
PROJECT_DOC_SEPARATOR = "\n\n--- project-doc ---\n\n"
CONFIG_NAME = "config.toml"
INSTRUCTIONS_HEADER = "# AGENTS.md instructions"


def prompt_input_instructions(output: bytes) -> str:
    """The project instructions in `codex debug prompt-input`'s JSON (the model-visible input
    list): the text of the user message that starts with the AGENTS.md header, "" when Codex
    sends none. ValueError on output that is no such list."""
    items = json.loads(output)
    if not isinstance(items, list):
        raise ValueError("not a list of prompt items")
    for item in items:
        if not isinstance(item, dict) or item.get("type") != "message" or item.get("role") != "user":
            continue
        for part in item.get("content") or ():
            text = part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str) and text.startswith(INSTRUCTIONS_HEADER):
                return text
    return ""


SPEC = HarnessSpec(
    "codex",
    "Codex CLI",
    verified=True,
    version="0.171.0",
    package="@openai/codex",
    home=EnvDir("CODEX_HOME", (".codex",)),
    global_folders=(home_folder(".agents"),),  # skills
    global_files=(OVERRIDE_NAME, DEFAULT_NAME),
    global_subfolders=("agents", "skills"),
    instruction_names=(OVERRIDE_NAME, DEFAULT_NAME),
    project_folders=(".codex/agents", ".agents/skills"),
    config_files=(ConfigFile(CONFIG_NAME, Place.HOME_FOLDER),),
    detection=Detection(names=(DEFAULT_NAME, OVERRIDE_NAME), own_files=(".codex",)),
    literal_imports=True,
    cuts_files="the shared project_doc_max_bytes budget runs out",
    definition_rivals=DefinitionRivals.LISTS_BOTH,
    lists_model_disabled_skills=True,
    # Renders the input without a model call; MCP servers off, since listing their tools starts them.
    self_report=SelfReport("codex", ("debug", "prompt-input", "-c", "mcp_servers={}"), prompt_input_instructions),
)


@dataclass(frozen=True, slots=True)
class CodexConfig:
    max_bytes: int
    names: tuple[str, ...]
    root_markers: tuple[str, ...]


def _string_list(value: object) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return None


class Codex(Harness):
    spec = SPEC

    def config(self, ctx: LaunchContext, cascade: Cascade) -> CodexConfig:
        loaded = load_toml(ctx.fs, os.path.join(self.home_dir(ctx), CONFIG_NAME))
        if loaded.warning:
            cascade.warnings.append(loaded.warning)
        values = loaded.values
        options = ctx.options.codex
        max_bytes = values.get("project_doc_max_bytes", DEFAULT_MAX_BYTES)
        if options.max_bytes is not None:
            max_bytes = options.max_bytes
        if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes < 0:
            max_bytes = DEFAULT_MAX_BYTES
        fallbacks = options.fallback_filenames
        if fallbacks is None:
            fallbacks = _string_list(values.get("project_doc_fallback_filenames")) or []
        names = [OVERRIDE_NAME, DEFAULT_NAME]
        names += [n for n in fallbacks if n and n not in names]
        markers = _string_list(values.get("project_root_markers"))
        return CodexConfig(max_bytes, tuple(names), tuple(DEFAULT_ROOT_MARKERS if markers is None else markers))

    def looks_for(self, ctx: LaunchContext) -> tuple[str, ...]:
        return tuple(self.config(ctx, Cascade(self.id, ctx.cwd)).names)

    def directory_names(self, ctx: LaunchContext) -> frozenset[str] | None:
        config = self.config(ctx, Cascade(self.id, ctx.cwd))
        if config.root_markers != DEFAULT_ROOT_MARKERS:
            return None  # any file may be a project root marker
        return frozenset(n.lower() for n in config.names)

    def content_shape(self, data: FileData) -> Hashable | None:
        """Whether the file is blank (skipped); its size counts too: see `keeps_candidates`."""
        return None if data.problem else not rust_trim(data.text())

    def keeps_candidates(self, context: Callable[[], LaunchContext], cascade: Cascade) -> bool:
        """Nothing was cut and the project files still fit the budget (with room to spare, so no
        blank file after them turns into `budget-exhausted`)."""
        if any(c.truncated_at is not None or c.reason == Reason.BUDGET_EXHAUSTED for c in cascade.files):
            return False
        ctx = context()
        loaded = sum(ctx.fs.size(c.path) for c in cascade.files if c.loaded and c.role == Role.PROJECT)
        return loaded < self.config(ctx, Cascade(self.id, ctx.cwd)).max_bytes

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        cascade = Cascade(self.id, ctx.cwd)
        config = self.config(ctx, cascade)
        global_text = self._global(ctx, cascade)
        docs = self._project_docs(ctx, config, cascade)
        if docs:
            body = "\n\n".join(docs)
            if global_text:
                body = global_text + PROJECT_DOC_SEPARATOR + body
            header = f"# AGENTS.md instructions for {ctx.cwd}"
        elif global_text:
            body, header = global_text, "# AGENTS.md instructions"
        else:
            return cascade
        cascade.blocks.append(Block(Placement.USER, f"{header}\n\n<INSTRUCTIONS>\n{body}\n</INSTRUCTIONS>"))
        return cascade

    def _global(self, ctx: LaunchContext, cascade: Cascade) -> str | None:
        home = self.home_dir(ctx)
        chosen: str | None = None
        text: str | None = None
        for name in (OVERRIDE_NAME, DEFAULT_NAME):
            path = os.path.join(home, name)
            if not ctx.fs.exists(path):
                continue
            if chosen:
                cascade.files.append(skipped(ctx, path, Role.GLOBAL, Reason.GLOBAL_SHADOWED, chosen))
                continue
            data = read_candidate(ctx.fs, cascade, path, Role.GLOBAL)
            if data is None:
                continue
            trimmed = rust_trim(data.text())
            if not trimmed:
                cascade.files.append(Candidate(path, Role.GLOBAL, False, data.size, Reason.EMPTY))
                continue
            chosen, text = path, trimmed
            cascade.files.append(Candidate(path, Role.GLOBAL, True, data.size))
        return text

    def project_root(self, ctx: LaunchContext, markers: tuple[str, ...]) -> str | None:
        for directory in ancestors(ctx.cwd) if markers else ():
            if any(ctx.fs.exists(os.path.join(directory, m)) for m in markers):
                return directory
        return None

    def _project_docs(self, ctx: LaunchContext, config: CodexConfig, cascade: Cascade) -> list[str]:
        root = self.project_root(ctx, config.root_markers)
        directories = list(reversed(ancestors(ctx.cwd, root))) if root else [ctx.cwd]
        for path in beyond_boundary(ctx.fs, directories[0], config.names):
            cascade.files.append(skipped(ctx, path, Role.PROJECT, Reason.OUTSIDE_BOUNDARY))
        docs: list[str] = []
        remaining = config.max_bytes
        for directory in directories:
            chosen = self._select(ctx, directory, config, cascade)
            if chosen is None:
                continue
            if remaining == 0:
                cascade.files.append(skipped(ctx, chosen, Role.PROJECT, Reason.BUDGET_EXHAUSTED))
                continue
            data = read_candidate(ctx.fs, cascade, chosen, Role.PROJECT, prefix=remaining)
            if data is None or data.data is None:
                continue
            kept = data.data[:remaining]
            truncated_at = remaining if data.size > remaining else None
            text = kept.decode("utf-8", errors="replace")
            if not rust_trim(text):
                cascade.files.append(Candidate(chosen, Role.PROJECT, False, data.size, Reason.EMPTY))
                continue
            docs.append(text)
            remaining -= len(kept)
            cascade.files.append(Candidate(chosen, Role.PROJECT, True, data.size, truncated_at=truncated_at))
        return docs

    def _select(self, ctx: LaunchContext, directory: str, config: CodexConfig, cascade: Cascade) -> str | None:
        """The first name that is a regular file here; the others that exist are shadowed by it."""
        chosen = None
        for name in config.names:
            path = os.path.join(directory, name)
            if not ctx.fs.is_file(path):
                if ctx.fs.exists(path):  # Codex passes over what is not a regular file
                    cascade.files.append(Candidate(path, Role.PROJECT, False, 0, ctx.fs.read(path).problem))
                continue
            if chosen is None:
                chosen = path
            else:
                reason = Reason.OVERRIDE_SHADOWED if chosen.endswith(OVERRIDE_NAME) else Reason.NAME_SHADOWED
                cascade.files.append(skipped(ctx, path, Role.PROJECT, reason, chosen))
        return chosen
