"""The headers of Cline CLI's rules, skills, workflows and agents (cline 3.0.65, @cline/core).

Rules, skills and workflows (`hX`, `IX`, `vX`) split a file with `yX`: a `---` line, the header, a
`---` line, the body; the header is read by the `yaml` package (`pw.parse`), and a header it rejects
drops the file. Agents (`eY`) take their header with `Hc`: of every `---` line after the opening one,
the last whose header reads as a mapping that `Nz` accepts closes it. The package reads YAML 1.2 with
the core schema and rejects a mapping that holds a key twice (`uniqueKeys`), which
`yaml_text.parse_yaml(core_schema=True)` mirrors. A `name` or `description` that is no string
(`SZ`) or a `disabled`/`enabled` that is no boolean (`Z8`) drops the file too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lsp_agents.core.frontmatter import MAX_FRONTMATTER_CHARS
from lsp_agents.core.model import Reason
from lsp_agents.core.text import js_trim
from lsp_agents.core.yaml_text import InvalidYaml, parse_yaml

_FRONTMATTER = re.compile(r"^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$")
_AGENT_FENCE = re.compile(r"^---[^\S\r\n]*(?:\r?\n|$)", re.MULTILINE)
Fields = dict[object, object]
# An agent's header is looked for before every `---` line, each try parsing all the text before
# it: a file of many such lines would cost the square of its size. The tries stop once they have
# parsed this much in all (real headers are a few hundred characters, tried a few times).
AGENT_HEADER_BUDGET = 2 * MAX_FRONTMATTER_CHARS


@dataclass(frozen=True, slots=True)
class ClineFile:
    """A rule, skill or workflow as Cline reads it."""

    name: str
    body: str
    disabled: bool = False
    description: str | None = None

    @property
    def key(self) -> str:
        """The watcher's id of the definition (`h4`: trimmed, lower case)."""
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class AgentHeader:
    """What `eY` takes from an agent config: `Nz`'s `name` and `description` (trimmed) and the body."""

    name: str
    description: str
    body: str


def split_header(text: str) -> tuple[Fields, str]:
    """`yX`: (the header's fields, the body); fields empty when there is no header or it is no
    mapping. InvalidYaml when the `yaml` package rejects the header."""
    text = text.removeprefix("\ufeff")
    match = _FRONTMATTER.match(text)
    if not match:
        return {}, text
    loaded = parse_yaml(match.group(1), core_schema=True)
    return (loaded if isinstance(loaded, dict) else {}), match.group(2)


def parse_file(text: str, default_name: str, *, described: bool = False) -> ClineFile | Reason:
    """A rule (`hX`), workflow (`vX`) or, `described`, skill (`IX`), or why Cline skips the file: its
    header is not YAML, its body or name is empty, its `name` (or `description`) no string, a flag
    no boolean."""
    try:
        fields, body = split_header(text)
    except InvalidYaml:
        return Reason.INVALID_HEADER
    body = js_trim(body)
    if not body:
        return Reason.EMPTY
    name = _text(fields, "name")
    if isinstance(name, Reason):
        return name
    name = name or js_trim(default_name)
    if not name:
        return Reason.EMPTY
    description = _text(fields, "description") if described else None
    disabled = _disabled(fields)
    for value in (description, disabled):
        if isinstance(value, Reason):
            return value
    return ClineFile(name, body, disabled is True, description if isinstance(description, str) else None)


def _text(fields: Fields, key: str) -> str | Reason | None:
    """`SZ`: a string field trimmed, None when absent, null or blank, a Reason when no string."""
    value = fields.get(key)
    if value is None:
        return None
    return (js_trim(value) or None) if isinstance(value, str) else Reason.INVALID_HEADER


def _flag(fields: Fields, key: str) -> bool | Reason | None:
    """`Z8`: a boolean field, None when absent or null, a Reason when no boolean."""
    value = fields.get(key)
    return value if value is None or isinstance(value, bool) else Reason.INVALID_HEADER


def _disabled(fields: Fields) -> bool | Reason:
    """`disabled`, else `enabled: false` (`Z8(disabled)??(Z8(enabled)===!1?!0:void 0)`)."""
    disabled = _flag(fields, "disabled")
    if disabled is not None:
        return disabled
    enabled = _flag(fields, "enabled")
    return enabled if isinstance(enabled, Reason) else enabled is False


def agent_header(text: str) -> AgentHeader | str:
    """`Hc` and `eY`: the agent of a config file, or why Cline leaves it out (the `---` lines
    past AGENT_HEADER_BUDGET are not tried)."""
    text = text.removeprefix("\ufeff")
    opening = _AGENT_FENCE.match(text)
    if not opening:
        return "no `---` header"
    start = opening.end()
    found: tuple[Fields, str] | None = None
    budget = AGENT_HEADER_BUDGET
    for fence in _AGENT_FENCE.finditer(text, start):
        budget -= fence.start() - start
        if budget < 0:
            break
        fields = _agent_fields(text[start : fence.start()])
        if fields is not None:
            found = fields, text[fence.end() :]
    if found is None:
        return "no header YAML reads as a mapping with a `name` and a `description`"
    fields, body = found
    body = js_trim(body)
    if not body:
        return "no body (its system prompt)"
    return AgentHeader(str(fields["name"]), str(fields["description"]), body)


def _agent_fields(header: str) -> Fields | None:
    """The header's fields as `Nz` returns them (`name` and `description` trimmed), or None where
    the `yaml` package or `Nz` rejects them."""
    try:
        loaded = parse_yaml(header, core_schema=True)
    except InvalidYaml:
        return None
    if not isinstance(loaded, dict) or not _agent_fields_valid(loaded):
        return None
    return {**loaded, "name": js_trim(str(loaded["name"])), "description": js_trim(str(loaded["description"]))}


def _agent_fields_valid(fields: Fields) -> bool:
    """`Nz`: non-blank string `name` and `description`; if present, `tools` and `skills` a string or a
    list of strings, `providerId` and `modelId` non-blank strings, `maxIterations` a positive integer."""

    def non_blank(value: object) -> bool:
        return isinstance(value, str) and bool(js_trim(value))

    def names(value: object) -> bool:
        return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))

    def positive_integer(value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return value > 0 and (isinstance(value, int) or value.is_integer())

    optional = {"tools": names, "skills": names, "providerId": non_blank, "modelId": non_blank, "maxIterations": positive_integer}
    return (
        non_blank(fields.get("name"))
        and non_blank(fields.get("description"))
        and all(check(fields[key]) for key, check in optional.items() if key in fields)
    )
