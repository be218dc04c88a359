"""Cline CLI's skills and workflows (cline 3.0.65; @cline/core and @cline/shared of the package).

Skills (`_E` in @cline/shared/dist/storage: `.clinerules/skills`, `.cline/skills`, `.agents/skills` of
the workspace, which is the git root (no git: cwd), then `~/.cline/skills` and `~/.agents/skills`;
a folder met again left out, `bU`): each folder's entries in directory order (`kU`: `readdir`, unsorted, so the
filesystem's), a directory (or a link to one) being a skill when it holds `SKILL.md`, nothing below it
searched. A skill (`IX`) needs a header YAML reads (none at all is fine) and a body; it is named by
`name`, else its folder; `disabled: true` or `enabled: false` turn it off; a `name` or `description`
that is no string or a flag that is no boolean drops it. Skills', workflows' and agents' headers are
read as the rules' are (`cline_header`: the `yaml` package, YAML 1.2, a key twice rejected).
`~/.cline` is `$CLINE_DIR` where that is set (`resolveClineDir`, `Cline.home_dir`). The first skill of a name
wins. Only the names are sent at the start: `Available skills: a, b.` ends the skills tool's
description. Without any skill there is no skills tool (`n$`: `if (enableSkills && executors.skills)`;
seed 9101 of `differential.py`: every run without a skill); a skill turned off counts as one
(not captured).

Workflows (`DE`: `.clinerules/workflows` of the workspace, `~/Documents/Cline/Workflows`,
`~/.cline/workflows`, the workspace's `.cline/workflows`; `pX`, `vX`, the watcher `C4`): the `.md`,
`.markdown` and `.txt` files directly in them, named by `name`, else the file name without its
extension, made a command name (`j2`: lower case, blanks and characters other than letters, digits,
`_.:@-` made `-`, runs of `-` one, none at the ends); a header YAML rejects, an empty body, a `name` that
is no string, a flag that is no boolean, `disabled: true` or `enabled: false` leave one out. The last folder's workflow of a name wins (the user's
`~/Documents/Cline/Workflows` over `.clinerules/workflows`: verified). A skill of the name takes it
over any workflow, and the CLI does not expand typed skills (`expandSkillCommands: false`): the line is
then sent as typed (verified).
Not sent at the start; typed (`cline "/name args"`, `jL`), the trimmed body followed by everything after
the name, as the user message (verified). A line without a blank (`cline "/name"`) is refused before
anything else (`sr`: "Unknown command or unquoted prompt"). Every line sent, a workflow's text included,
then has its `@path` mentions attached (`cline_at`).

Custom agents (`B3`, `resolveAgentConfigSearchPaths`: `.cline/agents` of the workspace, then
`~/.cline/agents`): the `.yml` and `.yaml` files directly in them (`Lc`; a `.md` file is not read), each a
`---` header (`Hc`: the last `---` line whose header YAML reads as a mapping `Nz` accepts closes it: a
non-empty string `name` and `description`, the optional fields of their types), and a body, the agent's system prompt (`eY`: trimmed, not empty). The first of a name, compared
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
from lsp_agents.core.agents.discovery import ParsedDefinition, parse_definition
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Layer, Scope
from lsp_agents.core.agents.typed_commands import JS_WHITESPACE, typed_line
from lsp_agents.core.harnesses import harness_model
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.cline import RULE_EXTENSIONS, Cline, locale_key
from lsp_agents.core.harnesses.cline_header import AgentHeader, ClineFile, agent_header, parse_file
from lsp_agents.core.model import Reason
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
        "`.claude/skills` and skills two levels down: not read; headers read as YAML 1.2, a key twice, a `name` or "
        "`description` no string or a flag no boolean: left out (3.0.65); `$CLINE_DIR` moves `~/.cline`",
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
        cline_dir = harness_model(self.harness, Cline).home_dir(ctx)
        skills = self._skills(ctx, workspace, cline_dir)
        commands = self._workflows(ctx, workspace, cline_dir)
        shadow_by_name(commands, [s for s in skills if not s.dropped and s.shadowed_by is None])
        catalog.definitions = skills + commands + self._agents(ctx, workspace, cline_dir)
        return catalog

    def _skills(self, ctx: LaunchContext, workspace: str, cline_dir: str) -> list[Definition]:
        """`resolveSkillsConfigSearchPaths`, a folder met again left out (`bU`); the first skill of a name wins."""
        folders = [(os.path.join(workspace, f, "skills"), Scope.PROJECT) for f in SKILL_FOLDERS]
        folders += [(os.path.join(cline_dir, "skills"), Scope.USER), (ctx.home_path(".agents", "skills"), Scope.USER)]
        skills = [
            self._skill(ctx, os.path.join(folder, entry, "SKILL.md"), scope)
            for folder, scope in _unique(folders)
            for entry in ctx.fs.list_dir(folder)
            if ctx.fs.is_file(os.path.join(folder, entry, "SKILL.md"))
        ]
        mark_shadowed(skills, later_wins=False)
        return skills

    def _workflows(self, ctx: LaunchContext, workspace: str, cline_dir: str) -> list[Definition]:
        """`resolveWorkflowsConfigSearchPaths`; the last folder's workflow of a name wins."""
        folders = [
            (os.path.join(workspace, ".clinerules", "workflows"), Scope.PROJECT),
            (ctx.home_path("Documents", "Cline", "Workflows"), Scope.USER),
            (os.path.join(cline_dir, "workflows"), Scope.USER),
            (os.path.join(workspace, ".cline", "workflows"), Scope.PROJECT),
        ]
        commands = [
            self._workflow(ctx, os.path.join(folder, entry), scope)
            for folder, scope in _unique(folders)
            for entry in sorted(ctx.fs.list_dir(folder))
            if entry.lower().endswith(RULE_EXTENSIONS) and ctx.fs.is_file(os.path.join(folder, entry))
        ]
        mark_shadowed(commands, later_wins=True)
        return commands

    def _agents(self, ctx: LaunchContext, workspace: str, cline_dir: str) -> list[Definition]:
        """`resolveAgentConfigSearchPaths` (`B3`): the first agent of a name, compared lower-cased, wins."""
        folders = [(os.path.join(workspace, ".cline", "agents"), Scope.PROJECT), (os.path.join(cline_dir, "agents"), Scope.USER)]
        agents = [
            self._agent(ctx, os.path.join(folder, entry), scope)
            for folder, scope in _unique(folders)
            for entry in sorted(ctx.fs.list_dir(folder))
            if entry.lower().endswith(AGENT_EXTENSIONS) and ctx.fs.is_file(os.path.join(folder, entry))
        ]
        mark_shadowed(agents, later_wins=False, fold_case=True)
        return agents

    def _agent(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        """`eY`: the agent config of `path`."""
        parsed = parse_definition(ctx.fs, path)
        header = agent_header(_text_of(ctx, path)) if not parsed.problem else None
        read = header if isinstance(header, AgentHeader) else None
        agent = Definition(
            self.harness,
            Kind.AGENT,
            read.name if read else os.path.splitext(os.path.basename(path))[0],
            path,
            scope,
            description=read.description if read else None,
            body=read.body if read else parsed.body.strip(JS_WHITESPACE),
            delivery=Delivery.LISTED,
            line=parsed.line_of("name"),
            description_line=parsed.line_of("description"),
        )
        if parsed.problem:
            agent.drop(Issue("invalid-definition", f"{TITLE} cannot read this agent ({parsed.problem})"))
        elif isinstance(header, str):
            agent.drop(Issue("invalid-definition", f"{TITLE} drops an agent with {header}"))
        return agent

    def _skill(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        """`IX`: the skill of `path`."""
        parsed = parse_definition(ctx.fs, path)
        folder = os.path.basename(os.path.dirname(path))
        read = parse_file(_text_of(ctx, path), folder, described=True) if not parsed.problem else None
        loaded = read if isinstance(read, ClineFile) else None
        skill = skill_definition(
            self.harness,
            loaded.name if loaded else (parsed.text_field("name") or "").strip() or folder,
            path,
            scope,
            parsed,
            description=loaded.description if loaded else None,
            folder=folder,
            **({"body": loaded.body} if loaded else {}),
        )
        problem = _problem(parsed, read, "skill")
        if problem:
            skill.drop(Issue("invalid-definition", f"{TITLE} {problem}"))
        elif loaded and loaded.disabled:
            skill.drop(Issue("disabled", f"{TITLE} does not load a skill turned off in its header"))
        else:
            skill.delivery = Delivery.LISTED
        return skill

    def _workflow(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        """`vX`: the workflow of `path`."""
        parsed = parse_definition(ctx.fs, path)
        stem = os.path.splitext(os.path.basename(path))[0]
        read = parse_file(_text_of(ctx, path), stem) if not parsed.problem else None
        loaded = read if isinstance(read, ClineFile) else None
        workflow = Definition(
            self.harness,
            Kind.COMMAND,
            command_name(loaded.name if loaded else stem),
            path,
            scope,
            description=None,
            body=loaded.body if loaded else parsed.body.strip(JS_WHITESPACE),
            delivery=Delivery.ON_USE,
        )
        problem = _problem(parsed, read, "workflow")
        if problem:
            workflow.drop(Issue("invalid-definition", f"{TITLE} {problem}"))
        elif loaded and loaded.disabled:
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


def _unique(folders: list[tuple[str, Scope]]) -> list[tuple[str, Scope]]:
    """The folders, one met again (`$CLINE_DIR` naming the project's `.cline`, say) left out."""
    unique: dict[str, tuple[str, Scope]] = {}
    for folder, scope in folders:
        unique.setdefault(os.path.normpath(folder), (folder, scope))
    return list(unique.values())


def _text_of(ctx: LaunchContext, path: str) -> str:
    return ctx.fs.read(path).text()


def _problem(parsed: ParsedDefinition, read: ClineFile | Reason | None, what: str) -> str | None:
    """Why Cline drops the skill or workflow `read` from `parsed`'s file, if it does."""
    if parsed.problem:
        return f"cannot read this {what} ({parsed.problem})"
    if read is Reason.EMPTY:
        return f"drops a {what} without a body"
    if isinstance(read, Reason):
        return (
            f"drops this {what}: its header does not parse as YAML 1.2 (a key twice, say), or its `name` or "
            "`description` is no string, or its `disabled` or `enabled` no boolean"
        )
    return None
