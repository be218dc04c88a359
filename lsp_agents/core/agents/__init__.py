"""Agents, skills and commands: what each harness finds besides instruction files, what it
sends of them at the start of a session, and which reminders a session adds."""

from __future__ import annotations

from lsp_agents.core.agents.base import Definitions
from lsp_agents.core.agents.claude import ClaudeDefinitions
from lsp_agents.core.agents.cline import ClineDefinitions
from lsp_agents.core.agents.codex import CodexDefinitions
from lsp_agents.core.agents.continue_cli import ContinueDefinitions
from lsp_agents.core.agents.copilot_cli import CopilotCliDefinitions
from lsp_agents.core.agents.droid import DroidDefinitions
from lsp_agents.core.agents.gemini import GeminiDefinitions
from lsp_agents.core.agents.kilo import KiloDefinitions
from lsp_agents.core.agents.opencode import OpencodeDefinitions
from lsp_agents.core.agents.pi import PiDefinitions
from lsp_agents.core.agents.qwen import QwenDefinitions

DEFINITIONS: dict[str, Definitions] = {
    d.harness: d
    for d in (
        OpencodeDefinitions(),
        ClaudeDefinitions(),
        CodexDefinitions(),
        GeminiDefinitions(),
        QwenDefinitions(),
        KiloDefinitions(),
        PiDefinitions(),
        CopilotCliDefinitions(),
        DroidDefinitions(),
        ClineDefinitions(),
        ContinueDefinitions(),
    )
}

__all__ = ["DEFINITIONS", "Definitions"]
