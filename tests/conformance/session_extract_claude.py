"""Claude Code's part of the session extract that session_extract.py leaves to this module: the skills
a typed command's `@path` mentions find (FINDINGS.md GD-39)."""

from __future__ import annotations

import re

from lsp_agents.core.agents.claude_found import SKILLS_HEADER

DISCOVERED = re.compile(r"New skills discovered in [^\n]*, now available via the Skill tool:\n- [^\n]*(?:\n- [^\n]*)*")


def found_claude(body: dict) -> str | None:
    """The "New skills discovered" paragraphs the reads of a typed command's mentions add to the
    system-role message that lists the skills, then the listing's entries of the skills they name
    (which Claude Code puts after its built-in skills), joined as lsp-agents' `skills-found` reminder;
    None when they found none."""
    message = next((m["content"] for m in body["messages"] if m["role"] == "system" and SKILLS_HEADER in str(m["content"])), None)
    text = message if isinstance(message, str) else "".join(p.get("text", "") for p in message or [])
    paragraphs = DISCOVERED.findall(text.split(SKILLS_HEADER, 1)[0])
    if not paragraphs:
        return None
    names = {line[2:] for paragraph in paragraphs for line in paragraph.split("\n")[1:]}
    listing = text.split(SKILLS_HEADER, 1)[1].split("\n\n")[1]
    entries = [line for line in listing.split("\n") if (m := re.match(r"- (\S+?)(?: \([^)]*\))?: ", line)) and m[1] in names]
    return "\n\n".join([*paragraphs, "\n".join(entries)])
