"""How Claude Code states its definitions: a skill's or command's listed name and description
(cut at `skillListingMaxDescChars`), an agent's tools, and which agent names it refuses."""

from __future__ import annotations

import re
import unicodedata

from lsp_agents.core.agents.discovery import first_line
from lsp_agents.core.agents.model import Definition

MAX_LISTED_DESCRIPTION = 1536  # skillListingMaxDescChars
MAX_AGENT_NAME = 256  # `bU`
BREAKS = re.compile(r"[\t\r\n]+")


def tool_list(value: object) -> list[str]:
    if isinstance(value, str):
        return [t.strip() for t in value.split(",") if t.strip()]
    if isinstance(value, list):
        return [t for t in value if isinstance(t, str)]
    return []


def tools_text(tools: list[str], denied: list[str]) -> str:
    """How the agents listing states an agent's tools (`tools`, `disallowedTools`)."""
    if tools and denied:
        kept = [t for t in tools if t not in denied]
        return ", ".join(kept) if kept else "None"
    if tools:
        return ", ".join(tools)
    return f"All tools except {', '.join(denied)}" if denied else "All tools"


def has_tool(tools: str | None, tool: str) -> bool:
    if tools is None or tools.startswith("All tools"):
        return tools is None or tool not in tools.removeprefix("All tools except ").split(", ")
    return tool in tools.split(", ")


def listed_description(description: str | None, body: str, when_to_use: str | None) -> str:
    """A listed skill's or command's description: its own, trimmed, else its body's first line;
    then `when_to_use`; every run of tabs and line breaks one space (GD-18: a folded `>` block
    ends in a line break, a literal `|` one has them inside; an agent's is sent as written)."""
    text = description.strip() if description else (first_line(body) or "").lstrip("#").strip()
    return BREAKS.sub(" ", f"{text} - {when_to_use}" if when_to_use else text)


def listed_name(skill: Definition) -> str:
    return f"{skill.name} ({skill.declared_name})" if skill.declared_name else skill.name


def cut_description(description: str) -> str:
    if len(description) <= MAX_LISTED_DESCRIPTION:
        return description
    return description[: MAX_LISTED_DESCRIPTION - 1] + "\u2026"


def agent_name_problem(name: str) -> str | None:
    """Why Claude Code refuses an agent's `name` (2.1.332 `Bfo`), or None."""
    if name.startswith("-"):
        return "starts with `-`"
    if len(name) > MAX_AGENT_NAME:
        return f"is over {MAX_AGENT_NAME} characters"
    if ":" in unicodedata.normalize("NFKC", name):
        return "holds `:` (kept for plugin namespaces)"
    return None
