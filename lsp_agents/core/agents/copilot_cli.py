"""GitHub Copilot CLI's custom agents, skills and commands (@github/copilot 1.0.102).

The loader is native code (prebuilds/linux-x64/runtime.node, a stripped Rust library; its panic
paths name src/runtime/src/agents/custom_agents_discovery.rs and
src/runtime/src/host_protocol/skills_discover.rs), so every rule here comes from captures
(`copilot-cli-agents-*`), with the package's changelog.json for the folders it names.

The directories searched are the launch directory and its parents, nearest first, up to the git
root; without git up to the home directory when the launch directory is inside it, else up to the
filesystem root (the changelog's 0.0.398 "Skills from parent directories ... work in non-git
directories"; runtime.node's `skillsGetSkillFingerprintDirectories` and `customAgentsDiscoverJson`,
called directly: GD-14). The home directory's `.claude` folders are never searched as a project's.

Skills: `SKILL.md` at any depth below `.github/skills`, then `.agents/skills`, then `.claude/skills`
of each of those directories (the three folders in that order, each from the launch directory up),
then `$COPILOT_HOME/skills` (default `~/.copilot/skills`) and, only without `COPILOT_HOME`,
`~/.agents/skills`, then the folders `$COPILOT_SKILLS_DIRS` names (comma-separated, each trimmed, empty
ones dropped, a relative one from the launch directory; `S.skillsLoad(…, process.env.COPILOT_SKILLS_DIRS,
…)`, GD-92), whose skills are listed with the location `custom`; symlinked folders are followed. The first
skill of a name wins (a project skill over a user skill). A skill needs a `---` header that YAML reads and an ASCII name (`name`, else
its folder; white space becomes `-`) and a `description` of at most 1,024 characters; without a
`description` key the first paragraph of its body that is no heading is listed, its lines joined by
spaces. `disable-model-invocation: true` keeps it unlisted. Commands: the `.claude/commands/*.md`
files of the same directories (not their subfolders, not the user's), named by file, listed as
skills after the built-in ones unless a skill has their name; one whose header YAML rejects is
dropped, one without a header listed.

The listing sits in the system message, after the environment and before the instructions:
`<available_skills>` with one `<skill>` element per skill (name and description XML-escaped,
`<location>` project, user or builtin). Its order is an insertion sort by name that only swaps two
neighbours of one source class: the repository's skills from above the launch directory, the launch
directory's own, those of `$COPILOT_HOME/skills`, those of `~/.agents/skills`, those of every folder of
`$COPILOT_SKILLS_DIRS` together, the built-in ones;
the launch directory's skills stay where their folder's turn put them (captured with lists of up to
14 entries, where Rust's stable sort is an insertion sort).

Custom agents: `*.md` at any depth below `$COPILOT_HOME/agents`, then the `.github/agents` and
`.claude/agents` of each directory from the launch directory up; the first of a name wins (the
user's over the project's). Named by `name`, else by their path below the folder without `.agent.md`
or `.md`, `/` becoming `--`; an agent needs a header that YAML reads and a `description`.
`disable-model-invocation: true` or `infer: false` keep it out of the listing, which ends the task
tool's description: `User-provided custom agents:` and `- **name**: description` by name, joined by
blank lines. `--agent NAME` adds the agent's trimmed body to the system message in
`<agent_instructions>` after the instructions, and an agent whose `tools` leave out the `agent`
tools gets no task tool, hence no listing: `agent`, `custom-agent`, `task` or `*` in any case, in a
list or a comma-separated string, keep it; `tools: []`, `[edit]`, `[read]` drop it
(`copilot-cli-agents-tools`, FINDINGS.md CPA-7).
"""

from __future__ import annotations

import os
import re
from typing import ClassVar

from lsp_agents.core.agents.base import (
    Definitions,
    StartText,
    base_layer,
    dedupe_real,
    instruction_layers,
    mark_shadowed,
    shadow_by_name,
    skill_definition,
    unreadable_issue,
)
from lsp_agents.core.agents.discovery import ParsedDefinition, find_files, markdown_file, parse_definition, skill_file
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Layer, Scope
from lsp_agents.core.harnesses import harness_model
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.copilot_cli import XML_ESCAPES, CopilotCli
from lsp_agents.core.walk import ancestors, find_marker_root, is_within

TITLE = "GitHub Copilot CLI"
SKILL_FOLDERS = (".github", ".agents", ".claude")
AGENT_FOLDERS = (".github", ".claude")
AGENT_TOOLS = frozenset({"*", "agent", "custom-agent", "task"})  # the aliases that give an agent the task tool (CPA-7)
AGENTS_HEADER = "User-provided custom agents:"
BUILTIN_SKILLS = "[Copilot CLI built-in skills]"
ENV_SKILL_DIRS = "COPILOT_SKILLS_DIRS"
CUSTOM = "custom"  # the location, and the source class, of the skills of $COPILOT_SKILLS_DIRS
MAX_DESCRIPTION = 1024  # a longer `description` drops the skill or command (GD-19, GD-23)
BUILTIN_AGENTS = "[Copilot CLI built-in agents]"
AGENT_PREAMBLE = "[Copilot CLI agent instructions preamble]"
_AGENT_SUFFIX = re.compile(r"(\.agent)?\.md$")


def _first_paragraph(body: str) -> str:
    """The first paragraph of `body` that is no heading, its lines joined by spaces."""
    lines: list[str] = []
    for line in body.splitlines():
        text = line.strip()
        if not text or (text.startswith("#") and not lines):
            if lines:
                break
            continue
        lines.append(text)
    return " ".join(lines)


def _long_description_issue(parsed: ParsedDefinition, what: str) -> Issue | None:
    """A `description` over MAX_DESCRIPTION characters drops a skill, and a command (seed 9510), as
    `copilot-cli-skill-limits` and `copilot-cli-command-limits` captured."""
    declared = parsed.text_field("description")
    if declared is None or len(declared.strip()) <= MAX_DESCRIPTION:
        return None
    return Issue(
        "invalid-definition",
        f"{TITLE} drops a {what} whose description is longer than {MAX_DESCRIPTION:,} characters",
        parsed.line_of("description"),
    )


def _description(parsed: ParsedDefinition) -> str:
    value = parsed.fields.get("description")
    return value.strip() if isinstance(value, str) else _first_paragraph(parsed.body)


def _header_issue(parsed: ParsedDefinition, what: str) -> Issue | None:
    issue = unreadable_issue(TITLE, parsed, what)
    if issue is not None:
        return issue
    if not parsed.header:
        return Issue("invalid-definition", f"{TITLE} does not load this {what}: it has no `---` header")
    if parsed.yaml_error is not None:
        return Issue("invalid-definition", f"{TITLE} drops this {what}: its header is not valid YAML ({parsed.yaml_error})")
    return None


def _tools(value: object) -> list[str] | None:
    if isinstance(value, str):
        return [t.strip() for t in value.split(",") if t.strip()]
    if isinstance(value, list):
        return [t for t in value if isinstance(t, str)]
    return None


class CopilotCliDefinitions(Definitions):
    harness = "copilot-cli"
    title = TITLE
    runs_agents = True
    expands_typed_commands = False
    evidence: ClassVar[dict[str, str]] = {
        "skills listing": "verified: `.github`, `.agents`, `.claude` skills from cwd up to the git root (no git: up to home "
        "or `/`, GD-14), then the user's, the built-in skills and the commands, in the system message (1.0.102)",
        "skills order": "verified: an insertion sort by name within each source class (lists of up to 14 entries)",
        "skill loading": "verified: no header, a header YAML rejects or a non-ASCII name: left out; no `description`: "
        "the first paragraph; `disable-model-invocation: true`: not listed",
        "commands": "verified: `.claude/commands/*.md` of cwd and its parents, listed as skills; not subfolders, not "
        "`~/.copilot/commands`, not `.github/prompts`",
        "typed commands": "verified: `copilot -p` sends `/name args` as typed after its `<current_datetime>` paragraph "
        "(a `.claude/commands` command, a skill, a `.github/prompts` file; 1.0.102)",
        "agents listing": "verified: sorted by name at the end of the task tool's description; the user's agent wins a name",
        "agent prompt": "verified: `--agent NAME` adds the trimmed body in `<agent_instructions>` after the instructions",
        "agent tools": "verified: `agent`, `custom-agent`, `task`, `*` in any case (a list or a comma-separated string) "
        "keep the task tool and its listing; `[]`, `[edit]`, `[read]` leave both out",
        "agent precedence": "verified: `.github/agents` over `.claude/agents` of one directory, a nearer `.github/agents` "
        "over the root's `.claude/agents`; not captured: one folder name at two levels (modelled nearest first)",
    }

    # -- discovery ----------------------------------------------------------------------------
    def _stop(self, ctx: LaunchContext) -> str | None:
        """Where the walk up from cwd ends: the git root; without git the home directory when cwd is
        inside it, else the filesystem root (None)."""
        git_root = find_marker_root(ctx.fs, ctx.cwd, [".git"])
        if git_root is not None:
            return git_root
        return ctx.home if is_within(ctx.cwd, ctx.home) else None

    def _directories(self, ctx: LaunchContext) -> list[str]:
        return ancestors(ctx.cwd, self._stop(ctx))

    def _folders(self, ctx: LaunchContext, directories: list[str], folders: tuple[str, ...], kind: str) -> list[str]:
        """`<directory>/<folder>/<kind>` for each, leaving out the home directory's `.claude/<kind>`."""
        claude = ctx.home_path(".claude", kind)
        return [p for d in directories for f in folders if (p := os.path.join(d, f, kind)) != claude]

    def _user_skill_dirs(self, ctx: LaunchContext) -> list[str]:
        dirs = [os.path.join(harness_model(self.harness, CopilotCli).home_dir(ctx), "skills")]
        if not ctx.env.get("COPILOT_HOME"):
            dirs.append(ctx.home_path(".agents", "skills"))
        return dirs

    @staticmethod
    def _env_skill_dirs(ctx: LaunchContext) -> list[str]:
        parts = [p.strip() for p in ctx.env.get(ENV_SKILL_DIRS, "").split(",")]
        return [os.path.join(ctx.cwd, p) for p in parts if p]

    def build(self, ctx: LaunchContext) -> Catalog:
        catalog = Catalog(self.harness, ctx.cwd)
        directories = self._directories(ctx)
        skill_dirs = [(p, Scope.PROJECT) for f in SKILL_FOLDERS for p in self._folders(ctx, directories, (f,), "skills")]
        skill_dirs += [(d, Scope.USER) for d in [*self._user_skill_dirs(ctx), *self._env_skill_dirs(ctx)]]
        skills = dedupe_real(ctx, [s for d, scope in skill_dirs for s in self._skills(ctx, d, scope, catalog)])
        mark_shadowed(skills, later_wins=False)
        commands = [c for p in self._folders(ctx, directories, (".claude",), "commands") for c in self._commands(ctx, p)]
        mark_shadowed(commands, later_wins=False)
        shadow_by_name(commands, [s for s in skills if not s.dropped and s.shadowed_by is None])
        agent_dirs = [(os.path.join(harness_model(self.harness, CopilotCli).home_dir(ctx), "agents"), Scope.USER)]
        agent_dirs += [(p, Scope.PROJECT) for p in self._folders(ctx, directories, AGENT_FOLDERS, "agents")]
        agents = dedupe_real(ctx, [a for d, scope in agent_dirs for a in self._agents(ctx, d, scope, catalog)])
        mark_shadowed(agents, later_wins=False)
        catalog.definitions = skills + commands + agents
        return catalog

    def _skills(self, ctx: LaunchContext, directory: str, scope: Scope, catalog: Catalog) -> list[Definition]:
        if not ctx.fs.is_dir(directory):
            return []
        walk = find_files(ctx.fs, directory, lambda relative, depth: depth > 0 and skill_file(relative, depth))
        if not walk.complete:
            catalog.warnings.append(f"warning: {directory}: too many entries, the rest not searched")
        return [self._skill(ctx, path, scope) for path in walk.files]

    def _skill(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        parsed = parse_definition(ctx.fs, path)
        folder = os.path.basename(os.path.dirname(path))
        declared = parsed.text_field("name")
        skill = skill_definition(
            self.harness,
            re.sub(r"\s", "-", declared or folder),
            path,
            scope,
            parsed,
            description=_description(parsed),
            folder=folder,
        )
        issue = _header_issue(parsed, "skill")
        if issue is None and not skill.name.isascii():
            issue = Issue("invalid-definition", f"{TITLE} drops a skill whose name is not ASCII", skill.line)
        issue = issue or _long_description_issue(parsed, "skill")
        if issue is not None:
            skill.drop(issue)
        else:
            listed = parsed.fields.get("disable-model-invocation") is not True
            skill.delivery = Delivery.LISTED if listed else Delivery.ON_USE
        return skill

    def _commands(self, ctx: LaunchContext, directory: str) -> list[Definition]:
        commands = []
        for entry in sorted(ctx.fs.list_dir(directory)) if ctx.fs.is_dir(directory) else ():
            path = os.path.join(directory, entry)
            if not entry.endswith(".md") or not ctx.fs.is_file(path):
                continue
            parsed = parse_definition(ctx.fs, path)
            command = Definition(
                self.harness,
                Kind.COMMAND,
                entry[:-3],
                path,
                Scope.PROJECT,
                description=_description(parsed),
                body=parsed.body.strip(),
                delivery=Delivery.LISTED,
                line=parsed.line_of("description"),
            )
            if parsed.problem:
                command.drop(Issue("invalid-definition", f"{TITLE} cannot read this command ({parsed.problem})"))
            elif parsed.yaml_error is not None:
                command.drop(
                    Issue("invalid-definition", f"{TITLE} drops this command: its header is not valid YAML ({parsed.yaml_error})")
                )
            elif issue := _long_description_issue(parsed, "command"):  # a command is loaded as a skill
                command.drop(issue)
            commands.append(command)
        return commands

    def _agents(self, ctx: LaunchContext, directory: str, scope: Scope, catalog: Catalog) -> list[Definition]:
        if not ctx.fs.is_dir(directory):
            return []
        walk = find_files(ctx.fs, directory, markdown_file)
        if not walk.complete:
            catalog.warnings.append(f"warning: {directory}: too many entries, the rest not searched")
        return [self._agent(ctx, directory, path, scope) for path in walk.files]

    def _agent(self, ctx: LaunchContext, directory: str, path: str, scope: Scope) -> Definition:
        parsed = parse_definition(ctx.fs, path)
        stem = _AGENT_SUFFIX.sub("", os.path.relpath(path, directory).replace(os.sep, "/")).replace("/", "--")
        description = parsed.text_field("description")
        tools = _tools(parsed.fields.get("tools"))
        agent = Definition(
            self.harness,
            Kind.AGENT,
            parsed.text_field("name") or stem,
            path,
            scope,
            description=description.strip() if description else None,
            body=parsed.body.strip(),
            primary=True,
            tools=None if tools is None else ", ".join(tools),
            line=parsed.line_of("name"),
            description_line=parsed.line_of("description"),
        )
        issue = _header_issue(parsed, "agent")
        if issue is None and not agent.description:
            issue = Issue("invalid-definition", f"{TITLE} drops an agent without a `description`")
        if issue is not None:
            agent.drop(issue)
        else:
            hidden = parsed.fields.get("disable-model-invocation") is True or parsed.fields.get("infer") is False
            agent.delivery = Delivery.ON_USE if hidden else Delivery.LISTED
        return agent

    # -- what is sent -------------------------------------------------------------------------
    def _source(self, ctx: LaunchContext, root: str, definition: Definition) -> str:
        """The class within which the listing's sort compares names."""
        if definition.scope == Scope.USER:
            return next((d for d in self._user_skill_dirs(ctx) if is_within(definition.path, d)), CUSTOM)
        own = [os.path.join(ctx.cwd, f) for f in SKILL_FOLDERS]
        if ctx.cwd != root and any(is_within(definition.path, d) for d in own):
            return "cwd"
        return "project"

    def skills_listing(self, ctx: LaunchContext, catalog: Catalog) -> str:
        root = self._directories(ctx)[-1]
        listed = [d for d in catalog.active(Kind.SKILL) if d.delivery == Delivery.LISTED]
        commands = [d for d in catalog.active(Kind.COMMAND) if d.delivery == Delivery.LISTED]
        entries: list[tuple[str, Definition | None]] = [(self._source(ctx, root, d), d) for d in listed]
        entries.append(("built-in", None))
        entries += [(self._source(ctx, root, d), d) for d in commands]
        for index in range(1, len(entries)):  # Rust's insertion sort with a comparator that orders one class only
            at = index
            while at > 0 and _before(entries[at], entries[at - 1]):
                entries[at - 1], entries[at] = entries[at], entries[at - 1]
                at -= 1
        lines = ["<available_skills>"]
        for source, definition in entries:
            lines += [BUILTIN_SKILLS] if definition is None else _skill_element(definition, source == CUSTOM)
        return "\n".join([*lines, "</available_skills>"])

    def agents_listing(self, catalog: Catalog) -> str:
        listed = sorted((a for a in catalog.active(Kind.AGENT) if a.delivery == Delivery.LISTED), key=lambda a: a.name)
        if not listed:
            return BUILTIN_AGENTS
        entries = "\n\n".join(f"- **{a.name}**: {a.description}" for a in listed)
        return f"{BUILTIN_AGENTS}\n\n{AGENTS_HEADER}\n{entries}"

    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        layers = [
            base_layer(TITLE, start, None),
            Layer("environment", "system", start.environment, "harness"),
            Layer("skills", "system", self.skills_listing(ctx, catalog), "mixed"),
            *instruction_layers(start),
        ]
        if agent is not None:
            text = f"<agent_instructions>\n{AGENT_PREAMBLE}\n\n{agent.body}\n</agent_instructions>"
            layers.append(Layer("agent", "system", text, "mixed"))
        tools = None if agent is None or agent.tools is None else agent.tools.split(", ")
        if tools is None or AGENT_TOOLS & {t.lower() for t in tools}:
            layers.append(Layer("agents", "tool", self.agents_listing(catalog), "mixed"))
        return layers


def _before(entry: tuple[str, Definition | None], previous: tuple[str, Definition | None]) -> bool:
    (source, definition), (previous_source, previous_definition) = entry, previous
    if source != previous_source or definition is None or previous_definition is None:
        return False
    return definition.name < previous_definition.name


def _skill_element(skill: Definition, custom: bool) -> list[str]:
    location = CUSTOM if custom else "user" if skill.scope == Scope.USER else "project"
    return [
        "<skill>",
        f"  <name>{skill.name.translate(XML_ESCAPES)}</name>",
        f"  <description>{(skill.description or '').translate(XML_ESCAPES)}</description>",
        f"  <location>{location}</location>",
        "</skill>",
    ]
