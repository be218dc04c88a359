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
from lsp_agents.core.analysis.globs import RuleType, rule_types
from lsp_agents.core.harnesses.spec import Misfiling
from lsp_agents.core.model import Finding, Fix

_DOCUMENTATION = re.compile(r"^(?:readme|changelog|license|contributing|index)(?:\.[a-z]+)*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Misplaced:
    harness: str
    reason: str
    suggested: str  # where the harness would read it (relative, '/'-separated)


def is_folder_documentation(relative: str) -> bool:
    """A README (or the like) in a rule folder: documentation for people, loaded or not."""
    return any(f"/{kind.header.folder}/" in f"/{relative}" for kind in rule_types()) and bool(
        _DOCUMENTATION.match(relative.rsplit("/", 1)[-1])
    )


def is_home_template(relative: str, text: str) -> bool:
    """A file in a dot folder of the project (`.qwen/QWEN.md`) whose text names that folder in the
    user's home (`~/.qwen/`): the source an installer copies there, not a file meant to load from
    the repository."""
    tool_folders = [folder for folder in relative.split("/")[:-1] if folder.startswith(".")]
    return any(re.search(rf"~/{re.escape(folder)}(?![\w.-])", text) for folder in tool_folders)


def misplaced(relative: str) -> Misplaced | None:
    """Where a rule file that its harness never reads belongs, if it is one. A file outside its
    rule folder is placed before one misnamed in another harness's rule folder."""
    folders, name = relative.split("/")[:-1], relative.rsplit("/", 1)[-1]
    if _DOCUMENTATION.match(name):
        return None
    ordered = sorted(rule_types(), key=lambda kind: kind.header.misfiling is not Misfiling.OUTSIDE_RULE_FOLDER)
    return next((place for kind in ordered if (place := _misfiled(kind, folders, name)) is not None), None)


def _misfiled(kind: RuleType, folders: list[str], name: str) -> Misplaced | None:
    header = kind.header
    tool, rules = header.folder.split("/")
    if tool not in folders:
        return None
    if header.misfiling is Misfiling.OUTSIDE_RULE_FOLDER:
        at = len(folders) - 1 - folders[::-1].index(tool)
        if not name.endswith(header.suffix) or folders[at + 1 : at + 2] == [rules]:
            return None
        return Misplaced(kind.harness, header.misfiled, "/".join([*folders[: at + 1], rules, name]))
    in_rules = folders[folders.index(tool) + 1 :][:1] == [rules]
    if not in_rules or name.endswith(header.suffix) or not name.endswith(header.misfiled_suffix):
        return None
    stem = name.rsplit(".", 1)[0]
    return Misplaced(kind.harness, header.misfiled, "/".join([*folders, stem + header.suffix]))


def misplaced_finding(path: str, root: str, place: Misplaced, exists: Callable[[str], bool]) -> Finding:
    target = os.path.join(root, *place.suggested.split("/"))
    fix = None if exists(target) else Fix(f"Move to {place.suggested}", rename_from=path, rename_to=target)
    message = f"{place.harness} never reads this file: {place.reason} (as {shown(target, root)} it would)"
    return finding("unreachable-file", path, FILE_START, message, harnesses=[place.harness], fix=fix)
