"""Finding and reading agent, skill and command files the way the harnesses do.

Workspace trees are untrusted: walks are bounded (entries and depth), follow symlinked
directories only once per real directory (the harnesses follow them: a `.agents/skills` that
links to `.claude/skills` is common), and files are read through the safe reader.

Every harness captured reads a definition's header leniently: a `description:` holding
`ARGUMENTS: "x"` (a YAML error) still loads, read as one `key: value` per line. So a header
counts as unreadable only when neither YAML nor that line reading gives any field.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from lsp_agents.core.frontmatter import split_frontmatter
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.model import Reason
from lsp_agents.core.toml_text import InvalidToml, parse_toml
from lsp_agents.core.walk import files_below

MAX_DEPTH = 8


@dataclass(frozen=True, slots=True)
class Walk:
    files: tuple[str, ...]
    complete: bool


def find_files(
    fs: FileSystem, root: str, wanted: Callable[[str, int], bool], *, max_depth: int = MAX_DEPTH, skip_dot: bool = False
) -> Walk:
    """The files under `root` for which `wanted(relative path, depth)` holds, sorted by path.

    Symlinked directories are entered once per real directory; `skip_dot` leaves out entries
    whose name starts with a dot (Codex does)."""
    files, complete = files_below(fs, root, follow_symlinks=True, skip_hidden=skip_dot, max_depth=max_depth)
    prefix = root.rstrip(os.sep) + os.sep
    chosen = []
    for path in files:
        relative = path[len(prefix) :].replace(os.sep, "/")
        if wanted(relative, relative.count("/")):
            chosen.append(path)
    return Walk(tuple(chosen), complete)


def skill_file(relative: str, depth: int) -> bool:
    """A SKILL.md at any depth below a skills directory."""
    return relative.rsplit("/", 1)[-1] == "SKILL.md"


def markdown_file(relative: str, depth: int) -> bool:
    return relative.endswith(".md")


@dataclass(frozen=True, slots=True)
class ParsedDefinition:
    """A definition file: its header fields (read leniently), body, and where keys are.

    `problem` is set when the file cannot be read as text; `header` is False when it has no
    `---` header; `unreadable_header` when neither YAML nor key-per-line reading gave a field."""

    path: str
    problem: Reason | None
    header: bool
    fields: dict[object, object]
    body: str
    lines: dict[str, int] = field(default_factory=dict)
    yaml_error: str | None = None
    bom: bool = False  # the file starts with a byte-order mark (dropped before the header is read)

    @property
    def unreadable_header(self) -> bool:
        return self.header and not self.fields and self.yaml_error is not None

    def text_field(self, key: str) -> str | None:
        value = self.fields.get(key)
        return value if isinstance(value, str) else None

    def line_of(self, key: str) -> int:
        return self.lines.get(key, 0)


_KEY = re.compile(r"([A-Za-z_][\w.-]*)[ \t]*:")


def parse_definition(fs: FileSystem, path: str) -> ParsedDefinition:
    """Read `path` and split its header the lenient way every captured harness does."""
    data = fs.read(path)
    if data.problem or data.data is None or data.is_binary:
        return ParsedDefinition(path, data.problem or Reason.UNREADABLE, False, {}, "")
    text = data.text(strip_bom=True)
    bom = data.data.startswith(b"\xef\xbb\xbf")
    strict, body, error = split_frontmatter(text)
    if strict is None and error is None:
        return ParsedDefinition(path, None, False, {}, text, bom=bom)
    if error is not None and error.past_bound:  # not judged
        return ParsedDefinition(path, Reason.TOO_LARGE, True, {}, body, bom=bom)
    fields = strict
    if fields is None:
        loose, _body, _error = split_frontmatter(text, loose=True)
        fields = loose or {}
    return ParsedDefinition(path, None, True, dict(fields), body, _key_lines(text), error.message if error else None, bom)


def _key_lines(text: str) -> dict[str, int]:
    """0-based line of each top-level header key (the header starts on line 1)."""
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines()[1:], 1):
        if line.rstrip() == "---":
            break
        match = _KEY.match(line)
        if match and match.group(1) not in lines:
            lines[match.group(1)] = number
    return lines


def first_line(body: str) -> str | None:
    """The first non-blank line of a body (Claude Code's description when the header has none)."""
    return next((line.strip() for line in body.splitlines() if line.strip()), None)


def toml_command(fs: FileSystem, path: str) -> tuple[str, object, str | None]:
    """(prompt, description, why the file is not loaded) of a Gemini-style `.toml` command: it
    needs a text `prompt` (`TomlCommandDefSchema`)."""
    data = fs.read(path)
    if data.problem or data.data is None:
        return "", None, "it cannot be read"
    try:
        values = parse_toml(data.text(strip_bom=True))
    except InvalidToml as error:
        return "", None, f"its TOML does not parse ({error})"
    prompt = values.get("prompt")
    if not isinstance(prompt, str):
        return "", None, "it has no text `prompt`"
    return prompt, values.get("description"), None
