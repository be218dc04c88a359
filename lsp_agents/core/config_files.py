"""Reading the harnesses' own config files (TOML, JSON with comments, YAML) without ever failing.

A malformed file yields an empty mapping and one warning naming the file and line, so the
harness falls back to its defaults and no other harness is affected.

Config files are untrusted workspace content: each is parsed by a compiled parser (rapidjson,
tomllib) and only when it is at most MAX_CONFIG_BYTES, so a 10 MB string or a deeply nested
value costs milliseconds, not minutes. Each harness's leniency is matched: opencode and Claude
Code read JSONC (comments and trailing commas); Gemini CLI strips comments and then parses plain
JSON, so a trailing comma in a file under `.gemini/` is a parse error (and Gemini refuses to
start).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.model import HarnessWarning, WarningKind
from lsp_agents.core.toml_text import InvalidToml, parse_toml
from lsp_agents.core.yaml_text import InvalidYaml, parse_yaml

MAX_CONFIG_BYTES = 1024 * 1024  # real configs are a few KiB; larger ones are reported, not parsed
# Claude Code's state file grows with the user's history (several MB is common); it lives in the
# home directory, not in a workspace, and rapidjson reads 64 MB in well under a second.
_MAX_BYTES_BY_NAME = {".claude.json": 64 * 1024 * 1024}
_GEMINI_DIRECTORY = ".gemini"


@dataclass(slots=True)
class ConfigFile:
    path: str
    values: dict[str, Any] = field(default_factory=dict)
    exists: bool = False
    warning: HarnessWarning | None = None  # an INVALID_CONFIG warning, with its line and problem


def _warning(path: str, line: int | None, message: str) -> HarnessWarning:
    where = f"{path}:{line}" if line else path
    return HarnessWarning(f"warning: {where}: {message}; using defaults", WarningKind.INVALID_CONFIG, line or None, message)


def _read_text(fs: FileSystem, path: str) -> tuple[str | None, HarnessWarning | None]:
    if not fs.exists(path):
        return None, None
    cap = _MAX_BYTES_BY_NAME.get(os.path.basename(path), MAX_CONFIG_BYTES)
    if fs.size(path) > cap:
        return None, _warning(path, None, f"larger than {cap // 1024} KiB, not parsed")
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
        values = parse_toml(text)
    except InvalidToml as exc:
        return ConfigFile(path, exists=True, warning=_warning(path, _line_from_message(str(exc)), f"invalid TOML: {exc}"))
    return ConfigFile(path, values, exists=True)


def load_jsonc(fs: FileSystem, path: str) -> ConfigFile:
    """JSON that may hold comments, parsed as the harness owning the file parses it: JSONC with
    trailing commas (opencode, Claude Code), or without them for Gemini CLI's files (under
    `.gemini/`). Parsed once until a file changes; callers must not modify it."""
    return fs.memo(("jsonc", path), lambda: _parse_jsonc(fs, path))


def _parse_jsonc(fs: FileSystem, path: str) -> ConfigFile:
    text, warning = _read_text(fs, path)
    if text is None:
        return ConfigFile(path, exists=warning is not None, warning=warning)
    gemini = os.path.basename(os.path.dirname(path)) == _GEMINI_DIRECTORY
    return parse_jsonc(text, path, trailing_commas=not gemini)


def parse_jsonc(text: str, source: str, *, trailing_commas: bool = True) -> ConfigFile:
    """JSON with comments given as text (a config in an environment variable), `source` naming it
    in the warning."""
    import rapidjson  # here, not at the top: most commands read no JSON config, and it imports uuid

    mode = rapidjson.PM_COMMENTS | (rapidjson.PM_TRAILING_COMMAS if trailing_commas else 0)
    try:
        values = rapidjson.loads(text, parse_mode=mode, number_mode=rapidjson.NM_NATIVE) if text.strip() else {}
    except (ValueError, RecursionError) as exc:
        return ConfigFile(source, exists=True, warning=_warning(source, _json_error_line(text, str(exc)), f"invalid JSON: {exc}"))
    if not isinstance(values, dict):
        return ConfigFile(source, exists=True, warning=_warning(source, 1, "expected a JSON object"))
    return ConfigFile(source, values, exists=True)


def load_yaml(fs: FileSystem, path: str) -> ConfigFile:
    """A YAML mapping (Continue's config.yaml); parsed once until a file changes. Callers must not modify it."""
    return fs.memo(("yaml", path), lambda: _parse_yaml(fs, path))


def _parse_yaml(fs: FileSystem, path: str) -> ConfigFile:
    text, warning = _read_text(fs, path)
    if text is None:
        return ConfigFile(path, exists=warning is not None, warning=warning)
    try:
        values = parse_yaml(text) if text.strip() else {}
    except InvalidYaml as exc:
        line = exc.line + 1 if exc.line is not None else None
        return ConfigFile(path, exists=True, warning=_warning(path, line, f"invalid YAML: {' '.join(str(exc).split())}"))
    if not isinstance(values, dict):
        return ConfigFile(path, exists=True, warning=_warning(path, 1, "expected a mapping"))
    return ConfigFile(path, values, exists=True)


_LINE = re.compile(r"(?:line |<string>:)(\d+)")
_OFFSET = re.compile(r"at offset (\d+)")


def _line_from_message(message: str) -> int | None:
    match = _LINE.search(message)
    return int(match.group(1)) if match else None


def _json_error_line(text: str, message: str) -> int | None:
    """The 1-based line of rapidjson's error offset (a byte offset into the UTF-8 text)."""
    match = _OFFSET.search(message)
    return text.encode("utf-8", "surrogatepass").count(b"\n", 0, int(match.group(1))) + 1 if match else None


def get_path(values: dict[str, Any], dotted: str, default: Any = None) -> Any:
    """values["a"]["b"] for "a.b", or the default when any step is missing."""
    current: Any = values
    for key in dotted.split("."):
        if not isinstance(current, dict) or key not in current:
            return default
        current = current[key]
    return current
