"""Gemini CLI's skills (@google/gemini-cli 0.61.0).

Skills: `SKILL.md` directly in, or one folder below, `~/.gemini/skills`, `~/.agents/skills` (both below
`$GEMINI_CLI_HOME` instead of the home directory when it is set: GD-91), then
(in a trusted folder) the launch directory's `.gemini/skills` and `.agents/skills`. A skill needs
a `name` and a `description` (read as YAML, else line by line); `:\\/<>*?"|` in a name become `-`.
A later location wins a name but keeps the first one's place in the listing, which goes into the
system instruction after the built-in skills; the body is sent when `activate_skill` loads it.
Within a folder the skills come in reverse name order, as the captures show.

Subagents (`.gemini/agents/*.md`) are not sent at the start of a session, and neither are
commands (`FileCommandLoader`): `**/*.toml` below `~/.gemini/commands`, then (in a trusted folder
that is not the home directory) the launch directory's `.gemini/commands`, symlinks followed. A
file needs a text `prompt` (and a text `description`, if any); its name is its path, folders
joined with `:`, each part with what is not a letter, digit, `_`, `-` or `.` made `_` and cut to
47 characters and `...` past 50. When a user and a project command share a name, neither keeps
it (`SlashCommandResolver`): they become `user.<name>` and `workspace.<name>`. A typed command
sends its prompt (`typed_commands`); a line no command takes has its `@path` references read
(`gemini_at`). Built-in commands and extensions' are not modelled.
"""

from __future__ import annotations

import os
import re
from typing import ClassVar

from lsp_agents.core.agents.base import Definitions, StartText, base_layer, instruction_layers, skill_definition, unreadable_issue
from lsp_agents.core.agents.discovery import find_files, parse_definition, toml_command
from lsp_agents.core.agents.gemini_at import typed_line_message
from lsp_agents.core.agents.injections import GEMINI, command_message
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Layer, Scope
from lsp_agents.core.agents.typed_commands import typed_line
from lsp_agents.core.harnesses import harness_model
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.gemini import Gemini
from lsp_agents.core.model import Cascade

HEADER = (
    "# Available Agent Skills\n\nYou have access to the following specialized skills. To activate a skill and "
    "receive its detailed instructions, call the `activate_skill` tool with the skill's name."
)
_UNSAFE = re.compile(r'[:\\/<>*?"|]')
_COMMAND_UNSAFE = re.compile(r"[^a-zA-Z0-9_\-.]")


def _command_segment(part: str) -> str:
    """A part of a command's path as Gemini CLI names it."""
    safe = _COMMAND_UNSAFE.sub("_", part)
    return safe[:47] + "..." if len(safe) > 50 else safe


class GeminiDefinitions(Definitions):
    harness = "gemini"
    title = "Gemini CLI"
    evidence: ClassVar[dict[str, str]] = {
        "skills listing": "verified: built-in, user, then workspace skills, in the system instruction (0.61.0)",
        "precedence": "verified: `.agents/skills` over `.gemini/skills`, keeping the first one's place",
        "subagents": "verified: not sent at the start of a session",
        "typed commands": "verified: `{{args}}` replaced by the words typed after the name, else the typed line "
        "appended after a blank line; a name both the user and the project define is taken by neither; `@{path}` "
        "inlined from the launch directory, `!{cmd}` a placeholder (never run); a line no command takes has its "
        "`@path` references read",
    }

    def build(self, ctx: LaunchContext) -> Catalog:
        catalog = Catalog(self.harness, ctx.cwd)
        model = harness_model("gemini", Gemini)
        agents_folder = model.spec.global_folders[0].resolve(ctx.home, ctx.env) or ctx.home_path(".agents")
        dirs = [(os.path.join(model.home_dir(ctx), "skills"), Scope.USER), (os.path.join(agents_folder, "skills"), Scope.USER)]
        trusted = model.settings(ctx, Cascade(self.harness, ctx.cwd)).trusted
        if trusted:
            dirs += [
                (os.path.join(ctx.cwd, ".gemini", "skills"), Scope.PROJECT),
                (os.path.join(ctx.cwd, ".agents", "skills"), Scope.PROJECT),
            ]
        winners: dict[str, Definition] = {}
        for directory, scope in dirs:
            for path in self._skill_files(ctx, directory):
                skill = self._skill(ctx, path, scope)
                catalog.definitions.append(skill)
                if skill.dropped:
                    continue
                earlier = winners.get(skill.name)
                if earlier is not None and ctx.fs.realpath(earlier.path) != ctx.fs.realpath(path):
                    earlier.shadowed_by, earlier.delivery = path, Delivery.NOT_SENT
                winners[skill.name] = skill
        catalog.definitions += self._commands(ctx, model.home_dir(ctx), trusted)
        return catalog

    def _commands(self, ctx: LaunchContext, gemini_home: str, trusted: bool) -> list[Definition]:
        dirs = [(os.path.join(gemini_home, "commands"), Scope.USER)]
        if trusted and ctx.fs.realpath(ctx.cwd) != ctx.fs.realpath(ctx.home):
            dirs.append((os.path.join(ctx.cwd, ".gemini", "commands"), Scope.PROJECT))
        commands = [
            self._command(ctx, directory, path, scope)
            for directory, scope in dirs
            for path in find_files(ctx.fs, directory, lambda relative, depth: relative.endswith(".toml")).files
        ]
        scopes_by_name: dict[str, set[Scope]] = {}
        for command in commands:
            if not command.dropped:
                scopes_by_name.setdefault(command.name, set()).add(command.scope)
        for command in commands:  # a clash renames both: `user.<name>`, `workspace.<name>`
            if not command.dropped and len(scopes_by_name[command.name]) > 1:
                command.name = f"{'user' if command.scope == Scope.USER else 'workspace'}.{command.name}"
        return commands

    def _command(self, ctx: LaunchContext, directory: str, path: str, scope: Scope) -> Definition:
        relative = os.path.relpath(path, directory)[: -len(".toml")]
        name = ":".join(_command_segment(part) for part in relative.split(os.sep))
        command = Definition(self.harness, Kind.COMMAND, name, path, scope, delivery=Delivery.ON_USE)
        prompt, description, problem = toml_command(ctx.fs, path)
        if problem is None and description is not None and not isinstance(description, str):
            problem = "its `description` is not text"
        if problem is not None:
            command.drop(Issue("invalid-definition", f"Gemini CLI does not load this command: {problem}"))
            return command
        command.body = prompt
        command.description = description if isinstance(description, str) and description else None
        return command

    def command_message(self, ctx: LaunchContext, command: Definition, arguments: str) -> str:
        return command_message(ctx.fs, ctx.cwd, GEMINI, command.name, arguments, command.body or "")

    def typed_line_message(self, ctx: LaunchContext, catalog: Catalog, name: str, arguments: str) -> str | None:
        """The line's `@path` references read (`handleAtCommand`, `gemini_at`)."""
        harness = harness_model("gemini", Gemini)
        context_file = harness.settings(ctx, Cascade(self.harness, ctx.cwd)).file_names[0]

        def jit(path: str) -> str:
            return "\n\n".join(block.text for block in harness.on_read(ctx, path).blocks)

        return typed_line_message(ctx.fs, ctx.cwd, context_file, jit, typed_line(name, arguments))

    def _skill_files(self, ctx: LaunchContext, directory: str) -> list[str]:
        if not ctx.fs.is_dir(directory):
            return []
        candidates = [os.path.join(directory, "SKILL.md")]
        candidates += [os.path.join(directory, e, "SKILL.md") for e in sorted(ctx.fs.list_dir(directory), reverse=True)]
        return [p for p in candidates if ctx.fs.is_file(p)]

    def _skill(self, ctx: LaunchContext, path: str, scope: Scope) -> Definition:
        parsed = parse_definition(ctx.fs, path)
        name, description = parsed.text_field("name"), parsed.text_field("description")
        safe = _UNSAFE.sub("-", name or "")
        skill = skill_definition(
            self.harness,
            safe,
            path,
            scope,
            parsed,
            description=description,
            declared_name=name if name and name != safe else None,
        )
        issue = unreadable_issue(self.title, parsed, "skill")
        if issue is None and parsed.header and parsed.bom:  # `FRONTMATTER_REGEX` must match at the start, BOM kept (GD-20)
            issue = Issue("invalid-definition", "Gemini CLI does not load a skill whose header follows a byte-order mark")
        if issue is None and (not parsed.header or name is None or description is None):
            missing = [key for key, value in (("name", name), ("description", description)) if value is None]
            issue = Issue(
                "invalid-definition",
                "Gemini CLI does not load a skill without a `---` header"
                if not parsed.header
                else "Gemini CLI does not load a skill without " + " and ".join(f"`{key}`" for key in missing),
            )
        if issue is not None:
            skill.drop(issue)
        else:
            skill.delivery = Delivery.LISTED
        return skill

    def skills_listing(self, catalog: Catalog) -> str:
        lines = [HEADER, "", "<available_skills>", "  [Gemini CLI built-in skills]"]
        skills = [d for d in catalog.definitions if d.kind == Kind.SKILL]
        winners = {s.name: s for s in skills if s.delivery == Delivery.LISTED}
        # A later location wins a name in the place where the name first appeared.
        for skill in (winners[n] for n in dict.fromkeys(s.name for s in skills if s.name in winners)):
            lines += [
                "  <skill>",
                f"    <name>{skill.name}</name>",
                f"    <description>{skill.description}</description>",
                f"    <location>{skill.path}</location>",
                "  </skill>",
            ]
        return "\n".join([*lines, "</available_skills>"])

    def start_layers(self, ctx: LaunchContext, catalog: Catalog, start: StartText, agent: Definition | None) -> list[Layer]:
        layers = [base_layer("Gemini CLI", start, None), Layer("skills", "system", self.skills_listing(catalog), "mixed")]
        return layers + instruction_layers(start) + [Layer("environment", "user", start.environment, "harness")]
