"""Rule files saved where their harness never looks: `unreachable-file` with the reason and a rename.

Each harness reads its rule folder by a fixed name and suffix: Cursor only `.mdc` files inside
`.cursor/rules/`, Claude Code only `.md` files in `.claude/rules/`, Copilot only
`*.instructions.md` files in `.github/instructions/`. A file one step off (an `.mdc` in `.cursor/`
or a folder of it other than `rules/`, a `.mdc` copied into `.claude/rules/`, `style.md` in
`.github/instructions/`) is never
read; the rename puts it where the harness looks. A README in a rule folder is documentation for
people and is left alone.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass

from lsp_agents.core.analysis.base import FILE_START, finding, shown
from lsp_agents.core.model import Finding, Fix

_RULE_FOLDERS = ("/.cursor/rules", "/.claude/rules", "/.github/instructions")
_DOCUMENTATION = re.compile(r"^(?:readme|changelog|license|contributing|index)(?:\.[a-z]+)*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Misplaced:
    harness: str
    reason: str
    suggested: str  # where the harness would read it (relative, '/'-separated)


def is_folder_documentation(relative: str) -> bool:
    """A README (or the like) in a rule folder: documentation for people, loaded or not."""
    return any(f"{folder}/" in f"/{relative}" for folder in _RULE_FOLDERS) and bool(
        _DOCUMENTATION.match(relative.rsplit("/", 1)[-1])
    )


def misplaced(relative: str) -> Misplaced | None:
    """Where a rule file that its harness never reads belongs, if it is one."""
    folders, name = relative.split("/")[:-1], relative.rsplit("/", 1)[-1]
    if _DOCUMENTATION.match(name):
        return None
    stem = name.rsplit(".", 1)[0]
    if ".cursor" in folders and name.endswith(".mdc"):
        at = len(folders) - 1 - folders[::-1].index(".cursor")
        if folders[at + 1 : at + 2] != ["rules"]:
            return Misplaced(
                "cursor", "Cursor only reads .mdc rules inside .cursor/rules/", "/".join([*folders[: at + 1], "rules", name])
            )
    if ".claude" in folders and folders[folders.index(".claude") + 1 :][:1] == ["rules"] and not name.endswith(".md"):
        return Misplaced("claude-code", "Claude Code only reads .md files in .claude/rules/", "/".join([*folders, stem + ".md"]))
    if (
        ".github" in folders
        and folders[folders.index(".github") + 1 :][:1] == ["instructions"]
        and name.endswith(".md")
        and not name.endswith(".instructions.md")
    ):
        return Misplaced(
            "copilot",
            "Copilot only reads *.instructions.md files in .github/instructions/",
            "/".join([*folders, stem + ".instructions.md"]),
        )
    return None


def misplaced_finding(path: str, root: str, place: Misplaced, exists: Callable[[str], bool]) -> Finding:
    target = os.path.join(root, *place.suggested.split("/"))
    fix = None if exists(target) else Fix(f"Move to {place.suggested}", rename_from=path, rename_to=target)
    message = f"{place.harness} never reads this file: {place.reason} (as {shown(target, root)} it would)"
    return finding("unreachable-file", path, FILE_START, message, harnesses=[place.harness], fix=fix)
