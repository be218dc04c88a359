"""Which workspace paths hold agents, skills and commands (a tool folder's definition folders, a
config file that defines agents), and whether an edit touches one."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from lsp_agents.core.layout import is_test_data
from lsp_agents.core.model import Finding
from lsp_agents.core.workspace import WorkspaceIndex

# Folders below a tool folder that hold definitions, and config files that define agents.
DEFINITION_FOLDERS = {
    ".claude": ("skills", "agents", "commands"),
    ".agents": ("skills",),
    ".opencode": ("agent", "agents", "mode", "modes", "command", "commands", "skill", "skills"),
    ".gemini": ("skills",),
    ".codex": ("agents",),
    ".qwen": ("skills", "agents", "commands"),
    ".kilo": ("agent", "agents", "mode", "modes", "command", "commands", "skill", "skills"),
    ".kilocode": ("agent", "agents", "mode", "modes", "command", "commands", "skill", "skills"),
    ".github": ("skills", "agents"),
    ".factory": ("skills", "droids"),
    ".agent": ("skills",),
    ".cline": ("skills", "workflows"),
    ".clinerules": ("skills", "workflows"),
    ".continue": ("skills",),
}
CONFIG_NAMES = ("opencode.json", "opencode.jsonc", "kilo.json", "kilo.jsonc")


def definition_owner(relative: str) -> str | None:
    """The directory whose tool folder holds this definition path ('' for the root), or None. A
    config inside a tool folder (`.opencode/opencode.json`) is its parent directory's."""
    parts = relative.split("/")
    if parts[-1] in CONFIG_NAMES:
        folders = parts[:-1]
        return "/".join(folders[:-1] if folders and folders[-1].startswith(".") else folders)
    for index, part in enumerate(parts[:-1]):
        if part in DEFINITION_FOLDERS and parts[index + 1] in DEFINITION_FOLDERS[part]:
            return "/".join(parts[:index])
    return None


def is_definition_path(relative: str) -> bool:
    return definition_owner(relative) is not None and not is_test_data(relative)


def changed_definitions(index: WorkspaceIndex, paths: Iterable[str], known: Mapping[str, list[Finding]]) -> bool:
    """Whether an edit may change the definition findings."""
    return any(p in known or (index.contains(p) and is_definition_path(index.relative(p))) for p in paths)
