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
the name, as the user message (verified). A line of one word (`cline "/name"`) is refused as an unknown
subcommand. Custom agents (`.cline/agents`) are not sent at the start either.
"""

from __future__ import annotations

import os
import re
from typing import ClassVar

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
from lsp_agents.core.agents.typed_commands import JS_WHITESPACE
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.cline import RULE_EXTENSIONS
from lsp_agents.core.walk import find_marker_root

TITLE = "Cline CLI"
_UNNAMED = re.compile(r"[^\w.:@-]+")
SKILL_FOLDERS = (".clinerules", ".cline", ".agents")
SKILLS_TOOL = "[Cline skills tool]"


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
        "custom agents": "verified: `.cline/agents` not sent at the start; not modelled",
    }

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
        catalog.definitions = skills + commands
        return catalog

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

    def command_message(self, ctx: LaunchContext, command: Definition, arguments: str) -> str:
        # `jL`: the body, then everything typed after the name (the space before the arguments too).
        return (command.body or "") + (f" {arguments}" if arguments else "")

    def skills_listing(self, catalog: Catalog) -> str:
        names = [s.name for s in catalog.active(Kind.SKILL) if s.delivery == Delivery.LISTED]
        return f"{SKILLS_TOOL} Available skills: {', '.join(names)}." if names else SKILLS_TOOL

    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        layers = [
            base_layer(TITLE, start, None),
            *instruction_layers(start),
            Layer("environment", "system", start.environment, "harness"),
        ]
        loaded = [s for s in catalog.of(Kind.SKILL) if not any(i.code == "invalid-definition" for i in s.issues)]
        return layers + ([Layer("skills", "tool", self.skills_listing(catalog), "mixed")] if loaded else [])
