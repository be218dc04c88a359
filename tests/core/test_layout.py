"""Which folders are kits of per-tool files (`layout.kits`), and that every modelled tool is named."""

from __future__ import annotations

from lsp_agents.core.harnesses.tables import specs
from lsp_agents.core.layout import KIT_TOOLS, TOOL_WORDS, kits


def test_every_modelled_harness_names_a_tool_word() -> None:
    """A harness added to the registry is a tool a kit may hold a folder for (the agents.md profile
    names a file, not a tool)."""
    missing = [s.id for s in specs() if s.id != "agents-md" and s.id.split("-")[0] not in TOOL_WORDS]
    assert missing == []


def test_a_kit_needs_enough_tool_named_sub_folders() -> None:
    tools = ["codex", "claude-code", "cursor", "gemini-cli", "github-copilot"][:KIT_TOOLS]
    paths = [f"integrations/{t}/AGENTS.md" for t in tools] + ["integrations/spec-kit/AGENTS.md", "packages/api/AGENTS.md"]
    assert kits(paths) == {"integrations"}
    assert kits(paths[1:]) == frozenset()  # one tool folder fewer
    assert kits([".claude/CLAUDE.md", ".codex/AGENTS.md", ".cursor/rules/a.mdc"]) == frozenset()  # tool folders
