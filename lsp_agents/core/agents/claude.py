"""Claude Code's subagents, skills and commands (@anthropic-ai/claude-code 2.1.332; verified at 2.1.329 and again at 2.1.332).

Subagents: `agents/**/*.md` of the config directory (`~/.claude`) and of every `.claude` from
the launch directory up; a file needs a `name` and a `description`, the name not starting with
`-`, at most 256 characters and without `:` (`Bfo`). They are listed, sorted by
name among the built-in agents, in the system-role message at the start; an agent's body is
its system prompt when it runs (`--agent NAME` puts it in place of the main prompt).

Skills: `skills/<folder>/SKILL.md` of the config directory, then of every `.claude` from the
launch directory up; commands: `commands/**/*.md` (named with `:` for folders; the user's first, so
a user command wins over a project command of its name, as captured). Skills and
commands are listed together after the agents: user skills, project skills, commands by name,
then the built-in skills. A skill is listed by its folder (with its `name` in parentheses when
they differ); without a `description` its first line is shown; `when_to_use` is appended; a
description is cut at 1,536 characters; `disable-model-invocation: true` keeps it unlisted.
The listing keeps one entry per name, the first (2.1.332 `b2i`: `Wm([...commands, ...], (e) => e.name)`,
lodash `uniqBy`, over the skills before the commands): a command named like a listed skill is not listed.

Skills found on read (2.1.332, read from the bundle: `OLi`, `S2i`, `zXs`, `b2i`; tests/conformance/FINDINGS.md,
GD-8) and the directory-scoped variants of a command typed (`Xur`, SV-1): see `claude_found`. A typed
line no command takes (`Db`, `ZOt`, SV-2): see `claude_typed`.
"""

from __future__ import annotations

import os
from functools import partial
from typing import ClassVar

from lsp_agents.core.agents.base import (
    Definitions,
    PlainLine,
    Reminder,
    SessionPlan,
    StartText,
    base_layer,
    instruction_layers,
    mark_shadowed,
    markdown_definitions,
    shadow_by_name,
    skill_definition,
    sort_key,
    unreadable_issue,
)
from lsp_agents.core.agents.claude_builtins import Builtin, every_name
from lsp_agents.core.agents.claude_builtins import find_builtin as claude_builtin
from lsp_agents.core.agents.claude_found import (
    SKILLS_HEADER,
    found_by_mentions,
    read_parts,
    scoped_variants,
    skill_file,
    variants_reminder,
)
from lsp_agents.core.agents.claude_listing import (
    agent_name_problem,
    cut_description,
    has_tool,
    listed_description,
    listed_name,
    tool_list,
    tools_text,
)
from lsp_agents.core.agents.claude_mentions import mention_parts, mentioned_files, read_attempts
from lsp_agents.core.agents.claude_typed import PLAIN_LEAVES_OUT, parse_line, plain_line, subcommand, unknown_line
from lsp_agents.core.agents.discovery import ParsedDefinition, parse_definition
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Layer, Scope
from lsp_agents.core.agents.typed_commands import claude_mention_text, claude_message, typed_line
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.claude import Claude as ClaudeHarness
from lsp_agents.core.walk import ancestors

BUILTIN_AGENTS = ("claude", "Explore", "general-purpose", "Plan", "statusline-setup")
LISTING_BUDGET_200K = 8000  # 1 % of a 200k-token context window at 4 characters a token


class ClaudeDefinitions(Definitions):
    harness = "claude-code"
    title = "Claude Code"
    runs_agents = True
    evidence: ClassVar[dict[str, str]] = {
        "agent prompt": "verified: `--agent NAME` sends the agent's body in place of the main system prompt (2.1.329, 2.1.332)",
        "agents listing": "verified: sorted by name with the built-in agents, in the system-role message (2.1.329, 2.1.332)",
        "skills listing": "verified: user skills, project skills, commands, built-in skills, in the system-role message (2.1.329, 2.1.332)",
        "plan-mode reminder": "verified: after the skills listing in the system-role message (`--permission-mode plan`)",
        "plan-mode exit reminder": "source: sent when the session leaves plan mode",
        "duplicate skills": "documentation: a personal skill wins over a project skill of the same name",
        "typed commands": "verified: `<command-message>`, `<command-name>`, `<command-args>`, then the body with "
        "`$ARGUMENTS`, `$N` and `$ARGUMENTS[N]` replaced (2.1.332); a skill's after `Base directory for this skill`; "
        "`` !`cmd` `` and ```! blocks a placeholder (never run)",
        "duplicate commands": "verified: the user's command wins over a project command of the same name (2.1.332)",
        "lines no command takes": "verified: a name the parser refuses (`/v1.2`, `/x/y`, `/`) or a path on the machine "
        "(`/tmp`) is sent as a plain prompt, without the listings and @path reads; `/ns tool` runs `ns:tool`; any other "
        "name is sent as typed, after the reads of its @path mentions and with the skills they find (2.1.332)",
        "directory-scoped variants": "verified: a reminder after a typed command's message names the skills of its name "
        "that its @path reads found below the launch directory (2.1.332)",
        "built-in commands": "verified: a built-in's prompt (not shown) after the `<command-message>` lines, or nothing "
        "sent for a local or interactive one; a command or skill of the same name wins (2.1.332)",
    }

    def config_dir(self, ctx: LaunchContext) -> str:
        return HARNESSES[self.harness].home_dir(ctx)

    def _project_dirs(self, ctx: LaunchContext) -> list[str]:
        config = os.path.normpath(self.config_dir(ctx))
        return [d for d in (os.path.join(a, ".claude") for a in ancestors(ctx.cwd)) if d != config and ctx.fs.is_dir(d)]

    # -- discovery ----------------------------------------------------------------------------
    def build(self, ctx: LaunchContext) -> Catalog:
        catalog = Catalog(self.harness, ctx.cwd)
        user, projects = self.config_dir(ctx), self._project_dirs(ctx)
        agents = self._agents(ctx, [(d, Scope.PROJECT) for d in projects] + [(user, Scope.USER)], catalog)
        skills = self._skills(ctx, [(user, Scope.USER)] + [(d, Scope.PROJECT) for d in projects])
        commands = self._commands(ctx, [(user, Scope.USER)] + [(d, Scope.PROJECT) for d in projects], catalog)
        # The listing keeps one entry per name, the skills' before the commands' (`uniqBy(name)`).
        shadow_by_name(commands, [s for s in skills if s.delivery == Delivery.LISTED])
        catalog.definitions = agents + skills + commands
        return catalog

    def _agents(self, ctx: LaunchContext, dirs: list[tuple[str, Scope]], catalog: Catalog) -> list[Definition]:
        agents = []
        for directory, scope in dirs:
            for _name, path, parsed in markdown_definitions(ctx, directory, ("agents",), catalog):
                name, description = parsed.text_field("name"), parsed.text_field("description")
                if not parsed.header and not parsed.problem:
                    continue  # a document kept beside the agents (a README), never meant as one; Claude Code skips it
                agent = Definition(
                    self.harness,
                    Kind.AGENT,
                    name or os.path.basename(path)[:-3],
                    path,
                    scope,
                    description=description,
                    body=parsed.body.strip(),
                    primary=True,
                    line=parsed.line_of("name"),
                    description_line=parsed.line_of("description"),
                )
                missing = [key for key, value in (("name", name), ("description", description)) if not value]
                issue = unreadable_issue(self.title, parsed, "agent")
                if issue is None and missing:
                    issue = Issue(
                        "invalid-definition",
                        "Claude Code drops an agent without " + " and ".join(f"`{key}`" for key in missing) + " in its header",
                    )
                if issue is None and name is not None and (problem := agent_name_problem(name)):
                    issue = Issue("invalid-definition", f"Claude Code drops an agent whose `name` {problem}", agent.line)
                if issue is not None:
                    agent.drop(issue)
                else:
                    agent.delivery = Delivery.LISTED
                    tools, denied = tool_list(parsed.fields.get("tools")), tool_list(parsed.fields.get("disallowedTools"))
                    agent.tools = tools_text(tools, denied)
                agents.append(agent)
        mark_shadowed(agents, later_wins=False)  # project over user, the nearest project first
        return agents

    def _skills(self, ctx: LaunchContext, dirs: list[tuple[str, Scope]]) -> list[Definition]:
        skills = []
        for directory, scope in dirs:
            base = os.path.join(directory, "skills")
            for folder in sorted(ctx.fs.list_dir(base)) if ctx.fs.is_dir(base) else ():
                path = os.path.join(base, folder, "SKILL.md")
                if ctx.fs.is_file(path):
                    skills.append(self._skill(ctx, path, folder, scope))
        # A personal skill wins over a project skill; among projects the nearest.
        mark_shadowed(sorted(skills, key=lambda s: s.scope != Scope.USER), later_wins=False)
        return skills

    def _skill(self, ctx: LaunchContext, path: str, folder: str, scope: Scope) -> Definition:
        parsed = skill_file(ctx.fs, path)
        skill = skill_definition(
            self.harness,
            folder,
            path,
            scope,
            parsed,
            folder=folder,
        )
        issue = unreadable_issue(self.title, parsed, "skill") if parsed.problem else None
        if issue is not None:
            skill.drop(issue)
            return skill
        skill.description = listed_description(parsed.text_field("description"), parsed.body, parsed.text_field("when_to_use"))
        declared = parsed.text_field("name")
        skill.declared_name = declared if declared and declared != folder else None
        listed = parsed.fields.get("disable-model-invocation") is not True
        skill.delivery = Delivery.LISTED if listed else Delivery.ON_USE
        return skill

    def _commands(self, ctx: LaunchContext, dirs: list[tuple[str, Scope]], catalog: Catalog) -> list[Definition]:
        commands = []
        for directory, scope in dirs:
            for name, path, parsed in markdown_definitions(ctx, directory, ("commands",), catalog):
                listed = parsed.fields.get("disable-model-invocation") is not True
                commands.append(
                    Definition(
                        self.harness,
                        Kind.COMMAND,
                        name.replace("/", ":"),
                        path,
                        scope,
                        body=parsed.body.strip(),
                        description=listed_description(parsed.text_field("description"), parsed.body, None),
                        delivery=Delivery.LISTED if listed and not parsed.problem else Delivery.ON_USE,
                        line=parsed.line_of("description"),
                    )
                )
        mark_shadowed(commands, later_wins=False)
        return commands

    def find_command(self, catalog: Catalog, name: str) -> Definition | None:
        """The skill or command typing `/<name>` runs: skills first, as the listing keeps them (`b2i`)."""
        found = [d for d in catalog.active(Kind.SKILL) + catalog.active(Kind.COMMAND) if d.name == name]
        return found[0] if found else None

    find_builtin = staticmethod(claude_builtin)

    def command_message(self, ctx: LaunchContext, command: Definition, arguments: str) -> str:
        folder = os.path.dirname(command.path) if command.kind == Kind.SKILL else None
        return claude_message(command.name, arguments, _typed_body(parse_definition(ctx.fs, command.path)), folder)

    def command_reads(self, ctx: LaunchContext, command: Definition, arguments: str) -> list[str]:
        """The Read (or `ls`) call and result of each `@path` the command's text mentions (`claude_mentions`)."""
        return self._reads(ctx, _mention_text(ctx, command, arguments))

    def builtin_reads(self, ctx: LaunchContext, builtin: Builtin, arguments: str) -> list[str]:
        """The Read calls and results of the `@path` mentions of the arguments a built-in's prompt holds."""
        return self._reads(ctx, builtin.mention_text(arguments))

    def _reads(self, ctx: LaunchContext, text: str) -> list[str]:
        """The parts of the mentions' reads (`claude_mentions`), then the nested files and the agents-md
        hook's text the reads add, as the instruction model loads them on a read (FINDINGS.md §11s)."""
        harness = HARNESSES[self.harness]
        assert isinstance(harness, ClaudeHarness)
        paths = read_attempts(ctx.fs, ctx.cwd, ctx.home, text)
        return mention_parts(ctx.fs, ctx.cwd, ctx.home, text) + harness.mention_memory(ctx, paths)

    # -- skills found during the session ------------------------------------------------------
    def read_skills(self, ctx: LaunchContext, target: str, earlier: list[str]) -> list[str]:
        """The parts a read of `target` adds to its system-role message, after `earlier` reads (`claude_found`)."""
        return read_parts(ctx, partial(self._found_skill, ctx), self._taken(ctx), target, earlier)

    def command_found(self, ctx: LaunchContext, command: Definition, arguments: str) -> list[str]:
        """The skills the files the command's `@path` mentions read find (`claude_found`, FINDINGS GD-39)."""
        return self._mentions_found(ctx, _mention_text(ctx, command, arguments))

    def builtin_found(self, ctx: LaunchContext, builtin: Builtin, arguments: str) -> list[str]:
        """The skills the files a built-in's mentions read find."""
        return self._mentions_found(ctx, builtin.mention_text(arguments))

    def _mentions_found(self, ctx: LaunchContext, text: str) -> list[str]:
        files = mentioned_files(ctx.fs, ctx.cwd, ctx.home, text)
        return found_by_mentions(ctx, partial(self._found_skill, ctx), self._taken(ctx), files)

    def command_after(self, ctx: LaunchContext, catalog: Catalog, command: Definition, arguments: str) -> list[str]:
        """The reminder naming the directory-scoped variants of `command` that the files its `@path`
        mentions read have found (`claude_found`)."""
        files = mentioned_files(ctx.fs, ctx.cwd, ctx.home, _mention_text(ctx, command, arguments))
        variants = scoped_variants(ctx, partial(self._found_skill, ctx), self._taken(ctx), command.name, files)
        return [variants_reminder(command.name, variants)] if variants else []

    def _taken(self, ctx: LaunchContext) -> set[str]:
        """The names of the skills and commands of the start, Claude Code's built-ins and their aliases included."""
        catalog = self.catalog(ctx)
        return {d.name for d in catalog.definitions if d.kind in (Kind.SKILL, Kind.COMMAND) and not d.dropped} | every_name()

    def _found_skill(self, ctx: LaunchContext, path: str, folder: str) -> Definition | None:
        skill = self._skill(ctx, path, folder, Scope.PROJECT)
        return skill if skill.delivery == Delivery.LISTED else None

    # -- a typed line no command takes ---------------------------------------------------------
    def typed_command_line(self, catalog: Catalog, name: str, arguments: str) -> tuple[str, str]:
        """The name and arguments Claude Code reads from the line (`claude_typed`: `/ns tool` runs `ns:tool`)."""
        parsed = parse_line(typed_line(name, arguments))
        if parsed is None:
            return name, arguments
        parsed = subcommand(parsed, lambda n: self.find_command(catalog, n) is not None or claude_builtin(n) is not None)
        return parsed.name, parsed.arguments

    def plain_line(self, ctx: LaunchContext, name: str, arguments: str) -> PlainLine | None:
        """A line sent as a plain prompt (`claude_typed`), or one sent as typed on the unknown-command path
        whose `@path` mentions read files or folders: their Read (or `ls`) calls and results, and the skills
        the reads find (FINDINGS.md §11o); None for a line that reads nothing there."""
        line = typed_line(name, arguments)
        note = plain_line(ctx.fs, line)
        if note is not None:
            return PlainLine(note, PLAIN_LEAVES_OUT)
        reads = self._reads(ctx, line)
        return PlainLine(unknown_line(line), (), tuple(reads), tuple(self._mentions_found(ctx, line))) if reads else None

    # -- what is sent -------------------------------------------------------------------------
    def skills_listing(self, catalog: Catalog) -> str:
        lines = [
            f"- {listed_name(d)}: {cut_description(d.description or '')}"
            for d in catalog.active(Kind.SKILL)
            if d.delivery == Delivery.LISTED
        ]
        commands = sorted((d for d in catalog.active(Kind.COMMAND) if d.delivery == Delivery.LISTED), key=lambda d: d.name)
        lines += [f"- {d.name}: {cut_description(d.description or '')}" for d in commands]
        return "\n".join([SKILLS_HEADER, "", *lines, "[Claude Code built-in skills]"])

    def agents_listing(self, catalog: Catalog) -> str:
        entries = [(name, f"- {name}: [Claude Code built-in agent]") for name in BUILTIN_AGENTS]
        entries += [
            (a.name, f"- {a.name}: {a.description} (Tools: {a.tools})")
            for a in catalog.active(Kind.AGENT)
            if a.delivery == Delivery.LISTED
        ]
        return "\n".join(
            [
                "Available agent types for the Agent tool:",
                *(line for _name, line in sorted(entries, key=lambda e: sort_key(e[0]))),
            ]
        )

    def listing_chars(self, catalog: Catalog) -> int:
        """What the listing of the workspace's and the user's skills and commands costs against
        Claude Code's budget: each entry's name, four characters and its (cut) description, plus
        one per separator (the built-in skills come on top)."""
        entries = [
            (listed_name(d), cut_description(d.description or ""))
            for d in catalog.active(Kind.SKILL) + catalog.active(Kind.COMMAND)
            if d.delivery == Delivery.LISTED
        ]
        return sum(len(name) + 4 + len(description) for name, description in entries) + max(0, len(entries) - 1)

    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        layers = [base_layer("Claude Code", start, agent)]
        layers += instruction_layers(start)
        layers.append(Layer("environment", "system-message", start.environment, "harness"))
        tools = agent.tools if agent is not None else "All tools"
        if has_tool(tools, "Agent"):
            layers.append(Layer("agents", "system-message", self.agents_listing(catalog), "mixed"))
        if has_tool(tools, "Skill"):
            layers.append(Layer("skills", "system-message", self.skills_listing(catalog), "mixed"))
        return layers

    def session_reminders(self, ctx: LaunchContext, catalog: Catalog, plan: SessionPlan) -> dict[str, list[Reminder]]:
        if not plan.plan:
            return {}
        return {
            "start": [Reminder("plan-mode", "system-message", "[Claude Code plan-mode reminder]", verified=True)],
            "switch": [Reminder("plan-mode-exit", "system-message", "[Claude Code plan-mode exit reminder]")],
        }


def _mention_text(ctx: LaunchContext, command: Definition, arguments: str) -> str:
    """The command's text in which Claude Code looks for `@path` mentions (`claude_mention_text`)."""
    folder = os.path.dirname(command.path) if command.kind == Kind.SKILL else None
    return claude_mention_text(arguments, parse_definition(ctx.fs, command.path).body, folder)


def _typed_body(parsed: ParsedDefinition) -> str:
    """The body a typed command or skill sends: a byte-order mark before a file without a header is
    kept (seed 9511: `\ufeff# Docs_Writer`)."""
    return ("\ufeff" if parsed.bom and not parsed.header else "") + parsed.body
