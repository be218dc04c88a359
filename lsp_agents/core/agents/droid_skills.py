"""Factory droid's skill files as its skill loader reads them (@factory/cli 0.225.1, binary 0.225.2):
the names skills are compared by and the folders a read walks (see `droid` for the rules)."""

from __future__ import annotations

import os
import re
from dataclasses import replace

from lsp_agents.core.agents.discovery import ParsedDefinition, parse_definition
from lsp_agents.core.agents.model import Definition, Scope
from lsp_agents.core.agents.typed_commands import JS_WHITESPACE, DroidSkill, droid_command_body
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.walk import is_within

NO_DESCRIPTION = "No description provided"


def read_header(ctx: LaunchContext, path: str) -> ParsedDefinition:
    """`an`: the header must open the text (`^---\\r?\\n`); droid reads with the byte-order mark kept, so
    after one no header is read and the whole text is the body."""
    parsed = parse_definition(ctx.fs, path)
    return replace(parsed, fields={}, body=ctx.fs.read(path).text()) if parsed.bom and parsed.header else parsed


def user_invocable(fields: dict[object, object]) -> bool:
    """`rS`: the user may type the skill unless its header is off the schema `Qh` (`iW` then turns it
    off: `name` and `description` strings, `enabled`, `user-invocable`, `disable-model-invocation`
    booleans, `license`, `compatibility` strings, `metadata` a mapping, `tools`, `allowed-tools` a
    string or strings) or says `user-invocable: false`."""
    texts = [fields.get(key) for key in ("name", "description")]
    optional_texts = [fields.get(key, "") for key in ("license", "compatibility")]
    flags = [fields.get(key, True) for key in ("enabled", "user-invocable", "disable-model-invocation")]
    tools = [fields.get(key, "") for key in ("tools", "allowed-tools")]
    return (
        all(isinstance(value, str) for value in texts + optional_texts)
        and all(isinstance(value, bool) for value in flags)
        and isinstance(fields.get("metadata", {}), dict)
        and all(isinstance(value, str) or _strings(value) for value in tools)
        and fields.get("user-invocable") is not False
    )


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def typed_skill(ctx: LaunchContext, skill: Definition) -> DroidSkill:
    """The skill as typing its name sends it (`k`): the description as written, the body (`an`'s) trimmed."""
    description = read_header(ctx, skill.path).fields.get("description")
    body = droid_command_body(ctx.fs.read(skill.path).text()).strip(JS_WHITESPACE)
    location = "personal" if skill.scope == Scope.USER else "project"
    return DroidSkill(skill.name, skill.path, str(description or "") or NO_DESCRIPTION, location, body)


def ledger_key(name: str) -> str:
    """`Se`: the name skills are compared by."""
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9-]", "-", name.lower())).strip("-")


def start_name(ctx: LaunchContext, path: str) -> str:
    """A skill of the start as the resolution knows it: its string `name`, else `unknown` (`iW`)."""
    name = read_header(ctx, path).fields.get("name")
    return name if isinstance(name, str) else "unknown"


def found_name(ctx: LaunchContext, path: str) -> str:
    """A skill found on read: as at the start, but `unknown` off the schema becomes its folder's name."""
    parsed = read_header(ctx, path)
    name = start_name(ctx, path)
    off_schema = not isinstance(parsed.fields.get("name"), str) or not isinstance(parsed.fields.get("description"), str)
    return os.path.basename(os.path.dirname(path)) if name == "unknown" and off_schema else name


def read_skill_dirs(ctx: LaunchContext, folder: str, top: str, seen: set[str]) -> list[str]:
    """`be`: the folders holding a SKILL.md below `folder`, in directory order, inside `top` (real)."""
    real = ctx.fs.realpath(folder)
    if not is_within(real, top) or real in seen:
        return []
    seen.add(real)
    found = []
    for entry in ctx.fs.list_dir(folder):
        path = os.path.join(folder, entry)
        if not (ctx.fs.is_dir(path) or ctx.fs.is_link(path)):
            continue
        skill = os.path.join(path, "SKILL.md")
        if ctx.fs.exists(skill) and is_within(ctx.fs.realpath(skill), top):
            found.append(path)
        else:
            found += read_skill_dirs(ctx, path, top, seen)
    return found
