"""How opencode (and Kilo, its fork) reads a definition file's header: YAML, then its
sanitizer's second try (`ConfigMarkdown.parse`, `fallbackSanitization`)."""

from __future__ import annotations

import re
from dataclasses import replace

from lsp_agents.core.agents.discovery import ParsedDefinition
from lsp_agents.core.frontmatter import split_frontmatter
from lsp_agents.core.harnesses.base import LaunchContext

_HEADER = re.compile(r"^---\r?\n([\s\S]*?)\r?\n---")
_HEADER_KEY = re.compile(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)")


def sanitize_header(text: str) -> str:
    """opencode's `fallbackSanitization`, its second try at a header YAML rejects: a top-level
    `key: value` whose plain value holds a colon is put in double quotes."""
    match = _HEADER.match(text)
    if not match:
        return text
    lines = []
    for line in re.split(r"\r?\n", match.group(1)):
        field = _HEADER_KEY.fullmatch(line)
        value = field.group(2).strip() if field else ""
        if field and value not in ("", ">", "|") and value[0] not in "\"'" and ":" in value:
            line = f'{field.group(1)}: "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        lines.append(line)
    return text[: match.start(1)] + "\n".join(lines) + text[match.end(1) :]


def read_header(ctx: LaunchContext, parsed: ParsedDefinition, *, cached_retry: bool = True) -> ParsedDefinition:
    """A definition's header as opencode reads it (`ConfigMarkdown.parse`): YAML, else YAML after
    `sanitize_header`, else the file is dropped. When the sanitizer changes nothing, the second try
    parses the same text, and gray-matter answers it from its cache (keyed by the text, filled before
    the first try failed): no fields and the whole file as the body, the file kept (1.18.33 and Kilo
    7.7.7, `opencode-agents-yaml-cache`). `cached_retry` False keeps the header's error instead (a
    skill without fields has no name and is dropped either way; the error says why)."""
    if parsed.problem or parsed.yaml_error is None:
        return parsed
    text = ctx.fs.read(parsed.path).text(strip_bom=True)
    sanitized = sanitize_header(text)
    if sanitized == text and cached_retry:
        return replace(parsed, fields={}, body=text, yaml_error=None)
    fields, _body, error = split_frontmatter(sanitized)
    if fields is None:
        return replace(parsed, fields={}, yaml_error=error.message if error else parsed.yaml_error)
    return replace(parsed, fields=dict(fields), yaml_error=None)
