"""opencode's agents, skills and commands (opencode-ai 1.18.33).

Skills: `skills/**/SKILL.md` under `~/.claude` and `~/.agents`, then under every `.claude` and
`.agents` from the launch directory up to the git worktree, then `{skill,skills}/**/SKILL.md` in
the config directories (`~/.config/opencode`, every `.opencode` from the launch directory up to
the worktree: the root's come later and win a name, as `opencode-agents-order` captured), then the config's
`skills.paths`. A skill needs a string `name`; the last one found of a name wins. Those with a
`description` are listed, sorted by name, at the end of the system prompt; the body is sent when
the skill tool loads it.

Agents: `{agent,agents}/**/*.md` and `{mode,modes}/*.md` of the config directories and the
config's `agent` object (a `{file:…}` prompt is read from that file: a missing one stops
opencode). The agent's prompt replaces the provider prompt at the top of the system prompt;
agents that are not `mode: primary` are listed in the task tool's description, those of mode
`all` (the default: a file without a header has it) too (1.18.33 `ToolRegistry.describeTask`).

Agents of one name from several sources (configuration files, then each folder's agent files and
its mode files) are merged: a later one that gives no `description` keeps the earlier one's (GD-16).

Commands: `{command,commands}/**/*.md` and the config's `command`: sent when typed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from lsp_agents.core.agents.base import (
    Definitions,
    Reminder,
    SessionPlan,
    StartText,
    base_layer,
    dedupe_real,
    instruction_layers,
    mark_shadowed,
    markdown_definitions,
    sort_key,
    unreadable_issue,
    xml_escape,
)
from lsp_agents.core.agents.discovery import ParsedDefinition, find_files, parse_definition, skill_file
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Layer, Scope
from lsp_agents.core.config_files import load_jsonc
from lsp_agents.core.frontmatter import split_frontmatter
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.opencode import GLOBAL_CONFIG_NAMES, PROJECT_CONFIG_NAMES
from lsp_agents.core.walk import ancestors, find_marker_root, is_within

MODES = ("subagent", "primary", "all")
NO_DESCRIPTION = "This subagent should only be called manually by the user."
_FILE_REFERENCE = re.compile(r"\{file:([^}]+)\}")
_ENV_REFERENCE = re.compile(r"\{env:([^}]+)\}")
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


@dataclass(frozen=True, slots=True)
class Layout:
    """What tells opencode's definitions and a fork's apart: names, folders and built-ins."""

    env: str  # prefix of the environment flags (`<env>_DISABLE_PROJECT_CONFIG`, …)
    config_folders: tuple[str, ...]  # the project's config folders in each directory of the chain
    global_config_names: tuple[str, ...]
    project_config_names: tuple[str, ...]
    builtin_agents: tuple[tuple[str, str], ...]  # (name, mode)
    builtin_skill: str
    builtin_skill_location: str
    default_agent: str
    home_folders: tuple[str, ...] = ()  # config folders of the home directory, after the project's
    agent_prompt_appended: bool = False  # the agent's prompt follows the provider prompt instead of replacing it


OPENCODE_LAYOUT = Layout(
    "OPENCODE",
    (".opencode",),
    GLOBAL_CONFIG_NAMES,
    PROJECT_CONFIG_NAMES,
    (("build", "primary"), ("plan", "primary"), ("general", "subagent"), ("explore", "subagent")),
    "customize-opencode",
    "<built-in>",
    "build",
)


class OpencodeDefinitions(Definitions):
    harness = "opencode"
    title = "opencode"
    layout: ClassVar[Layout] = OPENCODE_LAYOUT
    runs_agents = True
    evidence: ClassVar[dict[str, str]] = {
        "agent prompt": "verified: replaces the provider prompt at the top of the system prompt (1.18.33)",
        "skills listing": "verified: sorted by name, at the end of the system prompt (1.18.33)",
        "agents listing": "verified: non-primary agents, sorted, in the task tool's description (1.18.33)",
        "plan-mode reminder": "verified: a second text part of the user message while the plan agent runs",
        "max-steps reminder": "verified: an assistant message after the conversation on the agent's last step",
        "build-switch reminder": "source: a text part of the first user message after the plan agent",
        "typed commands": "verified: `run --command NAME` sends the template, `$ARGUMENTS` replaced, as the user message",
    }

    # -- discovery ----------------------------------------------------------------------------
    def build(self, ctx: LaunchContext) -> Catalog:
        catalog = Catalog(self.harness, ctx.cwd)
        worktree = find_marker_root(ctx.fs, ctx.cwd, [".git"]) or os.sep
        chain = ancestors(ctx.cwd, worktree)
        layout = self.layout
        project = not ctx.env_flag(f"{layout.env}_DISABLE_PROJECT_CONFIG")
        config_home = HARNESSES[self.harness].home_dir(ctx)
        config_dirs = [(config_home, Scope.USER)]
        if project:
            # `up` lists the launch directory's folders first: the root's come later and win a name.
            config_dirs += [(os.path.join(d, f), Scope.PROJECT) for d in chain for f in layout.config_folders]
        config_dirs += [(ctx.home_path(f), Scope.USER) for f in layout.home_folders]
        if ctx.env.get(f"{layout.env}_CONFIG_DIR"):
            config_dirs.append((ctx.env[f"{layout.env}_CONFIG_DIR"], Scope.USER))
        configs = self._configs(ctx, config_home, chain if project else [], catalog)

        skills = self._skills(ctx, chain, config_dirs, configs, catalog)
        agents = self._agents(ctx, config_dirs, configs, catalog)
        commands = self._commands(ctx, config_dirs, configs, catalog)
        catalog.definitions = skills + agents + commands
        return catalog

    def _configs(
        self, ctx: LaunchContext, config_home: str, chain: list[str], catalog: Catalog
    ) -> list[tuple[str, dict[str, Any]]]:
        paths = [os.path.join(config_home, n) for n in self.layout.global_config_names]
        for name in self.layout.project_config_names:
            paths += [os.path.join(d, name) for d in reversed(chain)]
        configs = []
        for path in paths:
            loaded = load_jsonc(ctx.fs, path)
            if loaded.warning:
                catalog.warnings.append(loaded.warning)
            if loaded.values:
                configs.append((path, loaded.values))
        return configs

    def _skills(
        self,
        ctx: LaunchContext,
        chain: list[str],
        config_dirs: list[tuple[str, Scope]],
        configs: list[tuple[str, dict[str, Any]]],
        catalog: Catalog,
    ) -> list[Definition]:
        roots: list[tuple[str, Scope]] = []
        env = self.layout.env
        if not ctx.env_flag(f"{env}_DISABLE_EXTERNAL_SKILLS"):
            claude_off = ctx.env_flag(f"{env}_DISABLE_CLAUDE_CODE") or ctx.env_flag(f"{env}_DISABLE_CLAUDE_CODE_SKILLS")
            targets = ([] if claude_off else [".claude"]) + [".agents"]
            roots += [(ctx.home_path(t, "skills"), Scope.USER) for t in targets]
            roots += [(os.path.join(d, t, "skills"), Scope.PROJECT) for d in chain for t in targets]
        roots += [(os.path.join(d, sub), scope) for d, scope in config_dirs for sub in ("skill", "skills")]
        for _path, values in configs:
            entries = (values.get("skills") or {}).get("paths") if isinstance(values.get("skills"), dict) else None
            for entry in entries if isinstance(entries, list) else ():
                if isinstance(entry, str):
                    target = ctx.home_path(entry[2:]) if entry.startswith("~/") else os.path.join(ctx.cwd, entry)
                    roots.append((target, Scope.PROJECT if target.startswith(ctx.cwd) else Scope.USER))
        found = []
        for root, scope in dict.fromkeys(roots):
            if not ctx.fs.is_dir(root):
                continue
            walk = find_files(ctx.fs, root, skill_file)
            if not walk.complete:
                catalog.warnings.append(f"warning: {root}: too many entries, the rest not searched")
            found += [self._skill(ctx, path, scope) for path in walk.files]
        found = dedupe_real(ctx, found)
        mark_shadowed(found, later_wins=True)
        return found

    def _skill(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        parsed = read_header(ctx, parse_definition(ctx.fs, path), cached_retry=False)
        name = parsed.text_field("name")
        folder = os.path.basename(os.path.dirname(path))
        definition = Definition(
            self.harness,
            Kind.SKILL,
            name or folder,
            path,
            scope,
            folder=folder,
            line=parsed.line_of("name"),
            description_line=parsed.line_of("description"),
        )
        issue = unreadable_issue(self.title, parsed, "skill")
        description = parsed.fields.get("description")
        if issue is None and name is None:
            issue = Issue("invalid-definition", f"{self.title} drops a skill without a `name` in its header")
        if issue is None and description is not None and not isinstance(description, str):
            issue = Issue(
                "invalid-definition", f"{self.title} drops a skill whose `description` is not text", parsed.line_of("description")
            )
        if issue is not None:
            definition.drop(issue)
            return definition
        definition.description = description if isinstance(description, str) else None  # not text: an issue above
        definition.body = parsed.body.strip()
        if description is None:
            definition.issues.append(
                Issue(
                    "not-listed",
                    f"{self.title} never lists a skill without a `description`: the model does not learn that it exists",
                )
            )
        else:
            definition.delivery = Delivery.LISTED
        return definition

    def _agents(
        self,
        ctx: LaunchContext,
        config_dirs: list[tuple[str, Scope]],
        configs: list[tuple[str, dict[str, Any]]],
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
        for path, values in configs:
            scope = Scope.USER if is_within(path, ctx.home) else Scope.PROJECT
            agents += _merged(self._config_agents(ctx, path, values, modes, scope), descriptions)
        for directory, scope in config_dirs:  # each folder's agents, then its modes: two sources
            for folders, primary_only, depth in ((("agent", "agents"), False, 8), (("mode", "modes"), True, 0)):
                source = []
                for name, path, parsed in markdown_definitions(ctx, directory, folders, catalog, max_depth=depth):
                    header = read_header(ctx, parsed)
                    agent = self._md_agent(name, path, header, scope, modes, primary_only=primary_only)
                    source.append((agent, "description" in header.fields))
                agents += _merged(source, descriptions)
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

    def _config_agents(
        self, ctx: LaunchContext, path: str, values: dict[str, Any], modes: dict[str, str], scope: Scope
    ) -> list[tuple[Definition, bool]]:
        """The agents of a configuration file's `agent` object, each with whether it gives a description."""
        entries = values.get("agent")
        if not isinstance(entries, dict):
            return []
        text = ctx.fs.read(path).text()
        agents = []
        for name, fields in entries.items():
            if not isinstance(fields, dict):
                continue
            agent = Definition(self.harness, Kind.AGENT, name, path, scope, line=_json_key_line(text, name))
            self._apply_fields(agent, fields, modes, primary_only=False)
            prompt = fields.get("prompt")
            if isinstance(prompt, str):
                agent.body = self._substitute(ctx, path, text, agent, prompt)
            agents.append((agent, "description" in fields))
        return agents

    def _substitute(self, ctx: LaunchContext, config: str, text: str, agent: Definition, value: str) -> str | None:
        """opencode's `{file:…}` and `{env:…}` substitution in a config value; a missing file
        makes the whole configuration invalid."""
        value = _ENV_REFERENCE.sub(lambda m: ctx.env.get(m.group(1), ""), value)
        match = _FILE_REFERENCE.fullmatch(value.strip())
        if not match:
            return value.strip()
        reference = match.group(1).strip()
        target = ctx.home_path(reference[2:]) if reference.startswith("~/") else os.path.join(os.path.dirname(config), reference)
        target = os.path.normpath(target)
        data = ctx.fs.read(target)
        if data.problem:
            line = _line_of(text, match.group(0))
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

    def _commands(
        self,
        ctx: LaunchContext,
        config_dirs: list[tuple[str, Scope]],
        configs: list[tuple[str, dict[str, Any]]],
        catalog: Catalog,
    ) -> list[Definition]:
        commands = []
        for directory, scope in config_dirs:
            for name, path, parsed in markdown_definitions(ctx, directory, ("command", "commands"), catalog):
                parsed = read_header(ctx, parsed)
                command = Definition(
                    self.harness,
                    Kind.COMMAND,
                    name,
                    path,
                    scope,
                    body=parsed.body.strip(),
                    description=parsed.text_field("description"),
                )
                issue = unreadable_issue(self.title, parsed, "command")
                if issue is not None:
                    command.drop(issue)
                commands.append(command)
        for path, values in configs:
            entries = values.get("command")
            for name, fields in entries.items() if isinstance(entries, dict) else ():
                if isinstance(fields, dict) and isinstance(fields.get("template"), str):
                    commands.append(
                        Definition(
                            self.harness,
                            Kind.COMMAND,
                            name,
                            path,
                            Scope.PROJECT,
                            description=fields.get("description") if isinstance(fields.get("description"), str) else None,
                            body=fields["template"].strip(),
                        )
                    )
        commands = dedupe_real(ctx, commands)
        mark_shadowed(commands, later_wins=True)
        return commands

    # -- what is sent -------------------------------------------------------------------------
    def default_agent(self, catalog: Catalog) -> Definition | None:
        return catalog.agent(self.layout.default_agent)

    def step_limit(self, agent: Definition | None) -> int | None:
        return agent.steps if agent is not None else None

    def skills_listing(self, catalog: Catalog) -> str:
        listed = [d for d in catalog.active(Kind.SKILL) if d.delivery == Delivery.LISTED]
        entries = [(d.name, d.description or "", xml_escape(d.path)) for d in listed]
        layout = self.layout
        entries.append((layout.builtin_skill, f"[{self.title} built-in skill]", xml_escape(layout.builtin_skill_location)))
        lines = [
            "Skills provide specialized instructions and workflows for specific tasks.",
            "Use the skill tool to load a skill when a task matches its description.",
            "<available_skills>",
        ]
        for name, description, location in sorted(entries, key=lambda e: sort_key(e[0])):
            lines += [
                "  <skill>",
                f"    <name>{name}</name>",
                f"    <description>{description}</description>",
                f"    <location>{location}</location>",
                "  </skill>",
            ]
        return "\n".join([*lines, "</available_skills>"])

    def agents_listing(self, catalog: Catalog, running: Definition | None = None) -> str:
        """The task tool's list of subagents. The plan agent may not delegate to `general`
        (its permissions deny that task), so it is not listed there."""
        denied = {"general"} if running is not None and running.name == "plan" and running.scope == Scope.BUILTIN else set()
        lines = ["Available agent types and the tools they have access to:"]
        listed = [a for a in catalog.active(Kind.AGENT) if a.delivery == Delivery.LISTED and a.name not in denied]
        for agent in sorted(listed, key=lambda a: sort_key(a.name)):
            description = (
                f"[{self.title} built-in agent]" if agent.scope == Scope.BUILTIN else agent.description or NO_DESCRIPTION
            )
            lines.append(f"- {agent.name}: {description}")
        return "\n".join(lines)

    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        if self.layout.agent_prompt_appended and agent is not None and agent.body:
            layers = [base_layer(self.title, start, None), Layer("agent", "system", agent.body, "workspace")]
        else:
            layers = [base_layer(self.title, start, agent)]
        layers += [Layer("environment", "system", start.environment, "harness")]
        layers += instruction_layers(start)
        layers.append(Layer("skills", "system", self.skills_listing(catalog), "mixed"))
        layers.append(Layer("agents", "tool", self.agents_listing(catalog, agent or self.default_agent(catalog)), "mixed"))
        plan = self.session_reminders(ctx, catalog, SessionPlan(agent=agent))
        layers += [Layer(r.name, r.placement, r.text, r.source) for r in plan.get("start", [])]
        return layers

    def _verified(self, feature: str) -> bool:
        return self.evidence.get(feature, "").startswith("verified")

    def session_reminders(self, ctx: LaunchContext, catalog: Catalog, plan: SessionPlan) -> dict[str, list[Reminder]]:
        reminders: dict[str, list[Reminder]] = {}
        in_plan = plan.plan or (plan.agent is not None and plan.agent.name == "plan")
        if in_plan:
            reminders["start"] = [
                Reminder("plan-mode", "user", f"[{self.title} plan-mode reminder]", verified=self._verified("plan-mode reminder"))
            ]
        if in_plan and plan.switch_to is not None and plan.switch_to.name == self.layout.default_agent:
            reminders["switch"] = [Reminder("build-switch", "user", f"[{self.title} build-switch reminder]")]
        if self.step_limit(plan.agent):
            reminders["step"] = [
                Reminder(
                    "max-steps", "assistant", f"[{self.title} max-steps reminder]", verified=self._verified("max-steps reminder")
                )
            ]
        return reminders


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
