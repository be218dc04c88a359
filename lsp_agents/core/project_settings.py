"""A repository's own settings: `lsp-agents.toml` at the workspace root, else `[tool.lsp-agents]`
of pyproject.toml, read as the untrusted workspace content they are.

They may set what the checks report and how (severities, exclusions, harnesses, thresholds…), but
never what is read outside the workspace or fetched: a `UserOnly` setting found there is ignored
with a message saying how the user sets it instead, and an `InsideWorkspace` setting whose value
leaves the workspace is ignored too.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from lsp_agents.core.config_files import load_toml
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.settings import InsideWorkspace, Settings, UserOnly, marked, parse_settings, without
from lsp_agents.core.walk import ancestors, find_marker_root, leaves_directory

_UNSET = object()
SETTINGS_FILE = "lsp-agents.toml"
SETTINGS_FILES = ((SETTINGS_FILE, ()), ("pyproject.toml", ("tool", "lsp-agents")))


def load_project_settings(root: str, fs: FileSystem | None = None) -> tuple[Settings, list[str]]:
    """The settings of the repository at `root`, with every setting it may not choose left unset.

    Read like any workspace file (bounded, never from a FIFO or a device), from the disk unless
    `fs` reads another version of the files (a git revision)."""
    fs = fs or FileSystem()
    found = _settings_table(fs, root)
    if found is None:
        return Settings(), []
    path, data, warning = found
    if warning:
        return Settings(), [warning.replace("; using defaults", "; using default settings")]
    return repository_settings(data, root, path, fs.realpath)


def workspace_root(start: str, fs: FileSystem | None = None) -> str:
    """The workspace root of a command run in `start`, found the way ruff finds its project: the
    nearest ancestor holding lsp-agents settings (lsp-agents.toml, or a pyproject.toml with a
    `[tool.lsp-agents]` table), else the git root, else `start` itself. Run in a subdirectory,
    `check` still sees the whole repository: the launch directories above it and their findings."""
    fs = fs or FileSystem()
    for directory in ancestors(start):
        if _settings_table(fs, directory) is not None:
            return directory
    return find_marker_root(fs, start, [".git"]) or start


def _settings_table(fs: FileSystem, directory: str) -> tuple[str, Any, str | None] | None:
    """The settings file of `directory`: (its path, the settings table, a parse warning), or None
    when it has none (a pyproject.toml without `[tool.lsp-agents]` is none)."""
    for name, table in SETTINGS_FILES:
        path = os.path.join(directory, name)
        if not fs.exists(path):
            continue
        loaded = load_toml(fs, path)
        if loaded.warning:
            return path, None, loaded.warning
        data: Any = loaded.values
        for key in table:
            data = data.get(key) if isinstance(data, dict) else None
        if data is not None:
            return path, data, None
    return None


def repository_settings(
    raw: Any, root: str, source: str, realpath: Callable[[str], str] = os.path.realpath
) -> tuple[Settings, list[str]]:
    """`raw` parsed, less what a repository may not set: one message per setting left out.
    `realpath` resolves the paths it names (a link inside the workspace may lead out)."""
    settings, messages = parse_settings(raw, source)
    values = dict(settings.given)
    for path, user_only in marked(UserOnly).items():
        if _value(values, path) is not _UNSET:
            values = without(values, path)
            messages.append(
                f"{source}: ignoring {'.'.join(path)!r}: it {user_only.effect}, so a repository's settings "
                f"may not set it; use {user_only.flag} or your editor's user settings"
            )
    for path, inside in marked(InsideWorkspace).items():
        value = _value(values, path)
        outside = (
            next((p for p in inside.paths(value) if leaves_directory(root, p, realpath)), None) if value is not _UNSET else None
        )
        if outside is not None:
            values = without(values, path)
            messages.append(f"{source}: ignoring {'.'.join(path)!r}: {outside!r} is outside the workspace")
    return parse_settings(values, source)[0], messages  # what is left was valid: no message twice


def _value(values: dict[str, Any], path: tuple[str, ...]) -> Any:
    """The value set at `path` of a settings dump (by alias), or _UNSET."""
    node: Any = values
    for key in path:
        node = node.get(key, _UNSET) if isinstance(node, dict) else _UNSET
    return node
