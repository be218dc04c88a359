"""Hover on an agent, skill or command file: which harness takes it, under which name, what it
sends at the start of a session (the listing entry) and what only on use."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lsp_agents.core.agents.session import definition_uses
from lsp_agents.core.analysis.definition_paths import definition_owner
from lsp_agents.core.harnesses import HARNESSES

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer

_WHEN = {"listed": "listed at start", "on-use": "only on use", "not-sent": "not sent"}


def summary(ls: AgentsLanguageServer, path: str) -> str | None:
    """The hover text of a definition file, or None when `path` is none."""
    folder = ls.folder_for(path)
    if folder is None:
        return None
    owner = definition_owner(folder.index.relative(path))
    if owner is None:
        return None
    cwd = os.path.join(folder.root, owner) if owner else folder.root
    enabled = ls.enabled_harnesses(path)
    uses = definition_uses([HARNESSES[h] for h in enabled if h in HARNESSES], ls.context(path, cwd), path)
    title = f"**{uses[0]['kind']} `{uses[0]['name']}`**" if uses else f"**{os.path.basename(path)}**"
    lines = [f"{title} — found from `{owner or '.'}`", ""]
    for use in uses:
        when = _WHEN[use["delivery"]]
        if use["shadowedBy"]:
            when = f"not sent: `{os.path.relpath(use['shadowedBy'], cwd)}` wins the name"
        line = f"- **{use['harness']}** ({use['kind']} `{use['name']}`): {when}"
        if use["delivery"] == "listed" and use["listed"] is not None:
            line += f"; its name and description ({len(use['listed']):,} characters) in the listing"
        if use["delivery"] != "not-sent" and use["on_use"]:
            line += f"; {use['on_use']} ({use['body_chars']:,} characters)"
        lines.append(line)
        lines += [f"  - {issue}" for issue in use["issues"]]
    readers = {u["harness"] for u in uses}
    ignoring = [h for h in enabled if h not in readers]
    if not uses:
        lines.append("No enabled harness takes this file from here.")
    elif ignoring:
        lines += ["", "Not read by: " + ", ".join(ignoring)]
    return "\n".join(lines)
