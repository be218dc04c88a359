"""Cline CLI's skills and workflows (cline 3.0.65; @cline/core and @cline/shared of the package).

Skills (`_E` in @cline/shared/dist/storage: `.clinerules/skills`, `.cline/skills`, `.agents/skills` of
the workspace, which is the git root (no git: cwd), then `~/.cline/skills` (`CLINE_DIR`) and
`~/.agents/skills`): each folder's entries in directory order (`kU`: `readdir`, unsorted, so the
filesystem's), a directory (or a link to one) being a skill when it holds `SKILL.md`, nothing below it
searched. A skill (`IX`) needs a header YAML reads (none at all is fine) and a body; it is named by
`name`, else its folder; `disabled: true` or `enabled: false` turn it off. The first skill of a name
wins. Only the names are sent at the start: `Available skills: a, b.` ends the skills tool's
description. Without any skill there is no skills tool (`n$`: `if (enableSkills && executors.skills)`;
seed 9101 of `differential.py`: every run without a skill); a skill turned off counts as one
(not captured).

Workflows (`DE`: `.clinerules/workflows` of the workspace, `~/Documents/Cline/Workflows`,
`~/.cline/workflows`, the workspace's `.cline/workflows`; `pX`, `vX`, the watcher `C4`): the `.md`,
`.markdown` and `.txt` files directly in them, named by `name`, else the file name without its
extension, made a command name (`j2`: lower case, blanks and characters other than letters, digits,
`_.:@-` made `-`, runs of `-` one, none at the ends); a header YAML rejects, an empty body, `disabled:
true` or `enabled: false` leave one out. The last folder's workflow of a name wins (the user's
`~/Documents/Cline/Workflows` over `.clinerules/workflows`: verified). A skill of the name takes it
over any workflow, and the CLI does not expand typed skills (`expandSkillCommands: false`): the line is
then sent as typed (verified).
Not sent at the start; typed (`cline "/name args"`, `jL`), the trimmed body followed by everything after
the name, as the user message (verified). A line without a blank (`cline "/name"`) is refused before
anything else (`sr`: "Unknown command or unquoted prompt"). Every line sent, a workflow's text included,
then has its `@path` mentions attached (`cline_at`).

Custom agents (`B3`, `resolveAgentConfigSearchPaths`: `.cline/agents` of the workspace, then
`$CLINE_DIR/agents`, `~/.cline/agents`): the `.yml` and `.yaml` files directly in them (`Lc`; a `.md` file is
not read), each a `---` header (`Hc`) that YAML reads as a mapping with a non-empty `name` and `description`
(`Nz`), and a body, the agent's system prompt (`eY`: trimmed, not empty). The first of a name, compared
lower-cased, wins. At the start each is a tool of its own (`U3`): `subagent_` and its name made an identifier
(`Zj`), described `Use the "NAME" subagent: DESCRIPTION`, in name order. Delegated to (`D8({kind:
"subagent", prompt: systemPrompt})`), the sub-agent's request has the agent's body as its system prompt, the
instructions after a blank line, the skills tool, and no subagent tools (verified: `cline-delegate`).
"""

from __future__ import annotations

import os
import re
from typing import ClassVar

from lsp_agents.core.agents import cline_at
from lsp_agents.core.agents.base import (
    Definitions,
    StartText,
    base_layer,
    instruction_layers,
    mark_shadowed,
    shadow_by_name,
    skill_definition,
)
from lsp_agents.core.agents.discovery import parse_definition
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Layer, Scope
from lsp_agents.core.agents.typed_commands import JS_WHITESPACE, typed_line
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.cline import RULE_EXTENSIONS, locale_key
from lsp_agents.core.walk import find_marker_root

TITLE = "Cline CLI"
_UNNAMED = re.compile(r"[^\w.:@-]+")
SKILL_FOLDERS = (".clinerules", ".cline", ".agents")
SKILLS_TOOL = "[Cline skills tool]"
AGENT_EXTENSIONS = (".yml", ".yaml")
AGENT_TOOL_PREFIX = "subagent_"  # `$j`
AGENT_TOOL_LENGTH = 64  # `G3`


def agent_tool_name(name: str) -> str:
    """`Zj`: the tool of the agent `name`: lower case, runs of characters other than `[a-z0-9]` one `_`,
    none at the ends; past 64 characters cut, with six characters of its FNV-1a hash in base 36."""
    slug = re.sub(r"[^a-z0-9]+", "_", name.strip(JS_WHITESPACE).lower()).strip("_") or "agent"
    tool = AGENT_TOOL_PREFIX + slug
    if len(tool) <= AGENT_TOOL_LENGTH:
        return tool
    digest = _base36(_fnv1a(name))[:6]
    keep = max(1, AGENT_TOOL_LENGTH - len(AGENT_TOOL_PREFIX) - len(digest) - 1)
    return f"{AGENT_TOOL_PREFIX}{slug[:keep]}_{digest}"[:AGENT_TOOL_LENGTH]


def _fnv1a(text: str) -> int:
    """`qc`, over the UTF-16 code units (`charCodeAt`)."""
    data = text.encode("utf-16-le", "surrogatepass")
    value = 2166136261
    for index in range(0, len(data), 2):
        value = ((value ^ int.from_bytes(data[index : index + 2], "little")) * 16777619) & 0xFFFFFFFF
    return value


def _base36(value: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        value, rest = divmod(value, 36)
        out = digits[rest] + out
        if not value:
            return out


def command_name(name: str) -> str:
    """`j2`: a workflow's or a typed command's name as Cline compares it."""
    name = re.sub(r"\s+", "-", name.strip(JS_WHITESPACE).lower())
    return re.sub(r"-+", "-", _UNNAMED.sub("-", name)).strip("-")


class ClineDefinitions(Definitions):
    harness = "cline"
    title = TITLE
    evidence: ClassVar[dict[str, str]] = {
        "skills listing": "verified: the names of the workspace's and the user's skills, in directory order, at the "
        "end of the skills tool's description (3.0.65)",
        "skill loading": "verified: a header YAML rejects: left out; no `name`: the folder's; no `description`: listed; "
        "`.claude/skills` and skills two levels down: not read",
        "workflows": "verified: not sent at the start; source: their folders (`DE`)",
        "typed commands": "verified: `/name args` sends the workflow's trimmed body and the text after the name; "
        "names lower-cased, the user's workflow over the project's; a skill's name (typed: sent as typed) over a "
        "workflow's (3.0.65)",
        "custom agents": "verified: the `.yml`/`.yaml` agents of `.cline/agents` and `~/.cline/agents` as `subagent_NAME` "
        "tools at the start; delegated to, the agent's body then the instructions as the sub-agent's system prompt "
        "(3.0.65); source: a `.md` file, no `name`, `description` or body: left out",
    }
    delegated_prompts = True

    def _workspace(self, ctx: LaunchContext) -> str:
        return find_marker_root(ctx.fs, ctx.cwd, [".git"]) or ctx.cwd

    def build(self, ctx: LaunchContext) -> Catalog:
        catalog = Catalog(self.harness, ctx.cwd)
        workspace = self._workspace(ctx)
        cline_dir = ctx.env.get("CLINE_DIR") or ctx.home_path(".cline")
        folders = [(os.path.join(workspace, f, "skills"), Scope.PROJECT) for f in SKILL_FOLDERS]
        folders += [(os.path.join(cline_dir, "skills"), Scope.USER), (ctx.home_path(".agents", "skills"), Scope.USER)]
        skills = [
            self._skill(ctx, os.path.join(folder, entry, "SKILL.md"), scope)
            for folder, scope in folders
            for entry in ctx.fs.list_dir(folder)
            if ctx.fs.is_file(os.path.join(folder, entry, "SKILL.md"))
        ]
        mark_shadowed(skills, later_wins=False)
        workflows = [
            (os.path.join(workspace, ".clinerules", "workflows"), Scope.PROJECT),
            (ctx.home_path("Documents", "Cline", "Workflows"), Scope.USER),
            (os.path.join(cline_dir, "workflows"), Scope.USER),
            (os.path.join(workspace, ".cline", "workflows"), Scope.PROJECT),
        ]
        commands = [
            self._workflow(ctx, os.path.join(folder, entry), scope)
            for folder, scope in workflows
            for entry in sorted(ctx.fs.list_dir(folder))
            if entry.lower().endswith(RULE_EXTENSIONS) and ctx.fs.is_file(os.path.join(folder, entry))
        ]
        mark_shadowed(commands, later_wins=True)
        shadow_by_name(commands, [s for s in skills if not s.dropped and s.shadowed_by is None])
        agents = [
            self._agent(ctx, os.path.join(folder, entry), scope)
            for folder, scope in (
                (os.path.join(workspace, ".cline", "agents"), Scope.PROJECT),
                (os.path.join(cline_dir, "agents"), Scope.USER),
            )
            for entry in sorted(ctx.fs.list_dir(folder))
            if entry.lower().endswith(AGENT_EXTENSIONS) and ctx.fs.is_file(os.path.join(folder, entry))
        ]
        mark_shadowed(agents, later_wins=False, fold_case=True)  # `B3`: the first of a name, compared lower-cased
        catalog.definitions = skills + commands + agents
        return catalog

    def _agent(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        """`eY`: the agent config of `path`."""
        parsed = parse_definition(ctx.fs, path)
        name, description = (_text(parsed.fields.get(key)) for key in ("name", "description"))
        agent = Definition(
            self.harness,
            Kind.AGENT,
            name or os.path.splitext(os.path.basename(path))[0],
            path,
            scope,
            description=description,
            body=parsed.body.strip(JS_WHITESPACE),
            delivery=Delivery.LISTED,
            line=parsed.line_of("name"),
            description_line=parsed.line_of("description"),
        )
        problem = None
        if parsed.problem:
            problem = f"cannot read this agent ({parsed.problem})"
        elif not parsed.header or parsed.yaml_error is not None:
            problem = "drops an agent without a `---` header YAML reads"
        elif not name or not description:
            problem = "drops an agent without a `name` and a `description`"
        elif not agent.body:
            problem = "drops an agent without a body (its system prompt)"
        if problem:
            agent.drop(Issue("invalid-definition", f"{TITLE} {problem}"))
        return agent

    def _skill(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        parsed = parse_definition(ctx.fs, path)
        folder = os.path.basename(os.path.dirname(path))
        name = (parsed.text_field("name") or "").strip() or folder
        description = (parsed.text_field("description") or "").strip() or None
        skill = skill_definition(
            self.harness,
            name,
            path,
            scope,
            parsed,
            description=description,
            folder=folder,
        )
        problem = None
        if parsed.problem:
            problem = f"cannot read this skill ({parsed.problem})"
        elif parsed.yaml_error is not None:
            problem = f"drops this skill: its header is not valid YAML ({parsed.yaml_error})"
        elif not skill.body:
            problem = "drops a skill without a body"
        if problem:
            skill.drop(Issue("invalid-definition", f"{TITLE} {problem}"))
        elif parsed.fields.get("disabled") is True or parsed.fields.get("enabled") is False:
            skill.drop(Issue("disabled", f"{TITLE} does not load a skill turned off in its header"))
        else:
            skill.delivery = Delivery.LISTED
        return skill

    def _workflow(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        """`vX`: the workflow of `path`."""
        parsed = parse_definition(ctx.fs, path)
        declared = parsed.fields.get("name")
        name = declared if isinstance(declared, str) and declared.strip() else os.path.splitext(os.path.basename(path))[0]
        workflow = Definition(
            self.harness,
            Kind.COMMAND,
            command_name(name),
            path,
            scope,
            description=None,
            body=parsed.body.strip(JS_WHITESPACE),
            delivery=Delivery.ON_USE,
        )
        if parsed.problem:
            workflow.drop(Issue("invalid-definition", f"{TITLE} cannot read this workflow ({parsed.problem})"))
        elif parsed.yaml_error is not None:
            workflow.drop(Issue("invalid-definition", f"{TITLE} drops this workflow: its header does not parse"))
        elif not workflow.body:
            workflow.drop(Issue("invalid-definition", f"{TITLE} drops a workflow without a body"))
        elif parsed.fields.get("disabled") is True or parsed.fields.get("enabled") is False:
            workflow.drop(Issue("disabled", f"{TITLE} does not run a workflow turned off in its header"))
        return workflow

    def find_command(self, catalog: Catalog, name: str) -> Definition | None:
        """`jL`, `V5`: the first of the skills, then the workflows, of the name; a skill is not expanded
        (`expandSkillCommands: false`): the line is sent as typed, also over a workflow of its name."""
        wanted = command_name(name)
        found = (d for kind in (Kind.SKILL, Kind.COMMAND) for d in catalog.active(kind) if command_name(d.name) == wanted)
        first = next(found, None)
        return first if first is not None and first.kind == Kind.COMMAND else None

    def refusal(self, ctx: LaunchContext, name: str, arguments: str) -> str | None:
        line = typed_line(name, arguments)
        return cline_at.refusal_note(line) if cline_at.refuses(line) else None

    def command_message(self, ctx: LaunchContext, command: Definition, arguments: str) -> str:
        # `jL`: the body, then everything typed after the name (the space before the arguments too).
        return cline_at.message(self._launch(ctx), (command.body or "") + (f" {arguments}" if arguments else ""))

    def typed_line_message(self, ctx: LaunchContext, catalog: Catalog, name: str, arguments: str) -> str | None:
        """The line with its `@path` mentions attached (`cline_at`); None where that is the line as typed."""
        line = typed_line(name, arguments)
        sent = cline_at.message(self._launch(ctx), line)
        return None if sent == line else sent

    def _launch(self, ctx: LaunchContext) -> cline_at.Launch:
        return cline_at.Launch(ctx.fs, ctx.cwd, self._workspace(ctx), ctx.home)

    def skills_listing(self, catalog: Catalog) -> str:
        names = [s.name for s in catalog.active(Kind.SKILL) if s.delivery == Delivery.LISTED]
        return f"{SKILLS_TOOL} Available skills: {', '.join(names)}." if names else SKILLS_TOOL

    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        layers = [
            base_layer(TITLE, start, None),
            *instruction_layers(start),
            Layer("environment", "system", start.environment, "harness"),
        ]
        if agent is not None:  # the sub-agent's request: its body, then the instructions
            layers = [Layer("agent", "system", agent.body or "", "workspace"), *instruction_layers(start)]
        loaded = [s for s in catalog.of(Kind.SKILL) if not any(i.code == "invalid-definition" for i in s.issues)]
        layers += [Layer("skills", "tool", self.skills_listing(catalog), "mixed")] if loaded else []
        listed = catalog.active(Kind.AGENT)
        if agent is None and listed:
            layers.append(Layer("agents", "tool", agents_listing(listed), "mixed"))
        return layers


def agents_listing(agents: list[Definition]) -> str:
    """`U3`, `Qj`: per agent, by name, its tool's name and description, a blank line between."""
    taken: set[str] = set()
    entries = []
    for agent in sorted(agents, key=lambda a: locale_key(a.name)):
        tool = base = agent_tool_name(agent.name)
        number = 2
        while tool in taken:
            suffix = f"_{number}"
            number += 1
            tool = base[: max(1, AGENT_TOOL_LENGTH - len(suffix))] + suffix
        taken.add(tool)
        entries.append(f'{tool}\nUse the "{agent.name}" subagent: {agent.description}')
    return "\n\n".join(entries)


def _text(value: object) -> str | None:
    """A header string as `Nz` takes it: trimmed, None when empty or not a string."""
    return value.strip(JS_WHITESPACE) or None if isinstance(value, str) else None
