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
from typing import ClassVar

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
from lsp_agents.core.agents.discovery import find_files, parse_definition, skill_file
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Layer, Scope
from lsp_agents.core.agents.opencode_agents import NO_DESCRIPTION, ConfigSource, OpencodeAgentSources
from lsp_agents.core.agents.opencode_headers import read_header
from lsp_agents.core.agents.opencode_layout import OPENCODE_LAYOUT, Layout
from lsp_agents.core.config_files import load_jsonc, parse_jsonc
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.walk import ancestors, find_marker_root


class OpencodeDefinitions(OpencodeAgentSources, Definitions):
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

    def _configs(self, ctx: LaunchContext, config_home: str, chain: list[str], catalog: Catalog) -> list[ConfigSource]:
        """The config layers in `Config.loadInstanceState`'s order: the user's files, the file
        `$<FLAVOR>_CONFIG` names (opened from the launch directory), the project's files from the worktree
        down, then, merged after the config folders' definitions, the JSON `$<FLAVOR>_CONFIG_CONTENT` holds
        (`F(process.env.OPENCODE_CONFIG_CONTENT, {dir: j.directory, …})`: its `{file:…}` references start
        from the launch directory). The same layers as the instructions' (`Opencode._config_layers`, GD-50, GD-90)."""
        env = self.layout.env
        paths = [os.path.join(config_home, n) for n in self.layout.global_config_names]
        if ctx.env.get(f"{env}_CONFIG"):
            paths.append(os.path.normpath(os.path.join(ctx.cwd, ctx.env[f"{env}_CONFIG"])))
        for name in self.layout.project_config_names:
            paths += [os.path.join(d, name) for d in reversed(chain)]
        sources = []
        for path in paths:
            loaded = load_jsonc(ctx.fs, path)
            catalog.warnings += [loaded.warning] if loaded.warning else []
            if loaded.values:
                sources.append(ConfigSource(path, loaded.values, ctx.fs.read(path).text(), os.path.dirname(path)))
        if content := ctx.env.get(f"{env}_CONFIG_CONTENT"):
            loaded = parse_jsonc(content, f"${env}_CONFIG_CONTENT")
            catalog.warnings += [loaded.warning] if loaded.warning else []
            if loaded.values:
                sources.append(ConfigSource(loaded.path, loaded.values, content, ctx.cwd, after_folders=True))
        return sources

    def _skills(
        self,
        ctx: LaunchContext,
        chain: list[str],
        config_dirs: list[tuple[str, Scope]],
        configs: list[ConfigSource],
        catalog: Catalog,
    ) -> list[Definition]:
        roots: list[tuple[str, Scope]] = []
        env = self.layout.env
        if not ctx.env_flag(f"{env}_DISABLE_EXTERNAL_SKILLS"):
            claude_off = ctx.env_flag(f"{env}_DISABLE_CLAUDE_CODE") or ctx.env_flag(f"{env}_DISABLE_CLAUDE_CODE_SKILLS")
            targets = ([] if claude_off else [".claude"]) + [".agents"]
            roots += [(ctx.home_path(t, "skills"), Scope.USER) for t in targets]
            walked = [ctx.cwd] if self.layout.external_skills_stop_at_cwd and chain[-1] == os.sep else chain
            roots += [(os.path.join(d, t, "skills"), Scope.PROJECT) for d in walked for t in targets]
        roots += [(os.path.join(d, sub), scope) for d, scope in config_dirs for sub in ("skill", "skills")]
        for source in configs:
            values = source.values
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

    def _commands(
        self,
        ctx: LaunchContext,
        config_dirs: list[tuple[str, Scope]],
        configs: list[ConfigSource],
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
        for source in configs:
            entries = source.values.get("command")
            for name, fields in entries.items() if isinstance(entries, dict) else ():
                if isinstance(fields, dict) and isinstance(fields.get("template"), str):
                    commands.append(
                        Definition(
                            self.harness,
                            Kind.COMMAND,
                            name,
                            source.path,
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
