"""Reading the harnesses' own config files (TOML, JSON with comments, YAML) without ever failing.

A malformed file yields an empty mapping and one warning naming the file and line, so the
harness falls back to its defaults and no other harness is affected.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

import json5
import yaml

from lsp_agents.core.fs import FileSystem


@dataclass(slots=True)
class ConfigFile:
    path: str
    values: dict[str, Any] = field(default_factory=dict)
    exists: bool = False
    warning: str | None = None


def _warning(path: str, line: int | None, message: str) -> str:
    where = f"{path}:{line}" if line else path
    return f"warning: {where}: {message}; using defaults"


def _read_text(fs: FileSystem, path: str) -> tuple[str | None, str | None]:
    if not fs.exists(path):
        return None, None
    data = fs.read(path)
    if data.data is None:
        return None, _warning(path, None, f"cannot read ({data.problem})")
    return data.text(), None


def load_toml(fs: FileSystem, path: str) -> ConfigFile:
    """The TOML file (Codex config); parsed once until a file changes. Callers must not modify it."""
    return fs.memo(("toml", path), lambda: _parse_toml(fs, path))


def _parse_toml(fs: FileSystem, path: str) -> ConfigFile:
    text, warning = _read_text(fs, path)
    if text is None:
        return ConfigFile(path, exists=warning is not None, warning=warning)
    try:
        values = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return ConfigFile(path, exists=True, warning=_warning(path, _line_from_message(str(exc)), f"invalid TOML: {exc}"))
    return ConfigFile(path, values, exists=True)


def load_jsonc(fs: FileSystem, path: str) -> ConfigFile:
    """JSON that may hold comments (Gemini settings, opencode.jsonc); parsed once until a file
    changes (json5 is slow and every launch directory asks). Callers must not modify it."""
    return fs.memo(("jsonc", path), lambda: _parse_jsonc(fs, path))


def _parse_jsonc(fs: FileSystem, path: str) -> ConfigFile:
    text, warning = _read_text(fs, path)
    if text is None:
        return ConfigFile(path, exists=warning is not None, warning=warning)
    try:
        values = json5.loads(text) if text.strip() else {}
    except ValueError as exc:
        return ConfigFile(path, exists=True, warning=_warning(path, _line_from_message(str(exc)), f"invalid JSON: {exc}"))
    if not isinstance(values, dict):
        return ConfigFile(path, exists=True, warning=_warning(path, 1, "expected a JSON object"))
    return ConfigFile(path, values, exists=True)


def load_yaml(fs: FileSystem, path: str) -> ConfigFile:
    """A YAML mapping (Continue's config.yaml); parsed once until a file changes. Callers must not modify it."""
    return fs.memo(("yaml", path), lambda: _parse_yaml(fs, path))


def _parse_yaml(fs: FileSystem, path: str) -> ConfigFile:
    text, warning = _read_text(fs, path)
    if text is None:
        return ConfigFile(path, exists=warning is not None, warning=warning)
    try:
        values = yaml.safe_load(text) if text.strip() else {}
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        return ConfigFile(path, exists=True, warning=_warning(path, line, f"invalid YAML: {' '.join(str(exc).split())}"))
    if not isinstance(values, dict):
        return ConfigFile(path, exists=True, warning=_warning(path, 1, "expected a mapping"))
    return ConfigFile(path, values, exists=True)


_LINE = re.compile(r"(?:line |<string>:)(\d+)")


def _line_from_message(message: str) -> int | None:
    match = _LINE.search(message)
    return int(match.group(1)) if match else None


def get_path(values: dict[str, Any], dotted: str, default: Any = None) -> Any:
    """values["a"]["b"] for "a.b", or the default when any step is missing."""
    current: Any = values
    for key in dotted.split("."):
        if not isinstance(current, dict) or key not in current:
            return default
        current = current[key]
    return current
