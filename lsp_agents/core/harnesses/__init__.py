"""The harness models, by id."""

from __future__ import annotations

from typing import TypeVar

from lsp_agents.core.harness_ids import DEFAULT_HARNESS
from lsp_agents.core.harnesses.agents_md import AgentsMd
from lsp_agents.core.harnesses.amp import Amp
from lsp_agents.core.harnesses.auggie import Auggie
from lsp_agents.core.harnesses.base import Harness, LaunchContext
from lsp_agents.core.harnesses.claude import Claude
from lsp_agents.core.harnesses.cline import Cline
from lsp_agents.core.harnesses.codex import Codex
from lsp_agents.core.harnesses.continue_cli import ContinueCli
from lsp_agents.core.harnesses.copilot import Copilot
from lsp_agents.core.harnesses.copilot_cli import CopilotCli
from lsp_agents.core.harnesses.crush import Crush
from lsp_agents.core.harnesses.cursor import Cursor
from lsp_agents.core.harnesses.droid import Droid
from lsp_agents.core.harnesses.gemini import Gemini
from lsp_agents.core.harnesses.goose import Goose
from lsp_agents.core.harnesses.kilo import Kilo
from lsp_agents.core.harnesses.kiro import Kiro
from lsp_agents.core.harnesses.opencode import Opencode
from lsp_agents.core.harnesses.opencode2 import Opencode2
from lsp_agents.core.harnesses.openhands import OpenHands
from lsp_agents.core.harnesses.pi import Pi
from lsp_agents.core.harnesses.qwen import Qwen
from lsp_agents.core.harnesses.roo import Roo
from lsp_agents.core.harnesses.windsurf import Windsurf
from lsp_agents.core.harnesses.zed import Zed

HARNESSES: dict[str, Harness] = {
    h.id: h
    for h in (
        Opencode(),
        Codex(),
        Claude(),
        Gemini(),
        Copilot(),
        Cursor(),
        AgentsMd(),
        Pi(),
        CopilotCli(),
        Qwen(),
        Kilo(),
        Droid(),
        ContinueCli(),
        Cline(),
        Crush(),
        Zed(),
        Goose(),
        Windsurf(),
        Kiro(),
        Roo(),
        Auggie(),
        OpenHands(),
        Opencode2(),
        Amp(),
    )
}
H = TypeVar("H", bound=Harness)


class UnknownHarness(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(f"unknown harness {name!r} (known: {', '.join(HARNESSES)})")


def get_harness(name: str) -> Harness:
    try:
        return HARNESSES[name]
    except KeyError:
        raise UnknownHarness(name) from None


def harness_model(name: str, model: type[H]) -> H:
    """The harness `name` as the class that models it, for a caller that reads what only that
    class offers (an agent model reads its harness's settings)."""
    harness = HARNESSES[name]
    if not isinstance(harness, model):
        raise TypeError(f"{name} is modelled by {type(harness).__name__}, not {model.__name__}")
    return harness


__all__ = ["DEFAULT_HARNESS", "HARNESSES", "Harness", "LaunchContext", "UnknownHarness", "get_harness", "harness_model"]
