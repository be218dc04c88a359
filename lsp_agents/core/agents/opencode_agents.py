"""opencode's agents (and Kilo's): the built-in ones, each configuration file's `agent` object (a
`{file:…}` or `{env:…}` prompt resolved), each config folder's agent files and mode files, merged
across sources, later ones winning a name; which are listed to the task tool."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from lsp_agents.core.agents.base import (
    dedupe_real,
    mark_shadowed,
    markdown_definitions,
    unreadable_issue,
)
from lsp_agents.core.agents.discovery import ParsedDefinition
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Scope
from lsp_agents.core.agents.opencode_headers import read_header
from lsp_agents.core.agents.opencode_layout import Layout
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.opencode import REFERENCE_CHARS
from lsp_agents.core.walk import is_within

MODES = ("subagent", "primary", "all")
NO_DESCRIPTION = "This subagent should only be called manually by the user."
# `{file:…}` and `{env:…}`, as in `opencode.REFERENCE_CHARS` (linear on untrusted text).
_FILE_REFERENCE = re.compile(rf"\{{file:([^{{}}]{{1,{REFERENCE_CHARS}}})\}}")
_ENV_REFERENCE = re.compile(rf"\{{env:([^{{}}]{{1,{REFERENCE_CHARS}}})\}}")


@dataclass(frozen=True, slots=True)
class ConfigSource:
    """A config layer: its file (or `$<FLAVOR>_CONFIG_CONTENT`), values and text, the folder its
    `{file:…}` references start from, and whether opencode merges it after the config folders."""

    path: str
    values: dict[str, Any]
    text: str
    folder: str
    after_folders: bool = False


class OpencodeAgentSources:
    """The agent half of `OpencodeDefinitions`: what it needs of the class it is mixed into."""

    harness: ClassVar[str]
    title: ClassVar[str]
    layout: ClassVar[Layout]

    def _agents(
        self,
        ctx: LaunchContext,
        config_dirs: list[tuple[str, Scope]],
        configs: list[ConfigSource],
        catalog: Catalog,
    ) -> list[Definition]:
        agents = [
            Definition(
                self.harness, Kind.AGENT, name, f"<built-in {name}>", Scope.BUILTIN, primary=mode == "primary", description=None
            )
            for name, mode in self.layout.builtin_agents
        ]
        modes = dict(self.layout.builtin_agents)
        descriptions: dict[str, str | None] = {}  # each name's, once the sources so far are merged
        for config in [c for c in configs if not c.after_folders]:
            agents += _merged(self._config_agents(ctx, config, modes), descriptions)
        for directory, scope in config_dirs:  # each folder's agents, then its modes: two sources
            for folders, primary_only, depth in ((("agent", "agents"), False, 8), (("mode", "modes"), True, 0)):
                source = []
                for name, path, parsed in markdown_definitions(ctx, directory, folders, catalog, max_depth=depth):
                    header = read_header(ctx, parsed)
                    agent = self._md_agent(name, path, header, scope, modes, primary_only=primary_only)
                    source.append((agent, "description" in header.fields))
                agents += _merged(source, descriptions)
        for config in [c for c in configs if c.after_folders]:
            agents += _merged(self._config_agents(ctx, config, modes), descriptions)
        agents = dedupe_real(ctx, agents)
        mark_shadowed(agents, later_wins=True)
        for disabled in [a for a in agents if any(i.code == "disabled" for i in a.issues)]:
            for other in agents:
                if other.name == disabled.name and other is not disabled and not other.dropped:
                    other.shadowed_by, other.delivery = disabled.path, Delivery.NOT_SENT
        # The task tool lists every agent whose mode is not `primary` (`describeTask`: `mode !== "primary"`):
        # an `all` agent, the default mode, is listed too.
        for agent in agents:
            if agent.shadowed_by is None and not agent.dropped:
                agent.delivery = Delivery.ON_USE if modes.get(agent.name) == "primary" else Delivery.LISTED
        return agents

    def _md_agent(
        self, name: str, path: str, parsed: ParsedDefinition, scope: Scope, modes: dict[str, str], *, primary_only: bool
    ) -> Definition:
        agent = Definition(self.harness, Kind.AGENT, name, path, scope, line=parsed.line_of("description"))
        issue = unreadable_issue(self.title, parsed, "agent")
        if issue is not None:
            agent.drop(issue)
            return agent
        self._apply_fields(agent, parsed.fields, modes, primary_only)
        agent.body = parsed.body.strip()
        return agent

    def _apply_fields(
        self, agent: Definition, fields: Mapping[object, object], modes: dict[str, str], primary_only: bool
    ) -> None:
        given = "primary" if primary_only else fields.get("mode")
        mode = given if isinstance(given, str) and given in MODES else modes.get(agent.name, "all")
        modes[agent.name] = mode
        agent.primary = mode in ("primary", "all")
        agent.description = description if isinstance(description := fields.get("description"), str) else None
        steps = fields.get("steps", fields.get("maxSteps"))
        agent.steps = steps if isinstance(steps, int) and not isinstance(steps, bool) and steps > 0 else None
        if fields.get("disable") is True:
            agent.drop(Issue("disabled", "disabled by `disable: true`"))

    def _config_agents(self, ctx: LaunchContext, config: ConfigSource, modes: dict[str, str]) -> list[tuple[Definition, bool]]:
        """The agents of a config layer's `agent` object, each with whether it gives a description."""
        entries = config.values.get("agent")
        if not isinstance(entries, dict):
            return []
        scope = Scope.USER if is_within(config.path, ctx.home) else Scope.PROJECT
        agents = []
        for name, fields in entries.items():
            if not isinstance(fields, dict):
                continue
            agent = Definition(self.harness, Kind.AGENT, name, config.path, scope, line=_json_key_line(config.text, name))
            self._apply_fields(agent, fields, modes, primary_only=False)
            prompt = fields.get("prompt")
            if isinstance(prompt, str):
                agent.body = self._substitute(ctx, config, agent, prompt)
            agents.append((agent, "description" in fields))
        return agents

    def _substitute(self, ctx: LaunchContext, config: ConfigSource, agent: Definition, value: str) -> str | None:
        """opencode's `{file:…}` and `{env:…}` substitution in a config value; a missing file
        makes the whole configuration invalid."""
        value = _ENV_REFERENCE.sub(lambda m: ctx.env.get(m.group(1), ""), value)
        match = _FILE_REFERENCE.fullmatch(value.strip())
        if not match:
            return value.strip()
        reference = match.group(1).strip()
        target = ctx.home_path(reference[2:]) if reference.startswith("~/") else os.path.join(config.folder, reference)
        target = os.path.normpath(target)
        data = ctx.fs.read(target)
        if data.problem:
            line = _line_of(config.text, match.group(0))
            agent.issues.append(
                Issue(
                    "missing-prompt-file",
                    f"{self.title} refuses to start: agent `{agent.name}` takes its prompt from "
                    f"{reference}, which {'does not exist' if not ctx.fs.exists(target) else 'cannot be read'} "
                    '("bad file reference")',
                    line,
                )
            )
            agent.delivery = Delivery.NOT_SENT
            return None
        agent.prompt_path = target
        return data.text(strip_bom=True).strip()


def _merged(source: list[tuple[Definition, bool]], descriptions: dict[str, str | None]) -> list[Definition]:
    """One source's agents (a configuration file; a folder's agent files; its mode files), each
    with whether it gives a description, merged into `descriptions` (each name's so far). opencode
    merges every source into the agents before it (`mergeDeep`): an agent that gives no
    `description` keeps the one an earlier source gave (GD-16, golden opencode-agents-merged-description);
    within a source one file of a name replaces the others whole (`loadAgent`: `result[name] = ...`;
    which one, for `agent/x.md` beside `agents/x.md`, changed from run to run in captures)."""
    before = dict(descriptions)
    for agent, described in source:
        if not described and not agent.dropped:
            agent.description = before.get(agent.name)
        descriptions[agent.name] = agent.description
    return [agent for agent, _described in source]


def _json_key_line(text: str, key: str) -> int:
    return _line_of(text, f'"{key}"')


def _line_of(text: str, needle: str) -> int:
    index = text.find(needle)
    return text.count("\n", 0, index) if index >= 0 else 0
